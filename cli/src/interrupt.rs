//! SIGINT, SIGTERM and SIGHUP during a long run: the first one asks the run to stop at the next
//! case and write what it has (the report marked incomplete); a second one of the same kind ends
//! the process at once, with the usual status `128 + signal`. (SIGHUP: the terminal went away; the
//! files are still written.)

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
    /// Installs the handlers.
    pub fn install() -> io::Result<Interrupt> {
        let int = Arc::new(AtomicBool::new(false));
        let term = Arc::new(AtomicBool::new(false));
        let hup = Arc::new(AtomicBool::new(false));
        let signals = [(SIGINT, &int), (SIGTERM, &term)];
        #[cfg(unix)]
        let signals = [signals[0], signals[1], (SIGHUP, &hup)];
        for (signal, flag) in signals {
            // Registered first, so it sees the flag as the previous signal left it: the second
            // signal exits, the first only sets the flag.
            signal_hook::flag::register_conditional_shutdown(signal, 128 + signal, Arc::clone(flag))?;
            signal_hook::flag::register(signal, Arc::clone(flag))?;
        }
        Ok(Interrupt { int, term, hup })
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
