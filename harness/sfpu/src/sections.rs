//! The SFPU's parts of a chip's section of the report ([`SectionExtension`]s of the ISA-neutral
//! renderers): how the chip departs from IEEE 754 (`ieee`, [`crate::ieee`]), the specification
//! notes with the clauses' taint counts (`spec_notes`), and the operand classes the vectors cover
//! (`operand_coverage`), each a field of the SFPU's sections in `report.json` (`docs/report.md`).

use std::fmt::{self, Write as _};

use harness_core::report::text::{cell_code, code, percent, text};
use harness_core::report::text::{escape, escape_attr};
use harness_core::report::{ChipReport, SectionExtension};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::spec_entries::{SpecRow, spec_entry};

/// The key of the IEEE 754 characterisation in a section.
pub const IEEE: &str = "ieee";
/// The key of the specification notes in a section.
pub const SPEC_NOTES: &str = "spec_notes";
/// The key of the operand coverage in a section.
pub const OPERAND_COVERAGE: &str = "operand_coverage";

/// One way Blackhole departs from IEEE 754 (binary32, round to nearest even).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct IeeeCategory {
    /// What is compared: `fma` (the SFPMAD family's arithmetic), `cast` (SFPCAST int to FP32),
    /// `stochrnd-bf16`, `stochrnd-fp16` (SFPSTOCHRND NEAREST to BF16 or FP16 precision),
    /// `store-bf16`, `store-fp16`, `store-fp32` (SFPSTORE's conversions from an LReg's FP32).
    pub operation: String,
    /// The category, or `agrees` for the cases that agree. Per operation (`docs/report.md`,
    /// [`crate::ieee`]): `fma` has `nan-canonicalisation`, `denormal-input`, `product-overflow`,
    /// `product-underflow`, `denormal-result`, `partial-fusion`; the conversions `nan-to-inf`,
    /// `nan-not-quieted`, `negative-zero`, `denormal-flush`, `overflow`, `exponent-range`,
    /// `ties-away`, `truncation`, `flush`, `saturation`; any operation may have `other`.
    pub category: String,
    /// Cases examined in this operation.
    pub examined: u64,
    /// Cases in this category.
    pub count: u64,
    /// Where the cases came from (`vector operands`, `random sample`).
    pub source: String,
    /// One example: inputs, Blackhole result and IEEE result, in hex with decoded values.
    pub example: String,
}

/// The specification notes part of the report.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SpecNotes {
    /// Where the model follows upstream against the seed summaries
    /// ([`crate::spec_entries::SEED_DIFFERENCES`]).
    pub seed_differences: Vec<SeedDifference>,
    /// Where the model follows an upstream page against the first version of the project's
    /// specification notes (found by the differential tests and decided from the page).
    #[serde(default)]
    pub notes_overrides: Vec<NotesOverride>,
    /// Every clause, and how many vectors it taints.
    pub clauses: Vec<ClauseTaint>,
}

/// One seed difference.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeedDifference {
    /// The row number (its entry in the specification notes is headed `Seed <row>: ...`).
    pub row: u32,
    /// What it concerns.
    pub topic: String,
    /// What the model does (following upstream).
    pub model: String,
}

/// One place where an upstream page overrides the first version of the project's specification
/// notes.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct NotesOverride {
    /// What it concerns.
    pub topic: String,
    /// The upstream page that decides it.
    pub page: String,
    /// What the model does (following the page).
    pub model: String,
}

/// One clause and the vectors it concerns.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClauseTaint {
    /// The clause id.
    pub clause: String,
    /// Its kind.
    pub kind: String,
    /// Its entry in the specification notes (`docs/spec/<page>#<clause>`).
    pub section: String,
    /// What it says.
    pub summary: String,
    /// How many vectors name it in their outcome.
    pub vectors: u64,
}

/// One operand class and how many vector lanes carry it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct OperandClass {
    /// The class (`+0`, `-0`, `denormal`, `normal`, `inf`, `quiet-nan`, `signalling-nan`,
    /// `int-small`, `int-negative`, ...).
    pub class: String,
    /// Lanes of source operands in this class, over all vectors.
    pub lanes: u64,
}

