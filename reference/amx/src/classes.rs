//! The semantic classes of `vecfp`: what "every mode" means, per chip profile, for a generator of
//! golden vectors.
//!
//! Transcribes `amx-vecfp.md` §4.2 ("What every mode means: semantic classes";
//! `docs/spec/amx-vecfp.md#semantic-classes`). A class is one
//! value on each of the axes lane width × operation source × shuffle pair × lane selection; the
//! other axes of the table (offsets, ZROW) are orthogonal and are chosen per vector. Each class
//! has a representative operand ([`Class::operand`]); a generator fills the state and the offsets.
//!
//! | Axis | M2 = M3, M4 | M1 |
//! |---|---|---|
//! | lane width | 6 | 4 (LW 0, 1 alias f16) |
//! | source | 8 ALU modes + 4 indexed = 12 | 5 + 4 = 9 |
//! | shuffle pair | 16 (9 distinct for f64) | 16 |
//! | lane selection | 17 writemask + 16 multi = 33 | 17 |
//!
//! The full products are 6 × 12 × 16 × 33 = 38 016 (M2, and M4 again, where the 18 432 multi
//! classes behave differently only with unaligned offsets) and 4 × 9 × 16 × 17 = 9 792 (M1).
//! Outside the product: the two no-op classes ([`NopClass`]), and on M1 the ALU 10..12 no-ops and
//! "bit 31 set but ignored".

#![allow(non_snake_case, reason = "field names follow the specification notes")]

use crate::isa::{AluMode, Bmode, Chip, Field, LaneWidth, Operand, XY};

/// Where the operation comes from: an ALU mode, or an indexed load (which forces ALU mode 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Source {
    /// IDX = 0 with this ALU mode.
    Alu(AluMode),
    /// IDX = 1: X or Y indexed, with 2- or 4-bit indices.
    Indexed {
        /// Which operand is indexed.
        IDXY: XY,
        /// 4-bit indices when true.
        IB4: bool,
    },
}

/// A lane-selection class: §2.4's writemask classes (bit 31 = 0) and §2.5's multi classes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SelectClass {
    /// Mode 0 with N = 0, 1, 2, 3, 4, 5, or 6 standing for every N ≥ 6.
    Mode0 {
        /// 0..=6.
        N: u8,
    },
    /// Mode 1: broadcast a Y lane.
    Broadcast,
    /// Modes 2..=5 with n = N mod EC zero or not.
    Range {
        /// 2..=5.
        mode: u8,
        /// Whether n = 0.
        n_zero: bool,
    },
    /// Modes 6 and 7: no lane.
    NoLanes,
    /// Bit 31 = 1 (M2+): a BMODE with two or four iterations.
    Multi {
        /// The broadcast mode.
        BMODE: Bmode,
        /// Four iterations when true.
        FOUR: bool,
    },
}

/// The two no-op classes of §4.2 (and, on M1, ALU 10..12).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NopClass {
    /// MBZ ≠ 0.
    Mbz,
    /// An ALU code that is no mode on the chip.
    InvalidAlu,
}

/// One semantic class: a point of the product of §4.2's axes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Class {
    /// The lane width.
    pub lw: LaneWidth,
    /// The operation source.
    pub source: Source,
    /// The X shuffle 0..=3.
    pub XSHUF: u8,
    /// The Y shuffle 0..=3.
    pub YSHUF: u8,
    /// The lane selection.
    pub select: SelectClass,
}

/// The sources of `chip`: 12 on M2+, 9 on M1.
pub fn sources(chip: Chip) -> Vec<Source> {
    let alus = AluMode::valid_on(chip).iter().map(|&a| Source::Alu(a));
    let indexed = [(XY::X, false), (XY::X, true), (XY::Y, false), (XY::Y, true)]
        .into_iter()
        .map(|(IDXY, IB4)| Source::Indexed { IDXY, IB4 });
    alus.chain(indexed).collect()
}

/// The lane-selection classes of `chip`: 17 writemask classes, plus 16 multi classes on M2+.
pub fn select_classes(chip: Chip) -> Vec<SelectClass> {
    let mut out: Vec<SelectClass> = (0..=6).map(|N| SelectClass::Mode0 { N }).collect();
    out.push(SelectClass::Broadcast);
    for mode in 2..=5 {
        for n_zero in [true, false] {
            out.push(SelectClass::Range { mode, n_zero });
        }
    }
    out.push(SelectClass::NoLanes);
    if chip >= Chip::M2 {
        for FOUR in [false, true] {
            out.extend(Bmode::ALL.iter().map(|&BMODE| SelectClass::Multi { BMODE, FOUR }));
        }
    }
    out
}

/// The distinct shuffle pairs for lane width `lw`: 16, or 9 for f64 (where S3 is S0).
pub fn distinct_shuffle_pairs(lw: LaneWidth) -> usize {
    let per_side = if lw.EC() == 8 { 3 } else { 4 };
    per_side * per_side
}

