//! The report's data model: what `report.json` holds (format [`REPORT_FORMAT`], documented in
//! `docs/report.md`), how it is read back from any format this harness wrote
//! ([`Report::from_json`]), the helpers the renderers share, and the extension traits through
//! which instruction sets add and draw their parts.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// The format identifier of `report.json`.
/// Version 4: a section's instruction-set-specific fields ([`ChipReport::extensions`]) appear in
/// that instruction set's sections only.
/// Version 3 has AMX sections: each section names its instruction set (`isa`).
pub const REPORT_FORMAT: &str = "conform-report/4";

/// The previous format identifier: the SFPU's section fields (`ieee`, `spec_notes`,
/// `operand_coverage`) in every section, empty in the others. [`Report::from_json`] reads it.
pub const REPORT_FORMAT_V3: &str = "conform-report/3";

/// The previous format identifier: SFPU sections only (no `isa`). [`Report::from_json`] reads
/// it, every section an SFPU one (`docs/report.md`, "Migration").
pub const REPORT_FORMAT_V2: &str = "sfpu-conform-report/2";

/// The previous format identifier: one chip, the chip's section at the top level.
/// [`Report::from_json`] still reads it, as a one-chip report (`docs/report.md`).
pub const REPORT_FORMAT_V1: &str = "sfpu-conform-report/1";

/// The whole report: a section per chip checked, and what concerns every chip.
///
/// Unknown fields are ignored when reading (see the module documentation); use
/// [`Report::from_json`] to read one, which also checks the `format`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Report {
    /// Always [`REPORT_FORMAT`].
    pub format: String,
    /// The tool that wrote it.
    pub tool: Tool,
    /// One section per instruction set and chip checked, in the order checked (the SFPU's
    /// Blackhole and Wormhole, then AMX's M1, M2, M4).
    pub chips: Vec<ChipReport>,
    /// What an instruction set adds to the whole report, by key (the SFPU's `kernel_accuracy`,
    /// at the top level of format 2): data the core carries and does not interpret; the
    /// instruction set's [`Extension`] renders it. Added in format 3.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub extensions: BTreeMap<String, serde_json::Value>,
    /// Wall-clock timings in milliseconds of what is not one chip's (`total`, `kernel-accuracy`).
    pub timings_ms: BTreeMap<String, u64>,
    /// Set when the run stopped before checking everything it was asked to (an interruption):
    /// why, and what was still to do. The counts are those of the work that completed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub incomplete: Option<String>,
    /// Set when the run accepted external implementations that compared nothing on a chip
    /// (`--accept-unchecked`); without it each such one fails the run ([`Report::unchecked`]).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub accept_unchecked: bool,
}

/// One chip's section of the report (in format `sfpu-conform-report/1`, the whole report's body).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ChipReport {
    /// The instruction set (`sfpu`, `amx`); added in format 3 (absent: `sfpu`).
    #[serde(default = "sfpu")]
    pub isa: String,
    /// The chip checked (`blackhole`, `wormhole`; `m1`, `m2`, `m4`).
    pub arch: String,
    /// What the expected behaviour comes from.
    pub spec: SpecInfo,
    /// The golden-vector corpus used.
    pub corpus: CorpusInfo,
    /// The random campaign's settings.
    pub campaign: CampaignInfo,
    /// Whether non-contractual locations were compared (`silicon`) or skipped (`architecture`).
    pub strictness: String,
    /// The implementations checked, in command-line order; `reference` first.
    pub models: Vec<ModelInfo>,
    /// One row per (instruction, mode value) of the architecture, in opcode order, then one row
    /// per multi-instruction file (`sequences`, `regressions`) with mode `-`.
    pub matrix: Vec<MatrixRow>,
    /// Totals per model name.
    pub totals: BTreeMap<String, Counts>,
    /// The failures of every (model, instruction, mode) cell, with how to replay them: every one,
    /// or the first [`failure_cap`](ChipReport::failure_cap) of each cell when a cap was asked for.
    pub failures: Vec<FailureEntry>,
    /// The failures kept per (model, instruction, mode) cell when a cap was asked for
    /// (`--keep-failures N`); absent: every failure is kept. Added during format 4.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failure_cap: Option<u64>,
    /// How many failures the section had, kept or not: cases compared that differed and cases a
    /// model failed to run, golden vectors and random cases, every model. Added during format 4.
    #[serde(default)]
    pub failures_total: u64,
    /// Every golden vector's verdict on every model, and every random case's that did not pass
    /// (random cases that passed are counted, not listed), in the order they ran: what
    /// `cases.jsonl` lists, one per line, for scripts. Random cases are subject to the failure
    /// cap when there is one. Added during format 4.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cases: Vec<CaseRecord>,
    /// What the chip's instruction set adds to its section, each under its key (the SFPU's
    /// `ieee`, `spec_notes`, `operand_coverage`): data the core carries and does not interpret,
    /// written as fields of the section and rendered by the instruction set's
    /// [`SectionExtension`]s. Added in format 4 (format 3 had the SFPU's as fields of every
    /// section).
    #[serde(flatten)]
    pub extensions: serde_json::Map<String, serde_json::Value>,
    /// Per model, in model order: how much of the corpus and of the matrix it was checked on
    /// (added during format 1; empty when absent).
    #[serde(default)]
    pub coverage: Vec<ModelCoverage>,
    /// The reasons models gave for declining cases (`unsupported`) and the errors that kept them
    /// from running cases, aggregated by model, kind and text, most frequent first (added during
    /// format 1; empty when absent).
    #[serde(default)]
    pub reasons: Vec<ReasonEntry>,
    /// Wall-clock timings in milliseconds of this chip's phases (`vectors/reference`,
    /// `random/fastpath`, `ieee`, ...). Added in format 2.
    #[serde(default)]
    pub timings_ms: BTreeMap<String, u64>,
}

