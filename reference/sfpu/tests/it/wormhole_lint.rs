//! Wormhole's software-managed scheduling: every missing-SFPNOP case its pages document is flagged
//! by the linter with its rule and line, and the correctly scheduled program is not.
//!
//! The rules: WormholeB0 `SFPMAD.md`, `SFPADD.md`, `SFPMUL.md`, `SFPADDI.md`, `SFPMULI.md`,
//! `SFPLUT.md`, `SFPLUTFP32.md` ("software must ensure that on the next cycle, the Vector Unit
//! does not execute an instruction which reads from any location written to by" it), and
//! `SFPSHFT2.md` @ `a052bcc95da50343edb5ff0baff874e229266dc0` (§ "Instruction scheduling": four
//! paragraphs). Blackhole stalls automatically in the MAD cases, so the same programs are clean
//! there. Expected findings are written from the pages, per program.

use crate::common::*;
use sfpu_reference::isa::{Arch, parse_program};
use sfpu_reference::lint::lint;
use sfpu_reference::{Clause, Machine};

fn lint_on(arch: Arch, text: &str) -> Vec<(usize, Clause)> {
    let s = reset_of(arch);
    let program = parse_program(arch, text).unwrap_or_else(|e| panic!("{text}: {e}"));
    lint(&s, &program).into_iter().map(|f| (f.line, f.clause)).collect()
}

fn wh(text: &str) -> Vec<(usize, Clause)> {
    lint_on(Arch::Wormhole, text)
}

/// Every MAD-unit instruction, its result read on the next cycle (by `SFPMOV L4 = L3`).
const MAD_PRODUCERS: [(&str, &str); 7] = [
    ("SFPMAD", "TTI_SFPMAD(0, 1, 2, 3, 0)"),
    ("SFPADD", "TTI_SFPADD(10, 1, 2, 3, 0)"),
    ("SFPMUL", "TTI_SFPMUL(0, 1, 9, 3, 0)"),
    ("SFPADDI", "TTI_SFPADDI(0x3f80, 3, 0)"),
    ("SFPMULI", "TTI_SFPMULI(0x3f80, 3, 0)"),
    ("SFPLUT", "TTI_SFPLUT(3, 0, 0)"),
    ("SFPLUTFP32", "TTI_SFPLUTFP32(3, 0)"),
];

#[test]
fn mad_results_read_on_the_next_cycle_are_flagged() {
    for (name, producer) in MAD_PRODUCERS {
        let missing = format!("{producer}\nTTI_SFPMOV(0, 3, 4, 0)\n");
        assert_eq!(wh(&missing), vec![(2, Clause::WormholeMadResultRead)], "{name}");
        // Blackhole stalls the reader instead.
        assert_eq!(lint_on(Arch::Blackhole, &missing), vec![], "{name} on Blackhole");
        let scheduled = format!("{producer}\nTTI_SFPNOP\nTTI_SFPMOV(0, 3, 4, 0)\n");
        assert_eq!(wh(&scheduled), vec![], "{name} with SFPNOP");
        let unrelated = format!("{producer}\nTTI_SFPMOV(0, 5, 6, 0)\n");
        assert_eq!(wh(&unrelated), vec![], "{name} then an instruction not reading its result");
    }
}

#[test]
fn shflror1_and_copy4_then_a_read_of_l0_to_l3() {
    // SFPSTORE reads L1 and is not in the list.
    let missing = "TTI_SFPSHFT2(0, 5, 0, 2)\nTTI_SFPSTORE(1, 3, 0, 0)\n";
    assert_eq!(wh(missing), vec![(2, Clause::WormholeShflror1Copy4Read)]);
    assert_eq!(wh("TTI_SFPSHFT2(0, 5, 0, 2)\nTTI_SFPNOP\nTTI_SFPSTORE(1, 3, 0, 0)\n"), vec![]);
    assert_eq!(wh("TTI_SFPSHFT2(0, 5, 0, 2)\nTTI_SFPSTORE(6, 3, 0, 0)\n"), vec![]);
}

