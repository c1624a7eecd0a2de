//! Integer and bitwise instructions shared by both chips: SFPIADD, SFPLZ, SFPXOR and SFPNOT.
//!
//! Transcribes tt-isa-documentation BlackholeA0 `SFPLZ.md`
//! (@ `c7cbab6324600ecdb6975e7c4744c587cefdfed9`; WormholeB0's is the same revision), and
//! WormholeB0 `SFPIADD.md` (@ `585749d1dcc6bcc56f1d6ff2dd6b72682d57fcd1`), `SFPXOR.md` and
//! `SFPNOT.md`, which the Blackhole stubs point to. Each chip's SFPAND, SFPOR and SFPSHFT are in
//! `ops::{blackhole,wormhole}::integer`.

#![allow(non_snake_case, reason = "names follow the ISA documentation")]

use crate::isa::mods::*;
use crate::ops::{Ctx, sign_extend12};
use crate::state::{LANES, State};

/// `SFPIADD`: lanewise two's complement `VD = VC ± VD` or `VD = VC + Imm12`, optionally setting
/// `LaneFlags` from the sign of the result.
///
/// Transcribes WormholeB0 `SFPIADD.md` § "Functional model".
pub fn SFPIADD(s: &mut State, cx: &Ctx, Imm12: u32, VC: usize, VD: usize, Mod1: u32) {
    let VB = cx.implicit_VB(VD); // unsigned VB = VD; (skipped under SFPLOADMACRO)
    if VD < 8 || VD == 16 {
        for Lane in 0..LANES {
            if s.IsLaneEnabled(Lane) {
                if Mod1 & SFPIADD_MOD1_ARG_IMM != 0 {
                    s.LReg[VD][Lane] = s.LReg[VC][Lane].wrapping_add(sign_extend12(Imm12) as u32);
                } else if Mod1 & SFPIADD_MOD1_ARG_2SCOMP_LREG_DST != 0 {
                    s.LReg[VD][Lane] = s.LReg[VC][Lane].wrapping_sub(s.LReg[VB][Lane]);
                } else {
                    s.LReg[VD][Lane] = s.LReg[VC][Lane].wrapping_add(s.LReg[VB][Lane]);
                }
                if VD < 8 {
                    if Mod1 & SFPIADD_MOD1_CC_NONE != 0 {
                        // Leave LaneFlags as-is.
                    } else {
                        s.LaneFlags[Lane] = (s.LReg[VD][Lane] as i32) < 0;
                    }
                    if Mod1 & SFPIADD_MOD1_CC_GTE0 != 0 {
                        s.LaneFlags[Lane] = !s.LaneFlags[Lane];
                    }
                }
            }
        }
    }
}

/// `SFPLZ`: lanewise count leading zeros (32 for zero), optionally of the magnitude only, and
/// optionally setting `LaneFlags` to `c != 0`.
///
/// Transcribes BlackholeA0 `SFPLZ.md` § "Functional model".
pub fn SFPLZ(s: &mut State, VC: usize, VD: usize, Mod1: u32) {
    if VD < 8 || VD == 16 {
        for Lane in 0..LANES {
            if s.IsLaneEnabled(Lane) {
                let mut c = s.LReg[VC][Lane]; // Unsigned or sign-magnitude integer.
                if Mod1 & SFPLZ_MOD1_NOSGN_MASK != 0 {
                    c &= 0x7FFF_FFFF; // Mask off the sign bit.
                }
                s.LReg[VD][Lane] = if c != 0 { c.leading_zeros() } else { 32 };
                if VD < 8 {
                    if Mod1 & SFPLZ_MOD1_CC_NE0 != 0 {
                        s.LaneFlags[Lane] = c != 0;
                    }
                    if Mod1 & SFPLZ_MOD1_CC_COMP != 0 {
                        s.LaneFlags[Lane] = !s.LaneFlags[Lane];
                    }
                }
            }
        }
    }
}

/// `SFPXOR`: lanewise `VD = VD ^ VC`.
///
/// Transcribes WormholeB0 `SFPXOR.md` § "Functional model".
pub fn SFPXOR(s: &mut State, cx: &Ctx, VC: usize, VD: usize) {
    let VB = cx.implicit_VB(VD); // unsigned VB = VD; (skipped under SFPLOADMACRO)
    if VD < 8 || VD == 16 {
        for Lane in 0..LANES {
            if s.IsLaneEnabled(Lane) {
                s.LReg[VD][Lane] = s.LReg[VB][Lane] ^ s.LReg[VC][Lane];
            }
        }
    }
}

/// `SFPNOT`: lanewise `VD = ~VC`.
///
/// Transcribes WormholeB0 `SFPNOT.md` § "Functional model".
pub fn SFPNOT(s: &mut State, VC: usize, VD: usize) {
    if VD < 8 || VD == 16 {
        for Lane in 0..LANES {
            if s.IsLaneEnabled(Lane) {
                s.LReg[VD][Lane] = !s.LReg[VC][Lane];
            }
        }
    }
}