/// A part of the report an instruction set adds (the SFPU's kernel accuracy), stored in
/// [`Report::extensions`] (`extensions` in `report.json`) under [`Extension::key`] and rendered
/// by the instruction set. The
/// renderers' `render_with` take the extensions to use; an extension's data without one (or
/// that its renderer cannot read) is shown as its JSON, never dropped.
pub trait Extension: Sync {
    /// Its key in `extensions` (`kernel_accuracy`).
    fn key(&self) -> &'static str;
    /// The section's title (`Kernel accuracy`), also the navigation link's text.
    fn title(&self) -> &'static str;
    /// Appends the Markdown section (with its `##` heading).
    fn markdown(&self, out: &mut String, data: &serde_json::Value) -> Result<(), String>;
    /// Appends the HTML section (a `<section>` whose `id` is [`anchor`] of the key).
    fn html(&self, out: &mut String, data: &serde_json::Value) -> Result<(), String>;
    /// Appends what the terminal summary shows of it (a line or two, or nothing).
    fn terminal(&self, out: &mut String, data: &serde_json::Value) -> Result<(), String> {
        let _ = (out, data);
        Ok(())
    }
}

/// A part of a chip's section an instruction set adds (the SFPU's IEEE 754 characterisation),
/// stored in [`ChipReport::extensions`] under [`SectionExtension::key`] and rendered by the
/// instruction set. Data without a renderer (or that its renderer cannot read) is shown as its
/// JSON, never dropped.
pub trait SectionExtension: Sync {
    /// Its key in the section (`ieee`).
    fn key(&self) -> &'static str;
    /// Its title (`IEEE 754 characterisation`), also the navigation link's text.
    fn title(&self) -> &'static str;
    /// Appends the Markdown subsection of `chip` (with its `###` heading).
    fn markdown(&self, out: &mut String, chip: &ChipReport, data: &serde_json::Value) -> Result<(), String>;
    /// Appends the HTML subsection of `chip` (a `<section>` with the given `id`).
    fn html(
        &self,
        out: &mut String,
        chip: &ChipReport,
        data: &serde_json::Value,
        id: &str,
    ) -> Result<(), String>;
    /// Appends what the terminal summary shows of it for `chip` (a few lines, or nothing).
    fn terminal(&self, out: &mut String, chip: &ChipReport, data: &serde_json::Value) -> Result<(), String> {
        let _ = (out, chip, data);
        Ok(())
    }
}

/// The vector file a section's regression vectors go into, from its instruction set and chip.
pub type RegressionFile<'a> = &'a (dyn Fn(&str, &str) -> String + Sync);

/// What a rendering knows of the instruction sets: the renderers of their extensions and where
/// their regression vectors go.
#[derive(Clone, Copy, Default)]
pub struct Renderers<'a> {
    /// Of the report's extensions ([`Report::extensions`]).
    pub report: &'a [&'a dyn Extension],
    /// Of the sections' extensions ([`ChipReport::extensions`]).
    pub sections: &'a [&'a dyn SectionExtension],
    /// The vector file a section's regression vectors are pasted into, from its instruction set
    /// and chip (`vectors/blackhole/regressions.yaml`).
    pub regression_file: Option<RegressionFile<'a>>,
}

impl<'a> Renderers<'a> {
    /// The vector file `chip`'s regression vectors are pasted into, or, without a way to know it,
    /// a description of it.
    pub fn regression_file_of(&self, chip: &ChipReport) -> String {
        match self.regression_file {
            Some(f) => f(&chip.isa, &chip.arch),
            None => format!("the {} {} regression vectors", chip.isa_name(), chip.arch),
        }
    }

    /// The renderer of report extension `key`, if there is one.
    pub fn report_renderer(&self, key: &str) -> Option<&'a dyn Extension> {
        self.report.iter().copied().find(|e| e.key() == key)
    }

    /// The renderer of section extension `key`, if there is one.
    pub fn section_renderer(&self, key: &str) -> Option<&'a dyn SectionExtension> {
        self.sections.iter().copied().find(|e| e.key() == key)
    }
}

/// The HTML `id` of an extension's section: its key with `_` as `-` (`kernel-accuracy`).
pub fn anchor(key: &str) -> String {
    key.replace('_', "-")
}

fn sfpu() -> String {
    "sfpu".to_string()
}

/// The tool that wrote the report.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tool {
    /// `sfpu-conformance`.
    pub name: String,
    /// Its version.
    pub version: String,
}