#[test]
fn shflror1_and_copy4_then_a_write_of_l1_to_l3() {
    // SFPLOADI writes L2, reads nothing, and is not in the list.
    let missing = "TTI_SFPSHFT2(0, 5, 0, 2)\nTTI_SFPLOADI(2, 2, 7)\n";
    assert_eq!(wh(missing), vec![(2, Clause::WormholeShflror1Copy4Write)]);
    assert_eq!(wh("TTI_SFPSHFT2(0, 5, 0, 2)\nTTI_SFPNOP\nTTI_SFPLOADI(2, 2, 7)\n"), vec![]);
    // L0 is not in the rule: a write of it is fine.
    assert_eq!(wh("TTI_SFPSHFT2(0, 5, 0, 2)\nTTI_SFPLOADI(0, 2, 7)\n"), vec![]);
}

#[test]
fn shflror1_and_shflshr1_then_a_read_of_vd() {
    for mode in [3, 4] {
        let missing = format!("TTI_SFPSHFT2(0, 5, 4, {mode})\nTTI_SFPSTORE(4, 3, 0, 0)\n");
        assert_eq!(wh(&missing), vec![(2, Clause::WormholeShflVdRead)], "mode {mode}");
        let fixed = format!("TTI_SFPSHFT2(0, 5, 4, {mode})\nTTI_SFPNOP\nTTI_SFPSTORE(4, 3, 0, 0)\n");
        assert_eq!(wh(&fixed), vec![], "mode {mode} with SFPNOP");
        let other = format!("TTI_SFPSHFT2(0, 5, 4, {mode})\nTTI_SFPSTORE(6, 3, 0, 0)\n");
        assert_eq!(wh(&other), vec![], "mode {mode} then a read of another LReg");
    }
}

#[test]
fn the_listed_instructions_after_shft2_modes_2_to_4() {
    // Each listed instruction reads and writes only LReg[5..7] here, so only the list rule applies.
    let listed = [
        "TTI_SFPABS(0, 6, 7, 1)",
        "TTI_SFPAND(0, 6, 7, 0)",
        "TTI_SFPCAST(6, 7, 0)",
        "TTI_SFPDIVP2(0, 6, 7, 1)",
        "TTI_SFPEXEXP(0, 6, 7, 0)",
        "TTI_SFPEXMAN(0, 6, 7, 0)",
        "TTI_SFPIADD(0, 6, 7, 4)",
        "TTI_SFPLZ(0, 6, 7, 0)",
        "TTI_SFPMOV(0, 6, 7, 0)",
        "TTI_SFPNOT(0, 6, 7, 0)",
        "TTI_SFPOR(0, 6, 7, 0)",
        "TTI_SFPSETEXP(0, 6, 7, 1)",
        "TTI_SFPSETMAN(0, 6, 7, 1)",
        "TTI_SFPSETSGN(0, 6, 7, 1)",
        "TTI_SFPSHFT(1, 6, 7, 1)",
        "TTI_SFPSHFT2(6, 5, 7, 5)",
        "TTI_SFPSHFT2(6, 0, 7, 6)",
        "TTI_SFP_STOCH_RND(0, 0, 6, 6, 7, 1)",
        "TTI_SFPXOR(0, 6, 7, 0)",
    ];
    for mode in [2, 3, 4] {
        for next in listed {
            let missing = format!("TTI_SFPSHFT2(0, 5, 4, {mode})\n{next}\n");
            let findings = wh(&missing);
            assert!(
                findings.contains(&(2, Clause::WormholeShft2NextInstruction)),
                "mode {mode}, {next}: {findings:?}"
            );
            let fixed = format!("TTI_SFPSHFT2(0, 5, 4, {mode})\nTTI_SFPNOP\n{next}\n");
            assert_eq!(wh(&fixed), vec![], "mode {mode}, SFPNOP, {next}");
        }
        // Not listed: SFPSHFT2 in the rotating modes, SFPSETCC, SFPMAD, SFPLOADI.
        for next in [
            "TTI_SFPSHFT2(0, 6, 7, 3)",
            "TTI_SFPSETCC(0, 6, 0, 0)",
            "TTI_SFPMAD(6, 6, 6, 7, 0)",
            "TTI_SFPLOADI(7, 2, 1)",
        ] {
            let findings = wh(&format!("TTI_SFPSHFT2(0, 5, 4, {mode})\n{next}\n"));
            assert!(
                !findings.contains(&(2, Clause::WormholeShft2NextInstruction)),
                "mode {mode}, {next}: {findings:?}"
            );
        }
    }
}

