//! The meaning of a kernel, lane by lane, in plain Rust.
//!
//! This interprets the same kernel value ([`ChipKernel`]) that the lowering compiles, without
//! any of the lowering's machinery: no registers, no flag stack, no instruction encodings. Each
//! lane follows ordinary `if` / `else`: in a `v_if` chain a lane runs the first arm whose
//! condition it satisfies, or the `v_else`, and nothing else; `v_and` drops the lane from the
//! rest of its block. The 32 lanes are interpreted together (each statement over the set of
//! lanes that reach it) only so that the cross-lane calls (`subvec_shflror1`, `subvec_transp`)
//! can see their neighbours.
//!
//! The arithmetic is the SFPU's, from its documented helpers: the chip's FMA model
//! ([`sfpu_reference::fp::fma_model`], the bit-exact `fma.c` transcription) for every float add,
//! subtract, multiply and multiply-add, in the form [`Op::mad_form`] defines; the field and integer
//! operations, the conversions, the LUT coefficient format, the PRNG and the Dst formats are
//! written here from the tt-isa-documentation pages (`VectorUnit.md`, the instruction pages,
//! `SFPLOAD.md`, `SFPSTORE.md`, `SFPLUT.md`) and the project's specification notes (`docs/spec/`).
//! Comparisons are SFPI's: the sign or zero-ness of the difference ([`CmpOp::test`]).
//!
//! A lane a statement does not reach gets no value (`None`); a merge ([`Op::Merge`]) or a swap
//! keeps the old value there. Storing an undefined lane is an error.

use sfpu_reference::fp::fma_model;
use sfpu_reference::isa::Arch;
use sfpu_reference::state::{Dst, State};

use crate::error::KernelError;
use crate::ir::{ChipKernel, CmpOp, Cond, Descale, DstKind, Op, Rhs, RndConv, Src, Stmt};
use crate::tile::{self, FloatMode};

/// `LReg[8]`: 0.8373 to the nearest FP32 (`docs/spec/sfpu-blackhole.md#lreg-8-value`).
pub const CONST_0P8373: u32 = 0x3F56_594B;
/// `LReg[10]`: 1.0.
pub const ONE: u32 = 0x3F80_0000;
/// `LReg[11]` as SFPI reserves it: -1.0.
pub const NEG_ONE: u32 = 0xBF80_0000;
const SIGN: u32 = 0x8000_0000;
/// Placeholder value ids for the operands of a comparison's subtraction.
const X: u32 = u32::MAX - 1;
const Y: u32 = u32::MAX;

type Lanes = [Option<u32>; 32];

/// What a kernel's meaning leaves behind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expected {
    /// The whole Dst register.
    pub dst: Dst,
    /// Each LReg the kernel sets through `l_reg`, with its final lanes.
    pub lregs: Vec<(u8, [u32; 32])>,
    /// Each programmable constant register the kernel sets, with its final lanes.
    pub consts: Vec<(u8, [u32; 32])>,
}

/// Evaluates `k` on `initial` (its Dst, its LRegs for `l_reg` reads, its programmable constants,
/// its PRNG state and Wormhole's SFPSHFT2 latch): the init part once, then the body for rows
/// `0..rows` (row `r` sees `dst_reg[n]` at `n + r`).
pub fn evaluate(k: &ChipKernel, initial: &State, rows: u32) -> Result<Expected, KernelError> {
    let mut m = Interp::new(k, initial);
    m.exec(&k.init, u32::MAX)?;
    for row in 0..rows {
        m.row = row;
        m.vals.iter_mut().for_each(|v| *v = [None; 32]);
        m.exec(&k.body, u32::MAX)?;
    }
    let mut lregs = Vec::new();
    for reg in 0..8 {
        if m.lregs_set[reg] {
            lregs.push((reg as u8, m.lregs[reg]));
        }
    }
    let mut consts = Vec::new();
    for reg in 12..=14u8 {
        if m.consts_set[reg as usize] {
            consts.push((reg, m.consts[reg as usize]));
        }
    }
    Ok(Expected { dst: m.dst, lregs, consts })
}

struct Interp<'a> {
    k: &'a ChipKernel,
    arch: Arch,
    vals: Vec<Lanes>,
    consts: [[u32; 32]; 16],
    consts_set: [bool; 16],
    /// `LReg[0..8]` as `l_reg` sees them: the initial values, updated by `l_reg[n].set(..)`.
    lregs: [[u32; 32]; 8],
    /// The LRegs the body sets.
    lregs_set: [bool; 8],
    dst: Dst,
    mode: FloatMode,
    prng: [u32; 32],
    /// Wormhole's SFPSHFT2 `vc0` latch.
    vc0: [Option<u32>; 32],
    row: u32,
}

