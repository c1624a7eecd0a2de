//! The SFPU behind the harness's seam ([`harness_core::isa::Isa`]): chips Blackhole and Wormhole, the
//! 32-bit instruction word in tt-llk text form, the state snapshot of `sfpu-reference`, the taint
//! analysis's [`Locations`], the reference and fast models, the matrix of every (instruction,
//! mode value) of the chip with the multi-instruction files and the SFPI kernels, the golden
//! vectors ([`SfpuCorpus`]), the campaign's jobs (one per instruction, case `n` in mode value
//! `n % m`, and the random streams), what a DUT declares, and the report's extensions (the IEEE
//! 754 characterisation, the specification notes, the operand coverage, the kernel accuracy).

use std::path::Path;
use std::time::Instant;

use harness_core::check::NotApplicable;
use harness_core::isa::{Cell, Isa, Job, Model, RunOutput, RunRequest, Selection, Strictness};
use harness_core::report::{Extension, SectionExtension, SpecInfo};
use harness_core::rng::Rng;
use harness_core::vectors::VectorCase;
use sfpu_reference::isa::{Arch, Instr, Opcode, decode};
use sfpu_reference::{Outcome, State};

use super::declaration::Declaration;
use super::generate::{modes_for, random_case_in_mode_for, to_vector};
use super::model::{FastModel, Reference};
use super::taint::{self, Locations};
use crate::campaign::{STREAMS_PER_CASE, nth_case_for, nth_stream_for, regression_snippet};
use crate::dut::SfpuDut;
use crate::features::{FeatureSet, requires};
use crate::vectors::corpus::{SfpuCorpus, case_of};

pub use crate::sfpu::Sfpu;

/// Case `index` of campaign job `job` on `arch`, as the generator draws it (`None`: no such job).
fn job_vector(arch: Arch, seed: u64, job: &Job, index: u64) -> Option<crate::vectors::Vector> {
    let case = if job.name == "streams" {
        nth_stream_for(arch, seed, index)
    } else {
        let op = Opcode::from_name(&job.name).filter(|&op| arch.has(op))?;
        nth_case_for(arch, seed, op, index)
    };
    let mut v = to_vector(&job.name, &case);
    v.id = harness_core::campaign::case_id(&job.name, index);
    Some(v)
}

/// The upstream documentation the expected values follow: the tt-isa-documentation commits the
/// reference model's modules cite (each module names its page and commit).
pub const UPSTREAM: &str = "tenstorrent/tt-isa-documentation";

/// The specification notes page of Blackhole (`docs/spec/sfpu-blackhole.md`), as built in: the
/// report names it and records its SHA-256.
const NOTES_BLACKHOLE: &str = include_str!("../../../docs/spec/sfpu-blackhole.md");

/// The specification notes page of Wormhole (`docs/spec/sfpu-wormhole.md`), as built in.
const NOTES_WORMHOLE: &str = include_str!("../../../docs/spec/sfpu-wormhole.md");

impl Isa for Sfpu {
    const NAME: &'static str = "sfpu";
    const NON_CONTRACTUAL: bool = true;
    type Chip = Arch;
    type Word = u32;
    type State = State;
    type Locations = Locations;
    type Outcome = Outcome;
    type Declaration = Declaration;
    /// The features a vector lists as required (`None`: computed from its state and program).
    type CaseMeta = Option<FeatureSet>;
    type Corpus = SfpuCorpus;

    fn chips() -> Vec<Arch> {
        vec![Arch::Blackhole, Arch::Wormhole]
    }

    fn chip_name(chip: Arch) -> String {
        chip.to_string()
    }

    fn word_hex(word: u32) -> String {
        format!("0x{word:08x}")
    }

    fn disassemble(chip: Arch, word: u32) -> Result<String, String> {
        decode(chip, word).map(|i| i.display(chip).to_string()).map_err(|e| e.to_string())
    }

    fn differing(expected: &State, actual: &State, skip: &Locations) -> Locations {
        taint::differing(expected, actual, skip)
    }

    fn is_empty(locations: &Locations) -> bool {
        locations.is_empty()
    }

    fn describe(expected: &State, actual: &State, differing: &Locations) -> String {
        super::diff::describe(expected, actual, differing)
    }

    fn outcome_text(outcome: &Outcome) -> String {
        let notes: Vec<String> = outcome.notes().map(|(c, l)| format!("{}@0x{l:08x}", c.id())).collect();
        if notes.is_empty() { "defined".to_string() } else { notes.join(", ") }
    }

