//! The Markdown form of the report (`report.md`): GitHub-flavoured Markdown, readable as a file,
//! as a pull-request comment or as a CI job summary.
//!
//! Sections, in order: the verdict, the summary (tool, architecture, specification, corpus,
//! campaign, strictness, models, totals per model, cells per status), the matrix (one compact
//! table with a row per instruction, then, folded in a `<details>` element because `SFPCONFIG`
//! alone has 256 mode values, one row per mode value with a status per model), the
//! failures (replay command, details, YAML vector), what the instruction set adds to the section
//! (the SFPU's IEEE 754 characterisation, specification notes and operand coverage, drawn by its
//! [`SectionExtension`](super::SectionExtension)s), the timings; then what it adds to the whole
//! report (the SFPU's kernel accuracy) and the run's timings.
//!
//! Every string taken from the report is escaped for where it goes: inline text has Markdown's
//! punctuation backslash-escaped (so `<tag>` shows as text, not HTML), identifiers go in code spans
//! whose fences outgrow any backtick they contain, table cells escape `|`, and code blocks use a
//! fence longer than any backtick run inside. Control characters are replaced as described in
//! `html::sanitize`.

use std::fmt::{self, Write as _};

use std::collections::BTreeMap;

use super::model::{CellStatus, ChipReport, Counts, Renderers, Report};
use super::text::{block, cell_code, code, escape, human_ms, one_line, strictness_meaning, text};

/// Every status, in the order tables list them.
const STATUSES: [CellStatus; 7] = CellStatus::ALL;

/// Renders the report as GitHub-flavoured Markdown.
pub fn render(report: &Report) -> String {
    render_with(report, &Renderers::default())
}

/// [`render`] with the instruction sets' renderers of the report's and the sections' extensions
/// (an extension without one is shown as its JSON).
pub fn render_with(report: &Report, extensions: &Renderers<'_>) -> String {
    let mut out = String::new();
    write_report(&mut out, report, extensions).expect("writing to a String cannot fail");
    out
}

fn write_report(out: &mut String, r: &Report, extensions: &Renderers<'_>) -> fmt::Result {
    let archs: Vec<String> = r.arch_names().into_iter().map(code).collect();
    writeln!(out, "# {} conformance report: {}", r.isa_names().join(" and "), archs.join(", "))?;
    writeln!(out)?;
    if let Some(why) = &r.incomplete {
        writeln!(
            out,
            "**INCOMPLETE**: {}. The counts below are those of the work that completed.",
            text(why)
        )?;
        writeln!(out)?;
    }
    let glyph_of = if r.passes() { CellStatus::Pass } else { CellStatus::Fail };
    writeln!(out, "**Overall: {} {}**", glyph_of.glyph(), text(&r.overall_verdict()))?;
    writeln!(out)?;
    writeln!(out, "| | |")?;
    writeln!(out, "|---|---|")?;
    writeln!(out, "| Tool | {} {} |", text(&r.tool.name), text(&r.tool.version))?;
    writeln!(out, "| Report format | {} |", cell_code(&r.format))?;
    writeln!(out, "| Chips | {} |", archs.join(", "))?;
    writeln!(out)?;
    for chip in &r.chips {
        writeln!(out, "## {} chip {}", chip.isa_name(), code(&chip.arch))?;
        writeln!(out)?;
        let models = chip.model_names();
        verdict(out, chip)?;
        summary(out, chip, &models)?;
        matrix(out, chip, &models)?;
        failures(out, chip, extensions)?;
        for (key, data) in &chip.extensions {
            let mut section = String::new();
            let rendered = match extensions.section_renderer(key) {
                Some(e) => e.markdown(&mut section, chip, data),
                None => Err("no renderer given".to_string()),
            };
            match rendered {
                Ok(()) => out.push_str(&section),
                Err(why) => as_json(out, "###", key, data, &why)?,
            }
        }
        timings(out, "### Timings", &chip.timings_ms)?;
    }
    for (key, data) in &r.extensions {
        let mut section = String::new();
        let rendered = match extensions.report_renderer(key) {
            Some(e) => e.markdown(&mut section, data),
            None => Err("no renderer given".to_string()),
        };
        match rendered {
            Ok(()) => out.push_str(&section),
            Err(why) => as_json(out, "##", key, data, &why)?,
        }
    }
    timings(out, "## Timings (whole run)", &r.timings_ms)?;
    Ok(())
}

