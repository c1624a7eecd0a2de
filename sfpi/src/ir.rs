//! The recorded form of a kernel: values, operations, statements and conditions.
//!
//! A kernel written with the layer ([`crate::vector`]) is recorded as a tree of statements. Every
//! vector value is immutable (an SSA value); what SFPI expresses by assigning to a variable inside
//! a `v_if` is an explicit [`Op::Merge`]: the new value in the lanes the condition enables, the old
//! value elsewhere. Control is structured: [`Stmt::If`] (a `v_if` / `v_elseif` / `v_else` chain),
//! [`Stmt::Block`] (`v_block`) and [`Stmt::And`] (`v_and`).
//!
//! The same tree is read twice: by the per-lane meaning ([`crate::meaning`]) and by the lowering
//! to SFPU instructions ([`crate::lower`](mod@crate::lower)). What a floating-point operation computes on each chip
//! (which multiply-add form SFPI's lowering uses) is defined once, here, by [`Op::mad_form`]: both
//! readers follow it, because it is part of what the kernel means (SFPI's `a - b` is a different
//! multiply-add on Wormhole, which has no negate modifiers, than on Blackhole).

use sfpu_reference::isa::Arch;

/// An SSA value of a kernel.
pub type ValueId = u32;

/// A lexical predication scope: the body of one `v_if` arm, `v_else`, `v_block`, the rest of a
/// body after a `v_and`, or the lanes left for a `v_elseif` (see [`crate::record`]).
pub type ScopeId = u32;

/// The type of a vector value, as SFPI's classes type them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum VType {
    /// `vFloat`: FP32 in each lane.
    Float,
    /// `vInt`: two's complement 32-bit integers.
    Int,
    /// `vUInt`: unsigned 32-bit integers.
    UInt,
}

/// An operand: a value, or one of the constant LRegs 8..=15 read directly.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Src {
    /// A recorded value.
    Val(ValueId),
    /// `LReg[n]` for `n` in 8..=15 (`vConst0p8373` 8, `vConst0` 9, `vConst1` 10, `vConstNeg1` 11,
    /// the programmable constants 12..=14, `vConstTileId` 15).
    Const(u8),
}

/// How `dst_reg[n]` is read or written (`sfpi_imp.h` of both chips).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DstKind {
    /// `vFloat`: `MOD0_FMT_SRCB`, the tile's format as the configuration resolves it.
    Float,
    /// `vInt` / `vUInt`: `MOD0_FMT_INT32_SM` (12): sign-magnitude to two's complement on
    /// Wormhole, the raw 32 bits on Blackhole (where the mode is deprecated and does not convert).
    Int,
}

/// How an immediate is loaded (SFPLOADI `Mod0`), chosen by the seed's rule: fp16b if the value
/// fits, else fp16a, else a 32-bit pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ImmForm {
    /// `SFPLOADI_MOD0_FLOATB`: the upper 16 bits (the low 16 bits are zero).
    Fp16b,
    /// `SFPLOADI_MOD0_FLOATA`: an FP16 pattern with the given bits.
    Fp16a(u16),
    /// `SFPLOADI_MOD0_SHORT`: sign-extended 16 bits.
    Short,
    /// `SFPLOADI_MOD0_USHORT`: zero-extended 16 bits.
    UShort,
    /// `SFPLOADI_MOD0_LOWER` then `SFPLOADI_MOD0_UPPER`: any 32 bits, two instructions.
    Pair,
}

impl ImmForm {
    /// The form SFPI chooses for the FP32 pattern `bits` (the seed: fp16b if the value fits,
    /// otherwise fp16a, otherwise 32 bits). Every choice loads exactly `bits`.
    pub fn for_float(bits: u32) -> ImmForm {
        if bits & 0xFFFF == 0 {
            return ImmForm::Fp16b;
        }
        // SFPLOADI FLOATA builds s<<31 | (e5 + 112)<<23 | m10<<13 with no special cases, so
        // exactly the patterns with 13 zero low bits and a biased exponent in 112..=143.
        let e = (bits >> 23) & 0xFF;
        if bits & 0x1FFF == 0 && (112..=143).contains(&e) {
            let h = ((bits >> 16) & 0x8000) | ((e - 112) << 10) | ((bits >> 13) & 0x3FF);
            return ImmForm::Fp16a(h as u16);
        }
        ImmForm::Pair
    }

