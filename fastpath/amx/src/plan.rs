//! [`Plan`]: everything about a `vecfp` that depends only on the chip and the operand, worked out
//! once: the Z rows of each iteration, the X and Y window offsets of each iteration, where each
//! operand's lanes come from (a window, an indexed expansion, or all +0), one gather table per
//! operand that folds the shuffle, the lane-0 broadcasts and (in the pair modes) the row
//! interleave into a single lane permutation, and the enabled lanes as a bit mask.
//!
//! Spec: `amx-vecfp.md` §1.4 (decode, through the shared [`amx_reference::decode`]), §2.1 (the
//! flow), §2.3 (lane widths and Z placement), §2.4 (lane enable and broadcast), §2.5 (multiple
//! vectors), §2.6 (M4 offset masking) and §2.7 (shuffles). The reference follows the flow's
//! pseudocode lane by lane, deciding per lane whether it is enabled, which Y lane it broadcasts
//! and which Z slot it writes; here those decisions are data, and [`crate::exec`] runs straight
//! loops over whole vectors.
//!
//! **Kernel lane order.** The kernels see one Z row at a time. For the one-row widths, kernel
//! lane `k` is X/Y lane `k`. For the pair modes (§2.3: X lane `i` goes to row `(r & !1) | (i & 1)`,
//! f32 element `i >> 1`), kernel lanes 0..16 are X lanes 0, 2, …, 30 (the even row) and kernel
//! lanes 16..32 are X lanes 1, 3, …, 31 (the odd row), so each row is a contiguous half.

use amx_reference::{AluMode, Bmode, Chip, Decoded, LaneWidth, Operand, Select, XY, decode};

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
    /// the indexed expansion's, before any shuffle). Entries past the kernel's lane count are 0.
    pub gather: [u8; 32],
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
/// the reference catches a wrong fast model (`tests/planted.rs`). [`Plan::new`] never uses them.
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
fn shuffle_source(s: u8, j: usize, EC: usize, planted: bool) -> usize {
    let R = 1usize << (s & 3);
    let (q, r) = (j / R, j % R);
    let r = if planted && R == 2 { 1 - r } else { r };
    r * (EC / R) + q
}