fn verdict(out: &mut String, r: &ChipReport) -> fmt::Result {
    let failing = r.failing_models();
    if failing.is_empty() {
        writeln!(out, "**Verdict: {} PASS** on what each model was checked on:", CellStatus::Pass.glyph())?;
    } else {
        let list: Vec<String> = failing.iter().map(|m| code(m)).collect();
        writeln!(
            out,
            "**Verdict: {} FAIL**: failing model(s): {}. What each model was checked on:",
            CellStatus::Fail.glyph(),
            list.join(", ")
        )?;
    }
    writeln!(out)?;
    for m in r.model_names() {
        match r.coverage_of(m) {
            Some(c) => {
                let short = c.shortfall();
                let short = if short.is_empty() { String::new() } else { format!(" ({})", text(&short)) };
                writeln!(out, "- {}: {}{short}", code(m), text(&c.headline()))?;
            }
            None => writeln!(out, "- {}: no coverage recorded", code(m))?,
        }
    }
    writeln!(out)
}

/// The coverage per model, what was not applicable by feature and refusal, and the reasons.
fn coverage_section(out: &mut String, r: &ChipReport) -> fmt::Result {
    writeln!(out, "#### Coverage")?;
    writeln!(out)?;
    writeln!(
        out,
        "| Model | Vectors | Applicable | Not applicable | Run | Unsupported | Errors | Compared | Passed | Cells covered |"
    )?;
    writeln!(out, "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|")?;
    for c in &r.coverage {
        writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} of {} |",
            cell_code(&c.model),
            c.vectors,
            c.applicable,
            c.not_applicable,
            c.applicable,
            c.unsupported,
            c.errors,
            c.compared,
            c.passed,
            c.cells_covered,
            c.cells
        )?;
    }
    writeln!(out)?;
    for c in r.coverage.iter().filter(|c| c.not_applicable > 0) {
        writeln!(out, "Not applicable to {}, by what it does not declare:", code(&c.model))?;
        writeln!(out)?;
        writeln!(out, "| Feature or refusal | Vectors |")?;
        writeln!(out, "|---|--:|")?;
        for (f, n) in &c.not_applicable_by_feature {
            writeln!(out, "| feature {} | {n} |", cell_code(f))?;
        }
        for (f, n) in &c.not_applicable_by_refusal {
            writeln!(out, "| refuses {} | {n} |", cell_code(f))?;
        }
        writeln!(out)?;
    }
    if !r.reasons.is_empty() {
        writeln!(out, "#### Reasons for declined cases and errors")?;
        writeln!(out)?;
        writeln!(out, "| Model | Kind | Reason | Cases | Examples |")?;
        writeln!(out, "|---|---|---|--:|---|")?;
        for e in &r.reasons {
            let examples: Vec<String> = e.examples.iter().map(|x| cell_code(x)).collect();
            writeln!(
                out,
                "| {} | {} | {} | {} | {} |",
                cell_code(&e.model),
                text(&e.kind),
                text(&one_line(&e.shown())),
                e.count,
                examples.join(", ")
            )?;
        }
        writeln!(out)?;
    }
    Ok(())
}

