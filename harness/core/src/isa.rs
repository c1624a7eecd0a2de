//! The seam between the harness and an instruction set: what an ISA provides ([`Isa`]) and how
//! any implementation of it is checked ([`Model`]).
//!
//! An instruction set gives the harness its chips, its instruction word and how to show one, its
//! state, the locations of that state (for the taint of unpromised parts, for the `skip` lists of
//! vectors and for differences), its reference and fast models, the rows of its coverage matrix
//! (instruction × mode value, or semantic class), its golden vectors ([`Corpus`], each made
//! runnable as a [`VectorCase`]), the jobs of its random campaign and how to draw case `n` of
//! one, and, optionally, what it adds to the report ([`Isa::chip_extensions`],
//! [`Isa::report_extensions`]); its external implementations' protocol is
//! [`crate::dut::DutIsa`]'s. Everything else of the harness (the session, the campaign, the
//! report and its renderers, the DUT envelope) is written against these traits only, in this
//! crate, which depends on no instruction set.

use std::fmt::Debug;
use std::path::Path;

use std::fmt;

use crate::report::{CorpusInfo, Extension, SectionExtension, SpecInfo};
use crate::rng::Rng;

/// Why a model produced no result.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ModelError {
    /// The model does not implement something the case needs (an external implementation may say
    /// so instead of answering).
    #[error("unsupported: {0}")]
    Unsupported(String),
    /// The model failed to run the case (a bad word, a crash, a hang, a malformed answer).
    #[error("{0}")]
    Failed(String),
    /// The run was interrupted while the model ran the case (an external implementation stops
    /// waiting for the answer): the case did not complete and is not recorded.
    #[error("interrupted")]
    Interrupted,
}

/// What running a program produced.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Run<S, O> {
    /// The state after the program (with everything the program scheduled executed).
    pub post: S,
    /// The specification's verdict on the whole program, if the model reports one (external
    /// implementations need not).
    pub outcome: Option<O>,
}

/// What a model of instruction set `I` returns for one case.
pub type RunResult<I> = Result<Run<<I as Isa>::State, <I as Isa>::Outcome>, ModelError>;

/// One row of an instruction set's coverage matrix: an instruction (or a file of multi-instruction
/// vectors, or an axis of semantic classes) and one mode value of it.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Cell {
    /// The instruction (`SFPMAD`), multi-instruction file (`sequences`) or class axis (`source`).
    pub instruction: String,
    /// The mode value in the vectors' canonical form (`mod1=5`, `f32/fma`), `-` for none.
    pub mode: String,
    /// A readable label of the mode (`SFPMAD_MOD1_NEGATE_VA`).
    pub label: String,
}

impl Cell {
    /// The row of a file or job with no mode value (`sequences`, `streams`): mode and label `-`.
    pub fn whole(instruction: &str) -> Cell {
        Cell { instruction: instruction.to_string(), mode: "-".to_string(), label: "-".to_string() }
    }
}

/// One job of the random campaign: a named family of random cases numbered `0, 1, 2, ...`, each a
/// function of the seed, the chip, the job and its number alone (so any case replays by its id,
/// `random/<job>/<n>`, in constant time). A campaign of `n` cases per cell runs cases
/// `0 .. n * cells` of each job.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Job {
    /// The job's name: the matrix row its cases fall in (`SFPMAD`, `source`), or `streams`.
    pub name: String,
    /// How many cells of the matrix the job's cases fall in (an instruction's mode values); with
    /// `n` cases per cell the job runs `n * cells` cases.
    pub cells: u64,
}

/// How strictly results are compared.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Strictness {
    /// Compare everything but the locations the specification leaves unpromised, including
    /// non-contractual ones (the documented behaviour of current silicon).
    #[default]
    Silicon,
    /// Also skip the non-contractual locations: only what the architecture promises.
    Architecture,
}

impl Strictness {
    /// The name reports use (`silicon`, `architecture`).
    pub fn name(self) -> &'static str {
        match self {
            Strictness::Silicon => "silicon",
            Strictness::Architecture => "architecture",
        }
    }
}

/// What a run restricts itself to (`--only`): names of campaign jobs and matrix rows, and
/// patterns of vector ids and tags. Empty: everything.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Selection {
    /// The names, as given.
    pub only: Vec<String>,
}

impl Selection {
    /// Whether the run is restricted.
    pub fn is_restricted(&self) -> bool {
        !self.only.is_empty()
    }

