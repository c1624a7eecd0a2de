//! The seam between the harness and an instruction set: what an ISA provides ([`Isa`]) and how
//! any implementation of it is checked ([`Model`]).
//!
//! An instruction set gives the harness its chips, its instruction word and how to show one, its
//! state, the locations of that state (for the taint of unpromised parts, for the `skip` lists of
//! vectors and for differences), its reference and fast models, the cells of its coverage matrix
//! (instruction × mode value, or semantic class), and how to draw a random case of a cell (its
//! operand classes). The ISA-neutral core ([`crate::check`], [`crate::report`],
//! [`crate::dut::process`]) is written against this trait only; `crate::sfpu` and `crate::amx`
//! implement it. A third instruction set implements it in a folder of its own and adds itself to
//! the command line's list.

use std::fmt::Debug;

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

/// One cell of an instruction set's coverage matrix: an instruction (or a file of multi-instruction
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

/// An instruction set the harness can check.
pub trait Isa: Sized + Send + Sync + 'static {
    /// Its name on the command line, in case ids and in reports (`sfpu`, `amx`).
    const NAME: &'static str;
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

    /// The cells of `chip`'s coverage matrix, in report order.
    fn cells(chip: Self::Chip) -> Vec<Cell>;
    /// A random case of `cell` (its operand classes), deterministic in `rng`: the state before
    /// and the program; `None` when the cell has no random cases (a file of fixed vectors).
    fn random_case(chip: Self::Chip, cell: &Cell, rng: &mut Rng) -> Option<(Self::State, Vec<Self::Word>)>;
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
