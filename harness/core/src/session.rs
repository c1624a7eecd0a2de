//! The session that checks one chip of any instruction set: the implementations to check (the
//! reference, the fast model, each `--dut`), every selected golden vector on each of them, the
//! seeded random campaign of each against the reference, what the instruction set adds to the
//! section, and the section of the report that results ([`check_chip`]); and the replay of one
//! case on every implementation ([`replay`]).
//!
//! The order is fixed, so that a report depends only on the options: the vectors of every model
//! in corpus order, then the campaign of every model but the reference, job by job. An external
//! implementation gets its cases one at a time in that order; a built-in model runs them in
//! parallel, with the results folded in the same order.

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;
use std::ops::{ControlFlow, Range};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use crate::campaign::{self, CampaignConfig, Limit, Progress};
use crate::check::Status;
use crate::dut::{DutIsa, ExternalModel, RefusedDut};
use crate::isa::{Job, Model, ModelError, Selection, Strictness};
use crate::matrix::{self, CaseInfo, Tally};
use crate::observe::{Cancel, Observer};
use crate::replay::ReplayContext;
use crate::report::terminal::SectionNotes;
use crate::report::{CampaignInfo, ChipReport, Counts, FailureEntry, ModelCoverage, ModelInfo, ReasonEntry};
use crate::vectors::{Corpus, Filter, run_case, run_selected};

/// What a run checks and how.
#[derive(Clone, Debug)]
pub struct Options {
    /// The random campaign's seed.
    pub seed: u64,
    /// How many random cases.
    pub limit: Limit,
    /// `--only`: the jobs, rows and vectors to check.
    pub selection: Selection,
    /// `--vectors DIR`; `None`: the built-in corpus.
    pub vectors: Option<PathBuf>,
    /// How strictly to compare.
    pub strictness: Strictness,
    /// The external implementations' command lines.
    pub duts: Vec<String>,
    /// Their per-case timeout.
    pub timeout: Duration,
    /// Whether to leave out the built-in fast model.
    pub no_fastpath: bool,
    /// Failures kept per cell and model (`--keep-failures N`); `None`: every one.
    pub keep_failures: Option<usize>,
    /// This run's share of the work (`--shard K/N`).
    pub shard: Option<Shard>,
    /// The command replay lines start with (`cargo xtask conform`).
    pub command: String,
    /// Whether an external implementation that compares nothing on a chip is accepted
    /// (`--accept-unchecked`) rather than failing the run.
    pub accept_unchecked: bool,
    /// The run's interruption, as the external implementations' waits see it (the session's
    /// loops ask the [`Observer`] instead).
    pub cancel: Cancel,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            seed: 0,
            limit: Limit::PerCell(campaign::DEFAULT_CASES_PER_CELL),
            selection: Selection::default(),
            vectors: None,
            strictness: Strictness::Silicon,
            duts: Vec::new(),
            timeout: Duration::from_secs(crate::replay::DEFAULT_TIMEOUT_S),
            no_fastpath: false,
            keep_failures: None,
            shard: None,
            command: "cargo xtask conform".to_string(),
            accept_unchecked: false,
            cancel: Cancel::default(),
        }
    }
}

/// One share of a run cut into `count` (`--shard K/N`, `index` = K - 1): a contiguous part of each
/// model's sequence of cases (its vectors in corpus order, then its campaign's cases job by job),
/// so that the shards' reports, concatenated model by model in shard order, are the report of the
/// whole run ([`crate::report::merge`]). Only a counted campaign can be cut (a time budget decides
/// its cases as it runs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// Which share, from 0.
    pub index: u64,
    /// Into how many.
    pub count: u64,
}

impl Shard {
    /// Parses `K/N` (1 ≤ K ≤ N).
    pub fn parse(text: &str) -> Result<Shard, String> {
        let bad = || format!("`{text}` is not K/N with 1 <= K <= N (the K-th of N shards)");
        let (k, n) = text.split_once('/').ok_or_else(bad)?;
        let (k, n): (u64, u64) = (k.trim().parse().map_err(|_| bad())?, n.trim().parse().map_err(|_| bad())?);
        if k == 0 || n == 0 || k > n {
            return Err(bad());
        }
        Ok(Shard { index: k - 1, count: n })
    }

