//! AMX through the ISA-neutral core: the report section of a chip profile covers every semantic
//! class with vectors and random cases, both models pass it, and a planted bug in a model is found
//! with replayable ids and pasteable regression vectors.

use amx_fastpath::{Plan, PlantedBug};
use amx_reference::{Chip, LaneWidth, Operand, State};
use harness_amx::format::parse;
use harness_amx::generate::cells;
use harness_amx::isa::{Amx, AmxFast, AmxReference};
use harness_core::campaign::parse_case_id;
use harness_core::isa::{Isa, Job, Model, ModelError, Run, Strictness};

use crate::section;

/// The campaign's seed in these tests.
const SEED: u64 = 0xA3C0;

/// Case `index` of `job` of `chip`'s campaign: (pre, program).
fn case(chip: Chip, job: &Job, index: u64) -> (State, Vec<Operand>) {
    let c = Amx::job_case(chip, SEED, job, index, Strictness::Silicon).expect("a case");
    (c.pre, c.program)
}

/// The fast model with one of its planted bugs (amx-fastpath's `PlantedBug`).
struct Planted(PlantedBug);

impl Model<Amx> for Planted {
    fn name(&self) -> String {
        format!("planted-{:?}", self.0)
    }

    fn run(&self, chip: Chip, pre: &State, program: &[Operand]) -> Result<Run<State, ()>, ModelError> {
        let mut s = pre.clone();
        for &op in program {
            Plan::planted(chip, op, self.0).run(&mut s);
        }
        Ok(Run { post: s, outcome: Some(()) })
    }
}

/// Every class of every chip profile has a vector and random cases on the fast model, and
/// nothing fails: the report has no untested AMX cell.
#[test]
fn every_amx_cell_is_tested_and_both_models_pass() {
    for chip in Chip::ALL {
        let r = section(chip, &[&AmxReference, &AmxFast], SEED, 2, 2);
        assert_eq!(r.isa, "amx");
        assert_eq!(r.arch, Amx::chip_name(chip));
        assert!(r.failures.is_empty(), "{chip}: {:#?}", r.failures.first());
        // One row per class, plus the streams.
        assert_eq!(r.matrix.len(), cells(chip).len() + 1, "{chip}");
        for row in &r.matrix {
            let fast = row.per_model.get("fastpath").copied().unwrap_or_default();
            if row.instruction == "streams" {
                assert_eq!(fast.random_cases, 2 * 16, "{chip}: the streams, 16 per case of a class");
                continue;
            }
            let reference = row.per_model.get("reference").copied().unwrap_or_default();
            assert!(reference.vectors_run >= 1, "{chip}: no vector of {} {}", row.instruction, row.mode);
            assert_eq!(reference.passed, reference.vectors_run, "{chip} {} {}", row.instruction, row.mode);
            assert_eq!(fast.passed, fast.vectors_run);
            assert_eq!(fast.random_cases, 2, "{chip}: {} {}", row.instruction, row.mode);
        }
        for c in &r.coverage {
            assert_eq!(c.cells, c.cells_covered, "{chip} {}", c.model);
            assert_eq!(c.cells as usize, r.matrix.len() - usize::from(c.model == "reference"));
        }
    }
}

/// The M2 class rows include the shuffles, every ALU mode of the chip and the §5 example; M1's
/// lack bf16 lane widths (§1.2: LW 0 and 1 are f16 there).
#[test]
fn the_cells_are_the_notes_classes() {
    let m2: Vec<(String, String)> =
        Amx::cells(Chip::M2).into_iter().map(|c| (c.instruction, c.mode)).collect();
    for (axis, mode) in [
        ("shuffle", "f32/xshuf=1"),
        ("shuffle", "bf16/yshuf=3"),
        ("numeric", "bf16/min"),
        ("numeric", "f64/add-y"),
        ("named", "bf16-double-rounding"),
        ("offset", "f32/x-wrap"),
    ] {
        assert!(m2.contains(&(axis.to_string(), mode.to_string())), "M2 lacks {axis} {mode}");
    }
    let m1: Vec<String> = Amx::cells(Chip::M1).into_iter().map(|c| c.mode).collect();
    assert!(m1.iter().all(|m| !m.starts_with("bf16")), "M1 has no bf16 lane width");
    assert!(m1.iter().any(|m| m == "bit31-ignored"));
}

