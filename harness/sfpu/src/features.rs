//! State features: the parts of the Vector Unit's state beyond the *baseline* that a vector needs
//! an implementation to model, computed from the vector's initial state and its program.
//!
//! The baseline is what every implementation of the chip can start from: the documented reset
//! state, any values in `LReg[0..=7]` and `LReg[11..=14]`, any `LaneFlags`, a
//! `UseLaneFlagsForLaneEnable` that is the same in every lane, flag stacks of the same depth in
//! every lane (any contents, each level's `UseLaneFlagsForLaneEnable` the same in every lane), any
//! Dst contents with every row valid, and the default (all zero) configuration, counters and
//! `LaneConfig`, `LoadMacroConfig`, PRNG and `LReg[16]`. A [`Feature`] names one way a state goes
//! beyond it (`vectors/README.md`, "Features", is the definition for importers).
//!
//! [`requires`] is a pure function of `(pre state, program)`: it runs the program on the reference
//! model and, before each instruction, takes the features of the state that the instruction's page
//! can observe (a `ROW_MASK` matters to a predicated instruction, not to SFPNOP; the Dst remap only
//! to SFPLOAD, SFPSTORE and SFPLOADMACRO). An SFPLOADMACRO observes everything, and so does every
//! cycle while work it scheduled is pending (the scheduled instructions may be anything), up to
//! the end of the drain. The result is conservative: a vector may list a feature it could do
//! without, never the other way round.
//!
//! [`encoding_tags`] names the encodings whose behaviour the pseudocode itself leaves reserved.
//!
//! Everything here is specific to the SFPU; it is kept in one module so that it can move behind an
//! ISA-generic seam later.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use sfpu_reference::isa::mods::*;
use sfpu_reference::isa::{Instr, Opcode};
use sfpu_reference::{Machine, State};

/// One way a state goes beyond the baseline (module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Feature {
    /// Flag stacks of different depths in different lanes (software pushes and pops every lane
    /// alike, so from reset every lane has the same depth).
    FlagStackRagged,
    /// `UseLaneFlagsForLaneEnable` differs between lanes, in the current state or at a level of
    /// the flag stack (every instruction that writes it writes every lane alike).
    UseLaneFlagsRagged,
    /// `LaneConfig.ROW_MASK` set in some lane.
    RowMask,
    /// A `LaneConfig` bit other than `ROW_MASK` set in some lane (`DISABLE_BACKDOOR_LOAD`,
    /// `ENABLE_FP16A_INF`, the Dst index, blocking and column-exchange bits, ...).
    LaneConfig,
    /// A non-zero `LoadMacroConfig.Sequence` word or `Misc` in some lane.
    LoadMacroConfig,
    /// A non-zero `LoadMacroConfig.InstructionTemplate` word in some lane.
    InstructionTemplate,
    /// A non-zero PRNG state in some lane.
    Prng,
    /// A non-zero `LReg[16]` in some lane.
    Lreg16,
    /// A Dst row marked invalid.
    DstInvalidRows,
    /// `RISCV_DEBUG_REG_DBG_FEATURE_DISABLE` bit 11: Dst16b aliasing the high half of Dst32b.
    DstDebugAlias,
    /// `DEST_ACCESS_CFG_remap_addrs` (the `Adj16` row remap of `Dst.md`).
    DestRemap,
    /// `DEST_ACCESS_CFG_swizzle_32b` (the `Adj32` swizzle of `Dst.md`).
    Swizzle32b,
    /// `ALU_FORMAT_SPEC_REG_SrcB_override` or `ALU_FORMAT_SPEC_REG_SrcB_val` set.
    SrcbOverride,
    /// The rest of the Dst format configuration `MOD0_FMT_SRCB` reads:
    /// `ALU_ACC_CTRL_SFPU_Fp32_enabled`, `ALU_FORMAT_SPEC_REG1_SrcB`, `SFPU_DEST_FMT_Enable` and
    /// `SFPU_DEST_FMT_Base`.
    DstFormatConfig,
    /// A non-zero address-modifier slot (`ADDR_MOD`), or `ADDR_MOD_SET_Base`.
    AddrMod,
    /// A non-zero read/write counter other than `Sp`: `RWC.Dst`, `Dst_Cr`, `SrcA`, `SrcA_Cr`,
    /// `SrcB`, `SrcB_Cr`, `FidelityPhase`, `ExtraAddrModBit`.
    Rwc,
    /// The Dst "stack pointer" state: `RWC.Sp`, `SFPU_STACK_Incr` or `DEST_SP_BASE_Base`.
    Sp,
    /// A Dst base offset: `DEST_TARGET_REG_CFG_MATH_Offset` or `DEST_REGW_BASE_Base`.
    DestBase,
    /// Wormhole only: a non-zero SFPSHFT2 `vc0` latch (the `LReg[VC]` the last `SHFLROR1` with
    /// `VD < 12` saw, which `SHFLSHR1`'s bug reads; hidden history a DUT must keep to run it).
    Sfpshft2Latch,
}

