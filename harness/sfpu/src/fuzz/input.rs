//! The `diff_stream` input grammar, decoding side: [`StreamInput`] and its [`Section`]s, the
//! reader that turns any bytes into a chip, sections and a stream of at most [`MAX_STREAM`]
//! instructions (typed instructions, raw words, predication blocks, SFPLOADMACRO bursts), and
//! [`apply`], which lays a section over a state. The grammar itself is documented in the
//! module doc of `fuzz` (`mod.rs`, "The `diff_stream` input format"); writing inputs is
//! `encode.rs`, the state the sections start from is `base.rs`.

use std::sync::OnceLock;

use arbitrary::{Arbitrary, Unstructured};
use sfpu_reference::State;
use sfpu_reference::isa::{Arch, Instr, Opcode, decode, decode_ignoring_undrawn, parse_instr};
use sfpu_reference::state::{
    AddrModSlot, Addressing, DST_COLS, DST_ROWS, FLAG_STACK_CAPACITY, FlagStack, FlagStackEntry, LANES,
    LaneConfig, LoadMacroConfig, Misc, Rwc,
};

use super::base::{base_state_of, fit_to_chip};
use crate::generate::operands::{
    FP_SPECIALS, INT_SPECIALS, Rng, bits_random, fp_random, fp_wide, lut_inputs, rotated, shift_amounts,
};

/// The longest instruction stream an input describes.
pub const MAX_STREAM: usize = 64;

/// The writable LRegs, in the order the sections index them.
pub(super) const WRITABLE_LREGS: [usize; 13] = [0, 1, 2, 3, 4, 5, 6, 7, 11, 12, 13, 14, 16];

/// One part of the initial state an input sets, over [`base_state`](super::base_state).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Section {
    /// Tag 0: `LReg[reg]` from an operand pool: `reg:u8 pool:u8 arg:u32`; `pool % 8` is
    /// FP specials rotated by `arg`, integer specials rotated, `arg` in every lane, shift amounts,
    /// random bits, FP32 near 1, FP32 of any exponent, or piecewise-linear inputs (the random pools
    /// seeded with `arg`).
    LRegPool {
        /// Index into the writable LRegs (`0..=7`, `11..=14`, `16`).
        reg: u8,
        /// The pool.
        pool: u8,
        /// Rotation, value or seed.
        arg: u32,
    },
    /// Tag 1: `LReg[reg]` lane by lane: `reg:u8 value:u32{32}`.
    LReg {
        /// Index into the writable LRegs.
        reg: u8,
        /// One value per lane.
        values: [u32; LANES],
    },
    /// Tag 2: `LaneFlags:u32 UseLaneFlagsForLaneEnable:u32` as lane masks.
    Predication {
        /// `LaneFlags`.
        flags: u32,
        /// `UseLaneFlagsForLaneEnable`.
        uses: u32,
    },
    /// Tag 3: the flag stacks of the lanes in `lanes`: `lanes:u32 depth:u8 bits:u16`; entry `i`
    /// (bottom first) has `LaneFlags` bit `2i` and `UseLaneFlagsForLaneEnable` bit `2i + 1`.
    FlagStacks {
        /// Lane mask.
        lanes: u32,
        /// Depth (`% 9`).
        depth: u8,
        /// The entries' bits.
        bits: u16,
    },
    /// Tag 4: `LaneConfig` of the lanes in `lanes`: `lanes:u32 value:u32` (18 bits kept).
    LaneConfig {
        /// Lane mask.
        lanes: u32,
        /// The value.
        value: u32,
    },
    /// Tag 5: `LoadMacroConfig` of the lanes in `lanes`, raw: `lanes:u32 template:u32{4}
    /// sequence:u32{4} misc:u16`.
    LoadMacroRaw {
        /// Lane mask.
        lanes: u32,
        /// The configuration.
        config: LoadMacroConfig,
    },
    /// Tag 6: `LoadMacroConfig` of every lane, made to do things: four typed instructions as the
    /// templates, sequences whose selectors avoid the undefined selector 1, `misc:u16`.
    LoadMacroTyped {
        /// The configuration.
        config: LoadMacroConfig,
    },
    /// Tag 7: the PRNG of every lane: `value:u32{32}`.
    Prng {
        /// One state per lane.
        values: [u32; LANES],
    },
    /// Tag 8: the PRNG of the lanes in `lanes`: `lanes:u32 value:u32`.
    PrngSplat {
        /// Lane mask.
        lanes: u32,
        /// The state.
        value: u32,
    },
    /// Tag 9: Dst rows `row..row + count`, cell by cell: `row:u16 count:u8 cell:u16{16 * count}`
    /// (`row % 1024`, `count + 1` rows, stopping at row 1023).
    DstRows {
        /// First physical row.
        row: u16,
        /// The cells, 16 per row.
        cells: Vec<[u16; DST_COLS]>,
    },
    /// Tag 10: `DstRowValid` of rows `row..row + count`: `row:u16 count:u16 valid:u8`.
    DstValid {
        /// First row (`% 1024`).
        row: u16,
        /// Rows (`% 1024 + 1`).
        count: u16,
        /// Whether they are valid (bit 0).
        valid: bool,
    },
    /// Tag 11: the addressing configuration and RWCs, field by field (masked to each width).
    Addressing(Addressing),
    /// Tag 12: one address-modifier slot: `index:u8` and its fields.
    AddrMod {
        /// Slot (`% 8`).
        index: u8,
        /// The slot.
        slot: AddrModSlot,
    },
    /// Tag 13: every cell of rows `row..row + count` set to `value`: `row:u16 count:u16 value:u16`.
    DstFill {
        /// First row (`% 1024`).
        row: u16,
        /// Rows (`% 1024 + 1`).
        count: u16,
        /// The cell value.
        value: u16,
    },
    /// Tag 14: Wormhole's SFPSHFT2 `vc0` latch (`SFPSHFT2.md`), lane by lane: `value:u32{32}`.
    /// Nothing on Blackhole, which has no such latch.
    Vc0 {
        /// One value per lane.
        values: [u32; LANES],
    },
}