/// The SFPU's part of a section: `ieee`, `spec_notes` and `operand_coverage`, in that order.
pub fn extensions(
    ieee: &[IeeeCategory],
    notes: &SpecNotes,
    classes: &[OperandClass],
) -> serde_json::Map<String, serde_json::Value> {
    let mut map = serde_json::Map::new();
    // Structs of strings and numbers always serialise.
    map.insert(IEEE.to_string(), serde_json::to_value(ieee).unwrap_or_default());
    map.insert(SPEC_NOTES.to_string(), serde_json::to_value(notes).unwrap_or_default());
    map.insert(OPERAND_COVERAGE.to_string(), serde_json::to_value(classes).unwrap_or_default());
    map
}

/// The renderers of the SFPU's report and section extensions.
pub fn renderers() -> harness_core::report::Renderers<'static> {
    harness_core::report::Renderers {
        report: crate::REPORT_EXTENSIONS,
        sections: RENDERERS,
        regression_file: Some(&regression_file),
    }
}

/// The vector file an SFPU chip's regression vectors are pasted into.
fn regression_file(_isa: &str, chip: &str) -> String {
    format!("vectors/{chip}/regressions.yaml")
}

/// The renderers of the SFPU's section extensions.
pub const RENDERERS: &[&dyn SectionExtension] = &[&IeeeSection, &SpecNotesSection, &OperandCoverageSection];

/// `data` read as a `T`, or why it cannot be.
fn read<T: DeserializeOwned>(data: &serde_json::Value) -> Result<T, String> {
    T::deserialize(data).map_err(|e| format!("not the SFPU's form of this part ({e})"))
}

/// The IEEE 754 characterisation (`ieee`: a list of [`IeeeCategory`]).
pub struct IeeeSection;

impl SectionExtension for IeeeSection {
    fn key(&self) -> &'static str {
        IEEE
    }

    fn title(&self) -> &'static str {
        "IEEE 754"
    }

    fn markdown(&self, out: &mut String, chip: &ChipReport, data: &serde_json::Value) -> Result<(), String> {
        let ieee: Vec<IeeeCategory> = read(data)?;
        md_ieee(out, chip, &ieee).map_err(|e| e.to_string())
    }

    fn html(
        &self,
        out: &mut String,
        chip: &ChipReport,
        data: &serde_json::Value,
        at: &str,
    ) -> Result<(), String> {
        let ieee: Vec<IeeeCategory> = read(data)?;
        html_ieee(out, chip, &ieee, at).map_err(|e| e.to_string())
    }

    /// One line per operation: how many of the examined cases depart from IEEE 754, by category
    /// (the report has an example of each).
    fn terminal(&self, out: &mut String, chip: &ChipReport, data: &serde_json::Value) -> Result<(), String> {
        let ieee: Vec<IeeeCategory> = read(data)?;
        let mut ops: Vec<&str> = ieee.iter().map(|c| c.operation.as_str()).collect();
        ops.dedup();
        if ops.is_empty() {
            return Ok(());
        }
        let _ = writeln!(
            out,
            "\nwhere {} departs from IEEE 754 (cases of those examined; examples in the report):",
            chip.arch
        );
        for op in ops {
            let cats: Vec<_> = ieee.iter().filter(|c| c.operation == op).collect();
            let examined = cats.first().map_or(0, |c| c.examined);
            let departs: Vec<String> = cats
                .iter()
                .filter(|c| c.category != "agrees" && c.count > 0)
                .map(|c| format!("{} {}", c.category, c.count))
                .collect();
            let what = if departs.is_empty() { "agrees".to_string() } else { departs.join(", ") };
            let _ = writeln!(out, "  {op:<14} {examined:>8} examined: {what}");
        }
        Ok(())
    }
}

/// The specification notes (`spec_notes`: a [`SpecNotes`]).
pub struct SpecNotesSection;

impl SectionExtension for SpecNotesSection {
    fn key(&self) -> &'static str {
        SPEC_NOTES
    }

    fn title(&self) -> &'static str {
        "Spec notes"
    }

    fn markdown(&self, out: &mut String, _: &ChipReport, data: &serde_json::Value) -> Result<(), String> {
        md_spec_notes(out, &read(data)?).map_err(|e| e.to_string())
    }

    fn html(
        &self,
        out: &mut String,
        _: &ChipReport,
        data: &serde_json::Value,
        at: &str,
    ) -> Result<(), String> {
        html_spec_notes(out, &read(data)?, at).map_err(|e| e.to_string())
    }
}

