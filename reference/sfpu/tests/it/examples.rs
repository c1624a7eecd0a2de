//! The example kernels in `examples/`, run on the cycle-level [`Machine`] exactly as
//! `sfpu-conformance run examples/<name>.sfpu [--state examples/<name>.state.yaml]` runs them (issue each
//! instruction, then drain), with their final state checked.
//!
//! Every expected value is derived independently of the model: by hand (with the arithmetic in a
//! comment), with Rust's own `f32` arithmetic where the operation is exact, or with the helpers
//! below, which are written from the pages: the Dst bit layouts and `Adj32` from BlackholeA0
//! `Dst.md`, `AdvancePRNG` from BlackholeA0 `VectorUnit.md`, the SFPSTOCHRND rounding rule from
//! BlackholeA0 `SFPSTOCHRND_FloatFloat.md`, the SFPARECIP results from
//! `docs/spec/sfpu-blackhole.md#sfparecip-tables` (the page's `ApproxRecip`), and the SFPTRANSP
//! data movement from WormholeB0 `SFPTRANSP.md`. Each example must also be clean for the
//! scheduling-rule linter (`--lint`) and every instruction's effect must be defined.

use crate::common::*;

use sfpu_reference::isa::{Arch, ProgramLine, SubUnit, parse_program};
use sfpu_reference::machine::TraceKind;
use sfpu_reference::state::LANES;
use sfpu_reference::{Machine, State, lint};

// ------------------------------------------------------------------------------------------------
// Running an example
// ------------------------------------------------------------------------------------------------

const EXAMPLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/");

fn read_example(name: &str) -> String {
    let path = format!("{EXAMPLES}{name}");
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"))
}

fn program(name: &str) -> Vec<ProgramLine> {
    parse_program(Arch::Blackhole, &read_example(name))
        .unwrap_or_else(|e| panic!("{name} does not parse: {e:?}"))
}

/// The initial state: the state file if there is one, else the reset state `xtask run` uses.
fn initial(state: Option<&str>) -> State {
    match state {
        Some(name) => State::from_yaml(&read_example(name)).unwrap_or_else(|e| panic!("{name}: {e}")),
        None => reset(),
    }
}

/// Runs the first `count` instructions of `name` (all of them for `usize::MAX`), then drains the
/// SFPLOADMACRO schedule, asserting that every effect is defined. Returns the final state and the
/// machine (for its cycle count and trace).
fn run_prefix(name: &str, state: Option<&str>, count: usize) -> (State, Machine) {
    let prog = program(name);
    let mut s = initial(state);
    let mut m = Machine::new();
    m.enable_trace();
    for pl in prog.iter().take(count) {
        let out = m.issue(&mut s, &pl.instr);
        assert!(out.is_defined(), "{name}:{}: {out}", pl.line);
    }
    let out = m.drain(&mut s);
    assert!(out.is_defined(), "{name}: drain: {out}");
    (s, m)
}

/// Runs the whole example, after checking that the linter finds no broken scheduling rule.
fn run_example(name: &str, state: Option<&str>) -> (State, Machine) {
    let findings = lint::lint(&initial(state), &program(name));
    assert!(findings.is_empty(), "{name}: lint findings: {findings:?}");
    run_prefix(name, state, usize::MAX)
}

// ------------------------------------------------------------------------------------------------
// Helpers written from the pages
// ------------------------------------------------------------------------------------------------

type DstImage = Box<[[u16; 16]; 1024]>;

fn empty_dst() -> DstImage {
    Box::new([[0u16; 16]; 1024])
}

/// `DstEncodeBF16` (Dst.md): IEEE BF16 (sign, 8-bit exponent, 7-bit mantissa) to Dst's BF16 layout
/// (sign in bit 15, mantissa in bits 14..8, exponent in bits 7..0).
fn dst_encode_bf16(x: u16) -> u16 {
    let e = (x >> 7) & 0xFF;
    let m = x & 0x7F;
    (x & 0x8000) | (m << 8) | e
}

/// `DstDecodeBF16` (Dst.md), the inverse of [`dst_encode_bf16`].
fn dst_decode_bf16(x: u16) -> u16 {
    let e = x & 0xFF;
    let m = (x >> 8) & 0x7F;
    (x & 0x8000) | (e << 7) | m
}

/// `DstEncodeFP16` (Dst.md): IEEE FP16 (sign, 5-bit exponent, 10-bit mantissa) to Dst's FP16 layout
/// (sign in bit 15, mantissa in bits 14..5, exponent in bits 4..0).
fn dst_encode_fp16(x: u16) -> u16 {
    let e = (x >> 10) & 0x1F;
    let m = x & 0x3FF;
    (x & 0x8000) | (m << 5) | e
}

/// `DstEncodeFP32` (Dst.md): the high half in the BF16 layout, the low half unchanged.
fn dst_encode_fp32(x: u32) -> u32 {
    ((dst_encode_bf16((x >> 16) as u16) as u32) << 16) | (x & 0xFFFF)
}

/// `Adj32` (Dst.md) with `remap_addrs` and `swizzle_32b` clear, as in every example.
fn adj32(r: usize) -> usize {
    ((r & 0x1F8) << 1) | (r & 0x207)
}

