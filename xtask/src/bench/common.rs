//! What the benchmarks of `cargo xtask bench` share: the command's arguments ([`Args`]), the
//! measurement method (warm-up, [`SAMPLES`] samples, their median and range as a [`Rate`]) and the
//! progress bar. The main bench ([`super`]), `--ab` ([`super::ab`]), the SFPI kernels
//! ([`super::sfpi`]) and AMX ([`super::amx`]) all measure through it.

use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use sfpu_reference::isa::Arch;

/// `cargo xtask bench` arguments.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Seconds per measurement (warm-up included); the whole run takes about 20 times this.
    #[arg(long, default_value_t = 0.25)]
    pub(super) time: f64,
    /// Print the results as JSON on stdout instead of the table.
    #[arg(long)]
    pub(super) json: bool,
    /// No progress bar.
    #[arg(long)]
    pub(super) quiet: bool,
    /// Measure only these classes (comma-separated keys: integer, fp_field, fma, conversion,
    /// cross_lane, predication, loadmacro, mixed; sfpi: the SFPI kernels; amx: AMX vecfp); the
    /// native baselines always run.
    #[arg(long, value_delimiter = ',')]
    pub(super) only: Vec<String>,
    /// The SFPI kernels to measure a whole tile of (comma-separated names, as `sfpu-conformance
    /// kernel` lists them, or `all`); default: exp, log, reciprocal, sigmoid, gelu_tanh, relu.
    /// With --fast-only or --ab only when --only names sfpi.
    #[arg(long, value_delimiter = ',', value_name = "LIST")]
    pub(super) kernels: Vec<String>,
    /// Measure only these chips (comma-separated: blackhole, wormhole); both by default.
    #[arg(long, value_delimiter = ',')]
    pub(super) arch: Vec<Arch>,
    /// Measure this binary as built, without re-executing an optimised build (figures of an
    /// unoptimised build are not representative).
    #[arg(long)]
    pub(super) in_process: bool,
    /// The fast model only, at the SIMD level in force, with its samples' range: no reference,
    /// lower SIMD levels, per-call rows, FMA kernel alone, native baselines, targets or AMX (what
    /// `--ab` runs of each build).
    #[arg(long)]
    pub(super) fast_only: bool,
    /// Compare this build's fast model with another build of xtask (BASELINE, e.g. a copy of
    /// `target/release/xtask` built at the base commit) in alternating runs of `--fast-only`
    /// (module `bench::ab`): each class's rates and the median of the per-round ratios.
    #[arg(long, value_name = "BASELINE", conflicts_with = "fast_only")]
    pub(super) ab: Option<std::path::PathBuf>,
    /// Rounds of `--ab`: each runs both builds once, the first of them alternating.
    #[arg(long, default_value_t = 5, requires = "ab")]
    pub(super) rounds: u32,
    /// With --fast-only or --ab: every lane of the state's `LReg[7]` names register R (its low 4
    /// bits) for the indirect modes of SFPMAD, SFPADDI, SFPMULI and the others, as kernels set it;
    /// by default each lane names its own (the state's random words). Not the targets' state.
    #[arg(long, value_name = "R", value_parser = clap::value_parser!(u32).range(0..=15))]
    pub(super) indirect_index: Option<u32>,
    /// Also write the figures to docs/performance.md, with the command, commit and host.
    #[arg(long, conflicts_with_all = ["fast_only", "ab", "json"])]
    pub(super) write_performance: bool,
}

/// Samples per measurement.
pub(super) const SAMPLES: usize = 5;

/// One measurement in instructions per second: the median of its samples, and the slowest and
/// fastest sample (how far this machine's noise moved it within the measurement).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Rate {
    pub(super) median: f64,
    pub(super) lo: f64,
    pub(super) hi: f64,
}

impl Rate {
    /// The median of `samples` (the mean of the middle two for an even count), the smallest and
    /// the largest; `None` for no samples.
    pub(super) fn of(samples: &[f64]) -> Option<Rate> {
        if samples.is_empty() {
            return None;
        }
        let mut s = samples.to_vec();
        s.sort_by(f64::total_cmp);
        let n = s.len();
        let median = if n % 2 == 1 { s[n / 2] } else { (s[n / 2 - 1] + s[n / 2]) / 2.0 };
        Some(Rate { median, lo: s[0], hi: s[n - 1] })
    }
}

/// Instructions per second of one measurement: the median of the samples.
pub(super) fn measure(time: Duration, pass: impl FnMut() -> u64) -> f64 {
    measure_samples(time, pass).median
}

/// [`measure`] with the samples' range.
pub(super) fn measure_samples(time: Duration, mut pass: impl FnMut() -> u64) -> Rate {
    let warm_until = Instant::now() + time / 5;
    while Instant::now() < warm_until {
        pass();
    }
    let per_sample = (time * 4 / 5) / SAMPLES as u32;
    let rates: Vec<f64> = (0..SAMPLES)
        .map(|_| {
            let start = Instant::now();
            let mut n = 0u64;
            loop {
                n += pass();
                let e = start.elapsed();
                if e >= per_sample {
                    break n as f64 / e.as_secs_f64();
                }
            }
        })
        .collect();
    Rate::of(&rates).expect("SAMPLES is not 0")
}

/// The progress bar of `len` steps on standard error (hidden with `--quiet`).
pub(super) fn progress_bar(quiet: bool, len: u64) -> ProgressBar {
    if quiet {
        return ProgressBar::hidden();
    }
    let b = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
    if let Ok(style) = ProgressStyle::with_template("{bar:30} {pos}/{len} {msg}") {
        b.set_style(style);
    }
    b
}
