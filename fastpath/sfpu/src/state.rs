//! The fast model's architectural state: structure-of-arrays LRegs and bit-sliced predication.
//!
//! Implements the state declarations of BlackholeA0 `VectorUnit.md` ("Lane Predication Masks",
//! "PRNG"), `LReg.md` (WormholeB0 page, shared), `SFPCONFIG.md` (`LaneConfig`),
//! `SFPLOADMACRO.md` (`LoadMacroConfig`) and `Dst.md`.
//!
//! Representation choices:
//! * `LReg[17][32]` is already structure-of-arrays: `lreg[r]` holds one register for all 32 lanes.
//! * Every per-lane boolean is a `u32` mask with bit `i` for lane `i`: `LaneFlags`,
//!   `UseLaneFlagsForLaneEnable`, each flag-stack level, and the per-bit views of `LaneConfig`.
//! * The flag stacks are stored *top-relative* and bit-sliced ([`FlagStacks`]): level 0 is the top
//!   of every lane's stack, level 1 the entry below it, and so on, with an occupancy mask per level
//!   giving each lane's depth (depths may differ per lane). Reading or rewriting the top (the
//!   common case: SFPPUSHC/SFPPOPC modes, SFPCOMPC, SFPGT/SFPLE `MUTATE_STACK`) is one word
//!   operation; a push or pop shifts eight words per array under a lane mask.
//! * `LaneConfig` is kept per lane (lossless) together with derived lane masks, which are
//!   recomputed whenever it is written ([`FastState::set_lane_config`]); that is why the field is
//!   private.
//! * `Dst` and the addressing state reuse the reference crate's plain data types (allowed by the
//!   project's independence rules), so the conversion is a copy.
//! * The chip is part of the state, as in the reference's `State`: fixed when the state is built
//!   (from a `State`'s `Chip`, or [`FastState::reset`]'s `arch`), private, and carrying the state
//!   only Wormhole has (WormholeB0 `SFPSHFT2.md`'s `vc0` latch). Every instruction and the machine
//!   follow it ([`FastState::arch`]).

use crate::locations::{self as footprint, Locations};
use sfpu_reference::isa::Arch;

pub(crate) use crate::lanes::blend_mask;
pub use crate::lanes::expand;
use sfpu_reference::state::{
    Addressing, Chip, Dst, FLAG_STACK_CAPACITY, FlagStack, FlagStackEntry, LaneConfig, LoadMacroConfig, Misc,
    ResetValues, State, WormholeState,
};

/// Every lane.
pub const ALL: u32 = 0xFFFF_FFFF;

/// The words `f(0)`, ..., `f(N - 1)`: `std::array::from_fn` as a plain loop, inlined into its
/// caller. `from_fn` may stay an out-of-line call, and that copy is compiled for the baseline
/// target, not for the SIMD level of the model copy calling it (profiles of SFPLOAD and SFPSTORE
/// showed such calls from the AVX-512 copies; SFPLOAD went from 440 to 335 instructions at the
/// AVX2 level without them).
#[inline(always)]
pub fn per_lane<const N: usize>(f: impl Fn(usize) -> u32) -> [u32; N] {
    let mut r = [0u32; N];
    for (i, v) in r.iter_mut().enumerate() {
        *v = f(i);
    }
    r
}

/// `dst[i] = new[i]` in the lanes of `mask`, unchanged elsewhere (a branch-free blend; the mask
/// from `blend_mask`).
#[inline(always)]
pub fn blend(dst: &mut [u32; 32], new: &[u32; 32], mask: u32) {
    if mask == ALL {
        *dst = *new;
        return;
    }
    let m = blend_mask(mask);
    for i in 0..32 {
        dst[i] = (new[i] & m[i]) | (dst[i] & !m[i]);
    }
}

/// The lanes whose word has its sign bit set (`simd::sign_bits`: one instruction per 8 or 16
/// lanes where the CPU has it; the compiler does not vectorise a 32-lane bit gather by itself).
#[inline(always)]
pub fn sign_mask(v: &[u32; 32]) -> u32 {
    crate::simd::sign_bits(v)
}

