//! Instruction selection: statements to machine operations on virtual registers, with
//! predication through the flag stack.
//!
//! Predication follows SFPI's `CC` class (tenstorrent/sfpi `sfpi.h`): the program enables
//! predication once (`SFPENCC` with `EI_RI`, immediate 3), and then
//!
//! * `v_if (c)`: `SFPPUSHC`, then `c` narrows `LaneFlags`: each comparison is an `SFPSETCC` on
//!   the difference, which updates only enabled lanes, so it ANDs into the flags;
//! * `v_elseif (c)`: `SFPCOMPC` (the flags become the pushed flags AND NOT the current ones:
//!   the lanes no arm took), the prelude, `SFPPUSHC`, then `c`;
//! * `v_else`: `SFPCOMPC`;
//! * `v_endif`: one `SFPPOPC` per `SFPPUSHC` of the chain;
//! * `v_block`: `SFPPUSHC` ... `SFPPOPC`, `v_and` narrowing in between; a `v_and` in a `v_if`
//!   body pushes once first, so that a later `v_elseif` / `v_else` sees the arm's own flags.
//!
//! Conditions are put in negation normal form (`!` moved onto the comparisons, which each have
//! an exact complement). `a && b` narrows twice. `a || b` is `!(!a && !b)`: narrow by `!a` and
//! `!b`, then `SFPCOMPC` against a stack entry holding the flags from before; when the flags do
//! not already equal the top of the stack (they do right after a push), the condition pushes
//! one, and afterwards folds the result back by saving it in a register, popping, and
//! re-narrowing with `SFPSETCC` (SFPI's `saved_enables` trick). `>` is `>= 0` then `!= 0`; `<=`
//! is `< 0 || == 0`.

use std::collections::HashMap;

use sfpu_reference::isa::Arch;
use sfpu_reference::isa::mods::*;

use super::emit::{DefC, MOp, Opnd, UseC, VInstr, VReg};
use super::options::{LowerOptions, PlantedBug};
use crate::error::KernelError;
use crate::ir::{ChipKernel, CmpOp, Cond, DstKind, ImmForm, Op, Rhs, Src, Stmt, ValueId};

/// A condition in negation normal form.
#[derive(Clone, Debug)]
enum N<'a> {
    /// A comparison or non-zero test, possibly negated.
    Leaf(&'a Cond, bool),
    /// A test of an already computed difference.
    Test(Opnd, CmpOp),
    And(Vec<N<'a>>),
    Or(Vec<N<'a>>),
}

fn nnf(c: &Cond, neg: bool) -> N<'_> {
    match c {
        Cond::Cmp { .. } | Cond::NonZero(_) => N::Leaf(c, neg),
        Cond::Not(x) => nnf(x, !neg),
        Cond::And(x, y) => {
            let v = vec![nnf(x, neg), nnf(y, neg)];
            if neg { N::Or(v) } else { N::And(v) }
        }
        Cond::Or(x, y) => {
            let v = vec![nnf(x, neg), nnf(y, neg)];
            if neg { N::And(v) } else { N::Or(v) }
        }
    }
}

fn negate<'a>(n: &N<'a>) -> N<'a> {
    match n {
        N::Leaf(c, neg) => N::Leaf(c, !neg),
        N::Test(d, op) => N::Test(*d, op.complement()),
        N::And(v) => N::Or(v.iter().map(negate).collect()),
        N::Or(v) => N::And(v.iter().map(negate).collect()),
    }
}

/// SFPSETCC's mode for a single-test comparison.
fn setcc_mode(op: CmpOp) -> Option<u32> {
    match op {
        CmpOp::Lt => Some(SFPSETCC_MOD1_LREG_LT0),
        CmpOp::Ge => Some(SFPSETCC_MOD1_LREG_GTE0),
        CmpOp::Eq => Some(SFPSETCC_MOD1_LREG_EQ0),
        CmpOp::Ne => Some(SFPSETCC_MOD1_LREG_NE0),
        CmpOp::Gt | CmpOp::Le => None,
    }
}