    fn reference() -> &'static dyn Model<Sfpu> {
        &Reference
    }

    fn fast() -> &'static dyn Model<Sfpu> {
        &FastModel
    }

    fn spec(chip: Arch) -> SpecInfo {
        let (notes, page, pages) = match chip {
            Arch::Blackhole => (
                "docs/spec/sfpu-blackhole.md (the project's specification notes)",
                NOTES_BLACKHOLE,
                "BlackholeA0",
            ),
            Arch::Wormhole => (
                "docs/spec/sfpu-wormhole.md (the project's specification notes: Wormhole's differences \
                 from docs/spec/sfpu-blackhole.md)",
                NOTES_WORMHOLE,
                "WormholeB0",
            ),
        };
        let commits = crate::generate::SPEC_COMMITS;
        SpecInfo {
            notes: notes.to_string(),
            upstream: format!(
                "{UPSTREAM}, {pages} pages and Miscellaneous/FMA at the {} commits cited in reference/sfpu/src: {}",
                commits.len(),
                commits.iter().map(|c| &c[..12]).collect::<Vec<_>>().join(", ")
            ),
            notes_sha256: SpecInfo::notes_digest(page),
            upstream_commits: commits.iter().map(|c| c.to_string()).collect(),
        }
    }

    /// Every (instruction, mode value) of the chip, then the multi-instruction files (`sequences`,
    /// `regressions`), the random streams (`streams`), and one row per SFPI kernel of the corpus.
    fn matrix(chip: Arch) -> Vec<Cell> {
        let mut rows = Self::cells(chip);
        for file in ["sequences", "regressions", "streams"] {
            rows.push(Cell::whole(file));
        }
        for def in sfpi::kernels::registry() {
            rows.push(Cell {
                instruction: crate::generate::kernels::FILE.to_string(),
                mode: def.name.to_string(),
                label: def.name.to_string(),
            });
        }
        rows
    }

    fn load(chip: Arch, dir: Option<&Path>) -> Result<SfpuCorpus, String> {
        SfpuCorpus::load(chip, dir)
    }

    /// The generated files and the hand-written regressions, as `vectors/<chip>/` holds them (or as
    /// JSON, one document per file).
    fn export(chip: Arch, json: bool) -> Vec<(String, String)> {
        if json {
            let corpus = crate::vectors::corpus::builtin(chip).unwrap_or_default();
            return corpus
                .files
                .iter()
                .map(|(_, f)| (format!("{chip}/{}.json", f.file), crate::vectors::emit::write_json(f)))
                .collect();
        }
        let mut files: Vec<(String, String)> =
            crate::generate::render_all(chip, crate::generate::DEFAULT_SEED)
                .into_iter()
                .map(|(name, text)| (format!("{chip}/{name}"), text))
                .collect();
        files.push((
            format!("{chip}/regressions.yaml"),
            crate::vectors::corpus::regressions(chip).to_string(),
        ));
        files
    }

    fn regression_file(chip: Arch) -> String {
        format!("vectors/{chip}/regressions.yaml")
    }

    /// One job per instruction of the chip (case `n` in mode value `n % m` of its `m`), then the
    /// random streams of up to 64 instructions.
    fn jobs(chip: Arch) -> Vec<Job> {
        let mut jobs: Vec<Job> = chip
            .opcodes()
            .iter()
            .map(|&op| Job {
                name: op.name().to_string(),
                cells: crate::generate::mode_table_for(chip, op).len().max(1) as u64,
            })
            .collect();
        jobs.push(Job { name: "streams".to_string(), cells: STREAMS_PER_CASE });
        jobs
    }

    fn job_case(
        chip: Arch,
        seed: u64,
        job: &Job,
        index: u64,
        strictness: Strictness,
    ) -> Option<VectorCase<Sfpu>> {
        let v = job_vector(chip, seed, job, index)?;
        let mut case = case_of(&job.name, &v, strictness).ok()?;
        case.mode = case.mode.or_else(|| Some("-".to_string()));
        Some(case)
    }

    fn job_snippet(chip: Arch, seed: u64, job: &Job, index: u64, origin: &str) -> String {
        job_vector(chip, seed, job, index).map(|v| regression_snippet(&v, origin)).unwrap_or_default()
    }

    fn not_applicable(
        declaration: &Declaration,
        chip: Arch,
        case: &VectorCase<Sfpu>,
    ) -> Option<NotApplicable> {
        let program: Vec<Instr> = case.program.iter().filter_map(|&w| decode(chip, w).ok()).collect();
        let needed = case.meta.unwrap_or_else(|| requires(&case.pre, &program));
        declaration.check(needed, &program).err()
    }

    fn describe_declaration(declaration: &Declaration) -> String {
        declaration.describe()
    }

    fn chip_extensions(
        chip: Arch,
        corpus: &SfpuCorpus,
        selection: &Selection,
        seed: u64,
        _stop: &(dyn Fn() -> bool + Sync),
    ) -> Vec<(String, serde_json::Value, Option<u64>)> {
        let opcodes: Vec<Opcode> =
            chip.opcodes().iter().copied().filter(|op| selection.selects(op.name())).collect();
        let ops: Vec<crate::ieee::Operation> = crate::ieee::Operation::ALL
            .into_iter()
            .filter(|op| op.opcodes().iter().any(|o| opcodes.contains(o)))
            .collect();
        let t = Instant::now();
        let ieee = crate::ieee::characterise_only(
            chip,
            &crate::report::vector_operands(&corpus.corpus),
            seed,
            100_000,
            &ops,
        );
        let ms = t.elapsed().as_millis() as u64;
        let json = |v: serde_json::Result<serde_json::Value>| v.unwrap_or(serde_json::Value::Null);
        vec![
            (crate::sections::IEEE.to_string(), json(serde_json::to_value(ieee)), Some(ms)),
            (
                crate::sections::SPEC_NOTES.to_string(),
                json(serde_json::to_value(crate::report::spec_notes(&corpus.corpus))),
                None,
            ),
            (
                crate::sections::OPERAND_COVERAGE.to_string(),
                json(serde_json::to_value(crate::report::operand_coverage(&corpus.corpus))),
                None,
            ),
        ]
    }

    /// The SFPI kernels' accuracy on the chips checked (not when a run is restricted to some
    /// instructions).
    fn report_extensions(chips: &[Arch], selection: &Selection) -> Vec<(String, serde_json::Value)> {
        if selection.is_restricted() || chips.is_empty() {
            return Vec::new();
        }
        let k = crate::accuracy::KernelAccuracy::measure(chips, crate::accuracy::DEFAULT_SEED);
        serde_json::to_value(&k).map(|v| vec![(crate::accuracy::KEY.to_string(), v)]).unwrap_or_default()
    }

    fn run_program(request: &RunRequest) -> Result<RunOutput, String> {
        crate::run_command::run(request)
    }

    fn report_renderers() -> &'static [&'static dyn Extension] {
        crate::REPORT_EXTENSIONS
    }

    fn section_renderers() -> &'static [&'static dyn SectionExtension] {
        crate::sections::RENDERERS
    }

    /// Every (instruction, mode value) of the chip, in opcode order (the rows of the matrix
    /// that random cases reach; the report adds the multi-instruction files and the kernels).
    fn cells(chip: Arch) -> Vec<Cell> {
        chip.opcodes()
            .iter()
            .flat_map(|op| {
                modes_for(chip, *op).into_iter().map(move |(mode, label)| Cell {
                    instruction: op.name().to_string(),
                    mode,
                    label,
                })
            })
            .collect()
    }

    fn random_case(chip: Arch, cell: &Cell, rng: &mut Rng) -> Option<(State, Vec<u32>)> {
        let op = Opcode::from_name(&cell.instruction)?;
        let index = modes_for(chip, op).iter().position(|(m, _)| *m == cell.mode)?;
        let case = random_case_in_mode_for(chip, op, index, rng);
        let words = case.program.iter().map(|i| i.encode(chip)).collect::<Result<Vec<u32>, _>>().ok()?;
        Some((case.pre, words))
    }
}

