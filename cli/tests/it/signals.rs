//! Signals with a hostile DUT: a run checking a DUT that hangs, answers slowly, declines every
//! case, babbles without ever ending a line, leaves a grandchild holding its output open, or
//! closes its output, is sent SIGINT, SIGTERM, or SIGINT then SIGTERM while the DUT has a case
//! (SFPU; and for AMX, the hung, slow and grandchild DUTs).
//!
//! What the documentation promises (README, `docs/dut-protocol.md`): the run exits within 2 s of
//! the last signal, with status 128 + the first signal's number (a second signal exits at once
//! with its own); no process of any group the DUT ran in is left; and the output directory holds
//! either a complete report set marked incomplete (always, after one signal) or the previous set
//! untouched, with no temporary file beside it.

#![cfg(target_os = "linux")]

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::{Scratch, command, scratch_path};

/// What a hostile DUT does once it has its first case (after a valid hello).
const KINDS: [(&str, &str); 6] = [
    ("hang", "read case; touch \"$MARK\"; sleep 100000"),
    (
        "slow",
        "while read case; do touch \"$MARK\"; sleep 0.3; id=$(echo \"$case\" | sed 's/.*\"id\":\"\\([^\"]*\\)\".*/\\1/'); \
         echo \"{\\\"type\\\":\\\"unsupported\\\",\\\"id\\\":\\\"$id\\\",\\\"reason\\\":\\\"slow\\\"}\"; done",
    ),
    (
        "refuse-all",
        "while read case; do touch \"$MARK\"; id=$(echo \"$case\" | sed 's/.*\"id\":\"\\([^\"]*\\)\".*/\\1/'); \
         echo \"{\\\"type\\\":\\\"unsupported\\\",\\\"id\\\":\\\"$id\\\",\\\"reason\\\":\\\"no\\\"}\"; done",
    ),
    ("babble", "read case; touch \"$MARK\"; while :; do printf 'babble '; echo babble >&2; sleep 0.02; done"),
    ("grandchild", "read case; touch \"$MARK\"; sleep 100000 & exit 0"),
    ("stdout-closed", "exec >&-; while read case; do touch \"$MARK\"; done"),
];

/// The files of a report set, and what the previous set's hold.
const FILES: [&str; 5] = ["report.json", "report.md", "report.html", "junit.xml", "cases.jsonl"];
const PREVIOUS: &str = "the previous run's report\n";

/// What a run checks: its instruction set's arguments and a DUT's hello for it.
struct Target {
    args: &'static [&'static str],
    hello: &'static str,
}

/// An SFPU run: Blackhole's SFPIADD, golden vectors then a time-budgeted campaign.
const SFPU: Target = Target {
    args: &["--chip", "blackhole", "--only", "SFPIADD"],
    hello: r#"{"type":"hello","protocol":"sfpu-dut/1","name":"hostile","version":"1"}"#,
};

/// An AMX run: M1's golden vectors, then a time-budgeted campaign.
const AMX: Target = Target {
    args: &["--isa", "amx", "--chip", "m1"],
    hello: r#"{"type":"hello","protocol":"amx-dut/1","name":"hostile","version":"1","chips":["m1"]}"#,
};

/// Writes the DUT script of `kind` into `dir`: it records its process group (its own process id:
/// the harness makes every DUT lead a group) in `groups`, says `hello`, then behaves as `body`.
fn dut_script(dir: &Path, hello: &str, body: &str) -> String {
    let script = dir.join("dut.sh");
    let text = format!(
        "MARK='{mark}'\necho $$ >> '{groups}'\nread hello\necho '{hello}'\n{body}\n",
        mark = dir.join("got-a-case").display(),
        groups = dir.join("groups").display(),
    );
    std::fs::write(&script, text).unwrap();
    format!("sh '{}'", script.display())
}

/// The live (not zombie) processes of process group `group`.
fn members(group: u32) -> Vec<u32> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else { continue };
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else { continue };
        // `pid (comm) state ppid pgrp ...`; comm may hold spaces and parentheses.
        let Some(after) = stat.rfind(')').map(|i| &stat[i + 1..]) else { continue };
        let fields: Vec<&str> = after.split_whitespace().collect();
        if fields.first() != Some(&"Z") && fields.get(2).and_then(|g| g.parse::<u32>().ok()) == Some(group) {
            found.push(pid);
        }
    }
    found
}

fn kill(child: &Child, signal: &str) {
    let sent = Command::new("kill").args([signal, &child.id().to_string()]).stderr(Stdio::null()).status();
    assert!(sent.is_ok_and(|s| s.success()), "kill {signal}");
}

