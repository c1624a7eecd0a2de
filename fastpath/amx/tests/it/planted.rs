//! The comparison can fail: fast models with a planted bug ([`amx_fastpath::PlantedBug`], built
//! only through the hidden `Plan::planted`) are run through the same random comparison with the
//! reference as the other tests, and each must be caught within a budget, with a report naming
//! the operand. The bugs are chosen to be the kind that slip through: a numeric one that only
//! shows near bf16 ties, an M4-only mode one, and a permutation one.

use crate::common::Rng;
use crate::common::*;
use amx_fastpath::{Plan, PlantedBug};
use amx_reference::{Chip, Field, Operand};

/// Runs random cases (operands from `operand`, states from [`state_for`]) on the planted model
/// until the comparison reports a divergence; returns the case number and the report.
fn hunt(
    bug: PlantedBug,
    seed: u64,
    budget: u64,
    operand: impl Fn(&mut Rng) -> (Chip, Operand),
) -> Option<(u64, String)> {
    let mut rng = Rng::new(seed);
    for case in 0..budget {
        let (chip, op) = operand(&mut rng);
        let before = state_for(&mut rng, chip, op);
        let planted = Plan::planted(chip, op, bug);
        if let Err(report) = compare_with(chip, op, &before, |s| planted.run(s)) {
            return Some((case, report));
        }
    }
    None
}

fn assert_caught(bug: PlantedBug, found: Option<(u64, String)>, budget: u64) {
    match found {
        Some((case, report)) => {
            assert!(report.contains("vecfp divergence") && report.contains("regression (YAML)"), "{report}");
            eprintln!(
                "{bug:?} caught at case {case}:\n{}",
                report.lines().take(8).collect::<Vec<_>>().join("\n")
            );
        }
        None => panic!("the planted bug {bug:?} was not caught in {budget} random cases"),
    }
}

/// bf16 arithmetic through an f32 FMA and one narrowing (§5's double rounding). Random operands
/// of the bf16 width with arithmetic modes; the biased states hold the short significands and
/// tiny addends that make ties.
#[test]
fn bf16_double_rounding_is_caught() {
    let budget = 20_000;
    let found = hunt(PlantedBug::Bf16ViaF32, 1, budget, |rng| {
        let chip = rng.pick(&[Chip::M2, Chip::M4]);
        let op = sane(chip, rng.next(), rng.next());
        (chip, set(set(op, Field::LW, 0), Field::MULTI, 0))
    });
    assert_caught(PlantedBug::Bf16ViaF32, found, budget);
}

/// M4 without its offset masking (§2.6). Random operations on M4, any shape.
#[test]
fn m4_masking_ignored_is_caught() {
    let budget = 20_000;
    let found = hunt(PlantedBug::M4MaskingIgnored, 2, budget, |rng| {
        (Chip::M4, sane(Chip::M4, rng.next(), rng.next()))
    });
    assert_caught(PlantedBug::M4MaskingIgnored, found, budget);
}

/// S1 taking the halves in the wrong order (§2.7). Random operations on any chip.
#[test]
fn shuffle_s1_swapped_is_caught() {
    let budget = 20_000;
    let found = hunt(PlantedBug::ShuffleS1Swapped, 3, budget, |rng| {
        let chip = rng.pick(&Chip::ALL);
        (chip, sane(chip, rng.next(), rng.next()))
    });
    assert_caught(PlantedBug::ShuffleS1Swapped, found, budget);
}

/// Without the bug, the same hunts find nothing (so the catches above are the bugs').
#[test]
fn unplanted_model_is_not_caught() {
    let mut rng = Rng::new(4);
    for _ in 0..20_000 {
        let chip = rng.pick(&Chip::ALL);
        let op = sane(chip, rng.next(), rng.next());
        let before = state_for(&mut rng, chip, op);
        let plan = Plan::new(chip, op);
        if let Err(report) = compare_with(chip, op, &before, |s| plan.run(s)) {
            panic!("{report}");
        }
    }
}