/// A decoded `diff_stream` input: the chip, the initial state's sections and the instructions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StreamInput {
    /// The chip, from bit 6 of the first byte ([`input_arch`]).
    pub arch: Arch,
    /// Applied in order over [`base_state`](super::base_state).
    pub sections: Vec<Section>,
    /// The stream, at most [`MAX_STREAM`] instructions.
    pub program: Vec<Instr>,
}

/// The bytes of an input not read yet, read as [`arbitrary::Unstructured`] reads integers: in
/// order, little-endian, zeros once the bytes run out.
///
/// Its own reader rather than `Unstructured`'s: that one reads each integer through a slice copy
/// of its size (a `memcpy` call and several branches per integer read), which was the largest
/// part of decoding.
pub(super) struct Bytes<'a>(pub(super) &'a [u8]);

impl Bytes<'_> {
    /// The next `N` bytes, zero-padded.
    #[inline]
    fn take<const N: usize>(&mut self) -> [u8; N] {
        let mut b = [0; N];
        let n = N.min(self.0.len());
        let (head, rest) = self.0.split_at(n);
        b[..n].copy_from_slice(head);
        self.0 = rest;
        b
    }

    fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

fn u8_(u: &mut Bytes<'_>) -> u8 {
    match u.0.split_first() {
        Some((&b, rest)) => {
            u.0 = rest;
            b
        }
        None => 0,
    }
}
fn u16_(u: &mut Bytes<'_>) -> u16 {
    u16::from_le_bytes(u.take())
}
fn u32_(u: &mut Bytes<'_>) -> u32 {
    u32::from_le_bytes(u.take())
}
/// Thirty-two `u32`s, read at once.
fn lanes32(u: &mut Bytes<'_>) -> [u32; LANES] {
    let b: [u8; 4 * LANES] = u.take();
    std::array::from_fn(|l| u32::from_le_bytes([b[4 * l], b[4 * l + 1], b[4 * l + 2], b[4 * l + 3]]))
}

/// The chip of a `diff_stream` input: bit 6 of its first byte set is Wormhole B0, otherwise (and
/// for the empty input) Blackhole A0.
pub fn input_arch(data: &[u8]) -> Arch {
    match data.first() {
        Some(b) if b & 0x40 != 0 => Arch::Wormhole,
        _ => Arch::Blackhole,
    }
}

/// A raw word as an instruction of `arch`: an opcode byte the chip does not have is folded onto
/// its opcodes (42 on Blackhole, 38 on Wormhole), undrawn bits are dropped.
pub fn word_to_instr(arch: Arch, word: u32) -> Instr {
    let op = (word >> 24) as u8;
    let ops = arch.opcodes();
    let op = match Opcode::from_u8(op) {
        Some(o) if arch.has(o) => op,
        _ => ops[op as usize % ops.len()].number(),
    };
    let word = ((op as u32) << 24) | (word & 0x00FF_FFFF);
    match decode_ignoring_undrawn(arch, word) {
        Ok((i, _)) => i,
        Err(_) => Instr::SFPNOP {},
    }
}