impl Feature {
    /// Every feature, in the canonical order (the order `requires` lists them in).
    pub const ALL: &'static [Feature] = &[
        Feature::FlagStackRagged,
        Feature::UseLaneFlagsRagged,
        Feature::RowMask,
        Feature::LaneConfig,
        Feature::LoadMacroConfig,
        Feature::InstructionTemplate,
        Feature::Prng,
        Feature::Lreg16,
        Feature::DstInvalidRows,
        Feature::DstDebugAlias,
        Feature::DestRemap,
        Feature::Swizzle32b,
        Feature::SrcbOverride,
        Feature::DstFormatConfig,
        Feature::AddrMod,
        Feature::Rwc,
        Feature::Sp,
        Feature::DestBase,
        Feature::Sfpshft2Latch,
    ];

    /// The stable identifier used in vector files and the DUT protocol.
    pub const fn id(self) -> &'static str {
        match self {
            Feature::FlagStackRagged => "flag-stack-ragged",
            Feature::UseLaneFlagsRagged => "use-lane-flags-ragged",
            Feature::RowMask => "row-mask",
            Feature::LaneConfig => "lane-config",
            Feature::LoadMacroConfig => "load-macro-config",
            Feature::InstructionTemplate => "instruction-template",
            Feature::Prng => "prng",
            Feature::Lreg16 => "lreg16",
            Feature::DstInvalidRows => "dst-invalid-rows",
            Feature::DstDebugAlias => "dst-debug-alias",
            Feature::DestRemap => "dest-remap",
            Feature::Swizzle32b => "swizzle-32b",
            Feature::SrcbOverride => "srcb-override",
            Feature::DstFormatConfig => "dst-format-config",
            Feature::AddrMod => "addr-mod",
            Feature::Rwc => "rwc",
            Feature::Sp => "sp",
            Feature::DestBase => "dest-base",
            Feature::Sfpshft2Latch => "sfpshft2-latch",
        }
    }

    /// The feature called `id`.
    pub fn from_id(id: &str) -> Option<Feature> {
        Feature::ALL.iter().copied().find(|f| f.id() == id)
    }

    /// One line saying what the feature is.
    pub const fn summary(self) -> &'static str {
        match self {
            Feature::FlagStackRagged => "flag stacks of different depths in different lanes",
            Feature::UseLaneFlagsRagged => {
                "UseLaneFlagsForLaneEnable different between lanes (now or at a flag-stack level)"
            }
            Feature::RowMask => "LaneConfig ROW_MASK set",
            Feature::LaneConfig => "a LaneConfig bit other than ROW_MASK set",
            Feature::LoadMacroConfig => "a non-zero LoadMacroConfig Sequence word or Misc",
            Feature::InstructionTemplate => "a non-zero LoadMacroConfig InstructionTemplate",
            Feature::Prng => "a non-zero PRNG state",
            Feature::Lreg16 => "a non-zero LReg[16]",
            Feature::DstInvalidRows => "Dst rows marked invalid",
            Feature::DstDebugAlias => "DBG_FEATURE_DISABLE bit 11 (Dst16b aliases Dst32b)",
            Feature::DestRemap => "DEST_ACCESS_CFG_remap_addrs",
            Feature::Swizzle32b => "DEST_ACCESS_CFG_swizzle_32b",
            Feature::SrcbOverride => "ALU_FORMAT_SPEC_REG_SrcB_override / _val",
            Feature::DstFormatConfig => {
                "ALU_ACC_CTRL_SFPU_Fp32_enabled, ALU_FORMAT_SPEC_REG1_SrcB, SFPU_DEST_FMT_*"
            }
            Feature::AddrMod => "a non-zero ADDR_MOD slot, or ADDR_MOD_SET_Base",
            Feature::Rwc => "a non-zero RWC other than Sp",
            Feature::Sp => "RWC.Sp, SFPU_STACK_Incr or DEST_SP_BASE_Base",
            Feature::DestBase => "DEST_TARGET_REG_CFG_MATH_Offset or DEST_REGW_BASE_Base",
            Feature::Sfpshft2Latch => "Wormhole's SFPSHFT2 vc0 latch non-zero (read by SHFLSHR1)",
        }
    }

    /// A state with this feature and no other, as a one-line state document (over the chip's
    /// reset state; `arch` names Wormhole where the feature is Wormhole's).
    pub const fn example(self) -> &'static str {
        match self {
            Feature::FlagStackRagged => {
                r#"{"FlagStack": {"depth": [1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0], "levels": [{}]}}"#
            }
            Feature::UseLaneFlagsRagged => r#"{"UseLaneFlagsForLaneEnable": "0x0000ffff"}"#,
            Feature::RowMask => r#"{"LaneConfig": "0x01000"}"#,
            Feature::LaneConfig => r#"{"LaneConfig": "0x00001"}"#,
            Feature::LoadMacroConfig => r#"{"LoadMacroConfig": {"Misc": "0x001"}}"#,
            Feature::InstructionTemplate => {
                r#"{"LoadMacroConfig": {"InstructionTemplate": {"0": "0x00000001"}}}"#
            }
            Feature::Prng => r#"{"PRNG": "0x00000001"}"#,
            Feature::Lreg16 => r#"{"LReg": {"16": "0x00000001"}}"#,
            Feature::DstInvalidRows => r#"{"Dst": {"invalid_rows": [0]}}"#,
            Feature::DstDebugAlias => r#"{"Addressing": {"DBG_FEATURE_DISABLE_bit11": true}}"#,
            Feature::DestRemap => r#"{"Addressing": {"DEST_ACCESS_CFG_remap_addrs": true}}"#,
            Feature::Swizzle32b => r#"{"Addressing": {"DEST_ACCESS_CFG_swizzle_32b": true}}"#,
            Feature::SrcbOverride => r#"{"Addressing": {"ALU_FORMAT_SPEC_REG_SrcB_override": true}}"#,
            Feature::DstFormatConfig => r#"{"Addressing": {"ALU_ACC_CTRL_SFPU_Fp32_enabled": true}}"#,
            Feature::AddrMod => r#"{"Addressing": {"ADDR_MOD_SET_Base": true}}"#,
            Feature::Rwc => r#"{"Addressing": {"RWC": {"Dst": 8}}}"#,
            Feature::Sp => r#"{"Addressing": {"SFPU_STACK_Incr": 1}}"#,
            Feature::DestBase => r#"{"Addressing": {"DEST_REGW_BASE_Base": 16}}"#,
            Feature::Sfpshft2Latch => r#"{"arch": "wormhole", "SFPSHFT2_vc0": "0x00000001"}"#,
        }
    }

    /// Whether an implementation that keeps the state lane by lane, as the pages describe it,
    /// models the feature without doing anything for it: the ragged features are only values
    /// that differ between lanes, which such a model holds anyway (an implementation that keeps
    /// one value for all lanes does not).
    pub const fn per_lane(self) -> bool {
        matches!(self, Feature::FlagStackRagged | Feature::UseLaneFlagsRagged)
    }

    const fn bit(self) -> u32 {
        1 << self as u32
    }
}