/// Writes `Dst32b[row][col] = value` (IEEE FP32 bits) into `dst`: high half to physical row
/// `Adj32(row)`, low half to `Adj32(row) + 8`.
fn put32(dst: &mut DstImage, row: usize, col: usize, value: u32) {
    let enc = dst_encode_fp32(value);
    dst[adj32(row)][col] = (enc >> 16) as u16;
    dst[adj32(row) + 8][col] = enc as u16;
}

/// Writes `Dst16b[row][col] = value` (already in Dst's layout); `Adj16` is the identity here.
fn put16(dst: &mut DstImage, row: usize, col: usize, value: u16) {
    dst[row][col] = value;
}

/// IEEE FP16 bits of an FP32 value that FP16 represents exactly as a normal number (or zero).
fn fp32_to_fp16_exact(x: u32) -> u16 {
    let sign = ((x >> 31) as u16) << 15;
    if x & 0x7FFF_FFFF == 0 {
        return sign;
    }
    let e = ((x >> 23) & 0xFF) as i32 - 127 + 15;
    assert!((1..31).contains(&e), "0x{x:08x} is outside FP16's normal range");
    assert_eq!(x & 0x1FFF, 0, "0x{x:08x} has more than 10 mantissa bits");
    sign | ((e as u16) << 10) | ((x >> 13) & 0x3FF) as u16
}

/// IEEE BF16 bits of an FP32 value that BF16 represents exactly.
fn fp32_to_bf16_exact(x: u32) -> u16 {
    assert_eq!(x & 0xFFFF, 0, "0x{x:08x} has more than 7 mantissa bits");
    (x >> 16) as u16
}

/// The (row, column) of lane `lane` for an SFPLOAD/SFPSTORE at `addr` (SFPLOAD.md: row
/// `(Addr & ~3) + Lane / 8`, column `(Lane & 7) * 2`, plus one if `Addr & 2`).
fn cell(addr: usize, lane: usize) -> (usize, usize) {
    ((addr & !3) + lane / 8, (lane & 7) * 2 + usize::from(addr & 2 != 0))
}

/// Compares all of Dst with `want`, listing the first differing cells.
#[track_caller]
fn assert_dst(s: &State, want: &DstImage, what: &str) {
    let mut diffs = Vec::new();
    for r in 0..1024 {
        for c in 0..16 {
            if s.Dst.DstBits[r][c] != want[r][c] {
                diffs.push(format!(
                    "row {r} col {c}: got 0x{:04x}, want 0x{:04x}",
                    s.Dst.DstBits[r][c], want[r][c]
                ));
            }
        }
    }
    let n = diffs.len();
    diffs.truncate(24);
    assert!(n == 0, "{what}: {n} Dst cells differ:\n  {}", diffs.join("\n  "));
}

fn per_lane(f: impl Fn(usize) -> u32) -> [u32; LANES] {
    std::array::from_fn(f)
}

/// `AdvancePRNG` (VectorUnit.md): returns the old state; the new state shifts right by one and
/// takes `~popcount(old & 0x80200003)` (its parity, inverted) as bit 31.
fn advance_prng(state: &mut u32) -> u32 {
    let result = *state;
    let taps = (result & 0x8020_0003).count_ones();
    *state = (!taps << 31) | (result >> 1);
    result
}

// ------------------------------------------------------------------------------------------------
// tile-walk-{fp32,bf16,fp16}.sfpu
// ------------------------------------------------------------------------------------------------

/// The input of access `k` (Addr = 2k), lane `l`: x = (32k + l - 128) / 2, i.e. lane/2 - 64 + 16k
/// (the program computes 2*lane*0.25 - 64 and adds 16.0 before each further access).
fn walk_x(k: usize, l: usize) -> f32 {
    (32 * k as i32 + l as i32 - 128) as f32 / 2.0
}

/// y = 2x + 1, exact: |2x + 1| <= 128 is an integer.
fn walk_y(k: usize, l: usize) -> f32 {
    let x = walk_x(k, l);
    let y = 2.0 * x + 1.0;
    assert_eq!(y as f64, 2.0 * x as f64 + 1.0);
    y
}

#[derive(Clone, Copy, PartialEq)]
enum Fmt {
    Fp32,
    Bf16,
    Fp16,
}

/// The Dst image after a tile walk in `fmt`: x at rows 0..15, y at rows 16..31, every cell of the
/// 16x16 tiles visited exactly once (access k covers rows 4(k/2)..+3, even columns for even k).
fn walk_dst(fmt: Fmt) -> DstImage {
    let mut d = empty_dst();
    let mut seen = [[false; 16]; 16];
    for k in 0..8 {
        for l in 0..LANES {
            let (row, col) = cell(2 * k, l);
            assert!(!seen[row][col], "the walk visits ({row}, {col}) twice");
            seen[row][col] = true;
            for (r, v) in [(row, walk_x(k, l)), (row + 16, walk_y(k, l))] {
                let bits = v.to_bits();
                match fmt {
                    Fmt::Fp32 => put32(&mut d, r, col, bits),
                    Fmt::Bf16 => put16(&mut d, r, col, dst_encode_bf16(fp32_to_bf16_exact(bits))),
                    Fmt::Fp16 => put16(&mut d, r, col, dst_encode_fp16(fp32_to_fp16_exact(bits))),
                }
            }
        }
    }
    assert!(seen.iter().flatten().all(|&v| v), "the walk covers the whole 16x16 tile");
    d
}