/// The lanes whose word is non-zero.
#[inline(always)]
pub fn nonzero_mask(v: &[u32; 32]) -> u32 {
    lanes_where(|i| v[i] != 0)
}

/// The lanes `f` holds for (bit `i` for lane `i`): the per-lane booleans as all-ones words (a
/// vectorised map), gathered by [`sign_mask`].
#[inline(always)]
pub fn lanes_where(f: impl Fn(usize) -> bool) -> u32 {
    sign_mask(&per_lane(|i| if f(i) { !0 } else { 0 }))
}

/// Replicates an 8-bit per-column mask (bit `c` for column `c`) to all four rows.
#[inline(always)]
pub fn columns_to_lanes(cols: u32) -> u32 {
    (cols & 0xFF) * 0x0101_0101
}

/// Bit-sliced, top-relative flag stacks of all 32 lanes (`VectorUnit.md` `FlagStack[32]`).
///
/// `flags[k]` / `uses[k]` hold, for every lane, the `LaneFlags` / `UseLaneFlagsForLaneEnable` of
/// the entry `k` positions below that lane's top; `occ[k]` is the set of lanes whose depth exceeds
/// `k`. Invariants: `occ[k + 1] ⊆ occ[k]`, and `flags`/`uses` bits outside `occ` are zero.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct FlagStacks {
    /// Saved `LaneFlags`, level 0 = top.
    pub flags: [u32; FLAG_STACK_CAPACITY],
    /// Saved `UseLaneFlagsForLaneEnable`, level 0 = top.
    pub uses: [u32; FLAG_STACK_CAPACITY],
    /// Lanes whose stack holds more than `k` entries.
    pub occ: [u32; FLAG_STACK_CAPACITY],
}

impl FlagStacks {
    /// Lanes whose stack is non-empty.
    #[inline(always)]
    pub fn nonempty(&self) -> u32 {
        self.occ[0]
    }

    /// Lanes whose stack holds eight entries.
    #[inline(always)]
    pub fn full(&self) -> u32 {
        self.occ[FLAG_STACK_CAPACITY - 1]
    }

    /// Pushes `{flags, uses}` onto the stacks of the lanes in `m` (which must not be full; full
    /// lanes are excluded here so the capacity invariant holds).
    #[inline(always)]
    pub fn push(&mut self, m: u32, flags: u32, uses: u32) {
        let m = m & !self.full();
        if m == 0 {
            return;
        }
        for k in (1..FLAG_STACK_CAPACITY).rev() {
            self.flags[k] = (self.flags[k - 1] & m) | (self.flags[k] & !m);
            self.uses[k] = (self.uses[k - 1] & m) | (self.uses[k] & !m);
            self.occ[k] = (self.occ[k - 1] & m) | (self.occ[k] & !m);
        }
        self.flags[0] = (flags & m) | (self.flags[0] & !m);
        self.uses[0] = (uses & m) | (self.uses[0] & !m);
        self.occ[0] |= m;
    }

    /// Pops the top entry of the lanes in `m` (empty lanes are left alone).
    #[inline(always)]
    pub fn pop(&mut self, m: u32) {
        let m = m & self.nonempty();
        if m == 0 {
            return;
        }
        for k in 0..FLAG_STACK_CAPACITY - 1 {
            self.flags[k] = (self.flags[k + 1] & m) | (self.flags[k] & !m);
            self.uses[k] = (self.uses[k + 1] & m) | (self.uses[k] & !m);
            self.occ[k] = (self.occ[k + 1] & m) | (self.occ[k] & !m);
        }
        let last = FLAG_STACK_CAPACITY - 1;
        self.flags[last] &= !m;
        self.uses[last] &= !m;
        self.occ[last] &= !m;
    }

    /// Replaces the top entry of the lanes in `m` (which must be non-empty; others are ignored).
    #[inline(always)]
    pub fn set_top(&mut self, m: u32, flags: u32, uses: u32) {
        let m = m & self.occ[0];
        self.flags[0] = (flags & m) | (self.flags[0] & !m);
        self.uses[0] = (uses & m) | (self.uses[0] & !m);
    }

