//! The terminal form of the report: what `conform` prints when it ends. A block per section (the
//! counts of every model, the verdict with its coverage, the reasons cases were not checked, the
//! DUTs, what the instruction set adds, the first failures with their replay commands and
//! regression vectors, the campaign's rate), then what the instruction sets add to the whole
//! report and the overall verdict.

use std::fmt::Write as _;
use std::path::Path;

use super::{ChipReport, Renderers, Report};

/// How many failures the summary prints in full (replay, details, YAML snippet).
pub const PRINTED_FAILURES: usize = 10;

/// What the terminal shows of a section beyond the report: the DUTs given up on (name, why), the
/// vectors in the chip's corpus (the run may have selected fewer) and the vector file its
/// regression vectors are pasted into.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SectionNotes {
    /// The DUTs given up on, with why.
    pub given_up: Vec<(String, String)>,
    /// The vectors in the chip's corpus.
    pub in_corpus: usize,
    /// Where the chip's regression vectors go (`vectors/blackhole/regressions.yaml`).
    pub regression_file: String,
}

/// The summary of `report` (written to `out_dir`), one [`SectionNotes`] per section.
pub fn render(report: &Report, notes: &[SectionNotes], renderers: &Renderers<'_>, out_dir: &Path) -> String {
    let mut out = String::new();
    for (i, chip) in report.chips.iter().enumerate() {
        chip_block(&mut out, chip, &notes.get(i).cloned().unwrap_or_default(), renderers);
    }
    for (key, data) in &report.extensions {
        if let Some(e) = renderers.report_renderer(key) {
            let mut text = String::new();
            if e.terminal(&mut text, data).is_ok() && !text.is_empty() {
                let _ = write!(out, "\n{text}");
            }
        }
    }
    let failures: usize = report.chips.iter().map(|c| c.failures.len()).sum();
    let printed: usize = report.chips.iter().map(|c| c.failures.len().min(PRINTED_FAILURES)).sum();
    if failures > printed {
        let _ = writeln!(
            out,
            "\n... {} more failures, each with its replay command and YAML regression vector, in {} \
             (section Failures of each chip) and {} (`chips[].failures`); every case's verdict in {}",
            failures - printed,
            out_dir.join("report.md").display(),
            out_dir.join("report.json").display(),
            out_dir.join("cases.jsonl").display()
        );
    }
    let _ = writeln!(out, "\noverall: {}", report.overall_verdict());
    let total = report.timings_ms.get("total").copied().unwrap_or(0);
    let _ =
        writeln!(out, "report: {} ({:.1}s)", out_dir.join("report.html").display(), total as f64 / 1000.0);
    out
}

fn chip_block(out: &mut String, report: &ChipReport, notes: &SectionNotes, renderers: &Renderers<'_>) {
    let of = if notes.in_corpus == report.corpus.vectors || notes.in_corpus == 0 {
        String::new()
    } else {
        format!(" of {}", notes.in_corpus)
    };
    let _ = writeln!(
        out,
        "\n== {} conformance, {} ({}{of} vectors, campaign seed {})",
        report.isa_name(),
        report.arch,
        report.corpus.vectors,
        report.campaign.seed
    );
    let _ = writeln!(
        out,
        "{:<12} {:>8} {:>8} {:>8} {:>8} {:>8} {:>8} {:>10} {:>9} {:>9} {:>9} {:>9} {:>9}",
        "model",
        "vectors",
        "passed",
        "failed",
        "errors",
        "unsupp.",
        "n/a",
        "tainted",
        "random",
        "rnd fail",
        "rnd err",
        "rnd decl.",
        "rnd n/a"
    );
    for m in &report.models {
        let c = report.totals.get(&m.name).copied().unwrap_or_default();
        let _ = writeln!(
            out,
            "{:<12} {:>8} {:>8} {:>8} {:>8} {:>8} {:>8} {:>10} {:>9} {:>9} {:>9} {:>9} {:>9}",
            m.name,
            c.vectors_run,
            c.passed,
            c.failed,
            c.errors,
            c.unsupported,
            c.not_applicable,
            c.tainted,
            c.random_cases,
            c.random_failures,
            c.random_errors,
            c.random_unsupported,
            c.random_not_applicable
        );
    }
    let _ = writeln!(out, "\n{}: {}", report.arch, report.verdict_text());
    for c in report.coverage.iter().filter(|c| c.not_applicable > 0) {
        let by: Vec<String> = c
            .not_applicable_by_feature
            .iter()
            .map(|(f, n)| format!("{f} {n}"))
            .chain(c.not_applicable_by_refusal.iter().map(|(r, n)| format!("refuses {r} {n}")))
            .collect();
        let _ = writeln!(out, "{}: not applicable by what it does not declare: {}", c.model, by.join(", "));
    }
    const REASONS: usize = 5;
    for m in &report.models {
        let reasons: Vec<_> = report.reasons.iter().filter(|e| e.model == m.name).collect();
        for e in reasons.iter().take(REASONS) {
            let _ = writeln!(
                out,
                "{} {} x{}: {} (e.g. {})",
                m.name,
                e.kind,
                e.count,
                e.shown(),
                e.examples.join(", ")
            );
        }
        if reasons.len() > REASONS {
            let _ = writeln!(out, "{}: ... {} more reasons in the report", m.name, reasons.len() - REASONS);
        }
    }
    for m in report.models.iter().filter(|m| m.kind == "dut") {
        let _ = writeln!(out, "{}: {}", m.name, m.description.as_deref().unwrap_or(""));
        if let Some(d) = &m.declaration {
            let _ = writeln!(out, "{}: declares: {d}", m.name);
        }
    }
    for (key, data) in &report.extensions {
        if let Some(e) = renderers.section_renderer(key) {
            let _ = e.terminal(out, report, data);
        }
    }
    for (name, why) in &notes.given_up {
        let _ = writeln!(out, "{name}: {why}");
    }
    for f in report.failures.iter().take(PRINTED_FAILURES) {
        let _ = writeln!(
            out,
            "\nFAIL [{} {}] {} ({} {}, {})",
            report.arch, f.model, f.id, f.instruction, f.mode, f.kind
        );
        let _ = writeln!(out, "  replay: {}", f.replay);
        for line in f.details.lines().take(12) {
            let _ = writeln!(out, "  {line}");
        }
        if f.details.lines().count() > 12 {
            let _ = writeln!(out, "  ... (the whole account is in the report)");
        }
        if f.snippet.is_empty() {
            let _ = writeln!(out, "  (no regression vector: see the report)");
        } else {
            let _ =
                writeln!(out, "  regression vector (paste under `vectors:` in {}):", notes.regression_file);
            for line in f.snippet.lines() {
                let _ = writeln!(out, "    {line}");
            }
        }
    }
    // The random campaign's rate: cases and streams per second of its phases (every model's).
    let random_ms: u64 =
        report.timings_ms.iter().filter(|(k, _)| k.starts_with("random/")).map(|(_, &ms)| ms).sum();
    let drawn = report.campaign.cases + report.campaign.streams;
    if drawn > 0 && random_ms > 0 {
        let _ = writeln!(
            out,
            "\n{} random campaign: {} cases and {} streams in {:.1}s ({:.0} cases/s, streams counted as cases)",
            report.arch,
            report.campaign.cases,
            report.campaign.streams,
            random_ms as f64 / 1000.0,
            drawn as f64 * 1000.0 / random_ms as f64
        );
    }
}
