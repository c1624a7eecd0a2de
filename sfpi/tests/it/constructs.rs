//! Every construct and library call of seed 003, on both chips, with expected lanes from the
//! seed's descriptions, the specification notes, or hand calculation (written next to each
//! assertion). Each run also checks that the lowered program lints clean, that the reference
//! model notes nothing undefined, and that the machine agrees with the kernel's meaning
//! (`common::run_on`).

use crate::common::*;
use sfpi::*;

const ONE: u32 = 0x3F80_0000;

fn f(x: f32) -> u32 {
    x.to_bits()
}

fn i(x: i32) -> u32 {
    x as u32
}

#[test]
fn float_operators_and_constants() {
    for arch in CHIPS {
        let s = run_fp32(arch, &[(0, splat(1.5)), (1, splat(2.0))], || {
            let a = vFloat::from(dst_reg[0]);
            let b = vFloat::from(dst_reg[1]);
            dst_reg[2].set(a + b);
            dst_reg[3].set(a - b);
            dst_reg[4].set(a * b);
            dst_reg[5].set(-a);
            dst_reg[6].set(a * b + 1.0);
            dst_reg[7].set(a + 0.25);
            let mut c = a;
            c += 1.0;
            c *= 2.0;
            c -= 0.5;
            dst_reg[8].set(c);
            dst_reg[9].set(vConst1 + vConst0);
            dst_reg[10].set(vConst0p8373 * 1.0);
            dst_reg[11].set(vConstNeg1 * a);
            dst_reg[12].set(vInt::from(vConstTileId));
            dst_reg[13].set(2.0 * a);
            dst_reg[14].set(dst_reg[0] * dst_reg[1] - 1.0);
        });
        // 1.5 + 2 = 3.5; 1.5 - 2 = -0.5; 1.5 * 2 = 3; -1.5; 1.5 * 2 + 1 = 4; 1.5 + 0.25 = 1.75;
        // ((1.5 + 1) * 2) - 0.5 = 4.5; 1 + 0 = 1; 0.8373 is 0x3F56594B
        // (`docs/spec/sfpu-blackhole.md#lreg-8-value`); -1 * 1.5.
        let want = [3.5, -0.5, 3.0, -1.5, 4.0, 1.75, 4.5, 1.0];
        for (k, w) in want.into_iter().enumerate() {
            assert!(all(row(&s, 2 + k as u32), f(w)), "{arch} dst_reg[{}]", 2 + k);
        }
        assert!(all(row(&s, 10), 0x3F56_594B), "{arch}");
        assert!(all(row(&s, 11), f(-1.5)), "{arch}");
        // vConstTileId counts by two: [0, 2, 4, .., 62] (seed 003).
        assert_eq!(int_row(&s, 12), lanes(|l| 2 * l as u32), "{arch}");
        assert!(all(row(&s, 13), f(3.0)), "{arch}");
        assert!(all(row(&s, 14), f(2.0)), "{arch}");
    }
}

#[test]
fn immediates_fp16b_fp16a_and_fp32() {
    for arch in CHIPS {
        let s = run_fp32(arch, &[], || {
            dst_reg[0].set(vFloat::from(1.0)); // fits fp16b
            dst_reg[1].set(vFloat::from(s2vFloat16a(3.0))); // fp16a, converted
            dst_reg[2].set(vFloat::from(s2vFloat16a(0x3c00u32))); // the seed: "Load fp16a value (1.0F)"
            dst_reg[3].set(vFloat::from(1.2)); // neither: 32 bits
            dst_reg[4].set(vFloat::from(s2vFloat16b(1.2))); // truncated to its upper 16 bits
            dst_reg[5].set(vFloat::from(500_000.0)); // the seed: "WH fp32 value"
        });
        assert!(all(row(&s, 0), ONE));
        assert!(all(row(&s, 1), f(3.0)));
        assert!(all(row(&s, 2), ONE));
        assert!(all(row(&s, 3), f(1.2)));
        // 1.2 = 0x3F99999A; its upper half 0x3F99 is 1.1953125.
        assert!(all(row(&s, 4), 0x3F99_0000));
        assert!(all(row(&s, 5), f(500_000.0)));
    }
    // The forms: one FLOATB load for 1.0, one FLOATA load for s2vFloat16a, LOWER + UPPER for 1.2.
    use sfpu_reference::Instr;
    let k = Kernel::record("imm", || {
        dst_reg[0].set(vFloat::from(1.0));
        dst_reg[1].set(vFloat::from(s2vFloat16a(3.0)));
        dst_reg[2].set(vFloat::from(1.2));
    })
    .unwrap();
    let lowered = k.for_chip(Arch::Wormhole).unwrap().lower().unwrap();
    let mod0s: Vec<u32> = lowered
        .body
        .iter()
        .filter_map(|e| match e.instr {
            Instr::SFPLOADI { Mod0, Imm16, .. } => Some((Mod0.get() << 16) | Imm16.get()),
            _ => None,
        })
        .collect();
    // FLOATB 0x3F80; FLOATA 0x4200 (fp16 3.0); LOWER 0x999A then UPPER 0x3F99.
    assert_eq!(mod0s, [0x3F80, (1 << 16) | 0x4200, (10 << 16) | 0x999A, (8 << 16) | 0x3F99]);
}