/// The operand coverage (`operand_coverage`: a list of [`OperandClass`]).
pub struct OperandCoverageSection;

impl SectionExtension for OperandCoverageSection {
    fn key(&self) -> &'static str {
        OPERAND_COVERAGE
    }

    fn title(&self) -> &'static str {
        "Operand coverage"
    }

    fn markdown(&self, out: &mut String, _: &ChipReport, data: &serde_json::Value) -> Result<(), String> {
        let classes: Vec<OperandClass> = read(data)?;
        md_operand_coverage(out, &classes).map_err(|e| e.to_string())
    }

    fn html(
        &self,
        out: &mut String,
        _: &ChipReport,
        data: &serde_json::Value,
        at: &str,
    ) -> Result<(), String> {
        let classes: Vec<OperandClass> = read(data)?;
        html_operand_coverage(out, &classes, at).map_err(|e| e.to_string())
    }
}

fn md_ieee(out: &mut String, r: &ChipReport, ieee: &[IeeeCategory]) -> fmt::Result {
    writeln!(out, "### IEEE 754 characterisation")?;
    writeln!(out)?;
    writeln!(
        out,
        "How {} departs from IEEE 754 (binary32, round to nearest even), measured.",
        code(&r.arch)
    )?;
    writeln!(out)?;
    if ieee.is_empty() {
        writeln!(out, "Not measured.")?;
        return writeln!(out);
    }
    writeln!(out, "| Operation | Category | Cases | Examined | Share | Source | Example |")?;
    writeln!(out, "|---|---|--:|--:|--:|---|---|")?;
    for c in ieee {
        writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} | {} |",
            cell_code(&c.operation),
            cell_code(&c.category),
            c.count,
            c.examined,
            percent(c.count, c.examined),
            text(&c.source),
            if c.example.is_empty() { String::new() } else { cell_code(&c.example) }
        )?;
    }
    writeln!(out)
}

fn md_spec_notes(out: &mut String, notes: &SpecNotes) -> fmt::Result {
    writeln!(out, "### Spec notes")?;
    writeln!(out)?;
    writeln!(out, "{}", text(SPEC_LINKS))?;
    writeln!(out)?;
    writeln!(out, "#### Seed differences")?;
    writeln!(out)?;
    writeln!(out, "Where the model follows upstream against the seed summaries.")?;
    writeln!(out)?;
    if notes.seed_differences.is_empty() {
        writeln!(out, "None.")?;
    } else {
        writeln!(out, "| Row | Topic | What the model does |")?;
        writeln!(out, "|--:|---|---|")?;
        for d in &notes.seed_differences {
            let topic = md_link(text(&d.topic), spec_entry(SpecRow::SeedDifference(d.row)));
            writeln!(out, "| {} | {} | {} |", d.row, topic, text(&d.model))?;
        }
    }
    writeln!(out)?;
    writeln!(out, "#### Where upstream overrides the first spec notes")?;
    writeln!(out)?;
    if notes.notes_overrides.is_empty() {
        writeln!(out, "None.")?;
    } else {
        writeln!(out, "| Topic | Page | What the model does |")?;
        writeln!(out, "|---|---|---|")?;
        for o in &notes.notes_overrides {
            let topic = md_link(text(&o.topic), spec_entry(SpecRow::NotesOverride(&o.topic)));
            writeln!(out, "| {} | {} | {} |", topic, text(&o.page), text(&o.model))?;
        }
    }
    writeln!(out)?;
    writeln!(out, "#### Clauses")?;
    writeln!(out)?;
    writeln!(out, "Every clause, and how many vectors name it in their outcome.")?;
    writeln!(out)?;
    if notes.clauses.is_empty() {
        writeln!(out, "None.")?;
    } else {
        writeln!(out, "| Clause | Kind | Section | Summary | Vectors |")?;
        writeln!(out, "|---|---|---|---|--:|")?;
        for c in &notes.clauses {
            writeln!(
                out,
                "| {} | {} | {} | {} | {} |",
                md_link(cell_code(&c.clause), spec_entry(SpecRow::Clause(&c.clause))),
                text(&c.kind),
                cell_code(&c.section),
                text(&c.summary),
                c.vectors
            )?;
        }
    }
    writeln!(out)
}

