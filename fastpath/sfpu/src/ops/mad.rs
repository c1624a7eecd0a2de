//! The MAD sub-unit's multiply-add family: SFPMAD, SFPADD, SFPMUL, SFPADDI, SFPMULI.
//!
//! Implements BlackholeA0 `SFPMAD.md` (SFPADD.md and SFPMUL.md are "as per SFPMAD"), `SFPADDI.md`,
//! `SFPMULI.md`, and WormholeB0 `SFPMAD.md` (@ `241b4eaf`), `SFPADD.md`, `SFPMUL.md`, `SFPADDI.md`,
//! `SFPMULI.md`. (Blackhole's SFPMUL24 is [`super::blackhole::mul24`].) All 32 lanes are computed
//! with the chip's branch-free FMA (`simd::fma32_at`: `fma_model_bh` or `fma_model_wh`) and merged
//! under the lane mask.
//!
//! One page per instruction on each chip, with the same functional model apart from two points,
//! checked where they apply: the FMA, and the negation bits, which are Blackhole's only
//! (`NEGATE_VA` 1 and `NEGATE_VC` 2; SFPADDI / SFPMULI have `NEGATE_VC`). Wormhole's pages name only
//! `INDIRECT_VA` (4) and `INDIRECT_VD` (8); its model ignores the other bits, which are reported as
//! [`Clause::WormholeMadUnnamedMod1`] (SFPMAD / SFPADD / SFPMUL bits 0 and 1, SFPADDI / SFPMULI bits
//! 0 to 2).
//!
//! Interpretations: the pages' C `float` negations (`c = -c`) and `float d = a * b + c` are read as
//! raw sign-bit flips and `fma_model_bh` on raw bits
//! (`docs/spec/sfpu-blackhole.md#arithmetic-written-as-c-float`); the
//! `VD < 12 || DISABLE_BACKDOOR_LOAD` guard uses the instruction's `VD` field even when
//! `INDIRECT_VD` redirects the write.

use sfpu_reference::outcome::{Clause, Outcome};

use super::{indirect_register, write_result};
use crate::exec::Ctx;
use crate::simd::fma32_at;
use crate::state::FastState;

const SIGN: u32 = 0x8000_0000;

/// SFPMAD / SFPADD / SFPMUL: `VD = ±(VA * VB) ± VC` with `NEGATE_VA` (1, Blackhole), `NEGATE_VC`
/// (2, Blackhole), `INDIRECT_VA` (4), `INDIRECT_VD` (8).
#[inline(always)]
pub fn sfpmad<const WH: bool, const L: u8>(
    s: &mut FastState,
    va: u32,
    vb: u32,
    vc: u32,
    vd: u32,
    mod1: u32,
    cx: &Ctx,
    out: &mut Outcome,
) {
    debug_assert_eq!(WH, s.is_wormhole());
    let wormhole = WH;
    if wormhole && mod1 & 3 != 0 {
        out.note_all(Clause::WormholeMadUnnamedMod1);
    }
    let vd = cx.vd(vd);
    let m = cx.g12(s, vd) & s.enabled();
    if m == 0 {
        return;
    }
    // The operands are read in place where nothing changes them (no copy of the registers); the
    // negations are the sign bits the kernel flips as it loads them.
    let g;
    let flip_a = if !wormhole && mod1 & 1 != 0 { SIGN } else { 0 };
    let flip_c = if !wormhole && mod1 & 2 != 0 { SIGN } else { 0 };
    let a = if mod1 & 4 != 0 {
        // One register named by every lane is read in place too.
        match indirect_register(s) {
            Some(r) => &s.lreg[r],
            None => {
                g = crate::simd::gather_indirect(&s.lreg);
                &g
            }
        }
    } else {
        &s.lreg[va as usize]
    };
    let b = &s.lreg[cx.vb(vb)];
    let c = &s.lreg[cx.vc(vc)];
    let mut d = [0u32; 32];
    fma32_at::<WH, L>(a, b, c, flip_a, flip_c, &mut d);
    write_result(s, vd, mod1 & 8 != 0, &d, m);
}

/// What SFPADDI and SFPMULI do alike before their FMA (their pages' shared preamble): Wormhole's
/// unnamed `Mod1` bits 0 to 2 reported, `VC = VD` (unless SFPLOADMACRO overrides it), the lanes
/// that execute, and Blackhole's `NEGATE_VC` (2) as a sign flip. `None` when no lane executes.
#[inline(always)]
fn immediate_form<const WH: bool>(
    s: &FastState,
    vd_field: u32,
    mod1: u32,
    cx: &Ctx,
    out: &mut Outcome,
) -> Option<(usize, usize, u32, u32)> {
    debug_assert_eq!(WH, s.is_wormhole());
    if WH && mod1 & 7 != 0 {
        out.note_all(Clause::WormholeMadUnnamedMod1);
    }
    let vc = cx.implicit_vc(vd_field);
    let vd = cx.vd(vd_field);
    let m = cx.g12(s, vd) & s.enabled();
    let flip = if !WH && mod1 & 2 != 0 { SIGN } else { 0 };
    (m != 0).then_some((vc, vd, m, flip))
}

/// SFPADDI: `VD = BF16ToFP32(Imm16) * 1.0 ± VD` (`NEGATE_VC` 2 on Blackhole, `INDIRECT_VD` 8;
/// Blackhole's bits 0 and 2 unused).
#[inline(always)]
pub fn sfpaddi<const WH: bool, const L: u8>(
    s: &mut FastState,
    imm16: u32,
    vd_field: u32,
    mod1: u32,
    cx: &Ctx,
    out: &mut Outcome,
) {
    let Some((vc, vd, m, flip_c)) = immediate_form::<WH>(s, vd_field, mod1, cx, out) else {
        return;
    };
    let a = [imm16 << 16; 32];
    let b = [0x3F80_0000u32; 32];
    let mut d = [0u32; 32];
    fma32_at::<WH, L>(&a, &b, &s.lreg[vc], 0, flip_c, &mut d);
    write_result(s, vd, mod1 & 8 != 0, &d, m);
}

/// SFPMULI: `VD = BF16ToFP32(Imm16) * ±VD + 0.0` (`NEGATE_VC` 2 on Blackhole, `INDIRECT_VD` 8).
#[inline(always)]
pub fn sfpmuli<const WH: bool, const L: u8>(
    s: &mut FastState,
    imm16: u32,
    vd_field: u32,
    mod1: u32,
    cx: &Ctx,
    out: &mut Outcome,
) {
    let Some((vc, vd, m, flip)) = immediate_form::<WH>(s, vd_field, mod1, cx, out) else {
        return;
    };
    // `Imm16 * -VD` as `-Imm16 * VD`: both FMA models use the factors' signs only through their
    // XOR (`x ^ y`; `tests/it/fma_exact.rs` `factor_signs_count_only_through_their_xor`), so either
    // flip gives the same bits, and the immediate's costs nothing.
    let a = [(imm16 << 16) ^ flip; 32];
    let zero = [0u32; 32];
    let mut d = [0u32; 32];
    fma32_at::<WH, L>(&a, &s.lreg[vc], &zero, 0, 0, &mut d);
    write_result(s, vd, mod1 & 8 != 0, &d, m);
}
