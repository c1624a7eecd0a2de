//! Run-time selection of wider vector instructions for the fast model, and the one place of the
//! crate where `unsafe` is allowed: the calls of `#[target_feature]` functions after the CPU check
//! that makes them sound, and the vector loads and stores of the AVX-512, AVX2 and NEON kernels
//! (`simd/avx512.rs`, `simd/avx2.rs`, `simd/neon.rs`) and of `sign_bits`'s copies (the lane-mask
//! gather every model's flags go through: `vpmovd2m` / `vmovmskps`, which the compiler does not
//! find by itself), of `write_indirect` / `gather_indirect` (`INDIRECT_VD` / `INDIRECT_VA`:
//! AVX-512's mask-register blends and one gather per 16 lanes, AVX2's vector-mask blends and one
//! gather per 8 lanes), and `load_word`'s volatile read (a flag word read alone, never as part of
//! a wider load).
//!
//! Two things differ per level, chosen per call from [`level`] (which checks the CPU once):
//!
//! * **Every instruction's model** (`simd::execute`): `exec::execute_on`, with every instruction's
//!   model inlined into it, is compiled once per level with that level's target features, so the
//!   32-lane loops of all instructions (masked writes, comparisons, shifts, counts, the
//!   conversions of SFPCAST, SFPSTOCHRND and the SFPLOAD / SFPSTORE formats, whatever
//!   SFPLOADMACRO schedules) use the CPU's vector instructions. One source; the copies differ only
//!   in the instructions the compiler may choose (integer and bit operations mean the same on
//!   every target, and Rust has no fast-math). For decoded programs the same body is also
//!   compiled per opcode (`Handlers`: `exec::execute_op` with one opcode's arm, per chip and
//!   level), so that an instruction runs a small function of its own rather than the dispatch
//!   over every model; the table is looked up once per program.
//! * **The FMA kernels** ([`crate::fp::fma32`], [`crate::fp::fma32_wh`]), the hottest loops. The
//!   models' AVX-512 and AVX2 copies inline their level's kernel whole, negations included
//!   (`fma32_at`: a `#[target_feature]` function cannot be `#[inline(always)]`, so the kernels'
//!   bodies are `unsafe` functions without features, inlined where the features are the
//!   copy's); everything else calls the out-of-line copy of the level in force:
//!   - [`Level::Avx512`]: hand-written AVX-512 F/CD/DQ/VBMI2 kernels (`simd/avx512.rs`: two
//!     vectors of 16 lanes one after the other, mask registers for the per-lane choices, the
//!     normalisation and rounding as one exact integer-to-float conversion, the special inputs
//!     through the IEEE FMA, a shortcut for vectors of special lanes, and Blackhole's underflow
//!     rule by a second conversion, rounding toward zero; the module docs say why each
//!     restatement is exact).
//!   - [`Level::Avx2`]: hand-written AVX2 + FMA kernels (`simd/avx2.rs`: the same restatement on
//!     four vectors of 8 lanes, lane predicates as vectors, Blackhole's underflow rule by the
//!     conversion to nearest corrected toward zero, in a vector that may take it). The portable
//!     source compiled with AVX2 enabled stays scalar, 2.6x slower on ordinary operands, hence
//!     the hand-written kernels.
//!   - [`Level::Neon`] (AArch64): hand-written NEON kernels (`simd/neon.rs`: the same restatement
//!     on eight vectors of 4 lanes, Blackhole's underflow rule as AVX2's). Advanced SIMD is part
//!     of every AArch64 CPU, so the level is always available there and needs no check;
//!     its models' copies are the portable ones (which the AArch64 targets compile for Advanced
//!     SIMD anyway). `.ci/aarch64` runs this crate's tests under `qemu-aarch64`.
//!   - [`Level::Portable`]: the same source for the baseline target (any architecture).
//!
//! Besides these, the cycle-level machine's copy-and-merge path (a cycle in which SFPLOADMACRO's
//! scheduled instructions execute: `FastMachine::run_with_scheduled_on`, with its state copies
//! and merges) has an AVX-512 copy (`simd::run_with_scheduled`); AVX2 runs the baseline copy, as its
//! own was slower.
//!
//! Every copy computes the same function: `tests/it/simd.rs` checks each available copy of both
//! chips' FMA kernels lane by lane against the FMA models of `fma.c` (the reference crate's
//! `fma_model_bh` / `fma_model_wh`) on random, cancelling and edge triples and on batches mixing
//! lane classes per vector, and `tests/it/simd_levels.rs` runs the differential checks of `step` and
//! of the cycle-level machine against the reference on each level this CPU supports.
//! `cargo xtask bench` measures every class at the selected level and each lower one in the same
//! run. [`set_level`], `SFPU_FASTPATH_PORTABLE=1` (portable) or
//! `SFPU_FASTPATH_SIMD=portable|neon|avx2|avx512` (at most that level; NEON sits between
//! portable and AVX2 in the order, and no CPU has both) choose a lower level.
//!
//! Files: `level.rs` (the levels and the CPU checks: a leaf), `kernels.rs` (the FMA kernels at the
//! level in force, the sign-bit gather, the indirect register access, with their portable loops;
//! the hand-written kernels in `avx512.rs`, `avx2.rs`, `neon.rs`), `dispatch.rs` (the per-level
//! copies of the models: `simd::execute`, the per-opcode tables `Handlers`, SFPLOADMACRO's load
//! part) and `scheduled.rs` (the machine's copy-and-merge cycle per level). This file only
//! declares them and re-exports their items under `simd::`.

#![allow(unsafe_code, reason = "calls of #[target_feature] functions after detection; SIMD loads")]

#[cfg(target_arch = "x86_64")]
mod avx2;
#[cfg(target_arch = "x86_64")]
mod avx512;
#[cfg(test)]
mod check;
mod dispatch;
mod kernels;
mod level;
#[cfg(target_arch = "aarch64")]
mod neon;
mod scheduled;

pub(crate) use dispatch::{Handlers, execute, sfpload};
pub use kernels::{Kernel, fma32_bh, fma32_portable, fma32_wh, fma32_wh_portable, kernel};
pub(crate) use kernels::{fma32_at, gather_indirect, load_word, sign_bits, write_indirect};
pub(crate) use level::masked_stores_are_slow;
pub use level::{Level, avx2_available, avx512_available, level, neon_available, set_level};
pub(crate) use scheduled::{ScheduledCycle, run_with_scheduled};
