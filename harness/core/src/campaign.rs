//! The seeded random differential campaign, for any instruction set: random cases of every job
//! ([`Job`]: an instruction or an axis of classes, and the random streams) run on a candidate
//! model and compared with the reference model's result, the way golden vectors are.
//!
//! Case `n` of a job is drawn by the instruction set from the campaign's seed, the chip, the job
//! and `n` alone ([`Isa::job_case`]), so it is the same on every run and machine, and replaying
//! it by its id (`random/<job>/<n>`) costs the same for every `n`. Case numbers run from 0 to
//! [`MAX_CASES`] - 1.
//!
//! By default ([`Limit::PerCell`]) a campaign runs a fixed number of cases of every cell: cases
//! `0 .. n * cells` of each job, so two runs with the same options check exactly the same cases.
//! [`Limit::Budget`] instead runs as many cases as fit in a time budget per job (for overnight
//! runs; not reproducible in count).
//!
//! A counted job is cut into chunks of consecutive cases ([`CHUNK`]), run in parallel a window at
//! a time; each chunk's cases are folded into a result as they finish and the chunks' results
//! are merged in case order, so nothing depends on the timing, and memory does not grow with the
//! number of cases. A case the candidate declines (`unsupported`) is counted apart: it is neither
//! run nor compared, so it never counts as a pass.

use std::collections::BTreeMap;
use std::ops::{ControlFlow, Range};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

use rayon::prelude::*;

use crate::check::Status;
use crate::isa::{Cell, Isa, Job, Model, Strictness};
use crate::matrix::{CellCounts, Tally};
use crate::report::{CaseRecord, FailureEntry};
use crate::rng::Rng;
use crate::vectors::{VectorCase, run_case};

/// How many cases a campaign runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    /// `n` cases of every cell: cases `0 .. n * cells` of every job (the same cases on every run).
    PerCell(u64),
    /// As many cases as fit in this time per job, at most [`MAX_CASES`]: more cases on a faster
    /// machine.
    Budget(Duration),
}

impl Limit {
    /// Whether the limit runs no case at all (`--cases 0`, `--budget 0`).
    pub fn is_none(self) -> bool {
        matches!(self, Limit::PerCell(0)) || self == Limit::Budget(Duration::ZERO)
    }
}

/// The default number of random cases per cell of `conform`.
pub const DEFAULT_CASES_PER_CELL: u64 = 64;

/// The number of cases a campaign job can number: case ids run from `0` to `MAX_CASES - 1`.
pub const MAX_CASES: u64 = 1 << 32;

/// Cases per chunk of a counted job: the unit of parallel work (and of a shard's share of a job).
pub const CHUNK: u64 = 512;

/// Chunks run in parallel at a time, per thread of the pool: each window's results are folded
/// into the total, in case order, before the next window starts, so that a long campaign holds
/// only a window's results at once. Sixteen chunks per thread keep the threads' idle time at the
/// end of a window small.
const WINDOW_PER_THREAD: usize = 16;

/// The id of case `index` of job `job`.
pub fn case_id(job: &str, index: u64) -> String {
    format!("random/{job}/{index}")
}

/// Parses a [`case_id`]: (job, index); `None` for anything else (a vector id), and an error for
/// an id that starts like a random one but is not.
pub fn parse_case_id(id: &str) -> Option<Result<(&str, u64), String>> {
    let rest = id.strip_prefix("random/")?;
    let Some((job, n)) = rest.rsplit_once('/') else {
        return Some(Err(format!("expected random/<JOB>/<n>, got `{id}`")));
    };
    Some(match n.parse::<u64>() {
        Ok(n) if n < MAX_CASES => Ok((job, n)),
        Ok(n) => Err(format!("case {n} is out of range: the campaign numbers cases 0 to {}", MAX_CASES - 1)),
        Err(_) => {
            Err(format!("`{n}` is not a case number (the campaign numbers cases 0 to {})", MAX_CASES - 1))
        }
    })
}

/// One job per distinct row of `I`'s [`Isa::cells`] on `chip` (in order of first appearance),
/// covering that row's cells: the jobs of an instruction set whose random cases are drawn per
/// cell by [`Isa::random_case`] ([`cell_job_case`] draws them).
pub fn cell_jobs<I: Isa>(chip: I::Chip) -> Vec<Job> {
    let mut jobs: Vec<Job> = Vec::new();
    for cell in I::cells(chip) {
        match jobs.iter_mut().find(|j| j.name == cell.instruction) {
            Some(job) => job.cells += 1,
            None => jobs.push(Job { name: cell.instruction, cells: 1 }),
        }
    }
    jobs
}

