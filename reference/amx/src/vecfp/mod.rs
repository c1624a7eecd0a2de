//! `vecfp`: the whole-instruction flow.
//!
//! Transcribes `amx-vecfp.md` §2.1 ("Whole-instruction flow"), one statement per line of its
//! pseudocode and with its names, calling one function per step: [`decode`] (§1.4),
//! [`lanes::multi_setup`] (§2.5), [`lanes::m4_alignment`] (§2.6), [`fetch::window`],
//! [`fetch::expand`] and [`fetch::shuffle`] (§2.7), [`lanes::lane_set`] (§2.4),
//! [`lanes::zslot`] (§2.3) and [`alu::ALU`] (§2.2, §2.8). Seed 004's "representative sample" is
//! the pre-M4 emulator; the notes follow HEAD (`483714b`), which computes the indexed step before
//! the loop and adds M4's masking. On M1 and M2 the two agree (notes, "Sources").

pub mod alu;
pub mod fetch;
pub mod lanes;

use crate::fp::widen_to_f32;
use crate::isa::{Chip, Decoded, Operand, Select, XY, decode};
use crate::state::{State, lane, set_lane};
use alu::ALU;
use fetch::{expand, shuffle, window};
use lanes::{align_down, lane_set, m4_alignment, multi_setup, zslot};

/// Runs `vecfp` with `operand` on `S` as chip `chip` does. Never panics, for any operand and
/// any state; a no-op operand (§1.4) leaves `S` untouched.
pub fn vecfp(S: &mut State, chip: Chip, operand: Operand) {
    let d = match decode(chip, operand) {
        Decoded::Nop(_) => return, //                                d := decode(op, ver); if NOP: return
        Decoded::Op(d) => d,
    };
    let eb = d.lw.eb(); //                                           eb := sizeof(xyT)
    let EC = 64 / eb; //                                             EC := 64 / eb
    let ib = d.indexed.map_or(2, |ix| ix.ib()); //                   ib := op[48] ? 4 : 2
    let mut xoff = d.XOFF as usize; //                               xoff := op[18:10]
    let mut yoff = d.YOFF as usize; //                               yoff := op[8:0]
    let zr = d.ZROW as usize; //                                     zr := op[25:20]
    let mut xstep = 64; //                                           xstep := 64
    let mut ystep = 64; //                                           ystep := 64
    let mut xlane0 = false; //                                       xlane0 := false
    let (mode, N, zstep);
    match d.select {
        Select::Writemask { WM_MODE, WM_N } => {
            (mode, N) = (WM_MODE, WM_N); //                          (mode, N) := (op[40:38], op[36:32])
            zstep = 64; //                                           else zstep := 64
        }
        Select::Multi { BMODE, FOUR } => {
            //                                                       if multi:
            let m = multi_setup(BMODE); //                               (mode, N) := (0, 0); case op[34:32] ...
            (mode, N, xstep, ystep, xlane0) = (m.mode, m.N, m.xstep, m.ystep, m.xlane0);
            zstep = if FOUR { 16 } else { 32 }; //                       zstep := op[25] ? 16 : 32
            // CHOICE(§1.3, §2.6; `docs/spec/amx-vecfp.md#m4-offsets-without-bit-31`): seed 004's
            // sample predates M4 and has no masking; the notes follow HEAD (483714b, issue #13). §6
            // leaves M4 with MULTI=0 open; as the notes advise, it is taken to be M2's behaviour,
            // so the masking lives only in this arm.
            if chip >= Chip::M4 {
                //                                                       if ver >= M4: align xoff/yoff
                let iterations = 64 / zstep;
                let x_indexed = d.indexed.is_some_and(|ix| ix.IDXY == XY::X);
                let y_indexed = d.indexed.is_some_and(|ix| ix.IDXY == XY::Y);
                let x_bc0 = BMODE == crate::isa::Bmode::BroadcastX0;
                let y_bc0 = BMODE == crate::isa::Bmode::BroadcastY0;
                xoff = align_down(xoff, m4_alignment(x_indexed, x_bc0, iterations, ib, eb));
                yoff = align_down(yoff, m4_alignment(y_indexed, y_bc0, iterations, ib, eb));
            }
        }
    }
    // CHOICE(notes "Sources"; `docs/spec/amx-vecfp.md#indexed-step-set-before-the-loop`): seed 004
    // corrects the indexed operand's offset inside the loop
    // (`x_offset -= x_step - x_step * ibits / xybits`); HEAD and the notes set the step once, here.
    // Both advance by the same bytes on every chip; M4's masking needs the HEAD order.
    if let Some(ix) = d.indexed {
        //                                                           if op[53]: step of the indexed operand
        match ix.IDXY {
            XY::X => xstep = xstep * ib / (8 * eb), //                   := step * ib / (8*eb)
            XY::Y => ystep = ystep * ib / (8 * eb),
        }
    }
    let mut r = zr % zstep;
    while r < 64 {
        //                                                           for r := zr mod zstep; r < 64; r += zstep:
        let mut xv = window(&S.X, xoff % 512); //                        xv := window(S.X, xoff mod 512)
        xoff += xstep; //                                                xoff += xstep
        let mut yv = window(&S.Y, yoff % 512); //                        yv := window(S.Y, yoff mod 512)
        yoff += ystep; //                                                yoff += ystep
        if let Some(ix) = d.indexed {
            //                                                           if op[53]: the indexed one := expand(...)
            match ix.IDXY {
                XY::X => xv = expand(&xv, &S.X[ix.TBL as usize & 7], ib, eb),
                XY::Y => yv = expand(&yv, &S.Y[ix.TBL as usize & 7], ib, eb),
            }
        }
        xv = shuffle(&xv, d.XSHUF, eb); //                               xv := shuffle(xv, op[30:29], eb)
        yv = shuffle(&yv, d.YSHUF, eb); //                               yv := shuffle(yv, op[28:27], eb)
        let mut en = lane_set(mode, N, EC); //                           en := lane_set(mode, N, EC)
        let zero_out = mode == 0 && N == 3; //                           zero_out := (mode == 0 and N == 3)
        if mode == 0 && N == 4 {
            xv = [0; 64]; //                                             if mode == 0 and N == 4: xv := all-zero bytes
        }
        if mode == 0 && N == 5 {
            yv = [0; 64]; //                                             if mode == 0 and N == 5: yv := all-zero bytes
        }
        let bc = mode == 1; //                                           bc := (mode == 1)
        if bc {
            en = [true; lanes::MAX_LANES]; //                            if bc: en := all lanes
        }
        for i in (0..EC).filter(|&i| en[i]) {
            //                                                           for i in en:
            let a = lane(&xv, eb, if xlane0 { 0 } else { i }); //            a := xv[xlane0 ? 0 : i]
            let b = lane(&yv, eb, if bc { N as usize % EC } else { i }); //  b := yv[bc ? (N mod EC) : i]
            let (row, elem) = zslot(d.lw, r, i); //                          s := zslot(r, i)
            let zT = d.lw.zT();
            let z = lane(&S.Z[row], zT.bytes(), elem);
            // §2.3: in the pair modes x and y are first widened to f32, and the ALU runs in f32.
            let (a, b) = if d.lw.is_pair() {
                (widen_to_f32(d.lw.xyT(), a), widen_to_f32(d.lw.xyT(), b))
            } else {
                (a, b)
            };
            let new = if zero_out { 0 } else { ALU(d.alu, zT, a, b, z) }; // Z[s] := zero_out ? +0 : ALU(alu, a, b, Z[s])
            set_lane(&mut S.Z[row], zT.bytes(), elem, new);
        }
        r += zstep;
    }
}
