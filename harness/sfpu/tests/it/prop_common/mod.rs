//! Shared proptest strategies of the differential property tests (`prop_instructions.rs`,
//! `prop_streams.rs`): lane values biased towards the operand classes of the golden vectors,
//! random instruction fields, and whole architectural states, all shrinking towards simple values
//! (0, all lanes enabled, empty flag stacks, reset configuration). Instructions and states are of
//! either chip (the `_on(arch)` forms; the plain forms are Blackhole's).
//!
//! Also the test configuration: case counts scaled by `SFPU_PROPTEST_CASES`, a fixed RNG seed
//! (`SFPU_PROPTEST_SEED` changes it) and failure persistence into `harness/sfpu/proptest-regressions/`.

#![allow(dead_code, reason = "each test file uses a different part of this module")]

use harness_sfpu::generate::operands::{FP_SPECIALS, INT_SPECIALS, Rng};
use proptest::prelude::*;
use proptest::sample::select;
use proptest::test_runner::{Config, FileFailurePersistence, RngSeed};
use sfpu_reference::ResetValues;
use sfpu_reference::isa::{Arch, Instr, Opcode, decode};
use sfpu_reference::state::{
    AddrModSlot, FlagStack, FlagStackEntry, LANES, LaneConfig, LoadMacroConfig, Misc, State,
};

/// The stack size of the threads that run proptest (its value trees for a whole state are deep).
pub const STACK: usize = 256 << 20;

/// The number of cases: `SFPU_PROPTEST_CASES` if set (a positive integer), else `default`.
pub fn cases(default: u32) -> u32 {
    std::env::var("SFPU_PROPTEST_CASES")
        .ok()
        .and_then(|v| v.trim().parse::<u32>().ok())
        .filter(|&n| n > 0)
        .unwrap_or(default)
}

/// The base RNG seed: `SFPU_PROPTEST_SEED` (decimal or `0x` hex) if set, else a fixed value, so
/// that a default run explores the same cases on every machine.
pub fn base_seed() -> u64 {
    let parse = |v: &str| {
        let v = v.trim();
        match v.strip_prefix("0x") {
            Some(h) => u64::from_str_radix(h, 16).ok(),
            None => v.parse().ok(),
        }
    };
    std::env::var("SFPU_PROPTEST_SEED").ok().and_then(|v| parse(&v)).unwrap_or(0x5F9C_9E57_0000_0001)
}

/// FNV-1a of `name`, to derive one seed per test cell.
pub fn name_hash(name: &str) -> u64 {
    let mut h = 0xCBF2_9CE4_8422_2325u64;
    for b in name.bytes() {
        h = (h ^ b as u64).wrapping_mul(0x0100_0000_01B3);
    }
    h
}

/// A proptest configuration: `cases` cases, the seed of cell `name`, failures persisted to
/// `persistence` (an absolute path under `harness/sfpu/proptest-regressions/`).
pub fn config(cases: u32, name: &str, persistence: &'static str) -> Config {
    Config {
        cases,
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct(persistence))),
        rng_seed: RngSeed::Fixed(base_seed() ^ name_hash(name)),
        max_shrink_iters: 4096,
        ..Config::default()
    }
}

// ---------------------------------------------------------------------------------------------
// Lane values.

/// A normal FP32 with biased exponent in `lo..=hi`; shrinks towards `+2^(lo-127)`.
pub fn normal(lo: u32, hi: u32) -> impl Strategy<Value = u32> + Clone {
    (any::<bool>(), lo..=hi, 0u32..(1 << 23)).prop_map(|(s, e, m)| ((s as u32) << 31) | (e << 23) | m)
}

/// Values next to rounding ties of FP32 arithmetic: `1 + 2^-24`-style half-ulp addends and
/// `1 ± 1 ulp`.
const TIES: [u32; 8] =
    [0x3380_0000, 0xB380_0000, 0x3F80_0001, 0x3F7F_FFFF, 0x3400_0000, 0x3F80_0002, 0xBF80_0002, 0x3FC0_0000];

/// An FP32 lane: the special classes (±0, min/max denormal, min/max normal, ±1, ±Inf, quiet and
/// signalling NaNs with payloads), tie neighbours, random normals near 1, over the whole range,
/// and random bits. Shrinks towards `+0`.
pub fn fp_lane() -> impl Strategy<Value = u32> + Clone {
    prop_oneof![
        4 => select(FP_SPECIALS.to_vec()),
        1 => select(TIES.to_vec()),
        3 => normal(100, 154),
        2 => normal(1, 254),
        1 => any::<u32>(),
    ]
}