/// X/Y lane `i` of kernel lane `k` (see the module docs).
fn lane_of(k: usize, pair: bool) -> usize {
    if !pair {
        k
    } else if k < 16 {
        2 * k
    } else {
        2 * (k - 16) + 1
    }
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
        let v = match decode(chip, operand) {
            Decoded::Nop(_) => return Plan::NOP,
            Decoded::Op(v) => v,
        };
        let pair = v.lw.is_pair();
        let eb = v.lw.eb();
        let EC = v.lw.EC();
        let kernel = match v.lw {
            LaneWidth::F16 => Kernel::F16,
            LaneWidth::Bf16 if planted == Some(PlantedBug::Bf16ViaF32) => Kernel::PlantedBf16ViaF32,
            LaneWidth::Bf16 => Kernel::Bf16,
            LaneWidth::F32 => Kernel::F32,
            LaneWidth::F64 => Kernel::F64,
            LaneWidth::F16F32Pair => Kernel::PairF16,
            LaneWidth::Bf16F32Pair => Kernel::PairBf16,
        };

        // §2.1 and §2.5: the lane-selection mode, the steps, the broadcast of X lane 0, zstep.
        let (mut mode, mut N) = (0u8, 0u8);
        let (mut xstep, mut ystep, mut xlane0, mut zstep) = (64usize, 64usize, false, 64usize);
        let (mut xoff, mut yoff) = (v.XOFF as usize & 511, v.YOFF as usize & 511);
        match v.select {
            Select::Writemask { WM_MODE, WM_N } => (mode, N) = (WM_MODE & 7, WM_N & 31),
            Select::Multi { BMODE, FOUR } => {
                match BMODE {
                    Bmode::Consecutive => {}
                    Bmode::ZeroOutput => N = 3,
                    Bmode::SameX => xstep = 0,
                    Bmode::SameY => ystep = 0,
                    Bmode::ZeroX => N = 4,
                    Bmode::ZeroY => N = 5,
                    Bmode::BroadcastX0 => (xstep, xlane0) = (0, true),
                    Bmode::BroadcastY0 => (ystep, mode, N) = (0, 1, 0),
                }
                zstep = if FOUR { 16 } else { 32 };
                if chip >= Chip::M4 && planted != Some(PlantedBug::M4MaskingIgnored) {
                    // §2.6, per operand: the indexed one keeps its whole index block inside one
                    // register; X with BMODE 6 / Y with BMODE 7 align to an element; else to 64.
                    let iters = 64 / zstep;
                    let align = |which: XY, lane0: bool| match v.indexed {
                        Some(ix) if ix.IDXY == which => (iters * 8 * ix.ib() / eb).min(64),
                        _ if lane0 => eb,
                        _ => 64,
                    };
                    xoff &= !(align(XY::X, BMODE == Bmode::BroadcastX0) - 1);
                    yoff &= !(align(XY::Y, BMODE == Bmode::BroadcastY0) - 1);
                }
            }
        }
        // §2.5: the indexed operand advances by one index block per iteration.
        if let Some(ix) = v.indexed {
            let step = if ix.IDXY == XY::X { &mut xstep } else { &mut ystep };
            *step = *step * ix.ib() / (8 * eb);
        }

        // §2.4: the enabled X lanes and the side effects of mode 0.
        let all: u64 = (1 << EC) - 1;
        let n = N as usize % EC;
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
        let enable = (0..EC).fold(0u32, |m, k| m | (((x_enable >> lane_of(k, pair)) & 1) as u32) << k);

        // §2.2: inputs the mode does not read are fetched as zeros (their value cannot matter).
        let uses_x = !zero_out && v.alu != AluMode::AddY;
        let uses_y = !zero_out
            && matches!(v.alu, AluMode::Fma | AluMode::Fms | AluMode::Select | AluMode::Mul | AluMode::AddY);
        let source = |which: XY, zeroed: bool, used: bool| match v.indexed {
            _ if zeroed || !used => Source::Zero,
            Some(ix) if ix.IDXY == which => Source::Indexed { tbl: ix.TBL & 7, ib: ix.ib() as u8 },
            _ => Source::Window,
        };
        let shuffle_planted = planted == Some(PlantedBug::ShuffleS1Swapped);
        // X lane i reads shuffled X lane (xlane0 ? 0 : i); Y lane i reads shuffled Y lane
        // (broadcast ? n : i), "taken after the Y shuffle" (§2.4).
        let fetch = |source: Source, shuf: u8, fixed: Option<usize>, off: usize, step: usize| {
            let mut gather = [0u8; 32];
            for (k, g) in gather.iter_mut().enumerate().take(EC) {
                let i = fixed.unwrap_or(lane_of(k, pair));
                *g = shuffle_source(shuf, i, EC, shuffle_planted) as u8;
            }
            let identity = gather.iter().take(EC).enumerate().all(|(k, &g)| g as usize == k);
            let off = std::array::from_fn(|it| ((off + it * step) & 511) as u16);
            Fetch { source, gather, identity, off }
        };
        let x = fetch(source(XY::X, zero_x, uses_x), v.XSHUF, xlane0.then_some(0), xoff, xstep);
        let y = fetch(source(XY::Y, zero_y, uses_y), v.YSHUF, broadcast.then_some(n), yoff, ystep);

        // §2.1: r := zr mod zstep; r < 64; r += zstep. §2.3: the pair modes use the even row.
        let iters = 64 / zstep;
        let r0 = v.ZROW as usize % zstep;
        let rows = std::array::from_fn(|it| {
            let r = (r0 + it * zstep) & 63;
            (if pair { r & !1 } else { r }) as u8
        });
        Plan { op: Some(Op { alu: v.alu, kernel, iters: iters as u8, rows, x, y, enable, zero_out }) }
    }
}
