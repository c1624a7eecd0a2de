//! Arbitrary bytes into the golden-vector loader and the state deserialiser: never a panic
//! (oracle: `harness_sfpu::fuzz::vectors_load_oracle`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Err(e) = harness_sfpu::fuzz::vectors_load_oracle(data) {
        panic!("{e}");
    }
});