/// Interesting 12-bit immediates (signed where the field is).
const IMM12_SPECIALS: [u32; 8] = [0x000, 0x001, 0xFFF, 0x7FF, 0x800, 0x01F, 0x020, 0xFE0];
/// Interesting 16-bit immediates: 0, all ones, the sign bit, BF16 1.0 / -1.0 / Inf / NaN, 0x7FFF.
const IMM16_SPECIALS: [u32; 8] = [0x0000, 0xFFFF, 0x8000, 0x3F80, 0xBF80, 0x7F80, 0x7FC0, 0x7FFF];

/// How [`typed_word`] draws a field.
#[derive(Clone, Copy)]
enum Draw {
    /// An LReg: `VA VB VC VD`.
    Reg,
    /// `Imm12`.
    Imm12,
    /// `Imm16`.
    Imm16,
    /// `Imm9` and `Imm10` (Dst addresses).
    Row,
    /// SFPLOADI's `Mod0`.
    LoadiMod0,
    /// Any other field: a byte, masked.
    Byte,
}

/// [`Draw`] of every union field of every opcode (by number from the first, then in
/// [`Opcode::union_fields`] order), chosen by name once, at compile time.
static DRAWS: [[Draw; 8]; Opcode::ALL.len()] = {
    use sfpu_reference::isa::str_eq as is;
    let mut table = [[Draw::Byte; 8]; Opcode::ALL.len()];
    let mut o = 0;
    while o < Opcode::ALL.len() {
        let op = Opcode::ALL[o];
        let fields = op.union_fields();
        let mut k = 0;
        while k < fields.len() {
            let n = fields[k].name;
            table[o][k] = if is(n, "VA") || is(n, "VB") || is(n, "VC") || is(n, "VD") {
                Draw::Reg
            } else if is(n, "Imm12") {
                Draw::Imm12
            } else if is(n, "Imm16") {
                Draw::Imm16
            } else if is(n, "Imm9") || is(n, "Imm10") {
                Draw::Row
            } else if is(n, "Mod0") && op as u8 == Opcode::SFPLOADI as u8 {
                Draw::LoadiMod0
            } else {
                Draw::Byte
            };
            k += 1;
        }
        o += 1;
    }
    table
};

/// A typed instruction ([`typed_word`]).
fn typed_instr(u: &mut Bytes<'_>, arch: Arch) -> Instr {
    word_to_instr(arch, typed_word(u, arch))
}

/// The word of a typed instruction: an opcode of `arch`, then every field `arch` draws, in its
/// order, chosen with a bias (registers mostly general, immediates often extreme, modes over
/// their whole range). No undrawn bit is set.
fn typed_word(u: &mut Bytes<'_>, arch: Arch) -> u32 {
    let ops = arch.opcodes();
    let op = ops[u8_(u) as usize % ops.len()];
    let mut word = (op.number() as u32) << 24;
    let draws = &DRAWS[op.index()];
    for (f, &draw) in op.chip_fields(arch).iter().zip(draws).filter_map(|(f, d)| Some((f.as_ref()?, d))) {
        let max = (1u32 << f.bits) - 1;
        let v = match draw {
            Draw::Reg => {
                let b = u8_(u) as u32;
                if b & 0x80 == 0 { b % 8 } else { b % 16 }
            }
            Draw::Imm12 => {
                let v = u16_(u) as u32;
                match v >> 14 {
                    0 => ((v & 63) as i32 - 32) as u32 & max,
                    1 => IMM12_SPECIALS[(v & 7) as usize],
                    _ => v & max,
                }
            }
            Draw::Imm16 => {
                let sel = u8_(u);
                let v = u16_(u) as u32;
                if sel & 3 == 0 { IMM16_SPECIALS[(sel >> 2) as usize & 7] } else { v }
            }
            Draw::Row => {
                let v = u16_(u) as u32;
                // Mostly the first rows of Dst, which the base state fills.
                if v & 0x8000 == 0 { v % 64 } else { v & max }
            }
            // SFPLOADI's defined Mod0 values, mostly (the others are undefined behaviour, after
            // which nothing is compared).
            Draw::LoadiMod0 => {
                let b = u8_(u);
                if b & 0xE0 != 0 { [0, 1, 2, 4, 8, 10][b as usize % 6] } else { b as u32 & max }
            }
            Draw::Byte => u8_(u) as u32 & max,
        };
        word |= (v & max) << f.lo;
    }
    word
}

