//! [`Plan`]: everything about a `vecfp` that depends only on the chip and the operand, worked out
//! once: the Z rows of each iteration, the X and Y window offsets of each iteration, where each
//! operand's lanes come from (a window, an indexed expansion, or all +0), one gather table per
//! operand that folds the shuffle, the lane-0 broadcasts and (in the pair modes) the row
//! interleave into a single lane permutation, and the enabled lanes as a bit mask.
//!
//! Spec: `amx-vecfp.md` §1.3 and §1.4 (the fields and decode, read from the operand's bits),
//! §2.1 (the flow), §2.3 (lane widths and Z placement), §2.4 (lane enable and broadcast), §2.5 (multiple
//! vectors), §2.6 (M4 offset masking) and §2.7 (shuffles). The reference follows the flow's
//! pseudocode lane by lane, deciding per lane whether it is enabled, which Y lane it broadcasts
//! and which Z slot it writes; here those decisions are data, and [`crate::exec`] runs straight
//! loops over whole vectors.
//!
//! **Kernel lane order.** The kernels see one Z row at a time. For the one-row widths, kernel
//! lane `k` is X/Y lane `k`. For the pair modes (§2.3: X lane `i` goes to row `(r & !1) | (i & 1)`,
//! f32 element `i >> 1`), kernel lanes 0..16 are X lanes 0, 2, …, 30 (the even row) and kernel
//! lanes 16..32 are X lanes 1, 3, …, 31 (the odd row), so each row is a contiguous half.

use amx_reference::{AluMode, Chip, Operand};

/// Where an operand's lanes come from in every iteration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Source {
    /// The 64-byte window of the pool at the iteration's offset (§2.7 "Window").
    Window,
    /// All +0: mode 0 with N = 4 (X) or 5 (Y), BMODE 4 or 5 (§2.4, §2.5), or an input the ALU
    /// mode does not read (§2.2), whose value cannot matter.
    Zero,
    /// An indexed load (§2.7 "Indexed expand"): the window holds `ib`-bit indices, the aligned
    /// register `tbl` of the same pool the values.
    Indexed {
        /// The table register 0..7.
        tbl: u8,
        /// Bits per index, 2 or 4.
        ib: u8,
    },
}

/// How one operand (X or Y) is fetched.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Fetch {
    /// Where the lanes come from.
    pub source: Source,
    /// Kernel lane `k` takes fetched lane `gather[k]` (the fetched lanes being the window's, or
    /// the indexed expansion's, before any shuffle). Entries past the kernel's lane count are
    /// never read. A static table: a plan copies no tables.
    pub gather: &'static [u8; 32],
    /// The same permutation on bytes: byte `b` of the gathered vector is byte `bytes[b]` of the
    /// fetched one (for the SIMD byte permute of [`crate::simd`]).
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code, reason = "only the x86-64 permute reads it"))]
    pub bytes: &'static [u8; 64],
    /// `gather` is the identity, so it can be skipped.
    pub identity: bool,
    /// The pool byte offset (0..511) of each iteration's window.
    pub off: [u16; 4],
}

/// How the ALU results are computed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kernel {
    /// f16 × f16 → f16, one row.
    F16,
    /// bf16 × bf16 → bf16, one row.
    Bf16,
    /// f32, one row.
    F32,
    /// f64, one row.
    F64,
    /// f16 widened to f32, an interleaved row pair.
    PairF16,
    /// bf16 widened to f32, an interleaved row pair.
    PairBf16,
    /// A planted bug: bf16 through an f32 FMA and one narrowing, which double-rounds
    /// ([`crate::planted`]; never chosen by [`Plan::new`]).
    PlantedBf16ViaF32,
}

/// A `vecfp` that writes at least one Z lane.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Op {
    /// The ALU mode (FMA when indexed).
    pub alu: AluMode,
    /// The kernel for the lane width.
    pub kernel: Kernel,
    /// Iterations: 1, or 2 or 4 with multiple vectors.
    pub iters: u8,
    /// The Z row of each iteration; for the pair modes the even row of the pair.
    pub rows: [u8; 4],
    /// X.
    pub x: Fetch,
    /// Y.
    pub y: Fetch,
    /// Bit `k`: kernel lane `k` writes its Z element (the same in every iteration).
    pub enable: u32,
    /// Every enabled lane is written +0 instead of the ALU result (mode 0 N = 3, BMODE 1).
    pub zero_out: bool,
}

