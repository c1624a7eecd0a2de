//! The AMX random campaign: the fast model (or any model of `vecfp`) against the reference on
//! random states and random operand streams, as upstream's `test.c` checks the emulator against
//! hardware (corsix/amx `test.c`): the whole 5120-byte state random, operands in sequence with the
//! state carried over, the whole state compared after every operand.
//!
//! Unlike `test.c`, whose fully random operands are no-ops 7/8 of the time (MBZ ≠ 0) and hit a
//! valid ALU mode rarely, half of the operands here are a semantic class of the chip
//! (`amx_reference::classes`) with random offsets, ZROW and lane count, and half fully random bits;
//! and lanes are special values a quarter of the time. Case `i` of a chip is a function of
//! `(seed, chip, i)` alone, computed in constant time, so any case replays by its id
//! (`random/streams/<i>` in a report; `amx/<chip>/random/<i>` seeds it) and a failure prints a
//! regression vector in the `amx-vectors/1` form.

use amx_reference::classes::{self, Class};
use amx_reference::{Chip, Field, Operand, State, StateDoc};
use rayon::prelude::*;

use super::format::{AmxVector, AmxWord};
use super::generate::random_state_of;
use super::run::differences;
use harness_core::rng::Rng;

/// Operands per case.
pub const STREAM_LEN: usize = 16;

/// One random case.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AmxCase {
    /// `amx/<chip>/random/<index>`.
    pub id: String,
    /// The chip profile.
    pub chip: Chip,
    /// The state before.
    pub pre: State,
    /// The operands.
    pub program: Vec<Operand>,
}

/// A model of `vecfp`: runs one operand.
pub type VecfpFn<'a> = dyn Fn(&mut State, Chip, Operand) + Sync + 'a;

/// A case that went wrong: the first operand after which the states differ.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AmxDivergence {
    /// The case's id.
    pub id: String,
    /// The index of the operand after which the states first differ.
    pub step: usize,
    /// What differs (registers, expected and got) and the operand.
    pub details: String,
    /// A regression vector (YAML) of the case cut at that operand, to paste into a vector file.
    pub snippet: String,
}

/// The id of case `index` of `chip`.
pub fn case_id(chip: Chip, index: u64) -> String {
    format!("amx/{}/random/{index}", chip.name().to_ascii_lowercase())
}

/// Case `index` of `chip` for `seed`.
pub fn nth_case(chip: Chip, seed: u64, index: u64) -> AmxCase {
    nth_case_of(chip, seed, index, &classes::classes(chip))
}

/// [`nth_case`] with the chip's classes (`classes::classes(chip)`, some 38,000 of them on M2+)
/// built once by the caller.
fn nth_case_of(chip: Chip, seed: u64, index: u64, all: &[Class]) -> AmxCase {
    let id = case_id(chip, index);
    let mut rng = Rng::stream(seed, &id);
    let lanes = amx_reference::LaneWidth::on(chip);
    let lw = lanes[rng.below(lanes.len() as u32) as usize];
    let pre = random_state_of(&mut rng, lw);
    let program = (0..STREAM_LEN)
        .map(|_| {
            if rng.below(2) == 0 {
                Operand(rng.next_u64())
            } else {
                let class: Class = all[rng.below(all.len() as u32) as usize];
                let mut op = class.operand();
                for (field, bits) in [(Field::XOFF, 9), (Field::YOFF, 9), (Field::ZROW, 6)] {
                    if rng.below(2) == 0 {
                        op = op.with(field, rng.next_u64() & ((1 << bits) - 1)).unwrap_or(op);
                    }
                }
                op
            }
        })
        .collect();
    AmxCase { id, chip, pre, program }
}

/// Runs `case` on the reference and on `model`, comparing the whole state after every operand.
pub fn check_case(case: &AmxCase, model: &VecfpFn<'_>) -> Option<AmxDivergence> {
    let (mut expected, mut got) = (case.pre.clone(), case.pre.clone());
    for (step, &op) in case.program.iter().enumerate() {
        amx_reference::vecfp(&mut expected, case.chip, op);
        model(&mut got, case.chip, op);
        if let Some(diff) = differences(&expected, &got) {
            let details = format!("after operand {step} `{op}` ({:#018x}) on {}:\n{diff}", op.0, case.chip);
            return Some(AmxDivergence { id: case.id.clone(), step, details, snippet: snippet(case, step) });
        }
    }
    None
}

