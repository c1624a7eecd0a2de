//! The SFPU instructions of Blackhole A0 (42) and Wormhole B0 (38) as types, and their binary
//! encodings.
//!
//! One table, at the bottom of this file, lists every opcode with its fields, their widths and
//! their bit positions on each chip: first Blackhole's layout, which for every opcode so far draws
//! every field at its widest and so is also the shape of the [`Instr`] variant, then
//! `wormhole same` (the identical layout), `wormhole { .. }` (Wormhole's own layout, a subset of
//! the fields, some narrower or elsewhere) or `wormhole none` (no such opcode on Wormhole). The
//! [`Opcode`] and [`Instr`] types and the per-chip layouts are generated from it, so they cannot
//! disagree. The table transcribes the bit layouts of tt-isa-documentation
//! `Diagrams/Src/Bits32.lua` @ `c2e709d3f186ac5fe7073d6c65a2bc1b998b9e27` (the `*_BH` entries for
//! Blackhole, the others for Wormhole and for both). Wormhole calls `SFPSTOCHRND`'s one-bit `[21]`
//! `StochasticRounding`; here it is the low bit of the union field `RoundingMode`.
//!
//! Field names are the documentation's (`VA VB VC VD Mod0 Mod1 Imm16 ...`), so they are not snake
//! case. Bits that no field covers ("undrawn" bits) must be zero: [`decode`](super::decode) rejects
//! a word that sets them (their effect is unspecified: `docs/spec/sfpu-blackhole.md#undrawn-bits`),
//! which makes `encode(decode(w)) == w` for every word that decodes.

#![allow(non_snake_case, reason = "field names follow the ISA documentation")]

use super::arch::Arch;
use super::field::U;

/// Which part of the Vector Unit executes an instruction (the instruction pages, `VectorUnit.md`,
/// and the SFPLOADMACRO capability table of `SFPLOADMACRO.md`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SubUnit {
    /// The load sub-unit: SFPLOAD, SFPLOADI, SFPLOADMACRO, and SFPNOP when issued normally.
    Load,
    /// The simple sub-unit: integer, bitwise, predication and most other single-cycle work.
    Simple,
    /// The MAD sub-unit: the multiply-add family and the LUT instructions.
    MAD,
    /// The round sub-unit: SFPSTOCHRND and SFPSHFT2.
    Round,
    /// The store sub-unit: SFPSTORE.
    Store,
}

/// One field of an instruction word.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FieldSpec {
    /// The documentation's name for the field.
    pub name: &'static str,
    /// The bit position of the field's least significant bit.
    pub lo: u32,
    /// The width of the field in bits.
    pub bits: u32,
}

impl FieldSpec {
    /// The bits of the instruction word this field occupies.
    pub const fn mask(&self) -> u32 {
        ((1u32 << self.bits) - 1) << self.lo
    }
}

