//! The Dst format helpers that both chips' SFPLOAD and SFPSTORE pages define identically in their
//! "Supporting definitions": `ReadFP16`, `SignMag11ToSignMag32`, `SignMag16ToSignMag32`, `ToFP16`,
//! `ToBF16` and `SignMag11ToFP16`, and how a Dst access is reported.
//!
//! Transcribes tt-isa-documentation WormholeB0 `SFPLOAD.md`
//! (@ `1392d237dca6f783b1b1efb44b82f492fc1bc32e`) and `SFPSTORE.md`
//! (@ `545c98a36757417fc518c70f54032bb05063dbf7`), whose helpers are character for character those
//! of BlackholeA0 `SFPLOAD.md` / `SFPSTORE.md` (@ `0f3f6b70850f1241f2ea1233f37129625850488a`). The
//! helpers that differ (`SignMag8ToSignMag32` / `SignMag9ToSignMag32`, `ToFP32`,
//! `SignMagToTwosComp`, `ToSignMag`) live with each chip's page.

#![allow(non_snake_case, reason = "names follow the ISA documentation")]

use crate::outcome::{Clause, Outcome};
use crate::state::DstAccess;

/// `ReadFP16(x, ENABLE_FP16A_INF)` of both chips' `SFPLOAD.md`.
pub fn ReadFP16(x: u32, ENABLE_FP16A_INF: bool) -> u32 {
    // Dst contained Sign, Man(10b), Exp(5b).
    let Sign = (x >> 15) & 1;
    let mut Man = (x >> 5) & 0x3FF;
    let mut Exp = x & 0x1F;
    if ENABLE_FP16A_INF && Exp == 0x1F && Man == 0x3FF {
        // Remap the largest possible value to IEEE754 infinity.
        Exp = 255;
        Man = 0;
    } else if Exp != 0 {
        Exp += 112; // Rebias from the 5-bit to the 8-bit exponent.
    } else {
        // Denormals become some other denormal; later arithmetic flushes them to zero.
    }
    (Sign << 31) | (Exp << 23) | (Man << 13)
}

/// `SignMag11ToSignMag32(x)` of `SFPLOAD.md`: Dst holds Sign, Mag(10b), Ignored(5b).
pub fn SignMag11ToSignMag32(x: u32) -> u32 {
    let Sign = (x >> 15) & 1;
    let Mag = (x >> 5) & 0x3FF;
    (Sign << 31) | Mag
}

/// `SignMag16ToSignMag32(x)` of `SFPLOAD.md`: Dst holds Sign, Mag(15b).
pub fn SignMag16ToSignMag32(x: u32) -> u32 {
    let Sign = (x >> 15) & 1;
    let Mag = x & 0x7FFF;
    (Sign << 31) | Mag
}

/// `ToFP16(x)` of `SFPSTORE.md`: exponents <= 112 flush to signed zero, > 142 (and Inf, NaN)
/// saturate to the pattern e=31, m=0x3FF; the mantissa is truncated.
pub fn ToFP16(x: u32) -> u32 {
    let Sign = x >> 31;
    let mut Exp = ((x >> 23) & 0xFF) as i32 - 112;
    let mut Man = x & 0x7F_FFFF;
    if Exp <= 0 {
        // Flush underflow and denormals to signed zero.
        Exp = 0;
        Man = 0;
    } else if Exp > 31 {
        // Saturate on overflow: Dst has no NaN or infinity, this is a huge finite value.
        Exp = 31;
        Man = 0x7F_FFFF;
    }
    Man >>= 13; // Truncate toward zero.
    (Sign << 15) | ((Exp as u32) << 10) | Man
}

/// `ToBF16(x)` of `SFPSTORE.md`: flush denormals to signed zero, then truncate toward zero.
pub fn ToBF16(x: u32) -> u32 {
    let Sign = x & 0x8000_0000;
    let Exp = x & 0x7F80_0000;
    let mut Man = x & 0x007F_FFFF;
    if Exp == 0 {
        Man = 0;
    }
    (Sign | Exp | Man) >> 16
}

/// `SignMag11ToFP16(x)` of `SFPSTORE.md`: the Dst "integer 8" type, a sign, a 10-bit magnitude
/// and the fixed exponent 16.
pub fn SignMag11ToFP16(x: u32) -> u32 {
    let Sign = (x >> 31) << 15;
    let Exp = 16 << 10; // Fixed exponent.
    let Man = x & 0x3FF;
    Sign | Exp | Man
}

/// Records what the documentation says about one Dst access of `Lane`.
pub fn note_dst(out: &mut Outcome, access: DstAccess, Lane: usize, write: bool) {
    if !access.row_valid {
        let clause = if write { Clause::DstUndefinedRowPartialWrite } else { Clause::DstUndefinedRowRead };
        out.note_lane(clause, Lane);
    }
    if access.aliased {
        out.note_lane(Clause::DstDebugAliasing, Lane);
    }
}