/// The regression vector of `case` cut after operand `step`, with the reference's result.
pub fn snippet(case: &AmxCase, step: usize) -> String {
    let program = &case.program[..=step.min(case.program.len().saturating_sub(1))];
    let mut after = case.pre.clone();
    for &op in program {
        amx_reference::vecfp(&mut after, case.chip, op);
    }
    let v = AmxVector {
        id: format!("{}/regression/{}", case.chip.name().to_ascii_lowercase(), case.id.replace('/', "-")),
        mode: "regression".to_string(),
        tags: vec!["regression".to_string(), format!("from={}", case.id)],
        program: program.iter().map(|&op| AmxWord::of(op)).collect(),
        pre: StateDoc::from_state(&case.pre),
        post: StateDoc::changes(&case.pre, &after),
    };
    serde_yaml::to_string(&[v]).unwrap_or_default()
}

/// The result of a campaign on one chip.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CampaignResult {
    /// Cases run.
    pub cases: u64,
    /// Operands run.
    pub operands: u64,
    /// The cases that diverged, in index order.
    pub divergences: Vec<AmxDivergence>,
}

/// Runs cases `0..cases` of `chip` on `model`, in parallel; deterministic in `seed`.
pub fn run_campaign(chip: Chip, seed: u64, cases: u64, model: &VecfpFn<'_>) -> CampaignResult {
    let all = classes::classes(chip);
    let divergences: Vec<AmxDivergence> = (0..cases)
        .into_par_iter()
        .filter_map(|i| check_case(&nth_case_of(chip, seed, i, &all), model))
        .collect();
    CampaignResult { cases, operands: cases * STREAM_LEN as u64, divergences }
}

#[cfg(test)]
mod tests {
    use super::*;
    use amx_fastpath::{Plan, PlantedBug};

    fn fast(s: &mut State, chip: Chip, op: Operand) {
        amx_fastpath::vecfp(s, chip, op);
    }

    #[test]
    fn cases_are_deterministic_and_constant_time_in_the_index() {
        assert_eq!(nth_case(Chip::M2, 7, 12), nth_case(Chip::M2, 7, 12));
        assert_ne!(nth_case(Chip::M2, 7, 12).program, nth_case(Chip::M2, 7, 13).program);
        assert_ne!(nth_case(Chip::M2, 7, 12).program, nth_case(Chip::M4, 7, 12).program);
        // A case far out is as cheap as the first (no walk from 0).
        let far = nth_case(Chip::M1, 7, u64::MAX);
        assert_eq!(far.id, "amx/m1/random/18446744073709551615");
        assert_eq!(far.program.len(), STREAM_LEN);
    }

    #[test]
    fn the_fast_model_agrees_on_a_campaign_per_chip() {
        for chip in Chip::ALL {
            let r = run_campaign(chip, 0xC0FFEE, 300, &fast);
            assert_eq!(r.cases, 300);
            assert!(r.divergences.is_empty(), "{chip}: {}", r.divergences[0].details);
        }
    }

    /// The campaign finds the fast model's planted double rounding of bf16 (§5) on M2, and its
    /// snippet is a vector that the reference passes and the planted model fails.
    #[test]
    fn a_planted_bug_is_found_with_a_replayable_snippet() {
        let planted =
            |s: &mut State, chip: Chip, op: Operand| Plan::planted(chip, op, PlantedBug::Bf16ViaF32).run(s);
        let r = run_campaign(Chip::M2, 0xC0FFEE, 2000, &planted);
        let d = r.divergences.first().expect("the planted bf16 double rounding is found");
        assert!(d.details.contains("Z["), "{}", d.details);
        let yaml = format!(
            "format: amx-vectors/1\nisa: amx\nchip: M2\nfile: m2\nprovenance: test\nvectors:\n{}",
            d.snippet
        );
        let (_, vectors) = super::super::format::parse("snippet.yaml", &yaml).expect("the snippet loads");
        let pass = crate::run_file(&crate::model::AmxReference, Chip::M2, &vectors);
        assert!(pass[0].failure.is_none());
        let mut s = vectors[0].pre.clone();
        for &op in &vectors[0].program {
            planted(&mut s, Chip::M2, op);
        }
        assert_ne!(s, vectors[0].expected, "the planted model fails the snippet");
    }
}
