//! The seeded random differential campaign: random cases of every instruction (and random
//! instruction streams) run on the reference and on a candidate model, compared the way golden
//! vectors are.
//!
//! Case `n` of an instruction is in the instruction's mode value number `n % m` (of its `m` mode
//! values, [`modes`](crate::generate::modes) order) and is drawn from a generator seeded by the campaign's seed, the
//! instruction and `n` alone, so it is the same on every run and machine, and replaying it by its
//! id (`random/SFPMAD/1234`) and the seed costs the same for every `n`. Case numbers run from 0
//! to [`MAX_CASES`] - 1.
//!
//! By default ([`Limit::PerMode`]) a campaign runs a fixed number of cases of every (instruction,
//! mode value): cases `0 .. n * m` of each instruction, and `STREAMS_PER_CASE * n` streams, so two
//! runs with the same options check exactly the same cases. [`Limit::Budget`] instead runs as many
//! cases as fit in a time budget per instruction (for overnight runs; not reproducible in count).
//!
//! A case the candidate declines (`unsupported`) is counted apart: it is neither run nor
//! compared, so it never counts as a pass.

use std::collections::BTreeMap;
use std::ops::ControlFlow;
use std::time::{Duration, Instant};

use rayon::prelude::*;
use sfpu_reference::isa::{Arch, Opcode};

use harness_core::report::FailureEntry;
use crate::generate::operands::Rng;
use crate::generate::streams::random_stream_for;
use crate::generate::{Case, mode_table_for, random_case_in_mode_for, to_vector};
use crate::model::Model;
use crate::report::{Tally, status_reason};
use crate::vectors::emit::write_file;
use crate::vectors::{FORMAT, Status, Strictness, Vector, VectorFile, run_vector};

/// How many cases a campaign runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    /// `n` cases of every mode value of every instruction (cases `0 .. n * m` of an instruction
    /// with `m` mode values), and [`STREAMS_PER_CASE`]` * n` streams: the same cases on every run.
    PerMode(u64),
    /// As many cases as fit in this time per instruction (the streams get the time of one
    /// instruction), at most [`MAX_CASES`]: more cases on a faster machine.
    Budget(Duration),
}

/// With [`Limit::PerMode`]`(n)`, the campaign runs this many streams per `n`.
pub const STREAMS_PER_CASE: u64 = 16;

/// The default number of random cases per (instruction, mode value) of `cargo xtask conform`:
/// 54,592 single-instruction cases and 1,024 streams over Blackhole's 853 mode values, about 3 s
/// of the fast model's time on 2 cores.
pub const DEFAULT_CASES_PER_MODE: u64 = 64;

/// What to run.
#[derive(Clone, Debug)]
pub struct CampaignConfig {
    /// The chip the cases are for.
    pub arch: Arch,
    /// The seed.
    pub seed: u64,
    /// How many cases.
    pub limit: Limit,
    /// The instructions to exercise.
    pub opcodes: Vec<Opcode>,
    /// Whether to also run random streams.
    pub streams: bool,
    /// At most this many failures are kept per (instruction, mode) cell.
    pub keep_failures: usize,
    /// How to compare.
    pub strictness: Strictness,
    /// Run the jobs (one per instruction, one for the streams) in parallel. An external
    /// implementation runs one case at a time anyway; giving it the jobs one after the other keeps
    /// the order of its cases fixed.
    pub parallel: bool,
}

/// What [`run`] reports to its caller while it runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Progress<'a> {
    /// A case of job `job` (an instruction's name, or `streams`) finished; `n` cases of it so far.
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

/// The number of cases a campaign job can number: case ids run from `0` to `MAX_CASES - 1`.
pub const MAX_CASES: u64 = 1 << 32;

pub use harness_core::check::CellCounts;

/// What a campaign found.
#[derive(Clone, Debug, Default)]
pub struct CampaignResult {
    /// Per (instruction, mode) cell; streams are under `("streams", "-")`.
    pub cells: BTreeMap<(String, String), CellCounts>,
    /// The failures kept, with replay commands and regression snippets.
    pub failures: Vec<FailureEntry>,
    /// Single-instruction cases drawn and given to the candidate (declined ones included).
    pub cases: u64,
    /// Streams drawn and given to the candidate (declined ones included).
    pub streams: u64,
    /// Cases and streams drawn but not given to the candidate (its declaration does not cover
    /// them).
    pub not_applicable: u64,
    /// The reasons for declined cases and the errors, with example ids.
    pub tally: Tally,
    /// Per cell, the first reason a case of it was not checked.
    pub reasons_by_cell: BTreeMap<(String, String), String>,
}

