//! SIGINT, SIGTERM and SIGHUP during a long run: the first one asks the run to stop and write
//! what it has (the report marked incomplete): no case starts after it, and a wait for an
//! external implementation's answer ends within [`Cancel::POLL`] (the DUT is killed). A second
//! signal, of any kind, ends the process at once with status `128 + signal`, after killing the
//! process group of every external implementation still running (they would otherwise outlive
//! the run, out of reach of a CI runner's kill) and abandoning a report set being written (the
//! previous set stays whole). (SIGHUP: the terminal went away; the files are still written.)

use std::io;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use harness_core::observe::Cancel;

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
    /// Raised with the first signal, for the waits that poll it.
    cancel: Cancel,
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
                    // here, leave the report directory as it was or whole, then go.
                    harness_core::dut::process::kill_all_groups();
                    harness_core::report::abandon_writes();
                    std::process::exit(128 + signal);
                }
                let flag = match signal {
                    SIGTERM => &flags.term,
                    SIGHUP => &flags.hup,
                    _ => &flags.int,
                };
                flag.store(true, Ordering::SeqCst);
                flags.cancel.cancel();
            }
        })?;
        Ok(interrupt)
    }

    /// Installs the handlers (without signals but SIGINT and SIGTERM, each only sets its flag;
    /// the waits that poll [`Interrupt::cancel`] do not see them).
    #[cfg(not(unix))]
    pub fn install() -> io::Result<Interrupt> {
        let interrupt = Interrupt::none();
        signal_hook::flag::register(SIGINT, Arc::clone(&interrupt.int))?;
        signal_hook::flag::register(SIGTERM, Arc::clone(&interrupt.term))?;
        Ok(interrupt)
    }

    /// The flag the first signal raises, for the waits that poll it (a DUT's answer, the output
    /// directory's lock).
    pub fn cancel(&self) -> &Cancel {
        &self.cancel
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
        Interrupt { int: flag(), term: flag(), hup: flag(), cancel: Cancel::default() }
    }

    /// An `Interrupt` whose first signal has already arrived, for tests of what a run does then
    /// (no handler installed). Not `cfg(test)`: xtask's unit tests (the fuzzing runner's) use it.
    #[doc(hidden)]
    pub fn raised(signal: i32) -> Interrupt {
        let flag = |s: i32| Arc::new(AtomicBool::new(signal == s));
        let cancel = Cancel::default();
        cancel.cancel();
        Interrupt { int: flag(SIGINT), term: flag(SIGTERM), hup: flag(SIGHUP), cancel }
    }

    /// The exit status of a run stopped by [`signal`](Interrupt::signal): `128 + signal number`.
    pub fn exit_status(&self) -> u8 {
        (128 + self.number().unwrap_or(SIGINT)) as u8
    }
}
