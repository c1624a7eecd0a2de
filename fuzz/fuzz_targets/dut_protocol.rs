//! Arbitrary bytes as DUT answers: never a panic (oracle:
//! `harness_sfpu::fuzz::dut_protocol_oracle`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Err(e) = harness_sfpu::fuzz::dut_protocol_oracle(data) {
        panic!("{e}");
    }
});
