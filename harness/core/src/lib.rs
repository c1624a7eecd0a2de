//! The ISA-neutral core of the conformance harness: golden vectors, random differential
//! campaigns, external implementations (DUTs) and compliance reports, for any instruction set
//! that has a literal reference model and an optimised one.
//!
//! * [`isa`]: the seam an instruction set implements (its chips, words, state, locations,
//!   models, matrix cells and random cases);
//! * [`check`]: checking a model against expected states, the coverage matrix, and the random
//!   campaign over that seam;
//! * [`report`]: the compliance report's data model and its Markdown, HTML and JUnit renderers;
//! * [`dut`]: external implementations behind the JSON-lines envelope, each a child process.
//!
//! This crate depends on no model crate: each instruction set implements [`isa::Isa`] in a crate
//! of its own (`harness/sfpu`, `harness/amx`), and the command line lists them.
//!
//! Modelled on regex's `regex-test` crate (one corpus, several engines, one runner) and on
//! wasmtime's differential fuzzing crate (oracles in a library, thin front ends elsewhere).

#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod check;
pub mod dut;
pub mod isa;
pub mod report;
pub mod rng;