/// The LRegs every tile walk leaves: the inputs' generator registers, x of the last access in
/// LReg[4], y of the last access in LReg[0], 2.0 in LReg[5].
#[track_caller]
fn check_walk_lregs(s: &State) {
    assert_lanes(&s.LReg[1], &per_lane(|l| f((2 * l) as f32)), "LReg[1] = 2 * lane");
    assert_lanes(&s.LReg[2], &[0x3E80_0000; LANES], "LReg[2] = 0.25");
    assert_lanes(&s.LReg[3], &[0xC280_0000; LANES], "LReg[3] = -64.0");
    assert_lanes(&s.LReg[4], &per_lane(|l| f(walk_x(7, l))), "LReg[4] = x of access 7 = lane/2 + 48");
    assert_lanes(&s.LReg[5], &[0x4000_0000; LANES], "LReg[5] = 2.0");
    assert_lanes(&s.LReg[0], &per_lane(|l| f(walk_y(7, l))), "LReg[0] = y of access 7");
}

#[test]
fn tile_walk_inputs_and_results_are_exact_in_every_format() {
    // Spot checks of the generator and of the hand encoders, worked by hand.
    // Access 0, lane 0: x = -64 = 0xC2800000, y = -127 = 0xC2FE0000.
    assert_eq!(f(walk_x(0, 0)), 0xC280_0000);
    assert_eq!(f(walk_y(0, 0)), 0xC2FE_0000);
    // Access 7, lane 31: x = (224 + 31 - 128) / 2 = 63.5 = 0x427E0000, y = 128 = 0x43000000.
    assert_eq!(f(walk_x(7, 31)), 0x427E_0000);
    assert_eq!(f(walk_y(7, 31)), 0x4300_0000);
    // BF16 -127: IEEE 0xC2FE = sign 1, exponent 0x85, mantissa 0x7E -> Dst 0x8000 | 0x7E00 | 0x85.
    assert_eq!(dst_encode_bf16(0xC2FE), 0xFE85);
    assert_eq!(dst_decode_bf16(0xFE85), 0xC2FE);
    // FP16 -127 = -1.984375 * 2^6: exponent 6 + 15 = 21, mantissa 0.984375 * 1024 = 0x3F0 -> IEEE
    // 0xD7F0 -> Dst 0x8000 | 0x3F0 << 5 | 21.
    assert_eq!(fp32_to_fp16_exact(0xC2FE_0000), 0xD7F0);
    assert_eq!(dst_encode_fp16(0xD7F0), 0x8000 | (0x3F0 << 5) | 21);
    // FP32 -127 in Dst: high half 0xFE85 (as BF16), low half 0x0000.
    assert_eq!(dst_encode_fp32(0xC2FE_0000), 0xFE85_0000);
    // Adj32: 32-bit row 8 lives in physical rows 16 (high) and 24 (low); row 16 in 32 and 40.
    assert_eq!(adj32(0), 0);
    assert_eq!(adj32(8), 16);
    assert_eq!(adj32(16), 32);
    assert_eq!(adj32(31), 55);
}

#[test]
fn tile_walk_fp32() {
    let (s, _) = run_example("tile-walk-fp32.sfpu", None);
    // x in Dst32b rows 0..15 (physical rows 0..31), y in rows 16..31 (physical 32..63), nothing else.
    assert_dst(&s, &walk_dst(Fmt::Fp32), "tile-walk-fp32");
    // Cell by hand: Dst32b row 0, column 0 is access 0 lane 0, x = -64 = 0xC2800000, in the Dst
    // layout 0x8085_0000: physical row 0 holds 0x8085, row 8 holds 0x0000. Its y = -127 sits in
    // Dst32b row 16 = physical rows 32 (0xFE85) and 40 (0x0000).
    assert_eq!((s.Dst.DstBits[0][0], s.Dst.DstBits[8][0]), (0x8085, 0x0000));
    assert_eq!((s.Dst.DstBits[32][0], s.Dst.DstBits[40][0]), (0xFE85, 0x0000));
    check_walk_lregs(&s);
    assert_eq!(s.Addressing.RWC.Dst, 0, "Imm10 walk: ADDR_MOD_0 leaves RWC.Dst alone");
}

#[test]
fn tile_walk_bf16_with_rwc() {
    let (s, _) = run_example("tile-walk-bf16.sfpu", Some("tile-walk-bf16.state.yaml"));
    assert_dst(&s, &walk_dst(Fmt::Bf16), "tile-walk-bf16");
    // Cell by hand: Dst16b row 31, column 15 is access 7 (Addr 14 + 16 = 30: rows 28..31, odd
    // columns), lane 31: y = 128 = BF16 0x4300 (exponent 0x86, mantissa 0) -> Dst 0x0086.
    assert_eq!(s.Dst.DstBits[31][15], 0x0086);
    // And its x = 63.5 = BF16 0x427E (exponent 0x84, mantissa 0x7E) -> Dst 0x7E84 at row 15.
    assert_eq!(s.Dst.DstBits[15][15], 0x7E84);
    check_walk_lregs(&s);
    // Eight SFPSTOREs with ADDR_MOD_1 (DestIncr 2): RWC.Dst = 8 * 2.
    assert_eq!(s.Addressing.RWC.Dst, 16);
    assert_eq!(s.Addressing.RWC.Dst_Cr, 0);
}