#[test]
fn integer_operators() {
    for arch in CHIPS {
        let s = run_mixed(arch, &[], &[(0, [i(12); 32]), (1, [i(10); 32]), (13, [i(-8); 32])], || {
            let a = vInt::from(dst_reg[0]);
            let b = vInt::from(dst_reg[1]);
            dst_reg[2].set(a & b);
            dst_reg[3].set(a | b);
            dst_reg[4].set(a ^ b);
            dst_reg[5].set(!a);
            dst_reg[6].set(a + b);
            dst_reg[7].set(a - b);
            dst_reg[8].set(a + 5);
            dst_reg[9].set(a - 3000);
            dst_reg[10].set(a << 2);
            dst_reg[11].set(vUInt::from(a) >> 2u32);
            dst_reg[12].set(-a);
            let mut c = a;
            c += 1;
            c -= 2;
            c &= 0xFF;
            c |= 0x100;
            c ^= 1;
            c <<= 1;
            dst_reg[14].set(c);
            let n = vInt::from(dst_reg[13]);
            dst_reg[15].set(vUInt::from(n) >> 1u32);
            dst_reg[16].set(n + vConstTileId);
            dst_reg[17].set(a << vUInt::from(1u32));
        });
        // 12 = 0b1100, 10 = 0b1010: & 8, | 14, ^ 6, ~12 = -13, 22, 2, 17, -2988, 48, 3, -12.
        let want = [8, 14, 6, -13, 22, 2, 17, -2988, 48, 3, -12];
        for (k, w) in want.into_iter().enumerate() {
            assert!(
                all(int_row(&s, 2 + k as u32), i(w)),
                "{arch} dst_reg[{}]: {:?}",
                2 + k,
                int_row(&s, 2 + k as u32)
            );
        }
        // ((12 + 1 - 2) & 0xFF | 0x100) ^ 1 = 267 ^ 1 = 266, << 1 = 532.
        assert!(all(int_row(&s, 14), 532), "{arch}");
        // -8 = 0xFFFFFFF8 >> 1 logically is 0x7FFFFFFC.
        assert!(all(int_row(&s, 15), 0x7FFF_FFFC), "{arch}");
        assert_eq!(int_row(&s, 16), lanes(|l| i(2 * l as i32 - 8)), "{arch}");
        assert!(all(int_row(&s, 17), 24), "{arch}");
    }
}

#[test]
fn arithmetic_right_shift_is_blackhole_only() {
    let body = || {
        let a = vInt::from(dst_reg[0]);
        dst_reg[1].set(a >> 1u32);
        dst_reg[2].set(shft(a, -2));
    };
    let s = run_mixed(Arch::Blackhole, &[], &[(0, [i(-16); 32])], body);
    // Arithmetic: -16 >> 1 = -8, shft(-16, -2) = -4.
    assert!(all(int_row(&s, 1), i(-8)));
    assert!(all(int_row(&s, 2), i(-4)));
    let k = Kernel::record("sar", body).unwrap();
    assert!(matches!(k.for_chip(Arch::Wormhole), Err(KernelError::NotOnChip { arch: Arch::Wormhole, .. })));
}

/// The comparison lanes: [-2, -1, -0, 0, 1, 2] repeated.
fn cmp_values() -> [u32; 32] {
    let v = [f(-2.0), f(-1.0), 0x8000_0000, 0, ONE, f(2.0)];
    lanes(|l| v[l % 6])
}

fn store_conditions(conds: Vec<Box<dyn Fn(vFloat, vFloat) -> VCond>>) {
    let a = vFloat::from(dst_reg[0]);
    let b = vFloat::from(dst_reg[1]);
    for (k, c) in conds.iter().enumerate() {
        let n = 2 + k;
        v_if(c(a, b), || dst_reg[n].set(1.0)).v_else(|| dst_reg[n].set(0.0)).v_endif();
    }
}

#[test]
fn float_comparisons() {
    for arch in CHIPS {
        let s = run_fp32(arch, &[(0, cmp_values()), (1, splat(1.0))], || {
            store_conditions(vec![
                Box::new(|a, _| a.lt(0.0)),
                Box::new(|a, _| a.le(0.0)),
                Box::new(|a, _| a.gt(0.0)),
                Box::new(|a, _| a.ge(0.0)),
                Box::new(|a, _| a.eq(0.0)),
                Box::new(|a, _| a.ne(0.0)),
                Box::new(|a, _| a.lt(1.0)),
                Box::new(|a, b| a.ge(b)),
                Box::new(|a, b| a.eq(b)),
                Box::new(|a, _| a.gt(-1.0)),
            ])
        });
        // Against a literal zero SFPSETCC tests the bits, so -0 is "< 0" and "!= 0" (seed 003:
        // "provided VC is neither -0 nor NaN"). Lanes: -2, -1, -0, +0, 1, 2.
        let want: [[u32; 6]; 10] = [
            [1, 1, 1, 0, 0, 0], // < 0
            [1, 1, 1, 1, 0, 0], // <= 0
            [0, 0, 0, 0, 1, 1], // > 0
            [0, 0, 0, 1, 1, 1], // >= 0
            [0, 0, 0, 1, 0, 0], // == 0
            [1, 1, 1, 0, 1, 1], // != 0
            [1, 1, 1, 1, 0, 0], // < 1 (x - 1 is negative)
            [0, 0, 0, 0, 1, 1], // >= b = 1
            [0, 0, 0, 0, 1, 0], // == b = 1
            [0, 0, 1, 1, 1, 1], // > -1 (x + 1 > 0)
        ];
        for (k, w) in want.iter().enumerate() {
            let got = row(&s, 2 + k as u32);
            let expect = lanes(|l| if w[l % 6] == 1 { ONE } else { 0 });
            assert_eq!(got, expect, "{arch} condition {k}");
        }
    }
}

