//! SFPI's vector types, `dst_reg`, `l_reg` and the constant registers, with their operators.
//!
//! Mirrors seed 003 § "User Visible Data Types", "User Visible Constants", "User Visible
//! Objects" and "Data Type Details", and the per-chip `sfpi_imp.h` of tenstorrent/sfpi for which
//! instruction each operation becomes. A kernel reads almost as in C++:
//!
//! | SFPI (C++) | this layer (Rust) |
//! |---|---|
//! | `vFloat a = dst_reg[0] + 2.0F;` | `let a = dst_reg[0] + 2.0;` |
//! | `dst_reg[3] = a * b + 0.5F;` | `dst_reg[3].set(a * b + 0.5);` |
//! | `vInt b = exexp(a); b &= 0xAA;` | `let mut b = exexp(a); b &= 0xAA;` |
//! | `x = y;` inside `v_if` | `x.assign(y);` (or `x += ..`, `x &= ..`) |
//! | `~x`, `x++` | `!x`, `x += 1` |
//! | `a < b`, `a >= 4.0F` | `a.lt(b)`, `a.ge(4.0)` |
//! | `vConstFloatPrgm0 = 3.14F;` | `vConstFloatPrgm0.set(3.14);` (in the init part) |
//! | `reinterpret<vInt>(v)` | `reinterpret::<vInt>(v)` |
//!
//! Rust cannot overload `=`, so stores and assignments to constant registers are `.set(..)`, and
//! an assignment to a variable under predication is `.assign(..)`: a plain `x = ..` inside a
//! `v_if` rebinds the Rust variable to a value that exists only in the enabled lanes, and using
//! it after `v_endif` is a recording error that says so.
//!
//! Every operation outside [`Kernel::record`](crate::Kernel::record) does nothing and returns a
//! placeholder value.

#![allow(
    non_camel_case_types,
    non_upper_case_globals,
    non_snake_case,
    reason = "SFPI's names: vFloat, dst_reg, vConst1, s2vFloat16a"
)]

use std::ops::{
    Add, AddAssign, BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Index, Mul, MulAssign,
    Neg, Not, Shl, ShlAssign, Shr, ShrAssign, Sub, SubAssign,
};

use crate::error::KernelError;
use crate::ir::{DstKind, ImmForm, Op, Rhs, Src, Stmt, VType};
use crate::record::{self, Handle, with};

/// A vector of 32 FP32 values (`sfpi::vFloat`).
#[derive(Clone, Copy, Debug)]
pub struct vFloat {
    pub(crate) h: Handle,
}

/// A vector of 32 two's complement 32-bit integers (`sfpi::vInt`).
#[derive(Clone, Copy, Debug)]
pub struct vInt {
    pub(crate) h: Handle,
}

/// A vector of 32 unsigned 32-bit integers (`sfpi::vUInt`).
#[derive(Clone, Copy, Debug)]
pub struct vUInt {
    pub(crate) h: Handle,
}

/// The three vector types.
pub trait Vector: Copy {
    /// The recorded type.
    const TYPE: VType;
    #[doc(hidden)]
    fn handle(self) -> Handle;
    #[doc(hidden)]
    fn from_handle(h: Handle) -> Self;
}

macro_rules! vector {
    ($t:ident, $ty:ident) => {
        impl Vector for $t {
            const TYPE: VType = VType::$ty;
            fn handle(self) -> Handle {
                self.h
            }
            fn from_handle(h: Handle) -> Self {
                $t { h }
            }
        }
    };
}
vector!(vFloat, Float);
vector!(vInt, Int);
vector!(vUInt, UInt);

/// `reinterpret<T>(v)`: the same 32 bits as another vector type (no instruction).
pub fn reinterpret<T: Vector>(v: impl Vector) -> T {
    T::from_handle(v.handle())
}

pub(crate) fn src_of(h: Handle) -> Option<Src> {
    with(|r| r.src(h)).flatten()
}

pub(crate) fn record_value(ty: VType, op: Op) -> Handle {
    with(|r| r.value(ty, op)).unwrap_or(Handle::POISON)
}

pub(crate) fn op1<T: Vector>(a: Option<Src>, f: impl FnOnce(Src) -> Op) -> T {
    match a {
        Some(a) => T::from_handle(record_value(T::TYPE, f(a))),
        None => T::from_handle(Handle::POISON),
    }
}