/// The id of case `index` of `op` (or of the streams).
pub fn case_id(name: &str, index: u64) -> String {
    format!("random/{name}/{index}")
}

/// Case `index` of instruction `op` for `seed`: the same case every time, drawn in constant time
/// from a generator of its own, in the mode value number `index % m` of the instruction's `m`.
pub fn nth_case(seed: u64, op: Opcode, index: u64) -> Case {
    nth_case_for(Arch::Blackhole, seed, op, index)
}

/// [`nth_case`] on `arch` (Blackhole's random streams are named without the chip, as in a
/// one-chip run, so its case ids and their cases stay the same; Wormhole's add the chip to the
/// stream name).
pub fn nth_case_for(arch: Arch, seed: u64, op: Opcode, index: u64) -> Case {
    let name = match arch {
        Arch::Blackhole => format!("campaign/{}/{index}", op.name()),
        Arch::Wormhole => format!("campaign/{arch}/{}/{index}", op.name()),
    };
    let mut rng = Rng::stream(seed, &name);
    let m = mode_table_for(arch, op).len().max(1) as u64;
    random_case_in_mode_for(arch, op, (index % m) as usize, &mut rng)
}

/// How many cases of `op` (or, for `None`, streams) a campaign with `limit` numbers; `None` when
/// the time budget decides.
pub fn job_cases(limit: Limit, op: Option<Opcode>) -> Option<u64> {
    job_cases_for(Arch::Blackhole, limit, op)
}

/// [`job_cases`] on `arch`.
pub fn job_cases_for(arch: Arch, limit: Limit, op: Option<Opcode>) -> Option<u64> {
    match limit {
        Limit::PerMode(n) => Some(match op {
            Some(op) => n.saturating_mul(mode_table_for(arch, op).len() as u64).min(MAX_CASES),
            None => n.saturating_mul(STREAMS_PER_CASE).min(MAX_CASES),
        }),
        Limit::Budget(_) => None,
    }
}

/// Stream `index` for `seed`, drawn in constant time like [`nth_case`].
pub fn nth_stream(seed: u64, index: u64) -> Case {
    nth_stream_for(Arch::Blackhole, seed, index)
}

/// [`nth_stream`] on `arch`.
pub fn nth_stream_for(arch: Arch, seed: u64, index: u64) -> Case {
    let name = match arch {
        Arch::Blackhole => format!("campaign/streams/{index}"),
        Arch::Wormhole => format!("campaign/{arch}/streams/{index}"),
    };
    let mut rng = Rng::stream(seed, &name);
    let len = 1 + rng.below(64) as usize;
    random_stream_for(arch, &mut rng, len, None)
}

/// `vector` as YAML exactly as the vector files write it, without the file around it: ready to
/// paste under `vectors:` in `vectors/blackhole/regressions.yaml`.
pub fn vector_yaml(vector: &Vector) -> String {
    let file = VectorFile {
        format: FORMAT.to_string(),
        arch: vector.pre.arch(),
        file: "regressions".to_string(),
        vectors: vec![vector.clone()],
    };
    let text = write_file(&file, &[]);
    match text.split_once("vectors:\n") {
        Some((_, rest)) => rest.to_string(),
        None => text,
    }
}

/// The regression snippet of a failing case: [`vector_yaml`] of the vector renamed
/// `regressions/<origin>/<id with / as ->`.
pub fn regression_snippet(vector: &Vector, origin: &str) -> String {
    let mut v = vector.clone();
    v.id = format!("regressions/{origin}/{}", vector.id.replace('/', "-"));
    vector_yaml(&v)
}

/// Runs one case on `candidate`, against the reference's expectation.
fn check(candidate: &dyn Model, id: String, case: &Case, strictness: Strictness) -> (Vector, Status) {
    let mut vector = to_vector("random", case);
    vector.id = id;
    let file = VectorFile {
        format: FORMAT.to_string(),
        arch: case.pre.arch(),
        file: "random".to_string(),
        vectors: vec![],
    };
    let status = run_vector(candidate, &file, &vector, strictness).status;
    (vector, status)
}