#[test]
fn sfpswap_is_the_one_automatic_stall() {
    // SFPSWAP.md: the hardware stalls anything but SFPNOP on the next cycle, on both chips, so no
    // rule is broken and the program takes one extra cycle.
    let text = "TTI_SFPSWAP(0, 1, 2, 1)\nTTI_SFPMOV(0, 2, 4, 0)\n";
    assert_eq!(wh(text), vec![]);
    let mut s = reset_of(Arch::Wormhole);
    let mut m = Machine::new();
    for pl in parse_program(Arch::Wormhole, text).unwrap() {
        m.issue(&mut s, &pl.instr);
    }
    assert_eq!(m.cycle(), 3);
}

#[test]
fn a_wormhole_program_with_every_sfpnop_in_place_is_clean() {
    let text = "\
TTI_SFPLOAD(0, 3, 0, 0)
TTI_SFPMAD(0, 10, 9, 1, 0)
TTI_SFPNOP
TTI_SFPSHFT2(0, 1, 2, 3)
TTI_SFPNOP
TTI_SFPSHFT2(0, 2, 3, 4)
TTI_SFPNOP
TTI_SFPSTORE(3, 3, 3, 0)
";
    assert_eq!(wh(text), vec![]);
}

#[test]
fn scheduled_mad_results_follow_the_same_rule() {
    // WormholeB0 SFPLOADMACRO.md: Sequence[0] byte 1 (MAD sub-unit) = selector 4
    // (InstructionTemplate[0]), delay 0; the template is SFPMAD L0 = L0 * L1 + VD (its VC and VD
    // overridden with the SFPLOADMACRO's VD = 0). The MAD executes on the cycle after
    // SFPLOADMACRO (alongside the SFPNOP on line 2), so the SFPMOV reading L0 on line 3 reads its
    // result on the next cycle: flagged. One more SFPNOP fixes it.
    let mut s = reset_of(Arch::Wormhole);
    for l in 0..sfpu_reference::state::LANES {
        s.LoadMacroConfig[l].InstructionTemplate[0] = 0x8400_1230; // TTI_SFPMAD(0, 1, 2, 3, 0)
        s.LoadMacroConfig[l].Sequence[0] = 0x0000_0400;
    }
    let run = |text: &str| {
        let program = parse_program(Arch::Wormhole, text).unwrap();
        lint(&s, &program).into_iter().map(|f| (f.line, f.clause)).collect::<Vec<_>>()
    };
    assert_eq!(
        run("TTI_SFPLOADMACRO(0, 0, 0, 0)\nTTI_SFPNOP\nTTI_SFPMOV(0, 0, 4, 0)\n"),
        vec![(3, Clause::WormholeMadResultRead)]
    );
    assert_eq!(run("TTI_SFPLOADMACRO(0, 0, 0, 0)\nTTI_SFPNOP\nTTI_SFPNOP\nTTI_SFPMOV(0, 0, 4, 0)\n"), vec![]);
    // Wormhole's SFPLOADMACRO address mode is two bits: ADDR_MOD_3 is its largest.
    assert!(parse_program(Arch::Wormhole, "TTI_SFPLOADMACRO(0, 0, 4, 0)\n").is_err());
}
