//! The instruction families of the fast model, one module per family; each module names the
//! instruction pages it implements, and this module holds the helpers they share (masked result
//! writes, `INDIRECT_VA` gathers, `BooleanOp` of `SFPPUSHC.md` / `SFPPOPC.md`). Every function
//! executes one instruction over all 32 lanes at once: lane predicates are `u32` masks, results
//! are computed for every lane with straight-line code and merged with masked blends, so there are
//! no per-lane branches in the hot paths.
//!
//! Layout, as the documentation shares its pages between the chips:
//! * the modules here transcribe the pages both chips share, once; where such a page says
//!   something holds on one chip only, the chip is checked at that point ([`FastState::arch`]:
//!   the FMA model of [`mad`] and [`lut`], Blackhole's negation bits, SFPSTOCHRND's rounding-mode
//!   width, Blackhole's `Dst` row remapping);
//! * [`blackhole`] and [`wormhole`] hold each chip's own version of the pages that differ
//!   (SFPLOAD, SFPSTORE, SFPSHFT, SFPAND, SFPOR, SFPPUSHC, SFPPOPC, SFPCAST, SFPSHFT2), in the same
//!   shape, and Blackhole's own instructions (SFPGT, SFPLE, SFPMUL24, SFPARECIP).
//!
//! A third chip would be a third folder beside these two; `exec/models.rs` is the one place that picks a
//! chip's function for an instruction.

pub mod blackhole;
pub mod cc;
pub mod config;
pub mod convert;
pub mod field;
pub mod integer;
pub mod load_store;
pub mod lut;
pub mod mad;
pub mod mov;
pub mod shuffle;
pub mod wormhole;

use crate::state::{FastState, blend};

/// Writes `d` to `LReg[vd]` in the lanes of `m`, or, with `indirect` (the `INDIRECT_VD` modes) and
/// `vd != 16`, to `LReg[LReg[7] & 15]` lane by lane, where only destinations 0..7 are written
/// (the pages' `if (vd < 8 || vd == 16)` with `vd` from `LReg[7]`, which is never 16).
///
/// `LReg[7]` is read before any lane is written, as each lane of the model reads its own
/// `LReg[7]` before its own write. Each register is blended whole (the mask from
/// [`crate::state::blend_mask`]); when every lane names the same register
/// ([`indirect_register`]), only that one.
#[inline(always)]
pub(crate) fn write_result(s: &mut FastState, vd: usize, indirect: bool, d: &[u32; 32], m: u32) {
    if m == 0 {
        return;
    }
    let vd = if indirect && vd != 16 {
        match indirect_register(s) {
            Some(r) => r,
            None => return crate::simd::write_indirect(&mut s.lreg, d, m),
        }
    } else {
        vd
    };
    if vd < 8 || vd == 16 {
        blend(&mut s.lreg[vd], d, m);
    }
}

/// The register that every lane's `LReg[7] & 15` names, when all 32 name the same one: then the
/// indirect modes read or write that register whole, as their plain forms do (the pages' lanes
/// each name their own register, which here is one for all). Kernels set `LReg[7]` this way
/// (Tenstorrent's fast BF16 reciprocal loads one register number into it with SFPLOADI and
/// writes through `INDIRECT_VD` from an SFPLOADMACRO template); a register of per-lane
/// indices takes the gather ([`crate::simd::gather_indirect`]) and the per-register writes
/// ([`crate::simd::write_indirect`]). Lanes 0 and 31 compared, then one OR over all 32 (which
/// the compiler vectorises).
#[inline(always)]
pub(crate) fn indirect_register(s: &FastState) -> Option<usize> {
    let sel = &s.lreg[7];
    let first = sel[0];
    // Two lanes first: per-lane indices seldom agree there, and this costs less than the OR.
    if (sel[31] ^ first) & 15 != 0 {
        return None;
    }
    let differ = sel.iter().fold(0, |acc, &v| acc | (v ^ first));
    (differ & 15 == 0).then_some((first & 15) as usize)
}

/// `LReg[LReg[7] & 15]` per lane (the `INDIRECT_VA` operand; `simd::gather_indirect`, or the one
/// register all lanes name: [`indirect_register`]).
#[inline(always)]
pub(crate) fn gather_indirect(s: &FastState) -> [u32; 32] {
    match indirect_register(s) {
        Some(r) => s.lreg[r],
        None => crate::simd::gather_indirect(&s.lreg),
    }
}

/// `BooleanOp(Mod1, A, B)` of `SFPPUSHC.md` / `SFPPOPC.md` on whole lane masks. Only called with
/// `1 <= mod1 <= 12`.
#[inline(always)]
pub(crate) fn boolean_op(mod1: u32, a: u32, b: u32) -> u32 {
    match mod1 {
        1 => b,
        2 => !b,
        3 => a & b,
        4 => a | b,
        5 => a & !b,
        6 => a | !b,
        7 => !a & b,
        8 => !a | b,
        9 => !a & !b,
        10 => !a | !b,
        11 => a ^ b,
        _ => !(a ^ b),
    }
}
