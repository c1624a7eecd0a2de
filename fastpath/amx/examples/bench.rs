//! Operands per second of the fast model against the reference model, in one run, per class of
//! operand: the FMA of each lane width, a mix of random operations, indexed loads, multiple
//! vectors, and `test.c`'s fully random operands (mostly no-ops).
//!
//! ```sh
//! cargo run --release -p amx-fastpath --example bench            # about 1 minute
//! cargo run --release -p amx-fastpath --example bench -- 0.3     # seconds per measurement
//! cargo run --release -p amx-fastpath --example bench -- 1 f32    # only the classes named *f32*
//! ```
//!
//! Each class runs a fixed list of 4096 operands of the class over and over on one state (biased
//! to the class's formats, reset every pass so it does not fill with NaNs). The columns are the
//! reference (`amx_reference::vecfp`), the fast model through `vecfp` with the level the CPU
//! selects, the same with the portable level (`Plan::new(..).run_at(Level::Portable, ..)`), and the fast model with the 4096 plans
//! built once and reused (`Plan::run`). The columns are measured in turn, five rounds of about
//! a fifth of the given time each (default 1 s per column), and each column reports its best
//! round: on a shared machine the other rounds measure the neighbours' load. Ratios are within
//! one run; absolute figures move with the machine.

#[path = "../tests/it/common/mod.rs"]
mod common;

use std::hint::black_box;
use std::time::Instant;

use amx_fastpath::Plan;
use amx_fastpath::simd::{self, Level};
use amx_reference::{Chip, Field, Operand, State};
use common::Rng;
use common::*;

/// Operands per second of `f` (one pass over the operand list, `n` operands) run for `secs`.
fn rate(secs: f64, n: usize, f: &mut dyn FnMut()) -> f64 {
    let start = Instant::now();
    let mut passes = 0u64;
    while start.elapsed().as_secs_f64() < secs || passes == 0 {
        f();
        passes += 1;
    }
    (passes as f64 * n as f64) / start.elapsed().as_secs_f64()
}

/// The best of five interleaved rounds of each column, in operands per second.
fn measure<const C: usize>(secs: f64, n: usize, columns: &mut [&mut dyn FnMut(); C]) -> [f64; C] {
    let mut best = [0f64; C];
    for _round in 0..5 {
        for (b, f) in best.iter_mut().zip(columns.iter_mut()) {
            *b = b.max(rate(secs / 5.0, n, *f));
        }
    }
    best
}

struct Class {
    name: &'static str,
    chip: Chip,
    operand: fn(&mut Rng, Chip) -> Operand,
}

fn fma_of(lw: u64) -> fn(&mut Rng, Chip) -> Operand {
    match lw {
        0 => |r, c| fma(r, c, 0),
        1 => |r, c| fma(r, c, 1),
        3 => |r, c| fma(r, c, 3),
        4 => |r, c| fma(r, c, 4),
        7 => |r, c| fma(r, c, 7),
        _ => |r, c| fma(r, c, 2),
    }
}

/// An FMA of width `lw` on one vector with every lane enabled, random offsets and shuffles.
fn fma(rng: &mut Rng, chip: Chip, lw: u64) -> Operand {
    let op = sane(chip, rng.next(), 1); // choice 1: not indexed, the first valid ALU mode (0, FMA)
    let op = set(set(set(op, Field::LW, lw), Field::MULTI, 0), Field::WM_MODE, 0);
    set(op, Field::WM_N, 0)
}

fn main() {
    let secs: f64 = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(1.0);
    let only = std::env::args().nth(2).unwrap_or_default();
    let classes = [
        Class { name: "f16 FMA", chip: Chip::M2, operand: fma_of(2) },
        Class { name: "bf16 FMA", chip: Chip::M2, operand: fma_of(0) },
        Class { name: "f32 FMA", chip: Chip::M2, operand: fma_of(4) },
        Class { name: "f64 FMA", chip: Chip::M2, operand: fma_of(7) },
        Class { name: "f16->f32 pair FMA", chip: Chip::M2, operand: fma_of(3) },
        Class { name: "bf16->f32 pair FMA", chip: Chip::M2, operand: fma_of(1) },
        Class { name: "indexed loads", chip: Chip::M2, operand: |r, c| sane(c, r.next(), 0) },
        Class {
            name: "multi-vector (4 iterations)",
            chip: Chip::M4,
            operand: |r, c| set(set(sane(c, r.next(), r.next()), Field::MULTI, 1), Field::FOUR, 1),
        },
        Class { name: "mixed operations", chip: Chip::M2, operand: |r, c| sane(c, r.next(), r.next()) },
        Class { name: "fully random (test.c)", chip: Chip::M2, operand: |r, _| Operand(r.next()) },
    ];
    let best = simd::level();
    println!(
        "{secs} s per column (best of 5 interleaved rounds); fast level {best:?}; {} cores\n",
        std::thread::available_parallelism().map_or(1, |c| c.get())
    );
    println!(
        "| class | reference Mop/s | fast Mop/s | fast / reference | portable Mop/s | plan reused Mop/s |"
    );
    println!("|---|---:|---:|---:|---:|---:|");
    let mut log_ratio = (0f64, 0u32);
    for class in classes.iter().filter(|c| c.name.contains(&only)) {
        let mut rng = Rng::new(0xBE7C);
        let ops: Vec<Operand> = (0..4096).map(|_| (class.operand)(&mut rng, class.chip)).collect();
        let start_state: State = biased_state(&mut rng, class.chip, ops[0]);
        let plans: Vec<Plan> = ops.iter().map(|&op| Plan::new(class.chip, op)).collect();
        let chip = class.chip;
        let mut s = start_state.clone();
        let mut s2 = start_state.clone();
        let mut s3 = start_state.clone();
        let mut s4 = start_state.clone();
        let mut reference = || {
            s.clone_from(&start_state);
            for &op in &ops {
                amx_reference::vecfp(&mut s, chip, op);
            }
            black_box(&s);
        };
        let mut fast = || {
            s2.clone_from(&start_state);
            for &op in &ops {
                amx_fastpath::vecfp(&mut s2, chip, op);
            }
            black_box(&s2);
        };
        let mut portable = || {
            s3.clone_from(&start_state);
            for &op in &ops {
                Plan::new(chip, op).run_at(Level::Portable, &mut s3);
            }
            black_box(&s3);
        };
        let mut reused = || {
            s4.clone_from(&start_state);
            for p in &plans {
                p.run(&mut s4);
            }
            black_box(&s4);
        };
        let [reference, fast, portable, reused] =
            measure(secs, ops.len(), &mut [&mut reference, &mut fast, &mut portable, &mut reused]);
        log_ratio = (log_ratio.0 + (fast / reference).ln(), log_ratio.1 + 1);
        println!(
            "| {} | {:.2} | {:.2} | {:.1}x | {:.2} | {:.2} |",
            class.name,
            reference / 1e6,
            fast / 1e6,
            fast / reference,
            portable / 1e6,
            reused / 1e6
        );
    }
    if log_ratio.1 > 0 {
        println!(
            "\ngeometric mean of fast / reference over these classes: {:.1}x",
            (log_ratio.0 / log_ratio.1 as f64).exp()
        );
    }
}
