//! The Tenstorrent Tensix Vector Unit (SFPU) in the harness, Blackhole A0 and Wormhole B0: its
//! models behind the [`Model`] interface, the golden-vector format (`sfpu-vectors/3`) with its
//! generator, loader and runner, the taint analysis of unpromised locations, the random
//! campaign, the IEEE 754 characterisation, the fuzzing oracles, the DUT protocol's SFPU
//! messages, and the assembly of its report sections.
//!
//! Everything here names SFPU types (`sfpu-reference`, `sfpu-fastpath`, `sfpi`); the ISA-neutral
//! machinery it plugs into is `harness-core`.

#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod accuracy;
pub mod campaign;
pub mod declaration;
pub mod diff;
pub mod dut;
pub mod features;
pub mod fuzz;
pub mod generate;
pub mod ieee;
pub mod isa;
pub mod model;
pub mod programs;
pub mod report;
pub mod run_command;
pub mod sections;
mod sfpu;
pub mod spec_entries;
pub mod taint;
pub mod vectors;

pub use model::{FastModel, Model, ModelError, Reference, Run};
pub use sfpu::Sfpu;

/// The SFPU's additions to the whole report, for the renderers' `render_with`.
pub const REPORT_EXTENSIONS: &[&dyn harness_core::report::Extension] = &[&accuracy::KernelAccuracyExtension];