/// The specification the expected values come from.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SpecInfo {
    /// The project's specification notes the chip's models follow: a page of `docs/spec` in the
    /// repository (`docs/spec/sfpu-blackhole.md`), in words.
    pub notes: String,
    /// The upstream documentation and the commits of it that the reference model cites.
    pub upstream: String,
    /// The SHA-256 (hex) of that page as the tool was built with it ([`SpecInfo::notes_digest`]),
    /// or empty (reports of earlier versions).
    #[serde(default)]
    pub notes_sha256: String,
    /// The upstream commits (40 hex digits) the reference model's sources cite, sorted.
    #[serde(default)]
    pub upstream_commits: Vec<String>,
}

impl SpecInfo {
    /// The SHA-256 of `page`, in lower-case hex: what `sha256sum` prints for the file the text was
    /// read from (the tools embed their notes pages with `include_str!`).
    pub fn notes_digest(page: &str) -> String {
        use sha2::{Digest, Sha256};
        Sha256::digest(page.as_bytes()).iter().map(|b| format!("{b:02x}")).collect()
    }
}

/// The golden-vector corpus.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CorpusInfo {
    /// The directory it was read from.
    pub path: String,
    /// Its format.
    pub format: String,
    /// Number of files.
    pub files: usize,
    /// Number of vectors.
    pub vectors: usize,
    /// The generator version and seed recorded in its headers.
    pub generator: String,
}

/// The random differential campaign.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CampaignInfo {
    /// The seed (hex).
    pub seed: String,
    /// The time budget per instruction (and for the streams), per model, in milliseconds, when
    /// the campaign was time-budgeted (`--budget`); 0 when it ran a fixed number of cases.
    pub budget_ms: u64,
    /// The random cases per (instruction, mode value) of a counted campaign (the default; 16 times
    /// as many streams); 0 when it was time-budgeted. Added during format 1 (0 when absent).
    #[serde(default)]
    pub cases_per_mode: u64,
    /// Random single-instruction cases drawn and given to a model, summed over every model
    /// checked against the reference (each model has its own budget, so each gets its own
    /// number of cases: see `random_cases` and `random_unsupported` in its totals).
    pub cases: u64,
    /// Random instruction streams drawn and given to a model, summed over the models likewise.
    pub streams: u64,
    /// The random instruction streams (or operand streams) per model of a counted campaign.
    /// Added in format 3 (absent: not said).
    #[serde(default)]
    pub streams_per_model: u64,
}

impl CampaignInfo {
    /// How many cases the campaign ran, in words: `64 cases per instruction and mode value (and
    /// 1024 streams) per model`, `a budget of 600 ms per instruction and model`, or `none`.
    pub fn describe_limit(&self) -> String {
        if self.cases_per_mode > 0 {
            if self.streams_per_model > 0 {
                format!(
                    "{} cases per instruction and mode value (and {} streams) per model",
                    self.cases_per_mode, self.streams_per_model
                )
            } else {
                format!("{} cases per instruction and mode value per model", self.cases_per_mode)
            }
        } else if self.budget_ms > 0 {
            format!("a time budget of {} per instruction and model", super::text::human_ms(self.budget_ms))
        } else {
            "none".to_string()
        }
    }
}

/// One implementation checked.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ModelInfo {
    /// The name used everywhere in the report.
    pub name: String,
    /// `reference`, `fastpath` or `dut`.
    pub kind: String,
    /// For a DUT, its command line.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command: Option<String>,
    /// For a DUT, what it said of itself in its hello (`name version`), or, for one that refused
    /// the hello, the refusal.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// For a DUT whose hello declared what it models, the declaration in words (`models the
    /// baseline and row-mask; refuses SFPLOADMACRO`); absent when it declared nothing (it is
    /// given everything). Added during format 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub declaration: Option<String>,
}

/// How much of the corpus and of the matrix one model was checked on.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ModelCoverage {
    /// The model (its column).
    pub model: String,
    /// The golden vectors selected for the run.
    pub vectors: u64,
    /// Of those, the vectors its declaration covers (given to it: `vectors_run`).
    pub applicable: u64,
    /// The vectors its declaration does not cover (not given to it).
    pub not_applicable: u64,
    /// Of the vectors given to it, those it declined (`unsupported`).
    pub unsupported: u64,
    /// Of the vectors given to it, those it failed to run (crash, hang, malformed answer).
    pub errors: u64,
    /// The vectors compared: run, neither declined nor failed to run (`passed + failed`).
    pub compared: u64,
    /// Of those, the vectors where everything compared was equal.
    pub passed: u64,
    /// The cells of the matrix the model had a case of (given to it, or held back as not
    /// applicable).
    pub cells: u64,
    /// The cells in which at least one vector or random case was compared.
    pub cells_covered: u64,
    /// The not-applicable vectors by the feature they require that the model does not declare
    /// (a vector missing two features counts under both).
    pub not_applicable_by_feature: BTreeMap<String, u64>,
    /// The not-applicable vectors by the refusal that covers them.
    pub not_applicable_by_refusal: BTreeMap<String, u64>,
}

