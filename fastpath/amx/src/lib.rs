//! An optimised, independent second implementation of Apple AMX `vecfp` for the chip profiles
//! M1, M2 (= M3) and M4, with exactly the semantics of the reference model `amx-reference`.
//!
//! Written from the project's specification notes `amx-vecfp.md` (cited as `§N`) and the seed
//! `004` (the `vecfp` page of corsix/amx), **not** from the reference model's code, so that
//! comparing the two means something. From `amx-reference` it uses only the shared vocabulary:
//! the ISA types and decoder ([`amx_reference::isa`]: [`Chip`], [`Operand`], `decode`, the
//! decoded enums) and the architectural [`State`]. The reference's flow, arithmetic and classes
//! (`amx_reference::vecfp`, `fp`, `classes`) appear only in this crate's tests, as the oracle.
//!
//! ```
//! use amx_reference::{Chip, Field, Operand, State};
//!
//! let mut s = State::zeroed();
//! let op = Operand::from_fields(&[(Field::LW, 7), (Field::ALU, 10)]).unwrap(); // f64 x·y into z[0]
//! s.X[0][..8].copy_from_slice(&1.5f64.to_le_bytes());
//! s.Y[0][..8].copy_from_slice(&(-4.0f64).to_le_bytes());
//! amx_fastpath::vecfp(&mut s, Chip::M2, op);
//! assert_eq!(s.Z[0][..8], (-6.0f64).to_le_bytes());
//! ```
//!
//! # How it differs from the reference
//!
//! The reference follows §2.1's pseudocode statement by statement: per iteration and per lane it
//! asks whether the lane is enabled, which X and Y lane it reads, which Z slot it writes, and
//! dispatches the ALU mode and format per lane through a software floating-point model. Here:
//!
//! * **A plan per operand** ([`Plan`], `plan.rs`): decode once, then precompute the rows of each
//!   iteration, the window offsets of each iteration (steps, BMODE, the indexed step and the M4
//!   masking folded in), the enabled lanes as a bit mask, and one gather table per operand that
//!   composes the shuffle, the broadcast of Y lane N or X lane 0, and the pair modes' row
//!   interleave. An operation that enables no lane becomes a no-op plan. A plan can be reused
//!   on many states ([`Plan::run`], [`Plan::run_many`]).
//! * **Whole-vector data path** (`exec.rs`): per iteration, each operand is one 64-byte window
//!   copy and one gather (or, for an indexed operand, indices unpacked from one `u128` and a
//!   gather from the table register); the ALU runs on every lane of the row in a loop with a
//!   branch-free body ([`kernels`]); the enabled lanes are blended in. The pair modes are an
//!   f32 row kernel run on each half of the deinterleaved, widened inputs.
//! * **Native arithmetic where it is exact** ([`fp`]): f32 and f64 use the hardware
//!   (`mul_add`, `*`, `+`); f16 goes through f64 without an FMA (the product is exact and the
//!   sum exact wherever it matters); bf16 uses the notes' round-to-odd route (exact product in
//!   f64, TwoSum, round to odd, one RNE narrowing) instead of an integer FMA; min, max and
//!   `x ≤ 0` compare order keys of the bits. [`fp`]'s module docs argue each route's exactness.
//! * **Run-time SIMD selection** ([`simd`]): the data path is compiled for the baseline target
//!   and for AVX2 + FMA + F16C; the best the CPU has runs.
//!
//! # Module map
//!
//! | Module | What | Notes |
//! |---|---|---|
//! | [`Plan`] (`plan.rs`) | decode, steps, BMODE, M4 masking, lane masks, gather tables, rows | §1.4, §2.1, §2.3–§2.7 |
//! | `exec.rs` | window, indexed expand, gathers, row loops, blend | §2.1, §2.3, §2.7 |
//! | [`kernels`] | one whole-row ALU per Z format | §2.2 |
//! | [`fp`] | lane arithmetic on bits per format: routes, narrowing, min/max, default NaN | §2.8, §5 |
//! | [`simd`] | run-time selection of the instruction-set level | |
//!
//! Nothing panics, for any operand, any chip and any state: every index into a register is
//! masked to its range.

// The one exception, the call of the AVX2 copy of the data path after CPU detection, is in
// `simd`, with its safety argument.
#![deny(unsafe_code)]
#![deny(missing_docs)]

mod exec;
pub mod fp;
pub mod kernels;
mod plan;
mod planted;
pub mod simd;

pub use amx_reference::{Chip, Operand, State};
pub use plan::Plan;
#[doc(hidden)]
pub use plan::PlantedBug;

/// Executes `vecfp` with `operand` on `state` as `chip` does: exactly the semantics of
/// `amx_reference::vecfp`, faster. Never panics.
#[inline]
pub fn vecfp(state: &mut State, chip: Chip, operand: Operand) {
    Plan::new(chip, operand).run(state);
}

/// Executes a stream of `vecfp` operands in order on one state (the state carries over from one
/// to the next, as in a program or corsix/amx's `test.c`).
pub fn vecfp_stream(state: &mut State, chip: Chip, operands: &[Operand]) {
    let level = simd::level();
    for &op in operands {
        Plan::new(chip, op).run_at(level, state);
    }
}

impl Plan {
    /// Runs the plan on `state`.
    #[inline]
    pub fn run(&self, state: &mut State) {
        if let Some(op) = &self.op {
            simd::run_at(simd::level(), op, state);
        }
    }

    /// Runs the plan on `state` with the copy of the data path for `level` (the portable copy
    /// when the CPU lacks `level`). The result never depends on the level; this is for tests
    /// and benchmarks.
    #[inline]
    pub fn run_at(&self, level: simd::Level, state: &mut State) {
        if let Some(op) = &self.op {
            simd::run_at(level, op, state);
        }
    }

    /// Runs the plan on every state of `states`.
    pub fn run_many(&self, states: &mut [State]) {
        if let Some(op) = &self.op {
            let level = simd::level();
            for s in states {
                simd::run_at(level, op, s);
            }
        }
    }
}
