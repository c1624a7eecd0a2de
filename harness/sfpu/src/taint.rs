//! Which parts of a result the specification promises.
//!
//! When an instruction's [`Outcome`] names a clause, the locations the clause leaves open are
//! *tainted*: the specification does not promise those bits, so comparisons skip them. What a
//! clause leaves open is decided per clause by [`clause_taint`], from the clause's entry in the
//! specification notes ([`Clause::section`]; each entry says what it leaves open) and from what the
//! instruction *might* write, not only from what the reference model happened to write: SFPSHFT2
//! Mod1 7..15 (undefined) may write any destination of the instruction (`LReg[0..=3]` and `VD`), a
//! backdoor load may write any lane's `LoadMacroConfig` and may or may not keep the instruction's
//! other side effects, and so on. Undefined behaviour taints everything.
//!
//! Taint flows: a later instruction that reads a tainted location (or whose lane enable depends
//! on tainted predication state) taints what it may write. Nothing is ever untainted. While an
//! SFPLOADMACRO may have scheduled work pending, the tracker cannot see what the scheduled
//! instructions read and write, so any taint then covers everything. The analysis is
//! conservative: it may skip a location whose value was in fact promised, never the other way
//! round.
//!
//! Undefined and unspecified clauses taint [`Tracker::unpromised`] (a vector's `skip`);
//! non-contractual ones taint [`Tracker::non_contractual`] (a vector's `non_contractual`: the
//! documented behaviour of current silicon, compared when checking fidelity to silicon and skipped
//! when checking the architecture), as `vectors/README.md` states.

use serde::{Deserialize, Serialize};
use sfpu_reference::hazard;
use sfpu_reference::isa::{Arch, Instr, Opcode};
use sfpu_reference::ops::Ctx;
use sfpu_reference::outcome::{ALL_LANES, Clause, Kind};
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
    #[serde(default, skip_serializing_if = "LRegLanes::is_empty")]
    pub LReg: LRegLanes,
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

/// The `LReg` part of [`Locations`]: the lanes of each of the 17 LRegs, a fixed table so that
/// adding to a set never allocates (the fuzz oracle runs a tracker per execution). Its serde form
/// is a map from register index to lanes, listing the registers with a lane in the set.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LRegLanes(pub [u32; NUM_LREGS]);

impl LRegLanes {
    /// Whether no lane of any LReg is in the set.
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&lanes| lanes == 0)
    }

    /// The registers with a lane in the set and their lanes, in register order.
    pub fn iter(&self) -> impl Iterator<Item = (usize, u32)> + '_ {
        self.0.iter().copied().enumerate().filter(|&(_, lanes)| lanes != 0)
    }
}

impl Serialize for LRegLanes {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.iter().map(|(reg, lanes)| (Index(reg as u16), Hex::<8>(lanes))))
    }
}