#[test]
fn vector_comparison_of_signed_zeros_differs_between_the_chips() {
    // a < b is "a - b is negative". For a = -0, b = +0: Blackhole's -0 - +0 is -0 (an exact zero
    // takes the sign both addends share, `fma_model_bh`), so a < b holds; Wormhole's multiply-add
    // gives +0 for every zero result (`docs/spec/sfpu-wormhole.md#fma-examples-on-wormhole`), so it
    // does not.
    for (arch, want) in [(Arch::Blackhole, ONE), (Arch::Wormhole, 0)] {
        let s = run_fp32(arch, &[(0, [0x8000_0000; 32]), (1, [0; 32])], || {
            let a = vFloat::from(dst_reg[0]);
            let b = vFloat::from(dst_reg[1]);
            v_if(a.lt(b), || dst_reg[2].set(1.0)).v_else(|| dst_reg[2].set(0.0)).v_endif();
        });
        assert!(all(row(&s, 2), want), "{arch}");
    }
}

#[test]
fn integer_comparisons() {
    let vals = [-5, -1, 0, 1, 5, 2047, -2048, 100_000];
    for arch in CHIPS {
        let s = run_mixed(
            arch,
            &[],
            &[(0, lanes(|l| i(vals[l % 8]))), (1, [i(5); 32]), (20, [0x7FFF_FFFF; 32]), (21, [i(-1); 32])],
            || {
                let a = vInt::from(dst_reg[0]);
                let b = vInt::from(dst_reg[1]);
                let conds: [VCond; 7] =
                    [a.lt(1), a.le(5), a.gt(b), a.ge(-1), a.eq(b), a.ne(2047), a.lt(5000)];
                for (k, c) in conds.into_iter().enumerate() {
                    let n = 2 + k;
                    v_if(c, || dst_reg[n].set(1)).v_else(|| dst_reg[n].set(0)).v_endif();
                }
                // The difference wraps: 0x7FFFFFFF - (-1) = 0x80000000 is negative, so "a < b" holds
                // (SFPI's integer comparisons need a - b not to overflow).
                let x = vInt::from(dst_reg[20]);
                let y = vInt::from(dst_reg[21]);
                v_if(x.lt(y), || dst_reg[22].set(1)).v_else(|| dst_reg[22].set(0)).v_endif();
            },
        );
        let tests: [fn(i32) -> bool; 7] =
            [|a| a < 1, |a| a <= 5, |a| a > 5, |a| a >= -1, |a| a == 5, |a| a != 2047, |a| a < 5000];
        for (k, t) in tests.iter().enumerate() {
            assert_eq!(int_row(&s, 2 + k as u32), lanes(|l| t(vals[l % 8]) as u32), "{arch} condition {k}");
        }
        assert!(all(int_row(&s, 22), 1), "{arch}");
    }
}

#[test]
fn v_if_elseif_else_as_the_seed_describes() {
    // "dst_reg[0] is assigned a where a < b, b where a > b and a + b where a == b."
    let a_vals = [1.0f32, 2.0, 3.0, -1.0];
    let b_vals = [2.0f32, 2.0, 1.0, -4.0];
    for arch in CHIPS {
        let s = run_fp32(arch, &[(0, lanes(|l| f(a_vals[l % 4]))), (1, lanes(|l| f(b_vals[l % 4])))], || {
            let a = vFloat::from(dst_reg[0]);
            let b = vFloat::from(dst_reg[1]);
            v_if(a.lt(b), || dst_reg[0].set(a))
                .v_elseif(a.gt(b), || dst_reg[0].set(b))
                .v_else(|| dst_reg[0].set(a + b))
                .v_endif();
        });
        // 1 < 2 -> 1; 2 == 2 -> 4; 3 > 1 -> 1; -1 > -4 -> -4.
        assert_eq!(frow(&s, 0), std::array::from_fn(|l| [1.0, 4.0, 1.0, -4.0][l % 4]), "{arch}");
    }
}

/// The three-deep classifier of `seed/nested3`, in plain Rust.
fn nested3_oracle(x: f32) -> f32 {
    if x < 0.0 {
        if x < -4.0 {
            if x < -8.0 {
                1.0
            } else if x < -6.0 {
                2.0
            } else {
                3.0
            }
        } else if x <= -2.0 {
            if x == -2.0 { 4.5 } else { 4.0 }
        } else {
            5.0
        }
    } else if x > 10.0 {
        if x >= 20.0 { if x != 25.0 { 6.0 } else { 7.0 } } else { 8.0 }
    } else {
        x * 0.5
    }
}

#[test]
fn nested_chains_three_deep() {
    let xs =
        [-9.0f32, -8.0, -7.0, -6.0, -5.0, -4.0, -3.0, -2.0, -1.0, 0.0, 3.0, 10.0, 11.0, 20.0, 25.0, 26.0];
    for arch in CHIPS {
        let s = run_fp32(arch, &[(0, lanes(|l| f(xs[l % 16])))], kernels::seed::nested3);
        assert_eq!(frow(&s, 0), std::array::from_fn(|l| nested3_oracle(xs[l % 16])), "{arch}");
    }
}

