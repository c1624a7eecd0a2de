//! The large comparison: random operands, each on a fresh random state, the fast model against
//! `amx_reference::vecfp`, the whole state compared.
//!
//! Operands: one in eight fully random 64 bits (mostly no-ops, as in corsix/amx `test.c`), the
//! rest random operations ([`common::sane`]: MBZ cleared, a valid ALU mode or an indexed load,
//! every other field random); chips M1, M2, M4 in turn. States: raw random bytes one time in
//! four, otherwise filled with values biased to the operand's formats (specials, ties,
//! subnormals, near overflow).
//!
//! The default (100 000 cases, about 3 s) runs in `cargo test`. A larger run:
//!
//! ```sh
//! AMX_FAST_CASES=10000000 cargo test --release -p amx-fastpath --test it large:: -- --nocapture
//! ```
//!
//! `AMX_FAST_SEED` changes the seed (default 0x1A26E); `AMX_FAST_THREADS` the number of threads
//! (default: the available cores, at most 2 on the shared machine).

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use crate::common::Rng;
use crate::common::*;
use amx_reference::Chip;

#[test]
fn large_random_comparison() {
    let n = cases("AMX_FAST_CASES", 100_000);
    let seed = cases("AMX_FAST_SEED", 0x1A26E);
    let cores = std::thread::available_parallelism().map_or(1, |c| c.get()).min(2) as u64;
    let threads = cases("AMX_FAST_THREADS", cores).max(1);
    let stop = AtomicBool::new(false);
    let (wrote, done) = (AtomicU64::new(0), AtomicU64::new(0));
    let start = Instant::now();
    let failures: Vec<String> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|t| {
                let (stop, wrote, done) = (&stop, &wrote, &done);
                scope.spawn(move || {
                    let mut rng = Rng::new(seed.wrapping_mul(0x9E37_79B9).wrapping_add(t));
                    let mine = n / threads + u64::from(t < n % threads);
                    for i in 0..mine {
                        if i % 4096 == 0 && stop.load(Ordering::Relaxed) {
                            break;
                        }
                        let chip = Chip::ALL[(i % 3) as usize];
                        let op = random_operand(&mut rng, chip);
                        let before = state_for(&mut rng, chip, op);
                        match check(chip, op, &before) {
                            Ok(w) => {
                                wrote.fetch_add(w as u64, Ordering::Relaxed);
                                done.fetch_add(1, Ordering::Relaxed);
                            }
                            Err(report) => {
                                stop.store(true, Ordering::Relaxed);
                                return Some(format!("thread {t} case {i} (seed {seed:#x}):\n{report}"));
                            }
                        }
                    }
                    None
                })
            })
            .collect();
        workers.into_iter().filter_map(|w| w.join().expect("a worker panicked")).collect()
    });
    let secs = start.elapsed().as_secs_f64();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    let done = done.load(Ordering::Relaxed);
    assert_eq!(done, n);
    eprintln!(
        "{done} random operands on fresh random states agree with the reference ({} wrote Z) in {secs:.1} s \
         on {threads} threads ({:.0} cases/s, state generation included)",
        wrote.load(Ordering::Relaxed),
        done as f64 / secs
    );
}
