//! SFPI's integration tests, one binary (`cargo test -p sfpi --test it`): one module per area
//! (constructs, lowering, errors, the kernel registry and its accuracy, random kernels), and the
//! helpers they share in `common`. A test's name starts with its module, so `cargo test -p sfpi
//! constructs` runs one area.

mod common;

mod accuracy;
mod constructs;
mod errors;
mod lowering;
mod meaning_vs_machine;
mod random_kernels;
mod registry;
