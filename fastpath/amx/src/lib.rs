//! An optimised, independent second implementation of Apple AMX `vecfp` for the chip profiles
//! M1, M2 (= M3) and M4, with exactly the semantics of the reference model `amx-reference`.
//!
//! Written from the project's first AMX notes `amx-vecfp.md` (outside this repository, cited as
//! `§N`; the decisions are in `docs/spec/amx-vecfp.md`) and the seed
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
//! * **A plan per operand** ([`Plan`], `plan.rs`): the operand's bits decoded directly (§1.4,
//!   not through `amx_reference::decode`), then the rows of each iteration, the window offsets
//!   of each iteration (steps, BMODE, the indexed step and the M4 masking folded in), the
//!   enabled lanes as a bit mask, and, per operand, a static gather table that composes the
//!   shuffle, the broadcast of Y lane N or X lane 0 and the pair modes' row interleave. Sizes
//!   are powers of two, so there is no division. An operation that enables no lane is a no-op
//!   plan. A plan can be reused on many states ([`Plan::run`], [`Plan::run_many`]).
//! * **Whole-vector data path** (`exec.rs`, [`kernels`]): per iteration, each operand is a
//!   64-byte window borrowed from the pool (copied only when it wraps past byte 511), permuted
//!   by its gather table when needed (or expanded from a table register for an indexed load);
//!   then one out-of-line kernel call reads the Z row, computes every lane in a loop with a
//!   branch-free body, blends the enabled lanes in and writes the row. The pair modes are an f32
//!   kernel on each half of the deinterleaved, widened inputs.
//! * **Exact routes per format** ([`fp`], whose docs give each argument):
//!
//!   | Format | Portable level | AVX2 level |
//!   |---|---|---|
//!   | f32, f64 | native `mul_add`, `*`, `+` | the same, one `vfmadd` per 8 or 4 lanes |
//!   | f16 | exact product in f32, sum rounded to odd by TwoSum, RNE narrowing on the bits | the same route, widening and narrowing by F16C |
//!   | bf16 | exact product in f64, sum rounded to odd by TwoSum, RNE narrowing on the bits | the hardware's f32 result narrowed on the bits, exact unless it is a bf16 midpoint; those lanes take the round-to-odd route |
//!   | pairs | exact widening to f32, then f32 | F16C widening for f16, then f32 |
//!   | min, max, `x ≤ 0` | order keys on the bits | the same |
//!
//!   Every NaN result becomes the format's default NaN (§2.8); mode 4 passes `y` raw.
//! * **Run-time SIMD selection** ([`simd`]): the data path is compiled for the baseline target
//!   and for AVX2 + FMA + F16C, which adds the F16C conversions, the bf16 f32 route and a
//!   64-byte byte permute for the gathers; the best level the CPU has runs.
//!
//! # Module map
//!
//! | Module | What | Notes |
//! |---|---|---|
//! | [`Plan`] (`plan.rs`) | decode, steps, BMODE, M4 masking, lane masks, gather tables, rows | §1.3–§1.4, §2.1, §2.3–§2.7 |
//! | `exec.rs` | windows, gathers, indexed expansion, the iteration loops | §2.1, §2.3, §2.7 |
//! | [`kernels`] | one whole-row kernel per Z format: read, compute, blend, write | §2.2, §2.3, §2.4 |
//! | [`fp`] | lane arithmetic on bits per format: routes, narrowing, min/max, default NaN | §2.8, §5 |
//! | [`simd`] | the levels, CPU detection, the AVX2 kernels, F16C and the byte permute | |
//!
//! Nothing panics, for any operand, any chip and any state: every index into a register is
//! masked to its range. The floating-point environment is Rust's default (round to nearest
//! even, no flush-to-zero, no denormals-are-zero), which is what §2.8 asks for; a host that
//! changed MXCSR behind Rust's back would change the native f32/f64 results (the reference's too).

// The exceptions, the calls of the AVX2 code after CPU detection and the byte permute's vector
// loads, are in `simd`, each with its safety argument.
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