impl fmt::Display for Feature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

impl Serialize for Feature {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.id())
    }
}

impl<'de> Deserialize<'de> for Feature {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Feature, D::Error> {
        let id = String::deserialize(d)?;
        Feature::from_id(&id).ok_or_else(|| {
            let known: Vec<&str> = Feature::ALL.iter().map(|f| f.id()).collect();
            serde::de::Error::custom(format!("unknown feature `{id}` (known: {})", known.join(", ")))
        })
    }
}

/// A set of features.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct FeatureSet(u32);

impl FeatureSet {
    /// No feature: the baseline.
    pub const EMPTY: FeatureSet = FeatureSet(0);

    /// Every feature.
    pub fn all() -> FeatureSet {
        Feature::ALL.iter().copied().collect()
    }

    /// Whether `f` is in the set.
    pub const fn contains(self, f: Feature) -> bool {
        self.0 & f.bit() != 0
    }

    /// Adds `f`.
    pub fn insert(&mut self, f: Feature) {
        self.0 |= f.bit();
    }

    /// Whether the set is empty (the baseline).
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The features of both.
    pub const fn union(self, other: FeatureSet) -> FeatureSet {
        FeatureSet(self.0 | other.0)
    }

    /// The features in both.
    pub const fn intersection(self, other: FeatureSet) -> FeatureSet {
        FeatureSet(self.0 & other.0)
    }

