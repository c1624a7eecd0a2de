//! A random campaign's memory does not grow with its number of cases: `conform --cases N` and
//! `--budget` (overnight runs) hold a window of cases' results at a time, not every case's.
//!
//! Measured with the binary's allocator (`alloc.rs`): the bytes allocated and not yet freed, on
//! every thread, and their peak, in a process of its own (other tests' threads would disturb
//! it). Each campaign runs on a two-thread pool (so the windows are the same on every machine)
//! twice, with 8 times more cases the second time, and the peak above what was live before must
//! stay about the same. A campaign that kept every case's result (about 300 bytes a case for
//! the SFPU, a case's two 5 KB states for AMX) would peak several times higher the second time.

use std::ops::ControlFlow;

use amx_reference::Chip;
use harness_amx::Amx;
use harness_core::campaign::{CampaignConfig, Limit, job_cases, run};
use harness_core::isa::{Isa, Strictness};
use harness_sfpu::{FastModel, Sfpu};
use sfpu_reference::isa::Arch;

use crate::alloc::{in_a_process_of_its_own, peak_of};

fn replay(id: &str) -> String {
    id.to_string()
}

/// The campaign of about `cases` cases of `job` of `I` on `chip`, on the fast model: its cases.
fn campaign<I: Isa>(chip: I::Chip, job: &str, cases: u64) -> u64 {
    let jobs: Vec<_> = I::jobs(chip).into_iter().filter(|j| j.name == job).collect();
    let per_cell = cases.div_ceil(job_cases(Limit::PerCell(1), &jobs[0]).unwrap());
    let config = CampaignConfig {
        seed: 0x3E3,
        limit: Limit::PerCell(per_cell),
        jobs,
        keep_failures: 3,
        strictness: Strictness::Silicon,
        parallel: true,
        share: None,
        replay: &replay,
    };
    let r = run::<I>(I::fast(), "fastpath", chip, &config, &|_| ControlFlow::Continue(()));
    assert!(r.failures.is_empty(), "{:?}", r.failures.first());
    r.cases + r.streams
}

#[test]
fn campaign_memory_does_not_grow_with_the_number_of_cases() {
    if !in_a_process_of_its_own("campaign_memory::campaign_memory_does_not_grow_with_the_number_of_cases") {
        return;
    }
    // The fast model is built into this binary; this names it for the reader.
    let _ = FastModel;
    let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().expect("a thread pool");
    pool.install(|| {
        // SFPNOT: about 16,000 cases (one window of 32 chunks of 512), then 8 times as many.
        let (small, n_small) = peak_of(|| campaign::<Sfpu>(Arch::Blackhole, "SFPNOT", 32 * 512));
        let (large, n_large) = peak_of(|| campaign::<Sfpu>(Arch::Blackhole, "SFPNOT", 8 * 32 * 512));
        assert_eq!(n_large, 8 * n_small);
        eprintln!("SFPU campaign: peak {small} bytes for {n_small} cases, {large} for {n_large}");
        assert!(
            large <= small + small / 4 + (1 << 20),
            "SFPU: {large} bytes at the peak for {n_large} cases, {small} for {n_small}"
        );
        // AMX, M1: the `source` axis's classes and the operand streams, a few windows' worth,
        // then 8 times as many.
        for job in ["source", "streams"] {
            let (small, n_small) = peak_of(|| campaign::<Amx>(Chip::M1, job, 4 * 1024));
            let (large, n_large) = peak_of(|| campaign::<Amx>(Chip::M1, job, 8 * 4 * 1024));
            assert!(n_large >= 8 * n_small - 64, "{n_large} cases, {n_small}");
            eprintln!("AMX {job}: peak {small} bytes for {n_small} cases, {large} for {n_large}");
            assert!(
                large <= small + small / 4 + (4 << 20),
                "AMX {job}: {large} bytes at the peak for {n_large} cases, {small} for {n_small}"
            );
        }
    });
}
