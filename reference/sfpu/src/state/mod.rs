//! The architectural state of one Vector Unit (Blackhole A0 or Wormhole B0), and the parts of the
//! Tensix state that its instructions read.
//!
//! Transcribes the state declarations of tt-isa-documentation BlackholeA0 `VectorUnit.md`
//! (@ `f7fda211c86e1977ff430076cf52b96a7aba8cca`; "Lane Predication Masks", "PRNG"), `LReg.md`
//! (@ `1484148400c7063466da07324311a788a487cc42`, a stub pointing to the Wormhole page),
//! `SFPCONFIG.md` (`LaneConfig`), `SFPLOADMACRO.md` (`LoadMacroConfig`), `Dst.md`, and the
//! configuration and RWC fields named by `SFPLOAD.md` / `SFPSTORE.md`. The state knows its chip
//! ([`State::arch`]); what only one chip has is [`Chip`]
//! (`docs/spec/sfpu-wormhole.md#blackhole-only-state-in-a-wormhole-document`): WormholeB0
//! `VectorUnit.md` (@ `135471044308278122aec9664bd5f0935429205f`), `Dst.md`
//! (@ `b7738d9ac14a34a4033d60dde9463466b23082e1`: no remap or swizzle) and `SFPSHFT2.md`
//! (@ `a052bcc95da50343edb5ff0baff874e229266dc0`: the `vc0` latch).
//!
//! Names are the documentation's. Per-lane booleans are `[bool; 32]` here because the reference
//! model is literal; the fast model keeps them as bit masks.
//!
//! Nothing here invents a reset value the documentation does not give: [`State::reset`] takes
//! the unspecified parts from a [`ResetValues`] the caller chooses.

#![allow(non_snake_case, reason = "field names follow the ISA documentation")]

pub mod addressing;
mod dst;
mod dst_views;
mod serde_form;

pub use addressing::{AddrModSlot, Addressing, Rwc};
pub use dst::{
    DST_COLS, DST_ROWS, Dst, DstAccess, DstDecodeBF16, DstDecodeFP16, DstDecodeFP32, DstEncodeBF16,
    DstEncodeFP16, DstEncodeFP32,
};
pub(crate) use serde_form::parse_uint;

use crate::isa::Arch;
pub use serde_form::{
    AddressingDoc, DstDoc, FlagStackDoc, FlagStackLevelDoc, Hex, Index, LaneBits, LoadMacroConfigDoc,
    PerLane, StateDoc, StateError, StateReadError,
};

/// Lanes in the Vector Unit.
pub const LANES: usize = 32;
/// LRegs, including the bonus `LReg[16]`.
pub const NUM_LREGS: usize = 17;
/// Entries each lane's flag stack can hold.
pub const FLAG_STACK_CAPACITY: usize = 8;

// `FlagStack::packed` keeps the depth in 4 bits and each entry's two flags in 8-bit fields.
const _: () = assert!(FLAG_STACK_CAPACITY <= 8);

/// `LReg[8]`: the constant 0.8373. Upstream gives only the decimal; this is the nearest FP32
/// (`docs/spec/sfpu-blackhole.md#lreg-8-value`; the seed's `0x3F566189` is 0.8374258).
pub const LREG8_VALUE: u32 = 0x3F56_594B;
/// `LReg[9]`: the constant 0.
pub const LREG9_VALUE: u32 = 0;
/// `LReg[10]`: the constant 1.0.
pub const LREG10_VALUE: u32 = 0x3F80_0000;

/// `LReg[15]` in `lane`: the integer `2 * lane`.
pub const fn lreg15_value(lane: usize) -> u32 {
    2 * lane as u32
}

/// The fixed value of constant register `reg` (8, 9, 10 or 15) in `lane`, or `None` for a
/// writable register.
pub const fn lreg_constant(reg: usize, lane: usize) -> Option<u32> {
    match reg {
        8 => Some(LREG8_VALUE),
        9 => Some(LREG9_VALUE),
        10 => Some(LREG10_VALUE),
        15 => Some(lreg15_value(lane)),
        _ => None,
    }
}

