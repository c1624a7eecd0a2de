//! The ALU modes, on raw bits of the Z element format.
//!
//! Transcribes `amx-vecfp.md` §2.2 (the ALU table) with the edge cases of §2.8; upstream
//! corsix/amx `vecfp_alu16`, `vecfp_alu_bf16`, `vecfp_alu32` and `vecfp_alu64` (`vecfp.c` at
//! `483714bb051da088d08a66724b22dd08a5db3c99`), which are one switch per format; the formats
//! differ only in their arithmetic, which [`crate::fp`] provides, so here they share one switch.

use crate::fp::{self, Format};
use crate::isa::AluMode;

/// `ALU(alu, a, b, z)` in format `T`: the new Z element from x = `a`, y = `b` and the old Z
/// element `z`. Every arithmetic result is canonicalised to the default NaN (§2.8); mode 4
/// passes y's bits unchanged.
pub fn ALU(alu: AluMode, T: Format, x: u64, y: u64, z: u64) -> u64 {
    match alu {
        AluMode::Fma => fp::fma(T, x, y, z), //                0: z + x·y, fused
        // CHOICE(§2.2, §2.8; `docs/spec/amx-vecfp.md#mode-1-negation-order`): seed 004 writes mode
        // 1 as `z - x*y`; the notes (commit f3582ce, Arm FMSUB) negate x before the multiply. The
        // two differ only in the sign of a NaN, which DN then makes the positive default NaN.
        AluMode::Fms => fp::fma(T, T.neg(x), y, z), //         1: z − x·y as fma(−x, y, z)
        AluMode::Select => {
            if fp::le_zero(T, x) { 0 } else { y } //           4: x ≤ 0 ? +0 : y (y's raw bits)
        }
        AluMode::Min => fp::min(T, x, z), //                   5: min(x, z), Arm FMIN
        AluMode::Max => fp::max(T, x, z), //                   7: max(x, z), Arm FMAX
        AluMode::Mul => fp::mul(T, x, y), //                  10: x·y
        AluMode::AddX => fp::add(T, z, x), //                 11: z + x
        AluMode::AddY => fp::add(T, z, y), //                 12: z + y
    }
}
