//! The Python template DUT for AMX `vecfp` (`examples/amx/dut-python/dut.py`) over `amx-dut/1`
//! (`docs/dut-protocol.md`, "AMX"), end to end: it passes every golden vector it does not decline
//! on M1, M2 and M4 (the expected states are the checked-in vectors'); it declines exactly the
//! classes it does not model (the indexed loads), with the field in the reason; in a
//! report section next to the reference it fails nothing and covers cells; and its injected
//! faults (a wrong answer, a crash, garbage, a hang, a refused chip) are each recorded for their
//! case while the later cases still run.
//!
//! Needs `python3` (3.11 or later) on the PATH; CI has it.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use amx_reference::{Chip, Decoded, decode};
use harness_amx::corpus::AmxCorpus;
use harness_amx::dut::ExternalModel;
use harness_amx::isa::{Amx, AmxReference};
use harness_core::check::Status;
use harness_core::isa::{Isa, Model, ModelError};
use harness_core::vectors::{VectorCase, run_case};

use crate::section;

/// The checked-in vectors of `chip`, runnable.
fn load(chip: Chip) -> Vec<VectorCase<Amx>> {
    AmxCorpus::load(chip, Some(&vectors_dir())).unwrap_or_else(|e| panic!("{chip}: {e}")).cases
}

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

use crate::vectors_dir;

/// The command line of the template with `flags`; panics (clearly) without `python3`.
fn template(flags: &str) -> String {
    let ok = Command::new("python3").arg("--version").output().is_ok_and(|o| o.status.success());
    assert!(ok, "python3 (3.11 or later) must be on the PATH to run the AMX Python template DUT");
    let script = repo().join("examples/amx/dut-python/dut.py");
    format!("python3 '{}' {flags}", script.display())
}

fn spawn(flags: &str, chip: Chip, timeout: Duration) -> ExternalModel {
    let command = template(flags);
    ExternalModel::spawn(&command, chip, timeout)
        .unwrap_or_else(|e| panic!("cannot start `{command}`: {e:?}"))
}

/// What the template declines, from the notes' decode (§1.4), not from the template: an operand
/// that does something and is an indexed load (IDX = 1). No-ops it runs (as no-ops).
fn declined_field(chip: Chip, v: &VectorCase<Amx>) -> Option<&'static str> {
    v.program.iter().find_map(|&op| match decode(chip, op) {
        Decoded::Op(d) if d.indexed.is_some() => Some("IDX=1"),
        Decoded::Op(_) | Decoded::Nop(_) => None,
    })
}

/// Every vector of M1, M2 and M4 that the template does not decline passes (bit-exact, every Z
/// row), and it declines exactly the indexed ones, naming the field. Measured:
/// M2 and M4 pass 424 of 472 vectors (48 declined), M1 passes 173 of 189 (16 declined); among
/// the passes are every `numeric` f32 / f64 vector (32 on M2 and M4: 8 ALU modes x 2 widths x 2;
/// 20 on M1, which has 5 ALU modes).
#[test]
fn template_passes_every_amx_vector_it_does_not_decline() {
    for chip in [Chip::M2, Chip::M1, Chip::M4] {
        let vectors = load(chip);
        let dut = spawn("", chip, Duration::from_secs(20));
        assert_eq!(dut.describe(), "amx-dut-python 0.1.0");
        let results: Vec<_> = vectors.iter().map(|v| run_case::<Amx>(&dut, chip, v)).collect();
        let mut problems = Vec::new();
        let (mut passed, mut declined, mut numeric_f32_f64) = (0, 0, 0);
        for (v, r) in vectors.iter().zip(&results) {
            let numeric = v.id.contains("/numeric/f32/") || v.id.contains("/numeric/f64/");
            match (&r.status, declined_field(chip, v)) {
                (Status::Pass, None) => {
                    passed += 1;
                    numeric_f32_f64 += usize::from(numeric);
                }
                (Status::Unsupported(why), Some(field))
                    if why.contains(field) && why.contains("not modelled") =>
                {
                    declined += 1
                }
                (Status::Fail(f), _) => problems.push(format!("{}: failed\n{}", v.id, f.report)),
                (other, want) => problems.push(format!("{}: {other:?} (declines: {want:?})", v.id)),
            }
        }
        assert!(problems.is_empty(), "{chip}: {} problem(s):\n{}", problems.len(), problems.join("\n"));
        let expect_numeric = vectors
            .iter()
            .filter(|v| v.id.contains("/numeric/f32/") || v.id.contains("/numeric/f64/"))
            .count();
        // The notes' numeric cells: 2 vectors per (width, ALU mode); 8 modes on M2+, 5 on M1.
        let modes = if chip == Chip::M1 { 5 } else { 8 };
        assert_eq!(expect_numeric, 2 * 2 * modes, "{chip}: the numeric f32/f64 vectors");
        assert_eq!(numeric_f32_f64, expect_numeric, "{chip}: every numeric f32/f64 vector passes");
        assert_eq!(passed + declined, vectors.len());
        // It runs far more than the numeric cells: every lane width, shuffle, lane-enable and
        // multi-vector mode, offset and ZROW class but the indexed ones.
        assert!(passed >= vectors.len() * 3 / 4, "{chip}: only {passed} of {} passed", vectors.len());
        assert!(declined > 0, "{chip}: the indexed classes are in every profile's vectors");
        eprintln!("{chip}: {passed} passed, {declined} declined of {} vectors", vectors.len());
    }
}