    /// Lane `lane`'s stack in the reference representation.
    pub fn lane_stack(&self, lane: usize) -> FlagStack {
        let bit = 1u32 << (lane & 31);
        let depth = self.occ.iter().filter(|&&o| o & bit != 0).count();
        let entries: Vec<FlagStackEntry> = (0..depth)
            .rev()
            .map(|level| FlagStackEntry {
                LaneFlags: self.flags[level] & bit != 0,
                UseLaneFlagsForLaneEnable: self.uses[level] & bit != 0,
            })
            .collect();
        // `depth <= 8` by construction, so this cannot fail; fall back to empty regardless.
        FlagStack::from_entries(&entries).unwrap_or_default()
    }

    /// Builds the bit-sliced stacks from the reference's per-lane stacks.
    pub fn from_lanes(stacks: &[FlagStack; 32]) -> FlagStacks {
        let mut s = FlagStacks::default();
        for (lane, st) in stacks.iter().enumerate() {
            // Level 0 is the top entry.
            for (level, e) in st.entries().iter().rev().take(FLAG_STACK_CAPACITY).enumerate() {
                s.occ[level] |= 1 << lane;
                s.flags[level] |= u32::from(e.LaneFlags) << lane;
                s.uses[level] |= u32::from(e.UseLaneFlagsForLaneEnable) << lane;
            }
        }
        s
    }
}

/// Per-bit lane masks derived from `LaneConfig` (recomputed on every write).
///
/// Fields named `*_own` use each lane's own `LaneConfig[Lane]`; fields named `*_col` use
/// `LaneConfig[Lane & 7]`, as the pages index those bits (`IsLaneEnabled`,
/// `DEST_RD_COL_EXCHANGE`, `DEST_WR_COL_EXCHANGE`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct LaneConfigMasks {
    /// Bit 0 `ENABLE_FP16A_INF`, per lane.
    pub fp16a_inf: u32,
    /// Bit 1 `DISABLE_BACKDOOR_LOAD`, per lane.
    pub dbl: u32,
    /// Bit 2 `ENABLE_DEST_INDEX`, per lane.
    pub dest_index: u32,
    /// Bit 3 `CAPTURE_DEFAULT_DEST_INDEX`, per lane.
    pub capture_index: u32,
    /// Bit 4 `BLOCK_DEST_WR_FROM_SFPU`, per lane.
    pub block_wr: u32,
    /// Bit 5 `BLOCK_SFPU_RD_FROM_DEST`, per lane.
    pub block_rd: u32,
    /// Bit 6 `DEST_RD_COL_EXCHANGE` of `LaneConfig[Lane & 7]`.
    pub rd_col_x_col: u32,
    /// Bit 7 `DEST_WR_COL_EXCHANGE` of `LaneConfig[Lane & 7]`.
    pub wr_col_x_col: u32,
    /// Bit 8 `EXCHANGE_SRCB_SRCC`, per lane.
    pub exchange: u32,
    /// Lanes disabled by `LaneConfig[Lane & 7].ROW_MASK.Bit[Lane / 8]`.
    pub row_disabled: u32,
}

impl LaneConfigMasks {
    /// Derives the masks from 32 `LaneConfig` words.
    pub fn derive(lc: &[u32; 32]) -> LaneConfigMasks {
        let own = |bit: u32| -> u32 {
            let mut m = 0;
            for (lane, &v) in lc.iter().enumerate() {
                m |= ((v >> bit) & 1) << lane;
            }
            m
        };
        let col = |bit: u32| -> u32 {
            let mut c = 0;
            for (column, &v) in lc.iter().take(8).enumerate() {
                c |= ((v >> bit) & 1) << column;
            }
            columns_to_lanes(c)
        };
        let mut row_disabled = 0;
        for lane in 0..32 {
            if (lc[lane & 7] >> (12 + lane / 8)) & 1 != 0 {
                row_disabled |= 1 << lane;
            }
        }
        LaneConfigMasks {
            fp16a_inf: own(0),
            dbl: own(1),
            dest_index: own(2),
            capture_index: own(3),
            block_wr: own(4),
            block_rd: own(5),
            rd_col_x_col: col(6),
            wr_col_x_col: col(7),
            exchange: own(8),
            row_disabled,
        }
    }
}

