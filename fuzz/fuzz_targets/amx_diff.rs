//! AMX `vecfp`: any bytes are a chip profile, an operand stream and a state; the fast model must
//! match the reference after every operand (oracle: `harness_amx::fuzz::amx_diff_oracle`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Err(e) = harness_amx::fuzz::amx_diff_oracle(data) {
        panic!("{e}");
    }
});
