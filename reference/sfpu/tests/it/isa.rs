//! The instruction sets' binary and text forms, on both chips: every decodable word re-encodes to
//! itself, every instruction prints in the chip's tt-llk form and parses back, no 32-bit word
//! makes the decoder panic, and encoding for a chip that cannot express an instruction is a typed
//! error.

use proptest::prelude::*;
use sfpu_reference::Instr;
use sfpu_reference::isa::{
    Arch, DecodeError, EncodeError, Opcode, decode, encode, parse_instr, parse_program,
};

/// A word of `op` on `arch` with random values in every drawn field and no undrawn bits.
fn word_of(arch: Arch, op: Opcode, fields: u32) -> u32 {
    ((op.number() as u32) << 24) | (fields & op.drawn_mask(arch) & 0x00FF_FFFF)
}

fn arch_and_opcode() -> impl Strategy<Value = (Arch, Opcode)> {
    proptest::sample::select(Arch::ALL.to_vec())
        .prop_flat_map(|arch| (Just(arch), proptest::sample::select(arch.opcodes().to_vec())))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(20_000))]

    #[test]
    fn encode_decode_round_trip((arch, op) in arch_and_opcode(), fields in any::<u32>()) {
        let word = word_of(arch, op, fields);
        let instr = decode(arch, word).expect("a word with only drawn bits decodes");
        prop_assert_eq!(instr.opcode(), op);
        prop_assert_eq!(instr.encode(arch), Ok(word));
        prop_assert_eq!(decode(arch, word), Ok(instr));
        prop_assert_eq!(encode(arch, &instr), Ok(word));
    }

    #[test]
    fn display_parse_round_trip((arch, op) in arch_and_opcode(), fields in any::<u32>()) {
        let instr = decode(arch, word_of(arch, op, fields)).unwrap();
        let text = instr.display(arch).to_string();
        prop_assert_eq!(parse_instr(arch, &text).map_err(|e| e.to_string()), Ok(instr), "{}", text);
        let tt = text.replacen("TTI_", "TT_", 1);
        prop_assert_eq!(parse_instr(arch, &tt).map_err(|e| e.to_string()), Ok(instr), "{}", tt);
    }

    #[test]
    fn any_word_decodes_or_explains(arch in proptest::sample::select(Arch::ALL.to_vec()), word in any::<u32>()) {
        match decode(arch, word) {
            Ok(instr) => prop_assert_eq!(instr.encode(arch), Ok(word)),
            Err(DecodeError::NotSfpu { opcode, .. }) => {
                prop_assert!(Opcode::from_u8(opcode).is_none_or(|op| !arch.has(op)));
            }
            Err(DecodeError::UndrawnBits { opcode, bits, .. }) => {
                prop_assert_eq!(bits, word & opcode.undrawn_mask(arch));
                prop_assert!(bits != 0);
            }
        }
    }

    /// A Blackhole instruction encodes on Wormhole exactly when Wormhole has the opcode and every
    /// field fits Wormhole's layout; then the Wormhole word decodes back to it.
    #[test]
    fn cross_chip_encoding_is_typed(op in proptest::sample::select(Opcode::ALL.to_vec()), fields in any::<u32>()) {
        let instr = decode(Arch::Blackhole, word_of(Arch::Blackhole, op, fields)).unwrap();
        prop_assert!(instr.fits(Arch::Blackhole));
        prop_assert_eq!(instr.fits(Arch::Wormhole), instr.encode(Arch::Wormhole).is_ok());
        match instr.encode(Arch::Wormhole) {
            Ok(word) => prop_assert_eq!(decode(Arch::Wormhole, word), Ok(instr)),
            Err(EncodeError::OpcodeNotOnChip { opcode, .. }) => prop_assert!(!Arch::Wormhole.has(opcode)),
            Err(EncodeError::FieldNotOnChip { field, value, .. }) => {
                prop_assert!(value != 0);
                prop_assert!(op.layout(Arch::Wormhole).unwrap().iter().all(|f| f.name != field));
            }
            Err(EncodeError::ValueTooWide { field, value, bits, .. }) => {
                prop_assert!(value >> bits != 0, "{} {}", field, value);
            }
        }
    }
}