/// A planted double rounding of bf16 (§5) is found on M2 in the random classes, each failure
/// with a replay line whose id draws the same case, and a snippet that is an `amx-vectors/1`
/// vector the reference passes and the planted model fails.
#[test]
fn a_planted_bug_is_found_and_replays() {
    let planted = Planted(PlantedBug::Bf16ViaF32);
    let r = section(Chip::M2, &[&AmxReference, &planted], SEED, 48, 2);
    let random: Vec<_> =
        r.failures.iter().filter(|f| f.kind == "random" && f.instruction != "streams").collect();
    assert!(!random.is_empty(), "the planted bf16 double rounding is found");
    let cells_of_m2 = cells(Chip::M2);
    let all_cells = Amx::cells(Chip::M2);
    let jobs = Amx::jobs(Chip::M2);
    // The case `index` of a job is the `index / m`-th case of the job's cell number `index % m`.
    let cell_of = |job: &Job, index: u64| -> usize {
        let in_job: Vec<usize> =
            (0..all_cells.len()).filter(|&i| all_cells[i].instruction == job.name).collect();
        in_job[(index % in_job.len() as u64) as usize]
    };
    for f in &random {
        assert_eq!(
            f.replay,
            format!(
                "cargo xtask conform --isa amx --chip m2 --seed 0xa3c0 --vectors {} --replay {}",
                crate::vectors_dir().display(),
                f.id
            )
        );
        let (name, index) = parse_case_id(&f.id).expect("a random id").expect("a valid one");
        let job = jobs.iter().find(|j| j.name == name).expect("a job of the campaign");
        assert_eq!(job.name, f.instruction, "the job is the failure's row");
        let cell = cell_of(job, index);
        assert_eq!(
            (all_cells[cell].instruction.as_str(), all_cells[cell].mode.as_str()),
            (f.instruction.as_str(), f.mode.as_str())
        );
        let lw = cells_of_m2[cell].lw;
        assert!(
            matches!(lw, LaneWidth::Bf16 | LaneWidth::Bf16F32Pair),
            "only bf16 classes fail: {} {} ({lw:?})",
            f.instruction,
            f.mode
        );
        let (pre, program) = case(Chip::M2, job, index);
        let good = AmxReference.run(Chip::M2, &pre, &program).unwrap().post;
        let bad = planted.run(Chip::M2, &pre, &program).unwrap().post;
        assert_ne!(good, bad, "the replayed case fails again");
        let yaml = format!(
            "format: amx-vectors/1\nisa: amx\nchip: M2\nfile: m2\nprovenance: test\nvectors:\n{}",
            f.snippet
        );
        let (_, vectors) = parse("snippet.yaml", &yaml).expect("the snippet loads");
        let v = &vectors[0];
        assert_eq!(AmxReference.run(Chip::M2, &v.pre, &v.program).unwrap().post, v.expected);
        assert_ne!(planted.run(Chip::M2, &v.pre, &v.program).unwrap().post, v.expected);
    }
    // The cases run in windows of parallel chunks; the failures a cell keeps are still its first
    // ones in case order: found again by running the cell's cases one by one on both models.
    let mut kept: std::collections::BTreeMap<(String, String), Vec<u64>> = Default::default();
    for f in &random {
        let (_, index) = parse_case_id(&f.id).unwrap().unwrap();
        kept.entry((f.instruction.clone(), f.mode.clone())).or_default().push(index);
    }
    for ((axis, mode), indices) in &kept {
        let job = jobs.iter().find(|j| &j.name == axis).unwrap();
        let first_failing: Vec<u64> = (0..48 * job.cells)
            .filter(|&index| {
                let cell = cell_of(job, index);
                if &all_cells[cell].mode != mode {
                    return false;
                }
                let (pre, program) = case(Chip::M2, job, index);
                AmxReference.run(Chip::M2, &pre, &program).unwrap().post
                    != planted.run(Chip::M2, &pre, &program).unwrap().post
            })
            .take(2)
            .collect();
        assert_eq!(indices, &first_failing, "{axis} {mode}: the first two failures, in case order");
    }
    // A vector failure (if the corpus has a case the bug reaches) names the vector.
    for f in r.failures.iter().filter(|f| f.kind == "vector") {
        assert!(f.id.starts_with("m2/"), "{}", f.id);
        assert!(f.details.contains("Z["), "{}", f.details);
    }
}
