//! `decode(chip, operand)`: the operand as a typed `vecfp`, or the reason it is a no-op.
//!
//! Transcribes `amx-vecfp.md` §1.4 ("Decode"), with the chip differences of §1.3 and the tables of
//! §2.2 (ALU modes), §2.3 (lane widths) and §2.5 (BMODE). Seed 004: the operand table, "ALU
//! modes", "Lane width modes" and the first half of `emulate_AMX_VECFP`.

#![allow(non_snake_case, reason = "field names follow the specification notes")]

use super::{Chip, Field, Operand};
use crate::fp::Format;

/// An ALU mode that is not a no-op (§2.2; bits 52:47 when IDX=0, always [`AluMode::Fma`] when
/// IDX=1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum AluMode {
    /// 0: `z + x·y`, fused, one rounding.
    Fma = 0,
    /// 1: `z − x·y`, computed as `fma(−x, y, z)` (x negated before the multiply).
    Fms = 1,
    /// 4: `x ≤ 0 ? +0 : y` (Z input not used).
    Select = 4,
    /// 5: `min(x, z)` (Arm FMIN with DN; Y input not used).
    Min = 5,
    /// 7: `max(x, z)` (Arm FMAX with DN; Y input not used).
    Max = 7,
    /// 10 (M2+): `x·y` (Z input not used).
    Mul = 10,
    /// 11 (M2+): `z + x` (Y input not used).
    AddX = 11,
    /// 12 (M2+): `z + y` (X input not used).
    AddY = 12,
}

impl AluMode {
    /// Every mode, in code order.
    pub const ALL: [AluMode; 8] = [
        AluMode::Fma,
        AluMode::Fms,
        AluMode::Select,
        AluMode::Min,
        AluMode::Max,
        AluMode::Mul,
        AluMode::AddX,
        AluMode::AddY,
    ];

    /// The mode's code in bits 52:47.
    pub const fn code(self) -> u64 {
        self as u64
    }

    /// The modes valid on `chip`: {0, 1, 4, 5, 7}, and {10, 11, 12} on M2+ (§1.4 `valid`).
    pub fn valid_on(chip: Chip) -> &'static [AluMode] {
        if chip >= Chip::M2 { &AluMode::ALL } else { &AluMode::ALL[..5] }
    }
}

/// The lane-width mode: the X/Y element type and the Z element type (§2.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum LaneWidth {
    /// LW 0 on M2+: bf16 × bf16 → bf16, one Z row.
    Bf16,
    /// LW 1 on M2+: bf16 × bf16 → f32, an interleaved Z row pair.
    Bf16F32Pair,
    /// LW 3: f16 × f16 → f32, an interleaved Z row pair.
    F16F32Pair,
    /// LW 4: f32, one Z row.
    F32,
    /// LW 7: f64, one Z row.
    F64,
    /// Every other LW (and 0, 1 on M1): f16, one Z row.
    F16,
}

impl LaneWidth {
    /// Every lane width, in the order of §2.3's table.
    pub const ALL: [LaneWidth; 6] = [
        LaneWidth::Bf16,
        LaneWidth::Bf16F32Pair,
        LaneWidth::F16F32Pair,
        LaneWidth::F32,
        LaneWidth::F64,
        LaneWidth::F16,
    ];

    /// The lane widths `chip` has: all six on M2+, four on M1 (LW 0 and 1 alias f16).
    pub fn on(chip: Chip) -> &'static [LaneWidth] {
        if chip >= Chip::M2 { &LaneWidth::ALL } else { &LaneWidth::ALL[2..] }
    }

    /// The LW code that selects this width (for the catch-all f16, the canonical code 2).
    pub const fn code(self) -> u64 {
        match self {
            LaneWidth::Bf16 => 0,
            LaneWidth::Bf16F32Pair => 1,
            LaneWidth::F16F32Pair => 3,
            LaneWidth::F32 => 4,
            LaneWidth::F64 => 7,
            LaneWidth::F16 => 2,
        }
    }

    /// `xyT`: the X and Y element format.
    pub const fn xyT(self) -> Format {
        match self {
            LaneWidth::Bf16 | LaneWidth::Bf16F32Pair => Format::BF16,
            LaneWidth::F16F32Pair | LaneWidth::F16 => Format::F16,
            LaneWidth::F32 => Format::F32,
            LaneWidth::F64 => Format::F64,
        }
    }

    /// `zT`: the Z element format.
    pub const fn zT(self) -> Format {
        match self {
            LaneWidth::Bf16 => Format::BF16,
            LaneWidth::Bf16F32Pair | LaneWidth::F16F32Pair | LaneWidth::F32 => Format::F32,
            LaneWidth::F64 => Format::F64,
            LaneWidth::F16 => Format::F16,
        }
    }

    /// Whether Z is an interleaved f32 row pair (LW 1 on M2+, LW 3).
    pub const fn is_pair(self) -> bool {
        matches!(self, LaneWidth::Bf16F32Pair | LaneWidth::F16F32Pair)
    }

    /// `eb`: bytes per X/Y element.
    pub const fn eb(self) -> usize {
        self.xyT().bytes()
    }

    /// `EC = 64 / eb`: lanes per X/Y vector.
    pub const fn EC(self) -> usize {
        64 / self.eb()
    }
}

