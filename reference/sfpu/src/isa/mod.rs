//! The SFPU instruction sets of Blackhole A0 and Wormhole B0: the chips, typed instructions,
//! per-chip encoding and decoding, the mode constants of the documentation, and the tt-llk macro
//! text form.
//!
//! One [`Instr`] type serves both chips (the union of their fields); the chip is explicit wherever
//! a word or a text is produced or read: [`decode`]`(arch, word)`, [`encode`]`(arch, &instr)`,
//! [`parse_instr`]`(arch, text)`, [`Instr::display`]`(arch)`. The encodings are those of
//! `Diagrams/Src/Bits32.lua` (`instr.rs`).

mod arch;
mod field;
mod instr;
pub mod mods;
mod text;

pub use arch::Arch;
pub use field::{FieldOverflow, U};
pub use instr::{FieldSpec, Instr, Opcode, SubUnit, str_eq};
pub use text::{
    InstrDisplay, MAX_NESTING, ParseError, ParseErrorKind, ParseWarning, ProgramLine, parse_instr,
    parse_instr_with_warnings, parse_program, parse_program_with_warnings,
};

/// Why an instruction word does not decode.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DecodeError {
    /// Bits `[31:24]` are not an SFPU opcode of the architecture.
    #[error("0x{word:08x}: opcode 0x{opcode:02x} is not a {arch} SFPU instruction")]
    NotSfpu {
        /// The chip.
        arch: Arch,
        /// The instruction word.
        word: u32,
        /// Its bits `[31:24]`.
        opcode: u8,
    },
    /// The word sets bits that no field of its instruction covers on the chip. What the hardware
    /// does with them is not specified (`docs/spec/sfpu-blackhole.md#undrawn-bits`), so the word is
    /// not a valid instruction.
    #[error(
        "0x{word:08x}: {arch} {} does not use bits 0x{bits:08x}, but they are set (their effect is unspecified, docs/spec/sfpu-blackhole.md#undrawn-bits)",
        opcode.name()
    )]
    UndrawnBits {
        /// The chip.
        arch: Arch,
        /// The instruction word.
        word: u32,
        /// Its opcode.
        opcode: Opcode,
        /// The undrawn bits that are set.
        bits: u32,
    },
}

/// Why an instruction cannot be encoded for a chip.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EncodeError {
    /// The chip does not have the opcode (Wormhole has no `SFPLE`, `SFPGT`, `SFPMUL24`,
    /// `SFPARECIP`).
    #[error("{arch} has no {}", opcode.name())]
    OpcodeNotOnChip {
        /// The chip.
        arch: Arch,
        /// The opcode.
        opcode: Opcode,
    },
    /// A field the chip's encoding of the opcode does not have is non-zero (for example a
    /// Wormhole `SFPAND` with `Mod1 != 0`).
    #[error("{arch} {} has no {field} field, but it is {value}", opcode.name())]
    FieldNotOnChip {
        /// The chip.
        arch: Arch,
        /// The opcode.
        opcode: Opcode,
        /// The field's name.
        field: &'static str,
        /// Its value.
        value: u32,
    },
    /// A field's value does not fit the chip's narrower field (for example `AddrMod = 4` on
    /// Wormhole, whose field is two bits).
    #[error("{arch} {} {field} is {bits} bits wide; {value} does not fit", opcode.name())]
    ValueTooWide {
        /// The chip.
        arch: Arch,
        /// The opcode.
        opcode: Opcode,
        /// The field's name.
        field: &'static str,
        /// Its value.
        value: u32,
        /// The chip's width for the field.
        bits: u32,
    },
}

/// Decodes one instruction word of `arch`.
///
/// Never panics. Every 32-bit word either decodes to an [`Instr`] whose
/// [`encode`](Instr::encode) for `arch` is the same word, or gives a [`DecodeError`] saying why
/// not.
pub fn decode(arch: Arch, word: u32) -> Result<Instr, DecodeError> {
    let (instr, undrawn) = decode_ignoring_undrawn(arch, word)?;
    if undrawn != 0 {
        return Err(DecodeError::UndrawnBits { arch, word, opcode: instr.opcode(), bits: undrawn });
    }
    Ok(instr)
}

/// Decodes the fields of `word` as `arch` reads them, returning the instruction and the undrawn
/// bits that were set (and ignored).
///
/// This is for words the hardware executes without an assembler in between, such as the
/// SFPLOADMACRO instruction templates, where a set undrawn bit is reported as unspecified
/// behaviour rather than refused.
pub fn decode_ignoring_undrawn(arch: Arch, word: u32) -> Result<(Instr, u32), DecodeError> {
    let number = (word >> 24) as u8;
    let not_sfpu = DecodeError::NotSfpu { arch, word, opcode: number };
    let opcode = Opcode::from_u8(number).ok_or(not_sfpu)?;
    if !arch.has(opcode) {
        return Err(not_sfpu);
    }
    Ok((Instr::from_layout(opcode, arch, word), word & opcode.undrawn(arch)))
}

/// Encodes one instruction for `arch`, or says why `arch` cannot express it. Undrawn bits are
/// zero.
pub fn encode(arch: Arch, instr: &Instr) -> Result<u32, EncodeError> {
    instr.encode(arch)
}

impl Instr {
    /// The Blackhole instruction word (undrawn bits zero). Blackhole has every opcode of the type
    /// and its layouts draw every field at full width, so this is total: it equals
    /// `self.encode(Arch::Blackhole)`, which cannot fail.
    pub fn encode_blackhole(&self) -> u32 {
        let opcode = self.opcode();
        let mut word = (opcode.number() as u32) << 24;
        let layout = opcode.union_fields();
        self.for_each_field(|field, value| {
            if let Some(f) = layout.iter().find(|f| f.name == field) {
                word |= value << f.lo;
            }
        });
        word
    }

    /// Whether `arch` can express the instruction: `self.encode(arch).is_ok()`, answered field by
    /// field in [`Opcode::chip_fields`] order, without building the word or comparing names (the
    /// machine asks for every instruction it issues on Wormhole).
    pub fn fits(&self, arch: Arch) -> bool {
        if !arch.has(self.opcode()) {
            return false;
        }
        let mut fields = self.opcode().chip_fields(arch).iter();
        let mut fits = true;
        self.for_each_field(|_, value| {
            fits &= match fields.next() {
                Some(Some(f)) => value >> f.bits == 0,
                _ => value == 0,
            };
        });
        fits
    }

    /// The instruction word for `arch` (undrawn bits zero), or why `arch` cannot express the
    /// instruction: an opcode it lacks, a field it lacks set to a non-zero value, or a value too
    /// wide for its field. Blackhole's layouts draw every field of the type at full width, so
    /// on Blackhole this never fails.
    pub fn encode(&self, arch: Arch) -> Result<u32, EncodeError> {
        let opcode = self.opcode();
        let layout = opcode.layout(arch).ok_or(EncodeError::OpcodeNotOnChip { arch, opcode })?;
        let mut word = (opcode.number() as u32) << 24;
        let mut error = None;
        self.for_each_field(|field, value| match layout.iter().find(|f| f.name == field) {
            Some(f) if value >> f.bits == 0 => word |= value << f.lo,
            Some(f) => {
                error.get_or_insert(EncodeError::ValueTooWide { arch, opcode, field, value, bits: f.bits });
            }
            None if value == 0 => {}
            None => {
                error.get_or_insert(EncodeError::FieldNotOnChip { arch, opcode, field, value });
            }
        });
        match error {
            Some(e) => Err(e),
            None => Ok(word),
        }
    }
}