/// An instruction of `op` for `arch` from the values of its fields in [`Opcode::union_fields`]
/// order (`values[k]` for the k-th; missing ones zero), each masked to the chip's field (fields
/// the chip does not draw are dropped); SFPNOP if the chip lacks `op`. The same instruction as
/// [`build_for`] with the fields named (a test checks the call sites' orders), without comparing
/// names for every input.
///
/// [`build_for`]: crate::generate::build_for
fn build_on(arch: Arch, op: Opcode, values: &[u32]) -> Instr {
    let mut word = (op.number() as u32) << 24;
    for (f, &v) in op.chip_fields(arch).iter().zip(values) {
        if let Some(f) = f {
            word |= (v << f.lo) & f.mask();
        }
    }
    decode(arch, word).unwrap_or(Instr::SFPNOP {})
}

/// An if-block's condition `op` (SFPSETCC, SFPGT, SFPLE or SFPIADD) from the bytes `a`, `b`
/// and the `u16` `c`: `VC = a % 8`, `VD = b % 8`, `Mod1 = a >> 4`, `Imm1 = b >> 7`,
/// `Imm12 = c & 0xFFF`, each where `op` has the field. (The test
/// `positional_builders_match_named_fields` builds the same by name.)
fn condition(arch: Arch, op: Opcode, a: u32, b: u32, c: u32) -> Instr {
    let (vc, vd, mod1, imm1, imm12) = (a % 8, b % 8, a >> 4, b >> 7, c & 0xFFF);
    // Union field order: SFPSETCC Imm1 VC VD Mod1; SFPIADD Imm12 VC VD Mod1; SFPGT, SFPLE VC VD Mod1.
    let values = match op {
        Opcode::SFPSETCC => [imm1, vc, vd, mod1],
        Opcode::SFPIADD => [imm12, vc, vd, mod1],
        _ => [vc, vd, mod1, 0],
    };
    build_on(arch, op, &values)
}

/// SFPPOPC with `Mod1 = m` (union fields VD, Mod1).
fn popc(arch: Arch, m: u32) -> Instr {
    build_on(arch, Opcode::SFPPOPC, &[0, m])
}

/// SFPLOADMACRO from the byte `b` and the `u16` `imm`: `MacroIndex = b & 3`,
/// `VDLo = (b >> 2) & 3`, `VDHi = (b >> 4) & 1`, `Mod0 = imm >> 12`, `AddrMod = (imm >> 9) & 7`,
/// `Imm9 = imm & 31`.
fn load_macro(arch: Arch, b: u32, imm: u32) -> Instr {
    // Union field order: MacroIndex VDLo Mod0 AddrMod Imm9 VDHi.
    let values = [b & 3, (b >> 2) & 3, imm >> 12, (imm >> 9) & 7, imm & 31, (b >> 4) & 1];
    build_on(arch, Opcode::SFPLOADMACRO, &values)
}

/// The fixed instructions of the predication blocks (`generate::streams` uses the same):
/// `SFPENCC`, `SFPPUSHC` and `SFPCOMPC` of `arch`, parsed once.
fn block_instrs(arch: Arch) -> &'static [Instr; 3] {
    fn parse(arch: Arch) -> [Instr; 3] {
        ["TTI_SFPENCC(1, 0, 0, 2)", "TTI_SFPPUSHC(0, 0, 0, 0)", "TTI_SFPCOMPC(0, 0, 0, 0)"]
            .map(|text| parse_instr(arch, text).unwrap_or(Instr::SFPNOP {}))
    }
    static BH: OnceLock<[Instr; 3]> = OnceLock::new();
    static WH: OnceLock<[Instr; 3]> = OnceLock::new();
    match arch {
        Arch::Blackhole => BH.get_or_init(|| parse(arch)),
        Arch::Wormhole => WH.get_or_init(|| parse(arch)),
    }
}