impl<'de> Deserialize<'de> for LRegLanes {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let mut table = LRegLanes::default();
        for (Index(reg), Hex(lanes)) in BTreeMap::<Index, Hex<8>>::deserialize(d)? {
            let Some(slot) = table.0.get_mut(reg as usize) else {
                return Err(serde::de::Error::custom(format!(
                    "LReg.{reg}: there are only {NUM_LREGS} LRegs (0..={})",
                    NUM_LREGS - 1
                )));
            };
            *slot = lanes;
        }
        Ok(table)
    }
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
        if self.all { ALL_LANES } else { self.LReg.0.get(reg).copied().unwrap_or(0) }
    }

    /// Adds lanes of `LReg[reg]` (`reg` below 17: every caller walks the 17 registers).
    fn add_lreg(&mut self, reg: usize, lanes: u32) {
        if let Some(slot) = self.LReg.0.get_mut(reg) {
            *slot |= lanes;
        }
    }

    /// Adds every location of `other`.
    pub fn union(&mut self, other: &Locations) {
        self.all |= other.all;
        for (reg, lanes) in other.LReg.iter() {
            self.add_lreg(reg, lanes);
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
    instr.field(name).unwrap_or(0)
}

/// The footprint of a regular instruction. Conservative: "may", not "will".
pub fn footprint(instr: &Instr) -> Footprint {
    use Opcode::*;
    let lregs = hazard::actual(Arch::Blackhole, instr, &Ctx::REGULAR);
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

/// What a clause leaves open: the parts, and the lanes (`ALL_LANES` when the clause concerns the
/// whole instruction rather than particular lanes).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ClauseTaint {
    /// Every location is open (undefined behaviour, or an SFPLOADMACRO schedule the tracker cannot
    /// follow).
    pub everything: bool,
    /// The parts left open.
    pub parts: Parts,
    /// The lanes of those parts left open.
    pub lanes: u32,
}

/// `LReg[0..=3]`, which SFPSHFT2's COPY4 family writes.
const LREGS_0_TO_3: u32 = 0xF;
/// `LReg[11..=14]`, which SFPCONFIG writes.
const LREGS_11_TO_14: u32 = 0x7800;

/// Every location `instr` might write in any of its modes and under any reading of a clause about
/// it: its [`footprint`] writes, widened where the footprint depends on the mode (SFPSHFT2's
/// modes write `LReg[0..=3]` or `VD`; SFPCONFIG's selectors write LaneConfig, LoadMacroConfig or
/// `LReg[11..=14]`; SFPCAST's and SFPMOV's PRNG-advancing flavours).
pub fn potential_writes(instr: &Instr) -> Parts {
    use Opcode::*;
    let f = footprint(instr);
    let mut w = f.writes;
    let vd = field(instr, "VD") as usize;
    match instr.opcode() {
        SFPSHFT2 => w.lregs |= LREGS_0_TO_3 | if vd <= 16 { 1 << vd } else { 0 },
        SFPCONFIG => {
            w.lane_config = true;
            w.lmc = true;
            w.lregs |= LREGS_11_TO_14;
        }
        SFPCAST => w.prng = true,
        SFPMOV => w.prng |= field(instr, "VC") == 9,
        _ => {}
    }
    w
}

/// What `clause`, reported by `instr` for `lanes`, leaves open (the clauses' entries in
/// `docs/spec/`, "Left open"):
///
/// * Undefined behaviour: everything.
/// * Backdoor loads (`backdoor-load`, `guard-outside-lane-loop`, `sfpconfig-dbl-change`): which
///   lanes are written, the word, and whether the instruction's other side effects (its own writes,
///   RWC updates, the PRNG, the flags) still happen are all open: the instruction's potential
///   writes plus LoadMacroConfig, the PRNG, the predication state and the addressing state, in
///   every lane.
/// * A reserved mode value (`sfpswap-reserved-mod1`, `sfpcast-reserved-mod1`,
///   `sfpshft-reserved-mod1`, `sfpmov-reserved-mod1`): everything the instruction might write, in
///   every lane.
/// * Undrawn bits set (`undrawn-bits`): everything the instruction might write, in every lane.
/// * SFPCONFIG clauses (`sfpconfig-noop-vd`, `sfpconfig-mask-and-value`): every SFPCONFIG
///   destination in every lane; the VD=12 constant (`sfpconfig-vd12-constant`): `LReg[12]`.
/// * SFPMUL24 with a non-zero VC (`sfpmul24-nonzero-vc`): `VD` in the lanes concerned.
/// * RWC updates on Blackhole (`blackhole-addrmod`): the addressing state.
/// * SFPPOPC's contradiction (`sfppopc-full-stack-complex`): the predication state of the lanes
///   concerned.
/// * Hazards (`hazard`): everything the consumer might write. SFPLOADMACRO rules, collisions
///   and the scheduled store's Sp (`loadmacro-rule`, `loadmacro-collision`,
///   `loadmacro-store-sp`), and SFPSWAP's second cycle overlapping another
///   instruction (`sfpswap-second-cycle`): everything, since the scheduled instructions' effects
///   are not visible to the tracker.
pub fn clause_taint(instr: &Instr, clause: Clause, lanes: u32) -> ClauseTaint {
    use Clause::*;
    let f = footprint(instr);
    let all = |parts: Parts| ClauseTaint { everything: false, parts, lanes: ALL_LANES };
    let noted = |parts: Parts| ClauseTaint {
        everything: false,
        parts,
        lanes: if f.cross_lane { ALL_LANES } else { lanes },
    };
    if clause.kind() == Kind::Undefined || f.everything {
        return ClauseTaint { everything: true, parts: Parts::default(), lanes: ALL_LANES };
    }
    match clause {
        BackdoorLoad | GuardOutsideLaneLoop | SfpconfigDblChange => all(Parts {
            lmc: true,
            prng: true,
            lane_flags: true,
            use_flags: true,
            flag_stack: true,
            addressing: true,
            ..potential_writes(instr)
        }),
        UndrawnBits
        | SfpswapReservedMod1
        | SfpcastReservedMod1
        | SfpshftReservedMod1
        | SfpmovReservedMod1
        | SfpconfigNoopVd
        | SfpconfigMaskAndValue
        | Hazard => all(potential_writes(instr)),
        SfpconfigVd12Constant => all(Parts { lregs: 1 << 12, ..Parts::default() }),
        Sfpmul24NonZeroVc => noted(f.writes),
        BlackholeAddrMod => all(Parts { addressing: true, ..Parts::default() }),
        SfppopcFullStackComplex => {
            noted(Parts { lane_flags: true, use_flags: true, flag_stack: true, ..Parts::default() })
        }
        LoadmacroRule | LoadmacroCollision | LoadmacroStoreSp | SfpswapSecondCycle => {
            ClauseTaint { everything: true, parts: Parts::default(), lanes: ALL_LANES }
        }
        // The undefined clauses returned above; any clause added later is taken as leaving
        // everything the instruction might write open.
        _ => all(potential_writes(instr)),
    }
}

/// Tracks taint through a program, instruction by instruction.
#[derive(Clone, Debug, Default)]
pub struct Tracker {
    /// Locations whose value is not promised because of undefined or unspecified behaviour.
    pub unpromised: Locations,
    /// Locations whose value is only described non-contractually (current silicon).
    pub non_contractual: Locations,
    /// Whether an SFPLOADMACRO has been issued: its scheduled instructions run in later cycles,
    /// unseen by the tracker, so from then on any taint may have spread anywhere.
    macro_issued: bool,
}

impl Tracker {
    /// Accounts for one issued instruction and the outcome of its cycle(s). For the outcome of the
    /// final drain, pass the program's last instruction.
    pub fn step(&mut self, instr: &Instr, outcome: &Outcome) {
        let f = footprint(instr);
        self.macro_issued |= f.everything;
        // Propagation: what the instruction writes in lanes where it read something tainted (both
        // sets' reads taken before either is written).
        let read =
            [tainted_reads(&self.unpromised, &f.reads), tainted_reads(&self.non_contractual, &f.reads)];
        for (set_is_unpromised, mut lanes) in [(true, read[0]), (false, read[1])] {
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
        // The instruction's own notes: what each clause leaves open.
        for (clause, lanes) in outcome.notes() {
            let target = match clause.kind() {
                Kind::Undefined | Kind::Unspecified => &mut self.unpromised,
                Kind::NonContractual => &mut self.non_contractual,
            };
            // After an SFPLOADMACRO the note may concern a scheduled instruction of this cycle,
            // whose effects the tracker cannot see.
            let t = clause_taint(instr, clause, lanes);
            if t.everything || self.macro_issued {
                *target = Locations::everything();
            } else {
                add_writes(target, &t.parts, t.lanes);
            }
        }
        // Scheduled SFPLOADMACRO work may read anything tainted and write anywhere.
        if self.macro_issued {
            for set in [&mut self.unpromised, &mut self.non_contractual] {
                if !set.is_empty() {
                    *set = Locations::everything();
                }
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

    fn i(s: &str) -> Instr {
        sfpu_reference::isa::parse_instr(Arch::Blackhole, s).unwrap()
    }

    /// The `LReg` part's serde form is the state format's map (registers with a lane in the set,
    /// in order, lanes in hex); an index above 16 is refused; a listed register with no lanes is
    /// the empty set.
    #[test]
    fn lreg_lanes_serde_form() {
        let mut l = Locations::default();
        l.LReg.0[16] = 1;
        l.LReg.0[3] = 0xFF00;
        let json = serde_json::to_string(&l).unwrap();
        assert_eq!(json, r#"{"LReg":{"3":"0x0000ff00","16":"0x00000001"}}"#);
        assert_eq!(serde_json::from_str::<Locations>(&json).unwrap(), l);
        let yaml = "LReg:\n  3: 0x0000ff00\n  16: 0x1\n";
        assert_eq!(serde_yaml::from_str::<Locations>(yaml).unwrap(), l);
        let err = serde_yaml::from_str::<Locations>("LReg:\n  17: 0x1\n").unwrap_err().to_string();
        assert!(err.contains("LReg.17: there are only 17 LRegs (0..=16)"), "{err}");
        let empty = serde_yaml::from_str::<Locations>("LReg:\n  5: 0x0\n").unwrap();
        assert!(empty.is_empty());
        assert_eq!(serde_json::to_string(&empty).unwrap(), "{}");
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

    #[test]
    fn clauses_taint_what_the_instruction_might_write() {
        // SFPSHFT2 with undrawn bits set: any destination of SFPSHFT2 (LReg[0..=3] and VD = 5)
        // is open, in every lane (`docs/spec/sfpu-blackhole.md#undrawn-bits`).
        let mut t = Tracker::default();
        let mut o = Outcome::defined();
        o.note_all(Clause::UndrawnBits);
        t.step(&i("TTI_SFPSHFT2(0x10, 1, 5, 3)"), &o);
        for reg in [0, 1, 2, 3, 5] {
            assert_eq!(t.unpromised.lreg(reg), ALL_LANES, "LReg[{reg}]");
        }
        assert_eq!(t.unpromised.lreg(4), 0);
        assert!(t.non_contractual.is_empty());

        // A backdoor load in lane 3 only: LoadMacroConfig of every lane is open, and so are the
        // side effects the page does not say are kept
        // (`docs/spec/sfpu-blackhole.md#backdoor-load`).
        let mut t = Tracker::default();
        let mut o = Outcome::defined();
        o.note_lane(Clause::BackdoorLoad, 3);
        t.step(&i("TTI_SFPABS(0, 1, 13, 1)"), &o);
        assert_eq!(t.unpromised.LoadMacroConfig.0, ALL_LANES);
        assert_eq!(t.unpromised.PRNG.0, ALL_LANES);
        assert!(t.unpromised.Addressing);

        // SFPCONFIG VD 9 (non-contractual no-op): every SFPCONFIG destination is only
        // non-contractually described (`docs/spec/sfpu-blackhole.md#sfpconfig-noop-vd`).
        let mut t = Tracker::default();
        let mut o = Outcome::defined();
        o.note_all(Clause::SfpconfigNoopVd);
        t.step(&i("TTI_SFPCONFIG(0, 9, 0)"), &o);
        assert!(t.unpromised.is_empty());
        assert_eq!(t.non_contractual.LaneConfig.0, ALL_LANES);
        assert_eq!(t.non_contractual.LoadMacroConfig.0, ALL_LANES);
        assert_eq!(t.non_contractual.lreg(12), ALL_LANES);
    }

    #[test]
    fn taint_after_loadmacro_covers_everything() {
        let mut t = Tracker::default();
        t.step(&i("TTI_SFPLOADMACRO(0, 3, 0, 0)"), &Outcome::defined());
        assert!(t.unpromised.is_empty());
        let mut o = Outcome::defined();
        o.note_all(Clause::Hazard);
        t.step(&i("TTI_SFPNOP"), &o);
        assert!(t.unpromised.all);
    }
}
