//! What the specification says about the effect of an executed instruction.
//!
//! An [`Outcome`] is empty when the documentation fully defines what the instruction did. Otherwise
//! it names each [`Clause`] that makes part of the effect undefined, unspecified, or only
//! non-contractually described, with the lanes it concerns; each clause has its entry in the
//! project's specification notes (`docs/spec/sfpu-blackhole.md`, `docs/spec/sfpu-wormhole.md`).
//! The reference model still produces *some* post-state in those cases (the documented current
//! silicon behaviour, or the reading the entry records), but a conformance check must not hold
//! another implementation to those bits: see [`Kind`].

use std::fmt;

/// Every lane.
pub const ALL_LANES: u32 = 0xFFFF_FFFF;

/// How much the documentation promises about an effect.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    /// The documentation marks the effect `NonContractualBehavior`: it describes what current
    /// silicon does but does not promise it. The model reproduces that description.
    NonContractual,
    /// The documentation is silent, ambiguous or self-contradictory. The model follows the
    /// reading the clause's entry in `docs/spec` records, but nothing is promised.
    Unspecified,
    /// The documentation calls `UndefinedBehaviour()`: anything may happen, including to state
    /// the instruction would not normally touch.
    Undefined,
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Kind::NonContractual => "non-contractual",
            Kind::Unspecified => "unspecified",
            Kind::Undefined => "undefined",
        })
    }
}

macro_rules! clauses {
    ($( $(#[doc = $doc:literal])* $name:ident = ($kind:ident, $id:literal, $page:literal, $summary:literal), )*) => {
        /// A clause of the specification under which an effect is not (fully) defined.
        ///
        /// Each clause has a stable kebab-case [`id`](Clause::id) used in golden vectors and
        /// reports, its [`Kind`], and an entry in the project's specification notes whose heading
        /// is the id: the [`section`](Clause::section) `docs/spec/<page>#<id>`, where the page is
        /// `sfpu-blackhole.md` (the clauses of both chips and Blackhole's own) or
        /// `sfpu-wormhole.md` (Wormhole's own).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Clause {
            $( $(#[doc = $doc])* $name, )*
        }

        impl Clause {
            /// Every clause, in declaration order.
            pub const ALL: &'static [Clause] = &[$(Clause::$name),*];

            /// How much the documentation promises under this clause.
            pub const fn kind(self) -> Kind {
                match self { $(Clause::$name => Kind::$kind),* }
            }

            /// The stable identifier, such as `"sfppushc-full-stack"`.
            pub const fn id(self) -> &'static str {
                match self { $(Clause::$name => $id),* }
            }

            /// Its entry in the specification notes, as a path from the repository's root with the
            /// heading's anchor, such as `"docs/spec/sfpu-blackhole.md#sfppushc-full-stack"`.
            pub const fn section(self) -> &'static str {
                match self { $(Clause::$name => concat!("docs/spec/", $page, "#", $id)),* }
            }

            /// One sentence saying what is not defined.
            pub const fn summary(self) -> &'static str {
                match self { $(Clause::$name => $summary),* }
            }

            /// The clause whose [`id`](Clause::id) is `id`.
            pub fn from_id(id: &str) -> Option<Clause> {
                match id { $($id => Some(Clause::$name),)* _ => None }
            }
        }
    };
}