/// What the links of the spec notes lead to, said above the tables.
const SPEC_LINKS: &str = "Each topic and clause links to its entry in the project's specification notes, \
     docs/spec/ in the repository (the links are paths from the repository's root).";

/// `label` as a Markdown link to the specification notes' entry `entry` (a path from the
/// repository's root, such as `docs/spec/sfpu-blackhole.md#backdoor-load`), or `label` alone when
/// there is none. The entries come from this crate's tables, whose paths hold no character that
/// needs escaping in a link destination; one that did would be left unlinked.
fn md_link(label: String, entry: Option<&str>) -> String {
    match entry {
        Some(e) if e.chars().all(|c| c.is_ascii_alphanumeric() || "/.#-_".contains(c)) => {
            format!("[{label}]({e})")
        }
        _ => label,
    }
}

/// `label` (already escaped) as an HTML link to the specification notes' entry `entry`, or
/// `label` alone when there is none.
fn html_link(label: String, entry: Option<&str>) -> String {
    match entry {
        Some(e) => format!("<a href=\"{}\">{label}</a>", escape_attr(e)),
        None => label,
    }
}

fn md_operand_coverage(out: &mut String, classes: &[OperandClass]) -> fmt::Result {
    writeln!(out, "### Operand coverage")?;
    writeln!(out)?;
    if classes.is_empty() {
        writeln!(out, "Not measured.")?;
        return writeln!(out);
    }
    let total: u64 = classes.iter().map(|c| c.lanes).sum();
    writeln!(out, "Source-operand lanes over all vectors, by operand class ({total} lanes).")?;
    writeln!(out)?;
    writeln!(out, "| Class | Lanes | Share |")?;
    writeln!(out, "|---|--:|--:|")?;
    for c in classes {
        let flag = if c.lanes == 0 { " ⚠️ not covered" } else { "" };
        writeln!(out, "| {} | {}{flag} | {} |", cell_code(&c.class), c.lanes, percent(c.lanes, total))?;
    }
    writeln!(out)
}

fn html_ieee(out: &mut String, r: &ChipReport, ieee: &[IeeeCategory], at: &str) -> fmt::Result {
    writeln!(out, "<section id=\"{}\">", at)?;
    writeln!(out, "<h3>IEEE 754 characterisation</h3>")?;
    writeln!(
        out,
        "<p>How <code>{}</code> departs from IEEE 754 (binary32, round to nearest even), measured.</p>",
        escape(&r.arch)
    )?;
    if ieee.is_empty() {
        writeln!(out, "<p>Not measured.</p>")?;
        return writeln!(out, "</section>");
    }
    writeln!(out, "<table class=\"ieee\">")?;
    writeln!(
        out,
        "<thead><tr><th>Operation</th><th>Category</th><th class=\"num\">Cases</th><th class=\"num\">Examined</th>\
         <th class=\"num\">Share</th><th>Source</th><th>Example</th></tr></thead><tbody>"
    )?;
    for c in ieee {
        let class = if c.category == "agrees" { " class=\"agrees\"" } else { "" };
        writeln!(
            out,
            "<tr{class}><td><code>{}</code></td><td><code>{}</code></td><td class=\"num\">{}</td>\
             <td class=\"num\">{}</td><td class=\"num\">{}</td><td>{}</td><td><code>{}</code></td></tr>",
            escape(&c.operation),
            escape(&c.category),
            c.count,
            c.examined,
            percent(c.count, c.examined),
            escape(&c.source),
            escape(&c.example)
        )?;
    }
    writeln!(out, "</tbody></table>")?;
    writeln!(out, "</section>")
}