impl ChipReport {
    /// The section's instruction set for headings (`SFPU`, `AMX`); a section built in memory
    /// without one is an SFPU one, as in format 2.
    pub fn isa_name(&self) -> String {
        if self.isa.is_empty() { "SFPU".to_string() } else { self.isa.to_ascii_uppercase() }
    }
}

impl ModelCoverage {
    /// `700 of 6954 vectors compared (10.1%), 583 passed; 120 of 856 cells`: the vectors compared
    /// are those run and answered (neither declined nor failed to run).
    pub fn headline(&self) -> String {
        format!(
            "{} of {} vectors compared ({}), {} passed; {} of {} cells",
            self.compared,
            self.vectors,
            super::text::percent(self.compared, self.vectors),
            self.passed,
            self.cells_covered,
            self.cells
        )
    }

    /// What was not checked, in words (`5200 not applicable, 1171 unsupported, 3 errors`), or
    /// empty.
    pub fn shortfall(&self) -> String {
        let mut parts = Vec::new();
        for (n, what) in [
            (self.not_applicable, "not applicable"),
            (self.unsupported, "unsupported"),
            (self.errors, "errors"),
            (self.compared - self.passed, "failed"),
        ] {
            if n > 0 {
                parts.push(format!("{n} {what}"));
            }
        }
        parts.join(", ")
    }
}

/// One reason, with how often it was given and where.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReasonEntry {
    /// The model (its column).
    pub model: String,
    /// `unsupported` (the model declined the case) or `error` (it failed to run it).
    pub kind: String,
    /// The first reason of this pattern as the model (or the harness, for a crash or a timeout)
    /// gave it.
    pub reason: String,
    /// The reason's pattern, which the entry counts: the reason with the case's id, numbers,
    /// names and quoted text replaced ([`crate::matrix::reason_pattern`]), so that reasons that
    /// differ only in those are one entry. Added during format 4 (absent: the reason).
    #[serde(default)]
    pub pattern: String,
    /// How many cases (vectors and random cases) it was given for.
    pub count: u64,
    /// The first few case ids (vector ids, `random/SFPMAD/12`).
    pub examples: Vec<String>,
}

impl ReasonEntry {
    /// The reason as the renderings show it: the pattern counted, with the first reason as given
    /// when they differ (`NAME is not modelled (e.g. SFPMAD is not modelled)`).
    pub fn shown(&self) -> String {
        if self.pattern.is_empty() || self.pattern == self.reason {
            self.reason.clone()
        } else {
            format!("{} (e.g. {})", self.pattern, self.reason)
        }
    }
}

/// One (instruction, mode value) cell, per model.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatrixRow {
    /// The instruction (`SFPMAD`) or file (`sequences`).
    pub instruction: String,
    /// The mode value, canonical form (`mod1=2`), or `-`.
    pub mode: String,
    /// The mode value with the documentation's names (`mod1=NEGATE_VC`).
    pub label: String,
    /// The counts per model name.
    pub per_model: BTreeMap<String, Counts>,
    /// Per model name, why the cell's first case not checked was not (the first `unsupported`
    /// reason, error, or not-applicable reason), for the JUnit `<skipped message>`. Added during
    /// format 1.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub reasons: BTreeMap<String, String>,
}

/// What happened to the cases of one cell (or of a whole model).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counts {
    /// Golden vectors run.
    pub vectors_run: u64,
    /// Golden vectors where everything compared was equal.
    pub passed: u64,
    /// Golden vectors where something compared differed.
    pub failed: u64,
    /// Of the vectors run, those with locations skipped as not promised (undefined, unspecified
    /// or, in architecture mode, non-contractual behaviour).
    pub tainted: u64,
    /// Golden vectors whose every note is undefined behaviour (nothing but the untouched state
    /// compared).
    pub undefined: u64,
    /// Golden vectors the model declined (`unsupported`).
    pub unsupported: u64,
    /// Golden vectors the model failed to run (crash, hang, malformed answer).
    pub errors: u64,
    /// Random cases compared with the reference (run by the model, not declined).
    pub random_cases: u64,
    /// Random cases that differed from the reference.
    pub random_failures: u64,
    /// Random cases the model failed to run (a crash, a hang, a malformed answer): errors, not
    /// divergences.
    #[serde(default)]
    pub random_errors: u64,
    /// Random cases the model declined (`unsupported`): not run, not compared.
    #[serde(default)]
    pub random_unsupported: u64,
    /// Golden vectors not given to the model: its declaration does not cover them (added in issue
    /// 14; not counted in `vectors_run`).
    #[serde(default)]
    pub not_applicable: u64,
    /// Random cases not given to the model, likewise (not counted in `random_cases`).
    #[serde(default)]
    pub random_not_applicable: u64,
}

impl Counts {
    /// Adds `other` into `self`.
    pub fn add(&mut self, other: &Counts) {
        self.vectors_run += other.vectors_run;
        self.passed += other.passed;
        self.failed += other.failed;
        self.tainted += other.tainted;
        self.undefined += other.undefined;
        self.unsupported += other.unsupported;
        self.errors += other.errors;
        self.random_cases += other.random_cases;
        self.random_failures += other.random_failures;
        self.random_errors += other.random_errors;
        self.random_unsupported += other.random_unsupported;
        self.not_applicable += other.not_applicable;
        self.random_not_applicable += other.random_not_applicable;
    }