#[test]
fn and_or_not_combine() {
    let xs = [3.0f32, 4.0, 7.5, 8.0, 11.0, 12.0, 15.0, 16.0, -1.0, 0.5];
    for arch in CHIPS {
        let s = run_fp32(arch, &[(0, lanes(|l| f(xs[l % 10])))], || {
            let a = vFloat::from(dst_reg[0]);
            let conds = [
                (a.ge(4.0) & a.lt(8.0)) | (a.ge(12.0) & a.lt(16.0)),
                !a.lt(0.0) & !(a.gt(10.0) | a.le(1.0)),
                a.lt(4.0) | a.ge(15.0),
            ];
            for (k, c) in conds.into_iter().enumerate() {
                let n = 1 + k;
                v_if(c, || dst_reg[n].set(1.0)).v_else(|| dst_reg[n].set(0.0)).v_endif();
            }
            // An || after a narrowing &&: folded back through a register.
            v_if(a.ge(0.0) & (a.lt(4.0) | a.ge(15.0)), || dst_reg[4].set(1.0))
                .v_else(|| dst_reg[4].set(0.0))
                .v_endif();
        });
        let tests: [fn(f32) -> bool; 4] = [
            |a| (4.0..8.0).contains(&a) || (12.0..16.0).contains(&a),
            |a| a >= 0.0 && !(a > 10.0 || a <= 1.0),
            |a| !(4.0..15.0).contains(&a),
            |a| a >= 0.0 && !(4.0..15.0).contains(&a),
        ];
        for (k, t) in tests.iter().enumerate() {
            assert_eq!(
                row(&s, 1 + k as u32),
                lanes(|l| if t(xs[l % 10]) { ONE } else { 0 }),
                "{arch} condition {k}"
            );
        }
    }
}

#[test]
fn v_block_and_v_and_narrow_progressively() {
    // The seed's loop with n = 3: each step decrements v1 (in the lanes still enabled), narrows
    // to v1 >= 0, and doubles v2.
    let v1s = [3.0f32, 2.0, 1.0, 0.5, -1.0];
    for arch in CHIPS {
        let s = run_fp32(arch, &[(0, lanes(|l| f(v1s[l % 5]))), (1, splat(1.0))], kernels::seed::narrowing);
        // 3: 2, 1, 0 all >= 0 -> v2 = 8, v1 = 0. 2: 1, 0, then -1 fails -> 4, -1.
        // 1: 0, then -1 fails -> 2, -1. 0.5: -0.5 fails -> 1, -0.5. -1: -2 fails -> 1, -2.
        let want_v1 = [0.0, -1.0, -1.0, -0.5, -2.0];
        let want_v2 = [8.0, 4.0, 2.0, 1.0, 1.0];
        assert_eq!(frow(&s, 0), std::array::from_fn(|l| want_v1[l % 5]), "{arch}");
        assert_eq!(frow(&s, 1), std::array::from_fn(|l| want_v2[l % 5]), "{arch}");
    }
}

#[test]
fn v_and_in_an_arm_does_not_reach_the_else() {
    let xs = [3.0f32, -1.0, 7.0];
    for arch in CHIPS {
        let s = run_fp32(arch, &[(0, lanes(|l| f(xs[l % 3])))], || {
            let x = vFloat::from(dst_reg[0]);
            v_if(x.gt(0.0), || {
                v_and(x.gt(5.0));
                dst_reg[0].set(1.0);
            })
            .v_else(|| dst_reg[0].set(2.0))
            .v_endif();
        });
        // 3 takes the arm but v_and drops it: unchanged. -1: the else. 7: the arm.
        assert_eq!(frow(&s, 0), std::array::from_fn(|l| [3.0, 2.0, 1.0][l % 3]), "{arch}");
    }
}

#[test]
fn conditions_through_a_vint() {
    for arch in CHIPS {
        let s = run_fp32(arch, &[(0, cmp_values())], kernels::seed::fp16_zero);
        // exponent_size_8: v == 0.0 holds only for +0 (bits); the other test adds 0x3800 to the
        // bits, never zero for these values. 1 where the test holds, -1 elsewhere.
        assert_eq!(frow(&s, 0), std::array::from_fn(|l| if l % 6 == 3 { 1.0 } else { -1.0 }), "{arch}");
        assert!(all(row(&s, 1), f(-1.0)), "{arch}");
    }
}

#[test]
fn programmable_constants_are_assigned_in_init() {
    for arch in CHIPS {
        let s = run_with_init(
            arch,
            &[],
            || {
                vConstFloatPrgm0.set(3.5);
                vConstIntPrgm1.set(7);
            },
            || {
                dst_reg[0].set(vFloat::from(vConstFloatPrgm0) * 2.0);
                dst_reg[1].set(vInt::from(vConstIntPrgm1) + 1);
            },
        );
        assert!(all(row(&s, 0), f(7.0)), "{arch}");
        assert!(all(int_row(&s, 1), 8), "{arch}");
        // SFPCONFIG broadcast the value to every lane of LReg[12] and LReg[13].
        assert!(all(s.LReg[12], f(3.5)) && all(s.LReg[13], 7), "{arch}");
    }
}

#[test]
fn l_reg_reads_and_writes() {
    for arch in CHIPS {
        let k = Kernel::record("lreg", || {
            let x = vFloat::from(l_reg[LRegs::LReg1]);
            dst_reg[0].set(x + 2.0);
            v_if(x.gt(0.0), || l_reg[LRegs::LReg1].set(x * 2.0)).v_endif();
        })
        .unwrap();
        let init = state(arch, tile::TileFormat::Fp32, &[], &[(1, lanes(|l| f(l as f32 - 10.0)))]);
        let s = run_on(arch, &k, &init).unwrap();
        assert_eq!(frow(&s, 0), std::array::from_fn(|l| l as f32 - 8.0), "{arch}");
        // Doubled where positive, the pre-loaded value elsewhere.
        let want = lanes(|l| {
            let x = l as f32 - 10.0;
            f(if x > 0.0 { 2.0 * x } else { x })
        });
        assert_eq!(s.LReg[1], want, "{arch}");
    }
}

