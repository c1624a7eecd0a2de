//! Differential fuzzing of instruction streams: reference model vs fast model, compared after
//! every instruction (oracle: `sfpu_conformance::sfpu::fuzz::diff_stream`). A panic is a divergence;
//! its message is the minimised stream with a regression vector.
//!
//! Bit 6 of the input's first byte chooses the chip (Blackhole A0 or Wormhole B0), so this one
//! target covers both. `SFPU_FUZZ_CHIP=blackhole|wormhole` pins the chip (the bit is overwritten
//! before the oracle sees the input); `cargo xtask fuzz --smoke --planted` uses it to check each
//! chip on its own.
#![no_main]

use std::cell::RefCell;
use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;

/// The pinned chip bit, if `SFPU_FUZZ_CHIP` names a chip.
fn pinned() -> Option<u8> {
    static PIN: OnceLock<Option<u8>> = OnceLock::new();
    *PIN.get_or_init(|| match std::env::var("SFPU_FUZZ_CHIP").as_deref() {
        Ok("blackhole") => Some(0),
        Ok("wormhole") => Some(0x40),
        _ => None,
    })
}

thread_local! {
    /// The pinned copy of the input, kept so that an execution allocates nothing.
    static PINNED: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

fuzz_target!(|data: &[u8]| {
    let result = match (pinned(), data.split_first()) {
        (Some(bit), Some((&head, rest))) => PINNED.with_borrow_mut(|pinned| {
            pinned.clear();
            pinned.push((head & !0x40) | bit);
            pinned.extend_from_slice(rest);
            sfpu_conformance::sfpu::fuzz::diff_stream(pinned)
        }),
        _ => sfpu_conformance::sfpu::fuzz::diff_stream(data),
    };
    if let Err(d) = result {
        panic!("{d}");
    }
});
