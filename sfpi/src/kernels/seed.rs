//! Seed 003's example kernels, written as the seed writes them (see `sfpi/README.md` for the
//! side-by-side), plus a three-deep `v_if` chain.

use super::def::{InputRange, KernelDef, OutputKind, TileInput, both, fp32_in, out};
use crate::tile::TileFormat;
use crate::*;

/// The seed's `silly(bool take_abs)` example, verbatim but for Rust's spelling. `value` (which
/// the seed leaves undefined) is 2.5.
pub fn silly(take_abs: bool) {
    let value = 2.5f32;
    // dst_reg[n] loads into a temporary LREG
    let a = dst_reg[0] + 2.0;
    // This emits a load, move, mad
    dst_reg[3].set(a * -dst_reg[1] + vConstFloatPrgm0 + 0.5);
    // This emits a load, loadi, mad (a * dst_reg[] goes down the mad path)
    dst_reg[4].set(a * dst_reg[1] + 1.2);
    // This emits two loadis and a mad
    dst_reg[4].set(a * 1.5 + 1.2);
    // This emits a loadi (into tmp), loadi (as a temp for 1.2F) and a mad
    let tmp = vFloat::from(s2vFloat16a(value));
    dst_reg[5].set(a * tmp + 1.2);
    v_if((a.ge(4.0) & a.lt(8.0)) | (a.ge(12.0) & a.lt(16.0)), || {
        let mut b = exexp_nodebias(a);
        b &= 0xAA;
        v_if(b.ge(130), || {
            dst_reg[6].set(setexp(a, 127));
        })
        .v_endif();
    })
    .v_elseif(a.eq(s2vFloat16a(3.0)), || {
        // RISCV branch
        if take_abs {
            dst_reg[7].set(abs(a));
        } else {
            dst_reg[7].set(a);
        }
    })
    .v_else(|| {
        let mut exp = lz(a) - 19;
        exp = !exp;
        dst_reg[8].set(-setexp(a, exp));
    })
    .v_endif();
}

/// The seed's chain: `dst_reg[0]` is `a` where `a < b`, `b` where `a > b`, `a + b` elsewhere.
pub fn pick() {
    let a = vFloat::from(dst_reg[0]);
    let b = vFloat::from(dst_reg[1]);
    v_if(a.lt(b), || {
        dst_reg[0].set(a);
    })
    .v_elseif(a.gt(b), || {
        dst_reg[0].set(b);
    })
    .v_else(|| {
        dst_reg[0].set(a + b);
    })
    .v_endif();
}

/// The seed's `v_block` / `v_and` example with `n = 3`: each step decrements `v1`, narrows to the
/// lanes where it is still `>= 0`, and doubles `v2` there.
pub fn narrowing() {
    let mut v1 = vFloat::from(dst_reg[0]);
    let mut v2 = vFloat::from(dst_reg[1]);
    v_block(|| {
        for _ in 0..3 {
            v1 -= 1.0;
            v_and(v1.ge(0.0));
            v2 *= 2.0;
        }
    });
    dst_reg[0].set(v1);
    dst_reg[1].set(v2);
}

/// The seed's `sfpu_is_fp16_zero`: a condition computed outside `v_if` into a `vInt`.
pub fn sfpu_is_fp16_zero(v: vFloat, exponent_size_8: bool) -> vInt {
    if exponent_size_8 {
        vInt::from(v.eq(0.0))
    } else {
        let mut tmp = vInt::from(0x3800);
        tmp += reinterpret::<vInt>(v);
        vInt::from(tmp.eq(0))
    }
}

/// Uses `sfpu_is_fp16_zero` both ways: `dst_reg[0]` becomes 1 where the 8-bit-exponent test
/// holds, `dst_reg[1]` 1 where the other does, -1 elsewhere.
pub fn fp16_zero() {
    let v = vFloat::from(dst_reg[0]);
    for (n, e8) in [(0, true), (1, false)] {
        v_if(sfpu_is_fp16_zero(v, e8), || {
            dst_reg[n].set(1.0);
        })
        .v_else(|| {
            dst_reg[n].set(-1.0);
        })
        .v_endif();
    }
}

