//! Property tests per mode class: for every class of every axis of `amx-vecfp.md` §4.2 (ALU
//! modes with the no-op classes, lane widths, indexed loads, shuffles, lane enable and
//! broadcast, multiple vectors, M4 offset masking, wrapping windows, Z pair placement), random
//! operands of that class on random states, the fast model against `amx_reference::vecfp`.
//!
//! Each class is one proptest run with a fixed seed (reproducible), its own fields fixed and
//! every other bit random ([`common::sane`]: MBZ cleared and a valid ALU mode or an indexed load,
//! unless the class is about those), on states biased to the operand's formats. A failure
//! shrinks the operand, and the runner collects the failures of every class before it panics
//! once, naming each class with its minimal case and the divergence report.
//! `AMX_PROP_SCALE=N` multiplies every class's case count.

use std::cell::Cell;

use crate::common::*;
use crate::common::{self, Rng};
use amx_reference::{Chip, Field, Operand};
use proptest::prelude::any;
use proptest::test_runner::{Config, RngSeed, TestCaseError, TestRunner};

/// One class: a name, the chips it runs on, and how it fixes an operand's fields.
struct Class {
    name: String,
    chips: Vec<Chip>,
    fix: Box<dyn Fn(Operand) -> Operand>,
}

fn class(name: String, chips: &[Chip], fix: impl Fn(Operand) -> Operand + 'static) -> Class {
    Class { name, chips: chips.to_vec(), fix: Box::new(fix) }
}

/// The LW code of each of the six lane widths of §2.3 (bf16, bf16 pair, f16 pair, f32, f64,
/// f16), with a different catch-all f16 code than 2 for variety.
const WIDTHS: [(u64, &str); 6] =
    [(0, "bf16"), (1, "bf16-pair"), (3, "f16-pair"), (4, "f32"), (7, "f64"), (13, "f16")];

/// FNV-1a: a class's proptest seed from its name.
fn seed_of(name: &str) -> u64 {
    name.bytes().fold(0xCBF2_9CE4_8422_2325, |h, b| (h ^ b as u64).wrapping_mul(0x0100_0000_01B3))
}

/// Runs `cases` random cases of every class; panics once, listing every class that diverged.
fn run_classes(family: &str, classes: Vec<Class>, cases: u32) {
    let cases = cases * common::cases("AMX_PROP_SCALE", 1) as u32; // `cases` the argument shadows the helper
    let mut failures = Vec::new();
    let (ran, changed) = (Cell::new(0u64), Cell::new(0u64));
    for c in &classes {
        let config = Config {
            cases,
            failure_persistence: None,
            rng_seed: RngSeed::Fixed(seed_of(&c.name)),
            max_shrink_iters: 512,
            ..Config::default()
        };
        let mut runner = TestRunner::new(config);
        let strategy = (any::<u64>(), any::<u64>(), any::<u64>(), 0..c.chips.len());
        let result = runner.run(&strategy, |(raw, choice, seed, chip)| {
            let chip = c.chips[chip];
            let op = (c.fix)(sane(chip, raw, choice));
            let before = state_for(&mut Rng::new(seed), chip, op);
            ran.set(ran.get() + 1);
            let wrote = check(chip, op, &before).map_err(TestCaseError::fail)?;
            changed.set(changed.get() + wrote as u64);
            Ok(())
        });
        if let Err(e) = result {
            failures.push(format!("class {}: {e}", c.name));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} classes of {family} diverge from the reference:\n{}",
        failures.len(),
        classes.len(),
        failures.join("\n")
    );
    eprintln!(
        "{family}: {} classes x {cases} cases agree ({} runs, {} wrote Z)",
        classes.len(),
        ran.get(),
        changed.get()
    );
}

/// §2.2 and §1.4: every 6-bit ALU code with IDX = 0 on every chip (the valid ones, the invalid
/// ones that are no-ops, and 10..12 that are no-ops on M1 only), and every non-zero MBZ.
#[test]
fn every_alu_code_and_nop_class() {
    let mut classes = Vec::new();
    for chip in Chip::ALL {
        for code in 0..64 {
            classes.push(class(format!("{chip} ALU={code}"), &[chip], move |op| {
                set(set(op, Field::IDX, 0), Field::ALU, code)
            }));
        }
    }
    for mbz in 1..8 {
        classes.push(class(format!("MBZ={mbz}"), &Chip::ALL, move |op| set(op, Field::MBZ, mbz)));
    }
    run_classes("ALU codes and no-ops", classes, 24);
}

