//! Predication ("condition code") instructions: SFPSETCC, SFPENCC, SFPPUSHC, SFPPOPC, SFPCOMPC,
//! SFPGT, SFPLE.
//!
//! Implements WormholeB0 `SFPSETCC.md`, `SFPCOMPC.md` (BlackholeA0 stubs) and BlackholeA0
//! `SFPENCC.md`, `SFPPUSHC.md`, `SFPPOPC.md`, `SFPGT.md`, `SFPLE.md`; spec §3.18, §3.23,
//! §3.26-§3.29, §4.7.
//!
//! Everything here is whole-mask arithmetic on the bit-sliced `LaneFlags`,
//! `UseLaneFlagsForLaneEnable` and flag-stack words: a `BooleanOp` over 32 lanes is one or two
//! instructions.
//!
//! Undefined cases (spec §6.1 item 2, 3) and what this model does in the affected lanes (a choice;
//! nothing is promised there): SFPPUSHC `Mod1 == 0` on a full stack pushes nothing; SFPPUSHC
//! `Mod1 != 0` on an empty stack changes nothing at all in that lane; SFPPOPC `Mod1 == 0` on an
//! empty stack pops nothing and, as the model's code reads, sets both `LaneFlags` and
//! `UseLaneFlagsForLaneEnable` from the "empty" top `{false, false}`.

use sfpu_reference::outcome::{Clause, Outcome};

use super::boolean_op;
use crate::exec::{Ctx, w8};
use crate::fp::sign_mag_key;
use crate::state::{FastState, blend};

/// SFPSETCC: in enabled lanes passing the guard, `LaneFlags = false` unless
/// `UseLaneFlagsForLaneEnable`; else cleared by `CLEAR` (8), set from `Imm1` (`IMM_BIT0`, 1), or
/// an integer comparison of `VC` with zero (Mod1 0 `< 0`, 2 `!= 0`, 4 `>= 0`, 6 `== 0`).
pub fn sfpsetcc(s: &mut FastState, imm1: u32, vc: u32, vd: u32, mod1: u32, cx: &Ctx) {
    let vd = cx.vd(vd);
    let m = cx.g12(s, vd) & s.enabled();
    if m == 0 {
        return;
    }
    let v = if mod1 & 8 != 0 {
        0
    } else if mod1 & 1 != 0 {
        if imm1 & 1 != 0 { !0 } else { 0 }
    } else {
        let c = &s.lreg[cx.vc(vc)];
        let mut neg = 0u32;
        let mut zero = 0u32;
        for l in 0..32 {
            neg |= (((c[l] as i32) < 0) as u32) << l;
            zero |= ((c[l] == 0) as u32) << l;
        }
        match mod1 {
            0 => neg,
            2 => !zero,
            4 => !neg,
            _ => zero,
        }
    };
    let v = v & s.use_flags;
    s.lane_flags = (s.lane_flags & !m) | (v & m);
}

/// SFPENCC: in every lane passing the guard (enabled or not), `UseLaneFlagsForLaneEnable` is set
/// from `Imm2` bit 0 (`EI`, 2), inverted (`EC`, 1) or kept; `LaneFlags` is set from `Imm2` bit 1
/// (`RI`, 8) or to true.
pub fn sfpencc(s: &mut FastState, imm2: u32, vd: u32, mod1: u32, cx: &Ctx) {
    let vd = cx.vd(vd);
    let m = cx.g12(s, vd);
    if mod1 & 2 != 0 {
        let v = if imm2 & 1 != 0 { !0 } else { 0 };
        s.use_flags = (s.use_flags & !m) | (v & m);
    } else if mod1 & 1 != 0 {
        s.use_flags ^= m;
    }
    let f = if mod1 & 8 != 0 { if imm2 & 2 != 0 { !0 } else { 0 } } else { !0 };
    s.lane_flags = (s.lane_flags & !m) | (f & m);
}

/// SFPPUSHC: `Mod1 == 0` pushes `{LaneFlags, Use}`; 1..12 rewrite the top with the current `Use`
/// and `BooleanOp(Mod1, top.LaneFlags, LaneFlags)`; 13 inverts `LaneFlags` and copies the result to
/// the top; 14 / 15 set the top to `{true, true}` / `{false, true}`. Every lane passing the guard,
/// enabled or not.
pub fn sfppushc(s: &mut FastState, vd: u32, mod1: u32, cx: &Ctx, out: &mut Outcome) {
    let vd = cx.vd(vd);
    let m = cx.g12(s, vd);
    if m == 0 {
        return;
    }
    if mod1 == 0 {
        out.note(Clause::SfppushcFullStack, m & s.stack.full());
        s.stack.push(m, s.lane_flags, s.use_flags);
        return;
    }
    out.note(Clause::SfppushcEmptyStack, m & !s.stack.nonempty());
    let m = m & s.stack.nonempty();
    let (top_f, _top_u) = (s.stack.flags[0], s.stack.uses[0]);
    match mod1 {
        1..=12 => {
            let f = boolean_op(mod1, top_f, s.lane_flags);
            s.stack.set_top(m, f, s.use_flags);
        }
        13 => {
            s.lane_flags ^= m;
            s.stack.set_top(m, s.lane_flags, s.use_flags);
        }
        14 => s.stack.set_top(m, !0, !0),
        _ => s.stack.set_top(m, 0, !0),
    }
}

