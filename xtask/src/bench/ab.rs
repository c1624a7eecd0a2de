//! `cargo xtask bench --ab BASELINE`: this build of the fast model against another one, measured
//! in alternating runs.
//!
//! On a shared machine the speed of the same binary moves by several per cent between minutes
//! (and by tens of per cent while a neighbour is busy), so two builds measured one after the other
//! compare the minutes as much as the code. Here both builds run `bench --fast-only` (the fast
//! model only, at the SIMD level in force) as child processes, `--rounds` times, the first of
//! each round alternating between them, and every round gives a ratio of two runs made side by
//! side. The verdict is the median of those per-round ratios, with their range: a range that
//! straddles 1 says that the difference is the machine's as much as the code's.
//!
//! `BASELINE` is a build of xtask made elsewhere, typically at the base commit:
//! `git stash && cargo build --release -p xtask && cp target/release/xtask /tmp/xtask-base && git
//! stash pop`, then `cargo xtask bench --ab /tmp/xtask-base --only fma --arch blackhole`. It must
//! know `--fast-only` (builds from before that option cannot be compared this way).
//!
//! A run that fails, prints something other than `--fast-only`'s JSON (only its first megabyte is
//! read) or does not finish in `60 + 64 x --time` seconds (`SFPU_BENCH_AB_TIMEOUT` seconds when
//! set) ends the comparison with an error that names the command.

use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde_json::{Value, json};

use super::Args;

/// The most rounds `--rounds` accepts (each takes two runs of about `8 x --time` per class).
pub const MAX_ROUNDS: u32 = 100;

/// One build's rate of one chip's class in one run of `bench --fast-only --json`.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    pub arch: String,
    pub class: String,
    pub title: String,
    pub instructions_per_s: f64,
}

/// What `--ab` reports for one chip's class: both builds' rates over the rounds and the
/// per-round ratios `this / baseline`.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    /// Median, slowest and fastest run of the baseline, in instructions per second.
    pub baseline: (f64, f64, f64),
    /// The same for this build.
    pub this: (f64, f64, f64),
    /// Median, lowest and highest per-round ratio `this / baseline`.
    pub ratio: (f64, f64, f64),
}

/// The median (the mean of the middle two for an even count), the smallest and the largest of
/// `v` (not empty).
fn median_range(v: &[f64]) -> (f64, f64, f64) {
    let mut s = v.to_vec();
    s.sort_by(f64::total_cmp);
    let n = s.len();
    let median = if n % 2 == 1 { s[n / 2] } else { (s[n / 2 - 1] + s[n / 2]) / 2.0 };
    (median, s[0], s[n - 1])
}

/// Both builds' figures of one class, round by round (`baseline[i]` and `this[i]` from round
/// `i`): the medians and ranges of each, and of the per-round ratios. `None` if there are no
/// rounds or the two lists differ in length.
pub fn summarize(baseline: &[f64], this: &[f64]) -> Option<Summary> {
    if baseline.is_empty() || baseline.len() != this.len() {
        return None;
    }
    let ratios: Vec<f64> = baseline.iter().zip(this).map(|(a, b)| b / a).collect();
    Some(Summary { baseline: median_range(baseline), this: median_range(this), ratio: median_range(&ratios) })
}

/// The rows of one `bench --fast-only --json` output, or why it is not one.
pub fn parse_fast_only(text: &str) -> Result<Vec<Row>> {
    let v: Value = serde_json::from_str(text).context("its output is not JSON")?;
    if v["fast_only"] != Value::Bool(true) {
        bail!("its output is not that of `bench --fast-only --json` (no \"fast_only\": true)");
    }
    let rows = v["results"].as_array().context("its output has no \"results\" list")?;
    rows.iter()
        .map(|r| {
            let s = |k: &str| {
                r[k].as_str().map(str::to_string).with_context(|| format!("a result without \"{k}\""))
            };
            let ips = r["instructions_per_s"]
                .as_f64()
                .filter(|x| x.is_finite() && *x > 0.0)
                .context("a result without a positive \"instructions_per_s\"")?;
            Ok(Row { arch: s("arch")?, class: s("class")?, title: s("title")?, instructions_per_s: ips })
        })
        .collect()
}

/// A class's title, the baseline's rates and this build's, round by round.
type Rates = (String, Vec<f64>, Vec<f64>);

/// The most output read from one run (a `--fast-only --json` output is a few kilobytes; the
/// rest of a babbling binary's output is left unread).
const OUTPUT_LIMIT: u64 = 1 << 20;

