//! The oracles of the coverage-guided fuzz targets (`fuzz/`), kept here so the targets are thin
//! and the same checks run on stable Rust (`tests/fuzz_stable.rs`) and in `cargo xtask fuzz`.
//!
//! * [`diff_stream`]: bytes become an initial [`State`] (lanes biased to the operand classes of
//!   [`operands`](crate::generate::operands)) and a stream of up to [`MAX_STREAM`] instructions
//!   (typed instructions, raw words, predication blocks, SFPLOADMACRO bursts). The stream runs on
//!   the reference [`Machine`] and on the [`FastMachine`] in lockstep; after every instruction the
//!   two outcomes and states are compared, skipping what undefined or unspecified behaviour has
//!   tainted (the [`Tracker`] of the golden vectors). A difference is minimised (instructions,
//!   then state, then lanes) and returned as a [`Divergence`] whose `Display` is the whole report
//!   with a regression vector. The `*_with` variants ([`compare_with`], [`divergence_with`],
//!   [`diff_stream_with`]) take a [`Mutation`] of the fast model's state, a test seam that plants
//!   a divergence at run time (`tests/fuzz_triage.rs`); the plain functions pass none.
//! * [`append_regression`]: what `cargo xtask fuzz --triage` does with a divergence, as a pure
//!   function of the regressions file's text (append the vector with its tags, or report a
//!   duplicate of a known failure shape).
//! * [`decode_oracle`]: decoding any word for every [`Arch`] never panics, and a decoded
//!   instruction re-encodes to the same word, decodes back to itself, and survives its text form.
//! * [`vectors_load_oracle`]: the vector loader and the state deserialiser accept any bytes
//!   without panicking.
//! * [`dut_protocol_oracle`]: the DUT answer parser accepts any bytes without panicking.
//!
//! # The `diff_stream` input format
//!
//! Read as [`arbitrary::Unstructured`] reads integers (little-endian, zeros once the bytes run out),
//! so every byte string is an input and [`encode_stream_input`] can write seeds for it:
//!
//! ```text
//! input    := head:u8 section{head & 63} instr*         (at most MAX_STREAM instructions)
//! section  := tag:u8 body                               (tag % 15 selects the body)
//! instr    := tag:u8 body                               (tag % 8: 0 raw word, 1..=3 typed,
//!                                                        4 if-block, 5 else, 6 end-if, 7 macro)
//! ```
//!
//! Bit 6 of `head` chooses the chip ([`input_arch`]): clear for Blackhole A0, set for Wormhole B0,
//! so one target covers both and libFuzzer's mutations move inputs between them. Every part of the
//! input is read for that chip: its opcodes and field layouts, its instruction text, its
//! SFPLOADMACRO template encoding, its state (Wormhole's SFPSHFT2 `vc0` latch has a section of
//! its own; the addressing fields only Blackhole has stay zero on Wormhole, as its state documents
//! require). The sections overwrite parts of a base state that already carries interesting
//! values ([`base_state`]); see [`Section`] for each body.
//!
//! # Speed
//!
//! The loop is dominated by the two models' own work. Per execution nothing is allocated and no
//! Dst is cloned: the base states of both chips are built once, the input is decoded straight
//! into reused scratch states (the reference's `State` via `clone_from` and the [`FastState`],
//! whose Dst storage is copied into, not reallocated), both machines are reused
//! (`Machine::reset`, `FastMachine::reset` keep the buffers their cycles work in, and the
//! reference's copies of the state for a cycle of several instructions), the taint sets are fixed
//! tables ([`LRegLanes`](crate::taint::LRegLanes)), a Dst-rows section's cells go into a
//! reused buffer, and the predication blocks' instructions are parsed once
//! (`tests/fuzz_alloc.rs` counts the allocations of every input's second run). The comparison
//! after each instruction reads the fast model's state in place (no conversion to [`State`]);
//! every part is compared whole first and taken apart lane by lane only when it differs, the flag
//! stacks in the fast model's bit-sliced form, and Dst (32 KB) whenever it may change next: after
//! an instruction that may write it, before one that may (so a wrong write cannot be overwritten
//! unseen), while SFPLOADMACRO work is pending, and after the drain. `tests/fuzz_complete.rs`
//! plants a wrong value in every location of the state and checks that each is found. Decoding
//! into a [`StreamInput`], conversions, text and the minimiser run only once a difference is
//! found.
//!
//! Under libFuzzer every branch the oracle's code takes is a coverage feature that libFuzzer
//! processes per execution (and, in a build that traces comparisons, as cargo-fuzz's default
//! build does and `cargo xtask fuzz`'s does not, every comparison calls a hook), so the
//! oracle's own bookkeeping avoids branches where they guide nothing: the input is read by a small
//! reader (`Bytes`, the same bytes as `Unstructured` reads) a section's worth at a time,
//! instruction fields are placed and read by position from tables built at compile time
//! ([`Opcode::chip_fields`], no field names compared per input), and the whole-part comparisons
//! fold XORs (`Addressing::difference`, `FlagStack::packed`) instead of branching per field.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::fmt;
use std::path::Path;
use std::sync::OnceLock;

use arbitrary::{Arbitrary, Unstructured};
use sfpu_fastpath::state::FlagStacks;
use sfpu_fastpath::{FastMachine, FastState};
use sfpu_reference::isa::{Arch, Instr, Opcode, decode, decode_ignoring_undrawn, parse_instr};
use sfpu_reference::outcome::ALL_LANES;
use sfpu_reference::state::{
    AddrModSlot, Addressing, DST_COLS, DST_ROWS, FLAG_STACK_CAPACITY, FlagStack, FlagStackEntry, LANES,
    LaneConfig, LoadMacroConfig, Misc, NUM_LREGS, ResetValues, Rwc, StateDoc,
};
use sfpu_reference::{Machine, Outcome, State};

use crate::campaign::regression_snippet;
use crate::generate::operands::{
    FP_SPECIALS, INT_SPECIALS, Rng, bits_random, fp_random, fp_wide, lut_inputs, rotated, shift_amounts,
};
use crate::generate::{Case, build_for, mode_field, to_vector};
use crate::taint::{Footprint, Locations, Tracker, footprint};
use crate::vectors::{Vector, VectorFile};

/// The longest instruction stream an input describes.
pub const MAX_STREAM: usize = 64;

/// The writable LRegs, in the order the sections index them.
const WRITABLE_LREGS: [usize; 13] = [0, 1, 2, 3, 4, 5, 6, 7, 11, 12, 13, 14, 16];

// ---------------------------------------------------------------------------------------------
// The input.
// ---------------------------------------------------------------------------------------------

/// One part of the initial state an input sets, over [`base_state`].
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
    /// Applied in order over [`base_state`].
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
struct Bytes<'a>(&'a [u8]);

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
fn read_input(
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
    /// [`MAX_STREAM`]): the input [`diff_stream_at_most`] runs.
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
    pub fn state(&self) -> State {
        let mut s = base_state_of(self.arch).clone();
        for sec in &self.sections {
            apply(&mut s, sec);
        }
        fit_to_chip(&mut s);
        s
    }
}

/// A `diff_stream` input for `arch` made from a case of another chip (`pre` and `program` of
/// `pre.arch()`), for seeding: the state's sections are applied over `arch`'s base state (then
/// [`fit_to_chip`]), and each instruction is carried over by its tt-llk text, dropped where
/// `arch` lacks it. `None` if nothing of the program is left or the state does not encode.
pub fn stream_input_on(arch: Arch, pre: &State, program: &[Instr]) -> Option<Vec<u8>> {
    let from = pre.arch();
    let program: Vec<Instr> = program
        .iter()
        .filter_map(|i| parse_instr(arch, &i.display(from).to_string()).ok())
        .take(MAX_STREAM)
        .collect();
    if program.is_empty() {
        return None;
    }
    let input = StreamInput { arch, sections: sections_for(pre), program };
    encode_stream_input(&input.state(), &input.program)
}