fn lanes(mask: u32) -> impl Iterator<Item = usize> {
    (0..32).filter(move |l| mask >> l & 1 != 0)
}

/// `Lut8ToFp32` (`SFPLUT.md`): `0xFF` is 0, otherwise `±(1 + m/16) * 2^-e`.
fn lut8(x: u32) -> u32 {
    if x == 0xFF {
        return 0;
    }
    let s = (x >> 7) & 1;
    let e = (x >> 4) & 7;
    let m = x & 0xF;
    (s << 31) | ((127 - e) << 23) | (m << 19)
}

/// The sign-magnitude order of SFPSWAP (`SFPSWAP.md`, `SignMagIsSmaller`):
/// `-NaN < -Inf < .. < -0 < +0 < .. < +NaN`.
fn sm_key(v: u32) -> i64 {
    let m = (v & 0x7FFF_FFFF) as i64;
    if v & SIGN != 0 { -m - 1 } else { m }
}

fn sext12(x: i32) -> i32 {
    (x << 20) >> 20
}

/// A shift as SFPSHFT does it: left for `sh >= 0`, else right (logical or arithmetic), counts
/// modulo 32.
fn shift(x: u32, sh: i32, arith: bool) -> u32 {
    if sh >= 0 {
        x << (sh & 31)
    } else if arith {
        ((x as i32) >> (sh.wrapping_neg() & 31)) as u32
    } else {
        x >> (sh.wrapping_neg() & 31)
    }
}

