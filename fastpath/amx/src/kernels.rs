//! Whole-row kernels: one function per Z element format that reads a Z row, computes the ALU
//! mode on every lane at once, and writes the enabled lanes back.
//!
//! Spec: `amx-vecfp.md` §2.2 (the modes and which inputs each uses), §2.3 (the pair modes widen
//! to f32) and §2.4 (lanes that are not enabled keep their Z value), with the lane arithmetic
//! of [`crate::fp`]. The mode is matched once per row, outside the lane loop; each arm is a loop
//! over a fixed-size array with a branch-free body, which the compiler unrolls and vectorises
//! (eight f32 or four f64 lanes per AVX2 instruction). Lanes that are not enabled are computed
//! too and discarded by the blend: cheaper than a branch per lane. Mode 1 is `fma(−x, y, z)`:
//! `x` is negated before the multiply (§2.2, corsix/amx `f3582ce`).
//!
//! A kernel takes X and Y as the 64 bytes of their already-fetched vectors (window, indexed
//! expansion, shuffle and broadcast applied by `exec.rs`) and the Z row itself, so it
//! knows nothing about offsets or rows, and every load and store of a lane array is one whole
//! vector from or to memory the kernel itself reads or writes in the same shape.

use amx_reference::AluMode;

use crate::fp;

/// A lane type: an unsigned integer read and written little-endian.
pub(crate) trait Lane:
    Copy
    + Default
    + Eq
    + std::ops::BitAnd<Output = Self>
    + std::ops::BitOr<Output = Self>
    + std::ops::Not<Output = Self>
{
    /// Bytes per lane.
    const BYTES: usize;
    /// All ones if `bit` is 1, all zeros if it is 0.
    fn mask(bit: u32) -> Self;
    /// Lane `i` of `b`.
    fn read(b: &[u8], i: usize) -> Self;
    /// Sets lane `i` of `b`.
    fn write(self, b: &mut [u8], i: usize);
}

