//! Wormhole's SFPSHFT (logical shifts of `VD` only), SFPAND and SFPOR (`VD op VC`, no `VB` field).
//!
//! Implements WormholeB0 `SFPSHFT.md`, `SFPAND.md`, `SFPOR.md` (@ `585749d1`). Blackhole's versions
//! are [`crate::ops::blackhole::integer`]. None carries the `VD < 12` guard; all write only if
//! `VD < 8 || VD == 16`, only in enabled lanes.
//!
//! All three say `unsigned VB = VD;`, which SFPLOADMACRO skips for simple sub-unit instructions
//! (`SFPLOADMACRO.md`), supplying `VB` itself; and Wormhole's SFPAND and SFPOR have no `VB` field,
//! so the macro logic's "if `Insn.VB` is None" gives them the template's `VD` (see `machine.rs`).

use sfpu_reference::outcome::{Clause, Outcome};

use crate::exec::{Ctx, w8};
use crate::ops::integer::sext12;
use crate::ops::shuffle::shift_logical;
use crate::state::{FastState, blend};

/// SFPSHFT: shift `VB` (= `VD`) left by `VC` or (`ARG_IMM`, 1) by `sext(Imm12)`, right (logically)
/// for negative amounts. `Mod1 > 1` is reserved: current silicon uses `Mod1 & 1`
/// (`NonContractualBehavior`).
#[inline(always)]
pub fn sfpshft(
    s: &mut FastState,
    imm12: u32,
    vc: u32,
    vd_field: u32,
    mod1: u32,
    cx: &Ctx,
    out: &mut Outcome,
) {
    let mut mod1 = mod1;
    if mod1 > 1 {
        out.note_all(Clause::SfpshftReservedMod1);
        mod1 &= 1;
    }
    let vb = cx.implicit_vb(vd_field);
    let vd = cx.vd(vd_field);
    if !w8(vd) {
        return;
    }
    let m = s.enabled() & cx.lanes;
    let b = &s.lreg[vb];
    let mut r = [0u32; 32];
    if mod1 & 1 != 0 {
        // One shift amount for every lane.
        let sh = sext12(imm12);
        for l in 0..32 {
            r[l] = shift_logical(b[l], sh);
        }
    } else {
        let c = &s.lreg[cx.vc(vc)];
        for l in 0..32 {
            r[l] = shift_logical(b[l], c[l] as i32);
        }
    }
    blend(&mut s.lreg[vd], &r, m);
}

/// SFPAND (`or == false`) / SFPOR: `VD = VB & VC` (resp. `|`) with `VB = VD`.
#[inline(always)]
pub fn sfpandor(s: &mut FastState, or: bool, vc: u32, vd_field: u32, cx: &Ctx) {
    let vb = cx.implicit_vb(vd_field);
    let vd = cx.vd(vd_field);
    if !w8(vd) {
        return;
    }
    let m = s.enabled() & cx.lanes;
    let c = &s.lreg[cx.vc(vc)];
    let b = &s.lreg[vb];
    let mut r = [0u32; 32];
    if or {
        for l in 0..32 {
            r[l] = b[l] | c[l];
        }
    } else {
        for l in 0..32 {
            r[l] = b[l] & c[l];
        }
    }
    blend(&mut s.lreg[vd], &r, m);
}
