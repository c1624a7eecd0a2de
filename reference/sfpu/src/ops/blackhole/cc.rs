//! Blackhole's own predication pages: SFPPUSHC (with its Mod1 1..15 modes), SFPPOPC (without
//! Wormhole's full-stack bug), and the comparisons SFPGT and SFPLE (new on Blackhole).
//!
//! Transcribes tt-isa-documentation BlackholeA0 `SFPPUSHC.md`, `SFPPOPC.md`
//! (@ `f7fda211c86e1977ff430076cf52b96a7aba8cca`), `SFPGT.md`, `SFPLE.md`
//! (@ `585749d1dcc6bcc56f1d6ff2dd6b72682d57fcd1`) § "Functional model". Wormhole's SFPPUSHC and
//! SFPPOPC are in [`ops::wormhole::cc`](crate::ops::wormhole::cc).

#![allow(non_snake_case, reason = "names follow the ISA documentation")]

use crate::isa::mods::*;
use crate::ops::shared::cc::BooleanOp;
use crate::ops::{Ctx, SignMagIsSmaller};
use crate::outcome::{Clause, Outcome};
use crate::state::{FlagStackEntry, LANES, State};

/// `SFPPUSHC`: in every lane passing the guard, push `{LaneFlags, UseLaneFlagsForLaneEnable}`
/// (Mod1 0), or replace / mutate the top of the flag stack (Mod1 1..15, new on Blackhole).
///
/// Transcribes BlackholeA0 `SFPPUSHC.md` § "Functional model". A push onto a full stack and a
/// mutation of an empty one are `UndefinedBehavior()`
/// (`docs/spec/sfpu-blackhole.md#sfppushc-full-stack`, `#sfppushc-empty-stack`): the lane is
/// reported and its stack left as it was, since a [`FlagStack`](crate::state::FlagStack) cannot
/// hold a ninth entry and an empty one has no top.
pub fn SFPPUSHC(s: &mut State, cx: &Ctx, VD: usize, Mod1: u32, out: &mut Outcome) {
    for Lane in 0..LANES {
        if VD < 12 || cx.DISABLE_BACKDOOR_LOAD(s, Lane) {
            if Mod1 == 0 {
                // Plain push to stack.
                if s.FlagStack[Lane].len() >= 8 {
                    out.note_lane(Clause::SfppushcFullStack, Lane); // UndefinedBehavior();
                    continue;
                }
                let entry = FlagStackEntry {
                    LaneFlags: s.LaneFlags[Lane],
                    UseLaneFlagsForLaneEnable: s.UseLaneFlagsForLaneEnable[Lane],
                };
                let _pushed = s.FlagStack[Lane].push(entry); // cannot fail: the stack is not full
            } else {
                // Replace or mutate top of stack.
                let Some(mut Top) = s.FlagStack[Lane].top() else {
                    out.note_lane(Clause::SfppushcEmptyStack, Lane); // UndefinedBehavior();
                    continue;
                };
                if Mod1 <= 12 {
                    // Replace the top's UseLaneFlagsForLaneEnable with the current state, and
                    // mutate the top's LaneFlags using the current state.
                    Top.UseLaneFlagsForLaneEnable = s.UseLaneFlagsForLaneEnable[Lane];
                    Top.LaneFlags = BooleanOp(Mod1, Top.LaneFlags, s.LaneFlags[Lane]);
                } else if Mod1 == 13 {
                    // Invert LaneFlags, then replace the top with the revised current state.
                    s.LaneFlags[Lane] = !s.LaneFlags[Lane];
                    Top.UseLaneFlagsForLaneEnable = s.UseLaneFlagsForLaneEnable[Lane];
                    Top.LaneFlags = s.LaneFlags[Lane];
                } else if Mod1 == 14 {
                    Top.UseLaneFlagsForLaneEnable = true;
                    Top.LaneFlags = true;
                } else if Mod1 == 15 {
                    Top.UseLaneFlagsForLaneEnable = true;
                    Top.LaneFlags = false;
                }
                if let Some(top) = s.FlagStack[Lane].top_mut() {
                    *top = Top; // FlagStack.Top() = Top;
                }
            }
        }
    }
}