/// Case `index` of a job of [`cell_jobs`]: in the job's cell number `index % m` (of its `m`), the
/// `index / m`-th case of that cell, drawn by [`Isa::random_case`] from a generator seeded by the
/// seed and the cell's case id (`<isa>/<chip>/random/<cell>/<n>`, the cell numbered in the chip's
/// [`Isa::cells`]) alone; what it expects is the reference model's result. `None` when the job
/// names no row or the cell has no random case. `cells` is the chip's [`Isa::cells`] (made once by
/// the caller: a campaign asks for one case at a time).
pub fn cell_job_case<I: Isa>(
    chip: I::Chip,
    cells: &[Cell],
    seed: u64,
    job: &Job,
    index: u64,
) -> Option<VectorCase<I>> {
    let in_job: Vec<usize> = (0..cells.len()).filter(|&i| cells[i].instruction == job.name).collect();
    if in_job.is_empty() {
        return None;
    }
    let m = in_job.len() as u64;
    let cell = in_job[(index % m) as usize];
    let n = index / m;
    let id = format!("{}/{}/random/{cell}/{n}", I::NAME, I::chip_name(chip));
    let mut rng = Rng::stream(seed, &id);
    let (pre, program) = I::random_case(chip, &cells[cell], &mut rng)?;
    let run = I::reference().run(chip, &pre, &program).ok()?;
    Some(VectorCase {
        id,
        file: cells[cell].instruction.clone(),
        mode: Some(cells[cell].mode.clone()),
        pre,
        program,
        expected: run.post,
        outcome: run.outcome,
        skip: Default::default(),
        tainted: false,
        meta: Default::default(),
    })
}

/// How many cases of `job` a campaign with `limit` numbers; `None` when the time budget decides.
pub fn job_cases(limit: Limit, job: &Job) -> Option<u64> {
    match limit {
        Limit::PerCell(n) => Some(n.saturating_mul(job.cells).min(MAX_CASES)),
        Limit::Budget(_) => None,
    }
}

/// A shard's share of a job's cases: from the job and its number of cases, the numbers to run.
pub type Share<'a> = &'a (dyn Fn(&Job, u64) -> Range<u64> + Sync);

/// What to run.
pub struct CampaignConfig<'a> {
    /// The seed.
    pub seed: u64,
    /// How many cases.
    pub limit: Limit,
    /// The jobs to run, in order.
    pub jobs: Vec<Job>,
    /// At most this many failures are kept per cell.
    pub keep_failures: usize,
    /// How to compare.
    pub strictness: Strictness,
    /// Run the chunks in parallel. An external implementation runs one case at a time anyway;
    /// giving it the cases one after the other keeps their order fixed.
    pub parallel: bool,
    /// Of each job's cases, only these numbers (a shard's share); `None`: all.
    pub share: Option<Share<'a>>,
    /// The one-line command that replays a case, from its id.
    pub replay: &'a (dyn Fn(&str) -> String + Sync),
}

/// What [`run`] reports to its caller while it runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Progress<'a> {
    /// A case of job `job` finished; `n` cases of it so far.
    Case {
        /// The job.
        job: &'a str,
        /// Cases of the job so far.
        n: u64,
    },
    /// Job `job` is over after `n` cases.
    JobDone {
        /// The job.
        job: &'a str,
        /// Its cases.
        n: u64,
    },
}

/// What a campaign found.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CampaignResult {
    /// Per (row, mode) cell.
    pub cells: BTreeMap<(String, String), CellCounts>,
    /// The failures kept, with replay commands and regression snippets.
    pub failures: Vec<FailureEntry>,
    /// Cases drawn from jobs other than the streams and given to the candidate (declined ones
    /// included).
    pub cases: u64,
    /// Streams drawn and given to the candidate (declined ones included).
    pub streams: u64,
    /// Cases drawn but not given to the candidate (its declaration does not cover them).
    pub not_applicable: u64,
    /// The reasons for declined cases and the errors, with example ids.
    pub tally: Tally,
    /// Per cell, the first reason a case of it was not checked.
    pub reasons_by_cell: BTreeMap<(String, String), String>,
    /// The records of the cases that did not pass, in case order, each with its cell (at most
    /// `keep` per cell, as the failures).
    pub records: Vec<((String, String), CaseRecord)>,
}