/// The seed's `l_reg` example: a value pre-loaded in `LReg1`, used and preserved.
pub fn lreg() {
    let x = vFloat::from(l_reg[LRegs::LReg1]); // x is now LReg1
    let y = x + 2.0;
    dst_reg[0].set(y * dst_reg[0]);
    l_reg[LRegs::LReg1].set(x); // this is necessary at the end of the function
}

/// The seed's programmable constant example, the constant set in the init part.
#[allow(clippy::approx_constant, reason = "the seed's literal")]
pub fn prgm_const_init() {
    vConstFloatPrgm0.set(3.14159265);
}

/// The body: `two_pi = 2.0f * vConstFloatPrgm0`, applied to the tile.
pub fn prgm_const_body() {
    let two_pi = 2.0 * vFloat::from(vConstFloatPrgm0);
    dst_reg[0].set(dst_reg[0] * two_pi);
}

/// A chain three deep, every level with `v_elseif` and `v_else`, and assignments to a variable
/// from every level: a classifier of `x` into 9 codes, scaled back onto `x`.
pub fn nested3() {
    let x = vFloat::from(dst_reg[0]);
    let mut r = vFloat::from(0.0);
    v_if(x.lt(0.0), || {
        v_if(x.lt(-4.0), || {
            v_if(x.lt(-8.0), || r.assign(1.0))
                .v_elseif(x.lt(-6.0), || r.assign(2.0))
                .v_else(|| r.assign(3.0))
                .v_endif();
        })
        .v_elseif(x.le(-2.0), || {
            r.assign(4.0);
            v_if(x.eq(-2.0), || r.assign(4.5)).v_endif();
        })
        .v_else(|| r.assign(5.0))
        .v_endif();
    })
    .v_elseif(x.gt(10.0), || {
        v_if(x.ge(20.0), || {
            v_if(x.ne(25.0), || r += 6.0).v_else(|| r.assign(7.0)).v_endif();
        })
        .v_else(|| r.assign(8.0))
        .v_endif();
    })
    .v_else(|| {
        r.assign(x * 0.5);
    })
    .v_endif();
    dst_reg[0].set(r);
}

/// A condition with `||` after a narrowing `&&`, `!`, and integer comparisons: exercises the
/// flag-stack folding of an `||` that does not start a condition.
pub fn or_after_and() {
    let x = vFloat::from(dst_reg[0]);
    let i = vInt::from(dst_reg[32]);
    v_if(x.gt(-50.0) & (i.lt(-1000) | i.ge(1000) | !x.ne(0.0)), || {
        dst_reg[0].set(x * 2.0);
    })
    .v_endif();
    v_block(|| {
        v_and(i.ne(7) | x.le(1.0));
        v_and(!(i.gt(0) & i.le(5000)));
        dst_reg[32].set(i + 1);
    });
}