/// Clears what `s`'s chip does not have: on Wormhole the addressing fields only Blackhole has
/// (`RWC.Sp`, `DEST_SP_BASE_Base`, `SFPU_STACK_Incr`, `SFPU_DEST_FMT_*`, the Dst remapping bits),
/// which a Wormhole state document refuses (`wormhole-vs-blackhole.md` §3.4, §3.6), so that a
/// divergence's regression vector loads. Nothing on Blackhole.
pub fn fit_to_chip(s: &mut State) {
    if s.arch() == Arch::Wormhole {
        let a = &mut s.Addressing;
        a.RWC.Sp = 0;
        a.DEST_SP_BASE_Base = 0;
        a.SFPU_STACK_Incr = 0;
        a.SFPU_DEST_FMT_Enable = false;
        a.SFPU_DEST_FMT_Base = 0;
        a.DEST_ACCESS_CFG_remap_addrs = false;
        a.DEST_ACCESS_CFG_swizzle_32b = false;
    }
}

/// The state every input starts from before its sections: the documented reset (zeros where it
/// is unspecified) with interesting operands already in place. `LReg[0..=6]` hold the FP and
/// integer special values at different rotations (so every lane meets a different partner),
/// `LReg[7]`'s low four bits are `lane & 15` (the indirect register modes), Dst rows 0..64 hold
/// BF16/FP16 specials and FP32 halves, and `DISABLE_BACKDOOR_LOAD` is set so `VD >= 12` executes.
/// The same on both chips, but for the SFPLOADMACRO templates' encoding (and Wormhole's `vc0`
/// latch, zero).
pub fn base_state(arch: Arch) -> State {
    let mut s = State::reset(arch, &ResetValues::ZEROS);
    s.LReg[0] = FP_SPECIALS;
    s.LReg[1] = INT_SPECIALS;
    s.LReg[2] = rotated(&FP_SPECIALS, 7);
    s.LReg[3] = rotated(&INT_SPECIALS, 5);
    s.LReg[4] = rotated(&FP_SPECIALS, 13);
    s.LReg[5] = rotated(&FP_SPECIALS, 3);
    s.LReg[6] = rotated(&INT_SPECIALS, 11);
    s.LReg[7] = std::array::from_fn(|l| (FP_SPECIALS[(l + 17) % LANES] & !15) | (l as u32 & 15));
    for r in 0..64 {
        s.Dst.DstBits[r] = std::array::from_fn(|c| {
            let v = FP_SPECIALS[(r * 16 + c) % LANES];
            if r % 2 == 0 { (v >> 16) as u16 } else { v as u16 }
        });
    }
    let stack = FlagStack::from_entries(&[
        FlagStackEntry { LaneFlags: true, UseLaneFlagsForLaneEnable: false },
        FlagStackEntry { LaneFlags: false, UseLaneFlagsForLaneEnable: true },
    ])
    .unwrap_or_default();
    let config = base_load_macro_config(arch);
    for l in 0..LANES {
        s.LaneConfig[l] = LaneConfig::truncating(2);
        s.PRNG[l] = 0x9E37_79B9u32.wrapping_mul(l as u32 + 1);
        s.FlagStack[l] = stack;
        s.LoadMacroConfig[l] = config;
    }
    s
}

/// [`base_state`] of `arch`, built once.
fn base_state_of(arch: Arch) -> &'static State {
    static BH: OnceLock<State> = OnceLock::new();
    static WH: OnceLock<State> = OnceLock::new();
    match arch {
        Arch::Blackhole => BH.get_or_init(|| base_state(arch)),
        Arch::Wormhole => WH.get_or_init(|| base_state(arch)),
    }
}

/// The base state's SFPLOADMACRO configuration (the same in every lane): templates SFPMAD,
/// SFPIADD (immediate, no flags), SFPSTOCHRND and SFPSTORE; macro 0 schedules the SFPIADD, the
/// SFPMAD one cycle later and a store two cycles later; macro 1 the SFPIADD into `LReg[16]` and a
/// store; macro 2 the SFPMAD alone; macro 3 the SFPSTOCHRND alone. Sequence bytes: selector in
/// bits `[2:0]`, delay in `[5:3]`, `VD = 16` in bit 6, the VB/VC swap in bit 7; byte `i` drives
/// sub-unit `i` (simple, MAD, round, store). The templates are encoded for `arch`.
pub fn base_load_macro_config(arch: Arch) -> LoadMacroConfig {
    let word = |op, fields: &[(&str, u32)]| {
        let i = build_for(arch, op, fields);
        i.encode(arch).unwrap_or_else(|_| i.encode_blackhole())
    };
    LoadMacroConfig {
        InstructionTemplate: [
            word(Opcode::SFPMAD, &[("VA", 1), ("VB", 2), ("VC", 3), ("VD", 4)]),
            word(Opcode::SFPIADD, &[("Imm12", 3), ("VC", 0), ("VD", 0), ("Mod1", 5)]),
            word(Opcode::SFPSTOCHRND, &[("VC", 2), ("VD", 2), ("Mod1", 1)]),
            word(Opcode::SFPSTORE, &[]),
        ],
        Sequence: [0x130C_0005, 0x1300_0045, 0x0000_0400, 0x0006_0000],
        Misc: Misc::truncating(0),
    }
}