fn summary(out: &mut String, r: &ChipReport, models: &[&str]) -> fmt::Result {
    writeln!(out, "### Summary")?;
    writeln!(out)?;
    writeln!(out, "| | |")?;
    writeln!(out, "|---|---|")?;
    writeln!(out, "| Architecture | {} |", cell_code(&r.arch))?;
    writeln!(out, "| Specification notes | {} |", text(&r.spec.notes))?;
    writeln!(out, "| Upstream | {} |", text(&r.spec.upstream))?;
    let c = &r.corpus;
    writeln!(
        out,
        "| Corpus | {} ({}): {} files, {} vectors; generator {} |",
        cell_code(&c.path),
        cell_code(&c.format),
        c.files,
        c.vectors,
        text(&c.generator)
    )?;
    let k = &r.campaign;
    writeln!(
        out,
        "| Random campaign | seed {}, {}; {} cases and {} streams over all models |",
        cell_code(&k.seed),
        text(&k.describe_limit()),
        k.cases,
        k.streams
    )?;
    writeln!(out, "| Strictness | {} ({}) |", cell_code(&r.strictness), strictness_meaning(&r.strictness))?;
    writeln!(out)?;

    writeln!(out, "#### Models")?;
    writeln!(out)?;
    writeln!(out, "| Model | Kind | Command | Description |")?;
    writeln!(out, "|---|---|---|---|")?;
    for name in models {
        let info = r.models.iter().find(|m| m.name == *name);
        let kind = info.map_or("", |m| m.kind.as_str());
        let command = info.and_then(|m| m.command.as_deref()).map_or_else(|| "".to_string(), cell_code);
        let description = info.and_then(|m| m.description.as_deref()).map_or_else(String::new, text);
        writeln!(out, "| {} | {} | {} | {} |", cell_code(name), text(kind), command, description)?;
    }
    writeln!(out)?;

    writeln!(out, "#### Totals")?;
    writeln!(out)?;
    writeln!(
        out,
        "| Model | Status | Vectors run | Passed | Failed | Tainted | Undefined | Unsupported | Errors | \
         Not applicable | Random cases | Random failures | Random errors | Random declined | Random not applicable |"
    )?;
    writeln!(out, "|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|")?;
    for name in models {
        let t = r.model_totals(name);
        writeln!(
            out,
            "| {} | {} {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            cell_code(name),
            t.status().glyph(),
            t.status().name(),
            t.vectors_run,
            t.passed,
            t.failed,
            t.tainted,
            t.undefined,
            t.unsupported,
            t.errors,
            t.not_applicable,
            t.random_cases,
            t.random_failures,
            t.random_errors,
            t.random_unsupported,
            t.random_not_applicable
        )?;
    }
    writeln!(out)?;

    coverage_section(out, r)?;

    writeln!(out, "#### Cells by status")?;
    writeln!(out)?;
    write!(out, "| Model |")?;
    for s in STATUSES {
        write!(out, " {} {} |", s.glyph(), s.name())?;
    }
    writeln!(out, " Cells |")?;
    writeln!(out, "|---|{}--:|", "--:|".repeat(STATUSES.len()))?;
    for name in models {
        write!(out, "| {} |", cell_code(name))?;
        for s in STATUSES {
            let n = r.matrix.iter().filter(|row| row.counts(name).status() == s).count();
            write!(out, " {n} |")?;
        }
        writeln!(out, " {} |", r.matrix.len())?;
    }
    writeln!(out)
}

fn matrix(out: &mut String, r: &ChipReport, models: &[&str]) -> fmt::Result {
    writeln!(out, "### Matrix")?;
    writeln!(out)?;
    let legend: Vec<String> = STATUSES.iter().map(|s| format!("{} {}", s.glyph(), s.name())).collect();
    writeln!(
        out,
        "Legend: {}. A cell is one (instruction, mode value) for one model; the status is derived \
         from its counts as `docs/report.md` describes.",
        legend.join(" · ")
    )?;
    writeln!(out)?;
    if r.matrix.is_empty() {
        writeln!(out, "The matrix is empty.")?;
        return writeln!(out);
    }

    writeln!(out, "#### By instruction")?;
    writeln!(out)?;
    write!(out, "| Instruction | Modes |")?;
    for m in models {
        write!(out, " {} |", cell_code(m))?;
    }
    writeln!(out)?;
    writeln!(out, "|---|--:|{}", "---|".repeat(models.len()))?;
    for (instruction, rows) in r.rows_by_instruction() {
        write!(out, "| {} | {} |", cell_code(instruction), rows.len())?;
        for m in models {
            let parts: Vec<String> = STATUSES
                .iter()
                .filter_map(|s| {
                    let n = rows.iter().filter(|row| row.counts(m).status() == *s).count();
                    (n > 0).then(|| format!("{} {n}", s.glyph()))
                })
                .collect();
            write!(out, " {} |", parts.join(" "))?;
        }
        writeln!(out)?;
    }
    writeln!(out)?;

    writeln!(out, "#### By mode")?;
    writeln!(out)?;
    writeln!(
        out,
        "<details><summary>All {} cells, one row per mode value</summary>",
        r.matrix.len() * models.len()
    )?;
    writeln!(out)?;
    write!(out, "| Instruction | Mode | Label |")?;
    for m in models {
        write!(out, " {} |", cell_code(m))?;
    }
    writeln!(out)?;
    writeln!(out, "|---|---|---|{}", "---|".repeat(models.len()))?;
    for row in &r.matrix {
        write!(
            out,
            "| {} | {} | {} |",
            cell_code(&row.instruction),
            cell_code(&row.mode),
            cell_code(&row.label)
        )?;
        for m in models {
            write!(out, " {} |", status_cell(&row.counts(m)))?;
        }
        writeln!(out)?;
    }
    writeln!(out)?;
    writeln!(out, "</details>")?;
    writeln!(out)
}

