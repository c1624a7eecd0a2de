//! The minimiser: a divergence's stream, initial state and lanes reduced greedily while the
//! failure keeps its shape.

use sfpu_reference::State;
use sfpu_reference::isa::Instr;
use sfpu_reference::outcome::ALL_LANES;
use sfpu_reference::state::{LANES, ResetValues};

use super::input::{WRITABLE_LREGS, lanes_of};
use super::lockstep::{Found, compare_with, lanes_in};
use super::seam::Mutation;
use super::shape::shape;

/// Greedy minimisation of `program` and `pre` keeping the failure's shape (with the same
/// `mutation` of the fast model, if any); returns the reduced case and its divergence.
pub(super) fn minimise(
    pre: State,
    program: Vec<Instr>,
    first: Found,
    mutation: Option<Mutation>,
) -> (State, Vec<Instr>, Found) {
    let key = shape(&program, &first);
    let same = |s: &State, p: &[Instr]| compare_with(s, p, mutation).filter(|f| shape(p, f) == key);
    let mut program = program;
    let mut found = first;
    program.truncate(found.index + 1);
    // 1. Instructions: drop one at a time, latest first, until nothing more can go.
    for _ in 0..4 {
        let mut changed = false;
        let mut i = program.len();
        while i > 0 {
            i -= 1;
            if program.len() <= 1 {
                break;
            }
            let mut shorter = program.clone();
            shorter.remove(i);
            if let Some(f) = same(&pre, &shorter) {
                shorter.truncate(f.index + 1);
                program = shorter;
                found = f;
                changed = true;
                i = i.min(program.len());
            }
        }
        if !changed {
            break;
        }
    }
    // 2. State: reset whole parts to the documented reset values.
    let reset = State::reset(pre.arch(), &ResetValues::ZEROS);
    let mut pre = pre;
    type Edit = fn(&mut State, &State);
    let edits: [Edit; 9] = [
        |s, r| s.Dst = r.Dst.clone(),
        |s, r| s.LoadMacroConfig = r.LoadMacroConfig,
        |s, r| s.FlagStack = r.FlagStack,
        |s, r| s.Addressing = r.Addressing,
        |s, r| s.PRNG = r.PRNG,
        |s, r| s.LaneConfig = r.LaneConfig,
        |s, r| {
            s.LaneFlags = r.LaneFlags;
            s.UseLaneFlagsForLaneEnable = r.UseLaneFlagsForLaneEnable;
        },
        |s, r| s.LReg[16] = r.LReg[16],
        |s, r| s.LReg[11..15].copy_from_slice(&r.LReg[11..15]),
    ];
    let try_edit = |pre: &mut State, found: &mut Found, edit: &dyn Fn(&mut State)| {
        let mut candidate = pre.clone();
        edit(&mut candidate);
        if candidate != *pre
            && let Some(f) = same(&candidate, &program)
        {
            *pre = candidate;
            *found = f;
        }
    };
    for edit in edits {
        try_edit(&mut pre, &mut found, &|s| edit(s, &reset));
    }
    for reg in 0..8 {
        try_edit(&mut pre, &mut found, &|s| s.LReg[reg] = [0; LANES]);
    }
    // 3. Lanes: only the diverging lanes keep their values; then they alone are enabled.
    let keep = lanes_in(&found.differing) | found.vc0;
    if keep != ALL_LANES && keep != 0 {
        for reg in WRITABLE_LREGS {
            try_edit(&mut pre, &mut found, &|s| {
                for l in lanes_of(!keep) {
                    s.LReg[reg][l] = 0;
                }
            });
        }
        try_edit(&mut pre, &mut found, &|s| {
            for l in 0..LANES {
                s.UseLaneFlagsForLaneEnable[l] = true;
                s.LaneFlags[l] = keep >> l & 1 != 0;
            }
        });
    }
    (pre, program, found)
}