macro_rules! instructions {
    ($(
        $(#[doc = $doc:literal])*
        $name:ident = $op:literal, $unit:ident { $($field:ident : $bits:literal @ $lo:literal),* $(,)? }
            wormhole $wh:tt
    ),* $(,)?) => {
        /// The SFPU opcodes of every modelled chip (bits `[31:24]` of the instruction word): the 42
        /// of Blackhole A0, of which Wormhole B0 has 38 ([`Arch::opcodes`](super::Arch::opcodes)).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[repr(u8)]
        pub enum Opcode {
            $( $(#[doc = $doc])* $name = $op, )*
        }

        impl Opcode {
            /// Every opcode of every modelled chip, in numeric order.
            pub const ALL: &'static [Opcode] = &[$(Opcode::$name),*];

            /// The documentation's name for the opcode, such as `"SFPMAD"`.
            pub const fn name(self) -> &'static str {
                match self { $(Opcode::$name => stringify!($name)),* }
            }

            /// The opcode whose number is `op`, if some modelled chip has it (whether a given
            /// chip has it is [`Arch::has`](super::Arch::has)).
            pub const fn from_u8(op: u8) -> Option<Opcode> {
                match op { $($op => Some(Opcode::$name),)* _ => None }
            }

            /// The opcode named `name` (the documentation's spelling), if any.
            pub fn from_name(name: &str) -> Option<Opcode> {
                match name { $(stringify!($name) => Some(Opcode::$name),)* _ => None }
            }

            /// The sub-unit that executes the instruction when it is issued normally.
            pub const fn sub_unit(self) -> SubUnit {
                match self { $(Opcode::$name => SubUnit::$unit),* }
            }

            /// The fields of [`Instr`]'s variant for this opcode, most significant first: the union
            /// of every chip's fields, each as wide as its widest encoding. The positions are
            /// those of the chip that draws every field at its full width (Blackhole for every
            /// opcode so far); a chip's own layout is [`layout`](Opcode::layout).
            pub const fn union_fields(self) -> &'static [FieldSpec] {
                match self {
                    $(Opcode::$name => &[$(FieldSpec { name: stringify!($field), lo: $lo, bits: $bits }),*]),*
                }
            }

            /// The layout of the opcode's instruction words on `arch` (its fields, most
            /// significant first), or `None` if `arch` does not have the opcode.
            ///
            /// Blackhole: `Diagrams/Src/Bits32.lua`, the `*_BH` entries and those shared with
            /// Wormhole. Wormhole: the entries without the `_BH` suffix.
            pub const fn layout(self, arch: super::Arch) -> Option<&'static [FieldSpec]> {
                match arch {
                    super::Arch::Blackhole => Some(self.union_fields()),
                    super::Arch::Wormhole => match self {
                        $(Opcode::$name => instructions!(@wh $wh [$($field : $bits @ $lo),*]),)*
                    },
                }
            }
        }

        /// One SFPU instruction with its fields, named as the documentation names them.
        ///
        /// One type serves every chip: each variant has the union of the fields the chips give
        /// the opcode, each as wide as its widest encoding (a Wormhole `SFPAND` is
        /// `SFPAND { VB: 0, Mod1: 0, .. }`, which means the same operation on Blackhole).
        /// Every field is a [`U<N>`] of that width; whether a chip can express the instruction
        /// is [`Instr::encode`]'s question.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Instr {
            $( $(#[doc = $doc])* #[allow(missing_docs)] $name { $( $field: U<$bits> ),* }, )*
        }

        impl Instr {
            /// The instruction's opcode.
            pub const fn opcode(&self) -> Opcode {
                match self { $(Instr::$name { .. } => Opcode::$name),* }
            }

            /// The value of each field (the union of the chips' fields), most significant first,
            /// with the field's name.
            pub fn field_values(&self) -> Vec<(&'static str, u32)> {
                let mut out = Vec::with_capacity(8);
                self.for_each_field(|name, value| out.push((name, value)));
                out
            }

            /// Calls `f` with the name and value of every field, most significant first.
            pub fn for_each_field(&self, mut f: impl FnMut(&'static str, u32)) {
                match *self {
                    $(Instr::$name { $($field),* } => { $( f(stringify!($field), $field.get()); )* }),*
                }
            }

            /// The value of its `VD` field, if the instruction has one ([`field`](Instr::field)
            /// of `"VD"`, without comparing names).
            #[allow(unused_variables, reason = "every field is bound; one is read")]
            pub fn vd(&self) -> Option<u32> {
                match *self {
                    $(Instr::$name { $($field),* } => instructions!(@vd $($field)*)),*
                }
            }

            /// The value of the field called `name`, if the instruction has one.
            pub fn field(&self, name: &str) -> Option<u32> {
                let mut found = None;
                self.for_each_field(|n, v| if n == name { found = Some(v) });
                found
            }

            /// Builds the instruction from the fields of `word` laid out as `arch` lays out
            /// `opcode` ([`Opcode::chip_fields`]), ignoring its undrawn bits; a field the chip
            /// does not draw is 0.
            pub(crate) fn from_layout(opcode: Opcode, arch: super::Arch, word: u32) -> Instr {
                // The variant's fields are initialised in the table's order, which is the order
                // of `chip_fields`: the k-th `get` reads the k-th union field.
                let mut fields = CHIP_POSITIONS[arch as usize][opcode.index()].iter();
                let mut get = || fields.next().map_or(0, |&(lo, mask)| (word & mask) >> lo);
                match opcode {
                    $(Opcode::$name => Instr::$name { $($field: U::from_masked(get())),* }),*
                }
            }
        }
    };
    (@wh same [$($f:ident : $b:literal @ $l:literal),*]) => {
        Some(&[$(FieldSpec { name: stringify!($f), lo: $l, bits: $b }),*])
    };
    (@wh none [$($t:tt)*]) => { None };
    (@vd) => { None };
    // The field is passed twice: once to match against the literal `VD`, once to read (the
    // binding's own name, with the caller's hygiene).
    (@vd $f:ident $($rest:ident)*) => { instructions!(@vd_is $f $f $($rest)*) };
    (@vd_is VD $f:ident $($rest:ident)*) => { Some($f.get()) };
    (@vd_is $other:ident $f:ident $($rest:ident)*) => { instructions!(@vd $($rest)*) };
    (@wh { $($f:ident : $b:literal @ $l:literal),* $(,)? } [$($t:tt)*]) => {
        Some(&[$(FieldSpec { name: stringify!($f), lo: $l, bits: $b }),*])
    };
}

instructions! {
    /// Load from Dst into an LReg, converting the format (`SFPLOAD.md`).
    SFPLOAD = 0x70, Load { VD: 4 @ 20, Mod0: 4 @ 16, AddrMod: 3 @ 13, Imm10: 10 @ 0 }
        wormhole { VD: 4 @ 20, Mod0: 4 @ 16, AddrMod: 2 @ 14, Imm10: 10 @ 0 },
    /// Load an immediate into an LReg (`SFPLOADI.md`).
    SFPLOADI = 0x71, Load { VD: 4 @ 20, Mod0: 4 @ 16, Imm16: 16 @ 0 }
        wormhole same,
    /// Store an LReg to Dst, converting the format (`SFPSTORE.md`).
    SFPSTORE = 0x72, Store { VD: 4 @ 20, Mod0: 4 @ 16, AddrMod: 3 @ 13, Imm10: 10 @ 0 }
        wormhole { VD: 4 @ 20, Mod0: 4 @ 16, AddrMod: 2 @ 14, Imm10: 10 @ 0 },
    /// Piecewise linear function with 8-bit coefficients (`SFPLUT.md`). The tt-llk macro's
    /// `dest_reg_addr` argument covers bits `[15:0]`, which the ISA does not draw.
    SFPLUT = 0x73, MAD { VD: 4 @ 20, Mod0: 4 @ 16 }
        wormhole same,
    /// Multiply by a BF16 immediate (`SFPMULI.md`).
    SFPMULI = 0x74, MAD { Imm16: 16 @ 8, VD: 4 @ 4, Mod1: 4 @ 0 }
        wormhole same,
    /// Add a BF16 immediate (`SFPADDI.md`).
    SFPADDI = 0x75, MAD { Imm16: 16 @ 8, VD: 4 @ 4, Mod1: 4 @ 0 }
        wormhole same,
    /// Add to or replace the exponent (`SFPDIVP2.md`).
    SFPDIVP2 = 0x76, Simple { Imm8: 8 @ 12, VC: 4 @ 8, VD: 4 @ 4, Mod1: 4 @ 0 }
        wormhole same,
    /// Extract the exponent (`SFPEXEXP.md`).
    SFPEXEXP = 0x77, Simple { VC: 4 @ 8, VD: 4 @ 4, Mod1: 4 @ 0 }
        wormhole same,
    /// Extract the mantissa (`SFPEXMAN.md`).
    SFPEXMAN = 0x78, Simple { VC: 4 @ 8, VD: 4 @ 4, Mod1: 4 @ 0 }
        wormhole same,
    /// Integer add or subtract (`SFPIADD.md`). `Imm12` is signed.
    SFPIADD = 0x79, Simple { Imm12: 12 @ 12, VC: 4 @ 8, VD: 4 @ 4, Mod1: 4 @ 0 }
        wormhole same,
    /// Bitwise shift (`SFPSHFT.md`). `Imm12` is signed.
    SFPSHFT = 0x7A, Simple { Imm12: 12 @ 12, VC: 4 @ 8, VD: 4 @ 4, Mod1: 4 @ 0 }
        wormhole same,
    /// Set LaneFlags from a comparison with zero (`SFPSETCC.md`).
    SFPSETCC = 0x7B, Simple { Imm1: 1 @ 12, VC: 4 @ 8, VD: 4 @ 4, Mod1: 4 @ 0 }
        wormhole same,
    /// Move, negate, or read special registers (`SFPMOV.md`).
    SFPMOV = 0x7C, Simple { VC: 4 @ 8, VD: 4 @ 4, Mod1: 4 @ 0 }
        wormhole same,
    /// Absolute value, integer or float (`SFPABS.md`).
    SFPABS = 0x7D, Simple { VC: 4 @ 8, VD: 4 @ 4, Mod1: 4 @ 0 }
        wormhole same,
    /// Bitwise AND (`SFPAND.md`).
    SFPAND = 0x7E, Simple { VB: 4 @ 12, VC: 4 @ 8, VD: 4 @ 4, Mod1: 4 @ 0 }
        wormhole { VC: 4 @ 8, VD: 4 @ 4 },
    /// Bitwise OR (`SFPOR.md`).
    SFPOR = 0x7F, Simple { VB: 4 @ 12, VC: 4 @ 8, VD: 4 @ 4, Mod1: 4 @ 0 }
        wormhole { VC: 4 @ 8, VD: 4 @ 4 },
    /// Bitwise NOT (`SFPNOT.md`).
    SFPNOT = 0x80, Simple { VC: 4 @ 8, VD: 4 @ 4 }
        wormhole same,
    /// Count leading zeros (`SFPLZ.md`).
    SFPLZ = 0x81, Simple { VC: 4 @ 8, VD: 4 @ 4, Mod1: 4 @ 0 }
        wormhole same,
    /// Replace the exponent (`SFPSETEXP.md`).
    SFPSETEXP = 0x82, Simple { Imm8: 8 @ 12, VC: 4 @ 8, VD: 4 @ 4, Mod1: 4 @ 0 }
        wormhole same,
    /// Replace the mantissa (`SFPSETMAN.md`). `Imm12` is unsigned.
    SFPSETMAN = 0x83, Simple { Imm12: 12 @ 12, VC: 4 @ 8, VD: 4 @ 4, Mod1: 4 @ 0 }
        wormhole same,
    /// Fused (partially) multiply-add `VD = ±(VA * VB) ± VC` (`SFPMAD.md`).
    SFPMAD = 0x84, MAD { VA: 4 @ 16, VB: 4 @ 12, VC: 4 @ 8, VD: 4 @ 4, Mod1: 4 @ 0 }
        wormhole same,
    /// Same semantics as SFPMAD; preferred spelling when `VA == 10` (`SFPMAD.md`).
    SFPADD = 0x85, MAD { VA: 4 @ 16, VB: 4 @ 12, VC: 4 @ 8, VD: 4 @ 4, Mod1: 4 @ 0 }
        wormhole same,
    /// Same semantics as SFPMAD; preferred spelling when `VC == 9` (`SFPMAD.md`).
    SFPMUL = 0x86, MAD { VA: 4 @ 16, VB: 4 @ 12, VC: 4 @ 8, VD: 4 @ 4, Mod1: 4 @ 0 }
        wormhole same,
    /// Push onto, or modify the top of, the flag stack (`SFPPUSHC.md`).
    SFPPUSHC = 0x87, Simple { VD: 4 @ 4, Mod1: 4 @ 0 }
        wormhole { VD: 4 @ 4 },
    /// Pop from, or read the top of, the flag stack (`SFPPOPC.md`).
    SFPPOPC = 0x88, Simple { VD: 4 @ 4, Mod1: 4 @ 0 }
        wormhole same,
    /// Replace the sign bit (`SFPSETSGN.md`).
    SFPSETSGN = 0x89, Simple { Imm1: 1 @ 12, VC: 4 @ 8, VD: 4 @ 4, Mod1: 4 @ 0 }
        wormhole same,
    /// Set LaneFlags and UseLaneFlagsForLaneEnable directly (`SFPENCC.md`).
    SFPENCC = 0x8A, Simple { Imm2: 2 @ 12, VD: 4 @ 4, Mod1: 4 @ 0 }
        wormhole same,
    /// Complement LaneFlags for an "else" block (`SFPCOMPC.md`).
    SFPCOMPC = 0x8B, Simple { VD: 4 @ 4 }
        wormhole same,
    /// Transpose (register, row) within each column of L0..3 and L4..7 (`SFPTRANSP.md`).
    SFPTRANSP = 0x8C, Simple { VD: 4 @ 4 }
        wormhole same,
    /// Bitwise XOR (`SFPXOR.md`).
    SFPXOR = 0x8D, Simple { VC: 4 @ 8, VD: 4 @ 4 }
        wormhole same,
    /// Stochastic or deterministic rounding to reduced precision (`SFPSTOCHRND_*.md`). tt-llk
    /// spells the macro `SFP_STOCH_RND` and passes `UseImm5` as bit 3 of its `instr_mod1` argument.
    SFPSTOCHRND = 0x8E, Round {
        RoundingMode: 2 @ 21, Imm5: 5 @ 16, VB: 4 @ 12, VC: 4 @ 8, VD: 4 @ 4, UseImm5: 1 @ 3, Mod1: 3 @ 0
    }
        wormhole { RoundingMode: 1 @ 21, Imm5: 5 @ 16, VB: 4 @ 12, VC: 4 @ 8, VD: 4 @ 4, UseImm5: 1 @ 3, Mod1: 3 @ 0 },
    /// No operation (`SFPNOP.md`).
    SFPNOP = 0x8F, Load {}
        wormhole same,
    /// Integer to float and integer to integer conversions (`SFPCAST_*.md`).
    SFPCAST = 0x90, Simple { VC: 4 @ 8, VD: 4 @ 4, Mod1: 4 @ 0 }
        wormhole same,
    /// Write LaneConfig, LoadMacroConfig or the programmable constants (`SFPCONFIG.md`).
    SFPCONFIG = 0x91, Simple { Imm16: 16 @ 8, VD: 4 @ 4, Mod1: 4 @ 0 }
        wormhole same,
    /// Swap, or per-lane min/max (`SFPSWAP.md`).
    SFPSWAP = 0x92, Simple { VC: 4 @ 8, VD: 4 @ 4, Mod1: 4 @ 0 }
        wormhole same,
    /// SFPLOAD plus a scheduled sequence of up to four instructions (`SFPLOADMACRO.md`). The LReg
    /// is `VD = VDHi << 2 | VDLo` and the address immediate `Imm10 = Imm9 << 1 | VDHi`.
    SFPLOADMACRO = 0x93, Load {
        MacroIndex: 2 @ 22, VDLo: 2 @ 20, Mod0: 4 @ 16, AddrMod: 3 @ 13, Imm9: 9 @ 1, VDHi: 1 @ 0
    }
        wormhole { MacroIndex: 2 @ 22, VDLo: 2 @ 20, Mod0: 4 @ 16, AddrMod: 2 @ 14, Imm9: 9 @ 1, VDHi: 1 @ 0 },
    /// Cross-lane shuffles and shifts on the round sub-unit (`SFPSHFT2.md`). Bits `[15:12]` are
    /// `VB` in every mode but `SHFT_IMM`, where all of `[23:12]` is the signed `Imm12`; the field
    /// is carried whole and [`Instr::SFPSHFT2`]'s `VB` is its low four bits.
    SFPSHFT2 = 0x94, Round { Imm12: 12 @ 12, VC: 4 @ 8, VD: 4 @ 4, Mod1: 4 @ 0 }
        wormhole same,
    /// Piecewise linear function with FP32 or FP16 coefficients (`SFPLUTFP32.md`). `Mod1Mirror`
    /// only feeds the auto-stall logic.
    SFPLUTFP32 = 0x95, MAD { Mod1Mirror: 4 @ 16, VD: 4 @ 4, Mod1: 4 @ 0 }
        wormhole { VD: 4 @ 4, Mod1: 4 @ 0 },
    /// Sign-magnitude `VD <= VC` comparison (`SFPLE.md`).
    SFPLE = 0x96, Simple { VC: 4 @ 8, VD: 4 @ 4, Mod1: 4 @ 0 }
        wormhole none,
    /// Sign-magnitude `VD > VC` comparison (`SFPGT.md`).
    SFPGT = 0x97, Simple { VC: 4 @ 8, VD: 4 @ 4, Mod1: 4 @ 0 }
        wormhole none,
    /// 23-bit by 23-bit integer multiply (`SFPMUL24.md`).
    SFPMUL24 = 0x98, MAD { VA: 4 @ 16, VB: 4 @ 12, VC: 4 @ 8, VD: 4 @ 4, Mod1: 4 @ 0 }
        wormhole none,
    /// Approximate reciprocal or exponential (`SFPARECIP.md`).
    SFPARECIP = 0x99, Simple { VB: 4 @ 12, VC: 4 @ 8, VD: 4 @ 4, Mod1: 4 @ 0 }
        wormhole none,
}

impl Opcode {
    /// The opcode's number (bits `[31:24]` of its instruction words).
    pub const fn number(self) -> u8 {
        self as u8
    }

    /// The fields of the opcode's instruction words on `arch`, most significant first; empty if
    /// `arch` does not have the opcode (see [`layout`](Opcode::layout)).
    pub const fn fields(self, arch: Arch) -> &'static [FieldSpec] {
        match self.layout(arch) {
            Some(fields) => fields,
            None => &[],
        }
    }

    /// Where `arch` draws each field of the union type ([`union_fields`](Opcode::union_fields)),
    /// in the same order: the chip's [`FieldSpec`] of the field of that name, or `None` where the
    /// chip does not draw it (and for every field if the chip lacks the opcode).
    ///
    /// The same facts as [`fields`](Opcode::fields), matched by name once, at compile time, so
    /// that decoding a word (which reads the k-th union field from the k-th entry) compares no
    /// names.
    pub fn chip_fields(self, arch: Arch) -> &'static [Option<FieldSpec>] {
        let n = self.union_fields().len();
        &CHIP_FIELDS[arch as usize][self.index()][..n]
    }

    /// The opcode's position in [`Opcode::ALL`] (its number less the first opcode's).
    pub const fn index(self) -> usize {
        (self.number() - Opcode::ALL[0].number()) as usize
    }

    /// [`undrawn_mask`](Opcode::undrawn_mask), from a table built at compile time.
    pub(crate) fn undrawn(self, arch: Arch) -> u32 {
        UNDRAWN[arch as usize][self.index()]
    }

    /// The bits of `arch`'s instruction words that the opcode and its fields occupy.
    pub const fn drawn_mask(self, arch: Arch) -> u32 {
        let fields = self.fields(arch);
        let mut mask = 0xFF00_0000;
        let mut i = 0;
        while i < fields.len() {
            mask |= fields[i].mask();
            i += 1;
        }
        mask
    }

    /// The bits of `arch`'s instruction words that no field covers and that must be zero.
    pub const fn undrawn_mask(self, arch: Arch) -> u32 {
        !self.drawn_mask(arch)
    }
}