fn lanes_of(mask: u32) -> impl Iterator<Item = usize> {
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

// ---------------------------------------------------------------------------------------------
// Encoding inputs (seed corpora, minimised cases).
// ---------------------------------------------------------------------------------------------

fn put16(out: &mut Vec<u8>, v: u16) {
    out.extend_from_slice(&v.to_le_bytes());
}
fn put32(out: &mut Vec<u8>, v: u32) {
    out.extend_from_slice(&v.to_le_bytes());
}

fn encode_section(out: &mut Vec<u8>, sec: &Section) {
    match sec {
        Section::LRegPool { reg, pool, arg } => {
            out.extend([0, *reg, *pool]);
            put32(out, *arg);
        }
        Section::LReg { reg, values } => {
            out.extend([1, *reg]);
            values.iter().for_each(|&v| put32(out, v));
        }
        Section::Predication { flags, uses } => {
            out.push(2);
            put32(out, *flags);
            put32(out, *uses);
        }
        Section::FlagStacks { lanes, depth, bits } => {
            out.push(3);
            put32(out, *lanes);
            out.push(*depth);
            put16(out, *bits);
        }
        Section::LaneConfig { lanes, value } => {
            out.push(4);
            put32(out, *lanes);
            put32(out, *value);
        }
        Section::LoadMacroRaw { lanes, config } => {
            out.push(5);
            put32(out, *lanes);
            config.InstructionTemplate.iter().chain(&config.Sequence).for_each(|&v| put32(out, v));
            put16(out, config.Misc.bits() as u16);
        }
        Section::LoadMacroTyped { config } => {
            // Typed templates cannot hold every word: written as the raw form for all lanes.
            encode_section(out, &Section::LoadMacroRaw { lanes: ALL_LANES, config: *config });
        }
        Section::Prng { values } => {
            out.push(7);
            values.iter().for_each(|&v| put32(out, v));
        }
        Section::PrngSplat { lanes, value } => {
            out.push(8);
            put32(out, *lanes);
            put32(out, *value);
        }
        Section::DstRows { row, cells } => {
            for (k, chunk) in cells.chunks(256).enumerate() {
                out.push(9);
                put16(out, row + 256 * k as u16);
                out.push((chunk.len() - 1) as u8);
                chunk.iter().flatten().for_each(|&c| put16(out, c));
            }
        }
        Section::DstValid { row, count, valid } => {
            out.push(10);
            put16(out, *row);
            put16(out, *count);
            out.push(*valid as u8);
        }
        Section::Addressing(a) => {
            out.push(11);
            let flags = [
                a.SFPU_DEST_FMT_Enable,
                a.ADDR_MOD_SET_Base,
                a.ALU_ACC_CTRL_SFPU_Fp32_enabled,
                a.ALU_FORMAT_SPEC_REG_SrcB_override,
                a.DEST_ACCESS_CFG_remap_addrs,
                a.DEST_ACCESS_CFG_swizzle_32b,
                a.DBG_FEATURE_DISABLE_bit11,
            ];
            put16(out, flags.iter().enumerate().fold(0, |m, (i, &b)| m | (b as u16) << i));
            for v in [
                a.DEST_TARGET_REG_CFG_MATH_Offset,
                a.SFPU_STACK_Incr,
                a.SFPU_DEST_FMT_Base,
                a.DEST_REGW_BASE_Base,
                a.DEST_SP_BASE_Base,
                a.ALU_FORMAT_SPEC_REG_SrcB_val,
                a.ALU_FORMAT_SPEC_REG1_SrcB,
            ] {
                put16(out, v);
            }
            let r = &a.RWC;
            for v in [
                r.Dst,
                r.Dst_Cr,
                r.SrcA,
                r.SrcA_Cr,
                r.SrcB,
                r.SrcB_Cr,
                r.FidelityPhase,
                r.ExtraAddrModBit,
                r.Sp,
            ] {
                put16(out, v);
            }
        }
        Section::AddrMod { index, slot: m } => {
            out.extend([12, *index]);
            let flags = [
                m.SrcACR,
                m.SrcAClear,
                m.SrcBCR,
                m.SrcBClear,
                m.DestCR,
                m.DestClear,
                m.DestCToCR,
                m.FidelityClear,
                m.BiasClear,
            ];
            put16(out, flags.iter().enumerate().fold(0, |acc, (i, &b)| acc | (b as u16) << i));
            for v in [m.SrcAIncr, m.SrcBIncr, m.DestIncr, m.FidelityIncr, m.BiasIncr] {
                put16(out, v);
            }
        }
        Section::DstFill { row, count, value } => {
            out.push(13);
            put16(out, *row);
            put16(out, *count);
            put16(out, *value);
        }
        Section::Vc0 { values } => {
            out.push(14);
            values.iter().for_each(|&v| put32(out, v));
        }
    }
}

/// The sections that turn [`base_state`] into `s` (exactly, for every valid state).
pub fn sections_for(s: &State) -> Vec<Section> {
    let base = base_state(s.arch());
    let mut out = Vec::new();
    if let (Some(wh), Some(b)) = (s.wormhole(), base.wormhole())
        && wh.SFPSHFT2_vc0 != b.SFPSHFT2_vc0
    {
        out.push(Section::Vc0 { values: wh.SFPSHFT2_vc0 });
    }
    for (i, &reg) in WRITABLE_LREGS.iter().enumerate() {
        let v = s.LReg[reg];
        if v != base.LReg[reg] {
            out.push(if v.iter().all(|&x| x == v[0]) {
                Section::LRegPool { reg: i as u8, pool: 2, arg: v[0] }
            } else {
                Section::LReg { reg: i as u8, values: v }
            });
        }
    }
    let mask = |f: &dyn Fn(usize) -> bool| (0..LANES).fold(0u32, |m, l| m | (f(l) as u32) << l);
    let (flags, uses) = (mask(&|l| s.LaneFlags[l]), mask(&|l| s.UseLaneFlagsForLaneEnable[l]));
    if flags != 0 || uses != 0 {
        out.push(Section::Predication { flags, uses });
    }
    // Per-lane parts, grouped by value (one section per distinct value).
    fn groups<T: PartialEq + Copy>(values: &[T; LANES], base: &[T; LANES]) -> Vec<(u32, T)> {
        let mut g: Vec<(u32, T)> = Vec::new();
        for l in 0..LANES {
            if values[l] == base[l] {
                continue;
            }
            match g.iter_mut().find(|(_, v)| *v == values[l]) {
                Some((m, _)) => *m |= 1 << l,
                None => g.push((1 << l, values[l])),
            }
        }
        g
    }
    for (lanes, st) in groups(&s.FlagStack, &base.FlagStack) {
        let bits = st.entries().iter().enumerate().fold(0u16, |m, (i, e)| {
            m | (e.LaneFlags as u16) << (2 * i) | (e.UseLaneFlagsForLaneEnable as u16) << (2 * i + 1)
        });
        out.push(Section::FlagStacks { lanes, depth: st.len() as u8, bits });
    }
    for (lanes, c) in groups(&s.LaneConfig, &base.LaneConfig) {
        out.push(Section::LaneConfig { lanes, value: c.bits() });
    }
    for (lanes, config) in groups(&s.LoadMacroConfig, &base.LoadMacroConfig) {
        out.push(Section::LoadMacroRaw { lanes, config });
    }
    if s.PRNG != base.PRNG {
        let g = groups(&s.PRNG, &base.PRNG);
        if g.len() <= 2 {
            out.extend(g.into_iter().map(|(lanes, value)| Section::PrngSplat { lanes, value }));
        } else {
            out.push(Section::Prng { values: s.PRNG });
        }
    }
    if s.Dst.DstBits != base.Dst.DstBits {
        // Clear the base's rows if the state does not keep them, then the non-zero rows in runs.
        let keeps_base = (0..64).all(|r| s.Dst.DstBits[r] == base.Dst.DstBits[r]);
        let reference =
            if keeps_base { base.Dst.DstBits.clone() } else { Box::new([[0u16; DST_COLS]; DST_ROWS]) };
        if !keeps_base {
            out.push(Section::DstFill { row: 0, count: DST_ROWS as u16 - 1, value: 0 });
        }
        let mut r = 0;
        while r < DST_ROWS {
            if s.Dst.DstBits[r] == reference[r] {
                r += 1;
                continue;
            }
            let start = r;
            while r < DST_ROWS && s.Dst.DstBits[r] != reference[r] {
                r += 1;
            }
            out.push(Section::DstRows { row: start as u16, cells: s.Dst.DstBits[start..r].to_vec() });
        }
    }
    let mut r = 0;
    while r < DST_ROWS {
        if s.Dst.DstRowValid[r] {
            r += 1;
            continue;
        }
        let start = r;
        while r < DST_ROWS && !s.Dst.DstRowValid[r] {
            r += 1;
        }
        out.push(Section::DstValid { row: start as u16, count: (r - start - 1) as u16, valid: false });
    }
    if s.Addressing != base.Addressing {
        let mut top = s.Addressing;
        top.ADDR_MOD = base.Addressing.ADDR_MOD;
        if top != base.Addressing {
            out.push(Section::Addressing(top));
        }
        for (i, slot) in s.Addressing.ADDR_MOD.iter().enumerate() {
            if *slot != base.Addressing.ADDR_MOD[i] {
                out.push(Section::AddrMod { index: i as u8, slot: *slot });
            }
        }
    }
    out
}

/// The bytes of a `diff_stream` input that starts from `state` (any valid state of either chip;
/// the chip is the state's) and runs `program` (raw words of that chip, so every instruction is
/// represented exactly; at most [`MAX_STREAM`]). `None` if the state needs more than 63 sections
/// or an instruction has no word on the chip.
pub fn encode_stream_input(state: &State, program: &[Instr]) -> Option<Vec<u8>> {
    let arch = state.arch();
    let mut sections = Vec::new();
    for sec in sections_for(state) {
        // Long Dst runs are written as several sections.
        match &sec {
            Section::DstRows { row, cells } if cells.len() > 256 => {
                for (k, chunk) in cells.chunks(256).enumerate() {
                    sections.push(Section::DstRows { row: row + 256 * k as u16, cells: chunk.to_vec() });
                }
            }
            _ => sections.push(sec),
        }
    }
    if sections.len() > 63 {
        return None;
    }
    let chip = if arch == Arch::Wormhole { 0x40 } else { 0 };
    let mut out = vec![sections.len() as u8 | chip];
    for sec in &sections {
        encode_section(&mut out, sec);
    }
    for instr in program.iter().take(MAX_STREAM) {
        out.push(0);
        put32(&mut out, instr.encode(arch).ok()?);
    }
    Some(out)
}

// ---------------------------------------------------------------------------------------------
// Running both models.
// ---------------------------------------------------------------------------------------------

/// What differed at the first divergence.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    /// The instruction after which it was seen (`program.len()` for the final drain).
    pub index: usize,
    /// The state locations that differ (outside the tainted ones).
    pub differing: Locations,
    /// The lanes where Wormhole's SFPSHFT2 `vc0` latch differs ([`vc0_lanes`]; 0 on Blackhole).
    pub vc0: u32,
    /// The two outcomes, when they differ: (reference, fastpath).
    pub outcomes: Option<(Outcome, Outcome)>,
    /// The reference's state at that point.
    pub reference: State,
    /// The fast model's state at that point.
    pub fast: State,
}