/// One entry of a lane's flag stack (`VectorUnit.md` `struct FlagStackEntry`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct FlagStackEntry {
    /// The saved `LaneFlags`.
    pub LaneFlags: bool,
    /// The saved `UseLaneFlagsForLaneEnable`.
    pub UseLaneFlagsForLaneEnable: bool,
}

/// One lane's flag stack: at most [`FLAG_STACK_CAPACITY`] entries.
///
/// The capacity is an invariant of the type: [`push`](FlagStack::push) refuses to go past it, so
/// the instructions that would overflow it must say so in their [`Outcome`](crate::Outcome)
/// instead of pushing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct FlagStack {
    entries: [FlagStackEntry; FLAG_STACK_CAPACITY],
    len: u8,
}

/// The error returned when pushing onto a full [`FlagStack`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the flag stack is full ({FLAG_STACK_CAPACITY} entries)")]
pub struct FlagStackFull;

impl FlagStack {
    /// An empty stack.
    pub const fn new() -> FlagStack {
        FlagStack {
            entries: [FlagStackEntry { LaneFlags: false, UseLaneFlagsForLaneEnable: false }; 8],
            len: 0,
        }
    }

    /// A stack holding `entries`, bottom first, or an error if there are too many.
    pub fn from_entries(entries: &[FlagStackEntry]) -> Result<FlagStack, FlagStackFull> {
        let mut stack = FlagStack::new();
        for &e in entries {
            stack.push(e)?;
        }
        Ok(stack)
    }

    /// The number of entries.
    pub const fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether the stack is empty.
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Whether the stack holds [`FLAG_STACK_CAPACITY`] entries.
    pub const fn is_full(&self) -> bool {
        self.len() == FLAG_STACK_CAPACITY
    }

    /// The entries, bottom first.
    pub fn entries(&self) -> &[FlagStackEntry] {
        &self.entries[..self.len()]
    }

    /// The whole stack as one word: the depth in bits 0..4, entry `k`'s `LaneFlags` in bit
    /// `4 + k` and its `UseLaneFlagsForLaneEnable` in bit `12 + k` (the slots above the depth are
    /// always the default entry). Two stacks are equal exactly when their words are; comparing
    /// words needs no branch per entry (the differential fuzzer compares every lane's stack after
    /// every instruction).
    pub fn packed(&self) -> u32 {
        self.entries.iter().enumerate().fold(u32::from(self.len), |w, (k, e)| {
            w | u32::from(e.LaneFlags) << (4 + k) | u32::from(e.UseLaneFlagsForLaneEnable) << (12 + k)
        })
    }

    /// The top entry, if any.
    pub fn top(&self) -> Option<FlagStackEntry> {
        self.entries().last().copied()
    }

    /// The top entry, for modification, if any.
    pub fn top_mut(&mut self) -> Option<&mut FlagStackEntry> {
        let len = self.len();
        self.entries[..len].last_mut()
    }

    /// Pushes `entry`, or returns an error if the stack is full.
    pub fn push(&mut self, entry: FlagStackEntry) -> Result<(), FlagStackFull> {
        if self.is_full() {
            return Err(FlagStackFull);
        }
        self.entries[self.len()] = entry;
        self.len += 1;
        Ok(())
    }

    /// The bottom entry, for modification, if any (Wormhole `SFPPOPC.md`'s `FlagStack.Bottom()`).
    pub fn bottom_mut(&mut self) -> Option<&mut FlagStackEntry> {
        let len = self.len();
        self.entries[..len].first_mut()
    }

    /// Pops the top entry, if any.
    pub fn pop(&mut self) -> Option<FlagStackEntry> {
        let top = self.top()?;
        self.len -= 1;
        self.entries[self.len()] = FlagStackEntry::default();
        Some(top)
    }
}

/// One lane's `LaneConfig`: 18 bits (`SFPCONFIG.md` § "LaneConfig").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct LaneConfig(u32);

/// The error returned when a value does not fit in `LaneConfig`'s 18 bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("LaneConfig is 18 bits wide; 0x{0:x} does not fit")]
pub struct LaneConfigOverflow(pub u32);

impl LaneConfig {
    /// The bits `LaneConfig` has.
    pub const MASK: u32 = 0x3_FFFF;

