//! The AMX fast model's integration tests, one binary (`cargo test -p amx-fastpath --test it`): one
//! module per kind of check against the reference (`oracle`, `modes`, `streams`, `large`, ...), and
//! the helpers they share in `common` (also used by `examples/bench.rs`). A test's name starts with
//! its module, so `cargo test -p amx-fastpath --test it large` runs one kind.

mod common;

mod large;
mod modes;
mod no_panic;
mod oracle;
mod planted;
mod simd;
mod spot;
mod streams;
