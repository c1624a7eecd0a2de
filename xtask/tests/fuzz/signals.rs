//! `cargo xtask fuzz` stopped by a signal, as a user stops an overnight run with Ctrl-C: the run
//! passes the signal on to libFuzzer (which stops and prints its final statistics), prints its
//! summary with what the run found, leaves no fuzzer running, and exits with `128 + signal`;
//! `--rate` likewise reports the chip it was measuring and removes its scratch corpus.
//! The two that run cargo-fuzz are reported ignored when it is not installed, except under
//! `SFPU_REQUIRE_CARGO_FUZZ=1` (which CI sets; see `main.rs`). Unix only (signals, process
//! groups, `/proc`).

use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use crate::{XTASK, root};

/// The processes whose command line contains `needle` (other than this one).
fn processes_with(needle: &str) -> Vec<u32> {
    let Ok(dir) = std::fs::read_dir("/proc") else { return Vec::new() };
    dir.filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter(|&pid| pid != std::process::id())
        .filter(|pid| {
            std::fs::read(format!("/proc/{pid}/cmdline"))
                .is_ok_and(|c| String::from_utf8_lossy(&c).replace('\0', " ").contains(needle))
        })
        .collect()
}

/// Sends `signal` to process `pid`.
#[allow(unsafe_code, reason = "kill(2)")]
fn signal(pid: u32, signal: i32) -> bool {
    let Ok(pid) = libc::pid_t::try_from(pid) else { return false };
    // SAFETY: kill(2) has no memory-safety preconditions.
    unsafe { libc::kill(pid, signal) == 0 }
}

/// Kills, when dropped (the test passed or failed), whatever still runs on the corpus: a failing
/// run must not leave a fuzzer behind for 20 minutes.
struct Cleanup(String);

impl Drop for Cleanup {
    fn drop(&mut self) {
        for pid in processes_with(&self.0) {
            signal(pid, libc::SIGKILL);
        }
    }
}

/// Reads all of `pipe` on a thread of its own.
fn read_all(mut pipe: impl Read + Send + 'static) -> std::thread::JoinHandle<String> {
    std::thread::spawn(move || {
        let mut s = String::new();
        let _ = pipe.read_to_string(&mut s);
        s
    })
}