    /// The value `bits`, or an error if it sets bits above bit 17.
    pub const fn new(bits: u32) -> Result<LaneConfig, LaneConfigOverflow> {
        if bits & !Self::MASK == 0 { Ok(LaneConfig(bits)) } else { Err(LaneConfigOverflow(bits)) }
    }

    /// The low 18 bits of `bits` (a `uint18_t` assignment in the functional models).
    pub const fn truncating(bits: u32) -> LaneConfig {
        LaneConfig(bits & Self::MASK)
    }

    /// The raw 18 bits.
    pub const fn bits(self) -> u32 {
        self.0
    }

    const fn bit(self, n: u32) -> bool {
        (self.0 >> n) & 1 != 0
    }

    /// Bit 0: SFPLOAD FP16 reads the pattern e=31, m=0x3FF as infinity.
    pub const fn ENABLE_FP16A_INF(self) -> bool {
        self.bit(0)
    }
    /// Bit 1: instructions with `VD >= 12` execute rather than being backdoor loads.
    pub const fn DISABLE_BACKDOOR_LOAD(self) -> bool {
        self.bit(1)
    }
    /// Bit 2: SFPSWAP performs argmin/argmax; enables SFPLOAD index capture.
    pub const fn ENABLE_DEST_INDEX(self) -> bool {
        self.bit(2)
    }
    /// Bit 3: with `ENABLE_DEST_INDEX`, SFPLOAD writes the Dst index to `LReg[VD + 4]`.
    pub const fn CAPTURE_DEFAULT_DEST_INDEX(self) -> bool {
        self.bit(3)
    }
    /// Bit 4: SFPSTORE does not write Dst for this lane.
    pub const fn BLOCK_DEST_WR_FROM_SFPU(self) -> bool {
        self.bit(4)
    }
    /// Bit 5: SFPLOAD does not write the LReg for this lane.
    pub const fn BLOCK_SFPU_RD_FROM_DEST(self) -> bool {
        self.bit(5)
    }
    /// Bit 6: SFPLOAD always uses odd columns.
    pub const fn DEST_RD_COL_EXCHANGE(self) -> bool {
        self.bit(6)
    }
    /// Bit 7: SFPSTORE always uses odd columns.
    pub const fn DEST_WR_COL_EXCHANGE(self) -> bool {
        self.bit(7)
    }
    /// Bit 8: SFPSWAP inverts its comparison.
    pub const fn EXCHANGE_SRCB_SRCC(self) -> bool {
        self.bit(8)
    }
    /// Bits `[10:9]`: Matrix Unit column disables (not used by the Vector Unit).
    pub const fn BLOCK_DEST_MOV(self) -> u32 {
        (self.0 >> 9) & 3
    }
    /// Bits `[15:12]`: bit `r` disables row `r` of this column (`IsLaneEnabled`).
    pub const fn ROW_MASK(self) -> u32 {
        (self.0 >> 12) & 0xF
    }
}

/// `LoadMacroConfig.Misc`: 12 bits (`SFPLOADMACRO.md`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Misc(u16);

impl Misc {
    /// The bits `Misc` has.
    pub const MASK: u32 = 0xFFF;

    /// The value `bits`, or `None` if it sets bits above bit 11.
    pub const fn new(bits: u32) -> Option<Misc> {
        if bits & !Self::MASK == 0 { Some(Misc(bits as u16)) } else { None }
    }

    /// The low 12 bits of `bits` (a `uint12_t` assignment in the functional models).
    pub const fn truncating(bits: u32) -> Misc {
        Misc((bits & Self::MASK) as u16)
    }

    /// The raw 12 bits.
    pub const fn bits(self) -> u32 {
        self.0 as u32
    }

    /// Bits `[3:0]`: the Mod0 of scheduled stores when `UsesLoadMod0ForStore` is clear.
    pub const fn StoreMod0(self) -> u32 {
        self.bits() & 0xF
    }
    /// Bits `[7:4]`: bit `k` makes macro `k`'s store use the SFPLOADMACRO's own Mod0.
    pub const fn UsesLoadMod0ForStore(self) -> u32 {
        (self.bits() >> 4) & 0xF
    }
    /// Bits `[11:8]`: bit `i` makes sub-unit `i` wait for elapsed instructions, not cycles.
    pub const fn UnitDelayKind(self) -> u32 {
        (self.bits() >> 8) & 0xF
    }
}