clauses! {
    // Undefined: the functional models call UndefinedBehaviour().
    /// SFPLOADI with a Mod0 outside {0, 1, 2, 4, 8, 10}.
    SfploadiReservedMod0 = (Undefined, "sfploadi-reserved-mod0", "sfpu-blackhole.md",
        "SFPLOADI with a Mod0 value the documentation does not define"),
    /// SFPPUSHC Mod1 = 0 on a lane whose flag stack already holds 8 entries.
    SfppushcFullStack = (Undefined, "sfppushc-full-stack", "sfpu-blackhole.md",
        "SFPPUSHC push onto a full flag stack (8 entries)"),
    /// SFPPUSHC Mod1 != 0 on a lane whose flag stack is empty.
    SfppushcEmptyStack = (Undefined, "sfppushc-empty-stack", "sfpu-blackhole.md",
        "SFPPUSHC modifying the top of an empty flag stack"),
    /// SFPPOPC Mod1 = 0 on a lane whose flag stack is empty.
    SfppopcEmptyStack = (Undefined, "sfppopc-empty-stack", "sfpu-blackhole.md",
        "SFPPOPC pop from an empty flag stack"),
    /// An SFPLOADMACRO sequence byte with selector 1.
    LoadmacroSelector1 = (Undefined, "loadmacro-selector-1", "sfpu-blackhole.md",
        "SFPLOADMACRO sequence selector 1"),
    /// The SFPLOADMACRO store slot given something other than SFPSTORE.
    LoadmacroStoreSlotNotStore = (Undefined, "loadmacro-store-slot-not-store", "sfpu-blackhole.md",
        "SFPLOADMACRO store sub-unit scheduled with an instruction other than SFPSTORE"),
    /// SFPLOAD or SFPLOADMACRO reading a Dst row that ZEROACC marked undefined.
    DstUndefinedRowRead = (Undefined, "dst-undefined-row-read", "sfpu-blackhole.md",
        "read of a Dst row marked undefined"),
    /// SFPSTORE writing some but not all columns of a Dst row marked undefined.
    DstUndefinedRowPartialWrite = (Undefined, "dst-undefined-row-partial-write", "sfpu-blackhole.md",
        "write of some but not all columns of a Dst row marked undefined"),
    /// Dst accessed while RISCV_DEBUG_REG_DBG_FEATURE_DISABLE bit 11 aliases the two views.
    DstDebugAliasing = (Undefined, "dst-debug-aliasing", "sfpu-blackhole.md",
        "Dst accessed in the DBG_FEATURE_DISABLE bit 11 aliasing mode (unsupported functionality)"),
    /// SFPSHFT2 Mod1 7..15 on either chip: the switch of the functional model ends with
    /// `default: UndefinedBehavior();` (BlackholeA0 `SFPSHFT2.md` @ `41d2c717`, WormholeB0
    /// `SFPSHFT2.md` @ `a052bcc9`); an older Blackhole revision without the `default:` label left
    /// them without effect, and the newer revision wins.
    Sfpshft2UndefinedMod1 = (Undefined, "sfpshft2-undefined-mod1", "sfpu-blackhole.md",
        "SFPSHFT2 Mod1 7..15 are UndefinedBehavior"),

    // Non-contractual: the pages' NonContractualBehavior.
    /// SFPSWAP Mod1 10..15 (current silicon: as 9).
    SfpswapReservedMod1 = (NonContractual, "sfpswap-reserved-mod1", "sfpu-blackhole.md",
        "SFPSWAP Mod1 10..15 behave like 9 on current silicon"),
    /// SFPCAST reserved Mod1 values: Blackhole Mod1 > 3 (current silicon: Mod1 & 3), Wormhole
    /// Mod1 > 1 (current silicon: Mod1 & 1; WormholeB0 `SFPCAST.md`).
    SfpcastReservedMod1 = (NonContractual, "sfpcast-reserved-mod1", "sfpu-blackhole.md",
        "SFPCAST reserved Mod1 values behave like Mod1 & 3 (Blackhole, Mod1 > 3) or Mod1 & 1 (Wormhole, Mod1 > 1) on current silicon"),
    /// SFPSHFT reserved Mod1 values: Blackhole 4, 6 or > 7; Wormhole > 1 (WormholeB0
    /// `SFPSHFT.md`: current silicon uses Mod1 & 1).
    SfpshftReservedMod1 = (NonContractual, "sfpshft-reserved-mod1", "sfpu-blackhole.md",
        "SFPSHFT reserved Mod1 values (Blackhole 4, 6, > 7; Wormhole > 1) on current silicon"),
    /// SFPMOV with Mod1 bit 2 set (current silicon: ignored).
    SfpmovReservedMod1 = (NonContractual, "sfpmov-reserved-mod1", "sfpu-blackhole.md",
        "SFPMOV Mod1 bit 2 is ignored on current silicon"),
    /// SFPCONFIG with VD 9 or 10 (current silicon: no effect).
    SfpconfigNoopVd = (NonContractual, "sfpconfig-noop-vd", "sfpu-blackhole.md",
        "SFPCONFIG VD 9 and 10 do nothing on current silicon"),
    /// SFPMUL24 with a non-zero VC operand.
    Sfpmul24NonZeroVc = (NonContractual, "sfpmul24-nonzero-vc", "sfpu-blackhole.md",
        "SFPMUL24 with LReg[VC] != 0 adds a shifted VC on current silicon"),

    // Unspecified: the pages are silent, ambiguous or contradict each other.
    /// An instruction with VD >= 12 while DISABLE_BACKDOOR_LOAD is clear.
    BackdoorLoad = (Unspecified, "backdoor-load", "sfpu-blackhole.md",
        "backdoor load into an SFPLOADMACRO instruction template (VD >= 12 with DISABLE_BACKDOOR_LOAD clear)"),
    /// A VD >= 12 guard evaluated outside the lane loop with lanes disagreeing on
    /// DISABLE_BACKDOOR_LOAD.
    GuardOutsideLaneLoop = (Unspecified, "guard-outside-lane-loop", "sfpu-blackhole.md",
        "VD >= 12 guard outside the lane loop while lanes disagree on DISABLE_BACKDOOR_LOAD"),
    /// The instruction after an SFPCONFIG that changed DISABLE_BACKDOOR_LOAD.
    SfpconfigDblChange = (Unspecified, "sfpconfig-dbl-change", "sfpu-blackhole.md",
        "instruction right after an SFPCONFIG that changed DISABLE_BACKDOOR_LOAD may see either value"),
    /// SFPCONFIG with both IMM16_IS_VALUE and IMM16_IS_LANE_MASK.
    SfpconfigMaskAndValue = (Unspecified, "sfpconfig-mask-and-value", "sfpu-blackhole.md",
        "SFPCONFIG with both IMM16_IS_VALUE and IMM16_IS_LANE_MASK (documentation says to avoid it)"),
    /// An instruction word with undrawn bits set (only reachable through SFPLOADMACRO
    /// templates, backdoor loads and the text form's raw words).
    UndrawnBits = (Unspecified, "undrawn-bits", "sfpu-blackhole.md",
        "instruction word with non-zero undrawn bits"),
    /// ApplyPartialAddrMod on Blackhole, whose RWC page does not exist.
    BlackholeAddrMod = (Unspecified, "blackhole-addrmod", "sfpu-blackhole.md",
        "Blackhole address-modifier update (RWCs) is inferred from Wormhole"),
    /// SFPPOPC Mod1 != 0 with a full stack, which the page both warns against and defines.
    SfppopcFullStackComplex = (Unspecified, "sfppopc-full-stack-complex", "sfpu-blackhole.md",
        "SFPPOPC Mod1 != 0 with a full stack (page contradicts itself)"),
    /// A software-managed scheduling hazard was violated.
    Hazard = (Unspecified, "hazard", "sfpu-blackhole.md",
        "a software-managed scheduling rule (the pages' \"Instruction scheduling\") was violated; results that depend on it are unspecified"),
    /// An SFPLOADMACRO scheduling rule was violated.
    LoadmacroRule = (Unspecified, "loadmacro-rule", "sfpu-blackhole.md",
        "an SFPLOADMACRO scheduling constraint (SFPLOADMACRO.md; SFPSHFT2.md's idle cycle after a scheduled SFPSHFT2) was violated"),
    /// A regular instruction was discarded because a scheduled one took its sub-unit.
    LoadmacroCollision = (Unspecified, "loadmacro-collision", "sfpu-blackhole.md",
        "a regular instruction was discarded by an SFPLOADMACRO-scheduled instruction on the same sub-unit"),
    /// A scheduled SFPSTORE in `MOD0_FMT_INT32_ALL` mode: whether it still advances `RWC.Sp`.
    LoadmacroStoreSp = (Unspecified, "loadmacro-store-sp", "sfpu-blackhole.md",
        "SFPLOADMACRO-scheduled SFPSTORE with MOD0_FMT_INT32_ALL: whether it still advances the Sp RWC is not stated"),
    /// Blackhole: an instruction on the Load, MAD or Store sub-unit executing in the cycle after
    /// an SFPSWAP and naming its `VC` or `VD` (or, when a lane has `ENABLE_DEST_INDEX`, its index
    /// registers `LReg[4 + (VC & 3)]`, `LReg[4 + (VD & 3)]`) as its `VD` or a first-cycle read:
    /// SFPSWAP executes for two cycles and its second reads `VC` and `VD` again and writes them,
    /// which automatic stalling does not protect under SFPLOADMACRO (BlackholeA0 `SFPSWAP.md`
    /// @ `585749d1`, caution). The model writes SFPSWAP's results in its first cycle.
    SfpswapSecondCycle = (Unspecified, "sfpswap-second-cycle", "sfpu-blackhole.md",
        "an instruction on the Load, MAD or Store sub-unit names SFPSWAP's VC/VD in SFPSWAP's second cycle, which re-reads and writes them"),
    /// SFPCONFIG writing the `LReg[12]` immediate constant.
    SfpconfigVd12Constant = (Unspecified, "sfpconfig-vd12-constant", "sfpu-blackhole.md",
        "SFPCONFIG VD=12 immediate constant: upstream revisions disagree (0x37800000 @ 47385dd, 0x3B000000 @ f916ebc3)"),

    // Wormhole B0's own (docs/spec/sfpu-wormhole.md).
    /// An instruction executed on a chip that does not have it (an `Instr` built in Rust, since
    /// no word of the chip decodes to it), such as SFPGT or an SFPAND with `Mod1 != 0` on
    /// Wormhole. Nothing is executed.
    NotOnChip = (Undefined, "not-on-chip", "sfpu-wormhole.md",
        "an instruction (opcode or field value) the chip's encoding cannot express was executed"),
    /// Wormhole MAD-family Mod1 bits the Wormhole pages do not name (SFPMAD/SFPADD/SFPMUL bits 0
    /// and 1, SFPADDI/SFPMULI bits 0..2): the functional model ignores them, the pages promise
    /// nothing (Blackhole gives bits 0 and 1 meanings).
    WormholeMadUnnamedMod1 = (Unspecified, "wormhole-mad-unnamed-mod1", "sfpu-wormhole.md",
        "Wormhole SFPMAD-family Mod1 bits the Wormhole pages do not name (ignored by the functional model)"),
    /// Wormhole SFPSHFT2 SUBVEC_SHFLSHR1: lane 0 of each group of 8 gets `vc0[Lane + 7]` from the
    /// last SHFLROR1 (or SHFLROR1_AND_COPY4) with VD < 12 instead of 0 (`NonContractualBehavior`).
    Sfpshft2Shflshr1StaleLane = (NonContractual, "sfpshft2-shflshr1-stale-lane", "sfpu-wormhole.md",
        "Wormhole SFPSHFT2 SUBVEC_SHFLSHR1 gives lane 0 of each group of 8 a stale value (the last SHFLROR1's VC) instead of 0"),
    /// Wormhole: an instruction reading, on the next cycle, a location a MAD-unit instruction
    /// (SFPMAD, SFPADD, SFPMUL, SFPADDI, SFPMULI, SFPLUT, SFPLUTFP32) writes; Wormhole does not
    /// stall, software must insert SFPNOP.
    WormholeMadResultRead = (Unspecified, "wormhole-mad-result-read", "sfpu-wormhole.md",
        "Wormhole: a MAD-unit result read on the next cycle (no automatic stall; software must insert SFPNOP)"),
    /// Wormhole SFPSHFT2 SUBVEC_SHFLROR1_AND_COPY4 followed by an instruction reading LReg[0..3].
    WormholeShflror1Copy4Read = (Unspecified, "wormhole-shflror1-copy4-read", "sfpu-wormhole.md",
        "Wormhole: LReg[0..3] read on the cycle after SFPSHFT2 SUBVEC_SHFLROR1_AND_COPY4"),
    /// Wormhole SFPSHFT2 SUBVEC_SHFLROR1_AND_COPY4 followed by an instruction writing LReg[1..3].
    WormholeShflror1Copy4Write = (Unspecified, "wormhole-shflror1-copy4-write", "sfpu-wormhole.md",
        "Wormhole: LReg[1..3] written on the cycle after SFPSHFT2 SUBVEC_SHFLROR1_AND_COPY4"),
    /// Wormhole SFPSHFT2 SUBVEC_SHFLROR1 or SUBVEC_SHFLSHR1 with VD < 8 followed by an
    /// instruction reading `LReg[VD]`.
    WormholeShflVdRead = (Unspecified, "wormhole-shfl-vd-read", "sfpu-wormhole.md",
        "Wormhole: LReg[VD] read on the cycle after SFPSHFT2 SUBVEC_SHFLROR1 / SUBVEC_SHFLSHR1"),
    /// Wormhole SFPSHFT2 modes 2..4 followed by one of the simple or round instructions the page
    /// lists.
    WormholeShft2NextInstruction = (Unspecified, "wormhole-shft2-next-instruction", "sfpu-wormhole.md",
        "Wormhole: a listed simple/round instruction on the cycle after SFPSHFT2 modes 2..4"),
}

