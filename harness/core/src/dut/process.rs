//! One running DUT process: started in a process group of its own, its standard input written on
//! one thread, its standard output read line by line on another (lines over [`MAX_LINE`] refused)
//! and its standard error drained on a third (the last few KB kept for messages); killed with its
//! whole group. Nothing here knows the protocol's messages or an instruction set: the caller says
//! hello, sends cases and parses the lines (`super`).

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStderr, ChildStdin, ChildStdout, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender, SyncSender};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread;
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::observe::Cancel;

/// How much of the DUT's standard error is kept for error messages.
const STDERR_KEEP: usize = 4096;
/// How much of it an error message quotes.
const STDERR_QUOTE: usize = 1500;
/// How long a DUT gets to exit after `bye`, or to report its exit status after closing its output.
pub(crate) const EXIT_GRACE: Duration = Duration::from_secs(1);

pub(crate) fn show_duration(d: Duration) -> String {
    if d.subsec_nanos() == 0 { format!("{}s", d.as_secs()) } else { format!("{}ms", d.as_millis()) }
}

// ---------------------------------------------------------------------------------------------
// One running DUT process.
// ---------------------------------------------------------------------------------------------

/// What the stdout thread reports.
enum FromDut {
    /// A complete line, without its `\n`.
    Line(Vec<u8>),
    /// End of output; anything written after the last `\n`.
    Eof(Vec<u8>),
    /// A line longer than [`MAX_LINE`]; the thread stops reading.
    TooLong,
    /// Reading failed.
    ReadError(String),
}

/// The last bytes the DUT wrote to its standard error.
#[derive(Default)]
struct StderrTail {
    bytes: Mutex<VecDeque<u8>>,
    done: AtomicBool,
}

impl StderrTail {
    fn drain(self: Arc<Self>, mut stderr: ChildStderr) {
        let mut chunk = [0u8; 4096];
        loop {
            match stderr.read(&mut chunk) {
                Ok(0) => break,
                Ok(n) => {
                    let mut bytes = self.bytes.lock().unwrap_or_else(PoisonError::into_inner);
                    bytes.extend(&chunk[..n]);
                    let excess = bytes.len().saturating_sub(STDERR_KEEP);
                    bytes.drain(..excess);
                }
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(_) => break,
            }
        }
        self.done.store(true, Ordering::SeqCst);
    }

    /// Waits up to `limit` for the DUT's standard error to close (so the tail is complete).
    fn settle(&self, limit: Duration) {
        let end = Instant::now() + limit;
        while !self.done.load(Ordering::SeqCst) && Instant::now() < end {
            thread::sleep(Duration::from_millis(5));
        }
    }

    /// `"; stderr tail: ..."`, or nothing if the DUT wrote nothing there.
    fn suffix(&self) -> String {
        let bytes: Vec<u8> =
            self.bytes.lock().unwrap_or_else(PoisonError::into_inner).iter().copied().collect();
        let text = String::from_utf8_lossy(&bytes);
        let lines: Vec<&str> = text.lines().map(str::trim_end).filter(|l| !l.is_empty()).collect();
        if lines.is_empty() {
            return String::new();
        }
        let joined = lines.join(" | ");
        let start = joined.char_indices().rev().nth(STDERR_QUOTE).map_or(0, |(i, _)| i);
        let tail: String = joined[start..].chars().map(|c| if c.is_control() { ' ' } else { c }).collect();
        format!("; stderr tail: {}{tail}", if start > 0 { "..." } else { "" })
    }
}

/// A running DUT with its three helper threads.
pub(crate) struct Process {
    child: Child,
    /// Set when a case got no answer within the timeout (the process was then killed).
    pub(crate) timed_out: bool,
    /// Set once the process group has been killed.
    killed: bool,
    /// Lines to write to the DUT's standard input (the writer thread owns the pipe). Dropping it
    /// closes the DUT's input.
    to_dut: Option<Sender<Vec<u8>>>,
    from_dut: Receiver<FromDut>,
    stderr: Arc<StderrTail>,
    /// The run's interruption: every wait below ends within [`Cancel::POLL`] of it.
    cancel: Cancel,
}