/// The lanes of `s` that `d` names, whatever the part (for lane minimisation and reports).
fn lanes_in(d: &Locations) -> u32 {
    let mut m = d.LaneFlags.0
        | d.UseLaneFlagsForLaneEnable.0
        | d.FlagStack.0
        | d.LaneConfig.0
        | d.LoadMacroConfig.0
        | d.PRNG.0;
    for reg in 0..NUM_LREGS {
        m |= d.lreg(reg);
    }
    if d.Dst || d.Addressing || d.all { ALL_LANES } else { m }
}

/// Whether the reads of an instruction's footprint `f` touch something in `tainted` (any lane).
fn reads_tainted(f: &Footprint, tainted: &Locations) -> bool {
    if tainted.is_empty() {
        return false;
    }
    if tainted.all || f.everything {
        return true;
    }
    let r = &f.reads;
    (0..NUM_LREGS).any(|reg| r.lregs >> reg & 1 != 0 && tainted.lreg(reg) != 0)
        || (r.lane_flags && tainted.LaneFlags.0 != 0)
        || (r.use_flags && tainted.UseLaneFlagsForLaneEnable.0 != 0)
        || (r.flag_stack && tainted.FlagStack.0 != 0)
        || (r.lane_config && tainted.LaneConfig.0 != 0)
        || (r.lmc && tainted.LoadMacroConfig.0 != 0)
        || (r.prng && tainted.PRNG.0 != 0)
        || (r.dst && tainted.Dst)
        || (r.addressing && tainted.Addressing)
}

/// A per-lane boolean as a lane mask.
fn bits(b: &[bool; LANES]) -> u32 {
    b.iter().enumerate().fold(0, |m, (l, &v)| m | (v as u32) << l)
}

/// The reference's flag stacks as last seen and in the fast model's bit-sliced form, so that
/// they are sliced again only when they change.
///
/// The stacks as last seen are kept as their packed words (`FlagStack::packed`, one per lane:
/// equal words, equal stacks), compared without a branch per lane or entry (the derived `==`
/// compiles to a call per lane and a branch per entry, thousands per execution; tried again
/// without comparison tracing on 2026-11-28 and not kept).
#[derive(Default)]
struct StackCache(Option<([u32; LANES], FlagStacks)>);

impl StackCache {
    fn sliced(&mut self, expected: &[FlagStack; LANES]) -> &FlagStacks {
        let words: [u32; LANES] = std::array::from_fn(|l| expected[l].packed());
        let same = |seen: &[u32; LANES]| seen.iter().zip(&words).fold(0, |d, (a, b)| d | (a ^ b)) == 0;
        if self.0.as_ref().is_none_or(|(seen, _)| !same(seen)) {
            self.0 = Some((words, FlagStacks::from_lanes(expected)));
        }
        match &self.0 {
            Some((_, sliced)) => sliced,
            None => unreachable!("just filled"),
        }
    }
}

/// The lanes of `expected` whose flag stack (depth or any entry) differs from `actual`'s,
/// compared in the fast model's bit-sliced form (`e`, `expected` sliced the same way).
fn stack_lanes(e: &FlagStacks, actual: &FlagStacks) -> u32 {
    (0..FLAG_STACK_CAPACITY).fold(0, |d, k| {
        let occ = e.occ[k];
        d | (occ ^ actual.occ[k]) | (((e.flags[k] ^ actual.flags[k]) | (e.uses[k] ^ actual.uses[k])) & occ)
    })
}

/// The lanes where a per-lane part differs (`eq(l)` false).
fn lanes_where(ne: impl Fn(usize) -> bool) -> u32 {
    (0..LANES).fold(0u32, |m, l| m | (ne(l) as u32) << l)
}

/// The locations where the fast model's state differs from the reference's outside `skip`,
/// reading [`FastState`] in place. Every part is compared; Dst only if `with_dst`. Each part is
/// first compared whole (a few vector compares) and taken apart lane by lane only if it differs.
/// Wormhole's SFPSHFT2 `vc0` latch, which [`Locations`] has no place for, is [`vc0_lanes`].
pub fn differing_fast(expected: &State, actual: &FastState, skip: &Locations, with_dst: bool) -> Locations {
    differing_cached(expected, actual, skip, with_dst, &mut StackCache::default())
}

/// [`differing_fast`] with the reference's flag stacks sliced through `stacks`.
fn differing_cached(
    expected: &State,
    actual: &FastState,
    skip: &Locations,
    with_dst: bool,
    stacks: &mut StackCache,
) -> Locations {
    let mut d = Locations::default();
    if skip.all {
        return d;
    }
    if expected.LReg != actual.lreg {
        for reg in 0..NUM_LREGS {
            let (e, a) = (&expected.LReg[reg], &actual.lreg[reg]);
            if e != a {
                let lanes = lanes_where(|l| e[l] != a[l]) & !skip.lreg(reg);
                d.LReg.0[reg] = lanes;
            }
        }
    }
    d.LaneFlags.0 = (bits(&expected.LaneFlags) ^ actual.lane_flags) & !skip.LaneFlags.0;
    d.UseLaneFlagsForLaneEnable.0 =
        (bits(&expected.UseLaneFlagsForLaneEnable) ^ actual.use_flags) & !skip.UseLaneFlagsForLaneEnable.0;
    d.FlagStack.0 = stack_lanes(stacks.sliced(&expected.FlagStack), &actual.stack) & !skip.FlagStack.0;
    // The per-lane configuration words are first XORed together whole (no branch per lane or
    // word, so no coverage counter per word under libFuzzer), and taken apart only if they differ.
    let lc = actual.lane_configs();
    if (0..LANES).fold(0, |x, l| x | (expected.LaneConfig[l].bits() ^ lc[l])) != 0 {
        d.LaneConfig.0 = lanes_where(|l| expected.LaneConfig[l].bits() != lc[l]) & !skip.LaneConfig.0;
    }
    let m = &actual.lmc;
    let macro_diff = |l: usize| {
        let c = &expected.LoadMacroConfig[l];
        (0..4).fold(c.Misc.bits() ^ m.misc[l], |x, k| {
            x | (c.InstructionTemplate[k] ^ m.template[k][l]) | (c.Sequence[k] ^ m.sequence[k][l])
        })
    };
    if (0..LANES).fold(0, |x, l| x | macro_diff(l)) != 0 {
        d.LoadMacroConfig.0 = lanes_where(|l| macro_diff(l) != 0) & !skip.LoadMacroConfig.0;
    }
    if expected.PRNG != actual.prng {
        d.PRNG.0 = lanes_where(|l| expected.PRNG[l] != actual.prng[l]) & !skip.PRNG.0;
    }
    d.Dst = with_dst && !skip.Dst && expected.Dst != actual.dst;
    d.Addressing = !skip.Addressing && expected.Addressing.difference(&actual.addressing) != 0;
    d
}

/// The lanes where Wormhole's SFPSHFT2 `vc0` latch differs (0 on Blackhole). The taint tracker
/// does not follow values into the latch, so it is compared only while nothing is tainted
/// (`unpromised` empty): a latch filled from a tainted register is not promised.
pub fn vc0_lanes(expected: &State, actual: &FastState, unpromised: &Locations) -> u32 {
    match (expected.wormhole(), actual.sfpshft2_vc0()) {
        (Some(wh), Some(a)) if unpromised.is_empty() => lanes_where(|l| wh.SFPSHFT2_vc0[l] != a[l]),
        _ => 0,
    }
}

/// A test seam: a change made to the fast model's state right after it issues each instruction
/// (the instruction is passed), so a test can plant a divergence at run time without touching the
/// fast model. Only the `*_with` functions take one; [`compare`], [`divergence`] and
/// [`diff_stream`] run the models as they are. The comparison sees the change like any effect of
/// the instruction (Dst only where Dst is compared: after an instruction that may write it, and
/// after the final drain). Instructions SFPLOADMACRO schedules, and the final drain, are not
/// passed to it.
pub type Mutation = fn(&Instr, &mut FastState);

/// Runs `program` from `pre` on both models in lockstep, comparing after every instruction and
/// after the final drain; the first difference, if any.
pub fn compare(pre: &State, program: &[Instr]) -> Option<Found> {
    compare_with(pre, program, None)
}