macro_rules! lane_impl {
    ($t:ty) => {
        impl Lane for $t {
            const BYTES: usize = std::mem::size_of::<$t>();
            #[inline(always)]
            fn mask(bit: u32) -> $t {
                (bit as $t & 1).wrapping_neg()
            }
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

/// The first `N` lanes of `bytes`.
#[inline(always)]
pub(crate) fn lanes<T: Lane, const N: usize>(bytes: &[u8]) -> [T; N] {
    let mut o = [T::default(); N];
    for (i, v) in o.iter_mut().enumerate() {
        *v = T::read(bytes, i);
    }
    o
}

/// Writes `new` into the lanes of `row` whose bit is set in `enable` (bit `i` for lane `i`),
/// `old` (the lanes' values before) into the others.
#[inline(always)]
pub(crate) fn blend_store<T: Lane, const N: usize>(row: &mut [u8], old: &[T; N], new: &[T; N], enable: u32) {
    let all = if N >= 32 { u32::MAX } else { (1u32 << N) - 1 };
    let mut o = *new;
    if enable & all != all {
        // Branch-free: an all-ones mask per enabled lane.
        for i in 0..N {
            let m = T::mask(enable >> i);
            o[i] = (new[i] & m) | (old[i] & !m);
        }
    }
    for (i, v) in o.iter().enumerate() {
        v.write(row, i);
    }
}

macro_rules! row_kernel {
    ($(#[$doc:meta])* $name:ident, $compute:ident, $t:ty, $n:expr, $sign:expr,
     fma: $fma:path, mul: $mul:path, add: $add:path, select: $select:path, min: $min:path, max: $max:path) => {
        /// The ALU results of every lane (see the row function beside it).
        #[inline(always)]
        pub fn $compute(alu: AluMode, x: &[$t; $n], y: &[$t; $n], z: &[$t; $n]) -> [$t; $n] {
            let mut o: [$t; $n] = [0; $n];
            match alu {
                AluMode::Fma => for i in 0..$n { o[i] = $fma(x[i], y[i], z[i]) },
                AluMode::Fms => for i in 0..$n { o[i] = $fma(x[i] ^ $sign, y[i], z[i]) },
                AluMode::Select => for i in 0..$n { o[i] = $select(x[i], y[i]) },
                AluMode::Min => for i in 0..$n { o[i] = $min(x[i], z[i]) },
                AluMode::Max => for i in 0..$n { o[i] = $max(x[i], z[i]) },
                AluMode::Mul => for i in 0..$n { o[i] = $mul(x[i], y[i]) },
                AluMode::AddX => for i in 0..$n { o[i] = $add(z[i], x[i]) },
                AluMode::AddY => for i in 0..$n { o[i] = $add(z[i], y[i]) },
            }
            o
        }

        $(#[$doc])*
        #[inline(always)]
        pub fn $name(alu: AluMode, xb: &[u8; 64], yb: &[u8; 64], row: &mut [u8; 64], enable: u32) {
            let (x, y, z): ([$t; $n], [$t; $n], [$t; $n]) = (lanes(xb), lanes(yb), lanes(row));
            let o = $compute(alu, &x, &y, &z);
            blend_store(row, &z, &o, enable);
        }
    };
}

row_kernel!(
    /// An f16 row (32 lanes): round-to-odd f32 route, see [`crate::fp`].
    f16_row, f16_lanes, u16, 32, 0x8000,
    fma: fp::f16_fma, mul: fp::f16_mul, add: fp::f16_add,
    select: fp::f16_select, min: fp::f16_min, max: fp::f16_max
);

row_kernel!(
    /// A bf16 row (32 lanes): round-to-odd f64 route, see [`crate::fp`].
    bf16_row, bf16_lanes, u16, 32, 0x8000,
    fma: fp::bf16_fma, mul: fp::bf16_mul, add: fp::bf16_add,
    select: fp::bf16_select, min: fp::bf16_min, max: fp::bf16_max
);

row_kernel!(
    /// An f32 row (16 lanes): native route.
    f32_row, f32_lanes, u32, 16, 0x8000_0000,
    fma: fp::f32_fma, mul: fp::f32_mul, add: fp::f32_add,
    select: fp::f32_select, min: fp::f32_min, max: fp::f32_max
);

row_kernel!(
    /// An f64 row (8 lanes): native route.
    f64_row, f64_lanes, u64, 8, 0x8000_0000_0000_0000,
    fma: fp::f64_fma, mul: fp::f64_mul, add: fp::f64_add,
    select: fp::f64_select, min: fp::f64_min, max: fp::f64_max
);

/// One row of a pair mode (§2.3): the row's 16 X and Y lanes (16-bit) widened to f32 by
/// `widen`, then the f32 row kernel ("x and y are first widened to f32 and the ALU op is done in
/// f32").
#[inline(always)]
pub fn pair_row(
    alu: AluMode,
    widen: impl Fn(u16) -> u32,
    xb: &[u8; 32],
    yb: &[u8; 32],
    row: &mut [u8; 64],
    enable: u32,
) {
    let (x, y, z): ([u16; 16], [u16; 16], [u32; 16]) = (lanes(xb), lanes(yb), lanes(row));
    let (mut xw, mut yw) = ([0u32; 16], [0u32; 16]);
    for i in 0..16 {
        xw[i] = widen(x[i]);
        yw[i] = widen(y[i]);
    }
    let o = f32_lanes(alu, &xw, &yw, &z);
    blend_store(row, &z, &o, enable);
}

/// The kernels of one instruction-set level: `exec.rs` runs every row through these, and
/// [`crate::simd`] provides one set per level, each compiled for its level's instructions and
/// kept out of line (a kernel inlined into the fetch code lost its clean vector loop to the
/// surrounding shuffles and cost several times more).
pub(crate) trait Kernels {
    /// The fetched vector `w` permuted by a fetch's gather: kernel lane `k` gets lane
    /// `f.gather[k]` of `w` (`N` lanes of `T`), which is byte `b` getting byte `f.bytes[b]`.
    /// The portable version moves lanes; [`crate::simd`] permutes bytes with vector shuffles.
    #[inline(always)]
    fn gather<T: Lane, const N: usize>(w: &[u8; 64], f: &crate::plan::Fetch, out: &mut [u8; 64]) {
        for (k, &g) in f.gather.iter().take(N).enumerate() {
            T::read(w, g as usize & (N - 1)).write(out, k);
        }
    }

    fn f16(alu: AluMode, x: &[u8; 64], y: &[u8; 64], row: &mut [u8; 64], enable: u32);
    fn bf16(alu: AluMode, x: &[u8; 64], y: &[u8; 64], row: &mut [u8; 64], enable: u32);
    fn f32(alu: AluMode, x: &[u8; 64], y: &[u8; 64], row: &mut [u8; 64], enable: u32);
    fn f64(alu: AluMode, x: &[u8; 64], y: &[u8; 64], row: &mut [u8; 64], enable: u32);
    fn pair_f16(alu: AluMode, x: &[u8; 32], y: &[u8; 32], row: &mut [u8; 64], enable: u32);
    fn pair_bf16(alu: AluMode, x: &[u8; 32], y: &[u8; 32], row: &mut [u8; 64], enable: u32);
}

/// The baseline target's kernels.
pub(crate) struct Portable;

impl Kernels for Portable {
    #[inline(never)]
    fn f16(alu: AluMode, x: &[u8; 64], y: &[u8; 64], row: &mut [u8; 64], enable: u32) {
        f16_row(alu, x, y, row, enable)
    }
    #[inline(never)]
    fn bf16(alu: AluMode, x: &[u8; 64], y: &[u8; 64], row: &mut [u8; 64], enable: u32) {
        bf16_row(alu, x, y, row, enable)
    }
    #[inline(never)]
    fn f32(alu: AluMode, x: &[u8; 64], y: &[u8; 64], row: &mut [u8; 64], enable: u32) {
        f32_row(alu, x, y, row, enable)
    }
    #[inline(never)]
    fn f64(alu: AluMode, x: &[u8; 64], y: &[u8; 64], row: &mut [u8; 64], enable: u32) {
        f64_row(alu, x, y, row, enable)
    }
    #[inline(never)]
    fn pair_f16(alu: AluMode, x: &[u8; 32], y: &[u8; 32], row: &mut [u8; 64], enable: u32) {
        pair_row(alu, fp::f16_to_f32, x, y, row, enable)
    }
    #[inline(never)]
    fn pair_bf16(alu: AluMode, x: &[u8; 32], y: &[u8; 32], row: &mut [u8; 64], enable: u32) {
        pair_row(alu, fp::bf16_to_f32, x, y, row, enable)
    }
}
