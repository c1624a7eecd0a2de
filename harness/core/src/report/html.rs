//! The HTML form of the report (`report.html`): one self-contained page, with its CSS inline, no
//! script and no external resource (a Content-Security-Policy forbids loading any), so it opens
//! from disk, from a CI artifact or from a mail attachment and shows everything as it is.
//!
//! The page opens with the overall verdict; then comes a `<section class="chip"
//! id="{arch}-chip">` per chip, every id in it prefixed with its chip (`wormhole-matrix`,
//! `blackhole-failure-1`), then the kernel accuracy and the run's timings. A chip's sections: its
//! verdict and summary, the matrix (`<table class="matrix" id="{arch}-matrix"
//! data-arch="{arch}">`: one `<tbody>` per
//! instruction, a header row naming its mode values (at most 16 to a line; more continue on
//! further lines), then one row per model whose cells are coloured by status, each cell carrying `class="cell <status>"`, `data-arch`, `data-instruction`,
//! `data-mode`, `data-model`, `data-status` and a `title` tooltip with its counts, a failing cell
//! linking to its first failure), the counts of every cell in a collapsible table, the failures
//! (replay command, details, YAML vector), what the instruction set adds to the section (the SFPU's
//! IEEE 754 characterisation, specification notes and operand coverage), the timings; then what it
//! adds to the whole report (the SFPU's kernel accuracy, a bar chart per chip in inline SVG) and
//! the run's timings.
//!
//! The page is written as polyglot markup (every element closed, void elements self-closed, every
//! attribute quoted, no named entity beyond XML's), so an XML parser can check it as well as a
//! browser can show it. Every string from the report goes through `escape`.

use std::borrow::Cow;
use std::fmt::{self, Write as _};

use super::text::{escape, escape_attr, human_ms, strictness_meaning};
use std::collections::BTreeMap;

use super::model::{CellStatus, ChipReport, Counts, MatrixRow, Renderers, Report};

/// Every status, in the order the page lists them.
const STATUSES: [CellStatus; 7] = CellStatus::ALL;

/// The most mode values the matrix shows on one line; an instruction with more (`SFPCONFIG` has
/// 256) continues on further lines, each with its own header.
const MODES_PER_LINE: usize = 16;