/// One lane's `LoadMacroConfig` (`SFPLOADMACRO.md` § "Functional model").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct LoadMacroConfig {
    /// Arbitrary SFPU instruction words, selected by Sequence selectors 4..7.
    pub InstructionTemplate: [u32; 4],
    /// One word per MacroIndex: byte `i` controls sub-unit `i` (Simple, MAD, Round, Store).
    pub Sequence: [u32; 4],
    /// Store Mod0, per-macro store Mod0 source, and per-sub-unit delay kind.
    pub Misc: Misc,
}

/// The values the documentation leaves unspecified at reset
/// (`docs/spec/sfpu-blackhole.md#reset-values`), which the caller must choose for [`State::reset`].
///
/// Each field is one value used for every lane (or cell) of the state it names.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ResetValues {
    /// `LReg[0..8]`.
    pub general_lregs: u32,
    /// `LReg[11..15]`.
    pub config_lregs: u32,
    /// `LReg[16]`.
    pub lreg16: u32,
    /// `LaneConfig` (the documented `DISABLE_BACKDOOR_LOAD = 0` is applied on top).
    pub lane_config: u32,
    /// Every word of `LoadMacroConfig` (`Misc` keeps the low 12 bits).
    pub load_macro_config: u32,
    /// The PRNG state of every lane.
    pub prng: u32,
    /// Every cell of `DstBits`.
    pub dst: u16,
    /// Every lane of Wormhole's SFPSHFT2 `vc0` latch ([`WormholeState::SFPSHFT2_vc0`]); unused on
    /// Blackhole.
    pub sfpshft2_vc0: u32,
}

impl ResetValues {
    /// Zero for everything unspecified. This is a choice, not a documented reset state; tools
    /// that use it say so.
    pub const ZEROS: ResetValues = ResetValues {
        general_lregs: 0,
        config_lregs: 0,
        lreg16: 0,
        lane_config: 0,
        load_macro_config: 0,
        prng: 0,
        dst: 0,
        sfpshft2_vc0: 0,
    };
}

/// The state only Wormhole keeps: hidden history of the hardware that a golden vector can set and
/// a DUT can report.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct WormholeState {
    /// The `vc0` of WormholeB0 `SFPSHFT2.md`: the `LReg[VC]` that the most recent
    /// `SFPSHFT2_MOD1_SUBVEC_SHFLROR1_AND_COPY4` or `SFPSHFT2_MOD1_SUBVEC_SHFLROR1` with `VD < 12`
    /// read, which `SFPSHFT2_MOD1_SUBVEC_SHFLSHR1` gives lane 0 of each group of 8 (as
    /// `vc0[Lane + 7]`) because of a hardware bug. Its reset value is not documented
    /// ([`ResetValues::sfpshft2_vc0`]).
    pub SFPSHFT2_vc0: [u32; LANES],
}

/// The chip the state belongs to, with the state only that chip has.
///
/// Locations only Blackhole has (the `Sp` RWC, `DEST_SP_BASE_Base`, `SFPU_STACK_Incr`, the
/// `SFPU_DEST_FMT` override, the Dst remap and swizzle bits of [`Addressing`]) stay in
/// [`Addressing`] for both chips; on Wormhole they are never read, hold their defaults, and the
/// serde form refuses to set them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Chip {
    /// Blackhole A0.
    Blackhole,
    /// Wormhole B0, with its own state.
    Wormhole(WormholeState),
}