/// Decodes one stream element of a stream for `arch`, pushing its instructions.
fn stream_element(u: &mut Bytes<'_>, out: &mut Vec<Instr>, arch: Arch) {
    let tag = u8_(u);
    match tag % 8 {
        0 => out.push(word_to_instr(arch, u32_(u))),
        1..=3 => out.push(typed_instr(u, arch)),
        4 => {
            // if: enable lane flags, save them, then a condition (SFPGT and SFPLE are
            // Blackhole's; Wormhole gets SFPSETCC and SFPIADD twice as often).
            let [encc, pushc, _] = *block_instrs(arch);
            out.push(encc);
            out.push(pushc);
            let op = match (
                arch,
                [Opcode::SFPSETCC, Opcode::SFPGT, Opcode::SFPLE, Opcode::SFPIADD][(tag >> 3) as usize & 3],
            ) {
                (Arch::Wormhole, Opcode::SFPGT) => Opcode::SFPSETCC,
                (Arch::Wormhole, Opcode::SFPLE) => Opcode::SFPIADD,
                (_, op) => op,
            };
            let (a, b, c) = (u8_(u) as u32, u8_(u) as u32, u16_(u) as u32);
            out.push(condition(arch, op, a, b, c));
        }
        5 => out.push(block_instrs(arch)[2]),
        6 => {
            // end if, or (rarely) a pop/push with another Mod1.
            let m = if tag >> 3 == 0 { u8_(u) as u32 & 15 } else { 0 };
            out.push(popc(arch, m));
        }
        _ => {
            // SFPLOADMACRO, then a few instructions' time for what it schedules.
            let b = u8_(u) as u32;
            let imm = u16_(u) as u32;
            out.push(load_macro(arch, b, imm));
            for _ in 0..(b >> 5) & 3 {
                out.push(Instr::SFPNOP {});
            }
        }
    }
}

/// Decodes one section; a Dst-rows section's cells go into `cells` (taken, so a caller that hands
/// the storage back, [`read_input`], reuses it).
fn section(u: &mut Bytes<'_>, arch: Arch, cells: &mut Vec<[u16; DST_COLS]>) -> Section {
    match u8_(u) % 15 {
        0 => Section::LRegPool { reg: u8_(u), pool: u8_(u), arg: u32_(u) },
        1 => Section::LReg { reg: u8_(u), values: lanes32(u) },
        2 => Section::Predication { flags: u32_(u), uses: u32_(u) },
        3 => Section::FlagStacks { lanes: u32_(u), depth: u8_(u), bits: u16_(u) },
        4 => Section::LaneConfig { lanes: u32_(u), value: u32_(u) },
        5 => Section::LoadMacroRaw {
            lanes: u32_(u),
            config: LoadMacroConfig {
                InstructionTemplate: std::array::from_fn(|_| u32_(u)),
                Sequence: std::array::from_fn(|_| u32_(u)),
                Misc: Misc::truncating(u16_(u) as u32),
            },
        },
        6 => Section::LoadMacroTyped {
            config: LoadMacroConfig {
                // A typed word is what its instruction encodes to on `arch`: an opcode `arch`
                // has, and no undrawn bit set.
                InstructionTemplate: std::array::from_fn(|_| typed_word(u, arch)),
                Sequence: std::array::from_fn(|_| u32_(u) & 0x7F7F_7F7F & !0x0101_0101),
                Misc: Misc::truncating(u16_(u) as u32),
            },
        },
        7 => Section::Prng { values: lanes32(u) },
        8 => Section::PrngSplat { lanes: u32_(u), value: u32_(u) },
        9 => {
            let row = u16_(u) % DST_ROWS as u16;
            let count = (u8_(u) as usize + 1).min(DST_ROWS - row as usize);
            // Row by row (the same bytes as sixteen `u16`s, read at once).
            let mut cells = std::mem::take(cells);
            cells.clear();
            cells.extend((0..count).map(|_| {
                let b: [u8; 2 * DST_COLS] = u.take();
                std::array::from_fn(|c| u16::from_le_bytes([b[2 * c], b[2 * c + 1]]))
            }));
            Section::DstRows { row, cells }
        }
        10 => Section::DstValid { row: u16_(u), count: u16_(u), valid: u8_(u) & 1 != 0 },
        11 => Section::Addressing(addressing(u)),
        12 => Section::AddrMod { index: u8_(u), slot: addr_mod_slot(u) },
        13 => Section::DstFill { row: u16_(u), count: u16_(u), value: u16_(u) },
        _ => Section::Vc0 { values: lanes32(u) },
    }
}

