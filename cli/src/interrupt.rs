//! SIGINT, SIGTERM and SIGHUP during a long run: the first one asks the run to stop at the next
//! case and write what it has (the report marked incomplete); a second one, of any kind, ends the
//! process at once with status `128 + signal`, after killing the process group of every external
//! implementation still running (they would otherwise outlive the run, out of reach of a CI
//! runner's kill). (SIGHUP: the terminal went away; the files are still written.)

use std::io;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

#[cfg(unix)]
use signal_hook::consts::SIGHUP;
use signal_hook::consts::{SIGINT, SIGTERM};

/// SIGHUP's number where there is no such signal (its flag is then never set).
#[cfg(not(unix))]
const SIGHUP: i32 = 1;

/// The signals received so far.
#[derive(Clone, Debug)]
pub struct Interrupt {
    int: Arc<AtomicBool>,
    term: Arc<AtomicBool>,
    hup: Arc<AtomicBool>,
}

impl Interrupt {
    /// Installs the handlers: a thread receives the signals, sets the first one's flag, and ends
    /// the process on the second.
    #[cfg(unix)]
    pub fn install() -> io::Result<Interrupt> {
        let interrupt = Interrupt::none();
        let mut signals = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP])?;
        let flags = interrupt.clone();
        std::thread::Builder::new().name("signals".into()).spawn(move || {
            for signal in signals.forever() {
                if flags.signal().is_some() {
                    // The second: no unwinding will drop the DUTs' handles, so kill their groups
                    // here, then go.
                    harness_core::dut::process::kill_all_groups();
                    std::process::exit(128 + signal);
                }
                let flag = match signal {
                    SIGTERM => &flags.term,
                    SIGHUP => &flags.hup,
                    _ => &flags.int,
                };
                flag.store(true, Ordering::SeqCst);
            }
        })?;
        Ok(interrupt)
    }

    /// Installs the handlers (without signals but SIGINT and SIGTERM, each only sets its flag).
    #[cfg(not(unix))]
    pub fn install() -> io::Result<Interrupt> {
        let interrupt = Interrupt::none();
        signal_hook::flag::register(SIGINT, Arc::clone(&interrupt.int))?;
        signal_hook::flag::register(SIGTERM, Arc::clone(&interrupt.term))?;
        Ok(interrupt)
    }

    /// The signal that asked the run to stop, if one did.
    pub fn signal(&self) -> Option<&'static str> {
        if self.int.load(Ordering::Relaxed) {
            Some("SIGINT")
        } else if self.term.load(Ordering::Relaxed) {
            Some("SIGTERM")
        } else if self.hup.load(Ordering::Relaxed) {
            Some("SIGHUP")
        } else {
            None
        }
    }

    /// The number of the signal that asked the run to stop, if one did (to pass it on).
    pub fn number(&self) -> Option<i32> {
        match self.signal()? {
            "SIGTERM" => Some(SIGTERM),
            "SIGHUP" => Some(SIGHUP),
            _ => Some(SIGINT),
        }
    }

    /// No signal received yet.
    fn none() -> Interrupt {
        let flag = || Arc::new(AtomicBool::new(false));
        Interrupt { int: flag(), term: flag(), hup: flag() }
    }

    /// An `Interrupt` whose first signal has already arrived, for tests of what a run does then
    /// (no handler installed). Not `cfg(test)`: xtask's unit tests (the fuzzing runner's) use it.
    #[doc(hidden)]
    pub fn raised(signal: i32) -> Interrupt {
        let flag = |s: i32| Arc::new(AtomicBool::new(signal == s));
        Interrupt { int: flag(SIGINT), term: flag(SIGTERM), hup: flag(SIGHUP) }
    }

    /// The exit status of a run stopped by [`signal`](Interrupt::signal): `128 + signal number`.
    pub fn exit_status(&self) -> u8 {
        (128 + self.number().unwrap_or(SIGINT)) as u8
    }
}
