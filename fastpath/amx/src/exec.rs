//! Running a [`Plan`] on a state: per iteration, fetch X and Y as whole lane arrays, load the Z
//! row (or row pair), run the kernel on every lane, and write the enabled lanes back.
//!
//! Spec: `amx-vecfp.md` §2.1 (the loop), §2.3 (Z placement), §2.7 (window, indexed expand). The
//! order of the flow's steps per lane does not matter (§2.1: lanes and iterations touch
//! disjoint Z slots and X/Y are never written), which is what allows computing every lane of
//! a row at once and blending.
//!
//! * **Window**: two `copy_from_slice` of the flattened 512-byte pool (the second only when the
//!   window wraps past byte 511), then the lanes are read little-endian in one loop.
//! * **Indexed**: the first 16 bytes of the window are one little-endian `u128`, so lane `j`'s
//!   index is `(bits >> j·ib) & (2^ib − 1)`; the expansion and the shuffle are one gather from
//!   the table register's lanes (`table[index[gather[k]] mod EC]`).
//! * **Blend**: with every lane enabled (the common case) the result row is stored whole;
//!   otherwise `enabled ? new : old` per lane, branch-free.
//!
//! Everything here is `#[inline(always)]` so that [`crate::simd`] can compile it once per
//! instruction-set level.

use amx_reference::State;

use crate::kernels;
use crate::plan::{Fetch, Kernel, Op, Source};

/// A lane type: an unsigned integer read and written little-endian.
trait Lane: Copy + Default + Eq {
    const BYTES: usize;
    fn read(b: &[u8], i: usize) -> Self;
    fn write(self, b: &mut [u8], i: usize);
}

macro_rules! lane_impl {
    ($t:ty) => {
        impl Lane for $t {
            const BYTES: usize = std::mem::size_of::<$t>();
            #[inline(always)]
            fn read(b: &[u8], i: usize) -> $t {
                let mut a = [0u8; std::mem::size_of::<$t>()];
                a.copy_from_slice(&b[i * Self::BYTES..(i + 1) * Self::BYTES]);
                <$t>::from_le_bytes(a)
            }
            #[inline(always)]
            fn write(self, b: &mut [u8], i: usize) {
                b[i * Self::BYTES..(i + 1) * Self::BYTES].copy_from_slice(&self.to_le_bytes());
            }
        }
    };
}
lane_impl!(u16);
lane_impl!(u32);
lane_impl!(u64);

/// The `N` lanes of a 64-byte register.
#[inline(always)]
fn lanes<T: Lane, const N: usize>(reg: &[u8; 64]) -> [T; N] {
    let mut o = [T::default(); N];
    for (i, v) in o.iter_mut().enumerate() {
        *v = T::read(reg, i);
    }
    o
}

/// Writes `new` into the lanes of `reg` whose bit is set in `enable` (bit `k` for lane `k`).
#[inline(always)]
fn store<T: Lane, const N: usize>(reg: &mut [u8; 64], old: &[T; N], new: &[T; N], enable: u32) {
    let all = if N == 32 { u32::MAX } else { (1u32 << N) - 1 };
    if enable & all == all {
        for (i, v) in new.iter().enumerate() {
            v.write(reg, i);
        }
    } else {
        for i in 0..N {
            let v = if (enable >> i) & 1 != 0 { new[i] } else { old[i] };
            v.write(reg, i);
        }
    }
}

/// The 64-byte window at byte `off` of a pool seen as one circular 512-byte buffer (§2.7).
#[inline(always)]
fn window(pool: &[[u8; 64]; 8], off: u16) -> [u8; 64] {
    let flat = pool.as_flattened();
    let off = off as usize & 511;
    let head = (512 - off).min(64);
    let mut w = [0u8; 64];
    w[..head].copy_from_slice(&flat[off..off + head]);
    w[head..].copy_from_slice(&flat[..64 - head]);
    w
}