/// Every class of `chip`: the full product of §4.2's axes, in a fixed order.
pub fn classes(chip: Chip) -> Vec<Class> {
    let mut out = Vec::new();
    for &lw in LaneWidth::on(chip) {
        for source in sources(chip) {
            for XSHUF in 0..4 {
                for YSHUF in 0..4 {
                    for select in select_classes(chip) {
                        out.push(Class { lw, source, XSHUF, YSHUF, select });
                    }
                }
            }
        }
    }
    out
}

impl Class {
    /// A representative operand of the class (offsets 0, ZROW 0; a Range class with n ≠ 0 uses
    /// N = 3, a Broadcast uses N = 1, "N ≥ 6" uses N = 6; modes 6/7 use mode 6).
    pub fn operand(&self) -> Operand {
        let mut fields = vec![
            (Field::LW, self.lw.code()),
            (Field::XSHUF, self.XSHUF as u64),
            (Field::YSHUF, self.YSHUF as u64),
        ];
        match self.source {
            Source::Alu(a) => fields.push((Field::ALU, a.code())),
            Source::Indexed { IDXY, IB4 } => fields.extend([
                (Field::IDX, 1),
                (Field::IDXY, (IDXY == XY::Y) as u64),
                (Field::IB4, IB4 as u64),
            ]),
        }
        let (mode, N) = match self.select {
            SelectClass::Mode0 { N } => (0, N as u64),
            SelectClass::Broadcast => (1, 1),
            SelectClass::Range { mode, n_zero } => (mode as u64, if n_zero { 0 } else { 3 }),
            SelectClass::NoLanes => (6, 0),
            SelectClass::Multi { BMODE, FOUR } => {
                fields.extend([(Field::MULTI, 1), (Field::BMODE, BMODE as u64), (Field::FOUR, FOUR as u64)]);
                (0, 0)
            }
        };
        if !matches!(self.select, SelectClass::Multi { .. }) {
            fields.extend([(Field::WM_MODE, mode), (Field::WM_N, N)]);
        }
        // Every value above is within its field's width.
        fields.iter().fold(Operand::ZERO, |op, &(f, v)| op.with(f, v).unwrap_or(op))
    }
}

/// A representative operand of each no-op class on `chip` (MBZ = 1; ALU = 2; on M1 also ALU 10).
pub fn nop_operands(chip: Chip) -> Vec<(NopClass, Operand)> {
    let mut out = vec![
        (NopClass::Mbz, Operand(1 << Field::MBZ.lsb())),
        (NopClass::InvalidAlu, Operand(2 << Field::ALU.lsb())),
    ];
    if chip == Chip::M1 {
        out.push((NopClass::InvalidAlu, Operand(10 << Field::ALU.lsb())));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::isa::{Decoded, decode};

    #[test]
    fn counts_of_the_notes() {
        // §4.2 "Counts".
        assert_eq!(sources(Chip::M2).len(), 12);
        assert_eq!(sources(Chip::M1).len(), 9);
        assert_eq!(select_classes(Chip::M2).len(), 17 + 16);
        assert_eq!(select_classes(Chip::M1).len(), 17);
        assert_eq!(classes(Chip::M2).len(), 38_016);
        assert_eq!(classes(Chip::M4).len(), 38_016);
        assert_eq!(classes(Chip::M1).len(), 9_792);
        let m4_multi =
            classes(Chip::M4).iter().filter(|c| matches!(c.select, SelectClass::Multi { .. })).count();
        assert_eq!(m4_multi, 18_432);
        assert_eq!(classes(Chip::M2).len() + classes(Chip::M1).len() + m4_multi, 66_240); // "about 66 k"
        assert_eq!(distinct_shuffle_pairs(LaneWidth::F64), 9);
        assert_eq!(distinct_shuffle_pairs(LaneWidth::F16), 16);
    }

    #[test]
    fn representatives_decode_to_their_class() {
        for chip in Chip::ALL {
            for c in classes(chip) {
                let Decoded::Op(d) = decode(chip, c.operand()) else { panic!("{c:?} is a no-op on {chip}") };
                assert_eq!(d.lw, c.lw, "{c:?}");
                assert_eq!((d.XSHUF, d.YSHUF), (c.XSHUF, c.YSHUF));
                match c.source {
                    Source::Alu(a) => assert!(d.alu == a && d.indexed.is_none()),
                    Source::Indexed { IDXY, IB4 } => {
                        let ix = d.indexed.unwrap();
                        assert!(d.alu == AluMode::Fma && ix.IDXY == IDXY && ix.IB4 == IB4);
                    }
                }
            }
            for (_, op) in nop_operands(chip) {
                assert!(matches!(decode(chip, op), Decoded::Nop(_)), "{op}");
            }
        }
    }
}
