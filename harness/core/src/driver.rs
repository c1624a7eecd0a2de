//! An instruction set as the command line sees it: [`Driver`], an object-safe face of any
//! [`Isa`](crate::isa::Isa) ([`IsaDriver`]), so that the command line keeps one list of them (a registry, as
//! Cranelift's `isa::lookup`) and never names an instruction set's types; and [`conform`], the
//! main job over any list of chips of any instruction sets: one report with a section per chip.

use std::marker::PhantomData;
use std::path::Path;
use std::time::Instant;

use crate::dut::DutIsa;
use crate::isa::{RunOutput, RunRequest, Selection};
use crate::observe::Observer;
use crate::report::terminal::SectionNotes;
use crate::report::{Extension, REPORT_FORMAT, Report, SectionExtension, Tool, anchor};
use crate::session::{self, ChipRun, Implementation, Options, selected_jobs};
use crate::vectors::Corpus;

/// An instruction set, for the command line.
pub trait Driver: Sync {
    /// Its name (`sfpu`, `amx`).
    fn isa(&self) -> &'static str;
    /// Its chips' names, in report order.
    fn chips(&self) -> Vec<String>;
    /// The canonical name of the chip `name` names (`m3` is `m2`), if it is one.
    fn chip_named(&self, name: &str) -> Option<String>;
    /// The names `--only` may use on `chip`: its campaign jobs and its matrix rows.
    fn names(&self, chip: &str) -> Vec<String>;
    /// Whether `dir` holds golden vectors of `chip` that load (and at least one): `Err` says why
    /// not.
    fn check_vectors(&self, chip: &str, dir: &Path) -> Result<(), String>;
    /// Whether `chip`'s corpus (`dir`, or the built-in one) has a vector `id`.
    fn has_vector(&self, chip: &str, dir: Option<&Path>, id: &str) -> bool;
    /// Starts the implementations of a run on `chip` (each `--dut`'s hello is exchanged here, so a
    /// DUT that cannot start is an error before anything slow runs).
    fn start(&self, chip: &str, options: &Options) -> Result<Box<dyn Started + '_>, String>;
    /// What the instruction set adds to the whole report once `chips` are checked.
    fn report_extensions(&self, chips: &[String], selection: &Selection) -> Vec<(String, serde_json::Value)>;
    /// The renderers of its report extensions.
    fn report_renderers(&self) -> Vec<&'static dyn Extension>;
    /// The renderers of its sections' extensions.
    fn section_renderers(&self) -> Vec<&'static dyn SectionExtension>;
    /// Replays case `id` on `chip` ([`session::replay`]); returns whether a model failed it.
    fn replay(&self, chip: &str, options: &Options, id: &str, out: &mut String) -> Result<bool, String>;
    /// The vector file `chip`'s regression vectors are pasted into.
    fn regression_file(&self, chip: &str) -> String;
    /// `chip`'s built-in corpus as files ([`Isa::export`](crate::isa::Isa::export)).
    fn export(&self, chip: &str, json: bool) -> Result<Vec<(String, String)>, String>;
    /// The file extension of its programs (`run` picks the instruction set by it).
    fn program_extension(&self) -> &'static str;
    /// The `run` command ([`Isa::run_program`](crate::isa::Isa::run_program)).
    fn run_program(&self, request: &RunRequest) -> Result<RunOutput, String>;
}

/// A chip whose implementations are started, ready to be checked.
pub trait Started {
    /// Checks the chip ([`session::check_chip`]).
    fn run(self: Box<Self>, options: &Options, observer: &dyn Observer) -> Result<ChipRun, String>;
}

/// The [`Driver`] of instruction set `I`.
pub struct IsaDriver<I>(PhantomData<fn() -> I>);

impl<I: DutIsa> IsaDriver<I> {
    /// The driver (a constant, so a registry can hold `&'static` ones).
    pub const NEW: IsaDriver<I> = IsaDriver(PhantomData);

    fn chip(name: &str) -> Result<I::Chip, String> {
        I::chip_named(name).ok_or_else(|| {
            let all: Vec<String> = I::chips().into_iter().map(I::chip_name).collect();
            format!("`{name}` is not a chip of {} ({})", I::NAME, all.join(", "))
        })
    }
}