    /// This share of `0..len`.
    pub fn range(&self, len: u64) -> Range<u64> {
        let at = |i: u64| ((len as u128 * i as u128) / self.count as u128) as u64;
        at(self.index)..at(self.index + 1)
    }

    /// Whether this is the first share (the one that carries what is not cut: the instruction
    /// set's extensions).
    pub fn is_first(&self) -> bool {
        self.index == 0
    }
}

/// One implementation being checked.
pub enum Implementation<'a, I: DutIsa> {
    /// The reference, the fast model, or any model of the caller's.
    Builtin(&'a dyn Model<I>),
    /// A `--dut` that accepted the hello.
    Dut(Box<ExternalModel<I::Protocol>>),
    /// A `--dut` that refused the hello: every case is unsupported.
    Refused(RefusedDut),
}

impl<I: DutIsa> Implementation<'_, I> {
    /// The implementation as a model.
    pub fn model(&self) -> &dyn Model<I> {
        match self {
            Implementation::Builtin(m) => *m,
            Implementation::Dut(m) => m.as_ref(),
            Implementation::Refused(m) => m,
        }
    }

    /// Whether it is an external process (it gets one case at a time, in a fixed order).
    pub fn is_external(&self) -> bool {
        !matches!(self, Implementation::Builtin(_))
    }

    /// Why the DUT was given up on, if it was.
    pub fn given_up(&self) -> Option<String> {
        match self {
            Implementation::Dut(m) => m.given_up(),
            _ => None,
        }
    }
}

/// The implementations of a run on `chip`, reference first, each with its report entry: the
/// reference, the fast model unless `no_fastpath`, and each `--dut` (started, its hello checked;
/// one that refuses it is checked as a [`RefusedDut`], every case unsupported). A DUT that cannot
/// start is an error.
pub fn implementations<I: DutIsa>(
    chip: I::Chip,
    options: &Options,
) -> Result<Vec<(Implementation<'static, I>, ModelInfo)>, String> {
    let builtin = |m: &'static dyn Model<I>, name: &str| {
        (
            Implementation::Builtin(m),
            ModelInfo { name: name.into(), kind: name.into(), ..ModelInfo::default() },
        )
    };
    let mut out = vec![builtin(I::reference(), "reference")];
    if !options.no_fastpath {
        out.push(builtin(I::fast(), "fastpath"));
    }
    for (i, cmd) in options.duts.iter().enumerate() {
        let name = if options.duts.len() == 1 { "dut".to_string() } else { format!("dut{}", i + 1) };
        let (implementation, description, declaration) = match ExternalModel::<I::Protocol>::spawn_cancellable(
            cmd,
            chip,
            options.timeout,
            &options.cancel,
        ) {
            Ok(dut) => {
                let description = dut.describe();
                let declaration = dut.declared().map(I::describe_declaration);
                (Implementation::Dut(Box::new(dut)), description, declaration)
            }
            Err(ModelError::Unsupported(reason)) => {
                let description = format!("{reason}: every case is unsupported");
                (Implementation::Refused(RefusedDut::new(reason)), description, None)
            }
            Err(ModelError::Failed(e)) => {
                return Err(format!("--dut `{cmd}` did not start ({}): {e}", I::chip_name(chip)));
            }
            Err(ModelError::Interrupted) => {
                return Err(format!(
                    "interrupted while starting --dut `{cmd}` ({}): nothing was checked",
                    I::chip_name(chip)
                ));
            }
        };
        out.push((
            implementation,
            ModelInfo {
                name,
                kind: "dut".into(),
                command: Some(cmd.clone()),
                description: Some(description),
                declaration,
            },
        ));
    }
    Ok(out)
}

/// The replay context of `model`'s failures on `chip` in a run with `options`.
pub fn replay_context<I: DutIsa>(chip: I::Chip, options: &Options, model: &ModelInfo) -> ReplayContext {
    ReplayContext {
        command: options.command.clone(),
        isa: I::NAME.to_string(),
        chip: I::chip_name(chip),
        seed: options.seed,
        vectors: options.vectors.as_ref().map(|d| d.display().to_string()),
        architecture: options.strictness == Strictness::Architecture && I::NON_CONTRACTUAL,
        dut: model.command.clone().map(|c| (c, options.timeout.as_secs())),
    }
}

