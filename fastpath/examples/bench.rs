//! Rough throughput comparison: `cargo run --release -p sfpu-fastpath --example bench [-- --summary]`.
//!
//! Prints nanoseconds per instruction for the fast model and the reference on a mixed random
//! instruction stream, and the FMA family and integer instructions against native 32-lane loops.
//!
//! Times are the thread's on-CPU time where Linux reports it (`/proc/thread-self/schedstat`), so
//! that other processes competing for the cores inflate them less than wall-clock time would;
//! elsewhere wall-clock time. Each figure is the best of several runs.

use std::hint::black_box;
use std::time::Instant;

/// Nanoseconds of CPU time this thread has used (wall-clock time since the first call where the
/// kernel does not say).
fn now_ns() -> f64 {
    thread_local!(static START: Instant = Instant::now());
    if let Ok(t) = std::fs::read_to_string("/proc/thread-self/schedstat")
        && let Some(ns) = t.split_whitespace().next().and_then(|v| v.parse::<f64>().ok())
        && ns > 0.0
    {
        return ns;
    }
    START.with(|s| s.elapsed().as_nanos() as f64)
}

use sfpu_fastpath::FastState;
use sfpu_reference::isa::{Arch, Instr, Opcode, decode};
use sfpu_reference::state::{ResetValues, State};

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

fn stream(n: usize, ops: &[Opcode], seed: u64) -> Vec<Instr> {
    let mut r = Rng(seed);
    let mut v = Vec::with_capacity(n);
    while v.len() < n {
        let op = ops[(r.next() % ops.len() as u64) as usize];
        let mut w = ((op.number() as u32) << 24) | (r.next() as u32 & op.drawn_mask() & 0x00FF_FFFF);
        // Keep results in writable registers and away from backdoor loads most of the time.
        for f in op.fields() {
            if f.bits == 4 && f.name.starts_with('V') {
                w = (w & !f.mask()) | (((r.next() % 8) as u32) << f.lo);
            }
        }
        if let Ok(i) = decode(Arch::Blackhole, w) {
            v.push(i);
        }
    }
    v
}

fn state() -> State {
    let mut s = State::reset(&ResetValues::ZEROS);
    let mut r = Rng(7);
    for reg in 0..8 {
        for l in 0..32 {
            s.LReg[reg][l] = (r.next() as u32 & 0x83FF_FFFF) | 0x3C00_0000;
        }
    }
    for l in 0..32 {
        s.LaneConfig[l] = sfpu_reference::state::LaneConfig::new(2).unwrap();
    }
    s
}

/// Nanoseconds per item of `pass` (which handles `items` items per call): calls it until at least
/// `budget_ms` of time has passed, and keeps the best of `runs` such measurements. The clock is
/// read only every few milliseconds (reading the CPU clock costs microseconds).
fn per_item(items: usize, runs: usize, budget_ms: f64, mut pass: impl FnMut()) -> f64 {
    let mut k = 1usize;
    loop {
        let t = Instant::now();
        for _ in 0..k {
            pass();
        }
        if t.elapsed().as_secs_f64() >= 2e-3 || k >= 1 << 20 {
            break;
        }
        k *= 2;
    }
    (0..runs)
        .map(|_| {
            let t = now_ns();
            let mut calls = 0usize;
            loop {
                for _ in 0..k {
                    pass();
                }
                calls += k;
                let e = now_ns() - t;
                if e >= budget_ms * 1e6 {
                    return e / (calls * items) as f64;
                }
            }
        })
        .fold(f64::INFINITY, f64::min)
}

fn time_fast(prog: &[Instr], runs: usize, budget_ms: f64) -> f64 {
    let mut f = FastState::from_state(&state());
    per_item(prog.len(), runs, budget_ms, || {
        for i in prog {
            black_box(sfpu_fastpath::step(&mut f, black_box(i)));
        }
    })
}

fn time_ref(prog: &[Instr], runs: usize, budget_ms: f64) -> f64 {
    let mut s = state();
    per_item(prog.len(), runs, budget_ms, || {
        for i in prog {
            black_box(sfpu_reference::step(&mut s, black_box(i)));
        }
    })
}

fn native_fma() -> f64 {
    let mut a = [1.0001f32; 32];
    let b = [0.9999f32; 32];
    let c = [0.5f32; 32];
    per_item(1000, 5, 200.0, || {
        for _ in 0..1000 {
            let (bb, cc) = (black_box(&b), black_box(&c));
            for l in 0..32 {
                a[l] = a[l].mul_add(bb[l], cc[l]);
            }
            black_box(&mut a);
        }
    })
}

fn native_add() -> f64 {
    let mut a = [1u32; 32];
    let b = [3u32; 32];
    per_item(1000, 5, 200.0, || {
        for _ in 0..1000 {
            let bb = black_box(&b);
            for l in 0..32 {
                a[l] = a[l].wrapping_add(bb[l]);
            }
            black_box(&mut a);
        }
    })
}

fn main() {
    let all: Vec<Opcode> = Opcode::ALL.to_vec();
    let fma = [
        Opcode::SFPMAD,
        Opcode::SFPADD,
        Opcode::SFPMUL,
        Opcode::SFPADDI,
        Opcode::SFPMULI,
        Opcode::SFPLUT,
        Opcode::SFPLUTFP32,
    ];
    let int = [
        Opcode::SFPIADD,
        Opcode::SFPAND,
        Opcode::SFPOR,
        Opcode::SFPXOR,
        Opcode::SFPNOT,
        Opcode::SFPSHFT,
        Opcode::SFPABS,
        Opcode::SFPLZ,
    ];
    let mixed = stream(4096, &all, 1);
    let f = time_fast(&mixed, 5, 300.0);
    let r = time_ref(&mixed, 3, 300.0);
    println!("mixed stream: fast {f:.1} ns/instr, reference {r:.1} ns/instr, ratio {:.1}x", r / f);
    let fp = stream(4096, &fma, 2);
    let nf = native_fma();
    let ff = time_fast(&fp, 5, 300.0);
    println!("FMA family: fast {ff:.1} ns/instr, native 32-lane mul_add {nf:.1} ns, ratio {:.2}x", ff / nf);
    let ip = stream(4096, &int, 3);
    let na = native_add();
    let fi = time_fast(&ip, 5, 300.0);
    println!("integer/bitwise: fast {fi:.1} ns/instr, native 32-lane add {na:.2} ns, ratio {:.2}x", fi / na);
    // `-- --summary` skips the per-opcode table.
    if std::env::args().any(|a| a == "--summary") {
        return;
    }
    for op in Opcode::ALL {
        let p = stream(1024, &[*op], 9);
        let t = time_fast(&p, 2, 100.0);
        let tr = time_ref(&p, 2, 100.0);
        println!("  {:<13} fast {t:>8.1} ns  reference {tr:>9.1} ns  ratio {:>7.1}x", op.name(), tr / t);
    }
}