fn addressing(u: &mut Bytes<'_>) -> Addressing {
    let flags = u16_(u);
    let f = |b: u32| flags >> b & 1 != 0;
    let mut a = Addressing {
        DEST_TARGET_REG_CFG_MATH_Offset: u16_(u) & 0x3FF,
        SFPU_STACK_Incr: u16_(u) & 0x3FF,
        SFPU_DEST_FMT_Enable: f(0),
        SFPU_DEST_FMT_Base: u16_(u) & 0xF,
        ADDR_MOD_SET_Base: f(1),
        ADDR_MOD: [AddrModSlot::default(); 8],
        DEST_REGW_BASE_Base: u16_(u) & 0x3FF,
        DEST_SP_BASE_Base: u16_(u) & 0x3FF,
        ALU_ACC_CTRL_SFPU_Fp32_enabled: f(2),
        ALU_FORMAT_SPEC_REG_SrcB_override: f(3),
        ALU_FORMAT_SPEC_REG_SrcB_val: u16_(u) & 0xF,
        ALU_FORMAT_SPEC_REG1_SrcB: u16_(u) & 0xF,
        DEST_ACCESS_CFG_remap_addrs: f(4),
        DEST_ACCESS_CFG_swizzle_32b: f(5),
        DBG_FEATURE_DISABLE_bit11: f(6),
        RWC: Rwc::default(),
    };
    a.RWC = Rwc {
        Dst: u16_(u) & 0x3FF,
        Dst_Cr: u16_(u) & 0x3FF,
        SrcA: u16_(u) & 0x3F,
        SrcA_Cr: u16_(u) & 0x3F,
        SrcB: u16_(u) & 0x3F,
        SrcB_Cr: u16_(u) & 0x3F,
        FidelityPhase: u16_(u) & 3,
        ExtraAddrModBit: u16_(u) & 1,
        Sp: u16_(u) & 0x3FF,
    };
    a
}

fn addr_mod_slot(u: &mut Bytes<'_>) -> AddrModSlot {
    let flags = u16_(u);
    let f = |b: u32| flags >> b & 1 != 0;
    AddrModSlot {
        SrcAIncr: u16_(u) & 0x3F,
        SrcACR: f(0),
        SrcAClear: f(1),
        SrcBIncr: u16_(u) & 0x3F,
        SrcBCR: f(2),
        SrcBClear: f(3),
        DestIncr: u16_(u) & 0x3FF,
        DestCR: f(4),
        DestClear: f(5),
        DestCToCR: f(6),
        FidelityIncr: u16_(u) & 3,
        FidelityClear: f(7),
        BiasIncr: u16_(u) & 0xF,
        BiasClear: f(8),
    }
}

/// Reads an input: its chip, each section in order (passed to `on_section`, which hands a
/// section back once done with it, so that a Dst-rows section's storage returns to `cells` for
/// the next one), and the stream (into `program`, which is cleared first).
pub(super) fn read_input(
    u: &mut Bytes<'_>,
    cells: &mut Vec<[u16; DST_COLS]>,
    mut on_section: impl FnMut(Section) -> Option<Section>,
    program: &mut Vec<Instr>,
    max_stream: usize,
) -> Arch {
    let max_stream = max_stream.min(MAX_STREAM);
    let head = u8_(u);
    let arch = if head & 0x40 != 0 { Arch::Wormhole } else { Arch::Blackhole };
    for _ in 0..head & 63 {
        if let Some(Section::DstRows { cells: used, .. }) = on_section(section(u, arch, cells)) {
            *cells = used;
        }
    }
    program.clear();
    while !u.is_empty() && program.len() < max_stream {
        stream_element(u, program, arch);
    }
    program.truncate(max_stream);
    arch
}

impl<'a> Arbitrary<'a> for StreamInput {
    /// [`StreamInput::from_bytes`] of the rest of `u` (all of it is taken).
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Self> {
        Ok(StreamInput::from_bytes(u.bytes(u.len())?))
    }

    fn arbitrary_take_rest(u: Unstructured<'a>) -> arbitrary::Result<Self> {
        Ok(StreamInput::from_bytes(u.take_rest()))
    }
}

impl StreamInput {
    /// Decodes `data` (any bytes).
    pub fn from_bytes(data: &[u8]) -> StreamInput {
        StreamInput::from_bytes_at_most(data, MAX_STREAM)
    }

