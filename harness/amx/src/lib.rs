//! Apple AMX `vecfp` in the harness: its golden vectors (`vectors/amx/`), their generator, loader
//! and runner over the literal reference model (`amx-reference`) and the fast model
//! (`amx-fastpath`).
//!
//! What "every mode" means comes from the specification notes
//! (`docs/spec/amx-vecfp.md#semantic-classes`), as transcribed by `amx_reference::classes`: per
//! chip profile, a one-factor-at-a-time walk over lane width × operation source × shuffle pair ×
//! lane selection (with the no-op classes, the offset classes and the ZROW classes), plus the
//! numeric-edge set (every ALU mode × every lane width over the 18 special values of each format).
//! [`generate`] makes them, [`format`](mod@format) is the file format (`amx-vectors/1`, a sibling
//! of the SFPU's `sfpu-vectors/3`), [`run`] checks a model against them, and [`campaign`] is the
//! random campaign (random states and operand streams, the whole state compared after every
//! operand, replayable by case id).
//!
//! Provenance: no vector is hardware-observed. The machines this runs on are x86-64 and cannot
//! reach Apple hardware (§4.1); every expected value is the reference model's, which is
//! cross-checked against `rustc_apfloat` and hand derivations in its own tests. Each file says so.

#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod amx;
pub mod campaign;
pub mod corpus;
pub mod dut;
pub mod format;
pub mod fuzz;
pub mod generate;
pub mod isa;
pub mod model;
pub mod run;
pub mod run_command;

pub use amx::Amx;
pub use format::{AmxVector, AmxVectorFile, FORMAT, PROVENANCE};
pub use run::{AmxResult, run_file};