#[test]
fn exponent_and_mantissa_fields() {
    for arch in CHIPS {
        let s = run_mixed(
            arch,
            &[
                (0, splat(8.0)),
                (1, splat(0.5)),
                (2, splat(1.5)),
                (3, splat(1.0)),
                (4, splat(2.0)),
                (5, splat(3.0)),
            ],
            &[(6, [i(-5); 32])],
            || {
                let (x8, x05, x15, x1, x2, x3) = (
                    vFloat::from(dst_reg[0]),
                    vFloat::from(dst_reg[1]),
                    vFloat::from(dst_reg[2]),
                    vFloat::from(dst_reg[3]),
                    vFloat::from(dst_reg[4]),
                    vFloat::from(dst_reg[5]),
                );
                let m5 = vInt::from(dst_reg[6]);
                dst_reg[10].set(exexp(x8));
                dst_reg[11].set(exexp(x05));
                dst_reg[12].set(exexp_nodebias(x8));
                dst_reg[13].set(exman8(x15));
                dst_reg[14].set(exman9(x15));
                dst_reg[15].set(setexp(x15, 128));
                dst_reg[16].set(setexp(x15, vInt::from(126)));
                dst_reg[17].set(setman(x1, 0x40_0000u32));
                dst_reg[18].set(setman(x1, 0x40_0001u32));
                dst_reg[19].set(setman(x1, vInt::from(0x20_0000)));
                dst_reg[20].set(setsgn(x2, 1));
                dst_reg[21].set(setsgn(-x2, 0));
                dst_reg[22].set(setsgn(x2, vFloat::from(-1.0)));
                dst_reg[23].set(setsgn(x2, m5));
                dst_reg[24].set(addexp(x3, 2));
                dst_reg[25].set(addexp(x3, -1));
            },
        );
        // 8 = 2^3; 0.5 = 2^-1; biased 130; 1.5 has mantissa 0x400000: with the hidden bit
        // 0xC00000; setexp(1.5, 128) = 3; setexp(1.5, 126) = 0.75.
        let ints = [3, -1, 130, 0xC0_0000, 0x40_0000];
        for (k, w) in ints.into_iter().enumerate() {
            assert!(all(int_row(&s, 10 + k as u32), i(w)), "{arch} {k}");
        }
        // setman(1.0, 0x400000) = 1.5 (the immediate form); 0x400001 is loaded: 0x3FC00001;
        // setman(1.0, 0x200000) = 1.25; setsgn: -2, 2, -2, -2; addexp: 3 * 4 = 12, 3 / 2 = 1.5.
        let floats = [
            f(3.0),
            f(0.75),
            f(1.5),
            0x3FC0_0001,
            f(1.25),
            f(-2.0),
            f(2.0),
            f(-2.0),
            f(-2.0),
            f(12.0),
            f(1.5),
        ];
        for (k, w) in floats.into_iter().enumerate() {
            assert!(all(row(&s, 15 + k as u32), w), "{arch} dst_reg[{}]", 15 + k);
        }
    }
}

#[test]
fn leading_zeros_and_abs() {
    for arch in CHIPS {
        let s = run_mixed(
            arch,
            &[(5, splat(-2.5))],
            &[(0, [1; 32]), (1, [0; 32]), (2, [0x8000_0001; 32]), (3, [i(-7); 32])],
            || {
                dst_reg[10].set(lz(vInt::from(dst_reg[0])));
                dst_reg[11].set(lz(vInt::from(dst_reg[1])));
                dst_reg[12].set(lz(vInt::from(dst_reg[2])));
                dst_reg[13].set(lz_nosgn(vInt::from(dst_reg[2])));
                dst_reg[14].set(abs(vInt::from(dst_reg[3])));
                dst_reg[15].set(abs(vFloat::from(dst_reg[5])));
            },
        );
        // lz(1) = 31, lz(0) = 32, lz(0x80000001) = 0, without the sign 31; |-7| = 7; |-2.5| = 2.5.
        for (k, w) in [31, 32, 0, 31, 7].into_iter().enumerate() {
            assert!(all(int_row(&s, 10 + k as u32), w), "{arch} {k}");
        }
        assert!(all(row(&s, 15), f(2.5)), "{arch}");
    }
}

#[test]
fn lut_and_lut_sign() {
    // l0: A = 0x30 (0.125), B = 0xFF (0); l1: A = 0x00 (1.0), B = 0x10 (0.5); l2: A = 0x80
    // (-1.0), B = 0x20 (0.25). SFPLUT takes l0 for |x| < 1, l1 for |x| < 2, l2 above (`SFPLUT.md`).
    let xs = [0.5f32, -0.5, 1.5, -1.5, 3.0, -3.0];
    for arch in CHIPS {
        let s = run_fp32(arch, &[(0, lanes(|l| f(xs[l % 6])))], || {
            let x = vFloat::from(dst_reg[0]);
            let t = || (vUInt::from(0x30FFu32), vUInt::from(0x0010u32), vUInt::from(0x8020u32));
            let (l0, l1, l2) = t();
            dst_reg[1].set(lut(x, l0, l1, l2, 0));
            let (l0, l1, l2) = t();
            dst_reg[2].set(lut_sign(x, l0, l1, l2, 0));
        });
        // A|x| + B: 0.0625, 0.0625, 2.0, 2.0, -2.75, -2.75; lut keeps x's sign, lut_sign the
        // multiply-add's.
        let lut_want = [0.0625, -0.0625, 2.0, -2.0, 2.75, -2.75];
        let sign_want = [0.0625, 0.0625, 2.0, 2.0, -2.75, -2.75];
        assert_eq!(frow(&s, 1), std::array::from_fn(|l| lut_want[l % 6]), "{arch}");
        assert_eq!(frow(&s, 2), std::array::from_fn(|l| sign_want[l % 6]), "{arch}");
    }
}