/// Appends to `kept` the items of `later`, in order, that a cap of `keep` per cell still allows:
/// an item's cell is `cell_of(item)`, and `before(cell)` of the cell's are counted already.
fn append_capped<T>(
    kept: &mut Vec<T>,
    later: Vec<T>,
    keep: usize,
    cell_of: impl Fn(&T) -> (String, String),
    before: impl Fn(&(String, String)) -> u64,
) {
    let mut room: BTreeMap<(String, String), u64> = BTreeMap::new();
    for item in later {
        let left =
            room.entry(cell_of(&item)).or_insert_with_key(|cell| (keep as u64).saturating_sub(before(cell)));
        if *left > 0 {
            *left -= 1;
            kept.push(item);
        }
    }
}

/// The cases of a cell that did not pass.
fn not_passed(c: &CellCounts) -> u64 {
    c.failures + c.errors + c.unsupported + c.not_applicable
}

/// One case's outcome, folded into its chunk's [`CampaignResult`] as soon as it is known.
pub struct Checked<L> {
    /// Its cell.
    pub cell: (String, String),
    /// What happened.
    pub status: Status<L>,
    /// Its id.
    pub id: String,
    /// Its regression vector, if it failed.
    pub snippet: Option<String>,
    /// Whether it is a random stream.
    pub is_stream: bool,
}

impl CampaignResult {
    /// Folds in case `c`, the next in case order, keeping at most `keep` failures (and errors)
    /// per cell: the first ones. `replay` makes a failure's replay command from its id.
    pub fn add_case<L>(&mut self, c: Checked<L>, model: &str, keep: usize, replay: &dyn Fn(&str) -> String) {
        if matches!(c.status, Status::Interrupted) {
            return; // not done: the interruption's account says so
        }
        self.tally.record(&c.id, &c.status, false);
        if let Some(why) = c.status.reason() {
            self.reasons_by_cell.entry(c.cell.clone()).or_insert(why);
        }
        let record = if matches!(c.status, Status::Pass) {
            None
        } else {
            crate::matrix::case_record(model, &c.id, &c.status)
        };
        let cell = self.cells.entry(c.cell.clone()).or_default();
        if let Some(record) = record
            && not_passed(cell) < keep as u64
        {
            self.records.push((c.cell.clone(), record));
        }
        if matches!(c.status, Status::NotApplicable(_)) {
            cell.not_applicable += 1;
            self.not_applicable += 1;
            return;
        }
        if matches!(c.status, Status::Unsupported(_)) {
            cell.unsupported += 1;
        } else {
            cell.cases += 1;
        }
        // A divergence gets a regression vector; a case the candidate failed to run is an error,
        // kept with its message but with no snippet (nothing is known to be wrong).
        let failed = match c.status {
            Status::Pass | Status::Unsupported(_) | Status::NotApplicable(_) | Status::Interrupted => None,
            Status::Fail(f) => {
                cell.failures += 1;
                Some(("random", f.report, c.snippet.unwrap_or_default()))
            }
            Status::Error(e) => {
                cell.errors += 1;
                Some(("error", format!("{}: {e}", c.id), String::new()))
            }
        };
        if let Some((kind, details, snippet)) = failed
            && (cell.failures + cell.errors) as usize <= keep
        {
            self.failures.push(FailureEntry {
                model: model.to_string(),
                instruction: c.cell.0,
                mode: c.cell.1,
                replay: replay(&c.id),
                id: c.id,
                kind: kind.to_string(),
                details,
                snippet,
            });
        }
        if c.is_stream {
            self.streams += 1;
        } else {
            self.cases += 1;
        }
    }

    /// Folds in `later`, the result of the cases that follow this one's, as if its cases had been
    /// added here one by one: counts add up, first reasons and examples stay first, and of
    /// `later`'s kept failures a cell keeps only as many as its `keep` still allows.
    pub fn absorb(&mut self, later: CampaignResult, keep: usize) {
        let cells = &self.cells;
        append_capped(
            &mut self.records,
            later.records,
            keep,
            |(key, _)| key.clone(),
            |key| cells.get(key).map_or(0, not_passed),
        );
        append_capped(
            &mut self.failures,
            later.failures,
            keep,
            |f| (f.instruction.clone(), f.mode.clone()),
            |key| cells.get(key).map_or(0, |c| c.failures + c.errors),
        );
        for (key, counts) in later.cells {
            let c = self.cells.entry(key).or_default();
            c.cases += counts.cases;
            c.failures += counts.failures;
            c.errors += counts.errors;
            c.unsupported += counts.unsupported;
            c.not_applicable += counts.not_applicable;
        }
        for (key, why) in later.reasons_by_cell {
            self.reasons_by_cell.entry(key).or_insert(why);
        }
        self.tally.merge(&later.tally);
        self.cases += later.cases;
        self.streams += later.streams;
        self.not_applicable += later.not_applicable;
    }
}

