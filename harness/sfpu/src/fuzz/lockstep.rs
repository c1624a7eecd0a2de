//! The lockstep run of the two models: a stream runs on the reference [`Machine`] and on the
//! [`FastMachine`] together, and after every instruction (and after the final drain) the outcomes
//! and the states are compared outside what the [`Tracker`] has tainted; the first difference is
//! a [`Found`]. [`run_input`] decodes an input straight into reused buffers and runs it.

use std::cell::RefCell;

use sfpu_fastpath::state::FlagStacks;
use sfpu_fastpath::{FastMachine, FastState};
use sfpu_reference::isa::{Arch, Instr};
use sfpu_reference::outcome::ALL_LANES;
use sfpu_reference::state::{DST_COLS, FLAG_STACK_CAPACITY, FlagStack, LANES, NUM_LREGS};
use sfpu_reference::{Machine, Outcome, State};

use super::base::{base_state_of, fit_to_chip};
use super::input::{Bytes, MAX_STREAM, Section, apply, input_arch, read_input};
use super::seam::Mutation;
use crate::taint::{Footprint, Locations, Tracker, footprint};

/// What differed at the first divergence.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    /// The instruction after which it was seen (`program.len()` for the final drain).
    pub index: usize,
    /// The state locations that differ (outside the tainted ones).
    pub differing: Locations,
    /// The lanes where Wormhole's SFPSHFT2 `vc0` latch differs ([`vc0_lanes`]; 0 on Blackhole).
    pub vc0: u32,
    /// The two outcomes, when they differ: (reference, fastpath).
    pub outcomes: Option<(Outcome, Outcome)>,
    /// The reference's state at that point.
    pub reference: State,
    /// The fast model's state at that point.
    pub fast: State,
}

/// The lanes of `s` that `d` names, whatever the part (for lane minimisation and reports).
pub(super) fn lanes_in(d: &Locations) -> u32 {
    let mut m = d.LaneFlags.0
        | d.UseLaneFlagsForLaneEnable.0
        | d.FlagStack.0
        | d.LaneConfig.0
        | d.LoadMacroConfig.0
        | d.PRNG.0;
    for reg in 0..NUM_LREGS {
        m |= d.lreg(reg);
    }
    if d.Dst || d.Addressing || d.all { ALL_LANES } else { m }
}

/// Whether the reads of an instruction's footprint `f` touch something in `tainted` (any lane).
fn reads_tainted(f: &Footprint, tainted: &Locations) -> bool {
    if tainted.is_empty() {
        return false;
    }
    if tainted.all || f.everything {
        return true;
    }
    let r = &f.reads;
    (0..NUM_LREGS).any(|reg| r.lregs >> reg & 1 != 0 && tainted.lreg(reg) != 0)
        || (r.lane_flags && tainted.LaneFlags.0 != 0)
        || (r.use_flags && tainted.UseLaneFlagsForLaneEnable.0 != 0)
        || (r.flag_stack && tainted.FlagStack.0 != 0)
        || (r.lane_config && tainted.LaneConfig.0 != 0)
        || (r.lmc && tainted.LoadMacroConfig.0 != 0)
        || (r.prng && tainted.PRNG.0 != 0)
        || (r.dst && tainted.Dst)
        || (r.addressing && tainted.Addressing)
}

/// A per-lane boolean as a lane mask.
fn bits(b: &[bool; LANES]) -> u32 {
    b.iter().enumerate().fold(0, |m, (l, &v)| m | (v as u32) << l)
}

/// The reference's flag stacks as last seen and in the fast model's bit-sliced form, so that
/// they are sliced again only when they change.
///
/// The stacks as last seen are kept as their packed words (`FlagStack::packed`, one per lane:
/// equal words, equal stacks), compared without a branch per lane or entry (the derived `==`
/// compiles to a call per lane and a branch per entry, thousands per execution; tried again
/// without comparison tracing on 2026-11-28 and not kept).
#[derive(Default)]
struct StackCache(Option<([u32; LANES], FlagStacks)>);