#[test]
fn tile_walk_fp16() {
    let (s, _) = run_example("tile-walk-fp16.sfpu", None);
    assert_dst(&s, &walk_dst(Fmt::Fp16), "tile-walk-fp16");
    // Cell by hand: Dst16b row 0, column 1 is access 1 lane 0: x = (32 - 128) / 2 = -48 =
    // FP16 sign 1, exponent 5 + 15 = 20, mantissa 0x200 (1.5) -> Dst 0x8000 | 0x200 << 5 | 20 = 0xC014.
    assert_eq!(s.Dst.DstBits[0][1], 0xC014);
    // y = -95 = -1.484375 * 64: exponent 21, mantissa 0x1F0 -> Dst 0x8000 | 0x1F0 << 5 | 21 = 0xBE15.
    assert_eq!(s.Dst.DstBits[16][1], 0xBE15);
    check_walk_lregs(&s);
    assert_eq!(s.Addressing.RWC.Dst, 0);
}

// ------------------------------------------------------------------------------------------------
// recip-loadmacro.sfpu
// ------------------------------------------------------------------------------------------------

/// The inputs of the state file and their SFPARECIP results,
/// `docs/spec/sfpu-blackhole.md#sfparecip-tables` ("Examples: 1.0 -> 0x3F7F0000; 2.0 -> 0x3EFF0000;
/// 3.0 -> 0x3EAA0000; 0.5 -> 0x3FFF0000; 0.1 (0x3DCCCCCD) -> 0x41200000"), then the same negated:
/// SFPARECIP.md `x = Sign + ApproxRecip(x - Sign)` keeps the sign.
const RECIP: [(u32, u32); 10] = [
    (0x3F80_0000, 0x3F7F_0000),
    (0x4000_0000, 0x3EFF_0000),
    (0x4040_0000, 0x3EAA_0000),
    (0x3F00_0000, 0x3FFF_0000),
    (0x3DCC_CCCD, 0x4120_0000),
    (0xBF80_0000, 0xBF7F_0000),
    (0xC000_0000, 0xBEFF_0000),
    (0xC040_0000, 0xBEAA_0000),
    (0xBF00_0000, 0xBFFF_0000),
    (0xBDCC_CCCD, 0xC120_0000),
];

/// Row group `g` (Dst32b rows 4g..4g+3, even columns), lane `l`: input number (32g + l) % 10.
fn recip_case(g: usize, l: usize) -> (u32, u32) {
    RECIP[(32 * g + l) % 10]
}

#[test]
fn recip_table_agrees_with_the_page_formula() {
    // ApproxRecip (SFPARECIP.md): ((253 - E) << 23) | (LUT[(x >> 16) & 0x7F] << 16), with
    // LUT[0] = 127, LUT[64] = 42 (3.0 = 0x40400000: index 0x40) and LUT[76] = 32 (0.1: index 0x4C),
    // read off the page's table.
    // 1.0: E = 127 -> 126 << 23 = 0x3F000000 | 127 << 16 = 0x3F7F0000.
    assert_eq!((126u32 << 23) | (127 << 16), RECIP[0].1);
    // 2.0: E = 128 -> 125 -> 0x3E800000 | 0x7F0000 = 0x3EFF0000.
    assert_eq!((125u32 << 23) | (127 << 16), RECIP[1].1);
    // 3.0: E = 128 -> 125, LUT[64] = 42 = 0x2A -> 0x3EAA0000.
    assert_eq!((125u32 << 23) | (42 << 16), RECIP[2].1);
    // 0.5: E = 126 -> 127 -> 0x3FFF0000.
    assert_eq!((127u32 << 23) | (127 << 16), RECIP[3].1);
    // 0.1 = 0x3DCCCCCD: E = 123 -> 130 = 0x41000000, LUT[0x4C] = 32 = 0x20 -> 0x41200000 (10.0).
    assert_eq!((130u32 << 23) | (32 << 16), RECIP[4].1);
    for (x, y) in &RECIP[5..] {
        assert_eq!(x & 0x8000_0000, y & 0x8000_0000);
    }
}