#[test]
fn shifts() {
    for arch in CHIPS {
        let s = run_mixed(arch, &[], &[(0, [0x10; 32]), (1, lanes(|l| i(l as i32 - 8)))], || {
            let v = vUInt::from(dst_reg[0]);
            dst_reg[2].set(shft(v, 4));
            dst_reg[3].set(shft(v, -4));
            dst_reg[4].set(shft(v, vInt::from(dst_reg[1])));
        });
        assert!(all(int_row(&s, 2), 0x100), "{arch}");
        assert!(all(int_row(&s, 3), 1), "{arch}");
        // Amounts -8..=23: right shifts for negative amounts (0x10 >> 8 = 0), left otherwise.
        assert_eq!(
            int_row(&s, 4),
            lanes(|l| {
                let a = l as i32 - 8;
                if a >= 0 { 0x10u32 << a } else { 0x10u32 >> -a }
            }),
            "{arch}"
        );
    }
}

#[test]
fn vec_swap_and_vec_min_max() {
    for arch in CHIPS {
        let s = run_fp32(
            arch,
            &[
                (0, lanes(|l| f(l as f32))),
                (1, lanes(|l| f(31.0 - l as f32))),
                (2, [0x8000_0000; 32]),
                (3, [0; 32]),
            ],
            || {
                let mut a = vFloat::from(dst_reg[0]);
                let mut b = vFloat::from(dst_reg[1]);
                vec_min_max(&mut a, &mut b);
                dst_reg[4].set(a);
                dst_reg[5].set(b);
                let mut c = vFloat::from(dst_reg[0]);
                let mut d = vFloat::from(dst_reg[1]);
                // Only where c < 10: the other lanes keep their values (SFPI's in-place update).
                v_if(c.lt(10.0), || vec_swap(&mut c, &mut d)).v_endif();
                dst_reg[6].set(c);
                dst_reg[7].set(d);
                let mut z = vFloat::from(dst_reg[3]);
                let mut nz = vFloat::from(dst_reg[2]);
                vec_min_max(&mut z, &mut nz);
                dst_reg[8].set(z);
                dst_reg[9].set(nz);
            },
        );
        assert_eq!(frow(&s, 4), std::array::from_fn(|l| (l as f32).min(31.0 - l as f32)), "{arch}");
        assert_eq!(frow(&s, 5), std::array::from_fn(|l| (l as f32).max(31.0 - l as f32)), "{arch}");
        assert_eq!(
            frow(&s, 6),
            std::array::from_fn(|l| if l < 10 { 31.0 - l as f32 } else { l as f32 }),
            "{arch}"
        );
        assert_eq!(
            frow(&s, 7),
            std::array::from_fn(|l| if l < 10 { l as f32 } else { 31.0 - l as f32 }),
            "{arch}"
        );
        // Sign-magnitude order: -0 < +0.
        assert!(all(row(&s, 8), 0x8000_0000) && all(row(&s, 9), 0), "{arch}");
    }
}

#[test]
fn subvec_shuffles() {
    // The source lanes hold l + 1; the latch source lanes 100 + l.
    for arch in CHIPS {
        let s = run_mixed(arch, &[], &[(0, lanes(|l| l as u32 + 1)), (1, lanes(|l| 100 + l as u32))], || {
            let v = vInt::from(dst_reg[0]);
            let w = vInt::from(dst_reg[1]);
            dst_reg[2].set(subvec_shflror1(w));
            dst_reg[3].set(subvec_shflshr1(v));
        });
        // Rotation right by one lane within each group of eight: lane l gets lane l - 1, lane 0 of
        // a group its lane 7.
        assert_eq!(
            int_row(&s, 2),
            lanes(|l| 100 + (if l % 8 != 0 { l - 1 } else { l + 7 }) as u32),
            "{arch}"
        );
        // Shift right by one lane: lane 0 of each group gets 0 on Blackhole; on Wormhole, by its
        // documented bug, lane 7 of the last shflror1's input (100 + 8g + 7).
        let want = lanes(|l| {
            if l % 8 != 0 {
                l as u32
            } else if arch == Arch::Blackhole {
                0
            } else {
                100 + l as u32 + 7
            }
        });
        assert_eq!(int_row(&s, 3), want, "{arch}");
    }
}

#[test]
fn subvec_transp_transposes_each_column() {
    for arch in CHIPS {
        let rows: Vec<(u32, [u32; 32])> = (0..4).map(|r| (r, lanes(|l| 100 * r + l as u32))).collect();
        let s = run_mixed(arch, &[], &rows, || {
            let mut v = [0, 1, 2, 3].map(|n| vInt::from(dst_reg[n]));
            let [a, b, c, d] = &mut v;
            subvec_transp(a, b, c, d);
            for (k, x) in v.into_iter().enumerate() {
                dst_reg[4 + k].set(x);
            }
        });
        // Lane 8j + col of vector i receives lane 8i + col of vector j.
        for i in 0..4u32 {
            assert_eq!(
                int_row(&s, 4 + i),
                lanes(|l| 100 * (l as u32 / 8) + 8 * i + (l as u32 % 8)),
                "{arch} {i}"
            );
        }
    }
}

