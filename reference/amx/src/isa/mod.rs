//! The `vecfp` instruction as types: chip profiles, the 64-bit operand and its named fields, and
//! `decode` to a typed instruction or a no-op with its reason.
//!
//! Spec: `amx-vecfp.md` §1.2 (instruction word), §1.3 (operand fields and chip differences) and
//! §1.4 (decode). These types are shared with the fast model.

mod decode;
mod operand;

pub use decode::{AluMode, Bmode, Decoded, Indexed, LaneWidth, Nop, Select, Vecfp, XY, decode, encode};
pub use operand::{ALWAYS_IGNORED, Field, FieldOverflow, Operand, OperandParseError};

use std::fmt;

/// The A64 instruction word of `vecfp` with the operand in general-purpose register `n`
/// (`0x0020_1000 | (19 << 5) | n`; §1.2). `n = 31` is XZR, an operand of 0.
pub const fn instruction_word(n: u32) -> u32 {
    0x0020_1000 | (19 << 5) | (n & 31)
}

/// A chip profile: the AMX version whose `vecfp` semantics apply (§1.3, "Differences by chip").
///
/// M3 changed no `vecfp` behaviour, so it is the profile [`Chip::M2`] (the text form accepts `M3`
/// and reads it as `M2`). The order is the version order, so `chip >= Chip::M2` reads like the
/// notes' `ver >= M2`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
pub enum Chip {
    /// M1: no ALU modes 10..12, no bf16 (LW 0 and 1 are f16), bit 31 ignored.
    M1,
    /// M2 and M3: bf16 lane widths, ALU modes 10..12, multi-vector mode.
    #[serde(alias = "M3")]
    M2,
    /// M4: as M2, plus the offset masking of §2.6 when bit 31 = 1.
    M4,
}

impl Chip {
    /// Every profile.
    pub const ALL: [Chip; 3] = [Chip::M1, Chip::M2, Chip::M4];

    /// The profile's name.
    pub const fn name(self) -> &'static str {
        match self {
            Chip::M1 => "M1",
            Chip::M2 => "M2",
            Chip::M4 => "M4",
        }
    }
}

impl fmt::Display for Chip {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Chip {
    type Err = String;
    fn from_str(s: &str) -> Result<Chip, String> {
        match s.to_ascii_uppercase().as_str() {
            "M1" => Ok(Chip::M1),
            "M2" | "M3" => Ok(Chip::M2),
            "M4" => Ok(Chip::M4),
            _ => Err(format!("unknown chip profile `{s}` (expected M1, M2, M3 or M4)")),
        }
    }
}