#[test]
fn recip_loadmacro_stores_every_reciprocal_in_place() {
    let (s, m) = run_example("recip-loadmacro.sfpu", Some("recip-loadmacro.state.yaml"));

    // Dst: every even-column cell of Dst32b rows 0..15 holds the reciprocal of its input (the
    // scheduled SFPSTORE reuses the SFPLOADMACRO's address); odd columns and the rest stay 0.
    let mut want = empty_dst();
    for g in 0..4 {
        for l in 0..LANES {
            let (row, col) = cell(4 * g, l);
            put32(&mut want, row, col, recip_case(g, l).1);
        }
    }
    assert_dst(&s, &want, "recip-loadmacro");
    // By hand: Dst32b row 0 column 0 = group 0 lane 0 = 1/1.0 -> 0x3F7F0000, Dst layout 0x7F7E_0000
    // (mantissa 0x7F in bits 14..8, exponent 0x7E in bits 7..0): physical row 0 = 0x7F7E, row 8 = 0.
    assert_eq!((s.Dst.DstBits[0][0], s.Dst.DstBits[8][0]), (0x7F7E, 0x0000));
    // Dst32b row 13 column 14 = group 3 lane 15 (row 12 + 15/8 = 13, column 2*7): input number
    // (96 + 15) % 10 = 1 -> 2.0 -> 0x3EFF0000 -> Dst 0x7F7D_0000; Adj32(13) = (8 << 1) | 5 = 21, so
    // the high half is in physical row 21 and the low half in row 29.
    assert_eq!((s.Dst.DstBits[21][14], s.Dst.DstBits[29][14]), (0x7F7D, 0x0000));

    // LReg[0] holds the last group loaded, LReg[16] its reciprocal (written by the last scheduled
    // SFPARECIP, read by the last scheduled SFPSTORE).
    assert_lanes(&s.LReg[0], &per_lane(|l| recip_case(3, l).0), "LReg[0] = inputs of group 3");
    assert_lanes(&s.LReg[16], &per_lane(|l| recip_case(3, l).1), "LReg[16] = 1/x of group 3");

    // LoadMacroConfig, broadcast to all lanes: InstructionTemplate[0] = SFPARECIP (opcode 0x99 in
    // bits 31..24, every field 0 = Mod1 RECIP); Sequence[0] = store byte 0x4B (bit 6 | delay 1 << 3 |
    // selector 3) and simple byte 0x44 (bit 6 | delay 0 | selector 4); Misc = 3 (StoreMod0 FP32).
    for (l, c) in s.LoadMacroConfig.iter().enumerate() {
        assert_eq!(c.InstructionTemplate, [0x9900_0000, 0, 0, 0], "lane {l}");
        assert_eq!(c.Sequence, [0x4B00_0044, 0, 0, 0], "lane {l}");
        assert_eq!(c.Misc.bits(), 3, "lane {l}");
    }

    // Timing (SFPLOADMACRO.md: delay 0 executes the cycle after SFPLOADMACRO; delay 1 counts down
    // and executes the cycle after that). 11 instructions precede the macros (cycles 1..11, no stall:
    // nothing reads a two-cycle result), the macros issue on cycles 12..15, so SFPARECIP runs on
    // cycles 13..16 and the stores on 14..17: one row group per cycle, 17 cycles in all.
    assert_eq!(m.cycle(), 17);
    let on = |unit: SubUnit| -> Vec<u64> {
        m.trace()
            .iter()
            .filter(|e| e.unit == unit && e.what == TraceKind::Scheduled)
            .map(|e| e.cycle)
            .collect()
    };
    assert_eq!(on(SubUnit::Simple), vec![13, 14, 15, 16], "scheduled SFPARECIP cycles");
    assert_eq!(on(SubUnit::Store), vec![14, 15, 16, 17], "scheduled SFPSTORE cycles");
    assert!(m.trace().iter().all(|e| e.what != TraceKind::Discarded && e.what != TraceKind::Stalled));
}

// ------------------------------------------------------------------------------------------------
// transpose-reduce.sfpu
// ------------------------------------------------------------------------------------------------

/// The input: LReg[i] lane l = 2l + 64i (i = 0..3).
fn tr_in(i: usize, l: usize) -> f32 {
    (2 * l + 64 * i) as f32
}

/// The column sum of LReg[i]: sum over rows r of 2(8r + c) + 64i = 96 + 8c + 256i.
fn tr_sum(i: usize, c: usize) -> f32 {
    let s = (0..4).map(|r| tr_in(i, 8 * r + c)).sum::<f32>();
    assert_eq!(s, (96 + 8 * c + 256 * i) as f32);
    s
}

/// Instructions 1..5 build the inputs, 6 is the first SFPTRANSP, 7..9 the SFPADDs, 10 the last SFPTRANSP.
const TR_INPUTS: usize = 5;

#[test]
fn transpose_reduce_first_sfptransp_swaps_register_and_row() {
    // After the first SFPTRANSP (WormholeB0 SFPTRANSP.md, Transpose4): row j of LReg[i] holds what row
    // i of LReg[j] held, i.e. LReg[i] lane 8j + c = 2(8i + c) + 64j; the diagonal (i = j) stays.
    let (s, _) = run_prefix("transpose-reduce.sfpu", None, TR_INPUTS + 1);
    for i in 0..4 {
        let want = per_lane(|l| {
            let (j, c) = (l / 8, l % 8);
            f(tr_in(j, 8 * i + c))
        });
        assert_lanes(&s.LReg[i], &want, &format!("LReg[{i}] after one SFPTRANSP"));
    }
    // LReg[4..7] (64.0, 0, 0, 0) are transposed too: row j of LReg[4 + i] = row i of LReg[4 + j],
    // which is 64.0 for j = 0 (LReg[4]) and 0 otherwise: every one of them now has 64.0 in row 0 only.
    for i in 0..4 {
        assert_lanes(
            &s.LReg[4 + i],
            &per_lane(|l| if l < 8 { 0x4280_0000 } else { 0 }),
            &format!("LReg[{}]", 4 + i),
        );
    }
}