pub(crate) struct Selected {
    pub vinstrs: Vec<VInstr>,
    pub uses_neg1: bool,
}

pub(crate) struct Selector<'k> {
    k: &'k ChipKernel,
    arch: Arch,
    opts: LowerOptions,
    out: Vec<VInstr>,
    loc: HashMap<ValueId, Opnd>,
    next: VReg,
    depth: usize,
    /// The flags equal the top of the flag stack (true right after a push).
    fresh: bool,
    in_init: bool,
    uses_neg1: bool,
    /// How many times each value is read (for the merge coalescing).
    uses: &'k HashMap<ValueId, u32>,
    /// The LRegs the body sets through `l_reg`.
    written_lregs: u8,
}

impl<'k> Selector<'k> {
    pub(crate) fn new(
        k: &'k ChipKernel,
        opts: LowerOptions,
        in_init: bool,
        uses: &'k HashMap<ValueId, u32>,
    ) -> Self {
        Selector {
            k,
            arch: k.arch,
            opts,
            out: Vec::new(),
            loc: HashMap::new(),
            next: 0,
            depth: 0,
            fresh: false,
            in_init,
            uses_neg1: false,
            uses,
            written_lregs: 0,
        }
    }

    pub(crate) fn run(mut self, stmts: &[Stmt]) -> Result<Selected, KernelError> {
        crate::ir::walk(stmts, &mut |s| {
            if let Stmt::SetLReg { reg, .. } = s {
                self.written_lregs |= 1 << (reg & 7);
            }
        });
        self.stmts(stmts, Frame::Root)?;
        Ok(Selected { vinstrs: self.out, uses_neg1: self.uses_neg1 })
    }

    fn internal(&self, what: &str) -> KernelError {
        KernelError::Unsupported {
            kernel: self.k.name.clone(),
            what: format!("internal lowering error: {what}"),
        }
    }

    fn vreg(&mut self) -> VReg {
        self.next += 1;
        self.next - 1
    }

    fn opnd(&mut self, s: Src) -> Result<Opnd, KernelError> {
        match s {
            Src::Val(v) => {
                self.loc.get(&v).copied().ok_or_else(|| self.internal("a value is used before it is defined"))
            }
            Src::Const(n) => {
                if n == 11 {
                    self.uses_neg1 = true;
                }
                Ok(Opnd::P(n))
            }
        }
    }

    fn emit(&mut self, op: MOp, uses: Vec<(Opnd, UseC)>, defs: Vec<(VReg, DefC)>, what: &'static str) {
        self.out.push(VInstr { op, uses, defs, what });
    }

    /// Emits `op` with operands `srcs` (any register) and one fresh result.
    fn simple(&mut self, op: MOp, srcs: &[Src], def: DefC, what: &'static str) -> Result<VReg, KernelError> {
        let mut uses = Vec::with_capacity(srcs.len());
        for &s in srcs {
            uses.push((self.opnd(s)?, UseC::Any));
        }
        let d = self.vreg();
        self.emit(op, uses, vec![(d, def)], what);
        Ok(d)
    }

    fn push_flags(&mut self) -> Result<(), KernelError> {
        self.depth += 1;
        if self.depth > 8 {
            return Err(KernelError::FlagStackOverflow { kernel: self.k.name.clone(), depth: self.depth });
        }
        self.emit(MOp::PushC, vec![], vec![], "SFPPUSHC");
        self.fresh = true;
        Ok(())
    }

    fn pop_flags(&mut self, n: usize) {
        for _ in 0..n {
            self.emit(MOp::PopC, vec![], vec![], "SFPPOPC");
        }
        self.depth = self.depth.saturating_sub(n);
        self.fresh = false;
    }

    fn compc(&mut self) {
        self.emit(MOp::CompC, vec![], vec![], "SFPCOMPC");
        self.fresh = false;
    }

