//! Every SIMD level this machine supports ([`amx_fastpath::simd::Level::supported`]) computes
//! exactly what the portable copy computes: random operations of every lane width and ALU mode
//! on random states (biased to each format's edge values, and raw bytes), the whole state
//! compared. The portable copy itself is checked against the reference and apfloat by the
//! other tests, which run with the level the machine selects (`oracle.rs` runs every level).
//! `AMX_SIMD_CASES=N` sets the count (default 60 000).

use crate::common::Rng;
use crate::common::*;
use amx_fastpath::Plan;
use amx_fastpath::simd::{self, Level};
use amx_reference::{Chip, Field};

#[test]
fn every_supported_level_equals_portable() {
    let levels = Level::supported();
    eprintln!("levels on this machine: {levels:?}");
    assert!(levels.contains(&Level::Portable));
    let n = cases("AMX_SIMD_CASES", 60_000);
    let mut rng = Rng::new(0x51D);
    let lws = [0, 1, 3, 4, 7, 2];
    for case in 0..n {
        let chip = rng.pick(&Chip::ALL);
        // Every lane width in turn, the rest random (ALU modes, indexed, lane selection, ...).
        let op = set(sane(chip, rng.next(), rng.next()), Field::LW, lws[case as usize % lws.len()]);
        let before = state_for(&mut rng, chip, op);
        let plan = Plan::new(chip, op);
        let mut portable = before.clone();
        plan.run_at(Level::Portable, &mut portable);
        for &level in &levels[1..] {
            let mut other = before.clone();
            plan.run_at(level, &mut other);
            if other != portable {
                panic!(
                    "level {level:?} differs from the portable copy (portable = expected):\n{}",
                    report(chip, op, &before, &portable, &other)
                );
            }
        }
    }
}

/// `set_level` falls back to the portable copy for a level the CPU lacks and reports what is in
/// force; whatever is in force, `vecfp` gives the same result.
#[test]
fn set_level_reports_what_runs() {
    let before = simd::level();
    for level in Level::ALL {
        let got = simd::set_level(level);
        assert_eq!(got, if level.available() { level } else { Level::Portable });
        assert_eq!(simd::level(), got);
    }
    simd::set_level(before);
}