#[test]
fn transpose_reduce_sums_land_in_row_j_of_lreg0_before_transposing_back() {
    // After the three SFPADDs: LReg[0] row j = sum over i of LReg[i] row j (post-transpose)
    // = sum over i of the original LReg[j] row i = the column sums of the original LReg[j].
    let (s, _) = run_prefix("transpose-reduce.sfpu", None, TR_INPUTS + 4);
    let want = per_lane(|l| f(tr_sum(l / 8, l % 8)));
    assert_lanes(&s.LReg[0], &want, "LReg[0] = column sums, row j for register j");
}

#[test]
fn transpose_reduce_column_sums() {
    let (s, _) = run_example("transpose-reduce.sfpu", None);
    for i in 0..4 {
        // Row 0 (lanes 0..7) of LReg[i] = its column sums; rows 1..3 = the original values.
        let want = per_lane(|l| if l < 8 { f(tr_sum(i, l)) } else { f(tr_in(i, l)) });
        assert_lanes(&s.LReg[i], &want, &format!("LReg[{i}]"));
    }
    // By hand: LReg[0] lane 0 = 0 + 16 + 32 + 48 = 96 = 0x42C00000; LReg[3] lane 7 = 96 + 56 + 768
    // = 920 = 1.796875 * 512 = 0x44660000.
    assert_eq!(s.LReg[0][0], 0x42C0_0000);
    assert_eq!(s.LReg[3][7], 0x4466_0000);
    // LReg[4..7] are transposed twice and come back unchanged.
    assert_lanes(&s.LReg[4], &[0x4280_0000; LANES], "LReg[4] = 64.0");
    for r in 5..8 {
        assert_lanes(&s.LReg[r], &[0; LANES], &format!("LReg[{r}]"));
    }
    assert_dst(&s, &empty_dst(), "transpose-reduce does not touch Dst");
}

// ------------------------------------------------------------------------------------------------
// if-elseif-else.sfpu
// ------------------------------------------------------------------------------------------------

/// x = 2 * lane - 20.0: negative in lanes 0..9, +0 in lane 10 (20 - 20 is an exact +0), positive in 11..31.
fn ie_x(l: usize) -> u32 {
    f(2.0 * l as f32 - 20.0)
}

const NEG: u32 = 0x0000_03FF; // lanes 0..9
const ZERO: u32 = 0x0000_0400; // lane 10
const POS: u32 = 0xFFFF_F800; // lanes 11..31

fn stack_depths(s: &State) -> Vec<usize> {
    s.FlagStack.iter().map(|f| f.len()).collect()
}

fn use_mask(s: &State) -> u32 {
    mask(|l| s.UseLaneFlagsForLaneEnable[l])
}

#[test]
fn if_elseif_else_inputs() {
    assert_eq!(mask(|l| ie_x(l) >> 31 == 1), NEG);
    assert_eq!(mask(|l| ie_x(l) == 0), ZERO);
    assert_eq!(NEG | ZERO | POS, ALL);
    assert_eq!(ie_x(10), 0, "+0, not -0");
}

#[test]
fn if_elseif_else_inside_the_branches() {
    const NAME: &str = "if-elseif-else.sfpu";
    // Instructions: 3 inputs, then SFPENCC, PUSHC, SETCC LT0, LOADI, COMPC, PUSHC, SETCC EQ0, LOADI,
    // COMPC, LOADI, POPC, POPC, ENCC.

    // After SFPENCC + SFPPUSHC + SFPSETCC(LT0): lanes with x < 0 enabled, one entry {1, 1} pushed.
    let (s, _) = run_prefix(NAME, None, 6);
    assert_eq!(flags(&s), NEG);
    assert_eq!(use_mask(&s), ALL);
    assert_eq!(stack_depths(&s), vec![1; LANES]);

    // After the first SFPCOMPC (else): top {1, 1} -> LaneFlags = !(x < 0).
    let (s, _) = run_prefix(NAME, None, 8);
    assert_eq!(flags(&s), ZERO | POS);

    // After SFPPUSHC + SFPSETCC(EQ0): only x == 0; the x < 0 lanes were disabled, so SETCC left
    // their LaneFlags false. Stack: bottom {1, 1}, top {x >= 0, 1}.
    let (s, _) = run_prefix(NAME, None, 10);
    assert_eq!(flags(&s), ZERO);
    assert_eq!(mask(|l| s.IsLaneEnabled(l)), ZERO);
    assert_eq!(stack_depths(&s), vec![2; LANES]);
    for l in 0..LANES {
        let e = s.FlagStack[l].entries();
        assert!(e[0].LaneFlags && e[0].UseLaneFlagsForLaneEnable, "lane {l} bottom");
        assert_eq!(e[1].LaneFlags, (ZERO | POS) >> l & 1 == 1, "lane {l} top");
        assert!(e[1].UseLaneFlagsForLaneEnable, "lane {l} top");
    }

    // After the second SFPCOMPC: top.LaneFlags (x >= 0) && !(x == 0) = x > 0.
    let (s, _) = run_prefix(NAME, None, 12);
    assert_eq!(flags(&s), POS);

    // After the first SFPPOPC: back to {x >= 0, 1}, one entry left.
    let (s, _) = run_prefix(NAME, None, 14);
    assert_eq!(flags(&s), ZERO | POS);
    assert_eq!(stack_depths(&s), vec![1; LANES]);

    // After the second SFPPOPC: {1, 1}, the state right after the first SFPENCC; stack empty.
    let (s, _) = run_prefix(NAME, None, 15);
    assert_eq!(flags(&s), ALL);
    assert_eq!(use_mask(&s), ALL);
    assert_eq!(stack_depths(&s), vec![0; LANES]);
}

