//! The hostile probes, each as the command a user ran, through the built binary: none may panic,
//! hang, lose results or exit 0 on an empty check.
//!
//! Expected values are the documented behaviour: exit status 2 for a usage or input error (with a
//! message naming the problem), 1 for a divergence or error, 128 + signal for an interrupted run
//! whose report is still written (marked incomplete).

use std::io::Read;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::common::{Scratch, blackhole as report, cli, command, text, vectors_of, whole};

/// A fresh scratch directory for one test (removed when the test passes).
fn scratch(name: &str) -> Scratch {
    let dir = crate::common::scratch_path("hostile", name);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn assert_no_panic(o: &Output) {
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!err.contains("panicked") && o.status.code() != Some(101), "{}", text(o));
}

/// Probe 1: a DUT that answers every case with something that is not an answer was restarted for
/// every case without limit. It is now given up on after ten such cases in a row; the run ends,
/// every case is an error, and the report is written.
#[test]
fn a_babbling_dut_is_given_up_on() {
    let dir = scratch("babble");
    let dut = r#"sh -c 'read hello; echo "{\"type\":\"hello\",\"protocol\":\"sfpu-dut/1\",\"name\":\"babbler\",\"version\":\"1\"}"; while read case; do echo "la la la"; done'"#;
    let o = cli(&[
        "conform",
        "--dut",
        dut,
        "--only",
        "SFPNOT,SFPIADD",
        "--cases",
        "1",
        "--no-fastpath",
        "--quiet",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let r = report(&dir);
    let dut_totals = &r["totals"]["dut"];
    assert_eq!(dut_totals["errors"].as_u64(), Some(vectors_of("SFPNOT") + vectors_of("SFPIADD")));
    assert_eq!(dut_totals["passed"].as_u64(), Some(0));
    // The campaign's cases are errors (the DUT failed to run them), not divergences: one per
    // mode value, SFPNOT's one and SFPIADD's 16.
    assert_eq!(dut_totals["random_errors"].as_u64(), Some(17), "{dut_totals}");
    assert_eq!(dut_totals["random_failures"].as_u64(), Some(0), "{dut_totals}");
    let failures = r["failures"].as_array().unwrap();
    let random: Vec<&Value> =
        failures.iter().filter(|f| f["id"].as_str().unwrap().starts_with("random/")).collect();
    assert!(!random.is_empty());
    for f in random {
        assert_eq!(f["kind"], "error", "{f}");
        assert_eq!(f["snippet"], "", "no regression vector for an error: {f}");
    }
    let given_up = failures.iter().any(|f| {
        f["details"]
            .as_str()
            .unwrap_or_default()
            .contains("given up on after 10 consecutive cases without a valid answer")
    });
    assert!(given_up, "a failure says the DUT was given up on: {failures:?}");
}

/// Spawns the command with its standard output a pipe whose reading end is already closed, as
/// `... | head -0` does, and returns the finished process's output.
fn with_closed_stdout(args: &[&str]) -> (Option<i32>, String) {
    let mut child = spawn_piped(args);
    drop(child.stdout.take());
    let mut err = String::new();
    child.stderr.take().unwrap().read_to_string(&mut err).unwrap();
    let status = child.wait().unwrap();
    (status.code(), err)
}

/// Probe 2: `run --trace | head -3` and `conform --only SFPNOP --json | head -2` panicked with
/// "failed printing to stdout: Broken pipe". A closed pipe now silences the output and nothing
/// else: the run finishes, writes its report and exits with its usual status.
#[test]
fn a_closed_pipe_is_not_a_panic() {
    let (code, err) = with_closed_stdout(&["run", "examples/saxpy.sfpu", "--trace"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(!err.contains("panicked") && !err.contains("Broken pipe"), "{err}");

    let dir = scratch("pipe");
    let (code, err) = with_closed_stdout(&[
        "conform",
        "--only",
        "SFPNOP",
        "--json",
        "--cases",
        "3",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(0), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(report(&dir)["totals"]["reference"]["vectors_run"].as_u64(), Some(vectors_of("SFPNOP")));
}

/// Probe 3: `--vectors EMPTY_DIR` reported "0 vectors" and exited 0. Checking nothing is an input
/// error, with or without --chip: the directory holds no chip's vectors (without --chip the first
/// chip is the one checked, after the DUTs' hellos, so that an argument's error comes first).
#[test]
fn an_empty_corpus_is_an_error() {
    let dir = scratch("empty");
    let want =
        format!("no golden vectors to check: {} holds 0 vector file(s) and 0 vector(s)", dir.display());
    for chip in [None, Some("blackhole")] {
        let mut args = vec!["conform", "--vectors", dir.to_str().unwrap(), "--quiet"];
        args.extend(chip.map(|c| ["--chip", c]).into_iter().flatten());
        let o = cli(&args);
        assert_eq!(o.status.code(), Some(2), "{}", text(&o));
        assert!(String::from_utf8_lossy(&o.stderr).contains(&want), "{}", text(&o));
    }
}

/// A FIFO named `*.yaml` among the vector files blocked the loading forever (and swallowed
/// SIGTERM); deeply nested YAML was rejected in quadratic time (100,000 brackets, a 200 KB file:
/// 81 s), as was a `run --state` file of 50,000. Now a FIFO is refused unread, and nesting past 64
/// is refused before parsing, each an input error naming the file (no timing assertion: the old
/// code would not finish either).
#[test]
fn fifos_and_deep_yaml_are_refused_before_parsing() {
    let dir = scratch("fifo");
    let fifo = dir.join("SFPNOP.yaml");
    let made = Command::new("mkfifo").arg(&fifo).status().expect("mkfifo");
    assert!(made.success());
    for (isa, chip) in [("sfpu", "blackhole"), ("amx", "m1")] {
        let fifo = if isa == "amx" {
            let amx = dir.join("amx");
            std::fs::create_dir_all(&amx).unwrap();
            let f = amx.join("m1.yaml");
            assert!(Command::new("mkfifo").arg(&f).status().unwrap().success());
            f
        } else {
            fifo.clone()
        };
        let o =
            cli(&["conform", "--isa", isa, "--chip", chip, "--vectors", dir.to_str().unwrap(), "--quiet"]);
        assert_no_panic(&o);
        assert_eq!(o.status.code(), Some(2), "{isa}: {}", text(&o));
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            err.contains(&fifo.display().to_string()) && err.contains("not a regular file"),
            "{isa}: {err}"
        );
    }

    let deep = scratch("deep-yaml");
    let nested = format!("{}1{}", "[".repeat(100_000), "]".repeat(100_000));
    std::fs::write(deep.join("SFPNOP.yaml"), format!("format: sfpu-vectors/2\nvectors: {nested}\n")).unwrap();
    let o = cli(&["conform", "--chip", "blackhole", "--vectors", deep.to_str().unwrap(), "--quiet"]);
    assert_no_panic(&o);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("SFPNOP.yaml") && err.contains("line 2: collections nested more than 64 deep"),
        "{err}"
    );

    let state = deep.join("state.yaml");
    std::fs::write(&state, format!("lregs: {}1{}\n", "[".repeat(50_000), "]".repeat(50_000))).unwrap();
    let program = deep.join("nop.sfpu");
    std::fs::write(&program, "TTI_SFPNOP\n").unwrap();
    let o = cli(&["run", program.to_str().unwrap(), "--state", state.to_str().unwrap()]);
    assert_no_panic(&o);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("state.yaml") && err.contains("nested more than 64 deep"), "{err}");
}

/// Probe 4: a program line with 20,000 nested parentheses overflowed the parser's stack
/// (SIGABRT). It is now an error naming the line.
#[test]
fn deep_nesting_in_a_program_is_an_error() {
    let dir = scratch("nesting");
    let program = dir.join("deep.sfpu");
    let line = format!("TTI_SFPMAD(0, 1, 2, 3, {}0{})\n", "(".repeat(20_000), ")".repeat(20_000));
    std::fs::write(&program, format!("TTI_SFPNOP\n{line}")).unwrap();
    let o = cli(&["run", program.to_str().unwrap()]);
    assert_no_panic(&o);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("deep.sfpu:2:") && err.contains("parentheses nest deeper than 64"), "{err}");
}

/// Probe 5: `--replay random/SFPMAD/999999999999` never returned (replay time grew with the
/// index). An index beyond the campaign's numbering is an error, and a large valid one replays
/// at once: case 1,000,000 took 53 s, and now takes as long as case 0 (no timing assertion: the
/// test would not finish in the old time either way).
#[test]
fn replay_is_constant_time_and_checks_its_range() {
    let o = cli(&["conform", "--replay", "random/SFPMAD/999999999999"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(String::from_utf8_lossy(&o.stderr).contains("out of range"), "{}", text(&o));
    for bad in ["random/SFPMAD/-1", "random/SFPMAD/x", "random/SFPBOGUS/1", "random/SFPMAD"] {
        let o = cli(&["conform", "--replay", bad]);
        assert_eq!(o.status.code(), Some(2), "{bad}: {}", text(&o));
    }
    let o = cli(&["conform", "--replay", "random/SFPMAD/4294967295"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let o = cli(&["conform", "--replay", "random/streams/1000000"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
}

/// Starts the command with `args` from the repository, with no input and its output piped.
fn spawn_piped<S: AsRef<std::ffi::OsStr>>(args: impl IntoIterator<Item = S>) -> std::process::Child {
    command(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run the sfpu-conformance binary")
}

/// [`spawn_piped`] with `--out dir` after `args`.
#[cfg(unix)]
fn spawn_with_out(args: &[&str], dir: &Path) -> std::process::Child {
    spawn_piped(args.iter().map(std::ffi::OsStr::new).chain([std::ffi::OsStr::new("--out"), dir.as_os_str()]))
}

/// Sends `SIG{signal}` to `child` and waits for it to exit, at most 30 s (then kills it and
/// fails: the signal did not stop `what`).
#[cfg(unix)]
fn signal_and_wait(mut child: std::process::Child, signal: &str, what: &str) -> Output {
    let sent = Command::new("kill").args([&format!("-{signal}"), &child.id().to_string()]).status().unwrap();
    assert!(sent.success());
    let started = Instant::now();
    loop {
        if child.try_wait().unwrap().is_some() {
            return child.wait_with_output().unwrap();
        }
        if started.elapsed() > Duration::from_secs(30) {
            let _ = child.kill();
            panic!("SIG{signal} did not stop {what}");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Probe 6: Ctrl-C, a kill or a hangup during a run kept nothing. The report of what completed is
/// written, marked incomplete, and the exit status says which signal; an unwritable `--out` is
/// refused before the run starts.
#[cfg(unix)]
#[test]
fn an_interrupted_run_writes_what_it_has() {
    // SIGHUP: the terminal of an interactive run went away; the files are still written.
    for (signal, status) in [("INT", 130), ("TERM", 143), ("HUP", 129)] {
        let dir = scratch(&format!("signal-{signal}"));
        // A DUT that answers every case slowly (unsupported after 0.3 s), so the run is still
        // going when the signal arrives, and that leaves a mark when its first case arrives.
        let mark = dir.join("first-case");
        let dut = format!(
            r#"sh -c 'read hello; echo "{{\"type\":\"hello\",\"protocol\":\"sfpu-dut/1\",\"name\":\"slow\",\"version\":\"1\"}}"; while read case; do touch {mark}; sleep 0.3; id=$(echo "$case" | sed "s/.*\"id\":\"\([^\"]*\)\".*/\1/"); echo "{{\"type\":\"unsupported\",\"id\":\"$id\",\"reason\":\"slow\"}}"; done'"#,
            mark = mark.display()
        );
        let child = spawn_with_out(
            &["conform", "--dut", &dut, "--only", "SFPIADD", "--no-fastpath", "--quiet"],
            &dir,
        );
        // Wait until the DUT has its first case (the corpus loads and the reference runs
        // first), then let it answer a few.
        let waiting = Instant::now();
        while !mark.exists() {
            assert!(waiting.elapsed() < Duration::from_secs(120), "the DUT never got a case");
            std::thread::sleep(Duration::from_millis(50));
        }
        std::thread::sleep(Duration::from_secs(1));
        let o = signal_and_wait(child, signal, "the run");
        assert_eq!(o.status.code(), Some(status), "SIG{signal}: {}", text(&o));
        let all = whole(&dir);
        let why = all["incomplete"].as_str().unwrap_or_else(|| panic!("not marked incomplete: {all}"));
        let r = report(&dir);
        assert!(why.starts_with(&format!("interrupted by SIG{signal}")), "{why}");
        assert_eq!(r["totals"]["reference"]["vectors_run"].as_u64(), Some(vectors_of("SFPIADD")));
        let dut_run = r["totals"]["dut"]["vectors_run"].as_u64().unwrap_or(0);
        assert!(
            dut_run > 0 && dut_run < vectors_of("SFPIADD"),
            "the DUT's completed cases are kept: {dut_run}"
        );
        for f in ["report.md", "report.html", "junit.xml"] {
            let t = std::fs::read_to_string(dir.join(f)).unwrap();
            assert!(t.contains("INCOMPLETE") || t.contains("incomplete"), "{f} says it is incomplete");
        }
    }

    let o = cli(&["conform", "--out", "/proc/no-such-dir/report", "--only", "SFPNOT"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--out"), "{}", text(&o));
}

/// Ctrl-C during an AMX section's random campaign stops it within a window of cases (it was
/// honoured only between chips, so a long `--cases` run went on to the end of the chip): the
/// report keeps the cases that ran, says the rest of the campaign was not done, and the exit
/// status is 130. The run asks for 100,000 cases per class (17 million on M1, minutes of work);
/// a signal that comes before the random campaign starts is retried later.
#[cfg(unix)]
#[test]
fn an_interrupted_amx_campaign_stops_within_a_window() {
    for delay_ms in [2_000u64, 4_000, 8_000] {
        let dir = scratch(&format!("amx-signal-{delay_ms}"));
        let child = spawn_with_out(
            &["conform", "--isa", "amx", "--chip", "m1", "--cases", "100000", "--quiet"],
            &dir,
        );
        std::thread::sleep(Duration::from_millis(delay_ms));
        let o = signal_and_wait(child, "INT", "the AMX campaign");
        assert_eq!(o.status.code(), Some(130), "{}", text(&o));
        let all = whole(&dir);
        let why = all["incomplete"].as_str().unwrap_or_else(|| panic!("not marked incomplete: {all}"));
        let Some(m1) = all["chips"].as_array().and_then(|c| c.iter().find(|c| c["arch"] == "m1")) else {
            assert!(why.contains("everything on amx m1"), "{why}");
            continue; // The signal came before the section: try again, later.
        };
        let ran = m1["totals"]["fastpath"]["random_cases"].as_u64().unwrap();
        if ran == 0 {
            continue; // Before the random campaign.
        }
        // 100,000 cases of every class (a row of the matrix but the streams') and 16 times as
        // many streams.
        let classes =
            m1["matrix"].as_array().unwrap().iter().filter(|r| r["instruction"] != "streams").count();
        let full = 100_000 * classes as u64 + 100_000 * 16;
        assert!(ran < full, "the campaign stopped early: {ran} of {full} cases");
        assert!(why.contains("the rest of the m1 random campaign on fastpath"), "{why}");
        let c = &m1["campaign"];
        assert_eq!(c["cases"].as_u64().unwrap() + c["streams"].as_u64().unwrap(), ran, "{c}");
        return;
    }
    panic!("the signal never came during the random campaign");
}

/// Probe 7: errors that need no vectors waited for the corpus to load. They are refused before
/// it is read: given a corpus directory that does not exist, the error is still the argument's.
#[test]
fn argument_errors_come_before_the_corpus() {
    let missing = "/nonexistent/vectors";
    let cases: [(&[&str], &str); 4] = [
        (&["--only", "BOGUS"], "--only: `BOGUS` is no instruction, campaign job or matrix row of"),
        (&["--dut", ""], "--dut"),
        (&["--dut", "sh -c 'exit 3'"], "did not start"),
        (&["--replay", "random/SFPMAD/x"], "is not a case number"),
    ];
    for (args, want) in cases {
        let mut all = vec!["conform", "--vectors", missing];
        all.extend_from_slice(args);
        let o = cli(&all);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", text(&o));
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(want) && !err.contains(missing), "{args:?}: {err}");
    }
}

/// Probe 10, the state loader and the program parser: duplicate keys are refused, numbers too
/// large for any integer are "out of range", and another instruction's mode constant is warned
/// about.
#[test]
fn state_and_program_input_errors_say_what_is_wrong() {
    let dir = scratch("input");
    let program = dir.join("p.sfpu");
    std::fs::write(&program, "TTI_SFPNOP\n").unwrap();
    for (state, want) in [
        ("LReg: {0: 1, 0: 2}\n", "duplicate key 0"),
        ("LReg:\n  0: 99999999999999999999999999\n", "out of range"),
    ] {
        let path = dir.join("state.yaml");
        std::fs::write(&path, state).unwrap();
        let o = cli(&["run", program.to_str().unwrap(), "--state", path.to_str().unwrap()]);
        assert_no_panic(&o);
        assert_eq!(o.status.code(), Some(2), "{state}: {}", text(&o));
        assert!(format!("{:#}", String::from_utf8_lossy(&o.stderr)).contains(want), "{state}: {}", text(&o));
    }

    std::fs::write(&program, "TTI_SFPMAD(0, 1, 2, 3, 99999999999999999999999)\n").unwrap();
    let o = cli(&["run", program.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(String::from_utf8_lossy(&o.stderr).contains("out of range for the field"), "{}", text(&o));

    std::fs::write(&program, "TTI_SFPMAD(0, 1, 2, 3, SFPLOADI_MOD0_FLOATB)\n").unwrap();
    let o = cli(&["run", program.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "a warning, not an error: {}", text(&o));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("p.sfpu:1: warning:") && err.contains("a mode constant of SFPLOADI, not of SFPMAD"),
        "{err}"
    );
}

/// Probe 10, conform: under `--only` the header counts the selected vectors (of the corpus's) and
/// the IEEE 754 section covers only the selected instructions' operations.
#[test]
fn only_narrows_the_header_and_the_ieee_section() {
    let dir = scratch("only");
    let o = cli(&["conform", "--only", "SFPIADD", "--cases", "2", "--out", dir.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    let iadd = vectors_of("SFPIADD");
    assert!(out.contains(&format!("({iadd} of ")), "the header counts the selection: {out}");
    let r = report(&dir);
    assert_eq!(r["corpus"]["vectors"].as_u64(), Some(iadd));
    assert_eq!(r["ieee"].as_array().map(Vec::len), Some(0), "SFPIADD has no IEEE operation");
    // The matrix too: SFPIADD's rows alone (it drew all 42 instructions', 880 cells hatched).
    let rows = r["matrix"].as_array().unwrap();
    assert!(!rows.is_empty() && rows.iter().all(|row| row["instruction"] == "SFPIADD"), "{rows:?}");
    let html = std::fs::read_to_string(dir.join("report.html")).unwrap();
    assert!(!html.contains("data-instruction=\"SFPMAD\""), "the HTML matrix has no SFPMAD cell");

    let o = cli(&["conform", "--only", "SFPCAST", "--cases", "2", "--out", dir.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let r = report(&dir);
    let ops: Vec<&str> =
        r["ieee"].as_array().unwrap().iter().map(|c| c["operation"].as_str().unwrap()).collect();
    assert!(!ops.is_empty() && ops.iter().all(|o| *o == "cast"), "{ops:?}");
}

/// Probe 10, help: `--dut`'s help does not promise a shell. (The other half of this probe,
/// `vectors --check`, is an xtask chore: xtask's `hostile` tests.)
#[test]
fn help_does_not_promise_a_shell() {
    let o = cli(&["conform", "--help"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let help = String::from_utf8_lossy(&o.stdout);
    assert!(help.contains("no shell runs it"), "{help}");
}

/// Two runs with the same `--out` could leave report.json from one and the other three files from
/// the other. A run now writes its files holding the directory's lock: while another holds it
/// (here the test, as a run writing would), the run says so and waits, and writes its whole set
/// once the lock is free.
/// A run into `DIR/out` while the test holds that directory's lock, once it says it waits: the
/// lock, the run, the rest of its standard error, the line it said, and the directory.
struct WaitingRun {
    held: harness_core::report::DirLock,
    run: std::process::Child,
    stderr: std::io::BufReader<std::process::ChildStderr>,
    line: String,
    out: std::path::PathBuf,
}

fn run_waiting_for_the_lock(name: &str) -> (Scratch, WaitingRun) {
    let dir = scratch(name);
    let out = dir.join("out");
    let held = harness_core::report::lock_dir(&out, &|_| {}, &Default::default()).expect("the lock");
    let mut run =
        command(["conform", "--chip", "blackhole", "--only", "SFPNOT", "--cases", "1", "--quiet", "--out"])
            .arg(&out)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
    let mut stderr = std::io::BufReader::new(run.stderr.take().unwrap());
    let mut line = String::new();
    std::io::BufRead::read_line(&mut stderr, &mut line).unwrap();
    (dir, WaitingRun { held, run, stderr, line, out })
}

#[test]
fn a_run_waits_for_another_writing_the_same_out() {
    let (_dir, WaitingRun { held, mut run, mut stderr, line, out }) = run_waiting_for_the_lock("locked");
    assert_eq!(
        line.trim_end(),
        format!(
            "{} is being written by another run (process {}); waiting for it",
            out.display(),
            std::process::id()
        )
    );
    assert!(run.try_wait().unwrap().is_none(), "it waits");
    assert!(!out.join("report.json").exists(), "and writes nothing while it waits");
    drop(held);
    let status = run.wait().unwrap();
    let mut rest = String::new();
    stderr.read_to_string(&mut rest).unwrap();
    assert_eq!(status.code(), Some(0), "{rest}");
    assert!(report(&out)["totals"]["fastpath"]["vectors_run"].as_u64().unwrap() > 0);
}

/// A run waiting for another's lock on its `--out` is stopped by a signal within 2 s (it waited
/// for the lock for ever): it says the report was not written, exits 143, and leaves the
/// directory as the other run has it.
#[cfg(unix)]
#[test]
fn a_signal_ends_the_wait_for_the_lock() {
    let (_dir, WaitingRun { held, mut run, mut stderr, line, out }) =
        run_waiting_for_the_lock("locked-signal");
    assert!(line.contains("waiting for it"), "{line}");
    assert!(Command::new("kill").args(["-TERM", &run.id().to_string()]).status().unwrap().success());
    let signalled = Instant::now();
    let status = loop {
        if let Some(status) = run.try_wait().unwrap() {
            break status;
        }
        assert!(signalled.elapsed() < Duration::from_secs(2), "still waiting for the lock 2 s after SIGTERM");
        std::thread::sleep(Duration::from_millis(10));
    };
    let mut rest = String::new();
    stderr.read_to_string(&mut rest).unwrap();
    assert_eq!(status.code(), Some(143), "{rest}");
    assert!(rest.contains("the report was not written: interrupted while waiting"), "{rest}");
    let left: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(left, [".conform.lock"], "nothing written beside the other run's lock");
    drop(held);
}

/// Disk full (or any write failure) named no file, printed no summary and left report.html cut
/// mid-tag beside the previous run's junit.xml. Now the files are written as a set: a failure
/// names the file, the summary still prints, the previous set is untouched and no temporary is
/// left. (A `report.md` that is a directory makes its rename fail, as a full disk makes a write
/// fail.)
#[test]
fn a_failed_write_keeps_the_previous_report_and_prints_the_summary() {
    let dir = scratch("write-fails");
    let args = |cases: &'static str| {
        vec![
            "conform",
            "--chip",
            "blackhole",
            "--only",
            "SFPNOT",
            "--cases",
            cases,
            "--out",
            dir.to_str().unwrap(),
        ]
    };
    let o = cli(&args("1"));
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let before: Vec<Option<Vec<u8>>> =
        ["report.json", "report.html", "junit.xml"].iter().map(|f| std::fs::read(dir.join(f)).ok()).collect();
    std::fs::remove_file(dir.join("report.md")).unwrap();
    std::fs::create_dir_all(dir.join("report.md").join("in-the-way")).unwrap();
    let o = cli(&args("2"));
    assert_no_panic(&o);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("the report was not written: cannot write") && err.contains("report.md"), "{err}");
    assert!(String::from_utf8_lossy(&o.stdout).contains("overall: PASS"), "the summary: {}", text(&o));
    let after: Vec<Option<Vec<u8>>> =
        ["report.json", "report.html", "junit.xml"].iter().map(|f| std::fs::read(dir.join(f)).ok()).collect();
    assert!(before == after, "the previous report.json, report.html and junit.xml are untouched");
    let left: Vec<String> = std::fs::read_dir(&*dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.file_name().to_string_lossy().into_owned()))
        .filter(|n| n.ends_with(".tmp"))
        .collect();
    assert!(left.is_empty(), "temporaries left: {left:?}");
}

/// Replay lines printed vector ids unquoted: pasting one whose id held `$(...)` or backticks ran
/// it. A DUT failing a vector with such an id now prints, in the terminal and in report.md, a
/// replay line that, run by a shell as printed, replays that vector (and fails the same way)
/// and runs nothing else.
#[test]
fn a_hostile_vector_id_is_quoted_in_every_replay_line() {
    let dir = scratch("hostile-id");
    let vectors = dir.join("vectors");
    std::fs::create_dir_all(&vectors).unwrap();
    let yaml = std::fs::read_to_string(crate::common::repo().join("vectors/blackhole/SFPNOT.yaml")).unwrap();
    let id = "SFPNOT/$(touch${IFS}PWNED);`touch${IFS}PWNED2`;x";
    let first = crate::common::ids_of("SFPNOT")[0].clone();
    let renamed = yaml.replacen(&format!("- id: {first}\n"), &format!("- id: '{id}'\n"), 1);
    assert_ne!(renamed, yaml);
    std::fs::write(vectors.join("SFPNOT.yaml"), renamed).unwrap();
    let out = dir.join("out");
    let dut = format!("{} examples/dut-python/dut.py --wrong-on SFPNOT", crate::common::python());
    let o = cli(&[
        "conform",
        "--chip",
        "blackhole",
        "--vectors",
        vectors.to_str().unwrap(),
        "--dut",
        &dut,
        "--cases",
        "0",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let stdout = String::from_utf8_lossy(&o.stdout).into_owned();
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    let replay_of = |text: &str| -> String {
        text.lines()
            .map(|l| l.trim_start().trim_start_matches("replay: "))
            .find(|l| l.starts_with("sfpu-conformance conform") && l.contains("PWNED"))
            .unwrap_or_else(|| panic!("no replay line for the id in:\n{text}"))
            .to_string()
    };
    for line in [replay_of(&stdout), replay_of(&md)] {
        let bin_dir = Path::new(crate::common::BIN).parent().unwrap();
        let path = format!("{}:{}", bin_dir.display(), std::env::var("PATH").unwrap_or_default());
        let o = Command::new("sh")
            .arg("-c")
            .arg(&line)
            .current_dir(crate::common::repo())
            .env("PATH", path)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert!(
            !crate::common::repo().join("PWNED").exists() && !crate::common::repo().join("PWNED2").exists()
        );
        assert_eq!(o.status.code(), Some(1), "{line}\n{}", text(&o));
        let replayed = String::from_utf8_lossy(&o.stdout);
        assert!(replayed.contains(id) && replayed.contains("dut: FAIL"), "{line}\n{replayed}");
    }
}

/// Reports hid what DUT authors need: at most 3 failures were kept per cell, reasons were
/// grouped by exact text, the coverage line counted passes, and integer results were shown only
/// as floats. Now, for a DUT that answers every SFPIADD vector wrongly (lane 0 of LReg[0] flipped):
/// report.json keeps every failure and says how many there were; `--keep-failures 1` keeps one
/// per cell and says so; cases.jsonl lists every vector on every model, its verdicts adding up
/// to the report's counts; the overall line counts the vectors compared; the differing lanes are
/// read as integers too.
#[test]
fn every_failure_and_every_case_reach_the_dut_author() {
    let dir = scratch("all-failures");
    let dut = format!("{} examples/dut-python/dut.py --wrong-on SFPIADD", crate::common::python());
    let args = |out: &Path, extra: &[&str]| {
        let mut a: Vec<String> = ["conform", "--chip", "blackhole", "--dut", &dut, "--only", "SFPIADD"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        a.extend(["--cases", "0", "--no-fastpath", "--out"].iter().map(|s| s.to_string()));
        a.push(out.display().to_string());
        a.extend(extra.iter().map(|s| s.to_string()));
        a
    };
    let out = dir.join("all");
    let o = command(args(&out, &[])).output().unwrap();
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let r = report(&out);
    let dut_totals = &r["totals"]["dut"];
    let failed = dut_totals["failed"].as_u64().unwrap();
    let failures = r["failures"].as_array().unwrap();
    assert!(failed > 3 * 16, "more failures than 3 per mode value: {dut_totals}");
    assert_eq!(failures.len() as u64, failed, "every failure kept");
    assert_eq!(r["failures_total"].as_u64(), Some(failed));
    assert!(r.get("failure_cap").is_none(), "no cap: {}", r["failure_cap"]);
    let details = failures[0]["details"].as_str().unwrap();
    assert!(details.contains(" | i32 "), "integers read as integers:\n{details}");
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(md.contains(&format!("{failed} failure(s), every one kept in report.json")), "{md}");

    // Every vector on both models, each verdict counted as the report counts it.
    let lines = std::fs::read_to_string(out.join("cases.jsonl")).unwrap();
    let records: Vec<Value> = lines.lines().map(|l| serde_json::from_str(l).expect("a JSON line")).collect();
    let n = vectors_of("SFPIADD");
    assert_eq!(records.len() as u64, 2 * n, "every vector on the reference and the DUT");
    let count = |model: &str, verdict: &str| {
        records.iter().filter(|c| c["model"] == model && c["verdict"] == verdict).count() as u64
    };
    assert_eq!(count("reference", "pass"), n);
    assert_eq!(count("dut", "fail"), failed);
    assert_eq!(count("dut", "pass"), dut_totals["passed"].as_u64().unwrap());
    assert_eq!(count("dut", "not-applicable"), dut_totals["not_applicable"].as_u64().unwrap());
    assert!(records.iter().all(|c| c["isa"] == "sfpu" && c["chip"] == "blackhole"));
    let ids: Vec<&str> =
        records.iter().filter(|c| c["model"] == "dut").map(|c| c["id"].as_str().unwrap()).collect();
    assert_eq!(ids, crate::common::ids_of("SFPIADD"), "in corpus order");
    let fail = records.iter().find(|c| c["verdict"] == "fail").unwrap();
    assert!(fail["reason"].as_str().unwrap().contains("LReg[0]"), "what differs: {fail}");

    // The overall line counts the vectors compared, and says how many passed.
    let stdout = String::from_utf8_lossy(&o.stdout);
    let compared = failed + dut_totals["passed"].as_u64().unwrap();
    let want = format!("dut: blackhole {compared} of {n} vectors compared ({} passed)", dut_totals["passed"]);
    assert!(stdout.contains(&want), "`{want}` in:\n{stdout}");

    // A cap by option: one per cell, the cap and the total stated.
    let capped = dir.join("capped");
    let o = command(args(&capped, &["--keep-failures", "1", "--quiet"])).output().unwrap();
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let r = report(&capped);
    assert_eq!(r["failure_cap"].as_u64(), Some(1));
    assert_eq!(r["failures_total"].as_u64(), Some(failed));
    let failures = r["failures"].as_array().unwrap();
    let mut cells: Vec<(String, String)> =
        failures.iter().map(|f| (f["instruction"].to_string(), f["mode"].to_string())).collect();
    let kept = cells.len();
    cells.dedup();
    assert_eq!(cells.len(), kept, "one per cell");
    let md = std::fs::read_to_string(capped.join("report.md")).unwrap();
    assert!(md.contains(&format!("{failed} failure(s); report.json keeps the first 1 of each")), "{md}");
}

/// A DUT that names the case in every `unsupported` reason got one "reason" per case (20,000 for
/// a long campaign). Reasons are now counted by pattern: one entry, every case counted, the first
/// reason as given and the first ids as examples.
#[cfg(unix)]
#[test]
fn reasons_naming_the_case_are_one_pattern() {
    let dir = scratch("reason-patterns");
    let script = dir.join("dut.sh");
    std::fs::write(
        &script,
        r#"read hello
echo '{"type":"hello","protocol":"sfpu-dut/1","name":"decliner","version":"1"}'
while read case; do
  id=$(echo "$case" | sed 's/.*"id":"\([^"]*\)".*/\1/')
  echo "{\"type\":\"unsupported\",\"id\":\"$id\",\"reason\":\"case $id is not modelled\"}"
done
"#,
    )
    .unwrap();
    let dut = format!("sh '{}'", script.display());
    let out = dir.join("out");
    let o = cli(&[
        "conform",
        "--chip",
        "blackhole",
        "--dut",
        &dut,
        "--only",
        "SFPIADD",
        "--cases",
        "2",
        "--no-fastpath",
        "--accept-unchecked",
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let r = report(&out);
    let reasons: Vec<&Value> =
        r["reasons"].as_array().unwrap().iter().filter(|e| e["model"] == "dut").collect();
    assert_eq!(reasons.len(), 1, "{reasons:?}");
    let e = reasons[0];
    let vectors = vectors_of("SFPIADD");
    let random = r["totals"]["dut"]["random_unsupported"].as_u64().unwrap();
    assert!(random > 0);
    assert_eq!(e["count"].as_u64(), Some(vectors + random));
    // The protocol numbers the cases 1, 2, ... (docs/dut-protocol.md): the DUT names numbers.
    assert_eq!(e["pattern"], "case <n> is not modelled");
    assert_eq!(e["reason"], "case 1 is not modelled");
    assert_eq!(e["examples"][0].as_str(), Some(crate::common::ids_of("SFPIADD")[0].as_str()));
}
