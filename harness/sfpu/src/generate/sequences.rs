//! Cases that need more than one register file's worth of setup: the Dst instructions (every Mod0
//! with addressing variants) and the multi-instruction sequences of `sequences.yaml`.

use sfpu_reference::isa::{Arch, Instr, Opcode, parse_program};
use sfpu_reference::ops::blackhole::load_store::ComputeAddr;
use sfpu_reference::state::{AddrModSlot, LANES, LaneConfig, State};

use super::case::{Case, build_for};
use super::modes::{modes_for, spread_modes_for};
use super::operands::*;

/// A Blackhole program literal of this file.
fn program(text: &str) -> Vec<Instr> {
    program_for(Arch::Blackhole, text).unwrap_or_default()
}

/// A program literal of this file for `arch`, or `None` if the chip cannot express it (an
/// instruction Wormhole lacks, or a field its encoding does not have).
fn program_for(arch: Arch, text: &str) -> Option<Vec<Instr>> {
    match parse_program(arch, text) {
        Ok(p) => Some(p.into_iter().map(|l| l.instr).collect()),
        Err(_) if arch != Arch::Blackhole => None,
        // The programs are literals of this file; a typo is a bug here, found by the tests.
        Err(e) => panic!("sequence program does not parse: {e}\n{text}"),
    }
}

/// The initial state of a sequence: the reset state of `arch`, with every lane's PRNG seeded
/// differently only for the sequences that consume it (`with_prng`).
fn base_for(arch: Arch, rng: &mut Rng, with_prng: bool) -> State {
    let mut s = State::reset(arch, &sfpu_reference::ResetValues::ZEROS);
    if with_prng {
        s.PRNG = std::array::from_fn(|_| rng.u32());
    }
    s
}

