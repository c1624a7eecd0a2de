//! AMX through the ISA-neutral core: the report section of a chip profile covers every semantic
//! class with vectors and random cases, both models pass it, and a planted bug in a model is found
//! with replayable ids and pasteable regression vectors.

use std::path::Path;

use amx_fastpath::{Plan, PlantedBug};
use amx_reference::{Chip, LaneWidth, Operand, State};
use harness_amx::format::parse;
use harness_amx::generate::cells;
use harness_amx::isa::{Amx, AmxFast, AmxReference};
use harness_amx::report::{Settings, section};
use harness_core::check::{self, parse_random_id, random_id};
use harness_core::isa::{Isa, Model, ModelError, Run};

fn settings(cases: u64) -> Settings {
    Settings {
        vectors: Path::new(env!("CARGO_MANIFEST_DIR")).join("../../vectors/amx"),
        seed: 0xA3C0,
        cases_per_cell: cases,
        streams: cases * 4,
        keep: 2,
    }
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
        let r = section(chip, &[&AmxReference, &AmxFast], &settings(2)).unwrap();
        assert_eq!(r.isa, "amx");
        assert_eq!(r.arch, Amx::chip_name(chip));
        assert!(r.failures.is_empty(), "{chip}: {:#?}", r.failures.first());
        // One row per class, plus the streams.
        assert_eq!(r.matrix.len(), cells(chip).len() + 1, "{chip}");
        for row in &r.matrix {
            let fast = row.per_model.get("fastpath").copied().unwrap_or_default();
            if row.instruction == "streams" {
                assert_eq!(fast.random_cases, 8, "{chip}: the streams");
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
/// with a replay command whose id draws the same case, and a snippet that is an `amx-vectors/1`
/// vector the reference passes and the planted model fails.
#[test]
fn a_planted_bug_is_found_and_replays() {
    let planted = Planted(PlantedBug::Bf16ViaF32);
    let r = section(Chip::M2, &[&AmxReference, &planted], &settings(48)).unwrap();
    let random: Vec<_> =
        r.failures.iter().filter(|f| f.kind == "random" && f.instruction != "streams").collect();
    assert!(!random.is_empty(), "the planted bf16 double rounding is found");
    let cells_of_m2 = cells(Chip::M2);
    for f in &random {
        assert_eq!(f.replay, format!("cargo xtask conform --isa amx --replay {}", f.id));
        let (chip, cell, n) = parse_random_id::<Amx>(&f.id).expect("a random id");
        assert_eq!(chip, Chip::M2);
        assert_eq!(random_id::<Amx>(chip, cell, n), f.id);
        let cells = Amx::cells(chip);
        assert_eq!(
            (cells[cell].instruction.as_str(), cells[cell].mode.as_str()),
            (f.instruction.as_str(), f.mode.as_str())
        );
        let lw = cells_of_m2[cell].lw;
        assert!(
            matches!(lw, LaneWidth::Bf16 | LaneWidth::Bf16F32Pair),
            "only bf16 classes fail: {} {} ({lw:?})",
            f.instruction,
            f.mode
        );
        let (_, pre, program) = check::random_case::<Amx>(chip, &cells, cell, 0xA3C0, n).unwrap();
        let good = AmxReference.run(chip, &pre, &program).unwrap().post;
        let bad = planted.run(chip, &pre, &program).unwrap().post;
        assert_ne!(good, bad, "the replayed case fails again");
        let yaml = format!(
            "format: amx-vectors/1\nisa: amx\nchip: M2\nfile: m2\nprovenance: test\nvectors:\n{}",
            f.snippet
        );
        let (_, vectors) = parse("snippet.yaml", &yaml).expect("the snippet loads");
        let v = &vectors[0];
        assert_eq!(AmxReference.run(chip, &v.pre, &v.program).unwrap().post, v.expected);
        assert_ne!(planted.run(chip, &v.pre, &v.program).unwrap().post, v.expected);
    }
    // The cases run a window at a time (2,048 of the about 20,000 here); the failures a cell
    // keeps are still its first ones in case order: found again by running the cell's cases one
    // by one on both models.
    let mut kept: std::collections::BTreeMap<usize, Vec<u64>> = Default::default();
    for f in &random {
        let (_, cell, n) = parse_random_id::<Amx>(&f.id).unwrap();
        kept.entry(cell).or_default().push(n);
    }
    let all_cells = Amx::cells(Chip::M2);
    for (cell, ns) in &kept {
        let first_failing: Vec<u64> = (0..48)
            .filter(|&n| {
                let (_, pre, program) =
                    check::random_case::<Amx>(Chip::M2, &all_cells, *cell, 0xA3C0, n).unwrap();
                AmxReference.run(Chip::M2, &pre, &program).unwrap().post
                    != planted.run(Chip::M2, &pre, &program).unwrap().post
            })
            .take(2)
            .collect();
        assert_eq!(ns, &first_failing, "cell {cell}: the first two failures, in case order");
    }
    // A vector failure (if the corpus has a case the bug reaches) names the vector.
    for f in r.failures.iter().filter(|f| f.kind == "vector") {
        assert!(f.id.starts_with("m2/"), "{}", f.id);
        assert!(f.details.contains("Z["), "{}", f.details);
    }
}