/// What checking one chip produced.
pub struct ChipRun {
    /// The chip's section of the report.
    pub report: ChipReport,
    /// What the terminal shows of it beyond the report.
    pub notes: SectionNotes,
    /// What an interruption left undone, in words.
    pub skipped: Vec<String>,
}

/// The campaign's jobs a run with `selection` runs on `chip`: those it names (every one when it
/// names none; the streams only when unrestricted or named).
pub fn selected_jobs<I: DutIsa>(chip: I::Chip, selection: &Selection) -> Vec<Job> {
    I::jobs(chip).into_iter().filter(|j| selection.selects(&j.name)).collect()
}

/// Snippets and replay lines of one model's vector failures.
struct VectorInfo<'a, I: DutIsa> {
    corpus: &'a I::Corpus,
    index: HashMap<&'a str, usize>,
    origin: String,
    replay: ReplayContext,
}

impl<I: DutIsa> CaseInfo for VectorInfo<'_, I> {
    fn only_undefined(&self, id: &str) -> bool {
        self.index.get(id).is_some_and(|&i| self.corpus.only_undefined(i))
    }

    fn snippet(&self, id: &str) -> String {
        self.index.get(id).map(|&i| self.corpus.snippet(i, &self.origin)).unwrap_or_default()
    }

    fn replay(&self, id: &str) -> String {
        self.replay.line(id, false)
    }
}