    /// The features of `self` not in `other`.
    pub const fn difference(self, other: FeatureSet) -> FeatureSet {
        FeatureSet(self.0 & !other.0)
    }

    /// Whether every feature of `self` is in `other`.
    pub const fn is_subset(self, other: FeatureSet) -> bool {
        self.0 & !other.0 == 0
    }

    /// The features, in canonical order.
    pub fn iter(self) -> impl Iterator<Item = Feature> {
        Feature::ALL.iter().copied().filter(move |f| self.contains(*f))
    }

    /// The features, in canonical order.
    pub fn to_vec(self) -> Vec<Feature> {
        self.iter().collect()
    }
}

impl FromIterator<Feature> for FeatureSet {
    fn from_iter<I: IntoIterator<Item = Feature>>(iter: I) -> FeatureSet {
        let mut s = FeatureSet::EMPTY;
        for f in iter {
            s.insert(f);
        }
        s
    }
}

impl fmt::Display for FeatureSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_empty() {
            return f.write_str("baseline");
        }
        let ids: Vec<&str> = self.iter().map(Feature::id).collect();
        f.write_str(&ids.join(", "))
    }
}

/// Every feature present in `s`, whoever could observe it.
pub fn state_features(s: &State) -> FeatureSet {
    let mut out = FeatureSet::EMPTY;
    let mut add = |cond: bool, f: Feature| {
        if cond {
            out.insert(f);
        }
    };
    let depth0 = s.FlagStack[0].len();
    add(s.FlagStack.iter().any(|st| st.len() != depth0), Feature::FlagStackRagged);
    let use_ragged = s.UseLaneFlagsForLaneEnable.iter().any(|&u| u != s.UseLaneFlagsForLaneEnable[0])
        || (0..sfpu_reference::state::FLAG_STACK_CAPACITY).any(|level| {
            let mut at_level = s.FlagStack.iter().filter_map(|st| st.entries().get(level));
            let first = at_level.next().map(|e| e.UseLaneFlagsForLaneEnable);
            at_level.any(|e| Some(e.UseLaneFlagsForLaneEnable) != first)
        });
    add(use_ragged, Feature::UseLaneFlagsRagged);
    add(s.LaneConfig.iter().any(|c| c.ROW_MASK() != 0), Feature::RowMask);
    add(s.LaneConfig.iter().any(|c| c.bits() & !0xF000 != 0), Feature::LaneConfig);
    add(
        s.LoadMacroConfig.iter().any(|c| c.Sequence.iter().any(|&w| w != 0) || c.Misc.bits() != 0),
        Feature::LoadMacroConfig,
    );
    add(
        s.LoadMacroConfig.iter().any(|c| c.InstructionTemplate.iter().any(|&w| w != 0)),
        Feature::InstructionTemplate,
    );
    add(s.PRNG.iter().any(|&p| p != 0), Feature::Prng);
    add(s.LReg[16].iter().any(|&v| v != 0), Feature::Lreg16);
    add(s.Dst.DstRowValid.iter().any(|&v| !v), Feature::DstInvalidRows);
    let a = &s.Addressing;
    add(a.DBG_FEATURE_DISABLE_bit11, Feature::DstDebugAlias);
    add(a.DEST_ACCESS_CFG_remap_addrs, Feature::DestRemap);
    add(a.DEST_ACCESS_CFG_swizzle_32b, Feature::Swizzle32b);
    add(a.ALU_FORMAT_SPEC_REG_SrcB_override || a.ALU_FORMAT_SPEC_REG_SrcB_val != 0, Feature::SrcbOverride);
    add(
        a.ALU_ACC_CTRL_SFPU_Fp32_enabled
            || a.ALU_FORMAT_SPEC_REG1_SrcB != 0
            || a.SFPU_DEST_FMT_Enable
            || a.SFPU_DEST_FMT_Base != 0,
        Feature::DstFormatConfig,
    );
    add(a.ADDR_MOD_SET_Base || a.ADDR_MOD.iter().any(|m| *m != Default::default()), Feature::AddrMod);
    let r = &a.RWC;
    add(
        r.Dst != 0
            || r.Dst_Cr != 0
            || r.SrcA != 0
            || r.SrcA_Cr != 0
            || r.SrcB != 0
            || r.SrcB_Cr != 0
            || r.FidelityPhase != 0
            || r.ExtraAddrModBit != 0,
        Feature::Rwc,
    );
    add(r.Sp != 0 || a.SFPU_STACK_Incr != 0 || a.DEST_SP_BASE_Base != 0, Feature::Sp);
    add(a.DEST_TARGET_REG_CFG_MATH_Offset != 0 || a.DEST_REGW_BASE_Base != 0, Feature::DestBase);
    add(s.wormhole().is_some_and(|wh| wh.SFPSHFT2_vc0.iter().any(|&v| v != 0)), Feature::Sfpshft2Latch);
    out
}

