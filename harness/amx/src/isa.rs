//! Apple AMX `vecfp` behind the harness's seam ([`harness_core::isa::Isa`]): chip profiles M1, M2
//! (= M3) and M4, the 64-bit operand in its `vecfp NAME=VALUE ...` text form, the 5120-byte X/Y/Z
//! state of `amx-reference`, locations as sets of registers, the reference and fast models
//! ([`crate::model`]), the semantic classes (`docs/spec/amx-vecfp.md#semantic-classes`) as matrix
//! cells ([`super::generate::cells`]) and a random state for a class's lane width as its random
//! case.
//!
//! Every `vecfp` result is promised (the notes list no undefined case: invalid encodings are
//! no-ops, §4.2), so the outcome is `()` and no vector skips a location.

use std::fmt::Write as _;

use amx_reference::state::{XY_REGS, Z_ROWS, reg_to_hex};
use amx_reference::{Chip, Operand, State};

use std::collections::HashMap;
use std::sync::OnceLock;

use super::generate::{AmxCell, cells, random_state_of};
use crate::campaign::{self as streams, AmxCase};
use crate::corpus::AmxCorpus;
use crate::dut::AmxDut;
use harness_core::campaign::{cell_job_case, cell_jobs};
use harness_core::isa::{Cell, Isa, Job, Model, RunOutput, RunRequest, Strictness};
use harness_core::report::SpecInfo;
use harness_core::rng::Rng;
use harness_core::vectors::VectorCase;

pub use crate::amx::Amx;
pub use crate::model::{AmxFast, AmxReference};

/// A chip's cells, their index by (row, class), and the same as the harness's cells.
type ChipCells = (Vec<AmxCell>, HashMap<(String, String), usize>, Vec<Cell>);

/// The cells of `chip` ([`cells`]), built once per chip profile, with their index by (row, class):
/// the random campaign asks for one per case.
fn cells_of(chip: Chip) -> &'static ChipCells {
    static CELLS: [OnceLock<ChipCells>; 3] = [OnceLock::new(), OnceLock::new(), OnceLock::new()];
    let slot = match chip {
        Chip::M1 => &CELLS[0],
        Chip::M2 => &CELLS[1],
        Chip::M4 => &CELLS[2],
    };
    slot.get_or_init(|| {
        let all = cells(chip);
        let index = all.iter().enumerate().map(|(i, c)| ((c.axis.clone(), c.mode.clone()), i)).collect();
        let harness = all
            .iter()
            .map(|c| Cell { instruction: c.axis.clone(), mode: c.mode.clone(), label: c.mode.clone() })
            .collect();
        (all, index, harness)
    })
}

/// A set of registers: bit `i` of `X`, `Y` for register `i`, of `Z` for row `i`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[allow(non_snake_case, reason = "the registers' names")]
pub struct Registers {
    /// X registers.
    pub X: u8,
    /// Y registers.
    pub Y: u8,
    /// Z rows.
    pub Z: u64,
}

/// How many random operand streams a campaign runs per case of a class (the `streams` job's
/// cells).
pub const STREAMS_PER_CASE: u64 = 16;

/// The specification notes page of AMX `vecfp` (`docs/spec/amx-vecfp.md`), as built in: the
/// report names it and records its SHA-256.
const NOTES: &str = include_str!("../../../docs/spec/amx-vecfp.md");

impl Isa for Amx {
    const NAME: &'static str = "amx";
    type Chip = Chip;
    type Word = Operand;
    type State = State;
    type Locations = Registers;
    type Outcome = ();
    type Declaration = ();
    type CaseMeta = ();
    type Corpus = AmxCorpus;

    fn chips() -> Vec<Chip> {
        Chip::ALL.to_vec()
    }

    fn chip_name(chip: Chip) -> String {
        chip.name().to_ascii_lowercase()
    }

    /// Also `m3`, the same profile as `m2`.
    fn chip_named(name: &str) -> Option<Chip> {
        if name.eq_ignore_ascii_case("m3") {
            return Some(Chip::M2);
        }
        Chip::ALL.into_iter().find(|c| c.name().eq_ignore_ascii_case(name))
    }

    fn word_hex(word: Operand) -> String {
        format!("{:#018x}", word.0)
    }

    /// Every operand is an instruction (invalid encodings are no-ops, §4.2).
    fn disassemble(_chip: Chip, word: Operand) -> Result<String, String> {
        Ok(word.to_string())
    }

    fn differing(expected: &State, actual: &State, skip: &Registers) -> Registers {
        let mut d = Registers::default();
        for r in 0..XY_REGS {
            d.X |= u8::from(expected.X[r] != actual.X[r]) << r;
            d.Y |= u8::from(expected.Y[r] != actual.Y[r]) << r;
        }
        for r in 0..Z_ROWS {
            d.Z |= u64::from(expected.Z[r] != actual.Z[r]) << r;
        }
        Registers { X: d.X & !skip.X, Y: d.Y & !skip.Y, Z: d.Z & !skip.Z }
    }