    /// The counts in words, for tooltips and test-case output.
    pub fn describe(&self) -> String {
        format!(
            "vectors: {} run, {} passed, {} failed, {} tainted, {} undefined, {} unsupported, {} errors, \
             {} not applicable; random: {} compared, {} differed, {} errors, {} declined, {} not applicable",
            self.vectors_run,
            self.passed,
            self.failed,
            self.tainted,
            self.undefined,
            self.unsupported,
            self.errors,
            self.not_applicable,
            self.random_cases,
            self.random_failures,
            self.random_errors,
            self.random_unsupported,
            self.random_not_applicable
        )
    }

    /// Cases the model declined, vectors and random cases together, and the cases not given to it.
    pub fn declined(&self) -> u64 {
        self.unsupported + self.random_unsupported + self.not_applicable + self.random_not_applicable
    }

    /// Whether something was compared (a vector or a random case the model ran).
    pub fn compared_any(&self) -> bool {
        self.passed + self.failed + self.random_cases.saturating_sub(self.random_errors) > 0
    }

    /// The status of a cell with these counts, in this order (`docs/report.md`):
    ///
    /// 1. `fail`: a vector failed or errored, or a random case differed or errored;
    /// 2. `untested`: no case was given to the model, and none was held back from it;
    /// 3. `not-applicable`: no case was given to the model, its declaration covered none;
    /// 4. `unsupported`: the model declined every case it was given (nothing was compared);
    /// 5. `undefined`: every vector run was undefined behaviour or declined, at least one was
    ///    undefined;
    /// 6. `partial`: some cases compared equal and some were declined or not applicable;
    /// 7. `pass`: every case compared equal.
    pub fn status(&self) -> CellStatus {
        let compared = self.vectors_run.saturating_sub(self.unsupported) + self.random_cases;
        if self.failed + self.errors + self.random_failures + self.random_errors > 0 {
            CellStatus::Fail
        } else if self.vectors_run + self.random_cases + self.random_unsupported == 0 {
            if self.not_applicable + self.random_not_applicable > 0 {
                CellStatus::NotApplicable
            } else {
                CellStatus::Untested
            }
        } else if compared == 0 {
            CellStatus::Unsupported
        } else if self.undefined > 0 && self.undefined + self.unsupported == self.vectors_run {
            CellStatus::Undefined
        } else if self.declined() > 0 {
            CellStatus::Partial
        } else {
            CellStatus::Pass
        }
    }
}

/// The status a cell of the matrix is shown with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CellStatus {
    /// Everything compared was equal.
    Pass,
    /// Something differed, or the model failed.
    Fail,
    /// Everything compared was equal, but the model declined some cases.
    Partial,
    /// The model declined every case.
    Unsupported,
    /// The mode is undefined behaviour: nothing is promised to compare.
    Undefined,
    /// No case ran.
    Untested,
    /// No case was given to the model: its declaration covers none.
    #[serde(rename = "not-applicable")]
    NotApplicable,
}

impl CellStatus {
    /// Every status, in the order the renderings list them.
    pub const ALL: [CellStatus; 7] = [
        CellStatus::Pass,
        CellStatus::Partial,
        CellStatus::Fail,
        CellStatus::Unsupported,
        CellStatus::NotApplicable,
        CellStatus::Undefined,
        CellStatus::Untested,
    ];

    /// The glyph the status is shown with in Markdown and the terminal.
    pub fn glyph(self) -> &'static str {
        match self {
            CellStatus::Pass => "✅",
            CellStatus::Fail => "❌",
            CellStatus::Partial => "🌓",
            CellStatus::Unsupported => "🚫",
            CellStatus::Undefined => "⚠️",
            CellStatus::Untested => "⬜",
            CellStatus::NotApplicable => "➖",
        }
    }

    /// The lower-case name used in renderings.
    pub fn name(self) -> &'static str {
        match self {
            CellStatus::Pass => "pass",
            CellStatus::Fail => "fail",
            CellStatus::Partial => "partial",
            CellStatus::Unsupported => "unsupported",
            CellStatus::Undefined => "undefined",
            CellStatus::Untested => "untested",
            CellStatus::NotApplicable => "not-applicable",
        }
    }
}

/// One case's verdict on one model (a line of `cases.jsonl`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CaseRecord {
    /// The model (its column).
    pub model: String,
    /// The vector id, or the random case's id.
    pub id: String,
    /// `pass`, `fail`, `error` (the model failed to run it), `unsupported` (it declined) or
    /// `not-applicable` (its declaration left the vector out; never given to it).
    pub verdict: String,
    /// Why it was declined, failed to run or left out; for a failure, the first line of what
    /// differs. Absent for a pass.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// One failure, with how to reproduce it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FailureEntry {
    /// The model that failed: its column in the report (`fastpath`, `dut`, `dut2`, ...).
    pub model: String,
    /// The instruction (or file).
    pub instruction: String,
    /// The mode value.
    pub mode: String,
    /// The vector id, or the random case's id.
    pub id: String,
    /// `vector`, `random` or `error`.
    pub kind: String,
    /// A one-line command that replays it.
    pub replay: String,
    /// The readable account: program, differing lanes, both sides' bits.
    pub details: String,
    /// A YAML vector to paste into `vectors/<arch>/regressions.yaml`.
    pub snippet: String,
}