/// The value of the field `name` of `instr` (0 if it has none).
fn field(instr: &Instr, name: &str) -> u32 {
    instr.field_values().iter().find(|(n, _)| *n == name).map_or(0, |&(_, v)| v)
}

/// The features of a state that `instr`'s page can observe (conservatively: "may").
pub fn observed_by(instr: &Instr) -> FeatureSet {
    use Feature::*;
    use Opcode::*;
    let op = instr.opcode();
    if op == SFPNOP {
        return FeatureSet::EMPTY;
    }
    if op == SFPLOADMACRO {
        // The scheduled instructions may be anything.
        return FeatureSet::all();
    }
    let mut f = FeatureSet::EMPTY;
    // Every instruction but SFPNOP reads UseLaneFlagsForLaneEnable (for its lane enable, or, for
    // the flag-stack instructions, as data; SFPCONFIG reads lanes 0..7's).
    f.insert(UseLaneFlagsRagged);
    // ROW_MASK: every instruction that asks IsLaneEnabled. SFPCONFIG has its own rule, and the
    // flag-stack instructions and SFPENCC act on every lane passing the VD guard.
    // SFPCONFIG's VD 15 combines with (or keeps the high bits of) the old LaneConfig, ROW_MASK
    // included.
    if !matches!(op, SFPCONFIG | SFPENCC | SFPPUSHC | SFPPOPC | SFPCOMPC)
        || (op == SFPCONFIG && field(instr, "VD") == 15)
    {
        f.insert(RowMask);
    }
    // The flag stacks.
    let mutate_stack = matches!(op, SFPGT | SFPLE) && field(instr, "Mod1") & SFPGT_MOD1_MUTATE_STACK != 0;
    if matches!(op, SFPPUSHC | SFPPOPC | SFPCOMPC) || mutate_stack {
        f.insert(FlagStackRagged);
    }
    // LaneConfig bits other than ROW_MASK: read by the Dst instructions, SFPSWAP (argmin/argmax
    // and the comparison's direction), SFPMOV's FROM_SPECIAL, SFPCONFIG (it combines with or
    // keeps the old value), and, through DISABLE_BACKDOOR_LOAD, any instruction whose VD is 12..15.
    let vd = instr.field_values().iter().find(|(n, _)| *n == "VD").map(|&(_, v)| v);
    let mod1 = field(instr, "Mod1");
    let from_special = op == SFPMOV && mod1 & SFPMOV_MOD1_FROM_SPECIAL != 0;
    if matches!(op, SFPLOAD | SFPSTORE | SFPSWAP | SFPCONFIG)
        || from_special
        || (op != SFPCONFIG && vd.is_some_and(|vd| vd >= 12))
    {
        f.insert(LaneConfig);
    }
    // LoadMacroConfig: SFPMOV's FROM_SPECIAL reads a word of it; SFPCONFIG's VD 8 combines with
    // the old Misc.
    let vc = field(instr, "VC");
    if from_special {
        match vc {
            0..=3 => f.insert(InstructionTemplate),
            4..=8 => f.insert(LoadMacroConfig),
            9 => f.insert(Prng),
            _ => {}
        }
    }
    if op == SFPCONFIG && field(instr, "VD") == 8 {
        f.insert(LoadMacroConfig);
    }
    // Wormhole's SFPSHFT2 latch: SUBVEC_SHFLSHR1 reads it.
    if op == SFPSHFT2 && mod1 == SFPSHFT2_MOD1_SUBVEC_SHFLSHR1 {
        f.insert(Sfpshft2Latch);
    }
    // The PRNG: SFPSTOCHRND advances it in every mode, SFPCAST's RNS flavour reads it.
    if op == SFPSTOCHRND || (op == SFPCAST && mod1 & 3 == SFPCAST_MOD1_SM32_TO_FP32_RNS) {
        f.insert(Prng);
    }
    // Dst and its addressing.
    if matches!(op, SFPLOAD | SFPSTORE) {
        for x in [DstInvalidRows, DstDebugAlias, DestRemap, Swizzle32b, AddrMod, Rwc, Sp, DestBase] {
            f.insert(x);
        }
        if field(instr, "Mod0") == MOD0_FMT_SRCB {
            f.insert(SrcbOverride);
            f.insert(DstFormatConfig);
        }
    }
    f
}