pub(crate) fn op2<T: Vector>(a: Option<Src>, b: Option<Src>, f: impl FnOnce(Src, Src) -> Op) -> T {
    match (a, b) {
        (Some(a), Some(b)) => T::from_handle(record_value(T::TYPE, f(a, b))),
        _ => T::from_handle(Handle::POISON),
    }
}

/// Records an immediate load of the 32-bit pattern `bits`.
pub(crate) fn imm(ty: VType, bits: u32, form: ImmForm) -> Option<Src> {
    let h = record_value(ty, Op::Imm { bits, form });
    (h != Handle::POISON).then_some(Src::Val(h.id))
}

/// `old` replaced by `new` in the enabled lanes (SFPI's assignment).
pub(crate) fn merge(old: Handle, new: Option<Src>) -> Handle {
    let Some(new) = new else { return Handle::POISON };
    with(|r| match new {
        Src::Val(id) => {
            let nh = Handle { id, generation: r.generation() };
            r.merge(old, nh)
        }
        Src::Const(reg) => r.merge_const(old, reg),
    })
    .unwrap_or(Handle::POISON)
}

pub(crate) fn bad_argument(what: impl Into<String>) {
    let what = what.into();
    record::fail(|k| KernelError::BadArgument { kernel: k.to_string(), what });
}

// ------------------------------------------------------------------------------------------------
// Operands.

/// Anything SFPI accepts where a `vFloat` operand is expected: a `vFloat`, a float literal (loaded
/// with SFPLOADI as fp16b, fp16a or 32 bits, the seed's rule), a float constant register,
/// `dst_reg[n]`, `l_reg[n]`, or an explicit `s2vFloat16a` / `s2vFloat16b`.
pub trait FloatArg: Copy {
    #[doc(hidden)]
    fn float_src(self) -> Option<Src>;
    #[doc(hidden)]
    fn cmp_rhs(self) -> Option<Rhs> {
        self.float_src().map(Rhs::Src)
    }
}

impl FloatArg for vFloat {
    fn float_src(self) -> Option<Src> {
        src_of(self.h)
    }
}

impl FloatArg for f32 {
    fn float_src(self) -> Option<Src> {
        let bits = self.to_bits();
        imm(VType::Float, bits, ImmForm::for_float(bits))
    }
    fn cmp_rhs(self) -> Option<Rhs> {
        let bits = self.to_bits();
        Some(if bits == 0 { Rhs::Zero } else { Rhs::FloatImm(bits) })
    }
}

impl FloatArg for f64 {
    fn float_src(self) -> Option<Src> {
        (self as f32).float_src()
    }
    fn cmp_rhs(self) -> Option<Rhs> {
        (self as f32).cmp_rhs()
    }
}

/// Anything SFPI accepts where a `vInt` operand is expected: a `vInt`, an integer literal, or an
/// integer constant register (`vConstTileId`, `vConstIntPrgm0..2`).
pub trait IntArg: Copy {
    #[doc(hidden)]
    fn int_src(self) -> Option<Src>;
    #[doc(hidden)]
    fn as_imm(self) -> Option<i32> {
        None
    }
    #[doc(hidden)]
    fn cmp_rhs(self) -> Option<Rhs> {
        match self.as_imm() {
            Some(0) => Some(Rhs::Zero),
            Some(k) => Some(Rhs::IntImm(k)),
            None => self.int_src().map(Rhs::Src),
        }
    }
}

impl IntArg for vInt {
    fn int_src(self) -> Option<Src> {
        src_of(self.h)
    }
}

impl IntArg for i32 {
    fn int_src(self) -> Option<Src> {
        imm(VType::Int, self as u32, ImmForm::for_int(self as u32))
    }
    fn as_imm(self) -> Option<i32> {
        Some(self)
    }
}

/// Anything SFPI accepts where a `vUInt` operand is expected: a `vUInt`, an integer literal, or
/// an integer constant register.
pub trait UIntArg: Copy {
    #[doc(hidden)]
    fn uint_src(self) -> Option<Src>;
    #[doc(hidden)]
    fn as_imm(self) -> Option<i32> {
        None
    }
    #[doc(hidden)]
    fn cmp_rhs(self) -> Option<Rhs> {
        match self.as_imm() {
            Some(0) => Some(Rhs::Zero),
            Some(k) => Some(Rhs::IntImm(k)),
            None => self.uint_src().map(Rhs::Src),
        }
    }
}