struct StartedChip<I: DutIsa> {
    chip: I::Chip,
    models: Vec<(Implementation<'static, I>, crate::report::ModelInfo)>,
}

impl<I: DutIsa> Started for StartedChip<I> {
    fn run(self: Box<Self>, options: &Options, observer: &dyn Observer) -> Result<ChipRun, String> {
        session::check_chip::<I>(self.chip, options, &self.models, observer)
    }
}

impl<I: DutIsa> Driver for IsaDriver<I> {
    fn isa(&self) -> &'static str {
        I::NAME
    }

    fn chips(&self) -> Vec<String> {
        I::chips().into_iter().map(I::chip_name).collect()
    }

    fn chip_named(&self, name: &str) -> Option<String> {
        I::chip_named(name).map(I::chip_name)
    }

    fn names(&self, chip: &str) -> Vec<String> {
        let Ok(chip) = Self::chip(chip) else { return Vec::new() };
        let mut names: Vec<String> = I::jobs(chip).into_iter().map(|j| j.name).collect();
        for cell in I::matrix(chip) {
            if !names.contains(&cell.instruction) {
                names.push(cell.instruction);
            }
        }
        names
    }

    fn check_vectors(&self, chip: &str, dir: &Path) -> Result<(), String> {
        let corpus = I::load(Self::chip(chip)?, Some(dir))?;
        if corpus.is_empty() {
            return Err(format!("{} holds no vector of {} {chip}", dir.display(), I::NAME));
        }
        Ok(())
    }

    fn has_vector(&self, chip: &str, dir: Option<&Path>, id: &str) -> bool {
        let Ok(chip) = Self::chip(chip) else { return false };
        I::load(chip, dir).is_ok_and(|corpus| (0..corpus.len()).any(|i| corpus.id(i) == id))
    }

    fn start(&self, chip: &str, options: &Options) -> Result<Box<dyn Started + '_>, String> {
        let chip = Self::chip(chip)?;
        let models = session::implementations::<I>(chip, options)?;
        Ok(Box::new(StartedChip { chip, models }))
    }

    fn report_extensions(&self, chips: &[String], selection: &Selection) -> Vec<(String, serde_json::Value)> {
        let chips: Vec<I::Chip> = chips.iter().filter_map(|c| I::chip_named(c)).collect();
        I::report_extensions(&chips, selection)
    }

    fn report_renderers(&self) -> Vec<&'static dyn Extension> {
        I::report_renderers().to_vec()
    }

    fn section_renderers(&self) -> Vec<&'static dyn SectionExtension> {
        I::section_renderers().to_vec()
    }

    fn replay(&self, chip: &str, options: &Options, id: &str, out: &mut String) -> Result<bool, String> {
        let chip = Self::chip(chip)?;
        let models = session::implementations::<I>(chip, options)?;
        session::replay::<I>(chip, options, &models, id, out)
    }

    fn regression_file(&self, chip: &str) -> String {
        Self::chip(chip).map_or_else(|_| format!("a vector file of {} {chip}", I::NAME), I::regression_file)
    }

    fn export(&self, chip: &str, json: bool) -> Result<Vec<(String, String)>, String> {
        Ok(I::export(Self::chip(chip)?, json))
    }

    fn program_extension(&self) -> &'static str {
        I::PROGRAM_EXTENSION
    }

    fn run_program(&self, request: &RunRequest) -> Result<RunOutput, String> {
        I::run_program(request)
    }
}

/// Whether any job of `chip` of `I` is selected by `selection`: used by front ends to decide
/// which chips a restricted run checks.
pub fn has_selected_jobs<I: DutIsa>(chip: I::Chip, selection: &Selection) -> bool {
    !selected_jobs::<I>(chip, selection).is_empty()
}

/// What [`conform`] produced: the report, and per section what only the terminal shows.
pub struct Conformed {
    /// The report.
    pub report: Report,
    /// Per section, in report order, what the terminal shows beyond the report.
    pub notes: Vec<SectionNotes>,
}