/// Why a saved report cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// Not JSON, or not a report.
    #[error("not a conformance report: {0}")]
    Json(#[from] serde_json::Error),
    /// A report of another format version.
    #[error(
        "report format `{found}` is none of `{REPORT_FORMAT}`, `{REPORT_FORMAT_V3}`, `{REPORT_FORMAT_V2}`, `{REPORT_FORMAT_V1}`"
    )]
    Format {
        /// The `format` the file has.
        found: String,
    },
}

/// A `sfpu-conform-report/1` file: one chip's section at the top level, with what is now the
/// whole report's.
#[derive(Deserialize)]
struct ReportV1 {
    tool: Tool,
    timings_ms: BTreeMap<String, u64>,
    #[serde(default)]
    incomplete: Option<String>,
    #[serde(flatten)]
    chip: ChipReport,
    #[serde(default)]
    kernel_accuracy: Option<serde_json::Value>,
}

impl Report {
    /// Reads a `report.json`: refuses a `format` other than [`REPORT_FORMAT`],
    /// [`REPORT_FORMAT_V3`], [`REPORT_FORMAT_V2`] or [`REPORT_FORMAT_V1`], keeps the fields it
    /// does not know in the report's or the section's extensions, and defaults the fields added
    /// after the first version. A format 3 report is a format 4 report whose non-SFPU sections
    /// carry the SFPU's section fields empty (dropped when read); a format 2 report is a format 3
    /// report whose sections are all SFPU ones; a format 1 report
    /// becomes a one-section report: its body is the chip's section, its timings stay the
    /// report's (`docs/report.md`, "Migration").
    pub fn from_json(text: &str) -> Result<Report, ReadError> {
        #[derive(Deserialize)]
        struct Head {
            #[serde(default)]
            format: String,
        }
        let head: Head = serde_json::from_str(text)?;
        if head.format == REPORT_FORMAT_V1 {
            let v1: ReportV1 = serde_json::from_str(text)?;
            let mut chip = v1.chip;
            chip.timings_ms.clear();
            // The section's extensions caught the top level's format.
            chip.extensions.remove("format");
            return Ok(Report {
                format: REPORT_FORMAT.to_string(),
                tool: v1.tool,
                chips: vec![chip],
                extensions: v1
                    .kernel_accuracy
                    .map(|k| ("kernel_accuracy".to_string(), k))
                    .into_iter()
                    .collect(),
                timings_ms: v1.timings_ms,
                incomplete: v1.incomplete,
                accept_unchecked: false,
            });
        }
        if head.format != REPORT_FORMAT && head.format != REPORT_FORMAT_V3 && head.format != REPORT_FORMAT_V2
        {
            return Err(ReadError::Format { found: head.format });
        }
        let mut report: Report = serde_json::from_str(text)?;
        if head.format != REPORT_FORMAT {
            // Formats 2 and 3 wrote the SFPU's section fields in every section, empty in the other
            // instruction sets'.
            for chip in report.chips.iter_mut().filter(|c| c.isa != "sfpu") {
                chip.extensions.retain(|k, v| {
                    !(["ieee", "spec_notes", "operand_coverage"].contains(&k.as_str()) && is_empty_value(v))
                });
            }
        }
        if head.format == REPORT_FORMAT_V2 {
            // Format 2 kept the kernel accuracy at the top level.
            #[derive(Deserialize)]
            struct V2 {
                #[serde(default)]
                kernel_accuracy: Option<serde_json::Value>,
            }
            let v2: V2 = serde_json::from_str(text)?;
            if let Some(k) = v2.kernel_accuracy {
                report.extensions.insert("kernel_accuracy".to_string(), k);
            }
        }
        report.format = REPORT_FORMAT.to_string();
        Ok(report)
    }

    /// The chips' names, in report order (`blackhole, wormhole`).
    pub fn arch_names(&self) -> Vec<&str> {
        self.chips.iter().map(|c| c.arch.as_str()).collect()
    }

    /// The instruction sets of the sections, in report order, each once (`SFPU`, `AMX`).
    pub fn isa_names(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for c in &self.chips {
            if !out.contains(&c.isa_name()) {
                out.push(c.isa_name());
            }
        }
        out
    }

    /// The section of `arch`, if the report has one.
    pub fn chip(&self, arch: &str) -> Option<&ChipReport> {
        self.chips.iter().find(|c| c.arch == arch)
    }

    /// The failing (chip, model) pairs, in report order: the overall verdict.
    pub fn failing(&self) -> Vec<(&str, &str)> {
        self.chips
            .iter()
            .flat_map(|c| c.failing_models().into_iter().map(move |m| (c.arch.as_str(), m)))
            .collect()
    }

    /// Every failure of every chip, with its chip.
    pub fn all_failures(&self) -> impl Iterator<Item = (&ChipReport, &FailureEntry)> {
        self.chips.iter().flat_map(|c| c.failures.iter().map(move |f| (c, f)))
    }

