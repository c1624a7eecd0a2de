//! Operand fetch: the circular window, the indexed expand and the shuffles.
//!
//! Transcribes `amx-vecfp.md` §2.7 ("Operand fetch helpers"), which restates corsix/amx
//! `load_xy_reg` (`emulate.h`), `load_xy_reg_indexed` (`genlut.c`) and `xy_shuffle`
//! (`emulate.h`) at `483714bb051da088d08a66724b22dd08a5db3c99`.

use crate::state::{POOL_BYTES, REG_BYTES, Reg, XY_REGS, lane, set_lane};

/// `window(pool, off)`: the 64 bytes of the 512-byte pool starting at byte `off mod 512`,
/// wrapping past byte 511 to byte 0. Any byte alignment is allowed.
pub fn window(pool: &[Reg; XY_REGS], off: usize) -> Reg {
    std::array::from_fn(|k| {
        let b = (off % POOL_BYTES + k) % POOL_BYTES;
        pool[b / REG_BYTES][b % REG_BYTES]
    })
}

/// Bit `j` of `bytes` read as a little-endian, LSB-first bit stream.
fn stream_bit(bytes: &[u8], j: usize) -> usize {
    bytes.get(j / 8).map_or(0, |b| ((b >> (j % 8)) & 1) as usize)
}

/// `expand(window, table, ib, eb)`: the first `EC·ib/8` bytes of `window` are a little-endian,
/// LSB-first stream of `ib`-bit indices; lane `i` of the result is lane `k mod EC` of the whole,
/// aligned table register, where `k` = bits `[i·ib, (i+1)·ib)` of the stream.
///
/// `ib` is 2 or 4 and `eb` 2, 4 or 8 in the flow; other values give some result, never a panic.
pub fn expand(window: &Reg, table: &Reg, ib: usize, eb: usize) -> Reg {
    let EC = REG_BYTES.checked_div(eb).unwrap_or(0);
    let ib = ib.min(8);
    let mut out = [0u8; REG_BYTES];
    for i in 0..EC {
        let k = (0..ib).map(|b| stream_bit(window, i * ib + b) << b).sum::<usize>();
        set_lane(&mut out, eb, i, lane(table, eb, k % EC));
    }
    out
}

/// `shuffle(v, s, eb)`: with `R = 2^s` and `EC = 64 / eb`, the R equal contiguous chunks of the
/// input interleaved round-robin: `out[q·R + r] = in[r·(EC/R) + q]`. S0 is the identity; for
/// `EC = 8`, S3 is the identity too. (`eb` is 2, 4 or 8 in the flow; 0 gives zeros.)
pub fn shuffle(v: &Reg, s: u8, eb: usize) -> Reg {
    let EC = REG_BYTES.checked_div(eb).unwrap_or(0);
    let R = 1usize << (s & 3);
    let mut out = [0u8; REG_BYTES];
    for q in 0..EC / R {
        for r in 0..R {
            set_lane(&mut out, eb, q * R + r, lane(v, eb, r * (EC / R) + q));
        }
    }
    out
}
