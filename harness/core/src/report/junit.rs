//! The JUnit XML form of the report (`junit.xml`), for CI systems' test views.
//!
//! One `<testsuite>` per chip and model (named `{arch}/{model}`, in report order) and in each one `<testcase
//! classname="{arch}.{instruction}" name="{mode}">` per matrix row. A cell's status decides the
//! test case's outcome:
//!
//! - `fail` with failing vectors or random cases: `<failure>`, whose `message` sums the counts
//!   and names the cell's first failure and whose text is that failure's replay command, details
//!   and YAML vector;
//! - `fail` with nothing but errors (the model crashed, hung or answered nonsense): `<error>`,
//!   likewise;
//! - `unsupported` (the model declined every case) and `untested`: `<skipped message="...">`;
//! - `pass`, `partial` (what was compared passed; the declined cases are counted in the
//!   test case's output) and `undefined`: no child but the counts.
//!
//! A last suite, `conform`, holds the run's own test cases when there are any: an interrupted
//! run is an `<error>`, and an external implementation that compared nothing on a chip (unless
//! the run accepted that) a `<failure>`.
//!
//! Every test case carries its counts in `<system-out>`; each suite carries the model's kind,
//! command and the run's settings as `<properties>`. The `tests`, `failures`, `errors` and
//! `skipped` attributes of each suite and of `<testsuites>` count those elements. Strings are
//! XML-escaped, characters XML 1.0 forbids are replaced first (see
//! `html::sanitize`), and line breaks and tabs in attribute values are written
//! as character references so they survive attribute-value normalisation.

use std::fmt::{self, Write as _};

use super::model::{CellStatus, ChipReport, Counts, FailureEntry, MatrixRow, Renderers, Report};
use super::text::{sanitize, strictness_meaning};

/// What a test case turns into.
enum Outcome<'a> {
    Passed,
    Failure(Option<&'a FailureEntry>),
    Error(Option<&'a FailureEntry>),
    Skipped(String),
}

/// Renders the report as JUnit XML.
pub fn render(report: &Report) -> String {
    render_with(report, &Renderers::default())
}

/// [`render`] knowing where the instruction sets' regression vectors go.
pub fn render_with(report: &Report, renderers: &Renderers<'_>) -> String {
    let mut out = String::new();
    write_junit(&mut out, report, renderers).expect("writing to a String cannot fail");
    out
}

fn outcome<'a>(r: &'a ChipReport, model: &str, row: &MatrixRow, c: &Counts) -> Outcome<'a> {
    let (instruction, mode) = (row.instruction.as_str(), row.mode.as_str());
    let why = row.reason(model).map(|w| format!("; the first: {w}")).unwrap_or_default();
    match c.status() {
        CellStatus::Pass | CellStatus::Partial | CellStatus::Undefined => Outcome::Passed,
        CellStatus::Fail => {
            let first = r.first_failure(model, instruction, mode).map(|(_, f)| f);
            if c.failed == 0 && c.random_failures == 0 {
                // Only errors: the model failed to run cases, nothing is known to differ.
                Outcome::Error(first)
            } else {
                Outcome::Failure(first)
            }
        }
        CellStatus::Unsupported => Outcome::Skipped(format!(
            "unsupported: the model declined every case ({} vectors, {} random cases){why}",
            c.unsupported, c.random_unsupported
        )),
        CellStatus::NotApplicable => Outcome::Skipped(format!(
            "not applicable: the model's declaration covers no case ({} vectors, {} random cases){why}",
            c.not_applicable, c.random_not_applicable
        )),
        CellStatus::Untested => Outcome::Skipped("untested: no case ran".to_string()),
    }
}

#[derive(Default)]
struct Tally {
    tests: usize,
    failures: usize,
    errors: usize,
    skipped: usize,
}

impl Tally {
    fn count(&mut self, o: &Outcome<'_>) {
        self.tests += 1;
        match o {
            Outcome::Passed => {}
            Outcome::Failure(_) => self.failures += 1,
            Outcome::Error(_) => self.errors += 1,
            Outcome::Skipped(_) => self.skipped += 1,
        }
    }

    fn attributes(&self) -> String {
        format!(
            "tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"{}\"",
            self.tests, self.failures, self.errors, self.skipped
        )
    }
}