/// Cases per chunk of a counted job: the unit of parallel work (SFPCONFIG alone has 256 mode
/// values, so one job per instruction would leave the other cores idle).
const CHUNK: u64 = 512;

/// Chunks run in parallel at a time, per thread of the pool: each window's results are folded
/// into the total, in case order, before the next window starts, so that a long campaign holds
/// only a window's results at once (memory does not grow with `--cases` or `--budget`). Sixteen
/// chunks per thread keep the threads' idle time at the end of a window small.
const WINDOW_PER_THREAD: usize = 16;

/// One case's outcome, folded into its chunk's [`CampaignResult`] as soon as it is known.
struct Checked {
    cell: (String, String),
    status: Status,
    id: String,
    snippet: Option<String>,
    is_stream: bool,
}

impl CampaignResult {
    /// Folds in case `c`, the next in case order, keeping at most `keep` failures (and errors)
    /// per cell: the first ones.
    fn add_case(&mut self, c: Checked, model: &str, seed: u64, keep: usize) {
        self.tally.record(&c.id, &c.status, false);
        if let Some(why) = status_reason(&c.status) {
            self.reasons_by_cell.entry(c.cell.clone()).or_insert(why);
        }
        let cell = self.cells.entry(c.cell.clone()).or_default();
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
            Status::Pass | Status::Unsupported(_) | Status::NotApplicable(_) => None,
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
                replay: format!("cargo xtask conform --seed 0x{seed:x} --replay {}", c.id),
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
    fn absorb(&mut self, later: CampaignResult, keep: usize) {
        let mut room: BTreeMap<(String, String), usize> = BTreeMap::new();
        for f in later.failures {
            let key = (f.instruction.clone(), f.mode.clone());
            let left = room.entry(key).or_insert_with_key(|key| {
                let before = self.cells.get(key).map_or(0, |c| (c.failures + c.errors) as usize);
                keep.saturating_sub(before)
            });
            if *left > 0 {
                *left -= 1;
                self.failures.push(f);
            }
        }
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

/// Runs the campaign of `config` on `candidate`, whose failures are filed under `model` (its
/// column in the report: `fastpath`, `dut`, `dut2`, ...).
///
/// `progress` is told of every finished case and of every finished job. After a case, a
/// [`ControlFlow::Break`] from it ends that job: the caller's way to stop on an interruption, or to
/// stop spending a time budget on a candidate that was given up on. Jobs run at most
/// [`MAX_CASES`] cases. A counted job is run in chunks of consecutive cases, in parallel when
/// `config.parallel`, a window of chunks at a time; each chunk's cases are folded into a result
/// as they finish and the chunks' results are merged in case order, so they do not depend on the
/// timing, and memory does not grow with the number of cases.
pub fn run(
    candidate: &dyn Model,
    model: &str,
    config: &CampaignConfig,
    progress: &(dyn Fn(Progress<'_>) -> ControlFlow<()> + Sync),
) -> CampaignResult {
    use std::sync::Mutex;
    use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
    let seed_tag = format!("campaign-{:08x}", config.seed as u32);
    let keep = config.keep_failures;
    let mut jobs: Vec<Option<Opcode>> = config.opcodes.iter().copied().map(Some).collect();
    if config.streams {
        jobs.push(None);
    }
    // (job, first case, end) in job order, then case order.
    let mut chunks: Vec<(usize, u64, u64)> = Vec::new();
    for (j, job) in jobs.iter().enumerate() {
        match job_cases_for(config.arch, config.limit, *job) {
            Some(count) => {
                let mut start = 0;
                while start < count {
                    chunks.push((j, start, (start + CHUNK).min(count)));
                    start += CHUNK;
                }
                if count == 0 {
                    chunks.push((j, 0, 0));
                }
            }
            None => chunks.push((j, 0, MAX_CASES)),
        }
    }
    let stopped: Vec<AtomicBool> = jobs.iter().map(|_| AtomicBool::new(false)).collect();
    let done: Vec<AtomicU64> = jobs.iter().map(|_| AtomicU64::new(0)).collect();
    let remaining: Vec<Mutex<usize>> = jobs
        .iter()
        .enumerate()
        .map(|(j, _)| Mutex::new(chunks.iter().filter(|c| c.0 == j).count()))
        .collect();
    let one_chunk = |&(j, start, end): &(usize, u64, u64)| -> CampaignResult {
        let job = jobs[j];
        let name = job.map_or("streams", |op| op.name());
        let started = Instant::now();
        let in_time = || match config.limit {
            Limit::Budget(budget) => started.elapsed() < budget,
            Limit::PerMode(_) => true,
        };
        let mut out = CampaignResult::default();
        let mut index = start;
        while index < end && in_time() && !stopped[j].load(Ordering::SeqCst) {
            let case = match job {
                Some(op) => nth_case_for(config.arch, config.seed, op, index),
                None => nth_stream_for(config.arch, config.seed, index),
            };
            let id = case_id(name, index);
            let (vector, status) = check(candidate, id.clone(), &case, config.strictness);
            let mode = case.mode.clone().unwrap_or_else(|| "-".to_string());
            let snippet = matches!(status, Status::Fail(_)).then(|| regression_snippet(&vector, &seed_tag));
            let checked =
                Checked { cell: (name.to_string(), mode), status, id, snippet, is_stream: job.is_none() };
            out.add_case(checked, model, config.seed, keep);
            index += 1;
            let n = done[j].fetch_add(1, Ordering::SeqCst) + 1;
            if progress(Progress::Case { job: name, n }).is_break() {
                stopped[j].store(true, Ordering::SeqCst);
            }
        }
        let last = {
            let mut left = remaining[j].lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            *left -= 1;
            *left == 0
        };
        if last {
            let _ = progress(Progress::JobDone { job: name, n: done[j].load(Ordering::SeqCst) });
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

    #[test]
    fn cases_are_reproducible_by_index() {
        let a = nth_case(7, Opcode::SFPMAD, 3);
        let b = nth_case(7, Opcode::SFPMAD, 3);
        assert_eq!(a.program, b.program);
        assert_eq!(a.pre, b.pre);
        assert_ne!(a.pre, nth_case(7, Opcode::SFPMAD, 4).pre, "neighbouring cases differ");
        // Case n is in mode value n % 16 (SFPMAD's Mod1), whatever the seed.
        for n in [0u64, 5, 16, 21, 4_294_967_295] {
            let want = format!("mod1={}", n % 16);
            assert_eq!(nth_case(9, Opcode::SFPMAD, n).mode.as_deref(), Some(want.as_str()));
        }
        assert_eq!(job_cases(Limit::PerMode(3), Some(Opcode::SFPCONFIG)), Some(3 * 256));
        assert_eq!(job_cases(Limit::PerMode(3), None), Some(3 * STREAMS_PER_CASE));
        let s1 = nth_stream(7, 2);
        let s2 = nth_stream(7, 2);
        assert_eq!(s1.program, s2.program);
    }

    /// What the campaign runs as case `n` is what `nth_case(seed, op, n)` replays.
    #[test]
    fn the_campaign_runs_the_cases_replay_draws() {
        use std::sync::Mutex;
        struct Recorder(Mutex<Vec<Vec<u32>>>);
        impl harness_core::isa::Model<crate::Sfpu> for Recorder {
            fn name(&self) -> String {
                "recorder".into()
            }
            fn run(
                &self,
                arch: Arch,
                pre: &sfpu_reference::State,
                program: &[u32],
            ) -> Result<crate::Run, crate::ModelError> {
                self.0.lock().unwrap().push(program.to_vec());
                crate::Reference.run(arch, pre, program)
            }
        }
        let rec = Recorder(Mutex::new(Vec::new()));
        let mut config = config(Limit::PerMode(1));
        config.opcodes = vec![Opcode::SFPIADD];
        config.streams = false;
        let r = run(&rec, "dut", &config, &|_| ControlFlow::Continue(()));
        assert_eq!(r.cases, 16, "SFPIADD has 16 mode values");
        let expected: Vec<Vec<u32>> = (0..16)
            .map(|n| {
                nth_case(config.seed, Opcode::SFPIADD, n)
                    .program
                    .iter()
                    .map(|i| i.encode_blackhole())
                    .collect()
            })
            .collect();
        assert_eq!(*rec.0.lock().unwrap(), expected);
    }

    #[test]
    fn the_reference_agrees_with_itself() {
        let config = CampaignConfig {
            arch: Arch::Blackhole,
            seed: 1,
            limit: Limit::PerMode(2),
            opcodes: vec![Opcode::SFPMAD, Opcode::SFPLOADMACRO, Opcode::SFPSTORE],
            streams: true,
            keep_failures: 3,
            strictness: Strictness::Silicon,
            parallel: true,
        };
        let r = run(&crate::Reference, "reference", &config, &|_| ControlFlow::Continue(()));
        assert_eq!(r.cases, 3 * 16 * 2, "two cases of each of the 16 mode values of each");
        assert_eq!(r.streams, 2 * STREAMS_PER_CASE);
        // Every mode value got exactly its two cases.
        assert_eq!(r.cells.len(), 48 + 1, "48 mode values and the streams");
        assert!(r.cells.iter().all(|(k, c)| k.0 == "streams" || c.cases == 2), "{:?}", r.cells);
        assert!(r.failures.is_empty(), "{:?}", r.failures.first());
    }

    /// Declines every case.
    struct Declines;

    impl harness_core::isa::Model<crate::Sfpu> for Declines {
        fn name(&self) -> String {
            "declines-everything".to_string()
        }
        fn run(
            &self,
            _: Arch,
            _: &sfpu_reference::State,
            _: &[u32],
        ) -> Result<crate::Run, crate::ModelError> {
            Err(crate::ModelError::Unsupported("not implemented".to_string()))
        }
    }

    /// The reference with bit 0 of LReg[0], lane 0, flipped in every answer.
    struct Wrong;

    impl harness_core::isa::Model<crate::Sfpu> for Wrong {
        fn name(&self) -> String {
            "hello-name".to_string()
        }
        fn run(
            &self,
            arch: Arch,
            pre: &sfpu_reference::State,
            program: &[u32],
        ) -> Result<crate::Run, crate::ModelError> {
            let mut run = crate::Reference.run(arch, pre, program)?;
            run.post.LReg[0][0] ^= 1;
            Ok(run)
        }
    }

    fn config(limit: Limit) -> CampaignConfig {
        CampaignConfig {
            arch: Arch::Blackhole,
            seed: 3,
            limit,
            opcodes: vec![Opcode::SFPMAD, Opcode::SFPIADD],
            streams: true,
            keep_failures: 2,
            strictness: Strictness::Silicon,
            parallel: false,
        }
    }

    /// A declined case is counted as declined, never as run: a model that declines everything
    /// has no case run, so nothing that could pass.
    #[test]
    fn declined_cases_are_not_run_cases() {
        let r = run(&Declines, "dut", &config(Limit::PerMode(1)), &|_| ControlFlow::Continue(()));
        assert_eq!((r.cases, r.streams), (32, STREAMS_PER_CASE), "drawn and given to the model");
        assert!(r.failures.is_empty());
        let declined: u64 = r.cells.values().map(|c| c.unsupported).sum();
        assert_eq!(declined, 32 + STREAMS_PER_CASE);
        assert!(r.cells.values().all(|c| c.cases == 0 && c.failures == 0), "{:?}", r.cells);
    }

    /// A random sequence of case outcomes over five cells: passes, failures, errors, declined
    /// and not-applicable cases, with distinct ids and reasons.
    fn outcomes(seed: u64, n: usize) -> Vec<Checked> {
        use harness_core::check::{Failure, NotApplicable};
        let mut rng = Rng::stream(seed, "campaign/absorb");
        (0..n)
            .map(|i| {
                let cell = rng.below(5);
                let status = match rng.below(10) {
                    0..=3 => Status::Pass,
                    4..=6 => Status::Fail(Box::new(Failure {
                        differing: Default::default(),
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

    /// Folding a run's cases chunk by chunk and merging the chunks' results in order gives what
    /// folding them one by one gives, for any cut into chunks: the same counts, reasons and
    /// examples, and per cell the same first `keep` failures (what lets a campaign hold only a
    /// window of chunks' results at once).
    #[test]
    fn merging_chunk_results_in_order_is_folding_case_by_case() {
        for (seed, keep) in [(1, 2), (2, 3), (3, 0), (4, 50)] {
            let all = || outcomes(seed, 700);
            let mut whole = CampaignResult::default();
            for c in all() {
                whole.add_case(c, "dut", 9, keep);
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
                    part.add_case(c, "dut", 9, keep);
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

    /// Enough cases for several windows of chunks on a two-thread pool, run in parallel, give
    /// what the same campaign run one case after the other gives.
    #[test]
    fn a_parallel_campaign_in_windows_is_the_sequential_one() {
        let modes = job_cases(Limit::PerMode(1), Some(Opcode::SFPNOT)).unwrap();
        let mut c = config(Limit::PerMode((2 * 2 * WINDOW_PER_THREAD as u64 + 3) * CHUNK / modes));
        c.opcodes = vec![Opcode::SFPNOT];
        c.streams = false;
        let sequential = run(&Wrong, "dut", &c, &|_| ControlFlow::Continue(()));
        c.parallel = true;
        let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
        let parallel = pool.install(|| run(&Wrong, "dut", &c, &|_| ControlFlow::Continue(())));
        let chunks = sequential.cases.div_ceil(CHUNK);
        assert!(chunks > 2 * 2 * WINDOW_PER_THREAD as u64, "{chunks} chunks: more than two windows");
        assert_eq!(format!("{parallel:?}"), format!("{sequential:?}"));
        assert_eq!(parallel.failures.len(), 2 * parallel.cells.len(), "two kept per cell");
    }

    /// Failures are filed under the name the caller gives (the report's column), not the
    /// model's own name, with a replay command and a regression snippet.
    #[test]
    fn failures_are_filed_under_the_column_name() {
        let r = run(&Wrong, "dut2", &config(Limit::PerMode(1)), &|_| ControlFlow::Continue(()));
        assert!(!r.failures.is_empty());
        for f in &r.failures {
            assert_eq!(f.model, "dut2");
            assert_eq!(f.kind, "random");
            assert!(f.replay.starts_with("cargo xtask conform --seed 0x3 --replay random/"), "{}", f.replay);
            assert!(f.snippet.starts_with("- id: regressions/campaign-00000003/random-"), "{}", f.snippet);
        }
        let failed: u64 = r.cells.values().map(|c| c.failures).sum();
        let ran: u64 = r.cells.values().map(|c| c.cases).sum();
        assert_eq!(ran, 32 + STREAMS_PER_CASE);
        assert!(failed > 0 && failed <= ran);
    }

    /// A case the candidate fails to run (a crashed or hung DUT) is an error: counted apart from
    /// divergences, kept with its message, and given no regression vector.
    #[test]
    fn a_case_that_fails_to_run_is_an_error_not_a_divergence() {
        struct Crashes;
        impl harness_core::isa::Model<crate::Sfpu> for Crashes {
            fn name(&self) -> String {
                "crashes".into()
            }
            fn run(
                &self,
                _: Arch,
                _: &sfpu_reference::State,
                _: &[u32],
            ) -> Result<crate::Run, crate::ModelError> {
                Err(crate::ModelError::Failed("the DUT exited with status 1".into()))
            }
        }
        let r = run(&Crashes, "dut", &config(Limit::PerMode(1)), &|_| ControlFlow::Continue(()));
        let sum = |f: fn(&CellCounts) -> u64| r.cells.values().map(f).sum::<u64>();
        let all = 32 + STREAMS_PER_CASE;
        assert_eq!((sum(|c| c.cases), sum(|c| c.errors), sum(|c| c.failures)), (all, all, 0));
        assert!(!r.failures.is_empty());
        for f in &r.failures {
            assert_eq!(f.kind, "error");
            assert!(f.snippet.is_empty(), "no regression vector for an error: {}", f.snippet);
            assert!(f.details.contains("exited with status 1"), "{}", f.details);
        }
    }

    /// Progress reports every case and every finished job; a `Break` ends the job after the case
    /// that asked for it, whether the job is bounded by time or by a case count.
    #[test]
    fn progress_and_stopping() {
        use std::sync::Mutex;
        let seen = Mutex::new(Vec::new());
        let record = |p: Progress<'_>| {
            seen.lock().unwrap().push(match p {
                Progress::Case { job, n } => format!("{job} {n}"),
                Progress::JobDone { job, n } => format!("{job} done {n}"),
            });
            ControlFlow::Break(())
        };
        let r = run(
            &crate::Reference,
            "fastpath",
            &config(Limit::Budget(Duration::from_secs(60))),
            &record,
        );
        assert_eq!((r.cases, r.streams), (2, 1), "one case per job");
        assert_eq!(
            *seen.lock().unwrap(),
            ["SFPMAD 1", "SFPMAD done 1", "SFPIADD 1", "SFPIADD done 1", "streams 1", "streams done 1"]
        );
        let r = run(&crate::Reference, "fastpath", &config(Limit::PerMode(3)), &record);
        assert_eq!((r.cases, r.streams), (2, 1), "a count-bounded job stops too");
    }
}