/// The number of [`Clause`]s.
const CLAUSES: usize = Clause::ALL.len();
const _: () = assert!(CLAUSES <= 64, "Outcome keeps one bit per clause in a u64");

/// How many clauses an [`Outcome`] holds without allocating.
const INLINE: usize = 12;

/// The lane masks of the noted clauses.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Lanes {
    /// The masks of the noted clauses in clause order (at most [`INLINE`]), then zeros.
    Inline([u32; INLINE]),
    /// More clauses than fit inline: one mask per clause, indexed by clause.
    Spilled(Box<[u32; CLAUSES]>),
}

/// The specification's verdict on one executed instruction (or program).
///
/// Empty means fully defined. Each note is a [`Clause`] with the lanes it concerns, as a mask
/// with bit `i` for lane `i` ([`ALL_LANES`] when the clause is not per lane). Notes are kept
/// sorted by clause, so two outcomes with the same notes compare equal.
///
/// Representation: one bit per clause says which are noted, and their lane masks are kept in
/// clause order in a small inline array, spilling to one mask per clause on the heap only when an
/// outcome notes more than twelve clauses (a whole program's merged outcome, rarely). So the
/// common empty outcome is a zero word and a few zero masks, nothing is allocated for it or for a
/// typical note, recording a note is a few instructions, and the value stays small (64 bytes)
/// however many clauses the specification grows. The form is canonical (inline exactly when at
/// most twelve clauses are noted, unused slots zero), so the derived equality and hash compare
/// notes.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// Bit `c`: clause `c` (in declaration order) is noted.
    noted: u64,
    /// Their lane masks.
    lanes: Lanes,
}

