//! The `diff_stream` comparison is complete: whatever location of the state the fast model gets
//! wrong, the oracle finds it. The comparison after each instruction is cheap because each part
//! is compared whole first and Dst only when it may change next (`harness_sfpu::fuzz`'s
//! `lockstep`); these tests check that nothing escapes it.
//!
//! A wrong value is planted at run time with a [`Mutation`] of the fast model's state after one
//! chosen instruction, in every location of the state in turn: each general and constant LReg in
//! each lane, `LaneFlags`, `UseLaneFlagsForLaneEnable`, a flag-stack entry and a stack's depth,
//! `LaneConfig`, every word of `LoadMacroConfig`, the PRNG, every Dst row and its valid bit, the
//! addressing state, and Wormhole's SFPSHFT2 `vc0` latch. The expected answer is the planted
//! location itself (built by hand as a [`Locations`]), found right after the instruction that
//! was mutated; for Dst, found before the next instruction that may write Dst (an SFPSTORE that
//! would overwrite the planted cell in both models) or at the final drain.

use std::cell::Cell;

use harness_sfpu::fuzz::{Mutation, base_state, compare, compare_with};
use harness_sfpu::taint::Locations;
use sfpu_fastpath::FastState;
use sfpu_reference::isa::{Arch, Instr, parse_instr};
use sfpu_reference::state::{DST_COLS, DST_ROWS, LANES};

/// A location of the state to get wrong.
#[derive(Clone, Copy, Debug)]
enum Loc {
    LReg(usize, usize),
    LaneFlags(usize),
    UseFlags(usize),
    StackEntry(usize),
    StackDepth(usize),
    LaneConfig(usize),
    Template(usize, usize),
    Sequence(usize, usize),
    Misc(usize),
    Prng(usize),
    Dst(usize, usize),
    DstValid(usize),
    RwcDst,
    AddrModDestIncr(usize),
    Vc0(usize),
}

thread_local! {
    /// What to plant, and after how many more issued instructions.
    static PLAN: Cell<Option<(Loc, usize)>> = const { Cell::new(None) };
}

/// The [`Mutation`]: plants the planned location's wrong value after the planned instruction.
fn plant(_: &Instr, s: &mut FastState) {
    let Some((loc, after)) = PLAN.get() else { return };
    if after > 0 {
        PLAN.set(Some((loc, after - 1)));
        return;
    }
    PLAN.set(None);
    match loc {
        Loc::LReg(r, l) => s.lreg[r][l] ^= 1,
        Loc::LaneFlags(l) => s.lane_flags ^= 1 << l,
        Loc::UseFlags(l) => s.use_flags ^= 1 << l,
        // The base state's stacks hold two entries in every lane: flip the top's LaneFlags, or
        // push a third entry.
        Loc::StackEntry(l) => s.stack.flags[0] ^= 1 << l,
        Loc::StackDepth(l) => s.stack.occ[2] |= 1 << l,
        Loc::LaneConfig(l) => {
            let mut lc = *s.lane_configs();
            lc[l] ^= 1;
            s.set_lane_configs(&lc);
        }
        Loc::Template(k, l) => s.lmc.template[k][l] ^= 1,
        Loc::Sequence(k, l) => s.lmc.sequence[k][l] ^= 1 << 8,
        Loc::Misc(l) => s.lmc.misc[l] ^= 1,
        Loc::Prng(l) => s.prng[l] ^= 1,
        Loc::Dst(r, c) => s.dst.DstBits[r][c] ^= 1,
        Loc::DstValid(r) => s.dst.DstRowValid[r] ^= true,
        Loc::RwcDst => s.addressing.RWC.Dst ^= 4,
        Loc::AddrModDestIncr(i) => s.addressing.ADDR_MOD[i].DestIncr ^= 1,
        Loc::Vc0(l) => {
            if let Some(v) = s.sfpshft2_vc0_mut() {
                v[l] ^= 1;
            }
        }
    }
}