    /// The form for the integer pattern `bits` (sign-extended 16 bits, zero-extended 16 bits, or a
    /// pair).
    pub fn for_int(bits: u32) -> ImmForm {
        let v = bits as i32;
        if (-32768..=32767).contains(&v) {
            ImmForm::Short
        } else if bits <= 0xFFFF {
            ImmForm::UShort
        } else {
            ImmForm::Pair
        }
    }
}

/// The conversion an `SFPSTOCHRND` performs (its `Mod1`, `SFPSTOCHRND_MOD1_*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RndConv {
    /// `float_to_fp16a`: FP32 to FP32 with 10 mantissa bits.
    Fp16a = 0,
    /// `float_to_fp16b`: FP32 to FP32 with 7 mantissa bits.
    Fp16b = 1,
    /// `float_to_uint8`.
    Uint8 = 2,
    /// `float_to_int8` (sign-magnitude result).
    Int8 = 3,
    /// `int32_to_uint8` (sign-magnitude input, descaled).
    Int32ToUint8 = 4,
    /// `int32_to_int8`.
    Int32ToInt8 = 5,
    /// `float_to_uint16`.
    Uint16 = 6,
    /// `float_to_int16` (sign-magnitude result).
    Int16 = 7,
}

/// An `int32_to_uint8` / `int32_to_int8` descale amount.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Descale {
    /// Not an int-to-int conversion.
    None,
    /// An immediate shift (`UseImm5`), 0..=31.
    Imm(u32),
    /// A vector of shift amounts (the low 5 bits of each lane).
    Vec(Src),
}

