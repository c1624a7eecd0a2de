//! A random campaign's memory does not grow with its number of cases: `cargo xtask conform
//! --cases N` and `--budget` (overnight runs) hold a window of cases' results at a time, not every
//! case's.
//!
//! This binary's global allocator keeps the bytes allocated and not yet freed, on every thread,
//! and their peak. Each campaign runs on a two-thread pool (so the windows are the same on every
//! machine) twice, with 8 times more cases the second time, and the peak above what was live
//! before must stay about the same. Until the campaigns worked in windows, the SFPU campaign kept
//! about 300 bytes per case and the AMX section about 10 KB (a case's states), so the second
//! run's peak was several times the first's. (One test in this binary: the counts are global.)

use std::alloc::{GlobalAlloc, Layout, System};
use std::ops::ControlFlow;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};

use amx_reference::Chip;
use harness_amx::isa::{AmxFast, AmxReference};
use harness_amx::report::{Settings, section};
use harness_sfpu::campaign::{self, CampaignConfig, Limit};
use harness_sfpu::model::FastModel;
use harness_sfpu::vectors::Strictness;
use sfpu_reference::isa::{Arch, Opcode};

struct Measuring;

/// Bytes allocated and not freed.
static LIVE: AtomicUsize = AtomicUsize::new(0);
/// The most `LIVE` has been since the last reset.
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn grow(n: usize) {
    let now = LIVE.fetch_add(n, Ordering::Relaxed) + n;
    PEAK.fetch_max(now, Ordering::Relaxed);
}

// SAFETY: every call is forwarded to `System` unchanged; the bookkeeping is two atomics.
unsafe impl GlobalAlloc for Measuring {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        grow(layout.size());
        // SAFETY: the caller's contract, forwarded.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        grow(layout.size());
        // SAFETY: the caller's contract, forwarded.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        // SAFETY: the caller's contract, forwarded.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if new_size >= layout.size() {
            grow(new_size - layout.size());
        } else {
            LIVE.fetch_sub(layout.size() - new_size, Ordering::Relaxed);
        }
        // SAFETY: the caller's contract, forwarded.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Measuring = Measuring;

/// The most memory `f` had allocated at once, above what was allocated before it, and its result.
fn peak_of<T>(f: impl FnOnce() -> T) -> (usize, T) {
    let before = LIVE.load(Ordering::Relaxed);
    PEAK.store(before, Ordering::Relaxed);
    let out = f();
    (PEAK.load(Ordering::Relaxed).saturating_sub(before), out)
}

/// The SFPU campaign of about `cases` cases of SFPNOT (spread over its mode values), on the fast
/// model.
fn sfpu_campaign(cases: u64) -> u64 {
    let modes = campaign::job_cases_for(Arch::Blackhole, Limit::PerMode(1), Some(Opcode::SFPNOT)).unwrap();
    let config = CampaignConfig {
        arch: Arch::Blackhole,
        seed: 0x3E3,
        limit: Limit::PerMode(cases.div_ceil(modes)),
        opcodes: vec![Opcode::SFPNOT],
        streams: false,
        keep_failures: 3,
        strictness: Strictness::Silicon,
        parallel: true,
    };
    let r = campaign::run(&FastModel, "fastpath", &config, &|_| ControlFlow::Continue(()));
    assert!(r.failures.is_empty(), "{:?}", r.failures.first());
    r.cases
}

/// The AMX section of M1 with `cases` per class (and four times as many streams).
fn amx_section(cases: u64) -> u64 {
    let settings = Settings {
        vectors: Path::new(env!("CARGO_MANIFEST_DIR")).join("../../vectors/amx"),
        seed: 0x3E3,
        cases_per_cell: cases,
        streams: 4 * cases,
        keep: 2,
    };
    let r = section(Chip::M1, &[&AmxReference, &AmxFast], &settings).expect("the section runs");
    assert!(r.failures.is_empty(), "{:?}", r.failures.first());
    r.campaign.cases
}

#[test]
fn campaign_memory_does_not_grow_with_the_number_of_cases() {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().expect("a thread pool");
    pool.install(|| {
        // SFPNOT: about 16,000 cases (one window of 32 chunks of 512), then 8 times as many.
        let (small, n_small) = peak_of(|| sfpu_campaign(32 * 512));
        let (large, n_large) = peak_of(|| sfpu_campaign(8 * 32 * 512));
        assert_eq!(n_large, 8 * n_small);
        eprintln!("SFPU campaign: peak {small} bytes for {n_small} cases, {large} for {n_large}");
        assert!(
            large <= small + small / 4 + (1 << 20),
            "SFPU: {large} bytes at the peak for {n_large} cases, {small} for {n_small}"
        );
        // AMX, M1: a window of 2,048 cases, then 8 times as many (classes and streams).
        let (small, n_small) = peak_of(|| amx_section(12));
        let (large, n_large) = peak_of(|| amx_section(8 * 12));
        assert_eq!(n_large, 8 * n_small);
        eprintln!("AMX section: peak {small} bytes for {n_small} cases, {large} for {n_large}");
        assert!(
            large <= small + small / 4 + (4 << 20),
            "AMX: {large} bytes at the peak for {n_large} cases, {small} for {n_small}"
        );
    });
}