/// A decoded `vecfp`, ready to run on any number of states.
///
/// Building a plan costs about as much as running a simple instruction; reusing one (the same
/// operand on many states, as a golden-vector runner or a sweep over states does) skips that.
/// A plan never panics to build or to run, for any operand, chip and state.
///
/// ```
/// use amx_fastpath::Plan;
/// use amx_reference::{Chip, Field, Operand, State};
///
/// let op = Operand::from_fields(&[(Field::LW, 4), (Field::ZROW, 3)]).unwrap(); // f32 FMA into z[3]
/// let plan = Plan::new(Chip::M2, op);
/// let mut s = State::zeroed();
/// s.X[0][..4].copy_from_slice(&2.0f32.to_le_bytes());
/// s.Y[0][..4].copy_from_slice(&3.0f32.to_le_bytes());
/// plan.run(&mut s);
/// assert_eq!(s.Z[3][..4], 6.0f32.to_le_bytes());
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Plan {
    pub(crate) op: Option<Op>,
}

/// The planted divergences a test can build a [`Plan`] with, to show that the comparison with
/// the reference catches a wrong fast model (`tests/it/planted.rs`). [`Plan::new`] never uses them.
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlantedBug {
    /// bf16 FMA (and its other arithmetic modes) computed as an f32 FMA narrowed once to bf16:
    /// the double rounding §5 warns about, wrong in about 0.2% of random lanes, only near ties.
    Bf16ViaF32,
    /// M4 treated as M2: no offset masking with multiple vectors (§2.6).
    M4MaskingIgnored,
    /// The S1 shuffle takes the two halves in the wrong order (§2.7).
    ShuffleS1Swapped,
}

/// Element `j` of the output of shuffle `s` is element `shuffle_source(s, j, EC)` of the input:
/// `out[q·R + r] = in[r·(EC/R) + q]` with `R = 2^s` (§2.7). With `planted` the S1 shuffle takes the
/// halves in the wrong order.
#[allow(non_snake_case, reason = "EC and R are the notes' names")]
const fn shuffle_source(s: u8, j: usize, EC: usize, planted: bool) -> usize {
    let R = 1usize << (s & 3);
    let (q, r) = (j / R, j % R);
    let r = if planted && R == 2 { 1 - r } else { r };
    r * (EC / R) + q
}

/// X/Y lane `i` of kernel lane `k` (see the module docs).
const fn lane_of(k: usize, pair: bool) -> usize {
    if !pair {
        k
    } else if k < 16 {
        2 * k
    } else {
        2 * (k - 16) + 1
    }
}

/// The lane shapes a gather table depends on: 32, 16 or 8 lanes in one row, or 32 lanes
/// interleaved into a row pair.
const SHAPES: [(usize, bool); 4] = [(32, false), (16, false), (8, false), (32, true)];

/// `GATHER[planted][shape][shuffle][k]`: the fetched lane kernel lane `k` reads, without a
/// broadcast: the shuffle composed with the pair interleave. Computed at compile time, so a plan
/// copies a table instead of dividing per lane.
static GATHER: [[[[u8; 32]; 4]; 4]; 2] = {
    let mut t = [[[[0u8; 32]; 4]; 4]; 2];
    let mut p = 0;
    while p < 2 {
        let mut shape = 0;
        while shape < 4 {
            let (ec, pair) = SHAPES[shape];
            let mut shuf = 0;
            while shuf < 4 {
                let mut k = 0;
                while k < ec {
                    t[p][shape][shuf][k] = shuffle_source(shuf as u8, lane_of(k, pair), ec, p == 1) as u8;
                    k += 1;
                }
                shuf += 1;
            }
            shape += 1;
        }
        p += 1;
    }
    t
};

/// [`GATHER`] on bytes: `GATHER_BYTES[planted][shape][shuffle][b]` is `g·eb + b mod eb` for the
/// lane `g` that kernel lane `b / eb` reads.
static GATHER_BYTES: [[[[u8; 64]; 4]; 4]; 2] = {
    let mut t = [[[[0u8; 64]; 4]; 4]; 2];
    let mut p = 0;
    while p < 2 {
        let mut shape = 0;
        while shape < 4 {
            let eb = 64 / SHAPES[shape].0;
            let mut shuf = 0;
            while shuf < 4 {
                let mut b = 0;
                while b < 64 {
                    t[p][shape][shuf][b] = (GATHER[p][shape][shuf][b / eb] as usize * eb + b % eb) as u8;
                    b += 1;
                }
                shuf += 1;
            }
            shape += 1;
        }
        p += 1;
    }
    t
};

