//! Wormhole's own predication pages: SFPPUSHC (push only) and SFPPOPC (with the hardware bug
//! that, at depth 8, overwrites the bottom entry).
//!
//! Transcribes tt-isa-documentation WormholeB0 `SFPPUSHC.md` and `SFPPOPC.md`
//! (@ `f7fda211c86e1977ff430076cf52b96a7aba8cca`) § "Functional model". Blackhole's pages are in
//! [`ops::blackhole::cc`](crate::ops::blackhole::cc).

#![allow(non_snake_case, reason = "names follow the ISA documentation")]

use crate::ops::Ctx;
use crate::ops::shared::cc::BooleanOp;
use crate::outcome::{Clause, Outcome};
use crate::state::{FlagStackEntry, LANES, State};

/// `SFPPUSHC`: in every lane passing the guard, push `{LaneFlags, UseLaneFlagsForLaneEnable}`.
/// Wormhole's encoding has no Mod1 (bits `[3:0]` must be 0).
///
/// Transcribes WormholeB0 `SFPPUSHC.md` § "Functional model". A push onto a full stack is
/// `UndefinedBehavior()`: the lane is reported and its stack left as it was, since a
/// [`FlagStack`](crate::state::FlagStack) cannot hold a ninth entry.
pub fn SFPPUSHC(s: &mut State, cx: &Ctx, VD: usize, out: &mut Outcome) {
    for Lane in 0..LANES {
        if VD < 12 || cx.DISABLE_BACKDOOR_LOAD(s, Lane) {
            if s.FlagStack[Lane].len() >= 8 {
                // Software should avoid using SFPPUSHC when the stack is full.
                out.note_lane(Clause::SfppushcFullStack, Lane); // UndefinedBehavior();
                continue;
            }
            let entry = FlagStackEntry {
                LaneFlags: s.LaneFlags[Lane],
                UseLaneFlagsForLaneEnable: s.UseLaneFlagsForLaneEnable[Lane],
            };
            let _pushed = s.FlagStack[Lane].push(entry); // cannot fail: the stack is not full
        }
    }
}

/// `SFPPOPC`: in every lane passing the guard, pop the flag stack into
/// `{LaneFlags, UseLaneFlagsForLaneEnable}` (Mod1 0), or combine the top with them without
/// popping (Mod1 1..15), in which case a full stack also gets `Bottom() = Top` (the hardware bug).
///
/// Transcribes WormholeB0 `SFPPOPC.md` § "Functional model". A pop of an empty stack is
/// `UndefinedBehavior()`; the model then still assigns the `{false, false}` it read as the top,
/// and so does this function. Mod1 != 0 with a full stack is defined by the model (the bug) but
/// warned against ("software should not use `Mod1 != 0` when the stack is full"), so, as on
/// Blackhole, it is reported as [`Clause::SfppopcFullStackComplex`].
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
            } else if s.FlagStack[Lane].len() == 8 {
                // This assignment is a hardware bug; software should not use Mod1 != 0 when the
                // stack is full.
                out.note_lane(Clause::SfppopcFullStackComplex, Lane);
                if let Some(bottom) = s.FlagStack[Lane].bottom_mut() {
                    *bottom = Top; // FlagStack.Bottom() = Top;
                }
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
