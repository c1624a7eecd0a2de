//! The 64-bit `vecfp` operand and its named fields.
//!
//! Spec: `amx-vecfp.md` §1.3 ("Operand fields"); seed 004, second table. The field names are the
//! notes' (`MBZ`, `IDX`, `ALU`, ...). Some fields are views of the same bits that only mean
//! something under a condition: `ALU` (IDX=0) and `TBL`/`IB4`/`IDXY` (IDX=1) share bits 52:47;
//! `WM_MODE`/`WM_N` (MULTI=0) and `BMODE` (MULTI=1) share bits 40:32; `FOUR` is bit 25, the top bit
//! of `ZROW`, when MULTI=1. [`Field::applies`] says which view an operand uses.
//!
//! The text form (`Display` / `FromStr`) lists the fields of the view the operand uses, in the
//! order of [`Field::ALL`], then every other set bit as `IGNORED=0x...`, so that it is lossless:
//! `MULTI=1 BMODE=6 ZROW=33 XOFF=0x40 LW=4` parses back to the same 64 bits. An operand can also be
//! written as one number (`0x0000100000000000`).

#![allow(non_snake_case, reason = "field names follow the specification notes")]

use std::fmt;
use std::str::FromStr;

/// A named bit field of the `vecfp` operand (`amx-vecfp.md` §1.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[allow(clippy::upper_case_acronyms, non_camel_case_types, reason = "the notes' spelling")]
pub enum Field {
    /// Bits 56:54: must be zero, otherwise the whole instruction is a no-op.
    MBZ,
    /// Bit 53: indexed load of one operand (§2.7); forces ALU mode 0.
    IDX,
    /// Bits 52:47 (IDX=0): the ALU mode (§2.2).
    ALU,
    /// Bits 51:49 (IDX=1): the table register, in the pool of the indexed operand.
    TBL,
    /// Bit 48 (IDX=1): 1 = 4-bit indices, 0 = 2-bit indices.
    IB4,
    /// Bit 47 (IDX=1): 1 = Y is indexed, 0 = X is indexed.
    IDXY,
    /// Bits 45:42: the lane-width code (§2.3).
    LW,
    /// Bits 40:38 (MULTI=0): the lane-enable / broadcast mode (§2.4).
    WM_MODE,
    /// Bits 36:32 (MULTI=0): the value N of that mode.
    WM_N,
    /// Bit 31: multi-vector mode (M2+; ignored on M1).
    MULTI,
    /// Bits 34:32 (MULTI=1): the multi-vector broadcast mode (§2.5).
    BMODE,
    /// Bit 25 (MULTI=1): 1 = four iterations, 0 = two. It is the top bit of `ZROW`.
    FOUR,
    /// Bits 30:29: the X shuffle S0..S3 (§2.7).
    XSHUF,
    /// Bits 28:27: the Y shuffle.
    YSHUF,
    /// Bits 25:20: the Z row.
    ZROW,
    /// Bits 18:10: the X byte offset 0..511.
    XOFF,
    /// Bits 8:0: the Y byte offset 0..511.
    YOFF,
}

impl Field {
    /// Every field, in the order of the text form.
    pub const ALL: [Field; 17] = [
        Field::MBZ,
        Field::IDX,
        Field::ALU,
        Field::TBL,
        Field::IB4,
        Field::IDXY,
        Field::LW,
        Field::MULTI,
        Field::WM_MODE,
        Field::WM_N,
        Field::BMODE,
        Field::FOUR,
        Field::XSHUF,
        Field::YSHUF,
        Field::ZROW,
        Field::XOFF,
        Field::YOFF,
    ];

    /// The lowest bit of the field.
    pub const fn lsb(self) -> u32 {
        match self {
            Field::MBZ => 54,
            Field::IDX => 53,
            Field::ALU => 47,
            Field::TBL => 49,
            Field::IB4 => 48,
            Field::IDXY => 47,
            Field::LW => 42,
            Field::WM_MODE => 38,
            Field::WM_N => 32,
            Field::MULTI => 31,
            Field::BMODE => 32,
            Field::FOUR => 25,
            Field::XSHUF => 29,
            Field::YSHUF => 27,
            Field::ZROW => 20,
            Field::XOFF => 10,
            Field::YOFF => 0,
        }
    }

    /// The width of the field in bits.
    pub const fn width(self) -> u32 {
        match self {
            Field::MBZ => 3,
            Field::IDX => 1,
            Field::ALU => 6,
            Field::TBL => 3,
            Field::IB4 => 1,
            Field::IDXY => 1,
            Field::LW => 4,
            Field::WM_MODE => 3,
            Field::WM_N => 5,
            Field::MULTI => 1,
            Field::BMODE => 3,
            Field::FOUR => 1,
            Field::XSHUF => 2,
            Field::YSHUF => 2,
            Field::ZROW => 6,
            Field::XOFF => 9,
            Field::YOFF => 9,
        }
    }