#[test]
fn if_elseif_else_writes_one_constant_per_branch() {
    let (s, _) = run_example("if-elseif-else.sfpu", None);
    // y: -1.0 (0xBF800000) where x < 0, 0.0 where x == 0, 1.0 (0x3F800000) where x > 0; the marker
    // 42.0 (0x42280000) survives nowhere, so every lane took exactly one branch.
    let want = per_lane(|l| match l {
        0..=9 => 0xBF80_0000,
        10 => 0x0000_0000,
        _ => 0x3F80_0000,
    });
    assert_lanes(&s.LReg[2], &want, "LReg[2] = sign(x)");
    assert_lanes(&s.LReg[1], &per_lane(ie_x), "LReg[1] = x");
    // Predication restored to the reset state by the final SFPENCC(EI | RI, Imm2 = 0).
    assert_eq!(flags(&s), 0);
    assert_eq!(use_mask(&s), 0);
    assert_eq!(stack_depths(&s), vec![0; LANES]);
    assert_eq!(mask(|l| s.IsLaneEnabled(l)), ALL);
}

// ------------------------------------------------------------------------------------------------
// stochastic-round-bf16.sfpu
// ------------------------------------------------------------------------------------------------

/// C = 0x3F9E0400 = 1 + 0x1E0400 / 2^23 = 1.2344970703125: 14 significant bits.
const SR_C: u32 = 0x3F9E_0400;

/// The input of access k, lane l: x = ±n * C with n = 2l + 1 + 64k (1..511), negative for odd k.
/// Exact: n has at most 9 significant bits, C 14, so the product fits FP32's 24.
fn sr_x(k: usize, l: usize) -> u32 {
    let n = (2 * l + 1 + 64 * k) as f32;
    let c = f32::from_bits(SR_C);
    let x = n * c;
    assert_eq!(x as f64, n as f64 * c as f64, "n * C must be exact");
    let x = if k % 2 == 1 { -x } else { x };
    f(x)
}

/// Truncation to 7 mantissa bits: the lower BF16 neighbour (towards zero) of x.
fn trunc16(x: u32) -> u32 {
    x & 0xFFFF_0000
}

/// SFPSTOCHRND_FloatFloat.md, Mod1 FP32_TO_FP16B, RoundingMode STOCH, for a normal x:
/// `DiscardedBits = x & 0xffff; x -= DiscardedBits; if (DiscardedBits >= (PRNGBits >> 7)) x += 0x10000`
/// with `PRNGBits = AdvancePRNG() & 0x7fffff`. Returns every access's results and the final PRNG.
fn sr_expected(prng0: &[u32; LANES]) -> ([[u32; LANES]; 8], [u32; LANES]) {
    let mut prng = *prng0;
    let mut out = [[0u32; LANES]; 8];
    for (k, row) in out.iter_mut().enumerate() {
        for l in 0..LANES {
            let x = sr_x(k, l);
            let e = (x >> 23) & 0xFF;
            assert!(e != 0 && e != 255, "inputs are normal");
            let bits = advance_prng(&mut prng[l]) & 0x7F_FFFF;
            let discarded = x & 0xFFFF;
            row[l] = (x - discarded) + if discarded >= bits >> 7 { 0x10000 } else { 0 };
        }
    }
    (out, prng)
}

const SR_STATE: &str = "stochastic-round-bf16.state.yaml";

#[test]
fn advance_prng_by_hand() {
    // State 0: popcount(0 & taps) = 0 -> bit 31 = 1: 0x80000000; then the taps see bit 31 (odd) -> 0
    // shifted in: 0x40000000; no tap -> 0xA0000000; bit 31 -> 0x50000000; -> 0xA8000000; -> 0x54000000;
    // -> 0xAA000000; -> 0x55000000 (8 advances).
    let mut s = 0u32;
    let seq: Vec<u32> = (0..8).map(|_| advance_prng(&mut s)).collect();
    assert_eq!(
        seq,
        [0, 0x8000_0000, 0x4000_0000, 0xA000_0000, 0x5000_0000, 0xA800_0000, 0x5400_0000, 0xAA00_0000]
    );
    assert_eq!(s, 0x5500_0000);
    // 0xFFFFFFFF: popcount(0x80200003) = 4, even -> bit 31 = 1 again: a fixed point.
    let mut s = 0xFFFF_FFFFu32;
    advance_prng(&mut s);
    assert_eq!(s, 0xFFFF_FFFF);
}