/// The features a vector needs, from its initial state and its program (module documentation).
pub fn requires(pre: &State, program: &[Instr]) -> FeatureSet {
    let mut s = pre.clone();
    let mut m = Machine::new();
    let mut out = FeatureSet::EMPTY;
    for instr in program {
        // An SFPLOADMACRO, and any instruction issued while work it scheduled is pending, may
        // meet instructions that observe anything.
        let scheduling = instr.opcode() == Opcode::SFPLOADMACRO || !m.pending().is_empty();
        let seen = if scheduling { FeatureSet::all() } else { observed_by(instr) };
        out = out.union(state_features(&s).intersection(seen));
        m.issue(&mut s, instr);
    }
    if !m.pending().is_empty() {
        // The drain: the scheduled instructions still to run may observe anything.
        out = out.union(state_features(&s));
        m.drain(&mut s);
        out = out.union(state_features(&s));
    }
    out
}

/// Tags for encodings whose behaviour the instruction's pseudocode itself leaves reserved or
/// ignores, for the vectors whose program uses one (`vectors/README.md`, "Tags"):
///
/// * `reserved-encoding`: SFPARECIP `Mod1` 3..15; SFPSTOCHRND `RoundingMode` 3; the float flavours
///   of SFPSTOCHRND with `Imm5` or `UseImm5` set (they ignore both).
/// * `reserved-bits`: `Mod1` bits the pseudocode never reads: SFPABS, SFPEXMAN and SFPSETSGN
///   bits 1..3 (values 2, 4, 8), SFPEXEXP value 4, SFPLZ value 1, SFPMUL24 value 2.
pub fn encoding_tags(program: &[Instr]) -> Vec<&'static str> {
    let mut encoding = false;
    let mut bits = false;
    for instr in program {
        let mod1 = field(instr, "Mod1");
        match instr.opcode() {
            Opcode::SFPARECIP => encoding |= mod1 > SFPARECIP_MOD1_EXP,
            Opcode::SFPSTOCHRND => {
                let float = !matches!(mod1, SFPSTOCHRND_MOD1_INT32_TO_UINT8 | SFPSTOCHRND_MOD1_INT32_TO_INT8);
                encoding |= field(instr, "RoundingMode") == 3
                    || (float && (field(instr, "Imm5") != 0 || field(instr, "UseImm5") != 0));
            }
            Opcode::SFPABS | Opcode::SFPEXMAN | Opcode::SFPSETSGN => bits |= mod1 & 0xE != 0,
            Opcode::SFPEXEXP => bits |= mod1 & 0x4 != 0,
            Opcode::SFPLZ => bits |= mod1 & 0x1 != 0,
            Opcode::SFPMUL24 => bits |= mod1 & 0x2 != 0,
            _ => {}
        }
    }
    let mut tags = Vec::new();
    if encoding {
        tags.push("reserved-encoding");
    }
    if bits {
        tags.push("reserved-bits");
    }
    tags
}