    fn is_empty(l: &Registers) -> bool {
        l.X == 0 && l.Y == 0 && l.Z == 0
    }

    fn describe(expected: &State, actual: &State, d: &Registers) -> String {
        let mut out = String::new();
        type Pool<'a> = (&'a str, u64, &'a [[u8; 64]], &'a [[u8; 64]]);
        let pools: [Pool<'_>; 3] = [
            ("X", d.X.into(), &expected.X, &actual.X),
            ("Y", d.Y.into(), &expected.Y, &actual.Y),
            ("Z", d.Z, &expected.Z, &actual.Z),
        ];
        for (name, mask, e, a) in pools {
            for r in (0..e.len()).filter(|r| (mask >> r) & 1 != 0) {
                let _ = writeln!(
                    out,
                    "  {name}[{r}]:\n    expected {}\n    got      {}",
                    reg_to_hex(&e[r]),
                    reg_to_hex(&a[r])
                );
            }
        }
        out
    }

    fn outcome_text(_: &()) -> String {
        "defined".to_string()
    }

    fn reference() -> &'static dyn Model<Amx> {
        &AmxReference
    }

    fn fast() -> &'static dyn Model<Amx> {
        &AmxFast
    }

    fn spec(_: Chip) -> SpecInfo {
        SpecInfo {
            notes: "docs/spec/amx-vecfp.md (the project's specification notes)".to_string(),
            notes_sha256: SpecInfo::notes_digest(NOTES),
            upstream: "corsix/amx @ 483714bb051da088d08a66724b22dd08a5db3c99 (vecfp.md, test.c); \
                       IEEE-derived, not hardware-observed"
                .to_string(),
            ..SpecInfo::default()
        }
    }

    fn cells(chip: Chip) -> Vec<Cell> {
        cells_of(chip).2.clone()
    }

    /// The class's operand on a random state of its lane width (special values one lane in four).
    fn random_case(chip: Chip, cell: &Cell, rng: &mut Rng) -> Option<(State, Vec<Operand>)> {
        let (all, index, _) = cells_of(chip);
        let c = &all[*index.get(&(cell.instruction.clone(), cell.mode.clone()))?];
        Some((random_state_of(rng, c.lw), vec![c.op]))
    }

    fn run_program(request: &RunRequest) -> Result<RunOutput, String> {
        crate::run_command::run(request)
    }

    fn load(chip: Chip, dir: Option<&std::path::Path>) -> Result<AmxCorpus, String> {
        AmxCorpus::load(chip, dir)
    }

    /// `amx/<chip>.yaml`, as `vectors/amx/` holds it (or its JSON form).
    fn export(chip: Chip, json: bool) -> Vec<(String, String)> {
        let f = crate::generate::file(chip, crate::generate::DEFAULT_SEED);
        let stem = crate::generate::file_stem(chip);
        if json {
            vec![(format!("amx/{stem}.json"), serde_json::to_string_pretty(&f).unwrap_or_default() + "\n")]
        } else {
            vec![(format!("amx/{stem}.yaml"), crate::format::to_yaml(&f))]
        }
    }

    fn regression_file(chip: Chip) -> String {
        format!("vectors/amx/{}.yaml", crate::generate::file_stem(chip))
    }

    /// One job per axis of classes (`source`, `shuffle`, ...: case `n` in the axis's class number
    /// `n % m`), then the random operand streams ([`streams::nth_case`]: 16 operands, half of
    /// them a class of the chip, on a random state, run as one program and compared at its end).
    fn jobs(chip: Chip) -> Vec<Job> {
        let mut jobs = cell_jobs::<Amx>(chip);
        jobs.push(Job { name: "streams".to_string(), cells: STREAMS_PER_CASE });
        jobs
    }

    fn job_case(chip: Chip, seed: u64, job: &Job, index: u64, _: Strictness) -> Option<VectorCase<Amx>> {
        if job.name != "streams" {
            return cell_job_case::<Amx>(chip, &cells_of(chip).2, seed, job, index);
        }
        let c = streams::nth_case(chip, seed, index);
        let expected = AmxReference.run(chip, &c.pre, &c.program).map_or_else(|_| c.pre.clone(), |r| r.post);
        Some(VectorCase {
            id: c.id,
            file: "streams".to_string(),
            mode: Some("-".to_string()),
            pre: c.pre,
            program: c.program,
            expected,
            outcome: Some(()),
            skip: Default::default(),
            tainted: false,
            meta: (),
        })
    }

    /// The case as a regression vector with the reference's result.
    fn job_snippet(chip: Chip, seed: u64, job: &Job, index: u64, _origin: &str) -> String {
        match Self::job_case(chip, seed, job, index, Strictness::Architecture) {
            Some(c) => {
                let steps = c.program.len().saturating_sub(1);
                let id = harness_core::campaign::case_id(&job.name, index);
                streams::snippet(&AmxCase { id, chip, pre: c.pre, program: c.program }, steps)
            }
            None => String::new(),
        }
    }
}

impl harness_core::dut::DutIsa for Amx {
    type Protocol = AmxDut;
}
