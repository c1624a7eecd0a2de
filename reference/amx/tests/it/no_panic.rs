//! Totality: `vecfp` never panics, for any operand, any chip profile and any state; it never
//! writes X or Y; a no-op operand leaves the whole state untouched; and only the Z rows the flow
//! names can change (the rows of `zr mod zstep + k·zstep`, and their pair partners).

use amx_reference::{Chip, Decoded, Field, LaneWidth, Operand, Select, State, decode, vecfp};
use proptest::prelude::*;

/// Operands biased towards ones that do something (a uniform operand is a no-op 7/8 of the time).
fn operand() -> impl Strategy<Value = Operand> {
    (any::<u64>(), 0..4u8, prop::sample::select(vec![0u64, 1, 4, 5, 7, 10, 11, 12])).prop_map(
        |(bits, kind, alu)| {
            let mut o = Operand(bits);
            if kind != 0 {
                o = Operand(o.0 & !Field::MBZ.mask());
            }
            if kind >= 2 {
                o = o.with(Field::ALU, alu).unwrap_or(o);
            }
            o
        },
    )
}

/// A state from random bytes, with a bias towards special values: some registers filled with one
/// repeated random pattern (so NaN, Inf and zero lanes are common).
fn state() -> impl Strategy<Value = State> {
    (prop::collection::vec(any::<u8>(), 5120), prop::collection::vec((0..80usize, any::<u64>()), 0..8))
        .prop_map(|(bytes, fills)| {
            let mut raw = [0u8; 5120];
            raw.copy_from_slice(&bytes);
            for (reg, pattern) in fills {
                for k in 0..64 {
                    raw[64 * reg + k] = (pattern >> (8 * (k % 8))) as u8;
                }
            }
            State::from_bytes(&raw)
        })
}

/// The rows the flow of §2.1 may write for this decoded operation.
fn writable_rows(lw: LaneWidth, select: Select, zrow: usize) -> Vec<usize> {
    let zstep = match select {
        Select::Writemask { .. } => 64,
        Select::Multi { FOUR, .. } => {
            if FOUR {
                16
            } else {
                32
            }
        }
    };
    let mut rows: Vec<usize> = (zrow % zstep..64).step_by(zstep).collect();
    if lw.is_pair() {
        rows = rows.iter().flat_map(|r| [r & !1, r | 1]).collect();
    }
    rows
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

    #[test]
    fn vecfp_is_total(o in operand(), chip in prop::sample::select(Chip::ALL.to_vec()), s in state()) {
        let mut t = s.clone();
        vecfp(&mut t, chip, o);
        prop_assert!(t.X == s.X && t.Y == s.Y, "vecfp wrote X or Y");
        match decode(chip, o) {
            Decoded::Nop(_) => prop_assert_eq!(&t, &s),
            Decoded::Op(v) => {
                let rows = writable_rows(v.lw, v.select, v.ZROW as usize);
                for r in 0..64 {
                    if !rows.contains(&r) {
                        prop_assert_eq!(t.Z[r], s.Z[r], "row {} changed; the flow names only {:?}", r, rows);
                    }
                }
            }
        }
    }
}

/// The public step and arithmetic functions are total too, on arguments the flow never passes.
#[test]
fn helpers_are_total_on_odd_arguments() {
    use amx_reference::fp::{self, Format};
    use amx_reference::state::{lane, set_lane};
    use amx_reference::vecfp::fetch::{expand, shuffle, window};
    use amx_reference::vecfp::lanes::{align_down, lane_set, m4_alignment};
    let r = [0xA5u8; 64];
    for eb in [0, 1, 3, 5, 8, 9, 64, usize::MAX] {
        let _ = shuffle(&r, 3, eb);
        let _ = expand(&r, &r, 4, eb);
        let _ = expand(&r, &r, usize::MAX, eb);
        let _ = m4_alignment(true, false, 4, 4, eb);
        let _ = lane(&r, eb, usize::MAX);
        let mut w = r;
        set_lane(&mut w, eb, usize::MAX, 1);
    }
    for ec in [0, 1, 7, 1000] {
        let _ = lane_set(2, 31, ec);
        let _ = lane_set(5, 3, ec);
    }
    let _ = align_down(77, 0);
    let _ = window(&[r; 8], usize::MAX);
    for fmt in Format::ALL {
        for v in [0, u64::MAX, 0x8000_0000_0000_0001] {
            let _ =
                (fp::fma(fmt, v, v, v), fp::fma_exact(fmt, v, v, v), fp::mul(fmt, v, v), fp::add(fmt, v, v));
            let _ = (fp::min(fmt, v, !v), fp::max(fmt, v, !v), fp::widen_to_f32(fmt, v));
        }
        for exp in [i32::MIN, -2000, 0, 2000, i32::MAX] {
            let _ = fp::round_pack(fmt, true, u128::MAX, exp);
        }
    }
}