/// Checks `chip` with `models` (from [`implementations`]): its golden vectors on every model, the
/// random campaign of every model but the reference (and but a DUT that refused the hello: it
/// would only decline every case), and the instruction set's extensions of the section. An
/// interruption (`observer.stopped()`) ends it early: the section then holds what completed and
/// [`ChipRun::skipped`] says what did not.
pub fn check_chip<I: DutIsa>(
    chip: I::Chip,
    options: &Options,
    models: &[(Implementation<'_, I>, ModelInfo)],
    observer: &dyn Observer,
) -> Result<ChipRun, String> {
    let name = I::chip_name(chip);
    let stop = || observer.stopped();
    let corpus = I::load(chip, options.vectors.as_deref())?;
    let mut corpus_info = corpus.info();
    let selection = &options.selection;
    let selected = Filter::only(&selection.only).select::<I>(&corpus);
    let jobs = if options.limit.is_none() { Vec::new() } else { selected_jobs::<I>(chip, selection) };
    // Checking nothing must not look like a pass: an empty corpus is an input error (a wrong
    // directory, most likely), and so is a selection with no vectors and no random campaign.
    if corpus.is_empty() || (selected.is_empty() && jobs.is_empty()) {
        return Err(format!(
            "no golden vectors to check: {} holds {} vector file(s) and {} vector(s){}",
            corpus_info.path,
            corpus_info.files,
            corpus.len(),
            if selection.is_restricted() {
                format!(", none of them for --only {}", selection.only.join(","))
            } else {
                String::new()
            }
        ));
    }
    if selected.is_empty() {
        observer.note(&format!(
            "note: {} has no {} vectors for --only {}; only the random campaign checks it",
            corpus_info.path,
            name,
            selection.only.join(",")
        ));
    }
    if options.shard.is_some() && matches!(options.limit, Limit::Budget(_)) {
        return Err("--shard cuts a counted campaign, not a time budget (--budget)".to_string());
    }
    // Each model's share: of its sequence of cases (the vectors, then the campaign's cases job by
    // job), the shard's contiguous part; the reference and a DUT that refused the hello have no
    // campaign.
    let vectors = selected.len() as u64;
    let job_counts: Vec<u64> =
        jobs.iter().map(|j| campaign::job_cases(options.limit, j).unwrap_or(0)).collect();
    let campaign_cases: u64 = job_counts.iter().sum();
    let share_of = |with_campaign: bool| -> Range<u64> {
        let total = vectors + if with_campaign { campaign_cases } else { 0 };
        options.shard.map_or(0..total, |s| s.range(total))
    };
    let has_campaign = |i: usize, m: &Implementation<'_, I>| {
        i > 0 && !jobs.is_empty() && !matches!(m, Implementation::Refused(_))
    };
    let mut timings: BTreeMap<String, u64> = BTreeMap::new();
    let mut rows = matrix::empty_rows(&I::matrix(chip));
    let keep = options.keep_failures.unwrap_or(usize::MAX);
    let mut failures = Vec::new();
    let mut cases = Vec::new();
    let mut random_cases = Vec::new();
    let mut tallies: BTreeMap<String, Tally> = BTreeMap::new();
    let mut skipped = Vec::new();
    let started = Instant::now();

    // 1. Every selected golden vector on every model (its share of them).
    let mut vectors_of: BTreeMap<String, u64> = BTreeMap::new();
    for (m, (implementation, info)) in models.iter().enumerate() {
        let share = share_of(has_campaign(m, implementation));
        let selected = &selected[share.start.min(vectors) as usize..share.end.min(vectors) as usize];
        vectors_of.insert(info.name.clone(), selected.len() as u64);
        if stop() {
            skipped.push(format!("the {name} vectors on {}", info.name));
            continue;
        }
        let t = Instant::now();
        let phase = observer.phase(selected.len() as u64, &format!("{name} vectors: {}", info.name));
        let results = run_selected::<I>(
            implementation.model(),
            chip,
            &corpus,
            selected,
            options.strictness,
            implementation.is_external(),
            &|| phase.inc(1),
            &stop,
        );
        phase.finish(if results.len() == selected.len() { "done".into() } else { "interrupted".into() });
        if results.len() < selected.len() {
            skipped.push(format!(
                "{} of {} {name} vectors on {}",
                selected.len() - results.len(),
                selected.len(),
                info.name
            ));
        }
        let tally = tallies.entry(info.name.clone()).or_default();
        for r in &results {
            tally.record(&r.id, &r.status, true);
            cases.extend(matrix::case_record(&info.name, &r.id, &r.status));
        }
        let vector_info = VectorInfo::<I> {
            corpus: &corpus,
            index: selected.iter().map(|&i| (corpus.id(i), i)).collect(),
            origin: format!("conform-{}", info.name.replace(|c: char| !c.is_ascii_alphanumeric(), "-")),
            replay: replay_context::<I>(chip, options, info),
        };
        failures.extend(matrix::add_vector_results(&mut rows, &info.name, &results, &vector_info, keep));
        timings.insert(format!("vectors/{}", info.name), t.elapsed().as_millis() as u64);
    }

    // 2. The random differential campaign of every other model against the reference.
    let streams_job = jobs.iter().find(|j| j.name == "streams").map_or(0, |j| j.cells);
    let mut campaign_info = CampaignInfo {
        seed: format!("{:#x}", options.seed),
        budget_ms: match options.limit {
            Limit::Budget(b) => b.as_millis() as u64,
            Limit::PerCell(_) => 0,
        },
        cases_per_mode: match options.limit {
            Limit::PerCell(n) => n,
            Limit::Budget(_) => 0,
        },
        cases: 0,
        streams: 0,
        streams_per_model: match options.limit {
            Limit::PerCell(n) => n * streams_job,
            Limit::Budget(_) => 0,
        },
    };
    if !jobs.is_empty() {
        for (m, (implementation, info)) in models.iter().enumerate() {
            if !has_campaign(m, implementation) {
                continue;
            }
            if stop() {
                skipped.push(format!("the {name} random campaign on {}", info.name));
                continue;
            }
            let t = Instant::now();
            let replay = replay_context::<I>(chip, options, info);
            let replay_line = |id: &str| replay.line(id, true);
            // The campaign's part of the model's share, per job.
            let whole = share_of(true);
            let share = |job: &Job, count: u64| -> Range<u64> {
                let at = jobs.iter().position(|j| j.name == job.name).unwrap_or(0);
                let offset = vectors + job_counts[..at].iter().sum::<u64>();
                let start = whole.start.saturating_sub(offset).min(count);
                let end = whole.end.saturating_sub(offset).min(count);
                start..end
            };
            let config = CampaignConfig {
                seed: options.seed,
                limit: options.limit,
                jobs: jobs.clone(),
                keep_failures: keep,
                strictness: options.strictness,
                parallel: !implementation.is_external(),
                share: options.shard.is_some().then_some(&share as campaign::Share<'_>),
                replay: &replay_line,
            };
            let phase = observer.phase(jobs.len() as u64, &format!("{name} random: {}", info.name));
            let budget = matches!(options.limit, Limit::Budget(_));
            let result =
                campaign::run::<I>(implementation.model(), &info.name, chip, &config, &|p| match p {
                    Progress::Case { job, n } => {
                        if n == 1 {
                            phase.message(job.to_string());
                        }
                        // Stop on an interruption; and stop spending a time budget on a DUT given up
                        // on (counted campaigns record every case, as an error, so the counts stay
                        // exact).
                        if stop() || (budget && implementation.given_up().is_some()) {
                            ControlFlow::Break(())
                        } else {
                            ControlFlow::Continue(())
                        }
                    }
                    Progress::JobDone { .. } => {
                        phase.inc(1);
                        ControlFlow::Continue(())
                    }
                });
            let per_s = (result.cases + result.streams) as f64 / t.elapsed().as_secs_f64().max(1e-9);
            phase.finish(format!("{} cases, {} streams ({per_s:.0} cases/s)", result.cases, result.streams));
            if stop() {
                skipped.push(format!("the rest of the {name} random campaign on {}", info.name));
            }
            campaign_info.cases += result.cases;
            campaign_info.streams += result.streams;
            matrix::add_campaign(&mut rows, &info.name, &result.cells, &result.reasons_by_cell);
            tallies.entry(info.name.clone()).or_default().merge(&result.tally);
            failures.extend(result.failures);
            random_cases.extend(result.records.into_iter().map(|(_, record)| record));
            timings.insert(format!("random/{}", info.name), t.elapsed().as_millis() as u64);
        }
    }

    // 3. What the instruction set adds to the section (on the first shard only: it is not cut).
    let mut extensions = serde_json::Map::new();
    if options.shard.is_none_or(|s| s.is_first()) {
        if stop() {
            skipped.push(format!("the {name} extensions of the report"));
        } else {
            for (key, value, ms) in I::chip_extensions(chip, &corpus, selection, options.seed, &stop) {
                if let Some(ms) = ms {
                    timings.insert(key.clone(), ms);
                }
                extensions.insert(key, value);
            }
        }
    }
    timings.insert("total".to_string(), started.elapsed().as_millis() as u64);

    // `--only` narrows the matrix to the rows it names and the rows a selected case reached.
    if selection.is_restricted() {
        rows.retain(|r| {
            selection.selects(&r.instruction) || r.per_model.values().any(|c| *c != Counts::default())
        });
    }
    let coverage: Vec<ModelCoverage> = models
        .iter()
        .map(|(_, info)| {
            let tally = tallies.get(&info.name).cloned().unwrap_or_default();
            matrix::coverage(&rows, &info.name, vectors_of.get(&info.name).copied().unwrap_or(0), &tally)
        })
        .collect();
    let reasons: Vec<ReasonEntry> = models
        .iter()
        .flat_map(|(_, info)| tallies.get(&info.name).map(|t| t.entries(&info.name)).unwrap_or_default())
        .collect();
    let in_corpus = corpus_info.vectors;
    // The vectors of the run (of a shard: its reference's share, so the shards' counts add up).
    corpus_info.vectors =
        share_of(false).end.min(vectors) as usize - share_of(false).start.min(vectors) as usize;
    cases.extend(random_cases);
    let totals = matrix::totals(&rows);
    let failures_total =
        totals.values().map(|c| c.failed + c.errors + c.random_failures + c.random_errors).sum();
    let report = ChipReport {
        isa: I::NAME.to_string(),
        arch: name,
        spec: I::spec(chip),
        corpus: corpus_info,
        campaign: campaign_info,
        strictness: if I::NON_CONTRACTUAL { options.strictness } else { Strictness::Architecture }
            .name()
            .to_string(),
        models: models.iter().map(|(_, i)| i.clone()).collect(),
        totals,
        matrix: rows,
        failures,
        failure_cap: options.keep_failures.map(|n| n as u64),
        failures_total,
        cases,
        extensions,
        coverage,
        reasons,
        timings_ms: timings,
    };
    let given_up = models.iter().filter_map(|(m, i)| m.given_up().map(|why| (i.name.clone(), why))).collect();
    let notes = SectionNotes { given_up, in_corpus, regression_file: I::regression_file(chip) };
    Ok(ChipRun { report, notes, skipped })
}

/// What `--replay` names: a golden vector, or case `index` of a campaign job.
enum Target<'a> {
    Vector(usize),
    Random(Job, u64, &'a str),
}

/// Replays case `id` on `chip` with `models` ([`implementations`]): every model runs it, each
/// verdict is written to `out` with what differs, then a regression vector to paste into the
/// instruction set's vector files. Returns whether some model failed it. An id that names no
/// vector of the corpus and no case of the campaign is an error.
pub fn replay<I: DutIsa>(
    chip: I::Chip,
    options: &Options,
    models: &[(Implementation<'_, I>, ModelInfo)],
    id: &str,
    out: &mut String,
) -> Result<bool, String> {
    let name = I::chip_name(chip);
    let mut corpus = None;
    let target = match campaign::parse_case_id(id) {
        Some(parsed) => {
            let (job_name, index) = parsed.map_err(|e| format!("--replay: {e}"))?;
            let jobs = I::jobs(chip);
            let job =
                jobs.iter().find(|j| j.name.eq_ignore_ascii_case(job_name)).cloned().ok_or_else(|| {
                    format!(
                        "--replay: `{job_name}` is not a job of the {} {name} campaign (they are {})",
                        I::NAME,
                        jobs.iter().map(|j| j.name.as_str()).collect::<Vec<_>>().join(", ")
                    )
                })?;
            Target::Random(job, index, id)
        }
        None => {
            let loaded = corpus.insert(I::load(chip, options.vectors.as_deref())?);
            let i = (0..loaded.len())
                .find(|&i| loaded.id(i) == id)
                .ok_or_else(|| format!("--replay: no {} {name} vector `{id}`", I::NAME))?;
            Target::Vector(i)
        }
    };
    let (case, snippet) = match (&target, &corpus) {
        (Target::Vector(i), Some(corpus)) => {
            let c = corpus.case(*i, options.strictness)?;
            (c, corpus.snippet(*i, "replay"))
        }
        (Target::Vector(_), None) => return Err("--replay: the corpus was not loaded".to_string()),
        (Target::Random(job, index, id), _) => {
            let mut c = I::job_case(chip, options.seed, job, *index, options.strictness)
                .ok_or_else(|| format!("--replay: the campaign draws no case {index} of {}", job.name))?;
            c.id = id.to_string();
            (c, I::job_snippet(chip, options.seed, job, *index, "replay"))
        }
    };
    let _ = writeln!(out, "{} on {} {name} ({} word(s))", case.id, I::NAME, case.program.len());
    for &w in &case.program {
        let text = I::disassemble(chip, w).unwrap_or_else(|e| format!("(invalid: {e})"));
        let _ = writeln!(out, "  {}  {text}", I::word_hex(w));
    }
    let mut divergent = false;
    for (implementation, info) in models {
        match run_case(implementation.model(), chip, &case).status {
            Status::Pass => {
                let _ = writeln!(out, "{}: pass", info.name);
            }
            Status::Unsupported(why) => {
                let _ = writeln!(out, "{}: unsupported ({why})", info.name);
            }
            Status::NotApplicable(why) => {
                let _ = writeln!(out, "{}: not applicable ({why})", info.name);
            }
            Status::Interrupted => {
                let _ = writeln!(out, "{}: interrupted before it answered", info.name);
                return Err("interrupted".to_string());
            }
            Status::Error(e) => {
                divergent = true;
                let _ = writeln!(out, "{}: error: {e}", info.name);
            }
            Status::Fail(f) => {
                divergent = true;
                let _ = writeln!(out, "{}: FAIL\n{}", info.name, f.report);
            }
        }
    }
    let _ = writeln!(out, "\n# regression vector (paste under `vectors:` in {}):", I::regression_file(chip));
    out.push_str(&snippet);
    Ok(divergent)
}

/// A failure entry's phase, for merging shards: whether it came from the vectors.
pub fn is_vector_failure(f: &FailureEntry) -> bool {
    campaign::parse_case_id(&f.id).is_none()
}