/// One recorded operation. Every operation produces one value, except those recorded as
/// [`Stmt::Swap`] and [`Stmt::Transp`].
#[derive(Clone, Debug, PartialEq)]
pub enum Op {
    /// `dst_reg[offset]` read (SFPLOAD), relative to the row the iteration processes.
    LoadDst {
        /// The `dst_reg` index.
        offset: u32,
        /// Float or integer read.
        kind: DstKind,
    },
    /// An immediate (SFPLOADI): `bits` is the exact 32-bit pattern the load produces.
    Imm {
        /// The pattern.
        bits: u32,
        /// How it is loaded.
        form: ImmForm,
    },
    /// A snapshot of constant register `n` (8..=15) as a value.
    ConstReg(u8),
    /// `l_reg[n]` read: the value `LReg[n]` holds at that point.
    LRegIn(u8),
    /// `a + b` on floats.
    FAdd(Src, Src),
    /// `a - b` on floats.
    FSub(Src, Src),
    /// `a * b` on floats.
    FMul(Src, Src),
    /// `(±a) * b + (±c)`: SFPI's MAD generation fused a multiply into an add or subtract.
    Mad {
        /// Multiplicand.
        a: Src,
        /// Multiplier.
        b: Src,
        /// Addend.
        c: Src,
        /// Negate `a` (Blackhole `SFPMAD_MOD1_NEGATE_VA`).
        neg_a: bool,
        /// Negate `c` (Blackhole `SFPMAD_MOD1_NEGATE_VC`).
        neg_c: bool,
    },
    /// `-a` on floats: flip the sign bit (SFPMOV with `SFPMOV_MOD1_NEGATE`).
    Neg(Src),
    /// `abs`: SFPABS, float or integer mode.
    Abs {
        /// The input.
        v: Src,
        /// Float mode (`SFPABS_MOD1_FLOAT`) rather than two's complement.
        float: bool,
    },
    /// `a + b` on integers.
    IAdd(Src, Src),
    /// `a - b` on integers.
    ISub(Src, Src),
    /// `a + imm` with a 12-bit signed immediate.
    IAddImm(Src, i32),
    /// Bitwise and.
    And(Src, Src),
    /// Bitwise or.
    Or(Src, Src),
    /// Bitwise exclusive or.
    Xor(Src, Src),
    /// Bitwise not.
    Not(Src),
    /// Shift by an immediate: left for positive amounts, right for negative ones.
    ShiftImm {
        /// The value shifted.
        v: Src,
        /// The signed amount.
        amt: i32,
        /// Arithmetic right shift (Blackhole only).
        arith: bool,
    },
    /// Shift by a vector of signed amounts (`shft`).
    ShiftVec {
        /// The value shifted.
        v: Src,
        /// The signed amounts.
        amt: Src,
        /// Arithmetic right shift (Blackhole only).
        arith: bool,
    },
    /// `exexp` / `exexp_nodebias`.
    ExExp {
        /// The input.
        v: Src,
        /// Subtract the bias 127.
        debias: bool,
    },
    /// `exman8` / `exman9`.
    ExMan {
        /// The input.
        v: Src,
        /// `exman9`: no hidden bit.
        pad9: bool,
    },
    /// `setexp(v, imm)`.
    SetExpImm {
        /// The input.
        v: Src,
        /// The new biased exponent (low 8 bits).
        exp: u32,
    },
    /// `setexp(v, vector)`: the exponent from bits 7:0 of each lane.
    SetExpVec {
        /// The input.
        v: Src,
        /// The exponents.
        exp: Src,
    },
    /// `setman(v, imm)` when the immediate's low 11 bits are zero (SFPSETMAN's 12-bit field).
    SetManImm {
        /// The input.
        v: Src,
        /// Mantissa bits 22:11.
        man12: u32,
    },
    /// `setman(v, vector)`: the mantissa from bits 22:0 of each lane.
    SetManVec {
        /// The input.
        v: Src,
        /// The mantissas.
        man: Src,
    },
    /// `setsgn(v, imm)`: the sign from bit 0 of the immediate.
    SetSgnImm {
        /// The input.
        v: Src,
        /// The sign (bit 0).
        sgn: u32,
    },
    /// `setsgn(v, vector)`: the sign from bit 31 of each lane.
    SetSgnVec {
        /// The input.
        v: Src,
        /// The signs.
        sgn: Src,
    },
    /// `addexp(v, imm)`: add to the biased exponent (mod 256) unless it is 255.
    AddExp {
        /// The input.
        v: Src,
        /// The addend (low 8 bits).
        imm8: u32,
    },
    /// `lut` / `lut_sign`: SFPLUT with `l0..l2` in `LReg[0..2]` and the input in `LReg[3]`.
    Lut {
        /// The input.
        v: Src,
        /// The three coefficient pairs.
        l: [Src; 3],
        /// `lut` (keep the input's sign, `SFPLUT_MOD0_SGN_RETAIN`) rather than `lut_sign`.
        retain_sign: bool,
    },
    /// `lz` / `lz_nosgn`.
    Lz {
        /// The input.
        v: Src,
        /// Ignore the sign bit.
        nosgn: bool,
    },
    /// `int_to_float`: SFPCAST from sign-magnitude int32.
    Cast {
        /// The input (sign and 31-bit magnitude).
        v: Src,
        /// Stochastic rounding (`round_mode = 1`) rather than round to nearest even.
        stochastic: bool,
    },
    /// The `float_to_*` and `int32_to_*` conversions: SFPSTOCHRND.
    StochRnd {
        /// The input.
        v: Src,
        /// The conversion.
        conv: RndConv,
        /// Stochastic rounding (`round_mode = 1`) rather than round to nearest.
        stochastic: bool,
        /// The descale of the int-to-int conversions.
        descale: Descale,
    },
    /// `subvec_shflror1` (`ror1`) or `subvec_shflshr1`.
    Shfl {
        /// The input.
        v: Src,
        /// Rotate (rather than shift) right by one lane within each group of eight.
        ror1: bool,
    },
    /// The value of `old`, replaced by `new` in the lanes the current scope enables.
    Merge {
        /// The value kept in the other lanes.
        old: ValueId,
        /// The value taken in the enabled lanes.
        new: Src,
    },
}

