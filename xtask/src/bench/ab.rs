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
//! Every run starts from a fresh copy of its binary, the two builds' copies at paths of the same
//! length (`<temp>/sfpu-bench-ab-<pid>/{baseline,this-run}/xtask`, removed at the end). Two
//! copies of one file are the same program but not the same pages of memory, and that alone moved
//! it: one copy of a build ran the Blackhole SFPLOADMACRO class at 3.6 Mi/s in every run, while six
//! other copies of the same file ran it at 4.9-5.1 (integer/bitwise alike within 3%). Run from
//! one file each, a comparison would have measured that copy's luck for every round; from a fresh
//! copy per run, each round draws it again, for both builds alike.
//!
//! A run that fails, prints something other than `--fast-only`'s JSON (only its first megabyte is
//! read) or does not finish in `60 + 64 x --time` seconds (`SFPU_BENCH_AB_TIMEOUT` seconds when
//! set) ends the comparison with an error that names the command. Ctrl-C (SIGINT) or SIGTERM
//! stops the run in progress and ends the comparison the same way; the copies are removed.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use serde_json::{Value, json};

use super::common::{Args, Rate, progress_bar};
use crate::interrupt::Interrupt;

/// The most rounds `--rounds` accepts (each takes two runs of about `8 x --time` per class).
const MAX_ROUNDS: u32 = 100;

/// One build's rate of one chip's class in one run of `bench --fast-only --json`.
#[derive(Clone, Debug, PartialEq)]
struct Row {
    arch: String,
    class: String,
    title: String,
    instructions_per_s: f64,
}

/// What `--ab` reports for one chip's class: both builds' rates over the rounds (median, slowest
/// and fastest run, in instructions per second) and the per-round ratios `this / baseline`
/// (median, lowest, highest).
#[derive(Clone, Debug, PartialEq)]
struct Summary {
    baseline: Rate,
    this: Rate,
    ratio: Rate,
}

/// Both builds' figures of one class, round by round (`baseline[i]` and `this[i]` from round
/// `i`): the medians and ranges of each, and of the per-round ratios. `None` if there are no
/// rounds or the two lists differ in length.
fn summarize(baseline: &[f64], this: &[f64]) -> Option<Summary> {
    if baseline.len() != this.len() {
        return None;
    }
    let ratios: Vec<f64> = baseline.iter().zip(this).map(|(a, b)| b / a).collect();
    Some(Summary { baseline: Rate::of(baseline)?, this: Rate::of(this)?, ratio: Rate::of(&ratios)? })
}

