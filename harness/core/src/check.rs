//! Checking a model against expected states, for any instruction set ([`crate::isa::Isa`]): the
//! verdict on one case ([`compare`], [`Status`]), golden vectors of any format ([`VectorCase`],
//! [`run_vectors`]), the coverage matrix of a chip with its counts and failures
//! ([`add_vector_results`], [`add_campaign`], [`totals`], [`coverage`]), the reasons cases were
//! not checked ([`Tally`]), and the random cases of the instruction set's cells, each a function
//! of its seed and id ([`random_case`], [`random_id`]).
//!
//! Every instruction set's vectors and campaigns end here: the SFPU's runner
//! (`crate::sfpu::vectors::run`) and AMX's (`crate::amx::run`) turn their files into cases and
//! hand each run to [`compare`]; each instruction set's report sections are built with the
//! matrix functions here.

use std::collections::BTreeMap;
use std::fmt::{self, Write as _};

use rayon::prelude::*;

use crate::isa::{Cell, Isa, Model, ModelError, Run};
use crate::report::{Counts, FailureEntry, MatrixRow, ModelCoverage, ReasonEntry};
use crate::rng::Rng;

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
}

impl<L> Status<L> {
    /// The one-line reason the case was not checked, if it was not (for [`MatrixRow::reasons`]).
    pub fn reason(&self) -> Option<String> {
        match self {
            Status::Unsupported(why) => Some(format!("unsupported: {why}")),
            Status::Error(e) => Some(format!("error: {e}")),
            Status::NotApplicable(na) => Some(format!("not applicable: {na}")),
            Status::Pass | Status::Fail(_) => None,
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

// ---------------------------------------------------------------------------------------------
// The matrix.
// ---------------------------------------------------------------------------------------------

/// How many example ids a [`ReasonEntry`] keeps.
const EXAMPLES: usize = 3;

/// The reasons one model gave (or the errors it had) and why cases were not applicable to it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Not-applicable vectors by missing feature.
    pub by_feature: BTreeMap<String, u64>,
    /// Not-applicable vectors by refusal.
    pub by_refusal: BTreeMap<String, u64>,
    /// `(kind, reason)` -> (count, the first example ids), kind `unsupported` or `error`.
    pub reasons: BTreeMap<(String, String), (u64, Vec<String>)>,
}

impl Tally {
    /// Records the status of case `id` (a vector when `vector`, else a random case: the
    /// not-applicable counts are about vectors).
    pub fn record<L>(&mut self, id: &str, status: &Status<L>, vector: bool) {
        let (kind, reason) = match status {
            Status::Unsupported(why) => ("unsupported", why.clone()),
            Status::Error(e) => ("error", e.clone()),
            Status::NotApplicable(na) => {
                if vector {
                    for f in &na.missing {
                        *self.by_feature.entry(f.clone()).or_default() += 1;
                    }
                    for r in &na.refused {
                        *self.by_refusal.entry(r.clone()).or_default() += 1;
                    }
                }
                return;
            }
            Status::Pass | Status::Fail(_) => return,
        };
        let e = self.reasons.entry((kind.to_string(), reason)).or_default();
        e.0 += 1;
        if e.1.len() < EXAMPLES {
            e.1.push(id.to_string());
        }
    }

    /// Adds `other` (gathered after `self`) into `self`.
    pub fn merge(&mut self, other: &Tally) {
        for (k, n) in &other.by_feature {
            *self.by_feature.entry(k.clone()).or_default() += n;
        }
        for (k, n) in &other.by_refusal {
            *self.by_refusal.entry(k.clone()).or_default() += n;
        }
        for (k, (n, ex)) in &other.reasons {
            let e = self.reasons.entry(k.clone()).or_default();
            e.0 += n;
            for id in ex {
                if e.1.len() < EXAMPLES {
                    e.1.push(id.clone());
                }
            }
        }
    }

    /// The reasons as report entries for `model`, most frequent first (then by kind and text).
    pub fn entries(&self, model: &str) -> Vec<ReasonEntry> {
        let mut out: Vec<ReasonEntry> = self
            .reasons
            .iter()
            .map(|((kind, reason), (count, examples))| ReasonEntry {
                model: model.to_string(),
                kind: kind.clone(),
                reason: reason.clone(),
                count: *count,
                examples: examples.clone(),
            })
            .collect();
        out.sort_by(|a, b| {
            b.count.cmp(&a.count).then_with(|| (&a.kind, &a.reason).cmp(&(&b.kind, &b.reason)))
        });
        out
    }
}

/// The matrix rows of `cells`, with no counts yet.
pub fn empty_rows(cells: &[Cell]) -> Vec<MatrixRow> {
    cells
        .iter()
        .map(|c| MatrixRow {
            instruction: c.instruction.clone(),
            mode: c.mode.clone(),
            label: c.label.clone(),
            per_model: BTreeMap::new(),
            reasons: BTreeMap::new(),
        })
        .collect()
}

fn index_of(rows: &[MatrixRow]) -> BTreeMap<(String, String), usize> {
    rows.iter().enumerate().map(|(i, r)| ((r.instruction.clone(), r.mode.clone()), i)).collect()
}

/// What the matrix needs to know of a case beyond its result: whether it is undefined
/// behaviour only, its regression snippet, the command that replays it.
pub trait CaseInfo {
    /// Whether every note of case `id` is undefined behaviour (nothing but the untouched state
    /// compared).
    fn only_undefined(&self, id: &str) -> bool;
    /// A regression vector of case `id` to paste into a vector file (empty if none).
    fn snippet(&self, id: &str) -> String;
    /// The one-line command that replays case `id`.
    fn replay(&self, id: &str) -> String;
}

/// Adds one model's golden-vector results to the matrix; returns the failures to report (at most
/// `keep` per cell). Vectors not applicable to the model count in `not_applicable`, not in
/// `vectors_run`; each cell keeps its first reason for a case not checked. A vector of a file or
/// mode the matrix does not list (a user's own file, say) gets a row of its own at the end
/// rather than going unreported.
pub fn add_vector_results<L>(
    rows: &mut Vec<MatrixRow>,
    model: &str,
    results: &[CaseResult<L>],
    info: &dyn CaseInfo,
    keep: usize,
) -> Vec<FailureEntry> {
    let mut known = index_of(rows);
    for r in results {
        let mode = r.mode.clone().unwrap_or_else(|| "-".to_string());
        if let std::collections::btree_map::Entry::Vacant(e) = known.entry((r.file.clone(), mode.clone())) {
            e.insert(rows.len());
            rows.push(MatrixRow {
                instruction: r.file.clone(),
                label: mode.clone(),
                mode,
                per_model: BTreeMap::new(),
                reasons: BTreeMap::new(),
            });
        }
    }
    let index = index_of(rows);
    let mut failures = Vec::new();
    let mut kept: BTreeMap<(String, String), usize> = BTreeMap::new();
    for r in results {
        let mode = r.mode.clone().unwrap_or_else(|| "-".to_string());
        let Some(&at) = index.get(&(r.file.clone(), mode.clone())) else { continue };
        let row = &mut rows[at];
        if let Some(why) = r.status.reason() {
            row.reasons.entry(model.to_string()).or_insert(why);
        }
        let c = row.per_model.entry(model.to_string()).or_default();
        if matches!(r.status, Status::NotApplicable(_)) {
            c.not_applicable += 1;
            continue;
        }
        c.vectors_run += 1;
        if r.tainted {
            c.tainted += 1;
        }
        let (failed, kind, details) = match &r.status {
            Status::Pass => {
                c.passed += 1;
                if info.only_undefined(&r.id) {
                    c.undefined += 1;
                }
                (false, "", String::new())
            }
            Status::Fail(f) => {
                c.failed += 1;
                (true, "vector", f.report.clone())
            }
            Status::Unsupported(_) => {
                c.unsupported += 1;
                (false, "", String::new())
            }
            Status::Error(e) => {
                c.errors += 1;
                (true, "error", format!("vector {}: {e}", r.id))
            }
            Status::NotApplicable(_) => (false, "", String::new()),
        };
        let n = kept.entry((r.file.clone(), mode.clone())).or_default();
        if failed && *n < keep {
            *n += 1;
            failures.push(FailureEntry {
                model: model.to_string(),
                instruction: r.file.clone(),
                mode,
                id: r.id.clone(),
                kind: kind.to_string(),
                replay: info.replay(&r.id),
                details,
                snippet: info.snippet(&r.id),
            });
        }
    }
    failures
}

/// The counts of one cell of a random campaign.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CellCounts {
    /// Cases given to the model and compared (or that failed to run).
    pub cases: u64,
    /// Of those, the cases that differed or failed to run.
    pub failures: u64,
    /// Of those, the cases that failed to run.
    pub errors: u64,
    /// Cases the model declined.
    pub unsupported: u64,
    /// Cases held back (the model's declaration does not cover them).
    pub not_applicable: u64,
}

/// Adds one model's random-campaign counts per cell to the matrix, and each cell's first
/// reason for a case not checked.
pub fn add_campaign(
    rows: &mut [MatrixRow],
    model: &str,
    cells: &BTreeMap<(String, String), CellCounts>,
    reasons: &BTreeMap<(String, String), String>,
) {
    let index = index_of(rows);
    for (key, counts) in cells {
        if let Some(&i) = index.get(key) {
            let c = rows[i].per_model.entry(model.to_string()).or_default();
            c.random_cases += counts.cases;
            c.random_failures += counts.failures;
            c.random_errors += counts.errors;
            c.random_unsupported += counts.unsupported;
            c.random_not_applicable += counts.not_applicable;
        }
    }
    for (key, why) in reasons {
        if let Some(&i) = index.get(key) {
            rows[i].reasons.entry(model.to_string()).or_insert_with(|| why.clone());
        }
    }
}

/// The totals per model over the matrix.
pub fn totals(rows: &[MatrixRow]) -> BTreeMap<String, Counts> {
    let mut t: BTreeMap<String, Counts> = BTreeMap::new();
    for r in rows {
        for (m, c) in &r.per_model {
            t.entry(m.clone()).or_default().add(c);
        }
    }
    t
}

/// The coverage of `model`: the selected vectors (`selected`), what its counts over the matrix
/// say (its cells are the rows it had a case of, given or held back), and the not-applicable
/// tallies.
pub fn coverage(rows: &[MatrixRow], model: &str, selected: u64, tally: &Tally) -> ModelCoverage {
    let mut t = Counts::default();
    for r in rows {
        t.add(&r.counts(model));
    }
    ModelCoverage {
        model: model.to_string(),
        vectors: selected,
        applicable: t.vectors_run,
        not_applicable: t.not_applicable,
        unsupported: t.unsupported,
        errors: t.errors,
        compared: t.passed + t.failed,
        passed: t.passed,
        cells: rows
            .iter()
            .filter(|r| {
                let c = r.counts(model);
                c.vectors_run
                    + c.not_applicable
                    + c.random_cases
                    + c.random_unsupported
                    + c.random_not_applicable
                    > 0
            })
            .count() as u64,
        cells_covered: rows.iter().filter(|r| r.counts(model).compared_any()).count() as u64,
        not_applicable_by_feature: tally.by_feature.clone(),
        not_applicable_by_refusal: tally.by_refusal.clone(),
    }
}

// ---------------------------------------------------------------------------------------------
// The random campaign.
// ---------------------------------------------------------------------------------------------

/// The id of random case `index` of cell number `cell` of `chip`: `<isa>/<chip>/random/<cell>/<index>`.
pub fn random_id<I: Isa>(chip: I::Chip, cell: usize, index: u64) -> String {
    format!("{}/{}/random/{cell}/{index}", I::NAME, I::chip_name(chip))
}

/// Parses a [`random_id`] of instruction set `I`: (chip, cell number, index).
pub fn parse_random_id<I: Isa>(id: &str) -> Option<(I::Chip, usize, u64)> {
    let rest = id.strip_prefix(I::NAME)?.strip_prefix('/')?;
    let mut parts = rest.split('/');
    let chip = I::chip_named(parts.next()?)?;
    if parts.next()? != "random" {
        return None;
    }
    let cell = parts.next()?.parse().ok()?;
    let index = parts.next()?.parse().ok()?;
    parts.next().is_none().then_some((chip, cell, index))
}

/// Random case `index` of cell number `cell` of `chip`, a function of `(seed, id)` alone; `None`
/// when the cell has no random cases (or no such cell).
pub fn random_case<I: Isa>(
    chip: I::Chip,
    cells: &[Cell],
    cell: usize,
    seed: u64,
    index: u64,
) -> Option<(String, I::State, Vec<I::Word>)> {
    let id = random_id::<I>(chip, cell, index);
    let mut rng = Rng::stream(seed, &id);
    let (pre, program) = I::random_case(chip, cells.get(cell)?, &mut rng)?;
    Some((id, pre, program))
}

// ---------------------------------------------------------------------------------------------
// Golden vectors.
// ---------------------------------------------------------------------------------------------

/// A golden vector as the core runs it, whatever its instruction set's file format.
#[derive(Clone, Debug, PartialEq)]
pub struct VectorCase<I: Isa> {
    /// The vector's id.
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
}

/// Runs every vector of `cases` on `model` on `chip`, in parallel; results in the cases' order.
pub fn run_vectors<I: Isa>(
    model: &dyn Model<I>,
    chip: I::Chip,
    cases: &[VectorCase<I>],
) -> Vec<CaseResult<I::Locations>> {
    cases.par_iter().map(|c| run_vector(model, chip, c)).collect()
}

/// [`run_vectors`] one case after the other, in order: for an external implementation, which
/// gets the same cases in the same order on every run.
pub fn run_vectors_in_order<I: Isa>(
    model: &dyn Model<I>,
    chip: I::Chip,
    cases: &[VectorCase<I>],
) -> Vec<CaseResult<I::Locations>> {
    cases.iter().map(|c| run_vector(model, chip, c)).collect()
}

/// Runs one vector on `model` and compares.
pub fn run_vector<I: Isa>(
    model: &dyn Model<I>,
    chip: I::Chip,
    c: &VectorCase<I>,
) -> CaseResult<I::Locations> {
    let expected = Expected::<I> { state: &c.expected, outcome: c.outcome.as_ref(), skip: &c.skip };
    let status =
        compare::<I>(&c.id, &model.name(), chip, &c.program, expected, model.run(chip, &c.pre, &c.program));
    CaseResult {
        id: c.id.clone(),
        file: c.file.clone(),
        mode: c.mode.clone(),
        tainted: !I::is_empty(&c.skip),
        status,
    }
}