/// `LoadMacroConfig[32]` in structure-of-arrays form (`SFPLOADMACRO.md`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct MacroConfig {
    /// `InstructionTemplate[4]`, each for all 32 lanes.
    pub template: [[u32; 32]; 4],
    /// `Sequence[4]`, each for all 32 lanes.
    pub sequence: [[u32; 32]; 4],
    /// `Misc` (12 bits) of each lane.
    pub misc: [u32; 32],
}

/// The state of one Vector Unit plus the Dst register and the addressing state it uses, in the
/// fast model's representation. Converts losslessly to and from [`State`].
///
/// `clone_from` copies into the Dst storage the target already has (no allocation), as the
/// reference `State`'s does, so that a caller restoring a scratch state per pass (`cargo xtask
/// bench`'s SFPI kernels) allocates nothing.
#[derive(Debug, PartialEq, Eq)]
pub struct FastState {
    /// `LReg[17][32]`: `lreg[r][lane]`.
    pub lreg: [[u32; 32]; 17],
    /// `LaneFlags`, bit `i` = lane `i`.
    pub lane_flags: u32,
    /// `UseLaneFlagsForLaneEnable`, bit `i` = lane `i`.
    pub use_flags: u32,
    /// The 32 flag stacks.
    pub stack: FlagStacks,
    /// `LaneConfig[32]` (18 bits each); private so the derived masks stay in step.
    lane_config: [u32; 32],
    /// Masks derived from `lane_config`.
    lc: LaneConfigMasks,
    /// `LoadMacroConfig[32]`.
    pub lmc: MacroConfig,
    /// Per-lane PRNG state.
    pub prng: [u32; 32],
    /// The Dst register.
    pub dst: Dst,
    /// Configuration and RWC state read by SFPLOAD / SFPSTORE / SFPLOADMACRO.
    pub addressing: Addressing,
    /// The chip, with Wormhole's own state; private so that it stays what it was built as.
    chip: Chip,
}

impl Clone for FastState {
    fn clone(&self) -> FastState {
        // Every other field is `Copy` (a new one that is not fails to compile here).
        FastState { dst: self.dst.clone(), ..*self }
    }

    fn clone_from(&mut self, source: &FastState) {
        self.clone_from_except_dst(source);
        self.dst.clone_from(&source.dst);
    }
}

impl FastState {
    /// Copies every part of `source` except Dst into `self`, leaving `self.dst` as it is (as the
    /// reference `State::clone_from_except_Dst`): for a caller that puts back only the Dst rows
    /// it knows have changed (`cargo xtask bench`'s SFPI kernels).
    pub fn clone_from_except_dst(&mut self, source: &FastState) {
        // Every field by name (no `..`), so that a new field cannot be left out.
        let FastState {
            lreg,
            lane_flags,
            use_flags,
            stack,
            lane_config,
            lc,
            lmc,
            prng,
            dst: _,
            addressing,
            chip,
        } = source;
        self.lreg = *lreg;
        self.lane_flags = *lane_flags;
        self.use_flags = *use_flags;
        self.stack = *stack;
        self.lane_config = *lane_config;
        self.lc = *lc;
        self.lmc = *lmc;
        self.prng = *prng;
        self.addressing = *addressing;
        self.chip = *chip;
    }

    /// Converts a reference [`State`] (lossless).
    pub fn from_state(s: &State) -> FastState {
        let (lane_config, lane_flags, use_flags, lmc) = FastState::lane_parts(s);
        FastState {
            lreg: s.LReg,
            lane_flags,
            use_flags,
            stack: FlagStacks::from_lanes(&s.FlagStack),
            lc: LaneConfigMasks::derive(&lane_config),
            lane_config,
            lmc,
            prng: s.PRNG,
            dst: s.Dst.clone(),
            addressing: s.Addressing,
            chip: s.Chip,
        }
    }