/// The page's style sheet. Status colours: pass green, partial pale green, fail red, unsupported
/// grey, not applicable light grey, undefined amber, untested white with grey hatching.
const STYLE: &str = "
:root { color-scheme: light; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, 'Segoe UI', 'DejaVu Sans', sans-serif; color: #1f2328;
  margin: 0 auto; max-width: 1500px; padding: 0 24px 48px; background: #fff; }
header { border-bottom: 1px solid #d0d7de; margin-bottom: 8px; }
h1 { font-size: 24px; margin: 20px 0 6px; }
h2 { font-size: 19px; margin: 28px 0 10px; padding-bottom: 4px; border-bottom: 1px solid #d8dee4; }
h3 { font-size: 17px; margin: 22px 0 8px; }
h4 { font-size: 15px; margin: 18px 0 8px; }
section.chip { border-top: 3px solid #1f2328; margin-top: 32px; }
nav { margin: 8px 0 12px; }
nav a { margin-right: 14px; }
a { color: #0969da; }
code, pre, .mono { font-family: ui-monospace, 'DejaVu Sans Mono', 'Liberation Mono', monospace; font-size: 12.5px; }
pre { background: #f6f8fa; border: 1px solid #d0d7de; border-radius: 6px; padding: 8px 10px; overflow-x: auto;
  white-space: pre; margin: 4px 0 10px; }
table { border-collapse: collapse; margin: 6px 0 12px; }
th, td { border: 1px solid #d0d7de; padding: 3px 8px; text-align: left; vertical-align: top; }
thead th { background: #f6f8fa; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
table.meta th { background: #f6f8fa; white-space: nowrap; }
.verdict { font-size: 16px; font-weight: 600; margin: 8px 0 12px; }
.badge { display: inline-block; padding: 0 8px; border-radius: 10px; font-size: 12px; font-weight: 600;
  line-height: 20px; }
.swatch { display: inline-block; width: 18px; height: 14px; border: 1px solid #8c959f; vertical-align: middle;
  margin: 0 4px 0 12px; }
.pass { background: #2da44e; color: #fff; }
.fail { background: #cf222e; color: #fff; }
.partial { background: #b4e5c2; color: #1f2328; }
.unsupported { background: #8c959f; color: #fff; }
.undefined { background: #e3a008; color: #1f2328; }
.untested { background: #fff repeating-linear-gradient(45deg, #fff 0 3px, #d0d7de 3px 5px); color: #57606a; }
.not-applicable { background: #d0d7de; color: #24292f; }
.scroll { overflow-x: auto; max-width: 100%; }
table.matrix { border-collapse: separate; border-spacing: 2px; }
table.matrix th, table.matrix td { border: 0; }
table.matrix tbody + tbody tr.modes th { padding-top: 14px; }
table.matrix th.instruction { vertical-align: middle; padding-right: 12px; }
table.matrix th.model { font-weight: normal; color: #57606a; white-space: nowrap; padding: 0 8px; vertical-align: middle; }
table.matrix th.mode { vertical-align: bottom; text-align: center; padding: 6px 0 2px; font-weight: normal; }
table.matrix th.mode span { display: inline-block; writing-mode: vertical-rl; transform: rotate(180deg);
  white-space: nowrap; max-height: 16em; overflow: hidden; text-overflow: ellipsis; font-size: 11px; }
table.matrix td.cell { min-width: 26px; height: 24px; padding: 0; text-align: center; vertical-align: middle;
  border: 1px solid rgba(0, 0, 0, 0.15); border-radius: 3px; font-size: 13px; }
table.matrix td.cell a { color: inherit; text-decoration: none; display: block; }
.failure { border: 1px solid #d0d7de; border-left: 4px solid #cf222e; border-radius: 6px; padding: 2px 14px 6px;
  margin: 12px 0; }
.failure h4 { margin-top: 10px; }
.label { color: #57606a; font-size: 12px; margin: 6px 0 0; }
.bar { display: inline-block; height: 10px; background: #0969da; border-radius: 2px; vertical-align: middle; }
.bar.zero { background: #cf222e; width: 4px; }
tr.agrees td { color: #1a7f37; }
svg.accuracy-chart { display: block; margin: 4px 0 12px; }
strong.beyond { color: #cf222e; }
tr.chip-difference td { color: #57606a; font-size: 12.5px; }
details summary { cursor: pointer; margin: 6px 0; }
footer { margin-top: 36px; color: #57606a; font-size: 12px; border-top: 1px solid #d0d7de; padding-top: 8px; }
";

/// Renders the report as one self-contained HTML page.
pub fn render(report: &Report) -> String {
    render_with(report, &Renderers::default())
}

/// [`render`] with the instruction sets' renderers of the report's and the sections' extensions
/// (an extension without one is shown as its JSON).
pub fn render_with(report: &Report, extensions: &Renderers<'_>) -> String {
    let mut out = String::new();
    write_page(&mut out, report, extensions).expect("writing to a String cannot fail");
    out
}

/// The id of `what` in the section of `r`'s chip (`wormhole-matrix`): every id of a chip's
/// section is prefixed with its chip, so two chips' sections never share one.
pub fn id(r: &ChipReport, what: &str) -> String {
    escape_attr(&format!("{}-{what}", r.arch))
}

fn write_page(out: &mut String, r: &Report, extensions: &Renderers<'_>) -> fmt::Result {
    let archs = r.arch_names().join(", ");
    writeln!(out, "<!DOCTYPE html>")?;
    writeln!(out, "<html lang=\"en\">")?;
    writeln!(out, "<head>")?;
    writeln!(out, "<meta charset=\"utf-8\" />")?;
    writeln!(
        out,
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\" />"
    )?;
    writeln!(out, "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\" />")?;
    writeln!(
        out,
        "<meta name=\"generator\" content=\"{} {}\" />",
        escape(&r.tool.name),
        escape(&r.tool.version)
    )?;
    let isas = r.isa_names().join(" and ");
    writeln!(out, "<title>{} conformance report: {}</title>", escape(&isas), escape(&archs))?;
    writeln!(out, "<style>{STYLE}</style>")?;
    writeln!(out, "</head>")?;
    writeln!(out, "<body>")?;
    writeln!(out, "<header>")?;
    writeln!(out, "<h1>{} conformance report: <code>{}</code></h1>", escape(&isas), escape(&archs))?;
    if let Some(why) = &r.incomplete {
        writeln!(
            out,
            "<p class=\"verdict\"><span class=\"badge fail\">INCOMPLETE</span> {}. The counts below are those \
             of the work that completed.</p>",
            escape(why)
        )?;
    }
    let overall = if r.passes() { "pass" } else { "fail" };
    writeln!(
        out,
        "<p class=\"verdict\" id=\"overall-verdict\"><span class=\"badge {overall}\">{}</span> {}</p>",
        overall.to_ascii_uppercase(),
        escape(&r.overall_verdict())
    )?;
    write!(out, "<nav>")?;
    for chip in &r.chips {
        write!(
            out,
            "<a href=\"#{}\"><code>{}</code></a> (<a href=\"#{}\">matrix</a>, <a href=\"#{}\">failures: {}</a>",
            id(chip, "chip"),
            escape(&chip.arch),
            id(chip, "matrix-section"),
            id(chip, "failures"),
            chip.failures.len(),
        )?;
        for key in chip.extensions.keys() {
            let title = extensions.section_renderer(key).map_or(key.as_str(), |e| e.title());
            write!(out, ", <a href=\"#{}\">{}</a>", id(chip, &super::anchor(key)), escape(title))?;
        }
        write!(out, ") ")?;
    }
    for key in r.extensions.keys() {
        let title = extensions.report_renderer(key).map_or(key.as_str(), |e| e.title());
        write!(out, "<a href=\"#{}\">{}</a>", escape_attr(&super::anchor(key)), escape(title))?;
    }
    writeln!(out, "<a href=\"#timings\">Timings</a></nav>")?;
    writeln!(
        out,
        "<table class=\"meta\"><tbody><tr><th scope=\"row\">Tool</th><td>{} {}</td></tr>\
         <tr><th scope=\"row\">Report format</th><td><code>{}</code></td></tr>\
         <tr><th scope=\"row\">Chips</th><td><code>{}</code></td></tr></tbody></table>",
        escape(&r.tool.name),
        escape(&r.tool.version),
        escape(&r.format),
        escape(&archs)
    )?;
    writeln!(out, "</header>")?;
    writeln!(out, "<main>")?;
    for chip in &r.chips {
        let models = chip.model_names();
        writeln!(
            out,
            "<section class=\"chip\" id=\"{}\" data-arch=\"{}\">",
            id(chip, "chip"),
            escape_attr(&chip.arch)
        )?;
        writeln!(out, "<h2>{} chip <code>{}</code></h2>", escape(&chip.isa_name()), escape(&chip.arch))?;
        verdict(out, chip)?;
        summary(out, chip, &models)?;
        matrix(out, chip, &models)?;
        failures(out, chip, extensions)?;
        for (key, data) in &chip.extensions {
            let mut section = String::new();
            let at = id(chip, &super::anchor(key));
            let rendered = match extensions.section_renderer(key) {
                Some(e) => e.html(&mut section, chip, data, &at),
                None => Err("no renderer given".to_string()),
            };
            match rendered {
                Ok(()) => out.push_str(&section),
                Err(why) => as_json(out, &at, "h3", key, data, &why)?,
            }
        }
        timings(out, &id(chip, "timings"), "h3", &chip.timings_ms)?;
        writeln!(out, "</section>")?;
    }
    for (key, data) in &r.extensions {
        let mut section = String::new();
        let rendered = match extensions.report_renderer(key) {
            Some(e) => e.html(&mut section, data),
            None => Err("no renderer given".to_string()),
        };
        match rendered {
            Ok(()) => out.push_str(&section),
            Err(why) => as_json(out, &escape_attr(&super::anchor(key)), "h2", key, data, &why)?,
        }
    }
    timings(out, "timings", "h2", &r.timings_ms)?;
    writeln!(out, "</main>")?;
    writeln!(
        out,
        "<footer>Rendered from <code>report.json</code> (format <code>{}</code>) by {} {}. \
         Self-contained: no script, no external resource.</footer>",
        escape(&r.format),
        escape(&r.tool.name),
        escape(&r.tool.version)
    )?;
    writeln!(out, "</body>")?;
    writeln!(out, "</html>")
}

fn verdict(out: &mut String, r: &ChipReport) -> fmt::Result {
    let failing: Vec<String> =
        r.failing_models().into_iter().map(|m| format!("<code>{}</code>", escape(m))).collect();
    if failing.is_empty() {
        writeln!(
            out,
            "<p class=\"verdict\"><span class=\"badge pass\">PASS</span> on what each model was checked on:</p>"
        )?;
    } else {
        writeln!(
            out,
            "<p class=\"verdict\"><span class=\"badge fail\">FAIL</span> Failing model(s): {}. What each model \
             was checked on:</p>",
            failing.join(", ")
        )?;
    }
    writeln!(out, "<ul class=\"verdict-coverage\">")?;
    for m in r.model_names() {
        match r.coverage_of(m) {
            Some(c) => {
                let short = c.shortfall();
                let short = if short.is_empty() { String::new() } else { format!(" ({})", escape(&short)) };
                writeln!(out, "<li><code>{}</code>: {}{short}</li>", escape(m), escape(&c.headline()))?;
            }
            None => writeln!(out, "<li><code>{}</code>: no coverage recorded</li>", escape(m))?,
        }
    }
    writeln!(out, "</ul>")
}

/// The coverage per model, what was not applicable by feature and refusal, and the reasons.
fn coverage_section(out: &mut String, r: &ChipReport) -> fmt::Result {
    writeln!(out, "<h4>Coverage</h4>")?;
    writeln!(
        out,
        "<table class=\"coverage\"><thead><tr><th>Model</th><th class=\"num\">Vectors</th>\
         <th class=\"num\">Applicable</th><th class=\"num\">Not applicable</th><th class=\"num\">Run</th>\
         <th class=\"num\">Unsupported</th><th class=\"num\">Errors</th><th class=\"num\">Compared</th>\
         <th class=\"num\">Passed</th><th class=\"num\">Cells covered</th></tr></thead><tbody>"
    )?;
    for c in &r.coverage {
        write!(out, "<tr><td><code>{}</code></td>", escape(&c.model))?;
        for n in [
            c.vectors,
            c.applicable,
            c.not_applicable,
            c.applicable,
            c.unsupported,
            c.errors,
            c.compared,
            c.passed,
        ] {
            write!(out, "<td class=\"num\">{n}</td>")?;
        }
        writeln!(out, "<td class=\"num\">{} of {}</td></tr>", c.cells_covered, c.cells)?;
    }
    writeln!(out, "</tbody></table>")?;
    for c in r.coverage.iter().filter(|c| c.not_applicable > 0) {
        writeln!(
            out,
            "<p>Not applicable to <code>{}</code>, by what it does not declare:</p>",
            escape(&c.model)
        )?;
        writeln!(
            out,
            "<table class=\"not-applicable\"><thead><tr><th>Feature or refusal</th><th class=\"num\">Vectors</th></tr></thead><tbody>"
        )?;
        for (f, n) in &c.not_applicable_by_feature {
            writeln!(out, "<tr><td>feature <code>{}</code></td><td class=\"num\">{n}</td></tr>", escape(f))?;
        }
        for (f, n) in &c.not_applicable_by_refusal {
            writeln!(out, "<tr><td>refuses <code>{}</code></td><td class=\"num\">{n}</td></tr>", escape(f))?;
        }
        writeln!(out, "</tbody></table>")?;
    }
    if !r.reasons.is_empty() {
        writeln!(out, "<h4>Reasons for declined cases and errors</h4>")?;
        writeln!(
            out,
            "<table class=\"reasons\"><thead><tr><th>Model</th><th>Kind</th><th>Reason</th>\
             <th class=\"num\">Cases</th><th>Examples</th></tr></thead><tbody>"
        )?;
        for e in &r.reasons {
            let examples: Vec<String> =
                e.examples.iter().map(|x| format!("<code>{}</code>", escape(x))).collect();
            writeln!(
                out,
                "<tr><td><code>{}</code></td><td>{}</td><td>{}</td><td class=\"num\">{}</td><td>{}</td></tr>",
                escape(&e.model),
                escape(&e.kind),
                escape(&e.shown()),
                e.count,
                examples.join(", ")
            )?;
        }
        writeln!(out, "</tbody></table>")?;
    }
    Ok(())
}

fn badge(s: CellStatus) -> String {
    format!("<span class=\"badge {0}\">{0}</span>", s.name())
}

fn summary(out: &mut String, r: &ChipReport, models: &[&str]) -> fmt::Result {
    writeln!(out, "<section id=\"{}\">", id(r, "summary"))?;
    writeln!(out, "<h3>Summary</h3>")?;
    writeln!(out, "<table class=\"meta\"><tbody>")?;
    let c = &r.corpus;
    let k = &r.campaign;
    let rows: [(&str, String); 6] = [
        ("Architecture", format!("<code>{}</code>", escape(&r.arch))),
        ("Specification notes", escape(&r.spec.notes).into_owned()),
        ("Upstream", escape(&r.spec.upstream).into_owned()),
        (
            "Corpus",
            format!(
                "<code>{}</code> (<code>{}</code>): {} files, {} vectors; generator {}",
                escape(&c.path),
                escape(&c.format),
                c.files,
                c.vectors,
                escape(&c.generator)
            ),
        ),
        (
            "Random campaign",
            format!(
                "seed <code>{}</code>, {}; {} cases and {} streams over all models",
                escape(&k.seed),
                escape(&k.describe_limit()),
                k.cases,
                k.streams
            ),
        ),
        (
            "Strictness",
            format!("<code>{}</code> ({})", escape(&r.strictness), strictness_meaning(&r.strictness)),
        ),
    ];
    for (name, value) in rows {
        writeln!(out, "<tr><th scope=\"row\">{name}</th><td>{value}</td></tr>")?;
    }
    writeln!(out, "</tbody></table>")?;

    writeln!(out, "<h4>Models</h4>")?;
    writeln!(out, "<table class=\"models\">")?;
    writeln!(
        out,
        "<thead><tr><th>Model</th><th>Kind</th><th>Command</th><th>Description</th></tr></thead><tbody>"
    )?;
    for name in models {
        let info = r.models.iter().find(|m| m.name == *name);
        let kind = info.map_or(Cow::Borrowed(""), |m| escape(&m.kind));
        let command = info
            .and_then(|m| m.command.as_deref())
            .map_or_else(String::new, |c| format!("<code>{}</code>", escape(c)));
        let description = info.and_then(|m| m.description.as_deref()).map_or(Cow::Borrowed(""), escape);
        writeln!(
            out,
            "<tr><td><code>{}</code></td><td>{kind}</td><td>{command}</td><td>{description}</td></tr>",
            escape(name)
        )?;
    }
    writeln!(out, "</tbody></table>")?;

    writeln!(out, "<h4>Totals</h4>")?;
    writeln!(out, "<table class=\"totals\">")?;
    writeln!(
        out,
        "<thead><tr><th>Model</th><th>Status</th><th class=\"num\">Vectors run</th><th class=\"num\">Passed</th>\
         <th class=\"num\">Failed</th><th class=\"num\">Tainted</th><th class=\"num\">Undefined</th>\
         <th class=\"num\">Unsupported</th><th class=\"num\">Errors</th><th class=\"num\">Not applicable</th>\
         <th class=\"num\">Random cases</th><th class=\"num\">Random failures</th><th class=\"num\">Random errors</th>\
         <th class=\"num\">Random declined</th><th class=\"num\">Random not applicable</th></tr></thead><tbody>"
    )?;
    for name in models {
        let t = r.model_totals(name);
        write!(out, "<tr><td><code>{}</code></td><td>{}</td>", escape(name), badge(t.status()))?;
        for n in [
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
            t.random_not_applicable,
        ] {
            write!(out, "<td class=\"num\">{n}</td>")?;
        }
        writeln!(out, "</tr>")?;
    }
    writeln!(out, "</tbody></table>")?;
    coverage_section(out, r)?;

    writeln!(out, "<h4>Cells by status</h4>")?;
    writeln!(out, "<table class=\"cells-by-status\">")?;
    write!(out, "<thead><tr><th>Model</th>")?;
    for s in STATUSES {
        write!(out, "<th class=\"num\">{}</th>", badge(s))?;
    }
    writeln!(out, "<th class=\"num\">Cells</th></tr></thead><tbody>")?;
    for name in models {
        write!(out, "<tr><td><code>{}</code></td>", escape(name))?;
        for s in STATUSES {
            let n = r.matrix.iter().filter(|row| row.counts(name).status() == s).count();
            write!(out, "<td class=\"num\">{n}</td>")?;
        }
        writeln!(out, "<td class=\"num\">{}</td></tr>", r.matrix.len())?;
    }
    writeln!(out, "</tbody></table>")?;
    writeln!(out, "</section>")
}

fn glyph(s: CellStatus) -> &'static str {
    match s {
        CellStatus::Pass => "✓",
        CellStatus::Fail => "✗",
        CellStatus::Partial => "◐",
        CellStatus::Unsupported => "⊘",
        CellStatus::Undefined => "!",
        CellStatus::Untested => "·",
        CellStatus::NotApplicable => "–",
    }
}

fn matrix(out: &mut String, r: &ChipReport, models: &[&str]) -> fmt::Result {
    writeln!(out, "<section id=\"{}\">", id(r, "matrix-section"))?;
    writeln!(out, "<h3>Matrix</h3>")?;
    write!(out, "<p class=\"legend\">")?;
    for s in STATUSES {
        write!(out, "<span class=\"swatch {0}\"></span>{1} {0}", s.name(), glyph(s))?;
    }
    writeln!(out, "</p>")?;
    writeln!(
        out,
        "<p>One group of rows per instruction: a line of its mode values (at most {MODES_PER_LINE} to a line), \
         then one row per model. Hover a cell for its counts; a failing cell links to its first failure.</p>"
    )?;
    writeln!(out, "<div class=\"scroll\">")?;
    writeln!(
        out,
        "<table class=\"matrix\" id=\"{}\" data-arch=\"{}\">",
        id(r, "matrix"),
        escape_attr(&r.arch)
    )?;
    for (instruction, rows) in r.rows_by_instruction() {
        let instr = escape(instruction);
        let lines: Vec<&[&MatrixRow]> = rows.chunks(MODES_PER_LINE).collect();
        writeln!(out, "<tbody data-instruction=\"{instr}\">")?;
        for (n, line) in lines.iter().enumerate() {
            write!(out, "<tr class=\"modes\">")?;
            if n == 0 {
                write!(
                    out,
                    "<th scope=\"rowgroup\" class=\"instruction\" rowspan=\"{}\"><code>{instr}</code></th>",
                    lines.len() * (models.len() + 1)
                )?;
            }
            write!(out, "<th class=\"corner\"></th>")?;
            for row in line.iter() {
                mode_header(out, row)?;
            }
            writeln!(out, "</tr>")?;
            for m in models {
                write!(out, "<tr><th scope=\"row\" class=\"model\">{}</th>", escape(m))?;
                for row in line.iter() {
                    matrix_cell(out, r, row, m)?;
                }
                writeln!(out, "</tr>")?;
            }
        }
        writeln!(out, "</tbody>")?;
    }
    writeln!(out, "</table>")?;
    writeln!(out, "</div>")?;

    writeln!(out, "<details id=\"{}\"><summary>Counts of every cell</summary>", id(r, "cell-counts"))?;
    writeln!(out, "<table class=\"cell-counts\">")?;
    writeln!(
        out,
        "<thead><tr><th>Instruction</th><th>Mode</th><th>Label</th><th>Model</th><th>Status</th>\
         <th class=\"num\">Run</th><th class=\"num\">Passed</th><th class=\"num\">Failed</th>\
         <th class=\"num\">Tainted</th><th class=\"num\">Undefined</th><th class=\"num\">Unsupported</th>\
         <th class=\"num\">Errors</th><th class=\"num\">Random</th><th class=\"num\">Random failed</th>\
         <th class=\"num\">Random errors</th><th class=\"num\">Random declined</th></tr></thead>\
         <tbody>"
    )?;
    for row in &r.matrix {
        for m in models {
            let c: Counts = row.counts(m);
            write!(
                out,
                "<tr><td><code>{}</code></td><td><code>{}</code></td><td><code>{}</code></td><td>{}</td><td>{}</td>",
                escape(&row.instruction),
                escape(&row.mode),
                escape(&row.label),
                escape(m),
                badge(c.status())
            )?;
            for n in [
                c.vectors_run,
                c.passed,
                c.failed,
                c.tainted,
                c.undefined,
                c.unsupported,
                c.errors,
                c.random_cases,
                c.random_failures,
                c.random_errors,
                c.random_unsupported,
            ] {
                write!(out, "<td class=\"num\">{n}</td>")?;
            }
            writeln!(out, "</tr>")?;
        }
    }
    writeln!(out, "</tbody></table>")?;
    writeln!(out, "</details>")?;
    writeln!(out, "</section>")
}

/// The header of a mode value's column: its label (or canonical form), vertical.
fn mode_header(out: &mut String, row: &MatrixRow) -> fmt::Result {
    let shown = if row.label.is_empty() { &row.mode } else { &row.label };
    let title = if row.label.is_empty() || row.label == row.mode {
        row.mode.clone()
    } else {
        format!("{} = {}", row.mode, row.label)
    };
    write!(
        out,
        "<th scope=\"col\" class=\"mode mono\" title=\"{}\"><span>{}</span></th>",
        escape_attr(&title),
        escape(shown)
    )
}

/// One cell of the matrix: the status of `model` on `row`, its counts in the tooltip, a link to
/// its first failure if it fails.
fn matrix_cell(out: &mut String, r: &ChipReport, row: &MatrixRow, model: &str) -> fmt::Result {
    let counts = row.counts(model);
    let status = counts.status();
    let first =
        if status == CellStatus::Fail { r.first_failure(model, &row.instruction, &row.mode) } else { None };
    let mut title = format!("{} {}", row.instruction, row.mode);
    if !row.label.is_empty() && row.label != row.mode {
        write!(title, " ({})", row.label)?;
    }
    write!(title, "\n{model}: {}\n{}", status.name(), counts.describe())?;
    if let Some((_, f)) = first {
        write!(title, "\nfirst failure: {} ({})", f.id, f.kind)?;
    }
    write!(
        out,
        "<td class=\"cell {s}\" data-arch=\"{}\" data-instruction=\"{}\" data-mode=\"{}\" data-model=\"{}\" \
         data-status=\"{s}\" title=\"{}\">",
        escape_attr(&r.arch),
        escape_attr(&row.instruction),
        escape_attr(&row.mode),
        escape_attr(model),
        escape_attr(&title),
        s = status.name()
    )?;
    match first {
        Some((i, _)) => {
            write!(out, "<a href=\"#{}\">{}</a>", id(r, &format!("failure-{}", i + 1)), glyph(status))?
        }
        None => write!(out, "{}", glyph(status))?,
    }
    write!(out, "</td>")
}

fn failures(out: &mut String, r: &ChipReport, extensions: &Renderers<'_>) -> fmt::Result {
    writeln!(out, "<section id=\"{}\">", id(r, "failures"))?;
    writeln!(out, "<h3>Failures</h3>")?;
    if r.failures.is_empty() {
        writeln!(out, "<p>No failures.</p>")?;
        return writeln!(out, "</section>");
    }
    let (shown, hidden) = r.failures_to_show(super::markdown::SHOWN_PER_CELL);
    write!(out, "<p>{}.", escape(&r.failure_account()))?;
    if hidden > 0 {
        write!(
            out,
            " Shown here: the first {} of each cell; the other {hidden} are in <code>report.json</code> \
             (<code>chips[].failures</code>), and every case's verdict in <code>cases.jsonl</code>.",
            super::markdown::SHOWN_PER_CELL
        )?;
    }
    writeln!(out, "</p>")?;
    let target = escape(&extensions.regression_file_of(r)).into_owned();
    for (i, f) in shown {
        writeln!(out, "<article class=\"failure\" id=\"{}\">", id(r, &format!("failure-{}", i + 1)))?;
        writeln!(
            out,
            "<h4>{}. <code>{}</code> · <code>{}</code> · <code>{}</code> · <code>{}</code> \
             <span class=\"badge fail\">{}</span></h4>",
            i + 1,
            escape(&f.model),
            escape(&f.instruction),
            escape(&f.mode),
            escape(&f.id),
            escape(&f.kind)
        )?;
        writeln!(out, "<p class=\"label\">Replay</p>")?;
        writeln!(out, "<pre class=\"replay\"><code>{}</code></pre>", escape(&f.replay))?;
        writeln!(out, "<p class=\"label\">Details</p>")?;
        writeln!(out, "<pre class=\"details\">{}</pre>", escape(&f.details))?;
        writeln!(
            out,
            "<details class=\"snippet\"><summary>YAML vector for <code>{target}</code></summary>\
             <pre><code>{}</code></pre></details>",
            escape(&f.snippet)
        )?;
        writeln!(out, "</article>")?;
    }
    writeln!(out, "</section>")
}

/// An extension's data shown as its JSON in a section with id `at` under a heading `h`: what the
/// page does with data it has no renderer for.
fn as_json(
    out: &mut String,
    at: &str,
    h: &str,
    key: &str,
    data: &serde_json::Value,
    why: &str,
) -> fmt::Result {
    writeln!(
        out,
        "<section id=\"{at}\"><{h}>{}</{h}><p>Shown as its JSON ({}):</p><pre>{}</pre></section>",
        escape(key),
        escape(why),
        escape(&serde_json::to_string_pretty(data).unwrap_or_default())
    )
}

fn timings(out: &mut String, section_id: &str, h: &str, timings_ms: &BTreeMap<String, u64>) -> fmt::Result {
    writeln!(out, "<section id=\"{section_id}\">")?;
    writeln!(out, "<{h}>Timings</{h}>")?;
    if timings_ms.is_empty() {
        writeln!(out, "<p>Not recorded.</p>")?;
        return writeln!(out, "</section>");
    }
    writeln!(out, "<table class=\"timings\">")?;
    writeln!(
        out,
        "<thead><tr><th>Phase</th><th class=\"num\">Milliseconds</th><th class=\"num\">Time</th></tr></thead><tbody>"
    )?;
    for (phase, ms) in timings_ms {
        writeln!(
            out,
            "<tr><td>{}</td><td class=\"num\">{ms}</td><td class=\"num\">{}</td></tr>",
            escape(phase),
            human_ms(*ms)
        )?;
    }
    writeln!(out, "</tbody></table>")?;
    writeln!(out, "</section>")
}