    fn stmts(&mut self, stmts: &[Stmt], frame: Frame) -> Result<(), KernelError> {
        let mut and_pushed = false;
        for s in stmts {
            match s {
                Stmt::Let { id, op } => self.let_(*id, op)?,
                Stmt::Swap { outs, ins, min_max } => {
                    let a = self.opnd(Src::Val(ins[0]))?;
                    let b = self.opnd(Src::Val(ins[1]))?;
                    let (x, y) = (self.vreg(), self.vreg());
                    let mod1 = if *min_max { SFPSWAP_MOD1_VEC_MIN_MAX } else { SFPSWAP_MOD1_SWAP };
                    self.emit(
                        MOp::Swap { mod1 },
                        vec![(a, UseC::Any), (b, UseC::Any)],
                        vec![(x, DefC::Tied(0)), (y, DefC::Tied(1))],
                        if *min_max { "vec_min_max" } else { "vec_swap" },
                    );
                    self.loc.insert(outs[0], Opnd::V(x));
                    self.loc.insert(outs[1], Opnd::V(y));
                }
                Stmt::Transp { outs, ins } => {
                    let mut uses = Vec::new();
                    let mut defs = Vec::new();
                    for k in 0..4 {
                        uses.push((self.opnd(Src::Val(ins[k]))?, UseC::Fixed(k as u8)));
                        let d = self.vreg();
                        defs.push((d, DefC::Tied(k)));
                        self.loc.insert(outs[k], Opnd::V(d));
                    }
                    self.emit(MOp::Transp, uses, defs, "subvec_transp");
                }
                Stmt::Store { offset, value, kind } => {
                    let v = self.opnd(*value)?;
                    let mod0 = match kind {
                        DstKind::Float => MOD0_FMT_SRCB,
                        DstKind::Int => MOD0_FMT_INT32_SM,
                    };
                    self.emit(
                        MOp::Store { mod0, offset: *offset },
                        vec![(v, UseC::General)],
                        vec![],
                        "dst_reg store",
                    );
                }
                Stmt::SetLReg { reg, value } => {
                    let v = self.opnd(*value)?;
                    self.emit(MOp::MovInto { vd: *reg }, vec![(v, UseC::Any)], vec![], "l_reg assignment");
                }
                Stmt::SetConst { reg, value } => {
                    let v = self.opnd(*value)?;
                    self.emit(
                        MOp::Config { vd: *reg },
                        vec![(v, UseC::Fixed(0))],
                        vec![],
                        "constant assignment",
                    );
                }
                Stmt::If(i) => {
                    for (k, arm) in i.arms.iter().enumerate() {
                        if k > 0 {
                            self.compc();
                            self.stmts(&arm.prelude, Frame::Prelude)?;
                        }
                        self.push_flags()?;
                        self.narrow(&nnf(&arm.cond, false))?;
                        self.stmts(&arm.body, Frame::Arm)?;
                    }
                    if let Some(e) = &i.else_body {
                        if self.opts.planted != Some(PlantedBug::ElseWithoutCompc) {
                            self.compc();
                        }
                        self.stmts(e, Frame::Arm)?;
                    }
                    self.pop_flags(i.arms.len());
                }
                Stmt::Block(b) => {
                    self.push_flags()?;
                    self.stmts(b, Frame::Block)?;
                    self.pop_flags(1);
                }
                Stmt::And(c) => {
                    match frame {
                        Frame::Arm if !and_pushed => {
                            self.push_flags()?;
                            and_pushed = true;
                        }
                        Frame::Arm | Frame::Block => {}
                        Frame::Root | Frame::Prelude => {
                            return Err(KernelError::VAndOutsideBlock { kernel: self.k.name.clone() });
                        }
                    }
                    self.narrow(&nnf(c, false))?;
                }
            }
        }
        if and_pushed {
            self.pop_flags(1);
        }
        Ok(())
    }

