//! Decode per chip profile (§1.3, §1.4): the no-op classes and why, the lane-width table, the
//! ALU validity per chip, bit 37, bit 31 on M1; decode and the text form on every 64-bit value.

use crate::common::op;
use amx_reference::isa::{ALWAYS_IGNORED, instruction_word};
use amx_reference::{
    AluMode, Bmode, Chip, Decoded, Field, LaneWidth, Nop, Operand, Select, XY, decode, encode,
};
use proptest::prelude::*;

fn decoded(chip: Chip, o: Operand) -> amx_reference::Vecfp {
    match decode(chip, o) {
        Decoded::Op(v) => v,
        Decoded::Nop(n) => panic!("{o} is a no-op on {chip}: {n}"),
    }
}

#[test]
fn instruction_word_of_the_notes() {
    // §1.2: 0x0020_1000 | (19 << 5) | n = 0x0020_1260 + n.
    assert_eq!(instruction_word(0), 0x0020_1260);
    assert_eq!(instruction_word(31), 0x0020_127F);
}

#[test]
fn mbz_makes_a_nop_on_every_chip() {
    // §1.3: bits 56:54 non-zero: the whole instruction is a no-op, whatever else is set.
    for chip in Chip::ALL {
        for mbz in 1..8 {
            let o = op(&[(Field::MBZ, mbz), (Field::ALU, 0), (Field::LW, 4)]);
            assert_eq!(decode(chip, o), Decoded::Nop(Nop::MbzNonZero { MBZ: mbz as u8 }));
        }
    }
}

#[test]
fn alu_validity_per_chip() {
    // §1.4: valid := {0,1,4,5,7} ∪ (ver >= M2 ? {10,11,12} : ∅); every other code is a no-op.
    for chip in Chip::ALL {
        for code in 0..64u64 {
            let d = decode(chip, op(&[(Field::ALU, code)]));
            let expect_valid =
                matches!(code, 0 | 1 | 4 | 5 | 7) || (chip != Chip::M1 && matches!(code, 10..=12));
            match d {
                Decoded::Op(v) => {
                    assert!(expect_valid, "{chip} ALU {code}");
                    assert_eq!(v.alu.code(), code);
                }
                Decoded::Nop(Nop::AluNotOnChip { ALU, chip: c }) => {
                    assert!(chip == Chip::M1 && (10..=12).contains(&code) && ALU as u64 == code && c == chip)
                }
                Decoded::Nop(Nop::InvalidAlu { ALU }) => {
                    assert!(!matches!(code, 0 | 1 | 4 | 5 | 7 | 10..=12) && ALU as u64 == code)
                }
                Decoded::Nop(n) => panic!("{chip} ALU {code}: {n}"),
            }
        }
    }
}

#[test]
fn indexed_forces_fma_whatever_bits_52_47_say() {
    // §2.2: with IDX=1 the ALU is always 0. TBL=1, IB4=0, IDXY=0 put 0b000100 (mode 4) in 52:47,
    // and bit 52 set with TBL=7, IB4=1, IDXY=1 puts 63 (a no-op code) there: both are FMAs.
    for chip in Chip::ALL {
        let a = decoded(chip, op(&[(Field::IDX, 1), (Field::TBL, 1)]));
        assert_eq!(a.alu, AluMode::Fma);
        assert_eq!(a.indexed.map(|ix| (ix.IDXY, ix.TBL, ix.ib())), Some((XY::X, 1, 2)));
        let b = decoded(chip, Operand(1 << 53 | 0x3F << 47));
        assert_eq!(b.alu, AluMode::Fma);
        assert_eq!(b.indexed.map(|ix| (ix.IDXY, ix.TBL, ix.ib())), Some((XY::Y, 7, 4)));
    }
}

#[test]
fn lane_width_table_per_chip() {
    // §1.4 / §2.3: 0 -> bf16 (M2+), 1 -> bf16 -> f32 pair (M2+), 3 -> f16 -> f32 pair, 4 -> f32,
    // 7 -> f64, everything else (and 0, 1 on M1) -> f16.
    for chip in Chip::ALL {
        for code in 0..16u64 {
            let lw = decoded(chip, op(&[(Field::LW, code)])).lw;
            let want = match code {
                0 if chip >= Chip::M2 => LaneWidth::Bf16,
                1 if chip >= Chip::M2 => LaneWidth::Bf16F32Pair,
                3 => LaneWidth::F16F32Pair,
                4 => LaneWidth::F32,
                7 => LaneWidth::F64,
                _ => LaneWidth::F16,
            };
            assert_eq!(lw, want, "{chip} LW {code}");
        }
    }
    assert_eq!((LaneWidth::Bf16.eb(), LaneWidth::Bf16.EC()), (2, 32));
    assert_eq!((LaneWidth::F16F32Pair.eb(), LaneWidth::F16F32Pair.EC()), (2, 32));
    assert_eq!((LaneWidth::F32.eb(), LaneWidth::F32.EC()), (4, 16));
    assert_eq!((LaneWidth::F64.eb(), LaneWidth::F64.EC()), (8, 8));
}