/// The multiply-add `(±a) * b + (±c)` a float operation is on `arch`, as SFPI lowers it:
/// `(a, b, c, negate a, negate c)`.
impl Op {
    /// The multiply-add form of a float operation on `arch` (`None` for every other operation).
    ///
    /// * `a * b` is `a * b + 0` (`SFPMUL`, `VC = LReg[9]`).
    /// * `a + b` is `1.0 * a + b` (`SFPADD`, `VA = LReg[10]`).
    /// * `a - b` on Blackhole is `1.0 * a + (-b)` with `SFPMAD_MOD1_NEGATE_VC`; on Wormhole, which
    ///   has no negate modifiers, it is `b * -1.0 + a` with `vConstNeg1` (`LReg[11]`), as
    ///   `wormhole/sfpi_imp.h`'s `operator-=` does.
    pub fn mad_form(&self, arch: Arch) -> Option<(Src, Src, Src, bool, bool)> {
        match *self {
            Op::FMul(a, b) => Some((a, b, Src::Const(9), false, false)),
            Op::FAdd(a, b) => Some((Src::Const(10), a, b, false, false)),
            Op::FSub(a, b) => Some(match arch {
                Arch::Blackhole => (Src::Const(10), a, b, false, true),
                Arch::Wormhole => (Src::Const(11), b, a, false, false),
            }),
            Op::Mad { a, b, c, neg_a, neg_c } => Some((a, b, c, neg_a, neg_c)),
            _ => None,
        }
    }

    /// Every operand the operation reads.
    pub fn srcs(&self) -> Vec<Src> {
        match *self {
            Op::LoadDst { .. } | Op::Imm { .. } | Op::ConstReg(_) | Op::LRegIn(_) => vec![],
            Op::FAdd(a, b)
            | Op::FSub(a, b)
            | Op::FMul(a, b)
            | Op::IAdd(a, b)
            | Op::ISub(a, b)
            | Op::And(a, b)
            | Op::Or(a, b)
            | Op::Xor(a, b) => vec![a, b],
            Op::Mad { a, b, c, .. } => vec![a, b, c],
            Op::Neg(a) | Op::Not(a) | Op::IAddImm(a, _) => vec![a],
            Op::Abs { v, .. }
            | Op::ShiftImm { v, .. }
            | Op::ExExp { v, .. }
            | Op::ExMan { v, .. }
            | Op::SetExpImm { v, .. }
            | Op::SetManImm { v, .. }
            | Op::SetSgnImm { v, .. }
            | Op::AddExp { v, .. }
            | Op::Lz { v, .. }
            | Op::Cast { v, .. }
            | Op::Shfl { v, .. } => vec![v],
            Op::ShiftVec { v, amt, .. } => vec![v, amt],
            Op::SetExpVec { v, exp } => vec![v, exp],
            Op::SetManVec { v, man } => vec![v, man],
            Op::SetSgnVec { v, sgn } => vec![v, sgn],
            Op::Lut { v, l, .. } => vec![v, l[0], l[1], l[2]],
            Op::StochRnd { v, descale, .. } => match descale {
                Descale::Vec(d) => vec![v, d],
                _ => vec![v],
            },
            Op::Merge { old, new } => vec![Src::Val(old), new],
        }
    }