impl UIntArg for vUInt {
    fn uint_src(self) -> Option<Src> {
        src_of(self.h)
    }
}

impl UIntArg for u32 {
    fn uint_src(self) -> Option<Src> {
        imm(VType::UInt, self, ImmForm::for_int(self))
    }
    fn as_imm(self) -> Option<i32> {
        Some(self as i32)
    }
}

impl UIntArg for i32 {
    fn uint_src(self) -> Option<Src> {
        (self as u32).uint_src()
    }
    fn as_imm(self) -> Option<i32> {
        Some(self)
    }
}

// ------------------------------------------------------------------------------------------------
// Constant registers.

/// A float constant register (`vConst0`, `vConst1`, `vConst0p8373`, `vConstNeg1`,
/// `vConstFloatPrgm0..2`): `LReg[8..=14]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FloatConst(pub(crate) u8);

/// An integer constant register (`vConstTileId`, `vConstIntPrgm0..2`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IntConst(pub(crate) u8);

/// 0.0 (`LReg[9]`).
pub const vConst0: FloatConst = FloatConst(9);
/// 1.0 (`LReg[10]`).
pub const vConst1: FloatConst = FloatConst(10);
/// 0.8373 (`LReg[8]`).
pub const vConst0p8373: FloatConst = FloatConst(8);
/// -1.0 (`LReg[11]`, SFPI's `CREG_IDX_NEG_1`, which the program's prologue programs with
/// SFPCONFIG, as tt-metal's firmware does).
pub const vConstNeg1: FloatConst = FloatConst(11);
/// Programmable constant 0 (`LReg[12]`).
pub const vConstFloatPrgm0: FloatConst = FloatConst(12);
/// Programmable constant 1 (`LReg[13]`).
pub const vConstFloatPrgm1: FloatConst = FloatConst(13);
/// Programmable constant 2 (`LReg[14]`).
pub const vConstFloatPrgm2: FloatConst = FloatConst(14);
/// Programmable constant 0 as an integer (the same register as `vConstFloatPrgm0`).
pub const vConstIntPrgm0: IntConst = IntConst(12);
/// Programmable constant 1 as an integer.
pub const vConstIntPrgm1: IntConst = IntConst(13);
/// Programmable constant 2 as an integer.
pub const vConstIntPrgm2: IntConst = IntConst(14);
/// `[0, 2, 4, .., 62]` (`LReg[15]`).
pub const vConstTileId: IntConst = IntConst(15);

fn set_const(reg: u8, value: Option<Src>) {
    if !(12..=14).contains(&reg) {
        bad_argument(format!("constant register LReg[{reg}] is not programmable (only LReg[12..=14] are)"));
        return;
    }
    let Some(value) = value else { return };
    with(|r| {
        if !r.in_init() || r.predicated() {
            r.fail(|k| KernelError::Unsupported {
                kernel: k.to_string(),
                what: "programmable constants are assigned in the init part, outside v_if \
                       (Kernel::record_with_init), as SFPI's init functions do"
                    .into(),
            });
            return;
        }
        r.push(Stmt::SetConst { reg, value });
    });
}

impl FloatConst {
    /// `vConstFloatPrgmN = value`: SFPCONFIG copies the value (through `LReg[0]`) into the
    /// register. Only in the init part.
    pub fn set(self, value: impl FloatArg) {
        set_const(self.0, value.float_src());
    }
}

impl IntConst {
    /// `vConstIntPrgmN = value`. Only in the init part.
    pub fn set(self, value: impl IntArg) {
        set_const(self.0, value.int_src());
    }
}

impl FloatArg for FloatConst {
    fn float_src(self) -> Option<Src> {
        Some(Src::Const(self.0))
    }
}

impl IntArg for IntConst {
    fn int_src(self) -> Option<Src> {
        Some(Src::Const(self.0))
    }
}

impl UIntArg for IntConst {
    fn uint_src(self) -> Option<Src> {
        Some(Src::Const(self.0))
    }
}

// ------------------------------------------------------------------------------------------------
// Immediates.

/// An explicit fp16a immediate (`s2vFloat16a(x)`): an FP16 pattern loaded with
/// `SFPLOADI_MOD0_FLOATA`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct s2vFloat16a {
    bits: u16,
}