/// Fills the Dst rows an access of `instr` (SFPLOAD/SFPSTORE/SFPLOADMACRO) can touch with random
/// bits, in both the 16-bit and the 32-bit view.
fn fill_dst(rng: &mut Rng, s: &mut State, mod0: u32, imm10: u32) {
    for load in [true, false] {
        let mut scratch = s.clone();
        let addr = match s.arch() {
            Arch::Blackhole => ComputeAddr(&mut scratch, mod0, imm10, load),
            Arch::Wormhole => sfpu_reference::ops::wormhole::load_store::ComputeAddr(&scratch, mod0, imm10),
        };
        for k in 0..4 {
            let row = ((addr & !3) + k) & 0x3FF;
            let a16 = s.Addressing.Adj16(row) as usize;
            let a32 = s.Addressing.Adj32(row) as usize;
            for r in [a16, a32, a32 + 8] {
                s.Dst.DstBits[r] = std::array::from_fn(|_| rng.u32() as u16);
            }
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum MemVariant {
    /// No addressing state; SFPLOADMACRO with its macro configured (`load-macro-config`,
    /// `instruction-template`).
    Basic,
    /// RWCs, an address modifier and the Dst bases together (mixed).
    Counters,
    /// Lane flags driving the enable.
    LaneFlags,
    /// LaneConfig bits per column, one column with a ROW_MASK, and for `MOD0_FMT_SRCB` the SrcB
    /// override (mixed).
    LaneConfigBits,
    /// The Dst stack pointer (and for `MOD0_FMT_SRCB` the Blackhole SFPU_DEST_FMT).
    StackPointer,
    /// The Dst remap, the 32-bit swizzle and ExtraAddrModBit together (mixed).
    Remap,
    /// VD in 8..=11 with DISABLE_BACKDOOR_LOAD set.
    DroppedVd,
    /// VD in 8..=11 with DISABLE_BACKDOOR_LOAD clear (no backdoor below 12).
    Vd8Dbl0,
    /// VD in 12..=15 with DISABLE_BACKDOOR_LOAD set (no backdoor load).
    Vd12Dbl1,
    /// VD in 12..=15 with DISABLE_BACKDOOR_LOAD clear: a backdoor load (unspecified).
    Backdoor,
    /// SFPLOADMACRO with an all-zero LoadMacroConfig: nothing scheduled (the baseline).
    Unconfigured,
    /// Only `RWC.Dst` (and the other counters) non-zero, the address modifier the identity.
    OnlyRwc,
    /// Only the address modifier the instruction names.
    OnlyAddrMod,
    /// Only `DEST_REGW_BASE_Base` and `DEST_TARGET_REG_CFG_MATH_Offset`.
    OnlyDestBase,
    /// Only the Dst stack pointer state.
    OnlySp,
    /// Only `DEST_ACCESS_CFG_remap_addrs`, at an address the remap moves.
    OnlyRemap,
    /// Only `DEST_ACCESS_CFG_swizzle_32b`, at an address the swizzle moves.
    OnlySwizzle,
    /// Only a ROW_MASK per column.
    OnlyRowMask,
    /// Only the LaneConfig bits the instruction reads, per column.
    OnlyLaneConfig,
    /// Only `UseLaneFlagsForLaneEnable` different between lanes.
    OnlyUseFlagsRagged,
    /// Only the SrcB override (`MOD0_FMT_SRCB`), selecting an FP16-family format.
    OnlySrcbOverride,
    /// Only `ALU_ACC_CTRL_SFPU_Fp32_enabled` (`MOD0_FMT_SRCB`).
    OnlyFormatFp32,
    /// Only `ALU_FORMAT_SPEC_REG1_SrcB`, an FP16-family format (`MOD0_FMT_SRCB`).
    OnlyFormatSrcb,
    /// Only Blackhole's `SFPU_DEST_FMT_Enable` with an FP16-family base (`MOD0_FMT_SRCB`).
    OnlyFormatDestFmt,
    /// SFPLOADMACRO with only `Sequence` and `Misc` set: scheduled stores and SFPNOPs, no templates.
    OnlyLoadMacroConfig,
    /// SFPLOADMACRO with only the instruction templates set (nothing scheduled).
    OnlyInstructionTemplate,
    /// SFPLOADMACRO with only `LReg[16]` non-zero (nothing scheduled to read it).
    OnlyLreg16,
    /// SFPLOADMACRO with only a random PRNG state (nothing scheduled to read it).
    OnlyPrng,
    /// Some Dst rows invalid, away from the rows the instruction accesses.
    OnlyDstInvalidRows,
    /// `DBG_FEATURE_DISABLE` bit 11 (16-bit accesses alias the high half of 32-bit ones:
    /// undefined for them, no effect on 32-bit accesses).
    OnlyDstDebugAlias,
}

impl MemVariant {
    fn name(self) -> &'static str {
        match self {
            MemVariant::Basic => "basic",
            MemVariant::Counters => "rwc-and-addrmod",
            MemVariant::LaneFlags => "lane-flags",
            MemVariant::LaneConfigBits => "lane-config",
            MemVariant::StackPointer => "stack-pointer",
            MemVariant::Remap => "remap-swizzle",
            MemVariant::DroppedVd => "vd-8-11",
            MemVariant::Vd8Dbl0 => "vd-8-11-dbl0",
            MemVariant::Vd12Dbl1 => "vd-12-15-dbl1",
            MemVariant::Backdoor => "vd-12-15-backdoor",
            MemVariant::Unconfigured => "unconfigured",
            MemVariant::OnlyRwc => "only-rwc",
            MemVariant::OnlyAddrMod => "only-addr-mod",
            MemVariant::OnlyDestBase => "only-dest-base",
            MemVariant::OnlySp => "only-sp",
            MemVariant::OnlyRemap => "only-dest-remap",
            MemVariant::OnlySwizzle => "only-swizzle-32b",
            MemVariant::OnlyRowMask => "only-row-mask",
            MemVariant::OnlyLaneConfig => "only-lane-config",
            MemVariant::OnlyUseFlagsRagged => "only-use-lane-flags-ragged",
            MemVariant::OnlySrcbOverride => "only-srcb-override",
            MemVariant::OnlyFormatFp32 => "only-dst-format-fp32",
            MemVariant::OnlyFormatSrcb => "only-dst-format-srcb",
            MemVariant::OnlyFormatDestFmt => "only-dst-format-dest-fmt",
            MemVariant::OnlyLoadMacroConfig => "only-load-macro-config",
            MemVariant::OnlyInstructionTemplate => "only-instruction-template",
            MemVariant::OnlyLreg16 => "only-lreg16",
            MemVariant::OnlyPrng => "only-prng",
            MemVariant::OnlyDstInvalidRows => "only-dst-invalid-rows",
            MemVariant::OnlyDstDebugAlias => "only-dst-debug-alias",
        }
    }

    /// The variants whose SFPLOADMACRO cases have the whole macro configured (the mixed variants,
    /// which combine several features: `basic` and the others below).
    fn configures_macro(self) -> bool {
        matches!(
            self,
            MemVariant::Basic
                | MemVariant::Counters
                | MemVariant::LaneFlags
                | MemVariant::LaneConfigBits
                | MemVariant::StackPointer
                | MemVariant::Remap
        )
    }
}

/// The addressing variants of `op`'s cases in `mode` (canonical form): the mixed cases (`basic`,
/// `rwc-and-addrmod`, `lane-config`, `remap-swizzle`, ...), then one case per feature these pages
/// read, adding just that feature to the baseline.
fn memory_variants(arch: Arch, op: Opcode, mode: &str) -> Vec<MemVariant> {
    let mut variants = memory_variants_blackhole(arch, op, mode);
    if arch == Arch::Wormhole {
        // Wormhole has no Dst stack pointer, no SFPU_DEST_FMT and no Dst remap or swizzle
        // (`docs/spec/sfpu-wormhole.md#blackhole-only-state-in-a-wormhole-document`): the variants
        // that set them do not exist there.
        variants.retain(|v| {
            !matches!(
                v,
                MemVariant::StackPointer
                    | MemVariant::Remap
                    | MemVariant::OnlySp
                    | MemVariant::OnlyRemap
                    | MemVariant::OnlySwizzle
                    | MemVariant::OnlyFormatDestFmt
            )
        });
    }
    variants
}

fn memory_variants_blackhole(arch: Arch, op: Opcode, mode: &str) -> Vec<MemVariant> {
    use MemVariant::*;
    let mut variants = vec![Basic, Counters, LaneFlags, LaneConfigBits, StackPointer, Remap];
    if op != Opcode::SFPLOADMACRO {
        variants.extend([DroppedVd, Vd8Dbl0, Vd12Dbl1, Backdoor]);
    } else {
        variants.extend([Unconfigured, OnlyLoadMacroConfig, OnlyInstructionTemplate, OnlyLreg16, OnlyPrng]);
    }
    variants.extend([
        OnlyRwc,
        OnlyAddrMod,
        OnlyDestBase,
        OnlySp,
        OnlyRemap,
        OnlySwizzle,
        OnlyRowMask,
        OnlyLaneConfig,
    ]);
    variants.extend([OnlyDstInvalidRows, OnlyDstDebugAlias]);
    if spread_modes_for(arch, op).iter().any(|m| m == mode) {
        variants.push(OnlyUseFlagsRagged);
    }
    if mode == "mod0=0" {
        variants.extend([OnlySrcbOverride, OnlyFormatFp32, OnlyFormatSrcb, OnlyFormatDestFmt]);
    }
    variants
}

/// SFPLOAD, SFPSTORE and SFPLOADMACRO: every Mod0 value with every addressing variant.
pub fn memory_cases(arch: Arch, op: Opcode, rng: &mut Rng) -> Vec<Case> {
    let mut cases = Vec::new();
    for (mode, label) in modes_for(arch, op) {
        for variant in memory_variants(arch, op, &mode) {
            cases.push(memory_case(arch, op, &mode, &label, variant, rng));
        }
    }
    cases
}

/// A random case of SFPLOAD, SFPSTORE or SFPLOADMACRO with the given mode.
pub fn random_memory_case(arch: Arch, op: Opcode, mode: &str, label: &str, rng: &mut Rng) -> Case {
    let variants = memory_variants(arch, op, mode);
    let variant = variants[rng.below(variants.len() as u32) as usize];
    memory_case(arch, op, mode, label, variant, rng)
}

/// The Tensix format codes `MOD0_FMT_SRCB` resolves to FP16 mode (not BF16): FP16, BFP8a, BFP4a,
/// FP8, BFP2a, INT8 (`SFPLOAD.md`).
const FP16_FAMILY: [u16; 6] = [1, 2, 3, 10, 11, 14];

/// An `Imm10` (even, in the first 64 rows) whose aligned group of rows `pred` accepts.
fn imm10_where(rng: &mut Rng, pred: impl Fn(u32) -> bool) -> u32 {
    loop {
        let imm10 = rng.below(32) * 2;
        if pred(imm10 & !3) {
            return imm10;
        }
    }
}

/// One case of SFPLOAD, SFPSTORE or SFPLOADMACRO.
fn memory_case(arch: Arch, op: Opcode, mode: &str, label: &str, variant: MemVariant, rng: &mut Rng) -> Case {
    let mod0: u32 = mode.trim_start_matches("mod0=").parse().unwrap_or(0);
    let mut s = State::reset(arch, &sfpu_reference::ResetValues::ZEROS);
    let vd = match variant {
        MemVariant::DroppedVd | MemVariant::Vd8Dbl0 => 8 + rng.below(4),
        MemVariant::Vd12Dbl1 | MemVariant::Backdoor => 12 + rng.below(4),
        _ => rng.below(8),
    };
    // Bits 3..5 of the row (Adj16's remap rotates them) not all equal, so the remap moves it;
    // bits 2..4 (Adj32's swizzle) likewise.
    let moved = |row: u32, lo: u32| !matches!((row >> lo) & 7, 0 | 7);
    let imm10 = match variant {
        MemVariant::OnlyRemap => imm10_where(rng, |row| moved(row, 3)),
        MemVariant::OnlySwizzle => imm10_where(rng, |row| moved(row, 2)),
        _ => rng.below(32) * 2 + (variant == MemVariant::Counters) as u32 * 2,
    };
    let addr_mod = rng.below(8);
    let counters_slot = AddrModSlot {
        DestIncr: 4,
        SrcAIncr: 1,
        SrcBCR: true,
        SrcBIncr: 2,
        BiasIncr: 1,
        ..AddrModSlot::default()
    };
    match variant {
        MemVariant::Counters => {
            s.Addressing.RWC.Dst = 4 * rng.below(16) as u16;
            s.Addressing.DEST_REGW_BASE_Base = 8;
            s.Addressing.DEST_TARGET_REG_CFG_MATH_Offset = 16;
            s.Addressing.ADDR_MOD[addr_mod as usize] = counters_slot;
        }
        MemVariant::OnlyRwc => {
            let r = &mut s.Addressing.RWC;
            r.Dst = 4 * (1 + rng.below(15)) as u16;
            r.Dst_Cr = 4 * rng.below(16) as u16;
            r.SrcA = rng.below(64) as u16;
            r.SrcB = rng.below(64) as u16;
        }
        MemVariant::OnlyAddrMod => s.Addressing.ADDR_MOD[addr_mod as usize] = counters_slot,
        MemVariant::OnlyDestBase => {
            s.Addressing.DEST_REGW_BASE_Base = 8;
            s.Addressing.DEST_TARGET_REG_CFG_MATH_Offset = 16;
        }
        MemVariant::LaneFlags => {
            for l in 0..LANES {
                s.UseLaneFlagsForLaneEnable[l] = true;
                s.LaneFlags[l] = (0x9A5C_36E1u32 >> l) & 1 != 0;
            }
        }
        MemVariant::OnlyUseFlagsRagged => {
            let (use_flags, flags) = (rng.u32() | 1, rng.u32());
            for l in 0..LANES {
                s.UseLaneFlagsForLaneEnable[l] = (use_flags >> l) & 1 != 0 && l != 1;
                s.LaneFlags[l] = (flags >> l) & 1 != 0;
            }
        }
        MemVariant::LaneConfigBits | MemVariant::OnlyLaneConfig => {
            // Per column: FP16A infinity, index capture, column exchange, blocking.
            let only = variant == MemVariant::OnlyLaneConfig;
            for l in 0..LANES {
                let c = (l & 7) as u32;
                let bits = match c {
                    0 => 0x01,            // ENABLE_FP16A_INF
                    1 => 0x0C,            // ENABLE_DEST_INDEX | CAPTURE_DEFAULT_DEST_INDEX
                    2 => 0x40 | 0x80,     // DEST_RD_COL_EXCHANGE | DEST_WR_COL_EXCHANGE
                    3 => 0x10,            // BLOCK_DEST_WR_FROM_SFPU
                    4 => 0x20,            // BLOCK_SFPU_RD_FROM_DEST
                    5 if !only => 0x2000, // ROW_MASK row 1 (the mixed case only)
                    6 if only => 0x40,    // DEST_RD_COL_EXCHANGE alone
                    7 if only => 0x80,    // DEST_WR_COL_EXCHANGE alone
                    _ => 0x00,
                };
                s.LaneConfig[l] = LaneConfig::truncating(bits);
            }
        }
        MemVariant::OnlyRowMask => {
            for l in 0..LANES {
                let rows = (l as u32 & 7) * 2 + 1;
                s.LaneConfig[l] = LaneConfig::truncating((rows & 0xF) << 12);
            }
        }
        MemVariant::StackPointer | MemVariant::OnlySp => {
            s.Addressing.RWC.Sp = 8 + 4 * rng.below(8) as u16;
            s.Addressing.SFPU_STACK_Incr = 4;
            s.Addressing.DEST_SP_BASE_Base = 1 + rng.below(3) as u16;
        }
        MemVariant::Remap => {
            s.Addressing.DEST_ACCESS_CFG_remap_addrs = true;
            s.Addressing.DEST_ACCESS_CFG_swizzle_32b = true;
            s.Addressing.RWC.ExtraAddrModBit = 1; // the Blackhole addr-mod reading differs here
        }
        MemVariant::OnlyRemap => s.Addressing.DEST_ACCESS_CFG_remap_addrs = true,
        MemVariant::OnlySwizzle => s.Addressing.DEST_ACCESS_CFG_swizzle_32b = true,
        MemVariant::DroppedVd | MemVariant::Vd12Dbl1 => {
            for l in 0..LANES {
                s.LaneConfig[l] = LaneConfig::truncating(2); // DISABLE_BACKDOOR_LOAD
            }
        }
        MemVariant::OnlySrcbOverride => {
            s.Addressing.ALU_FORMAT_SPEC_REG_SrcB_override = true;
            s.Addressing.ALU_FORMAT_SPEC_REG_SrcB_val = rng.pick(&FP16_FAMILY);
        }
        MemVariant::OnlyFormatFp32 => s.Addressing.ALU_ACC_CTRL_SFPU_Fp32_enabled = true,
        MemVariant::OnlyFormatSrcb => s.Addressing.ALU_FORMAT_SPEC_REG1_SrcB = rng.pick(&FP16_FAMILY),
        MemVariant::OnlyFormatDestFmt => {
            s.Addressing.SFPU_DEST_FMT_Enable = true;
            s.Addressing.SFPU_DEST_FMT_Base = rng.pick(&FP16_FAMILY);
        }
        MemVariant::OnlyLreg16 => s.LReg[16] = bits_random(rng),
        MemVariant::OnlyPrng => s.PRNG = bits_random(rng),
        MemVariant::OnlyDstInvalidRows => {
            // Rows 512 and up, which no access of these cases reaches; and in every other mode
            // value one row the access reaches (reading it, or writing only some of its columns,
            // is undefined behaviour, which the outcome names).
            for _ in 0..4 {
                s.Dst.DstRowValid[512 + rng.below(512) as usize] = false;
            }
            if mod0 % 2 == 1 {
                // Both views' physical rows: the 16-bit and the 32-bit accesses reach one each.
                let row = (imm10 & !3) + rng.below(4);
                s.Dst.DstRowValid[s.Addressing.Adj16(row) as usize] = false;
                s.Dst.DstRowValid[s.Addressing.Adj32(row) as usize] = false;
            }
        }
        MemVariant::OnlyDstDebugAlias => s.Addressing.DBG_FEATURE_DISABLE_bit11 = true,
        _ => {}
    }
    if mod0 == 0 {
        // MOD0_FMT_SRCB resolution in the mixed cases: vary the format configuration by variant.
        match variant {
            MemVariant::Counters => s.Addressing.ALU_FORMAT_SPEC_REG1_SrcB = 5, // BF16 -> BF16 mode
            MemVariant::LaneConfigBits => {
                s.Addressing.ALU_FORMAT_SPEC_REG_SrcB_override = true;
                s.Addressing.ALU_FORMAT_SPEC_REG_SrcB_val = 8; // INT32 -> BF16 mode
            }
            MemVariant::StackPointer | MemVariant::Remap => {
                s.Addressing.SFPU_DEST_FMT_Enable = true;
                s.Addressing.SFPU_DEST_FMT_Base = rng.pick(&[0, 1, 2, 5, 9, 14]);
            }
            _ => {}
        }
    }
    let instr = match op {
        Opcode::SFPLOADMACRO => {
            match variant {
                v if v.configures_macro() => configure_macro(arch, rng, &mut s),
                MemVariant::OnlyLoadMacroConfig => configure_stores(rng, &mut s),
                MemVariant::OnlyInstructionTemplate => {
                    let templates = macro_templates(arch);
                    for l in 0..LANES {
                        s.LoadMacroConfig[l].InstructionTemplate = templates;
                    }
                }
                _ => {}
            }
            build_for(
                arch,
                op,
                &[
                    ("MacroIndex", rng.below(4)),
                    ("VDLo", vd & 3),
                    ("VDHi", (vd >> 2) & 1),
                    ("Mod0", mod0),
                    ("AddrMod", addr_mod),
                    ("Imm9", imm10 >> 1),
                ],
            )
        }
        _ => build_for(arch, op, &[("VD", vd), ("Mod0", mod0), ("AddrMod", addr_mod), ("Imm10", imm10)]),
    };
    fill_dst(rng, &mut s, mod0, imm10);
    if op == Opcode::SFPSTORE {
        let source = if rng.below(2) == 0 { FP_SPECIALS } else { bits_random(rng) };
        // LReg[11..=14] are programmable: with VD 12..=15 and the backdoor disabled, the store
        // stores them. SFPCONFIG writes them a column at a time, so they get one value per
        // column, as software can set them.
        if vd < 8 {
            s.LReg[vd as usize] = source;
        } else if (11..=14).contains(&vd) {
            s.LReg[vd as usize] = std::array::from_fn(|l| source[l & 7]);
        }
    } else if (11..=14).contains(&vd) {
        // A load to VD >= 8 writes nothing: a non-zero old value shows a write that should not be.
        s.LReg[vd as usize] = [rng.normal(100, 154); LANES];
    } else if vd < 8 {
        // The old value matters for LO16_ONLY/HI16_ONLY and disabled lanes.
        s.LReg[vd as usize] = bits_random(rng);
    }
    Case {
        name: variant.name().to_string(),
        mode: Some(mode.to_string()),
        mode_label: Some(label.to_string()),
        tags: vec![variant.name().to_string(), mode.to_string()],
        program: vec![instr],
        pre: s,
    }
}

/// The instruction templates of the configured SFPLOADMACRO cases, as `arch` encodes them.
fn macro_templates(arch: Arch) -> [u32; 4] {
    let word = |text: &str| {
        program_for(arch, text)
            .and_then(|p| p.first().and_then(|i| i.encode(arch).ok()))
            .unwrap_or(0x8F00_0000) // every template here exists on both chips
    };
    [
        word("TTI_SFPABS(0, 0, 0, 1)"),              // Simple: float |x|
        word("TTI_SFPMAD(0, 10, 9, 0, 0)"),          // MAD: x * 1.0 + 0
        word("TTI_SFP_STOCH_RND(0, 0, 0, 0, 0, 1)"), // Round: to BF16 precision
        word("TTI_SFPSTORE(0, 0, 0, 0)"),            // Store
    ]
}

/// A LoadMacroConfig with `Sequence` words and `Misc` only: every macro schedules a store (selector
/// 3) and some an SFPNOP on the simple sub-unit, with a mix of delays and delay kinds, the store's
/// Mod0 from `Misc` or from the SFPLOADMACRO. No instruction template is used.
fn configure_stores(rng: &mut Rng, s: &mut State) {
    let sequences = [0x0B00_0002u32, 0x1300_0000, 0x0300_000A, 0x1B00_0012];
    let misc = (rng.below(16) << 8) | (rng.below(16) << 4) | rng.pick(&[1, 2, 3, 4]);
    for l in 0..LANES {
        let c = &mut s.LoadMacroConfig[l];
        c.Sequence = sequences;
        c.Misc = sfpu_reference::state::Misc::truncating(misc);
    }
}

/// A LoadMacroConfig for SFPLOADMACRO cases: four sequences using the four templates on every
/// sub-unit, with a mix of delays and delay kinds.
fn configure_macro(arch: Arch, rng: &mut Rng, s: &mut State) {
    let templates = macro_templates(arch);
    let sequences = [
        // Simple: template 0 (SFPABS), delay 0. Store: selector 3, delay 3.
        0x1B00_0004u32,
        // Simple: template 1 (SFPMAD, not a simple instruction: becomes SFPNOP), delay 1.
        // MAD: template 0 (SFPABS, not a MAD instruction: SFPNOP), delay 1. Store: delay 2, from L16.
        0x5300_0C0D,
        // MAD: template 1 (SFPMAD), delay 0. Round: template 2 (SFPSTOCHRND), delay 0. Store: delay 1.
        0x0B06_0500,
        // Simple: template 0 to L16, delay 0. MAD: template 0 (SFPNOP there), delay 0.
        0x0000_4444,
    ];
    // The MAD sub-unit counts elapsed instructions; random UsesLoadMod0ForStore; store Mod0 FP32.
    let misc = 0x200 | (rng.below(16) << 4) | 3;
    for l in 0..LANES {
        let c = &mut s.LoadMacroConfig[l];
        c.InstructionTemplate = templates;
        c.Sequence = sequences;
        c.Misc = sfpu_reference::state::Misc::truncating(misc);
    }
}

/// A sequence case, or `None` if `arch` cannot express its program.
fn case(arch: Arch, name: &str, tags: &[&str], text: &str, pre: State) -> Option<Case> {
    Some(Case {
        name: name.to_string(),
        mode: None,
        mode_label: None,
        tags: tags.iter().map(|t| t.to_string()).collect(),
        program: program_for(arch, text)?,
        pre,
    })
}

/// The multi-instruction cases of `sequences.yaml` for `arch`: those whose program the chip can
/// express (Wormhole has no SFPGT, SFPLE or SFPARECIP and no SFPPUSHC `Mod1`), drawing the same
/// random values on both chips.
pub fn cases(arch: Arch, rng: &mut Rng) -> Vec<Case> {
    let mut out = Vec::new();

    // Predication: if / else with a nested if, over lanes of every sign.
    let mut s = base_for(arch, rng, false);
    s.LReg[0] = INT_SPECIALS;
    s.LReg[2] = rotated(&INT_SPECIALS, 3);
    out.extend(case(
        arch,
        "if-else-nested",
        &["predication", "flag-stack"],
        "TTI_SFPENCC(1, 0, 0, 2)            # UseLaneFlagsForLaneEnable = 1, LaneFlags = 1
         TTI_SFPPUSHC(0, 0, 0, 0)
         TTI_SFPSETCC(0, 0, 0, 0)           # if (L0 < 0)
         TTI_SFPLOADI(1, 4, 1)              #   L1 = 1
         TTI_SFPPUSHC(0, 0, 0, 0)
         TTI_SFPSETCC(0, 2, 0, 6)           #   if (L2 == 0)
         TTI_SFPLOADI(3, 4, 10)             #     L3 = 10
         TTI_SFPCOMPC(0, 0, 0, 0)           #   else
         TTI_SFPLOADI(3, 4, 20)             #     L3 = 20
         TTI_SFPPOPC(0, 0, 0, 0)
         TTI_SFPCOMPC(0, 0, 0, 0)           # else
         TTI_SFPLOADI(1, 4, 2)              #   L1 = 2
         TTI_SFPPOPC(0, 0, 0, 0)
         TTI_SFPENCC(0, 0, 0, 2)            # UseLaneFlagsForLaneEnable = 0",
        s,
    ));

    // Predication: the complex PUSHC/POPC modes and SFPGT/SFPLE stack mutation.
    let mut s = base_for(arch, rng, false);
    s.LReg[0] = FP_SPECIALS;
    s.LReg[1] = rotated(&FP_SPECIALS, 1);
    out.extend(case(
        arch,
        "complex-stack-modes",
        &["predication", "flag-stack"],
        "TTI_SFPENCC(1, 0, 0, 2)
         TTI_SFPPUSHC(0, 0, 0, 0)
         TTI_SFPGT(0, 0, 1, 1)              # LaneFlags = L1 > L0
         TTI_SFPPUSHC(0, 0, 0, 4)           # top.LaneFlags |= LaneFlags
         TTI_SFPLE(0, 0, 1, 2)              # top.LaneFlags &= L1 <= L0, all lanes
         TTI_SFPPOPC(0, 0, 0, 11)           # LaneFlags ^= top.LaneFlags
         TTI_SFPMOV(0, 0, 2, 0)             # L2 = L0 where enabled
         TTI_SFPPUSHC(0, 0, 0, 13)
         TTI_SFPPOPC(0, 0, 0, 0)
         TTI_SFPPOPC(0, 0, 0, 0)",
        s,
    ));

    // Predication: overflow and underflow of the flag stack (undefined behaviour).
    let s = base_for(arch, rng, false);
    out.extend(case(
        arch,
        "stack-overflow",
        &["predication", "flag-stack", "undefined"],
        &"TTI_SFPPUSHC(0, 0, 0, 0)\n".repeat(9),
        s,
    ));
    let s = base_for(arch, rng, false);
    out.extend(case(
        arch,
        "stack-underflow",
        &["predication", "flag-stack", "undefined"],
        "TTI_SFPPOPC(0, 0, 0, 0)",
        s,
    ));

    // Tile walks: a 16x16 tile as 8 loads and 8 stores, in FP32, BF16 and FP16.
    for (name, fmt) in [("tile-walk-fp32", 3), ("tile-walk-bf16", 2), ("tile-walk-fp16", 1)] {
        let mut s = base_for(arch, rng, false);
        for r in 0..32 {
            s.Dst.DstBits[r] = std::array::from_fn(|_| rng.u32() as u16);
        }
        let mut text = String::new();
        for k in 0..8 {
            let imm = (k / 2) * 4 + (k % 2) * 2; // row groups 0..3, even then odd columns
            text.push_str(&format!(
                "TTI_SFPLOAD(0, {fmt}, 0, {imm})\nTTI_SFPMAD(0, 10, 10, 1, 0)\nTTI_SFPSTORE(1, {fmt}, 0, {})\n",
                imm + 16
            ));
        }
        out.extend(case(arch, name, &["tile-walk", "dst"], &text, s));
    }

    // The double-SFPTRANSP reduction idiom: transpose, add, transpose back.
    let mut s = base_for(arch, rng, false);
    for reg in 0..8 {
        s.LReg[reg] = std::array::from_fn(|l| ((reg * 32 + l) as f32).to_bits());
    }
    out.extend(case(
        arch,
        "transpose-reduce",
        &["transpose"],
        "TTI_SFPTRANSP(0, 0, 0, 0)
         TTI_SFPADD(0, 10, 1, 0, 0)         # L0 = L0 * 1 + L1
         TTI_SFPADD(2, 10, 3, 2, 0)
         TTI_SFPADD(0, 10, 2, 0, 0)
         TTI_SFPTRANSP(0, 0, 0, 0)",
        s,
    ));

    // PRNG consumers in sequence.
    let mut s = base_for(arch, rng, true);
    s.LReg[0] = fp_random(rng);
    s.LReg[1] = INT_SPECIALS;
    out.extend(case(
        arch,
        "prng-consumers",
        &["prng"],
        "TTI_SFP_STOCH_RND(1, 0, 0, 0, 2, 1)     # L2 = stochastic round L0 to BF16 precision
         TTI_SFP_STOCH_RND(1, 0, 0, 0, 3, 0)     # L3 = stochastic round L0 to FP16-A precision
         TTI_SFPCAST(1, 4, 1)                    # L4 = L1 as FP32, stochastic
         TTI_SFPMOV(0, 9, 5, 8)                  # L5 = PRNG state
         TTI_SFP_STOCH_RND(0, 0, 0, 0, 6, 3)     # L6 = round-to-nearest L0 to INT8 (PRNG still advances)",
        s,
    ));

    // SFPLOADMACRO: approximate reciprocal of four row groups, one macro per cycle: the load
    // goes to L0, SFPARECIP runs on the simple sub-unit into L16 the next cycle, and the store
    // writes L16 back one cycle later.
    let mut s = base_for(arch, rng, false);
    for r in 0..32 {
        // FP32 values whose reciprocals `docs/spec/sfpu-blackhole.md#sfparecip-tables` lists, in
        // the Dst layout (high half shuffled).
        let v: [u32; 5] = [0x3F80_0000, 0x4000_0000, 0x4040_0000, 0x3F00_0000, 0x3DCC_CCCD];
        for c in 0..16 {
            let x = v[(r + c) % 5];
            let hi = sfpu_reference::state::DstEncodeBF16(x >> 16);
            s.Dst.DstBits[r][c] = if (r / 8) % 2 == 0 { hi as u16 } else { x as u16 };
        }
    }
    let recip = program("TTI_SFPARECIP(0, 0, 0, 0)")[0].encode_blackhole();
    s.LReg[1] = [recip; LANES];
    // Wormhole has no SFPARECIP (the template would be no instruction of the chip).
    out.extend(
        case(
            arch,
            "loadmacro-reciprocal",
            &["loadmacro"],
            "TTI_SFPLOADI(0, 10, 0x0000)             # L0 = the SFPARECIP template, low half
         TTI_SFPLOADI(0, 8, 0x9900)              #      and high half
         TTI_SFPCONFIG(0, 0, 0)                  # InstructionTemplate[0] = L0
         TTI_SFPCONFIG(0x0044, 4, 1)             # Sequence[0] = simple: template 0, delay 0, to L16
         TTI_SFPLOADI(0, 10, 0x0044)
         TTI_SFPLOADI(0, 8, 0x4B00)              # store: selector 3, delay 1, from L16
         TTI_SFPCONFIG(0, 4, 0)                  # Sequence[0] = 0x4B000044
         TTI_SFPCONFIG(0x003, 8, 1)              # Misc: store Mod0 FP32, delays in cycles
         TTI_SFPLOADMACRO(0, 3, 0, 0)            # Imm10 0: 32-bit rows 0..3, even columns
         TTI_SFPLOADMACRO(0, 3, 0, 2)            # Imm10 2: rows 0..3, odd columns
         TTI_SFPLOADMACRO(0, 3, 0, 4)            # Imm10 4: rows 4..7, even columns
         TTI_SFPLOADMACRO(0, 3, 0, 6)            # Imm10 6: rows 4..7, odd columns",
            s,
        )
        .filter(|_| arch == Arch::Blackhole),
    );

    // SFPLOADMACRO: a scheduled instruction takes the sub-unit from a regular one issued in the
    // same cycle; the regular one is discarded.
    let mut s = base_for(arch, rng, false);
    s.LReg[2] = fp_random(rng);
    out.extend(case(
        arch,
        "loadmacro-collision",
        &["loadmacro", "collision"],
        "TTI_SFPLOADI(0, 10, 0x0011)
         TTI_SFPLOADI(0, 8, 0x7D00)              # SFPABS template (float |x|)
         TTI_SFPCONFIG(0, 0, 0)
         TTI_SFPCONFIG(0x0004, 4, 1)             # Sequence[0]: simple, template 0, delay 0
         TTI_SFPLOADMACRO(0, 3, 0, 0)
         TTI_SFPNOT(0, 2, 3, 0)                  # issued to the simple sub-unit in the same cycle: discarded",
        s,
    ));

    // SFPLOADMACRO: delays counted in elapsed instructions vs elapsed cycles.
    let mut s = base_for(arch, rng, false);
    s.LReg[2] = fp_random(rng);
    out.extend(case(
        arch,
        "loadmacro-delay-kinds",
        &["loadmacro", "delay"],
        "TTI_SFPLOADI(0, 10, 0x0011)
         TTI_SFPLOADI(0, 8, 0x7D00)              # SFPABS template
         TTI_SFPCONFIG(0, 0, 0)
         TTI_SFPCONFIG(0x001C, 4, 1)             # Sequence[0]: simple, template 0, delay 3
         TTI_SFPCONFIG(0x011C, 5, 1)             # Sequence[1]: same, plus MAD SFPNOP delay 2
         TTI_SFPCONFIG(0x103, 8, 1)              # Misc: simple unit waits for instructions
         TTI_SFPLOADMACRO(0, 3, 0, 0)
         TTI_SFPNOP
         TTI_SFPLOADMACRO(4, 3, 0, 4)
         TTI_SFPMOV(0, 2, 4, 0)
         TTI_SFPNOP",
        s,
    ));

    // A backdoor load writes an instruction template, which a macro then uses.
    let mut s = base_for(arch, rng, false);
    s.LReg[3] = fp_random(rng);
    out.extend(case(
        arch,
        "backdoor-template",
        &["loadmacro", "backdoor"],
        "TTI_SFPABS(0, 0, 12, 1)                 # VD = 12, DISABLE_BACKDOOR_LOAD clear: a backdoor load
         TTI_SFPCONFIG(0x0004, 4, 1)
         TTI_SFPLOADMACRO(0, 3, 0, 0)",
        s,
    ));

    // Software-managed hazard: SFPIADD reads VD, which the stall logic does not see.
    let mut s = base_for(arch, rng, false);
    s.LReg[0] = fp_random(rng);
    s.LReg[1] = INT_SPECIALS;
    out.extend(case(
        arch,
        "hazard-iadd-after-mad",
        &["hazard"],
        "TTI_SFPMAD(0, 10, 9, 2, 0)
         TTI_SFPIADD(0, 1, 2, 4)",
        s,
    ));
    out
}