impl Default for Outcome {
    fn default() -> Outcome {
        Outcome { noted: 0, lanes: Lanes::Inline([0; INLINE]) }
    }
}

impl Outcome {
    /// A fully defined outcome.
    #[inline]
    pub fn defined() -> Outcome {
        Outcome::default()
    }

    /// Whether the documentation fully defines the effect.
    #[inline]
    pub fn is_defined(&self) -> bool {
        self.noted == 0
    }

    /// The inline slot of noted clause `c`.
    #[inline]
    fn rank(&self, c: usize) -> usize {
        (self.noted & ((1u64 << c) - 1)).count_ones() as usize
    }

    /// Records that `clause` applies to the lanes in `lanes`. A zero mask records nothing.
    ///
    /// The common case (the clause already noted, the masks inline) is inlined into the caller;
    /// the rest is `note_new`, out of line.
    #[inline(always)]
    pub fn note(&mut self, clause: Clause, lanes: u32) {
        if lanes == 0 {
            return;
        }
        let c = clause as usize;
        let rank = self.rank(c);
        if self.noted & (1u64 << c) != 0
            && let Lanes::Inline(a) = &mut self.lanes
        {
            a[rank] |= lanes;
            return;
        }
        self.note_new(clause, lanes);
    }

    /// [`Outcome::note`] of a clause not yet noted, or of an outcome whose masks have spilled.
    #[inline(never)]
    fn note_new(&mut self, clause: Clause, lanes: u32) {
        let c = clause as usize;
        let bit = 1u64 << c;
        let count = self.noted.count_ones() as usize;
        let rank = self.rank(c);
        let noted = self.noted;
        match &mut self.lanes {
            Lanes::Inline(a) if noted & bit != 0 => a[rank] |= lanes,
            Lanes::Inline(a) if count < INLINE => {
                a.copy_within(rank..count, rank + 1);
                a[rank] = lanes;
            }
            Lanes::Inline(a) => {
                let mut all = Box::new([0u32; CLAUSES]);
                let mut slot = 0;
                for (k, mask) in all.iter_mut().enumerate() {
                    if noted & (1u64 << k) != 0 {
                        *mask = a[slot];
                        slot += 1;
                    }
                }
                all[c] |= lanes;
                self.lanes = Lanes::Spilled(all);
            }
            Lanes::Spilled(all) => all[c] |= lanes,
        }
        self.noted |= bit;
    }

