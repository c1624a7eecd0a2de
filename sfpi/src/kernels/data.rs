//! Data movement: the minimum and maximum of two tiles, a sorting network step with
//! `vec_min_max`, and the cross-lane calls.

use super::def::{InputRange, KernelDef, Numeric, OutputKind, TileInput, TileOutput, Ulp, both};
use crate::tile::TileFormat;
use crate::*;

fn min_max() {
    let mut a = vFloat::from(dst_reg[0]);
    let mut b = vFloat::from(dst_reg[32]);
    vec_min_max(&mut a, &mut b);
    dst_reg[0].set(a);
    dst_reg[32].set(b);
}

/// Sorts the four tiles at `dst_reg[0]`, `[32]`, `[64]`, `[96]` lane by lane, ascending, with the
/// five comparators of the optimal 4-input network: (0,1) (2,3) (0,2) (1,3) (1,2).
fn sort4() {
    let mut v = [0, 32, 64, 96].map(|n| vFloat::from(dst_reg[n]));
    for (i, j) in [(0, 1), (2, 3), (0, 2), (1, 3), (1, 2)] {
        let (mut lo, mut hi) = (v[i], v[j]);
        vec_min_max(&mut lo, &mut hi);
        v[i] = lo;
        v[j] = hi;
    }
    for (k, n) in [0, 32, 64, 96].into_iter().enumerate() {
        dst_reg[n].set(v[k]);
    }
}

/// Every cross-lane call: `subvec_shflror1`, `subvec_shflshr1`, `subvec_transp`, `vec_swap`.
fn shuffle() {
    let a = vFloat::from(dst_reg[0]);
    dst_reg[0].set(subvec_shflror1(a));
    let b = vFloat::from(dst_reg[1]);
    dst_reg[1].set(subvec_shflshr1(b));
    let mut t = [2, 3, 4, 5].map(|n| vFloat::from(dst_reg[n]));
    let [p, q, r, s] = &mut t;
    subvec_transp(p, q, r, s);
    for (k, n) in [2, 3, 4, 5].into_iter().enumerate() {
        dst_reg[n].set(t[k]);
    }
    let mut x = vFloat::from(dst_reg[6]);
    let mut y = vFloat::from(dst_reg[7]);
    vec_swap(&mut x, &mut y);
    dst_reg[6].set(x);
    dst_reg[7].set(y);
}

fn tiles(bases: &[u32]) -> Vec<TileInput> {
    bases
        .iter()
        .map(|&base| TileInput {
            base,
            format: TileFormat::Fp32,
            range: InputRange::Uniform { lo: -100.0, hi: 100.0 },
            specials: vec![0.0, -0.0, 1.0, -1.0, 100.0, -100.0],
        })
        .collect()
}

fn outs(bases: &[u32]) -> Vec<TileOutput> {
    bases.iter().map(|&base| TileOutput { base, format: TileFormat::Fp32, kind: OutputKind::Float }).collect()
}

/// The kernels of this module.
pub fn kernels() -> Vec<KernelDef> {
    vec![
        KernelDef {
            name: "min_max",
            description: "min and max of two tiles (vec_min_max): the minimum to dst_reg[0], the maximum to [32]",
            chips: both(),
            inputs: tiles(&[0, 32]),
            outputs: outs(&[0, 32]),
            record: || Kernel::record("min_max", min_max),
            numeric: Some(Numeric {
                oracle: |x| x[0].min(x[1]),
                ulp: Ulp::Output,
                max_ulp: 0.0,
                mean_ulp: 0.0,
                why: "exact: SFPSWAP selects",
            }),
        },
        KernelDef {
            name: "sort4",
            description: "a sorting network step over four tiles, lane by lane, with vec_min_max",
            chips: both(),
            inputs: tiles(&[0, 32, 64, 96]),
            outputs: outs(&[0, 32, 64, 96]),
            record: || Kernel::record("sort4", sort4),
            numeric: Some(Numeric {
                oracle: |x| x.iter().copied().fold(f64::INFINITY, f64::min),
                ulp: Ulp::Output,
                max_ulp: 0.0,
                mean_ulp: 0.0,
                why: "exact: SFPSWAP selects",
            }),
        },
        KernelDef {
            name: "data/shuffle",
            description: "subvec_shflror1, subvec_shflshr1, subvec_transp and vec_swap on tile rows",
            chips: both(),
            inputs: tiles(&[0]),
            outputs: outs(&[0]),
            record: || Kernel::record("data/shuffle", shuffle),
            numeric: None,
        },
    ]
}