/// `SPLAT_BYTES[lg][i]`: [`SPLAT`] on bytes for `eb = 2^lg` (`lg` 1, 2, 3; row 0 unused).
static SPLAT_BYTES: [[[u8; 64]; 32]; 4] = {
    let mut t = [[[0u8; 64]; 32]; 4];
    let mut lg = 1;
    while lg < 4 {
        let eb = 1 << lg;
        let mut i = 0;
        while i < 32 {
            let mut b = 0;
            while b < 64 {
                t[lg][i][b] = ((i * eb) % 64 + b % eb) as u8;
                b += 1;
            }
            i += 1;
        }
        lg += 1;
    }
    t
};

/// `SPLAT[i]`: every kernel lane reads fetched lane `i` (a broadcast).
static SPLAT: [[u8; 32]; 32] = {
    let mut t = [[0u8; 32]; 32];
    let mut i = 0;
    while i < 32 {
        t[i] = [i as u8; 32];
        i += 1;
    }
    t
};

/// The even bits of `x` (lanes 0, 2, …, 30) in the low 16 bits and the odd bits in the high 16:
/// the X-lane enable mask in kernel lane order for the pair modes. Hacker's Delight §7-2, the
/// outer perfect unshuffle, four swap steps instead of a loop.
const fn unshuffle(mut x: u32) -> u32 {
    let t = (x ^ (x >> 1)) & 0x2222_2222;
    x ^= t ^ (t << 1);
    let t = (x ^ (x >> 2)) & 0x0C0C_0C0C;
    x ^= t ^ (t << 2);
    let t = (x ^ (x >> 4)) & 0x00F0_00F0;
    x ^= t ^ (t << 4);
    let t = (x ^ (x >> 8)) & 0x0000_FF00;
    x ^= t ^ (t << 8);
    x
}

impl Plan {
    /// A plan that does nothing.
    pub const NOP: Plan = Plan { op: None };

    /// The plan of `operand` on `chip`.
    pub fn new(chip: Chip, operand: Operand) -> Plan {
        Plan::build(chip, operand, None)
    }

    /// A plan with a deliberate divergence from the specification, for the test that shows the
    /// differential comparison catches one. Not for any other use.
    #[doc(hidden)]
    pub fn planted(chip: Chip, operand: Operand, bug: PlantedBug) -> Plan {
        Plan::build(chip, operand, Some(bug))
    }

    /// Whether running the plan leaves every state as it was: a no-op of §1.4, or an operation
    /// that enables no lane (§2.4: mode 0 with N ≥ 6, modes 4/5 with n = 0, modes 6/7).
    pub fn is_nop(&self) -> bool {
        self.op.is_none()
    }

