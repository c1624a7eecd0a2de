//! Run-time selection of the instruction-set level the data path runs with.
//!
//! Why: the default `x86_64` target promises only SSE2. There, `f32::mul_add` and
//! `f64::mul_add` are calls of the C library's `fmaf`/`fma` (correct, but one call per lane),
//! and the integer parts of the f16/bf16 routes (64-bit variable shifts and compares in
//! [`crate::fp::narrow`]) have no vector form. With AVX2 and FMA, `mul_add` is one `vfmadd`
//! instruction over four f64 or eight f32 lanes and the narrowing vectorises too.
//!
//! How: the whole execution of a plan ([`crate::exec`], with the kernels and lane arithmetic it
//! inlines) is compiled twice from the same source: once for the baseline target and once inside
//! a `#[target_feature(enable = "avx2,fma,f16c,bmi1,bmi2,lzcnt")]` function. Which copy runs is
//! decided per instruction from [`level`], which asks the CPU once
//! (`is_x86_feature_detected!`). The one `unsafe` of the crate is the call of that function after
//! the check that makes it sound. Both copies compute the same function by construction (one
//! source, IEEE operations whose results do not depend on the instructions chosen); the test
//! `tests/simd.rs` runs every level the machine has against the portable one anyway, on random
//! operands and states and on the edge cases of every format. `AMX_FASTPATH_PORTABLE=1` (or
//! [`set_level`]) forces the portable copy everywhere.

#![allow(unsafe_code, reason = "the one call of a #[target_feature] function, after detection")]

use std::sync::atomic::{AtomicU8, Ordering};

use amx_reference::State;

use crate::plan::Op;

/// Which copy of the data path runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Level {
    /// The baseline target's code (SSE2 on `x86_64`): always available.
    Portable,
    /// AVX2 + FMA + F16C code, only on a CPU that has all three.
    Avx2,
}

impl Level {
    /// Every level, the portable one first.
    pub const ALL: [Level; 2] = [Level::Portable, Level::Avx2];

    /// Whether this CPU can run the level.
    pub fn available(self) -> bool {
        match self {
            Level::Portable => true,
            Level::Avx2 => avx2_available(),
        }
    }

    /// The levels this CPU can run.
    pub fn supported() -> Vec<Level> {
        Level::ALL.into_iter().filter(|l| l.available()).collect()
    }
}

/// 0: not decided yet; otherwise `1 + Level as u8`.
static LEVEL: AtomicU8 = AtomicU8::new(0);

/// The level [`crate::vecfp`] and [`crate::Plan::run`] use: the best this CPU has, unless
/// [`set_level`] or `AMX_FASTPATH_PORTABLE=1` chose [`Level::Portable`].
#[inline]
pub fn level() -> Level {
    match LEVEL.load(Ordering::Relaxed) {
        1 => Level::Portable,
        2 => Level::Avx2,
        _ => {
            let forced = std::env::var_os("AMX_FASTPATH_PORTABLE").is_some_and(|v| !v.is_empty() && v != "0");
            let l = if !forced && avx2_available() { Level::Avx2 } else { Level::Portable };
            LEVEL.store(1 + l as u8, Ordering::Relaxed);
            l
        }
    }
}

/// Chooses the level for the whole process (benchmarks); a level the CPU lacks falls back to
/// [`Level::Portable`]. Returns the level now in force. Results never depend on the level.
pub fn set_level(want: Level) -> Level {
    let l = if want.available() { want } else { Level::Portable };
    LEVEL.store(1 + l as u8, Ordering::Relaxed);
    l
}

/// Whether this CPU can run [`Level::Avx2`].
pub fn avx2_available() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx2")
            && std::arch::is_x86_feature_detected!("fma")
            && std::arch::is_x86_feature_detected!("f16c")
            && std::arch::is_x86_feature_detected!("bmi1")
            && std::arch::is_x86_feature_detected!("bmi2")
            && std::arch::is_x86_feature_detected!("lzcnt")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Runs `op` on `s` with `level`'s copy, or with the portable copy when the CPU lacks `level`.
#[inline]
pub(crate) fn run_at(level: Level, op: &Op, s: &mut State) {
    match level {
        #[cfg(target_arch = "x86_64")]
        Level::Avx2 if avx2_available_cached() => {
            // SAFETY: the only requirement of a `#[target_feature]` function is that the CPU has
            // the features it enables; `avx2_available_cached` has just confirmed all of them.
            unsafe { x86::run_op_avx2(op, s) }
        }
        _ => crate::exec::run_op(op, s),
    }
}

/// [`avx2_available`], asked of the CPU once (`is_x86_feature_detected!` caches each feature
/// itself, but six lookups per instruction would show in the profile).
#[inline]
fn avx2_available_cached() -> bool {
    static AVX2: AtomicU8 = AtomicU8::new(0);
    match AVX2.load(Ordering::Relaxed) {
        1 => false,
        2 => true,
        _ => {
            let a = avx2_available();
            AVX2.store(1 + a as u8, Ordering::Relaxed);
            a
        }
    }
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use amx_reference::State;

    use crate::plan::Op;

    /// [`crate::exec::run_op`] compiled with AVX2, FMA and F16C (everything below it is
    /// `#[inline(always)]`, so its whole body is compiled here with those features).
    #[target_feature(enable = "avx2,fma,f16c,bmi1,bmi2,lzcnt")]
    pub fn run_op_avx2(op: &Op, s: &mut State) {
        crate::exec::run_op(op, s)
    }
}
