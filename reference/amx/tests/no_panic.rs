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