/// [`compare`] with an optional [`Mutation`] of the fast model's state (a test seam).
pub fn compare_with(pre: &State, program: &[Instr], mutation: Option<Mutation>) -> Option<Found> {
    compare_counted_with(pre, program, mutation).0
}

/// [`compare`], also returning how many instructions were compared: the comparison stops early
/// (without a difference) once undefined behaviour leaves nothing promised.
pub fn compare_counted(pre: &State, program: &[Instr]) -> (Option<Found>, usize) {
    compare_counted_with(pre, program, None)
}

fn compare_counted_with(
    pre: &State,
    program: &[Instr],
    mutation: Option<Mutation>,
) -> (Option<Found>, usize) {
    let mut rs = pre.clone();
    let mut fs = FastState::from_state(pre);
    lockstep((&mut Machine::new(), &mut FastMachine::new()), &mut rs, &mut fs, program, mutation)
}

/// Runs `program` on the reference from `rs` and on the fast model from `fs` (the same state)
/// in lockstep, comparing after every instruction and after the final drain.
///
/// What is compared after each instruction: the outcome (unless the instruction reads something
/// unpromised), every part of the state but Dst (each part a whole-array compare first), and
/// Dst (32 KB) whenever it may change next: after an instruction that may write it, when the
/// *next* instruction may write it, while SFPLOADMACRO work is pending in either model, and after
/// the drain. So a wrong Dst write is seen at the latest just before anything could overwrite it,
/// and a difference anywhere else is seen right after the instruction that made it.
fn lockstep(
    (rm, fm): (&mut Machine, &mut FastMachine),
    rs: &mut State,
    fs: &mut FastState,
    program: &[Instr],
    mutation: Option<Mutation>,
) -> (Option<Found>, usize) {
    rm.reset();
    fm.reset();
    let mut tracker = Tracker::default();
    let mut stacks = StackCache::default();
    let found = |index, differing, vc0, outcomes, rs: &State, fs: &FastState| Found {
        index,
        differing,
        vc0,
        outcomes,
        reference: rs.clone(),
        fast: fs.to_state(),
    };
    let mut next = program.first().map(footprint);
    for (index, instr) in program.iter().enumerate() {
        let f = next.unwrap_or_else(|| footprint(instr));
        next = program.get(index + 1).map(footprint);
        let compare_outcome = !reads_tainted(&f, &tracker.unpromised);
        let ro = rm.issue(rs, instr);
        let fo = fm.issue(fs, instr);
        if let Some(mutate) = mutation {
            mutate(instr, fs);
        }
        // With nothing tainted, a defined outcome and no SFPLOADMACRO, a step leaves the
        // tracker as it is (no tainted reads to spread, no notes to add).
        if f.everything
            || !ro.is_defined()
            || !tracker.unpromised.is_empty()
            || !tracker.non_contractual.is_empty()
        {
            tracker.step(instr, &ro);
        }
        if tracker.unpromised.all {
            // Undefined behaviour: nothing is promised from here on.
            return (None, index);
        }
        let pending = !rm.pending().is_empty() || fm.pending_count() != 0;
        if !rm.pending().is_empty() && !tracker.unpromised.is_empty() {
            // A scheduled instruction may read what is tainted, and the tracker charges its
            // effects to the instruction issued with it: stop rather than guess.
            return (None, index);
        }
        let outcomes = (compare_outcome && ro != fo).then_some((ro, fo));
        let with_dst =
            f.writes.dst || f.everything || pending || next.is_some_and(|n| n.writes.dst || n.everything);
        let d = differing_cached(rs, fs, &tracker.unpromised, with_dst, &mut stacks);
        let vc0 = vc0_lanes(rs, fs, &tracker.unpromised);
        if outcomes.is_some() || !d.is_empty() || vc0 != 0 {
            return (Some(found(index, d, vc0, outcomes, rs, fs)), index + 1);
        }
    }
    let ro = rm.drain(rs);
    let fo = fm.drain(fs);
    let last = program.last().copied().unwrap_or(Instr::SFPNOP {});
    let compare_outcome = !reads_tainted(&footprint(&last), &tracker.unpromised);
    tracker.step(&last, &ro);
    let outcomes = (compare_outcome && ro != fo).then_some((ro, fo));
    let d = differing_cached(rs, fs, &tracker.unpromised, true, &mut stacks);
    let vc0 = vc0_lanes(rs, fs, &tracker.unpromised);
    let found = (outcomes.is_some() || !d.is_empty() || vc0 != 0)
        .then(|| found(program.len(), d, vc0, outcomes, rs, fs));
    (found, program.len())
}

/// The reusable buffers of [`diff_stream`]: both models' states and machines, the stream and a
/// Dst-rows section's cells, so that an execution allocates nothing and never clones a Dst.
struct Scratch {
    rs: State,
    fs: FastState,
    rm: Machine,
    fm: FastMachine,
    program: Vec<Instr>,
    /// A Dst-rows section's cells.
    cells: Vec<[u16; DST_COLS]>,
}

thread_local! {
    static SCRATCH: RefCell<Option<Scratch>> = const { RefCell::new(None) };
}

/// Decodes `data` straight into the scratch states (the sections applied over the cached base
/// state, as [`StreamInput::state`] does) and runs the comparison: the first difference and the
/// number of instructions compared.
fn run_input(data: &[u8], mutation: Option<Mutation>, max_stream: usize) -> (Option<Found>, usize) {
    SCRATCH.with(|cell| {
        let mut guard = cell.borrow_mut();
        let Scratch { rs, fs, rm, fm, program, cells } = guard.get_or_insert_with(|| {
            let rs = base_state_of(Arch::Blackhole).clone();
            Scratch {
                fs: FastState::from_state(&rs),
                rs,
                rm: Machine::new(),
                fm: FastMachine::new(),
                program: Vec::with_capacity(2 * MAX_STREAM),
                cells: Vec::with_capacity(256),
            }
        });
        rs.clone_from(base_state_of(input_arch(data)));
        let hand_back = |sec: Section| {
            apply(rs, &sec);
            Some(sec)
        };
        read_input(&mut Bytes(data), cells, hand_back, program, max_stream);
        fit_to_chip(rs);
        if program.is_empty() {
            return (None, 0);
        }
        fs.assign_from(rs);
        lockstep((rm, fm), rs, fs, program, mutation)
    })
}

// ---------------------------------------------------------------------------------------------
// Minimising and reporting.
// ---------------------------------------------------------------------------------------------

/// The canonical mode of `instr`, as the vectors name it (`mod1=5`, `rnd=1,mod1=2`, `none`).
pub fn mode_of(instr: &Instr) -> String {
    let fields = instr.field_values();
    let get = |name: &str| fields.iter().find(|(n, _)| *n == name).map_or(0, |&(_, v)| v);
    match (instr.opcode(), mode_field(instr.opcode()).field) {
        (Opcode::SFPSTOCHRND, _) => format!("rnd={},mod1={}", get("RoundingMode"), get("Mod1")),
        (Opcode::SFPCONFIG, _) => format!("vd={},mod1={}", get("VD"), get("Mod1")),
        (_, None) => "none".to_string(),
        (_, Some(field)) => format!("{}={}", field.to_ascii_lowercase(), get(field)),
    }
}

/// The parts a [`Locations`] names, for the failure shape (`LReg+LaneFlags`).
fn parts_of(d: &Locations) -> Vec<&'static str> {
    let mut p = Vec::new();
    if !d.LReg.is_empty() {
        p.push("LReg");
    }
    for (name, set) in [
        ("LaneFlags", d.LaneFlags.0 != 0),
        ("UseLaneFlagsForLaneEnable", d.UseLaneFlagsForLaneEnable.0 != 0),
        ("FlagStack", d.FlagStack.0 != 0),
        ("LaneConfig", d.LaneConfig.0 != 0),
        ("LoadMacroConfig", d.LoadMacroConfig.0 != 0),
        ("PRNG", d.PRNG.0 != 0),
        ("Dst", d.Dst),
        ("Addressing", d.Addressing),
    ] {
        if set {
            p.push(name);
        }
    }
    p
}