#[test]
fn bit_37_is_ignored() {
    // §1.3 / §1.4: op[37] := 0, so WM_N stays 5 bits wide.
    let o = Operand(op(&[(Field::WM_MODE, 2), (Field::WM_N, 7)]).0 | 1 << 37);
    assert_eq!(decoded(Chip::M2, o).select, Select::Writemask { WM_MODE: 2, WM_N: 7 });
}

#[test]
fn bit_31_is_multi_on_m2_and_ignored_on_m1() {
    // §1.3: on M1 bit 31 is treated as 0, so bits 40:32 keep their writemask meaning.
    let o = op(&[(Field::MULTI, 1), (Field::WM_MODE, 3), (Field::WM_N, 0b10110), (Field::ZROW, 33)]);
    assert_eq!(decoded(Chip::M1, o).select, Select::Writemask { WM_MODE: 3, WM_N: 0b10110 });
    // On M2 and M4: BMODE = bits 34:32 = 0b110 = 6, FOUR = bit 25 = top bit of ZROW 33 = 1.
    for chip in [Chip::M2, Chip::M4] {
        assert_eq!(decoded(chip, o).select, Select::Multi { BMODE: Bmode::BroadcastX0, FOUR: true });
    }
}

#[test]
fn the_zero_operand() {
    // §1.2: operand 0 is a bf16 FMA into z[0] on M2+ but an f16 FMA on M1.
    let m1 = decoded(Chip::M1, Operand::ZERO);
    let m2 = decoded(Chip::M2, Operand::ZERO);
    assert_eq!((m1.alu, m1.lw, m1.ZROW), (AluMode::Fma, LaneWidth::F16, 0));
    assert_eq!((m2.alu, m2.lw, m2.ZROW), (AluMode::Fma, LaneWidth::Bf16, 0));
    assert_eq!(decoded(Chip::M4, Operand::ZERO), m2);
}

#[test]
fn chip_names() {
    assert_eq!("m3".parse::<Chip>(), Ok(Chip::M2)); // M3 changed nothing in vecfp (§1.3)
    assert_eq!("M4".parse::<Chip>(), Ok(Chip::M4));
    assert!("M5".parse::<Chip>().is_err());
    assert_eq!(serde_json::from_str::<Chip>("\"M3\"").unwrap(), Chip::M2);
}

/// Operands biased towards ones that do something: MBZ clear and a valid ALU mode most of the
/// time (a uniformly random operand is a no-op 7/8 of the time, §4.1).
pub fn interesting_operand() -> impl Strategy<Value = Operand> {
    (any::<u64>(), 0..4u8, prop::sample::select(vec![0u64, 1, 4, 5, 7, 10, 11, 12])).prop_map(
        |(bits, kind, alu)| {
            let mut o = Operand(bits);
            if kind != 0 {
                o = Operand(o.0 & !Field::MBZ.mask());
            }
            if kind >= 2 {
                o = o.with(Field::ALU, alu).unwrap_or(o);
            }
            o
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn decode_is_total_and_encode_inverts_it(o in interesting_operand(), chip in prop::sample::select(Chip::ALL.to_vec())) {
        if let Decoded::Op(v) = decode(chip, o) {
            let back = encode(&v);
            prop_assert_eq!(decode(chip, back), Decoded::Op(v));
            // Only ignored bits (and bit 31 and bits 40:32 that M1 or MULTI does not read, and the
            // LW alias codes) may differ.
            prop_assert_eq!(back.0 & ALWAYS_IGNORED, 0);
        }
    }

    #[test]
    fn text_form_round_trips(bits in any::<u64>()) {
        let o = Operand(bits);
        let text = o.to_string();
        prop_assert_eq!(text.parse::<Operand>(), Ok(o), "{}", text);
    }
}