impl harness_core::dut::DutIsa for Sfpu {
    type Protocol = SfpuDut;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cells_are_every_mode_value_of_the_chip() {
        // SFPMAD's Mod1 is four bits (the encoding table: Mod1[3:0]), each a flag Blackhole
        // names (NEGATE_VA = 1, NEGATE_VC = 2, INDIRECT_VA = 4, INDIRECT_VD = 8): 16 values.
        let bh = Sfpu::cells(Arch::Blackhole);
        assert_eq!(bh.iter().filter(|c| c.instruction == "SFPMAD").count(), 16);
        // Wormhole has no SFPMUL24 (a Blackhole instruction).
        assert!(bh.iter().any(|c| c.instruction == "SFPMUL24"));
        assert!(!Sfpu::cells(Arch::Wormhole).iter().any(|c| c.instruction == "SFPMUL24"));
    }

    #[test]
    fn a_random_case_of_a_cell_is_in_that_cell() {
        let cells = Sfpu::cells(Arch::Wormhole);
        let cell = cells.iter().find(|c| c.instruction == "SFPIADD").unwrap();
        let (_, program) = Sfpu::random_case(Arch::Wormhole, cell, &mut Rng::new(3)).unwrap();
        let text = Sfpu::disassemble(Arch::Wormhole, *program.last().unwrap()).unwrap();
        assert!(text.contains("SFPIADD"), "{text}");
        assert_eq!(Sfpu::chip_named("WORMHOLE"), Some(Arch::Wormhole));
    }
}