/// The failure shape: the diverging instruction's opcode and mode, and what differs. Two
/// divergences with the same shape are reported once.
pub fn shape(program: &[Instr], found: &Found) -> String {
    let at = match program.get(found.index).or(program.last()) {
        Some(i) => format!("{}/{}", i.opcode().name(), mode_of(i)),
        None => "empty".to_string(),
    };
    let what = if found.index >= program.len() { "drain:" } else { "" };
    let mut parts = parts_of(&found.differing);
    if found.vc0 != 0 {
        parts.push("SFPSHFT2_vc0");
    }
    if found.outcomes.is_some() {
        parts.push("outcome");
    }
    format!("{at}/{what}{}", parts.join("+"))
}

/// Greedy minimisation of `program` and `pre` keeping the failure's shape (with the same
/// `mutation` of the fast model, if any); returns the reduced case and its divergence.
fn minimise(
    pre: State,
    program: Vec<Instr>,
    first: Found,
    mutation: Option<Mutation>,
) -> (State, Vec<Instr>, Found) {
    let key = shape(&program, &first);
    let same = |s: &State, p: &[Instr]| compare_with(s, p, mutation).filter(|f| shape(p, f) == key);
    let mut program = program;
    let mut found = first;
    program.truncate(found.index + 1);
    // 1. Instructions: drop one at a time, latest first, until nothing more can go.
    for _ in 0..4 {
        let mut changed = false;
        let mut i = program.len();
        while i > 0 {
            i -= 1;
            if program.len() <= 1 {
                break;
            }
            let mut shorter = program.clone();
            shorter.remove(i);
            if let Some(f) = same(&pre, &shorter) {
                shorter.truncate(f.index + 1);
                program = shorter;
                found = f;
                changed = true;
                i = i.min(program.len());
            }
        }
        if !changed {
            break;
        }
    }
    // 2. State: reset whole parts to the documented reset values.
    let reset = State::reset(pre.arch(), &ResetValues::ZEROS);
    let mut pre = pre;
    type Edit = fn(&mut State, &State);
    let edits: [Edit; 9] = [
        |s, r| s.Dst = r.Dst.clone(),
        |s, r| s.LoadMacroConfig = r.LoadMacroConfig,
        |s, r| s.FlagStack = r.FlagStack,
        |s, r| s.Addressing = r.Addressing,
        |s, r| s.PRNG = r.PRNG,
        |s, r| s.LaneConfig = r.LaneConfig,
        |s, r| {
            s.LaneFlags = r.LaneFlags;
            s.UseLaneFlagsForLaneEnable = r.UseLaneFlagsForLaneEnable;
        },
        |s, r| s.LReg[16] = r.LReg[16],
        |s, r| s.LReg[11..15].copy_from_slice(&r.LReg[11..15]),
    ];
    let try_edit = |pre: &mut State, found: &mut Found, edit: &dyn Fn(&mut State)| {
        let mut candidate = pre.clone();
        edit(&mut candidate);
        if candidate != *pre
            && let Some(f) = same(&candidate, &program)
        {
            *pre = candidate;
            *found = f;
        }
    };
    for edit in edits {
        try_edit(&mut pre, &mut found, &|s| edit(s, &reset));
    }
    for reg in 0..8 {
        try_edit(&mut pre, &mut found, &|s| s.LReg[reg] = [0; LANES]);
    }
    // 3. Lanes: only the diverging lanes keep their values; then they alone are enabled.
    let keep = lanes_in(&found.differing) | found.vc0;
    if keep != ALL_LANES && keep != 0 {
        for reg in WRITABLE_LREGS {
            try_edit(&mut pre, &mut found, &|s| {
                for l in lanes_of(!keep) {
                    s.LReg[reg][l] = 0;
                }
            });
        }
        try_edit(&mut pre, &mut found, &|s| {
            for l in 0..LANES {
                s.UseLaneFlagsForLaneEnable[l] = true;
                s.LaneFlags[l] = keep >> l & 1 != 0;
            }
        });
    }
    (pre, program, found)
}

/// A difference between the two models, minimised, with everything needed to report it.
#[derive(Clone, Debug)]
pub struct Divergence {
    /// Where the input came from (`fuzz-1a2b3c4d`), used in the regression vector's id.
    pub origin: String,
    /// The stream's length before minimisation.
    pub original_len: usize,
    /// The minimised initial state.
    pub pre: State,
    /// The minimised stream.
    pub program: Vec<Instr>,
    /// The first difference in the minimised case.
    pub found: Found,
    /// The failure shape ([`shape`]).
    pub shape: String,
    /// The regression vector (expected values from the reference model).
    pub vector: Vector,
}

impl Divergence {
    /// The regression vector as YAML, ready to paste under `vectors:` in the chip's
    /// `vectors/<arch>/regressions.yaml` ([`Divergence::regressions_file`]).
    pub fn snippet(&self) -> String {
        regression_snippet(&self.vector, &self.origin)
    }

    /// The chip the divergence is on.
    pub fn arch(&self) -> Arch {
        self.pre.arch()
    }

    /// The regressions file of the chip, relative to the repository root.
    pub fn regressions_file(&self) -> String {
        format!("vectors/{}/regressions.yaml", self.arch())
    }

    /// The diverging instruction (`None` when the difference appeared in the final drain).
    pub fn instruction(&self) -> Option<&Instr> {
        self.program.get(self.found.index)
    }
}

impl fmt::Display for Divergence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let where_ = match self.instruction() {
            Some(i) => format!("instruction {} ({} {})", self.found.index, i.opcode().name(), mode_of(i)),
            None => "the final drain of SFPLOADMACRO's schedule".to_string(),
        };
        let arch = self.arch();
        writeln!(f, "diff_stream: the fast model diverges from the reference on {arch} at {where_}")?;
        writeln!(
            f,
            "shape: {} (stream minimised from {} to {} instructions)",
            self.shape,
            self.original_len,
            self.program.len()
        )?;
        writeln!(f, "stream:")?;
        for (i, instr) in self.program.iter().enumerate() {
            let mark = if i == self.found.index { ">" } else { " " };
            writeln!(
                f,
                "  {mark}{i:>3}  0x{:08x}  {}",
                instr.encode(arch).unwrap_or_else(|_| instr.encode_blackhole()),
                instr.display(arch)
            )?;
        }
        writeln!(f, "diverging lanes: 0x{:08x}", lanes_in(&self.found.differing) | self.found.vc0)?;
        if !self.found.differing.is_empty() {
            writeln!(f, "state (expected = reference, got = fastpath):")?;
            f.write_str(&crate::diff::describe(
                &self.found.reference,
                &self.found.fast,
                &self.found.differing,
            ))?;
        }
        if self.found.vc0 != 0 {
            let latch = |s: &State| s.wormhole().map_or([0; LANES], |wh| wh.SFPSHFT2_vc0);
            let (e, g) = (latch(&self.found.reference), latch(&self.found.fast));
            for l in lanes_of(self.found.vc0) {
                writeln!(f, "  SFPSHFT2_vc0[{l}]: expected 0x{:08x}, got 0x{:08x}", e[l], g[l])?;
            }
        }
        if let Some((r, x)) = &self.found.outcomes {
            writeln!(f, "outcome:\n  reference: {r}\n  fastpath:  {x}")?;
        }
        writeln!(f, "replay: cargo xtask fuzz --triage <artifact>  (appends the vector below)")?;
        writeln!(
            f,
            "regression vector (expected values are the reference model's; paste under `vectors:` in {}):",
            self.regressions_file()
        )?;
        f.write_str(&self.snippet())
    }
}

/// FNV-1a, 32 bits, of `data`: the origin tag of an input without a name.
pub fn input_tag(data: &[u8]) -> String {
    let h = data.iter().fold(0x811C_9DC5u32, |h, &b| (h ^ b as u32).wrapping_mul(0x0100_0193));
    format!("fuzz-{h:08x}")
}

/// Minimises a divergence of `pre`/`program` and builds its report.
pub fn divergence(origin: &str, pre: &State, program: &[Instr], first: Found) -> Divergence {
    divergence_with(origin, pre, program, first, None)
}