impl Process {
    /// Starts `argv` (a program and its arguments) with its three helper threads; the caller says
    /// hello. Its waits end early once `cancel` is raised.
    pub(crate) fn spawn(argv: &[String], cancel: &Cancel) -> Result<Process, String> {
        let (program, args) = argv.split_first().ok_or_else(|| "the DUT command is empty".to_string())?;
        let mut command = Command::new(program);
        command.args(args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
        #[cfg(unix)]
        {
            // A process group of its own, so that killing the DUT kills what it started.
            use std::os::unix::process::CommandExt as _;
            command.process_group(0);
        }
        let mut child = command.spawn().map_err(|e| format!("cannot start `{program}`: {e}"))?;
        live_groups().push(child.id());
        let (Some(stdin), Some(stdout), Some(stderr)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            kill_tree(&mut child);
            let _ = child.wait();
            return Err("the DUT's standard streams are not available".to_string());
        };
        let (to_dut, to_dut_rx) = mpsc::channel::<Vec<u8>>();
        let (from_dut_tx, from_dut) = mpsc::sync_channel::<FromDut>(16);
        let tail = Arc::new(StderrTail::default());
        let spawned = thread::Builder::new()
            .name("dut-stdin".into())
            .spawn(move || write_lines(stdin, to_dut_rx))
            .and_then(|_| {
                thread::Builder::new()
                    .name("dut-stdout".into())
                    .spawn(move || read_lines(stdout, from_dut_tx))
            })
            .and_then(|_| {
                let tail = Arc::clone(&tail);
                thread::Builder::new().name("dut-stderr".into()).spawn(move || tail.drain(stderr))
            });
        let process = Process {
            child,
            timed_out: false,
            killed: false,
            to_dut: Some(to_dut),
            from_dut,
            stderr: tail,
            cancel: cancel.clone(),
        };
        if let Err(e) = spawned {
            return Err(format!("cannot start a thread for the DUT: {e}"));
        }
        Ok(process)
    }

    /// Queues one message for the DUT. A DUT that stopped reading is found out by `receive`.
    pub(crate) fn send(&self, message: &Value) {
        let mut line = message.to_string().into_bytes();
        line.push(b'\n');
        if let Some(tx) = &self.to_dut {
            let _ = tx.send(line);
        }
    }

    /// The next line (without its `\n`), or why there is none (timeout, crash, a line too long, the
    /// run interrupted: the process is then killed at once). After an `Err` the process must be
    /// killed.
    pub(crate) fn receive_line(&mut self, timeout: Duration, waiting_for: &str) -> Result<Vec<u8>, String> {
        let deadline = Instant::now() + timeout;
        let received = loop {
            if self.cancel.is_cancelled() {
                self.kill();
                return Err(format!("interrupted while waiting for {waiting_for}; the DUT was killed"));
            }
            let left = deadline.saturating_duration_since(Instant::now());
            match self.from_dut.recv_timeout(left.min(Cancel::POLL)) {
                Err(RecvTimeoutError::Timeout) if !left.is_zero() => continue,
                received => break received,
            }
        };
        match received {
            Ok(FromDut::Line(line)) => Ok(line),
            Ok(FromDut::TooLong) => Err(format!(
                "malformed answer: a line longer than {} MiB{}",
                MAX_LINE >> 20,
                self.stderr.suffix()
            )),
            Ok(FromDut::ReadError(e)) => {
                Err(format!("cannot read the DUT's output: {e}{}", self.stderr.suffix()))
            }
            Ok(FromDut::Eof(partial)) => Err(self.crashed(waiting_for, partial)),
            Err(RecvTimeoutError::Disconnected) => Err(self.crashed(waiting_for, Vec::new())),
            Err(RecvTimeoutError::Timeout) => {
                self.timed_out = true;
                self.kill();
                self.stderr.settle(Duration::from_millis(200));
                Err(format!(
                    "timeout after {} waiting for {waiting_for}; the DUT was killed{}",
                    show_duration(timeout),
                    self.stderr.suffix()
                ))
            }
        }
    }

    /// `"; stderr tail: ..."`, or nothing if the DUT wrote nothing there.
    pub(crate) fn stderr_suffix(&self) -> String {
        self.stderr.suffix()
    }

    /// The message for a DUT whose output ended: its exit status, what it left unfinished, and
    /// its standard error.
    fn crashed(&mut self, waiting_for: &str, partial: Vec<u8>) -> String {
        let status = self.wait_for_exit(EXIT_GRACE);
        self.stderr.settle(Duration::from_millis(500));
        let how = match status {
            Some(s) if s.success() => format!("exited ({s}) before answering {waiting_for}"),
            Some(s) => format!("crashed ({s}) before answering {waiting_for}"),
            None => {
                self.kill();
                format!("closed its output without answering {waiting_for} (it was killed)")
            }
        };
        let partial = if partial.is_empty() {
            String::new()
        } else {
            format!("; it left an unterminated line `{}`", quote_bytes(&partial))
        };
        format!("{how}{partial}{}", self.stderr.suffix())
    }

    /// Polls for the child's exit for up to `limit` (less once the run is interrupted).
    fn wait_for_exit(&mut self, limit: Duration) -> Option<ExitStatus> {
        let end = Instant::now() + limit;
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return Some(status),
                Ok(None) if Instant::now() < end && !self.cancel.is_cancelled() => {
                    thread::sleep(Duration::from_millis(5))
                }
                _ => return None,
            }
        }
    }

    /// Kills the child and everything in its process group, and reaps the child (the group is
    /// killed even when the child already exited: it may have left children behind).
    pub(crate) fn kill(&mut self) {
        self.to_dut = None;
        if !self.killed {
            self.killed = true;
            kill_tree(&mut self.child);
        }
        let _ = self.child.wait();
        let id = self.child.id();
        live_groups().retain(|&g| g != id);
    }

    /// Says `bye`, closes the DUT's input, and gives it [`EXIT_GRACE`] to exit before killing it
    /// (no grace once the run is interrupted).
    pub(crate) fn shutdown(mut self) {
        self.send(&serde_json::json!({"type": "bye"}));
        self.to_dut = None;
        if self.wait_for_exit(EXIT_GRACE).is_none() {
            self.kill();
        }
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        self.kill();
    }
}

