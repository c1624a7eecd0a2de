//! What the SFPU's sections of the report are made of, from the corpus: the specification notes
//! with the clauses' taint counts ([`spec_notes`]), the operand-class coverage
//! ([`operand_coverage`]), and the vector operands the IEEE 754 characterisation examines
//! ([`vector_operands`]).

use std::collections::BTreeMap;

use sfpu_reference::hazard;
use sfpu_reference::isa::mods::{
    MOD0_FMT_BF16, MOD0_FMT_FP16, MOD0_FMT_FP32, SFPCAST_MOD1_SM32_TO_FP32_RNE,
    SFPCAST_MOD1_SM32_TO_FP32_RNS, SFPMAD_MOD1_INDIRECT_VA, SFPMAD_MOD1_NEGATE_VA, SFPMAD_MOD1_NEGATE_VC,
    SFPSTOCHRND_MOD1_FP32_TO_FP16A, SFPSTOCHRND_MOD1_FP32_TO_FP16B,
};
use sfpu_reference::isa::{Arch, Instr, decode};
use sfpu_reference::ops::Ctx;
use sfpu_reference::outcome::Clause;
use sfpu_reference::state::LANES;

use crate::ieee::Operands;
use crate::sections::{ClauseTaint, NotesOverride, OperandClass, SeedDifference, SpecNotes};
pub use crate::spec_entries::{NOTES_OVERRIDES, SEED_DIFFERENCES};
use crate::vectors::Corpus;

/// The spec notes of the report: the seed differences, and how many vectors name each clause.
pub fn spec_notes(corpus: &Corpus) -> SpecNotes {
    let mut counts: BTreeMap<String, u64> = BTreeMap::new();
    for (_, v) in corpus.vectors() {
        for n in &v.outcome {
            *counts.entry(n.clause.clone()).or_default() += 1;
        }
    }
    SpecNotes {
        seed_differences: SEED_DIFFERENCES
            .iter()
            .map(|&(row, topic, model, _)| SeedDifference {
                row,
                topic: topic.to_string(),
                model: model.to_string(),
            })
            .collect(),
        notes_overrides: NOTES_OVERRIDES
            .iter()
            .map(|&(topic, page, model, _)| NotesOverride {
                topic: topic.to_string(),
                page: page.to_string(),
                model: model.to_string(),
            })
            .collect(),
        clauses: Clause::ALL
            .iter()
            .map(|c| ClauseTaint {
                clause: c.id().to_string(),
                kind: c.kind().to_string(),
                section: c.section().to_string(),
                summary: c.summary().to_string(),
                vectors: counts.get(c.id()).copied().unwrap_or(0),
            })
            .collect(),
    }
}

/// The class of a 32-bit operand, as FP32 and as an integer.
pub fn operand_class(v: u32) -> &'static str {
    let (e, m) = ((v >> 23) & 0xFF, v & 0x7F_FFFF);
    match (v >> 31, e, m) {
        (0, 0, 0) => "+0",
        (1, 0, 0) => "-0",
        (_, 0, _) if v & 0x7FFF_FFFF <= 0xFFFF => "small integer",
        (_, 0, _) => "denormal",
        (_, 255, 0) => "infinity",
        (_, 255, m) if m & 0x40_0000 != 0 => "quiet NaN",
        (_, 255, _) => "signalling NaN",
        (_, _, _) if v >= 0xFFFF_0000 => "small negative integer",
        _ => "normal",
    }
}

/// How many source-operand lanes of the corpus's single-instruction vectors fall in each class.
pub fn operand_coverage(corpus: &Corpus) -> Vec<OperandClass> {
    let mut counts: BTreeMap<&'static str, u64> = BTreeMap::new();
    for (file, v) in corpus.vectors() {
        let Some(word) = v.program.first() else { continue };
        let Ok(instr) = decode(file.arch, word.word.0) else { continue };
        let reads = hazard::actual(Arch::Blackhole, &instr, &Ctx::REGULAR).reads;
        let Ok(pre) = v.pre.to_state() else { continue };
        for reg in 0..8 {
            if (reads >> reg) & 1 != 0 {
                for &x in &pre.LReg[reg] {
                    *counts.entry(operand_class(x)).or_default() += 1;
                }
            }
        }
    }
    counts.into_iter().map(|(class, lanes)| OperandClass { class: class.to_string(), lanes }).collect()
}