/// Runs `bin` with `args`, for at most `limit`, and returns its rows.
fn run_one(bin: &Path, args: &[String], limit: Duration) -> Result<Vec<Row>> {
    let mut child = Command::new(bin)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .with_context(|| format!("running {}", bin.display()))?;
    // Read both pipes on their own threads (a child blocked on a full pipe never exits), up to
    // the limit, and then drain the rest unread.
    let reader = |pipe: Option<Box<dyn Read + Send>>| {
        std::thread::spawn(move || {
            let mut buf = Vec::new();
            if let Some(mut p) = pipe {
                let _ = p.by_ref().take(OUTPUT_LIMIT).read_to_end(&mut buf);
                let _ = std::io::copy(&mut p, &mut std::io::sink());
            }
            buf
        })
    };
    let out = reader(child.stdout.take().map(|p| Box::new(p) as Box<dyn Read + Send>));
    let err = reader(child.stderr.take().map(|p| Box::new(p) as Box<dyn Read + Send>));
    let deadline = Instant::now() + limit;
    let status = loop {
        if let Some(status) = child.try_wait().with_context(|| format!("waiting for {}", bin.display()))? {
            break status;
        }
        if Instant::now() >= deadline {
            let _ = child.kill();
            let _ = child.wait();
            bail!("{} {} did not finish in {} s", bin.display(), args.join(" "), limit.as_secs());
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let stdout = out.join().unwrap_or_default();
    let stderr = err.join().unwrap_or_default();
    if !status.success() {
        let err = String::from_utf8_lossy(&stderr);
        if err.contains("--fast-only") && err.contains("unexpected argument") {
            bail!(
                "{} does not know `bench --fast-only`: it was built before `--ab` existed, so it \
                 cannot be compared this way",
                bin.display()
            );
        }
        let tail: Vec<&str> = err.lines().rev().take(8).collect::<Vec<_>>().into_iter().rev().collect();
        bail!(
            "{} {} failed ({}){}",
            bin.display(),
            args.join(" "),
            status,
            if tail.is_empty() { String::new() } else { format!(":\n{}", tail.join("\n")) }
        );
    }
    parse_fast_only(&String::from_utf8_lossy(&stdout))
        .with_context(|| format!("{} {}", bin.display(), args.join(" ")))
}

/// `cargo xtask bench --ab BASELINE`.
pub fn main(args: &Args, baseline: &Path) -> Result<ExitCode> {
    if !(1..=MAX_ROUNDS).contains(&args.rounds) {
        bail!("--rounds must be 1 to {MAX_ROUNDS}, got {}", args.rounds);
    }
    if !baseline.is_file() {
        bail!("--ab: {} is not a file (a build of xtask to compare with)", baseline.display());
    }
    let this: PathBuf = std::env::current_exe().context("finding this xtask binary")?;
    let mut child_args: Vec<String> = ["bench", "--fast-only", "--json", "--quiet", "--in-process", "--time"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    child_args.push(args.time.to_string());
    if !args.only.is_empty() {
        child_args.push("--only".into());
        child_args.push(args.only.join(","));
    }
    if !args.arch.is_empty() {
        child_args.push("--arch".into());
        child_args.push(args.arch.iter().map(|a| a.to_string()).collect::<Vec<_>>().join(","));
    }

    // A run measures at most 8 classes on 2 chips for `--time` each (and builds their programs);
    // one that takes far longer than that is stuck.
    // `SFPU_BENCH_AB_TIMEOUT` (seconds) replaces that limit (the tests use it).
    let limit = std::env::var("SFPU_BENCH_AB_TIMEOUT")
        .ok()
        .and_then(|v| v.parse::<f64>().ok())
        .filter(|t| t.is_finite() && *t > 0.0)
        .map_or(Duration::from_secs_f64(60.0 + 16.0 * 4.0 * args.time), Duration::from_secs_f64);

    let bar = if args.quiet {
        ProgressBar::hidden()
    } else {
        let b = ProgressBar::with_draw_target(Some(2 * u64::from(args.rounds)), ProgressDrawTarget::stderr());
        if let Ok(style) = ProgressStyle::with_template("{bar:30} {pos}/{len} {msg}") {
            b.set_style(style);
        }
        b
    };
    // The first run's (arch, class) order, and per (arch, class) its title and both builds' rates.
    let mut order: Vec<(String, String)> = Vec::new();
    let mut rates: BTreeMap<(String, String), Rates> = BTreeMap::new();
    for round in 0..args.rounds {
        let mut runs = [(true, baseline), (false, this.as_path())];
        if round % 2 == 1 {
            runs.reverse();
        }
        for (is_baseline, bin) in runs {
            bar.set_message(format!(
                "round {} of {}: {}",
                round + 1,
                args.rounds,
                if is_baseline { "baseline" } else { "this build" }
            ));
            let rows = run_one(bin, &child_args, limit)?;
            let got: Vec<(String, String)> = rows.iter().map(|r| (r.arch.clone(), r.class.clone())).collect();
            if order.is_empty() {
                order = got.clone();
            }
            if got != order {
                bail!(
                    "the two builds measure different classes ({} reported {:?}, the first run {:?})",
                    bin.display(),
                    got,
                    order
                );
            }
            for r in rows {
                let e = rates.entry((r.arch, r.class)).or_insert_with(|| (r.title, Vec::new(), Vec::new()));
                if is_baseline { &mut e.1 } else { &mut e.2 }.push(r.instructions_per_s);
            }
            bar.inc(1);
        }
    }
    bar.finish_and_clear();

    let summaries: Vec<(&String, &String, &String, Summary)> = order
        .iter()
        .filter_map(|k| {
            let (title, a, b) = rates.get(k)?;
            Some((&k.0, &k.1, title, summarize(a, b)?))
        })
        .collect();
    if args.json {
        let out = json!({
            "ab": true,
            "baseline": baseline.display().to_string(),
            "this": this.display().to_string(),
            "rounds": args.rounds,
            "time_per_measurement_s": args.time,
            "results": summaries.iter().map(|(arch, class, title, s)| json!({
                "arch": arch,
                "class": class,
                "title": title,
                "baseline_instructions_per_s": s.baseline.0,
                "baseline_range": [s.baseline.1, s.baseline.2],
                "this_instructions_per_s": s.this.0,
                "this_range": [s.this.1, s.this.2],
                "ratio_this_over_baseline": s.ratio.0,
                "ratio_range": [s.ratio.1, s.ratio.2],
            })).collect::<Vec<_>>(),
        });
        outln!("{}", serde_json::to_string_pretty(&out)?);
        return Ok(ExitCode::SUCCESS);
    }
    outln!(
        "cargo xtask bench --ab: this build ({}) against the baseline ({}), {} rounds, the first run \
         of each alternating; {:.2} s per measurement",
        this.display(),
        baseline.display(),
        args.rounds,
        args.time
    );
    outln!(
        "(Mi/s: the median run [slowest, fastest]; this/baseline: the median of the per-round ratios \
         [lowest, highest])"
    );
    outln!();
    outln!(
        "{:<10} {:<16} {:>28} {:>28} {:>26}",
        "chip",
        "class",
        "baseline Mi/s",
        "this Mi/s",
        "this/baseline"
    );
    let m = |(med, lo, hi): (f64, f64, f64)| format!("{:.2} [{:.2}, {:.2}]", med / 1e6, lo / 1e6, hi / 1e6);
    for (arch, _, title, s) in &summaries {
        let (r, lo, hi) = s.ratio;
        outln!(
            "{:<10} {:<16} {:>28} {:>28} {:>26}",
            arch,
            title,
            m(s.baseline),
            m(s.this),
            format!("{r:.3} [{lo:.3}, {hi:.3}]")
        );
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Hand-computed: ratios 20/10 = 2, 22/12 = 1.8333.., 33/11 = 3; medians 11, 22 and 2.
    #[test]
    fn summary_pairs_the_rounds() {
        let s = summarize(&[10.0, 12.0, 11.0], &[20.0, 22.0, 33.0]).unwrap();
        assert_eq!(s.baseline, (11.0, 10.0, 12.0));
        assert_eq!(s.this, (22.0, 20.0, 33.0));
        assert_eq!(s.ratio.0, 2.0);
        assert!((s.ratio.1 - 22.0 / 12.0).abs() < 1e-12);
        assert_eq!(s.ratio.2, 3.0);
        // An even count: the mean of the middle two.
        let s = summarize(&[1.0, 1.0, 1.0, 1.0], &[1.0, 2.0, 4.0, 3.0]).unwrap();
        assert_eq!(s.ratio, (2.5, 1.0, 4.0));
        assert_eq!(summarize(&[], &[]), None);
        assert_eq!(summarize(&[1.0], &[1.0, 2.0]), None);
    }

    #[test]
    fn parse_rejects_what_is_not_a_fast_only_run() {
        assert!(parse_fast_only("hello").is_err());
        assert!(parse_fast_only(r#"{"chips": []}"#).is_err());
        let bad = r#"{"fast_only": true, "results": [{"arch": "blackhole", "class": "fma", "title": "FMA family", "instructions_per_s": -1}]}"#;
        assert!(parse_fast_only(bad).is_err());
        let good = r#"{"fast_only": true, "results": [{"arch": "blackhole", "class": "fma", "title": "FMA family", "instructions_per_s": 4.0e7}]}"#;
        assert_eq!(
            parse_fast_only(good).unwrap(),
            vec![Row {
                arch: "blackhole".into(),
                class: "fma".into(),
                title: "FMA family".into(),
                instructions_per_s: 4.0e7
            }]
        );
    }
}