/// One operand's `N` kernel lanes in iteration `it` (`N` = EC, the fetched lane count).
#[inline(always)]
fn fetch<T: Lane, const N: usize>(f: &Fetch, pool: &[[u8; 64]; 8], it: usize) -> [T; N] {
    match f.source {
        Source::Zero => [T::default(); N],
        Source::Window => {
            let fetched: [T; N] = lanes(&window(pool, f.off[it & 3]));
            if f.identity {
                fetched
            } else {
                let mut o = [T::default(); N];
                for k in 0..N {
                    o[k] = fetched[f.gather[k] as usize & (N - 1)];
                }
                o
            }
        }
        Source::Indexed { tbl, ib } => {
            let w = window(pool, f.off[it & 3]);
            let mut head = [0u8; 16];
            head.copy_from_slice(&w[..16]);
            let bits = u128::from_le_bytes(head);
            let ib = (ib & 7) as usize;
            let mask = (1u128 << ib) - 1;
            let table: [T; N] = lanes(&pool[tbl as usize & 7]);
            let mut o = [T::default(); N];
            for k in 0..N {
                let j = f.gather[k] as usize & (N - 1);
                let index = ((bits >> ((j * ib) & 127)) & mask) as usize;
                o[k] = table[index & (N - 1)]; // `mod EC` (§2.7): only f64 with 4-bit indices wraps
            }
            o
        }
    }
}

/// One iteration of a one-row width: fetch, compute, blend, store.
#[inline(always)]
fn one_row<T: Lane, const N: usize>(
    op: &Op,
    s: &mut State,
    it: usize,
    kernel: impl Fn(&[T; N], &[T; N], &[T; N]) -> [T; N],
) {
    let r = op.rows[it & 3] as usize & 63;
    let old: [T; N] = lanes(&s.Z[r]);
    let new = if op.zero_out {
        [T::default(); N]
    } else {
        let x: [T; N] = fetch(&op.x, &s.X, it);
        let y: [T; N] = fetch(&op.y, &s.Y, it);
        kernel(&x, &y, &old)
    };
    store(&mut s.Z[r], &old, &new, op.enable);
}

/// One iteration of a pair mode: X and Y as 32 16-bit lanes in kernel order (even X lanes, then
/// odd), widened to f32; the first half is the even row's f32 kernel, the second the odd row's.
#[inline(always)]
fn pair_rows(op: &Op, s: &mut State, it: usize, widen: impl Fn(&[u16; 32]) -> [u32; 32]) {
    let even = op.rows[it & 3] as usize & 62;
    let (x, y) = if op.zero_out {
        ([0u32; 32], [0u32; 32])
    } else {
        (widen(&fetch::<u16, 32>(&op.x, &s.X, it)), widen(&fetch::<u16, 32>(&op.y, &s.Y, it)))
    };
    for (half, row) in [(0usize, even), (1, even | 1)] {
        let enable = (op.enable >> (16 * half)) & 0xFFFF;
        if enable == 0 {
            continue;
        }
        let old: [u32; 16] = lanes(&s.Z[row]);
        let new = if op.zero_out {
            [0u32; 16]
        } else {
            let pick = |v: &[u32; 32]| -> [u32; 16] { std::array::from_fn(|k| v[16 * half + k]) };
            kernels::f32_row(op.alu, &pick(&x), &pick(&y), &old)
        };
        store(&mut s.Z[row], &old, &new, enable);
    }
}

/// Runs `op` on `s`. Inlined into each instruction-set level's copy ([`crate::simd`]).
#[inline(always)]
pub(crate) fn run_op(op: &Op, s: &mut State) {
    let alu = op.alu;
    let iters = op.iters.min(4) as usize;
    match op.kernel {
        Kernel::F16 => {
            for it in 0..iters {
                one_row::<u16, 32>(op, s, it, |x, y, z| kernels::f16_row(alu, x, y, z));
            }
        }
        Kernel::Bf16 => {
            for it in 0..iters {
                one_row::<u16, 32>(op, s, it, |x, y, z| kernels::bf16_row(alu, x, y, z));
            }
        }
        Kernel::F32 => {
            for it in 0..iters {
                one_row::<u32, 16>(op, s, it, |x, y, z| kernels::f32_row(alu, x, y, z));
            }
        }
        Kernel::F64 => {
            for it in 0..iters {
                one_row::<u64, 8>(op, s, it, |x, y, z| kernels::f64_row(alu, x, y, z));
            }
        }
        Kernel::PairF16 => {
            for it in 0..iters {
                pair_rows(op, s, it, kernels::widen_f16);
            }
        }
        Kernel::PairBf16 => {
            for it in 0..iters {
                pair_rows(op, s, it, kernels::widen_bf16);
            }
        }
        Kernel::PlantedBf16ViaF32 => {
            for it in 0..iters {
                one_row::<u16, 32>(op, s, it, |x, y, z| crate::planted::bf16_row_via_f32(alu, x, y, z));
            }
        }
    }
}