    /// Whether the job or row `name` is selected (every one when the run is not restricted;
    /// names compare without regard to case).
    pub fn selects(&self, name: &str) -> bool {
        self.only.is_empty() || self.only.iter().any(|n| n.eq_ignore_ascii_case(name))
    }
}

/// What the `run` command asks of an instruction set: a program (its text form, one instruction
/// per line) run on the reference model from a state, and the final state printed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RunRequest {
    /// The program's name, for messages (its path).
    pub program_name: String,
    /// The program's text.
    pub program: String,
    /// The initial state's name and text (the instruction set's state document), if given.
    pub state: Option<(String, String)>,
    /// The chip, if given.
    pub chip: Option<String>,
    /// Print JSON instead of text.
    pub json: bool,
    /// Print every instruction as it executes.
    pub trace: bool,
    /// Check the instruction set's scheduling rules.
    pub lint: bool,
}

/// What the `run` command prints.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RunOutput {
    /// For standard output.
    pub stdout: String,
    /// Warnings, for standard error.
    pub stderr: String,
    /// Whether the run found a problem (a scheduling rule broken under `lint`): exit status 1.
    pub failed: bool,
}

/// Why a case was not given to a model: its declaration does not cover what the case requires.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NotApplicable {
    /// The features the case requires that the model does not declare (their ids).
    pub missing: Vec<String>,
    /// The declared refusals that cover an instruction of the case.
    pub refused: Vec<String>,
}

impl fmt::Display for NotApplicable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = Vec::new();
        if !self.missing.is_empty() {
            parts.push(format!("requires {} (not declared)", self.missing.join(", ")));
        }
        if !self.refused.is_empty() {
            parts.push(format!("refused up front: {}", self.refused.join(", ")));
        }
        f.write_str(&parts.join("; "))
    }
}

/// One case ready to run: a golden vector, or a random case of the campaign.
#[derive(Clone, Debug, PartialEq)]
pub struct VectorCase<I: Isa> {
    /// The case's id.
    pub id: String,
    /// Its matrix row (instruction, file or class axis).
    pub file: String,
    /// Its mode value or class, if any.
    pub mode: Option<String>,
    /// The state before.
    pub pre: I::State,
    /// The program.
    pub program: Vec<I::Word>,
    /// The state expected after.
    pub expected: I::State,
    /// The verdict expected, if the format records one.
    pub outcome: Option<I::Outcome>,
    /// The locations not compared (not promised).
    pub skip: I::Locations,
    /// Whether the specification leaves some of the case's result unpromised (undefined,
    /// unspecified or non-contractual), compared or not: the matrix counts such cases as tainted.
    pub tainted: bool,
    /// What the instruction set's own hooks need of the case.
    pub meta: I::CaseMeta,
}

/// One chip's golden vectors as an instruction set's loader holds them: the core reads them
/// through this interface, vector by vector (index `0 .. len()` in corpus order), and makes each
/// runnable only when a model runs it (a corpus's states would not all fit in memory at once).
pub trait Corpus<I: Isa>: Send + Sync {
    /// Where the vectors come from, their format, files and generator (with `vectors` the whole
    /// corpus's count).
    fn info(&self) -> CorpusInfo;
    /// The number of vectors.
    fn len(&self) -> usize;
    /// Whether the corpus has no vector.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Vector `i`'s id.
    fn id(&self, i: usize) -> &str;
    /// Vector `i`'s matrix row: (instruction, file or class axis; mode value, if any).
    fn row(&self, i: usize) -> (String, Option<String>);
    /// Vector `i`'s tags (what [`Filter`](crate::vectors::Filter) patterns may name besides ids, rows and modes).
    fn tags(&self, i: usize) -> &[String];
    /// Vector `i` made runnable, the locations `strictness` does not compare skipped; the error
    /// says why it cannot be (only vectors built in memory can fail so: loading checks them).
    fn case(&self, i: usize, strictness: Strictness) -> Result<VectorCase<I>, String>;
    /// Vector `i` as a regression vector to paste into a vector file, its id marked with `origin`
    /// (`conform-dut`), or empty.
    fn snippet(&self, i: usize, origin: &str) -> String;
    /// Whether every note of vector `i` is undefined behaviour (nothing but the untouched state is
    /// compared).
    fn only_undefined(&self, i: usize) -> bool {
        let _ = i;
        false
    }
}

