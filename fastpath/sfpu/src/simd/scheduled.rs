//! The cycle-level machine's copy-and-merge path (`FastMachine::run_with_scheduled_on`: a cycle in
//! which SFPLOADMACRO's scheduled instructions execute) at the SIMD level in force: an AVX-512
//! copy, else the baseline one.
//!
//! The copies reach the machine's method through [`ScheduledCycle`], which the machine implements
//! (the one implementation, so every call is static and the method, `#[inline(always)]`, is
//! compiled into each copy as it would be if named here): this file, below the machine, does not
//! name it.

use sfpu_reference::outcome::Outcome;

#[cfg(target_arch = "x86_64")]
use super::level::{Level, level};
use crate::program::Decoded;
use crate::state::FastState;

/// A machine whose copy-and-merge cycle [`run_with_scheduled`] compiles per level:
/// `FastMachine` (`crate::machine`), whose implementation must be `#[inline(always)]` so that
/// each level's copy has the body inlined with its features.
pub(crate) trait ScheduledCycle {
    /// A machine cycle in which scheduled SFPLOADMACRO instructions execute (the copy-and-merge
    /// path): `FastMachine::run_with_scheduled_on`.
    fn run_scheduled_cycle(
        &mut self,
        s: &mut FastState,
        due: u64,
        issued: Option<&Decoded>,
        executes: Option<&Decoded>,
        issued_hazard: bool,
        out: &mut Outcome,
    );
}

/// The machine `m`'s copy-and-merge cycle ([`ScheduledCycle::run_scheduled_cycle`]) compiled for
/// AVX-512 when that is the level in force, else the baseline copy.
pub(crate) fn run_with_scheduled<M: ScheduledCycle>(
    m: &mut M,
    s: &mut FastState,
    due: u64,
    issued: Option<&Decoded>,
    executes: Option<&Decoded>,
    issued_hazard: bool,
    out: &mut Outcome,
) {
    #[cfg(target_arch = "x86_64")]
    match level() {
        // SAFETY: as in `execute`: `Avx512` only after `avx512_available`.
        Level::Avx512 => {
            return unsafe {
                x86::run_with_scheduled_avx512(m, s, due, issued, executes, issued_hazard, out)
            };
        }
        // The AVX2 copy was slower than the baseline one (its merges became `vpmaskmovd`
        // stores; see `masked_stores_are_slow`), so AVX2 runs the baseline copy.
        Level::Avx2 | Level::Portable | Level::Neon => {}
    }
    m.run_scheduled_cycle(s, due, issued, executes, issued_hazard, out)
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use sfpu_reference::outcome::Outcome;

    use super::ScheduledCycle;
    use crate::program::Decoded;
    use crate::state::FastState;

    /// [`super::run_with_scheduled`]'s AVX-512 copy (features as [`execute_avx512`]).
    #[target_feature(
        enable = "avx512f,avx512cd,avx512bw,avx512vl,avx512dq,avx512vbmi2,avx2,fma,bmi1,bmi2,lzcnt,popcnt"
    )]
    #[inline(never)]
    pub fn run_with_scheduled_avx512<M: ScheduledCycle>(
        m: &mut M,
        s: &mut FastState,
        due: u64,
        issued: Option<&Decoded>,
        executes: Option<&Decoded>,
        issued_hazard: bool,
        out: &mut Outcome,
    ) {
        m.run_scheduled_cycle(s, due, issued, executes, issued_hazard, out)
    }
}
