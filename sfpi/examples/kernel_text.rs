//! Prints a corpus kernel's lowered whole-tile program in tt-llk text form.
//!
//! `cargo run -p sfpi --example kernel_text -- exp wormhole [rows]`

use sfpi::Arch;
use sfpi::kernels::{find, registry};

fn main() {
    let mut args = std::env::args().skip(1);
    let (Some(name), arch) = (args.next(), args.next()) else {
        eprintln!("usage: kernel_text NAME [blackhole|wormhole] [rows]; kernels:");
        for k in registry() {
            eprintln!("  {:18} {}", k.name, k.description);
        }
        std::process::exit(2);
    };
    let arch: Arch = match arch.as_deref().unwrap_or("blackhole").parse() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    let rows: u32 = args.next().and_then(|r| r.parse().ok()).unwrap_or(1);
    let Some(def) = find(&name) else {
        eprintln!("no kernel `{name}`");
        std::process::exit(2);
    };
    match def.chip_kernel(arch).and_then(|k| k.lower()).and_then(|l| l.text(rows)) {
        Ok(text) => print!("{text}"),
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    }
}