/// An explicit fp16b immediate (`s2vFloat16b(x)`): the upper 16 bits of an FP32.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct s2vFloat16b {
    bits: u16,
}

/// What `s2vFloat16a` / `s2vFloat16b` accept: a float (converted) or an integer (the bit pattern,
/// "treated as a bit pattern and incurs no overhead").
pub trait Float16Value: Copy {
    #[doc(hidden)]
    fn fp16a(self) -> u16;
    #[doc(hidden)]
    fn fp16b(self) -> u16;
}

/// FP32 to fp16a by truncating the mantissa, as SFPI's wrapper converts. The seed warns that
/// "fp16a conversions do not presently handle denorms/nans"; here a value below fp16a's range
/// becomes a signed zero and one above it the largest fp16a magnitude.
pub fn fp32_to_fp16a(bits: u32) -> u16 {
    let s = (bits >> 16) & 0x8000;
    let e = (bits >> 23) & 0xFF;
    if e < 112 {
        s as u16
    } else if e > 143 {
        (s | 0x7FFF) as u16
    } else {
        (s | ((e - 112) << 10) | ((bits >> 13) & 0x3FF)) as u16
    }
}

/// The FP32 value `SFPLOADI_MOD0_FLOATA` loads for the fp16a pattern `h` (`SFPLOADI.md`: no special
/// cases, `s << 31 | (e + 112) << 23 | m << 13`).
pub fn fp16a_to_fp32(h: u16) -> u32 {
    let h = h as u32;
    ((h & 0x8000) << 16) | ((((h >> 10) & 0x1F) + 112) << 23) | ((h & 0x3FF) << 13)
}

impl Float16Value for f32 {
    fn fp16a(self) -> u16 {
        fp32_to_fp16a(self.to_bits())
    }
    fn fp16b(self) -> u16 {
        (self.to_bits() >> 16) as u16
    }
}

impl Float16Value for f64 {
    fn fp16a(self) -> u16 {
        (self as f32).fp16a()
    }
    fn fp16b(self) -> u16 {
        (self as f32).fp16b()
    }
}

impl Float16Value for u32 {
    fn fp16a(self) -> u16 {
        self as u16
    }
    fn fp16b(self) -> u16 {
        self as u16
    }
}

impl Float16Value for i32 {
    fn fp16a(self) -> u16 {
        self as u16
    }
    fn fp16b(self) -> u16 {
        self as u16
    }
}

/// `s2vFloat16a(x)`: an fp16a immediate from a float (converted) or an integer (the pattern).
pub fn s2vFloat16a(x: impl Float16Value) -> s2vFloat16a {
    s2vFloat16a { bits: x.fp16a() }
}

/// `s2vFloat16b(x)`: an fp16b immediate from a float (truncated) or an integer (the pattern).
pub fn s2vFloat16b(x: impl Float16Value) -> s2vFloat16b {
    s2vFloat16b { bits: x.fp16b() }
}

impl FloatArg for s2vFloat16a {
    fn float_src(self) -> Option<Src> {
        imm(VType::Float, fp16a_to_fp32(self.bits), ImmForm::Fp16a(self.bits))
    }
}

impl FloatArg for s2vFloat16b {
    fn float_src(self) -> Option<Src> {
        imm(VType::Float, (self.bits as u32) << 16, ImmForm::Fp16b)
    }
}

// ------------------------------------------------------------------------------------------------
// dst_reg and l_reg.

/// One `dst_reg[n]`: the Dst row `n` rows of 32 lanes after the one the iteration processes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DReg {
    offset: u32,
}

/// The type of [`dst_reg`].
#[derive(Clone, Copy, Debug)]
pub struct DstRegFile;

/// The destination register, `dst_reg[n]` (seed 003 § "User Visible Objects"). Reading it as a
/// `vFloat` is SFPLOAD with `MOD0_FMT_SRCB` (the tile's format), as a `vInt`/`vUInt` SFPLOAD with
/// `MOD0_FMT_INT32_SM`; `.set(v)` stores the same way.
pub const dst_reg: DstRegFile = DstRegFile;

/// `dst_reg` indices: SFPLOAD's 10-bit address is `2 * (n + row)`, so `n` stays below 512.
pub const DST_REG_COUNT: usize = 512;

static DREGS: [DReg; DST_REG_COUNT + 1] = {
    let mut a = [DReg { offset: 0 }; DST_REG_COUNT + 1];
    let mut i = 0;
    while i <= DST_REG_COUNT {
        a[i] = DReg { offset: i as u32 };
        i += 1;
    }
    a
};

