//! External DUTs over the `sfpu-dut/1` protocol (`docs/dut-protocol.md`), end to end: the example
//! Python DUT (`examples/dut-python/dut.py`) runs golden vectors through the harness, passing what
//! it implements and answering `unsupported` for the rest; injected crashes, hangs and garbage are
//! recorded for their case and the cases after them still run; and `parse_answer` turns any bytes
//! into an answer or an error without panicking.
//!
//! Needs `python3` (3.11 or later) on the PATH.

use harness_core::isa::Model as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use harness_sfpu::ModelError;
use harness_sfpu::dut::{
    Answer, ExternalModel, MAX_CONSECUTIVE_FAULTS, MAX_CONSECUTIVE_TIMEOUTS, MAX_FAILED_STARTS, RefusedDut,
    parse_answer, split_command_line,
};
use harness_sfpu::vectors::{Status, Strictness, Vector, VectorFile, load_file, run_vector};
use proptest::prelude::*;
use sfpu_reference::isa::Arch;
use sfpu_reference::outcome::Clause;
use sfpu_reference::state::{Hex, LaneBits, PerLane};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn python_dut(flags: &[&str]) -> Vec<String> {
    let script = repo().join("examples/dut-python/dut.py");
    let mut argv = vec!["python3".to_string(), script.to_string_lossy().into_owned()];
    argv.extend(flags.iter().map(|f| f.to_string()));
    argv
}

fn spawn(argv: &[String], timeout: Duration) -> ExternalModel {
    match ExternalModel::spawn_argv(argv, Arch::Blackhole, timeout) {
        Ok(m) => m,
        Err(e) => panic!("cannot start {argv:?} (python3 3.11+ is needed on the PATH): {e}"),
    }
}

fn load(name: &str) -> VectorFile {
    let path = repo().join("vectors/blackhole").join(format!("{name}.yaml"));
    load_file(&path).unwrap_or_else(|e| panic!("{}: {e:?}", path.display()))
}

/// `SFPMOV` vectors whose Mod1 has FROM_SPECIAL (bit 3), which the example DUT does not implement.
fn from_special(v: &Vector) -> bool {
    v.program.iter().any(|w| w.word.0 >> 24 == 0x7C && w.word.0 & 8 != 0)
}

/// Every vector of the implemented instructions passes (state and outcome, current-silicon
/// strictness); SFPMOV's FROM_SPECIAL modes and SFPMAD, which the DUT's hello refuses up front,
/// are not applicable (never sent), or, when it declares nothing, `unsupported` with its reason;
/// and a deliberately wrong expectation fails (so the comparison is real).
#[test]
fn python_dut_passes_what_it_implements() {
    let started = Instant::now();
    let model = spawn(&python_dut(&[]), Duration::from_secs(10));
    assert_eq!(model.describe(), "dut-python 0.1.0");
    assert_eq!(model.name(), "dut-python");
    let implemented = [
        "SFPLOADI", "SFPMOV", "SFPIADD", "SFPAND", "SFPOR", "SFPXOR", "SFPNOT", "SFPNOP", "SFPENCC",
        "SFPSETCC",
    ];
    let mut problems = Vec::new();
    let (mut passed, mut unsupported) = (0, 0);
    let (mut expect_passed, mut expect_unsupported) = (0, 0);
    for name in implemented.iter().chain(&["SFPMAD"]) {
        let file = load(name);
        for v in &file.vectors {
            if *name == "SFPMAD" || from_special(v) {
                expect_unsupported += 1;
            } else {
                expect_passed += 1;
            }
            let r = run_vector(&model, &file, v, Strictness::Silicon);
            let expect_unsupported = *name == "SFPMAD" || from_special(v);
            match (&r.status, expect_unsupported) {
                (Status::Pass, false) => passed += 1,
                (Status::NotApplicable(why), true) => {
                    let want = if *name == "SFPMAD" {
                        "refused up front: SFPMAD"
                    } else {
                        "refused up front: SFPMOV/mod1="
                    };
                    if why.to_string().contains(want) {
                        unsupported += 1;
                    } else {
                        problems.push(format!("{}: not applicable for the wrong reason: {why}", v.id));
                    }
                }
                (Status::Fail(f), _) => problems.push(f.report.clone()),
                (other, _) => problems.push(format!("{}: {other:?}", v.id)),
            }
        }
    }
    assert!(problems.is_empty(), "{} problem(s):\n{}", problems.len(), problems.join("\n"));
    // Every SFPMAD vector and SFPMOV's FROM_SPECIAL ones declined, every other one passed.
    assert!(expect_passed > 0 && expect_unsupported > load("SFPMAD").vectors.len());
    assert_eq!(unsupported, expect_unsupported, "SFPMAD and SFPMOV FROM_SPECIAL");
    assert_eq!(passed, expect_passed);

    // Declaring nothing, the DUT is sent everything and declines what it does not implement.
    let undeclared = spawn(&python_dut(&["--no-declaration"]), Duration::from_secs(10));
    let mad = load("SFPMAD");
    match run_vector(&undeclared, &mad, &mad.vectors[0], Strictness::Silicon).status {
        Status::Unsupported(why) => assert!(why.contains("SFPMAD is not implemented"), "{why}"),
        other => panic!("expected unsupported, got {other:?}"),
    }
    let mov = load("SFPMOV");
    let v = mov.vectors.iter().find(|v| from_special(v)).unwrap();
    match run_vector(&undeclared, &mov, v, Strictness::Silicon).status {
        Status::Unsupported(why) => assert!(why.contains("FROM_SPECIAL"), "{why}"),
        other => panic!("expected unsupported, got {other:?}"),
    }

    // A wrong expectation is caught: flip a bit of SFPNOT's expected result.
    let file = load("SFPNOT");
    let mut v = file.vectors[0].clone();
    let (reg, values) = v.post.LReg.iter_mut().next().expect("SFPNOT writes a register");
    let reg = reg.0;
    let mut lanes = values.expand().expect("SFPNOT's vectors skip nothing");
    lanes[5].0 ^= 1;
    *values = PerLane::Each(lanes.to_vec());
    let r = run_vector(&model, &file, &v, Strictness::Silicon);
    match r.status {
        Status::Fail(f) => assert!(f.report.contains(&format!("LReg[{reg}]")), "{}", f.report),
        other => panic!("a wrong expectation was not caught: {other:?}"),
    }
    eprintln!("{passed} passed, {unsupported} unsupported in {:?}", started.elapsed());
}