/// In a report section of M2 next to the reference, the template fails nothing (declining is not
/// failing), and its coverage counts the cells it was checked on.
#[test]
fn template_in_a_report_section() {
    let dut = spawn("", Chip::M2, Duration::from_secs(20));
    let models: [&dyn Model<Amx>; 2] = [&AmxReference, &dut];
    // One random case per class and 16 operand streams (a stream with an operand the DUT declines,
    // an indexed one, is declined as a whole, not failed).
    let r = section(Chip::M2, &models, 0xD07, 1, 3);
    let name = dut.name();
    assert_eq!(name, "amx-dut-python");
    let mine: Vec<_> = r.failures.iter().filter(|f| f.model == name).collect();
    assert!(mine.is_empty(), "{} failure(s), the first: {:#?}", mine.len(), mine.first());
    let c = r.coverage.iter().find(|c| c.model == name).expect("the DUT has a coverage entry");
    assert!(c.cells_covered > 0 && c.passed > 0, "{c:#?}");
    assert_eq!(c.errors, 0, "{c:#?}");
    assert!(c.unsupported > 0, "the indexed vectors are declined: {c:#?}");
    assert_eq!(c.passed, c.compared, "{c:#?}");
    let streams = r.matrix.iter().find(|row| row.instruction == "streams").unwrap().counts(&name);
    assert_eq!(streams.random_cases + streams.random_unsupported, 16, "{streams:?}");
    assert!(streams.random_cases > 0 && streams.random_failures == 0, "{streams:?}");
    // No class row has a failure or an error.
    for row in &r.matrix {
        let counts = row.counts(&name);
        assert_eq!(
            counts.failed + counts.random_failures + counts.errors,
            0,
            "{} {}",
            row.instruction,
            row.mode
        );
    }
    eprintln!(
        "M2 section: the DUT passed {} vectors, declined {}, covered {} of {} cells",
        c.passed, c.unsupported, c.cells_covered, c.cells
    );
}

fn vector(chip: Chip, id: &str) -> VectorCase<Amx> {
    load(chip).into_iter().find(|v| v.id == id).unwrap_or_else(|| panic!("no vector {id}"))
}

/// The injected faults, each recorded for its case: a wrong answer fails with the differing Z
/// row; a crash, garbage and a hang are errors with the right message, and the DUT is restarted
/// so the next case still runs; a DUT claiming only M1 refuses an M2 hello (`Unsupported`).
#[test]
fn injected_faults_are_recorded_and_the_run_goes_on() {
    let chip = Chip::M2;
    let v = vector(chip, "m2/base/f32/base");
    assert_eq!(declined_field(chip, &v), None);
    let run = |m: &ExternalModel| run_case::<Amx>(m, chip, &v).status;

    let wrong = spawn("--wrong-on-case 1", chip, Duration::from_secs(20));
    match run(&wrong) {
        Status::Fail(f) => assert!(f.report.contains("Z["), "{}", f.report),
        other => panic!("an injected wrong answer must fail: {other:?}"),
    }
    assert_eq!(run(&wrong), Status::Pass, "case 2 is answered right");

    let timeout = Duration::from_secs(3);
    let faulty = spawn("--crash-on-case 2 --garbage-on-case 3 --hang-on-case 4", chip, timeout);
    let statuses: Vec<_> = (1..=5).map(|_| run(&faulty)).collect();
    assert_eq!(statuses[0], Status::Pass, "case 1");
    match &statuses[1] {
        Status::Error(m) => assert!(
            m.starts_with("crashed (exit status: 3) before answering case `2`")
                && m.contains("injected crash"),
            "{m}"
        ),
        other => panic!("case 2 must be an error (crash): {other:?}"),
    }
    match &statuses[2] {
        Status::Error(m) => assert!(m.contains("malformed answer: not JSON"), "{m}"),
        other => panic!("case 3 must be an error (garbage): {other:?}"),
    }
    match &statuses[3] {
        Status::Error(m) => assert!(m.starts_with("timeout after 3s waiting for case `4`"), "{m}"),
        other => panic!("case 4 must be an error (hang): {other:?}"),
    }
    assert_eq!(statuses[4], Status::Pass, "case 5 runs on a restarted DUT");
    assert_eq!(faulty.given_up(), None);

    match ExternalModel::spawn(&template("--chips m1"), Chip::M2, Duration::from_secs(20)) {
        Err(ModelError::Unsupported(m)) => {
            assert!(m.contains("refused the hello") && m.contains("m1 only, not m2"), "{m}")
        }
        other => panic!("a DUT claiming m1 only must refuse M2: {other:?}"),
    }
    // The same DUT accepts M1, and M1 decodes the vector's operand the same way.
    let m1 = spawn("--chips m1", Chip::M1, Duration::from_secs(20));
    assert_eq!(Amx::chip_name(Chip::M1), "m1");
    let v1 = vector(Chip::M1, "m1/base/f32/base");
    assert_eq!(run_case::<Amx>(&m1, Chip::M1, &v1).status, Status::Pass);
}
