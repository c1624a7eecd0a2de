//! Which parts of a result the specification promises.
//!
//! When an instruction's [`Outcome`] names a clause, what the instruction may write (its
//! footprint) in the lanes the clause concerns is *tainted*: the specification does not promise
//! those bits, so comparisons skip them. Taint flows: a later instruction that reads a tainted
//! location (or whose lane enable depends on tainted predication state) taints what it writes.
//! Undefined behaviour taints everything. Nothing is ever untainted (the analysis is conservative:
//! it may skip a location whose value was in fact promised, never the other way round).

use serde::{Deserialize, Serialize};
use sfpu_reference::hazard;
use sfpu_reference::isa::{Instr, Opcode};
use sfpu_reference::ops::Ctx;
use sfpu_reference::outcome::{ALL_LANES, Kind};
use sfpu_reference::state::{Hex, Index, NUM_LREGS};
use sfpu_reference::{Outcome, State};
use std::collections::BTreeMap;

/// A set of state locations: per-lane parts as lane masks (bit `i` = lane `i`), the rest as
/// flags. Its serde form uses the state format's names.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(non_snake_case, reason = "field names follow the state format")]
pub struct Locations {
    /// Everything, including parts not listed here.
    #[serde(default, skip_serializing_if = "is_false")]
    pub all: bool,
    /// LReg index -> lanes.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub LReg: BTreeMap<Index, Hex<8>>,
    /// Lanes whose `LaneFlags` are not promised.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub LaneFlags: Hex<8>,
    /// Lanes whose `UseLaneFlagsForLaneEnable` is not promised.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub UseLaneFlagsForLaneEnable: Hex<8>,
    /// Lanes whose flag stack (all levels and the depth) is not promised.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub FlagStack: Hex<8>,
    /// Lanes whose `LaneConfig` is not promised.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub LaneConfig: Hex<8>,
    /// Lanes whose `LoadMacroConfig` (every word) is not promised.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub LoadMacroConfig: Hex<8>,
    /// Lanes whose PRNG state is not promised.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub PRNG: Hex<8>,
    /// Dst (all of it) is not promised.
    #[serde(default, skip_serializing_if = "is_false")]
    pub Dst: bool,
    /// The RWC and configuration state is not promised.
    #[serde(default, skip_serializing_if = "is_false")]
    pub Addressing: bool,
}

#[allow(clippy::trivially_copy_pass_by_ref, reason = "serde's skip_serializing_if passes a reference")]
fn is_false(b: &bool) -> bool {
    !*b
}

fn is_zero(h: &Hex<8>) -> bool {
    h.0 == 0
}

#[allow(non_snake_case, reason = "field names follow the state format")]
impl Locations {
    /// Every location.
    pub fn everything() -> Locations {
        Locations { all: true, ..Locations::default() }
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        *self == Locations::default()
    }

    /// The lanes of `LReg[reg]` in the set.
    pub fn lreg(&self, reg: usize) -> u32 {
        if self.all { ALL_LANES } else { self.LReg.get(&Index(reg as u16)).map_or(0, |h| h.0) }
    }

    fn add_lreg(&mut self, reg: usize, lanes: u32) {
        if lanes != 0 {
            self.LReg.entry(Index(reg as u16)).or_default().0 |= lanes;
        }
    }

    /// Adds every location of `other`.
    pub fn union(&mut self, other: &Locations) {
        self.all |= other.all;
        for (&Index(r), lanes) in &other.LReg {
            self.add_lreg(r as usize, lanes.0);
        }
        self.LaneFlags.0 |= other.LaneFlags.0;
        self.UseLaneFlagsForLaneEnable.0 |= other.UseLaneFlagsForLaneEnable.0;
        self.FlagStack.0 |= other.FlagStack.0;
        self.LaneConfig.0 |= other.LaneConfig.0;
        self.LoadMacroConfig.0 |= other.LoadMacroConfig.0;
        self.PRNG.0 |= other.PRNG.0;
        self.Dst |= other.Dst;
        self.Addressing |= other.Addressing;
        if self.all {
            *self = Locations::everything();
        }
    }
}

/// The parts of the state an instruction may read or write (lane-independent).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Parts {
    /// LRegs, as a mask over `LReg[0..=16]`.
    pub lregs: u32,
    /// `LaneFlags`.
    pub lane_flags: bool,
    /// `UseLaneFlagsForLaneEnable`.
    pub use_flags: bool,
    /// The flag stacks.
    pub flag_stack: bool,
    /// `LaneConfig`.
    pub lane_config: bool,
    /// `LoadMacroConfig`.
    pub lmc: bool,
    /// The PRNG.
    pub prng: bool,
    /// Dst.
    pub dst: bool,
    /// RWCs and configuration.
    pub addressing: bool,
}

/// What an instruction may read and write, and how its lanes interact.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Footprint {
    /// What it may read (including the lane-enable state if predicated).
    pub reads: Parts,
    /// What it may write.
    pub writes: Parts,
    /// Whether a lane's result can depend on other lanes (shuffles, broadcasts, Dst addressing).
    pub cross_lane: bool,
    /// Whether it may do anything at all (SFPLOADMACRO's schedule: assume everything).
    pub everything: bool,
}

