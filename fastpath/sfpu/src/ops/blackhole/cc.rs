//! Blackhole's flag-stack instructions: SFPPUSHC and SFPPOPC (Blackhole's pages: `Mod1` on
//! SFPPUSHC, the fixed full-stack SFPPOPC) and the Blackhole-only comparisons SFPGT and SFPLE.
//!
//! Implements BlackholeA0 `SFPPUSHC.md`, `SFPPOPC.md`, `SFPGT.md`, `SFPLE.md`. Wormhole's SFPPUSHC
//! and SFPPOPC are [`crate::ops::wormhole::cc`].
//!
//! Undefined cases (`docs/spec/sfpu-blackhole.md#sfppushc-full-stack`, `#sfppushc-empty-stack`,
//! `#sfppopc-empty-stack`) and what this model does in the affected lanes (a choice; nothing is
//! promised there): SFPPUSHC `Mod1 == 0` on a full stack pushes nothing; SFPPUSHC `Mod1 != 0` on an
//! empty stack changes nothing at all in that lane; SFPPOPC `Mod1 == 0` on an empty stack pops
//! nothing and, as the model's code reads, sets both `LaneFlags` and `UseLaneFlagsForLaneEnable`
//! from the "empty" top `{false, false}`.

use sfpu_reference::outcome::{Clause, Outcome};

use crate::exec::{Ctx, w8};
use crate::fp::sign_mag_key;
use crate::ops::boolean_op;
use crate::state::{FastState, blend};

/// SFPPUSHC: `Mod1 == 0` pushes `{LaneFlags, Use}`; 1..12 rewrite the top with the current `Use`
/// and `BooleanOp(Mod1, top.LaneFlags, LaneFlags)`; 13 inverts `LaneFlags` and copies the result to
/// the top; 14 / 15 set the top to `{true, true}` / `{false, true}`. Every lane passing the guard,
/// enabled or not.
#[inline(always)]
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
#[inline(always)]
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

/// SFPGT (`gt`) / SFPLE: `res = VD > VC` (resp. `VD <= VC`) in sign-magnitude order, `VB = VD`.
/// In enabled lanes: `SET_VD` (8) writes -1 / 0 to `VD`, `SET_CC` (1) sets `LaneFlags`. In every
/// lane passing the guard: `MUTATE_STACK` (2) ANDs (or with `MUTATE_OR`, 4, ORs) `res` into a
/// non-empty stack's top `LaneFlags`.
#[inline(always)]
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