    #[allow(non_snake_case, reason = "EC, N and the fields are the notes' names")]
    fn build(chip: Chip, operand: Operand, planted: Option<PlantedBug>) -> Plan {
        // §1.4, decode, read straight from the bits (not through `amx_reference::decode`, so
        // that a decoder bug would not be shared with the reference and hidden from the tests).
        let op = operand.0;
        if (op >> 54) & 7 != 0 {
            return Plan::NOP; // MBZ != 0
        }
        let op = op & !(1 << 37); // op[37] := 0
        let field = |lsb: u32, bits: u32| ((op >> lsb) & ((1 << bits) - 1)) as usize;
        let m2 = chip >= Chip::M2;
        let indexed = field(53, 1) == 1;
        let alu = match if indexed { 0 } else { field(47, 6) } {
            0 => AluMode::Fma,
            1 => AluMode::Fms,
            4 => AluMode::Select,
            5 => AluMode::Min,
            7 => AluMode::Max,
            10 if m2 => AluMode::Mul,
            11 if m2 => AluMode::AddX,
            12 if m2 => AluMode::AddY,
            _ => return Plan::NOP, // the other codes, and 10..12 on M1
        };
        // (TBL, ib, IDXY = Y) of an indexed load.
        let index =
            indexed.then(|| (field(49, 3) as u8, if field(48, 1) == 1 { 4 } else { 2 }, field(47, 1) == 1));
        let multi = m2 && field(31, 1) == 1;
        let (XSHUF, YSHUF, ZROW) = (field(29, 2) as u8, field(27, 2) as u8, field(20, 6));

        // The kernel, log2(eb) and whether Z is a row pair (§2.3). Every size here is a power of
        // two, so the flow's divisions and remainders are shifts and masks below: a division by
        // a run-time value costs more than the rest of the plan.
        let (kernel, lg, pair) = match field(42, 4) {
            0 if m2 && planted == Some(PlantedBug::Bf16ViaF32) => (Kernel::PlantedBf16ViaF32, 1, false),
            0 if m2 => (Kernel::Bf16, 1, false),
            1 if m2 => (Kernel::PairBf16, 1, true),
            3 => (Kernel::PairF16, 1, true),
            4 => (Kernel::F32, 2, false),
            7 => (Kernel::F64, 3, false),
            _ => (Kernel::F16, 1, false), // 2, 5, 6, 8..15, and 0, 1 on M1
        };
        let eb = 1usize << lg;
        let EC = 64usize >> lg;

        // §2.1 and §2.5: the lane-selection mode, the steps, the broadcast of X lane 0, zstep.
        let (mut mode, mut N) = (0u8, 0u8);
        let (mut xstep, mut ystep, mut xlane0, mut iters) = (64usize, 64usize, false, 1usize);
        let (mut xoff, mut yoff) = (field(10, 9), field(0, 9));
        match multi {
            false => (mode, N) = (field(38, 3) as u8, field(32, 5) as u8),
            true => {
                let BMODE = field(32, 3);
                match BMODE {
                    1 => N = 3,                        // output forced to +0
                    2 => xstep = 0,                    // the same X register
                    3 => ystep = 0,                    // the same Y register
                    4 => N = 4,                        // X forced to +0
                    5 => N = 5,                        // Y forced to +0
                    6 => (xstep, xlane0) = (0, true),  // X lane 0 to every lane
                    7 => (ystep, mode, N) = (0, 1, 0), // Y lane 0 to every lane
                    _ => {}                            // consecutive registers
                }
                iters = if field(25, 1) == 1 { 4 } else { 2 }; // FOUR; zstep = 64 / iters
                if chip >= Chip::M4 && planted != Some(PlantedBug::M4MaskingIgnored) {
                    // §2.6, per operand: the indexed one keeps its whole index block inside one
                    // register; X with BMODE 6 / Y with BMODE 7 align to an element; else to 64.
                    let align = |y: bool, lane0: bool| match index {
                        Some((_, ib, idxy)) if idxy == y => ((iters * 8 * ib) >> lg).min(64),
                        _ if lane0 => eb,
                        _ => 64,
                    };
                    xoff &= !(align(false, BMODE == 6) - 1);
                    yoff &= !(align(true, BMODE == 7) - 1);
                }
            }
        }
        // §2.5: the indexed operand advances by one index block per iteration.
        if let Some((_, ib, idxy)) = index {
            let step = if idxy { &mut ystep } else { &mut xstep };
            *step = (*step * ib) >> (3 + lg); // step · ib / (8·eb)
        }

        // §2.4: the enabled X lanes and the side effects of mode 0.
        let all: u64 = (1 << EC) - 1;
        let n = N as usize & (EC - 1); // N mod EC
        let first = |k: usize| (1u64 << k) - 1;
        let last = |k: usize| all & !first(EC - k);
        let (x_enable, zero_out, zero_x, zero_y, broadcast) = match mode {
            0 => {
                let lanes = match N {
                    0 | 3 | 4 | 5 => all,
                    1 => all & 0xAAAA_AAAA, // odd lanes
                    2 => all & 0x5555_5555, // even lanes
                    _ => 0,
                };
                (lanes, N == 3, N == 4, N == 5, false)
            }
            1 => (all, false, false, false, true),
            2 => (if n == 0 { all } else { first(n) }, false, false, false, false),
            3 => (if n == 0 { all } else { last(n) }, false, false, false, false),
            4 => (first(n), false, false, false, false),
            5 => (last(n), false, false, false, false),
            _ => (0, false, false, false, false),
        };
        if x_enable == 0 {
            return Plan::NOP;
        }
        let enable = if pair { unshuffle(x_enable as u32) } else { x_enable as u32 };

        // §2.2: inputs the mode does not read are fetched as zeros (their value cannot matter).
        let uses_x = !zero_out && alu != AluMode::AddY;
        let uses_y = !zero_out
            && matches!(alu, AluMode::Fma | AluMode::Fms | AluMode::Select | AluMode::Mul | AluMode::AddY);
        let source = |y: bool, zeroed: bool, used: bool| match index {
            _ if zeroed || !used => Source::Zero,
            Some((tbl, ib, idxy)) if idxy == y => Source::Indexed { tbl, ib: ib as u8 },
            _ => Source::Window,
        };
        let planted_shuffle = (planted == Some(PlantedBug::ShuffleS1Swapped)) as usize;
        let (tables, byte_tables) = (&GATHER[planted_shuffle], &GATHER_BYTES[planted_shuffle]);
        let shape = if pair { 3 } else { lg - 1 }; // the index into SHAPES
        // X lane i reads shuffled X lane (xlane0 ? 0 : i); Y lane i reads shuffled Y lane
        // (broadcast ? n : i), "taken after the Y shuffle" (§2.4). A fixed lane is read by every
        // kernel lane; its source is the one-row table's entry (the pair interleave does not
        // matter when every lane reads the same one).
        let fetch = |source: Source, shuf: u8, fixed: Option<usize>, off: usize, step: usize| {
            let shuf = (shuf & 3) as usize;
            let (gather, bytes, identity) = match fixed {
                None => {
                    let identity = !pair && (shuf == 0 || (EC == 8 && shuf == 3));
                    (&tables[shape][shuf], &byte_tables[shape][shuf], identity)
                }
                Some(i) => {
                    let lane = tables[if pair { 0 } else { shape }][shuf][i & (EC - 1)] as usize & 31;
                    (&SPLAT[lane], &SPLAT_BYTES[lg][lane], false)
                }
            };
            let off = [0, 1, 2, 3].map(|it| ((off + it * step) & 511) as u16);
            Fetch { source, gather, bytes, identity, off }
        };
        let x = fetch(source(false, zero_x, uses_x), XSHUF, xlane0.then_some(0), xoff, xstep);
        let y = fetch(source(true, zero_y, uses_y), YSHUF, broadcast.then_some(n), yoff, ystep);

        // §2.1: r := zr mod zstep; r < 64; r += zstep. §2.3: the pair modes use the even row.
        let zstep = 64 >> iters.trailing_zeros(); // 64 / iters
        let r0 = ZROW & (zstep - 1); // ZROW mod zstep
        let rows = std::array::from_fn(|it| {
            let r = (r0 + it * zstep) & 63;
            (if pair { r & !1 } else { r }) as u8
        });
        Plan { op: Some(Op { alu, kernel, iters: iters as u8, rows, x, y, enable, zero_out }) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unshuffle_splits_even_and_odd_bits() {
        for x in [0u32, 1, 2, 0x5555_5555, 0xAAAA_AAAA, 0x8000_0001, 0x1234_5678, u32::MAX, 0xF0F0_0F0F] {
            let naive = (0..32).fold(0u32, |m, k| m | ((x >> lane_of(k, true)) & 1) << k);
            assert_eq!(unshuffle(x), naive, "{x:#x}");
        }
        assert_eq!(unshuffle(0x5555_5555), 0x0000_FFFF); // even lanes: the even row
        assert_eq!(unshuffle(0xAAAA_AAAA), 0xFFFF_0000); // odd lanes: the odd row
    }

    #[test]
    fn gather_tables_hold_the_notes_examples() {
        // §2.7: EC=8 S1 is 0 4 1 5 2 6 3 7, S2 is 0 2 4 6 1 3 5 7; EC=16 S2 starts 0 4 8 12 1 5.
        assert_eq!(GATHER[0][2][1][..8], [0, 4, 1, 5, 2, 6, 3, 7]);
        assert_eq!(GATHER[0][2][2][..8], [0, 2, 4, 6, 1, 3, 5, 7]);
        assert_eq!(GATHER[0][2][3][..8], [0, 1, 2, 3, 4, 5, 6, 7]);
        assert_eq!(GATHER[0][1][2][..6], [0, 4, 8, 12, 1, 5]);
        // EC=32 S3 is 0 4 8 .. 28 1 5 .. 29 2 .. 3 .. 31.
        assert_eq!(GATHER[0][0][3][..9], [0, 4, 8, 12, 16, 20, 24, 28, 1]);
        // Pair, no shuffle: the even lanes, then the odd lanes.
        assert_eq!(GATHER[0][3][0][..4], [0, 2, 4, 6]);
        assert_eq!(GATHER[0][3][0][16..20], [1, 3, 5, 7]);
        // The planted S1 takes the halves in the wrong order: 4 0 5 1 ... for EC=8.
        assert_eq!(GATHER[1][2][1][..4], [4, 0, 5, 1]);
        // On bytes: f64 S1's second lane is lane 4, bytes 32..40; a broadcast of f32 lane 3 reads
        // bytes 12..16 in every lane.
        assert_eq!(GATHER_BYTES[0][2][1][8..16], [32, 33, 34, 35, 36, 37, 38, 39]);
        assert_eq!(SPLAT_BYTES[2][3][..8], [12, 13, 14, 15, 12, 13, 14, 15]);
    }
}