#[cfg(test)]
mod tests {
    use super::*;
    use sfpu_reference::ResetValues;
    use sfpu_reference::state::{FlagStack, FlagStackEntry, LANES, LaneConfig};

    fn i(s: &str) -> Instr {
        sfpu_reference::isa::parse_instr(sfpu_reference::isa::Arch::Blackhole, s).unwrap()
    }

    fn reset() -> State {
        State::reset(sfpu_reference::isa::Arch::Blackhole, &ResetValues::ZEROS)
    }

    #[test]
    fn ids_round_trip_and_are_unique() {
        for &f in Feature::ALL {
            assert_eq!(Feature::from_id(f.id()), Some(f));
        }
        let mut ids: Vec<&str> = Feature::ALL.iter().map(|f| f.id()).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), Feature::ALL.len());
    }

    /// The reset state is the baseline, whatever the program.
    #[test]
    fn reset_is_the_baseline() {
        assert!(state_features(&reset()).is_empty());
        assert!(
            requires(&reset(), &[i("TTI_SFPMAD(0, 1, 2, 3, 0)"), i("TTI_SFPLOADMACRO(0, 3, 0, 0)")])
                .is_empty()
        );
    }

    /// Equal depths are the baseline; different depths are ragged, but only instructions that
    /// touch the stack observe it.
    #[test]
    fn ragged_stacks_matter_to_stack_instructions_only() {
        let mut s = reset();
        for st in s.FlagStack.iter_mut() {
            *st = FlagStack::from_entries(&[FlagStackEntry::default(); 2]).unwrap();
        }
        assert!(state_features(&s).is_empty());
        s.FlagStack[5] = FlagStack::new();
        assert!(state_features(&s).contains(Feature::FlagStackRagged));
        assert!(requires(&s, &[i("TTI_SFPIADD(0, 1, 2, 4)")]).is_empty());
        assert_eq!(requires(&s, &[i("TTI_SFPPOPC(0, 0, 0, 0)")]).to_vec(), [Feature::FlagStackRagged]);
    }

    /// The Dst remap is seen by the Dst instructions only; SRCB's format configuration only in
    /// Mod0 0.
    #[test]
    fn addressing_features_matter_to_dst_instructions() {
        let mut s = reset();
        s.Addressing.DEST_ACCESS_CFG_remap_addrs = true;
        s.Addressing.ALU_FORMAT_SPEC_REG_SrcB_override = true;
        assert!(requires(&s, &[i("TTI_SFPABS(0, 1, 2, 1)")]).is_empty());
        assert_eq!(requires(&s, &[i("TTI_SFPLOAD(0, 3, 0, 0)")]).to_vec(), [Feature::DestRemap]);
        assert_eq!(
            requires(&s, &[i("TTI_SFPSTORE(0, 0, 0, 0)")]).to_vec(),
            [Feature::DestRemap, Feature::SrcbOverride]
        );
    }

    /// A feature the program creates counts when a later instruction observes it.
    #[test]
    fn features_the_program_creates_count_when_observed() {
        let s = reset();
        // SFPCONFIG VD 15 writes LaneConfig from LReg[0] (ROW_MASK bits included); the SFPMAD
        // that follows sees the row mask.
        let mut s2 = s.clone();
        s2.LReg[0] = [0xF000; LANES];
        let p = [i("TTI_SFPCONFIG(0, 15, 0)"), i("TTI_SFPMAD(0, 1, 2, 3, 0)")];
        assert_eq!(requires(&s2, &p).to_vec(), [Feature::RowMask]);
        assert!(requires(&s2, &p[..1]).is_empty(), "writing it is SFPCONFIG's own behaviour");
    }

    #[test]
    fn lane_config_bits() {
        let mut s = reset();
        s.LaneConfig = [LaneConfig::truncating(2); LANES];
        assert!(requires(&s, &[i("TTI_SFPABS(0, 1, 2, 1)")]).is_empty(), "VD 2 passes the guard anyway");
        assert_eq!(requires(&s, &[i("TTI_SFPABS(0, 1, 13, 1)")]).to_vec(), [Feature::LaneConfig]);
        s.UseLaneFlagsForLaneEnable[3] = true;
        assert_eq!(
            requires(&s, &[i("TTI_SFPABS(0, 1, 13, 1)")]).to_vec(),
            [Feature::UseLaneFlagsRagged, Feature::LaneConfig]
        );
    }

    #[test]
    fn encoding_tags_by_hand() {
        assert_eq!(encoding_tags(&[i("TTI_SFPARECIP(0, 1, 2, 3)")]), ["reserved-encoding"]);
        assert!(encoding_tags(&[i("TTI_SFPARECIP(0, 1, 2, 2)")]).is_empty());
        assert_eq!(encoding_tags(&[i("TTI_SFPABS(0, 1, 2, 3)")]), ["reserved-bits"]);
        assert_eq!(encoding_tags(&[i("TTI_SFPLZ(0, 1, 2, 1)")]), ["reserved-bits"]);
        assert!(encoding_tags(&[i("TTI_SFPLZ(0, 1, 2, 2)")]).is_empty());
        assert_eq!(encoding_tags(&[i("TTI_SFPMUL24(1, 2, 3, 4, 2)")]), ["reserved-bits"]);
        assert_eq!(encoding_tags(&[i("TTI_SFPEXEXP(0, 1, 2, 4)")]), ["reserved-bits"]);
    }
}