/// The most fields any opcode has (SFPSTOCHRND's seven).
const MAX_FIELDS: usize = 7;

/// [`Opcode::chip_fields`] of every chip (indexed by `Arch as usize`) and opcode (by number from
/// the first), built at compile time from the table above.
static CHIP_FIELDS: [[[Option<FieldSpec>; MAX_FIELDS]; Opcode::ALL.len()]; 2] = {
    let mut table = [[[None; MAX_FIELDS]; Opcode::ALL.len()]; 2];
    let arches = [Arch::Blackhole, Arch::Wormhole];
    let mut a = 0;
    while a < arches.len() {
        let arch = arches[a];
        assert!(arch as usize == a);
        let mut o = 0;
        while o < Opcode::ALL.len() {
            let union = Opcode::ALL[o].union_fields();
            let chip = Opcode::ALL[o].fields(arch);
            assert!(union.len() <= MAX_FIELDS);
            let mut k = 0;
            while k < union.len() {
                let mut c = 0;
                while c < chip.len() {
                    if str_eq(chip[c].name, union[k].name) {
                        table[a][o][k] = Some(chip[c]);
                    }
                    c += 1;
                }
                k += 1;
            }
            o += 1;
        }
        a += 1;
    }
    table
};

/// [`CHIP_FIELDS`] as the `(lo, mask)` of each field, `(0, 0)` where the chip does not draw
/// it: what decoding reads.
static CHIP_POSITIONS: [[[(u32, u32); MAX_FIELDS]; Opcode::ALL.len()]; 2] = {
    let mut table = [[[(0, 0); MAX_FIELDS]; Opcode::ALL.len()]; 2];
    let mut a = 0;
    while a < 2 {
        let mut o = 0;
        while o < Opcode::ALL.len() {
            let mut k = 0;
            while k < MAX_FIELDS {
                if let Some(f) = CHIP_FIELDS[a][o][k] {
                    table[a][o][k] = (f.lo, f.mask());
                }
                k += 1;
            }
            o += 1;
        }
        a += 1;
    }
    table
};

