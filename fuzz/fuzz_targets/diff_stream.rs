//! Differential fuzzing of instruction streams: reference model vs fast model, compared after
//! every instruction (oracle: `harness_sfpu::fuzz::diff_stream`). A panic is a divergence;
//! its message is the minimised stream with a regression vector.
//!
//! Bit 6 of the input's first byte chooses the chip (Blackhole A0 or Wormhole B0), so this one
//! target covers both. `SFPU_FUZZ_CHIP=blackhole|wormhole` pins the chip (the bit is overwritten
//! before the oracle sees the input); `cargo xtask fuzz --smoke --planted` uses it to check each
//! chip on its own. `SFPU_FUZZ_MAX_STREAM=N` (1 to 64) runs at most the first `N` instructions of
//! each input's stream (`diff_stream_at_most`); `cargo xtask fuzz --rate` sets it to 16, the
//! stream length the fuzzing rate target names. Any other value of either variable is an error
//! (exit status 2, before the first input runs).
#![no_main]

use std::cell::RefCell;
use std::env::VarError;
use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use harness_sfpu::fuzz::{MAX_STREAM, diff_stream_at_most};

/// Exits with a message naming the environment variable and what it accepts.
fn bad_variable(name: &str, value: &Result<String, VarError>, expected: &str) -> ! {
    let shown = match value {
        Ok(v) => format!("{v:?}"),
        Err(_) => "(not valid Unicode)".to_string(),
    };
    eprintln!("{name}={shown}: expected {expected}");
    std::process::exit(2)
}

/// The pinned chip bit, if `SFPU_FUZZ_CHIP` is set.
fn pinned() -> Option<u8> {
    static PIN: OnceLock<Option<u8>> = OnceLock::new();
    *PIN.get_or_init(|| match std::env::var("SFPU_FUZZ_CHIP") {
        Err(VarError::NotPresent) => None,
        Ok(v) if v == "blackhole" => Some(0),
        Ok(v) if v == "wormhole" => Some(0x40),
        other => bad_variable("SFPU_FUZZ_CHIP", &other, "blackhole or wormhole"),
    })
}

/// The most instructions of a stream to run: `SFPU_FUZZ_MAX_STREAM`, else `MAX_STREAM`.
fn max_stream() -> usize {
    static MAX: OnceLock<usize> = OnceLock::new();
    *MAX.get_or_init(|| {
        let value = std::env::var("SFPU_FUZZ_MAX_STREAM");
        match value.as_deref().map(str::parse::<usize>) {
            Err(VarError::NotPresent) => MAX_STREAM,
            Ok(Ok(n)) if (1..=MAX_STREAM).contains(&n) => n,
            _ => bad_variable("SFPU_FUZZ_MAX_STREAM", &value, &format!("a number from 1 to {MAX_STREAM}")),
        }
    })
}

thread_local! {
    /// The pinned copy of the input, kept so that an execution allocates nothing.
    static PINNED: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

fuzz_target!(
    init: {
        // Both variables are read before the first input, so a bad value stops the run at once.
        let _ = (pinned(), max_stream());
    },
    |data: &[u8]| {
        let result = match (pinned(), data.split_first()) {
            (Some(bit), Some((&head, rest))) => PINNED.with_borrow_mut(|pinned| {
                pinned.clear();
                pinned.push((head & !0x40) | bit);
                pinned.extend_from_slice(rest);
                diff_stream_at_most(pinned, max_stream())
            }),
            _ => diff_stream_at_most(data, max_stream()),
        };
        if let Err(d) = result {
            panic!("{d}");
        }
    }
);
