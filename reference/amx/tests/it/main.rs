//! The AMX `vecfp` reference model's integration tests, one binary (`cargo test -p amx-reference
//! --test it`): one module per area, and the helpers they share in `common`. A test's name starts
//! with its module (`vecfp_numeric::...`), so `cargo test -p amx-reference vecfp_numeric` runs one
//! area.

mod common;

mod decode;
mod emulator_style;
mod fp_oracle;
mod no_panic;
mod vecfp_lanes;
mod vecfp_numeric;
