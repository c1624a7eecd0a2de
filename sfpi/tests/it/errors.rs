//! Bad kernels are clear errors, never panics: too many live values, an unclosed or misnested
//! `v_if`, a value used outside its lanes, a call the chip lacks, arguments the hardware cannot
//! take.

use sfpi::*;

fn lowered(k: Result<Kernel, KernelError>, arch: Arch) -> Result<Lowered, KernelError> {
    k?.for_chip(arch)?.lower()
}

#[test]
fn eight_live_values_fit_nine_do_not() {
    // Eight values loaded and all live at the first add: the sum reuses a dying operand's
    // register, so eight LRegs suffice.
    let sum_of = |n: usize| {
        move || {
            let v: Vec<vFloat> = (0..n).map(|k| vFloat::from(dst_reg[k])).collect();
            let mut s = v[0];
            for x in &v[1..] {
                s += *x;
            }
            dst_reg[20].set(s);
        }
    };
    for arch in Arch::ALL {
        assert!(lowered(Kernel::record("eight", sum_of(8)), arch).is_ok(), "{arch}");
        let e = lowered(Kernel::record("nine", sum_of(9)), arch).unwrap_err();
        assert!(
            matches!(&e, KernelError::OutOfRegisters { kernel, live: 9, .. } if kernel == "nine"),
            "{arch}: {e}"
        );
        assert!(e.to_string().contains("does not spill"), "{e}");
    }
}

#[test]
fn a_missing_v_endif_is_an_error() {
    // The chain is dropped at the end of the statement without .v_endif().
    let e = Kernel::record("unclosed", || {
        let a = vFloat::from(dst_reg[0]);
        #[allow(unused_must_use, reason = "the missing v_endif is the point of the test")]
        {
            v_if(a.lt(0.0), || dst_reg[0].set(0.0));
        }
        dst_reg[1].set(a);
    })
    .unwrap_err();
    assert!(matches!(e, KernelError::UnclosedVIf { .. }), "{e}");
    // Inside a body: the inner chain is still open when the arm's closure returns.
    let e = Kernel::record("unclosed_inner", || {
        let a = vFloat::from(dst_reg[0]);
        v_if(a.lt(0.0), || {
            let _open = v_if(a.lt(-1.0), || dst_reg[0].set(0.0));
        })
        .v_endif();
    })
    .unwrap_err();
    assert!(matches!(e, KernelError::UnclosedVIf { .. }), "{e}");
    // After v_else too.
    let e = Kernel::record("unclosed_else", || {
        let a = vFloat::from(dst_reg[0]);
        let _chain = v_if(a.lt(0.0), || dst_reg[0].set(0.0)).v_else(|| dst_reg[0].set(1.0));
    })
    .unwrap_err();
    assert!(matches!(e, KernelError::UnclosedVIf { .. }), "{e}");
}

#[test]
fn misnested_chains_are_errors() {
    // Closing an outer chain from inside an inner body.
    let e = Kernel::record("misnested", || {
        let a = vFloat::from(dst_reg[0]);
        let outer = v_if(a.lt(0.0), || dst_reg[0].set(0.0));
        v_if(a.gt(1.0), move || outer.v_endif()).v_endif();
    })
    .unwrap_err();
    assert!(matches!(e, KernelError::Misnested { .. }), "{e}");
    // Vector code between a body and its v_else.
    let e = Kernel::record("between", || {
        let a = vFloat::from(dst_reg[0]);
        let c = v_if(a.lt(0.0), || dst_reg[0].set(0.0));
        dst_reg[1].set(a);
        c.v_else(|| dst_reg[0].set(1.0)).v_endif();
    })
    .unwrap_err();
    assert!(matches!(e, KernelError::Misnested { .. }), "{e}");
}

#[test]
fn v_and_needs_a_block() {
    let e = Kernel::record("and", || {
        let a = vFloat::from(dst_reg[0]);
        v_and(a.lt(0.0));
    })
    .unwrap_err();
    assert!(matches!(e, KernelError::VAndOutsideBlock { .. }), "{e}");
}

#[test]
#[allow(
    clippy::assign_op_pattern,
    reason = "`x = x + 1.0` (a rebinding) and `x += 1.0` (an assignment under predication) differ here"
)]
fn a_value_from_inside_a_v_if_is_not_defined_after_it() {
    // `x = x + 1.0` rebinds the Rust variable to a value that exists only in the enabled lanes;
    // SFPI's assignment is .assign() or a compound assignment.
    let e = Kernel::record("scope", || {
        let mut x = vFloat::from(dst_reg[0]);
        v_if(x.lt(0.0), || x = x + 1.0).v_endif();
        dst_reg[0].set(x);
    })
    .unwrap_err();
    assert!(matches!(e, KernelError::ValueOutOfScope { .. }), "{e}");
    assert!(e.to_string().contains(".assign"), "{e}");
    // The same with .assign() records.
    assert!(
        Kernel::record("assign", || {
            let mut x = vFloat::from(dst_reg[0]);
            v_if(x.lt(0.0), || x.assign(x + 1.0)).v_endif();
            dst_reg[0].set(x);
        })
        .is_ok()
    );
    // Nor in another arm.
    let e = Kernel::record("arm", || {
        let a = vFloat::from(dst_reg[0]);
        let mut t = a;
        v_if(a.lt(0.0), || t = a * 2.0).v_else(|| dst_reg[0].set(t)).v_endif();
    })
    .unwrap_err();
    assert!(matches!(e, KernelError::ValueOutOfScope { .. }), "{e}");
}