impl Index<usize> for DstRegFile {
    type Output = DReg;
    fn index(&self, n: usize) -> &DReg {
        &DREGS[n.min(DST_REG_COUNT)]
    }
}

impl DReg {
    fn load(self, kind: DstKind, ty: VType) -> Option<Src> {
        if self.offset as usize >= DST_REG_COUNT {
            bad_argument(format!("dst_reg index {} is out of range (0..{DST_REG_COUNT})", self.offset));
            return None;
        }
        let h = record_value(ty, Op::LoadDst { offset: self.offset, kind });
        (h != Handle::POISON).then_some(Src::Val(h.id))
    }

    /// `dst_reg[n] = value`: SFPSTORE in the enabled lanes, in the tile's format for a float and
    /// as a 32-bit integer for a `vInt`/`vUInt`.
    pub fn set(self, value: impl StoreArg) {
        if self.offset as usize >= DST_REG_COUNT {
            bad_argument(format!("dst_reg index {} is out of range (0..{DST_REG_COUNT})", self.offset));
            return;
        }
        let (src, kind) = value.store_src();
        let Some(value) = src else { return };
        with(|r| r.push(Stmt::Store { offset: self.offset, value, kind }));
    }
}

impl FloatArg for DReg {
    fn float_src(self) -> Option<Src> {
        self.load(DstKind::Float, VType::Float)
    }
}

/// What `dst_reg[n].set(..)` accepts.
pub trait StoreArg: Copy {
    #[doc(hidden)]
    fn store_src(self) -> (Option<Src>, DstKind);
}

impl StoreArg for vFloat {
    fn store_src(self) -> (Option<Src>, DstKind) {
        (self.float_src(), DstKind::Float)
    }
}
impl StoreArg for vInt {
    fn store_src(self) -> (Option<Src>, DstKind) {
        (self.int_src(), DstKind::Int)
    }
}
impl StoreArg for vUInt {
    fn store_src(self) -> (Option<Src>, DstKind) {
        (self.uint_src(), DstKind::Int)
    }
}
impl StoreArg for f32 {
    fn store_src(self) -> (Option<Src>, DstKind) {
        (self.float_src(), DstKind::Float)
    }
}
impl StoreArg for f64 {
    fn store_src(self) -> (Option<Src>, DstKind) {
        (self.float_src(), DstKind::Float)
    }
}
impl StoreArg for i32 {
    fn store_src(self) -> (Option<Src>, DstKind) {
        (self.int_src(), DstKind::Int)
    }
}
impl StoreArg for FloatConst {
    fn store_src(self) -> (Option<Src>, DstKind) {
        (self.float_src(), DstKind::Float)
    }
}
impl StoreArg for IntConst {
    fn store_src(self) -> (Option<Src>, DstKind) {
        (self.int_src(), DstKind::Int)
    }
}
impl StoreArg for DReg {
    fn store_src(self) -> (Option<Src>, DstKind) {
        (self.float_src(), DstKind::Float)
    }
}
impl StoreArg for s2vFloat16a {
    fn store_src(self) -> (Option<Src>, DstKind) {
        (self.float_src(), DstKind::Float)
    }
}
impl StoreArg for s2vFloat16b {
    fn store_src(self) -> (Option<Src>, DstKind) {
        (self.float_src(), DstKind::Float)
    }
}

/// The eight general LRegs, for `l_reg[LRegs::LRegN]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum LRegs {
    /// `LReg[0]`.
    LReg0 = 0,
    /// `LReg[1]`.
    LReg1,
    /// `LReg[2]`.
    LReg2,
    /// `LReg[3]`.
    LReg3,
    /// `LReg[4]`.
    LReg4,
    /// `LReg[5]`.
    LReg5,
    /// `LReg[6]`.
    LReg6,
    /// `LReg[7]`.
    LReg7,
}

/// One `l_reg[n]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LReg {
    reg: u8,
}

/// The type of [`l_reg`].
#[derive(Clone, Copy, Debug)]
pub struct LRegFile;

/// `l_reg[LRegs::LRegN]` (seed 003 § "Assigning LRegs"): reading gives the value the register
/// holds at that point (what an earlier function "pre-loaded", until the kernel sets it);
/// `.set(v)` writes `v` there in the enabled lanes, and it is there when the kernel ends. A
/// register the kernel touches this way is not used for anything else in the kernel.
pub const l_reg: LRegFile = LRegFile;