/// Runs a check of the DUT `kind`, sends `signals` once it has a case, and checks the promises.
fn interrupt(target: &Target, kind: &str, body: &str, signals: &[&str]) {
    let isa = target.args.iter().find(|a| **a == "amx").unwrap_or(&"sfpu");
    let dir: Scratch = scratch_path("signals", &format!("{isa}-{kind}-{}", signals.join("")));
    std::fs::create_dir_all(&dir).unwrap();
    for f in FILES {
        std::fs::write(dir.join(f), PREVIOUS).unwrap();
    }
    let dut = dut_script(&dir, target.hello, body);
    let mut child = command(["conform", "--dut", &dut])
        .args(target.args)
        .args(["--no-fastpath", "--timeout", "600", "--budget", "600000", "--quiet", "--out"])
        .arg(&*dir)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mark = dir.join("got-a-case");
    let waiting = Instant::now();
    while !mark.exists() {
        assert!(child.try_wait().unwrap().is_none(), "{kind}: the run ended before the DUT got a case");
        assert!(waiting.elapsed() < Duration::from_secs(120), "{kind}: the DUT never got a case");
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(300));
    assert!(child.try_wait().unwrap().is_none(), "{kind}: the run ended before the signal");
    for signal in signals {
        kill(&child, signal);
    }
    let last = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if last.elapsed() > Duration::from_secs(2) {
            let _ = child.kill();
            let o = child.wait_with_output().unwrap();
            panic!(
                "{kind} {signals:?}: still running 2 s after the last signal; stderr:\n{}",
                String::from_utf8_lossy(&o.stderr)
            );
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let stderr = {
        let mut text = String::new();
        let _ = std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut text);
        text
    };
    let context = format!("{isa} {kind} {signals:?}: status {status}; stderr:\n{stderr}");
    assert!(!stderr.contains("panicked"), "{context}");
    // 128 + the signal that ended it: the first, or (a second signal exits at once) the second.
    let codes: Vec<i32> = signals.iter().map(|s| if *s == "-INT" { 130 } else { 143 }).collect();
    assert!(status.code().is_some_and(|c| codes.contains(&c)), "{context}");

    // No process of any group the DUT ran in (it is restarted after a fault) is left. Killing is
    // immediate; a process disappears when it is reaped, which may take a moment.
    let groups: Vec<u32> = std::fs::read_to_string(dir.join("groups"))
        .unwrap()
        .lines()
        .map(|l| l.trim().parse().unwrap())
        .collect();
    assert!(!groups.is_empty());
    let gone = Instant::now();
    for &group in &groups {
        while !members(group).is_empty() {
            assert!(
                gone.elapsed() < Duration::from_secs(2),
                "{context}\ngroup {group} outlived the run: {:?}",
                members(group)
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    // The previous set untouched, or a complete new set marked incomplete; nothing else.
    let contents: Vec<String> = FILES.iter().map(|f| std::fs::read_to_string(dir.join(f)).unwrap()).collect();
    if contents.iter().all(|c| c == PREVIOUS) {
        assert!(signals.len() > 1, "{context}\none signal always writes the report of what completed");
    } else {
        let json: serde_json::Value =
            serde_json::from_str(&contents[0]).unwrap_or_else(|e| panic!("{context}\n{e}"));
        let why = json["incomplete"].as_str().unwrap_or_else(|| panic!("{context}\nnot marked incomplete"));
        let first = signals[0].trim_start_matches('-');
        assert!(why.starts_with(&format!("interrupted by SIG{first}")), "{context}\n{why}");
        for (f, c) in FILES.iter().zip(&contents).skip(1) {
            // The renderings say INCOMPLETE; cases.jsonl lists the cases (the reference's
            // vectors ran before the DUT's).
            let new = if *f == "cases.jsonl" {
                c.contains("\"verdict\":\"pass\"")
            } else {
                c.to_lowercase().contains("incomplete")
            };
            assert!(c != PREVIOUS && new, "{context}\n{f} is not the new set's");
        }
    }
    let strays: Vec<String> = std::fs::read_dir(&*dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect();
    assert!(strays.is_empty(), "{context}\ntemporary files left: {strays:?}");
}

#[test]
fn sigint_stops_a_run_with_any_hostile_dut() {
    for (kind, body) in KINDS {
        interrupt(&SFPU, kind, body, &["-INT"]);
    }
}

#[test]
fn sigterm_stops_a_run_with_any_hostile_dut() {
    for (kind, body) in KINDS {
        interrupt(&SFPU, kind, body, &["-TERM"]);
    }
}

#[test]
fn sigint_then_sigterm_stops_a_run_with_any_hostile_dut() {
    for (kind, body) in KINDS {
        interrupt(&SFPU, kind, body, &["-INT", "-TERM"]);
    }
}

/// An AMX run was not stopped by a signal while a DUT ran its vectors (35 s with a slow DUT, 87 s
/// with a hung one): the same promises hold there.
#[test]
fn a_signal_stops_an_amx_run_with_a_hung_or_slow_dut() {
    for (kind, body) in KINDS.iter().filter(|(k, _)| ["hang", "slow", "grandchild"].contains(k)) {
        interrupt(&AMX, kind, body, &["-INT"]);
        interrupt(&AMX, kind, body, &["-INT", "-TERM"]);
    }
}
