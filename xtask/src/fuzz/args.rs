//! `cargo xtask fuzz`'s command line: the options ([`Args`]), the targets they name
//! ([`TARGETS`]) and the durations they take.

use std::path::PathBuf;
use std::time::Duration;

use harness_sfpu::fuzz::MAX_STREAM;

/// The targets, in the order they run.
pub const TARGETS: [&str; 5] = ["diff_stream", "decode", "vectors_load", "dut_protocol", "amx_diff"];

/// The least fuzzing time a run gives one target (`--time` is raised to it where needed).
pub const MIN_TARGET_TIME: Duration = Duration::from_secs(3);

#[derive(clap::Args)]
pub struct Args {
    /// Only this target (repeat for several): diff_stream, decode, vectors_load, dut_protocol,
    /// amx_diff.
    #[arg(long = "target", value_name = "T")]
    pub(super) targets: Vec<String>,
    /// Fuzzing time, not counting the seeds and the build of the targets (a first build takes
    /// minutes; its progress is shown): split over the targets (diff_stream counts three times,
    /// the others once: 3/7 of it with all five; each target at least 3s): `90s`, `20m`, `8h`
    /// (the default; 2m with --smoke). With --rate: the time per chip (default 20s).
    #[arg(long, value_parser = parse_duration)]
    pub(super) time: Option<Duration>,
    /// Parallel fuzzing processes per target (libFuzzer's fork mode; crashes do not stop it).
    #[arg(long, default_value_t = 1)]
    pub(super) jobs: u32,
    /// Run every target briefly (--time in all, 2 minutes unless given, after the build), as CI
    /// does.
    #[arg(long)]
    pub(super) smoke: bool,
    /// With --smoke: check that diff_stream finds the divergence planted behind the fast model's
    /// `planted-divergence` feature, and triage it into a temporary regressions file.
    #[arg(long)]
    pub(super) planted: bool,
    /// Replay these artifacts with the target whose directory holds them
    /// (`fuzz/artifacts/<target>/`), or with --target T (one) for a file elsewhere; diff_stream
    /// divergences become regression vectors.
    #[arg(long, value_name = "ARTIFACT", num_args = 1..)]
    pub(super) triage: Vec<PathBuf>,
    /// The regressions file --triage appends to.
    #[arg(long, value_name = "FILE")]
    pub(super) regressions: Option<PathBuf>,
    /// Measure the diff_stream oracle's executions per second (16- and 64-instruction streams).
    #[arg(long)]
    pub(super) throughput: bool,
    /// Measure libFuzzer's executions per second for diff_stream on streams of at most 16
    /// instructions (--max-stream), each chip for --time (default here 20s), against the target
    /// (30,000/s).
    #[arg(long)]
    pub(super) rate: bool,
    /// diff_stream runs at most the first N instructions (1 to 64) of each input's stream
    /// (`SFPU_FUZZ_MAX_STREAM`); default: all of them, and 16 with --rate.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=MAX_STREAM as i64))]
    pub(super) max_stream: Option<u32>,
    /// Only write the seed corpora to fuzz/corpus/<target>.
    #[arg(long)]
    pub(super) seeds: bool,
    /// No progress output.
    #[arg(long)]
    pub(super) quiet: bool,
    /// Print the summary as JSON on standard output.
    #[arg(long)]
    pub(super) json: bool,
    /// Internal: the measurement half of --throughput, run in a release build.
    #[arg(long, hide = true)]
    pub(super) throughput_inner: bool,
}

/// Parses `90s`, `20m`, `8h`, `1h30m`, or a number of seconds.
fn parse_duration(text: &str) -> Result<Duration, String> {
    let mut total = 0u64;
    let mut number = String::new();
    for c in text.trim().chars() {
        if c.is_ascii_digit() {
            number.push(c);
            continue;
        }
        let n: u64 =
            number.parse().map_err(|_| format!("`{text}`: expected a duration like 90s, 20m or 8h"))?;
        number.clear();
        total += n * match c {
            's' => 1,
            'm' => 60,
            'h' => 3600,
            'd' => 86400,
            _ => return Err(format!("`{text}`: unknown unit `{c}` (use s, m, h or d)")),
        };
    }
    if !number.is_empty() {
        total += number.parse::<u64>().map_err(|_| format!("`{text}`: not a duration"))?;
    }
    if total == 0 {
        return Err(format!("`{text}`: the duration must be positive"));
    }
    Ok(Duration::from_secs(total))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations() {
        assert_eq!(parse_duration("90s"), Ok(Duration::from_secs(90)));
        assert_eq!(parse_duration("8h"), Ok(Duration::from_secs(8 * 3600)));
        assert_eq!(parse_duration("1h30m"), Ok(Duration::from_secs(5400)));
        assert_eq!(parse_duration("45"), Ok(Duration::from_secs(45)));
        assert!(parse_duration("3x").is_err());
        assert!(parse_duration("0s").is_err());
    }
}