static LREGS: [LReg; 8] = [
    LReg { reg: 0 },
    LReg { reg: 1 },
    LReg { reg: 2 },
    LReg { reg: 3 },
    LReg { reg: 4 },
    LReg { reg: 5 },
    LReg { reg: 6 },
    LReg { reg: 7 },
];

impl Index<LRegs> for LRegFile {
    type Output = LReg;
    fn index(&self, r: LRegs) -> &LReg {
        &LREGS[r as usize]
    }
}

impl LReg {
    fn read(self, ty: VType) -> Option<Src> {
        let in_init = with(|r| r.in_init()).unwrap_or(false);
        if in_init {
            record::fail(|k| KernelError::Unsupported {
                kernel: k.to_string(),
                what: "l_reg is only available in the body".into(),
            });
            return None;
        }
        let h = record_value(ty, Op::LRegIn(self.reg));
        (h != Handle::POISON).then_some(Src::Val(h.id))
    }

    /// `l_reg[n] = value`: `value` is in `LReg[n]` (in the enabled lanes) when the kernel ends.
    pub fn set(self, value: impl Vector) {
        let reg = self.reg;
        let Some(value) = src_of(value.handle()) else { return };
        with(|r| {
            if r.in_init() {
                r.fail(|k| KernelError::Unsupported {
                    kernel: k.to_string(),
                    what: "l_reg is only available in the body".into(),
                });
                return;
            }
            r.push(Stmt::SetLReg { reg, value });
        });
    }
}

impl FloatArg for LReg {
    fn float_src(self) -> Option<Src> {
        self.read(VType::Float)
    }
}

// ------------------------------------------------------------------------------------------------
// Construction.

fn handle_for(ty: VType, src: Option<Src>) -> Handle {
    match src {
        Some(Src::Val(id)) => Handle { id, generation: with(|r| r.generation()).unwrap_or(0) },
        Some(Src::Const(reg)) => record_value(ty, Op::ConstReg(reg)),
        None => Handle::POISON,
    }
}

macro_rules! from_src {
    ($t:ident, $method:ident, $($from:ty),*) => {$(
        impl From<$from> for $t {
            fn from(x: $from) -> $t {
                $t { h: handle_for(<$t as Vector>::TYPE, x.$method()) }
            }
        }
    )*};
}

from_src!(vFloat, float_src, f32, f64, FloatConst, DReg, LReg, s2vFloat16a, s2vFloat16b);
from_src!(vInt, int_src, i32, IntConst);
from_src!(vUInt, uint_src, u32, IntConst);

impl From<DReg> for vInt {
    /// `vInt(dst_reg[n])`: SFPLOAD with `MOD0_FMT_INT32_SM`.
    fn from(d: DReg) -> vInt {
        vInt { h: handle_for(VType::Int, d.load(DstKind::Int, VType::Int)) }
    }
}

impl From<DReg> for vUInt {
    /// `vUInt(dst_reg[n])`: SFPLOAD with `MOD0_FMT_INT32_SM`.
    fn from(d: DReg) -> vUInt {
        vUInt { h: handle_for(VType::UInt, d.load(DstKind::Int, VType::UInt)) }
    }
}

impl From<LReg> for vInt {
    fn from(l: LReg) -> vInt {
        vInt { h: handle_for(VType::Int, l.read(VType::Int)) }
    }
}

impl From<LReg> for vUInt {
    fn from(l: LReg) -> vUInt {
        vUInt { h: handle_for(VType::UInt, l.read(VType::UInt)) }
    }
}

impl From<vInt> for vUInt {
    /// The same bits (SFPI's explicit conversion).
    fn from(v: vInt) -> vUInt {
        vUInt { h: v.h }
    }
}

impl From<vUInt> for vInt {
    /// The same bits (SFPI's explicit conversion).
    fn from(v: vUInt) -> vInt {
        vInt { h: v.h }
    }
}

impl vFloat {
    /// `x = value` for a variable under predication: `value` in the enabled lanes, the old
    /// value elsewhere (SFPI's assignment operator). Outside any `v_if` it is a plain rebinding.
    pub fn assign(&mut self, value: impl FloatArg) {
        self.h = merge(self.h, value.float_src());
    }
}

