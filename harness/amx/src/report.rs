//! AMX's sections of the compliance report: for one chip profile, its golden vectors
//! (`vectors/amx/<chip>.yaml`) and a random campaign over every semantic class, run on each model
//! through the ISA-neutral core ([`harness_core::check`]), plus the random operand streams of
//! [`super::campaign`] (16 operands with the state carried over, each stream one program whose
//! whole final state is compared) as the `streams` row. `cargo xtask fuzz`'s `amx_diff` and the
//! campaign's own tests compare after every operand. Every cell of the matrix is a class of the notes' table (§4.2,
//! [`super::generate::cells`]); a class with no vector would be a row with nothing run, which the
//! tests forbid.

use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::time::Instant;

use amx_reference::Chip;

use super::campaign::{self, AmxCase};
use super::format::{AmxVectorFile, Checked, parse};
use super::generate::{cell_of, file_stem};
use super::isa::Amx;
use harness_core::check::{self, CaseInfo, Tally, VectorCase};
use harness_core::isa::{Isa, Model};
use harness_core::report::{CampaignInfo, ChipReport, CorpusInfo, FailureEntry, MatrixRow, ModelInfo, SpecInfo};

/// What one AMX section runs.
#[derive(Clone, Debug)]
pub struct Settings {
    /// The folder of the AMX vectors (`vectors/amx`).
    pub vectors: std::path::PathBuf,
    /// The campaign's seed.
    pub seed: u64,
    /// Random cases per class and model.
    pub cases_per_cell: u64,
    /// Random operand streams per model.
    pub streams: u64,
    /// Failures kept per cell.
    pub keep: usize,
}

/// The replay command of a case id of this section.
pub fn replay_command(id: &str) -> String {
    format!("cargo xtask conform --isa amx --replay {id}")
}

/// The vectors of `chip` as the core runs them, from `dir/<chip>.yaml`.
pub fn load(dir: &Path, chip: Chip) -> Result<(AmxVectorFile, Vec<VectorCase<Amx>>), String> {
    let path = dir.join(format!("{}.yaml", file_stem(chip)));
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let name = path.display().to_string();
    let (file_chip, checked) = parse(&name, &text).map_err(|e| e.to_string())?;
    if file_chip != chip {
        return Err(format!("{name}: a file of chip profile {file_chip}, expected {chip}"));
    }
    // `parse` has checked it; reading it again keeps the vectors' YAML for the snippets.
    let file: AmxVectorFile = serde_yaml::from_str(&text).map_err(|e| format!("{name}: {e}"))?;
    let stem = file.file.clone();
    let cases = checked.into_iter().map(|c| case_of(&stem, c)).collect();
    Ok((file, cases))
}

fn case_of(stem: &str, c: Checked) -> VectorCase<Amx> {
    let (file, mode) = cell_of(stem, &c.id).unwrap_or_else(|| ("other".to_string(), c.mode.clone()));
    VectorCase {
        id: c.id,
        file,
        mode: Some(mode),
        pre: c.pre,
        program: c.program,
        expected: c.expected,
        outcome: None,
        skip: Default::default(),
    }
}

/// Snippets and replay commands for the section's vectors' failures (a random case's snippet is
/// made where it runs, [`random_snippet`]).
struct Info<'a> {
    vectors: HashMap<&'a str, &'a super::format::AmxVector>,
}

impl CaseInfo for Info<'_> {
    fn only_undefined(&self, _id: &str) -> bool {
        false
    }

    fn snippet(&self, id: &str) -> String {
        match self.vectors.get(id) {
            Some(v) => serde_yaml::to_string(&[v]).unwrap_or_default(),
            None => String::new(),
        }
    }

    fn replay(&self, id: &str) -> String {
        replay_command(id)
    }
}

/// The random cases of the section: `cases_per_cell` per class, as the core's campaign draws them,
/// then `streams` random operand streams ([`campaign::nth_case`]: 16 operands, half of them a
/// class of the chip, on a random state), each run as one program and compared at its end (a
/// model that declines one operand declines the stream). Case `k` of the section (`k <`
/// [`Randoms::count`]) is drawn from its index alone, so the cases can be made a window at a time.
struct Randoms {
    chip: Chip,
    cells: Vec<harness_core::isa::Cell>,
    seed: u64,
    per_cell: u64,
    streams: u64,
}

impl Randoms {
    /// How many case numbers the section has (a class that draws no case at a number skips it).
    fn count(&self) -> u64 {
        self.cells.len() as u64 * self.per_cell + self.streams
    }

