//! SFPI through the harness: the SFPU programming interface of seed 003 as a Rust layer, a
//! lowering to SFPU programs for Blackhole A0 and Wormhole B0, the per-lane meaning of every
//! kernel, a corpus of the kernels users run, and their accuracy.
//!
//! ```
//! use sfpi::*;
//!
//! // Seed 003's v_if example: dst_reg[0] = a where a < b, b where a > b, a + b where equal.
//! let kernel = Kernel::record("pick", || {
//!     let a = vFloat::from(dst_reg[0]);
//!     let b = vFloat::from(dst_reg[1]);
//!     v_if(a.lt(b), || dst_reg[0].set(a))
//!         .v_elseif(a.gt(b), || dst_reg[0].set(b))
//!         .v_else(|| dst_reg[0].set(a + b))
//!         .v_endif();
//! })
//! .unwrap();
//! let lowered = kernel.for_chip(Arch::Wormhole).unwrap().lower().unwrap();
//! println!("{}", lowered.text(1).unwrap()); // TTI_SFPCONFIG(0, 11, 1), TTI_SFPNOP, TTI_SFPENCC(3, 0, 0, 10), ...
//! ```
//!
//! Module map:
//! * [`vector`], [`cond`], [`library`]: the layer: `vFloat`, `vInt`, `vUInt`, `dst_reg`, `l_reg`,
//!   the constants, `v_if` / `v_elseif` / `v_else` / `v_endif`, `v_block` / `v_and`, and every
//!   library call of the seed.
//! * [`record`]: [`Kernel::record`] and the scoping rules; [`ir`]: what is recorded;
//!   [`prepare`]: [`Kernel::for_chip`] (chip checks, MAD generation).
//! * [`meaning`]: the kernel evaluated lane by lane in plain Rust.
//! * [`lower`](mod@lower): instruction selection, register allocation, predication through the flag stack,
//!   the SFPNOPs of the scheduling rules; [`Lowered::text`] is the tt-llk text form.
//! * [`tile`]: tile formats, Dst layouts and conversions; [`run`]: running programs on the
//!   reference and fast models and comparing with the meaning.
//! * [`kernels`]: the corpus and its registry ([`kernels::registry`], [`kernels::KernelDef::build`]);
//!   [`accuracy`]: ULP error against an f64 oracle ([`accuracy::accuracy`],
//!   [`accuracy::chip_difference`]).
//!
//! Sources: seed 003 (SFPI), tenstorrent/sfpi `include/sfpi.h`, `sfpi_lib.h`, the per-chip
//! `sfpi_imp.h` / `sfpi_lib.h` / `sfpi_hw.h` (which instruction each operation becomes), the
//! tt-isa-documentation pages and the project's specification notes `docs/spec/` (what the
//! instructions do). See `sfpi/README.md`.

#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod accuracy;
pub mod cond;
pub mod error;
pub mod ir;
pub mod kernels;
pub mod library;
pub mod lower;
pub mod meaning;
pub mod prepare;
pub mod record;
pub mod rng;
pub mod run;
pub mod tile;
pub mod vector;

pub use cond::{VCond, VElse, VIf, v_and, v_block, v_if};
pub use error::KernelError;
pub use ir::{ChipKernel, Kernel};
pub use library::*;
pub use lower::{LowerOptions, Lowered, PlantedBug, lower};
pub use sfpu_reference::isa::Arch;
pub use vector::{
    DReg, FloatConst, IntConst, LRegs, dst_reg, l_reg, reinterpret, s2vFloat16a, s2vFloat16b, vConst0,
    vConst0p8373, vConst1, vConstFloatPrgm0, vConstFloatPrgm1, vConstFloatPrgm2, vConstIntPrgm0,
    vConstIntPrgm1, vConstIntPrgm2, vConstNeg1, vConstTileId, vFloat, vInt, vUInt,
};
