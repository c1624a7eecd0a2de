//! Progress of long runs. On a terminal: indicatif bars. On anything else (a CI log, a file): a
//! plain line on standard error when a phase starts, one every [`LINE_EVERY`] while it runs, and
//! one when it ends, so a run that is not watched on a terminal still says where it is. Nothing at
//! all with `--quiet`.

use std::io::IsTerminal;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};

/// How often a phase prints its position when standard error is not a terminal.
pub const LINE_EVERY: Duration = Duration::from_secs(10);

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Quiet,
    Bars,
    Lines,
}

/// The progress display of one command.
pub struct Progress {
    multi: MultiProgress,
    mode: Mode,
    started: Instant,
}

impl Progress {
    /// Bars on a terminal, lines elsewhere, nothing when `quiet`.
    pub fn new(quiet: bool) -> Progress {
        let mode = if quiet {
            Mode::Quiet
        } else if std::io::stderr().is_terminal() {
            Mode::Bars
        } else {
            Mode::Lines
        };
        let target =
            if mode == Mode::Bars { ProgressDrawTarget::stderr() } else { ProgressDrawTarget::hidden() };
        Progress { multi: MultiProgress::with_draw_target(target), mode, started: Instant::now() }
    }

    /// A phase of `len` steps, labelled `what`.
    pub fn phase(&self, len: u64, what: &str) -> Phase {
        let bar = match self.mode {
            Mode::Bars => {
                let bar = self.multi.add(ProgressBar::new(len));
                bar.set_style(
                    ProgressStyle::with_template("{prefix:>24} [{bar:30}] {pos}/{len} {msg} ({elapsed})")
                        .unwrap_or_else(|_| ProgressStyle::default_bar())
                        .progress_chars("=> "),
                );
                bar.set_prefix(what.to_string());
                bar
            }
            Mode::Quiet | Mode::Lines => ProgressBar::hidden(),
        };
        bar.set_length(len);
        let phase = Phase {
            bar,
            what: what.to_string(),
            lines: self.mode == Mode::Lines,
            started: self.started,
            last: Mutex::new(Instant::now()),
        };
        phase.line(&format!("started ({len} steps)"));
        phase
    }
}

/// One phase of a [`Progress`].
pub struct Phase {
    bar: ProgressBar,
    what: String,
    lines: bool,
    started: Instant,
    last: Mutex<Instant>,
}

impl Phase {
    fn line(&self, text: &str) {
        if self.lines {
            errln!("[{:>7.1}s] {}: {text}", self.started.elapsed().as_secs_f64(), self.what);
        }
    }

    /// `n` more steps done.
    pub fn inc(&self, n: u64) {
        self.bar.inc(n);
        if self.lines {
            let mut last = self.last.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            if last.elapsed() >= LINE_EVERY {
                *last = Instant::now();
                drop(last);
                self.line(&format!("{}/{}", self.bar.position(), self.bar.length().unwrap_or(0)));
            }
        }
    }

    /// What the phase is doing now (shown on the bar only).
    pub fn set_message(&self, message: String) {
        self.bar.set_message(message);
    }

    /// The phase is over: `message` says how it ended.
    pub fn finish(&self, message: String) {
        self.line(&format!("{message} ({}/{})", self.bar.position(), self.bar.length().unwrap_or(0)));
        self.bar.finish_with_message(message);
    }
}
