//! Deliberately wrong variants, for the test that shows the differential comparison with the
//! reference catches a wrong fast model (`tests/it/planted.rs`). Only [`crate::Plan::planted`]
//! reaches them; [`crate::vecfp`] and [`crate::Plan::new`] never do.

use amx_reference::AluMode;

use crate::fp;
use crate::kernels::{blend_store, lanes};

/// A bf16 row computed the naive way §5 warns against: the arithmetic modes in f32 (an f32 FMA,
/// multiply or add), then one RNE narrowing to bf16. Double rounding: wrong near bf16 ties.
pub(crate) fn bf16_row_via_f32(alu: AluMode, xb: &[u8; 64], yb: &[u8; 64], row: &mut [u8; 64], enable: u32) {
    let (x, y, z): ([u16; 32], [u16; 32], [u16; 32]) = (lanes(xb), lanes(yb), lanes(row));
    let f = |h: u16| f32::from_bits((h as u32) << 16);
    let to_bf16 = |v: f32| fp::narrow_bf16(f64::from(v));
    let o = std::array::from_fn(|i| match alu {
        AluMode::Fma => to_bf16(f(x[i]).mul_add(f(y[i]), f(z[i]))),
        AluMode::Fms => to_bf16((-f(x[i])).mul_add(f(y[i]), f(z[i]))),
        AluMode::Mul => to_bf16(f(x[i]) * f(y[i])),
        AluMode::AddX => to_bf16(f(z[i]) + f(x[i])),
        AluMode::AddY => to_bf16(f(z[i]) + f(y[i])),
        AluMode::Select => fp::bf16_select(x[i], y[i]),
        AluMode::Min => fp::bf16_min(x[i], z[i]),
        AluMode::Max => fp::bf16_max(x[i], z[i]),
    });
    blend_store(row, &z, &o, enable);
}
