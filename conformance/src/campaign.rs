//! The seeded random differential campaign: random cases of every instruction (and random
//! instruction streams) run on the reference and on a candidate model, compared the way golden
//! vectors are.
//!
//! Every case is drawn from a per-instruction stream of a fixed seed, so case `n` of an
//! instruction is the same on every run and machine: a failure is replayed by its id
//! (`random/SFPMAD/1234`) and the seed. The number of cases run depends on the time budget.

use std::collections::BTreeMap;
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
}

/// Counts of one (instruction, mode) cell.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CellCounts {
    /// Cases run.
    pub cases: u64,
    /// Cases that differed (or failed to run on the candidate).
    pub failures: u64,
    /// Cases the candidate declined.
    pub unsupported: u64,
}

/// What a campaign found.
#[derive(Clone, Debug, Default)]
pub struct CampaignResult {
    /// Per (instruction, mode) cell; streams are under `("streams", "-")`.
    pub cells: BTreeMap<(String, String), CellCounts>,
    /// The failures kept, with replay commands and regression snippets.
    pub failures: Vec<FailureEntry>,
    /// Single-instruction cases run.
    pub cases: u64,
    /// Streams run.
    pub streams: u64,
}

/// The id of case `index` of `op` (or of the streams).
pub fn case_id(name: &str, index: u64) -> String {
    format!("random/{name}/{index}")
}

/// Case `index` of instruction `op` for `seed`: the same case every time.
pub fn nth_case(seed: u64, op: Opcode, index: u64) -> Case {
    let mut rng = Rng::stream(seed, &format!("campaign/{}", op.name()));
    let mut case = random_case(op, &mut rng);
    for _ in 0..index {
        case = random_case(op, &mut rng);
    }
    case
}

/// Stream `index` for `seed`.
pub fn nth_stream(seed: u64, index: u64) -> Case {
    let mut rng = Rng::stream(seed, "campaign/streams");
    let len = 1 + rng.below(64) as usize;
    let mut case = random_stream(&mut rng, len, None);
    for _ in 0..index {
        let len = 1 + rng.below(64) as usize;
        case = random_stream(&mut rng, len, None);
    }
    case
}

/// The one-vector file a failing case is reported in, with its regression-ready id.
pub fn regression_snippet(vector: &Vector, origin: &str) -> String {
    let mut v = vector.clone();
    v.id = format!("regressions/{origin}/{}", vector.id.replace('/', "-"));
    let file = VectorFile {
        format: FORMAT.to_string(),
        arch: Arch::Blackhole,
        file: "regressions".to_string(),
        vectors: vec![v],
    };
    let text = write_file(&file, &[]);
    // Only the vector itself, ready to paste under `vectors:`.
    text.split_once("vectors:\n").map_or(text.clone(), |(_, rest)| rest.to_string())
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

/// Runs the campaign of `config` on `candidate`. `progress` is called after every case with the
/// instruction's name and the number of cases run so far for it.
pub fn run(
    candidate: &dyn Model,
    config: &CampaignConfig,
    progress: &(dyn Fn(&str, u64) + Sync),
) -> CampaignResult {
    let seed_tag = format!("campaign-{:08x}", config.seed as u32);
    let mut jobs: Vec<Option<Opcode>> = config.opcodes.iter().copied().map(Some).collect();
    if config.streams {
        jobs.push(None);
    }
    let per_job: Vec<CampaignResult> = jobs
        .par_iter()
        .map(|job| {
            let name = job.map_or("streams", |op| op.name());
            let mut rng = Rng::stream(config.seed, &format!("campaign/{name}"));
            let mut result = CampaignResult::default();
            let started = Instant::now();
            let mut index = 0u64;
            while started.elapsed() < config.budget && config.max_cases.is_none_or(|m| index < m) {
                let case = match job {
                    Some(op) => random_case(*op, &mut rng),
                    None => {
                        let len = 1 + rng.below(64) as usize;
                        random_stream(&mut rng, len, None)
                    }
                };
                let id = case_id(name, index);
                let (vector, status) = check(candidate, id.clone(), &case, config.strictness);
                let mode = case.mode.clone().unwrap_or_else(|| "-".to_string());
                let cell = result.cells.entry((name.to_string(), mode.clone())).or_default();
                cell.cases += 1;
                let failed = match &status {
                    Status::Pass => None,
                    Status::Unsupported(_) => {
                        cell.unsupported += 1;
                        None
                    }
                    Status::Fail(f) => Some(("random", f.report.clone())),
                    Status::Error(e) => Some(("error", format!("{id}: {e}"))),
                };
                if let Some((kind, details)) = failed {
                    cell.failures += 1;
                    if cell.failures as usize <= config.keep_failures {
                        result.failures.push(FailureEntry {
                            model: candidate.name(),
                            instruction: name.to_string(),
                            mode,
                            id: id.clone(),
                            kind: kind.to_string(),
                            replay: format!("cargo xtask conform --seed 0x{:x} --replay {id}", config.seed),
                            details,
                            snippet: regression_snippet(&vector, &seed_tag),
                        });
                    }
                }
                if job.is_some() {
                    result.cases += 1;
                } else {
                    result.streams += 1;
                }
                index += 1;
                progress(name, index);
            }
            result
        })
        .collect();
    let mut total = CampaignResult::default();
    for r in per_job {
        for (k, c) in r.cells {
            let t = total.cells.entry(k).or_default();
            t.cases += c.cases;
            t.failures += c.failures;
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
        let s1 = nth_stream(7, 2);
        let s2 = nth_stream(7, 2);
        assert_eq!(s1.program, s2.program);
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
        };
        let r = run(&crate::Reference, &config, &|_, _| {});
        assert_eq!(r.cases, 60);
        assert_eq!(r.streams, 20);
        assert!(r.failures.is_empty(), "{:?}", r.failures.first());
    }
}