    /// [`StreamInput::from_bytes`] keeping at most `max_stream` instructions (at most
    /// [`MAX_STREAM`]): the input [`diff_stream_at_most`](super::diff_stream_at_most) runs.
    pub fn from_bytes_at_most(data: &[u8], max_stream: usize) -> StreamInput {
        let mut sections = Vec::new();
        let mut program = Vec::new();
        let arch = read_input(
            &mut Bytes(data),
            &mut Vec::new(),
            |sec| {
                sections.push(sec);
                None
            },
            &mut program,
            max_stream,
        );
        StreamInput { arch, sections, program }
    }

    /// The initial state: [`base_state`] of the chip with the sections applied (on Wormhole the
    /// addressing fields only Blackhole has are then cleared, [`fit_to_chip`]).
    ///
    /// [`base_state`]: super::base_state
    pub fn state(&self) -> State {
        let mut s = base_state_of(self.arch).clone();
        for sec in &self.sections {
            apply(&mut s, sec);
        }
        fit_to_chip(&mut s);
        s
    }
}

pub(super) fn lanes_of(mask: u32) -> impl Iterator<Item = usize> {
    // The set bits, lowest first.
    let mut rest = mask;
    std::iter::from_fn(move || {
        let l = rest.trailing_zeros() as usize;
        rest &= rest.wrapping_sub(1);
        (l < LANES).then_some(l)
    })
}