/// The rows of one `bench --fast-only --json` output, or why it is not one.
fn parse_fast_only(text: &str) -> Result<Vec<Row>> {
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

/// One chip's class as the runs report it: its key and title, and each build's rates, round by
/// round.
struct Column {
    arch: String,
    class: String,
    title: String,
    baseline: Vec<f64>,
    this: Vec<f64>,
}

/// The most output read from one run (a `--fast-only --json` output is a few kilobytes; the
/// rest of a babbling binary's output is left unread).
const OUTPUT_LIMIT: u64 = 1 << 20;

/// The directory of the runs' copies of the two binaries, removed when dropped.
struct Copies {
    dir: PathBuf,
}

impl Copies {
    fn new() -> Result<Copies> {
        let dir = std::env::temp_dir().join(format!("sfpu-bench-ab-{}", std::process::id()));
        for sub in ["baseline", "this-run"] {
            std::fs::create_dir_all(dir.join(sub)).with_context(|| format!("creating {}", dir.display()))?;
        }
        Ok(Copies { dir })
    }

    /// A fresh copy of `bin` for one run, at `<dir>/<sub>/xtask` (`sub`: `baseline` or
    /// `this-run`, the same length): the previous copy is removed first, so that the new one is
    /// written to new pages.
    fn fresh(&self, sub: &str, bin: &Path) -> Result<PathBuf> {
        let to = self.dir.join(sub).join("xtask");
        let _ = std::fs::remove_file(&to);
        std::fs::copy(bin, &to).with_context(|| format!("copying {} to {}", bin.display(), to.display()))?;
        Ok(to)
    }
}

impl Drop for Copies {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Runs `bin` (a copy of `name`) with `args`, for at most `limit` or until `interrupt` says
/// stop, and returns its rows. Errors name `name`.
fn run_one(
    bin: &Path,
    name: &Path,
    args: &[String],
    limit: Duration,
    interrupt: &Interrupt,
) -> Result<Vec<Row>> {
    let mut child = Command::new(bin)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .with_context(|| format!("running {}", name.display()))?;
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
        if let Some(status) = child.try_wait().with_context(|| format!("waiting for {}", name.display()))? {
            break status;
        }
        if Instant::now() >= deadline {
            let _ = child.kill();
            let _ = child.wait();
            bail!("{} {} did not finish in {} s", name.display(), args.join(" "), limit.as_secs());
        }
        if interrupt.signal().is_some() {
            let _ = child.kill();
            break child.wait().with_context(|| format!("waiting for {}", name.display()))?;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let stdout = out.join().unwrap_or_default();
    let stderr = err.join().unwrap_or_default();
    // Stopped by the signal, or the child (in the same process group) got it too and ended.
    if let Some(signal) = interrupt.signal() {
        bail!("stopped by {signal} while {} {} ran", name.display(), args.join(" "));
    }
    if !status.success() {
        let err = String::from_utf8_lossy(&stderr);
        if err.contains("--indirect-index") && err.contains("unexpected argument") {
            bail!(
                "{} does not know `bench --indirect-index`: it was built before that option existed",
                name.display()
            );
        }
        if (err.contains("--kernels") && err.contains("unexpected argument"))
            || err.contains("unknown class `sfpi`")
        {
            bail!(
                "{} does not know the SFPI kernels' rows (`bench --only sfpi`, `--kernels`): it was \
                 built before they existed",
                name.display()
            );
        }
        if err.contains("--fast-only") && err.contains("unexpected argument") {
            bail!(
                "{} does not know `bench --fast-only`: it was built before `--ab` existed, so it \
                 cannot be compared this way",
                name.display()
            );
        }
        let tail: Vec<&str> = err.lines().rev().take(8).collect::<Vec<_>>().into_iter().rev().collect();
        bail!(
            "{} {} failed ({}){}",
            name.display(),
            args.join(" "),
            status,
            if tail.is_empty() { String::new() } else { format!(":\n{}", tail.join("\n")) }
        );
    }
    parse_fast_only(&String::from_utf8_lossy(&stdout))
        .with_context(|| format!("{} {}", name.display(), args.join(" ")))
}

/// `cargo xtask bench --ab BASELINE`.
pub(super) fn main(args: &Args, baseline: &Path, kernels: usize) -> Result<ExitCode> {
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
    if let Some(r) = args.indirect_index {
        child_args.push("--indirect-index".into());
        child_args.push(r.to_string());
    }
    if !args.kernels.is_empty() {
        child_args.push("--kernels".into());
        child_args.push(args.kernels.join(","));
    }

    // A run measures at most 8 classes and `kernels` SFPI kernels on 2 chips for `--time` each
    // (and builds their programs); one that takes far longer than that is stuck.
    // `SFPU_BENCH_AB_TIMEOUT` (seconds) replaces that limit (the tests use it).
    let rows = 2.0 * (8 + kernels) as f64;
    let limit = std::env::var("SFPU_BENCH_AB_TIMEOUT")
        .ok()
        .and_then(|v| v.parse::<f64>().ok())
        .filter(|t| t.is_finite() && *t > 0.0)
        .map_or(Duration::from_secs_f64(60.0 + rows * 4.0 * args.time), Duration::from_secs_f64);

    let interrupt = Interrupt::install().context("installing the SIGINT / SIGTERM handlers")?;
    let copies = Copies::new()?;
    let bar = progress_bar(args.quiet, 2 * u64::from(args.rounds));
    // In the first run's order; every run must report the same chips and classes in it.
    let mut columns: Vec<Column> = Vec::new();
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
            let copy = copies.fresh(if is_baseline { "baseline" } else { "this-run" }, bin)?;
            let rows = run_one(&copy, bin, &child_args, limit, &interrupt)?;
            if columns.is_empty() {
                columns = rows
                    .iter()
                    .map(|r| Column {
                        arch: r.arch.clone(),
                        class: r.class.clone(),
                        title: r.title.clone(),
                        baseline: Vec::new(),
                        this: Vec::new(),
                    })
                    .collect();
            }
            let same = rows.len() == columns.len()
                && rows.iter().zip(&columns).all(|(r, c)| r.arch == c.arch && r.class == c.class);
            if !same {
                let keys = |v: Vec<(&str, &str)>| format!("{v:?}");
                bail!(
                    "the two builds measure different classes ({} reported {}, the first run {})",
                    bin.display(),
                    keys(rows.iter().map(|r| (r.arch.as_str(), r.class.as_str())).collect()),
                    keys(columns.iter().map(|c| (c.arch.as_str(), c.class.as_str())).collect())
                );
            }
            for (r, c) in rows.iter().zip(&mut columns) {
                if is_baseline { &mut c.baseline } else { &mut c.this }.push(r.instructions_per_s);
            }
            bar.inc(1);
        }
    }
    bar.finish_and_clear();

    let summaries: Vec<(&Column, Summary)> =
        columns.iter().filter_map(|c| Some((c, summarize(&c.baseline, &c.this)?))).collect();
    if args.json {
        let out = json!({
            "ab": true,
            "baseline": baseline.display().to_string(),
            "this": this.display().to_string(),
            "rounds": args.rounds,
            "time_per_measurement_s": args.time,
            "indirect_index": args.indirect_index,
            "results": summaries.iter().map(|(c, s)| json!({
                "arch": c.arch,
                "class": c.class,
                "title": c.title,
                "baseline_instructions_per_s": s.baseline.median,
                "baseline_range": [s.baseline.lo, s.baseline.hi],
                "this_instructions_per_s": s.this.median,
                "this_range": [s.this.lo, s.this.hi],
                "ratio_this_over_baseline": s.ratio.median,
                "ratio_range": [s.ratio.lo, s.ratio.hi],
            })).collect::<Vec<_>>(),
        });
        outln!("{}", serde_json::to_string_pretty(&out)?);
        return Ok(ExitCode::SUCCESS);
    }
    outln!(
        "cargo xtask bench --ab: this build ({}) against the baseline ({}), {} rounds, the first run \
         of each alternating; {:.2} s per measurement{}",
        this.display(),
        baseline.display(),
        args.rounds,
        args.time,
        match args.indirect_index {
            Some(r) => format!("; every lane's LReg[7] names LReg[{r}]"),
            None => String::new(),
        }
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
    let m = |r: Rate| format!("{:.2} [{:.2}, {:.2}]", r.median / 1e6, r.lo / 1e6, r.hi / 1e6);
    for (c, s) in &summaries {
        let Rate { median: r, lo, hi } = s.ratio;
        outln!(
            "{:<10} {:<16} {:>28} {:>28} {:>26}",
            c.arch,
            c.title,
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
        let parts = |r: Rate| (r.median, r.lo, r.hi);
        assert_eq!(parts(s.baseline), (11.0, 10.0, 12.0));
        assert_eq!(parts(s.this), (22.0, 20.0, 33.0));
        assert_eq!(s.ratio.median, 2.0);
        assert!((s.ratio.lo - 22.0 / 12.0).abs() < 1e-12);
        assert_eq!(s.ratio.hi, 3.0);
        // An even count: the mean of the middle two.
        let s = summarize(&[1.0, 1.0, 1.0, 1.0], &[1.0, 2.0, 4.0, 3.0]).unwrap();
        assert_eq!(parts(s.ratio), (2.5, 1.0, 4.0));
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