    /// A short name for messages.
    pub fn name(&self) -> &'static str {
        match self {
            Op::LoadDst { .. } => "dst_reg read",
            Op::Imm { .. } => "immediate",
            Op::ConstReg(_) => "constant register",
            Op::LRegIn(_) => "l_reg read",
            Op::FAdd(..) => "float +",
            Op::FSub(..) => "float -",
            Op::FMul(..) => "float *",
            Op::Mad { .. } => "multiply-add",
            Op::Neg(_) => "float negate",
            Op::Abs { .. } => "abs",
            Op::IAdd(..) => "integer +",
            Op::ISub(..) => "integer -",
            Op::IAddImm(..) => "integer + immediate",
            Op::And(..) => "&",
            Op::Or(..) => "|",
            Op::Xor(..) => "^",
            Op::Not(_) => "~",
            Op::ShiftImm { .. } => "shift",
            Op::ShiftVec { .. } => "shft",
            Op::ExExp { .. } => "exexp",
            Op::ExMan { .. } => "exman",
            Op::SetExpImm { .. } | Op::SetExpVec { .. } => "setexp",
            Op::SetManImm { .. } | Op::SetManVec { .. } => "setman",
            Op::SetSgnImm { .. } | Op::SetSgnVec { .. } => "setsgn",
            Op::AddExp { .. } => "addexp",
            Op::Lut { .. } => "lut",
            Op::Lz { .. } => "lz",
            Op::Cast { .. } => "int_to_float",
            Op::StochRnd { .. } => "float/int conversion",
            Op::Shfl { ror1: true, .. } => "subvec_shflror1",
            Op::Shfl { ror1: false, .. } => "subvec_shflshr1",
            Op::Merge { .. } => "assignment under v_if",
        }
    }
}

/// A comparison.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CmpOp {
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `==`
    Eq,
    /// `!=`
    Ne,
}

impl CmpOp {
    /// The comparison that is true exactly when this one is false (on the same difference).
    pub fn complement(self) -> CmpOp {
        match self {
            CmpOp::Lt => CmpOp::Ge,
            CmpOp::Ge => CmpOp::Lt,
            CmpOp::Le => CmpOp::Gt,
            CmpOp::Gt => CmpOp::Le,
            CmpOp::Eq => CmpOp::Ne,
            CmpOp::Ne => CmpOp::Eq,
        }
    }

    /// Whether a difference `d` (tested as SFPSETCC tests a register: its 32 bits as a
    /// two's complement integer) satisfies the comparison against zero. This is SFPI's meaning
    /// of every comparison: `a < b` is "`a - b` is negative".
    pub fn test(self, d: u32) -> bool {
        let s = d as i32;
        match self {
            CmpOp::Lt => s < 0,
            CmpOp::Ge => s >= 0,
            CmpOp::Eq => d == 0,
            CmpOp::Ne => d != 0,
            CmpOp::Gt => s >= 0 && d != 0,
            CmpOp::Le => s < 0 || d == 0,
        }
    }
}

/// The right-hand side of a comparison.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rhs {
    /// Zero (`0.0F` or `0`): the left side is tested directly, with no subtraction.
    Zero,
    /// A vector operand: the difference is computed.
    Src(Src),
    /// A non-zero float immediate (its FP32 bits), loaded with SFPLOADI.
    FloatImm(u32),
    /// A non-zero integer immediate.
    IntImm(i32),
}

/// A vector condition: comparisons combined with `&&`, `||` and `!`.
#[derive(Clone, Debug, PartialEq)]
pub enum Cond {
    /// A comparison of the difference `a - rhs`.
    Cmp {
        /// Float (the difference is a float subtraction) or integer comparison.
        float: bool,
        /// The comparison.
        op: CmpOp,
        /// The left side.
        a: Src,
        /// The right side.
        rhs: Rhs,
    },
    /// An integer vector used as a condition: true where it is not zero.
    NonZero(Src),
    /// Both.
    And(Box<Cond>, Box<Cond>),
    /// Either.
    Or(Box<Cond>, Box<Cond>),
    /// Not.
    Not(Box<Cond>),
}