#[test]
fn int_to_float() {
    for arch in CHIPS {
        let ints = [5u32, 0x8000_0005, 16_777_217, 16_777_219, 0, 0x8000_0000];
        let s = run_mixed(arch, &[], &[(0, lanes(|l| ints[l % 6]))], || {
            let v = vInt::from(dst_reg[0]);
            dst_reg[1].set(sfpi::int_to_float(v, 0));
            dst_reg[2].set(sfpi::int_to_float(v, 1));
        });
        // Sign-magnitude in: 5, -5; 2^24 + 1 rounds to even 2^24; 2^24 + 3 is a tie between
        // 2^24 + 2 and 2^24 + 4, to even 2^24 + 4; 0; sign-magnitude -0 is -0.0. On Wormhole the
        // lane never holds 0x80000000: Dst holds integers as sign-magnitude and the vInt read
        // (MOD0_FMT_INT32_SM) turns Dst's -0 into two's complement 0, so the result is +0.
        let neg_zero = if arch == Arch::Blackhole { 0x8000_0000 } else { 0 };
        let want = [f(5.0), f(-5.0), f(16_777_216.0), f(16_777_220.0), 0, neg_zero];
        assert_eq!(row(&s, 1), lanes(|l| want[l % 6]), "{arch}");
        // Stochastic rounding: one of the two neighbours.
        for (l, &x) in row(&s, 2).iter().enumerate() {
            let ok = match l % 6 {
                2 => [16_777_216.0f32, 16_777_218.0].contains(&f32::from_bits(x)),
                3 => [16_777_218.0f32, 16_777_220.0].contains(&f32::from_bits(x)),
                k => x == want[k],
            };
            assert!(ok, "{arch} lane {l}: {}", f32::from_bits(x));
        }
    }
}

#[test]
fn float_conversions_round_to_nearest() {
    for arch in CHIPS {
        let s = run_fp32(
            arch,
            &[
                (
                    0,
                    [0x3F80_8000, 0x3F80_7FFF, 0x3F80_1000, f(1.0), f(3.5), f(2.5), f(-3.2), f(-3.5)]
                        .repeat(4)
                        .try_into()
                        .unwrap(),
                ),
                (1, lanes(|l| f([200.0f32, 70000.0, -40000.0, 0.49][l % 4]))),
            ],
            || {
                let x = vFloat::from(dst_reg[0]);
                dst_reg[2].set(reinterpret::<vFloat>(float_to_fp16b(x, 0)));
                dst_reg[3].set(reinterpret::<vFloat>(float_to_fp16a(x, 0)));
                dst_reg[4].set(float_to_uint8(x, 0));
                dst_reg[5].set(float_to_int8(x, 0));
                let y = vFloat::from(dst_reg[1]);
                dst_reg[6].set(float_to_int8(y, 0));
                dst_reg[7].set(float_to_uint16(y, 0));
                dst_reg[8].set(float_to_int16(y, 0));
            },
        );
        // fp16b keeps 7 mantissa bits: 0x3F808000 is halfway and rounds away (NEAREST rounds up
        // when the discarded bits are at least half); 0x3F807FFF rounds down. fp16a keeps 10:
        // 0x3F801000 is halfway there and rounds up to 0x3F802000.
        let r2 = row(&s, 2);
        assert_eq!((r2[0], r2[1], r2[2]), (0x3F81_0000, 0x3F80_0000, 0x3F80_0000), "{arch}");
        let r3 = row(&s, 3);
        assert_eq!((r3[0], r3[1], r3[2]), (0x3F80_8000, 0x3F80_8000, 0x3F80_2000), "{arch}");
        // uint8: 1, 4 (3.5 ties away), 3 (2.5 ties away), 3 (unsigned kinds take the magnitude,
        // `SFPSTOCHRND_FloatInt.md`), 4; int8 is sign-magnitude: -3 is 0x80000003, -3.5 is
        // 0x80000004.
        let u8s = int_row(&s, 4);
        assert_eq!(&u8s[3..8], &[1, 4, 3, 3, 4], "{arch}");
        let i8s = int_row(&s, 5);
        assert_eq!(&i8s[3..8], &[1, 4, 3, 0x8000_0003, 0x8000_0004], "{arch}");
        // Saturation: int8(200) = 127, int8(-40000) = -127; uint16(70000) = 65535; int16(-40000) =
        // -32767; anything below one half is 0.
        assert_eq!(&int_row(&s, 6)[0..4], &[127, 127, 0x8000_007F, 0], "{arch}");
        assert_eq!(&int_row(&s, 7)[0..4], &[200, 65535, 40000, 0], "{arch}");
        assert_eq!(&int_row(&s, 8)[0..4], &[200, 32767, 0x8000_7FFF, 0], "{arch}");
    }
}