/// Every word of every Wormhole opcode whose fields cover few bits, exhaustively: decoding never
/// panics and round-trips, and the undrawn bits are refused.
#[test]
fn wormhole_exhaustive_round_trip_of_small_layouts() {
    for op in Arch::Wormhole.opcodes() {
        let drawn = op.drawn_mask(Arch::Wormhole) & 0x00FF_FFFF;
        if drawn.count_ones() > 16 {
            continue;
        }
        // Enumerate every subset of the drawn bits.
        let mut sub = 0u32;
        loop {
            let word = ((op.number() as u32) << 24) | sub;
            let instr = decode(Arch::Wormhole, word).unwrap();
            assert_eq!(instr.encode(Arch::Wormhole), Ok(word));
            sub = (sub.wrapping_sub(drawn)) & drawn;
            if sub == 0 {
                break;
            }
        }
        let undrawn = op.undrawn_mask(Arch::Wormhole) & 0x00FF_FFFF;
        if undrawn != 0 {
            let bit = 1 << undrawn.trailing_zeros();
            let word = ((op.number() as u32) << 24) | bit;
            assert!(
                matches!(decode(Arch::Wormhole, word), Err(DecodeError::UndrawnBits { bits, .. }) if bits == bit)
            );
        }
    }
}

#[test]
fn every_opcode_is_covered_and_named_like_the_docs() {
    let names: Vec<&str> = Opcode::ALL.iter().map(|o| o.name()).collect();
    for expected in [
        "SFPLOAD",
        "SFPLOADI",
        "SFPSTORE",
        "SFPLUT",
        "SFPMULI",
        "SFPADDI",
        "SFPDIVP2",
        "SFPEXEXP",
        "SFPEXMAN",
        "SFPIADD",
        "SFPSHFT",
        "SFPSETCC",
        "SFPMOV",
        "SFPABS",
        "SFPAND",
        "SFPOR",
        "SFPNOT",
        "SFPLZ",
        "SFPSETEXP",
        "SFPSETMAN",
        "SFPMAD",
        "SFPADD",
        "SFPMUL",
        "SFPPUSHC",
        "SFPPOPC",
        "SFPSETSGN",
        "SFPENCC",
        "SFPCOMPC",
        "SFPTRANSP",
        "SFPXOR",
        "SFPSTOCHRND",
        "SFPNOP",
        "SFPCAST",
        "SFPCONFIG",
        "SFPSWAP",
        "SFPLOADMACRO",
        "SFPSHFT2",
        "SFPLUTFP32",
        "SFPLE",
        "SFPGT",
        "SFPMUL24",
        "SFPARECIP",
    ] {
        assert!(names.contains(&expected), "{expected} missing");
    }
    assert_eq!(names.len(), 42);
}

/// The encoding differences of `Diagrams/Src/Bits32.lua` between the chips
/// (`docs/spec/sfpu-wormhole.md#differences-from-blackhole`), one word each, decoded on both chips
/// (expected values from Bits32.lua's two layouts, by hand).
#[test]
fn wormhole_and_blackhole_read_the_same_word_differently() {
    // SFPLOAD VD=3 Mod0=3 with bits [15:13] = 0b110: Wormhole AddrMod 3 (bits [15:14]), Blackhole
    // AddrMod 6 ("a word built for WH with AddrMod a decodes on BH as (a << 1) | bit13").
    let w = 0x7033_C000u32;
    assert!(matches!(decode(Arch::Wormhole, w), Ok(Instr::SFPLOAD { AddrMod, .. }) if AddrMod.get() == 3));
    assert!(matches!(decode(Arch::Blackhole, w), Ok(Instr::SFPLOAD { AddrMod, .. }) if AddrMod.get() == 6));
    // Bit 13 is undrawn on Wormhole.
    assert!(matches!(
        decode(Arch::Wormhole, 0x7033_2000),
        Err(DecodeError::UndrawnBits { bits: 0x2000, .. })
    ));
    // SFPAND with USE_VB: Blackhole only.
    assert!(decode(Arch::Blackhole, 0x7E00_3121).is_ok());
    assert!(matches!(
        decode(Arch::Wormhole, 0x7E00_3121),
        Err(DecodeError::UndrawnBits { bits: 0x3001, .. })
    ));
    // SFPSTOCHRND bit 22 (RoundingMode bit 1): Blackhole only.
    assert!(decode(Arch::Blackhole, 0x8E40_0121).is_ok());
    assert!(matches!(
        decode(Arch::Wormhole, 0x8E40_0121),
        Err(DecodeError::UndrawnBits { bits: 0x40_0000, .. })
    ));
    // SFPLUTFP32 Mod1Mirror: Blackhole only.
    assert!(matches!(
        decode(Arch::Wormhole, 0x9508_0038),
        Err(DecodeError::UndrawnBits { bits: 0x8_0000, .. })
    ));
    // Opcodes 0x96..=0x99 are not Wormhole SFPU instructions.
    for op in 0x96..=0x99u32 {
        assert!(matches!(decode(Arch::Wormhole, op << 24), Err(DecodeError::NotSfpu { .. })));
        assert!(decode(Arch::Blackhole, op << 24).is_ok());
    }
    // Typed refusals when encoding for Wormhole.
    let and_vb = decode(Arch::Blackhole, 0x7E00_3121).unwrap();
    assert!(matches!(
        and_vb.encode(Arch::Wormhole),
        Err(EncodeError::FieldNotOnChip { field: "VB", value: 3, .. })
    ));
    let load7 = decode(Arch::Blackhole, 0x7033_E000).unwrap();
    assert!(matches!(
        load7.encode(Arch::Wormhole),
        Err(EncodeError::ValueTooWide { field: "AddrMod", value: 7, bits: 2, .. })
    ));
    let gt = decode(Arch::Blackhole, 0x9700_0121).unwrap();
    assert_eq!(
        gt.encode(Arch::Wormhole),
        Err(EncodeError::OpcodeNotOnChip { arch: Arch::Wormhole, opcode: Opcode::SFPGT })
    );
}