/// The locations the comparison must report for `loc` (built by hand, not by the comparison).
fn expected(loc: Loc) -> (Locations, u32) {
    let mut d = Locations::default();
    let mut vc0 = 0;
    match loc {
        Loc::LReg(r, l) => {
            d.LReg.0[r] = 1 << l;
        }
        Loc::LaneFlags(l) => d.LaneFlags.0 = 1 << l,
        Loc::UseFlags(l) => d.UseLaneFlagsForLaneEnable.0 = 1 << l,
        Loc::StackEntry(l) | Loc::StackDepth(l) => d.FlagStack.0 = 1 << l,
        Loc::LaneConfig(l) => d.LaneConfig.0 = 1 << l,
        Loc::Template(_, l) | Loc::Sequence(_, l) | Loc::Misc(l) => d.LoadMacroConfig.0 = 1 << l,
        Loc::Prng(l) => d.PRNG.0 = 1 << l,
        Loc::Dst(..) | Loc::DstValid(_) => d.Dst = true,
        Loc::RwcDst | Loc::AddrModDestIncr(_) => d.Addressing = true,
        Loc::Vc0(l) => vc0 = 1 << l,
    }
    (d, vc0)
}

/// Every location of `arch`'s state, lanes and rows included.
fn every_location(arch: Arch) -> Vec<Loc> {
    let mut v = Vec::new();
    for l in 0..LANES {
        for r in 0..17 {
            v.push(Loc::LReg(r, l));
        }
        v.extend([
            Loc::LaneFlags(l),
            Loc::UseFlags(l),
            Loc::StackEntry(l),
            Loc::StackDepth(l),
            Loc::LaneConfig(l),
            Loc::Misc(l),
            Loc::Prng(l),
        ]);
        for k in 0..4 {
            v.extend([Loc::Template(k, l), Loc::Sequence(k, l)]);
        }
        if arch == Arch::Wormhole {
            v.push(Loc::Vc0(l));
        }
    }
    for r in 0..DST_ROWS {
        v.extend([Loc::Dst(r, r % DST_COLS), Loc::DstValid(r)]);
    }
    v.push(Loc::RwcDst);
    v.extend((0..8).map(Loc::AddrModDestIncr));
    v
}

/// The stream: no Dst write at 0, 2 and 4; SFPSTOREs (which may overwrite any planted Dst cell
/// in both models) at 1 and 3.
fn program(arch: Arch) -> Vec<Instr> {
    [
        "TTI_SFPMOV(0, 1, 2, 0)",
        "TTI_SFPSTORE(0, 3, 0, 0)",
        "TTI_SFPMOV(0, 3, 4, 0)",
        "TTI_SFPSTORE(5, 3, 0, 0)",
        "TTI_SFPNOP",
    ]
    .iter()
    .map(|t| parse_instr(arch, t).unwrap_or_else(|e| panic!("`{t}` on {arch}: {e:?}")))
    .collect()
}

#[test]
fn the_unmutated_stream_agrees_and_is_compared_in_full() {
    for arch in [Arch::Blackhole, Arch::Wormhole] {
        let (found, n) = harness_sfpu::fuzz::compare_counted(&base_state(arch), &program(arch));
        assert!(found.is_none(), "{arch}: {found:?}");
        assert_eq!(n, 5, "{arch}: every instruction compared (nothing undefined)");
        assert!(compare(&base_state(arch), &program(arch)).is_none());
    }
}

#[test]
fn a_divergence_in_any_location_is_found() {
    let mutation: Mutation = plant;
    for arch in [Arch::Blackhole, Arch::Wormhole] {
        let pre = base_state(arch);
        let program = program(arch);
        let locations = every_location(arch);
        assert_eq!(
            locations.len(),
            LANES * (17 + 7 + 8 + (arch == Arch::Wormhole) as usize) + 2 * DST_ROWS + 9
        );
        // After an instruction that writes no Dst and is followed by a store (0, 2), and after
        // the last instruction (4).
        for after in [0usize, 2, 4] {
            for &loc in &locations {
                PLAN.set(Some((loc, after)));
                let found = compare_with(&pre, &program, Some(mutation));
                let found = found.unwrap_or_else(|| panic!("{arch}: {loc:?} after {after} not found"));
                let is_dst = matches!(loc, Loc::Dst(..) | Loc::DstValid(_));
                // Dst is compared when it may change next: before the store at 1 or 3; after
                // the last instruction, at the final drain.
                let at = if is_dst && after == 4 { program.len() } else { after };
                assert_eq!(found.index, at, "{arch}: {loc:?} after {after}");
                assert_eq!((found.differing, found.vc0), expected(loc), "{arch}: {loc:?} after {after}");
                assert!(found.outcomes.is_none(), "{arch}: {loc:?}");
            }
        }
    }
}
