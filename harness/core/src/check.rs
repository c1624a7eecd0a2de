//! The verdict on one case, for any instruction set ([`crate::isa::Isa`]): run a model, compare
//! its result with what the case expects ([`compare`]), and say what happened ([`Status`]: a
//! pass, a divergence with an account naming every differing location, a model's refusal or
//! error, or a case not given to the model because its declaration does not cover it).

use std::fmt::Write as _;

use crate::isa::{Isa, ModelError, Run};

pub use crate::isa::NotApplicable;

/// Why a case did not pass.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure<L> {
    /// The locations that differ (outside the skipped ones).
    pub differing: L,
    /// Whether the outcome differs (when the model reports one).
    pub outcome_differs: bool,
    /// A readable account: the program, the differing locations with both sides' values, the
    /// outcomes.
    pub report: String,
}

/// The result of one case on one model.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Status<L> {
    /// Everything compared is equal.
    Pass,
    /// Something compared differs.
    Fail(Box<Failure<L>>),
    /// The model said it does not support the case.
    Unsupported(String),
    /// The model failed to run the case.
    Error(String),
    /// The case was not given to the model (see [`NotApplicable`]).
    NotApplicable(Box<NotApplicable>),
    /// The run was interrupted before the model answered: the case did not complete. Runners
    /// drop such a result (it is counted among what the interruption left undone), so tallies,
    /// the matrix and the failures never see one.
    Interrupted,
}

impl<L> Status<L> {
    /// The one-line reason the case was not checked, if it was not (for [`MatrixRow::reasons`](crate::report::MatrixRow::reasons)).
    pub fn reason(&self) -> Option<String> {
        match self {
            Status::Unsupported(why) => Some(format!("unsupported: {why}")),
            Status::Error(e) => Some(format!("error: {e}")),
            Status::NotApplicable(na) => Some(format!("not applicable: {na}")),
            Status::Pass | Status::Fail(_) | Status::Interrupted => None,
        }
    }
}

/// One case's result on one model, with what places it in the matrix.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CaseResult<L> {
    /// The case's id (a vector id, a random case's id).
    pub id: String,
    /// The matrix row's instruction (or file, or class axis).
    pub file: String,
    /// The mode value, if any.
    pub mode: Option<String>,
    /// Whether some locations were skipped as not promised.
    pub tainted: bool,
    /// The result.
    pub status: Status<L>,
}

/// What a case expects: the state after it and, where the instruction set has them, the
/// specification's verdict.
pub struct Expected<'a, I: Isa> {
    /// The state after the program.
    pub state: &'a I::State,
    /// The verdict; compared only when both it and the model's are present.
    pub outcome: Option<&'a I::Outcome>,
    /// The locations not compared (not promised).
    pub skip: &'a I::Locations,
}

/// The verdict on one run of `program` on `chip` by `model`, against `expected`: equal outside
/// the skipped locations (and the same outcome, when both say one) passes; a difference fails
/// with an account naming every differing location; a model's refusal or error is recorded as
/// such.
pub fn compare<I: Isa>(
    id: &str,
    model: &str,
    chip: I::Chip,
    program: &[I::Word],
    expected: Expected<'_, I>,
    run: Result<Run<I::State, I::Outcome>, ModelError>,
) -> Status<I::Locations> {
    let run = match run {
        Ok(run) => run,
        Err(ModelError::Unsupported(why)) => return Status::Unsupported(why),
        Err(ModelError::Failed(why)) => return Status::Error(why),
        Err(ModelError::Interrupted) => return Status::Interrupted,
    };
    let diff = I::differing(expected.state, &run.post, expected.skip);
    let outcome_differs = match (expected.outcome, &run.outcome) {
        (Some(e), Some(got)) => e != got,
        _ => false,
    };
    if I::is_empty(&diff) && !outcome_differs {
        return Status::Pass;
    }
    let mut report = String::new();
    let what = if I::is_empty(&diff) { "the outcome" } else { "the state" };
    let _ = writeln!(report, "{} {id} ({model}): {what} differs", I::NAME);
    for &w in program {
        let text = I::disassemble(chip, w).unwrap_or_else(|e| format!("(invalid: {e})"));
        let _ = writeln!(report, "  {}  {text}", I::word_hex(w));
    }
    report.push_str(&I::describe(expected.state, &run.post, &diff));
    if outcome_differs {
        let _ = writeln!(
            report,
            "  outcome: expected {}, got {}",
            expected.outcome.map_or_else(String::new, I::outcome_text),
            run.outcome.as_ref().map_or_else(String::new, I::outcome_text)
        );
    }
    Status::Fail(Box::new(Failure { differing: diff, outcome_differs, report }))
}
