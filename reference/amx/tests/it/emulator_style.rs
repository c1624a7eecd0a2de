//! A second, structurally different model of the `vecfp` data flow, written from the facts the
//! notes give about corsix/amx's emulator (§3: `load_xy_reg`, `load_xy_reg_indexed`,
//! `xy_shuffle`'s byte walk, `parse_writemask`'s per-byte mask, `bit_select`, the in-place operand
//! rewriting of the BMODE switch and M4's masks), compared with the reference on random operands
//! and states.
//!
//! It shares only the per-lane arithmetic (`vecfp::alu::ALU` and the pair-mode widening, which
//! `fp_oracle.rs` checks against rustc_apfloat), so a disagreement points at decode, fetch,
//! shuffle, lane selection, stepping or Z placement. It is our own Rust, not the C.

use amx_reference::fp::{Format, widen_to_f32};
use amx_reference::state::{lane, set_lane};
use amx_reference::vecfp::alu::ALU;
use amx_reference::{AluMode, Chip, Operand, State, vecfp};

/// The emulator's writemask: one bit per *byte* of a 64-byte vector, lane i enabled when bit
/// `i·g` is set. `val` is the 9-bit field (mode in bits 8:6); for modes ≠ 0 the value is scaled
/// by g and masked to 6 bits.
fn byte_mask(val: u64, g: u64) -> u64 {
    let mode = (val >> 6) & 7;
    let v = if mode != 0 { (val * g) & 63 } else { val & 63 };
    let all = u64::MAX;
    match mode {
        0 => match v {
            0 | 3..=5 => all,
            1 | 2 => {
                // Groups of g bytes, alternating; odd groups for v = 1, even for v = 2.
                let mut m = 0u64;
                for byte in 0..64 {
                    let group = byte / g;
                    if (group % 2 == 1) == (v == 1) {
                        m |= 1 << byte;
                    }
                }
                m
            }
            _ => 0,
        },
        1 => ((1u64 << g) - 1) << v,
        2 if v == 0 => all,
        2 | 4 => (1u64 << v) - 1,
        3 if v == 0 => all,
        3 | 5 => {
            if v == 0 {
                0
            } else {
                !(all >> v)
            }
        }
        _ => 0,
    }
}

fn load(pool: &[[u8; 64]; 8], off: u64) -> [u8; 64] {
    let flat: Vec<u8> = pool.iter().flatten().copied().collect();
    std::array::from_fn(|k| flat[(off as usize + k) & 511])
}

/// The byte walk: output element after element, the source advancing by 64 >> s bytes and, when
/// it passes the end, wrapping and moving one element on.
fn byte_walk_shuffle(v: &mut [u8; 64], s: u64, eb: usize) {
    if s == 0 {
        return;
    }
    let src = *v;
    let step = 64 >> s;
    let mut soff = 0usize;
    for doff in (0..64).step_by(eb) {
        v[doff..doff + eb].copy_from_slice(&src[soff..soff + eb]);
        soff += step;
        if soff >= 64 {
            soff = (soff - 64 + eb) & 63;
        }
    }
}

/// Indices in groups of eight lanes: each group reads a little-endian u64 at the current byte,
/// which then advances by `ib` bytes.
fn grouped_indexed(v: &mut [u8; 64], table: &[u8; 64], ib: usize, eb: usize) {
    let src = *v;
    let mut soff = 0;
    let mut lane_no = 0;
    while lane_no * eb < 64 {
        let mut bits = u64::from_le_bytes(src[soff..soff + 8].try_into().unwrap());
        soff += ib;
        for _ in 0..8 {
            let k = (bits & ((1 << ib) - 1)) as usize;
            let t = (k * eb) & 63;
            v[lane_no * eb..lane_no * eb + eb].copy_from_slice(&table[t..t + eb]);
            bits >>= ib;
            lane_no += 1;
        }
    }
}