/// The main job: checks each `(instruction set, chip)` of `plan` with `options`, then adds each
/// instruction set's report extensions, and returns the report (tool `tool`). Every chip's
/// implementations are started first (a DUT that cannot start is an error before anything slow
/// runs). An interruption ends the run early; the report then says what was not done.
pub fn conform(
    plan: &[(&dyn Driver, String)],
    options: &Options,
    observer: &dyn Observer,
    tool: Tool,
) -> Result<Conformed, String> {
    let started = Instant::now();
    let mut ready = Vec::new();
    for (driver, chip) in plan {
        ready.push((*driver, chip.clone(), driver.start(chip, options)?));
    }
    let mut report = Report {
        format: REPORT_FORMAT.to_string(),
        tool,
        chips: Vec::new(),
        extensions: Default::default(),
        timings_ms: Default::default(),
        incomplete: None,
        accept_unchecked: options.accept_unchecked,
    };
    let mut notes = Vec::new();
    let mut skipped: Vec<String> = Vec::new();
    let mut checked: Vec<(&dyn Driver, Vec<String>)> = Vec::new();
    for (driver, chip, ready) in ready {
        if observer.stopped() {
            skipped.push(format!("everything on {} {chip}", driver.isa()));
            continue;
        }
        let run = ready.run(options, observer)?;
        skipped.extend(run.skipped);
        notes.push(run.notes);
        report.chips.push(run.report);
        match checked.iter_mut().find(|(d, _)| d.isa() == driver.isa()) {
            Some((_, chips)) => chips.push(chip),
            None => checked.push((driver, vec![chip])),
        }
    }
    for (driver, chips) in checked {
        if observer.stopped() {
            skipped.push(format!("the {} extensions of the report", driver.isa()));
            continue;
        }
        if options.shard.is_some_and(|s| !s.is_first()) {
            continue;
        }
        let t = Instant::now();
        let extensions = driver.report_extensions(&chips, &options.selection);
        if !extensions.is_empty() {
            let ms = t.elapsed().as_millis() as u64;
            for (key, value) in extensions {
                report.timings_ms.insert(anchor(&key), ms);
                report.extensions.insert(key, value);
            }
        }
    }
    report.timings_ms.insert("total".to_string(), started.elapsed().as_millis() as u64);
    if observer.stopped() {
        report.incomplete = Some(format!(
            "interrupted after {:.1} s; not done: {}",
            started.elapsed().as_secs_f64(),
            if skipped.is_empty() { "nothing".to_string() } else { skipped.join("; ") }
        ));
    }
    Ok(Conformed { report, notes })
}

/// The renderers of every instruction set of `registry`, for [`crate::report::write_files`] and
/// the terminal: their extensions' and where their regression vectors go.
pub struct RegistryRenderers<'a> {
    registry: &'a [&'a dyn Driver],
    report: Vec<&'static dyn Extension>,
    sections: Vec<&'static dyn SectionExtension>,
}

impl<'a> RegistryRenderers<'a> {
    /// Gathers them from `registry`.
    pub fn new(registry: &'a [&'a dyn Driver]) -> RegistryRenderers<'a> {
        RegistryRenderers {
            registry,
            report: registry.iter().flat_map(|d| d.report_renderers()).collect(),
            sections: registry.iter().flat_map(|d| d.section_renderers()).collect(),
        }
    }

    /// The vector file a chip's regression vectors go into.
    fn regression_file(&self, isa: &str, chip: &str) -> String {
        match self.registry.iter().find(|d| d.isa() == isa) {
            Some(d) => d.regression_file(chip),
            None => format!("a vector file of {isa} {chip}"),
        }
    }

    /// As the renderers take them.
    pub fn with<T>(&self, f: impl FnOnce(&crate::report::Renderers<'_>) -> T) -> T {
        let file = |isa: &str, chip: &str| self.regression_file(isa, chip);
        let renderers = crate::report::Renderers {
            report: &self.report,
            sections: &self.sections,
            regression_file: Some(&file),
        };
        f(&renderers)
    }
}