    fn let_(&mut self, id: ValueId, op: &Op) -> Result<(), KernelError> {
        let arch = self.arch;
        let what = op.name();
        let d = match *op {
            Op::LoadDst { offset, kind } => {
                let mod0 = match kind {
                    DstKind::Float => MOD0_FMT_SRCB,
                    DstKind::Int => MOD0_FMT_INT32_SM,
                };
                self.simple(MOp::Load { mod0, offset }, &[], DefC::Any, what)?
            }
            Op::Imm { bits, form } => self.load_imm(bits, form, what)?,
            Op::ConstReg(n) => {
                if self.in_init && (12..=14).contains(&n) {
                    // A snapshot: init may reassign the register later.
                    self.simple(
                        MOp::Mov { mod1: SFPMOV_MOD1_ALL_LANES_ENABLED },
                        &[Src::Const(n)],
                        DefC::Any,
                        what,
                    )?
                } else {
                    let o = self.opnd(Src::Const(n))?;
                    self.loc.insert(id, o);
                    return Ok(());
                }
            }
            Op::LRegIn(n) => {
                if self.written_lregs >> (n & 7) & 1 == 0 {
                    self.loc.insert(id, Opnd::P(n));
                    return Ok(());
                }
                // The body also sets l_reg[n]: take a snapshot, so that the value read stays what
                // it was when a later `.set` overwrites the register.
                let o = Opnd::P(n);
                let d = self.vreg();
                self.emit(
                    MOp::Mov { mod1: SFPMOV_MOD1_ALL_LANES_ENABLED },
                    vec![(o, UseC::Any)],
                    vec![(d, DefC::Any)],
                    what,
                );
                d
            }
            Op::FAdd(..) | Op::FSub(..) | Op::FMul(..) | Op::Mad { .. } => {
                let Some((a, b, c, na, nc)) = op.mad_form(arch) else {
                    return Err(self.internal("mad form"));
                };
                if arch == Arch::Wormhole && (na || nc) {
                    return Err(self.internal("Wormhole has no SFPMAD negate modifiers"));
                }
                let mod1 = (u32::from(na) * SFPMAD_MOD1_NEGATE_VA) | (u32::from(nc) * SFPMAD_MOD1_NEGATE_VC);
                self.simple(MOp::Mad { mod1 }, &[a, b, c], DefC::Any, what)?
            }
            Op::Neg(a) => self.simple(MOp::Mov { mod1: SFPMOV_MOD1_NEGATE }, &[a], DefC::Any, what)?,
            Op::Abs { v, float } => {
                let mod1 = if float { SFPABS_MOD1_FLOAT } else { SFPABS_MOD1_INT };
                self.simple(MOp::Abs { mod1 }, &[v], DefC::Any, what)?
            }
            Op::IAdd(a, b) => {
                self.simple(MOp::IAdd { mod1: SFPIADD_MOD1_CC_NONE }, &[a, b], DefC::Tied(1), what)?
            }
            Op::ISub(a, b) => self.simple(
                MOp::IAdd { mod1: SFPIADD_MOD1_ARG_2SCOMP_LREG_DST | SFPIADD_MOD1_CC_NONE },
                &[a, b],
                DefC::Tied(1),
                what,
            )?,
            Op::IAddImm(a, k) => {
                self.simple(MOp::IAddImm { imm12: k as u32 & 0xFFF }, &[a], DefC::Any, what)?
            }
            Op::And(a, b) => self.simple(MOp::And, &[a, b], DefC::Tied(0), what)?,
            Op::Or(a, b) => self.simple(MOp::Or, &[a, b], DefC::Tied(0), what)?,
            Op::Xor(a, b) => self.simple(MOp::Xor, &[a, b], DefC::Tied(0), what)?,
            Op::Not(a) => self.simple(MOp::Not, &[a], DefC::Any, what)?,
            Op::ShiftImm { v, amt, arith } => {
                let mod1 = SFPSHFT_MOD1_ARG_IMM | (u32::from(arith) * SFPSHFT_MOD1_ARITHMETIC);
                self.simple(MOp::ShiftImm { imm12: amt as u32 & 0xFFF, mod1 }, &[v], DefC::Tied(0), what)?
            }
            Op::ShiftVec { v, amt, arith } => {
                let mod1 = u32::from(arith) * SFPSHFT_MOD1_ARITHMETIC;
                self.simple(MOp::ShiftVec { mod1 }, &[v, amt], DefC::Tied(0), what)?
            }
            Op::ExExp { v, debias } => {
                let mod1 = if debias { 0 } else { SFPEXEXP_MOD1_NODEBIAS };
                self.simple(MOp::ExExp { mod1 }, &[v], DefC::Any, what)?
            }
            Op::ExMan { v, pad9 } => {
                let mod1 = if pad9 { SFPEXMAN_MOD1_PAD9 } else { 0 };
                self.simple(MOp::ExMan { mod1 }, &[v], DefC::Any, what)?
            }
            Op::SetExpImm { v, exp } => {
                self.simple(MOp::SetExpImm { imm8: exp & 0xFF }, &[v], DefC::Any, what)?
            }
            Op::SetExpVec { v, exp } => self.simple(MOp::SetExpVec, &[v, exp], DefC::Tied(1), what)?,
            Op::SetManImm { v, man12 } => {
                self.simple(MOp::SetManImm { imm12: man12 & 0xFFF }, &[v], DefC::Any, what)?
            }
            Op::SetManVec { v, man } => self.simple(MOp::SetManVec, &[v, man], DefC::Tied(1), what)?,
            Op::SetSgnImm { v, sgn } => {
                self.simple(MOp::SetSgnImm { imm1: sgn & 1 }, &[v], DefC::Any, what)?
            }
            Op::SetSgnVec { v, sgn } => self.simple(MOp::SetSgnVec, &[v, sgn], DefC::Tied(1), what)?,
            Op::AddExp { v, imm8 } => {
                self.simple(MOp::AddExp { imm8: imm8 & 0xFF }, &[v], DefC::Any, what)?
            }
            Op::Lut { v, l, retain_sign } => {
                let mut uses = Vec::new();
                for (k, s) in [l[0], l[1], l[2], v].into_iter().enumerate() {
                    uses.push((self.opnd(s)?, UseC::Fixed(k as u8)));
                }
                let d = self.vreg();
                let mod0 = if retain_sign { SFPLUT_MOD0_SGN_RETAIN } else { 0 };
                self.emit(MOp::Lut { mod0 }, uses, vec![(d, DefC::Any)], what);
                d
            }
            Op::Lz { v, nosgn } => {
                let mod1 = if nosgn { SFPLZ_MOD1_NOSGN_MASK } else { 0 };
                self.simple(MOp::Lz { mod1 }, &[v], DefC::Any, what)?
            }
            Op::Cast { v, stochastic } => {
                let mod1 =
                    if stochastic { SFPCAST_MOD1_SM32_TO_FP32_RNS } else { SFPCAST_MOD1_SM32_TO_FP32_RNE };
                self.simple(MOp::Cast { mod1 }, &[v], DefC::Any, what)?
            }
            Op::StochRnd { v, conv, stochastic, descale } => {
                let rnd = if stochastic { SFPSTOCHRND_RND_STOCH } else { SFPSTOCHRND_RND_NEAREST };
                let mod1 = conv as u32;
                match descale {
                    crate::ir::Descale::None => self.simple(
                        MOp::StochRnd { rnd, mod1, imm5: None, vec_descale: false },
                        &[v],
                        DefC::Any,
                        what,
                    )?,
                    crate::ir::Descale::Imm(k) => self.simple(
                        MOp::StochRnd { rnd, mod1, imm5: Some(k & 31), vec_descale: false },
                        &[v],
                        DefC::Any,
                        what,
                    )?,
                    crate::ir::Descale::Vec(s) => self.simple(
                        MOp::StochRnd { rnd, mod1, imm5: None, vec_descale: true },
                        &[v, s],
                        DefC::Any,
                        what,
                    )?,
                }
            }
            Op::Shfl { v, ror1 } => {
                let mod1 = if ror1 { SFPSHFT2_MOD1_SUBVEC_SHFLROR1 } else { SFPSHFT2_MOD1_SUBVEC_SHFLSHR1 };
                self.simple(MOp::Shft2 { mod1 }, &[v], DefC::Any, what)?
            }
            Op::Merge { old, new } => self.merge(old, new)?,
        };
        self.loc.insert(id, Opnd::V(d));
        Ok(())
    }