    /// `LaneConfig`, `LaneFlags`, `UseLaneFlagsForLaneEnable` and `LoadMacroConfig` of `s` in
    /// this representation.
    fn lane_parts(s: &State) -> ([u32; 32], u32, u32, MacroConfig) {
        let mut lane_config = [0u32; 32];
        let mut lane_flags = 0;
        let mut use_flags = 0;
        let mut lmc = MacroConfig::default();
        for lane in 0..32 {
            lane_config[lane] = s.LaneConfig[lane].bits();
            lane_flags |= (s.LaneFlags[lane] as u32) << lane;
            use_flags |= (s.UseLaneFlagsForLaneEnable[lane] as u32) << lane;
            let c = &s.LoadMacroConfig[lane];
            for k in 0..4 {
                lmc.template[k][lane] = c.InstructionTemplate[k];
                lmc.sequence[k][lane] = c.Sequence[k];
            }
            lmc.misc[lane] = c.Misc.bits();
        }
        (lane_config, lane_flags, use_flags, lmc)
    }

    /// [`FastState::from_state`] into `self`, reusing its Dst storage (no allocation): for a
    /// caller that runs many states in turn, such as the fuzz oracle.
    pub fn assign_from(&mut self, s: &State) {
        *self.dst.DstBits = *s.Dst.DstBits;
        *self.dst.DstRowValid = *s.Dst.DstRowValid;
        let (lane_config, lane_flags, use_flags, lmc) = FastState::lane_parts(s);
        self.lreg = s.LReg;
        self.lane_flags = lane_flags;
        self.use_flags = use_flags;
        self.stack = FlagStacks::from_lanes(&s.FlagStack);
        self.lc = LaneConfigMasks::derive(&lane_config);
        self.lane_config = lane_config;
        self.lmc = lmc;
        self.prng = s.PRNG;
        self.addressing = s.Addressing;
        self.chip = s.Chip;
    }

    /// Converts back to a reference [`State`] (lossless).
    pub fn to_state(&self) -> State {
        let mut lane_flags = [false; 32];
        let mut uses = [false; 32];
        let mut stacks = [FlagStack::new(); 32];
        let mut lcs = [LaneConfig::default(); 32];
        let mut lmcs = [LoadMacroConfig::default(); 32];
        for lane in 0..32 {
            lane_flags[lane] = self.lane_flags >> lane & 1 != 0;
            uses[lane] = self.use_flags >> lane & 1 != 0;
            stacks[lane] = self.stack.lane_stack(lane);
            lcs[lane] = LaneConfig::truncating(self.lane_config[lane]);
            let mut c = LoadMacroConfig::default();
            for k in 0..4 {
                c.InstructionTemplate[k] = self.lmc.template[k][lane];
                c.Sequence[k] = self.lmc.sequence[k][lane];
            }
            c.Misc = Misc::truncating(self.lmc.misc[lane]);
            lmcs[lane] = c;
        }
        State {
            LReg: self.lreg,
            LaneFlags: lane_flags,
            UseLaneFlagsForLaneEnable: uses,
            FlagStack: stacks,
            LaneConfig: lcs,
            LoadMacroConfig: lmcs,
            PRNG: self.prng,
            Dst: self.dst.clone(),
            Addressing: self.addressing,
            Chip: self.chip,
        }
    }