/// Hand-assembled words from the macro definitions in tt-llk `ckernel_ops.h` (Blackhole):
/// `TT_OP(op, params) = (op << 24) + params`.
#[test]
fn words_match_tt_llk_macros() {
    let cases = [
        // TT_OP_SFPLOAD(lreg_ind=3, instr_mod0=3, sfpu_addr_mode=7, dest_reg_addr=0x10)
        ("TTI_SFPLOAD(3, 3, 7, 0x10)", (0x70 << 24) + (3 << 20) + (3 << 16) + (7 << 13) + 0x10),
        // TT_OP_SFPMAD(a=1, b=2, c=3, d=4, mod1=8)
        ("TTI_SFPMAD(1, 2, 3, 4, 8)", (0x84 << 24) + (1 << 16) + (2 << 12) + (3 << 8) + (4 << 4) + 8),
        // TT_OP_SFPIADD(imm12=0xfff, c=1, d=2, mod1=5)
        ("TTI_SFPIADD(0xfff, 1, 2, 5)", (0x79 << 24) + (0xfff << 12) + (1 << 8) + (2 << 4) + 5),
        // TT_OP_SFPCONFIG(imm16=0xabcd, dest=15, mod1=1)
        ("TTI_SFPCONFIG(0xabcd, 15, 1)", (0x91 << 24) + (0xabcd << 8) + (15 << 4) + 1),
        // TT_OP_SFP_STOCH_RND(rnd=2, imm5=31, b=3, c=4, d=5, mod1=0xd)
        (
            "TTI_SFP_STOCH_RND(2, 31, 3, 4, 5, 0xd)",
            (0x8e << 24) + (2 << 21) + (31 << 16) + (3 << 12) + (4 << 8) + (5 << 4) + 0xd,
        ),
        // TT_OP_SFPLUTFP32(lreg_dest=(8 << 12) | 3, mod1=10): Mod1Mirror in [19:16]
        ("TTI_SFPLUTFP32(0x8003, 10)", (0x95 << 24) + (0x8003 << 4) + 10),
        ("TTI_SFPNOP", 0x8f << 24),
    ];
    for (text, word) in cases {
        let instr = parse_instr(Arch::Blackhole, text).unwrap();
        assert_eq!(instr.encode(Arch::Blackhole), Ok(word), "{text}");
    }
}

#[test]
fn program_errors_carry_line_numbers() {
    let err =
        parse_program(Arch::Blackhole, "TTI_SFPNOP\n\n# ok\nTTI_SFPMAD(0, 1, 2, 3, 0)\nTTI_SFPLOADI(1, 2)\n")
            .unwrap_err();
    assert_eq!(err.line, Some(5));
    assert!(err.to_string().contains("SFPLOADI takes 3 arguments"), "{err}");
}
