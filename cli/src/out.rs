//! Standard output and standard error that survive a closed pipe.
//!
//! `println!` panics when its reader has gone (`sfpu-conformance run prog.sfpu --trace | head -3`). The
//! macros here write through [`write()`] instead: a closed pipe (or any other write error) silences
//! that stream for the rest of the run and nothing else changes, so the command still finishes its
//! work, writes its report files and exits with the status its result deserves.

use std::fmt;
use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};

/// Which stream to write to.
#[derive(Clone, Copy, Debug)]
pub enum Stream {
    /// Standard output.
    Stdout,
    /// Standard error.
    Stderr,
}

static STDOUT_GONE: AtomicBool = AtomicBool::new(false);
static STDERR_GONE: AtomicBool = AtomicBool::new(false);

/// Writes `args` to `stream`, unless an earlier write to it failed; a failure (a closed pipe, a
/// full disk) silences the stream from then on.
pub fn write(stream: Stream, args: fmt::Arguments<'_>) {
    let gone = match stream {
        Stream::Stdout => &STDOUT_GONE,
        Stream::Stderr => &STDERR_GONE,
    };
    if gone.load(Ordering::Relaxed) {
        return;
    }
    let result = match stream {
        Stream::Stdout => {
            let mut out = io::stdout().lock();
            out.write_fmt(args).and_then(|()| out.flush())
        }
        Stream::Stderr => io::stderr().lock().write_fmt(args),
    };
    if result.is_err() {
        gone.store(true, Ordering::Relaxed);
    }
}

/// `print!` that survives a closed pipe.
#[macro_export]
macro_rules! out {
    ($($arg:tt)*) => { $crate::out::write($crate::out::Stream::Stdout, format_args!($($arg)*)) };
}

/// `println!` that survives a closed pipe.
#[macro_export]
macro_rules! outln {
    () => { $crate::out::write($crate::out::Stream::Stdout, format_args!("\n")) };
    ($($arg:tt)*) => {
        $crate::out::write($crate::out::Stream::Stdout, format_args!("{}\n", format_args!($($arg)*)))
    };
}

/// `eprintln!` that survives a closed pipe.
#[macro_export]
macro_rules! errln {
    () => { $crate::out::write($crate::out::Stream::Stderr, format_args!("\n")) };
    ($($arg:tt)*) => {
        $crate::out::write($crate::out::Stream::Stderr, format_args!("{}\n", format_args!($($arg)*)))
    };
}
