//! Running a [`Plan`](crate::Plan) on a state: per iteration, fetch X and Y as whole lane
//! arrays, load the Z row (or row pair), run the kernel on every lane, and write the enabled
//! lanes back.
//!
//! Spec: `amx-vecfp.md` §2.1 (the loop), §2.3 (Z placement), §2.7 (window, indexed expand). The
//! order of the flow's steps per lane does not matter (§2.1: lanes and iterations touch
//! disjoint Z slots and X/Y are never written), which is what allows computing every lane of
//! a row at once and blending.
//!
//! * **Window**: borrowed straight from the flattened 512-byte pool when it does not wrap, a
//!   two-piece copy when it wraps past byte 511.
//! * **Gather**: one table lookup per kernel lane (the plan's table composes shuffle, broadcast
//!   and pair interleave), skipped when the table is the identity.
//! * **Indexed**: the first 16 bytes of the window are one little-endian `u128`, so lane `j`'s
//!   index is `(bits >> j·ib) & (2^ib − 1)`; the expansion and the shuffle are one gather from
//!   the table register's lanes (`table[index[gather[k]] mod EC]`).
//! * **Kernel**: an out-of-line call ([`Kernels`]) with the two operand vectors and the Z row;
//!   it reads the row, computes every lane, blends the enabled lanes in and writes the row, so it
//!   compiles to one clean vector loop and every array it touches is loaded and stored whole.
//!
//! The runners are generic over the kernels and `#[inline(always)]`, so that [`crate::simd`] can
//! compile them once per instruction-set level.

use amx_reference::State;

use crate::kernels::{Kernels, Lane};
use crate::plan::{Fetch, Kernel, Op, Source};

/// The operand of a [`Source::Zero`] fetch.
static ZEROS: [u8; 64] = [0; 64];

/// The 64-byte window at byte `off` of a pool seen as one circular 512-byte buffer (§2.7):
/// borrowed from the pool when it does not wrap, copied in two pieces into `spare` when it does.
#[inline(always)]
fn window<'a>(pool: &'a [[u8; 64]; 8], off: u16, spare: &'a mut [u8; 64]) -> &'a [u8; 64] {
    let flat = pool.as_flattened();
    let off = off as usize & 511;
    match flat[off..].first_chunk::<64>() {
        Some(direct) => direct,
        None => {
            let head = 512 - off;
            spare[..head].copy_from_slice(&flat[off..]);
            spare[head..].copy_from_slice(&flat[..64 - head]);
            spare
        }
    }
}

/// One operand's vector in iteration `it`, as `N` lanes of `T` (`N` = EC) in kernel lane order:
/// borrowed straight from the pool when it needs no gather and does not wrap, otherwise built
/// in `buf`.
#[inline(always)]
fn fetch<'a, K: Kernels, T: Lane, const N: usize>(
    f: &Fetch,
    pool: &'a [[u8; 64]; 8],
    it: usize,
    buf: &'a mut [u8; 64],
) -> &'a [u8; 64] {
    match f.source {
        Source::Zero => &ZEROS,
        Source::Window if f.identity => window(pool, f.off[it & 3], buf),
        Source::Window => {
            gather_window::<K, T, N>(f, pool, it, buf);
            buf
        }
        Source::Indexed { tbl, ib } => {
            gather_indexed::<T, N>(f, pool, it, tbl, ib, buf);
            buf
        }
    }
}

/// A window's lanes through the plan's gather table into `buf`. Out of line: inlined, the
/// compiler hoisted the table's 32 entries into registers before the loop of every operand,
/// needed or not.
#[inline(never)]
fn gather_window<K: Kernels, T: Lane, const N: usize>(
    f: &Fetch,
    pool: &[[u8; 64]; 8],
    it: usize,
    buf: &mut [u8; 64],
) {
    let mut spare = [0u8; 64];
    let w = window(pool, f.off[it & 3], &mut spare);
    K::gather::<T, N>(w, f, buf);
}

