//! The lowering: its output per chip, hand-checked on small kernels; every corpus kernel's
//! whole-tile program clean under the scheduling linter and free of undefined behaviour on both
//! chips; the tt-llk text form reading back as the same program.

use sfpi::kernels::{TILE_ROWS, registry};
use sfpi::run::{Engine, lint_findings, undefined_notes};
use sfpi::*;
use sfpu_reference::isa::parse_program;

fn text(arch: Arch, body: impl FnOnce()) -> String {
    Kernel::record("k", body).unwrap().for_chip(arch).unwrap().lower().unwrap().text(1).unwrap()
}

fn lines(t: &str) -> Vec<&str> {
    t.lines().filter(|l| !l.starts_with('#')).collect()
}

#[test]
fn subtraction_per_chip() {
    let sub = || dst_reg[2].set(dst_reg[0] - dst_reg[1]);
    // Blackhole: SFPADD (VA = LReg[10] = 1.0) with SFPMAD_MOD1_NEGATE_VC: 1.0 * a + -b; the
    // loads and stores use SFPI's no-increment address modifier 7; dst_reg[n] is address 2n.
    // The SFPNOP keeps the MAD result from being read on the next cycle (inserted on both chips).
    assert_eq!(
        lines(&text(Arch::Blackhole, sub)),
        [
            "TTI_SFPLOAD(0, 0, 7, 0)",
            "TTI_SFPLOAD(1, 0, 7, 2)",
            "TTI_SFPADD(10, 0, 1, 0, 2)",
            "TTI_SFPNOP",
            "TTI_SFPSTORE(0, 0, 7, 4)",
        ]
    );
    // Wormhole has no negate modifiers: b * vConstNeg1 + a, with LReg[11] = -1.0 programmed by
    // SFPCONFIG (VD = 11, MOD1_IMM16_IS_VALUE) first; address modifier 3.
    assert_eq!(
        lines(&text(Arch::Wormhole, sub)),
        [
            "TTI_SFPCONFIG(0, 11, 1)",
            "TTI_SFPNOP",
            "TTI_SFPLOAD(0, 0, 3, 0)",
            "TTI_SFPLOAD(1, 0, 3, 2)",
            "TTI_SFPMAD(11, 1, 0, 0, 0)",
            "TTI_SFPNOP",
            "TTI_SFPSTORE(0, 0, 3, 4)",
        ]
    );
}

#[test]
fn predication_through_the_flag_stack() {
    let pick = || {
        let a = vFloat::from(dst_reg[0]);
        v_if(a.lt(0.0), || dst_reg[0].set(0.0))
            .v_elseif(a.ge(1.0), || dst_reg[0].set(1.0))
            .v_else(|| dst_reg[1].set(a))
            .v_endif();
    };
    // SFPENCC enables predication (EI_RI, both immediate bits), each arm pushes and narrows with
    // SFPSETCC (LT0 = 0 on a itself; GTE0 = 4 on a - 1), SFPCOMPC moves to the remaining lanes,
    // one SFPPOPC per push closes the chain, and SFPENCC disables predication again.
    assert_eq!(
        lines(&text(Arch::Blackhole, pick)),
        [
            "TTI_SFPENCC(3, 0, 0, 10)",
            "TTI_SFPLOAD(0, 0, 7, 0)",
            "TTI_SFPPUSHC(0, 0, 0, 0)",
            "TTI_SFPSETCC(0, 0, 0, 0)",
            "TTI_SFPLOADI(1, 0, 0)",
            "TTI_SFPSTORE(1, 0, 7, 0)",
            "TTI_SFPCOMPC(0, 0, 0, 0)",
            "TTI_SFPPUSHC(0, 0, 0, 0)",
            "TTI_SFPLOADI(1, 0, 0x3f80)",
            "TTI_SFPADD(10, 0, 1, 1, 2)",
            "TTI_SFPNOP",
            "TTI_SFPSETCC(0, 1, 0, 4)",
            "TTI_SFPLOADI(1, 0, 0x3f80)",
            "TTI_SFPSTORE(1, 0, 7, 0)",
            "TTI_SFPCOMPC(0, 0, 0, 0)",
            "TTI_SFPSTORE(0, 0, 7, 2)",
            "TTI_SFPPOPC(0, 0, 0, 0)",
            "TTI_SFPPOPC(0, 0, 0, 0)",
            "TTI_SFPENCC(0, 0, 0, 10)",
        ]
    );
}

#[test]
fn wormhole_waits_after_a_lane_shuffle() {
    let shfl = || {
        let a = vFloat::from(dst_reg[0]);
        dst_reg[1].set(subvec_shflror1(a) + a);
    };
    // SFPSHFT2 SUBVEC_SHFLROR1 (mode 3): Wormhole forbids reading its result, and a list of
    // instructions, on the next cycle; Blackhole's stall logic enforces it.
    let bh = text(Arch::Blackhole, shfl);
    let wh = text(Arch::Wormhole, shfl);
    assert_eq!(lines(&bh)[1..3], ["TTI_SFPSHFT2(0, 0, 1, 3)", "TTI_SFPADD(10, 1, 0, 0, 0)"]);
    assert_eq!(lines(&wh)[1..4], ["TTI_SFPSHFT2(0, 0, 1, 3)", "TTI_SFPNOP", "TTI_SFPADD(10, 1, 0, 0, 0)"]);
}

#[test]
fn assignments_under_v_if_write_in_place() {
    // x += 1.0 inside the v_if: the add writes straight into x's register under predication (no
    // extra SFPMOV), since x dies there.
    let t = text(Arch::Blackhole, || {
        let mut x = vFloat::from(dst_reg[0]);
        v_if(x.lt(0.0), || x += 1.0).v_endif();
        dst_reg[0].set(x);
    });
    assert!(!t.contains("SFPMOV"), "{t}");
    // When the old value is still needed, it is copied (SFPMOV Mod1 = 2, every lane) first.
    let t = text(Arch::Blackhole, || {
        let x = vFloat::from(dst_reg[0]);
        let mut y = x;
        v_if(x.lt(0.0), || y += 1.0).v_endif();
        dst_reg[0].set(y);
        dst_reg[1].set(x);
    });
    assert!(t.contains("TTI_SFPMOV(0, 0, 2, 2)\nTTI_SFPADD(10, 0, 1, 2, 0)"), "{t}");
}

#[test]
fn every_corpus_program_is_lint_clean_and_defined_on_both_chips() {
    let mut checked = 0;
    for def in registry() {
        for &arch in &def.chips {
            let case = def.build(arch, 11).unwrap_or_else(|e| panic!("{} on {arch}: {e}", def.name));
            assert_eq!(case.rows, TILE_ROWS);
            let findings = lint_findings(&case.program, &case.state);
            assert!(findings.is_empty(), "{} on {arch}: {findings:?}", def.name);
            let run = case.run(Engine::Reference).unwrap();
            assert!(undefined_notes(&run).is_empty(), "{} on {arch}: {:?}", def.name, undefined_notes(&run));
            checked += 1;
        }
    }
    assert!(checked >= 2 * 40, "{checked}");
}

#[test]
fn the_text_form_reads_back_as_the_program() {
    for def in registry() {
        for &arch in &def.chips {
            let case = def.build(arch, 5).unwrap();
            let text = case.text().unwrap();
            let parsed = parse_program(arch, &text).unwrap_or_else(|e| panic!("{} on {arch}: {e}", def.name));
            let instrs: Vec<_> = parsed.into_iter().map(|l| l.instr).collect();
            assert_eq!(instrs, case.program, "{} on {arch}", def.name);
        }
    }
}