fn emulate(s: &mut State, chip: Chip, operand: u64) {
    if (operand >> 54) & 7 != 0 {
        return;
    }
    let mut op = operand & !(1 << 37);
    let indexed = op & (1 << 53) != 0;
    let code = if indexed { 0 } else { (op >> 47) & 63 };
    let alu = match code {
        0 => AluMode::Fma,
        1 => AluMode::Fms,
        4 => AluMode::Select,
        5 => AluMode::Min,
        7 => AluMode::Max,
        10 if chip != Chip::M1 => AluMode::Mul,
        11 if chip != Chip::M1 => AluMode::AddX,
        12 if chip != Chip::M1 => AluMode::AddY,
        _ => return,
    };
    let m2 = chip != Chip::M1;
    let (xybits, zbits, bf16) = match (op >> 42) & 15 {
        0 if m2 => (16u64, 16u64, true),
        1 if m2 => (16, 32, true),
        3 => (16, 32, false),
        4 => (32, 32, false),
        7 => (64, 64, false),
        _ => (16, 16, false),
    };
    let eb = (xybits / 8) as usize;
    let mut zrow = op >> 20;
    let (mut zstep, mut xstep, mut ystep) = (64u64, 64u64, 64u64);
    let mut xi_mask = usize::MAX;
    let (mut xoff, mut yoff) = (op >> 10, op);
    let ib = if op & (1 << 48) != 0 { 4u64 } else { 2 };
    let idx_y = op & (1 << 47) != 0;
    if m2 && op & (1 << 31) != 0 {
        let bmode = (op >> 32) & 7;
        op &= !(0x1FF << 32);
        match bmode {
            1 => op |= 3 << 32,
            2 => xstep = 0,
            3 => ystep = 0,
            4 => op |= 4 << 32,
            5 => op |= 5 << 32,
            6 => {
                xstep = 0;
                xi_mask = 0;
            }
            7 => {
                ystep = 0;
                op |= 1 << 38;
            }
            _ => {}
        }
        zstep = if zrow & 32 != 0 { 16 } else { 32 };
        if chip == Chip::M4 {
            let index_align = (512 * ib / (eb as u64 * zstep)).min(64);
            xoff &= if indexed && !idx_y {
                !(index_align - 1)
            } else if bmode == 6 {
                !(eb as u64 - 1)
            } else {
                !63
            };
            yoff &= if indexed && idx_y {
                !(index_align - 1)
            } else if bmode == 7 {
                !(eb as u64 - 1)
            } else {
                !63
            };
        }
    }
    if indexed {
        if idx_y {
            ystep = ystep * ib / xybits;
        } else {
            xstep = xstep * ib / xybits;
        }
    }
    zrow &= zstep - 1;
    while zrow <= 63 {
        let mut x = load(&s.X, xoff & 0x1FF);
        xoff = xoff.wrapping_add(xstep);
        let mut y = load(&s.Y, yoff & 0x1FF);
        yoff = yoff.wrapping_add(ystep);
        if indexed {
            let t = ((op >> 49) & 7) as usize;
            if idx_y {
                grouped_indexed(&mut y, &s.Y[t], ib as usize, eb);
            } else {
                grouped_indexed(&mut x, &s.X[t], ib as usize, eb);
            }
        }
        byte_walk_shuffle(&mut x, (op >> 29) & 3, eb);
        byte_walk_shuffle(&mut y, (op >> 27) & 3, eb);
        let mut enable = byte_mask((op >> 32) & 0x1FF, eb as u64);
        let wm_mode = (op >> 38) & 7;
        let broadcast = wm_mode == 1;
        let mut zero_output = false;
        if broadcast {
            enable = u64::MAX;
        } else if wm_mode == 0 {
            match (op >> 32) & 0x3F {
                3 => zero_output = true,
                4 => x = [0; 64],
                5 => y = [0; 64],
                _ => {}
            }
        }
        let lanes = 64 / eb;
        for i in 0..lanes {
            if (enable >> (i * eb)) & 1 == 0 {
                continue;
            }
            let j = if broadcast { ((op >> 32) & (lanes as u64 - 1)) as usize } else { i };
            let xv = lane(&x, eb, i & xi_mask);
            let yv = lane(&y, eb, j);
            let r = zrow as usize;
            let (row, zb, elem, fmt, a, b) = if zbits == 32 && xybits == 16 {
                let f = if bf16 { Format::BF16 } else { Format::F16 };
                ((r & !1) | (i & 1), 4, i >> 1, Format::F32, widen_to_f32(f, xv), widen_to_f32(f, yv))
            } else {
                let f = match (xybits, bf16) {
                    (16, true) => Format::BF16,
                    (16, false) => Format::F16,
                    (32, _) => Format::F32,
                    _ => Format::F64,
                };
                (r, eb, i, f, xv, yv)
            };
            let z = lane(&s.Z[row], zb, elem);
            let out = if zero_output { 0 } else { ALU(alu, fmt, a, b, z) };
            set_lane(&mut s.Z[row], zb, elem, out);
        }
        zrow += zstep;
    }
}