/// An instruction set the harness can check.
pub trait Isa: Sized + Send + Sync + 'static {
    /// Its name on the command line, in case ids and in reports (`sfpu`, `amx`).
    const NAME: &'static str;
    /// Whether some results are promised by current silicon only (non-contractual). An
    /// instruction set without such results compares only what its architecture promises, whatever
    /// the strictness asked for, and its report says `architecture`.
    const NON_CONTRACTUAL: bool = false;
    /// A chip (or chip profile) of the instruction set.
    type Chip: Copy + Eq + Debug + Send + Sync + 'static;
    /// One instruction as programs carry it (the SFPU's 32-bit word, AMX's 64-bit operand).
    type Word: Copy + Eq + Debug + Send + Sync;
    /// The whole architectural state a program can read or write.
    type State: Clone + PartialEq + Debug + Send + Sync;
    /// A set of locations of [`Isa::State`].
    type Locations: Clone + Default + Debug + PartialEq + Send + Sync;
    /// The specification's verdict on a program (the clauses under which part of it is not
    /// defined); `()` for an instruction set whose every result is promised.
    type Outcome: Clone + Debug + PartialEq + Send + Sync;
    /// What an implementation declares it models (`()` when the instruction set has no such
    /// declarations).
    type Declaration: Debug + Send + Sync;
    /// What a case carries for the instruction set's own use beyond the core's fields (the
    /// SFPU: the features a vector requires); `()` when nothing.
    type CaseMeta: Clone + Debug + Default + PartialEq + Send + Sync;
    /// One chip's golden vectors, loaded.
    type Corpus: Corpus<Self>;

    /// Every chip, in report order.
    fn chips() -> Vec<Self::Chip>;
    /// The chip's name in case ids, on the command line and in reports (`blackhole`, `m2`).
    fn chip_name(chip: Self::Chip) -> String;
    /// The chip named `name` (case-insensitive).
    fn chip_named(name: &str) -> Option<Self::Chip> {
        Self::chips().into_iter().find(|c| Self::chip_name(*c).eq_ignore_ascii_case(name))
    }

    /// The word in hexadecimal, as vectors and the DUT protocol write it.
    fn word_hex(word: Self::Word) -> String;
    /// The word in the instruction set's text form, or why `chip` has no such instruction.
    fn disassemble(chip: Self::Chip, word: Self::Word) -> Result<String, String>;

    /// The locations where `actual` differs from `expected`, outside `skip`.
    fn differing(expected: &Self::State, actual: &Self::State, skip: &Self::Locations) -> Self::Locations;
    /// Whether `locations` is empty.
    fn is_empty(locations: &Self::Locations) -> bool;
    /// Each location of `differing`, with both sides' values, one per line.
    fn describe(expected: &Self::State, actual: &Self::State, differing: &Self::Locations) -> String;
    /// The outcome in one line, for a failure's account.
    fn outcome_text(outcome: &Self::Outcome) -> String;

    /// The literal reference model.
    fn reference() -> &'static dyn Model<Self>;
    /// The optimised model.
    fn fast() -> &'static dyn Model<Self>;

    /// The specification `chip`'s expected values come from, for the report.
    fn spec(chip: Self::Chip) -> SpecInfo;

    /// The cells random cases reach on `chip`, in report order.
    fn cells(chip: Self::Chip) -> Vec<Cell>;
    /// The rows of `chip`'s coverage matrix, in report order: by default the [`Isa::cells`] and a
    /// `streams` row for the random streams.
    fn matrix(chip: Self::Chip) -> Vec<Cell> {
        let mut rows = Self::cells(chip);
        rows.push(Cell::whole("streams"));
        rows
    }
    /// A random case of `cell` (its operand classes), deterministic in `rng`: the state before
    /// and the program; `None` when the cell has no random cases (a file of fixed vectors).
    fn random_case(chip: Self::Chip, cell: &Cell, rng: &mut Rng) -> Option<(Self::State, Vec<Self::Word>)>;

    /// Loads `chip`'s golden vectors from `dir`, or the built-in corpus (`None`: generated by the
    /// reference model in memory, as the repository's `vectors/` holds it). The error names every
    /// problem found.
    fn load(chip: Self::Chip, dir: Option<&Path>) -> Result<Self::Corpus, String>;

    /// The built-in corpus of `chip` as the files an importer in any language reads, each a path
    /// relative to a vectors directory (`blackhole/SFPMAD.yaml`, `amx/m2.yaml`) and its text: the
    /// repository's form, or its JSON form with `json`. Empty when the instruction set exports
    /// none.
    fn export(chip: Self::Chip, json: bool) -> Vec<(String, String)> {
        let _ = (chip, json);
        Vec::new()
    }

    /// The vector file a regression vector of `chip` is pasted into (`vectors/blackhole/regressions.yaml`).
    fn regression_file(chip: Self::Chip) -> String;

    /// The jobs of `chip`'s random campaign, in the order they run: one per instruction or axis,
    /// then the streams.
    fn jobs(chip: Self::Chip) -> Vec<Job>;
    /// Case `index` of `job` on `chip` for `seed`, with what it expects (the reference model's
    /// result, with the locations the specification leaves unpromised under `strictness`
    /// skipped); `None` when the job draws no case at that number. Its `id` is set by the caller.
    fn job_case(
        chip: Self::Chip,
        seed: u64,
        job: &Job,
        index: u64,
        strictness: Strictness,
    ) -> Option<VectorCase<Self>>;
    /// The regression vector of case `index` of `job` (a YAML snippet for the instruction set's
    /// vector files), `origin` naming where it was found (`campaign-5f9c0de5`).
    fn job_snippet(chip: Self::Chip, seed: u64, job: &Job, index: u64, origin: &str) -> String;

    /// Why `case` is not given to a model that declares `declaration` (`None`: it is).
    fn not_applicable(
        declaration: &Self::Declaration,
        chip: Self::Chip,
        case: &VectorCase<Self>,
    ) -> Option<NotApplicable> {
        let _ = (declaration, chip, case);
        None
    }
    /// A declaration in words, for the report (`models the baseline; refuses SFPLOADMACRO`).
    fn describe_declaration(declaration: &Self::Declaration) -> String {
        format!("{declaration:?}")
    }

    /// What the instruction set adds to `chip`'s section, each under its key (the SFPU's IEEE 754
    /// characterisation, specification notes and operand coverage), with the milliseconds it
    /// took where that is worth a line of the report's timings; `stop` says when the run was
    /// interrupted.
    fn chip_extensions(
        chip: Self::Chip,
        corpus: &Self::Corpus,
        selection: &Selection,
        seed: u64,
        stop: &(dyn Fn() -> bool + Sync),
    ) -> Vec<(String, serde_json::Value, Option<u64>)> {
        let _ = (chip, corpus, selection, seed, stop);
        Vec::new()
    }
    /// What the instruction set adds to the whole report once its chips are checked (the SFPU's
    /// kernel accuracy), each under its key.
    fn report_extensions(chips: &[Self::Chip], selection: &Selection) -> Vec<(String, serde_json::Value)> {
        let _ = (chips, selection);
        Vec::new()
    }
    /// The file extension of programs in the instruction set's text form (`sfpu`, `amx`): `run`
    /// picks the instruction set of a program by it.
    const PROGRAM_EXTENSION: &'static str = Self::NAME;
    /// The `run` command: `request`'s program on the reference model, its final state printed.
    fn run_program(request: &RunRequest) -> Result<RunOutput, String> {
        let _ = request;
        Err(format!("`run` is not available for {}", Self::NAME))
    }

    /// The renderers of the instruction set's report extensions ([`Isa::report_extensions`]).
    fn report_renderers() -> &'static [&'static dyn Extension] {
        &[]
    }
    /// The renderers of the instruction set's section extensions ([`Isa::chip_extensions`]).
    fn section_renderers() -> &'static [&'static dyn SectionExtension] {
        &[]
    }
}

/// An implementation of an instruction set that can be checked.
///
/// `run` starts from `pre`, executes `program` in order, lets anything it scheduled run to
/// completion, and returns the final state with the outcome.
pub trait Model<I: Isa>: Sync {
    /// A short name for reports.
    fn name(&self) -> String;
    /// What the model declares it models; `None`, the default, for everything. The runner gives
    /// the model only the cases its declaration covers and records the others as not applicable.
    fn declaration(&self) -> Option<&I::Declaration> {
        None
    }
    /// Runs one case.
    fn run(
        &self,
        chip: I::Chip,
        pre: &I::State,
        program: &[I::Word],
    ) -> Result<Run<I::State, I::Outcome>, ModelError>;
}