fn write_junit(out: &mut String, report: &Report, renderers: &Renderers<'_>) -> fmt::Result {
    let mut all = Tally::default();
    let mut suites = String::new();
    for r in &report.chips {
        chip_suites(&mut suites, report, r, &mut all, renderers)?;
    }
    // The run's own test cases, whatever the cells say: an interrupted run is an error; an
    // external implementation that compared nothing on a chip, not accepted, a failure.
    let mut run = Tally::default();
    let mut cases = String::new();
    if let Some(why) = &report.incomplete {
        run.tests += 1;
        run.errors += 1;
        writeln!(cases, "    <testcase classname=\"conform\" name=\"the run completed\">")?;
        writeln!(cases, "      <error message=\"incomplete: {}\" type=\"incomplete\"/>", attr(why))?;
        writeln!(cases, "    </testcase>")?;
    }
    if !report.accept_unchecked {
        for (arch, model) in report.unchecked() {
            run.tests += 1;
            run.failures += 1;
            writeln!(
                cases,
                "    <testcase classname=\"conform.{}\" name=\"{} compared something\">",
                attr(arch),
                attr(model)
            )?;
            writeln!(
                cases,
                "      <failure message=\"{}\" type=\"unchecked\"/>",
                attr(&format!(
                    "{model} compared nothing on {arch} (refused the hello, declined every case, or was \
                     given none); --accept-unchecked accepts that"
                ))
            )?;
            writeln!(cases, "    </testcase>")?;
        }
    }
    if run.tests > 0 {
        writeln!(suites, "  <testsuite name=\"conform\" {}>", run.attributes())?;
        suites.push_str(&cases);
        writeln!(suites, "  </testsuite>")?;
        all.tests += run.tests;
        all.failures += run.failures;
        all.errors += run.errors;
    }
    writeln!(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>")?;
    writeln!(
        out,
        "<testsuites name=\"{}\" {}>",
        attr(&format!("{} {}", report.tool.name, report.arch_names().join(","))),
        all.attributes()
    )?;
    out.push_str(&suites);
    writeln!(out, "</testsuites>")
}

/// The test suites of one chip: one per model, named `{arch}/{model}`.
fn chip_suites(
    suites: &mut String,
    report: &Report,
    r: &ChipReport,
    all: &mut Tally,
    renderers: &Renderers<'_>,
) -> fmt::Result {
    let models = r.model_names();
    for model in &models {
        let mut tally = Tally::default();
        let mut cases = String::new();
        for row in &r.matrix {
            let counts = row.counts(model);
            let o = outcome(r, model, row, &counts);
            tally.count(&o);
            testcase(&mut cases, r, model, &row.instruction, &row.mode, &row.label, &counts, &o, renderers)?;
        }
        // Every reason the model gave for declining cases, and every error, aggregated: one
        // skipped test case each, with the reason, its count and example ids.
        for (i, e) in r.reasons.iter().filter(|e| e.model == *model).enumerate() {
            let o = Outcome::Skipped(format!(
                "{}: {} ({} case(s); e.g. {})",
                e.kind,
                e.shown(),
                e.count,
                e.examples.join(", ")
            ));
            tally.count(&o);
            let Outcome::Skipped(message) = &o else { continue };
            writeln!(
                cases,
                "    <testcase classname=\"{}.reasons\" name=\"{} {}\">",
                attr(&format!("{}.{model}", r.arch)),
                attr(&e.kind),
                i + 1
            )?;
            writeln!(cases, "      <skipped message=\"{}\"/>", attr(message))?;
            writeln!(cases, "    </testcase>")?;
        }
        all.tests += tally.tests;
        all.failures += tally.failures;
        all.errors += tally.errors;
        all.skipped += tally.skipped;
        writeln!(
            suites,
            "  <testsuite name=\"{}\" {}>",
            attr(&format!("{}/{model}", r.arch)),
            tally.attributes()
        )?;
        writeln!(suites, "    <properties>")?;
        let info = r.models.iter().find(|m| m.name == *model);
        let mut props: Vec<(&str, String)> = vec![
            ("arch", r.arch.clone()),
            ("format", report.format.clone()),
            ("tool", format!("{} {}", report.tool.name, report.tool.version)),
            ("strictness", format!("{} ({})", r.strictness, strictness_meaning(&r.strictness))),
            ("spec.notes", r.spec.notes.clone()),
            ("spec.upstream", r.spec.upstream.clone()),
            ("corpus", format!("{} ({}, {} vectors)", r.corpus.path, r.corpus.format, r.corpus.vectors)),
            ("campaign.seed", r.campaign.seed.clone()),
        ];
        if let Some(info) = info {
            props.push(("model.kind", info.kind.clone()));
            if let Some(c) = &info.command {
                props.push(("model.command", c.clone()));
            }
            if let Some(d) = &info.description {
                props.push(("model.description", d.clone()));
            }
            if let Some(d) = &info.declaration {
                props.push(("model.declaration", d.clone()));
            }
        }
        if let Some(c) = r.coverage_of(model) {
            let short = c.shortfall();
            props.push((
                "coverage",
                if short.is_empty() { c.headline() } else { format!("{} ({short})", c.headline()) },
            ));
        }
        for (name, value) in props {
            writeln!(suites, "      <property name=\"{name}\" value=\"{}\"/>", attr(&value))?;
        }
        writeln!(suites, "    </properties>")?;
        suites.push_str(&cases);
        writeln!(suites, "  </testsuite>")?;
    }
    Ok(())
}

fn testcase(
    out: &mut String,
    r: &ChipReport,
    model: &str,
    instruction: &str,
    mode: &str,
    label: &str,
    c: &Counts,
    o: &Outcome<'_>,
    renderers: &Renderers<'_>,
) -> fmt::Result {
    writeln!(
        out,
        "    <testcase classname=\"{}\" name=\"{}\">",
        attr(&format!("{}.{}", r.arch, instruction)),
        attr(mode)
    )?;
    match o {
        Outcome::Passed => {}
        Outcome::Skipped(message) => writeln!(out, "      <skipped message=\"{}\"/>", attr(message))?,
        Outcome::Failure(first) | Outcome::Error(first) => {
            let (element, kind) = match o {
                Outcome::Error(_) => ("error", "error"),
                _ => ("failure", "mismatch"),
            };
            let mut summary = Vec::new();
            if c.failed > 0 {
                summary.push(format!("{} of {} vectors failed", c.failed, c.vectors_run));
            }
            if c.random_failures > 0 {
                summary.push(format!("{} of {} random cases differed", c.random_failures, c.random_cases));
            }
            if c.errors > 0 {
                summary.push(format!("{} errors", c.errors));
            }
            if c.random_errors > 0 {
                summary.push(format!("{} random cases failed to run", c.random_errors));
            }
            let mut message = summary.join(", ");
            let body = match first {
                Some(f) => {
                    let first_line = f.details.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
                    write!(message, "; first: {} ({}): {}", f.id, f.kind, first_line)?;
                    format!(
                        "{}\n\nReplay:\n{}\n\nRegression vector (for {}):\n{}",
                        f.details.trim_end(),
                        f.replay,
                        renderers.regression_file_of(r),
                        f.snippet.trim_end()
                    )
                }
                None => "No failure was recorded for this cell; see report.json.".to_string(),
            };
            let kind = first.map_or(kind, |f| f.kind.as_str());
            writeln!(
                out,
                "      <{element} message=\"{}\" type=\"{}\">{}</{element}>",
                attr(&message),
                attr(kind),
                text(&body)
            )?;
        }
    }
    let mut counts = format!("{model}: {}\n{}", c.status().name(), c.describe());
    if !label.is_empty() && label != mode {
        counts = format!("{instruction} {mode} ({label})\n{counts}");
    }
    writeln!(out, "      <system-out>{}</system-out>", text(&counts))?;
    writeln!(out, "    </testcase>")
}

/// `s` as XML character data: sanitised, then `&`, `<` and `>` escaped.
fn text(s: &str) -> String {
    let clean = sanitize(s);
    let mut out = String::with_capacity(clean.len() + 16);
    for c in clean.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            c => out.push(c),
        }
    }
    out
}

/// `s` as a double-quoted XML attribute value: [`text`], plus quotes, and line feeds and tabs as
/// character references.
fn attr(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 16);
    for c in text(s).chars() {
        match c {
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\n' => out.push_str("&#10;"),
            '\t' => out.push_str("&#9;"),
            c => out.push(c),
        }
    }
    out
}