impl StackCache {
    fn sliced(&mut self, expected: &[FlagStack; LANES]) -> &FlagStacks {
        let words: [u32; LANES] = std::array::from_fn(|l| expected[l].packed());
        let same = |seen: &[u32; LANES]| seen.iter().zip(&words).fold(0, |d, (a, b)| d | (a ^ b)) == 0;
        if self.0.as_ref().is_none_or(|(seen, _)| !same(seen)) {
            self.0 = Some((words, FlagStacks::from_lanes(expected)));
        }
        match &self.0 {
            Some((_, sliced)) => sliced,
            None => unreachable!("just filled"),
        }
    }
}

/// The lanes of `expected` whose flag stack (depth or any entry) differs from `actual`'s,
/// compared in the fast model's bit-sliced form (`e`, `expected` sliced the same way).
fn stack_lanes(e: &FlagStacks, actual: &FlagStacks) -> u32 {
    (0..FLAG_STACK_CAPACITY).fold(0, |d, k| {
        let occ = e.occ[k];
        d | (occ ^ actual.occ[k]) | (((e.flags[k] ^ actual.flags[k]) | (e.uses[k] ^ actual.uses[k])) & occ)
    })
}

/// The lanes where a per-lane part differs (`eq(l)` false).
fn lanes_where(ne: impl Fn(usize) -> bool) -> u32 {
    (0..LANES).fold(0u32, |m, l| m | (ne(l) as u32) << l)
}

/// The locations where the fast model's state differs from the reference's outside `skip`,
/// reading [`FastState`] in place. Every part is compared; Dst only if `with_dst`. Each part is
/// first compared whole (a few vector compares) and taken apart lane by lane only if it differs.
/// Wormhole's SFPSHFT2 `vc0` latch, which [`Locations`] has no place for, is [`vc0_lanes`].
pub fn differing_fast(expected: &State, actual: &FastState, skip: &Locations, with_dst: bool) -> Locations {
    differing_cached(expected, actual, skip, with_dst, &mut StackCache::default())
}

/// [`differing_fast`] with the reference's flag stacks sliced through `stacks`.
fn differing_cached(
    expected: &State,
    actual: &FastState,
    skip: &Locations,
    with_dst: bool,
    stacks: &mut StackCache,
) -> Locations {
    let mut d = Locations::default();
    if skip.all {
        return d;
    }
    if expected.LReg != actual.lreg {
        for reg in 0..NUM_LREGS {
            let (e, a) = (&expected.LReg[reg], &actual.lreg[reg]);
            if e != a {
                let lanes = lanes_where(|l| e[l] != a[l]) & !skip.lreg(reg);
                d.LReg.0[reg] = lanes;
            }
        }
    }
    d.LaneFlags.0 = (bits(&expected.LaneFlags) ^ actual.lane_flags) & !skip.LaneFlags.0;
    d.UseLaneFlagsForLaneEnable.0 =
        (bits(&expected.UseLaneFlagsForLaneEnable) ^ actual.use_flags) & !skip.UseLaneFlagsForLaneEnable.0;
    d.FlagStack.0 = stack_lanes(stacks.sliced(&expected.FlagStack), &actual.stack) & !skip.FlagStack.0;
    // The per-lane configuration words are first XORed together whole (no branch per lane or
    // word, so no coverage counter per word under libFuzzer), and taken apart only if they differ.
    let lc = actual.lane_configs();
    if (0..LANES).fold(0, |x, l| x | (expected.LaneConfig[l].bits() ^ lc[l])) != 0 {
        d.LaneConfig.0 = lanes_where(|l| expected.LaneConfig[l].bits() != lc[l]) & !skip.LaneConfig.0;
    }
    let m = &actual.lmc;
    let macro_diff = |l: usize| {
        let c = &expected.LoadMacroConfig[l];
        (0..4).fold(c.Misc.bits() ^ m.misc[l], |x, k| {
            x | (c.InstructionTemplate[k] ^ m.template[k][l]) | (c.Sequence[k] ^ m.sequence[k][l])
        })
    };
    if (0..LANES).fold(0, |x, l| x | macro_diff(l)) != 0 {
        d.LoadMacroConfig.0 = lanes_where(|l| macro_diff(l) != 0) & !skip.LoadMacroConfig.0;
    }
    if expected.PRNG != actual.prng {
        d.PRNG.0 = lanes_where(|l| expected.PRNG[l] != actual.prng[l]) & !skip.PRNG.0;
    }
    d.Dst = with_dst && !skip.Dst && expected.Dst != actual.dst;
    d.Addressing = !skip.Addressing && expected.Addressing.difference(&actual.addressing) != 0;
    d
}