    /// The largest value the field holds.
    pub const fn max(self) -> u64 {
        (1 << self.width()) - 1
    }

    /// The field's bits in place, as a mask of the operand.
    pub const fn mask(self) -> u64 {
        self.max() << self.lsb()
    }

    /// The notes' name of the field.
    pub const fn name(self) -> &'static str {
        match self {
            Field::MBZ => "MBZ",
            Field::IDX => "IDX",
            Field::ALU => "ALU",
            Field::TBL => "TBL",
            Field::IB4 => "IB4",
            Field::IDXY => "IDXY",
            Field::LW => "LW",
            Field::WM_MODE => "WM_MODE",
            Field::WM_N => "WM_N",
            Field::MULTI => "MULTI",
            Field::BMODE => "BMODE",
            Field::FOUR => "FOUR",
            Field::XSHUF => "XSHUF",
            Field::YSHUF => "YSHUF",
            Field::ZROW => "ZROW",
            Field::XOFF => "XOFF",
            Field::YOFF => "YOFF",
        }
    }

    /// Whether the field is the meaningful view of its bits for operand `op` (the conditions of
    /// §1.3: `ALU` when IDX=0, `TBL`/`IB4`/`IDXY` when IDX=1, `WM_MODE`/`WM_N` when MULTI=0,
    /// `BMODE`/`FOUR` when MULTI=1). `MULTI` is read as written: on M1 the hardware ignores it,
    /// which is a matter for [`decode`](crate::decode), not for the field layout.
    pub const fn applies(self, op: Operand) -> bool {
        let idx = op.IDX() != 0;
        let multi = op.MULTI() != 0;
        match self {
            Field::ALU => !idx,
            Field::TBL | Field::IB4 | Field::IDXY => idx,
            Field::WM_MODE | Field::WM_N => !multi,
            Field::BMODE | Field::FOUR => multi,
            _ => true,
        }
    }
}

impl fmt::Display for Field {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Field {
    type Err = OperandParseError;
    fn from_str(s: &str) -> Result<Field, OperandParseError> {
        Field::ALL
            .into_iter()
            .find(|f| f.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| OperandParseError::UnknownField(s.to_string()))
    }
}

/// Bits that no field of any view uses: 63:57, 46, 41, 37, 26, 19 and 9 (§1.3, "ignored").
/// Bit 52 when IDX=1 and bits 40:35 when MULTI=1 are ignored too, but they belong to a field of
/// the other view.
pub const ALWAYS_IGNORED: u64 =
    (0x7F << 57) | (1 << 46) | (1 << 41) | (1 << 37) | (1 << 26) | (1 << 19) | (1 << 9);

/// A value too wide for its field.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{field} is {width} bits wide; {value:#x} does not fit", width = field.width())]
pub struct FieldOverflow {
    /// The field.
    pub field: Field,
    /// The value that was given.
    pub value: u64,
}

/// The 64-bit operand of `vecfp`: the contents of the general-purpose register the instruction
/// word names (§1.2).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Operand(pub u64);

impl Operand {
    /// The all-zero operand: an FMA into z\[0\] (f16 on M1, bf16 on M2+; §1.2).
    pub const ZERO: Operand = Operand(0);

    /// The raw value of `field`, whatever view the operand uses.
    pub const fn get(self, field: Field) -> u64 {
        (self.0 >> field.lsb()) & field.max()
    }

    /// The operand with `field` set to `value` (the other bits unchanged).
    pub const fn with(self, field: Field, value: u64) -> Result<Operand, FieldOverflow> {
        if value > field.max() {
            return Err(FieldOverflow { field, value });
        }
        Ok(Operand((self.0 & !field.mask()) | (value << field.lsb())))
    }

    /// An operand built from named fields, in order (a later field overwrites the bits of an
    /// earlier one it overlaps). Fields not named are zero.
    pub fn from_fields(fields: &[(Field, u64)]) -> Result<Operand, FieldOverflow> {
        fields.iter().try_fold(Operand::ZERO, |op, &(f, v)| op.with(f, v))
    }

