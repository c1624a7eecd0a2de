//! A literal reference model of the Tenstorrent Blackhole A0 Vector Unit (SFPU).
//!
//! Every instruction is a function that reads like the "Functional model" pseudocode of its
//! page in [tt-isa-documentation](https://github.com/tenstorrent/tt-isa-documentation) and names
//! that page and its revision. Correctness and legibility over speed: the fast model lives in
//! `sfpu-fastpath` and is checked against this one.
//!
//! The project's specification notes, `blackhole-sfpu.md`, restate the pages, record where the
//! seed documents were wrong, and list every undefined or unspecified case; section numbers
//! (`spec §3.1`) refer to them. Where the pages and the notes disagree, the pages win, and the code
//! says so where it makes the choice (`// DEPARTURE:`).
//!
//! Pinned revisions: the instruction pages are cited with the commit each was read at; the FMA
//! models come from `Miscellaneous/FMA/fma.c` @ `06c5af5b8b68c9e59e698ab76b59181b7dd47222`.
//!
//! Module map:
//! * [`isa`]: the 42 instructions as types, encoding and decoding, the mode constants, and the
//!   tt-llk macro text form (`TTI_SFPMAD(0, 1, 2, 3, 0)`).
//! * [`state`]: the architectural state and its lossless YAML/JSON form.
//! * [`fp`]: the IEEE, Blackhole and Wormhole FMA models.
//! * [`ops`]: one module per instruction family, one function per instruction.
//! * [`exec`]: [`step`], one instruction, and the dispatch to `ops`.
//! * [`machine`]: the cycle-level [`Machine`], SFPLOADMACRO scheduling and the auto-stall logic.
//! * [`hazard`]: read/write sets and the stall logic's view of them; [`lint`] checks programs.
//! * [`outcome`]: what the specification promises about an effect ([`Outcome`], [`Clause`]).

#![forbid(unsafe_code)]
#![deny(missing_docs)]
#![allow(
    clippy::collapsible_if,
    clippy::collapsible_else_if,
    clippy::if_same_then_else,
    clippy::needless_late_init,
    reason = "the functional models' if/else structure is kept statement for statement"
)]

pub mod exec;
pub mod fp;
pub mod hazard;
pub mod isa;
pub mod lint;
pub mod machine;
pub mod ops;
pub mod outcome;
pub mod state;

pub use exec::step;
pub use isa::{Arch, DecodeError, EncodeError, Instr, Opcode, decode, encode};
pub use machine::Machine;
pub use outcome::{Clause, Kind, Outcome};
pub use state::{ResetValues, State};
