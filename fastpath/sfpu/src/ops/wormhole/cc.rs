//! Wormhole's flag-stack instructions: SFPPUSHC (push only; the encoding has no `Mod1`) and SFPPOPC
//! (with the full-stack bug).
//!
//! Implements WormholeB0 `SFPPUSHC.md`, `SFPPOPC.md` (@ `f7fda211`). Blackhole's versions are
//! [`crate::ops::blackhole::cc`].
//!
//! Undefined cases and what this model does in the affected lanes (a choice; nothing is promised
//! there), as on Blackhole: SFPPUSHC on a full stack pushes nothing; SFPPOPC `Mod1 == 0` on an
//! empty stack pops nothing and sets `LaneFlags` and `UseLaneFlagsForLaneEnable` from the "empty"
//! top `{false, false}`.
//!
//! The full-stack bug: the page's model performs it (`FlagStack.Bottom() = Top`) and its summary
//! says the complex modes "should not be used when the stack is full". As on Blackhole (whose page
//! also both warns against and defines the case), the lanes concerned are reported as
//! [`Clause::SfppopcFullStackComplex`], and this model does what the model says.

use sfpu_reference::outcome::{Clause, Outcome};

use crate::exec::Ctx;
use crate::ops::boolean_op;
use crate::state::FastState;
use sfpu_reference::state::FLAG_STACK_CAPACITY;

/// SFPPUSHC: pushes `{LaneFlags, Use}` in every lane passing the guard, enabled or not.
#[inline(always)]
pub fn sfppushc(s: &mut FastState, vd: u32, cx: &Ctx, out: &mut Outcome) {
    let vd = cx.vd(vd);
    let m = cx.g12(s, vd);
    if m == 0 {
        return;
    }
    out.note(Clause::SfppushcFullStack, m & s.stack.full());
    s.stack.push(m, s.lane_flags, s.use_flags);
}

/// SFPPOPC: `Mod1 == 0` pops and restores `{LaneFlags, Use}` from the old top; 1..12 set
/// `Use = top.Use` and `LaneFlags = BooleanOp(Mod1, LaneFlags, top.LaneFlags)`; 13 inverts
/// `LaneFlags`; 14 / 15 set `{Use, LaneFlags}` to `{true, true}` / `{true, false}`. An empty
/// stack's top reads as `{false, false}`. With `Mod1 != 0` and a full stack (depth 8), the
/// bottom entry becomes a copy of the top (the hardware bug of the page).
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
    if mod1 == 0 {
        out.note(Clause::SfppopcEmptyStack, m & !s.stack.nonempty());
        s.stack.pop(m);
        s.use_flags = (s.use_flags & !m) | (top_u & m);
        s.lane_flags = (s.lane_flags & !m) | (top_f & m);
        return;
    }
    // `FlagStack.Bottom() = Top` where the stack holds eight entries: the bottom is level 7 of
    // the top-relative layout.
    let full = m & s.stack.full();
    out.note(Clause::SfppopcFullStackComplex, full);
    if full != 0 {
        let bottom = FLAG_STACK_CAPACITY - 1;
        s.stack.flags[bottom] = (top_f & full) | (s.stack.flags[bottom] & !full);
        s.stack.uses[bottom] = (top_u & full) | (s.stack.uses[bottom] & !full);
    }
    match mod1 {
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