    /// `old` replaced by `new` in the enabled lanes. When `new` was computed by the previous
    /// operation and is used only here, that operation writes straight into `old`'s register
    /// (its disabled lanes keep `old`), as SFPI's compiler assigns variables in place; otherwise
    /// a predicated SFPMOV does it.
    fn merge(&mut self, old: ValueId, new: Src) -> Result<VReg, KernelError> {
        let o = self.opnd(Src::Val(old))?;
        let n = self.opnd(new)?;
        let coalesce = self.opts.planted.is_none()
            && matches!((o, n, new), (Opnd::V(_), Opnd::V(_), Src::Val(nv)) if self.uses.get(&nv) == Some(&1))
            && self.out.last().is_some_and(|p| {
                p.defs.len() == 1
                    && p.defs[0].1 == DefC::Any
                    && Opnd::V(p.defs[0].0) == n
                    && !matches!(p.op, MOp::Merge { .. })
            });
        if coalesce && let Some(prev) = self.out.last_mut() {
            let k = prev.uses.len();
            prev.uses.push((o, UseC::Any));
            prev.defs[0].1 = DefC::Tied(k);
            let Opnd::V(d) = n else { return Err(self.internal("merge coalescing")) };
            return Ok(d);
        }
        let mod1 = if self.opts.planted == Some(PlantedBug::MergeIgnoresPredication) {
            SFPMOV_MOD1_ALL_LANES_ENABLED
        } else {
            0
        };
        let d = self.vreg();
        self.emit(
            MOp::Merge { mod1 },
            vec![(o, UseC::Any), (n, UseC::Any)],
            vec![(d, DefC::Tied(0))],
            "assignment under v_if",
        );
        Ok(d)
    }