/// An indexed operand into `buf` (§2.7): the indices are at most 32 × 4 bits, the window's first
/// 16 bytes, read as one `u128`; kernel lane `k` gets table lane `index[gather[k]] mod EC`.
#[inline(never)]
fn gather_indexed<T: Lane, const N: usize>(
    f: &Fetch,
    pool: &[[u8; 64]; 8],
    it: usize,
    tbl: u8,
    ib: u8,
    buf: &mut [u8; 64],
) {
    let mut spare = [0u8; 64];
    let w = window(pool, f.off[it & 3], &mut spare);
    let bits = u128::from_le_bytes(*w.first_chunk::<16>().unwrap_or(&[0; 16]));
    let ib = (ib & 7) as usize;
    let mask = (1u128 << ib) - 1;
    let table = &pool[tbl as usize & 7];
    for (k, &g) in f.gather.iter().take(N).enumerate() {
        let j = g as usize & (N - 1);
        let index = ((bits >> ((j * ib) & 127)) & mask) as usize;
        // `mod EC` (§2.7): only f64 with 4-bit indices wraps.
        T::read(table, index & (N - 1)).write(buf, k);
    }
}

/// Every iteration of a one-row width: fetch X and Y, then the kernel on the Z row.
#[inline(always)]
fn one_row<K: Kernels, T: Lane, const N: usize>(
    op: &Op,
    s: &mut State,
    kernel: impl Fn(&[u8; 64], &[u8; 64], &mut [u8; 64], u32),
) {
    for it in 0..(op.iters.min(4) as usize) {
        let row = &mut s.Z[op.rows[it & 3] as usize & 63];
        if op.zero_out {
            crate::kernels::blend_store::<T, N>(row, &[T::default(); N], &[T::default(); N], op.enable);
            continue;
        }
        let (mut xb, mut yb) = ([0u8; 64], [0u8; 64]);
        let x = fetch::<K, T, N>(&op.x, &s.X, it, &mut xb);
        let y = fetch::<K, T, N>(&op.y, &s.Y, it, &mut yb);
        kernel(x, y, row, op.enable);
    }
}

/// Every iteration of a pair mode: X and Y as 32 16-bit lanes in kernel order (the even X
/// lanes, then the odd ones); the first 32 bytes go to the even row's kernel, the rest to the
/// odd row's.
#[inline(always)]
fn pair_rows<K: Kernels>(op: &Op, s: &mut State, kernel: impl Fn(&[u8; 32], &[u8; 32], &mut [u8; 64], u32)) {
    for it in 0..(op.iters.min(4) as usize) {
        let even = op.rows[it & 3] as usize & 62;
        let (mut xb, mut yb) = ([0u8; 64], [0u8; 64]);
        let x = fetch::<K, u16, 32>(&op.x, &s.X, it, &mut xb);
        let y = fetch::<K, u16, 32>(&op.y, &s.Y, it, &mut yb);
        let (x_even, x_odd) = x.split_at(32);
        let (y_even, y_odd) = y.split_at(32);
        for (row, xh, yh, enable) in
            [(even, x_even, y_even, op.enable & 0xFFFF), (even | 1, x_odd, y_odd, op.enable >> 16)]
        {
            if enable == 0 {
                continue;
            }
            let row = &mut s.Z[row];
            if op.zero_out {
                crate::kernels::blend_store::<u32, 16>(row, &[0; 16], &[0; 16], enable);
            } else {
                let (xh, yh) = (xh.first_chunk().unwrap_or(&[0; 32]), yh.first_chunk().unwrap_or(&[0; 32]));
                kernel(xh, yh, row, enable);
            }
        }
    }
}

/// Runs `op` on `s` with the kernels `K`. Inlined into each instruction-set level's copy
/// ([`crate::simd`]).
#[inline(always)]
pub(crate) fn run_op<K: Kernels>(op: &Op, s: &mut State) {
    let alu = op.alu;
    match op.kernel {
        Kernel::F16 => one_row::<K, u16, 32>(op, s, |x, y, row, e| K::f16(alu, x, y, row, e)),
        Kernel::Bf16 => one_row::<K, u16, 32>(op, s, |x, y, row, e| K::bf16(alu, x, y, row, e)),
        Kernel::F32 => one_row::<K, u32, 16>(op, s, |x, y, row, e| K::f32(alu, x, y, row, e)),
        Kernel::F64 => one_row::<K, u64, 8>(op, s, |x, y, row, e| K::f64(alu, x, y, row, e)),
        Kernel::PairF16 => pair_rows::<K>(op, s, |x, y, row, e| K::pair_f16(alu, x, y, row, e)),
        Kernel::PairBf16 => pair_rows::<K>(op, s, |x, y, row, e| K::pair_bf16(alu, x, y, row, e)),
        Kernel::PlantedBf16ViaF32 => {
            one_row::<K, u16, 32>(op, s, |x, y, row, e| crate::planted::bf16_row_via_f32(alu, x, y, row, e))
        }
    }
}