#[test]
fn int32_descale_conversions() {
    for arch in CHIPS {
        let ints = [1000u32, 1001, 1002, 2000, 0x8000_03E8, 0x8000_0004];
        let s = run_mixed(arch, &[], &[(0, lanes(|l| ints[l % 6])), (1, [3; 32])], || {
            let v = vInt::from(dst_reg[0]);
            dst_reg[2].set(int32_to_uint8(v, 2u32, 0));
            dst_reg[3].set(int32_to_int8(v, vUInt::from(dst_reg[1]), 0));
        });
        // The inputs are sign-magnitude. / 4: 250, 250.25 -> 250, 250.5 -> 251 (ties away),
        // 500 -> 255, -1000 -> 250 (uint8 drops the sign), -4 / 4 = -1 -> 1.
        assert_eq!(int_row(&s, 2), lanes(|l| [250, 250, 251, 255, 250, 1][l % 6]), "{arch}");
        // / 8 into int8: 125, 125.125 -> 125, 125.25 -> 125, 250 -> 127, -125, -0.5 -> -1.
        assert_eq!(
            int_row(&s, 3),
            lanes(|l| [125, 125, 125, 127, 0x8000_007D, 0x8000_0001][l % 6]),
            "{arch}"
        );
    }
}

#[test]
fn reinterpret_keeps_the_bits() {
    for arch in CHIPS {
        let s = run_fp32(arch, &[(0, splat(1.0))], || {
            let x = vFloat::from(dst_reg[0]);
            let b = reinterpret::<vInt>(x);
            dst_reg[1].set(b + 1);
            dst_reg[2].set(reinterpret::<vFloat>(b + 1));
        });
        assert!(all(int_row(&s, 1), ONE + 1), "{arch}");
        assert!(all(row(&s, 2), ONE + 1), "{arch}");
    }
}

#[test]
fn unsigned_comparisons_and_operators() {
    for arch in CHIPS {
        let s = run_mixed(arch, &[], &[(0, lanes(|l| l as u32 * 100))], || {
            let u = vUInt::from(dst_reg[0]);
            v_if(u.ge(1000u32) & u.lt(2000u32), || dst_reg[1].set(u | 1u32))
                .v_else(|| dst_reg[1].set(u ^ 3u32))
                .v_endif();
            dst_reg[2].set((u + 7u32) >> 1u32);
        });
        // Lanes hold 0, 100, .., 3100: 1000..1999 get | 1, the others ^ 3; (u + 7) >> 1.
        assert_eq!(
            int_row(&s, 1),
            lanes(|l| {
                let u = l as u32 * 100;
                if (1000..2000).contains(&u) { u | 1 } else { u ^ 3 }
            }),
            "{arch}"
        );
        assert_eq!(int_row(&s, 2), lanes(|l| (l as u32 * 100 + 7) >> 1), "{arch}");
    }
}

#[test]
fn l_reg_holds_its_value_across_rows() {
    // Each row reads LReg1, stores it, and doubles it in the lanes where it is below 100; the
    // value read stays the one read even after the register is set (x is used after the set).
    // Over three rows: row r stores the value after r doublings (capped once it reaches 100).
    for arch in CHIPS {
        let k = Kernel::record("lreg_rows", || {
            let x = vFloat::from(l_reg[LRegs::LReg1]);
            v_if(x.lt(100.0), || l_reg[LRegs::LReg1].set(x * 2.0)).v_endif();
            dst_reg[0].set(x + 0.5);
        })
        .unwrap();
        let init = state(arch, tile::TileFormat::Fp32, &[], &[(1, lanes(|l| f(l as f32 * 4.0)))]);
        let s = run_rows(arch, &k, &init, 3).unwrap();
        let after = |x0: f32, r: u32| (0..r).fold(x0, |x, _| if x < 100.0 { 2.0 * x } else { x });
        for r in 0..3 {
            assert_eq!(
                frow(&s, r),
                std::array::from_fn(|l| after(l as f32 * 4.0, r) + 0.5),
                "{arch} row {r}"
            );
        }
        assert_eq!(s.LReg[1], lanes(|l| f(after(l as f32 * 4.0, 3))), "{arch}");
    }
}

#[test]
fn init_may_use_vconstneg1() {
    // On Wormhole a - b reads vConstNeg1 (LReg[11]): it is programmed before the init part runs.
    for arch in CHIPS {
        let s = run_with_init(
            arch,
            &[],
            || vConstFloatPrgm2.set(vFloat::from(3.0) - vFloat::from(1.0)),
            || dst_reg[0].set(vFloat::from(vConstFloatPrgm2)),
        );
        assert!(all(row(&s, 0), f(2.0)), "{arch}");
    }
}

#[test]
fn dst_reg_compares_and_stores_directly() {
    // The seed's __vDReg comparisons and dst_reg-to-dst_reg assignment: dst_reg[1] = dst_reg[0]
    // where dst_reg[0] < 0.5 (as a vFloat), and vConstTileId stored where it is at least 40.
    for arch in CHIPS {
        let s = run_mixed(arch, &[(0, lanes(|l| f(l as f32 / 8.0)))], &[], || {
            v_if(dst_reg[0].lt(0.5), || dst_reg[1].set(dst_reg[0]))
                .v_else(|| dst_reg[1].set(vConst1))
                .v_endif();
            v_if(vInt::from(vConstTileId).ge(40), || dst_reg[2].set(vConstTileId))
                .v_else(|| dst_reg[2].set(0))
                .v_endif();
        });
        assert_eq!(frow(&s, 1), std::array::from_fn(|l| if l < 4 { l as f32 / 8.0 } else { 1.0 }), "{arch}");
        assert_eq!(int_row(&s, 2), lanes(|l| if 2 * l >= 40 { 2 * l as u32 } else { 0 }), "{arch}");
    }
}
