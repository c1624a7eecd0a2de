//! Passing the run's first SIGINT, SIGTERM or SIGHUP on to a child's process group
//! ([`Forward`]), so that a fuzzing run (or `--throughput`'s measurement) stops where it is.

use std::time::Duration;

use crate::interrupt::Interrupt;

/// Passes the run's first SIGINT, SIGTERM or SIGHUP on to a child's process group (the child runs
/// in its own: a terminal's Ctrl-C, or its hangup, reaches only this process, which decides).
/// libFuzzer stops (printing its final statistics for SIGINT and SIGTERM) and exits; cargo stops
/// its compilers. A second signal ends this process at once ([`Interrupt`]), by which time the
/// child has its signal.
pub(super) struct Forward {
    done: std::sync::Arc<std::sync::atomic::AtomicBool>,
    thread: std::thread::JoinHandle<bool>,
}

impl Forward {
    /// How often the watching thread looks at the signal flags.
    const POLL: Duration = Duration::from_millis(50);

    pub(super) fn start(pid: u32, interrupt: Interrupt) -> Forward {
        use std::sync::atomic::Ordering;
        let done = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let watching = std::sync::Arc::clone(&done);
        let thread = std::thread::spawn(move || {
            while !watching.load(Ordering::Relaxed) {
                if let Some(signal) = interrupt.number() {
                    signal_group(pid, signal);
                    return true;
                }
                std::thread::sleep(Forward::POLL);
            }
            false
        });
        Forward { done, thread }
    }

    /// Stops watching; whether the child was sent the signal. Called before the child is waited
    /// for: until then its process (a zombie at worst) keeps its id, so the signal cannot reach
    /// another process group.
    pub(super) fn stop(self) -> bool {
        self.done.store(true, std::sync::atomic::Ordering::Relaxed);
        self.thread.join().unwrap_or(false)
    }
}

/// Sends `signal` to the process group `pgid` (elsewhere than on Unix the child shares the
/// console's Ctrl-C, and this does nothing).
#[cfg(unix)]
#[allow(unsafe_code, reason = "kill(2), which touches no memory of this process")]
fn signal_group(pgid: u32, signal: i32) {
    let Ok(pgid) = libc::pid_t::try_from(pgid) else { return };
    // SAFETY: kill(2) takes two integers and has no memory-safety preconditions; a group that
    // is gone only makes it fail (ESRCH), which changes nothing here.
    unsafe {
        libc::kill(-pgid, signal);
    }
}

#[cfg(not(unix))]
fn signal_group(_pgid: u32, _signal: i32) {}

#[cfg(test)]
mod tests {
    use std::io::{BufRead, BufReader};
    use std::process::{Command, Stdio};
    use std::time::Instant;

    use super::*;

    /// A shell in its own process group, as `cargo fuzz` runs in a fuzzing run, with a background
    /// `sleep` in the same group; the shell's trap of SIGTERM exits with 8 (its `wait` returns at
    /// once when the trap fires). Returns once the trap is set, with the `sleep`'s process id.
    #[cfg(unix)]
    fn trapping_shell(sleep: &str) -> (std::process::Child, u32) {
        let mut c = Command::new("sh");
        c.arg("-c").arg(format!("trap 'exit 8' TERM; sleep {sleep} & echo $!; wait; exit 0"));
        std::os::unix::process::CommandExt::process_group(&mut c, 0);
        let mut child = c.stdout(Stdio::piped()).spawn().expect("run sh");
        let mut line = String::new();
        BufReader::new(child.stdout.take().expect("stdout")).read_line(&mut line).expect("read");
        (child, line.trim().parse().expect("the sleep's process id"))
    }

    /// Waits up to 10 s for `child`; its exit code, `None` if it is still running (then killed).
    #[cfg(unix)]
    fn exit_within(mut child: std::process::Child) -> Option<i32> {
        let until = Instant::now() + Duration::from_secs(10);
        while Instant::now() < until {
            if let Some(status) = child.try_wait().expect("wait") {
                return status.code();
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        signal_group(child.id(), libc::SIGKILL);
        let _ = child.wait();
        None
    }

    /// Whether process `pid` has ended (gone, or a zombie not yet reaped), within 10 s.
    #[cfg(unix)]
    fn ends_within(pid: u32) -> bool {
        let until = Instant::now() + Duration::from_secs(10);
        while Instant::now() < until {
            match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
                Err(_) => return true,
                Ok(stat)
                    if stat.rsplit(')').next().is_some_and(|rest| rest.trim_start().starts_with('Z')) =>
                {
                    return true;
                }
                Ok(_) => std::thread::sleep(Duration::from_millis(20)),
            }
        }
        false
    }

    /// The run's first signal reaches the whole process group of a `cargo fuzz` child (the shell
    /// and its background `sleep`), as the same signal; without a signal the child is left alone.
    /// Without `Forward` the shell waits for its 30 s `sleep`; without the process group's minus
    /// sign the `sleep` lives on. (SIGTERM: a shell started with SIGINT ignored, as under a
    /// non-interactive `&`, cannot trap SIGINT, and its background jobs ignore it.)
    #[cfg(unix)]
    #[test]
    fn forward_passes_the_first_signal_to_the_child_group() {
        let (child, sleep) = trapping_shell("30");
        let forward = Forward::start(child.id(), Interrupt::raised(libc::SIGTERM));
        let got = exit_within(child);
        assert!(forward.stop(), "the signal was sent");
        assert_eq!(got, Some(8), "the shell's trap of SIGTERM");
        assert!(ends_within(sleep), "the sleep in the shell's group got the signal too");

        let (child, _) = trapping_shell("0.3");
        let forward = Forward::start(child.id(), Interrupt::raised(0));
        std::thread::sleep(Duration::from_millis(150));
        assert!(!forward.stop(), "no signal, none sent");
        assert_eq!(exit_within(child), Some(0), "no signal, nothing forwarded");

        for (signal, name, status) in
            [(libc::SIGINT, "SIGINT", 130), (libc::SIGTERM, "SIGTERM", 143), (libc::SIGHUP, "SIGHUP", 129)]
        {
            let i = Interrupt::raised(signal);
            assert_eq!((i.signal(), i.number(), i.exit_status()), (Some(name), Some(signal), status));
        }
    }
}
