//! The SFPU's random campaign through the core's ([`harness_core::campaign`]): the cases it runs are
//! the ones replay draws, every mode value gets its cases, declined and failed-to-run cases are
//! counted apart from divergences, failures are filed under the report's column with a replay
//! line and a regression vector, windows of parallel chunks give what a sequential run gives, and
//! progress reports and stops jobs.

use std::ops::ControlFlow;
use std::sync::Mutex;
use std::time::Duration;

use harness_core::campaign::{CHUNK, CampaignConfig, CampaignResult, Limit, Progress, job_cases, run};
use harness_core::isa::{Isa, Job, Model, Strictness};
use harness_sfpu::campaign::{STREAMS_PER_CASE, nth_case_for};
use harness_sfpu::{ModelError, Reference, Run, Sfpu};
use sfpu_reference::State;
use sfpu_reference::isa::{Arch, Opcode};

fn replay(id: &str) -> String {
    format!("sfpu-conformance conform --isa sfpu --chip blackhole --seed 0x3 --replay {id}")
}

/// The jobs named (`streams` for the streams) of Blackhole's campaign.
fn jobs(names: &[&str]) -> Vec<Job> {
    Sfpu::jobs(Arch::Blackhole).into_iter().filter(|j| names.contains(&j.name.as_str())).collect()
}

fn config(limit: Limit, names: &[&str], parallel: bool) -> CampaignConfig<'static> {
    CampaignConfig {
        seed: 3,
        limit,
        jobs: jobs(names),
        keep_failures: 2,
        strictness: Strictness::Silicon,
        parallel,
        share: None,
        replay: &replay,
    }
}

fn go(model: &dyn Model<Sfpu>, config: &CampaignConfig<'_>) -> CampaignResult {
    run::<Sfpu>(model, "dut", Arch::Blackhole, config, &|_| ControlFlow::Continue(()))
}