/// `SFPPOPC`: in every lane passing the guard, pop the flag stack into
/// `{LaneFlags, UseLaneFlagsForLaneEnable}` (Mod1 0), or combine the top with them without
/// popping (Mod1 1..15).
///
/// Transcribes BlackholeA0 `SFPPOPC.md` § "Functional model". A pop of an empty stack is
/// `UndefinedBehavior()` (`docs/spec/sfpu-blackhole.md#sfppopc-empty-stack`); the model then still
/// assigns the `{false, false}` it read as the top, and so does this function. Mod1 != 0 with a
/// full stack is defined by the model but warned against by the page's summary
/// (`docs/spec/sfpu-blackhole.md#sfppopc-full-stack-complex`), so it is reported as unspecified.
pub fn SFPPOPC(s: &mut State, cx: &Ctx, VD: usize, Mod1: u32, out: &mut Outcome) {
    for Lane in 0..LANES {
        if VD < 12 || cx.DISABLE_BACKDOOR_LOAD(s, Lane) {
            // Peek at stack top.
            let Top = match s.FlagStack[Lane].top() {
                None => FlagStackEntry { UseLaneFlagsForLaneEnable: false, LaneFlags: false },
                Some(top) => top,
            };

            if Mod1 == 0 {
                // Plain pop from stack.
                if s.FlagStack[Lane].is_empty() {
                    out.note_lane(Clause::SfppopcEmptyStack, Lane); // UndefinedBehavior();
                }
                s.FlagStack[Lane].pop();
            } else if s.FlagStack[Lane].is_full() {
                out.note_lane(Clause::SfppopcFullStackComplex, Lane);
            }

            if Mod1 == 0 {
                // Set LaneFlags and UseLaneFlagsForLaneEnable to Top.
                s.UseLaneFlagsForLaneEnable[Lane] = Top.UseLaneFlagsForLaneEnable;
                s.LaneFlags[Lane] = Top.LaneFlags;
            } else if Mod1 <= 12 {
                // Mutate LaneFlags and UseLaneFlagsForLaneEnable based on Top.
                s.UseLaneFlagsForLaneEnable[Lane] = Top.UseLaneFlagsForLaneEnable;
                s.LaneFlags[Lane] = BooleanOp(Mod1, s.LaneFlags[Lane], Top.LaneFlags);
            } else if Mod1 == 13 {
                // Just invert LaneFlags.
                s.LaneFlags[Lane] = !s.LaneFlags[Lane];
            } else if Mod1 == 14 {
                s.UseLaneFlagsForLaneEnable[Lane] = true;
                s.LaneFlags[Lane] = true;
            } else if Mod1 == 15 {
                s.UseLaneFlagsForLaneEnable[Lane] = true;
                s.LaneFlags[Lane] = false;
            }
        }
    }
}

/// The shared body of SFPGT and SFPLE: the pages differ only in the comparison.
fn compare(s: &mut State, cx: &Ctx, VC: usize, VD: usize, Mod1: u32, greater: bool) {
    let VB = cx.implicit_VB(VD); // unsigned VB = VD; (skipped under SFPLOADMACRO)
    for Lane in 0..LANES {
        if VD < 12 || cx.DISABLE_BACKDOOR_LOAD(s, Lane) {
            // SFPGT: IsVcSmaller = SignMagIsSmaller(VC, VB); SFPLE: IsVcGreaterEqual = !that.
            let smaller = SignMagIsSmaller(s.LReg[VC][Lane], s.LReg[VB][Lane]);
            let result = if greater { smaller } else { !smaller };
            if s.IsLaneEnabled(Lane) {
                if Mod1 & SFPGT_MOD1_SET_VD != 0 && (VD < 8 || VD == 16) {
                    s.LReg[VD][Lane] = if result { -1i32 as u32 } else { 0 };
                }
                if Mod1 & SFPGT_MOD1_SET_CC != 0 {
                    s.LaneFlags[Lane] = result;
                }
            }
            if Mod1 & SFPGT_MOD1_MUTATE_STACK != 0 {
                if let Some(top) = s.FlagStack[Lane].top_mut() {
                    if Mod1 & SFPGT_MOD1_MUTATE_OR != 0 {
                        top.LaneFlags |= result;
                    } else {
                        top.LaneFlags &= result;
                    }
                }
            }
        }
    }
}

/// `SFPGT`: lanewise sign-magnitude `VD > VC`, to `VD` (as -1 / 0), `LaneFlags`, and/or the top of
/// the flag stack (the last regardless of lane enable).
///
/// Transcribes BlackholeA0 `SFPGT.md` § "Functional model".
pub fn SFPGT(s: &mut State, cx: &Ctx, VC: usize, VD: usize, Mod1: u32) {
    compare(s, cx, VC, VD, Mod1, true);
}

/// `SFPLE`: lanewise sign-magnitude `VD <= VC`, with the same destinations as [`SFPGT`].
///
/// Transcribes BlackholeA0 `SFPLE.md` § "Functional model" (its `SFPLE_MOD1_*` values equal the
/// `SFPGT_MOD1_*` ones).
pub fn SFPLE(s: &mut State, cx: &Ctx, VC: usize, VD: usize, Mod1: u32) {
    compare(s, cx, VC, VD, Mod1, false);
}
