//! The SFPU instruction set: architectures, typed instructions, encoding, decoding, the mode
//! constants of the documentation, and the tt-llk macro text form.
//!
//! Spec: `blackhole-sfpu.md` §1 (instruction table and encoding families).

mod field;
mod instr;
pub mod mods;
mod text;

pub use field::{FieldOverflow, U};
pub use instr::{FieldSpec, Instr, Opcode, SubUnit};
pub use text::{
    MAX_NESTING, ParseError, ParseErrorKind, ParseWarning, ProgramLine, parse_instr,
    parse_instr_with_warnings, parse_program, parse_program_with_warnings,
};

use std::fmt;

/// A Tensix architecture whose Vector Unit this crate can describe.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Arch {
    /// Blackhole A0.
    Blackhole,
    /// Wormhole B0. Its semantics are not modelled yet; decoding for it returns
    /// [`DecodeError::ArchNotSupported`].
    Wormhole,
}

impl fmt::Display for Arch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Arch::Blackhole => "blackhole",
            Arch::Wormhole => "wormhole",
        })
    }
}

impl std::str::FromStr for Arch {
    type Err = String;
    fn from_str(s: &str) -> Result<Arch, String> {
        match s.to_ascii_lowercase().as_str() {
            "blackhole" | "bh" => Ok(Arch::Blackhole),
            "wormhole" | "wh" => Ok(Arch::Wormhole),
            _ => Err(format!("unknown architecture `{s}` (expected `blackhole` or `wormhole`)")),
        }
    }
}

/// Why an instruction word does not decode.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DecodeError {
    /// Bits `[31:24]` are not an SFPU opcode of the architecture.
    #[error(
        "0x{word:08x}: opcode 0x{opcode:02x} is not a Blackhole SFPU instruction (those are 0x70..=0x99)"
    )]
    NotSfpu {
        /// The instruction word.
        word: u32,
        /// Its bits `[31:24]`.
        opcode: u8,
    },
    /// The word sets bits that no field of its instruction covers. What the hardware does with
    /// them is not specified (spec §6.3 item 21), so the word is not a valid instruction.
    #[error(
        "0x{word:08x}: {} does not use bits 0x{bits:08x}, but they are set (their effect is unspecified, spec §6.3 item 21)",
        opcode.name()
    )]
    UndrawnBits {
        /// The instruction word.
        word: u32,
        /// Its opcode.
        opcode: Opcode,
        /// The undrawn bits that are set.
        bits: u32,
    },
    /// The architecture is not modelled yet.
    #[error("decoding for {arch} is not supported yet (only blackhole is modelled)")]
    ArchNotSupported {
        /// The architecture that was asked for.
        arch: Arch,
    },
}

/// Decodes one instruction word of `arch`.
///
/// Never panics. Every 32-bit word either decodes to an [`Instr`] whose
/// [`encode`](Instr::encode) is the same word, or gives a [`DecodeError`] saying why not.
pub fn decode(arch: Arch, word: u32) -> Result<Instr, DecodeError> {
    let (instr, undrawn) = decode_ignoring_undrawn(arch, word)?;
    if undrawn != 0 {
        return Err(DecodeError::UndrawnBits { word, opcode: instr.opcode(), bits: undrawn });
    }
    Ok(instr)
}

/// Decodes the fields of `word` as the hardware reads them, returning the instruction and the
/// undrawn bits that were set (and ignored).
///
/// This is for words the hardware executes without an assembler in between, such as the
/// SFPLOADMACRO instruction templates, where a set undrawn bit is reported as unspecified
/// behaviour rather than refused.
pub fn decode_ignoring_undrawn(arch: Arch, word: u32) -> Result<(Instr, u32), DecodeError> {
    if arch != Arch::Blackhole {
        return Err(DecodeError::ArchNotSupported { arch });
    }
    let number = (word >> 24) as u8;
    let opcode = Opcode::from_u8(number).ok_or(DecodeError::NotSfpu { word, opcode: number })?;
    Ok((Instr::from_fields(opcode, word), word & opcode.undrawn_mask()))
}

/// Encodes one instruction. Undrawn bits are zero.
pub fn encode(instr: &Instr) -> u32 {
    instr.encode()
}
