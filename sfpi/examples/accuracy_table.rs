//! Prints the accuracy of every numerical kernel on both chips as a Markdown table (the table of
//! `sfpi/README.md`), and where the chips differ.
//!
//! `cargo run --release -p sfpi --example accuracy_table [seed]`

use sfpi::Arch;
use sfpi::accuracy::{accuracy, chip_difference};
use sfpi::kernels::registry;

fn main() {
    let seed: u64 = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(2024);
    println!(
        "| kernel | unit | Blackhole max / mean | Wormhole max / mean | bound max / mean | lanes differing |"
    );
    println!("|---|---|---:|---:|---:|---:|");
    for def in registry().into_iter().filter(|d| d.numeric.is_some()) {
        let a: Vec<_> = Arch::ALL.iter().map(|&arch| accuracy(&def, arch, seed)).collect();
        let cell = |i: usize| match &a[i] {
            Ok(x) => format!("{:.3} / {:.3}", x.max_ulp, x.mean_ulp),
            Err(e) => format!("error: {e}"),
        };
        let (unit, bound) = match &a[0] {
            Ok(x) => (format!("{:?}", x.unit), format!("{} / {}", x.bound_max_ulp, x.bound_mean_ulp)),
            Err(_) => (String::new(), String::new()),
        };
        let diff = match chip_difference(&def, seed) {
            Ok(d) => format!("{} of {} (max {} ULP)", d.differing, d.samples, d.max_ulp),
            Err(e) => format!("error: {e}"),
        };
        println!("| {} | {unit} | {} | {} | {bound} | {diff} |", def.name, cell(0), cell(1));
    }
}