    /// The documented reset state of chip `arch` (`VectorUnit.md`, `SFPCONFIG.md`, `Dst.md`,
    /// `LReg.md`, the same on both chips), with the parts the documentation leaves unspecified
    /// taken from `unspecified` exactly as [`State::reset`] documents it: LaneFlags/Use false,
    /// stacks empty, `DISABLE_BACKDOOR_LOAD` false, constant LRegs, every Dst row valid, and on
    /// Wormhole the SFPSHFT2 `vc0` latch from `unspecified.sfpshft2_vc0`.
    pub fn reset(arch: Arch, unspecified: &ResetValues) -> FastState {
        let mut lreg = [[0u32; 32]; 17];
        for (reg, row) in lreg.iter_mut().enumerate() {
            for (lane, v) in row.iter_mut().enumerate() {
                *v = match reg {
                    0..=7 => unspecified.general_lregs,
                    8 => sfpu_reference::state::LREG8_VALUE,
                    9 => sfpu_reference::state::LREG9_VALUE,
                    10 => sfpu_reference::state::LREG10_VALUE,
                    15 => 2 * lane as u32,
                    16 => unspecified.lreg16,
                    _ => unspecified.config_lregs,
                };
            }
        }
        let lane_config = [unspecified.lane_config & LaneConfig::MASK & !2; 32];
        let w = unspecified.load_macro_config;
        FastState {
            lreg,
            lane_flags: 0,
            use_flags: 0,
            stack: FlagStacks::default(),
            lc: LaneConfigMasks::derive(&lane_config),
            lane_config,
            lmc: MacroConfig { template: [[w; 32]; 4], sequence: [[w; 32]; 4], misc: [w & Misc::MASK; 32] },
            prng: [unspecified.prng; 32],
            dst: Dst::filled(unspecified.dst),
            addressing: Addressing::default(),
            chip: match arch {
                Arch::Blackhole => Chip::Blackhole,
                Arch::Wormhole => {
                    Chip::Wormhole(WormholeState { SFPSHFT2_vc0: [unspecified.sfpshft2_vc0; 32] })
                }
            },
        }
    }

    /// The chip this state belongs to (fixed when the state was built).
    #[inline(always)]
    pub fn arch(&self) -> Arch {
        match self.chip {
            Chip::Blackhole => Arch::Blackhole,
            Chip::Wormhole(_) => Arch::Wormhole,
        }
    }

    /// Whether this is a Wormhole state.
    #[inline(always)]
    pub fn is_wormhole(&self) -> bool {
        matches!(self.chip, Chip::Wormhole(_))
    }

    /// Wormhole's SFPSHFT2 `vc0` latch (WormholeB0 `SFPSHFT2.md`), if this is a Wormhole state.
    #[inline(always)]
    pub fn sfpshft2_vc0(&self) -> Option<&[u32; 32]> {
        match &self.chip {
            Chip::Wormhole(wh) => Some(&wh.SFPSHFT2_vc0),
            Chip::Blackhole => None,
        }
    }

    /// The same, for modification.
    #[inline(always)]
    pub fn sfpshft2_vc0_mut(&mut self) -> Option<&mut [u32; 32]> {
        match &mut self.chip {
            Chip::Wormhole(wh) => Some(&mut wh.SFPSHFT2_vc0),
            Chip::Blackhole => None,
        }
    }

    /// `LaneConfig[lane]` (18 bits).
    #[inline(always)]
    pub fn lane_config(&self, lane: usize) -> u32 {
        self.lane_config[lane & 31]
    }

    /// All 32 `LaneConfig` words.
    #[inline(always)]
    pub fn lane_configs(&self) -> &[u32; 32] {
        &self.lane_config
    }

    /// Replaces all 32 `LaneConfig` words (truncated to 18 bits) and refreshes the derived masks.
    pub fn set_lane_configs(&mut self, lc: &[u32; 32]) {
        for lane in 0..32 {
            self.lane_config[lane] = lc[lane] & LaneConfig::MASK;
        }
        self.lc = LaneConfigMasks::derive(&self.lane_config);
    }

    /// Sets `LaneConfig[lane]` (truncated to 18 bits) and refreshes the derived masks.
    pub fn set_lane_config(&mut self, lane: usize, value: u32) {
        let mut lc = self.lane_config;
        lc[lane & 31] = value;
        self.set_lane_configs(&lc);
    }

    /// The masks derived from `LaneConfig`.
    #[inline(always)]
    pub fn lc(&self) -> &LaneConfigMasks {
        &self.lc
    }