/// [`Opcode::undrawn_mask`] of every chip and opcode.
static UNDRAWN: [[u32; Opcode::ALL.len()]; 2] = {
    let mut table = [[0; Opcode::ALL.len()]; 2];
    let arches = [Arch::Blackhole, Arch::Wormhole];
    let mut a = 0;
    while a < 2 {
        let mut o = 0;
        while o < Opcode::ALL.len() {
            table[a][o] = Opcode::ALL[o].undrawn_mask(arches[a]);
            o += 1;
        }
        a += 1;
    }
    table
};

/// `a == b` for field names, usable in a constant (tables built at compile time from
/// [`FieldSpec::name`]).
pub const fn str_eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// The opcodes of each chip (with the opcodes, as they are read from [`Opcode::layout`]).
impl Arch {
    /// The chip's SFPU opcodes, in numeric order: all 42 on Blackhole; on Wormhole the 38 without
    /// `SFPLE`, `SFPGT`, `SFPMUL24` and `SFPARECIP` (0x96..=0x99).
    pub fn opcodes(self) -> &'static [Opcode] {
        const WORMHOLE: [Opcode; 38] = {
            let mut out = [Opcode::SFPLOAD; 38];
            let mut i = 0;
            while i < 38 {
                out[i] = Opcode::ALL[i];
                i += 1;
            }
            out
        };
        match self {
            Arch::Blackhole => Opcode::ALL,
            Arch::Wormhole => &WORMHOLE,
        }
    }

    /// Whether the chip has `op`.
    pub const fn has(self, op: Opcode) -> bool {
        op.layout(self).is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `vd()` is `field("VD")` for every opcode, over words whose every bit varies.
    #[test]
    fn vd_is_the_field_named_vd() {
        for &op in Opcode::ALL {
            for low in [0u32, 0x00FF_FFFF, 0x0055_5555, 0x00AA_AAAA, 0x0012_3456, 0x00F0_F0F0] {
                let word = (op.number() as u32) << 24 | low;
                let i = Instr::from_layout(op, Arch::Blackhole, word);
                assert_eq!(i.vd(), i.field("VD"), "{i:?}");
            }
        }
        assert_eq!(Instr::from_layout(Opcode::SFPMAD, Arch::Blackhole, 0x8400_0070).vd(), Some(7));
        assert_eq!(Instr::SFPNOP {}.vd(), None);
    }

    /// `chip_fields` is `fields` matched by name, and every chip draws its fields in the union
    /// type's order (what lets a decoder read a chip's fields in that order).
    #[test]
    fn chip_fields_are_the_chip_layout_in_union_order() {
        for arch in [Arch::Blackhole, Arch::Wormhole] {
            for &op in Opcode::ALL {
                let by_name: Vec<Option<FieldSpec>> = op
                    .union_fields()
                    .iter()
                    .map(|u| op.fields(arch).iter().find(|f| f.name == u.name).copied())
                    .collect();
                assert_eq!(op.chip_fields(arch), &by_name[..], "{arch} {op:?}");
                let drawn: Vec<FieldSpec> = op.chip_fields(arch).iter().flatten().copied().collect();
                assert_eq!(drawn, op.fields(arch), "{arch} {op:?}");
                assert_eq!(op.undrawn(arch), op.undrawn_mask(arch), "{arch} {op:?}");
            }
        }
        // Hand-checked entries (Bits32.lua): Wormhole's SFPAND draws only VC and VD; its
        // SFPLOADMACRO's AddrMod is two bits at [15:14].
        let and = Opcode::SFPAND.chip_fields(Arch::Wormhole);
        assert_eq!(
            and.iter().map(|f| f.map(|f| (f.lo, f.bits))).collect::<Vec<_>>(),
            [None, Some((8, 4)), Some((4, 4)), None]
        );
        let lm = Opcode::SFPLOADMACRO.chip_fields(Arch::Wormhole);
        assert_eq!(lm[3].map(|f| (f.name, f.lo, f.bits)), Some(("AddrMod", 14, 2)));
    }

    #[test]
    fn forty_two_contiguous_opcodes() {
        assert_eq!(Opcode::ALL.len(), 42);
        for (i, op) in Opcode::ALL.iter().enumerate() {
            assert_eq!(op.number() as usize, 0x70 + i, "{op:?}");
            assert_eq!(Opcode::from_u8(op.number()), Some(*op));
            assert_eq!(Opcode::from_name(op.name()), Some(*op));
        }
        assert_eq!(Opcode::from_u8(0x6F), None);
        assert_eq!(Opcode::from_u8(0x9A), None);
    }

    #[test]
    fn fields_never_overlap() {
        for arch in [Arch::Blackhole, Arch::Wormhole] {
            for op in arch.opcodes() {
                let mut seen = 0xFF00_0000u32;
                for f in op.fields(arch) {
                    assert_eq!(seen & f.mask(), 0, "{arch} {op:?}.{} overlaps", f.name);
                    seen |= f.mask();
                }
                assert_eq!(seen, op.drawn_mask(arch));
            }
        }
    }

    /// Every chip's field is a field of the union type, no wider than it.
    #[test]
    fn chip_layouts_fit_the_union_type() {
        for arch in [Arch::Blackhole, Arch::Wormhole] {
            for op in arch.opcodes() {
                for f in op.fields(arch) {
                    let u = op.union_fields().iter().find(|u| u.name == f.name);
                    assert!(u.is_some_and(|u| u.bits >= f.bits), "{arch} {op:?}.{}", f.name);
                }
            }
        }
    }

    #[test]
    fn layouts_from_spec_table() {
        // Spot checks against `Diagrams/Src/Bits32.lua` row by row (hand-derived masks).
        let bh = Arch::Blackhole;
        assert_eq!(Opcode::SFPLOAD.undrawn_mask(bh), 0x0000_1C00); // [12:10]
        assert_eq!(Opcode::SFPLOADMACRO.undrawn_mask(bh), 0x0000_1C00); // [12:10]
        assert_eq!(Opcode::SFPLUT.undrawn_mask(bh), 0x0000_FFFF); // [15:0]
        assert_eq!(Opcode::SFPMAD.undrawn_mask(bh), 0x00F0_0000); // [23:20]
        assert_eq!(Opcode::SFPNOP.undrawn_mask(bh), 0x00FF_FFFF);
        assert_eq!(Opcode::SFPSTOCHRND.undrawn_mask(bh), 0x0080_0000); // [23]
        assert_eq!(Opcode::SFPLUTFP32.undrawn_mask(bh), 0x00F0_FF00); // [23:20] and [15:8]
        assert_eq!(Opcode::SFPNOT.undrawn_mask(bh), 0x00FF_F00F);
        assert_eq!(Opcode::SFPSHFT2.undrawn_mask(bh), 0);
        assert_eq!(Opcode::SFPENCC.undrawn_mask(bh), 0x00FF_CF00);
    }

    /// Wormhole's own layouts, against Bits32.lua's entries without `_BH` (hand-derived masks).
    #[test]
    fn wormhole_layouts_from_bits32() {
        let wh = Arch::Wormhole;
        assert_eq!(Opcode::SFPLOAD.undrawn_mask(wh), 0x0000_3C00); // [13:10]; AddrMod is [15:14]
        assert_eq!(Opcode::SFPSTORE.undrawn_mask(wh), 0x0000_3C00);
        assert_eq!(Opcode::SFPLOADMACRO.undrawn_mask(wh), 0x0000_3C00);
        assert_eq!(Opcode::SFPAND.undrawn_mask(wh), 0x00FF_F00F); // no VB [15:12], no Mod1 [3:0]
        assert_eq!(Opcode::SFPOR.undrawn_mask(wh), 0x00FF_F00F);
        assert_eq!(Opcode::SFPPUSHC.undrawn_mask(wh), 0x00FF_FF0F); // [3:0] must be 0
        assert_eq!(Opcode::SFPLUTFP32.undrawn_mask(wh), 0x00FF_FF00); // no Mod1Mirror [19:16]
        assert_eq!(Opcode::SFPSTOCHRND.undrawn_mask(wh), 0x00C0_0000); // 1-bit StochasticRounding
        assert_eq!(Opcode::SFPMAD.undrawn_mask(wh), Opcode::SFPMAD.undrawn_mask(Arch::Blackhole));
        assert_eq!(wh.opcodes().len(), 38);
        for op in [Opcode::SFPLE, Opcode::SFPGT, Opcode::SFPMUL24, Opcode::SFPARECIP] {
            assert_eq!(op.layout(wh), None);
        }
    }
}
