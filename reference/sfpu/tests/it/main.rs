//! The reference model's integration tests, one binary (`cargo test -p sfpu-reference --test it`):
//! one module per area of the instruction set, and the helpers they share in `common`. A test's
//! name starts with its module (`mad_lut::sfpmad_...`), so `cargo test -p sfpu-reference mad_lut`
//! runs one area.

mod common;

mod convert_config;
mod examples;
mod field_integer;
mod fma_oracle;
mod isa;
mod load_store_shuffle;
mod machine;
mod mad_lut;
mod predication;
mod wormhole;
mod wormhole_lint;
