//! Lowering a kernel to an SFPU program for its chip, as the SFPI compiler does.
//!
//! 1. `select`: statements to machine operations on virtual registers; predication through the
//!    flag stack; constants through SFPLOADI; `dst_reg` through SFPLOAD / SFPSTORE in the tile's
//!    format (`MOD0_FMT_SRCB` for `vFloat`, `MOD0_FMT_INT32_SM` for `vInt`/`vUInt`, with SFPI's
//!    no-increment address modifier: 3 on Wormhole, 7 on Blackhole).
//! 2. `regalloc`: registers `LReg[0..=7]`, no spilling.
//! 3. [`Lowered::program`]: `vConstNeg1` programmed with SFPCONFIG if the kernel reads `LReg[11]`,
//!    the init part, predication enabled with SFPENCC if the body predicates, the body once per
//!    row with that row's addresses, predication disabled.
//! 4. `schedule`: the SFPNOPs the scheduling rules require.
//!
//! The result is printable in tt-llk text form ([`Lowered::text`]) and clean under the
//! scheduling linter (`sfpu_reference::lint`; the tests check every kernel of the corpus).

pub(crate) mod emit;
mod options;
mod regalloc;
mod schedule;
mod select;

use std::collections::HashMap;

use sfpu_reference::isa::mods::*;
use sfpu_reference::isa::{Arch, Instr, ProgramLine};

pub use emit::Emit;
use emit::f;
pub use options::{LowerOptions, PlantedBug};

use crate::error::KernelError;
use crate::ir::{ChipKernel, Op, Src, Stmt, ValueId, uses_predication, walk};
use crate::vector::DST_REG_COUNT;

/// A lowered kernel: its init instructions and its body, ready to be laid out for a number of
/// rows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lowered {
    /// The chip.
    pub arch: Arch,
    /// The kernel's name.
    pub name: String,
    /// The init part's instructions.
    pub init: Vec<Instr>,
    /// The body's instructions, at row 0.
    pub body: Vec<Emit>,
    /// Whether the body predicates (the program enables predication around it).
    pub uses_predication: bool,
    /// Whether the kernel reads `vConstNeg1` (`LReg[11]`, programmed by the prologue).
    pub uses_neg1: bool,
    /// The largest `dst_reg` offset the body touches.
    pub max_offset: u32,
}

fn count_uses(k: &ChipKernel) -> HashMap<ValueId, u32> {
    let mut uses = HashMap::new();
    let mut add = |s: Src| {
        if let Src::Val(v) = s {
            *uses.entry(v).or_insert(0u32) += 1;
        }
    };
    for part in [&k.init, &k.body] {
        walk(part, &mut |s| match s {
            Stmt::Let { op, .. } => op.srcs().into_iter().for_each(&mut add),
            Stmt::Swap { ins, .. } => ins.iter().for_each(|&v| add(Src::Val(v))),
            Stmt::Transp { ins, .. } => ins.iter().for_each(|&v| add(Src::Val(v))),
            Stmt::Store { value, .. } | Stmt::SetLReg { value, .. } | Stmt::SetConst { value, .. } => {
                add(*value)
            }
            Stmt::If(i) => i.arms.iter().for_each(|a| a.cond.srcs().into_iter().for_each(&mut add)),
            Stmt::And(c) => c.srcs().into_iter().for_each(&mut add),
            Stmt::Block(_) => {}
        });
    }
    uses
}

/// Lowers `k` for its chip.
pub fn lower(k: &ChipKernel, opts: &LowerOptions) -> Result<Lowered, KernelError> {
    let uses = count_uses(k);
    let mut reserved = 0u8;
    let mut max_offset = 0;
    walk(&k.body, &mut |s| match s {
        Stmt::Let { op: Op::LRegIn(n), .. } | Stmt::SetLReg { reg: n, .. } => reserved |= 1 << (n & 7),
        Stmt::Let { op: Op::LoadDst { offset, .. }, .. } | Stmt::Store { offset, .. } => {
            max_offset = max_offset.max(*offset)
        }
        _ => {}
    });
    let init = select::Selector::new(k, *opts, true, &uses).run(&k.init)?;
    let body = select::Selector::new(k, *opts, false, &uses).run(&k.body)?;
    let init_code = regalloc::allocate(k.arch, &k.name, &init.vinstrs, 0)?;
    let body_code = regalloc::allocate(k.arch, &k.name, &body.vinstrs, reserved)?;
    Ok(Lowered {
        arch: k.arch,
        name: k.name.clone(),
        init: init_code.iter().map(|e| e.at_row(0)).collect(),
        body: body_code,
        uses_predication: uses_predication(&k.body),
        uses_neg1: init.uses_neg1 || body.uses_neg1,
        max_offset,
    })
}

impl Lowered {
    /// The whole program for `rows` rows of 32 lanes (32 rows is a 32x32 tile): init,
    /// prologue, the body per row, epilogue, with the SFPNOPs the scheduling rules need.
    pub fn program(&self, rows: u32) -> Result<Vec<Instr>, KernelError> {
        if rows > 0 && (self.max_offset + rows - 1) as usize >= DST_REG_COUNT {
            return Err(KernelError::BadArgument {
                kernel: self.name.clone(),
                what: format!(
                    "dst_reg[{}] at row {} needs an address beyond SFPLOAD's 10 bits",
                    self.max_offset,
                    rows - 1
                ),
            });
        }
        let mut p = Vec::new();
        if self.uses_neg1 {
            // SFPCONFIG_DEST_LREG11 with MOD1_IMM16_IS_VALUE: LReg[11] = -1.0, SFPI's vConstNeg1
            // (before the init part, which may read it too).
            p.push(Instr::SFPCONFIG { Imm16: f(0), VD: f(11), Mod1: f(MOD1_IMM16_IS_VALUE) });
        }
        p.extend(self.init.iter().copied());
        if self.uses_predication {
            // SFPENCC_MOD1_EI_RI with both immediate bits: UseLaneFlagsForLaneEnable and
            // LaneFlags set in every lane.
            p.push(Instr::SFPENCC { Imm2: f(3), VD: f(0), Mod1: f(SFPENCC_MOD1_EI | SFPENCC_MOD1_RI) });
        }
        for row in 0..rows {
            p.extend(self.body.iter().map(|e| e.at_row(row)));
        }
        if self.uses_predication {
            p.push(Instr::SFPENCC { Imm2: f(0), VD: f(0), Mod1: f(SFPENCC_MOD1_EI | SFPENCC_MOD1_RI) });
        }
        Ok(schedule::schedule(self.arch, p))
    }

    /// The program as numbered lines, for the linter.
    pub fn lines(&self, rows: u32) -> Result<Vec<ProgramLine>, KernelError> {
        Ok(self
            .program(rows)?
            .into_iter()
            .enumerate()
            .map(|(i, instr)| ProgramLine { line: i + 1, instr })
            .collect())
    }

    /// The program in tt-llk text form, one instruction per line, with a header comment.
    pub fn text(&self, rows: u32) -> Result<String, KernelError> {
        let mut s = format!("# SFPI kernel `{}` lowered for {}, {rows} rows\n", self.name, self.arch);
        for i in self.program(rows)? {
            s.push_str(&format!("{}\n", i.display(self.arch)));
        }
        Ok(s)
    }
}

impl ChipKernel {
    /// Lowers the kernel with the default options.
    pub fn lower(&self) -> Result<Lowered, KernelError> {
        lower(self, &LowerOptions::default())
    }
}
