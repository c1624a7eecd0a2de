//! Any 32-bit word, every architecture: decoding never panics and is canonical
//! (oracle: `harness_sfpu::fuzz::decode_oracle`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Err(e) = harness_sfpu::fuzz::decode_oracle(data) {
        panic!("{e}");
    }
});