/// An integer lane: 0, ±1, INT32_MIN/MAX, sign-magnitude -0 and -1, byte/halfword edges, shift
/// amounts -40..=40, small values, random bits. Shrinks towards 0.
pub fn int_lane() -> impl Strategy<Value = u32> + Clone {
    prop_oneof![
        4 => select(INT_SPECIALS.to_vec()),
        3 => (-40i32..=40).prop_map(|v| v as u32),
        1 => 0u32..256,
        2 => any::<u32>(),
    ]
}

/// A lane of either kind.
pub fn any_lane() -> impl Strategy<Value = u32> + Clone {
    prop_oneof![fp_lane(), int_lane()]
}

/// `values` rotated by `k` lanes.
fn rotated(values: &[u32; LANES], k: usize) -> [u32; LANES] {
    std::array::from_fn(|l| values[(l + k) % LANES])
}

/// One register's 32 lanes: every lane the same kind, a mixture, or a whole special table
/// rotated (so all 32 classes meet different partners).
pub fn register() -> impl Strategy<Value = [u32; LANES]> + Clone {
    prop_oneof![
        3 => proptest::array::uniform32(any_lane()),
        3 => proptest::array::uniform32(fp_lane()),
        2 => proptest::array::uniform32(int_lane()),
        1 => (0usize..LANES).prop_map(|k| rotated(&FP_SPECIALS, k)),
        1 => (0usize..LANES).prop_map(|k| rotated(&INT_SPECIALS, k)),
    ]
}

// ---------------------------------------------------------------------------------------------
// Instructions.

/// A strategy for the value of field `name` (`bits` wide), used when no mode fixes it.
pub fn field_value(name: &'static str, bits: u32) -> BoxedStrategy<u32> {
    let max = if bits >= 32 { u32::MAX } else { (1u32 << bits) - 1 };
    match name {
        // Mostly general registers; sometimes a constant or special register.
        "VA" | "VB" | "VC" => prop_oneof![6 => 0u32..8, 1 => 8u32..16].boxed(),
        // Mostly general registers; sometimes a dropped write (8..=11) or a backdoor load (12..=15).
        "VD" => prop_oneof![8 => 0u32..8, 1 => 8u32..12, 1 => 12u32..16].boxed(),
        // Dst addresses: mostly low rows, where the state has data.
        "Imm10" => prop_oneof![3 => 0u32..128, 1 => 0u32..=max].boxed(),
        "Imm9" => prop_oneof![3 => 0u32..64, 1 => 0u32..=max].boxed(),
        // Immediates: zero, the extremes, random.
        "Imm16" | "Imm12" | "Imm8" | "Imm5" => {
            prop_oneof![Just(0), Just(max), Just(max / 2 + 1), 0u32..=max].boxed()
        }
        // UseImm5 in SFPSTOCHRND's float flavours is unspecified: mostly clear.
        "UseImm5" => prop_oneof![3 => Just(0u32), 1 => Just(1u32)].boxed(),
        _ => (0u32..=max).boxed(),
    }
}

/// Builds an instruction of `op` for `arch` from `fields` (name -> value); unset fields are zero,
/// fields `arch` does not have are ignored, values are masked to `arch`'s widths
/// (`harness_sfpu::generate::build` for either chip).
pub fn build_on(arch: Arch, op: Opcode, fields: &[(&str, u32)]) -> Instr {
    let mut word = (op.number() as u32) << 24;
    for f in op.fields(arch) {
        if let Some(&(_, v)) = fields.iter().find(|(n, _)| *n == f.name) {
            word |= (v << f.lo) & f.mask();
        }
    }
    decode(arch, word).unwrap_or(Instr::SFPNOP {})
}

