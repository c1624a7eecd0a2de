//! The SFPU fast model's integration tests, one binary (`cargo test -p sfpu-fastpath --test it`):
//! one module per kind of check against the reference (`differential`, `machine_diff`, `fma_exact`,
//! `simd`, ...), and the helpers they share in `common`. A test's name starts with its module, so
//! `cargo test -p sfpu-fastpath --test it fma_exact` runs one kind. The differential checks at
//! every SIMD level (`simd_levels`) run in a process of their own (they set the process-wide
//! level), the test binary started again for them.

mod common;

mod differential;
mod fma_exact;
mod footprint_sound;
mod machine_diff;
mod no_panic;
mod program;
mod round_trip;
mod simd;
mod simd_levels;