/// The faults the example DUT can inject are each recorded for their case, with the right
/// message; the DUT is restarted and every later case still runs.
#[test]
fn crashes_hangs_and_garbage_are_recorded_and_the_run_goes_on() {
    let timeout = Duration::from_secs(2);
    let model = spawn(
        &python_dut(&["--crash-on", "SFPNOT", "--hang-on", "SFPAND", "--garbage-on", "SFPXOR"]),
        timeout,
    );
    let files: Vec<VectorFile> = ["SFPMOV", "SFPNOT", "SFPIADD", "SFPAND", "SFPLOADI", "SFPXOR", "SFPMAD"]
        .iter()
        .map(|n| load(n))
        .collect();
    let pick = |name: &str, i: usize| {
        let f = files.iter().find(|f| f.file == name).expect("loaded");
        (f, &f.vectors[i])
    };
    let plan = [
        (pick("SFPMOV", 0), "pass"),
        (pick("SFPNOT", 0), "crash"),
        (pick("SFPIADD", 0), "pass"),
        (pick("SFPNOT", 1), "crash"),
        (pick("SFPAND", 0), "hang"),
        (pick("SFPLOADI", 0), "pass"),
        (pick("SFPXOR", 0), "garbage"),
        (pick("SFPMOV", 1), "pass"),
        (pick("SFPMAD", 0), "not applicable"),
        (pick("SFPIADD", 1), "pass"),
    ];
    let started = Instant::now();
    let mut problems = Vec::new();
    for ((file, v), want) in plan {
        let case_started = Instant::now();
        let r = run_vector(&model, file, v, Strictness::Silicon);
        let took = case_started.elapsed();
        let ok = match (&r.status, want) {
            (Status::Pass, "pass") => true,
            (Status::NotApplicable(why), "not applicable") => why.to_string().contains("SFPMAD"),
            (Status::Error(m), "crash") => {
                m.starts_with("crashed (exit status: 3) before answering case `")
                    && m.contains("stderr tail: dut-python: injected crash")
            }
            (Status::Error(m), "hang") => {
                m.starts_with("timeout after 2s waiting for case `")
                    && m.contains("injected hang")
                    && took >= timeout
                    && took < timeout + Duration::from_secs(3)
            }
            (Status::Error(m), "garbage") => {
                m.starts_with("malformed answer: not JSON") && m.contains("this is not a protocol message")
            }
            _ => false,
        };
        if !ok {
            problems.push(format!("{} (expected {want}, took {took:?}): {:?}", v.id, r.status));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    let elapsed = started.elapsed();
    assert!(elapsed < Duration::from_secs(15), "the faulty run took {elapsed:?}");
    eprintln!("faulty run: {elapsed:?}");
}

/// A DUT that cannot do the architecture says so at the hello: `Unsupported`, not a failure. A
/// command that does not exist, or a DUT that dies before its hello, is a failure.
#[test]
fn start_up_problems() {
    match ExternalModel::spawn_argv(&python_dut(&[]), Arch::Wormhole, Duration::from_secs(5)) {
        Err(ModelError::Unsupported(m)) => {
            assert!(m.contains("refused the hello") && m.contains("blackhole only"), "{m}")
        }
        other => panic!("expected a refusal, got {other:?}"),
    }
    match ExternalModel::spawn("/nonexistent/dut --flag", Arch::Blackhole, Duration::from_secs(5)) {
        Err(ModelError::Failed(m)) => assert!(m.contains("cannot start `/nonexistent/dut`"), "{m}"),
        other => panic!("expected a failure, got {other:?}"),
    }
    match ExternalModel::spawn("sh -c 'echo dying >&2; exit 7'", Arch::Blackhole, Duration::from_secs(5)) {
        Err(ModelError::Failed(m)) => {
            assert_eq!(m, "crashed (exit status: 7) before answering the hello; stderr tail: dying")
        }
        other => panic!("expected a failure, got {other:?}"),
    }
    match ExternalModel::spawn_argv(&python_dut(&[]), Arch::Blackhole, Duration::ZERO) {
        Err(ModelError::Failed(m)) => assert!(m.contains("timeout must be positive"), "{m}"),
        other => panic!("a zero timeout fails every case: refuse it, got {other:?}"),
    }
    // A refusal, as a model: every case unsupported with the DUT's reason.
    let refused = RefusedDut::new("the DUT refused the hello: wormhole only");
    let pre = sfpu_reference::State::reset(Arch::Blackhole, &sfpu_reference::ResetValues::ZEROS);
    match harness_core::isa::Model::<harness_sfpu::Sfpu>::run(&refused, Arch::Blackhole, &pre, &[0x8F00_0000])
    {
        Err(ModelError::Unsupported(m)) => assert!(m.contains("wormhole only"), "{m}"),
        other => panic!("{other:?}"),
    }
}

/// A shell DUT (protocol by hand): says hello, then runs `per_case` for the first case.
fn shell_dut(per_case: &str) -> Vec<String> {
    let script = format!(
        r#"read hello; echo '{{"type":"hello","protocol":"sfpu-dut/1","name":"sh","version":"1"}}'
        read case; {per_case}"#
    );
    vec!["sh".to_string(), "-c".to_string(), script]
}

fn zero_state() -> sfpu_reference::State {
    sfpu_reference::State::reset(Arch::Blackhole, &sfpu_reference::ResetValues::ZEROS)
}

fn failure_of(model: &ExternalModel) -> String {
    match model.run(Arch::Blackhole, &zero_state(), &[0x8F00_0000]) {
        Err(ModelError::Failed(m)) => m,
        other => panic!("expected a failure, got {other:?}"),
    }
}

/// A fresh scratch directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("dut_{}_{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A DUT that exits cleanly, or ends with an unterminated line, before answering, or writes a
/// line over the size limit: each is that case's failure, with what happened.
#[test]
fn exits_unterminated_lines_and_huge_lines() {
    let model = spawn(&shell_dut("exit 0"), Duration::from_secs(5));
    assert_eq!(failure_of(&model), "exited (exit status: 0) before answering case `1`");

    let model = spawn(
        &shell_dut(r#"printf '{"type":"result","id":"1","state":{}}'; exit 0"#),
        Duration::from_secs(5),
    );
    let m = failure_of(&model);
    assert_eq!(
        m,
        r#"exited (exit status: 0) before answering case `1`; it left an unterminated line `{"type":"result","id":"1","state":{}}`"#
    );

    // 17 MB of `x` and a line feed: over the 16 MiB limit.
    let model = spawn(&shell_dut("head -c 17000000 /dev/zero | tr '\\0' x; echo"), Duration::from_secs(20));
    let m = failure_of(&model);
    assert_eq!(m, "malformed answer: a line longer than 16 MiB", "{m}");
}

/// A DUT that answers once, then fails every restart, is given up on after
/// [`MAX_FAILED_STARTS`] failed restarts: later cases fail at once with the reason.
#[test]
fn given_up_after_failed_restarts() {
    let dir = scratch("restarts");
    let mark = dir.join("started");
    // The first process says hello and exits at its first case; every later one exits at once.
    let script = format!(
        r#"if [ -e '{m}' ]; then echo 'no second start' >&2; exit 5; fi; touch '{m}'
        read hello; echo '{{"type":"hello","protocol":"sfpu-dut/1","name":"once","version":"1"}}'
        read case; exit 0"#,
        m = mark.display()
    );
    let model = spawn(&["sh".to_string(), "-c".to_string(), script], Duration::from_secs(5));
    assert!(failure_of(&model).starts_with("exited (exit status: 0) before answering case `1`"));
    for attempt in 1..=MAX_FAILED_STARTS {
        let m = failure_of(&model);
        assert!(
            m.starts_with("cannot restart the DUT: crashed (exit status: 5) before answering the hello")
                && m.contains("no second start"),
            "restart {attempt}: {m}"
        );
        assert_eq!(model.given_up().is_some(), attempt == MAX_FAILED_STARTS, "after restart {attempt}");
    }
    let started = Instant::now();
    let m = failure_of(&model);
    assert!(
        m.starts_with("the DUT was given up on after 3 failed restarts; the last: cannot restart"),
        "{m}"
    );
    assert!(started.elapsed() < Duration::from_millis(500), "a given-up DUT fails at once");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A DUT that never answers is given up on after [`MAX_CONSECUTIVE_TIMEOUTS`] timeouts in a
/// row, instead of costing the timeout on every later case; an answer in between resets the
/// count.
#[test]
fn given_up_after_consecutive_timeouts() {
    // Answers the case numbered 2 (unsupported), hangs on every other.
    let script = r#"read hello; echo '{"type":"hello","protocol":"sfpu-dut/1","name":"slow","version":"1"}'
        while read case; do
          case "$case" in *'"id":"2"'*) echo '{"type":"unsupported","id":"2","reason":"not this one"}';; *) sleep 1000;; esac
        done"#;
    let timeout = Duration::from_secs(1);
    let model = spawn(&["sh".to_string(), "-c".to_string(), script.to_string()], timeout);
    assert!(failure_of(&model).starts_with("timeout after 1s waiting for case `1`"));
    match model.run(Arch::Blackhole, &zero_state(), &[0x8F00_0000]) {
        Err(ModelError::Unsupported(m)) => assert_eq!(m, "not this one"),
        other => panic!("{other:?}"),
    }
    for n in 3..3 + MAX_CONSECUTIVE_TIMEOUTS {
        assert!(model.given_up().is_none(), "case {n}");
        let m = failure_of(&model);
        assert!(m.starts_with(&format!("timeout after 1s waiting for case `{n}`")), "{m}");
    }
    let reason = model.given_up().expect("given up after three timeouts in a row");
    assert!(reason.starts_with("the DUT was given up on after 3 consecutive timeouts of 1s"), "{reason}");
    let started = Instant::now();
    assert_eq!(failure_of(&model), reason);
    assert!(started.elapsed() < Duration::from_millis(500), "a given-up DUT fails at once");
}

/// A DUT that answers every case with something that is not an answer is restarted for each, until
/// [`MAX_CONSECUTIVE_FAULTS`] cases in a row have failed that way; then it is given up on (without
/// the limit such a DUT would be restarted once per case, for every case). A valid answer in
/// between resets the count.
#[test]
fn given_up_after_consecutive_malformed_answers() {
    // Case 2 gets a valid `unsupported`; every other case a line that is not JSON.
    let script = r#"read hello; echo '{"type":"hello","protocol":"sfpu-dut/1","name":"babbler","version":"1"}'
        while read case; do
          case "$case" in *'"id":"2"'*) echo '{"type":"unsupported","id":"2","reason":"not this one"}';; *) echo 'la la la';; esac
        done"#;
    let model = spawn(&["sh".to_string(), "-c".to_string(), script.to_string()], Duration::from_secs(5));
    assert!(failure_of(&model).starts_with("malformed answer"), "case 1");
    assert!(matches!(
        model.run(Arch::Blackhole, &zero_state(), &[0x8F00_0000]),
        Err(ModelError::Unsupported(_))
    ));
    for n in 3..3 + MAX_CONSECUTIVE_FAULTS as u64 {
        assert!(model.given_up().is_none(), "case {n}: the count restarted at case 2");
        let m = failure_of(&model);
        assert!(m.starts_with("malformed answer"), "case {n}: {m}");
    }
    let reason = model.given_up().expect("given up after ten malformed answers in a row");
    assert!(
        reason.starts_with("the DUT was given up on after 10 consecutive cases without a valid answer"),
        "{reason}"
    );
    assert!(reason.contains("la la la"), "the last fault is quoted: {reason}");
    let started = Instant::now();
    assert_eq!(failure_of(&model), reason);
    assert!(started.elapsed() < Duration::from_millis(500), "a given-up DUT fails at once");
}

