//! The ISA-neutral core of the conformance harness: golden vectors, random differential
//! campaigns, external implementations (DUTs) and compliance reports, for any instruction set
//! that has a literal reference model and an optimised one.
//!
//! * [`isa`]: the seam an instruction set implements (its chips, words, state, locations,
//!   models, matrix, golden vectors, campaign jobs, protocol and report extensions);
//! * [`session`]: checking one chip of any instruction set (its vectors on every model, the
//!   random campaign, the extensions, the report section) and replaying one case; [`driver`]:
//!   an instruction set as the command line sees it, and the main job over several;
//! * [`vectors`] (a corpus, its selection and running it), [`campaign`] (the seeded random
//!   campaign), [`check`] (the verdict on one case), [`matrix`] (the coverage matrix),
//!   [`replay`] (the command lines that reproduce a failure), [`observe`] (progress and
//!   interruption), [`input`] (reading a user's files: regular files only, YAML nesting bounded);
//! * [`report`]: the compliance report's data model and its Markdown, HTML, JUnit and terminal
//!   renderers, and the merging of shards' reports;
//! * [`dut`]: external implementations behind the JSON-lines envelope, each a child process;
//!   [`fuzz`]: a differential fuzz oracle for any instruction set.
//!
//! This crate depends on no model crate: each instruction set implements [`isa::Isa`] in a crate
//! of its own (`harness/sfpu`, `harness/amx`), and the command line lists them.
//!
//! Modelled on regex's `regex-test` crate (one corpus, several engines, one runner) and on
//! wasmtime's differential fuzzing crate (oracles in a library, thin front ends elsewhere).

#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod campaign;
pub mod check;
pub mod driver;
pub mod dut;
pub mod fuzz;
pub mod input;
pub mod isa;
pub mod matrix;
pub mod observe;
pub mod replay;
pub mod report;
pub mod rng;
pub mod session;
pub mod vectors;