    /// Records that `clause` applies to `lane`.
    #[inline]
    pub fn note_lane(&mut self, clause: Clause, lane: usize) {
        self.note(clause, 1 << (lane & 31));
    }

    /// Records that `clause` applies to the whole instruction.
    #[inline]
    pub fn note_all(&mut self, clause: Clause) {
        self.note(clause, ALL_LANES);
    }

    /// The notes, sorted by clause.
    pub fn notes(&self) -> impl Iterator<Item = (Clause, u32)> + '_ {
        // The set bits of `noted`, lowest first: clause `c` is bit `c as usize`, and
        // `Clause::ALL` is in declaration (so discriminant) order.
        let mut rest = self.noted;
        std::iter::from_fn(move || {
            let c = *Clause::ALL.get(rest.trailing_zeros() as usize)?;
            rest &= rest - 1;
            Some((c, self.lanes(c)))
        })
    }

    /// The lanes `clause` was recorded for (0 if it was not).
    #[inline]
    pub fn lanes(&self, clause: Clause) -> u32 {
        let c = clause as usize;
        if self.noted & (1u64 << c) == 0 {
            return 0;
        }
        match &self.lanes {
            Lanes::Inline(a) => a[self.rank(c)],
            Lanes::Spilled(all) => all[c],
        }
    }

    /// Adds every note of `other` to `self`.
    #[inline]
    pub fn merge(&mut self, other: &Outcome) {
        if other.noted == 0 {
            return;
        }
        for (clause, lanes) in other.notes() {
            self.note(clause, lanes);
        }
    }

    /// The most severe kind among the notes, if any.
    pub fn worst(&self) -> Option<Kind> {
        self.notes().map(|(c, _)| c.kind()).max()
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_defined() {
            return f.write_str("defined");
        }
        for (i, (clause, lanes)) in self.notes().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            write!(f, "{}: {} ({}, `{}`)", clause.kind(), clause.summary(), clause.section(), clause.id())?;
            if lanes != ALL_LANES {
                write!(f, " in lanes 0x{lanes:08x}")?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Kept small on purpose (see the representation note on [`Outcome`]): with more than 128
    /// bytes, every `step` would copy its outcome through a `memcpy` call. The inline/spilled
    /// representation keeps it at 64 bytes whatever the number of clauses.
    #[test]
    fn an_outcome_fits_in_128_bytes() {
        assert!(size_of::<Outcome>() <= 128, "{} bytes", size_of::<Outcome>());
    }

    /// Noting more clauses than fit inline spills, and the notes, their order and equality are
    /// those of the inline form.
    #[test]
    fn many_notes_spill_and_compare_by_content() {
        let mut a = Outcome::defined();
        let mut b = Outcome::defined();
        for (i, &c) in Clause::ALL.iter().enumerate() {
            a.note(c, 1 << (i % 32));
        }
        for (i, &c) in Clause::ALL.iter().enumerate().rev() {
            b.note(c, 1 << (i % 32));
        }
        assert_eq!(a, b);
        assert_eq!(a.notes().count(), Clause::ALL.len());
        for (i, &c) in Clause::ALL.iter().enumerate() {
            assert_eq!(a.lanes(c), 1 << (i % 32), "{c:?}");
        }
        let mut c = Outcome::defined();
        c.merge(&a);
        assert_eq!(c, a);
    }

    #[test]
    fn notes_merge_and_definedness() {
        let mut a = Outcome::defined();
        assert!(a.is_defined());
        a.note(Clause::ALL[3], 0);
        assert!(a.is_defined(), "an empty lane mask records nothing");
        a.note(Clause::ALL[3], 0b101);
        let mut b = Outcome::defined();
        b.note(Clause::ALL[1], ALL_LANES);
        b.note(Clause::ALL[3], 0b010);
        a.merge(&b);
        let notes: Vec<_> = a.notes().collect();
        assert_eq!(notes, vec![(Clause::ALL[1], ALL_LANES), (Clause::ALL[3], 0b111)]);
        assert!(!a.is_defined());
    }

    #[test]
    fn ids_are_unique_and_round_trip() {
        let mut seen = std::collections::BTreeSet::new();
        for &c in Clause::ALL {
            assert!(seen.insert(c.id()), "duplicate id {}", c.id());
            assert_eq!(Clause::from_id(c.id()), Some(c));
            assert!(c.section().ends_with(&format!("#{}", c.id())), "{c:?}");
        }
    }

    #[test]
    fn notes_merge_by_clause() {
        let mut o = Outcome::defined();
        assert!(o.is_defined());
        o.note_lane(Clause::SfppushcFullStack, 3);
        o.note(Clause::SfppushcFullStack, 0x10);
        o.note(Clause::SfpswapReservedMod1, 0);
        assert_eq!(o.lanes(Clause::SfppushcFullStack), 0x18);
        assert_eq!(o.notes().count(), 1);
        assert_eq!(o.worst(), Some(Kind::Undefined));
        assert!(o.to_string().contains("lanes 0x00000018"));
    }
}