impl Cond {
    /// Every operand the condition reads.
    pub fn srcs(&self) -> Vec<Src> {
        match self {
            Cond::Cmp { a, rhs, .. } => match rhs {
                Rhs::Src(b) => vec![*a, *b],
                _ => vec![*a],
            },
            Cond::NonZero(v) => vec![*v],
            Cond::And(x, y) | Cond::Or(x, y) => {
                let mut v = x.srcs();
                v.extend(y.srcs());
                v
            }
            Cond::Not(x) => x.srcs(),
        }
    }
}

/// One arm of a `v_if` chain.
#[derive(Clone, Debug, PartialEq)]
pub struct Arm {
    /// Statements recorded between the previous arm and this `v_elseif` (its condition's
    /// operands): they run in the lanes no earlier arm took. Empty for the first arm.
    pub prelude: Vec<Stmt>,
    /// The condition.
    pub cond: Cond,
    /// The statements of the arm.
    pub body: Vec<Stmt>,
}

/// A `v_if` / `v_elseif` / `v_else` / `v_endif` chain.
#[derive(Clone, Debug, PartialEq)]
pub struct IfStmt {
    /// The `v_if` arm and each `v_elseif` arm.
    pub arms: Vec<Arm>,
    /// The `v_else` body, if any.
    pub else_body: Option<Vec<Stmt>>,
}

/// One statement.
#[derive(Clone, Debug, PartialEq)]
pub enum Stmt {
    /// `id = op`.
    Let {
        /// The value defined.
        id: ValueId,
        /// How.
        op: Op,
    },
    /// `vec_swap` / `vec_min_max`: `outs[0]` is the new first operand (the minimum), `outs[1]`
    /// the second (the maximum). Lanes the scope disables keep the inputs.
    Swap {
        /// The new values.
        outs: [ValueId; 2],
        /// The operands.
        ins: [ValueId; 2],
        /// `vec_min_max` rather than `vec_swap`.
        min_max: bool,
    },
    /// `subvec_transp`: transpose (operand, row) within each column of eight lanes.
    Transp {
        /// The new values.
        outs: [ValueId; 4],
        /// The operands.
        ins: [ValueId; 4],
    },
    /// `dst_reg[offset] = value` (SFPSTORE) in the enabled lanes.
    Store {
        /// The `dst_reg` index.
        offset: u32,
        /// The value.
        value: Src,
        /// Float or integer write.
        kind: DstKind,
    },
    /// `l_reg[reg] = value` in the enabled lanes.
    SetLReg {
        /// The LReg, 0..=7.
        reg: u8,
        /// The value.
        value: Src,
    },
    /// `vConst{Float,Int}Prgm{0,1,2} = value`: SFPCONFIG copies lanes 0..7 of `value` (held in
    /// `LReg[0]`) to every column of `LReg[reg]`.
    SetConst {
        /// The constant register, 12..=14.
        reg: u8,
        /// The value.
        value: Src,
    },
    /// A `v_if` chain.
    If(IfStmt),
    /// A `v_block`.
    Block(Vec<Stmt>),
    /// `v_and(cond)`: narrows the enabled lanes for the rest of the enclosing `v_block` or
    /// `v_if` arm.
    And(Cond),
}

/// What the recorder knows about a value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ValueInfo {
    /// Its type.
    pub ty: VType,
    /// The scope whose lanes it is defined in.
    pub scope: ScopeId,
}

/// A recorded kernel, independent of the chip: an `init` part (run once per tile, as SFPI's
/// `init` functions are, where the programmable constants are set) and a `body` (run once per
/// row of 32 lanes, `dst_reg[n]` relative to that row).
#[derive(Clone, Debug, PartialEq)]
pub struct Kernel {
    /// The kernel's name.
    pub name: String,
    /// The init statements.
    pub init: Vec<Stmt>,
    /// The body statements.
    pub body: Vec<Stmt>,
    /// Every value.
    pub values: Vec<ValueInfo>,
    /// The parent of every scope (`None` for the two roots, init and body).
    pub scopes: Vec<Option<ScopeId>>,
}

