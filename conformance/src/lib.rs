//! The conformance harness: golden vectors, random differential campaigns, external
//! implementations (DUTs) and compliance reports, for any instruction set that has a literal
//! reference model and an optimised one.
//!
//! The layout is the architecture:
//! * the ISA-neutral core: [`isa`] (the seam an instruction set implements), [`check`] (checking
//!   a model against expected states, and the random campaign, over that seam), [`report`] (the
//!   compliance report's data model and its Markdown, HTML and JUnit renderers) and
//!   [`dut::process`] (running an external implementation as a child process). None of these
//!   names a type of an instruction set; `tests/isa_seam.rs` checks it;
//! * one folder per instruction set: [`sfpu`] (the Tenstorrent Tensix Vector Unit, Blackhole A0
//!   and Wormhole B0) and [`amx`] (Apple AMX `vecfp`, chip profiles M1, M2 = M3, M4), each with
//!   its implementation of [`isa::Isa`], its vector format, generator and oracles.
//!
//! A third instruction set is a third folder beside them and an entry in the command line's list
//! (`xtask`).
//!
//! Modelled on regex's `regex-test` crate (one corpus, several engines, one runner) and on
//! wasmtime's differential fuzzing crate (oracles in a library, thin front ends elsewhere).

#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod amx;
pub mod check;
pub mod dut;
pub mod isa;
pub mod report;
pub mod rng;
pub mod sfpu;
