//! An optimised, independent second implementation of the Tenstorrent Blackhole A0 and Wormhole B0
//! Vector Units (SFPU): every instruction of each chip in every mode (42 on Blackhole, 38 on
//! Wormhole), and the cycle-level SFPLOADMACRO schedule with each chip's stalls and scheduling
//! rules. The chip is the state's: [`FastState::from_state`] takes it from the snapshot,
//! [`FastState::reset`] from its argument, and [`step`] and [`FastMachine`] follow it.
//!
//! Written from the documentation (the tt-isa-documentation BlackholeA0 and WormholeB0 pages, the
//! bit-exact FMA models of `Miscellaneous/FMA/fma.c`, and the project's specification notes
//! `docs/spec/sfpu-blackhole.md` and `docs/spec/sfpu-wormhole.md`), *not* from the reference model
//! `sfpu-reference`, so that comparing the two means something. From the reference crate it uses
//! only the shared vocabulary: the instruction types and decoder (`isa`), the architectural
//! `State` it converts to and from (`state`), and the specification verdict type (`outcome`).
//! The reference's FMA models, its `step` and its `Machine` appear only in this crate's tests, as
//! oracles.
//!
//! Design:
//! * **Bit-sliced predication.** Every per-lane boolean is a `u32` with bit `i` for lane `i`:
//!   `LaneFlags`, `UseLaneFlagsForLaneEnable`, the eight flag-stack levels, lane-enable masks
//!   including `ROW_MASK`, comparison results. SFPSETCC, SFPGT/SFPLE, SFPPUSHC/SFPPOPC's
//!   `BooleanOp`, SFPCOMPC and every masked write are a few word operations for all 32 lanes.
//! * **Structure-of-arrays data path.** `lreg[r]` is one register for 32 lanes; every instruction
//!   computes all 32 lanes with straight-line code and merges with `(new & m) | (old & !m)` using
//!   per-lane all-ones masks, which the compiler can auto-vectorise. The models are compiled for
//!   AVX-512 and AVX2 as well as the baseline target, and the FMA kernels also have hand-written
//!   AVX-512 copies; the CPU decides at run time ([`simd`]: the crate's only `unsafe`, with a
//!   portable fallback and tests of every level).
//! * **Decode once per program** ([`Program`]): what the executor and the cycle-level machine ask
//!   of an instruction that does not depend on the state (sub-unit, chip, backdoor candidate,
//!   stall and hazard footprints) is computed when the program is built; [`FastMachine::run`] and
//!   [`program::run_steps`] run it with one merged `Outcome`.
//! * **Fast FMAs** ([`fp::fma_bh`], [`fp::fma_wh`]): branch-free reformulations of each chip's
//!   partially fused multiply-add, written step for step alike, proven bit-exact against
//!   `fma_model_bh` and `fma_model_wh` by `tests/it/fma_exact.rs`.
//! * **One transcription per shared page, one per chip where pages differ** ([`ops`],
//!   [`ops::blackhole`], [`ops::wormhole`]); [`exec`] picks a chip's function, checking the chip
//!   once per instruction (a copy of the dispatch per chip).
//! * **No allocation, no state clone per instruction.** A cycle with several instructions (only
//!   possible with SFPLOADMACRO) copies the few-KB non-Dst part of the state, never the 32 KB Dst.
//!
//! # Disagreements found and decided
//!
//! Wormhole: three behaviours of the reference depart from the WormholeB0 pages (Dst row remapping
//! applied on Wormhole, SFPLOADMACRO with `AddrMod` 4..7 executed on Wormhole, SFPSWAP counted as
//! reading `LReg[4..=7]`); `README.md` ("What the Wormhole work found in the reference") gives
//! pages, lines and what the tests do about them.
//!
//! Blackhole: the differential tests (`tests/it/differential.rs`, `tests/it/machine_diff.rs`) found three places
//! where the first reference model departed from the pages; each was decided from the page and
//! both models now follow it: SFPLOADMACRO overrides the `VD` of a scheduled
//! SFPCONFIG (`SFPLOADMACRO.md`); the stall logic never stalls SFPSWAP for data (`SFPMAD.md`) and
//! believes SFPSTOCHRND reads `VB` (`SFPSTOCHRND_*.md`). SFPCONFIG reads `LReg[0]` for the hazard
//! check exactly when its page's code does.
//!
//! Conventions for cases the documentation leaves open were aligned with the reference where the
//! outcome reporting depends on them (each is recorded where it is implemented): lane 0's
//! configuration drives a lane-varying SFPLOADMACRO and lane 0's `DISABLE_BACKDOOR_LOAD` decides a
//! guard outside the lane loop; `blackhole-addrmod` is reported when `ExtraAddrModBit` or
//! `ADDR_MOD_SET_Base` is set; hazard bookkeeping treats a discarded instruction as issued for the
//! thread's own next instruction.
//!
//! Module map: [`state`] (the state and its conversion), [`fp`] (FMA and numeric helpers),
//! [`exec`] (one instruction: the entry points, and in `exec/models.rs` the dispatch to `ops`
//! written once), [`machine`] ([`FastMachine`], and [`step`]), [`hazard`] (what each chip's
//! scheduling rules read and write), [`footprint`] (what a multi-instruction cycle touches),
//! [`ops`] (one module per instruction family; [`ops::blackhole`] and [`ops::wormhole`] for the
//! pages that differ), [`program`] (decoded programs), [`simd`] (the SIMD levels, the vector
//! kernels, and the per-level copies of the models). Below them, private: `ctx` ([`exec::Ctx`]),
//! `lanes` (lane masks as words), `locations` (the state locations footprints name).
//!
//! The files form no import circle (`.ci/import_cycles.py fastpath/sfpu`). Where a per-level copy
//! and the code it copies would name each other, the side below takes the other as a generic
//! parameter with one instantiation, so every call stays static and is compiled as if named: the
//! one-opcode copies of the models are given the every-arm copy at the level in force to fall back
//! to, a function item, by `simd/dispatch.rs` (`exec/models.rs` does not name `simd`), and
//! `simd/scheduled.rs` compiles the machine's copy-and-merge cycle per level through the
//! `ScheduledCycle` trait, which the machine implements (`simd` does not name the machine).

// The one exception, the calls of the per-level copies after CPU detection and the AVX-512
// kernels' loads and stores, is in `simd`, with its reasons and its tests.
#![deny(unsafe_code)]
#![deny(missing_docs)]

mod ctx;
pub mod exec;
pub mod footprint;
pub mod fp;
pub mod hazard;
mod lanes;
mod locations;
pub mod machine;
pub mod ops;
pub mod program;
pub mod simd;
pub mod state;

pub use exec::step;
pub use machine::FastMachine;
pub use program::{Decoded, Program};
pub use state::FastState;
