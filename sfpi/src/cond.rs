//! Vector conditions and predicated execution: `v_if` / `v_elseif` / `v_else` / `v_endif`,
//! `v_block` / `v_and` (seed 003 § "Macros", "Boolean Operators").
//!
//! SFPI's macros open C++ braces that `v_endif` closes. Here each body is a closure and the chain
//! is a value that must end with `.v_endif()`:
//!
//! ```
//! use sfpi::*;
//! let k = Kernel::record("abs_diff", || {
//!     let a = vFloat::from(dst_reg[0]);
//!     let b = vFloat::from(dst_reg[1]);
//!     v_if(a.lt(b), || {
//!         dst_reg[0].set(b - a);
//!     })
//!     .v_elseif(a.gt(b), || {
//!         dst_reg[0].set(a - b);
//!     })
//!     .v_else(|| {
//!         dst_reg[0].set(0.0);
//!     })
//!     .v_endif();
//! });
//! assert!(k.is_ok());
//! ```
//!
//! Bodies nest (a body is a closure, so its `v_if`s close before it returns), and a chain that is
//! dropped without `.v_endif()` (`#[must_use]` warns at compile time) makes
//! [`Kernel::record`](crate::Kernel::record) return [`KernelError::UnclosedVIf`]. As in SFPI,
//! both sides of a chain are executed and only the enabled lanes are written; ordinary Rust `if`
//! inside a body is the seed's "RISCV branch", evaluated while recording.
//!
//! Comparisons are methods (`a.lt(b)`, `a.ge(4.0)`), since Rust's comparison operators must
//! return `bool`; `&&`, `||` and `!` are `&`, `|` and `!`. Every comparison means what SFPI's
//! lowering computes: the sign or zero-ness of the difference `a - b` (a float subtraction on the
//! chip's multiply-add, or a wrapping integer subtraction), compared with zero by SFPSETCC. So
//! `<` and `>=` are one test, `==` and `!=` too, while `>` and `<=` take two (the seed's
//! "performance penalty"); integer comparisons are exact when `a - b` does not overflow, and a
//! comparison with a literal zero tests the value itself.

use std::ops::{BitAnd, BitOr, Not};

use crate::error::KernelError;
use crate::ir::{CmpOp, Cond, Rhs, Src};
use crate::record::{self, with};
use crate::vector::{DReg, FloatArg, IntArg, UIntArg, vFloat, vInt, vUInt};

/// A vector condition (SFPI's `vCond` / `vBool`): comparisons combined with `&` (SFPI's `&&`),
/// `|` (`||`) and `!`.
#[derive(Clone, Debug)]
#[must_use = "a condition does nothing until v_if, v_elseif or v_and uses it"]
pub struct VCond {
    cond: Option<Cond>,
    generation: u32,
}

fn generation() -> u32 {
    with(|r| r.generation()).unwrap_or(0)
}

impl VCond {
    fn new(cond: Option<Cond>) -> VCond {
        VCond { cond, generation: generation() }
    }

    fn cmp(float: bool, op: CmpOp, a: Option<Src>, rhs: Option<Rhs>) -> VCond {
        match (a, rhs) {
            (Some(a), Some(rhs)) => VCond::new(Some(Cond::Cmp { float, op, a, rhs })),
            _ => VCond::new(None),
        }
    }

    /// The recorded condition, if it belongs to the current recording.
    pub(crate) fn take(self) -> Option<Cond> {
        let current = generation();
        if self.generation != current {
            record::fail(|k| KernelError::ForeignValue { kernel: k.to_string() });
            return None;
        }
        self.cond
    }

    fn combine(self, other: VCond, f: impl FnOnce(Box<Cond>, Box<Cond>) -> Cond) -> VCond {
        if self.generation != other.generation {
            record::fail(|k| KernelError::ForeignValue { kernel: k.to_string() });
        }
        let generation = self.generation;
        match (self.cond, other.cond) {
            (Some(a), Some(b)) => VCond { cond: Some(f(Box::new(a), Box::new(b))), generation },
            _ => VCond { cond: None, generation },
        }
    }
}

impl BitAnd for VCond {
    type Output = VCond;
    /// SFPI's `&&`.
    fn bitand(self, rhs: VCond) -> VCond {
        self.combine(rhs, Cond::And)
    }
}