/// [`divergence`] of a difference found with a [`Mutation`] of the fast model (a test seam): the
/// minimiser replays every candidate with the same mutation. The regression vector is the
/// reference's either way.
pub fn divergence_with(
    origin: &str,
    pre: &State,
    program: &[Instr],
    first: Found,
    mutation: Option<Mutation>,
) -> Divergence {
    let original_len = program.len();
    let (pre, program, found) = minimise(pre.clone(), program.to_vec(), first, mutation);
    let shape = shape(&program, &found);
    let mode = program.get(found.index).map(mode_of);
    let name = match program.get(found.index) {
        Some(i) => format!("{}-{}", i.opcode().name(), mode.clone().unwrap_or_default()),
        None => "drain".to_string(),
    };
    let case = Case {
        name: name.replace(',', "-"),
        mode,
        mode_label: None,
        tags: vec!["fuzz".to_string(), format!("fuzz-shape:{shape}")],
        program: program.clone(),
        pre: pre.clone(),
    };
    let vector = to_vector("fuzz", &case);
    Divergence { origin: origin.to_string(), original_len, pre, program, found, shape, vector }
}

/// The `diff_stream` oracle: decodes `data`, runs it on both models, and returns the minimised
/// divergence if they differ anywhere the specification promises something.
pub fn diff_stream(data: &[u8]) -> Result<(), Box<Divergence>> {
    diff_stream_impl(data, None, None, MAX_STREAM).0
}

/// [`diff_stream`] on at most the first `max_stream` instructions of the input's stream (at most
/// [`MAX_STREAM`]; the input read by [`StreamInput::from_bytes_at_most`]). The fuzz target runs
/// this with `SFPU_FUZZ_MAX_STREAM`, which `cargo xtask fuzz --rate` sets to 16: libFuzzer's
/// mutations soon turn the 16-instruction seeds into streams of 64 (the state sections' bytes
/// read as instructions), so without it the rate would be that of longer streams.
pub fn diff_stream_at_most(data: &[u8], max_stream: usize) -> Result<(), Box<Divergence>> {
    diff_stream_impl(data, None, None, max_stream).0
}

/// [`diff_stream_at_most`], also returning how many instructions were compared (for the
/// throughput figure of `cargo xtask fuzz --throughput`, which passes [`MAX_STREAM`]).
pub fn diff_stream_counted(data: &[u8], max_stream: usize) -> (Result<(), Box<Divergence>>, usize) {
    diff_stream_impl(data, None, None, max_stream)
}

/// [`diff_stream`] with the origin tag to give the regression vector.
pub fn diff_stream_with_origin(data: &[u8], origin: &str) -> Result<(), Box<Divergence>> {
    diff_stream_impl(data, Some(origin), None, MAX_STREAM).0
}

/// [`diff_stream_with_origin`] with an optional [`Mutation`] of the fast model's state after each
/// instruction (a test seam: it plants a divergence at run time).
pub fn diff_stream_with(
    data: &[u8],
    origin: &str,
    mutation: Option<Mutation>,
) -> Result<(), Box<Divergence>> {
    diff_stream_impl(data, Some(origin), mutation, MAX_STREAM).0
}

/// The oracle: the comparison runs on reused buffers ([`run_input`]); only once a difference is
/// found is the input decoded into a [`StreamInput`], its state built and the case minimised
/// (the origin tag defaults to [`input_tag`]).
fn diff_stream_impl(
    data: &[u8],
    origin: Option<&str>,
    mutation: Option<Mutation>,
    max_stream: usize,
) -> (Result<(), Box<Divergence>>, usize) {
    let (found, compared) = run_input(data, mutation, max_stream);
    let Some(first) = found else {
        return (Ok(()), compared);
    };
    let origin = origin.map_or_else(|| input_tag(data), str::to_string);
    let input = StreamInput::from_bytes_at_most(data, max_stream);
    let pre = input.state();
    (Err(Box::new(divergence_with(&origin, &pre, &input.program, first, mutation))), compared)
}

// ---------------------------------------------------------------------------------------------
// Triage: adding a divergence to the regressions file.
// ---------------------------------------------------------------------------------------------

/// What [`append_regression`] made of a divergence.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Appended {
    /// The vector was appended: its id, and the whole new text of the file (checked to load).
    Added {
        /// The new vector's id.
        id: String,
        /// The file's new text.
        text: String,
    },
    /// A vector of the same failure shape is already in the file; nothing was added.
    Duplicate {
        /// The id of the vector that has the shape.
        id: String,
    },
}

/// The failure shapes (`fuzz-shape:` tags) of the vectors of `file`, each with the id of the
/// first vector that has it.
pub fn regression_shapes(file: &VectorFile) -> BTreeMap<String, String> {
    let mut m = BTreeMap::new();
    for v in &file.vectors {
        for t in &v.tags {
            if let Some(s) = t.strip_prefix("fuzz-shape:") {
                m.entry(s.to_string()).or_insert_with(|| v.id.clone());
            }
        }
    }
    m
}

fn load_errors(e: &[crate::vectors::LoadError]) -> String {
    e.iter().map(|e| e.to_string()).collect::<Vec<_>>().join("; ")
}

/// What `cargo xtask fuzz --triage` does with one divergence, as a pure function of the
/// regressions file's text: `text` (the file at `path`, whose stem the loader checks against its
/// `file:` field) with the regression vector `yaml` (a [`Divergence::snippet`]) of failure `shape`
/// appended, unless a vector tagged `fuzz-shape:<shape>` is there already
/// ([`Appended::Duplicate`]; the same instruction, mode and differing parts are reported once).
///
/// The appended vector carries the tags `fuzz`, `fuzz-shape:<shape>` and
/// `fuzz-artifact:<artifact>` (added where the YAML lacks them) and is preceded by a comment
/// naming the artifact and the shape and saying that the expected values are the reference
/// model's. A file that ends in `vectors: []` gets a proper list. The new text is checked with the
/// vector loader before it is returned.
///
/// Errors (nothing is added): `text` does not load or is a format-1 file, `yaml` does not parse
/// as a list holding a vector, or the file with the vector would not load.
pub fn append_regression(
    text: &str,
    path: &Path,
    artifact: &str,
    shape: &str,
    yaml: &str,
) -> Result<Appended, String> {
    let existing = crate::vectors::parse_file(path, text)
        .map_err(|e| format!("{} does not load: {}", path.display(), load_errors(&e)))?;
    // The appended vector lists `requires`, which a format-1 file refuses (the loader has read
    // this one as a current file, so its own text says which).
    #[derive(serde::Deserialize)]
    struct Head {
        format: String,
    }
    if serde_yaml::from_str::<Head>(text).is_ok_and(|h| h.format == crate::vectors::FORMAT_V1) {
        return Err(format!(
            "{} is a {} file; triage appends {} vectors (with `requires`): upgrade the file first \
             (vectors/README.md, \"Migrating from sfpu-vectors/1\")",
            path.display(),
            crate::vectors::FORMAT_V1,
            crate::vectors::FORMAT
        ));
    }
    if let Some(id) = regression_shapes(&existing).get(shape) {
        return Ok(Appended::Duplicate { id: id.clone() });
    }
    let mut vectors: Vec<Vector> = serde_yaml::from_str(yaml)
        .map_err(|e| format!("the regression vector does not parse: {e}\n{yaml}"))?;
    let Some(mut v) = vectors.pop() else {
        return Err(format!("the regression vector does not parse: no vector in\n{yaml}"));
    };
    for tag in ["fuzz".to_string(), format!("fuzz-shape:{shape}"), format!("fuzz-artifact:{artifact}")] {
        if !v.tags.contains(&tag) {
            v.tags.push(tag);
        }
    }
    let id = v.id.clone();
    let body = crate::campaign::vector_yaml(&v);
    let comment = format!(
        "# Found by `cargo xtask fuzz` (diff_stream, artifact {artifact}, shape {shape}). The expected values are the\n\
         # reference model's, not hand-checked: confirm them against the documentation when fixing the divergence.\n"
    );
    let candidate = if let Some(stripped) = text.trim_end().strip_suffix("vectors: []") {
        format!("{stripped}vectors:\n{comment}{body}")
    } else {
        let sep = if text.is_empty() || text.ends_with('\n') { "" } else { "\n" };
        format!("{text}{sep}{comment}{body}")
    };
    crate::vectors::parse_file(path, &candidate)
        .map_err(|e| format!("appending the vector would break {}: {}", path.display(), load_errors(&e)))?;
    Ok(Appended::Added { id, text: candidate })
}