/// The process groups of the DUTs started and not yet killed (each led by the DUT's process).
fn live_groups() -> std::sync::MutexGuard<'static, Vec<u32>> {
    static LIVE: Mutex<Vec<u32>> = Mutex::new(Vec::new());
    LIVE.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Kills the process group of every DUT still running, for a process about to exit without
/// unwinding (a second signal; the DUTs' handles then never drop). Returns how many it signalled.
pub fn kill_all_groups() -> usize {
    let groups = std::mem::take(&mut *live_groups());
    for &group in &groups {
        kill_group(group);
    }
    groups.len()
}

/// Sends SIGKILL to process group `group` (by `kill(1)`: see [`kill_tree`]).
fn kill_group(group: u32) {
    #[cfg(unix)]
    {
        let _ = Command::new("kill")
            .args(["-s", "KILL", "--", &format!("-{group}")])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
    }
    #[cfg(not(unix))]
    let _ = group;
}

/// Kills `child`'s process group (it leads one: see [`Process::spawn`]), then `child` itself
/// in case the group could not be signalled. The crate forbids `unsafe`, so the group is
/// signalled by `kill(1)`, as a shell would; where that is missing only the child is killed.
fn kill_tree(child: &mut Child) {
    kill_group(child.id());
    let _ = child.kill();
}

fn write_lines(mut stdin: ChildStdin, lines: Receiver<Vec<u8>>) {
    for line in lines {
        if stdin.write_all(&line).and_then(|()| stdin.flush()).is_err() {
            return; // the DUT is gone; `receive` reports it
        }
    }
}

fn read_lines(stdout: ChildStdout, to_harness: SyncSender<FromDut>) {
    let mut reader = BufReader::new(stdout);
    loop {
        let mut line = Vec::new();
        let event = match (&mut reader).take(MAX_LINE as u64 + 1).read_until(b'\n', &mut line) {
            Ok(0) => FromDut::Eof(Vec::new()),
            Ok(_) if line.last() == Some(&b'\n') => {
                line.pop();
                FromDut::Line(line)
            }
            Ok(_) if line.len() > MAX_LINE => FromDut::TooLong,
            Ok(_) => FromDut::Eof(line),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => FromDut::ReadError(e.to_string()),
        };
        let last = !matches!(event, FromDut::Line(_));
        if to_harness.send(event).is_err() || last {
            return;
        }
    }
}

/// The longest line accepted from a DUT (a whole state, Dst included, is well under 1 MiB).
pub const MAX_LINE: usize = 16 << 20;

/// How much of a DUT-supplied text (a reason, a message, an offending line) a message quotes.
const QUOTE: usize = 300;

/// `text` on one line (control characters as spaces), cut after 300 characters (`QUOTE`).
pub fn quote(text: &str) -> String {
    clip(text, QUOTE)
}

/// `text` on one line (control characters as spaces), cut after `max` characters.
pub fn clip(text: &str, max: usize) -> String {
    let mut out: String = text.chars().take(max).map(|c| if c.is_control() { ' ' } else { c }).collect();
    if text.chars().nth(max).is_some() {
        out.push_str("...");
    }
    out
}

/// [`quote`] of a line of bytes (invalid UTF-8 replaced).
pub fn quote_bytes(line: &[u8]) -> String {
    quote(&String::from_utf8_lossy(line))
}

/// Splits a command line into the program and its arguments with the quoting rules of a POSIX
/// shell, but without running one: words are separated by unquoted whitespace; `'...'` is
/// literal; inside `"..."` a backslash escapes only `"`, `\`, `$` and `` ` ``; outside quotes a
/// backslash escapes any character. There is no expansion of variables, globs or `~`, and no
/// redirection or pipes: to use them, run a shell explicitly (`sh -c 'exec ...'`).
pub fn split_command_line(line: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => {
                if let Some(w) = word.take() {
                    words.push(w);
                }
            }
            '\'' => {
                let w = word.get_or_insert_with(String::new);
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => w.push(c),
                        None => return Err(format!("unterminated single quote in `{line}`")),
                    }
                }
            }
            '"' => {
                let w = word.get_or_insert_with(String::new);
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c @ ('"' | '\\' | '$' | '`')) => w.push(c),
                            Some(c) => {
                                w.push('\\');
                                w.push(c);
                            }
                            None => return Err(format!("unterminated double quote in `{line}`")),
                        },
                        Some(c) => w.push(c),
                        None => return Err(format!("unterminated double quote in `{line}`")),
                    }
                }
            }
            '\\' => match chars.next() {
                Some(c) => word.get_or_insert_with(String::new).push(c),
                None => return Err(format!("trailing backslash in `{line}`")),
            },
            c => word.get_or_insert_with(String::new).push(c),
        }
    }
    if let Some(w) = word {
        words.push(w);
    }
    if words.is_empty() {
        return Err("the DUT command is empty".to_string());
    }
    Ok(words)
}