    fn load_imm(&mut self, bits: u32, form: ImmForm, what: &'static str) -> Result<VReg, KernelError> {
        let op = match form {
            ImmForm::Fp16b => MOp::LoadI { mod0: SFPLOADI_MOD0_FLOATB, imm16: bits >> 16 },
            ImmForm::Fp16a(h) => MOp::LoadI { mod0: SFPLOADI_MOD0_FLOATA, imm16: h as u32 },
            ImmForm::Short => MOp::LoadI { mod0: SFPLOADI_MOD0_SHORT, imm16: bits & 0xFFFF },
            ImmForm::UShort => MOp::LoadI { mod0: SFPLOADI_MOD0_USHORT, imm16: bits & 0xFFFF },
            ImmForm::Pair => MOp::LoadIPair { bits },
        };
        self.simple(op, &[], DefC::Any, what)
    }

    /// Computes the difference a comparison tests; returns where it is.
    fn difference(&mut self, float: bool, a: Src, rhs: Rhs) -> Result<Opnd, KernelError> {
        let b = match rhs {
            Rhs::Zero => return self.opnd(a),
            Rhs::Src(b) => b,
            Rhs::FloatImm(bits) => {
                let t = self.load_imm(bits, ImmForm::for_float(bits), "comparison immediate")?;
                self.value_src(t)
            }
            Rhs::IntImm(k) => {
                if let Some(neg) = k.checked_neg().filter(|n| (-2048..=2047).contains(n)) {
                    let d = self.simple(
                        MOp::IAddImm { imm12: neg as u32 & 0xFFF },
                        &[a],
                        DefC::Any,
                        "comparison",
                    )?;
                    return Ok(Opnd::V(d));
                }
                let t = self.load_imm(k as u32, ImmForm::for_int(k as u32), "comparison immediate")?;
                self.value_src(t)
            }
        };
        let d = if float {
            let sub = Op::FSub(a, b);
            let Some((x, y, z, na, nc)) = sub.mad_form(self.arch) else {
                return Err(self.internal("mad form"));
            };
            let mod1 = (u32::from(na) * SFPMAD_MOD1_NEGATE_VA) | (u32::from(nc) * SFPMAD_MOD1_NEGATE_VC);
            self.simple(MOp::Mad { mod1 }, &[x, y, z], DefC::Any, "comparison")?
        } else {
            self.simple(
                MOp::IAdd { mod1: SFPIADD_MOD1_ARG_2SCOMP_LREG_DST | SFPIADD_MOD1_CC_NONE },
                &[a, b],
                DefC::Tied(1),
                "comparison",
            )?
        };
        Ok(Opnd::V(d))
    }