/// The value of the field `name` of `instr` (0 if it has none).
fn field(instr: &Instr, name: &str) -> u32 {
    instr.field_values().iter().find(|(n, _)| *n == name).map_or(0, |&(_, v)| v)
}

/// The footprint of a regular instruction. Conservative: "may", not "will".
pub fn footprint(instr: &Instr) -> Footprint {
    use Opcode::*;
    let lregs = hazard::actual(instr, &Ctx::REGULAR);
    let enable = Parts { lane_flags: true, use_flags: true, lane_config: true, ..Parts::default() };
    let mut f = Footprint {
        reads: Parts { lregs: lregs.reads, ..enable },
        writes: Parts { lregs: lregs.writes, ..Parts::default() },
        ..Footprint::default()
    };
    // An instruction with VD >= 12 may be a backdoor load, writing LoadMacroConfig.
    let vd = field(instr, "VD");
    f.writes.lmc = vd >= 12 && !matches!(instr.opcode(), SFPCONFIG | SFPLOADMACRO);
    match instr.opcode() {
        SFPLOAD | SFPSTORE => {
            f.reads.dst = true;
            f.reads.addressing = true;
            f.writes.addressing = true;
            f.writes.dst = instr.opcode() == SFPSTORE;
            f.cross_lane = true;
        }
        SFPSETCC | SFPENCC | SFPPUSHC | SFPPOPC | SFPCOMPC | SFPGT | SFPLE | SFPIADD | SFPLZ | SFPEXEXP => {
            f.reads.flag_stack = true;
            f.writes.lane_flags = true;
            f.writes.use_flags = true;
            f.writes.flag_stack = true;
        }
        SFPMOV => {
            // FROM_SPECIAL reads LoadMacroConfig, LaneConfig or (VC = 9) advances the PRNG.
            let (vc, mod1) = (field(instr, "VC"), field(instr, "Mod1"));
            if mod1 & 8 != 0 {
                f.reads.lmc = true;
                f.reads.prng = vc == 9;
                f.writes.prng = vc == 9;
            }
        }
        SFPCAST => {
            // The RNS flavour (Mod1 & 3 == 1) advances the PRNG.
            let rns = field(instr, "Mod1") & 3 == 1;
            f.reads.prng = rns;
            f.writes.prng = rns;
        }
        SFPSTOCHRND => {
            f.reads.prng = true;
            f.writes.prng = true;
        }
        SFPCONFIG => {
            f.writes.lane_config = true;
            f.writes.lmc = vd <= 8;
            f.writes.lregs |= 0x7800; // LReg[11..=14]
            f.cross_lane = true;
        }
        SFPTRANSP | SFPSHFT2 => f.cross_lane = true,
        SFPLOADMACRO => f.everything = true,
        _ => {}
    }
    f
}

/// Adds to `into` the locations `writes` names in `lanes`.
fn add_writes(into: &mut Locations, writes: &Parts, lanes: u32) {
    if lanes == 0 {
        return;
    }
    for reg in 0..NUM_LREGS {
        if (writes.lregs >> reg) & 1 != 0 {
            into.add_lreg(reg, lanes);
        }
    }
    let m = |b: bool| if b { lanes } else { 0 };
    into.LaneFlags.0 |= m(writes.lane_flags);
    into.UseLaneFlagsForLaneEnable.0 |= m(writes.use_flags);
    into.FlagStack.0 |= m(writes.flag_stack);
    into.LaneConfig.0 |= m(writes.lane_config);
    into.LoadMacroConfig.0 |= m(writes.lmc);
    into.PRNG.0 |= m(writes.prng);
    into.Dst |= writes.dst;
    into.Addressing |= writes.addressing;
}

/// The lanes in which `reads` touches something tainted.
fn tainted_reads(tainted: &Locations, reads: &Parts) -> u32 {
    if tainted.all {
        return ALL_LANES;
    }
    let mut lanes = 0;
    for reg in 0..NUM_LREGS {
        if (reads.lregs >> reg) & 1 != 0 {
            lanes |= tainted.lreg(reg);
        }
    }
    let m = |b: bool, v: Hex<8>| if b { v.0 } else { 0 };
    lanes |= m(reads.lane_flags, tainted.LaneFlags);
    lanes |= m(reads.use_flags, tainted.UseLaneFlagsForLaneEnable);
    lanes |= m(reads.flag_stack, tainted.FlagStack);
    // ROW_MASK is read from LaneConfig[lane & 7]: taint in a column taints its whole column.
    if reads.lane_config {
        let cols = tainted.LaneConfig.0;
        let col = (cols | (cols >> 8) | (cols >> 16) | (cols >> 24)) & 0xFF;
        lanes |= col * 0x0101_0101;
    }
    lanes |= m(reads.lmc, tainted.LoadMacroConfig);
    lanes |= m(reads.prng, tainted.PRNG);
    if (reads.dst && tainted.Dst) || (reads.addressing && tainted.Addressing) {
        lanes = ALL_LANES;
    }
    lanes
}

