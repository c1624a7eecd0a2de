//! The conformance machinery of the SFPU harness: the [`Model`] interface every implementation
//! is checked through, the golden-vector format with its generator, loader and runner, and the
//! taint analysis that decides which parts of a result the specification actually promises.
//!
//! Modelled on regex's `regex-test` crate (one corpus, several engines, one runner) and on
//! wasmtime's differential fuzzing crate (oracles in a library, thin front ends elsewhere).

#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod amx;
pub mod campaign;
pub mod diff;
pub mod dut;
pub mod fuzz;
pub mod generate;
pub mod ieee;
pub mod model;
pub mod report;
pub mod sfpu;
pub mod taint;
pub mod vectors;

pub use model::{FastModel, Model, ModelError, Reference, Run};