/// The snippet origin of a campaign with `seed` (`campaign-5f9c0de5`): where a regression vector
/// found by it came from.
pub fn origin(seed: u64) -> String {
    format!("campaign-{:08x}", seed as u32)
}

/// Runs the campaign of `config` on `candidate` on `chip`, whose failures are filed under `model`
/// (its column in the report: `fastpath`, `dut`, `dut2`, ...).
///
/// `progress` is told of every finished case and of every finished job. After a case, a
/// [`ControlFlow::Break`] from it ends that job: the caller's way to stop on an interruption, or to
/// stop spending a time budget on a candidate that was given up on. Jobs run at most
/// [`MAX_CASES`] cases.
pub fn run<I: Isa>(
    candidate: &dyn Model<I>,
    model: &str,
    chip: I::Chip,
    config: &CampaignConfig<'_>,
    progress: &(dyn Fn(Progress<'_>) -> ControlFlow<()> + Sync),
) -> CampaignResult {
    let origin = origin(config.seed);
    let keep = config.keep_failures;
    let jobs = &config.jobs;
    // (job, first case, end) in job order, then case order.
    let mut chunks: Vec<(usize, u64, u64)> = Vec::new();
    for (j, job) in jobs.iter().enumerate() {
        let all = match job_cases(config.limit, job) {
            Some(count) => 0..count,
            None => 0..MAX_CASES,
        };
        let Range { start: first, end } = match config.share {
            Some(share) => {
                let s = share(job, all.end);
                s.start.max(all.start)..s.end.min(all.end)
            }
            None => all,
        };
        if job_cases(config.limit, job).is_none() {
            chunks.push((j, first, end));
            continue;
        }
        let mut start = first;
        while start < end {
            chunks.push((j, start, (start + CHUNK).min(end)));
            start += CHUNK;
        }
        if first >= end {
            chunks.push((j, first, first));
        }
    }
    let stopped: Vec<AtomicBool> = jobs.iter().map(|_| AtomicBool::new(false)).collect();
    let done: Vec<AtomicU64> = jobs.iter().map(|_| AtomicU64::new(0)).collect();
    let remaining: Vec<Mutex<usize>> =
        (0..jobs.len()).map(|j| Mutex::new(chunks.iter().filter(|c| c.0 == j).count())).collect();
    let one_chunk = |&(j, start, end): &(usize, u64, u64)| -> CampaignResult {
        let job = &jobs[j];
        let is_stream = job.name == "streams";
        let started = Instant::now();
        let in_time = || match config.limit {
            Limit::Budget(budget) => started.elapsed() < budget,
            Limit::PerCell(_) => true,
        };
        let mut out = CampaignResult::default();
        let mut index = start;
        while index < end && in_time() && !stopped[j].load(Ordering::SeqCst) {
            let id = case_id(&job.name, index);
            let status_of = match I::job_case(chip, config.seed, job, index, config.strictness) {
                Some(mut case) => {
                    case.id = id.clone();
                    let r = run_case(candidate, chip, &case);
                    Some((r.status, case.file, case.mode))
                }
                None => None,
            };
            if let Some((Status::Interrupted, _, _)) = status_of {
                // The run is being interrupted: this case did not complete, and no other starts.
                stopped[j].store(true, Ordering::SeqCst);
                break;
            }
            if let Some((status, file, mode)) = status_of {
                let snippet = matches!(status, Status::Fail(_))
                    .then(|| I::job_snippet(chip, config.seed, job, index, &origin));
                let cell = (file, mode.unwrap_or_else(|| "-".to_string()));
                out.add_case(Checked { cell, status, id, snippet, is_stream }, model, keep, config.replay);
            }
            index += 1;
            let n = done[j].fetch_add(1, Ordering::SeqCst) + 1;
            if progress(Progress::Case { job: &job.name, n }).is_break() {
                stopped[j].store(true, Ordering::SeqCst);
            }
        }
        let last = {
            let mut left = remaining[j].lock().unwrap_or_else(PoisonError::into_inner);
            *left -= 1;
            *left == 0
        };
        if last {
            let _ = progress(Progress::JobDone { job: &job.name, n: done[j].load(Ordering::SeqCst) });
        }
        out
    };
    let window = if config.parallel { WINDOW_PER_THREAD * rayon::current_num_threads().max(1) } else { 1 };
    let mut total = CampaignResult::default();
    for w in chunks.chunks(window) {
        let parts: Vec<CampaignResult> = if config.parallel {
            w.par_iter().map(one_chunk).collect()
        } else {
            w.iter().map(one_chunk).collect()
        };
        for part in parts {
            total.absorb(part, keep);
        }
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::{Failure, NotApplicable};

    /// A random sequence of case outcomes over five cells: passes, failures, errors, declined
    /// and not-applicable cases, with distinct ids and reasons.
    fn outcomes(seed: u64, n: usize) -> Vec<Checked<()>> {
        let mut rng = Rng::stream(seed, "campaign/absorb");
        (0..n)
            .map(|i| {
                let cell = rng.below(5);
                let status = match rng.below(10) {
                    0..=3 => Status::Pass,
                    4..=6 => Status::Fail(Box::new(Failure {
                        differing: (),
                        outcome_differs: true,
                        report: format!("report {i}"),
                    })),
                    7 => Status::Error(format!("error {}", rng.below(3))),
                    8 => Status::Unsupported(format!("declined {}", rng.below(3))),
                    _ => Status::NotApplicable(Box::new(NotApplicable {
                        missing: vec![format!("feature-{}", rng.below(2))],
                        refused: vec![],
                    })),
                };
                Checked {
                    cell: (format!("OP{cell}"), format!("mode={}", rng.below(2))),
                    snippet: matches!(status, Status::Fail(_)).then(|| format!("snippet {i}")),
                    status,
                    id: format!("random/OP{cell}/{i}"),
                    is_stream: cell == 4,
                }
            })
            .collect()
    }

    fn replay(id: &str) -> String {
        format!("replay {id}")
    }

    /// Folding a run's cases chunk by chunk and merging the chunks' results in order gives what
    /// folding them one by one gives, for any cut into chunks: the same counts, reasons and
    /// examples, and per cell the same first `keep` failures (what lets a campaign hold only a
    /// window of chunks' results at once, and shards' results merge into one run's).
    #[test]
    fn merging_chunk_results_in_order_is_folding_case_by_case() {
        for (seed, keep) in [(1, 2), (2, 3), (3, 0), (4, 50)] {
            let all = || outcomes(seed, 700);
            let mut whole = CampaignResult::default();
            for c in all() {
                whole.add_case(c, "dut", keep, &replay);
            }
            assert!(whole.failures.len() >= keep.min(5), "the sample fails often enough");
            let mut rng = Rng::stream(seed, "campaign/absorb/cuts");
            for cut in [1usize, 2, 7, 64, 699, 700, 0] {
                let mut merged = CampaignResult::default();
                let mut part = CampaignResult::default();
                for (i, c) in all().into_iter().enumerate() {
                    // Cut 0: chunks of random sizes, some empty.
                    let end = if cut == 0 { rng.below(8) == 0 } else { i % cut == 0 };
                    if end {
                        merged.absorb(std::mem::take(&mut part), keep);
                        if cut == 0 && rng.below(3) == 0 {
                            merged.absorb(CampaignResult::default(), keep);
                        }
                    }
                    part.add_case(c, "dut", keep, &replay);
                }
                merged.absorb(part, keep);
                assert_eq!(
                    format!("{merged:?}"),
                    format!("{whole:?}"),
                    "seed {seed}, keep {keep}, cut {cut}"
                );
            }
        }
    }

    #[test]
    fn case_ids_parse_back() {
        assert_eq!(parse_case_id(&case_id("SFPMAD", 12)), Some(Ok(("SFPMAD", 12))));
        assert_eq!(parse_case_id("random/streams/0"), Some(Ok(("streams", 0))));
        assert_eq!(parse_case_id("SFPMAD/mod1=0/specials"), None);
        assert!(matches!(parse_case_id("random/SFPMAD"), Some(Err(_))));
        assert!(matches!(parse_case_id("random/SFPMAD/x"), Some(Err(_))));
        assert!(matches!(parse_case_id("random/SFPMAD/4294967296"), Some(Err(_))));
        assert_eq!(parse_case_id("random/SFPMAD/4294967295"), Some(Ok(("SFPMAD", 4_294_967_295))));
    }

    #[test]
    fn job_case_counts() {
        let job = Job { name: "SFPCONFIG".into(), cells: 256 };
        assert_eq!(job_cases(Limit::PerCell(3), &job), Some(768));
        assert_eq!(job_cases(Limit::PerCell(u64::MAX), &job), Some(MAX_CASES));
        assert_eq!(job_cases(Limit::Budget(Duration::from_secs(1)), &job), None);
        assert!(Limit::PerCell(0).is_none() && Limit::Budget(Duration::ZERO).is_none());
        assert!(!Limit::PerCell(1).is_none());
    }
}