    /// A temporary virtual register as a [`Src`]: registered under a fresh value id past the
    /// kernel's own.
    fn value_src(&mut self, v: VReg) -> Src {
        let id = u32::MAX - v;
        self.loc.insert(id, Opnd::V(v));
        Src::Val(id)
    }

    fn setcc(&mut self, d: Opnd, op: CmpOp) -> Result<(), KernelError> {
        match setcc_mode(op) {
            Some(mut mod1) => {
                if self.opts.planted == Some(PlantedBug::GreaterEqualAsLess) && op == CmpOp::Ge {
                    mod1 = SFPSETCC_MOD1_LREG_LT0;
                }
                self.emit(MOp::SetCc { mod1 }, vec![(d, UseC::Any)], vec![], "comparison");
                self.fresh = false;
            }
            None if op == CmpOp::Gt => {
                self.setcc(d, CmpOp::Ge)?;
                self.setcc(d, CmpOp::Ne)?;
            }
            None => self.or(&[N::Test(d, CmpOp::Lt), N::Test(d, CmpOp::Eq)])?,
        }
        Ok(())
    }

    /// Narrows the flags to the lanes where `n` also holds.
    fn narrow(&mut self, n: &N<'_>) -> Result<(), KernelError> {
        match n {
            N::Leaf(c, neg) => match c {
                Cond::Cmp { float, op, a, rhs } => {
                    let op = if *neg { op.complement() } else { *op };
                    let d = self.difference(*float, *a, *rhs)?;
                    self.setcc(d, op)
                }
                Cond::NonZero(v) => {
                    let d = self.opnd(*v)?;
                    self.setcc(d, if *neg { CmpOp::Eq } else { CmpOp::Ne })
                }
                _ => Err(self.internal("condition not in normal form")),
            },
            N::Test(d, op) => self.setcc(*d, *op),
            N::And(v) => {
                for x in v {
                    self.narrow(x)?;
                }
                Ok(())
            }
            N::Or(v) => self.or(v),
        }
    }

    /// Narrows by `x1 || x2 || ..` as `!(!x1 && !x2 && ..)`.
    fn or(&mut self, v: &[N<'_>]) -> Result<(), KernelError> {
        let pushed = !self.fresh;
        if pushed {
            self.push_flags()?;
        }
        for x in v {
            self.narrow(&negate(x))?;
        }
        self.compc();
        if pushed {
            // Fold the result back into the flags below: zero in the lanes that hold, 1.0 in the
            // others, pop, and narrow to the zero lanes.
            let t = self.simple(
                MOp::Mov { mod1: SFPMOV_MOD1_ALL_LANES_ENABLED },
                &[Src::Const(10)],
                DefC::Any,
                "condition",
            )?;
            let z = self.vreg();
            self.emit(
                MOp::Merge { mod1: 0 },
                vec![(Opnd::V(t), UseC::Any), (Opnd::P(9), UseC::Any)],
                vec![(z, DefC::Tied(0))],
                "condition",
            );
            self.pop_flags(1);
            self.setcc(Opnd::V(z), CmpOp::Eq)?;
        }
        Ok(())
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Frame {
    Root,
    Prelude,
    Arm,
    Block,
}