impl vInt {
    /// `x = value` under predication (see [`vFloat::assign`]).
    pub fn assign(&mut self, value: impl IntArg) {
        self.h = merge(self.h, value.int_src());
    }
}

impl vUInt {
    /// `x = value` under predication (see [`vFloat::assign`]).
    pub fn assign(&mut self, value: impl UIntArg) {
        self.h = merge(self.h, value.uint_src());
    }
}

// ------------------------------------------------------------------------------------------------
// vFloat operators.

macro_rules! float_binop {
    ($tr:ident, $m:ident, $atr:ident, $am:ident, $op:ident) => {
        impl<R: FloatArg> $tr<R> for vFloat {
            type Output = vFloat;
            fn $m(self, rhs: R) -> vFloat {
                let a = self.float_src();
                let b = rhs.float_src();
                op2(a, b, Op::$op)
            }
        }
        impl<R: FloatArg> $tr<R> for DReg {
            type Output = vFloat;
            fn $m(self, rhs: R) -> vFloat {
                let a = self.float_src();
                let b = rhs.float_src();
                op2(a, b, Op::$op)
            }
        }
        impl<R: FloatArg> $tr<R> for FloatConst {
            type Output = vFloat;
            fn $m(self, rhs: R) -> vFloat {
                let a = self.float_src();
                let b = rhs.float_src();
                op2(a, b, Op::$op)
            }
        }
        impl $tr<vFloat> for f32 {
            type Output = vFloat;
            fn $m(self, rhs: vFloat) -> vFloat {
                let a = self.float_src();
                let b = rhs.float_src();
                op2(a, b, Op::$op)
            }
        }
        impl $tr<vFloat> for f64 {
            type Output = vFloat;
            fn $m(self, rhs: vFloat) -> vFloat {
                let a = self.float_src();
                let b = rhs.float_src();
                op2(a, b, Op::$op)
            }
        }
        impl<R: FloatArg> $atr<R> for vFloat {
            fn $am(&mut self, rhs: R) {
                let new = $tr::$m(*self, rhs);
                self.h = merge(self.h, new.float_src());
            }
        }
    };
}

float_binop!(Add, add, AddAssign, add_assign, FAdd);
float_binop!(Sub, sub, SubAssign, sub_assign, FSub);
float_binop!(Mul, mul, MulAssign, mul_assign, FMul);

impl Neg for vFloat {
    type Output = vFloat;
    /// `-v`: flips the sign bit (SFPMOV with `SFPMOV_MOD1_NEGATE`).
    fn neg(self) -> vFloat {
        op1(self.float_src(), Op::Neg)
    }
}

impl Neg for DReg {
    type Output = vFloat;
    fn neg(self) -> vFloat {
        op1(self.float_src(), Op::Neg)
    }
}

// ------------------------------------------------------------------------------------------------
// vInt / vUInt operators.

fn fits12(k: i32) -> bool {
    (-2048..=2047).contains(&k)
}