/// The architectural state of one Vector Unit, plus the Dst register and the Tensix
/// configuration and RWC fields the Vector Unit reads.
///
/// Invariant: `LReg[8]`, `LReg[9]`, `LReg[10]` and `LReg[15]` hold their constants
/// ([`lreg_constant`]); no instruction writes them, and the serde form refuses other values.
///
/// `clone_from` reuses the Dst storage of the state it overwrites (no allocation).
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct State {
    /// `LReg[17][32]`, raw 32-bit patterns (`LReg.md`).
    pub LReg: [[u32; LANES]; NUM_LREGS],
    /// Per-lane condition flags (`VectorUnit.md`).
    pub LaneFlags: [bool; LANES],
    /// Per-lane: whether `LaneFlags` drive lane enable (`VectorUnit.md`).
    pub UseLaneFlagsForLaneEnable: [bool; LANES],
    /// Per-lane flag stacks (`VectorUnit.md`).
    pub FlagStack: [FlagStack; LANES],
    /// Per-lane `LaneConfig` (`SFPCONFIG.md`).
    pub LaneConfig: [LaneConfig; LANES],
    /// Per-lane `LoadMacroConfig` (`SFPLOADMACRO.md`).
    pub LoadMacroConfig: [LoadMacroConfig; LANES],
    /// Per-lane PRNG state: the `State[32]` of `AdvancePRNG` (`VectorUnit.md` § "PRNG").
    pub PRNG: [u32; LANES],
    /// The Dst register (`Dst.md`).
    pub Dst: Dst,
    /// Configuration and RWC state read by SFPLOAD, SFPSTORE and SFPLOADMACRO.
    pub Addressing: Addressing,
    /// The chip, and the state only it has.
    pub Chip: Chip,
}

impl State {
    /// Copies every part of `source` except Dst into `self`, leaving `self.Dst` as it is: for a
    /// caller that lends one Dst to several states instead of copying its 32 KB (the machine's
    /// cycles of several instructions without an SFPSTORE, [`crate::Machine`]).
    pub fn clone_from_except_Dst(&mut self, source: &State) {
        // Every field named, so that a new one cannot be forgotten here.
        let State {
            LReg,
            LaneFlags,
            UseLaneFlagsForLaneEnable,
            FlagStack,
            LaneConfig: lane_config,
            LoadMacroConfig,
            PRNG,
            Dst: _,
            Addressing,
            Chip,
        } = source;
        self.LReg = *LReg;
        self.LaneFlags = *LaneFlags;
        self.UseLaneFlagsForLaneEnable = *UseLaneFlagsForLaneEnable;
        self.FlagStack = *FlagStack;
        self.LaneConfig = *lane_config;
        self.LoadMacroConfig = *LoadMacroConfig;
        self.PRNG = *PRNG;
        self.Addressing = *Addressing;
        self.Chip = *Chip;
    }
}

impl Clone for State {
    fn clone(&self) -> State {
        // Every other field is `Copy` (a new one that is not fails to compile here).
        State { Dst: self.Dst.clone(), ..*self }
    }

    fn clone_from(&mut self, source: &State) {
        self.clone_from_except_Dst(source);
        self.Dst.clone_from(&source.Dst);
    }
}

impl State {
    /// The documented reset state, with `unspecified` supplying what the documentation leaves
    /// open: `LaneFlags` and `UseLaneFlagsForLaneEnable` false and flag stacks empty
    /// (`VectorUnit.md`), `DISABLE_BACKDOOR_LOAD` false (`SFPCONFIG.md`), the constant LRegs, and
    /// every Dst row valid (`Dst.md`), for the chip `arch`. Both chips' pages give the same reset
    /// values (`LReg.md` is shared; both `VectorUnit.md`, `SFPCONFIG.md` and `Dst.md` say the
    /// same); Wormhole's SFPSHFT2 `vc0` latch has none documented and takes
    /// `unspecified.sfpshft2_vc0`.
    pub fn reset(arch: Arch, unspecified: &ResetValues) -> State {
        let mut LReg = [[0u32; LANES]; NUM_LREGS];
        for (reg, row) in LReg.iter_mut().enumerate() {
            for (lane, v) in row.iter_mut().enumerate() {
                *v = match (reg, lreg_constant(reg, lane)) {
                    (_, Some(c)) => c,
                    (0..=7, None) => unspecified.general_lregs,
                    (16, None) => unspecified.lreg16,
                    _ => unspecified.config_lregs,
                };
            }
        }
        let lmc_word = unspecified.load_macro_config;
        State {
            LReg,
            LaneFlags: [false; LANES],
            UseLaneFlagsForLaneEnable: [false; LANES],
            FlagStack: [FlagStack::new(); LANES],
            LaneConfig: [LaneConfig::truncating(unspecified.lane_config & !2); LANES],
            LoadMacroConfig: [LoadMacroConfig {
                InstructionTemplate: [lmc_word; 4],
                Sequence: [lmc_word; 4],
                Misc: Misc::truncating(lmc_word),
            }; LANES],
            PRNG: [unspecified.prng; LANES],
            Dst: Dst::filled(unspecified.dst),
            Addressing: Addressing::default(),
            Chip: match arch {
                Arch::Blackhole => Chip::Blackhole,
                Arch::Wormhole => {
                    Chip::Wormhole(WormholeState { SFPSHFT2_vc0: [unspecified.sfpshft2_vc0; LANES] })
                }
            },
        }
    }