/// The short text of a matrix cell: glyph, status and, for a failing cell, what failed.
fn status_cell(c: &Counts) -> String {
    let s = c.status();
    let mut text = format!("{} {}", s.glyph(), s.name());
    if s == CellStatus::Fail {
        let mut what = Vec::new();
        if c.failed > 0 {
            what.push(format!("{}/{} vectors", c.failed, c.vectors_run));
        }
        if c.errors > 0 {
            what.push(format!("{} errors", c.errors));
        }
        if c.random_failures > 0 {
            what.push(format!("{}/{} random", c.random_failures, c.random_cases));
        }
        if c.random_errors > 0 {
            what.push(format!("{} random errors", c.random_errors));
        }
        if !what.is_empty() {
            write!(text, ": {}", what.join(", ")).expect("writing to a String cannot fail");
        }
    } else if s == CellStatus::Partial {
        write!(text, ": {} declined", c.declined()).expect("writing to a String cannot fail");
    }
    text
}

/// The failures of a cell the pages show in full (`report.json` keeps them all, or as many as
/// `--keep-failures` says).
pub const SHOWN_PER_CELL: usize = 3;

fn failures(out: &mut String, r: &ChipReport, extensions: &Renderers<'_>) -> fmt::Result {
    writeln!(out, "### Failures")?;
    writeln!(out)?;
    if r.failures.is_empty() {
        writeln!(out, "No failures.")?;
        return writeln!(out);
    }
    let (shown, hidden) = r.failures_to_show(SHOWN_PER_CELL);
    write!(out, "{}.", text(&r.failure_account()))?;
    if hidden > 0 {
        write!(
            out,
            " Shown here: the first {SHOWN_PER_CELL} of each cell; the other {hidden} are in `report.json` \
             (`chips[].failures`), and every case's verdict in `cases.jsonl`."
        )?;
    }
    writeln!(out)?;
    writeln!(out)?;
    for (i, f) in shown {
        writeln!(
            out,
            "#### {}. {} · {} · {} · {}",
            i + 1,
            code(&f.model),
            code(&f.instruction),
            code(&f.mode),
            code(&f.id)
        )?;
        writeln!(out)?;
        writeln!(out, "Kind: {}. Replay:", text(&f.kind))?;
        writeln!(out)?;
        writeln!(out, "{}", block(&f.replay, "sh"))?;
        writeln!(out, "Details:")?;
        writeln!(out)?;
        writeln!(out, "{}", block(&f.details, "text"))?;
        let target = escape(&extensions.regression_file_of(r)).into_owned();
        writeln!(out, "<details><summary>YAML vector for <code>{target}</code></summary>")?;
        writeln!(out)?;
        writeln!(out, "{}", block(&f.snippet, "yaml"))?;
        writeln!(out, "</details>")?;
        writeln!(out)?;
    }
    Ok(())
}

/// An extension's data shown as its JSON, under a heading of level `level` named after its key:
/// what a rendering does with data it has no renderer for.
fn as_json(out: &mut String, level: &str, key: &str, data: &serde_json::Value, why: &str) -> fmt::Result {
    writeln!(out, "{level} {}", text(key))?;
    writeln!(out)?;
    writeln!(out, "Shown as its JSON ({}):", text(why))?;
    writeln!(out)?;
    write!(out, "{}", block(&serde_json::to_string_pretty(data).unwrap_or_default(), "json"))?;
    writeln!(out)
}

fn timings(out: &mut String, heading: &str, timings_ms: &BTreeMap<String, u64>) -> fmt::Result {
    writeln!(out, "{heading}")?;
    writeln!(out)?;
    if timings_ms.is_empty() {
        writeln!(out, "Not recorded.")?;
        return writeln!(out);
    }
    writeln!(out, "| Phase | Milliseconds | Time |")?;
    writeln!(out, "|---|--:|--:|")?;
    for (phase, ms) in timings_ms {
        writeln!(out, "| {} | {ms} | {} |", text(phase), human_ms(*ms))?;
    }
    writeln!(out)
}
