//! `sfpu-conformance`: see the crate documentation of `sfpu_conformance`.

use std::process::ExitCode;

fn main() -> ExitCode {
    sfpu_conformance::main_with(
        &sfpu_conformance::registry(),
        std::env::args_os(),
        &sfpu_conformance::Context::installed(),
    )
}