    /// The external implementations that compared nothing on a chip (refused the hello, declined
    /// every case, or were given none: [`ChipReport::unchecked_duts`]), as (chip, model) pairs in
    /// report order. Unless the run accepted them ([`Report::accept_unchecked`]) they fail it: a
    /// wrapper script that refuses everything must not turn a CI run green.
    pub fn unchecked(&self) -> Vec<(&str, &str)> {
        self.chips
            .iter()
            .flat_map(|c| c.unchecked_duts().into_iter().map(move |m| (c.arch.as_str(), m)))
            .collect()
    }

    /// Whether the run passes (exit status 0): no model failed, and every external
    /// implementation compared something on every chip, or the run accepted that it did not.
    pub fn passes(&self) -> bool {
        !self.chips.is_empty()
            && self.failing().is_empty()
            && (self.accept_unchecked || self.unchecked().is_empty())
    }

    /// The overall verdict in one line: `PASS on every chip checked (blackhole, wormhole)`, or
    /// `FAIL: failing model(s) by chip: blackhole: dut; wormhole: fastpath`, a run's external
    /// implementations that compared nothing on a chip named as failing it; then each external
    /// implementation's coverage chip by chip. Each chip's section has its own verdict with the
    /// coverage of every model ([`ChipReport::verdict_text`]).
    pub fn overall_verdict(&self) -> String {
        if self.chips.is_empty() {
            return "NOTHING CHECKED: the report has no chip section".to_string();
        }
        let by_chip = |pairs: &[(&str, &str)]| {
            let mut parts: Vec<String> = Vec::new();
            for c in &self.chips {
                let models: Vec<&str> = pairs.iter().filter(|(a, _)| *a == c.arch).map(|(_, m)| *m).collect();
                if !models.is_empty() {
                    parts.push(format!("{}: {}", c.arch, models.join(", ")));
                }
            }
            parts.join("; ")
        };
        let failing = self.failing();
        let unchecked = if self.accept_unchecked { Vec::new() } else { self.unchecked() };
        let mut line = if failing.is_empty() && unchecked.is_empty() {
            format!("PASS on every chip checked ({})", self.arch_names().join(", "))
        } else {
            let mut parts = Vec::new();
            if !failing.is_empty() {
                parts.push(format!("failing model(s) by chip: {}", by_chip(&failing)));
            }
            if !unchecked.is_empty() {
                parts.push(format!(
                    "external implementation(s) that compared nothing, by chip (--accept-unchecked accepts \
                     that): {}",
                    by_chip(&unchecked)
                ));
            }
            format!("FAIL: {}", parts.join("; "))
        };
        // Every external implementation's coverage, chip by chip.
        let mut duts: Vec<&str> = Vec::new();
        for m in self.chips.iter().flat_map(|c| &c.models).filter(|m| m.kind == "dut") {
            if !duts.contains(&m.name.as_str()) {
                duts.push(&m.name);
            }
        }
        for dut in duts {
            let per_chip: Vec<String> = self
                .chips
                .iter()
                .filter(|c| c.models.iter().any(|m| m.name == dut))
                .map(|c| match (c.coverage_of(dut), c.unchecked_duts().contains(&dut)) {
                    (Some(k), true) => format!("{} compared nothing ({})", c.arch, k.shortfall()),
                    (Some(k), false) => format!(
                        "{} {} of {} vectors compared ({} passed)",
                        c.arch, k.compared, k.vectors, k.passed
                    ),
                    (None, true) => format!("{} compared nothing", c.arch),
                    (None, false) => format!("{} (no coverage recorded)", c.arch),
                })
                .collect();
            line.push_str(&format!("; {dut}: {}", per_chip.join(", ")));
        }
        line
    }
}

/// Helpers the renderers share.
impl ChipReport {
    /// The failures the pages show in full: the first `per_cell` of each (model, instruction,
    /// mode) cell, each with its index in [`failures`](ChipReport::failures); and how many of the
    /// kept failures are not shown.
    pub fn failures_to_show(&self, per_cell: usize) -> (Vec<(usize, &FailureEntry)>, usize) {
        let mut seen: BTreeMap<(&str, &str, &str), usize> = BTreeMap::new();
        let mut shown = Vec::new();
        for (i, f) in self.failures.iter().enumerate() {
            let n = seen.entry((&f.model, &f.instruction, &f.mode)).or_default();
            *n += 1;
            if *n <= per_cell {
                shown.push((i, f));
            }
        }
        let hidden = self.failures.len() - shown.len();
        (shown, hidden)
    }

    /// How many failures the section had and which of them the report keeps, in words: `12
    /// failure(s), every one kept` or `5000 failure(s); kept: the first 3 of each (model,
    /// instruction, mode) cell, 180 in all`.
    pub fn failure_account(&self) -> String {
        let total = (self.failures_total as usize).max(self.failures.len());
        match self.failure_cap {
            None => format!("{total} failure(s), every one kept in report.json"),
            Some(cap) => format!(
                "{total} failure(s); report.json keeps the first {cap} of each (model, instruction, mode) \
                 cell (--keep-failures), {} in all",
                self.failures.len()
            ),
        }
    }

