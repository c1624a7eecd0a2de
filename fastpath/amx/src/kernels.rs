//! Whole-vector ALU kernels: one function per Z element format, computing the ALU mode on every
//! lane of a row at once.
//!
//! Spec: `amx-vecfp.md` §2.2 (the modes and which inputs each uses) with the lane arithmetic of
//! [`crate::fp`]. The mode is matched once per row, outside the lane loop; each arm is a loop
//! over a fixed-size array with a branch-free body, which the compiler unrolls and vectorises
//! (four f64 or eight f32 lanes per instruction with AVX2). Lanes that the instruction does not
//! enable are computed too and discarded by the caller's blend: cheaper than a branch per lane.
//! Mode 1 is `fma(−x, y, z)`: `x` is negated before the multiply (§2.2, corsix/amx `f3582ce`).
//!
//! The kernels see already-fetched operands (window, indexed expansion, shuffle and broadcast
//! are applied by [`crate::exec`]), so they know nothing about lanes, rows or offsets.

use amx_reference::AluMode;

use crate::fp;

macro_rules! row_kernel {
    ($(#[$doc:meta])* $name:ident, $t:ty, $n:expr, $sign:expr,
     fma: $fma:path, mul: $mul:path, add: $add:path, select: $select:path, min: $min:path, max: $max:path) => {
        $(#[$doc])*
        #[inline(always)]
        pub fn $name(alu: AluMode, x: &[$t; $n], y: &[$t; $n], z: &[$t; $n]) -> [$t; $n] {
            let mut o: [$t; $n] = [0; $n];
            match alu {
                AluMode::Fma => for i in 0..$n { o[i] = $fma(x[i], y[i], z[i]) },
                AluMode::Fms => for i in 0..$n { o[i] = $fma(x[i] ^ $sign, y[i], z[i]) },
                AluMode::Select => for i in 0..$n { o[i] = $select(x[i], y[i]) },
                AluMode::Min => for i in 0..$n { o[i] = $min(x[i], z[i]) },
                AluMode::Max => for i in 0..$n { o[i] = $max(x[i], z[i]) },
                AluMode::Mul => for i in 0..$n { o[i] = $mul(x[i], y[i]) },
                AluMode::AddX => for i in 0..$n { o[i] = $add(z[i], x[i]) },
                AluMode::AddY => for i in 0..$n { o[i] = $add(z[i], y[i]) },
            }
            o
        }
    };
}

row_kernel!(
    /// An f16 row (32 lanes): f64 route, see [`crate::fp`].
    f16_row, u16, 32, 0x8000,
    fma: fp::f16_fma, mul: fp::f16_mul, add: fp::f16_add,
    select: fp::f16_select, min: fp::f16_min, max: fp::f16_max
);

row_kernel!(
    /// A bf16 row (32 lanes): round-to-odd route, see [`crate::fp`].
    bf16_row, u16, 32, 0x8000,
    fma: fp::bf16_fma, mul: fp::bf16_mul, add: fp::bf16_add,
    select: fp::bf16_select, min: fp::bf16_min, max: fp::bf16_max
);

row_kernel!(
    /// An f32 row (16 lanes; also each row of the pair modes, after widening): native route.
    f32_row, u32, 16, 0x8000_0000,
    fma: fp::f32_fma, mul: fp::f32_mul, add: fp::f32_add,
    select: fp::f32_select, min: fp::f32_min, max: fp::f32_max
);

row_kernel!(
    /// An f64 row (8 lanes): native route.
    f64_row, u64, 8, 0x8000_0000_0000_0000,
    fma: fp::f64_fma, mul: fp::f64_mul, add: fp::f64_add,
    select: fp::f64_select, min: fp::f64_min, max: fp::f64_max
);

/// 32 f16 lanes widened to f32 for a pair mode (§2.3).
#[inline(always)]
pub fn widen_f16(v: &[u16; 32]) -> [u32; 32] {
    let mut o = [0u32; 32];
    for i in 0..32 {
        o[i] = fp::f16_to_f32(v[i]);
    }
    o
}

/// 32 bf16 lanes widened to f32 for a pair mode (§2.3).
#[inline(always)]
pub fn widen_bf16(v: &[u16; 32]) -> [u32; 32] {
    let mut o = [0u32; 32];
    for i in 0..32 {
        o[i] = fp::bf16_to_f32(v[i]);
    }
    o
}
