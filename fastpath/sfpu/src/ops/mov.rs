//! SFPMOV: register moves, negation, all-lanes moves, and reads of configuration and PRNG.
//! (SFPNOP, the other "move nothing" instruction, has no effect and is handled in `exec/models.rs`.)
//!
//! Implements WormholeB0 `SFPMOV.md` (the BlackholeA0 page is a stub pointing there) and
//! `SFPNOP.md`.

use sfpu_reference::outcome::{Clause, Outcome};

use crate::exec::{Ctx, w8};
use crate::state::{FastState, blend};

/// SFPMOV: `NEGATE` (1), `ALL_LANES_ENABLED` (2, only when Mod1 is exactly 2 after the reserved
/// bit is cleared), `FROM_SPECIAL` (8: VC selects a template, a sequence, Misc, the PRNG, or
/// LaneConfig; 0 otherwise; `NEGATE` not applied on that path). Reserved bit 2 is cleared
/// (NonContractual current-silicon behaviour).
#[inline(always)]
pub fn sfpmov(s: &mut FastState, vc: u32, vd: u32, mod1: u32, cx: &Ctx, out: &mut Outcome) {
    let mut mod1 = mod1;
    if mod1 & 4 != 0 {
        out.note_all(Clause::SfpmovReservedMod1);
        mod1 &= !4;
    }
    let vd = cx.vd(vd);
    let vc = cx.vc(vc);
    let en = if mod1 == 2 { !0 } else { s.enabled() };
    let m = cx.g12(s, vd) & en;
    if m == 0 {
        return;
    }
    let x: [u32; 32] = if mod1 & 8 != 0 {
        match vc {
            0..=3 => s.lmc.template[vc],
            4..=7 => s.lmc.sequence[vc - 4],
            8 => s.lmc.misc,
            9 => s.advance_prng(m),
            15 => *s.lane_configs(),
            _ => [0; 32],
        }
    } else {
        let mut x = s.lreg[vc];
        if mod1 & 1 != 0 {
            for v in x.iter_mut() {
                *v ^= 0x8000_0000;
            }
        }
        x
    };
    if w8(vd) {
        blend(&mut s.lreg[vd], &x, m);
    }
}
