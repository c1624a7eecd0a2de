//! The seeded random differential campaign: random cases of every instruction (and random
//! instruction streams) run on the reference and on a candidate model, compared the way golden
//! vectors are.
//!
//! Case `n` of an instruction is drawn from a generator seeded by the campaign's seed, the
//! instruction and `n` alone, so it is the same on every run and machine, and replaying it by its
//! id (`random/SFPMAD/1234`) and the seed costs the same for every `n`. Case numbers run from 0
//! to [`MAX_CASES`] - 1. The number of cases run depends on the time budget or `max_cases`.
//!
//! A case the candidate declines (`unsupported`) is counted apart: it is neither run nor
//! compared, so it never counts as a pass.

use std::collections::BTreeMap;
use std::ops::ControlFlow;
use std::time::{Duration, Instant};

use rayon::prelude::*;
use sfpu_reference::isa::{Arch, Opcode};

use crate::generate::operands::Rng;
use crate::generate::streams::random_stream;
use crate::generate::{Case, random_case, to_vector};
use crate::model::Model;
use crate::report::FailureEntry;
use crate::vectors::emit::write_file;
use crate::vectors::{FORMAT, Status, Strictness, Vector, VectorFile, run_vector};

/// What to run.
#[derive(Clone, Debug)]
pub struct CampaignConfig {
    /// The seed.
    pub seed: u64,
    /// Time budget per instruction (the streams get the budget of one instruction).
    pub budget: Duration,
    /// Stop after this many cases per instruction even if time remains (`None`: only the budget).
    pub max_cases: Option<u64>,
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

/// Counts of one (instruction, mode) cell.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CellCounts {
    /// Cases run and compared with the reference (those that failed to run included; those
    /// declined not).
    pub cases: u64,
    /// Cases whose result differed from the reference's.
    pub failures: u64,
    /// Cases the candidate failed to run (a crash, a hang, a malformed answer): counted apart
    /// from divergences, with no regression vector (the case is not known to be wrong).
    pub errors: u64,
    /// Cases the candidate declined: not run, not compared, not in `cases`.
    pub unsupported: u64,
}

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
}

/// The id of case `index` of `op` (or of the streams).
pub fn case_id(name: &str, index: u64) -> String {
    format!("random/{name}/{index}")
}

/// Case `index` of instruction `op` for `seed`: the same case every time, drawn in constant time
/// from a generator of its own.
pub fn nth_case(seed: u64, op: Opcode, index: u64) -> Case {
    let mut rng = Rng::stream(seed, &format!("campaign/{}/{index}", op.name()));
    random_case(op, &mut rng)
}

/// Stream `index` for `seed`, drawn in constant time like [`nth_case`].
pub fn nth_stream(seed: u64, index: u64) -> Case {
    let mut rng = Rng::stream(seed, &format!("campaign/streams/{index}"));
    let len = 1 + rng.below(64) as usize;
    random_stream(&mut rng, len, None)
}

/// `vector` as YAML exactly as the vector files write it, without the file around it: ready to
/// paste under `vectors:` in `vectors/blackhole/regressions.yaml`.
pub fn vector_yaml(vector: &Vector) -> String {
    let file = VectorFile {
        format: FORMAT.to_string(),
        arch: Arch::Blackhole,
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
        arch: Arch::Blackhole,
        file: "random".to_string(),
        vectors: vec![],
    };
    let status = run_vector(candidate, &file, &vector, strictness).status;
    (vector, status)
}