    /// `IsLaneEnabled` for all lanes (`VectorUnit.md`): not ROW_MASKed, and `LaneFlags` if
    /// `UseLaneFlagsForLaneEnable`.
    ///
    /// The two flag words are read one word each (`simd::load_word`): left to itself the
    /// compiler reads them, inlined into an instruction's model, as part of one 64-byte vector load,
    /// which cannot take `LaneFlags` from the 4-byte store of the instruction before (SFPIADD,
    /// SFPSETCC, SFPLZ, ... write it) and waits until that store reaches the cache: about a quarter
    /// of an SFPIADD's time on an Intel (Emerald Rapids) host.
    #[inline(always)]
    pub fn enabled(&self) -> u32 {
        let lane_flags = crate::simd::load_word(&self.lane_flags);
        let use_flags = crate::simd::load_word(&self.use_flags);
        !self.lc.row_disabled & (!use_flags | lane_flags)
    }

    /// `AdvancePRNG` (`VectorUnit.md`) for the lanes in `m`; returns every lane's *old* state
    /// (lanes outside `m` are not advanced).
    #[inline(always)]
    pub fn advance_prng(&mut self, m: u32) -> [u32; 32] {
        let old = self.prng;
        let mut new = [0u32; 32];
        for i in 0..32 {
            let r = old[i];
            // `~popcount(r & 0x8020_0003) << 31` keeps only the count's parity: the XOR of the
            // four tap bits (31, 21, 1, 0), which vectorises where a popcount does not.
            let taps = (r >> 31) ^ (r >> 21) ^ (r >> 1) ^ r;
            new[i] = ((!taps) << 31) | (r >> 1);
        }
        blend(&mut self.prng, &new, m);
        old
    }
}

/// Everything in [`FastState`] except Dst: what one instruction of a multi-instruction cycle can
/// change besides Dst. A plain `Copy` value (a few KB), used by the machine to give every
/// instruction of a cycle the start-of-cycle view without cloning the 32 KB Dst; only the parts
/// some instruction of the cycle may write are copied ([`crate::footprint::Locations`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Core {
    pub lreg: [[u32; 32]; 17],
    pub lane_flags: u32,
    pub use_flags: u32,
    pub stack: FlagStacks,
    pub lane_config: [u32; 32],
    pub lmc: MacroConfig,
    pub prng: [u32; 32],
    pub addressing: Addressing,
}

impl FastState {
    /// Copies the parts of the non-Dst state in `m` (see [`crate::footprint`]) into `c`.
    #[inline(always)]
    pub(crate) fn save_core(&self, c: &mut Core, m: Locations) {
        let mut regs = m & 0x1_FFFF;
        while regs != 0 {
            let r = regs.trailing_zeros() as usize;
            regs &= regs - 1;
            c.lreg[r] = self.lreg[r];
        }
        if m & footprint::PREDICATION != 0 {
            c.lane_flags = self.lane_flags;
            c.use_flags = self.use_flags;
            c.stack = self.stack;
        }
        if m & footprint::LANE_CONFIG != 0 {
            c.lane_config = self.lane_config;
        }
        if m & footprint::MACRO_CONFIG != 0 {
            c.lmc = self.lmc;
        }
        if m & footprint::PRNG != 0 {
            c.prng = self.prng;
        }
        if m & (footprint::RWC | footprint::ADDR_CONFIG) != 0 {
            c.addressing = self.addressing;
        }
    }

    /// Replaces the parts of the non-Dst state in `m` with those of `c`.
    #[inline(always)]
    pub(crate) fn restore_core(&mut self, c: &Core, m: Locations) {
        let mut regs = m & 0x1_FFFF;
        while regs != 0 {
            let r = regs.trailing_zeros() as usize;
            regs &= regs - 1;
            self.lreg[r] = c.lreg[r];
        }
        if m & footprint::PREDICATION != 0 {
            self.lane_flags = c.lane_flags;
            self.use_flags = c.use_flags;
            self.stack = c.stack;
        }
        if m & footprint::LANE_CONFIG != 0 && self.lane_config != c.lane_config {
            self.lane_config = c.lane_config;
            self.lc = LaneConfigMasks::derive(&self.lane_config);
        }
        if m & footprint::MACRO_CONFIG != 0 {
            self.lmc = c.lmc;
        }
        if m & footprint::PRNG != 0 {
            self.prng = c.prng;
        }
        if m & (footprint::RWC | footprint::ADDR_CONFIG) != 0 {
            self.addressing = c.addressing;
        }
    }
}