/// §2.3: every LW code 0..15 on every chip (0 and 1 are bf16 on M2+, f16 on M1; 2, 5, 6, 8..15
/// are f16), with random valid ALU modes or indexed loads.
#[test]
fn every_lane_width_code() {
    let mut classes = Vec::new();
    for chip in Chip::ALL {
        for lw in 0..16 {
            classes.push(class(format!("{chip} LW={lw}"), &[chip], move |op| set(op, Field::LW, lw)));
        }
    }
    run_classes("lane widths", classes, 64);
}

/// §2.7 "Indexed expand": X or Y indexed, 2- or 4-bit indices, every lane width, one vector or
/// several (the indexed operand's step of one index block per iteration).
#[test]
fn indexed_loads() {
    let mut classes = Vec::new();
    for chip in Chip::ALL {
        for (idxy, which) in [(0, "X"), (1, "Y")] {
            for (ib4, bits) in [(0, 2), (1, 4)] {
                for (lw, lw_name) in WIDTHS {
                    for multi in [0, 1] {
                        let name = format!("{chip} indexed {which} {bits}-bit {lw_name} MULTI={multi}");
                        classes.push(class(name, &[chip], move |op| {
                            let op = set(set(op, Field::IDX, 1), Field::IDXY, idxy);
                            set(set(set(op, Field::IB4, ib4), Field::LW, lw), Field::MULTI, multi)
                        }));
                    }
                }
            }
        }
    }
    run_classes("indexed loads", classes, 24);
}

/// §2.7 "Shuffle": every X shuffle with every Y shuffle, in every lane width (the pair modes
/// shuffle 2-byte elements; f64's S3 is the identity).
#[test]
fn every_shuffle_pair() {
    let mut classes = Vec::new();
    for xs in 0..4 {
        for ys in 0..4 {
            for (lw, lw_name) in WIDTHS {
                let name = format!("XSHUF={xs} YSHUF={ys} {lw_name}");
                classes.push(class(name, &Chip::ALL, move |op| {
                    set(set(set(op, Field::XSHUF, xs), Field::YSHUF, ys), Field::LW, lw)
                }));
            }
        }
    }
    run_classes("shuffles", classes, 12);
}

/// §2.4: every lane-enable / broadcast mode with every N (all 32, so N mod EC wraps for 16 and
/// 8 lanes), in every lane width, with bit 31 clear.
#[test]
fn every_lane_enable_and_broadcast_mode() {
    let mut classes = Vec::new();
    for mode in 0..8 {
        for n in 0..32 {
            for (lw, lw_name) in WIDTHS {
                let name = format!("WM_MODE={mode} WM_N={n} {lw_name}");
                classes.push(class(name, &Chip::ALL, move |op| {
                    let op = set(set(op, Field::MULTI, 0), Field::LW, lw);
                    set(set(op, Field::WM_MODE, mode), Field::WM_N, n)
                }));
            }
        }
    }
    run_classes("lane enable and broadcast", classes, 4);
}

/// §2.5: every BMODE with 2 and 4 iterations in every lane width on M2 and M4, and on M1, which
/// ignores bit 31 (bits 40:32 keep their writemask meaning).
#[test]
fn multiple_vectors_every_bmode() {
    let mut classes = Vec::new();
    for chip in Chip::ALL {
        for bmode in 0..8 {
            for four in [0, 1] {
                for (lw, lw_name) in WIDTHS {
                    let name = format!("{chip} MULTI BMODE={bmode} FOUR={four} {lw_name}");
                    classes.push(class(name, &[chip], move |op| {
                        let op = set(set(op, Field::MULTI, 1), Field::BMODE, bmode);
                        set(set(op, Field::FOUR, four), Field::LW, lw)
                    }));
                }
            }
        }
    }
    run_classes("multiple vectors", classes, 16);
}

/// §2.6: M4's offset masking with bit 31 set, for every BMODE (6 and 7 align X or Y to one
/// element), both iteration counts, plain or X/Y indexed with 2- or 4-bit indices (the index
/// block alignment of the table in §2.6), every lane width; offsets random, so mostly unaligned.
#[test]
fn m4_offset_masking() {
    let sources: [(&str, Option<(u64, u64)>); 5] = [
        ("alu", None),
        ("idx X 2", Some((0, 0))),
        ("idx X 4", Some((0, 1))),
        ("idx Y 2", Some((1, 0))),
        ("idx Y 4", Some((1, 1))),
    ];
    let mut classes = Vec::new();
    for bmode in 0..8 {
        for four in [0, 1] {
            for (src_name, src) in sources {
                for (lw, lw_name) in WIDTHS {
                    let name = format!("M4 BMODE={bmode} FOUR={four} {src_name} {lw_name}");
                    classes.push(class(name, &[Chip::M4], move |op| {
                        let op = set(set(op, Field::MULTI, 1), Field::BMODE, bmode);
                        let op = set(set(op, Field::FOUR, four), Field::LW, lw);
                        match src {
                            None if op.IDX() == 1 => set(set(op, Field::IDX, 0), Field::ALU, 0),
                            None => op,
                            Some((idxy, ib4)) => {
                                set(set(set(op, Field::IDX, 1), Field::IDXY, idxy), Field::IB4, ib4)
                            }
                        }
                    }));
                }
            }
        }
    }
    run_classes("M4 offset masking", classes, 8);
}