    /// Bits 56:54.
    pub const fn MBZ(self) -> u64 {
        self.get(Field::MBZ)
    }
    /// Bit 53.
    pub const fn IDX(self) -> u64 {
        self.get(Field::IDX)
    }
    /// Bits 52:47 (meaningful when IDX=0).
    pub const fn ALU(self) -> u64 {
        self.get(Field::ALU)
    }
    /// Bits 51:49 (meaningful when IDX=1).
    pub const fn TBL(self) -> u64 {
        self.get(Field::TBL)
    }
    /// Bit 48 (meaningful when IDX=1).
    pub const fn IB4(self) -> u64 {
        self.get(Field::IB4)
    }
    /// Bit 47 (meaningful when IDX=1).
    pub const fn IDXY(self) -> u64 {
        self.get(Field::IDXY)
    }
    /// Bits 45:42.
    pub const fn LW(self) -> u64 {
        self.get(Field::LW)
    }
    /// Bits 40:38 (meaningful when MULTI=0).
    pub const fn WM_MODE(self) -> u64 {
        self.get(Field::WM_MODE)
    }
    /// Bits 36:32 (meaningful when MULTI=0).
    pub const fn WM_N(self) -> u64 {
        self.get(Field::WM_N)
    }
    /// Bit 31.
    pub const fn MULTI(self) -> u64 {
        self.get(Field::MULTI)
    }
    /// Bits 34:32 (meaningful when MULTI=1).
    pub const fn BMODE(self) -> u64 {
        self.get(Field::BMODE)
    }
    /// Bit 25 (meaningful when MULTI=1).
    pub const fn FOUR(self) -> u64 {
        self.get(Field::FOUR)
    }
    /// Bits 30:29.
    pub const fn XSHUF(self) -> u64 {
        self.get(Field::XSHUF)
    }
    /// Bits 28:27.
    pub const fn YSHUF(self) -> u64 {
        self.get(Field::YSHUF)
    }
    /// Bits 25:20.
    pub const fn ZROW(self) -> u64 {
        self.get(Field::ZROW)
    }
    /// Bits 18:10.
    pub const fn XOFF(self) -> u64 {
        self.get(Field::XOFF)
    }
    /// Bits 8:0.
    pub const fn YOFF(self) -> u64 {
        self.get(Field::YOFF)
    }

    /// The fields of the view this operand uses that are non-zero, in text-form order, and the
    /// remaining set bits (those no listed field covers).
    pub fn fields(self) -> (Vec<(Field, u64)>, u64) {
        let mut listed = Vec::new();
        let mut covered = 0u64;
        for f in Field::ALL {
            // FOUR is the top bit of ZROW; ZROW is listed whole.
            if f == Field::FOUR || !f.applies(self) {
                continue;
            }
            covered |= f.mask();
            if self.get(f) != 0 {
                listed.push((f, self.get(f)));
            }
        }
        (listed, self.0 & !covered)
    }
}

impl fmt::Display for Operand {
    /// The text form: `vecfp` followed by the non-zero fields of the operand's view and any other
    /// set bits as `IGNORED=0x...`; the zero operand is `vecfp` alone.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("vecfp")?;
        let (fields, rest) = self.fields();
        for (field, v) in fields {
            match field {
                Field::XOFF | Field::YOFF => write!(f, " {field}={v:#x}")?,
                _ => write!(f, " {field}={v}")?,
            }
        }
        if rest != 0 {
            write!(f, " IGNORED={rest:#x}")?;
        }
        Ok(())
    }
}

/// Why a text operand does not parse.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OperandParseError {
    /// A name that is not a field of §1.3 (nor `IGNORED`).
    #[error(
        "`{0}` is not a vecfp field (expected one of MBZ IDX ALU TBL IB4 IDXY LW MULTI WM_MODE WM_N BMODE FOUR XSHUF YSHUF ZROW XOFF YOFF IGNORED)"
    )]
    UnknownField(String),
    /// A token that is neither `NAME=VALUE` nor a single number.
    #[error("`{0}` is not of the form NAME=VALUE")]
    Syntax(String),
    /// A value that is not a number.
    #[error("{field}: `{text}` is not a number")]
    BadNumber {
        /// The field name as written.
        field: String,
        /// The value as written.
        text: String,
    },
    /// A value too wide for its field.
    #[error(transparent)]
    Overflow(#[from] FieldOverflow),
    /// Two fields given in one text cover the same bits.
    #[error("{0} and {1} overlap; give only one of them")]
    Overlap(String, String),
}

/// Parses an unsigned number: decimal, `0x` hexadecimal or `0b` binary, `_` allowed.
fn parse_u64(text: &str) -> Option<u64> {
    let t = text.trim().replace('_', "");
    let (digits, radix) = if let Some(h) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        (h.to_string(), 16)
    } else if let Some(b) = t.strip_prefix("0b").or_else(|| t.strip_prefix("0B")) {
        (b.to_string(), 2)
    } else {
        (t, 10)
    };
    if digits.is_empty() {
        return None;
    }
    u64::from_str_radix(&digits, radix).ok()
}

impl FromStr for Operand {
    type Err = OperandParseError;

