//! The instruction set's binary and text forms: every decodable word re-encodes to itself, every
//! instruction prints in tt-llk form and parses back, and no 32-bit word makes the decoder panic.

use proptest::prelude::*;
use sfpu_reference::isa::{Arch, DecodeError, Opcode, decode, parse_program};

/// A word of `op` with random values in every drawn field and no undrawn bits.
fn word_of(op: Opcode, fields: u32) -> u32 {
    ((op.number() as u32) << 24) | (fields & op.drawn_mask() & 0x00FF_FFFF)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(20_000))]

    #[test]
    fn encode_decode_round_trip(op in proptest::sample::select(Opcode::ALL.to_vec()), fields in any::<u32>()) {
        let word = word_of(op, fields);
        let instr = decode(Arch::Blackhole, word).expect("a word with only drawn bits decodes");
        prop_assert_eq!(instr.opcode(), op);
        prop_assert_eq!(instr.encode(), word);
        prop_assert_eq!(decode(Arch::Blackhole, instr.encode()), Ok(instr));
    }

    #[test]
    fn display_parse_round_trip(op in proptest::sample::select(Opcode::ALL.to_vec()), fields in any::<u32>()) {
        let instr = decode(Arch::Blackhole, word_of(op, fields)).unwrap();
        let text = instr.to_string();
        prop_assert_eq!(text.parse::<sfpu_reference::Instr>().map_err(|e| e.to_string()), Ok(instr), "{}", text);
        let tt = text.replacen("TTI_", "TT_", 1);
        prop_assert_eq!(tt.parse::<sfpu_reference::Instr>().map_err(|e| e.to_string()), Ok(instr), "{}", tt);
    }

    #[test]
    fn any_word_decodes_or_explains(word in any::<u32>()) {
        match decode(Arch::Blackhole, word) {
            Ok(instr) => prop_assert_eq!(instr.encode(), word),
            Err(DecodeError::NotSfpu { opcode, .. }) => prop_assert!(!(0x70..=0x99).contains(&opcode)),
            Err(DecodeError::UndrawnBits { opcode, bits, .. }) => {
                prop_assert_eq!(bits, word & opcode.undrawn_mask());
                prop_assert!(bits != 0);
            }
            Err(e @ DecodeError::ArchNotSupported { .. }) => prop_assert!(false, "{}", e),
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

#[test]
fn wormhole_is_not_modelled_yet() {
    assert_eq!(
        decode(Arch::Wormhole, 0x8400_0000),
        Err(DecodeError::ArchNotSupported { arch: Arch::Wormhole })
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
        let instr: sfpu_reference::Instr = text.parse().unwrap();
        assert_eq!(instr.encode(), word, "{text}");
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