/// §2.7 "Window": X and Y offsets in 449..=511, so every window wraps past byte 511 (at every
/// alignment, straddling elements), plain and indexed, one vector or several.
#[test]
fn windows_wrapping_past_byte_511() {
    let mut classes = Vec::new();
    for (lw, lw_name) in WIDTHS {
        for (src_name, idx) in [("alu", None), ("idx X", Some(0)), ("idx Y", Some(1))] {
            for multi in [0, 1] {
                let name = format!("wrap {lw_name} {src_name} MULTI={multi}");
                classes.push(class(name, &Chip::ALL, move |op| {
                    let op = set(set(op, Field::LW, lw), Field::MULTI, multi);
                    let op = set(op, Field::XOFF, 449 + op.XOFF() % 63);
                    let op = set(op, Field::YOFF, 449 + op.YOFF() % 63);
                    match idx {
                        None if op.IDX() == 1 => set(set(op, Field::IDX, 0), Field::ALU, 0),
                        None => op,
                        Some(idxy) => set(set(op, Field::IDX, 1), Field::IDXY, idxy),
                    }
                }));
            }
        }
    }
    run_classes("wrapping windows", classes, 24);
}

/// §2.3: the pair modes (LW 1 on M2+, LW 3) with an odd and an even ZROW, under the lane
/// selections that pick rows (mode 0 N = 0/1/2: all, odd = odd row, even = even row; first/last
/// n lanes) and with multiple vectors (rows r, r+32 or r, r+16, r+32, r+48).
#[test]
fn z_pair_placement() {
    type Select = fn(Operand) -> Operand;
    let selects: [(&str, Select); 6] = [
        ("all", |op| set(set(set(op, Field::MULTI, 0), Field::WM_MODE, 0), Field::WM_N, 0)),
        ("odd", |op| set(set(set(op, Field::MULTI, 0), Field::WM_MODE, 0), Field::WM_N, 1)),
        ("even", |op| set(set(set(op, Field::MULTI, 0), Field::WM_MODE, 0), Field::WM_N, 2)),
        ("first/last n", |op| set(set(op, Field::MULTI, 0), Field::WM_MODE, 2 + op.WM_MODE() % 4)),
        ("multi 2", |op| set(set(op, Field::MULTI, 1), Field::FOUR, 0)),
        ("multi 4", |op| set(set(op, Field::MULTI, 1), Field::FOUR, 1)),
    ];
    let mut classes = Vec::new();
    for (lw, chips) in [(1, &[Chip::M2, Chip::M4][..]), (3, &Chip::ALL[..])] {
        for odd in [0, 1] {
            for (sel_name, sel) in selects {
                let name = format!("LW={lw} ZROW odd={odd} {sel_name}");
                classes.push(class(name, chips, move |op| {
                    let op = sel(set(op, Field::LW, lw));
                    set(op, Field::ZROW, (op.ZROW() & !1) | odd)
                }));
            }
        }
    }
    run_classes("Z pair placement", classes, 48);
}

/// Any 64-bit operand at all on any chip (7/8 of them no-ops, as in `test.c`), on raw and biased
/// states: no class assumption, so nothing is missed between the classes.
#[test]
fn any_operand_bits() {
    let mut runner = TestRunner::new(Config {
        cases: 4096 * cases("AMX_PROP_SCALE", 1) as u32,
        failure_persistence: None,
        rng_seed: RngSeed::Fixed(seed_of("any bits")),
        ..Config::default()
    });
    let result = runner.run(&(any::<u64>(), any::<u64>(), 0..3usize), |(raw, seed, chip)| {
        let (chip, op) = (Chip::ALL[chip], Operand(raw));
        let before = state_for(&mut Rng::new(seed), chip, op);
        compare(chip, op, &before).map_err(TestCaseError::fail)
    });
    if let Err(e) = result {
        panic!("any operand bits: {e}");
    }
}