/// Instructions of `op` with random fields, then `fixed` (field name, value) pairs overriding them.
pub fn instr_of(op: Opcode, fixed: Vec<(&'static str, u32)>) -> BoxedStrategy<Instr> {
    instr_of_on(Arch::Blackhole, op, fixed)
}

/// [`instr_of`] for chip `arch` (its fields and widths; `op` must be one of its opcodes).
pub fn instr_of_on(arch: Arch, op: Opcode, fixed: Vec<(&'static str, u32)>) -> BoxedStrategy<Instr> {
    let fields = op.fields(arch);
    let strategies: Vec<BoxedStrategy<u32>> = fields.iter().map(|f| field_value(f.name, f.bits)).collect();
    strategies
        .prop_map(move |values| {
            let mut named: Vec<(&str, u32)> = fields.iter().map(|f| f.name).zip(values).collect();
            for &(n, v) in &fixed {
                for f in named.iter_mut().filter(|f| f.0 == n) {
                    f.1 = v;
                }
            }
            build_on(arch, op, &named)
        })
        .boxed()
}

/// The field values a canonical mode string (`mod1=3`, `rnd=1,mod1=2`, `vd=4,mod1=1`, `none`)
/// fixes.
pub fn mode_fields(mode: &str) -> Vec<(&'static str, u32)> {
    let mut out = Vec::new();
    for part in mode.split(',') {
        let Some((key, value)) = part.split_once('=') else { continue };
        let Ok(value) = value.parse::<u32>() else { continue };
        let name = match key {
            "mod1" => "Mod1",
            "mod0" => "Mod0",
            "rnd" => "RoundingMode",
            "vd" => "VD",
            _ => continue,
        };
        out.push((name, value));
    }
    out
}

/// Any instruction of `ops` (every opcode if empty), every mode value possible.
pub fn instr_among(ops: &[Opcode]) -> BoxedStrategy<Instr> {
    instr_among_on(Arch::Blackhole, ops)
}

/// [`instr_among`] for chip `arch`: the opcodes of `ops` it has (all of its opcodes if empty).
pub fn instr_among_on(arch: Arch, ops: &[Opcode]) -> BoxedStrategy<Instr> {
    let ops: Vec<Opcode> = if ops.is_empty() { arch.opcodes().to_vec() } else { ops.to_vec() };
    let ops: Vec<Opcode> = ops.into_iter().filter(|&op| arch.has(op)).collect();
    select(ops).prop_flat_map(move |op| instr_of_on(arch, op, Vec::new())).boxed()
}

/// The mode cells of `op` on chip `arch`: `harness_sfpu::generate::modes(op)` (Blackhole's
/// every value of the mode field), keeping those whose fixed fields `arch` has and can hold; if
/// none is left (Wormhole's SFPAND, SFPOR and SFPPUSHC have no `Mod1`), the one cell `none`.
pub fn modes_on(arch: Arch, op: Opcode) -> Vec<String> {
    let fits = |mode: &str| {
        mode_fields(mode)
            .iter()
            .all(|&(name, value)| op.fields(arch).iter().any(|f| f.name == name && value >> f.bits == 0))
    };
    let kept: Vec<String> =
        harness_sfpu::generate::modes(op).into_iter().map(|(m, _)| m).filter(|m| fits(m)).collect();
    if kept.is_empty() { vec!["none".to_string()] } else { kept }
}

/// The opcodes the Simple sub-unit can execute when scheduled by SFPLOADMACRO (`SFPLOADMACRO.md`).
pub const SIMPLE_UNIT: &[Opcode] = &[
    Opcode::SFPABS,
    Opcode::SFPAND,
    Opcode::SFPARECIP,
    Opcode::SFPCAST,
    Opcode::SFPCOMPC,
    Opcode::SFPCONFIG,
    Opcode::SFPDIVP2,
    Opcode::SFPENCC,
    Opcode::SFPEXEXP,
    Opcode::SFPEXMAN,
    Opcode::SFPGT,
    Opcode::SFPIADD,
    Opcode::SFPLE,
    Opcode::SFPLZ,
    Opcode::SFPMOV,
    Opcode::SFPNOT,
    Opcode::SFPOR,
    Opcode::SFPPOPC,
    Opcode::SFPPUSHC,
    Opcode::SFPSETCC,
    Opcode::SFPSETEXP,
    Opcode::SFPSETMAN,
    Opcode::SFPSETSGN,
    Opcode::SFPSHFT,
    Opcode::SFPSWAP,
    Opcode::SFPTRANSP,
    Opcode::SFPXOR,
];

/// The opcodes of the MAD sub-unit.
pub const MAD_UNIT: &[Opcode] = &[
    Opcode::SFPADD,
    Opcode::SFPADDI,
    Opcode::SFPLUT,
    Opcode::SFPLUTFP32,
    Opcode::SFPMAD,
    Opcode::SFPMUL,
    Opcode::SFPMULI,
    Opcode::SFPMUL24,
];

/// The opcodes of the Round sub-unit.
pub const ROUND_UNIT: &[Opcode] = &[Opcode::SFPSHFT2, Opcode::SFPSTOCHRND];

/// One Sequence byte for sub-unit `unit` (0 Simple, 1 MAD, 2 Round, 3 Store): mostly the template
/// of that unit's class (selector `4 + unit`), sometimes nothing, SFPNOP, the plain store, another
/// template, or (rarely) the undefined selector 1; random delay and bits 6 and 7.
fn sequence_byte(unit: u32) -> impl Strategy<Value = u32> + Clone {
    // The store sub-unit accepts only SFPSTORE (selector 3 or template 3); anything else there
    // is undefined, so it is rare.
    let other_template = if unit == 3 { 7u32..8 } else { 4u32..8 };
    let selector = prop_oneof![
        2 => Just(0u32),
        6 => Just(4 + unit),
        1 => Just(if unit == 3 { 3 } else { 2 }),
        1 => other_template,
        1 => 0u32..8,
    ];
    (selector, 0u32..8, any::<bool>(), any::<bool>())
        .prop_map(|(sel, delay, l16, vb)| sel | (delay << 3) | ((l16 as u32) << 6) | ((vb as u32) << 7))
}

/// A Sequence word: one byte per sub-unit.
fn sequence_word() -> impl Strategy<Value = u32> + Clone {
    (sequence_byte(0), sequence_byte(1), sequence_byte(2), sequence_byte(3)).prop_map(|(a, b, mut c, d)| {
        // When the Simple and Round sub-units both get an instruction, exactly one of them
        // must write L16 (bit 6) if they meet in a cycle (`SFPLOADMACRO.md`): mostly obey.
        if a & 7 != 0 && c & 7 != 0 && a & 0x80 == 0 {
            c = (c & !0x40) | (!a & 0x40);
        }
        a | (b << 8) | (c << 16) | (d << 24)
    })
}

/// A LoadMacroConfig whose macros do things: template `k` is an instruction of the class of
/// sub-unit `k` (template 3 an SFPSTORE), sequences select them with random delays, and `Misc` is
/// random (delay kinds, store formats).
pub fn load_macro_config() -> impl Strategy<Value = LoadMacroConfig> {
    load_macro_config_on(Arch::Blackhole)
}

/// [`load_macro_config`] with chip `arch`'s instructions and encodings in the templates.
pub fn load_macro_config_on(arch: Arch) -> impl Strategy<Value = LoadMacroConfig> {
    let templates = (
        instr_among_on(arch, SIMPLE_UNIT),
        instr_among_on(arch, MAD_UNIT),
        // Mostly a rounding whose flavour is fully specified.
        prop_oneof![
            3 => instr_of_on(arch, Opcode::SFPSTOCHRND, vec![("UseImm5", 0), ("RoundingMode", 0)]),
            1 => instr_of_on(arch, Opcode::SFPSTOCHRND, vec![("UseImm5", 0), ("RoundingMode", 1)]),
            1 => instr_among_on(arch, ROUND_UNIT),
        ],
        instr_of_on(arch, Opcode::SFPSTORE, Vec::new()),
    );
    let word = move |i: Instr| i.encode(arch).unwrap_or(0);
    (templates, proptest::array::uniform4(sequence_word()), 0u32..0x1000).prop_map(
        move |((a, b, c, d), seq, misc)| LoadMacroConfig {
            InstructionTemplate: [word(a), word(b), word(c), word(d)],
            Sequence: seq,
            Misc: Misc::truncating(misc),
        },
    )
}

// ---------------------------------------------------------------------------------------------
// States.

/// Everything of a generated state, before it is assembled (kept as plain data so that proptest
/// shrinks each part on its own).
#[derive(Clone, Debug)]
pub struct StateParts {
    /// `LReg[0..8]`.
    pub lregs: [[u32; LANES]; 8],
    /// `LReg[11..=14]` per column (`None`: reset values) and `LReg[16]`.
    pub programmable: Option<[[u32; 8]; 4]>,
    /// `LReg[16]`.
    pub lreg16: [u32; LANES],
    /// `LaneFlags`, `UseLaneFlagsForLaneEnable` as lane masks.
    pub flags: (u32, u32),
    /// Per lane: flag-stack depth 0..=8 and entry bits.
    pub stacks: [(usize, u16); LANES],
    /// LaneConfig per column.
    pub lane_config: [u32; 8],
    /// The LoadMacroConfig of every lane, and an optional different Sequence for lanes 3, 11, ...
    pub lmc: (LoadMacroConfig, Option<u32>),
    /// PRNG per lane.
    pub prng: [u32; LANES],
    /// Wormhole's SFPSHFT2 `vc0` latch (unused on Blackhole).
    pub vc0: [u32; LANES],
    /// The seed Dst rows 0..128 are filled from (`None`: zero).
    pub dst_seed: Option<u64>,
    /// The addressing configuration.
    pub addressing: AddressingParts,
}

/// The addressing parts of a state.
#[derive(Clone, Debug)]
pub struct AddressingParts {
    /// RWC Dst, Dst_Cr, Sp (multiples of 4 mostly).
    pub rwc: (u16, u16, u16),
    /// SFPU_STACK_Incr, DEST_SP_BASE_Base, DEST_REGW_BASE_Base, DEST_TARGET_REG_CFG_MATH_Offset.
    pub bases: (u16, u16, u16, u16),
    /// The eight ADDR_MOD slots as (DestIncr, DestCR, DestClear, DestCToCR, other bits).
    pub slots: [(u16, u8, u16); 8],
    /// Format configuration: Fp32 enabled, SrcB override + value, REG1 SrcB, DEST_FMT enable + base.
    pub formats: (bool, bool, u16, u16, bool, u16),
    /// remap, swizzle, ExtraAddrModBit, ADDR_MOD_SET_Base.
    pub remap: (bool, bool, bool, bool),
}

fn lane_config_column() -> impl Strategy<Value = u32> + Clone {
    prop_oneof![
        4 => Just(2u32),  // DISABLE_BACKDOOR_LOAD: VD 12..15 execute
        2 => Just(0u32),  // reset: VD 12..15 are backdoor loads
        1 => select(vec![0x01u32, 0x0C, 0x04, 0x10, 0x20, 0x40, 0x80, 0xC2, 0x100, 0x102, 0x2002, 0x8002]),
        1 => 0u32..0x4_0000,
    ]
}

fn addressing() -> impl Strategy<Value = AddressingParts> {
    let small = |n: u16| prop_oneof![3 => Just(0u16), 1 => (0..n).prop_map(|v| v * 4), 1 => 0..n * 4];
    let rwc = (small(16), small(16), small(16));
    let bases = (prop_oneof![Just(0u16), Just(4), 0u16..16], 0u16..4, small(4), small(8));
    let slot = (prop_oneof![3 => Just(0u16), 2 => Just(4u16), 1 => 0u16..16], 0u8..16, any::<u16>());
    let slots = proptest::array::uniform8(slot);
    let formats = (
        prop::bool::weighted(0.3),
        prop::bool::weighted(0.2),
        0u16..16,
        prop_oneof![Just(0u16), 0u16..16],
        prop::bool::weighted(0.3),
        select(vec![0u16, 1, 2, 5, 8, 9, 14, 15]),
    );
    let remap = (
        prop::bool::weighted(0.15),
        prop::bool::weighted(0.15),
        prop::bool::weighted(0.05),
        prop::bool::weighted(0.05),
    );
    (rwc, bases, slots, formats, remap).prop_map(|(rwc, bases, slots, formats, remap)| AddressingParts {
        rwc,
        bases,
        slots,
        formats,
        remap,
    })
}

/// Random states biased towards the operand classes, predication patterns and configurations the
/// instructions react to; shrinks towards zeros, all lanes enabled, reset configuration.
pub fn state_parts() -> impl Strategy<Value = StateParts> {
    state_parts_on(Arch::Blackhole)
}

/// [`state_parts`] whose LoadMacroConfig holds chip `arch`'s instructions (build the state with
/// [`StateParts::build_on`]).
pub fn state_parts_on(arch: Arch) -> impl Strategy<Value = StateParts> {
    let lregs = proptest::array::uniform8(register());
    let programmable =
        proptest::option::weighted(0.3, proptest::array::uniform4(proptest::array::uniform8(any_lane())));
    let lreg16 = proptest::array::uniform32(any_lane());
    let flags = (
        prop_oneof![3 => Just(u32::MAX), 2 => any::<u32>(), 1 => Just(0u32)],
        prop_oneof![2 => Just(0u32), 1 => Just(u32::MAX), 2 => any::<u32>()],
    );
    // A full stack (depth 8) in any lane makes SFPPUSHC undefined for the whole case: mostly
    // stay below it.
    let stacks = prop_oneof![
        4 => proptest::array::uniform32((prop_oneof![2 => Just(0usize), 3 => 0usize..=7], any::<u16>())),
        1 => proptest::array::uniform32((prop_oneof![2 => Just(0usize), 3 => 0usize..=8], any::<u16>())),
    ];
    let lane_config = proptest::array::uniform8(lane_config_column());
    let lmc = (load_macro_config_on(arch), proptest::option::weighted(0.05, any::<u32>()));
    let prng = (proptest::array::uniform32(any::<u32>()), proptest::array::uniform32(any_lane()));
    let dst_seed = proptest::option::weighted(0.9, any::<u64>());
    ((lregs, programmable, lreg16, flags, stacks), (lane_config, lmc, prng, dst_seed, addressing())).prop_map(
        |(
            (lregs, programmable, lreg16, flags, stacks),
            (lane_config, lmc, (prng, vc0), dst_seed, addressing),
        )| {
            StateParts {
                lregs,
                programmable,
                lreg16,
                flags,
                stacks,
                lane_config,
                lmc,
                prng,
                vc0,
                dst_seed,
                addressing,
            }
        },
    )
}

/// Fills Dst rows `rows` with random bits from `seed`.
pub fn fill_dst(s: &mut State, seed: u64, rows: std::ops::Range<usize>) {
    let mut rng = Rng::new(seed);
    for r in rows {
        let r = r % s.Dst.DstBits.len();
        s.Dst.DstBits[r] = std::array::from_fn(|_| rng.u32() as u16);
    }
}

impl StateParts {
    /// Makes the state less likely to make a whole stream undefined or unspecified: shallow flag
    /// stacks (at most `max_depth`), the same LoadMacroConfig in every lane with no undefined
    /// sequence selector, and the address-modifier bits Blackhole reads only under an
    /// unspecified reading clear (harmless on Wormhole, whose page defines them).
    pub fn tame(&mut self, max_depth: usize) {
        for st in &mut self.stacks {
            st.0 = st.0.min(max_depth);
        }
        self.lmc.1 = None;
        // No undefined sequence selectors: selector 1 anywhere, or a non-store on the store unit.
        for seq in &mut self.lmc.0.Sequence {
            for unit in 0..4 {
                let sel = (*seq >> (8 * unit)) & 7;
                if sel == 1 || (unit == 3 && !matches!(sel, 0 | 3 | 7)) {
                    *seq &= !(7 << (8 * unit));
                }
            }
        }
        self.addressing.remap.2 = false;
        self.addressing.remap.3 = false;
    }

    /// The architectural state (Blackhole).
    pub fn build(&self) -> State {
        self.build_on(Arch::Blackhole)
    }

    /// The architectural state of chip `arch`. On Wormhole the `vc0` latch is set, and the
    /// locations only Blackhole has (the `Sp` RWC and its base and increment, `SFPU_DEST_FMT`, the
    /// Dst remap and swizzle bits) keep their defaults, as a Wormhole state must (`State` docs).
    pub fn build_on(&self, arch: Arch) -> State {
        let mut s = State::reset(arch, &ResetValues::ZEROS);
        if let Some(wh) = s.wormhole_mut() {
            wh.SFPSHFT2_vc0 = self.vc0;
        }
        for (r, lanes) in self.lregs.iter().enumerate() {
            s.LReg[r] = *lanes;
        }
        if let Some(p) = &self.programmable {
            for (k, cols) in p.iter().enumerate() {
                s.LReg[11 + k] = std::array::from_fn(|l| cols[l & 7]);
            }
        }
        s.LReg[16] = self.lreg16;
        for l in 0..LANES {
            s.LaneFlags[l] = (self.flags.0 >> l) & 1 != 0;
            s.UseLaneFlagsForLaneEnable[l] = (self.flags.1 >> l) & 1 != 0;
            let (depth, bits) = self.stacks[l];
            let mut st = FlagStack::new();
            for k in 0..depth.min(8) {
                let _ = st.push(FlagStackEntry {
                    LaneFlags: (bits >> (2 * k)) & 1 != 0,
                    UseLaneFlagsForLaneEnable: (bits >> (2 * k + 1)) & 1 != 0,
                });
            }
            s.FlagStack[l] = st;
            s.LaneConfig[l] = LaneConfig::truncating(self.lane_config[l & 7]);
            s.LoadMacroConfig[l] = self.lmc.0;
            if let Some(seq) = self.lmc.1
                && l & 7 == 3
            {
                s.LoadMacroConfig[l].Sequence[(seq & 3) as usize] ^= seq | 1;
            }
            s.PRNG[l] = self.prng[l];
        }
        if let Some(seed) = self.dst_seed {
            fill_dst(&mut s, seed, 0..128);
        }
        let a = &self.addressing;
        let ad = &mut s.Addressing;
        ad.RWC.Dst = a.rwc.0 & 0x3FF;
        ad.RWC.Dst_Cr = a.rwc.1 & 0x3FF;
        ad.RWC.Sp = a.rwc.2 & 0x3FF;
        ad.SFPU_STACK_Incr = a.bases.0 & 0x3FF;
        ad.DEST_SP_BASE_Base = a.bases.1 & 0x3FF;
        ad.DEST_REGW_BASE_Base = a.bases.2 & 0x3FF;
        ad.DEST_TARGET_REG_CFG_MATH_Offset = a.bases.3 & 0x3FF;
        for (slot, &(incr, bits, other)) in ad.ADDR_MOD.iter_mut().zip(a.slots.iter()) {
            *slot = AddrModSlot {
                DestIncr: incr & 0x3FF,
                DestCR: bits & 1 != 0,
                DestClear: bits & 2 != 0 && other & 0x100 != 0,
                DestCToCR: bits & 4 != 0,
                SrcAIncr: other & 0x3F,
                SrcBIncr: (other >> 6) & 0x3,
                SrcBCR: bits & 8 != 0,
                BiasIncr: (other >> 12) & 0xF,
                ..AddrModSlot::default()
            };
        }
        let (fp32, over, val, reg1, fmt_en, fmt_base) = a.formats;
        ad.ALU_ACC_CTRL_SFPU_Fp32_enabled = fp32;
        ad.ALU_FORMAT_SPEC_REG_SrcB_override = over;
        ad.ALU_FORMAT_SPEC_REG_SrcB_val = val & 0xF;
        ad.ALU_FORMAT_SPEC_REG1_SrcB = reg1 & 0xF;
        ad.SFPU_DEST_FMT_Enable = fmt_en;
        ad.SFPU_DEST_FMT_Base = fmt_base & 0xF;
        let (remap, swizzle, extra, set_base) = a.remap;
        ad.DEST_ACCESS_CFG_remap_addrs = remap;
        ad.DEST_ACCESS_CFG_swizzle_32b = swizzle;
        ad.RWC.ExtraAddrModBit = extra as u16;
        ad.ADDR_MOD_SET_Base = set_base;
        if arch == Arch::Wormhole {
            ad.RWC.Sp = 0;
            ad.SFPU_STACK_Incr = 0;
            ad.DEST_SP_BASE_Base = 0;
            ad.SFPU_DEST_FMT_Enable = false;
            ad.SFPU_DEST_FMT_Base = 0;
            ad.DEST_ACCESS_CFG_remap_addrs = false;
            ad.DEST_ACCESS_CFG_swizzle_32b = false;
        }
        s
    }
}

/// A short summary of `s` for `Debug` output (the full state is in the YAML snippet).
pub fn summary(s: &State) -> String {
    format!(
        "LReg[0..8] lane 0 = {:08x?}, LaneFlags/Use lane masks = {:08x}/{:08x}",
        (0..8).map(|r| s.LReg[r][0]).collect::<Vec<_>>(),
        (0..LANES).fold(0u32, |m, l| m | ((s.LaneFlags[l] as u32) << l)),
        (0..LANES).fold(0u32, |m, l| m | ((s.UseLaneFlagsForLaneEnable[l] as u32) << l)),
    )
}
