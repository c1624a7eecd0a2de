//! A fixed amount of work for counting instructions, where wall-clock benchmarks are too noisy
//! (a shared machine): executes the first `N` instructions of a fixed stream of one bench class
//! on the fast model, on either chip.
//!
//! ```text
//! cargo build --release -p sfpu-fastpath --example fixed_work
//! valgrind --tool=cachegrind --cache-sim=no target/release/examples/fixed_work integer 10000 [wormhole]
//! ```
//!
//! Run it with `N` and `2N`: the difference of the two instruction counts, divided by `N`, is the
//! cost of one executed instruction (the stream is generated whole either way).
//! `fastpath/sfpu/README.md`, "Counting instructions", shows the two runs.

use sfpu_fastpath::{FastMachine, FastState};
use sfpu_reference::isa::{Arch, Instr, Opcode, decode};
use sfpu_reference::state::{LaneConfig, ResetValues, State};

/// Xorshift64: a fixed sequence.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// 40,000 instructions of `arch` from the opcodes of `class` (the classes of `cargo xtask bench`),
/// fields random, register fields in 0..8 (no backdoor loads).
fn stream(arch: Arch, class: &str) -> Vec<Instr> {
    use Opcode::*;
    let ops: Vec<Opcode> = match class {
        "integer" => vec![SFPIADD, SFPAND, SFPOR, SFPXOR, SFPNOT, SFPSHFT, SFPLZ, SFPABS],
        "fp_field" => vec![SFPDIVP2, SFPEXEXP, SFPEXMAN, SFPSETEXP, SFPSETMAN, SFPSETSGN, SFPMOV],
        "fma" => vec![SFPMAD, SFPADD, SFPMUL, SFPADDI, SFPMULI, SFPLUT, SFPLUTFP32],
        "conversion" => vec![SFPLOAD, SFPSTORE, SFPLOADI, SFPCAST, SFPSTOCHRND],
        "cross_lane" => vec![SFPSWAP, SFPTRANSP, SFPSHFT2],
        "predication" => vec![SFPSETCC, SFPENCC, SFPPUSHC, SFPPOPC, SFPCOMPC, SFPGT, SFPLE],
        "loadmacro" => vec![SFPLOADMACRO],
        _ => Opcode::ALL.to_vec(),
    };
    let ops: Vec<Opcode> = ops.into_iter().filter(|&op| arch.has(op)).collect();
    let mut r = Rng(0x1234_5678_9ABC_DEF1);
    let mut out = Vec::new();
    while out.len() < 40_000 {
        let op = ops[(r.next() % ops.len() as u64) as usize];
        let mut w = ((op.number() as u32) << 24) | (r.next() as u32 & op.drawn_mask(arch) & 0xFF_FFFF);
        for f in op.fields(arch) {
            if f.bits == 4 && f.name.starts_with('V') {
                w = (w & !f.mask()) | ((r.next() as u32 & 7) << f.lo);
            }
        }
        if let Ok(i) = decode(arch, w) {
            out.push(i);
        }
    }
    out
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let class = args.get(1).map_or("mixed", String::as_str);
    let n: usize = args.get(2).and_then(|v| v.parse().ok()).unwrap_or(10_000).min(40_000);
    let arch = args.get(3).and_then(|a| a.parse().ok()).unwrap_or(Arch::Blackhole);
    let mut st = State::reset(arch, &ResetValues::ZEROS);
    let mut r = Rng(99);
    for reg in 0..8 {
        for l in 0..32 {
            st.LReg[reg][l] = r.next() as u32;
        }
    }
    for l in 0..32 {
        st.LaneConfig[l] = LaneConfig::truncating(2);
        st.PRNG[l] = r.next() as u32;
    }
    let all = stream(arch, class);
    let mut s = FastState::from_state(&st);
    let mut defined = 0u64;
    if class == "loadmacro" || class == "mixed" {
        // On the cycle-level machine, as the bench does.
        let mut m = FastMachine::new();
        for i in &all[..n] {
            defined += m.issue(&mut s, i).is_defined() as u64;
        }
        defined += m.drain(&mut s).is_defined() as u64;
    } else {
        for i in &all[..n] {
            defined += sfpu_fastpath::step(&mut s, i).is_defined() as u64;
        }
    }
    println!(
        "{arch} {class}: {n} instructions, {defined} defined outcomes, LReg[0][0] = {:#010x}",
        s.lreg[0][0]
    );
}