    /// The coverage of `model`, if the report has it.
    pub fn coverage_of(&self, model: &str) -> Option<&ModelCoverage> {
        self.coverage.iter().find(|c| c.model == model)
    }

    /// The verdict in one line of plain text, the coverage of every model next to it: `PASS on
    /// every model: reference 6954 of 6954 vectors (100%), 856 of 856 cells; dut 583 of 6954
    /// vectors (8.4%), 120 of 856 cells (5200 not applicable, 1171 unsupported)`, or `FAIL:
    /// failing model(s): dut; ...`. PASS never stands without the coverage it rests on.
    pub fn verdict_text(&self) -> String {
        let failing = self.failing_models();
        let unchecked = self.unchecked_duts();
        // A DUT that compared nothing never stands behind a bare PASS (whether it fails the run
        // is the whole report's verdict: `--accept-unchecked`).
        let nothing = if unchecked.is_empty() {
            String::new()
        } else {
            format!(" ({} compared nothing)", unchecked.join(", "))
        };
        let head = if failing.is_empty() {
            format!("PASS on what each model was checked on{nothing}:")
        } else {
            format!("FAIL: failing model(s): {}{nothing}; coverage:", failing.join(", "))
        };
        let parts: Vec<String> = self
            .model_names()
            .into_iter()
            .map(|m| match self.coverage_of(m) {
                Some(c) => {
                    let short = c.shortfall();
                    if short.is_empty() {
                        format!("{m} {}", c.headline())
                    } else {
                        format!("{m} {} ({short})", c.headline())
                    }
                }
                None => format!("{m} (no coverage recorded)"),
            })
            .collect();
        format!("{head} {}", parts.join("; "))
    }

    /// The external implementations (kind `dut`) that compared nothing in this section: they
    /// refused the hello, declined every case they were given, or were given none (their
    /// declaration covers nothing selected).
    pub fn unchecked_duts(&self) -> Vec<&str> {
        self.models
            .iter()
            .filter(|m| m.kind == "dut")
            .map(|m| m.name.as_str())
            .filter(|m| {
                matches!(
                    self.model_totals(m).status(),
                    CellStatus::Unsupported | CellStatus::NotApplicable | CellStatus::Untested
                )
            })
            .collect()
    }

    /// The models whose totals fail (a divergence, an error), in report order: the verdict.
    pub fn failing_models(&self) -> Vec<&str> {
        self.model_names().into_iter().filter(|m| self.model_totals(m).status() == CellStatus::Fail).collect()
    }

    /// The model names in report order: those of [`ChipReport::models`] first, then any other name
    /// the matrix or the totals mention, sorted.
    pub fn model_names(&self) -> Vec<&str> {
        let mut names: Vec<&str> = self.models.iter().map(|m| m.name.as_str()).collect();
        let mut extra: Vec<&str> = self
            .matrix
            .iter()
            .flat_map(|row| row.per_model.keys())
            .chain(self.totals.keys())
            .map(String::as_str)
            .filter(|n| !names.contains(n))
            .collect();
        extra.sort_unstable();
        extra.dedup();
        names.extend(extra);
        names
    }

    /// The totals of `model`: its entry in [`ChipReport::totals`], or the sum of its cells when the
    /// totals do not name it.
    pub fn model_totals(&self, model: &str) -> Counts {
        self.totals.get(model).copied().unwrap_or_else(|| {
            let mut sum = Counts::default();
            for row in &self.matrix {
                sum.add(&row.counts(model));
            }
            sum
        })
    }

    /// The matrix rows grouped by instruction, instructions in order of first appearance.
    pub fn rows_by_instruction(&self) -> Vec<(&str, Vec<&MatrixRow>)> {
        let mut groups: Vec<(&str, Vec<&MatrixRow>)> = Vec::new();
        for row in &self.matrix {
            match groups.iter_mut().find(|(i, _)| *i == row.instruction) {
                Some((_, rows)) => rows.push(row),
                None => groups.push((&row.instruction, vec![row])),
            }
        }
        groups
    }

    /// The first failure recorded for a (model, instruction, mode) cell, with its index in
    /// [`ChipReport::failures`].
    pub fn first_failure(
        &self,
        model: &str,
        instruction: &str,
        mode: &str,
    ) -> Option<(usize, &FailureEntry)> {
        self.failures
            .iter()
            .enumerate()
            .find(|(_, f)| f.model == model && f.instruction == instruction && f.mode == mode)
    }
}

/// Helpers the renderers share.
impl MatrixRow {
    /// Why `model` did not check some case of this row, if it did not (see [`MatrixRow::reasons`]).
    pub fn reason(&self, model: &str) -> Option<&str> {
        self.reasons.get(model).map(String::as_str)
    }

    /// The counts of `model` in this row; all zero (untested) when the row does not name it.
    pub fn counts(&self, model: &str) -> Counts {
        self.per_model.get(model).copied().unwrap_or_default()
    }
}

/// Whether `v` holds nothing: an empty array or object, or an object of empty values.
fn is_empty_value(v: &serde_json::Value) -> bool {
    match v {
        serde_json::Value::Array(a) => a.is_empty(),
        serde_json::Value::Object(m) => m.values().all(is_empty_value),
        _ => false,
    }
}
