//! A chip's coverage matrix over the seam: its rows with no counts yet ([`empty_rows`]), one
//! model's golden-vector results and random-campaign counts added to it
//! ([`add_vector_results`], [`add_campaign`]), the totals and coverage of every model
//! ([`totals`], [`coverage`]), and the reasons cases were not checked ([`Tally`]).

use std::collections::BTreeMap;

use crate::check::{CaseResult, Status};
use crate::isa::Cell;
use crate::report::{CaseRecord, Counts, FailureEntry, MatrixRow, ModelCoverage, ReasonEntry};

/// How many example ids a [`ReasonEntry`] keeps.
const EXAMPLES: usize = 3;

/// The reasons one model gave (or the errors it had) and why cases were not applicable to it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Not-applicable vectors by missing feature.
    pub by_feature: BTreeMap<String, u64>,
    /// Not-applicable vectors by refusal.
    pub by_refusal: BTreeMap<String, u64>,
    /// `(kind, pattern)` -> the cases of that reason pattern ([`reason_pattern`]), kind
    /// `unsupported` or `error`.
    pub reasons: BTreeMap<(String, String), Reasons>,
}

/// The cases that gave reasons of one pattern.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Reasons {
    /// How many.
    pub count: u64,
    /// The first few ids.
    pub examples: Vec<String>,
    /// The first reason, as given.
    pub first: String,
}

impl Reasons {
    /// Adds `count` cases with the `examples` ids, the first of which gave `first`.
    pub fn add(&mut self, count: u64, examples: &[String], first: &str) {
        if self.count == 0 {
            self.first = first.to_string();
        }
        self.count += count;
        for id in examples {
            if self.examples.len() < EXAMPLES {
                self.examples.push(id.clone());
            }
        }
    }
}

/// The pattern of a reason a model gave for case `id`: the case's id replaced by `<id>`, quoted
/// text (between backticks or quotes) by `…`, then each word (a run of letters, digits and `_`)
/// holding a digit (numbers, `0x1f`, `mod1`) by `<n>`, and each with two or more capitals
/// (instruction and register names: `SFPMAD`, `LReg`) by `<name>`. Reasons that differ only in those are one entry of the report's
/// reasons, however many distinct texts a model writes.
pub fn reason_pattern(reason: &str, id: &str) -> String {
    let text = if id.is_empty() { reason.to_string() } else { reason.replace(id, "<id>") };
    // Quoted text first: it may hold spaces.
    let mut unquoted = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if matches!(c, '`' | '"' | '\'') {
            let rest: String = chars.clone().collect();
            if let Some(end) = rest.find(c) {
                unquoted.push(c);
                unquoted.push('…');
                unquoted.push(c);
                for _ in 0..rest[..end].chars().count() + 1 {
                    chars.next();
                }
                continue;
            }
        }
        unquoted.push(c);
    }
    // Then each run of letters, digits and underscores.
    let mut out = String::with_capacity(unquoted.len());
    let mut run = String::new();
    let flush = |run: &mut String, out: &mut String| {
        if run.chars().any(|c| c.is_ascii_digit()) {
            out.push_str("<n>");
        } else if run.chars().filter(|c| c.is_uppercase()).count() >= 2 {
            out.push_str("<name>");
        } else {
            out.push_str(run);
        }
        run.clear();
    };
    for c in unquoted.chars() {
        if c.is_alphanumeric() || c == '_' {
            run.push(c);
        } else {
            flush(&mut run, &mut out);
            out.push(c);
        }
    }
    flush(&mut run, &mut out);
    out
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
            Status::Pass | Status::Fail(_) | Status::Interrupted => return,
        };
        let pattern = reason_pattern(&reason, id);
        self.reasons.entry((kind.to_string(), pattern)).or_default().add(1, &[id.to_string()], &reason);
    }

    /// Adds `other` (gathered after `self`) into `self`.
    pub fn merge(&mut self, other: &Tally) {
        for (k, n) in &other.by_feature {
            *self.by_feature.entry(k.clone()).or_default() += n;
        }
        for (k, n) in &other.by_refusal {
            *self.by_refusal.entry(k.clone()).or_default() += n;
        }
        for (k, r) in &other.reasons {
            self.reasons.entry(k.clone()).or_default().add(r.count, &r.examples, &r.first);
        }
    }

    /// The reasons as report entries for `model`, most frequent first (then by kind and pattern).
    pub fn entries(&self, model: &str) -> Vec<ReasonEntry> {
        let mut out: Vec<ReasonEntry> = self
            .reasons
            .iter()
            .map(|((kind, pattern), r)| ReasonEntry {
                model: model.to_string(),
                kind: kind.clone(),
                reason: r.first.clone(),
                pattern: pattern.clone(),
                count: r.count,
                examples: r.examples.clone(),
            })
            .collect();
        out.sort_by(|a, b| {
            b.count.cmp(&a.count).then_with(|| (&a.kind, &a.pattern).cmp(&(&b.kind, &b.pattern)))
        });
        out
    }
}