/// The seed's example kernels.
pub fn kernels() -> Vec<KernelDef> {
    let wide = InputRange::Uniform { lo: -4.0, hi: 20.0 };
    vec![
        KernelDef {
            name: "seed/silly",
            description: "seed 003's `silly(false)` example (dst_reg[0..1] in, dst_reg[3..8] out)",
            chips: both(),
            inputs: fp32_in(wide.clone(), &[1.0, 2.0, 6.0, 10.0, 14.0, 0.0, -2.0]),
            outputs: out(3, TileFormat::Fp32, OutputKind::Float),
            record: || Kernel::record("seed/silly", || silly(false)),
            numeric: None,
        },
        KernelDef {
            name: "seed/silly_abs",
            description: "seed 003's `silly(true)` example",
            chips: both(),
            inputs: fp32_in(wide, &[1.0, 2.0, 6.0, 10.0, 14.0, 0.0, -2.0]),
            outputs: out(3, TileFormat::Fp32, OutputKind::Float),
            record: || Kernel::record("seed/silly_abs", || silly(true)),
            numeric: None,
        },
        KernelDef {
            name: "seed/pick",
            description: "seed 003's v_if / v_elseif / v_else example",
            chips: both(),
            inputs: fp32_in(InputRange::Uniform { lo: -2.0, hi: 2.0 }, &[0.0, 1.0, -1.0]),
            outputs: out(0, TileFormat::Fp32, OutputKind::Float),
            record: || Kernel::record("seed/pick", pick),
            numeric: None,
        },
        KernelDef {
            name: "seed/narrowing",
            description: "seed 003's v_block / v_and example (n = 3)",
            chips: both(),
            inputs: fp32_in(InputRange::Uniform { lo: -1.0, hi: 4.0 }, &[0.0, 1.0, 2.0, 3.0]),
            outputs: out(0, TileFormat::Fp32, OutputKind::Float),
            record: || Kernel::record("seed/narrowing", narrowing),
            numeric: None,
        },
        KernelDef {
            name: "seed/fp16_zero",
            description: "seed 003's sfpu_is_fp16_zero, both ways (a condition through a vInt)",
            chips: both(),
            inputs: fp32_in(InputRange::Uniform { lo: -1.0, hi: 1.0 }, &[0.0, -0.0]),
            outputs: out(0, TileFormat::Fp32, OutputKind::Float),
            record: || Kernel::record("seed/fp16_zero", fp16_zero),
            numeric: None,
        },
        KernelDef {
            name: "seed/lreg",
            description: "seed 003's l_reg example (LReg1 read, used and preserved)",
            chips: both(),
            inputs: fp32_in(InputRange::Uniform { lo: -8.0, hi: 8.0 }, &[0.0]),
            outputs: out(0, TileFormat::Fp32, OutputKind::Float),
            record: || Kernel::record("seed/lreg", lreg),
            numeric: None,
        },
        KernelDef {
            name: "seed/prgm_const",
            description: "seed 003's programmable constant example (vConstFloatPrgm0 = pi in init)",
            chips: both(),
            inputs: fp32_in(InputRange::Uniform { lo: -8.0, hi: 8.0 }, &[0.0, 1.0]),
            outputs: out(0, TileFormat::Fp32, OutputKind::Float),
            record: || Kernel::record_with_init("seed/prgm_const", prgm_const_init, prgm_const_body),
            numeric: None,
        },
        KernelDef {
            name: "seed/nested3",
            description: "a v_if chain three deep with v_elseif and v_else at every level",
            chips: both(),
            inputs: fp32_in(
                InputRange::Uniform { lo: -12.0, hi: 30.0 },
                &[-8.0, -6.0, -4.0, -2.0, 0.0, -0.0, 10.0, 20.0, 25.0],
            ),
            outputs: out(0, TileFormat::Fp32, OutputKind::Float),
            record: || Kernel::record("seed/nested3", nested3),
            numeric: None,
        },
        KernelDef {
            name: "seed/or_after_and",
            description: "|| after &&, !, integer comparisons, v_and with ||",
            chips: both(),
            inputs: vec![
                TileInput {
                    base: 0,
                    format: TileFormat::Fp32,
                    range: InputRange::Uniform { lo: -100.0, hi: 100.0 },
                    specials: vec![0.0, -0.0, 1.0, -50.0],
                },
                TileInput {
                    base: 32,
                    format: TileFormat::Int32,
                    range: InputRange::Int { lo: -3000, hi: 6000 },
                    specials: vec![-1000.0, 1000.0, 7.0, 0.0, 5000.0],
                },
            ],
            outputs: out(0, TileFormat::Fp32, OutputKind::Float),
            record: || Kernel::record("seed/or_after_and", or_after_and),
            numeric: None,
        },
    ]
}