/// A DUT run through a shell without `exec` has a grandchild; a timeout kills the whole process
/// group, so the grandchild does not outlive the case.
#[cfg(target_os = "linux")]
#[test]
fn a_timeout_kills_the_dut_s_grandchildren() {
    let dir = scratch("group");
    let pid_file = dir.join("pid");
    let model = spawn(
        &shell_dut(&format!("sleep 1000 & echo $! > '{}'; wait", pid_file.display())),
        Duration::from_secs(1),
    );
    assert!(failure_of(&model).starts_with("timeout after 1s waiting for case `1`"));
    let pid: u32 = std::fs::read_to_string(&pid_file).unwrap().trim().parse().unwrap();
    // Gone, or a zombie waiting for init to reap it.
    let alive = || {
        std::fs::read_to_string(format!("/proc/{pid}/stat"))
            .is_ok_and(|stat| stat.rsplit(')').next().is_some_and(|rest| !rest.trim_start().starts_with('Z')))
    };
    let started = Instant::now();
    while alive() && started.elapsed() < Duration::from_secs(3) {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(!alive(), "the DUT's grandchild (sleep, pid {pid}) survived the timeout");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Whether process `pid` is running (not gone, not a zombie waiting to be reaped).
#[cfg(target_os = "linux")]
fn alive(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .is_ok_and(|stat| stat.rsplit(')').next().is_some_and(|rest| !rest.trim_start().starts_with('Z')))
}

/// Waits up to 2 s for process `pid` to be gone.
#[cfg(target_os = "linux")]
fn gone_within_2s(pid: u32) -> bool {
    let started = Instant::now();
    while alive(pid) && started.elapsed() < Duration::from_secs(2) {
        std::thread::sleep(Duration::from_millis(20));
    }
    !alive(pid)
}

/// A run interrupted while a DUT hangs on a case (a 10-minute timeout): the wait ends within the
/// poll interval of the interruption, the case is `Interrupted` (not a failure of the DUT), the
/// DUT's group is killed (its grandchild too), and no later case starts a new process.
#[cfg(target_os = "linux")]
#[test]
fn an_interruption_ends_the_wait_for_an_answer() {
    let dir = scratch("cancel");
    let pid_file = dir.join("pid");
    let cancel = harness_core::observe::Cancel::default();
    let argv = shell_dut(&format!("sleep 1000 & echo $! > '{}'; wait", pid_file.display()));
    let line = argv.iter().map(|a| format!("'{}'", a.replace('\'', r"'\''"))).collect::<Vec<_>>().join(" ");
    let model = ExternalModel::spawn_cancellable(&line, Arch::Blackhole, Duration::from_secs(600), &cancel)
        .expect("the DUT starts");
    let raiser = {
        let cancel = cancel.clone();
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(300));
            cancel.cancel();
            Instant::now()
        })
    };
    let answer = model.run(Arch::Blackhole, &zero_state(), &[0x8F00_0000]);
    let ended = Instant::now();
    let raised = raiser.join().unwrap();
    assert!(matches!(answer, Err(ModelError::Interrupted)), "{answer:?}");
    let late = ended.saturating_duration_since(raised);
    assert!(late < Duration::from_millis(500), "the wait went on {late:?} after the interruption");
    let pid: u32 = std::fs::read_to_string(&pid_file).unwrap().trim().parse().unwrap();
    assert!(gone_within_2s(pid), "the DUT's grandchild (sleep, pid {pid}) survived the interruption");
    // The next case does not restart the DUT.
    assert!(matches!(
        model.run(Arch::Blackhole, &zero_state(), &[0x8F00_0000]),
        Err(ModelError::Interrupted)
    ));
    assert!(model.given_up().is_none(), "an interruption is not the DUT's fault");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A panic while a DUT is running (its model held on the panicking thread's stack) kills the
/// DUT's whole process group as the stack unwinds: a grandchild does not outlive it.
#[cfg(target_os = "linux")]
#[test]
fn a_panic_kills_the_dut_group() {
    let dir = scratch("panic");
    let pid_file = dir.join("pid");
    let script = format!(
        r#"sleep 1000 & echo $! > '{}'; read hello; echo '{{"type":"hello","protocol":"sfpu-dut/1","name":"sh","version":"1"}}'; wait"#,
        pid_file.display()
    );
    let argv = vec!["sh".to_string(), "-c".to_string(), script];
    let unwound = std::panic::catch_unwind(|| {
        let _model = spawn(&argv, Duration::from_secs(600));
        panic!("a bug in the harness");
    });
    assert!(unwound.is_err());
    let pid: u32 = std::fs::read_to_string(&pid_file).unwrap().trim().parse().unwrap();
    assert!(gone_within_2s(pid), "the DUT's grandchild (sleep, pid {pid}) survived the panic");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The protocol can grow: a DUT whose hello says it reads none of the optional state fields
/// (`"reads": []`) gets Wormhole cases without `arch` and without the SFPSHFT2 latch, however
/// strict its parser, and is declared not to model the latch; a DUT without `reads` gets both.
#[test]
fn a_dut_gets_only_the_optional_fields_it_reads() {
    let state: sfpu_reference::state::StateDoc =
        serde_json::from_str(r#"{"arch":"wormhole","SFPSHFT2_vc0":"0x00000007"}"#).unwrap();
    let mut pre = sfpu_reference::State::reset(Arch::Wormhole, &sfpu_reference::ResetValues::ZEROS);
    state.apply_to(&mut pre).unwrap();
    // Answers `unsupported` with what the case's state held of the two fields.
    let dut = |reads: &str| {
        let script = format!(
            r#"read hello; echo '{{"type":"hello","protocol":"sfpu-dut/1","name":"strict","version":"1","archs":["wormhole"]{reads}}}'
            while read case; do
              saw=""
              case "$case" in *'"arch"'*) saw="$saw arch";; esac
              case "$case" in *SFPSHFT2_vc0*) saw="$saw latch";; esac
              echo "{{\"type\":\"unsupported\",\"id\":\"1\",\"reason\":\"saw:$saw\"}}"
            done"#
        );
        ExternalModel::spawn_argv(
            &["sh".to_string(), "-c".to_string(), script],
            Arch::Wormhole,
            Duration::from_secs(10),
        )
        .expect("the DUT starts")
    };
    let strict = dut(r#","reads":[]"#);
    let latch = harness_sfpu::features::Feature::Sfpshft2Latch;
    assert!(strict.declared().and_then(|d| d.features).is_some_and(|f| !f.contains(latch)));
    match strict.run(Arch::Wormhole, &pre, &[0x8F00_0000]) {
        Err(ModelError::Unsupported(why)) => assert_eq!(why, "saw:"),
        other => panic!("{other:?}"),
    }
    let default = dut("");
    assert!(default.declared().is_none(), "no declaration: everything");
    match default.run(Arch::Wormhole, &pre, &[0x8F00_0000]) {
        Err(ModelError::Unsupported(why)) => assert_eq!(why, "saw: arch latch"),
        other => panic!("{other:?}"),
    }
}

/// A shell DUT that says hello properly, then answers every case with the wrong id: each case
/// is a malformed answer, and each next case gets a fresh process (a fresh hello) that again
/// answers. Also the arch check of `run`.
#[test]
fn mismatched_answers_restart_the_dut() {
    let script = r#"read hello; echo '{"type":"hello","protocol":"sfpu-dut/1","name":"liar","version":"1"}'
        while read case; do echo '{"type":"result","id":"not-yours","state":{}}'; done"#;
    let model = spawn(&["sh".to_string(), "-c".to_string(), script.to_string()], Duration::from_secs(5));
    assert_eq!(model.describe(), "liar 1");
    let pre = sfpu_reference::State::reset(Arch::Blackhole, &sfpu_reference::ResetValues::ZEROS);
    for _ in 0..3 {
        match model.run(Arch::Blackhole, &pre, &[0x8F00_0000]) {
            Err(ModelError::Failed(m)) => assert!(
                m.starts_with("malformed answer: expected the answer to case `")
                    && m.ends_with("got a result for case `not-yours`"),
                "{m}"
            ),
            other => panic!("{other:?}"),
        }
    }
    match model.run(Arch::Wormhole, &pre, &[0x8F00_0000]) {
        Err(ModelError::Unsupported(m)) => assert!(m.contains("started for blackhole"), "{m}"),
        other => panic!("{other:?}"),
    }
    // The caller may choose the id.
    match model.run_case("SFPNOP/none/basic", Arch::Blackhole, &pre, &[0x8F00_0000]) {
        Err(ModelError::Failed(m)) => assert!(m.contains("case `SFPNOP/none/basic`"), "{m}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn command_lines_split_like_a_shell() {
    let ok = |line: &str| split_command_line(line).unwrap_or_else(|e| panic!("{line}: {e}"));
    assert_eq!(ok("python3 dut.py --crash-on SFPNOT"), ["python3", "dut.py", "--crash-on", "SFPNOT"]);
    assert_eq!(ok("  a   'b c'  \"d \\\" e\" f\\ g ''"), ["a", "b c", "d \" e", "f g", ""]);
    assert_eq!(ok("x'y'\"z\""), ["xyz"]);
    assert_eq!(ok(r#""a\nb" '$HOME'"#), ["a\\nb", "$HOME"]);
    for bad in ["", "   ", "'open", "\"open", "trailing\\"] {
        assert!(split_command_line(bad).is_err(), "{bad:?}");
    }
}

fn err(line: &[u8]) -> String {
    match parse_answer(line) {
        Ok(a) => panic!("{:?} parsed as {a:?}", String::from_utf8_lossy(line)),
        Err(e) => e.to_string(),
    }
}

#[test]
fn parse_answer_accepts_the_documented_answers() {
    assert_eq!(
        parse_answer(br#"{"type":"hello","protocol":"sfpu-dut/1","name":"x","version":"2"}"#),
        Ok(Answer::Hello {
            protocol: "sfpu-dut/1".into(),
            name: "x".into(),
            version: "2".into(),
            declaration: None,
            chips: vec!["blackhole".into()],
            reads: None,
        })
    );
    // A result without `arch` may hold a Wormhole-only location (the case's chip decides).
    assert!(
        matches!(
            parse_answer(br#"{"type":"result","id":"1","state":{"SFPSHFT2_vc0":"0x00000007"}}"#),
            Ok(Answer::Result { .. })
        ),
        "a Wormhole result is refused"
    );
    // A hello may name the chips the DUT models (absent: Blackhole only).
    assert_eq!(
        parse_answer(br#"{"type":"hello","protocol":"sfpu-dut/1","name":"x","version":"2","archs":["blackhole","wormhole"]}"#),
        Ok(Answer::Hello {
            protocol: "sfpu-dut/1".into(),
            name: "x".into(),
            version: "2".into(),
            declaration: None,
            chips: vec!["blackhole".into(), "wormhole".into()],
            reads: None,
        })
    );
    // `reads` names the optional state fields the DUT reads; leaving out the latch's state
    // leaves out the latch.
    match parse_answer(
        br#"{"type":"hello","protocol":"sfpu-dut/1","name":"x","version":"2","reads":["arch"]}"#,
    ) {
        Ok(Answer::Hello { reads: Some(reads), declaration: Some(d), .. }) => {
            assert_eq!(reads, ["arch"]);
            let features = d.features.expect("every feature but the latch");
            assert!(!features.contains(harness_sfpu::features::Feature::Sfpshft2Latch));
            assert_eq!(features.to_vec().len(), harness_sfpu::features::Feature::ALL.len() - 1);
        }
        other => panic!("{other:?}"),
    }
    for (line, want) in [
        (&br#"{"type":"hello","protocol":"sfpu-dut/1","name":"x","version":"2","reads":["LReg"]}"#[..], "is not an optional state field of sfpu-dut/1 (`arch`, `SFPSHFT2_vc0`)"),
        (&br#"{"type":"hello","protocol":"sfpu-dut/1","name":"x","version":"2","reads":"arch"}"#[..], "`reads` must be an array of strings"),
        (&br#"{"type":"hello","protocol":"sfpu-dut/1","name":"x","version":"2","reads":[],"features":["sfpshft2-latch"]}"#[..], "names `sfpshft2-latch` but `reads` leaves out `SFPSHFT2_vc0`"),
    ] {
        let e = err(line);
        assert!(e.contains(want), "{e}");
    }
    let line = br#"{"type":"result","id":"7","state":{"LReg":{"3":"0x3f800000","4":12},"LaneFlags":"0x0000ffff"},"outcome":[{"clause":"backdoor-load","lanes":"0x000000ff"},{"clause":"backdoor-load","lanes":256}]}"#;
    match parse_answer(line) {
        Ok(Answer::Result { id, state, outcome: Some(o) }) => {
            assert_eq!(id, "7");
            assert_eq!(state.LaneFlags, Some(LaneBits::Mask(Hex(0xFFFF))));
            assert_eq!(o.notes().collect::<Vec<_>>(), [(Clause::BackdoorLoad, 0x1FF)]);
        }
        other => panic!("{other:?}"),
    }
    match parse_answer(b"{\"type\":\"result\",\"id\":\"8\",\"state\":{}}\r") {
        Ok(Answer::Result { outcome: None, .. }) => {}
        other => panic!("no outcome means no verdict, and CR is tolerated: {other:?}"),
    }
    assert_eq!(
        parse_answer(br#"{"type":"unsupported","id":"9","reason":"SFPMAD"}"#),
        Ok(Answer::Unsupported { id: "9".into(), reason: "SFPMAD".into() })
    );
    assert_eq!(
        parse_answer(br#"{"type":"error","message":"cannot read the case"}"#),
        Ok(Answer::Error { id: None, message: "cannot read the case".into() })
    );
}

#[test]
fn parse_answer_rejects_malformed_lines() {
    let cases: &[(&[u8], &str)] = &[
        (b"\xff\xfe{}", "not UTF-8"),
        (b"", "not JSON"),
        (b"hello", "not JSON"),
        (b"{\"type\":\"result\"", "not JSON"),
        (b"{\"type\":\"hello\"} {}", "not JSON"),
        (b"[1, 2]", "not a JSON object"),
        (b"null", "not a JSON object"),
        (b"{}", "no `type` field"),
        (b"{\"type\": 1}", "`type` must be a string"),
        (b"{\"type\": \"results\"}", "unknown answer type `results`"),
        (br#"{"type":"result","state":{}}"#, "missing field `id`"),
        (br#"{"type":"result","id":"1"}"#, "missing field `state`"),
        (br#"{"type":"result","id":7,"state":{}}"#, "invalid type"),
        (br#"{"type":"result","id":"1","state":{},"extra":true}"#, "unknown field `extra`"),
        (br#"{"type":"result","id":"1","state":{"Lreg":{}}}"#, "unknown field `Lreg`"),
        (
            br#"{"type":"result","id":"1","state":{"LReg":{"0":123456789012345678901234567890}}}"#,
            "invalid type",
        ),
        (br#"{"type":"result","id":"1","state":{"LReg":{"0":"0x1ffffffff"}}}"#, "does not fit"),
        (br#"{"type":"result","id":"1","state":{"LReg":{"0":"0xZZ"}}}"#, "not a number"),
        (br#"{"type":"result","id":"1","state":{"LReg":{"0":-1}}}"#, "negative"),
        (br#"{"type":"result","id":"1","state":{"LReg":{"0":1.5}}}"#, "invalid type"),
        (br#"{"type":"result","id":"1","state":{"LReg":{"0":[1,2]}}}"#, "exactly 32"),
        (br#"{"type":"result","id":"1","state":{"LReg":{"99999999999":0}}}"#, "out of range"),
        (br#"{"type":"result","id":"1","state":{"LReg":{"17":0}}}"#, "only 17 LRegs"),
        (br#"{"type":"result","id":"1","state":{"LReg":{"8":0}}}"#, "constant register"),
        (
            br#"{"type":"result","id":"1","state":{},"outcome":[{"clause":"nope","lanes":1}]}"#,
            "unknown clause `nope`",
        ),
        (
            br#"{"type":"result","id":"1","state":{},"outcome":[{"clause":"hazard"}]}"#,
            "missing field `lanes`",
        ),
        (br#"{"type":"result","id":"1","state":{},"outcome":{"hazard":1}}"#, "invalid type"),
        (br#"{"type":"unsupported","id":"1"}"#, "missing field `reason`"),
        (br#"{"type":"error","id":null}"#, "missing field `message`"),
        (br#"{"type":"hello","protocol":"sfpu-dut/1","name":"x"}"#, "missing field `version`"),
    ];
    for (line, want) in cases {
        let e = err(line);
        assert!(e.contains(want), "{:?}: {e} (expected `{want}`)", String::from_utf8_lossy(line));
    }
    // A DUT's state gives every lane it lists a value: `null` is only a golden vector's (its
    // `post`, where `skip` covers).
    let nulls = format!(r#"{{"type":"result","id":"1","state":{{"PRNG":[null{}]}}}}"#, ",1".repeat(31));
    let e = err(nulls.as_bytes());
    assert!(e.contains("PRNG: lane 0 has no value (null)"), "{e}");
    // Nesting deep enough to overflow a naive recursive parser.
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    assert!(err(deep.as_bytes()).contains("not JSON"));
    let deep_state = format!(
        r#"{{"type":"result","id":"1","state":{{"LReg":{{"0":{}0{}}}}}}}"#,
        "[".repeat(5000),
        "]".repeat(5000)
    );
    err(deep_state.as_bytes());
    // A huge line is just rejected.
    let huge = format!(r#"{{"type":"error","message":"{}","x":1}}"#, "y".repeat(4 << 20));
    assert!(err(huge.as_bytes()).contains("unknown field `x`"));
}

const VALID: &[u8] = br#"{"type":"result","id":"7","state":{"LReg":{"3":["0x3f800000","0x1","0x2","0x3","0x4","0x5","0x6","0x7","0x8","0x9","0xa","0xb","0xc","0xd","0xe","0xf","0x10","0x11","0x12","0x13","0x14","0x15","0x16","0x17","0x18","0x19","0x1a","0x1b","0x1c","0x1d","0x1e","0x1f"]},"LaneFlags":"0x0000ffff","FlagStack":{"depth":1,"levels":[{"LaneFlags":"0xffffffff"}]},"LaneConfig":"0x2","LoadMacroConfig":{"InstructionTemplate":{"0":"0x7c000000"},"Misc":"0x1"},"Dst":{"rows":{"5":["0x1","0x2","0x3","0x4","0x5","0x6","0x7","0x8","0x9","0xa","0xb","0xc","0xd","0xe","0xf","0x10"]},"invalid_rows":[3]},"Addressing":{"RWC":{"Dst":8},"ADDR_MOD":{"3":{"DestIncr":2}}}},"outcome":[{"clause":"backdoor-load","lanes":"0xffffffff"}]}"#;

#[test]
fn the_valid_fixture_parses() {
    assert!(matches!(parse_answer(VALID), Ok(Answer::Result { .. })), "{:?}", parse_answer(VALID));
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    /// Any bytes: an answer or an error, never a panic.
    #[test]
    fn parse_answer_never_panics_on_bytes(line in proptest::collection::vec(any::<u8>(), 0..300)) {
        let _ = parse_answer(&line);
    }

    /// A valid answer with bytes overwritten, inserted or cut: still never a panic.
    #[test]
    fn parse_answer_never_panics_on_mutations(
        edits in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>(), 0u8..3), 1..6),
        cut in any::<prop::sample::Index>(),
    ) {
        let mut line = VALID.to_vec();
        for (at, byte, op) in edits {
            let i = at.index(line.len());
            match op {
                0 => line[i] = byte,
                1 => line.insert(i, byte),
                _ => { line.remove(i); }
            }
        }
        let _ = parse_answer(&line);
        let keep = cut.index(line.len() + 1);
        line.truncate(keep);
        let _ = parse_answer(&line);
    }
}