impl BitOr for VCond {
    type Output = VCond;
    /// SFPI's `||`.
    fn bitor(self, rhs: VCond) -> VCond {
        self.combine(rhs, Cond::Or)
    }
}

impl Not for VCond {
    type Output = VCond;
    /// SFPI's `!`.
    fn not(self) -> VCond {
        let generation = self.generation;
        VCond { cond: self.cond.map(|c| Cond::Not(Box::new(c))), generation }
    }
}

impl From<vInt> for VCond {
    /// An integer vector as a condition: true where it is not zero (SFPI's `vBool` from a `vInt`).
    fn from(v: vInt) -> VCond {
        VCond::new(v.int_src().map(Cond::NonZero))
    }
}

impl From<vUInt> for VCond {
    /// True where the vector is not zero.
    fn from(v: vUInt) -> VCond {
        VCond::new(v.uint_src().map(Cond::NonZero))
    }
}

impl From<VCond> for vInt {
    /// A condition as a `vInt`: 1 where it holds, 0 elsewhere (the seed's "vBool doesn't exist,
    /// but the functionality can be obtained by ... assigning the result to a vInt").
    fn from(c: VCond) -> vInt {
        let mut out = vInt::from(0);
        v_if(c, || out.assign(1)).v_endif();
        out
    }
}

macro_rules! comparisons {
    ($t:ident, $arg:ident, $float:expr) => {
        impl $t {
            /// `self < rhs`.
            pub fn lt(self, rhs: impl $arg) -> VCond {
                let a = src(self);
                VCond::cmp($float, CmpOp::Lt, a, rhs.cmp_rhs())
            }
            /// `self <= rhs` (two tests: the seed's "performance penalty").
            pub fn le(self, rhs: impl $arg) -> VCond {
                let a = src(self);
                VCond::cmp($float, CmpOp::Le, a, rhs.cmp_rhs())
            }
            /// `self > rhs` (two tests).
            pub fn gt(self, rhs: impl $arg) -> VCond {
                let a = src(self);
                VCond::cmp($float, CmpOp::Gt, a, rhs.cmp_rhs())
            }
            /// `self >= rhs`.
            pub fn ge(self, rhs: impl $arg) -> VCond {
                let a = src(self);
                VCond::cmp($float, CmpOp::Ge, a, rhs.cmp_rhs())
            }
            /// `self == rhs`: the difference is `+0` (so `-0 == +0` is false on Blackhole, whose
            /// `-0 - +0` is `-0`, as SFPSETCC tests bits).
            pub fn eq(self, rhs: impl $arg) -> VCond {
                let a = src(self);
                VCond::cmp($float, CmpOp::Eq, a, rhs.cmp_rhs())
            }
            /// `self != rhs`.
            pub fn ne(self, rhs: impl $arg) -> VCond {
                let a = src(self);
                VCond::cmp($float, CmpOp::Ne, a, rhs.cmp_rhs())
            }
        }
    };
}

fn src(v: impl crate::vector::Vector) -> Option<Src> {
    crate::vector::src_of(v.handle())
}

comparisons!(vFloat, FloatArg, true);
comparisons!(vInt, IntArg, false);
comparisons!(vUInt, UIntArg, false);

/// The comparisons of `dst_reg[n]`, which reads it as a `vFloat` (as the seed's `dst_reg[n] < x`
/// does).
impl DReg {
    /// `dst_reg[n] < x` and friends, reading `dst_reg[n]` as a `vFloat`.
    pub fn lt(self, rhs: impl FloatArg) -> VCond {
        vFloat::from(self).lt(rhs)
    }
    /// `dst_reg[n] <= x`.
    pub fn le(self, rhs: impl FloatArg) -> VCond {
        vFloat::from(self).le(rhs)
    }
    /// `dst_reg[n] > x`.
    pub fn gt(self, rhs: impl FloatArg) -> VCond {
        vFloat::from(self).gt(rhs)
    }
    /// `dst_reg[n] >= x`.
    pub fn ge(self, rhs: impl FloatArg) -> VCond {
        vFloat::from(self).ge(rhs)
    }
    /// `dst_reg[n] == x`.
    pub fn eq(self, rhs: impl FloatArg) -> VCond {
        vFloat::from(self).eq(rhs)
    }
    /// `dst_reg[n] != x`.
    pub fn ne(self, rhs: impl FloatArg) -> VCond {
        vFloat::from(self).ne(rhs)
    }
}