fn html_spec_notes(out: &mut String, notes: &SpecNotes, at: &str) -> fmt::Result {
    writeln!(out, "<section id=\"{}\">", at)?;
    writeln!(out, "<h3>Spec notes</h3>")?;
    writeln!(out, "<p>{}</p>", escape(SPEC_LINKS))?;
    writeln!(out, "<h4>Seed differences</h4>")?;
    writeln!(out, "<p>Where the model follows upstream against the seed summaries.</p>")?;
    if notes.seed_differences.is_empty() {
        writeln!(out, "<p>None.</p>")?;
    } else {
        writeln!(out, "<table class=\"seed-differences\">")?;
        writeln!(
            out,
            "<thead><tr><th class=\"num\">Row</th><th>Topic</th><th>What the model does</th></tr></thead><tbody>"
        )?;
        for d in &notes.seed_differences {
            writeln!(
                out,
                "<tr><td class=\"num\">{}</td><td>{}</td><td>{}</td></tr>",
                d.row,
                html_link(escape(&d.topic).into_owned(), spec_entry(SpecRow::SeedDifference(d.row))),
                escape(&d.model)
            )?;
        }
        writeln!(out, "</tbody></table>")?;
    }
    writeln!(out, "<h4>Where upstream overrides the first spec notes</h4>")?;
    if notes.notes_overrides.is_empty() {
        writeln!(out, "<p>None.</p>")?;
    } else {
        writeln!(out, "<table class=\"notes-overrides\">")?;
        writeln!(
            out,
            "<thead><tr><th>Topic</th><th>Page</th><th>What the model does</th></tr></thead><tbody>"
        )?;
        for o in &notes.notes_overrides {
            writeln!(
                out,
                "<tr><td>{}</td><td>{}</td><td>{}</td></tr>",
                html_link(escape(&o.topic).into_owned(), spec_entry(SpecRow::NotesOverride(&o.topic))),
                escape(&o.page),
                escape(&o.model)
            )?;
        }
        writeln!(out, "</tbody></table>")?;
    }
    writeln!(out, "<h4>Clauses</h4>")?;
    writeln!(out, "<p>Every clause, and how many vectors name it in their outcome.</p>")?;
    if notes.clauses.is_empty() {
        writeln!(out, "<p>None.</p>")?;
    } else {
        writeln!(out, "<table class=\"clauses\">")?;
        writeln!(
            out,
            "<thead><tr><th>Clause</th><th>Kind</th><th>Section</th><th>Summary</th>\
             <th class=\"num\">Vectors</th></tr></thead><tbody>"
        )?;
        for c in &notes.clauses {
            writeln!(
                out,
                "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td class=\"num\">{}</td></tr>",
                html_link(
                    format!("<code>{}</code>", escape(&c.clause)),
                    spec_entry(SpecRow::Clause(&c.clause))
                ),
                escape(&c.kind),
                escape(&c.section),
                escape(&c.summary),
                c.vectors
            )?;
        }
        writeln!(out, "</tbody></table>")?;
    }
    writeln!(out, "</section>")
}

fn html_operand_coverage(out: &mut String, classes: &[OperandClass], at: &str) -> fmt::Result {
    writeln!(out, "<section id=\"{}\">", at)?;
    writeln!(out, "<h3>Operand coverage</h3>")?;
    if classes.is_empty() {
        writeln!(out, "<p>Not measured.</p>")?;
        return writeln!(out, "</section>");
    }
    let total: u64 = classes.iter().map(|c| c.lanes).sum();
    let max = classes.iter().map(|c| c.lanes).max().unwrap_or(0).max(1);
    writeln!(out, "<p>Source-operand lanes over all vectors, by operand class ({total} lanes).</p>")?;
    writeln!(out, "<table class=\"coverage\">")?;
    writeln!(
        out,
        "<thead><tr><th>Class</th><th class=\"num\">Lanes</th><th class=\"num\">Share</th><th></th></tr></thead><tbody>"
    )?;
    for c in classes {
        let bar = if c.lanes == 0 {
            "<span class=\"bar zero\"></span> not covered".to_string()
        } else {
            format!(
                "<span class=\"bar\" style=\"width: {:.0}px\"></span>",
                (c.lanes as f64 / max as f64) * 240.0
            )
        };
        writeln!(
            out,
            "<tr><td><code>{}</code></td><td class=\"num\">{}</td><td class=\"num\">{}</td><td>{bar}</td></tr>",
            escape(&c.class),
            c.lanes,
            percent(c.lanes, total)
        )?;
    }
    writeln!(out, "</tbody></table>")?;
    writeln!(out, "</section>")
}