impl Core {
    /// Folds the changes the state `after` holds relative to `base` into `self` (which started as
    /// `base` and may hold other instructions' changes), looking only at the parts in `m` (the
    /// others are not kept up to date in these copies). Returns whether some location was changed
    /// to two different values. `after` is the live state, read in place (no copy of it).
    #[inline(always)]
    pub(crate) fn merge(&mut self, base: &Core, after: &FastState, m: Locations) -> bool {
        let mut conflict = false;
        // Word locations (an LReg lane, a configuration word, a PRNG state): a conflict is two
        // instructions changing the same word to different values; the later one wins.
        // (Branch-free, so that the compiler vectorises it.)
        fn words(acc: &mut [u32], base: &[u32], after: &[u32], conflict: &mut bool) {
            let mut clash = false;
            for i in 0..acc.len() {
                let changed = after[i] != base[i];
                clash |= changed & (acc[i] != base[i]) & (acc[i] != after[i]);
                acc[i] = if changed { after[i] } else { acc[i] };
            }
            *conflict |= clash;
        }
        // Bit locations (one lane's flag or stack bit).
        fn bits(acc: &mut [u32], base: &[u32], after: &[u32], conflict: &mut bool) {
            for i in 0..acc.len() {
                let changed = after[i] ^ base[i];
                if changed != 0 {
                    if changed & (acc[i] ^ base[i]) & (acc[i] ^ after[i]) != 0 {
                        *conflict = true;
                    }
                    acc[i] = (acc[i] & !changed) | (after[i] & changed);
                }
            }
        }
        let mut regs = m & 0x1_FFFF;
        while regs != 0 {
            let r = regs.trailing_zeros() as usize;
            regs &= regs - 1;
            words(&mut self.lreg[r], &base.lreg[r], &after.lreg[r], &mut conflict);
        }
        if m & footprint::PREDICATION != 0 {
            // One lane's flag is one location, as in the reference (per-lane `bool`s).
            let mut f = [self.lane_flags, self.use_flags];
            let (b, a) = ([base.lane_flags, base.use_flags], [after.lane_flags, after.use_flags]);
            bits(&mut f, &b, &a, &mut conflict);
            self.lane_flags = f[0];
            self.use_flags = f[1];
            bits(&mut self.stack.flags, &base.stack.flags, &after.stack.flags, &mut conflict);
            bits(&mut self.stack.uses, &base.stack.uses, &after.stack.uses, &mut conflict);
            bits(&mut self.stack.occ, &base.stack.occ, &after.stack.occ, &mut conflict);
        }
        if m & footprint::LANE_CONFIG != 0 {
            words(&mut self.lane_config, &base.lane_config, &after.lane_config, &mut conflict);
        }
        if m & footprint::MACRO_CONFIG != 0 {
            for k in 0..4 {
                let (t, q) = (&mut self.lmc.template[k], &mut self.lmc.sequence[k]);
                words(t, &base.lmc.template[k], &after.lmc.template[k], &mut conflict);
                words(q, &base.lmc.sequence[k], &after.lmc.sequence[k], &mut conflict);
            }
            words(&mut self.lmc.misc, &base.lmc.misc, &after.lmc.misc, &mut conflict);
        }
        if m & footprint::PRNG != 0 {
            words(&mut self.prng, &base.prng, &after.prng, &mut conflict);
        }
        if m & (footprint::RWC | footprint::ADDR_CONFIG) != 0 {
            // Without an addressing-configuration write in the cycle only the counters can differ
            // (comparing the whole configuration was a tenth of an SFPLOADMACRO cycle's time).
            let differ = |a: &Addressing, b: &Addressing| {
                if m & footprint::ADDR_CONFIG != 0 { a != b } else { a.RWC != b.RWC }
            };
            if differ(&after.addressing, &base.addressing) {
                if differ(&self.addressing, &base.addressing) && differ(&self.addressing, &after.addressing) {
                    conflict = true;
                }
                self.addressing = after.addressing;
            }
        }
        conflict
    }
}