/// What the campaign runs as case `n` of SFPIADD is what `nth_case_for(chip, seed, SFPIADD, n)`
/// draws, so a replay by id runs the same program.
#[test]
fn the_campaign_runs_the_cases_replay_draws() {
    struct Recorder(Mutex<Vec<Vec<u32>>>);
    impl Model<Sfpu> for Recorder {
        fn name(&self) -> String {
            "recorder".into()
        }
        fn run(&self, arch: Arch, pre: &State, program: &[u32]) -> Result<Run, ModelError> {
            self.0.lock().unwrap().push(program.to_vec());
            Reference.run(arch, pre, program)
        }
    }
    let rec = Recorder(Mutex::new(Vec::new()));
    let r = go(&rec, &config(Limit::PerCell(1), &["SFPIADD"], false));
    assert_eq!(r.cases, 16, "SFPIADD has 16 mode values");
    let expected: Vec<Vec<u32>> = (0..16)
        .map(|n| {
            nth_case_for(Arch::Blackhole, 3, Opcode::SFPIADD, n)
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
    let c = config(Limit::PerCell(2), &["SFPMAD", "SFPLOADMACRO", "SFPSTORE", "streams"], true);
    let r = go(&Reference, &c);
    // SFPMAD's Mod1 has 16 values, SFPSTORE's and SFPLOADMACRO's modes 16 each on Blackhole.
    assert_eq!(r.cases, 3 * 16 * 2, "two cases of each of the 16 mode values of each");
    assert_eq!(r.streams, 2 * STREAMS_PER_CASE);
    assert_eq!(r.cells.len(), 48 + 1, "48 mode values and the streams");
    assert!(r.cells.iter().all(|(k, c)| k.0 == "streams" || c.cases == 2), "{:?}", r.cells);
    assert!(r.failures.is_empty(), "{:?}", r.failures.first());
}

/// Declines every case.
struct Declines;

impl Model<Sfpu> for Declines {
    fn name(&self) -> String {
        "declines-everything".to_string()
    }
    fn run(&self, _: Arch, _: &State, _: &[u32]) -> Result<Run, ModelError> {
        Err(ModelError::Unsupported("not implemented".to_string()))
    }
}

/// The reference with bit 0 of LReg[0], lane 0, flipped in every answer.
struct Wrong;

impl Model<Sfpu> for Wrong {
    fn name(&self) -> String {
        "hello-name".to_string()
    }
    fn run(&self, arch: Arch, pre: &State, program: &[u32]) -> Result<Run, ModelError> {
        let mut run = Reference.run(arch, pre, program)?;
        run.post.LReg[0][0] ^= 1;
        Ok(run)
    }
}

/// A declined case is counted as declined, never as run: a model that declines everything has no
/// case run, so nothing that could pass.
#[test]
fn declined_cases_are_not_run_cases() {
    let r = go(&Declines, &config(Limit::PerCell(1), &["SFPMAD", "SFPIADD", "streams"], false));
    assert_eq!((r.cases, r.streams), (32, STREAMS_PER_CASE), "drawn and given to the model");
    assert!(r.failures.is_empty());
    let declined: u64 = r.cells.values().map(|c| c.unsupported).sum();
    assert_eq!(declined, 32 + STREAMS_PER_CASE);
    assert!(r.cells.values().all(|c| c.cases == 0 && c.failures == 0), "{:?}", r.cells);
}

/// Enough cases for several windows of chunks on a two-thread pool, run in parallel, give what
/// the same campaign run one case after the other gives.
#[test]
fn a_parallel_campaign_in_windows_is_the_sequential_one() {
    let sfpnot = jobs(&["SFPNOT"]);
    let modes = job_cases(Limit::PerCell(1), &sfpnot[0]).unwrap();
    // Windows hold 16 chunks per thread: more than two windows of a two-thread pool.
    let per_cell = (2 * 2 * 16 + 3) * CHUNK / modes;
    let sequential = go(&Wrong, &config(Limit::PerCell(per_cell), &["SFPNOT"], false));
    let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    let parallel = pool.install(|| go(&Wrong, &config(Limit::PerCell(per_cell), &["SFPNOT"], true)));
    let chunks = sequential.cases.div_ceil(CHUNK);
    assert!(chunks > 2 * 2 * 16, "{chunks} chunks: more than two windows");
    assert_eq!(format!("{parallel:?}"), format!("{sequential:?}"));
    assert_eq!(parallel.failures.len(), 2 * parallel.cells.len(), "two kept per cell");
}

/// Failures are filed under the name the caller gives (the report's column), not the model's own
/// name, with a replay line and a regression snippet of the case.
#[test]
fn failures_are_filed_under_the_column_name() {
    let r = run::<Sfpu>(
        &Wrong,
        "dut2",
        Arch::Blackhole,
        &config(Limit::PerCell(1), &["SFPMAD", "SFPIADD", "streams"], false),
        &|_| ControlFlow::Continue(()),
    );
    assert!(!r.failures.is_empty());
    for f in &r.failures {
        assert_eq!(f.model, "dut2");
        assert_eq!(f.kind, "random");
        assert_eq!(f.replay, replay(&f.id));
        assert!(f.id.starts_with("random/"), "{}", f.id);
        // The snippet is the case, renamed after its origin (the campaign's seed) and id.
        let want = format!("- id: regressions/campaign-00000003/{}", f.id.replace('/', "-"));
        assert!(f.snippet.starts_with(&want), "{}", f.snippet);
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
    impl Model<Sfpu> for Crashes {
        fn name(&self) -> String {
            "crashes".into()
        }
        fn run(&self, _: Arch, _: &State, _: &[u32]) -> Result<Run, ModelError> {
            Err(ModelError::Failed("the DUT exited with status 1".into()))
        }
    }
    let r = go(&Crashes, &config(Limit::PerCell(1), &["SFPMAD", "SFPIADD", "streams"], false));
    let sum = |f: fn(&harness_core::matrix::CellCounts) -> u64| r.cells.values().map(f).sum::<u64>();
    let all = 32 + STREAMS_PER_CASE;
    assert_eq!((sum(|c| c.cases), sum(|c| c.errors), sum(|c| c.failures)), (all, all, 0));
    assert!(!r.failures.is_empty());
    for f in &r.failures {
        assert_eq!(f.kind, "error");
        assert!(f.snippet.is_empty(), "no regression vector for an error: {}", f.snippet);
        assert!(f.details.contains("exited with status 1"), "{}", f.details);
    }
}

/// Progress reports every case and every finished job; a `Break` ends the job after the case that
/// asked for it, whether the job is bounded by time or by a case count.
#[test]
fn progress_and_stopping() {
    let seen = Mutex::new(Vec::new());
    let record = |p: Progress<'_>| {
        seen.lock().unwrap().push(match p {
            Progress::Case { job, n } => format!("{job} {n}"),
            Progress::JobDone { job, n } => format!("{job} done {n}"),
        });
        ControlFlow::Break(())
    };
    let names = ["SFPMAD", "SFPIADD", "streams"];
    let budget = config(Limit::Budget(Duration::from_secs(60)), &names, false);
    let r = run::<Sfpu>(&Reference, "fastpath", Arch::Blackhole, &budget, &record);
    assert_eq!((r.cases, r.streams), (2, 1), "one case per job");
    // Jobs run in the chip's opcode order (SFPIADD's opcode is below SFPMAD's), streams last.
    assert_eq!(
        *seen.lock().unwrap(),
        ["SFPIADD 1", "SFPIADD done 1", "SFPMAD 1", "SFPMAD done 1", "streams 1", "streams done 1"]
    );
    let counted = config(Limit::PerCell(3), &names, false);
    let r = run::<Sfpu>(&Reference, "fastpath", Arch::Blackhole, &counted, &record);
    assert_eq!((r.cases, r.streams), (2, 1), "a count-bounded job stops too");
}