/// The operands the IEEE 754 characterisation examines, from the corpus's single-instruction
/// vectors, lane by lane in the lanes the instruction writes (enabled lanes):
///
/// * `fma`: the `(x, y, z)` of `x * y + z` as SFPMAD, SFPADD and SFPMUL form it (`±LReg[VA]` or
///   the register `LReg[7]` selects under `INDIRECT_VA`, `LReg[VB]`, `±LReg[VC]`), as SFPADDI
///   forms it (`BF16(Imm16) * 1.0 ± LReg[VD]`) and as SFPMULI does (`BF16(Imm16) * ±LReg[VD] +
///   0`);
/// * `cast`: `LReg[VC]` of SFPCAST's int-to-float modes (`SM32_TO_FP32_RNE`, `_RNS`);
/// * `stochrnd`: `LReg[VC]` of SFPSTOCHRND's `FP32_TO_FP16A` and `FP32_TO_FP16B`;
/// * `store`: `LReg[VD]` (`VD < 12`) of SFPSTORE's FP16, BF16 and FP32 stores.
pub fn vector_operands(corpus: &Corpus) -> Operands {
    let mut out = Operands::default();
    for (file, v) in corpus.vectors() {
        let [word] = v.program.as_slice() else { continue };
        let Ok(instr) = decode(file.arch, word.word.0) else { continue };
        let Ok(pre) = v.pre.to_state() else { continue };
        let lanes = (0..LANES).filter(|&l| pre.IsLaneEnabled(l));
        let reg = |r: usize, l: usize| pre.LReg[r][l];
        let neg = |mod1: u32, bit: u32, x: u32| if mod1 & bit != 0 { x ^ 0x8000_0000 } else { x };
        match instr {
            Instr::SFPMAD { VA, VB, VC, Mod1, .. }
            | Instr::SFPADD { VA, VB, VC, Mod1, .. }
            | Instr::SFPMUL { VA, VB, VC, Mod1, .. } => {
                let m = Mod1.get();
                for l in lanes {
                    let va =
                        if m & SFPMAD_MOD1_INDIRECT_VA != 0 { (reg(7, l) & 15) as usize } else { VA.idx() };
                    out.fma.push((
                        neg(m, SFPMAD_MOD1_NEGATE_VA, reg(va, l)),
                        reg(VB.idx(), l),
                        neg(m, SFPMAD_MOD1_NEGATE_VC, reg(VC.idx(), l)),
                    ));
                }
            }
            Instr::SFPADDI { Imm16, VD, Mod1 } => {
                for l in lanes {
                    let c = neg(Mod1.get(), SFPMAD_MOD1_NEGATE_VC, reg(VD.idx(), l));
                    out.fma.push((Imm16.get() << 16, 0x3F80_0000, c));
                }
            }
            Instr::SFPMULI { Imm16, VD, Mod1 } => {
                for l in lanes {
                    let c = neg(Mod1.get(), SFPMAD_MOD1_NEGATE_VC, reg(VD.idx(), l));
                    out.fma.push((Imm16.get() << 16, c, 0));
                }
            }
            Instr::SFPCAST { VC, Mod1, .. }
                if matches!(Mod1.get(), SFPCAST_MOD1_SM32_TO_FP32_RNE | SFPCAST_MOD1_SM32_TO_FP32_RNS) =>
            {
                out.cast.extend(lanes.map(|l| reg(VC.idx(), l)));
            }
            Instr::SFPSTOCHRND { VC, Mod1, .. }
                if matches!(Mod1.get(), SFPSTOCHRND_MOD1_FP32_TO_FP16A | SFPSTOCHRND_MOD1_FP32_TO_FP16B) =>
            {
                out.stochrnd.extend(lanes.map(|l| reg(VC.idx(), l)));
            }
            Instr::SFPSTORE { VD, Mod0, .. }
                if VD.idx() < 12 && matches!(Mod0.get(), MOD0_FMT_FP16 | MOD0_FMT_BF16 | MOD0_FMT_FP32) =>
            {
                out.store.extend(lanes.map(|l| reg(VD.idx(), l)));
            }
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn operand_classes_by_hand() {
        assert_eq!(operand_class(0x8000_0000), "-0");
        assert_eq!(operand_class(0x0000_0005), "small integer");
        assert_eq!(operand_class(0x007F_FFFF), "denormal");
        assert_eq!(operand_class(0x7FC0_0000), "quiet NaN");
        assert_eq!(operand_class(0xFF80_0001), "signalling NaN");
        assert_eq!(operand_class(0xFFFF_FFFF), "quiet NaN");
        assert_eq!(operand_class(0x3F80_0000), "normal");
    }

    #[test]
    fn the_matrix_has_every_mode() {
        use harness_core::isa::Isa;
        let rows = crate::Sfpu::matrix(Arch::Blackhole);
        assert_eq!(rows.iter().filter(|r| r.instruction == "SFPCONFIG").count(), 256);
        assert_eq!(rows.iter().filter(|r| r.instruction == "SFPSTOCHRND").count(), 32);
        assert_eq!(rows.iter().filter(|r| r.instruction == "SFPNOT").count(), 1);
        assert_eq!(SEED_DIFFERENCES.len(), 35);
        // One row per SFPI kernel of the corpus, named after it.
        assert!(rows.iter().any(|r| r.instruction == "kernels" && r.mode == "exp"));
        assert_eq!(
            rows.iter().filter(|r| r.instruction == "kernels").count(),
            sfpi::kernels::registry().len()
        );
    }
}