/// An open `v_if` chain: continue it with [`v_elseif`](VIf::v_elseif) or
/// [`v_else`](VIf::v_else), and close it with [`v_endif`](VIf::v_endif).
#[derive(Debug)]
#[must_use = "a v_if chain must be closed with .v_endif()"]
pub struct VIf {
    chain: Option<u32>,
    generation: u32,
}

/// A `v_if` chain after its `v_else`: close it with [`v_endif`](VElse::v_endif).
#[derive(Debug)]
#[must_use = "a v_if chain must be closed with .v_endif()"]
pub struct VElse {
    chain: Option<u32>,
    generation: u32,
}

fn unclosed(chain: Option<u32>, generation: u32) {
    if let Some(c) = chain {
        with(|r| {
            if r.generation() == generation && r.chain_open(c) {
                r.fail(|k| KernelError::UnclosedVIf { kernel: k.to_string() });
            }
        });
    }
}

impl Drop for VIf {
    fn drop(&mut self) {
        unclosed(self.chain.take(), self.generation);
    }
}

impl Drop for VElse {
    fn drop(&mut self) {
        unclosed(self.chain.take(), self.generation);
    }
}

/// A placeholder condition for a chain whose real condition failed to record (the recording
/// has an error already, so it is never used).
fn placeholder() -> Cond {
    Cond::NonZero(Src::Const(9))
}

fn checked(cond: VCond) -> Cond {
    let c = cond.take();
    match c {
        Some(c) if with(|r| r.check_cond(&c)).unwrap_or(false) => c,
        _ => placeholder(),
    }
}

/// `v_if (cond) { body }`: `body` is recorded with only the lanes where `cond` holds enabled.
pub fn v_if(cond: impl Into<VCond>, body: impl FnOnce()) -> VIf {
    let cond = checked(cond.into());
    let frame = with(|r| r.begin_if());
    body();
    let chain = frame.and_then(|f| with(|r| r.end_first_arm(f, cond)).flatten());
    VIf { chain, generation: generation() }
}

impl VIf {
    /// `v_elseif (cond) { body }`: the lanes no earlier arm took, where `cond` holds. Recording
    /// the condition's operands (`a.eq(s2vFloat16a(3.0))` loads the immediate) happens in those
    /// lanes, as SFPI's macro evaluates them after the `else`.
    pub fn v_elseif(mut self, cond: impl Into<VCond>, body: impl FnOnce()) -> VIf {
        let chain = self.chain.take();
        let cond = checked(cond.into());
        let frame = chain.and_then(|c| with(|r| r.begin_elseif(c)).flatten());
        body();
        if let Some(f) = frame {
            with(|r| r.end_elseif(f, cond));
        }
        VIf { chain, generation: self.generation }
    }

    /// `v_else { body }`: the lanes no arm took.
    pub fn v_else(mut self, body: impl FnOnce()) -> VElse {
        let chain = self.chain.take();
        let frame = chain.and_then(|c| with(|r| r.begin_else(c)).flatten());
        body();
        if let Some(f) = frame {
            with(|r| r.end_else(f));
        }
        VElse { chain, generation: self.generation }
    }

    /// `v_endif`: closes the chain.
    pub fn v_endif(mut self) {
        if let Some(c) = self.chain.take() {
            with(|r| r.end_chain(c));
        }
    }
}

impl VElse {
    /// `v_endif`: closes the chain.
    pub fn v_endif(mut self) {
        if let Some(c) = self.chain.take() {
            with(|r| r.end_chain(c));
        }
    }
}

/// `v_block { body } v_endblock`: a block in which [`v_and`] progressively narrows the enabled
/// lanes; the lanes are restored when the block ends.
pub fn v_block(body: impl FnOnce()) {
    let frame = with(|r| r.begin_block());
    body();
    if let Some(f) = frame {
        with(|r| r.end_block(f));
    }
}

/// `v_and (cond)`: narrows the enabled lanes to those where `cond` also holds, for the rest of
/// the innermost `v_block` or `v_if` / `v_elseif` / `v_else` body (a later `v_elseif` or
/// `v_else` of the same chain is not affected).
pub fn v_and(cond: impl Into<VCond>) {
    let c = cond.into().take();
    if let Some(c) = c {
        with(|r| r.and(c));
    }
}