/// Applies one section to `s`.
pub fn apply(s: &mut State, sec: &Section) {
    match sec {
        Section::LRegPool { reg, pool, arg } => {
            let reg = WRITABLE_LREGS[*reg as usize % WRITABLE_LREGS.len()];
            let mut rng = Rng::new(*arg as u64);
            let k = *arg as usize % LANES;
            s.LReg[reg] = match pool % 8 {
                0 => rotated(&FP_SPECIALS, k),
                1 => rotated(&INT_SPECIALS, k),
                2 => [*arg; LANES],
                3 => shift_amounts(&mut rng),
                4 => bits_random(&mut rng),
                5 => fp_random(&mut rng),
                6 => fp_wide(&mut rng),
                _ => lut_inputs(&mut rng),
            };
        }
        Section::LReg { reg, values } => {
            s.LReg[WRITABLE_LREGS[*reg as usize % WRITABLE_LREGS.len()]] = *values
        }
        Section::Predication { flags, uses } => {
            for l in 0..LANES {
                s.LaneFlags[l] = flags >> l & 1 != 0;
                s.UseLaneFlagsForLaneEnable[l] = uses >> l & 1 != 0;
            }
        }
        Section::FlagStacks { lanes, depth, bits } => {
            let entries: [FlagStackEntry; FLAG_STACK_CAPACITY] = std::array::from_fn(|i| FlagStackEntry {
                LaneFlags: bits >> (2 * i) & 1 != 0,
                UseLaneFlagsForLaneEnable: bits >> (2 * i + 1) & 1 != 0,
            });
            let depth = (*depth % 9) as usize;
            let stack = FlagStack::from_entries(&entries[..depth]).unwrap_or_default();
            for l in lanes_of(*lanes) {
                s.FlagStack[l] = stack;
            }
        }
        Section::LaneConfig { lanes, value } => {
            for l in lanes_of(*lanes) {
                s.LaneConfig[l] = LaneConfig::truncating(*value);
            }
        }
        Section::LoadMacroRaw { lanes, config } => {
            for l in lanes_of(*lanes) {
                s.LoadMacroConfig[l] = *config;
            }
        }
        Section::LoadMacroTyped { config } => s.LoadMacroConfig = [*config; LANES],
        Section::Prng { values } => s.PRNG = *values,
        Section::PrngSplat { lanes, value } => {
            for l in lanes_of(*lanes) {
                s.PRNG[l] = *value;
            }
        }
        Section::DstRows { row, cells } => {
            for (i, r) in cells.iter().enumerate() {
                if let Some(dst) = s.Dst.DstBits.get_mut(*row as usize % DST_ROWS + i) {
                    *dst = *r;
                }
            }
        }
        Section::DstValid { row, count, valid } => {
            let start = *row as usize % DST_ROWS;
            let end = (start + *count as usize % DST_ROWS + 1).min(DST_ROWS);
            s.Dst.DstRowValid[start..end].fill(*valid);
        }
        Section::Addressing(a) => s.Addressing = *a,
        Section::AddrMod { index, slot } => s.Addressing.ADDR_MOD[*index as usize % 8] = *slot,
        Section::DstFill { row, count, value } => {
            let start = *row as usize % DST_ROWS;
            let end = (start + *count as usize % DST_ROWS + 1).min(DST_ROWS);
            s.Dst.DstBits[start..end].fill([*value; DST_COLS]);
        }
        Section::Vc0 { values } => {
            if let Some(wh) = s.wormhole_mut() {
                wh.SFPSHFT2_vc0 = *values;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fuzz::all_arches;
    use crate::generate::build_for;

    /// The positional builders of the stream elements give the instructions the same field
    /// values give by name, on both chips, for every byte value (and a spread of `u16`s).
    #[test]
    fn positional_builders_match_named_fields() {
        let conditions = [Opcode::SFPSETCC, Opcode::SFPGT, Opcode::SFPLE, Opcode::SFPIADD];
        let u16s = [0u32, 1, 0x0FFF, 0x1000, 0x1FF, 0x200, 0x7E1F, 0x8000, 0xFFFF, 0x5A5A];
        for arch in all_arches() {
            for a in 0..=255u32 {
                for b in 0..=255u32 {
                    for &c in &u16s[..3] {
                        for op in conditions.into_iter().filter(|&op| arch.has(op)) {
                            let named = build_for(
                                arch,
                                op,
                                &[
                                    ("VC", a % 8),
                                    ("VD", b % 8),
                                    ("Mod1", a >> 4),
                                    ("Imm1", b >> 7),
                                    ("Imm12", c & 0xFFF),
                                ],
                            );
                            assert_eq!(condition(arch, op, a, b, c), named, "{arch} {op:?} {a} {b} {c}");
                        }
                    }
                }
                assert_eq!(popc(arch, a & 15), build_for(arch, Opcode::SFPPOPC, &[("Mod1", a & 15)]));
                for &imm in &u16s {
                    let named = build_for(
                        arch,
                        Opcode::SFPLOADMACRO,
                        &[
                            ("MacroIndex", a & 3),
                            ("VDLo", (a >> 2) & 3),
                            ("VDHi", (a >> 4) & 1),
                            ("Mod0", imm >> 12),
                            ("AddrMod", (imm >> 9) & 7),
                            ("Imm9", imm & 31),
                        ],
                    );
                    assert_eq!(load_macro(arch, a, imm), named, "{arch} {a} {imm:#x}");
                }
            }
        }
        // By hand: Wormhole's SFPLOADMACRO AddrMod is two bits ([15:14]), so 7 becomes 3.
        let i = load_macro(Arch::Wormhole, 0, 7 << 9);
        assert_eq!(i.field("AddrMod"), Some(3));
        assert_eq!(i.encode(Arch::Wormhole), Ok(0x9300_C000));
    }

    /// A typed word is the word its instruction encodes to on the chip (what the
    /// SFPLOADMACRO-templates section stores), for every opcode byte and many field bytes.
    #[test]
    fn typed_words_are_their_instructions_encodings() {
        for arch in all_arches() {
            for op in 0..=255u8 {
                for seed in 0..64u8 {
                    let bytes: Vec<u8> = std::iter::once(op)
                        .chain((0..24u8).map(|i| seed.wrapping_mul(37).wrapping_add(i.wrapping_mul(91))))
                        .collect();
                    let word = typed_word(&mut Bytes(&bytes), arch);
                    let i = typed_instr(&mut Bytes(&bytes), arch);
                    assert_eq!(i.encode(arch), Ok(word), "{arch} {bytes:02x?}");
                }
            }
        }
    }

    /// Bit 6 of the first byte, and nothing else, chooses the chip.
    #[test]
    fn the_first_byte_chooses_the_chip() {
        for head in 0..=255u8 {
            let want = if head & 0x40 != 0 { Arch::Wormhole } else { Arch::Blackhole };
            let i = StreamInput::from_bytes(&[head, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
            assert_eq!(
                (i.arch, i.state().arch(), input_arch(&[head])),
                (want, want, want),
                "head 0x{head:02x}"
            );
            for instr in &i.program {
                assert!(instr.encode(want).is_ok(), "{instr:?} has no {want} word");
            }
        }
        assert_eq!(input_arch(&[]), Arch::Blackhole);
    }

    #[test]
    fn any_bytes_decode() {
        for data in [&[][..], &[0xFF; 7][..], &[63, 1, 2, 3][..]] {
            let i = StreamInput::from_bytes(data);
            assert!(i.program.len() <= MAX_STREAM);
            assert!(i.state().constants_intact());
        }
    }
}