/// X or Y.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum XY {
    /// The X pool.
    X,
    /// The Y pool.
    Y,
}

/// An indexed load of one operand (§2.7 "Indexed expand"; IDX=1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Indexed {
    /// `IDXY`: which operand is indexed (its table is in the same pool).
    pub IDXY: XY,
    /// `TBL`: the table register 0..7.
    pub TBL: u8,
    /// `IB4`: 4-bit indices when true, 2-bit when false.
    pub IB4: bool,
}

impl Indexed {
    /// `ib`: bits per index, 2 or 4.
    pub const fn ib(self) -> usize {
        if self.IB4 { 4 } else { 2 }
    }
}

/// The multi-vector broadcast mode (§2.5; bits 34:32 when MULTI=1 on M2+).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Bmode {
    /// 0: consecutive X and Y registers.
    Consecutive = 0,
    /// 1: every lane of every iteration gets +0.
    ZeroOutput = 1,
    /// 2: the same X register every iteration.
    SameX = 2,
    /// 3: the same Y register every iteration.
    SameY = 3,
    /// 4: X is all +0.
    ZeroX = 4,
    /// 5: Y is all +0.
    ZeroY = 5,
    /// 6: the same X register, lane 0 to all lanes.
    BroadcastX0 = 6,
    /// 7: the same Y register, lane 0 to all lanes.
    BroadcastY0 = 7,
}

impl Bmode {
    /// Every BMODE, in code order.
    pub const ALL: [Bmode; 8] = [
        Bmode::Consecutive,
        Bmode::ZeroOutput,
        Bmode::SameX,
        Bmode::SameY,
        Bmode::ZeroX,
        Bmode::ZeroY,
        Bmode::BroadcastX0,
        Bmode::BroadcastY0,
    ];

    /// The BMODE of code `code & 7`.
    pub const fn from_code(code: u64) -> Bmode {
        Bmode::ALL[(code & 7) as usize]
    }
}

/// How lanes are selected: the 9-bit writemask field when MULTI=0 (§2.4), or the multi-vector
/// mode when MULTI=1 on M2+ (§2.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Select {
    /// One vector; `WM_MODE` = op\[40:38\], `WM_N` = op\[36:32\] (bit 37 cleared by decode).
    Writemask {
        /// The lane-enable / broadcast mode 0..7.
        WM_MODE: u8,
        /// Its value N, 0..31.
        WM_N: u8,
    },
    /// Two or four vectors.
    Multi {
        /// The broadcast mode.
        BMODE: Bmode,
        /// `FOUR` = op\[25\]: four iterations when true, two when false.
        FOUR: bool,
    },
}

/// A `vecfp` that does something: the decoded fields of §1.4.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Vecfp {
    /// `alu`: the ALU mode (0 when IDX=1).
    pub alu: AluMode,
    /// `(xyT, zT)`: the lane width.
    pub lw: LaneWidth,
    /// The indexed operand, when IDX=1.
    pub indexed: Option<Indexed>,
    /// `XSHUF`: the X shuffle S0..S3.
    pub XSHUF: u8,
    /// `YSHUF`: the Y shuffle S0..S3.
    pub YSHUF: u8,
    /// The lane selection (`multi` = MULTI on M2+).
    pub select: Select,
    /// `ZROW`, all six bits (the flow takes it mod `zstep`).
    pub ZROW: u8,
    /// `XOFF`, 0..511.
    pub XOFF: u16,
    /// `YOFF`, 0..511.
    pub YOFF: u16,
}

/// Why a `vecfp` operand is a no-op (it leaves all state untouched).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
pub enum Nop {
    /// `MBZ` (bits 56:54) is non-zero: "Must be zero; no-op otherwise" (seed 004; §1.3).
    #[error("MBZ = {MBZ} is not zero: the whole instruction is a no-op (§1.3)")]
    MbzNonZero {
        /// The value of MBZ, 1..7.
        MBZ: u8,
    },
    /// The ALU mode is not one of §2.2's on any chip (2, 3, 6, 8, 9, 13..63). The zero-output
    /// writemask does not fire either (§1.4).
    #[error("ALU = {ALU} is not an ALU mode: the whole instruction is a no-op (§2.2)")]
    InvalidAlu {
        /// The value of bits 52:47.
        ALU: u8,
    },
    /// ALU modes 10, 11 and 12 are M2+ only; on M1 they are no-ops (§1.3, §2.2).
    #[error("ALU = {ALU} is M2+ only: on {chip} the instruction is a no-op (§1.3)")]
    AluNotOnChip {
        /// 10, 11 or 12.
        ALU: u8,
        /// The chip (M1).
        chip: Chip,
    },
}