/// Tracks taint through a program, instruction by instruction.
#[derive(Clone, Debug, Default)]
pub struct Tracker {
    /// Locations whose value is not promised because of undefined or unspecified behaviour.
    pub unpromised: Locations,
    /// Locations whose value is only described non-contractually (current silicon).
    pub non_contractual: Locations,
}

impl Tracker {
    /// Accounts for one issued instruction and the outcome of its cycle(s).
    pub fn step(&mut self, instr: &Instr, outcome: &Outcome) {
        let f = footprint(instr);
        if f.everything && !outcome.is_defined() {
            self.unpromised = Locations::everything();
            return;
        }
        // Propagation: what the instruction writes in lanes where it read something tainted.
        for (set_is_unpromised, set) in
            [(true, self.unpromised.clone()), (false, self.non_contractual.clone())]
        {
            let mut lanes = tainted_reads(&set, &f.reads);
            if lanes != 0 && f.cross_lane {
                lanes = ALL_LANES;
            }
            let target = if set_is_unpromised { &mut self.unpromised } else { &mut self.non_contractual };
            if f.everything && lanes != 0 {
                *target = Locations::everything();
            } else {
                add_writes(target, &f.writes, lanes);
            }
        }
        // The instruction's own notes.
        for (clause, lanes) in outcome.notes() {
            let lanes = if f.cross_lane { ALL_LANES } else { lanes };
            match clause.kind() {
                Kind::Undefined => self.unpromised = Locations::everything(),
                Kind::Unspecified => add_writes(&mut self.unpromised, &f.writes, lanes),
                Kind::NonContractual => add_writes(&mut self.non_contractual, &f.writes, lanes),
            }
        }
    }
}

/// Compares `actual` with `expected` outside `skip`, returning the differing locations.
pub fn differing(expected: &State, actual: &State, skip: &Locations) -> Locations {
    let mut d = Locations::default();
    if skip.all {
        return d;
    }
    for reg in 0..NUM_LREGS {
        let mut lanes = 0;
        for l in 0..32 {
            if expected.LReg[reg][l] != actual.LReg[reg][l] {
                lanes |= 1 << l;
            }
        }
        d.add_lreg(reg, lanes & !skip.lreg(reg));
    }
    let lanes = |f: &dyn Fn(usize) -> bool| (0..32).fold(0u32, |m, l| m | ((f(l) as u32) << l));
    d.LaneFlags.0 = lanes(&|l| expected.LaneFlags[l] != actual.LaneFlags[l]) & !skip.LaneFlags.0;
    d.UseLaneFlagsForLaneEnable.0 =
        lanes(&|l| expected.UseLaneFlagsForLaneEnable[l] != actual.UseLaneFlagsForLaneEnable[l])
            & !skip.UseLaneFlagsForLaneEnable.0;
    d.FlagStack.0 = lanes(&|l| expected.FlagStack[l] != actual.FlagStack[l]) & !skip.FlagStack.0;
    d.LaneConfig.0 = lanes(&|l| expected.LaneConfig[l] != actual.LaneConfig[l]) & !skip.LaneConfig.0;
    d.LoadMacroConfig.0 =
        lanes(&|l| expected.LoadMacroConfig[l] != actual.LoadMacroConfig[l]) & !skip.LoadMacroConfig.0;
    d.PRNG.0 = lanes(&|l| expected.PRNG[l] != actual.PRNG[l]) & !skip.PRNG.0;
    d.Dst = !skip.Dst && expected.Dst != actual.Dst;
    d.Addressing = !skip.Addressing && expected.Addressing != actual.Addressing;
    d
}

#[cfg(test)]
mod tests {
    use super::*;
    use sfpu_reference::outcome::Clause;

    fn i(s: &str) -> Instr {
        s.parse().unwrap()
    }

    #[test]
    fn taint_flows_through_reads_and_only_there() {
        let mut t = Tracker::default();
        let mut o = Outcome::defined();
        o.note(Clause::Sfpmul24NonZeroVc, 0x0000_00FF);
        t.step(&i("TTI_SFPMUL24(0, 1, 2, 3, 0)"), &o);
        assert_eq!(t.non_contractual.lreg(3), 0xFF);
        assert!(t.unpromised.is_empty());
        // Reading LReg[3] spreads the non-contractual taint to LReg[4] in the same lanes.
        t.step(&i("TTI_SFPMOV(0, 3, 4, 0)"), &Outcome::defined());
        assert_eq!(t.non_contractual.lreg(4), 0xFF);
        // Reading something else does not.
        t.step(&i("TTI_SFPMOV(0, 1, 5, 0)"), &Outcome::defined());
        assert_eq!(t.non_contractual.lreg(5), 0);
        // Undefined behaviour taints everything.
        let mut ub = Outcome::defined();
        ub.note_all(Clause::SfploadiReservedMod0);
        t.step(&i("TTI_SFPLOADI(0, 3, 0)"), &ub);
        assert!(t.unpromised.all);
    }
}