    /// Case number `k`, with the reference's result as what it expects; `None` where its class
    /// draws no case.
    fn case(&self, k: u64) -> Option<VectorCase<Amx>> {
        let classes = self.cells.len() as u64 * self.per_cell;
        let mut c: VectorCase<Amx> = if k < classes {
            let (n, i) = ((k / self.per_cell) as usize, k % self.per_cell);
            let (id, pre, program) = check::random_case::<Amx>(self.chip, &self.cells, n, self.seed, i)?;
            let cell = &self.cells[n];
            VectorCase {
                id,
                file: cell.instruction.clone(),
                mode: Some(cell.mode.clone()),
                pre,
                program,
                expected: Default::default(),
                outcome: None,
                skip: Default::default(),
            }
        } else {
            let c = campaign::nth_case(self.chip, self.seed, k - classes);
            VectorCase {
                id: c.id,
                file: "streams".to_string(),
                mode: Some("-".to_string()),
                pre: c.pre,
                program: c.program,
                expected: Default::default(),
                outcome: None,
                skip: Default::default(),
            }
        };
        let reference = Amx::reference();
        c.expected = match reference.run(self.chip, &c.pre, &c.program) {
            Ok(run) => run.post,
            Err(_) => c.pre.clone(),
        };
        Some(c)
    }

    /// Cases `range` that exist, in order (made in parallel, whatever runs them).
    fn window(&self, range: std::ops::Range<u64>) -> Vec<VectorCase<Amx>> {
        use rayon::prelude::*;
        range.into_par_iter().filter_map(|k| self.case(k)).collect()
    }
}

/// Random cases made and run at a time: a window's cases (about 20 KB each with their states
/// before and expected and their result) are all that is held, whatever the number of cases.
const RANDOM_WINDOW: u64 = 2048;

/// The regression vector of a random case of the section.
fn random_snippet(chip: Chip, c: &VectorCase<Amx>) -> String {
    let case = AmxCase { id: c.id.clone(), chip, pre: c.pre.clone(), program: c.program.clone() };
    campaign::snippet(&case, c.program.len().saturating_sub(1))
}

/// The section of `chip`: every model of `models` on the vectors, and every model but the first
/// (the reference, whose results the random cases expect) on the random classes and the streams.
/// Each model's column is its [`Model::name`]; see [`section_with`].
pub fn section(chip: Chip, models: &[&dyn Model<Amx>], settings: &Settings) -> Result<ChipReport, String> {
    let named: Vec<(&dyn Model<Amx>, ModelInfo)> = models
        .iter()
        .map(|m| {
            let name = m.name();
            let kind =
                if name == "reference" || name == "fastpath" { name.clone() } else { "dut".to_string() };
            (*m, ModelInfo { name, kind, ..ModelInfo::default() })
        })
        .collect();
    section_with(chip, &named, settings, &|| false)
}