#[test]
fn values_do_not_cross_recordings() {
    let mut leaked = None;
    Kernel::record("first", || leaked = Some(vFloat::from(dst_reg[0]))).unwrap();
    let leaked = leaked.unwrap();
    let e = Kernel::record("second", || dst_reg[0].set(leaked * 2.0)).unwrap_err();
    assert!(matches!(e, KernelError::ForeignValue { .. }), "{e}");
    // Nor between init and body.
    let from_init = std::cell::Cell::new(None);
    let e = Kernel::record_with_init(
        "init",
        || from_init.set(Some(vFloat::from(1.0))),
        || {
            if let Some(v) = from_init.get() {
                dst_reg[0].set(v);
            }
        },
    )
    .unwrap_err();
    assert!(matches!(e, KernelError::ValueOutOfScope { .. }), "{e}");
}

#[test]
fn nested_recording_is_an_error() {
    let mut inner = None;
    let e = Kernel::record("outer", || inner = Some(Kernel::record("inner", || {}))).unwrap_err();
    assert!(matches!(e, KernelError::NestedRecording { .. }), "{e}");
    assert!(matches!(inner, Some(Err(KernelError::NestedRecording { .. }))));
}

#[test]
fn arguments_the_hardware_cannot_take() {
    let bad = |body: fn()| Kernel::record("bad", body).unwrap_err();
    // Grayskull's LUT bias.
    let e = bad(|| {
        let x = vFloat::from(dst_reg[0]);
        dst_reg[0].set(lut(x, vUInt::from(0u32), vUInt::from(0u32), vUInt::from(0u32), 1));
    });
    assert!(matches!(e, KernelError::BadArgument { .. }), "{e}");
    // SFPSTOCHRND's 5-bit descale.
    let e = bad(|| dst_reg[0].set(int32_to_uint8(vInt::from(dst_reg[0]), 40u32, 0)));
    assert!(matches!(e, KernelError::BadArgument { .. }), "{e}");
    // SFPLOAD's 10-bit address.
    let e = bad(|| dst_reg[600].set(1.0));
    assert!(matches!(e, KernelError::BadArgument { .. }), "{e}");
    // A constant register that is not programmable.
    let e = Kernel::record_with_init("c", || vConst1.set(2.0), || {}).unwrap_err();
    assert!(matches!(e, KernelError::BadArgument { .. }), "{e}");
}

#[test]
fn constructs_in_the_wrong_place() {
    // Programmable constants are set in init.
    let e = Kernel::record("body_const", || vConstFloatPrgm0.set(1.0)).unwrap_err();
    assert!(matches!(e, KernelError::Unsupported { .. }), "{e}");
    // Cross-lane calls under predication.
    let e = Kernel::record("xlane", || {
        let a = vFloat::from(dst_reg[0]);
        v_if(a.lt(0.0), || dst_reg[0].set(subvec_shflror1(a))).v_endif();
    })
    .unwrap_err();
    assert!(matches!(e, KernelError::Unsupported { .. }), "{e}");
    // subvec_transp with another value live across it.
    let k = Kernel::record("transp", || {
        let keep = vFloat::from(dst_reg[9]);
        let mut v = [0, 1, 2, 3].map(|n| vFloat::from(dst_reg[n]));
        let [a, b, c, d] = &mut v;
        subvec_transp(a, b, c, d);
        dst_reg[0].set(v[0] + keep);
    })
    .unwrap();
    let e = k.for_chip(Arch::Blackhole).unwrap().lower().unwrap_err();
    assert!(matches!(e, KernelError::Unsupported { .. }), "{e}");
}

#[test]
fn predication_deeper_than_the_flag_stack() {
    fn nest(x: vFloat, depth: usize) {
        if depth == 0 {
            dst_reg[0].set(x);
        } else {
            v_if(x.lt(depth as f32), || nest(x, depth - 1)).v_endif();
        }
    }
    for arch in Arch::ALL {
        let ok = Kernel::record("eight", || nest(vFloat::from(dst_reg[0]), 8));
        assert!(lowered(ok, arch).is_ok(), "{arch}");
        let deep = Kernel::record("nine", || nest(vFloat::from(dst_reg[0]), 9));
        assert!(
            matches!(lowered(deep, arch), Err(KernelError::FlagStackOverflow { depth: 9, .. })),
            "{arch}"
        );
    }
}

#[test]
fn arithmetic_shift_on_wormhole() {
    let k = Kernel::record("sar", || dst_reg[0].set(vInt::from(dst_reg[0]) >> 3u32)).unwrap();
    let e = k.for_chip(Arch::Wormhole).unwrap_err();
    assert!(matches!(e, KernelError::NotOnChip { arch: Arch::Wormhole, .. }), "{e}");
    assert!(k.for_chip(Arch::Blackhole).is_ok());
}