/// The lanes where Wormhole's SFPSHFT2 `vc0` latch differs (0 on Blackhole). The taint tracker
/// does not follow values into the latch, so it is compared only while nothing is tainted
/// (`unpromised` empty): a latch filled from a tainted register is not promised.
pub fn vc0_lanes(expected: &State, actual: &FastState, unpromised: &Locations) -> u32 {
    match (expected.wormhole(), actual.sfpshft2_vc0()) {
        (Some(wh), Some(a)) if unpromised.is_empty() => lanes_where(|l| wh.SFPSHFT2_vc0[l] != a[l]),
        _ => 0,
    }
}

/// Runs `program` from `pre` on both models in lockstep, comparing after every instruction and
/// after the final drain; the first difference, if any.
pub fn compare(pre: &State, program: &[Instr]) -> Option<Found> {
    compare_with(pre, program, None)
}

/// [`compare`] with an optional [`Mutation`] of the fast model's state (a test seam).
pub fn compare_with(pre: &State, program: &[Instr], mutation: Option<Mutation>) -> Option<Found> {
    compare_counted_with(pre, program, mutation).0
}

/// [`compare`], also returning how many instructions were compared: the comparison stops early
/// (without a difference) once undefined behaviour leaves nothing promised.
pub fn compare_counted(pre: &State, program: &[Instr]) -> (Option<Found>, usize) {
    compare_counted_with(pre, program, None)
}

fn compare_counted_with(
    pre: &State,
    program: &[Instr],
    mutation: Option<Mutation>,
) -> (Option<Found>, usize) {
    let mut rs = pre.clone();
    let mut fs = FastState::from_state(pre);
    lockstep((&mut Machine::new(), &mut FastMachine::new()), &mut rs, &mut fs, program, mutation)
}

