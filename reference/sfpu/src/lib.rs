//! A literal reference model of the Tenstorrent Blackhole A0 and Wormhole B0 Vector Units (SFPU).
//!
//! Every instruction is a function that reads like the "Functional model" pseudocode of its
//! page in [tt-isa-documentation](https://github.com/tenstorrent/tt-isa-documentation) and names
//! that page and its revision. Correctness and legibility over speed: the fast model lives in
//! `sfpu-fastpath` and is checked against this one.
//!
//! The project's specification notes, `docs/spec/sfpu-blackhole.md` and
//! `docs/spec/sfpu-wormhole.md` in the repository, record every decision the model makes where the
//! pages are silent, ambiguous or disagree, and every clause an [`Outcome`] can name; code cites
//! their entries as `docs/spec/<page>#<anchor>`. The newest page revision wins over the notes, and
//! the code says so where it makes a choice (`// DEPARTURE:`).
//!
//! Pinned revisions: the instruction pages are cited with the commit each was read at; the FMA
//! models come from `Miscellaneous/FMA/fma.c` @ `06c5af5b8b68c9e59e698ab76b59181b7dd47222`.
//!
//! Both chips share one [`Instr`] type and one [`State`] type; the chip is explicit wherever a
//! word, a text or a state is produced or read ([`decode`]`(arch, ..)`, [`encode`]`(arch, ..)`,
//! [`State::reset`]`(arch, ..)`, the state document's `arch`), and everything after that follows
//! the state's chip ([`State::arch`]).
//!
//! Module map:
//! * [`isa`]: the instructions (42 on Blackhole, 38 on Wormhole) as types, each chip's encoding
//!   and decoding, the mode constants, and each chip's tt-llk macro text form
//!   (`TTI_SFPMAD(0, 1, 2, 3, 0)`).
//! * [`state`]: the architectural state of either chip and its lossless YAML/JSON form.
//! * [`fp`]: the IEEE, Blackhole and Wormhole FMA models.
//! * [`ops`]: one function per instruction page: `ops::shared` (pages both chips share),
//!   `ops::blackhole` and `ops::wormhole` (each chip's own pages, side by side).
//! * [`exec`]: one instruction's functional model ([`exec::execute`]) and the per-chip dispatch
//!   to `ops` (`exec::blackhole`, `exec::wormhole`: one arm per opcode).
//! * [`machine`]: the cycle-level [`Machine`], SFPLOADMACRO scheduling, Blackhole's auto-stall
//!   logic and Wormhole's one stall (after SFPSWAP); [`step`], one instruction on a fresh machine
//!   (also `exec::step`).
//! * [`hazard`]: read/write sets, the stall logic's view of them, and Wormhole's software-managed
//!   next-cycle rules; [`lint`] checks programs.
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