macro_rules! int_ops {
    ($t:ident, $arg:ident, $src:ident, $arith:expr) => {
        impl<R: $arg> Add<R> for $t {
            type Output = $t;
            fn add(self, rhs: R) -> $t {
                let a = self.$src();
                if let Some(k) = rhs.as_imm().filter(|k| fits12(*k)) {
                    return op1(a, |a| Op::IAddImm(a, k));
                }
                op2(a, rhs.$src(), Op::IAdd)
            }
        }
        impl<R: $arg> Sub<R> for $t {
            type Output = $t;
            fn sub(self, rhs: R) -> $t {
                let a = self.$src();
                if let Some(k) = rhs.as_imm().map(i32::wrapping_neg).filter(|k| fits12(*k)) {
                    return op1(a, |a| Op::IAddImm(a, k));
                }
                op2(a, rhs.$src(), Op::ISub)
            }
        }
        impl<R: $arg> BitAnd<R> for $t {
            type Output = $t;
            fn bitand(self, rhs: R) -> $t {
                let a = self.$src();
                op2(a, rhs.$src(), Op::And)
            }
        }
        impl<R: $arg> BitOr<R> for $t {
            type Output = $t;
            fn bitor(self, rhs: R) -> $t {
                let a = self.$src();
                op2(a, rhs.$src(), Op::Or)
            }
        }
        impl<R: $arg> BitXor<R> for $t {
            type Output = $t;
            fn bitxor(self, rhs: R) -> $t {
                let a = self.$src();
                op2(a, rhs.$src(), Op::Xor)
            }
        }
        impl Not for $t {
            type Output = $t;
            /// SFPI's `~v` (bitwise not).
            fn not(self) -> $t {
                op1(self.$src(), Op::Not)
            }
        }
        impl Neg for $t {
            type Output = $t;
            /// `-v`: `0 - v`.
            fn neg(self) -> $t {
                op2(Some(Src::Const(9)), self.$src(), Op::ISub)
            }
        }
        impl Shl<u32> for $t {
            type Output = $t;
            /// `v << n` (SFPSHFT with an immediate).
            fn shl(self, n: u32) -> $t {
                op1(self.$src(), |v| Op::ShiftImm { v, amt: n as i32, arith: false })
            }
        }
        impl Shl<i32> for $t {
            type Output = $t;
            fn shl(self, n: i32) -> $t {
                op1(self.$src(), |v| Op::ShiftImm { v, amt: n, arith: false })
            }
        }
        impl Shr<u32> for $t {
            type Output = $t;
            /// `v >> n`: logical for `vUInt`; arithmetic for `vInt`, which only Blackhole has.
            fn shr(self, n: u32) -> $t {
                op1(self.$src(), |v| Op::ShiftImm { v, amt: (n as i32).wrapping_neg(), arith: $arith })
            }
        }
        impl Shr<i32> for $t {
            type Output = $t;
            fn shr(self, n: i32) -> $t {
                op1(self.$src(), |v| Op::ShiftImm { v, amt: n.wrapping_neg(), arith: $arith })
            }
        }
        impl<V: Vector> Shl<V> for $t
        where
            V: Into<vInt>,
        {
            type Output = $t;
            /// `v << amt` with a vector of amounts.
            fn shl(self, amt: V) -> $t {
                let a = self.$src();
                op2(a, src_of(amt.handle()), |v, amt| Op::ShiftVec { v, amt, arith: false })
            }
        }
        impl<V: Vector> Shr<V> for $t
        where
            V: Into<vInt>,
        {
            type Output = $t;
            /// `v >> amt` with a vector of amounts (the amounts are negated first).
            fn shr(self, amt: V) -> $t {
                let a = self.$src();
                let neg: vInt = op2(Some(Src::Const(9)), src_of(amt.handle()), Op::ISub);
                op2(a, src_of(neg.h), |v, amt| Op::ShiftVec { v, amt, arith: $arith })
            }
        }
    };
}

int_ops!(vInt, IntArg, int_src, true);
int_ops!(vUInt, UIntArg, uint_src, false);

macro_rules! int_assign {
    ($t:ident, $arg:ident, $src:ident) => {
        int_assign!(@one $t, AddAssign, add_assign, Add, add, $arg, $src);
        int_assign!(@one $t, SubAssign, sub_assign, Sub, sub, $arg, $src);
        int_assign!(@one $t, BitAndAssign, bitand_assign, BitAnd, bitand, $arg, $src);
        int_assign!(@one $t, BitOrAssign, bitor_assign, BitOr, bitor, $arg, $src);
        int_assign!(@one $t, BitXorAssign, bitxor_assign, BitXor, bitxor, $arg, $src);
        impl ShlAssign<u32> for $t {
            fn shl_assign(&mut self, n: u32) {
                let new = *self << n;
                self.h = merge(self.h, new.$src());
            }
        }
        impl ShrAssign<u32> for $t {
            fn shr_assign(&mut self, n: u32) {
                let new = *self >> n;
                self.h = merge(self.h, new.$src());
            }
        }
    };
    (@one $t:ident, $atr:ident, $am:ident, $tr:ident, $m:ident, $arg:ident, $src:ident) => {
        impl<R: $arg> $atr<R> for $t {
            fn $am(&mut self, rhs: R) {
                let new = $tr::$m(*self, rhs);
                self.h = merge(self.h, new.$src());
            }
        }
    };
}

int_assign!(vInt, IntArg, int_src);
int_assign!(vUInt, UIntArg, uint_src);

impl IntArg for vUInt {
    fn int_src(self) -> Option<Src> {
        src_of(self.h)
    }
}

impl UIntArg for vInt {
    fn uint_src(self) -> Option<Src> {
        src_of(self.h)
    }
}
