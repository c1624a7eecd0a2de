//! The cycle-level machine's copy-and-merge path (`FastMachine::run_with_scheduled_on`: a cycle in
//! which SFPLOADMACRO's scheduled instructions execute) at the SIMD level in force: an AVX-512
//! copy, else the baseline one.
//!
//! One of the two import circles left in the crate (the crate docs say which): this copy names
//! the machine's method and the machine calls this selector (`crate::machine` <-> here), as a
//! per-level copy of a method must name its type. Breaking it would take `unsafe` outside `simd`
//! or a generic seam in the machine's hottest path.

use sfpu_reference::outcome::Outcome;

#[cfg(target_arch = "x86_64")]
use super::level::{Level, level};
use crate::state::FastState;

/// `FastMachine::run_with_scheduled_on` (a machine cycle in which scheduled SFPLOADMACRO
/// instructions execute: the copy-and-merge path) compiled for AVX-512 when that is the level in
/// force, else the baseline copy.
pub(crate) fn run_with_scheduled(
    m: &mut crate::machine::FastMachine,
    s: &mut FastState,
    due: u64,
    issued: Option<&crate::program::Decoded>,
    executes: Option<&crate::program::Decoded>,
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
    m.run_with_scheduled_on(s, due, issued, executes, issued_hazard, out)
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use sfpu_reference::outcome::Outcome;

    use crate::state::FastState;

    /// [`super::run_with_scheduled`]'s AVX-512 copy (features as [`execute_avx512`]).
    #[target_feature(
        enable = "avx512f,avx512cd,avx512bw,avx512vl,avx512dq,avx512vbmi2,avx2,fma,bmi1,bmi2,lzcnt,popcnt"
    )]
    #[inline(never)]
    pub fn run_with_scheduled_avx512(
        m: &mut crate::machine::FastMachine,
        s: &mut FastState,
        due: u64,
        issued: Option<&crate::program::Decoded>,
        executes: Option<&crate::program::Decoded>,
        issued_hazard: bool,
        out: &mut Outcome,
    ) {
        m.run_with_scheduled_on(s, due, issued, executes, issued_hazard, out)
    }
}