/// SFPPOPC: `Mod1 == 0` pops and restores `{LaneFlags, Use}` from the old top; 1..12 set
/// `Use = top.Use` and `LaneFlags = BooleanOp(Mod1, LaneFlags, top.LaneFlags)` (operands in the
/// other order than SFPPUSHC); 13 inverts `LaneFlags`; 14 / 15 set `{Use, LaneFlags}` to
/// `{true, true}` / `{true, false}`. An empty stack's top reads as `{false, false}`.
pub fn sfppopc(s: &mut FastState, vd: u32, mod1: u32, cx: &Ctx, out: &mut Outcome) {
    let vd = cx.vd(vd);
    let m = cx.g12(s, vd);
    if m == 0 {
        return;
    }
    // Canonical representation: top words are zero in empty lanes, i.e. {false, false}.
    let top_f = s.stack.flags[0];
    let top_u = s.stack.uses[0];
    if mod1 != 0 {
        out.note(Clause::SfppopcFullStackComplex, m & s.stack.full());
    }
    match mod1 {
        0 => {
            out.note(Clause::SfppopcEmptyStack, m & !s.stack.nonempty());
            s.stack.pop(m);
            s.use_flags = (s.use_flags & !m) | (top_u & m);
            s.lane_flags = (s.lane_flags & !m) | (top_f & m);
        }
        1..=12 => {
            let f = boolean_op(mod1, s.lane_flags, top_f);
            s.use_flags = (s.use_flags & !m) | (top_u & m);
            s.lane_flags = (s.lane_flags & !m) | (f & m);
        }
        13 => s.lane_flags ^= m,
        14 => {
            s.use_flags |= m;
            s.lane_flags |= m;
        }
        _ => {
            s.use_flags |= m;
            s.lane_flags &= !m;
        }
    }
}

/// SFPCOMPC: `LaneFlags = (top.Use && Use) ? top.LaneFlags && !LaneFlags : false`, where an empty
/// stack's top reads as `{true, true}`. Every lane passing the guard, enabled or not.
pub fn sfpcompc(s: &mut FastState, vd: u32, cx: &Ctx) {
    let vd = cx.vd(vd);
    let m = cx.g12(s, vd);
    let empty = !s.stack.nonempty();
    let top_f = s.stack.flags[0] | empty;
    let top_u = s.stack.uses[0] | empty;
    let f = top_u & s.use_flags & top_f & !s.lane_flags;
    s.lane_flags = (s.lane_flags & !m) | (f & m);
}

/// SFPGT (`gt`) / SFPLE: `res = VD > VC` (resp. `VD <= VC`) in sign-magnitude order, `VB = VD`.
/// In enabled lanes: `SET_VD` (8) writes -1 / 0 to `VD`, `SET_CC` (1) sets `LaneFlags`. In every
/// lane passing the guard: `MUTATE_STACK` (2) ANDs (or with `MUTATE_OR`, 4, ORs) `res` into a
/// non-empty stack's top `LaneFlags`.
pub fn sfpgtle(s: &mut FastState, gt: bool, vc: u32, vd_field: u32, mod1: u32, cx: &Ctx) {
    let vb = cx.implicit_vb(vd_field);
    let vd = cx.vd(vd_field);
    let g = cx.g12(s, vd);
    if g == 0 {
        return;
    }
    let c = &s.lreg[cx.vc(vc)];
    let b = &s.lreg[vb];
    let mut lt = 0u32;
    for l in 0..32 {
        lt |= ((sign_mag_key(c[l]) < sign_mag_key(b[l])) as u32) << l;
    }
    let res = if gt { lt } else { !lt };
    let en = g & s.enabled();
    if mod1 & 8 != 0 && w8(vd) {
        let mut r = [0u32; 32];
        for l in 0..32 {
            r[l] = if (res >> l) & 1 != 0 { !0 } else { 0 };
        }
        blend(&mut s.lreg[vd], &r, en);
    }
    if mod1 & 1 != 0 {
        s.lane_flags = (s.lane_flags & !en) | (res & en);
    }
    if mod1 & 2 != 0 {
        let mm = g & s.stack.nonempty();
        let top = s.stack.flags[0];
        let new = if mod1 & 4 != 0 { top | res } else { top & res };
        s.stack.flags[0] = (top & !mm) | (new & mm);
    }
}