    /// The chip the state belongs to.
    pub fn arch(&self) -> Arch {
        match self.Chip {
            Chip::Blackhole => Arch::Blackhole,
            Chip::Wormhole(_) => Arch::Wormhole,
        }
    }

    /// Wormhole's own state, if this is a Wormhole state.
    pub fn wormhole(&self) -> Option<&WormholeState> {
        match &self.Chip {
            Chip::Wormhole(wh) => Some(wh),
            Chip::Blackhole => None,
        }
    }

    /// Wormhole's own state, for modification, if this is a Wormhole state.
    pub fn wormhole_mut(&mut self) -> Option<&mut WormholeState> {
        match &mut self.Chip {
            Chip::Wormhole(wh) => Some(wh),
            Chip::Blackhole => None,
        }
    }

    /// `IsLaneEnabled(Lane)` (`VectorUnit.md` § "Lane Predication Masks").
    pub fn IsLaneEnabled(&self, Lane: usize) -> bool {
        if (self.LaneConfig[Lane & 7].ROW_MASK() >> (Lane / 8)) & 1 != 0 {
            false
        } else if self.UseLaneFlagsForLaneEnable[Lane] {
            self.LaneFlags[Lane]
        } else {
            true
        }
    }

    /// `AdvancePRNG(Lane)` (`VectorUnit.md` § "PRNG"): returns the old state and
    /// shifts in a new most significant bit, the complement of the parity of bits 31, 21, 1, 0.
    pub fn AdvancePRNG(&mut self, Lane: usize) -> u32 {
        let Result = self.PRNG[Lane];
        let Taps = (Result & 0x8020_0003).count_ones();
        self.PRNG[Lane] = (!Taps << 31) | (Result >> 1);
        Result
    }