/// Runs the campaign of `config` on `candidate`, whose failures are filed under `model` (its
/// column in the report: `fastpath`, `dut`, `dut2`, ...).
///
/// `progress` is told of every finished case and of every finished job. After a case, a
/// [`ControlFlow::Break`] from it ends that job: the caller's way to stop on an interruption, or to
/// stop spending a time budget on a candidate that was given up on. Jobs run at most
/// [`MAX_CASES`] cases.
pub fn run(
    candidate: &dyn Model,
    model: &str,
    config: &CampaignConfig,
    progress: &(dyn Fn(Progress<'_>) -> ControlFlow<()> + Sync),
) -> CampaignResult {
    let seed_tag = format!("campaign-{:08x}", config.seed as u32);
    let mut jobs: Vec<Option<Opcode>> = config.opcodes.iter().copied().map(Some).collect();
    if config.streams {
        jobs.push(None);
    }
    let one_job = |job: &Option<Opcode>| {
        let name = job.map_or("streams", |op| op.name());
        let mut result = CampaignResult::default();
        let started = Instant::now();
        let mut index = 0u64;
        let limit = config.max_cases.unwrap_or(MAX_CASES).min(MAX_CASES);
        while started.elapsed() < config.budget && index < limit {
            let case = match job {
                Some(op) => nth_case(config.seed, *op, index),
                None => nth_stream(config.seed, index),
            };
            let id = case_id(name, index);
            let (vector, status) = check(candidate, id.clone(), &case, config.strictness);
            let mode = case.mode.clone().unwrap_or_else(|| "-".to_string());
            let cell = result.cells.entry((name.to_string(), mode.clone())).or_default();
            if matches!(status, Status::Unsupported(_)) {
                cell.unsupported += 1;
            } else {
                cell.cases += 1;
            }
            // A divergence gets a regression vector; a case the candidate failed to run is an
            // error, kept with its message but with no snippet (nothing is known to be wrong).
            let failed = match &status {
                Status::Pass | Status::Unsupported(_) => None,
                Status::Fail(f) => {
                    cell.failures += 1;
                    Some(("random", f.report.clone(), regression_snippet(&vector, &seed_tag)))
                }
                Status::Error(e) => {
                    cell.errors += 1;
                    Some(("error", format!("{id}: {e}"), String::new()))
                }
            };
            if let Some((kind, details, snippet)) = failed
                && (cell.failures + cell.errors) as usize <= config.keep_failures
            {
                result.failures.push(FailureEntry {
                    model: model.to_string(),
                    instruction: name.to_string(),
                    mode,
                    id: id.clone(),
                    kind: kind.to_string(),
                    replay: format!("cargo xtask conform --seed 0x{:x} --replay {id}", config.seed),
                    details,
                    snippet,
                });
            }
            if job.is_some() {
                result.cases += 1;
            } else {
                result.streams += 1;
            }
            index += 1;
            if progress(Progress::Case { job: name, n: index }).is_break() {
                break;
            }
        }
        let _ = progress(Progress::JobDone { job: name, n: index });
        result
    };
    let per_job: Vec<CampaignResult> = if config.parallel {
        jobs.par_iter().map(one_job).collect()
    } else {
        jobs.iter().map(one_job).collect()
    };
    let mut total = CampaignResult::default();
    for r in per_job {
        for (k, c) in r.cells {
            let t = total.cells.entry(k).or_default();
            t.cases += c.cases;
            t.failures += c.failures;
            t.errors += c.errors;
            t.unsupported += c.unsupported;
        }
        total.failures.extend(r.failures);
        total.cases += r.cases;
        total.streams += r.streams;
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
        let s1 = nth_stream(7, 2);
        let s2 = nth_stream(7, 2);
        assert_eq!(s1.program, s2.program);
    }

    /// What the campaign runs as case `n` is what `nth_case(seed, op, n)` replays.
    #[test]
    fn the_campaign_runs_the_cases_replay_draws() {
        use std::sync::Mutex;
        struct Recorder(Mutex<Vec<Vec<u32>>>);
        impl Model for Recorder {
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
        let mut config = config(Duration::from_secs(60), Some(5));
        config.opcodes = vec![Opcode::SFPIADD];
        config.streams = false;
        let r = run(&rec, "dut", &config, &|_| ControlFlow::Continue(()));
        assert_eq!(r.cases, 5);
        let expected: Vec<Vec<u32>> = (0..5)
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
            seed: 1,
            budget: Duration::from_secs(5),
            max_cases: Some(20),
            opcodes: vec![Opcode::SFPMAD, Opcode::SFPLOADMACRO, Opcode::SFPSTORE],
            streams: true,
            keep_failures: 3,
            strictness: Strictness::Silicon,
            parallel: true,
        };
        let r = run(&crate::Reference, "reference", &config, &|_| ControlFlow::Continue(()));
        assert_eq!(r.cases, 60);
        assert_eq!(r.streams, 20);
        assert!(r.failures.is_empty(), "{:?}", r.failures.first());
    }

    /// Declines every case.
    struct Declines;

    impl Model for Declines {
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

    impl Model for Wrong {
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

    fn config(budget: Duration, max_cases: Option<u64>) -> CampaignConfig {
        CampaignConfig {
            seed: 3,
            budget,
            max_cases,
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
        let r =
            run(&Declines, "dut", &config(Duration::from_secs(60), Some(7)), &|_| ControlFlow::Continue(()));
        assert_eq!((r.cases, r.streams), (14, 7), "drawn and given to the model");
        assert!(r.failures.is_empty());
        let declined: u64 = r.cells.values().map(|c| c.unsupported).sum();
        assert_eq!(declined, 21);
        assert!(r.cells.values().all(|c| c.cases == 0 && c.failures == 0), "{:?}", r.cells);
    }

    /// Failures are filed under the name the caller gives (the report's column), not the
    /// model's own name, with a replay command and a regression snippet.
    #[test]
    fn failures_are_filed_under_the_column_name() {
        let r =
            run(&Wrong, "dut2", &config(Duration::from_secs(60), Some(4)), &|_| ControlFlow::Continue(()));
        assert!(!r.failures.is_empty());
        for f in &r.failures {
            assert_eq!(f.model, "dut2");
            assert_eq!(f.kind, "random");
            assert!(f.replay.starts_with("cargo xtask conform --seed 0x3 --replay random/"), "{}", f.replay);
            assert!(f.snippet.starts_with("- id: regressions/campaign-00000003/random-"), "{}", f.snippet);
        }
        let failed: u64 = r.cells.values().map(|c| c.failures).sum();
        let ran: u64 = r.cells.values().map(|c| c.cases).sum();
        assert_eq!(ran, 12);
        assert!(failed > 0 && failed <= ran);
    }

    /// A case the candidate fails to run (a crashed or hung DUT) is an error: counted apart from
    /// divergences, kept with its message, and given no regression vector.
    #[test]
    fn a_case_that_fails_to_run_is_an_error_not_a_divergence() {
        struct Crashes;
        impl Model for Crashes {
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
        let r =
            run(&Crashes, "dut", &config(Duration::from_secs(60), Some(3)), &|_| ControlFlow::Continue(()));
        let sum = |f: fn(&CellCounts) -> u64| r.cells.values().map(f).sum::<u64>();
        assert_eq!((sum(|c| c.cases), sum(|c| c.errors), sum(|c| c.failures)), (9, 9, 0));
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
        let r = run(&crate::Reference, "fastpath", &config(Duration::from_secs(60), None), &record);
        assert_eq!((r.cases, r.streams), (2, 1), "one case per job");
        assert_eq!(
            *seen.lock().unwrap(),
            ["SFPMAD 1", "SFPMAD done 1", "SFPIADD 1", "SFPIADD done 1", "streams 1", "streams done 1"]
        );
        let r = run(&crate::Reference, "fastpath", &config(Duration::from_secs(60), Some(3)), &record);
        assert_eq!((r.cases, r.streams), (2, 1), "a count-bounded job stops too");
    }
}