/// SplitMix64.
fn next(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[test]
fn writemask_matches_the_notes_table() {
    // The byte mask of this model against §2.4's table for every (eb, mode, N), lane by lane.
    for eb in [2u64, 4, 8] {
        let ec = 64 / eb;
        for mode in 0..8u64 {
            for n in 0..32u64 {
                let mask = byte_mask(mode << 6 | n, eb);
                let m = n % ec;
                for i in 0..ec {
                    let want = match mode {
                        0 => match n {
                            0 | 3..=5 => true,
                            1 => i % 2 == 1,
                            2 => i % 2 == 0,
                            _ => false,
                        },
                        1 => i == m, // the caller then enables all lanes
                        2 => m == 0 || i < m,
                        3 => m == 0 || i >= ec - m,
                        4 => i < m,
                        5 => m != 0 && i >= ec - m,
                        _ => false,
                    };
                    assert_eq!((mask >> (i * eb)) & 1 == 1, want, "eb {eb} mode {mode} N {n} lane {i}");
                }
            }
        }
    }
}

#[test]
fn reference_agrees_with_the_emulator_style_model() {
    let mut seed = 0xA3C5_0001u64;
    let cases: usize = std::env::var("AMX_EMU_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(20_000);
    let mut state_bytes = [0u8; 5120];
    for case in 0..cases {
        if case % 64 == 0 {
            // A fresh random state every 64 operands; lanes of some registers set to specials.
            for b in state_bytes.iter_mut() {
                *b = next(&mut seed) as u8;
            }
            for _ in 0..16 {
                let reg = (next(&mut seed) % 80) as usize;
                let pattern = [0u64, 0x8000_8000_8000_8000, 0x7C00_7F80_7FC0_FFFF, 0x3C00_3F80_3F80_0000]
                    [(next(&mut seed) % 4) as usize];
                for k in 0..64 {
                    state_bytes[64 * reg + k] = (pattern >> (8 * (k % 8))) as u8;
                }
            }
        }
        let mut bits = next(&mut seed);
        // Most operands do something: MBZ cleared and a valid ALU code, as in decode.rs.
        if !next(&mut seed).is_multiple_of(8) {
            bits &= !(7 << 54);
        }
        if !next(&mut seed).is_multiple_of(4) {
            let alu = [0u64, 1, 4, 5, 7, 10, 11, 12][(next(&mut seed) % 8) as usize];
            bits = (bits & !(63 << 47)) | alu << 47;
        }
        let chip = Chip::ALL[(next(&mut seed) % 3) as usize];
        let start = State::from_bytes(&state_bytes);
        let mut want = start.clone();
        emulate(&mut want, chip, bits);
        let mut got = start.clone();
        vecfp(&mut got, chip, Operand(bits));
        if got != want {
            let rows: Vec<usize> = (0..64).filter(|&r| got.Z[r] != want.Z[r]).collect();
            panic!("case {case}: {chip} {} ({bits:#018x}) differs in Z rows {rows:?}", Operand(bits));
        }
        // Carry the state on, as upstream's test does (§4.1), so Z accumulates specials.
        state_bytes = got.to_bytes();
    }
}