/// Waits up to `limit` for `child` to end; kills it and returns `None` if it does not.
fn exit_within(child: &mut std::process::Child, limit: Duration) -> Option<ExitStatus> {
    let until = Instant::now() + limit;
    loop {
        if let Some(s) = child.try_wait().expect("wait") {
            return Some(s);
        }
        if Instant::now() > until {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// What a run stopped by SIGINT left: its exit status, its standard output parsed as JSON, and
/// its standard error.
struct Stopped {
    code: Option<i32>,
    json: serde_json::Value,
    stderr: String,
}

/// Runs `xtask` with `args`, sends it SIGINT 4 s after it prints a line of standard error that
/// starts with `started` (the build of the fuzz targets may take minutes on a cold cache), and
/// waits up to 60 s for it to end.
fn stop_with_sigint(args: &[&str], started: &'static str) -> (Stopped, u32) {
    let mut child = Command::new(XTASK)
        .args(args)
        .current_dir(root())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run xtask fuzz");
    let pid = child.id();
    let (tx, rx) = mpsc::channel();
    let stderr = child.stderr.take().expect("stderr");
    let reader = std::thread::spawn(move || {
        let mut all = Vec::new();
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            if line.starts_with(started) {
                let _ = tx.send(());
            }
            all.push(line);
        }
        all.join("\n")
    });
    let out = read_all(child.stdout.take().expect("stdout"));
    if rx.recv_timeout(Duration::from_secs(900)).is_err() {
        let _ = child.kill();
        let _ = child.wait();
        panic!("no line starting with {started:?}:\n{}", reader.join().unwrap_or_default());
    }
    // Let libFuzzer start and run a little.
    std::thread::sleep(Duration::from_secs(4));
    assert!(signal(pid, libc::SIGINT), "send SIGINT");
    let Some(status) = exit_within(&mut child, Duration::from_secs(60)) else {
        panic!("the run did not stop within 60 s of SIGINT:\n{}", reader.join().unwrap_or_default());
    };
    let stderr = reader.join().unwrap_or_default();
    let out = out.join().unwrap_or_default();
    let json = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}\nstderr:\n{stderr}"));
    (Stopped { code: status.code(), json, stderr }, pid)
}

/// Waits up to 10 s for every process whose command line contains `needle` to end.
fn none_left(needle: &str) {
    let until = Instant::now() + Duration::from_secs(10);
    while !processes_with(needle).is_empty() {
        assert!(Instant::now() < until, "a fuzzer still runs: {:?}", processes_with(needle));
        std::thread::sleep(Duration::from_millis(100));
    }
}

pub fn a_fuzzing_run_stopped_by_sigint_prints_its_summary() {
    let corpus = root().join("fuzz/corpus/decode");
    let needle = corpus.display().to_string();
    let _cleanup = Cleanup(needle.clone());
    // "fuzzing for ..." comes once the targets are built.
    let (run, _) =
        stop_with_sigint(&["fuzz", "--target", "decode", "--time", "20m", "--json"], "fuzzing for ");
    let (json, err) = (&run.json, &run.stderr);
    assert_eq!(run.code, Some(130), "exit status 128 + SIGINT; stderr:\n{err}\n{json}");
    assert_eq!(json["interrupted"], "SIGINT", "{json}");
    assert_eq!(json["not_fuzzed"], serde_json::json!([]), "{json}");
    assert_eq!(json["ok"], true, "no crash: {json}");
    let t = &json["targets"][0];
    assert_eq!(t["target"], "decode", "{json}");
    assert_eq!(t["interrupted"], "SIGINT", "{json}");
    assert!(t["error"].is_null(), "an interruption is not an error: {json}");
    assert!(t["execs"].as_u64().unwrap_or(0) > 0, "libFuzzer ran and said how much: {json}");
    assert!(t["seconds"].as_f64().unwrap_or(f64::MAX) < 600.0, "stopped early: {json}");
    none_left(&needle);
}

/// `--rate` stopped while it measures the first chip: that chip's figures without a verdict, the
/// other chip named as not measured, no fuzzer left, and the scratch corpus (in `/dev/shm`, memory)
/// removed.
pub fn a_rate_measurement_stopped_by_sigint_reports_what_it_measured() {
    // The scratch folders are named after the runner's process id, known only once it runs.
    let folders = |pid: u32| -> Vec<PathBuf> {
        [Path::new("/dev/shm").to_path_buf(), std::env::temp_dir()]
            .iter()
            .map(|d| d.join(format!("sfpu-fuzz-rate-blackhole-{pid}")))
            .collect()
    };
    let _cleanup = Cleanup("sfpu-fuzz-rate-blackhole-".to_string());
    // "built diff_stream in ..." comes once the target is built; the measurement starts then.
    let (run, pid) = stop_with_sigint(&["fuzz", "--rate", "--time", "10m", "--json"], "built diff_stream");
    let (json, err) = (&run.json, &run.stderr);
    assert_eq!(run.code, Some(130), "exit status 128 + SIGINT; stderr:\n{err}\n{json}");
    assert_eq!(json["interrupted"], "SIGINT", "{json}");
    assert_eq!(json["not_measured"], serde_json::json!(["wormhole"]), "{json}");
    let chips = json["chips"].as_array().expect("chips");
    assert_eq!(chips.len(), 1, "{json}");
    assert_eq!(chips[0]["chip"], "blackhole", "{json}");
    assert!(chips[0]["met"].is_null(), "a run cut short is not judged: {json}");
    assert_eq!(chips[0]["run"]["interrupted"], "SIGINT", "{json}");
    assert!(chips[0]["run"]["error"].is_null(), "an interruption is not an error: {json}");
    assert!(chips[0]["run"]["execs"].as_u64().unwrap_or(0) > 0, "libFuzzer ran and said how much: {json}");
    for folder in folders(pid) {
        none_left(&folder.display().to_string());
        assert!(!folder.exists(), "the scratch corpus {} is left", folder.display());
    }
}

/// `--throughput`'s measurement (`--throughput-inner`, which `--throughput` runs in a release
/// build and passes the signal on to) stopped by SIGINT after its first row: the finished rows
/// stay printed, the unfinished one is named, and the exit status is 128 + SIGINT. Needs no
/// cargo-fuzz.
pub fn a_throughput_measurement_stopped_by_sigint_keeps_its_finished_rows() {
    let mut child = Command::new(XTASK)
        .args(["fuzz", "--throughput-inner"])
        .current_dir(root())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run xtask fuzz --throughput-inner");
    let pid = child.id();
    let stdout = child.stdout.take().expect("stdout");
    let (tx, rx) = mpsc::channel();
    let reader = std::thread::spawn(move || {
        let mut lines = Vec::new();
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            // The title, the header, then one row per chip and length.
            if lines.len() == 2 {
                let _ = tx.send(());
            }
            lines.push(line);
        }
        lines
    });
    let err = read_all(child.stderr.take().expect("stderr"));
    if rx.recv_timeout(Duration::from_secs(120)).is_err() {
        let _ = child.kill();
        let _ = child.wait();
        panic!("no row within 120 s: {:?}", reader.join().unwrap_or_default());
    }
    assert!(signal(pid, libc::SIGINT), "send SIGINT");
    let Some(status) = exit_within(&mut child, Duration::from_secs(30)) else {
        panic!("the measurement did not stop within 30 s of SIGINT: {:?}", reader.join().unwrap_or_default());
    };
    let lines = reader.join().unwrap_or_default();
    let err = err.join().unwrap_or_default();
    assert_eq!(status.code(), Some(130), "exit status 128 + SIGINT; stdout {lines:?}, stderr:\n{err}");
    // The first row (Blackhole, 16 instructions) finished before the signal; not all four did.
    let rows: Vec<&String> = lines.iter().skip(2).collect();
    assert!((1..4).contains(&rows.len()), "{lines:?}");
    assert!(rows[0].split_whitespace().take(2).eq(["blackhole", "16"]), "{lines:?}");
    assert!(err.contains("interrupted by SIGINT: the rows above are complete"), "{err}");
}