/// Runs `program` on the reference from `rs` and on the fast model from `fs` (the same state)
/// in lockstep, comparing after every instruction and after the final drain.
///
/// What is compared after each instruction: the outcome (unless the instruction reads something
/// unpromised), every part of the state but Dst (each part a whole-array compare first), and
/// Dst (32 KB) whenever it may change next: after an instruction that may write it, when the
/// *next* instruction may write it, while SFPLOADMACRO work is pending in either model, and after
/// the drain. So a wrong Dst write is seen at the latest just before anything could overwrite it,
/// and a difference anywhere else is seen right after the instruction that made it.
fn lockstep(
    (rm, fm): (&mut Machine, &mut FastMachine),
    rs: &mut State,
    fs: &mut FastState,
    program: &[Instr],
    mutation: Option<Mutation>,
) -> (Option<Found>, usize) {
    rm.reset();
    fm.reset();
    let mut tracker = Tracker::default();
    let mut stacks = StackCache::default();
    let found = |index, differing, vc0, outcomes, rs: &State, fs: &FastState| Found {
        index,
        differing,
        vc0,
        outcomes,
        reference: rs.clone(),
        fast: fs.to_state(),
    };
    let mut next = program.first().map(footprint);
    for (index, instr) in program.iter().enumerate() {
        let f = next.unwrap_or_else(|| footprint(instr));
        next = program.get(index + 1).map(footprint);
        let compare_outcome = !reads_tainted(&f, &tracker.unpromised);
        let ro = rm.issue(rs, instr);
        let fo = fm.issue(fs, instr);
        if let Some(mutate) = mutation {
            mutate(instr, fs);
        }
        // With nothing tainted, a defined outcome and no SFPLOADMACRO, a step leaves the
        // tracker as it is (no tainted reads to spread, no notes to add).
        if f.everything
            || !ro.is_defined()
            || !tracker.unpromised.is_empty()
            || !tracker.non_contractual.is_empty()
        {
            tracker.step(instr, &ro);
        }
        if tracker.unpromised.all {
            // Undefined behaviour: nothing is promised from here on.
            return (None, index);
        }
        let pending = !rm.pending().is_empty() || fm.pending_count() != 0;
        if !rm.pending().is_empty() && !tracker.unpromised.is_empty() {
            // A scheduled instruction may read what is tainted, and the tracker charges its
            // effects to the instruction issued with it: stop rather than guess.
            return (None, index);
        }
        let outcomes = (compare_outcome && ro != fo).then_some((ro, fo));
        let with_dst =
            f.writes.dst || f.everything || pending || next.is_some_and(|n| n.writes.dst || n.everything);
        let d = differing_cached(rs, fs, &tracker.unpromised, with_dst, &mut stacks);
        let vc0 = vc0_lanes(rs, fs, &tracker.unpromised);
        if outcomes.is_some() || !d.is_empty() || vc0 != 0 {
            return (Some(found(index, d, vc0, outcomes, rs, fs)), index + 1);
        }
    }
    let ro = rm.drain(rs);
    let fo = fm.drain(fs);
    let last = program.last().copied().unwrap_or(Instr::SFPNOP {});
    let compare_outcome = !reads_tainted(&footprint(&last), &tracker.unpromised);
    tracker.step(&last, &ro);
    let outcomes = (compare_outcome && ro != fo).then_some((ro, fo));
    let d = differing_cached(rs, fs, &tracker.unpromised, true, &mut stacks);
    let vc0 = vc0_lanes(rs, fs, &tracker.unpromised);
    let found = (outcomes.is_some() || !d.is_empty() || vc0 != 0)
        .then(|| found(program.len(), d, vc0, outcomes, rs, fs));
    (found, program.len())
}

/// The reusable buffers of [`diff_stream`]: both models' states and machines, the stream and a
/// Dst-rows section's cells, so that an execution allocates nothing and never clones a Dst.
///
/// [`diff_stream`]: super::diff_stream
struct Scratch {
    rs: State,
    fs: FastState,
    rm: Machine,
    fm: FastMachine,
    program: Vec<Instr>,
    /// A Dst-rows section's cells.
    cells: Vec<[u16; DST_COLS]>,
}

thread_local! {
    static SCRATCH: RefCell<Option<Scratch>> = const { RefCell::new(None) };
}

/// Decodes `data` straight into the scratch states (the sections applied over the cached base
/// state, as [`StreamInput::state`] does) and runs the comparison: the first difference and the
/// number of instructions compared.
///
/// [`StreamInput::state`]: super::StreamInput::state
pub(super) fn run_input(
    data: &[u8],
    mutation: Option<Mutation>,
    max_stream: usize,
) -> (Option<Found>, usize) {
    SCRATCH.with(|cell| {
        let mut guard = cell.borrow_mut();
        let Scratch { rs, fs, rm, fm, program, cells } = guard.get_or_insert_with(|| {
            let rs = base_state_of(Arch::Blackhole).clone();
            Scratch {
                fs: FastState::from_state(&rs),
                rs,
                rm: Machine::new(),
                fm: FastMachine::new(),
                program: Vec::with_capacity(2 * MAX_STREAM),
                cells: Vec::with_capacity(256),
            }
        });
        rs.clone_from(base_state_of(input_arch(data)));
        let hand_back = |sec: Section| {
            apply(rs, &sec);
            Some(sec)
        };
        read_input(&mut Bytes(data), cells, hand_back, program, max_stream);
        fit_to_chip(rs);
        if program.is_empty() {
            return (None, 0);
        }
        fs.assign_from(rs);
        lockstep((rm, fm), rs, fs, program, mutation)
    })
}
