//! A literal reference model of Apple AMX `vecfp` for the chip profiles M1, M2 (= M3) and M4.
//!
//! `vecfp` is the AMX instruction `z[_][i] ±= f(x[i], y[i])`: a lanewise FMA (or another ALU
//! operation) between an X vector, a Y vector and a Z row. This crate is the slow, literal model
//! that a differential conformance harness checks an independent fast model against. Correctness
//! and legibility over speed: every step of the specification's pseudocode is one function, named
//! as the specification names it, and arithmetic is done on raw bits.
//!
//! **What it transcribes.** The project's first AMX notes `amx-vecfp.md` (in the shared
//! specification folder outside this repository; cited as `§N`) are the main source, with the seed
//! `004` (the `vecfp` page of corsix/amx, `vecfp.md`). The notes pin corsix/amx at
//! `483714bb051da088d08a66724b22dd08a5db3c99` (2024-12-26, "Updates for M4"), whose `vecfp.c`,
//! `emulate.h` and `genlut.c` they restate, and cite commits `483714b` (M4) and `f3582ce` (FMS
//! negation order) and issue corsix/amx#13. Where the seed and the notes differ (the seed's sample
//! is the pre-M4 emulator), the notes are followed and the code says so where it chooses. Every
//! decision the model makes where corsix/amx leaves a point open is an entry of
//! `docs/spec/amx-vecfp.md` in this repository, which names the code that makes it.
//!
//! | Module | Notes |
//! |---|---|
//! | [`isa`]: [`Chip`], [`Operand`] and its [`Field`]s, [`decode`] to [`Decoded`] | §1.2, §1.3, §1.4 |
//! | [`state`]: [`State`] (X, Y, Z) and its YAML/JSON document | §1.1, §3 |
//! | [`vecfp()`]: the whole-instruction flow | §2.1 |
//! | [`vecfp::lanes`]: `lane_set`, `zslot`, the BMODE set-up, M4 masking | §2.3, §2.4, §2.5, §2.6 |
//! | [`vecfp::fetch`]: `window`, `expand`, `shuffle` | §2.7 |
//! | [`vecfp::alu`]: `ALU` | §2.2 |
//! | [`fp`]: default NaN, FMA, add, multiply, min, max on bits, per format | §2.8, §5 |
//! | [`classes`]: the semantic classes a generator enumerates | §4.2 |
//!
//! Nothing panics, for any operand, any chip and any state.

#![forbid(unsafe_code)]
#![deny(missing_docs)]
#![allow(non_snake_case, reason = "names follow the specification notes (EC, N, ALU, S, ...)")]

pub mod classes;
pub mod fp;
pub mod isa;
pub mod state;
pub mod vecfp;

pub use isa::{
    AluMode, Bmode, Chip, Decoded, Field, FieldOverflow, Indexed, LaneWidth, Nop, Operand, OperandParseError,
    Select, Vecfp, XY, decode, encode,
};
pub use state::{State, StateDoc, StateError, StateReadError};
pub use vecfp::vecfp;