/// [`section`] with each model's report entry (its column's name, its kind, a DUT's command and
/// description). A model of kind `dut` gets its cases one at a time, in a fixed order.
///
/// `stop` is asked before each window of random cases: once it says so, no more random cases
/// run (an interruption), and the campaign's counts are those of the cases that ran.
pub fn section_with(
    chip: Chip,
    models: &[(&dyn Model<Amx>, ModelInfo)],
    settings: &Settings,
    stop: &(dyn Fn() -> bool + Sync),
) -> Result<ChipReport, String> {
    let started = Instant::now();
    let (file, vectors) = load(&settings.vectors, chip)?;
    let mut rows: Vec<MatrixRow> = check::empty_rows(&Amx::cells(chip));
    rows.push(MatrixRow {
        instruction: "streams".to_string(),
        mode: "-".to_string(),
        label: "-".to_string(),
        ..MatrixRow::default()
    });
    // The reference's result is what a random case expects.
    let randoms = Randoms {
        chip,
        cells: Amx::cells(chip),
        seed: settings.seed,
        per_cell: settings.cases_per_cell,
        streams: settings.streams,
    };
    let info = Info { vectors: file.vectors.iter().map(|v| (v.id.as_str(), v)).collect() };
    // The random cases and streams given to the models (all but the reference).
    let (mut given_cases, mut given_streams) = (0u64, 0u64);
    let mut failures: Vec<FailureEntry> = Vec::new();
    let mut reasons = Vec::new();
    let mut coverage = Vec::new();
    let mut timings = BTreeMap::new();
    let mut model_infos = Vec::new();
    for (n, (model, model_info)) in models.iter().enumerate() {
        let model: &dyn Model<Amx> = *model;
        let name = model_info.name.clone();
        let external = model_info.kind == "dut";
        let run = |cases: &[VectorCase<Amx>]| {
            if external {
                check::run_vectors_in_order::<Amx>(model, chip, cases)
            } else {
                check::run_vectors::<Amx>(model, chip, cases)
            }
        };
        let t = Instant::now();
        let results = run(&vectors);
        failures.extend(check::add_vector_results(&mut rows, &name, &results, &info, settings.keep));
        timings.insert(format!("vectors/{name}"), t.elapsed().as_millis() as u64);
        let mut tally = Tally::default();
        for r in &results {
            tally.record(&r.id, &r.status, true);
        }
        // The random classes and the streams: compared with the reference's result, so not run on
        // the reference itself (the first model). A stream's failure is `random`, with its id.
        let t = Instant::now();
        let mut cells: BTreeMap<(String, String), check::CellCounts> = BTreeMap::new();
        let mut why: BTreeMap<(String, String), String> = BTreeMap::new();
        let mut kept: BTreeMap<(String, String), usize> = BTreeMap::new();
        // A window of cases at a time, in case order (not on the reference itself).
        let (mut start, end) = (0, if n == 0 { 0 } else { randoms.count() });
        while start < end && !stop() {
            let window = randoms.window(start..(start + RANDOM_WINDOW).min(end));
            start = (start + RANDOM_WINDOW).min(end);
            let random = run(&window);
            for (r, case) in random.iter().zip(&window) {
                if r.file == "streams" {
                    given_streams += 1;
                } else {
                    given_cases += 1;
                }
                let key = (r.file.clone(), r.mode.clone().unwrap_or_default());
                tally.record(&r.id, &r.status, false);
                let c = cells.entry(key.clone()).or_default();
                let failed = match &r.status {
                    check::Status::Pass => {
                        c.cases += 1;
                        None
                    }
                    check::Status::Fail(f) => {
                        c.cases += 1;
                        c.failures += 1;
                        Some(("random", f.report.clone()))
                    }
                    check::Status::Error(e) => {
                        c.cases += 1;
                        c.failures += 1;
                        c.errors += 1;
                        Some(("error", format!("case {}: {e}", r.id)))
                    }
                    check::Status::Unsupported(_) => {
                        c.unsupported += 1;
                        None
                    }
                    check::Status::NotApplicable(_) => {
                        c.not_applicable += 1;
                        None
                    }
                };
                if let Some(reason) = r.status.reason() {
                    why.entry(key.clone()).or_insert(reason);
                }
                let n = kept.entry(key.clone()).or_default();
                if let Some((kind, details)) = failed
                    && *n < settings.keep
                {
                    *n += 1;
                    failures.push(FailureEntry {
                        model: name.clone(),
                        instruction: key.0.clone(),
                        mode: key.1.clone(),
                        id: r.id.clone(),
                        kind: kind.to_string(),
                        replay: replay_command(&r.id),
                        details,
                        snippet: random_snippet(chip, case),
                    });
                }
            }
        }
        check::add_campaign(&mut rows, &name, &cells, &why);
        timings.insert(format!("random/{name}"), t.elapsed().as_millis() as u64);
        coverage.push(check::coverage(&rows, &name, vectors.len() as u64, &tally));
        reasons.extend(tally.entries(&name));
        model_infos.push(model_info.clone());
    }
    timings.insert("total".to_string(), started.elapsed().as_millis() as u64);
    let totals = check::totals(&rows);
    Ok(ChipReport {
        isa: "amx".to_string(),
        arch: Amx::chip_name(chip),
        spec: SpecInfo {
            notes: "amx-vecfp.md (project specification notes) and seed 004".to_string(),
            upstream: "corsix/amx @ 483714bb051da088d08a66724b22dd08a5db3c99 (vecfp.md, test.c); \
                       IEEE-derived, not hardware-observed"
                .to_string(),
            ..SpecInfo::default()
        },
        corpus: CorpusInfo {
            path: settings.vectors.join(format!("{}.yaml", file.file)).display().to_string(),
            format: file.format.clone(),
            files: 1,
            vectors: vectors.len(),
            generator: file.provenance.clone(),
        },
        campaign: CampaignInfo {
            seed: format!("{:#x}", settings.seed),
            budget_ms: 0,
            cases_per_mode: settings.cases_per_cell,
            cases: given_cases,
            streams: given_streams,
            streams_per_model: settings.streams,
        },
        strictness: "architecture".to_string(),
        models: model_infos,
        matrix: rows,
        totals,
        failures,
        coverage,
        reasons,
        timings_ms: timings,
        ..ChipReport::default()
    })
}