/// A kernel prepared for one chip ([`Kernel::for_chip`]): the chip's checks passed and SFPI's
/// MAD generation applied. Both the meaning and the lowering read this.
#[derive(Clone, Debug, PartialEq)]
pub struct ChipKernel {
    /// The chip.
    pub arch: Arch,
    /// The kernel's name.
    pub name: String,
    /// The init statements.
    pub init: Vec<Stmt>,
    /// The body statements.
    pub body: Vec<Stmt>,
    /// Every value.
    pub values: Vec<ValueInfo>,
}

/// Calls `f` on every statement of `stmts`, recursively, in program order.
pub fn walk(stmts: &[Stmt], f: &mut impl FnMut(&Stmt)) {
    for s in stmts {
        f(s);
        match s {
            Stmt::If(i) => {
                for arm in &i.arms {
                    walk(&arm.prelude, f);
                    walk(&arm.body, f);
                }
                if let Some(e) = &i.else_body {
                    walk(e, f);
                }
            }
            Stmt::Block(b) => walk(b, f),
            _ => {}
        }
    }
}

/// Every condition of `stmts`, recursively.
pub fn conditions(stmts: &[Stmt]) -> Vec<Cond> {
    let mut out = Vec::new();
    walk(stmts, &mut |s| match s {
        Stmt::If(i) => out.extend(i.arms.iter().map(|a| a.cond.clone())),
        Stmt::And(c) => out.push(c.clone()),
        _ => {}
    });
    out
}

/// Whether `stmts` predicate anything (a `v_if` or a `v_block`).
pub fn uses_predication(stmts: &[Stmt]) -> bool {
    let mut any = false;
    walk(stmts, &mut |s| any |= matches!(s, Stmt::If(_) | Stmt::Block(_)));
    any
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn immediate_forms_follow_the_seed() {
        // 1.0 fits fp16b (0x3F80_0000): one FLOATB load.
        assert_eq!(ImmForm::for_float(0x3F80_0000), ImmForm::Fp16b);
        // 1.2 (0x3F99999A) fits neither: two loads.
        assert_eq!(ImmForm::for_float(1.2f32.to_bits()), ImmForm::Pair);
        // 1.0009765625 = 1 + 2^-10 (0x3F802000) is fp16 0x3C01: an fp16a load.
        assert_eq!(ImmForm::for_float(0x3F80_2000), ImmForm::Fp16a(0x3C01));
        // 500000.0 needs the exponent 2^18, beyond fp16a's 2^15: fp16b only if its low bits are
        // zero (0x48F42400 has 0x2400 there), so two loads, as the seed says for Wormhole.
        assert_eq!(ImmForm::for_float(500000.0f32.to_bits()), ImmForm::Pair);
        assert_eq!(ImmForm::for_int(0xAA), ImmForm::Short);
        assert_eq!(ImmForm::for_int(-5i32 as u32), ImmForm::Short);
        assert_eq!(ImmForm::for_int(0xFFFF), ImmForm::UShort);
        assert_eq!(ImmForm::for_int(0x12345), ImmForm::Pair);
    }

    #[test]
    fn comparisons_test_the_difference() {
        // -0 (0x80000000) is negative and not zero to SFPSETCC.
        assert!(CmpOp::Lt.test(0x8000_0000));
        assert!(!CmpOp::Eq.test(0x8000_0000));
        assert!(CmpOp::Gt.test(1) && !CmpOp::Gt.test(0) && !CmpOp::Gt.test(u32::MAX));
        assert!(CmpOp::Le.test(0) && CmpOp::Le.test(u32::MAX) && !CmpOp::Le.test(7));
        for op in [CmpOp::Lt, CmpOp::Le, CmpOp::Gt, CmpOp::Ge, CmpOp::Eq, CmpOp::Ne] {
            for d in [0, 1, 0x7FFF_FFFF, 0x8000_0000, 0xFFFF_FFFF] {
                assert_eq!(op.complement().test(d), !op.test(d), "{op:?} {d:#x}");
            }
        }
    }
}