    /// Reads the text form: an optional `vecfp`, then `NAME=VALUE` tokens (fields of §1.3 and
    /// `IGNORED` for raw bits), or a single number for the whole operand.
    fn from_str(s: &str) -> Result<Operand, OperandParseError> {
        let mut tokens: Vec<&str> = s.split_whitespace().collect();
        if tokens.first().is_some_and(|t| t.eq_ignore_ascii_case("vecfp")) {
            tokens.remove(0);
        }
        if let [single] = tokens[..]
            && !single.contains('=')
        {
            return parse_u64(single).map(Operand).ok_or_else(|| OperandParseError::Syntax(single.into()));
        }
        let mut op = Operand::ZERO;
        let mut given: Vec<(String, u64)> = Vec::new();
        for token in tokens {
            let (name, value) =
                token.split_once('=').ok_or_else(|| OperandParseError::Syntax(token.into()))?;
            let v = parse_u64(value)
                .ok_or_else(|| OperandParseError::BadNumber { field: name.into(), text: value.into() })?;
            let (label, mask) = if name.eq_ignore_ascii_case("IGNORED") {
                op = Operand(op.0 | v);
                ("IGNORED".to_string(), v)
            } else {
                let field: Field = name.parse()?;
                op = op.with(field, v)?;
                (field.name().to_string(), field.mask())
            };
            if let Some((other, _)) = given.iter().find(|(_, m)| m & mask != 0) {
                return Err(OperandParseError::Overlap(other.clone(), label));
            }
            given.push((label, mask));
        }
        Ok(op)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn field_masks_tile_the_operand_per_view() {
        // IDX=0, MULTI=0 view: ALU, WM_MODE, WM_N and the always-used fields, plus the ignored
        // bits, cover all 64 bits exactly once.
        let views: [&[Field]; 4] = [
            &[Field::ALU, Field::WM_MODE, Field::WM_N],
            &[Field::TBL, Field::IB4, Field::IDXY, Field::WM_MODE, Field::WM_N],
            &[Field::ALU, Field::BMODE],
            &[Field::TBL, Field::IB4, Field::IDXY, Field::BMODE],
        ];
        let common = [
            Field::MBZ,
            Field::IDX,
            Field::LW,
            Field::MULTI,
            Field::XSHUF,
            Field::YSHUF,
            Field::ZROW,
            Field::XOFF,
            Field::YOFF,
        ];
        for (n, view) in views.iter().enumerate() {
            let mut covered = ALWAYS_IGNORED;
            for f in common.iter().chain(view.iter()) {
                assert_eq!(covered & f.mask(), 0, "view {n}: {f} overlaps");
                covered |= f.mask();
            }
            // The view-specific ignored bits: 52 under IDX=1, 40:35 under MULTI=1.
            let idx = n & 1 == 1;
            let multi = n >= 2;
            if idx {
                covered |= 1 << 52;
            }
            if multi {
                covered |= 0x3F << 35 & !(1 << 37);
            }
            assert_eq!(covered, u64::MAX, "view {n}: {:#x} uncovered", !covered);
        }
    }

    #[test]
    fn text_form_examples() {
        let op =
            Operand::from_fields(&[(Field::ALU, 1), (Field::LW, 4), (Field::ZROW, 5), (Field::XOFF, 0x40)])
                .unwrap();
        assert_eq!(op.to_string(), "vecfp ALU=1 LW=4 ZROW=5 XOFF=0x40");
        assert_eq!("vecfp ALU=1 LW=4 ZROW=5 XOFF=0x40".parse::<Operand>().unwrap(), op);
        assert_eq!(Operand::ZERO.to_string(), "vecfp");
        let multi = Operand(1 << 31 | 6 << 32 | 1 << 52 | 1 << 63);
        assert_eq!(multi.to_string(), "vecfp ALU=32 MULTI=1 BMODE=6 IGNORED=0x8000000000000000");
        let indexed = Operand(1 << 53 | 1 << 52 | 3 << 49 | 1 << 47);
        assert_eq!(indexed.to_string(), "vecfp IDX=1 TBL=3 IDXY=1 IGNORED=0x10000000000000");
        assert_eq!("0x20".parse::<Operand>().unwrap(), Operand(0x20));
    }

    #[test]
    fn text_form_errors() {
        let cases = [
            ("ALU=64", "6 bits wide"),
            ("FOO=1", "not a vecfp field"),
            ("ALU=1 TBL=2", "overlap"),
            ("ALU", "NAME=VALUE"),
            ("ALU=x", "not a number"),
            ("ALU=1 ALU=2", "overlap"),
        ];
        for (text, want) in cases {
            let err = text.parse::<Operand>().expect_err(text).to_string();
            assert!(err.contains(want), "{text}: {err}");
        }
    }
}
