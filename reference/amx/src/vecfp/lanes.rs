//! Which lanes run and where they write: the lane set of the writemask modes, the multi-vector
//! set-up of each BMODE, M4's offset masking, and the Z slot of a lane.
//!
//! Transcribes `amx-vecfp.md` §2.3 (`zslot`), §2.4 (the lane-enable table), §2.5 (the BMODE
//! `case` of §2.1) and §2.6 (M4 offset masking). Upstream: corsix/amx `parse_writemask` and
//! `bit_select` (`emulate.h`) and the M4 block of `emulate_AMX_VECFP` (`vecfp.c`) at
//! `483714bb051da088d08a66724b22dd08a5db3c99` (commit `483714b`, issue #13).

use crate::isa::{Bmode, LaneWidth};

/// The most lanes an X/Y vector has (f16 / bf16).
pub const MAX_LANES: usize = 32;

/// `lane_set(mode, N, EC)`: the enabled X lanes of §2.4's table (bit 31 = 0). For modes other
/// than 0, N is taken mod EC. The side effects of mode 0 (N = 3, 4, 5) and mode 1 (broadcast)
/// are the caller's, as in §2.1.
pub fn lane_set(mode: u8, N: u8, EC: usize) -> [bool; MAX_LANES] {
    let N = N as usize;
    let n = N.checked_rem(EC).unwrap_or(0); // EC is 8, 16 or 32 in the flow
    std::array::from_fn(|i| {
        i < EC
            && match mode {
                0 => match N {
                    0 => true,       // all
                    1 => i % 2 == 1, // odd lanes
                    2 => i % 2 == 0, // even lanes
                    3..=5 => true,   // all (with an override)
                    _ => false,      // none
                },
                1 => true,                  // all (broadcast Y lane N mod EC)
                2 => n == 0 || i < n,       // n=0: all, else [0, n)
                3 => n == 0 || i >= EC - n, // n=0: all, else [EC−n, EC)
                4 => i < n,                 // [0, n), none when n=0
                5 => n != 0 && i >= EC - n, // [EC−n, EC), none when n=0
                _ => false,                 // 6, 7: none
            }
    })
}

/// `zslot(r, i)` of §2.3: the Z row and the element index (in `zT` elements) that X lane `i`
/// writes in iteration row `r`. In the pair modes bit 0 of the row is ignored: even lanes fill
/// the even row and odd lanes the odd row, at f32 element `i >> 1`.
pub const fn zslot(lw: LaneWidth, r: usize, i: usize) -> (usize, usize) {
    if lw.is_pair() { ((r & !1) | (i & 1), i >> 1) } else { (r, i) }
}

/// What the multi-vector mode (§2.5) sets up before the loop: the `case op[34:32]` of §2.1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MultiSetup {
    /// The lane-enable mode that stands in for the writemask field.
    pub mode: u8,
    /// Its value N.
    pub N: u8,
    /// Bytes the X offset advances per iteration.
    pub xstep: usize,
    /// Bytes the Y offset advances per iteration.
    pub ystep: usize,
    /// Whether every lane reads X lane 0.
    pub xlane0: bool,
}

/// The `if multi:` block of §2.1 for BMODE `bmode`: start from "all lanes, no override",
/// steps of 64, then apply the BMODE's row of §2.5's table.
pub fn multi_setup(bmode: Bmode) -> MultiSetup {
    let mut m = MultiSetup { mode: 0, N: 0, xstep: 64, ystep: 64, xlane0: false }; // (mode, N) := (0, 0)
    match bmode {
        Bmode::Consecutive => {}
        Bmode::ZeroOutput => m.N = 3, // 1 -> N := 3: output forced to +0
        Bmode::SameX => m.xstep = 0,  // 2 -> xstep := 0
        Bmode::SameY => m.ystep = 0,  // 3 -> ystep := 0
        Bmode::ZeroX => m.N = 4,      // 4 -> N := 4: X forced to +0
        Bmode::ZeroY => m.N = 5,      // 5 -> N := 5: Y forced to +0
        Bmode::BroadcastX0 => {
            m.xstep = 0; // 6 -> xstep := 0; xlane0 := true
            m.xlane0 = true;
        }
        Bmode::BroadcastY0 => {
            m.ystep = 0; // 7 -> ystep := 0; (mode, N) := (1, 0): broadcast Y lane 0
            m.mode = 1;
            m.N = 0;
        }
    }
    m
}

/// The alignment M4 imposes on one of the X / Y offsets when bit 31 = 1 (§2.6):
/// * the indexed operand: `min(64, iterations · 8·ib/eb)` bytes, so that the index data of all
///   iterations stays inside one 64-byte register;
/// * X with BMODE 6, or Y with BMODE 7 (`broadcast_lane0`): one element, `eb` bytes;
/// * otherwise a whole register, 64 bytes.
pub fn m4_alignment(indexed: bool, broadcast_lane0: bool, iterations: usize, ib: usize, eb: usize) -> usize {
    if indexed {
        let block = iterations.saturating_mul(8).saturating_mul(ib).checked_div(eb).unwrap_or(64);
        if block < 64 { block } else { 64 }
    } else if broadcast_lane0 {
        eb
    } else {
        64
    }
}

/// `off` with its low bits cleared to a multiple of `alignment` (a power of two).
pub const fn align_down(off: usize, alignment: usize) -> usize {
    off & !alignment.wrapping_sub(1)
}