impl<'a> Interp<'a> {
    fn new(k: &'a ChipKernel, s: &State) -> Interp<'a> {
        let mut consts = [[0u32; 32]; 16];
        consts[12..=14].copy_from_slice(&s.LReg[12..=14]);
        let mut lregs = [[0u32; 32]; 8];
        lregs.copy_from_slice(&s.LReg[0..8]);
        let mut lregs_set = [false; 8];
        crate::ir::walk(&k.body, &mut |st| {
            if let Stmt::SetLReg { reg, .. } = st {
                lregs_set[*reg as usize & 7] = true;
            }
        });
        Interp {
            k,
            arch: k.arch,
            vals: vec![[None; 32]; k.values.len()],
            consts,
            consts_set: [false; 16],
            lregs,
            lregs_set,
            dst: s.Dst.clone(),
            mode: tile::float_mode(s),
            prng: s.PRNG,
            vc0: s.wormhole().map_or([None; 32], |w| w.SFPSHFT2_vc0.map(Some)),
            row: 0,
        }
    }

    /// `AdvancePRNG` (`VectorUnit.md` "PRNG"): returns the old state, shifts in the complement of
    /// the parity of bits 31, 21, 1 and 0.
    fn advance(&mut self, lane: usize) -> u32 {
        let r = self.prng[lane];
        let parity = (r & 0x8020_0003).count_ones() & 1;
        self.prng[lane] = ((1 ^ parity) << 31) | (r >> 1);
        r
    }

    fn get(&self, s: Src, lane: usize) -> Option<u32> {
        match s {
            Src::Val(v) => self.vals.get(v as usize).and_then(|l| l[lane]),
            Src::Const(n) => Some(self.constant(n, lane)),
        }
    }

    fn constant(&self, n: u8, lane: usize) -> u32 {
        match n {
            8 => CONST_0P8373,
            9 => 0,
            10 => ONE,
            11 => NEG_ONE,
            12..=14 => self.consts[n as usize][lane],
            15 => 2 * lane as u32,
            _ => 0,
        }
    }

    fn fma(&self, a: u32, b: u32, c: u32) -> u32 {
        fma_model(self.arch, a, b, c)
    }

    fn addr(&self, offset: u32) -> u32 {
        2 * (offset + self.row)
    }

    fn exec(&mut self, stmts: &[Stmt], mut mask: u32) -> Result<(), KernelError> {
        for s in stmts {
            match s {
                Stmt::Let { id, op } => {
                    let v = self.eval(op, mask);
                    self.vals[*id as usize] = v;
                }
                Stmt::Swap { outs, ins, min_max } => {
                    let (a, b) = (self.vals[ins[0] as usize], self.vals[ins[1] as usize]);
                    let (mut x, mut y) = (a, b);
                    for l in lanes(mask) {
                        // VD holds the first operand, VC the second; SWAP always exchanges,
                        // VEC_MIN_MAX exchanges where VC < VD so that VD gets the minimum.
                        let swap = match (a[l], b[l]) {
                            (Some(d), Some(c)) => !*min_max || sm_key(c) < sm_key(d),
                            _ => false,
                        };
                        if swap {
                            x[l] = b[l];
                            y[l] = a[l];
                        } else if a[l].is_none() || b[l].is_none() {
                            x[l] = None;
                            y[l] = None;
                        }
                    }
                    self.vals[outs[0] as usize] = x;
                    self.vals[outs[1] as usize] = y;
                }
                Stmt::Transp { outs, ins } => {
                    let inp = ins.map(|v| self.vals[v as usize]);
                    let mut out = inp;
                    for l in lanes(mask) {
                        let (j, col) = (l / 8, l % 8);
                        for i in 0..4 {
                            out[i][l] = inp[j][8 * i + col];
                        }
                    }
                    for i in 0..4 {
                        self.vals[outs[i] as usize] = out[i];
                    }
                }
                Stmt::Store { offset, value, kind } => {
                    let addr = self.addr(*offset);
                    for l in lanes(mask) {
                        let Some(v) = self.get(*value, l) else {
                            return Err(KernelError::UndefinedStore { kernel: self.k.name.clone(), lane: l });
                        };
                        tile::store(self.arch, &mut self.dst, *kind == DstKind::Float, self.mode, addr, l, v);
                    }
                }
                Stmt::SetLReg { reg, value } => {
                    for l in lanes(mask) {
                        let Some(v) = self.get(*value, l) else {
                            return Err(KernelError::UndefinedStore { kernel: self.k.name.clone(), lane: l });
                        };
                        self.lregs[*reg as usize & 7][l] = v;
                    }
                }
                Stmt::SetConst { reg, value } => {
                    // SFPCONFIG broadcasts lanes 0..7 of the source to every column.
                    let reg = *reg as usize & 15;
                    for l in 0..32 {
                        let Some(v) = self.get(*value, l & 7) else {
                            return Err(KernelError::UndefinedStore { kernel: self.k.name.clone(), lane: l });
                        };
                        self.consts[reg][l] = v;
                    }
                    self.consts_set[reg] = true;
                }
                Stmt::If(i) => {
                    let mut remaining = mask;
                    for arm in &i.arms {
                        self.exec(&arm.prelude, remaining)?;
                        let take = self.cond(&arm.cond, remaining);
                        self.exec(&arm.body, take)?;
                        remaining &= !take;
                    }
                    if let Some(e) = &i.else_body {
                        self.exec(e, remaining)?;
                    }
                }
                Stmt::Block(b) => self.exec(b, mask)?,
                Stmt::And(c) => mask = self.cond(c, mask),
            }
        }
        Ok(())
    }

    /// The lanes of `mask` where `c` holds.
    fn cond(&mut self, c: &Cond, mask: u32) -> u32 {
        let mut out = 0;
        for l in lanes(mask) {
            if self.holds(c, l) {
                out |= 1 << l;
            }
        }
        out
    }

    fn holds(&self, c: &Cond, l: usize) -> bool {
        match c {
            Cond::Cmp { float, op, a, rhs } => match self.difference(*float, *a, *rhs, l) {
                Some(d) => op.test(d),
                None => false,
            },
            Cond::NonZero(v) => self.get(*v, l).is_some_and(|x| CmpOp::Ne.test(x)),
            Cond::And(x, y) => self.holds(x, l) && self.holds(y, l),
            Cond::Or(x, y) => self.holds(x, l) || self.holds(y, l),
            Cond::Not(x) => !self.holds(x, l),
        }
    }

    /// The difference a comparison tests: `a - rhs` as a float subtraction on the chip's
    /// multiply-add, or a wrapping integer subtraction; `a` itself against zero.
    fn difference(&self, float: bool, a: Src, rhs: Rhs, l: usize) -> Option<u32> {
        let x = self.get(a, l)?;
        let b = match rhs {
            Rhs::Zero => return Some(x),
            Rhs::Src(b) => self.get(b, l)?,
            Rhs::FloatImm(bits) => bits,
            Rhs::IntImm(k) => k as u32,
        };
        if float {
            // The subtraction's multiply-add form, with placeholders for the two operands.
            let (p, q, r, na, nc) = Op::FSub(Src::Val(X), Src::Val(Y)).mad_form(self.arch)?;
            let val = |s: Src| match s {
                Src::Val(X) => x,
                Src::Val(_) => b,
                Src::Const(n) => self.constant(n, l),
            };
            let (p, q, r) = (val(p), val(q), val(r));
            Some(self.fma(if na { p ^ SIGN } else { p }, q, if nc { r ^ SIGN } else { r }))
        } else {
            Some(x.wrapping_sub(b))
        }
    }

    fn eval(&mut self, op: &Op, mask: u32) -> Lanes {
        let mut out = [None; 32];
        if let Op::Merge { old, new } = *op {
            for (l, o) in out.iter_mut().enumerate() {
                *o = if mask >> l & 1 != 0 { self.get(new, l) } else { self.vals[old as usize][l] };
            }
            return out;
        }
        if let Op::Shfl { v, ror1 } = *op {
            let input: Lanes = std::array::from_fn(|l| self.get(v, l));
            for l in lanes(mask) {
                out[l] = if l & 7 != 0 {
                    input[l - 1]
                } else if ror1 {
                    input[l + 7]
                } else {
                    match self.arch {
                        Arch::Blackhole => Some(0),
                        // WormholeB0 SFPSHFT2.md: lane 0 of each group receives `vc0[Lane + 7]`.
                        Arch::Wormhole => self.vc0[l + 7],
                    }
                };
            }
            if ror1 && self.arch == Arch::Wormhole {
                self.vc0 = input;
            }
            return out;
        }
        for l in lanes(mask) {
            out[l] = self.lane(op, l);
        }
        out
    }

    fn lane(&mut self, op: &Op, l: usize) -> Option<u32> {
        let g = |s: Src| self.get(s, l);
        Some(match *op {
            Op::LoadDst { offset, kind } => {
                tile::load(self.arch, &self.dst, kind == DstKind::Float, self.mode, self.addr(offset), l)
            }
            Op::Imm { bits, .. } => bits,
            Op::ConstReg(n) => self.constant(n, l),
            Op::LRegIn(n) => self.lregs[n as usize & 7][l],
            Op::FAdd(..) | Op::FSub(..) | Op::FMul(..) | Op::Mad { .. } => {
                let (a, b, c, na, nc) = op.mad_form(self.arch)?;
                let (a, b, c) = (g(a)?, g(b)?, g(c)?);
                self.fma(if na { a ^ SIGN } else { a }, b, if nc { c ^ SIGN } else { c })
            }
            Op::Neg(a) => g(a)? ^ SIGN,
            Op::Abs { v, float } => {
                let x = g(v)?;
                if float {
                    // SFPABS float mode: a negative NaN is left alone (`SFPABS.md`).
                    if x > 0xFF80_0000 { x } else { x & !SIGN }
                } else if (x as i32) < 0 {
                    x.wrapping_neg()
                } else {
                    x
                }
            }
            Op::IAdd(a, b) => g(a)?.wrapping_add(g(b)?),
            Op::ISub(a, b) => g(a)?.wrapping_sub(g(b)?),
            Op::IAddImm(a, k) => g(a)?.wrapping_add(sext12(k) as u32),
            Op::And(a, b) => g(a)? & g(b)?,
            Op::Or(a, b) => g(a)? | g(b)?,
            Op::Xor(a, b) => g(a)? ^ g(b)?,
            Op::Not(a) => !g(a)?,
            Op::ShiftImm { v, amt, arith } => shift(g(v)?, sext12(amt), arith),
            Op::ShiftVec { v, amt, arith } => shift(g(v)?, g(amt)? as i32, arith),
            Op::ExExp { v, debias } => ((g(v)? >> 23) & 0xFF).wrapping_sub(if debias { 127 } else { 0 }),
            Op::ExMan { v, pad9 } => (if pad9 { 0 } else { 1 << 23 }) | (g(v)? & 0x7F_FFFF),
            Op::SetExpImm { v, exp } => (g(v)? & 0x807F_FFFF) | ((exp & 0xFF) << 23),
            Op::SetExpVec { v, exp } => (g(v)? & 0x807F_FFFF) | ((g(exp)? & 0xFF) << 23),
            Op::SetManImm { v, man12 } => (g(v)? & 0xFF80_0000) | ((man12 & 0xFFF) << 11),
            Op::SetManVec { v, man } => (g(v)? & 0xFF80_0000) | (g(man)? & 0x7F_FFFF),
            Op::SetSgnImm { v, sgn } => ((sgn & 1) << 31) | (g(v)? & !SIGN),
            Op::SetSgnVec { v, sgn } => (g(sgn)? & SIGN) | (g(v)? & !SIGN),
            Op::AddExp { v, imm8 } => {
                let x = g(v)?;
                let e = (x >> 23) & 0xFF;
                let e = if e != 255 { (e + imm8) & 0xFF } else { e };
                (x & 0x807F_FFFF) | (e << 23)
            }
            Op::Lut { v, l: t, retain_sign } => {
                let x = g(v)?;
                let b = x & !SIGN;
                let w = if b < 0x3F80_0000 {
                    g(t[0])?
                } else if b < 0x4000_0000 {
                    g(t[1])?
                } else {
                    g(t[2])?
                };
                let d = self.fma(lut8((w >> 8) & 0xFF), b, lut8(w & 0xFF));
                if retain_sign { (d & !SIGN) | (x & SIGN) } else { d }
            }
            Op::Lz { v, nosgn } => {
                let x = g(v)?;
                let c = if nosgn { x & !SIGN } else { x };
                c.leading_zeros()
            }
            Op::Cast { v, stochastic } => {
                let c = g(v)?;
                self.cast(c, stochastic, l)
            }
            Op::StochRnd { v, conv, stochastic, descale } => {
                let c = g(v)?;
                let shift = match descale {
                    Descale::None => 0,
                    Descale::Imm(k) => k & 31,
                    Descale::Vec(d) => g(d)? & 31,
                };
                self.stochrnd(c, conv, stochastic, shift, l)
            }
            Op::Merge { .. } | Op::Shfl { .. } => return None,
        })
    }

    /// `int_to_float`: SFPCAST from sign-magnitude (`SFPCAST_IntFloat.md`). Round to nearest even
    /// is the exact IEEE conversion of the magnitude; the stochastic mode follows the page's
    /// formula.
    fn cast(&mut self, c: u32, stochastic: bool, l: usize) -> u32 {
        let s = c & SIGN;
        let m = c & !SIGN;
        if !stochastic {
            return s | (m as f32).to_bits();
        }
        let lz = if m != 0 { m.leading_zeros() } else { 157 };
        let n = m << (lz & 31);
        let mut d = s.wrapping_add((157u32.wrapping_sub(lz)) << 23).wrapping_add(n >> 8);
        if (n & 0xFE) > ((self.advance(l) >> 9) & 0xFE) {
            d = d.wrapping_add(1);
        }
        d
    }

    /// The SFPSTOCHRND conversions (`SFPSTOCHRND_*.md`): the PRNG advances in every mode, its 23
    /// low bits are the threshold in the stochastic mode, `0x400000` (round half away from zero) in
    /// the nearest mode; a value rounds up when its discarded bits are at least the threshold.
    fn stochrnd(&mut self, c: u32, conv: RndConv, stochastic: bool, descale: u32, l: usize) -> u32 {
        let r = self.advance(l) & 0x7F_FFFF;
        let t = if stochastic { r } else { 0x40_0000 };
        match conv {
            RndConv::Fp16a | RndConv::Fp16b => {
                let e = (c >> 23) & 0xFF;
                if e == 0 {
                    return 0;
                }
                if e == 255 {
                    return c & 0xFF80_0000;
                }
                let (mask, k, inc) =
                    if conv == RndConv::Fp16a { (0x1FFF, 10, 0x2000) } else { (0xFFFF, 7, 0x1_0000) };
                let lo = c & mask;
                let mut x = c - lo;
                if lo >= (t >> k) {
                    x = x.wrapping_add(inc);
                }
                x
            }
            RndConv::Uint8 | RndConv::Int8 | RndConv::Uint16 | RndConv::Int16 => {
                let (max, signed) = match conv {
                    RndConv::Uint8 => (255u64, false),
                    RndConv::Int8 => (127, true),
                    RndConv::Uint16 => (65535, false),
                    _ => (32767, true),
                };
                let mut s = if signed { c & SIGN } else { 0 };
                let e = ((c >> 23) & 0xFF) as i32 - 127;
                let mag = if e < -1 {
                    s = 0;
                    0
                } else if e >= 16 {
                    max
                } else {
                    let v = (0x80_0000 | (c & 0x7F_FFFF)) as u64;
                    let v = if e >= 0 { v << e } else { v >> 1 };
                    let mag = ((v >> 23) + u64::from((v & 0x7F_FFFF) >= t as u64)).min(max);
                    if mag == 0 {
                        s = 0;
                    }
                    mag
                };
                s | mag as u32
            }
            RndConv::Int32ToUint8 | RndConv::Int32ToInt8 => {
                let mut s = c & SIGN;
                let v = ((c & !SIGN) as u64) << 23;
                let v = v >> descale;
                let mag = (v >> 23) + u64::from((v & 0x7F_FFFF) >= t as u64);
                let mag = if conv == RndConv::Int32ToUint8 {
                    s = 0;
                    mag.min(255)
                } else {
                    let m = mag.min(127);
                    if m == 0 {
                        s = 0;
                    }
                    m
                };
                s | mag as u32
            }
        }
    }
}