// ---------------------------------------------------------------------------------------------
// The other oracles.
// ---------------------------------------------------------------------------------------------

/// Every architecture (a new variant fails to compile here until it is added).
pub fn all_arches() -> [Arch; 2] {
    match Arch::Blackhole {
        Arch::Blackhole | Arch::Wormhole => [Arch::Blackhole, Arch::Wormhole],
    }
}

/// The `decode` oracle: the first four bytes of `data` (little-endian, zero-padded) as a word,
/// decoded for every architecture. A decoded instruction must re-encode to the word, decode back
/// to itself, and round-trip through its tt-llk text; `decode_ignoring_undrawn` must agree.
pub fn decode_oracle(data: &[u8]) -> Result<(), String> {
    let mut b = [0u8; 4];
    for (d, s) in b.iter_mut().zip(data) {
        *d = *s;
    }
    let word = u32::from_le_bytes(b);
    for arch in all_arches() {
        let decoded = decode(arch, word);
        let loose = decode_ignoring_undrawn(arch, word);
        match (decoded, loose) {
            (Ok(i), Ok((j, undrawn))) => {
                if i != j || undrawn != 0 {
                    return Err(format!(
                        "{arch} 0x{word:08x}: decode gives {i:?}, decode_ignoring_undrawn {j:?} with undrawn 0x{undrawn:08x}"
                    ));
                }
                if i.encode(arch) != Ok(word) {
                    return Err(format!(
                        "{arch} 0x{word:08x}: decodes to {i:?}, which encodes to {:x?}",
                        i.encode(arch)
                    ));
                }
                if i.encode(arch).map(|w| decode(arch, w)) != Ok(Ok(i)) {
                    return Err(format!("{arch} 0x{word:08x}: decode(encode(i)) != i for {i:?}"));
                }
                let text = i.display(arch).to_string();
                match parse_instr(arch, &text) {
                    Ok(back) if back == i => {}
                    other => {
                        return Err(format!(
                            "{arch} 0x{word:08x}: `{text}` parses back as {other:?}, not {i:?}"
                        ));
                    }
                }
            }
            (Err(_), Ok((j, undrawn))) => {
                if undrawn == 0 || j.encode(arch).map(|w| w | undrawn) != Ok(word) {
                    return Err(format!(
                        "{arch} 0x{word:08x}: refused, but decode_ignoring_undrawn gives {j:?} with undrawn 0x{undrawn:08x}"
                    ));
                }
                // The canonical form of the word without its undrawn bits decodes.
                if j.encode(arch).map(|w| decode(arch, w)) != Ok(Ok(j)) {
                    return Err(format!(
                        "{arch} 0x{word:08x}: the canonical word {:x?} does not decode to {j:?}",
                        j.encode(arch)
                    ));
                }
            }
            (Ok(i), Err(e)) => {
                return Err(format!(
                    "{arch} 0x{word:08x}: decode gives {i:?} but decode_ignoring_undrawn {e}"
                ));
            }
            (Err(_), Err(_)) => {}
        }
    }
    Ok(())
}

/// The `vectors_load` oracle: `data` as a vector file (lossy UTF-8) through the loader, and as a
/// state document (YAML and JSON) through the state deserialiser; errors are fine, panics are not.
/// A file that loads is also written back and must load again to the same vectors.
pub fn vectors_load_oracle(data: &[u8]) -> Result<(), String> {
    let text = String::from_utf8_lossy(data);
    // No file stem: the `file` field is not checked against a name.
    if let Ok(file) = crate::vectors::parse_file(Path::new(""), &text) {
        let again = crate::vectors::emit::write_file(&file, &[]);
        match crate::vectors::parse_file(Path::new(""), &again) {
            Ok(back) if back == file => {}
            Ok(_) => return Err(format!("a loaded file reads back differently after writing:\n{again}")),
            Err(e) => return Err(format!("a loaded file does not load after writing: {e:?}\n{again}")),
        }
    }
    let _ = State::from_yaml(&text);
    if let Ok(doc) = serde_json::from_slice::<StateDoc>(data)
        && let Ok(s) = doc.to_state()
    {
        let _ = StateDoc::from_state(&s).to_state();
    }
    Ok(())
}

/// The `dut_protocol` oracle: every line of `data` as a DUT answer; errors are fine, panics are
/// not. A `result` answer's state must apply to a state without error (the parser checked it).
pub fn dut_protocol_oracle(data: &[u8]) -> Result<(), String> {
    for line in data.split(|&b| b == b'\n').chain(std::iter::once(data)) {
        if let Ok(crate::dut::Answer::Result { state, .. }) = crate::dut::parse_answer(line) {
            let mut s = State::reset(state.arch(), &ResetValues::ZEROS);
            state.apply_to(&mut s).map_err(|e| format!("an accepted result's state does not apply: {e}"))?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn base_state_is_valid_and_round_trips() {
        for (arch, head) in [(Arch::Blackhole, 0x00), (Arch::Wormhole, 0x40)] {
            let s = base_state(arch);
            assert_eq!(s.arch(), arch);
            assert!(s.constants_intact());
            assert_eq!(StateDoc::from_state(&s).to_state().unwrap(), s);
            let bytes = encode_stream_input(&s, &[]).unwrap();
            assert_eq!(bytes, vec![head], "the base state needs no section; bit 6 is the chip");
            assert_eq!(input_arch(&bytes), arch);
            assert_eq!(StreamInput::from_bytes(&bytes).state(), s);
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

    /// A Blackhole case carried over to Wormhole keeps its registers and its instructions.
    #[test]
    fn a_blackhole_case_seeds_wormhole() {
        let mut pre = base_state(Arch::Blackhole);
        pre.LReg[3][7] = 0x4040_0000;
        let program = [
            parse_instr(Arch::Blackhole, "TTI_SFPMAD(3, 1, 2, 4, 0)").unwrap(),
            parse_instr(Arch::Blackhole, "TTI_SFPGT(0, 1, 2, 0)").unwrap(),
        ];
        let bytes = stream_input_on(Arch::Wormhole, &pre, &program).expect("encodes");
        let back = StreamInput::from_bytes(&bytes);
        assert_eq!(back.arch, Arch::Wormhole);
        assert_eq!(back.state().LReg[3][7], 0x4040_0000);
        // SFPGT is Blackhole's only: the SFPMAD is what is left.
        assert_eq!(back.program, vec![parse_instr(Arch::Wormhole, "TTI_SFPMAD(3, 1, 2, 4, 0)").unwrap()]);
        assert_eq!(stream_input_on(Arch::Wormhole, &pre, &program[1..]), None);
    }

    /// Wormhole inputs never set an addressing field only Blackhole has, and their `vc0` latch
    /// section round-trips through the encoder.
    #[test]
    fn wormhole_states_fit_the_chip_and_round_trip() {
        let mut s = base_state(Arch::Wormhole);
        s.wormhole_mut().unwrap().SFPSHFT2_vc0 = std::array::from_fn(|l| 0x1234_0000 + l as u32);
        s.LReg[3][5] = 0xDEAD_BEEF;
        s.Addressing.RWC.Dst = 17;
        let program = [parse_instr(Arch::Wormhole, "TTI_SFPSHFT2(0, 1, 2, 4)").unwrap()];
        let bytes = encode_stream_input(&s, &program).unwrap();
        assert_eq!(bytes[0] & 0x40, 0x40);
        let back = StreamInput::from_bytes(&bytes);
        assert_eq!(back.state(), s);
        assert_eq!(back.program, program);
        // Every Blackhole-only addressing field set by a section is cleared on Wormhole.
        let mut a = Addressing::default();
        a.RWC.Sp = 5;
        a.DEST_SP_BASE_Base = 6;
        a.SFPU_STACK_Incr = 7;
        a.SFPU_DEST_FMT_Enable = true;
        a.SFPU_DEST_FMT_Base = 3;
        a.DEST_ACCESS_CFG_remap_addrs = true;
        a.DEST_ACCESS_CFG_swizzle_32b = true;
        let input =
            StreamInput { arch: Arch::Wormhole, sections: vec![Section::Addressing(a)], program: vec![] };
        let st = input.state();
        assert_eq!(st.Addressing, Addressing::default());
        assert!(StateDoc::from_state(&st).to_state().is_ok());
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