/// The record of case `id`'s `status` on `model` (a line of `cases.jsonl`); `None` for a case
/// the interruption cut short.
pub fn case_record<L>(model: &str, id: &str, status: &Status<L>) -> Option<CaseRecord> {
    let (verdict, reason) = match status {
        Status::Pass => ("pass", None),
        Status::Fail(f) => ("fail", Some(failure_summary(&f.report))),
        Status::Error(e) => ("error", Some(e.clone())),
        Status::Unsupported(why) => ("unsupported", Some(why.clone())),
        Status::NotApplicable(na) => ("not-applicable", Some(na.to_string())),
        Status::Interrupted => return None,
    };
    Some(CaseRecord { model: model.to_string(), id: id.to_string(), verdict: verdict.to_string(), reason })
}

/// What a failure's account says differs, on one line: its lines after the heading and the
/// program listing (whose lines start with the word in hex), trimmed and joined.
fn failure_summary(report: &str) -> String {
    let parts: Vec<&str> =
        report.lines().skip(1).map(str::trim).filter(|l| !l.is_empty() && !l.starts_with("0x")).collect();
    crate::dut::process::clip(&parts.join(" | "), 300)
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
    for r in results.iter().filter(|r| !matches!(r.status, Status::Interrupted)) {
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
            Status::NotApplicable(_) | Status::Interrupted => (false, "", String::new()),
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Reasons that differ only in the case id, numbers, names or quoted text are one pattern;
    /// each replacement by hand.
    #[test]
    fn reasons_are_counted_by_pattern() {
        assert_eq!(
            reason_pattern("SFPMAD/mod1=3/specials is not modelled", "SFPMAD/mod1=3/specials"),
            "<id> is not modelled"
        );
        assert_eq!(
            reason_pattern("SFPIADD mode 5 (lane 17) not done", "SFPNOP/none/basic"),
            "<name> mode <n> (lane <n>) not done"
        );
        assert_eq!(
            reason_pattern("unknown word `0x7c000120` in 'the program'", "SFPNOP/none/basic"),
            "unknown word `…` in '…'"
        );
        assert_eq!(reason_pattern("mod1=2, 0x1f: no", "SFPNOP/none/basic"), "<n>=<n>, <n>: no");
        assert_eq!(reason_pattern("LReg[3] differs", ""), "<name>[<n>] differs");
        assert_eq!(reason_pattern("not implemented", "SFPNOP/none/basic"), "not implemented");
        // An unterminated quote is left as it is.
        assert_eq!(reason_pattern("it's broken", "SFPNOP/none/basic"), "it's broken");

        // 20,000 cases whose reasons each name the case: one entry, its count, the first
        // examples and the first reason as given.
        let mut tally = Tally::default();
        for i in 0..20_000 {
            let id = format!("random/SFPMAD/{i}");
            tally.record::<()>(&id, &Status::Unsupported(format!("case {id} is unsupported")), false);
        }
        let entries = tally.entries("dut");
        assert_eq!(entries.len(), 1, "{entries:?}");
        let e = &entries[0];
        assert_eq!((e.count, e.pattern.as_str()), (20_000, "case <id> is unsupported"));
        assert_eq!(e.examples, ["random/SFPMAD/0", "random/SFPMAD/1", "random/SFPMAD/2"]);
        assert_eq!(e.reason, "case random/SFPMAD/0 is unsupported");
    }
}