    /// Whether every constant LReg holds its constant (the type's invariant).
    pub fn constants_intact(&self) -> bool {
        (0..NUM_LREGS).all(|reg| {
            (0..LANES).all(|lane| lreg_constant(reg, lane).is_none_or(|c| self.LReg[reg][lane] == c))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `packed` by hand for one stack, and equal words exactly for equal stacks (the derived
    /// `PartialEq`, the oracle) over every stack reachable by pushes and pops of up to three
    /// entry kinds.
    #[test]
    fn packed_flag_stacks_are_equal_exactly_when_the_stacks_are() {
        let (t, f) = (true, false);
        let e = |l, u| FlagStackEntry { LaneFlags: l, UseLaneFlagsForLaneEnable: u };
        // Depth 2 | entry 0's LaneFlags (bit 4) | entry 1's UseLaneFlagsForLaneEnable (bit 13).
        assert_eq!(FlagStack::from_entries(&[e(t, f), e(f, t)]).unwrap().packed(), 2 | 1 << 4 | 1 << 13);
        assert_eq!(FlagStack::new().packed(), 0);
        // Every stack reached by sequences of pushes and pops (pops leave default slots behind):
        // no two different stacks share a word (equal stacks share one, `packed` being a function).
        let mut seen = std::collections::HashSet::from([FlagStack::new()]);
        let mut by_word = std::collections::HashMap::new();
        let mut frontier = vec![FlagStack::new()];
        while let Some(s) = frontier.pop() {
            if let Some(other) = by_word.insert(s.packed(), s) {
                assert_eq!(other, s, "two stacks packed to {:#x}", s.packed());
            }
            let mut next = Vec::new();
            for entry in [e(f, f), e(t, f), e(t, t)] {
                let mut p = s;
                if p.push(entry).is_ok() {
                    next.push(p);
                }
            }
            let mut p = s;
            if p.pop().is_some() {
                next.push(p);
            }
            frontier.extend(next.into_iter().filter(|n| seen.insert(*n)));
        }
        // 1 + 3 + ... + 3^8 stacks of depth 0 to 8.
        assert_eq!(seen.len(), 9841);
        assert_eq!(by_word.len(), 9841);
    }

    /// `clone_from` gives a state equal to its source, in every part (each part of the source
    /// differs from the target's), while keeping the target's Dst storage.
    #[test]
    fn clone_from_copies_every_part_into_the_same_storage() {
        let mut source = State::reset(
            Arch::Wormhole,
            &ResetValues {
                general_lregs: 1,
                config_lregs: 2,
                lreg16: 3,
                lane_config: 4,
                load_macro_config: 5,
                prng: 6,
                dst: 7,
                sfpshft2_vc0: 8,
            },
        );
        source.LaneFlags[3] = true;
        source.UseLaneFlagsForLaneEnable[4] = true;
        source.FlagStack[5] = FlagStack::from_entries(&[FlagStackEntry::default()]).unwrap();
        source.Dst.DstRowValid[9] = false;
        source.Addressing.SFPU_DEST_FMT_Base = 0x10;
        let mut target = State::reset(Arch::Blackhole, &ResetValues::ZEROS);
        let (bits, valid) = (target.Dst.DstBits.as_ptr(), target.Dst.DstRowValid.as_ptr());
        target.clone_from(&source);
        assert_eq!(target, source);
        assert_eq!((target.Dst.DstBits.as_ptr(), target.Dst.DstRowValid.as_ptr()), (bits, valid));
        assert_eq!(source.clone(), source);
    }

    #[test]
    fn reset_follows_the_documentation() {
        let s = State::reset(
            Arch::Blackhole,
            &ResetValues { general_lregs: 0xAAAA_AAAA, lane_config: 0x3FFFF, ..ResetValues::ZEROS },
        );
        assert_eq!(s.LReg[0][5], 0xAAAA_AAAA);
        assert_eq!(s.LReg[8][0], 0x3F56_594B);
        assert_eq!(s.LReg[10][31], 0x3F80_0000);
        assert_eq!(s.LReg[15][31], 62);
        assert!(!s.LaneConfig[0].DISABLE_BACKDOOR_LOAD(), "DBL resets to false");
        assert!(s.constants_intact());
        assert!(s.FlagStack.iter().all(FlagStack::is_empty));
    }

    #[test]
    fn lane_enable_truth_table() {
        let mut s = State::reset(Arch::Blackhole, &ResetValues::ZEROS);
        assert!(s.IsLaneEnabled(9));
        s.UseLaneFlagsForLaneEnable[9] = true;
        assert!(!s.IsLaneEnabled(9));
        s.LaneFlags[9] = true;
        assert!(s.IsLaneEnabled(9));
        // ROW_MASK bit 1 of column 1 disables lane 9 (row 1, column 1) but not lane 1 or 10.
        s.LaneConfig[1] = LaneConfig::new(0x2000).unwrap();
        assert!(!s.IsLaneEnabled(9));
        assert!(s.IsLaneEnabled(1));
        assert!(s.IsLaneEnabled(10));
    }

    #[test]
    fn prng_step_by_hand() {
        let mut s = State::reset(Arch::Blackhole, &ResetValues::ZEROS);
        // State 0: parity of no taps is 0, so the new bit 31 is 1.
        assert_eq!(s.AdvancePRNG(0), 0);
        assert_eq!(s.PRNG[0], 0x8000_0000);
        // Bit 31 is a tap: parity 1, new bit 31 is 0.
        assert_eq!(s.AdvancePRNG(0), 0x8000_0000);
        assert_eq!(s.PRNG[0], 0x4000_0000);
        // 0x00000003: taps 1 and 0 set, parity 0 -> new bit 31 = 1.
        s.PRNG[1] = 3;
        s.AdvancePRNG(1);
        assert_eq!(s.PRNG[1], 0x8000_0001);
    }

    #[test]
    fn flag_stack_capacity() {
        let mut st = FlagStack::new();
        for _ in 0..8 {
            st.push(FlagStackEntry::default()).unwrap();
        }
        assert_eq!(st.push(FlagStackEntry::default()), Err(FlagStackFull));
        assert!(st.is_full());
        assert_eq!(st.pop(), Some(FlagStackEntry::default()));
        assert_eq!(st.len(), 7);
    }
}
