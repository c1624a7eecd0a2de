//! Differential fuzzing of instruction streams: reference model vs fast model, compared after
//! every instruction (oracle: `sfpu_conformance::fuzz::diff_stream`). A panic is a divergence;
//! its message is the minimised stream with a regression vector.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Err(d) = sfpu_conformance::fuzz::diff_stream(data) {
        panic!("{d}");
    }
});