/// The result of [`decode`]: a no-op with its reason, or an operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Decoded {
    /// The instruction does nothing.
    Nop(Nop),
    /// The instruction writes Z.
    Op(Vecfp),
}

/// Decodes `op` for `chip`. Transcribes §1.4 line by line; never fails and never panics: every
/// 64-bit value is either a no-op or an operation.
pub fn decode(chip: Chip, op: Operand) -> Decoded {
    if op.MBZ() != 0 {
        // if op[56:54] != 0 -> NOP
        return Decoded::Nop(Nop::MbzNonZero { MBZ: op.MBZ() as u8 });
    }
    let op = Operand(op.0 & !(1 << 37)); // op[37] := 0
    let ALU = op.ALU() as u8;
    let alu = if op.IDX() != 0 { Some(AluMode::Fma) } else { alu_mode(ALU) }; // alu := op[53] ? 0 : op[52:47]
    // CHOICE(§1.3; `docs/spec/amx-vecfp.md#m2-features-on-later-chips`): seed 004 says "M2 only"
    // for ALU 10..12, bit 31 and the bf16 lane widths; the notes (README, HEAD's AMX_VER >= M2
    // tests) read that as M2 and later, M3 and M4 too.
    let alu = match alu {
        // valid := {0,1,4,5,7} ∪ (ver >= M2 ? {10,11,12} : ∅)
        Some(a) if AluMode::valid_on(chip).contains(&a) => a,
        Some(_) => return Decoded::Nop(Nop::AluNotOnChip { ALU, chip }),
        None => return Decoded::Nop(Nop::InvalidAlu { ALU }),
    };
    let lw = match op.LW() {
        // (xyT, zT) := case op[45:42] of
        0 if chip >= Chip::M2 => LaneWidth::Bf16,
        1 if chip >= Chip::M2 => LaneWidth::Bf16F32Pair,
        3 => LaneWidth::F16F32Pair,
        4 => LaneWidth::F32,
        7 => LaneWidth::F64,
        _ => LaneWidth::F16, // 2, 5, 6, 8..15 (and 0, 1 on M1)
    };
    let multi = chip >= Chip::M2 && op.MULTI() != 0; // multi := (ver >= M2) and op[31]
    let select = if multi {
        Select::Multi { BMODE: Bmode::from_code(op.BMODE()), FOUR: op.FOUR() != 0 }
    } else {
        Select::Writemask { WM_MODE: op.WM_MODE() as u8, WM_N: op.WM_N() as u8 }
    };
    let indexed = (op.IDX() != 0).then(|| Indexed {
        IDXY: if op.IDXY() != 0 { XY::Y } else { XY::X },
        TBL: op.TBL() as u8,
        IB4: op.IB4() != 0,
    });
    Decoded::Op(Vecfp {
        alu,
        lw,
        indexed,
        XSHUF: op.XSHUF() as u8,
        YSHUF: op.YSHUF() as u8,
        select,
        ZROW: op.ZROW() as u8,
        XOFF: op.XOFF() as u16,
        YOFF: op.YOFF() as u16,
    })
}

/// The ALU mode of code `code`, if it is one of §2.2's on some chip.
fn alu_mode(code: u8) -> Option<AluMode> {
    AluMode::ALL.into_iter().find(|a| a.code() == code as u64)
}

/// Builds the operand of a decoded operation (the inverse of [`decode`] up to ignored bits:
/// the result has every ignored bit clear, `LW` = [`LaneWidth::code`]).
pub fn encode(v: &Vecfp) -> Operand {
    let mut fields: Vec<(Field, u64)> = vec![
        (Field::LW, v.lw.code()),
        (Field::XSHUF, v.XSHUF as u64 & 3),
        (Field::YSHUF, v.YSHUF as u64 & 3),
        (Field::ZROW, v.ZROW as u64 & 63),
        (Field::XOFF, v.XOFF as u64 & 511),
        (Field::YOFF, v.YOFF as u64 & 511),
    ];
    match v.indexed {
        Some(ix) => fields.extend([
            (Field::IDX, 1),
            (Field::TBL, ix.TBL as u64 & 7),
            (Field::IB4, ix.IB4 as u64),
            (Field::IDXY, (ix.IDXY == XY::Y) as u64),
        ]),
        None => fields.push((Field::ALU, v.alu.code())),
    }
    match v.select {
        Select::Writemask { WM_MODE, WM_N } => {
            fields.extend([(Field::WM_MODE, WM_MODE as u64 & 7), (Field::WM_N, WM_N as u64 & 31)])
        }
        Select::Multi { BMODE, FOUR } => {
            fields.extend([(Field::MULTI, 1), (Field::BMODE, BMODE as u64), (Field::FOUR, FOUR as u64)])
        }
    }
    // Every value is masked to its field's width above, so no field overflows.
    fields.iter().fold(Operand::ZERO, |op, &(f, val)| op.with(f, val).unwrap_or(op))
}
