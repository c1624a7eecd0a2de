//! Arbitrary bytes into the golden-vector loader and the state deserialiser: never a panic
//! (oracle: `sfpu_conformance::sfpu::fuzz::vectors_load_oracle`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Err(e) = sfpu_conformance::sfpu::fuzz::vectors_load_oracle(data) {
        panic!("{e}");
    }
});