#[test]
fn stochastic_round_bf16_worked_lanes() {
    let (s, _) = run_example("stochastic-round-bf16.sfpu", Some(SR_STATE));
    // Access 0 results are in Dst16b rows 32..35, even columns (lane l: row 32 + l/8, col 2(l%8)).
    let bf16_at = |row: usize, col: usize| dst_decode_bf16(s.Dst.DstBits[row][col]) as u32;

    // Lane 0: x = 1 * C = 0x3F9E0400, discarded 0x0400; PRNG 0x00020000 -> threshold
    // (0x20000 & 0x7FFFFF) >> 7 = 0x400; 0x400 >= 0x400 (the documented ">=") -> 0x3F9F0000.
    assert_eq!(sr_x(0, 0), 0x3F9E_0400);
    assert_eq!(bf16_at(32, 0) << 16, 0x3F9F_0000);
    // Lane 1: x = 3 * C: significand 3 * 0x9E0400 = 0x1DA0C00 (25 bits) -> 0xED0600, exponent 128:
    // 0x406D0600, discarded 0x0600; PRNG 0x00030080 -> threshold 0x601 > 0x600 -> 0x406D0000.
    assert_eq!(sr_x(0, 1), 0x406D_0600);
    assert_eq!(bf16_at(32, 2) << 16, 0x406D_0000);
    // Lane 4: x = 9 * C: 9 * 0x9E0400 = 0x4F02000 + 0x9E0400 = 0x58E2400 (27 bits) -> 0xB1C480,
    // exponent 130: 0x4131C480, discarded 0xC480; PRNG 0x00400000 -> threshold 0x8000 <= 0xC480
    // -> up: 0x41320000.
    assert_eq!(sr_x(0, 4), 0x4131_C480);
    assert_eq!(bf16_at(32, 8) << 16, 0x4132_0000);

    // Lane 2 (PRNG 0): the low 23 bits of the state stay 0 for 8 advances (0, 0x80000000, ...,
    // 0xAA000000, see advance_prng_by_hand), so every threshold is 0 and every access rounds up.
    // Lane 3 (PRNG 0xFFFFFFFF, a fixed point): every threshold is 0xFFFF, so a value rounds up only
    // if all 16 discarded bits are 1 (none here): every access truncates.
    for k in 0..8 {
        let (row2, col2) = cell(32 + 2 * k, 2);
        let (row3, col3) = cell(32 + 2 * k, 3);
        assert_eq!(bf16_at(row2, col2) << 16, trunc16(sr_x(k, 2)) + 0x10000, "lane 2, access {k}");
        assert_ne!(sr_x(k, 3) & 0xFFFF, 0xFFFF);
        assert_eq!(bf16_at(row3, col3) << 16, trunc16(sr_x(k, 3)), "lane 3, access {k}");
    }
    // Final PRNG: lane 2 after 8 advances from 0 is 0x55000000; lane 3 stays 0xFFFFFFFF.
    assert_eq!(s.PRNG[2], 0x5500_0000);
    assert_eq!(s.PRNG[3], 0xFFFF_FFFF);
}

#[test]
fn stochastic_round_bf16_whole_tile() {
    let init = initial(Some(SR_STATE));
    let (s, _) = run_example("stochastic-round-bf16.sfpu", Some(SR_STATE));
    let (want, prng) = sr_expected(&init.PRNG);

    let mut dst = empty_dst();
    let (mut ups, mut downs) = (0, 0);
    for (k, results) in want.iter().enumerate() {
        for l in 0..LANES {
            let x = sr_x(k, l);
            let r = results[l];
            // (a) r is one of x's two BF16 neighbours: x truncated, or that plus one BF16 ulp
            // (the latter also when nothing was discarded: the documented ">=" bug).
            assert!(r == trunc16(x) || r == trunc16(x) + 0x10000, "access {k} lane {l}");
            if r == trunc16(x) {
                downs += 1
            } else {
                ups += 1
            }
            let (row, col) = cell(2 * k, l);
            put32(&mut dst, row, col, x); // the FP32 input tile, rows 0..15
            // The BF16 result, Dst16b rows 32..47, and its FP32 copy after the BF16 round trip,
            // Dst32b rows 48..63: (b) the same value, as SFPSTORE BF16 of a value with 7 mantissa
            // bits and SFPLOAD BF16 are both exact.
            put16(&mut dst, row + 32, col, dst_encode_bf16(fp32_to_bf16_exact(r)));
            put32(&mut dst, row + 48, col, r);
        }
    }
    assert!(ups > 20 && downs > 20, "the inputs exercise both directions ({ups} up, {downs} down)");
    assert_dst(&s, &dst, "stochastic-round-bf16");

    // (b) in the LRegs too: the last access's SFPSTOCHRND result (LReg[4]) equals what SFPLOAD BF16
    // read back (LReg[5]); LReg[0] is that access's input.
    assert_lanes(&s.LReg[4], &want[7], "LReg[4] = rounded x of access 7");
    assert_lanes(&s.LReg[5], &want[7], "LReg[5] = BF16 round trip of LReg[4]");
    assert_lanes(&s.LReg[0], &per_lane(|l| sr_x(7, l)), "LReg[0] = x of access 7");
    // Each lane's PRNG advanced once per SFPSTOCHRND (8 times).
    assert_lanes(&s.PRNG, &prng, "PRNG after 8 advances");
}
