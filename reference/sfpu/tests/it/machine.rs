//! The cycle-level [`Machine`]: SFPLOADMACRO (its load part, the scheduling of up to four
//! instructions on the Simple, MAD, Round and Store sub-units, their timing, cancellation and field
//! overrides, the scheduled SFPSTORE, LReg[16], collisions and the `SFPLOADMACRO.md` rules), the
//! automatic stalls of regular instructions and their documented blind spots, the SFPCONFIG /
//! DISABLE_BACKDOOR_LOAD rule, the linter, and `step` on a lone SFPLOADMACRO.
//!
//! Sources: BlackholeA0 `SFPLOADMACRO.md` (functional model, timing paragraph, "extra
//! considerations"), `SFPCONFIG.md`, `SFPMAD.md` / `SFPSWAP.md` / `SFPSHFT2.md` "Instruction
//! scheduling", `SFPLOAD.md` / `SFPSTORE.md` / `Dst.md` (addresses and conversions), WormholeB0
//! `RWCs.md`; the clauses of `docs/spec/sfpu-blackhole.md#hazard` and after it. Every expected
//! value is derived by hand next to its assertion (or with Rust's exact `f32` arithmetic on small
//! integers).
//!
//! Cycle numbering (the `Machine`'s): the first `issue` is cycle 1, each `issue`/`idle` is one more
//! cycle (plus one per stall). Per `SFPLOADMACRO.md`, an instruction scheduled with delay 0 by an
//! SFPLOADMACRO in cycle `c` executes in cycle `c + 1`; delay `k` counts down once per cycle from
//! `c + 1` on and executes the cycle after it reaches 0, i.e. in cycle `c + k + 1`.

use crate::common::*;

use sfpu_reference::isa::{Arch, Opcode, SubUnit, parse_program};
use sfpu_reference::lint::lint;
use sfpu_reference::machine::TraceKind;
use sfpu_reference::state::{AddrModSlot, LANES, LaneConfig, LoadMacroConfig, Misc};
use sfpu_reference::{Clause, Instr, Kind, Machine, Outcome, State, step};

/// A value no instruction in these tests produces, for "not written (yet)".
const SENT: u32 = 0xDEAD_BEEF;

// MOD0_FMT_* (SFPLOAD.md / SFPSTORE.md supporting definitions).
const FP32: u32 = 3;
const INT32: u32 = 4;
const UINT16: u32 = 6;
const HI16: u32 = 7;
const INT16: u32 = 8;
const ZERO: u32 = 11;
const HI16_ONLY: u32 = 15;

// Sequence byte selectors (SFPLOADMACRO.md functional model).
const SEL_NOP: u32 = 2;
const SEL_STORE: u32 = 3;
const T0: u32 = 4; // InstructionTemplate[0]
const T1: u32 = 5;
const T2: u32 = 6;
const T3: u32 = 7;

// ------------------------------------------------------------------------------------------------
// Instruction words for InstructionTemplate, by hand from the encodings (Diagrams/Bits32.lua):
// opcode in [31:24], then the fields at the bit positions the diagram draws.
// ------------------------------------------------------------------------------------------------

/// SFPIADD (0x79): Imm12 [23:12], VC [11:8], VD [7:4], Mod1 [3:0]. Mod1 5 = ARG_IMM | CC_NONE:
/// `L[VD] = L[VC] + sext(Imm12)`, flags untouched.
const fn iadd_imm(imm12: u32, vc: u32, vd: u32) -> u32 {
    0x7900_0000 | (imm12 & 0xFFF) << 12 | vc << 8 | vd << 4 | 5
}
/// SFPIADD with Mod1 4 = ARG_LREG_DST | CC_NONE: `L[VD] = L[VC] + L[VB]` (VB is not a field).
const fn iadd_reg(vc: u32, vd: u32) -> u32 {
    0x7900_0000 | vc << 8 | vd << 4 | 4
}
/// SFPXOR (0x8D): VC [11:8], VD [7:4]: `L[VD] = L[VB] ^ L[VC]` (VB is not a field).
const fn xor(vc: u32, vd: u32) -> u32 {
    0x8D00_0000 | vc << 8 | vd << 4
}
/// SFPMAD (0x84): VA [19:16], VB [15:12], VC [11:8], VD [7:4], Mod1 [3:0].
const fn mad(va: u32, vb: u32, vc: u32, vd: u32, mod1: u32) -> u32 {
    0x8400_0000 | va << 16 | vb << 12 | vc << 8 | vd << 4 | mod1
}
/// SFPADDI (0x75): Imm16 [23:8], VD [7:4], Mod1 [3:0] (no VB or VC field).
const fn addi(imm16: u32, vd: u32) -> u32 {
    0x7500_0000 | imm16 << 8 | vd << 4
}
/// SFPMULI (0x74): same layout as SFPADDI.
const fn muli(imm16: u32, vd: u32) -> u32 {
    0x7400_0000 | imm16 << 8 | vd << 4
}
/// SFPSHFT2 (0x94): Imm12 (or VB in [15:12]) [23:12], VC [11:8], VD [7:4], Mod1 [3:0].
const fn shft2(imm12: u32, vc: u32, vd: u32, mod1: u32) -> u32 {
    0x9400_0000 | imm12 << 12 | vc << 8 | vd << 4 | mod1
}
/// SFPARECIP (0x99): VB [15:12], VC [11:8], VD [7:4], Mod1 [3:0].
const fn arecip(vb: u32, vc: u32, vd: u32, mod1: u32) -> u32 {
    0x9900_0000 | vb << 12 | vc << 8 | vd << 4 | mod1
}
/// SFPSTORE (0x72, Blackhole layout): VD [23:20], Mod0 [19:16], AddrMod [15:13], Imm10 [9:0].
const fn store(vd: u32, mod0: u32, addr_mod: u32, imm10: u32) -> u32 {
    0x7200_0000 | vd << 20 | mod0 << 16 | addr_mod << 13 | imm10
}
/// SFPSWAP (0x92): VC [11:8], VD [7:4], Mod1 [3:0].
const fn swap(vc: u32, vd: u32, mod1: u32) -> u32 {
    0x9200_0000 | vc << 8 | vd << 4 | mod1
}
/// SFPNOP (0x8F).
const NOP: u32 = 0x8F00_0000;

#[test]
fn hand_encoded_template_words_agree_with_the_encoder() {
    // Sanity check of the arithmetic above only; the tests below never use the encoder.
    let cases: &[(u32, &str)] = &[
        (iadd_imm(1, 0, 0), "TTI_SFPIADD(1, 0, 0, 5)"),
        (iadd_reg(2, 6), "TTI_SFPIADD(0, 2, 6, 4)"),
        (xor(2, 6), "TTI_SFPXOR(0, 2, 6, 0)"),
        (mad(2, 3, 4, 5, 0), "TTI_SFPMAD(2, 3, 4, 5, 0)"),
        (addi(0x3F80, 3), "TTI_SFPADDI(0x3f80, 3, 0)"),
        (muli(0x4000, 3), "TTI_SFPMULI(0x4000, 3, 0)"),
        (shft2(4, 0, 2, 6), "TTI_SFPSHFT2(4, 0, 2, 6)"),
        (arecip(0, 0, 0, 0), "TTI_SFPARECIP(0, 0, 0, 0)"),
        (store(3, 4, 2, 0), "TTI_SFPSTORE(3, 4, 2, 0)"),
        (swap(3, 0, 1), "TTI_SFPSWAP(0, 3, 0, 1)"),
        (NOP, "TTI_SFPNOP"),
    ];
    for &(word, text) in cases {
        assert_eq!(word, instr(text).encode(Arch::Blackhole).unwrap(), "{text}");
    }
    // 0x79001005: 0x79 << 24 | 1 << 12 | 5.
    assert_eq!(iadd_imm(1, 0, 0), 0x7900_1005);
    // 0x94004026: 0x94 << 24 | 4 << 12 | 2 << 4 | 6.
    assert_eq!(shft2(4, 0, 2, 6), 0x9400_4026);
}

// ------------------------------------------------------------------------------------------------
// Helpers
// ------------------------------------------------------------------------------------------------

/// One Sequence byte without its flag bits: selector [2:0], delay [5:3].
const fn at(sel: u32, delay: u32) -> u32 {
    sel | delay << 3
}
/// Sequence byte bit 6: the result goes to LReg[16] (store: stores LReg[16]).
const L16: u32 = 0x40;
/// Sequence byte bit 7: the loaded register goes to VB (store: keep the template's VD).
const VB: u32 = 0x80;

/// A Sequence word: byte i for sub-unit i (Simple, MAD, Round, Store).
const fn seq(simple: u32, mad: u32, round: u32, store: u32) -> u32 {
    simple | mad << 8 | round << 16 | store << 24
}

/// Misc: StoreMod0 [3:0], UsesLoadMod0ForStore [7:4], UnitDelayKind [11:8].
const fn misc(store_mod0: u32, uses_load_mod0: u32, delay_kind: u32) -> u32 {
    store_mod0 | uses_load_mod0 << 4 | delay_kind << 8
}

/// Sets the same LoadMacroConfig in every lane.
fn configure(s: &mut State, templates: [u32; 4], sequences: [u32; 4], misc_bits: u32) {
    let c = LoadMacroConfig {
        InstructionTemplate: templates,
        Sequence: sequences,
        Misc: Misc::new(misc_bits).unwrap(),
    };
    for l in 0..LANES {
        s.LoadMacroConfig[l] = c;
    }
}

/// [`configure`] with only `Sequence[0]` (macro 0) non-zero.
fn configure0(s: &mut State, templates: [u32; 4], sequence0: u32, misc_bits: u32) {
    configure(s, templates, [sequence0, 0, 0, 0], misc_bits);
}

/// `SFPLOADMACRO` with MacroIndex `mi`, VD `vd` (0..7) and an even Dst address `addr`: the
/// encoding splits VD into VDLo (bits [1:0]) and VDHi (bit 2), and `Imm10 = Imm9 << 1 | VDHi`, so
/// the address's bit 0 is VD's bit 2 (and unused by the address computation).
fn lm(mi: u32, vd: u32, mod0: u32, addr_mod: u32, addr: u32) -> Instr {
    assert!(addr & 1 == 0 && vd < 8);
    instr(&format!(
        "TTI_SFPLOADMACRO(({mi} << 2) | {}, {mod0}, {addr_mod}, ({} << 1) | {})",
        vd & 3,
        addr >> 1,
        vd >> 2
    ))
}

/// `DstEncodeBF16` (Dst.md): IEEE BF16 to Dst's sign, man(7), exp(8) layout.
fn dst_encode_bf16(x: u32) -> u16 {
    ((x & 0x8000) | (x & 127) << 8 | (x >> 7) & 255) as u16
}
/// `DstDecodeBF16` (Dst.md).
fn dst_decode_bf16(x: u16) -> u32 {
    let x = x as u32;
    (x & 0x8000) | (x & 255) << 7 | (x >> 8) & 127
}

/// The Dst row and column lane `lane` of a 4-row group at `addr` uses (SFPLOAD.md / SFPSTORE.md):
/// `Row = (Addr & ~3) + Lane / 8`, `Column = 2 * (Lane & 7) + ((Addr & 2) ? 1 : 0)`.
fn cell(addr: u32, lane: usize) -> (usize, usize) {
    ((addr & !3) as usize + lane / 8, 2 * (lane & 7) + ((addr >> 1) & 1) as usize)
}

/// `Adj32(r)` with no remapping or swizzle (Dst.md): `((r & 0x1f8) << 1) | (r & 0x207)`.
fn adj32(r: usize) -> usize {
    ((r & 0x1F8) << 1) | (r & 0x207)
}

/// Writes `vals` to the group at `addr` as `Dst32b[Row][Column] = DstEncodeFP32(v)`, so that an
/// FP32/INT32 load gives back `vals`.
fn put32(s: &mut State, addr: u32, vals: &[u32; LANES]) {
    for (lane, &v) in vals.iter().enumerate() {
        let (row, col) = cell(addr, lane);
        let a = adj32(row);
        s.Dst.DstBits[a][col] = dst_encode_bf16(v >> 16);
        s.Dst.DstBits[a + 8][col] = v as u16;
    }
}

/// Reads the group at `addr` as `DstDecodeFP32(Dst32b[Row][Column])`.
fn get32(s: &State, addr: u32) -> [u32; LANES] {
    std::array::from_fn(|lane| {
        let (row, col) = cell(addr, lane);
        let a = adj32(row);
        dst_decode_bf16(s.Dst.DstBits[a][col]) << 16 | s.Dst.DstBits[a + 8][col] as u32
    })
}

/// Reads the group at `addr` through the 16-bit view (`Adj16` is the identity here).
fn get16(s: &State, addr: u32) -> [u32; LANES] {
    std::array::from_fn(|lane| {
        let (row, col) = cell(addr, lane);
        s.Dst.DstBits[row][col] as u32
    })
}

/// Writes the group at `addr` through the 16-bit view.
fn put16(s: &mut State, addr: u32, vals: &[u32; LANES]) {
    for (lane, &v) in vals.iter().enumerate() {
        let (row, col) = cell(addr, lane);
        s.Dst.DstBits[row][col] = v as u16;
    }
}

fn lanes(f: impl Fn(usize) -> u32) -> [u32; LANES] {
    std::array::from_fn(f)
}

/// The scheduled executions in the trace: (cycle, sub-unit, opcode), ordered by cycle and then
/// sub-unit (Simple, MAD, Round, Store).
fn scheduled(m: &Machine) -> Vec<(u64, SubUnit, Opcode)> {
    let order = |u: SubUnit| {
        [SubUnit::Simple, SubUnit::MAD, SubUnit::Round, SubUnit::Store].iter().position(|&x| x == u)
    };
    let mut v: Vec<_> = m
        .trace()
        .iter()
        .filter(|e| e.what == TraceKind::Scheduled)
        .map(|e| (e.cycle, e.unit, e.instr.opcode()))
        .collect();
    v.sort_by_key(|&(c, u, _)| (c, order(u)));
    v
}

fn stalls(m: &Machine) -> usize {
    m.trace().iter().filter(|e| e.what == TraceKind::Stalled).count()
}

fn traced() -> Machine {
    let mut m = Machine::new();
    m.enable_trace();
    m
}

/// Issues `texts` in order on `m`, merging the outcomes.
fn issue_all(m: &mut Machine, s: &mut State, texts: &[&str]) -> Outcome {
    let mut out = Outcome::defined();
    for t in texts {
        out.merge(&m.issue(s, &instr(t)));
    }
    out
}

/// A state with recognisable values in LReg[0..8] and LReg[16].
fn base() -> State {
    let mut s = reset();
    for r in 0..8 {
        s.LReg[r] = lanes(|l| 0x0100_0000 * (r as u32 + 1) + l as u32);
    }
    fill(&mut s, 16, SENT);
    s
}

fn f32s(f: impl Fn(usize) -> f32) -> [u32; LANES] {
    std::array::from_fn(|l| f(l).to_bits())
}

// ------------------------------------------------------------------------------------------------
// SFPLOADMACRO: the load part
// ------------------------------------------------------------------------------------------------

#[test]
fn load_part_uses_its_own_mod0_vd_and_imm10() {
    // Sequence words are zero at ResetValues::ZEROS: nothing is scheduled, only the load runs.
    let mut s = base();
    for lane in 0..LANES {
        for row in 0..12 {
            s.Dst.DstBits[row][2 * (lane & 7)] = 0x2000 + (row * 8 + (lane & 7)) as u16; // even
            s.Dst.DstBits[row][2 * (lane & 7) + 1] = 0x8000 + (row * 8 + (lane & 7)) as u16; // odd
        }
    }
    let before = s.clone();

    // VD 5 = VDHi 1, VDLo 1; Imm9 5 => Imm10 = 5 << 1 | 1 = 11: Addr & ~3 = 8 (rows 8..11),
    // Addr & 2 set (odd columns). Mod0 6 = UINT16: Datum = Dst16b (zero-extended).
    let mut m = traced();
    let out = m.issue(&mut s, &instr("TTI_SFPLOADMACRO((0 << 2) | 1, 6, 0, (5 << 1) | 1)"));
    assert_defined(&out);
    // Lane l reads row 8 + l/8, column 2*(l&7)+1, which holds 0x8000 + row*8 + (l&7) = 0x8040 + l.
    assert_lanes(&s.LReg[5], &lanes(|l| 0x8040 + l as u32), "VD 5, UINT16, odd columns of rows 8..11");
    for r in [0, 1, 2, 3, 4, 6, 7, 16] {
        assert_lanes(&s.LReg[r], &before.LReg[r], "other LRegs untouched");
    }
    assert!(m.pending().is_empty());
    assert_eq!(m.cycle(), 1);
    let t = m.trace();
    assert_eq!(t.len(), 1);
    assert_eq!((t[0].cycle, t[0].unit, t[0].what), (1, SubUnit::Load, TraceKind::Issued));

    // VD 2 = VDHi 0, VDLo 2; Imm9 2 => Imm10 4: rows 4..7, even columns. Mod0 7 = HI16:
    // Datum = Dst16b << 16 = (0x2000 + 32 + l) << 16.
    let out = m.issue(&mut s, &lm(0, 2, HI16, 0, 4));
    assert_defined(&out);
    assert_lanes(&s.LReg[2], &lanes(|l| (0x2020 + l as u32) << 16), "VD 2, HI16, rows 4..7");

    // VD 7 = VDHi 1, VDLo 3; Imm9 0 => Imm10 = 1: bit 0 is unused, so rows 0..3, even columns.
    // Mod0 8 = INT16: Sign << 31 | (x & 0x7fff), and the even cells hold 0x2000 + l (sign 0).
    let out = m.issue(&mut s, &lm(0, 7, INT16, 0, 0));
    assert_defined(&out);
    assert_lanes(&s.LReg[7], &lanes(|l| 0x2000 + l as u32), "VD 7, INT16, rows 0..3");
    // ... and with the odd cells (0x8000 + l: sign set, magnitude l) via Imm9 1 => Addr 3.
    let out = m.issue(&mut s, &lm(0, 7, INT16, 0, 2));
    assert_defined(&out);
    assert_lanes(&s.LReg[7], &lanes(|l| 0x8000_0000 | l as u32), "VD 7, INT16, odd columns");
}

#[test]
fn load_part_applies_the_partial_addr_mod() {
    let mut s = base();
    put16(&mut s, 0, &lanes(|l| 0x100 + l as u32));
    put16(&mut s, 4, &lanes(|l| 0x200 + l as u32));
    // ADDR_MOD slot 3: Dst += 4, FidelityPhase += 1 (the partial form skips FidelityPhase).
    s.Addressing.ADDR_MOD[3] = AddrModSlot { DestIncr: 4, FidelityIncr: 1, ..AddrModSlot::default() };
    let mut m = Machine::new();
    let out = m.issue(&mut s, &lm(0, 1, UINT16, 3, 0));
    assert_ne!(out.worst(), Some(Kind::Undefined), "{out}");
    assert_lanes(&s.LReg[1], &lanes(|l| 0x100 + l as u32), "first load: Addr 0 + RWC.Dst 0");
    assert_eq!(s.Addressing.RWC.Dst, 4, "ApplyPartialAddrMod(3): Dst += 4");
    assert_eq!(s.Addressing.RWC.FidelityPhase, 0, "partial: FidelityPhase untouched");
    m.issue(&mut s, &lm(0, 2, UINT16, 3, 0));
    assert_lanes(&s.LReg[2], &lanes(|l| 0x200 + l as u32), "second load: Addr 0 + RWC.Dst 4");
    assert_eq!(s.Addressing.RWC.Dst, 8);
}

// ------------------------------------------------------------------------------------------------
// Timing
// ------------------------------------------------------------------------------------------------

/// Macro 0 = SFPIADD "+1" on Simple into LReg[16] with `delay`; loads `0x100 * lane` into L1.
fn plus_one_into_l16(delay: u32, delay_kind: u32) -> State {
    let mut s = base();
    put32(&mut s, 0, &lanes(|l| 0x100 * l as u32));
    configure0(
        &mut s,
        [iadd_imm(1, 0, 0), 0, 0, 0],
        seq(L16 | at(T0, delay), 0, 0, 0),
        misc(0, 0, delay_kind),
    );
    s
}

#[test]
fn delay_zero_executes_on_the_cycle_after_the_loadmacro() {
    let mut s = plus_one_into_l16(0, 0);
    let mut m = traced();
    let out = m.issue(&mut s, &lm(0, 1, INT32, 0, 0));
    assert_defined(&out);
    assert_lanes(&s.LReg[1], &lanes(|l| 0x100 * l as u32), "load part");
    assert_lanes(&s.LReg[16], &[SENT; LANES], "nothing executed in the SFPLOADMACRO's own cycle");
    assert_eq!(m.pending().len(), 1);
    let p = &m.pending()[0];
    assert_eq!(p.unit, SubUnit::Simple);
    assert_eq!(p.instr.opcode(), Opcode::SFPIADD);
    // Bit 7 clear: VC := loaded VD (1); SFPIADD has no VB field, so VB := template VD (0);
    // bit 6: VD := 16.
    assert_eq!((p.cx.VB, p.cx.VC, p.cx.VD), (Some(0), Some(1), Some(16)));

    let out = m.idle(&mut s);
    assert_defined(&out);
    // L16 = L[VC = 1] + 1.
    assert_lanes(&s.LReg[16], &lanes(|l| 0x100 * l as u32 + 1), "executed in cycle 2");
    assert_lanes(&s.LReg[1], &lanes(|l| 0x100 * l as u32), "bit 6: the loaded register is not written");
    assert!(m.pending().is_empty());
    assert_eq!(scheduled(&m), vec![(2, SubUnit::Simple, Opcode::SFPIADD)]);
}

#[test]
fn delay_k_executes_k_plus_one_cycles_after_the_loadmacro() {
    for delay in 0..8u32 {
        let mut s = plus_one_into_l16(delay, 0);
        let mut m = traced();
        m.issue(&mut s, &lm(0, 1, INT32, 0, 0));
        // Executes in cycle 1 + delay + 1.
        let due = u64::from(delay) + 2;
        for cycle in 2..=due + 1 {
            m.idle(&mut s);
            assert_eq!(m.cycle(), cycle);
            let want = if cycle >= due { lanes(|l| 0x100 * l as u32 + 1) } else { [SENT; LANES] };
            assert_lanes(&s.LReg[16], &want, &format!("delay {delay}, after cycle {cycle}"));
        }
        assert_eq!(scheduled(&m), vec![(due, SubUnit::Simple, Opcode::SFPIADD)], "delay {delay}");
    }
}

/// One macro using all four sub-units; the SFPLOADMACRO (cycle 1) loads `l as f32` into L1 from
/// Addr 8 and schedules:
/// * Simple (delay 0, cycle 2): SFPIADD +1 with bit 6: L16 = L1 + 1;
/// * MAD (delay 2, cycle 4): SFPMAD VA 2, VB 3; bit 7 clear => VC := 1, VD := 1: L1 = 2*3 + L1;
/// * Round (delay 4, cycle 6): SFPSHFT2 SHFT_IMM by 4, bit 7 => VB := 1, bit 6: L16 = L1 << 4;
/// * Store (delay 6, cycle 8): SFPSTORE of L16 (bit 6), INT32 (StoreMod0 4) at Addr 8.
fn four_units(delay_kind: u32) -> State {
    let mut s = base();
    fill(&mut s, 2, f(2.0));
    fill(&mut s, 3, f(3.0));
    put32(&mut s, 8, &f32s(|l| l as f32));
    configure0(
        &mut s,
        [iadd_imm(1, 0, 0), mad(2, 3, 0, 0, 0), shft2(4, 0, 0, 6), 0],
        seq(L16 | at(T0, 0), at(T1, 2), L16 | VB | at(T2, 4), L16 | at(SEL_STORE, 6)),
        misc(INT32, 0, delay_kind),
    );
    s
}

#[test]
fn four_sub_units_each_run_their_instruction_at_their_own_delay() {
    let mut s = four_units(0);
    let x = f32s(|l| l as f32);
    let mut m = traced();
    let mut out = m.issue(&mut s, &lm(0, 1, INT32, 0, 8));
    let x_plus_1 = lanes(|l| x[l] + 1);
    let mad_result = f32s(|l| 6.0 + l as f32); // 2*3 + l, exact
    let shifted = lanes(|l| mad_result[l] << 4);
    for cycle in 2..=9u64 {
        out.merge(&m.idle(&mut s));
        let l16 = match cycle {
            2..=5 => x_plus_1,
            _ => shifted,
        };
        let l1 = if cycle >= 4 { mad_result } else { x };
        let dst = if cycle >= 8 { shifted } else { x };
        assert_lanes(&s.LReg[16], &l16, &format!("L16 after cycle {cycle}"));
        assert_lanes(&s.LReg[1], &l1, &format!("L1 after cycle {cycle}"));
        assert_lanes(&get32(&s, 8), &dst, &format!("Dst rows 8..11 after cycle {cycle}"));
    }
    assert_defined(&out);
    assert_eq!(
        scheduled(&m),
        vec![
            (2, SubUnit::Simple, Opcode::SFPIADD),
            (4, SubUnit::MAD, Opcode::SFPMAD),
            (6, SubUnit::Round, Opcode::SFPSHFT2),
            (8, SubUnit::Store, Opcode::SFPSTORE),
        ]
    );
}

#[test]
fn wait_for_elapsed_instructions_counts_issued_instructions_not_cycles() {
    // UnitDelayKind bit 0: the Simple sub-unit waits for elapsed instructions. Delay 2.
    let mut s = plus_one_into_l16(2, 0b0001);
    let mut m = traced();
    m.issue(&mut s, &lm(0, 1, INT32, 0, 0));
    for _ in 0..4 {
        m.idle(&mut s); // cycles 2..5: no instruction issued, no count
    }
    assert_lanes(&s.LReg[16], &[SENT; LANES], "idle cycles do not count");
    assert_eq!(m.pending().len(), 1);
    m.issue(&mut s, &instr("TTI_SFPNOP")); // cycle 6: 2 -> 1
    m.issue(&mut s, &instr("TTI_SFPNOP")); // cycle 7: 1 -> 0
    assert_lanes(&s.LReg[16], &[SENT; LANES], "counted down to 0, executes on the next cycle");
    m.idle(&mut s); // cycle 8
    assert_lanes(&s.LReg[16], &lanes(|l| 0x100 * l as u32 + 1), "executed in cycle 8");
    assert_eq!(scheduled(&m), vec![(8, SubUnit::Simple, Opcode::SFPIADD)]);

    // The same with WaitForElapsedCycles: 1 + 2 + 1 = cycle 4.
    let mut s = plus_one_into_l16(2, 0);
    let mut m = traced();
    m.issue(&mut s, &lm(0, 1, INT32, 0, 0));
    m.drain(&mut s);
    assert_eq!(scheduled(&m), vec![(4, SubUnit::Simple, Opcode::SFPIADD)]);
}

#[test]
fn any_pending_instruction_kind_makes_every_pending_instruction_count_instructions() {
    // Simple: WaitForElapsedCycles, delay 1. MAD: WaitForElapsedInstructions (UnitDelayKind bit 1),
    // delay 5. While the MAD one is outstanding, the Simple one also counts instructions only.
    let mut s = plus_one_into_l16(1, 0b0010);
    fill(&mut s, 2, f(2.0));
    fill(&mut s, 3, f(3.0));
    for l in 0..LANES {
        s.LoadMacroConfig[l].InstructionTemplate[1] = mad(2, 3, 0, 0, 0);
        s.LoadMacroConfig[l].Sequence[0] |= at(T1, 5) << 8;
    }
    let mut m = traced();
    m.issue(&mut s, &lm(0, 1, INT32, 0, 0)); // cycle 1
    m.idle(&mut s); // 2
    m.idle(&mut s); // 3
    m.idle(&mut s); // 4
    assert!(scheduled(&m).is_empty(), "no cycle-based count while an instruction-kind one is pending");
    m.issue(&mut s, &instr("TTI_SFPNOP")); // 5: Simple 1 -> 0, MAD 5 -> 4
    m.idle(&mut s); // 6: Simple executes
    assert_eq!(scheduled(&m), vec![(6, SubUnit::Simple, Opcode::SFPIADD)]);
    m.idle(&mut s); // 7: nothing counts
    for _ in 0..4 {
        m.issue(&mut s, &instr("TTI_SFPNOP")); // 8..11: MAD 4 -> 0
    }
    assert_eq!(scheduled(&m).len(), 1);
    m.idle(&mut s); // 12: MAD executes
    assert_eq!(
        scheduled(&m),
        vec![(6, SubUnit::Simple, Opcode::SFPIADD), (12, SubUnit::MAD, Opcode::SFPMAD)]
    );
}

#[test]
fn cycle_counting_resumes_once_no_instruction_kind_instruction_is_pending() {
    // MAD: instruction kind, delay 1. Simple: cycle kind, delay 4.
    let mut s = plus_one_into_l16(4, 0b0010);
    fill(&mut s, 2, f(2.0));
    fill(&mut s, 3, f(3.0));
    for l in 0..LANES {
        s.LoadMacroConfig[l].InstructionTemplate[1] = mad(2, 3, 0, 0, 0);
        s.LoadMacroConfig[l].Sequence[0] |= at(T1, 1) << 8;
    }
    let mut m = traced();
    m.issue(&mut s, &lm(0, 1, INT32, 0, 0)); // 1
    m.issue(&mut s, &instr("TTI_SFPNOP")); // 2: both count (MAD 1 -> 0, Simple 4 -> 3)
    m.issue(&mut s, &instr("TTI_SFPNOP")); // 3: MAD executes; Simple 3 -> 2 (an instruction was issued)
    m.idle(&mut s); // 4: only the cycle-kind one is left: 2 -> 1
    m.idle(&mut s); // 5: 1 -> 0
    m.idle(&mut s); // 6: executes
    assert_eq!(scheduled(&m), vec![(3, SubUnit::MAD, Opcode::SFPMAD), (6, SubUnit::Simple, Opcode::SFPIADD)]);
}

// ------------------------------------------------------------------------------------------------
// Cancellation
// ------------------------------------------------------------------------------------------------

/// Macro 0: Simple SFPIADD "+1" into L16 with delay `d0`. Macro 1: Simple byte `b1`, template 1 =
/// SFPXOR (L16 = L[template VD = 0] ^ L[loaded]). Both load L1, from Dst groups 0 and 4.
fn two_macros(d0: u32, b1: u32) -> State {
    let mut s = base();
    fill(&mut s, 0, 0x0F0F_0F0F);
    put32(&mut s, 0, &lanes(|l| 0x100 * l as u32));
    put32(&mut s, 4, &lanes(|l| 0x7000 + l as u32));
    configure(&mut s, [iadd_imm(1, 0, 0), xor(0, 0), 0, 0], [seq(L16 | at(T0, d0), 0, 0, 0), b1, 0, 0], 0);
    s
}

fn run_two_macros(s: &mut State) -> Machine {
    let mut m = traced();
    m.issue(s, &lm(0, 1, INT32, 0, 0)); // cycle 1
    m.issue(s, &lm(1, 1, INT32, 0, 4)); // cycle 2
    m.drain(s);
    m
}

#[test]
fn a_new_schedule_forgets_the_pending_instruction_due_at_the_same_time() {
    // Macro 0 at cycle 1, delay 2: due in cycle 4. Macro 1 at cycle 2, delay 1: due in cycle 4.
    let mut s = two_macros(2, L16 | at(T1, 1));
    let m = run_two_macros(&mut s);
    assert_eq!(scheduled(&m), vec![(4, SubUnit::Simple, Opcode::SFPXOR)]);
    // L16 = L0 ^ L1 with L1 = the second load.
    assert_lanes(&s.LReg[16], &lanes(|l| 0x0F0F_0F0F ^ (0x7000 + l as u32)), "only macro 1 ran");

    // Delay 2 on macro 1 is due in cycle 5: no cancellation, both run.
    let mut s = two_macros(2, L16 | at(T1, 2));
    let m = run_two_macros(&mut s);
    assert_eq!(
        scheduled(&m),
        vec![(4, SubUnit::Simple, Opcode::SFPIADD), (5, SubUnit::Simple, Opcode::SFPXOR)]
    );
}

#[test]
fn selector_zero_still_cancels_when_delay_is_not_seven() {
    // The page's loop forgets before `case 0: continue;`: byte = delay 1, selector 0.
    let mut s = two_macros(2, at(0, 1));
    let m = run_two_macros(&mut s);
    assert!(scheduled(&m).is_empty(), "{:?}", scheduled(&m));
    assert_lanes(&s.LReg[16], &[SENT; LANES], "the SFPIADD never ran");

    // An all-zero byte (delay 0) forgets an instruction due on the cycle after the SFPLOADMACRO:
    // macro 0 at cycle 1 with delay 1 is due in cycle 3 = the cycle after macro 1 (cycle 2).
    let mut s = two_macros(1, 0);
    let m = run_two_macros(&mut s);
    assert!(scheduled(&m).is_empty(), "{:?}", scheduled(&m));
}

#[test]
fn delay_seven_does_not_cancel() {
    // Macro 0: delay 7 at cycle 1, due in cycle 9. Macro 1 at cycle 2: selector 0 with delay 7
    // (no cancellation, nothing scheduled).
    let mut s = two_macros(7, at(0, 7));
    let m = run_two_macros(&mut s);
    assert_eq!(scheduled(&m), vec![(9, SubUnit::Simple, Opcode::SFPIADD)]);
    // Macro 0: delay 6 (due 8); macro 1: SFPXOR with delay 7 (due 10): both run.
    let mut s = two_macros(6, L16 | at(T1, 7));
    let m = run_two_macros(&mut s);
    assert_eq!(
        scheduled(&m),
        vec![(8, SubUnit::Simple, Opcode::SFPIADD), (10, SubUnit::Simple, Opcode::SFPXOR)]
    );
}

#[test]
fn cancellation_is_per_sub_unit() {
    // Macro 1 schedules on MAD (SFPNOP, delay 1, due in cycle 4 like macro 0's Simple one).
    let mut s = two_macros(2, 0);
    for l in 0..LANES {
        s.LoadMacroConfig[l].Sequence[1] = seq(0x38, at(SEL_NOP, 1), 0x38, 0x38);
    }
    let m = run_two_macros(&mut s);
    assert_eq!(scheduled(&m), vec![(4, SubUnit::Simple, Opcode::SFPIADD), (4, SubUnit::MAD, Opcode::SFPNOP)]);
    assert_lanes(&s.LReg[16], &lanes(|l| 0x7000 + l as u32 + 1), "L16 = second load + 1");
}

// ------------------------------------------------------------------------------------------------
// Selectors and the SFPNOP substitution
// ------------------------------------------------------------------------------------------------

#[test]
fn selector_two_schedules_an_sfpnop() {
    let mut s = base();
    configure0(&mut s, [0; 4], seq(0, at(SEL_NOP, 0), at(SEL_NOP, 1), 0), 0);
    let before = s.clone();
    let mut m = traced();
    let mut out = m.issue(&mut s, &lm(0, 1, ZERO, 0, 0));
    out.merge(&m.drain(&mut s));
    assert_defined(&out);
    assert_eq!(scheduled(&m), vec![(2, SubUnit::MAD, Opcode::SFPNOP), (3, SubUnit::Round, Opcode::SFPNOP)]);
    let mut want = before;
    want.LReg[1] = [0; LANES]; // MOD0_FMT_ZERO load
    assert_eq!(s, want);
}

#[test]
fn opcodes_a_sub_unit_cannot_execute_become_sfpnop() {
    // Simple gets SFPMAD, MAD gets SFPIADD, Round gets SFPXOR: each is replaced by SFPNOP.
    let mut s = base();
    configure0(
        &mut s,
        [mad(2, 3, 4, 5, 0), iadd_imm(1, 0, 0), xor(0, 0), 0],
        seq(at(T0, 0), at(T1, 1), at(T2, 2), 0),
        0,
    );
    let before = s.clone();
    let mut m = traced();
    let mut out = m.issue(&mut s, &lm(0, 1, ZERO, 0, 0));
    out.merge(&m.drain(&mut s));
    assert_defined(&out);
    assert_eq!(
        scheduled(&m),
        vec![
            (2, SubUnit::Simple, Opcode::SFPNOP),
            (3, SubUnit::MAD, Opcode::SFPNOP),
            (4, SubUnit::Round, Opcode::SFPNOP)
        ]
    );
    let mut want = before;
    want.LReg[1] = [0; LANES];
    assert_eq!(s, want);
}

#[test]
fn store_slot_without_sfpstore_is_undefined() {
    // Selector 7 = InstructionTemplate[3] (SFPARECIP), and selector 2 (SFPNOP): SFPNOP is not
    // allowed on the Store sub-unit either.
    for store_byte in [at(T3, 0), at(SEL_NOP, 0)] {
        let mut s = base();
        configure0(&mut s, [0, 0, 0, arecip(0, 0, 0, 0)], seq(0, 0, 0, store_byte), 0);
        let mut m = Machine::new();
        let mut out = m.issue(&mut s, &lm(0, 1, ZERO, 0, 0));
        out.merge(&m.drain(&mut s));
        assert_eq!(out.lanes(Clause::LoadmacroStoreSlotNotStore), ALL, "store byte {store_byte:#x}: {out}");
        assert_eq!(out.worst(), Some(Kind::Undefined));
    }
}

#[test]
fn selector_one_is_undefined_on_every_sub_unit() {
    for unit in 0..4 {
        let mut s = base();
        configure0(&mut s, [0; 4], at(1, 0) << (8 * unit), 0);
        let mut m = Machine::new();
        let mut out = m.issue(&mut s, &lm(0, 1, ZERO, 0, 0));
        out.merge(&m.drain(&mut s));
        assert_eq!(out.lanes(Clause::LoadmacroSelector1), ALL, "sub-unit {unit}: {out}");
        assert_eq!(out.worst(), Some(Kind::Undefined));
    }
}

// ------------------------------------------------------------------------------------------------
// Field overrides on the Simple, MAD and Round sub-units
// ------------------------------------------------------------------------------------------------

/// Runs macro 0 (VD = 1, INT32 load of `loaded` from group 0) with one template on `unit` and
/// the given byte, then drains. Returns the final state.
fn run_one(mut s: State, unit: usize, template: u32, b: u32, loaded: &[u32; LANES]) -> State {
    put32(&mut s, 0, loaded);
    configure0(&mut s, [template, 0, 0, 0], b << (8 * unit), 0);
    let mut m = Machine::new();
    let mut out = m.issue(&mut s, &lm(0, 1, INT32, 0, 0));
    out.merge(&m.drain(&mut s));
    assert_defined(&out);
    s
}

#[test]
fn simple_unit_vc_gets_the_loaded_register_and_a_missing_vb_the_template_vd() {
    // SFPIADD register mode, template VC 2, VD 6. Bit 7 clear: VC := 1 (loaded), no VB field so
    // VB := template VD = 6 (the model's usual `VB = VD` is skipped), VD := 1.
    // L1 = L[VC=1] + L[VB=6] = 0x100*l + (0x07000000 + l).
    let loaded = lanes(|l| 0x100 * l as u32);
    let s = run_one(base(), 0, iadd_reg(2, 6), at(T0, 0), &loaded);
    assert_lanes(&s.LReg[1], &lanes(|l| 0x100 * l as u32 + 0x0700_0000 + l as u32), "L1 = L1 + L6");

    // SFPXOR, template VC 2, VD 6: VC := 1, VB := 6: L1 = L6 ^ L1 (not L1 ^ L1 = 0).
    let s = run_one(base(), 0, xor(2, 6), at(T0, 0), &loaded);
    assert_lanes(&s.LReg[1], &lanes(|l| (0x0700_0000 + l as u32) ^ (0x100 * l as u32)), "L1 = L6 ^ L1");
}

#[test]
fn simple_unit_bit7_puts_the_loaded_register_in_vb() {
    // SFPIADD register mode, template VC 2, VD 6, bit 7: VB := 1, VC keeps its field (2), VD := 1.
    // L1 = L[VC=2] + L[VB=1] = 0x03000000 + l + 0x100*l.
    let loaded = lanes(|l| 0x100 * l as u32);
    let s = run_one(base(), 0, iadd_reg(2, 6), VB | at(T0, 0), &loaded);
    assert_lanes(&s.LReg[1], &lanes(|l| 0x0300_0000 + l as u32 + 0x100 * l as u32), "L1 = L2 + L1");
    // SFPXOR bit 7: VB := 1, VC = 2: L1 = L1 ^ L2.
    let s = run_one(base(), 0, xor(2, 6), VB | at(T0, 0), &loaded);
    assert_lanes(&s.LReg[1], &lanes(|l| (0x0300_0000 + l as u32) ^ (0x100 * l as u32)), "L1 = L1 ^ L2");
    // With bit 6 the result goes to L16 and L1 keeps the loaded value.
    let s = run_one(base(), 0, xor(2, 6), L16 | VB | at(T0, 0), &loaded);
    assert_lanes(&s.LReg[16], &lanes(|l| (0x0300_0000 + l as u32) ^ (0x100 * l as u32)), "L16 = L1 ^ L2");
    assert_lanes(&s.LReg[1], &loaded, "L1 keeps the loaded value");
}

#[test]
fn mad_unit_overrides_vc_or_vb() {
    let mut s = base();
    fill(&mut s, 2, f(2.0));
    fill(&mut s, 3, f(3.0));
    fill(&mut s, 4, f(0.5));
    let loaded = f32s(|l| l as f32);
    // Bit 7 clear: VC := 1, VB keeps 3, VD := 1: L1 = L2 * L3 + L1 = 6 + l (exact).
    let out = run_one(s.clone(), 1, mad(2, 3, 4, 5, 0), at(T0, 0), &loaded);
    assert_lanes(&out.LReg[1], &f32s(|l| 6.0 + l as f32), "L1 = 2*3 + l");
    assert_lanes(&out.LReg[5], &s.LReg[5], "template VD 5 not written");
    // Bit 7 set: VB := 1, VC keeps 4: L1 = L2 * L1 + L4 = 2l + 0.5.
    let out = run_one(s.clone(), 1, mad(2, 3, 4, 5, 0), VB | at(T0, 0), &loaded);
    assert_lanes(&out.LReg[1], &f32s(|l| 2.0 * l as f32 + 0.5), "L1 = 2*l + 0.5");
}

#[test]
fn addi_and_muli_take_vc_from_the_macro_not_from_vd() {
    let mut s = base();
    fill(&mut s, 3, f(4.0));
    let loaded = f32s(|l| l as f32);
    // SFPADDI Imm16 0x3F80 (BF16 1.0), template VD 3. Bit 7 clear: VC := loaded 1: L1 = 1 + l.
    let out = run_one(s.clone(), 1, addi(0x3F80, 3), at(T0, 0), &loaded);
    assert_lanes(&out.LReg[1], &f32s(|l| 1.0 + l as f32), "ADDI: L1 = 1.0 + L1");
    // Bit 7 set: VB := 1; SFPADDI has no VC field, so VC := template VD = 3 (the usual
    // `VC = VD` is skipped, which would read the loaded L1): L1 = 1.0 + 4.0 = 5.0.
    let out = run_one(s.clone(), 1, addi(0x3F80, 3), VB | at(T0, 0), &loaded);
    assert_lanes(&out.LReg[1], &[f(5.0); LANES], "ADDI bit 7: L1 = 1.0 + L3");
    assert_lanes(&out.LReg[3], &[f(4.0); LANES], "L3 untouched");
    // SFPMULI Imm16 0x4000 (2.0): bit 7 clear: L1 = 2*l; bit 7 set: L1 = 2 * L3 = 8.0.
    let out = run_one(s.clone(), 1, muli(0x4000, 3), at(T0, 0), &loaded);
    assert_lanes(&out.LReg[1], &f32s(|l| 2.0 * l as f32), "MULI: L1 = 2 * L1");
    let out = run_one(s.clone(), 1, muli(0x4000, 3), VB | at(T0, 0), &loaded);
    assert_lanes(&out.LReg[1], &[f(8.0); LANES], "MULI bit 7: L1 = 2 * L3");
}

#[test]
fn shft2_shft_imm_uses_the_macro_vb_only_with_bit7() {
    // SFPSHFT2 Mod1 6 (SHFT_IMM), Imm12 4 (so `Imm12 & 15` = 4), template VD 2, bit 6 (to L16).
    let mut s = base();
    fill(&mut s, 4, 0x0ABC_0000);
    let loaded = lanes(|l| 0x100 * l as u32 + 1);
    // Bit 7: VB := 1, `VB = Imm12 & 15` skipped: L16 = L1 << 4.
    let out = run_one(s.clone(), 2, shft2(4, 0, 2, 6), L16 | VB | at(T0, 0), &loaded);
    assert_lanes(&out.LReg[16], &lanes(|l| (0x100 * l as u32 + 1) << 4), "L16 = L1 << 4");
    // Bit 7 clear: VB = Imm12 & 15 = 4: L16 = L4 << 4 = 0xABC00000.
    let out = run_one(s.clone(), 2, shft2(4, 0, 2, 6), L16 | at(T0, 0), &loaded);
    assert_lanes(&out.LReg[16], &[0xABC0_0000; LANES], "L16 = L4 << 4");
    assert_lanes(&out.LReg[2], &s.LReg[2], "template VD not written");
}

// ------------------------------------------------------------------------------------------------
// The scheduled SFPSTORE and LReg[16]
// ------------------------------------------------------------------------------------------------

/// L0, L2, L3, L12 and L16 hold distinct patterns; macro 0 loads L2 with MOD0_FMT_ZERO (so the
/// loaded register is 0) and schedules `store_byte` with INT32 stores (StoreMod0 4) at Addr 8.
fn run_store(templates: [u32; 4], store_byte: u32, lane_config: u32) -> (State, Outcome) {
    let mut s = base();
    fill(&mut s, 0, 0xA000_0000);
    s.LReg[3] = lanes(|l| 0xC300_0000 | l as u32);
    s.LReg[12] = lanes(|l| 0xD120_0000 | l as u32);
    s.LReg[16] = lanes(|l| 0x1600_0000 | l as u32);
    put32(&mut s, 8, &[0x5555_5555; LANES]);
    put32(&mut s, 12, &[0x6666_6666; LANES]);
    for l in 0..LANES {
        s.LaneConfig[l] = LaneConfig::new(lane_config).unwrap();
    }
    configure0(&mut s, templates, seq(0, 0, 0, store_byte), misc(INT32, 0, 0));
    let mut m = Machine::new();
    let mut out = m.issue(&mut s, &lm(0, 2, ZERO, 0, 8));
    out.merge(&m.drain(&mut s));
    assert_lanes(&get32(&s, 12), &[0x6666_6666; LANES], "the neighbouring group is untouched");
    (s, out)
}

#[test]
fn scheduled_store_register_choice() {
    // Selector 3 (SFPSTORE, VD 0), bits 6/7 clear: VD := loaded VD 2, which holds 0.
    let (s, out) = run_store([0; 4], at(SEL_STORE, 0), 0);
    assert_defined(&out);
    assert_lanes(&get32(&s, 8), &[0; LANES], "stores the loaded register");
    // Bit 7: keep the template VD, 0 for selector 3: stores L0.
    let (s, out) = run_store([0; 4], VB | at(SEL_STORE, 0), 0);
    assert_defined(&out);
    assert_lanes(&get32(&s, 8), &[0xA000_0000; LANES], "stores L0");
    // Bit 6: stores L16.
    let (s, out) = run_store([0; 4], L16 | at(SEL_STORE, 0), 0);
    assert_defined(&out);
    assert_lanes(&get32(&s, 8), &lanes(|l| 0x1600_0000 | l as u32), "stores L16");
    // An SFPSTORE template with VD 3: bit 7 keeps it (stores L3), bit 7 clear overrides it.
    let t = [store(3, 0, 0, 0), 0, 0, 0];
    let (s, _) = run_store(t, VB | at(T0, 0), 0);
    assert_lanes(&get32(&s, 8), &lanes(|l| 0xC300_0000 | l as u32), "template VD 3 kept");
    let (s, _) = run_store(t, at(T0, 0), 0);
    assert_lanes(&get32(&s, 8), &[0; LANES], "template VD 3 overridden by the loaded VD");
}

#[test]
fn scheduled_store_reads_disable_backdoor_load_as_true() {
    // Template SFPSTORE VD 12 kept by bit 7, with LaneConfig.DISABLE_BACKDOOR_LOAD = false: a
    // regular SFPSTORE would be a backdoor load; the scheduled one stores LReg[12].
    let t = [store(12, 0, 0, 0), 0, 0, 0];
    let (s, out) = run_store(t, VB | at(T0, 0), 0);
    assert_defined(&out);
    assert_eq!(out.lanes(Clause::BackdoorLoad), 0);
    assert_lanes(&get32(&s, 8), &lanes(|l| 0xD120_0000 | l as u32), "stores L12");
    assert_eq!(s.LoadMacroConfig[5].InstructionTemplate, t, "no template written");
}

#[test]
fn scheduled_store_mod0_comes_from_misc_or_the_loadmacro() {
    // Misc: StoreMod0 15 (HI16_ONLY), UsesLoadMod0ForStore bit 2 only. Stores L16 (bit 6) through
    // the 16-bit view. The SFPLOADMACRO's own Mod0 is 6 (UINT16).
    let l16 = lanes(|l| (0x1200 + l as u32) << 16 | (0x5600 + l as u32));
    for (mi, want) in [
        (2u32, lanes(|l| 0x5600 + l as u32)), // UINT16: Dst16b = L16 & 0xffff
        (1u32, lanes(|l| 0x1200 + l as u32)), // HI16_ONLY: Dst16b = L16 >> 16
    ] {
        let mut s = base();
        s.LReg[16] = l16;
        let b = seq(0, 0, 0, L16 | at(SEL_STORE, 0));
        configure(&mut s, [0; 4], [b; 4], misc(HI16_ONLY, 0b0100, 0));
        let mut m = Machine::new();
        let mut out = m.issue(&mut s, &lm(mi, 1, UINT16, 0, 4));
        out.merge(&m.drain(&mut s));
        assert_defined(&out);
        assert_lanes(&get16(&s, 4), &want, &format!("macro {mi}"));
    }
}

#[test]
fn scheduled_store_uses_the_loadmacro_address_and_applies_no_addr_mod() {
    // ADDR_MOD slot 2: Dst += 4. The template SFPSTORE has AddrMod 2 as well.
    let mut s = base();
    s.Addressing.ADDR_MOD[2] = AddrModSlot { DestIncr: 4, ..AddrModSlot::default() };
    s.LReg[16] = lanes(|l| 0x1600_0000 | l as u32);
    for a in [4, 8, 12, 16, 20] {
        put32(&mut s, a, &[0x5555_5555; LANES]);
    }
    configure0(&mut s, [store(0, INT32, 2, 0), 0, 0, 0], seq(0, 0, 0, L16 | at(T0, 3)), misc(INT32, 0, 0));
    let mut m = traced();
    // Cycle 1: Addr = 8 + RWC.Dst 0 = 8; then RWC.Dst = 4. The store is due in cycle 5.
    let mut out = m.issue(&mut s, &lm(0, 1, INT32, 2, 8));
    assert_eq!(s.Addressing.RWC.Dst, 4);
    // Cycle 2: a regular SFPLOAD with AddrMod 2 moves RWC.Dst to 8.
    out.merge(&m.issue(&mut s, &instr("TTI_SFPLOAD(3, 4, 2, 0)")));
    assert_eq!(s.Addressing.RWC.Dst, 8);
    out.merge(&m.drain(&mut s));
    assert_eq!(scheduled(&m), vec![(5, SubUnit::Store, Opcode::SFPSTORE)]);
    assert!(out.worst() != Some(Kind::Undefined), "{out}");
    assert_lanes(&get32(&s, 8), &lanes(|l| 0x1600_0000 | l as u32), "stored at the frozen Addr 8");
    // Recomputing with today's RWC.Dst would give 8 + 8 = 16.
    assert_lanes(&get32(&s, 16), &[0x5555_5555; LANES], "not at 8 + RWC.Dst");
    assert_eq!(s.Addressing.RWC.Dst, 8, "the scheduled store applies no AddrMod");
}

#[test]
fn lreg16_is_written_only_with_bit6_and_read_by_the_store() {
    // Simple: SFPIADD +1 without bit 6 (writes L1); Round: SFPSHFT2 SHFT_IMM << 4 with bit 7 and
    // bit 6 one cycle later (L16 = L1 << 4); Store one cycle after that, from L16.
    let mut s = base();
    put32(&mut s, 0, &lanes(|l| 0x100 * l as u32));
    configure0(
        &mut s,
        [iadd_imm(1, 0, 0), shft2(4, 0, 0, 6), 0, 0],
        seq(at(T0, 0), 0, L16 | VB | at(T1, 1), L16 | at(SEL_STORE, 2)),
        misc(INT32, 0, 0),
    );
    let mut m = Machine::new();
    let mut out = m.issue(&mut s, &lm(0, 1, INT32, 0, 0));
    out.merge(&m.idle(&mut s)); // cycle 2: SFPIADD
    assert_lanes(&s.LReg[1], &lanes(|l| 0x100 * l as u32 + 1), "L1 = loaded + 1");
    assert_lanes(&s.LReg[16], &[SENT; LANES], "no bit 6: L16 untouched");
    out.merge(&m.idle(&mut s)); // cycle 3: SFPSHFT2
    let want = lanes(|l| (0x100 * l as u32 + 1) << 4);
    assert_lanes(&s.LReg[16], &want, "L16 = L1 << 4");
    out.merge(&m.idle(&mut s)); // cycle 4: store
    assert_defined(&out);
    assert_lanes(&get32(&s, 0), &want, "Dst = L16");
}

// ------------------------------------------------------------------------------------------------
// The one-row-group-per-cycle reciprocal idiom
// ------------------------------------------------------------------------------------------------

/// Inputs whose ApproxRecip results are known (`docs/spec/sfpu-blackhole.md#sfparecip-tables` and
/// the SFPARECIP.md formula: `x = Sign + ApproxRecip(x - Sign)`).
const RECIP_CASES: [(u32, u32); 12] = [
    (0x3F80_0000, 0x3F7F_0000), // 1.0: E 127, LUT[0] 127: (253-127) << 23 | 127 << 16
    (0x4000_0000, 0x3EFF_0000), // 2.0: E 128, LUT[0]
    (0x4040_0000, 0x3EAA_0000), // 3.0: E 128, LUT[64] = 42 = 0x2A
    (0x3F00_0000, 0x3FFF_0000), // 0.5: E 126, LUT[0]
    (0x3DCC_CCCD, 0x4120_0000), // 0.1: E 123, LUT[0x4C = 76] = 32 = 0x20: 130 << 23 | 0x20 << 16
    (0xC040_0000, 0xBEAA_0000), // -3.0: sign kept
    (0xBF00_0000, 0xBFFF_0000), // -0.5
    (0x0000_0000, 0x7F80_0000), // +0: below 2^-126 => +Inf
    (0x8000_0000, 0xFF80_0000), // -0 => -Inf
    (0x7E80_0000, 0x0000_0000), // 2^126: not below 0x7E800000 => 0
    (0x7F80_0000, 0x0000_0000), // +Inf => 0
    (0xC000_0000, 0xBEFF_0000), // -2.0
];

fn recip_input(group: usize, lane: usize) -> u32 {
    RECIP_CASES[(group + lane) % RECIP_CASES.len()].0
}
fn recip_output(group: usize, lane: usize) -> u32 {
    RECIP_CASES[(group + lane) % RECIP_CASES.len()].1
}

#[test]
fn reciprocal_idiom_one_group_per_cycle_configured_like_a_kernel() {
    // Configured through SFPLOADI / SFPCONFIG as the approximate-reciprocal kernels do:
    //   InstructionTemplate[0] = SFPARECIP (VB 0, VC 0, VD 0, RECIP) = 0x99000000;
    //   Sequence[0]: Simple = 0x44 (template 0, delay 0, bit 6: L16 = arecip(loaded)),
    //                Store  = 0x4B (selector 3, delay 1, bit 6: store L16) => 0x4B000044;
    //   Misc = 0x110: StoreMod0 0, UsesLoadMod0ForStore for macro 0, Simple waits for instructions.
    let mut s = reset();
    s.Addressing.ALU_ACC_CTRL_SFPU_Fp32_enabled = true; // MOD0_FMT_SRCB resolves to FP32
    // Address walk: ADDR_MOD slot 6 adds 2 to RWC.Dst, so the groups are Addr 0, 2, 4, ...:
    // rows 0..3 even columns, rows 0..3 odd columns, rows 4..7 even columns, ...
    s.Addressing.ADDR_MOD[6] = AddrModSlot { DestIncr: 2, ..AddrModSlot::default() };
    const N: usize = 8;
    for g in 0..N {
        put32(&mut s, 2 * g as u32, &lanes(|l| recip_input(g, l)));
    }
    let mut m = traced();
    let setup = issue_all(
        &mut m,
        &mut s,
        &[
            "TTI_SFPLOADI(0, 10, 0x0000)", // LOWER
            "TTI_SFPLOADI(0, 8, 0x9900)",  // UPPER: L0 = 0x99000000
            "TTI_SFPCONFIG(0, 0, 0)",      // InstructionTemplate[0] = L0
            "TTI_SFPLOADI(0, 10, 0x0044)",
            "TTI_SFPLOADI(0, 8, 0x4B00)", // L0 = 0x4B000044
            "TTI_SFPCONFIG(0, 4, 0)",     // Sequence[0] = L0
            "TTI_SFPCONFIG(0x110, 8, 1)", // Misc = Imm16
        ],
    );
    assert_defined(&setup);
    for l in 0..LANES {
        let c = &s.LoadMacroConfig[l];
        assert_eq!(c.InstructionTemplate[0], 0x9900_0000, "lane {l}");
        assert_eq!(c.Sequence[0], 0x4B00_0044, "lane {l}");
        assert_eq!(c.Misc.bits(), 0x110, "lane {l}");
    }
    let c0 = m.cycle(); // 7

    let mut out = Outcome::defined();
    for g in 0..N {
        out.merge(&m.issue(&mut s, &instr("TTI_SFPLOADMACRO((0 << 2) | 0, 0, 6, 0)")));
        // In cycle c0 + g + 1, group g - 2's store ran: groups < g - 1 are done, the rest are not.
        for h in 0..N {
            let want = if h + 2 <= g { recip_output(h, 0) } else { recip_input(h, 0) };
            assert_eq!(get32(&s, 2 * h as u32)[0], want, "group {h} after the SFPLOADMACRO of group {g}");
        }
    }
    out.merge(&m.issue(&mut s, &instr("TTI_SFPNOP")));
    out.merge(&m.issue(&mut s, &instr("TTI_SFPNOP")));
    assert!(m.pending().is_empty());
    assert_eq!(m.cycle(), c0 + N as u64 + 2);
    for g in 0..N {
        assert_lanes(&get32(&s, 2 * g as u32), &lanes(|l| recip_output(g, l)), &format!("group {g}"));
    }
    assert_lanes(&s.LReg[16], &lanes(|l| recip_output(N - 1, l)), "L16 = the last reciprocal");
    assert_lanes(&s.LReg[0], &lanes(|l| recip_input(N - 1, l)), "L0 = the last load");
    // One SFPARECIP per cycle from c0 + 2, one store per cycle from c0 + 3.
    let mut want = Vec::new();
    for g in 0..N as u64 {
        want.push((c0 + g + 2, SubUnit::Simple, Opcode::SFPARECIP));
        want.push((c0 + g + 3, SubUnit::Store, Opcode::SFPSTORE));
    }
    want.sort_by_key(|&(c, u, _)| (c, u != SubUnit::Simple));
    assert_eq!(scheduled(&m), want);
    // The only note allowed is the inferred Blackhole ADDR_MOD update.
    for (clause, _) in out.notes() {
        assert_eq!(clause, Clause::BlackholeAddrMod, "{out}");
    }
}

#[test]
fn reciprocal_idiom_with_immediate_addresses_is_defined() {
    // Same schedule, set directly, with Imm10 addresses 0, 4, 8, ... (even columns of successive
    // row groups), FP32 loads and stores, all-cycle delays.
    let mut s = reset();
    const N: usize = 6;
    for g in 0..N {
        put32(&mut s, 4 * g as u32, &lanes(|l| recip_input(g, l)));
    }
    configure0(
        &mut s,
        [arecip(0, 0, 0, 0), 0, 0, 0],
        seq(L16 | at(T0, 0), 0, 0, L16 | at(SEL_STORE, 1)),
        misc(FP32, 0, 0),
    );
    let mut m = Machine::new();
    let mut out = Outcome::defined();
    for g in 0..N {
        out.merge(&m.issue(&mut s, &lm(0, 3, FP32, 0, 4 * g as u32)));
    }
    out.merge(&m.drain(&mut s));
    assert_defined(&out);
    assert_eq!(m.cycle(), N as u64 + 2, "the last store runs two cycles after the last SFPLOADMACRO");
    for g in 0..N {
        assert_lanes(&get32(&s, 4 * g as u32), &lanes(|l| recip_output(g, l)), &format!("group {g}"));
    }
}

// ------------------------------------------------------------------------------------------------
// Collisions and the `SFPLOADMACRO.md` rules
// ------------------------------------------------------------------------------------------------

#[test]
fn a_scheduled_instruction_wins_over_a_regular_one_on_the_same_sub_unit() {
    let mut s = plus_one_into_l16(0, 0);
    fill(&mut s, 2, f(2.0));
    fill(&mut s, 3, f(3.0));
    fill(&mut s, 4, f(0.5));
    let mut m = traced();
    let out1 = m.issue(&mut s, &lm(0, 1, INT32, 0, 0));
    assert_defined(&out1);
    // Cycle 2: the scheduled SFPIADD and a regular SFPIADD (L5 = L5 + 1) both want Simple.
    let l5 = s.LReg[5];
    let regular = instr("TTI_SFPIADD(1, 5, 5, 5)");
    let out = m.issue(&mut s, &regular);
    assert_ne!(out.lanes(Clause::LoadmacroCollision), 0, "{out}");
    assert_lanes(&s.LReg[5], &l5, "the regular instruction was discarded");
    assert_lanes(&s.LReg[16], &lanes(|l| 0x100 * l as u32 + 1), "the scheduled one ran");
    let t = m.trace();
    assert!(t.iter().any(|e| e.cycle == 2 && e.what == TraceKind::Discarded && e.instr == regular), "{t:?}");
    assert!(!t.iter().any(|e| e.what == TraceKind::Issued && e.instr == regular));

    // A regular MAD-unit instruction in the same cycle as a scheduled Simple one is fine.
    let mut s = plus_one_into_l16(0, 0);
    fill(&mut s, 2, f(2.0));
    fill(&mut s, 3, f(3.0));
    fill(&mut s, 4, f(0.5));
    let mut m = Machine::new();
    m.issue(&mut s, &lm(0, 1, INT32, 0, 0));
    let out = m.issue(&mut s, &instr("TTI_SFPMAD(2, 3, 4, 6, 0)"));
    assert_defined(&out);
    assert_lanes(&s.LReg[6], &[f(6.5); LANES], "L6 = 2*3 + 0.5");
    assert_lanes(&s.LReg[16], &lanes(|l| 0x100 * l as u32 + 1), "both ran");
}

#[test]
fn a_scheduled_store_wins_over_a_regular_store() {
    let (mut s, _) = run_store([0; 4], 0, 0);
    put32(&mut s, 20, &[0x7777_7777; LANES]);
    configure0(&mut s, [0; 4], seq(0, 0, 0, L16 | at(SEL_STORE, 0)), misc(INT32, 0, 0));
    let mut m = traced();
    m.issue(&mut s, &lm(0, 2, ZERO, 0, 8));
    let out = m.issue(&mut s, &instr("TTI_SFPSTORE(0, 4, 0, 20)"));
    assert_ne!(out.lanes(Clause::LoadmacroCollision), 0, "{out}");
    assert_lanes(&get32(&s, 20), &[0x7777_7777; LANES], "regular store discarded");
    assert_lanes(&get32(&s, 8), &lanes(|l| 0x1600_0000 | l as u32), "scheduled store ran");
    assert!(m.trace().iter().any(|e| e.what == TraceKind::Discarded && e.unit == SubUnit::Store));
}

/// Simple: SFPIADD +1 (template 0); Round: SFPSHFT2 SHFT_IMM << 4 with bit 7 (template 1); both
/// delay 0, with the given "result to L16" bits (0 or [`L16`]). Returns the merged outcome and the state.
fn simple_and_round(simple_l16: u32, round_l16: u32) -> (Outcome, State) {
    let mut s = base();
    put32(&mut s, 0, &lanes(|l| 0x100 * l as u32));
    configure0(
        &mut s,
        [iadd_imm(1, 0, 0), shft2(4, 0, 0, 6), 0, 0],
        seq(simple_l16 | at(T0, 0), 0, round_l16 | VB | at(T1, 0), 0),
        0,
    );
    let mut m = Machine::new();
    let mut out = m.issue(&mut s, &lm(0, 1, INT32, 0, 0));
    out.merge(&m.drain(&mut s));
    (out, s)
}

#[test]
fn simple_and_round_in_one_cycle_need_exactly_one_vd_16() {
    for (a, b) in [(0, 0), (L16, L16)] {
        let (out, _) = simple_and_round(a, b);
        assert_ne!(out.lanes(Clause::LoadmacroRule), 0, "bits 6 = {a:#x}, {b:#x}: {out}");
    }
    // Simple to L16, Round to L1: both read the loaded L1 at the start of cycle 2.
    let (out, s) = simple_and_round(L16, 0);
    assert_defined(&out);
    assert_lanes(&s.LReg[16], &lanes(|l| 0x100 * l as u32 + 1), "L16 = L1 + 1");
    assert_lanes(&s.LReg[1], &lanes(|l| (0x100 * l as u32) << 4), "L1 = L1 << 4");
    let (out, s) = simple_and_round(0, L16);
    assert_defined(&out);
    assert_lanes(&s.LReg[1], &lanes(|l| 0x100 * l as u32 + 1), "L1 = L1 + 1");
    assert_lanes(&s.LReg[16], &lanes(|l| (0x100 * l as u32) << 4), "L16 = L1 << 4");
}

/// Macro 0: SFPSWAP (VEC_MIN_MAX, template VC 3, bit 7 so VC keeps 3 and VD := loaded 1) on
/// Simple with delay 0, and `mad_byte` on MAD. L1 = l as FP32, L3 = 10.0.
fn swap_macro(mad_byte: u32) -> State {
    let mut s = base();
    fill(&mut s, 3, f(10.0));
    put32(&mut s, 0, &f32s(|l| l as f32));
    configure(
        &mut s,
        [swap(3, 0, 1), iadd_imm(1, 0, 0), 0, 0],
        [seq(VB | at(T0, 0), mad_byte, 0, 0), seq(L16 | at(T1, 0), 0, 0, 0), seq(at(SEL_NOP, 0), 0, 0, 0), 0],
        0,
    );
    s
}

#[test]
fn scheduled_sfpswap_needs_an_sfpnop_on_mad() {
    let mut s = swap_macro(0);
    let mut m = Machine::new();
    let mut out = m.issue(&mut s, &lm(0, 1, INT32, 0, 0));
    out.merge(&m.drain(&mut s));
    assert_ne!(out.lanes(Clause::LoadmacroRule), 0, "no SFPNOP on MAD: {out}");

    let mut s = swap_macro(at(SEL_NOP, 0));
    let mut m = Machine::new();
    let mut out = m.issue(&mut s, &lm(0, 1, INT32, 0, 0));
    out.merge(&m.drain(&mut s));
    assert_defined(&out);
    // VD (L1) gets the minimum, VC (L3) the maximum.
    assert_lanes(&s.LReg[1], &f32s(|l| (l as f32).min(10.0)), "L1 = min(l, 10)");
    assert_lanes(&s.LReg[3], &f32s(|l| (l as f32).max(10.0)), "L3 = max(l, 10)");
}

#[test]
fn scheduled_sfpswap_needs_a_quiet_simple_unit_on_the_next_cycle() {
    // Macro 0 at cycle 1: SFPSWAP + MAD SFPNOP in cycle 2. Macro 1 at cycle 2: SFPIADD on Simple
    // with delay 0, i.e. in cycle 3, the cycle after the SFPSWAP.
    let mut s = swap_macro(at(SEL_NOP, 0));
    let mut m = Machine::new();
    let mut out = m.issue(&mut s, &lm(0, 1, INT32, 0, 0));
    out.merge(&m.issue(&mut s, &lm(1, 2, INT32, 0, 4)));
    out.merge(&m.drain(&mut s));
    assert_ne!(out.lanes(Clause::LoadmacroRule), 0, "{out}");
    // Macro 2 (an SFPNOP on Simple) in that slot is allowed.
    let mut s = swap_macro(at(SEL_NOP, 0));
    let mut m = Machine::new();
    let mut out = m.issue(&mut s, &lm(0, 1, INT32, 0, 0));
    out.merge(&m.issue(&mut s, &lm(2, 2, INT32, 0, 4)));
    out.merge(&m.drain(&mut s));
    assert_defined(&out);
    // A regular Simple instruction in the cycle after the scheduled SFPSWAP is not allowed either
    // (no auto-stall protects scheduled SFPSWAP).
    let mut s = swap_macro(at(SEL_NOP, 0));
    let mut m = Machine::new();
    let mut out = m.issue(&mut s, &lm(0, 1, INT32, 0, 0));
    out.merge(&m.issue(&mut s, &instr("TTI_SFPNOP")));
    out.merge(&m.issue(&mut s, &instr("TTI_SFPIADD(1, 6, 6, 5)")));
    assert_ne!(out.lanes(Clause::LoadmacroRule) | out.lanes(Clause::Hazard), 0, "{out}");
}

/// A Round-only macro 0: SFPSHFT2 SHFT_IMM << 4 (template 1) with bit 7 (VB := loaded L1), delay
/// 0, and `round_l16` (0 or [`L16`]); a Simple-only macro 1: SFPIADD +1 (template 0), delay 0,
/// `simple_l16`; macro 2: both, Simple to L1 and Round to L16. L1 is loaded with `0x100 * lane`.
fn one_sided(simple_l16: u32, round_l16: u32) -> State {
    let mut s = base();
    put32(&mut s, 0, &lanes(|l| 0x100 * l as u32));
    configure(
        &mut s,
        [iadd_imm(1, 0, 0), shft2(4, 0, 0, 6), 0, 0],
        [
            seq(0, 0, round_l16 | VB | at(T1, 0), 0),
            seq(simple_l16 | at(T0, 0), 0, 0, 0),
            seq(at(T0, 0), 0, L16 | VB | at(T1, 0), 0),
            0,
        ],
        0,
    );
    s
}

#[test]
fn a_regular_simple_or_round_instruction_counts_for_the_vd_16_rule() {
    // SFPLOADMACRO.md (†) is about instructions that *execute* on the Simple and Round sub-units
    // in the same cycle, whether scheduled or regular. A regular instruction's VD is a 4-bit field,
    // never 16. Cycle 1: the SFPLOADMACRO (L1 = 0x100 * l); cycle 2: its scheduled instruction and
    // the regular one.
    let l1 = lanes(|l| 0x100 * l as u32);
    let old_l5 = lanes(|l| 0x0600_0000 + l as u32); // base(): L5 = 0x01000000 * 6 + l
    let old_l4 = lanes(|l| 0x0500_0000 + l as u32);

    // Scheduled Round (SFPSHFT2 into L1, VD != 16) + regular Simple SFPIADD (L5 = L5 + 1, VD 5):
    // neither has VD == 16.
    let mut s = one_sided(0, 0);
    let mut m = traced();
    assert_defined(&m.issue(&mut s, &lm(0, 1, INT32, 0, 0)));
    let out = m.issue(&mut s, &instr("TTI_SFPIADD(1, 5, 5, 5)"));
    assert_ne!(out.lanes(Clause::LoadmacroRule), 0, "{out}");
    assert_eq!(out.lanes(Clause::LoadmacroCollision), 0, "different sub-units: {out}");
    // Both still ran (the rule's violation leaves the result unspecified; the model runs both).
    assert_lanes(&s.LReg[1], &lanes(|l| l1[l] << 4), "scheduled L1 = L1 << 4");
    assert_lanes(&s.LReg[5], &lanes(|l| old_l5[l] + 1), "regular L5 = L5 + 1");
    assert!(m.trace().iter().any(|e| e.cycle == 2 && e.what == TraceKind::Issued));

    // The same with the Round instruction writing L16: exactly one has VD == 16, defined.
    let mut s = one_sided(0, L16);
    let mut m = Machine::new();
    let mut out = m.issue(&mut s, &lm(0, 1, INT32, 0, 0));
    out.merge(&m.issue(&mut s, &instr("TTI_SFPIADD(1, 5, 5, 5)")));
    assert_defined(&out);
    assert_lanes(&s.LReg[16], &lanes(|l| l1[l] << 4), "L16 = L1 << 4");
    assert_lanes(&s.LReg[5], &lanes(|l| old_l5[l] + 1), "L5 = L5 + 1");

    // Scheduled Simple (SFPIADD into L1) + regular Round: SFPSHFT2 SHFT_IMM, Imm12 4 (VB = 4,
    // shift 4), VD 6: L6 = L4 << 4. Neither has VD == 16.
    let mut s = one_sided(0, 0);
    let mut m = Machine::new();
    assert_defined(&m.issue(&mut s, &lm(1, 1, INT32, 0, 0)));
    let out = m.issue(&mut s, &instr("TTI_SFPSHFT2(4, 0, 6, 6)"));
    assert_ne!(out.lanes(Clause::LoadmacroRule), 0, "{out}");
    assert_lanes(&s.LReg[1], &lanes(|l| l1[l] + 1), "scheduled L1 = L1 + 1");
    assert_lanes(&s.LReg[6], &lanes(|l| old_l4[l] << 4), "regular L6 = L4 << 4");
    // With the scheduled one writing L16: defined.
    let mut s = one_sided(L16, 0);
    let mut m = Machine::new();
    let mut out = m.issue(&mut s, &lm(1, 1, INT32, 0, 0));
    out.merge(&m.issue(&mut s, &instr("TTI_SFPSHFT2(4, 0, 6, 6)")));
    assert_defined(&out);
    assert_lanes(&s.LReg[16], &lanes(|l| l1[l] + 1), "L16 = L1 + 1");
    assert_lanes(&s.LReg[6], &lanes(|l| old_l4[l] << 4), "L6 = L4 << 4");

    // A regular instruction that a scheduled one discards does not execute, so it does not count:
    // macro 2 schedules Simple (VD 1) and Round (VD 16), which satisfy the rule; the regular
    // SFPIADD to Simple is discarded (reported as a collision only).
    let mut s = one_sided(0, 0);
    let mut m = Machine::new();
    assert_defined(&m.issue(&mut s, &lm(2, 1, INT32, 0, 0)));
    let out = m.issue(&mut s, &instr("TTI_SFPIADD(1, 5, 5, 5)"));
    assert_ne!(out.lanes(Clause::LoadmacroCollision), 0, "{out}");
    assert_eq!(out.lanes(Clause::LoadmacroRule), 0, "{out}");
    assert_lanes(&s.LReg[5], &old_l5, "the regular SFPIADD was discarded");
    assert_lanes(&s.LReg[1], &lanes(|l| l1[l] + 1), "L1 = L1 + 1");
    assert_lanes(&s.LReg[16], &lanes(|l| l1[l] << 4), "L16 = L1 << 4");

    // The rule pairs Simple with Round only: a scheduled Round (VD != 16) beside a regular MAD
    // instruction (L6 = L2 * L3 + L4 with base()'s integers is irrelevant here: no rule) is fine.
    let mut s = one_sided(0, 0);
    fill(&mut s, 2, f(2.0));
    fill(&mut s, 3, f(3.0));
    fill(&mut s, 4, f(0.5));
    let mut m = Machine::new();
    let mut out = m.issue(&mut s, &lm(0, 1, INT32, 0, 0));
    out.merge(&m.issue(&mut s, &instr("TTI_SFPMAD(2, 3, 4, 6, 0)")));
    assert_defined(&out);
    assert_lanes(&s.LReg[6], &[f(6.5); LANES], "L6 = 2*3 + 0.5");
}

/// Macro 0 (issued in cycle 1): SFPSHFT2 in `mode` on Round (template 1 = `shft2(0, 0, 0, mode)`:
/// VB 0 kept, bit 7 clear so VC := loaded L1, bit 6 so VD := 16), delay 0, executing in cycle 2.
/// Macro 1: SFPIADD +1 on Simple into L16, delay 0. Macro 2: SFPNOP on Simple, delay 0.
/// L1 is loaded with `0x100 * lane`.
fn shft2_macro(mode: u32) -> State {
    let mut s = base();
    put32(&mut s, 0, &lanes(|l| 0x100 * l as u32));
    put32(&mut s, 4, &lanes(|l| 0x100 * l as u32));
    configure(
        &mut s,
        [iadd_imm(1, 0, 0), shft2(0, 0, 0, mode), 0, 0],
        [seq(0, 0, L16 | at(T1, 0), 0), seq(L16 | at(T0, 0), 0, 0, 0), seq(at(SEL_NOP, 0), 0, 0, 0), 0],
        0,
    );
    s
}

/// Runs `shft2_macro(mode)` with SFPLOADMACRO macro 0 in cycle 1, `second` in cycle 2 (the
/// SFPSHFT2's cycle) and `third` in cycle 3 (`None`: an idle cycle). Returns the outcome of
/// cycles 1-2 and of cycle 3, and the state.
fn shft2_then(mode: u32, second: &Instr, third: Option<&str>) -> (Outcome, Outcome, State) {
    let mut s = shft2_macro(mode);
    let mut m = traced();
    let mut first = m.issue(&mut s, &lm(0, 1, INT32, 0, 0));
    first.merge(&m.issue(&mut s, second));
    let out = match third {
        Some(t) => m.issue(&mut s, &instr(t)),
        None => m.idle(&mut s),
    };
    assert_eq!(m.cycle(), 3, "no stall: automatic stalling does not apply to scheduled SFPSHFT2");
    assert!(
        m.trace().iter().any(|e| e.cycle == 2 && e.unit == SubUnit::Round && e.what == TraceKind::Scheduled),
        "{:?}",
        m.trace()
    );
    (first, out, s)
}

#[test]
fn scheduled_sfpshft2_modes_2_3_4_need_an_idle_next_cycle() {
    // SFPSHFT2.md "Instruction scheduling": automatic stalling does not apply to SFPSHFT2 executed
    // as part of an SFPLOADMACRO sequence; after one in SUBVEC_SHFLROR1_AND_COPY4 (2),
    // SUBVEC_SHFLROR1 (3) or SUBVEC_SHFLSHR1 (4), software must leave one idle cycle. For regular
    // instructions the page says the only instruction accepted on that cycle is SFPNOP, so idle
    // means: nothing but SFPNOP executes on any sub-unit, the load sub-unit included.
    let nop = instr("TTI_SFPNOP");
    for mode in 2..=4 {
        for busy in [
            "TTI_SFPIADD(1, 5, 5, 5)",   // Simple
            "TTI_SFPMAD(2, 3, 4, 6, 0)", // MAD
            "TTI_SFPSHFT2(4, 0, 6, 6)",  // Round
            "TTI_SFPSTORE(6, 4, 0, 8)",  // Store
            "TTI_SFPLOAD(6, 4, 0, 8)",   // load sub-unit
            "TTI_SFPLOADI(6, 2, 0x1234)",
        ] {
            let (first, out, _) = shft2_then(mode, &nop, Some(busy));
            assert_defined(&first);
            assert_ne!(out.lanes(Clause::LoadmacroRule), 0, "mode {mode}, then {busy}: {out}");
        }
        // An SFPNOP, or no instruction at all, is the idle cycle.
        for third in [Some("TTI_SFPNOP"), None] {
            let (first, out, _) = shft2_then(mode, &nop, third);
            assert_defined(&first);
            assert_defined(&out);
        }
        // A scheduled instruction on the next cycle breaks the rule just as well: macro 1, issued
        // in cycle 2 (loading L5, which no SFPSHFT2 mode here writes), runs its SFPIADD in cycle 3.
        let (first, out, _) = shft2_then(mode, &lm(1, 5, INT32, 0, 4), Some("TTI_SFPNOP"));
        assert_defined(&first);
        assert_ne!(out.lanes(Clause::LoadmacroRule), 0, "mode {mode}, then a scheduled SFPIADD: {out}");
        // A scheduled SFPNOP (macro 2) keeps its sub-unit idle, and the regular SFPIADD it discards
        // does not execute
        // (`docs/spec/sfpu-blackhole.md#idle-after-a-scheduled-sfpswap-or-sfpshft2`, as for
        // SFPSWAP): a collision, no broken rule.
        let (first, out, _) = shft2_then(mode, &lm(2, 5, INT32, 0, 4), Some("TTI_SFPIADD(1, 5, 5, 5)"));
        assert_defined(&first);
        assert_ne!(out.lanes(Clause::LoadmacroCollision), 0, "{out}");
        assert_eq!(out.lanes(Clause::LoadmacroRule), 0, "mode {mode}: {out}");
    }
    // The other modes have no such rule.
    for mode in [0, 1, 5, 6] {
        let (first, out, _) = shft2_then(mode, &nop, Some("TTI_SFPIADD(1, 5, 5, 5)"));
        assert_defined(&first);
        assert_defined(&out);
    }
    // The program still runs: SUBVEC_SHFLROR1 rotated L1 right by one lane within each group of
    // eight into L16 (lane l takes lane l - 1, lane 8k takes lane 8k + 7), and the SFPIADD ran.
    let (_, _, s) = shft2_then(3, &nop, Some("TTI_SFPIADD(1, 5, 5, 5)"));
    let src = |l: usize| if l & 7 != 0 { l - 1 } else { l + 7 };
    assert_lanes(&s.LReg[16], &lanes(|l| 0x100 * src(l) as u32), "L16 = SHFLROR1(L1)");
    assert_lanes(&s.LReg[5], &lanes(|l| 0x0600_0000 + l as u32 + 1), "L5 = L5 + 1");
}

#[test]
fn load_macro_config_differing_between_lanes_is_reported() {
    // Lanes 16..31 schedule a store, lanes 0..15 do not ("if any lane ... then all lanes must").
    let (mut s, _) = run_store([0; 4], 0, 0);
    configure(&mut s, [0; 4], [0; 4], misc(INT32, 0, 0));
    for l in 16..LANES {
        s.LoadMacroConfig[l].Sequence[0] = seq(0, 0, 0, L16 | at(SEL_STORE, 0));
    }
    let mut m = Machine::new();
    let mut out = m.issue(&mut s, &lm(0, 2, ZERO, 0, 8));
    out.merge(&m.drain(&mut s));
    assert_ne!(out.lanes(Clause::LoadmacroRule), 0, "store in some lanes only: {out}");

    // The Simple template differs in lane 3.
    let mut s = plus_one_into_l16(0, 0);
    s.LoadMacroConfig[3].InstructionTemplate[0] = iadd_imm(2, 0, 0);
    let mut m = Machine::new();
    let mut out = m.issue(&mut s, &lm(0, 1, INT32, 0, 0));
    out.merge(&m.drain(&mut s));
    assert_ne!(out.lanes(Clause::LoadmacroRule), 0, "template differs in lane 3: {out}");
}

// ------------------------------------------------------------------------------------------------
// Auto-stall of regular instructions (SFPMAD.md, SFPSWAP.md, SFPSHFT2.md "Instruction scheduling")
// ------------------------------------------------------------------------------------------------

/// L1..L4 = 1.0, 2.0, 3.0, 0.5; L5 = 7.0 (and L6/L7 integers for the shifts).
fn stall_state() -> State {
    let mut s = base();
    fill(&mut s, 1, f(1.0));
    fill(&mut s, 2, f(2.0));
    fill(&mut s, 3, f(3.0));
    fill(&mut s, 4, f(0.5));
    fill(&mut s, 6, 3);
    fill(&mut s, 7, 6);
    s
}

/// Runs `texts` from `stall_state()`; returns (machine, state, outcome of the last issue).
fn run_prog(texts: &[&str]) -> (Machine, State, Outcome) {
    let mut s = stall_state();
    let mut m = traced();
    let mut last = Outcome::defined();
    for t in texts {
        last = m.issue(&mut s, &instr(t));
    }
    (m, s, last)
}

#[test]
fn sfpmad_followed_by_a_reader_of_its_vd_stalls_one_cycle() {
    // SFPMAD L5 = L2 * L3 + L4 = 6.5; each consumer reads L5 in a way the stall logic sees.
    for consumer in [
        "TTI_SFPMAD(5, 3, 4, 6, 0)", // VA
        "TTI_SFPMAD(2, 5, 4, 6, 0)", // VB
        "TTI_SFPMAD(2, 3, 5, 6, 0)", // VC
        "TTI_SFPMOV(0, 5, 6, 0)",    // VC of a simple instruction
        "TTI_SFPSTORE(5, 4, 0, 0)",  // the stored register
        "TTI_SFPAND(0, 4, 5, 0)",    // SFPAND without USE_VB reads VD
        "TTI_SFPSHFT2(6, 7, 5, 5)",  // SHFT_LREG: the logic thinks it reads VD (5)
    ] {
        let (m, _, out) = run_prog(&["TTI_SFPMAD(2, 3, 4, 5, 0)", consumer]);
        assert_eq!(m.cycle(), 3, "{consumer}: one stall cycle");
        assert_eq!(stalls(&m), 1, "{consumer}: {:?}", m.trace());
        assert_eq!(out.lanes(Clause::Hazard), 0, "{consumer}: {out}");
        let issued: Vec<_> =
            m.trace().iter().filter(|e| e.what == TraceKind::Issued).map(|e| e.cycle).collect();
        assert_eq!(issued, vec![1, 3], "{consumer}");
    }
    // With the stall, the consumer sees the new value: L6 = L5 * 3 + 0.5 = 6.5 * 3 + 0.5 = 20.0.
    let (_, s, out) = run_prog(&["TTI_SFPMAD(2, 3, 4, 5, 0)", "TTI_SFPMAD(5, 3, 4, 6, 0)"]);
    assert_defined(&out);
    assert_lanes(&s.LReg[5], &[f(6.5); LANES], "2*3 + 0.5");
    assert_lanes(&s.LReg[6], &[f(20.0); LANES], "6.5*3 + 0.5");
}

#[test]
fn every_two_cycle_producer_stalls_a_dependent_reader() {
    for producer in [
        "TTI_SFPADD(2, 10, 4, 5, 0)",
        "TTI_SFPMUL(2, 3, 9, 5, 0)",
        "TTI_SFPADDI(0x3f80, 5, 0)",
        "TTI_SFPMULI(0x3f80, 5, 0)",
        "TTI_SFPMUL24(2, 3, 9, 5, 0)",
    ] {
        let (m, _, _) = run_prog(&[producer, "TTI_SFPMOV(0, 5, 6, 0)"]);
        assert_eq!((m.cycle(), stalls(&m)), (3, 1), "{producer}");
    }
    // A single-cycle producer does not.
    let (m, s, out) = run_prog(&["TTI_SFPIADD(1, 6, 5, 5)", "TTI_SFPMOV(0, 5, 7, 0)"]);
    assert_eq!((m.cycle(), stalls(&m)), (2, 0));
    assert_defined(&out);
    assert_lanes(&s.LReg[7], &[4; LANES], "L7 = L5 = L6 + 1 = 4");
}

#[test]
fn sfpmad_followed_by_an_independent_instruction_does_not_stall() {
    for consumer in ["TTI_SFPMAD(2, 3, 4, 6, 0)", "TTI_SFPMOV(0, 1, 6, 0)", "TTI_SFPNOP"] {
        let (m, _, out) = run_prog(&["TTI_SFPMAD(2, 3, 4, 5, 0)", consumer]);
        assert_eq!((m.cycle(), stalls(&m)), (2, 0), "{consumer}");
        assert_defined(&out);
    }
    // Writing (not reading) the SFPMAD's VD is not what the stall logic looks for.
    let (m, _, _) = run_prog(&["TTI_SFPMAD(2, 3, 4, 5, 0)", "TTI_SFPLOADI(5, 0, 0x4000)"]);
    assert_eq!((m.cycle(), stalls(&m)), (2, 0), "SFPLOADI to L5");
    // An SFPNOP gap: the reader issues in cycle 3 without a stall.
    let (m, s, out) = run_prog(&["TTI_SFPMAD(2, 3, 4, 5, 0)", "TTI_SFPNOP", "TTI_SFPMOV(0, 5, 6, 0)"]);
    assert_eq!((m.cycle(), stalls(&m)), (3, 0));
    assert_defined(&out);
    assert_lanes(&s.LReg[6], &[f(6.5); LANES], "L6 = L5");
}

#[test]
fn indirect_va_and_indirect_vd_make_the_stall_logic_conservative() {
    // L7 = 2 (INDIRECT_VA reads L[L7 & 15] = L2; INDIRECT_VD writes L[L7 & 15]).
    let mut s = stall_state();
    fill(&mut s, 7, 2);
    // A consumer with INDIRECT_VA (4) is assumed to read every LReg.
    let mut m = traced();
    m.issue(&mut s, &instr("TTI_SFPMAD(2, 3, 4, 5, 0)"));
    m.issue(&mut s, &instr("TTI_SFPMAD(0, 3, 4, 6, 4)"));
    assert_eq!((m.cycle(), stalls(&m)), (3, 1), "INDIRECT_VA consumer");
    // A producer with INDIRECT_VD (8) is assumed to write every LReg.
    let mut s = stall_state();
    fill(&mut s, 7, 2);
    let mut m = traced();
    m.issue(&mut s, &instr("TTI_SFPMAD(1, 3, 4, 5, 8)"));
    m.issue(&mut s, &instr("TTI_SFPMOV(0, 1, 0, 0)"));
    assert_eq!((m.cycle(), stalls(&m)), (3, 1), "INDIRECT_VD producer");
}

#[test]
fn sfpswap_blocks_the_next_cycle_for_anything_but_sfpnop() {
    for mode in [0, 1, 9] {
        let swap = format!("TTI_SFPSWAP(0, 3, 4, {mode})");
        for next in ["TTI_SFPIADD(1, 6, 6, 5)", "TTI_SFPMAD(2, 3, 4, 6, 0)", "TTI_SFPLOAD(6, 4, 0, 0)"] {
            let (m, _, _) = run_prog(&[&swap, next]);
            assert_eq!((m.cycle(), stalls(&m)), (3, 1), "{swap}; {next}");
        }
        let (m, _, _) = run_prog(&[&swap, "TTI_SFPNOP"]);
        assert_eq!((m.cycle(), stalls(&m)), (2, 0), "{swap}; SFPNOP");
        let (m, _, _) = run_prog(&[&swap, "TTI_SFPNOP", "TTI_SFPIADD(1, 6, 6, 5)"]);
        assert_eq!((m.cycle(), stalls(&m)), (3, 0), "{swap}; SFPNOP; SFPIADD");
    }
}

#[test]
fn sfpshft2_modes_2_3_4_block_the_next_cycle() {
    for mode in 0..=6 {
        let shft = format!("TTI_SFPSHFT2(1, 3, 5, {mode})");
        let (m, _, _) = run_prog(&[&shft, "TTI_SFPMOV(0, 6, 7, 0)"]);
        let want = if (2..=4).contains(&mode) { (3, 1) } else { (2, 0) };
        assert_eq!((m.cycle(), stalls(&m)), want, "{shft}");
        let (m, _, _) = run_prog(&[&shft, "TTI_SFPNOP"]);
        assert_eq!((m.cycle(), stalls(&m)), (2, 0), "{shft}; SFPNOP");
    }
}

#[test]
fn stall_logic_blind_spots_are_hazards_and_do_not_stall() {
    // The producer writes L5 (L0 for SFPCONFIG); each consumer really reads it, the stall logic
    // does not see it (SFPMAD.md caution list).
    let mut wrong = Vec::new();
    for (producer, consumer) in [
        ("TTI_SFPMAD(2, 3, 4, 5, 0)", "TTI_SFPIADD(0, 6, 5, 4)"), // SFPIADD reads VD
        ("TTI_SFPMAD(2, 3, 4, 5, 0)", "TTI_SFPSHFT(1, 6, 5, 1)"), // SFPSHFT reads VD
        ("TTI_SFPMAD(2, 3, 4, 5, 0)", "TTI_SFPAND(5, 6, 7, 1)"),  // SFPAND USE_VB reads VB
        ("TTI_SFPMAD(2, 3, 4, 5, 0)", "TTI_SFPOR(5, 6, 7, 1)"),   // SFPOR USE_VB reads VB
        ("TTI_SFPMAD(2, 3, 4, 0, 0)", "TTI_SFPCONFIG(0, 0, 0)"),  // SFPCONFIG reads LReg[0]
        ("TTI_SFPMAD(2, 3, 4, 5, 0)", "TTI_SFPSHFT2(5, 6, 7, 5)"), // SHFT_LREG reads VB
        ("TTI_SFPMAD(2, 3, 4, 5, 0)", "TTI_SFPSHFT2(5, 0, 7, 6)"), // SHFT_IMM: VB = Imm12 & 15 = 5
        ("TTI_SFPMAD(2, 3, 4, 5, 0)", "TTI_SFPSHFT2(0, 5, 7, 3)"), // SHFLROR1 reads VC
        ("TTI_SFPMAD(2, 3, 4, 5, 0)", "TTI_SFPSHFT2(0, 5, 7, 4)"), // SHFLSHR1 reads VC
        ("TTI_SFPMAD(2, 3, 4, 5, 0)", "TTI_SFPSHFT2(0, 5, 7, 2)"), // SHFLROR1_AND_COPY4 reads VC
        ("TTI_SFPMAD(2, 3, 4, 5, 0)", "TTI_SFPSWAP(0, 5, 6, 1)"), // 1st-cycle read of VC
        ("TTI_SFPMAD(2, 3, 4, 6, 0)", "TTI_SFPSWAP(0, 5, 6, 1)"), // 1st-cycle read of VD
    ] {
        let (m, _, out) = run_prog(&[producer, consumer]);
        if (m.cycle(), stalls(&m)) != (2, 0) || out.lanes(Clause::Hazard) == 0 {
            wrong.push(format!(
                "{producer}; {consumer}: {} cycles, {} stalls, outcome `{out}`",
                m.cycle(),
                stalls(&m)
            ));
        }
    }
    assert!(wrong.is_empty(), "want 2 cycles, no stall and a hazard:\n{}", wrong.join("\n"));
    // SFPCONFIG with IMM16_IS_VALUE writing a Sequence does not read LReg[0]: no hazard.
    let (m, _, out) = run_prog(&["TTI_SFPMAD(2, 3, 4, 0, 0)", "TTI_SFPCONFIG(0x1234, 4, 1)"]);
    assert_eq!((m.cycle(), stalls(&m)), (2, 0));
    assert_defined(&out);
    // SFPSWAP in SWAP mode (0) only reads in its 2nd cycle.
    let (_, _, out) = run_prog(&["TTI_SFPMAD(2, 3, 4, 5, 0)", "TTI_SFPSWAP(0, 5, 6, 0)"]);
    assert_eq!(out.lanes(Clause::Hazard), 0, "{out}");
}

#[test]
fn a_scheduled_sfpmad_is_not_protected_by_the_stall_logic() {
    // Macro 0: SFPMAD on MAD with delay 0 (L1 = L2 * L3 + L1), executing in cycle 2.
    let setup = || {
        let mut s = stall_state();
        put32(&mut s, 0, &f32s(|l| l as f32));
        configure0(&mut s, [mad(2, 3, 0, 0, 0), 0, 0, 0], seq(0, at(T0, 0), 0, 0), 0);
        s
    };
    let mut s = setup();
    let mut m = traced();
    m.issue(&mut s, &lm(0, 1, INT32, 0, 0)); // 1
    m.issue(&mut s, &instr("TTI_SFPNOP")); // 2: the SFPMAD
    let out = m.issue(&mut s, &instr("TTI_SFPMOV(0, 1, 6, 0)")); // 3: reads its result, no gap
    assert_eq!((m.cycle(), stalls(&m)), (3, 0));
    assert_ne!(out.lanes(Clause::Hazard), 0, "{out}");
    // With one more cycle of gap it is fine: L6 = L1 = 2*3 + l.
    let mut s = setup();
    let mut m = Machine::new();
    let out = issue_all(
        &mut m,
        &mut s,
        &["TTI_SFPLOADMACRO((0 << 2) | 1, 4, 0, 0)", "TTI_SFPNOP", "TTI_SFPNOP", "TTI_SFPMOV(0, 1, 6, 0)"],
    );
    assert_defined(&out);
    assert_lanes(&s.LReg[6], &f32s(|l| 6.0 + l as f32), "L6 = 6 + l");
}

// ------------------------------------------------------------------------------------------------
// SFPCONFIG changing DISABLE_BACKDOOR_LOAD (SFPCONFIG.md "Instruction scheduling")
// ------------------------------------------------------------------------------------------------

#[test]
fn sfpconfig_changing_dbl_then_vd_12_or_more_is_unspecified() {
    // SFPCONFIG VD 15, Mod1 3 (IMM16_IS_VALUE | BITWISE_OR), Imm16 2: LaneConfig |= DBL.
    let set_dbl = "TTI_SFPCONFIG(2, 15, 3)";
    let (_, s, out) = run_prog(&[set_dbl, "TTI_SFPSTORE(12, 4, 0, 0)"]);
    assert!(s.LaneConfig[0].DISABLE_BACKDOOR_LOAD());
    assert_ne!(out.lanes(Clause::SfpconfigDblChange), 0, "{out}");
    // Clearing it (Mod1 5 = IMM16_IS_VALUE | BITWISE_AND with !2) is a change as well.
    let mut s = stall_state();
    for l in 0..LANES {
        s.LaneConfig[l] = LaneConfig::new(2).unwrap();
    }
    let mut m = Machine::new();
    m.issue(&mut s, &instr("TTI_SFPCONFIG(0xfffd, 15, 5)"));
    assert!(!s.LaneConfig[0].DISABLE_BACKDOOR_LOAD());
    let out = m.issue(&mut s, &instr("TTI_SFPMAD(2, 3, 4, 13, 0)"));
    assert_ne!(out.lanes(Clause::SfpconfigDblChange), 0, "{out}");

    // With an SFPNOP in between, or a next instruction with VD < 12: nothing.
    let (_, _, out) = run_prog(&[set_dbl, "TTI_SFPNOP", "TTI_SFPSTORE(12, 4, 0, 0)"]);
    assert_eq!(out.lanes(Clause::SfpconfigDblChange), 0, "{out}");
    let (_, _, out) = run_prog(&[set_dbl, "TTI_SFPSTORE(11, 4, 0, 0)"]);
    assert_eq!(out.lanes(Clause::SfpconfigDblChange), 0, "{out}");
    // SFPCONFIG that leaves DBL as it was (already set, or another bit): nothing.
    let mut s = stall_state();
    for l in 0..LANES {
        s.LaneConfig[l] = LaneConfig::new(2).unwrap();
    }
    let mut m = Machine::new();
    m.issue(&mut s, &instr(set_dbl));
    let out = m.issue(&mut s, &instr("TTI_SFPSTORE(12, 4, 0, 0)"));
    assert_eq!(out.lanes(Clause::SfpconfigDblChange), 0, "{out}");
    let (_, _, out) = run_prog(&["TTI_SFPCONFIG(0x1000, 15, 3)", "TTI_SFPSTORE(12, 4, 0, 0)"]);
    assert_eq!(out.lanes(Clause::SfpconfigDblChange), 0, "ROW_MASK change: {out}");
}

// ------------------------------------------------------------------------------------------------
// The linter
// ------------------------------------------------------------------------------------------------

fn lint_text(s: &State, text: &str) -> Vec<(usize, Clause)> {
    let program = parse_program(Arch::Blackhole, text).unwrap();
    lint(s, &program).into_iter().map(|f| (f.line, f.clause)).collect()
}

#[test]
fn lint_accepts_a_clean_program() {
    let text = "\
TTI_SFPLOADI(2, 0, 0x4000)
TTI_SFPMAD(2, 2, 9, 5, 0)   # L5 = 2 * 2 + 0
TTI_SFPNOP                  # the gap SFPIADD needs
TTI_SFPIADD(0, 6, 5, 4)     # reads VD = 5
TTI_SFPSWAP(0, 5, 6, 1)
TTI_SFPNOP
TTI_SFPSTORE(6, 4, 0, 0)
";
    assert_eq!(lint_text(&stall_state(), text), vec![]);
}

#[test]
fn lint_reports_each_violated_rule_with_its_line() {
    let text = "\
# line 1: comment
TTI_SFPMAD(2, 3, 4, 5, 0)   // line 2

TTI_SFPIADD(0, 6, 5, 4)     # line 4: reads VD 5 one cycle after the SFPMAD (blind spot)
TTI_SFPNOP
TTI_SFPMAD(2, 3, 4, 0, 0)
TTI_SFPCONFIG(0, 0, 0)      # line 7: reads LReg[0] (blind spot)
TTI_SFPCONFIG(2, 15, 3)     # line 8: sets DISABLE_BACKDOOR_LOAD
TTI_SFPSTORE(12, 4, 0, 0)   # line 9: VD 12 right after it
";
    assert_eq!(
        lint_text(&stall_state(), text),
        vec![(4, Clause::Hazard), (7, Clause::Hazard), (9, Clause::SfpconfigDblChange)]
    );
}

#[test]
fn lint_reports_loadmacro_collisions_and_rules() {
    // Macro 0: Simple SFPIADD with delay 0. Line 2's SFPIADD collides with it.
    let s = plus_one_into_l16(0, 0);
    let text = "TTI_SFPLOADMACRO((0 << 2) | 1, 4, 0, 0)\nTTI_SFPIADD(1, 5, 5, 5)\n";
    assert_eq!(lint_text(&s, text), vec![(2, Clause::LoadmacroCollision)]);
    // With an SFPNOP (a load-unit instruction) instead: nothing.
    let text = "TTI_SFPLOADMACRO((0 << 2) | 1, 4, 0, 0)\nTTI_SFPNOP\n";
    assert_eq!(lint_text(&s, text), vec![]);

    // Simple and Round both writing the loaded register in cycle 2: found in line 2's cycle.
    let (_, mut s) = simple_and_round(0, 0);
    put32(&mut s, 0, &lanes(|l| 0x100 * l as u32));
    let text = "TTI_SFPLOADMACRO((0 << 2) | 1, 4, 0, 0)\nTTI_SFPNOP\nTTI_SFPNOP\n";
    assert_eq!(lint_text(&s, text), vec![(2, Clause::LoadmacroRule)]);
}

#[test]
fn lint_reports_the_scheduled_sfpshft2_idle_cycle_and_the_regular_vd_16_pairing() {
    // Line 1: SFPLOADMACRO macro 0 schedules SFPSHFT2 SUBVEC_SHFLROR1 on Round for cycle 2 (line
    // 2's); line 3's SFPIADD executes in the cycle after it, which SFPSHFT2.md wants idle.
    let s = shft2_macro(3);
    let text = "TTI_SFPLOADMACRO((0 << 2) | 1, 4, 0, 0)\nTTI_SFPNOP\nTTI_SFPIADD(1, 5, 5, 5)\n";
    assert_eq!(lint_text(&s, text), vec![(3, Clause::LoadmacroRule)]);
    // With an SFPNOP for that cycle: clean.
    let text = "TTI_SFPLOADMACRO((0 << 2) | 1, 4, 0, 0)\nTTI_SFPNOP\nTTI_SFPNOP\nTTI_SFPIADD(1, 5, 5, 5)\n";
    assert_eq!(lint_text(&s, text), vec![]);
    // SHFT_IMM (mode 6) needs no idle cycle.
    let s = shft2_macro(6);
    let text = "TTI_SFPLOADMACRO((0 << 2) | 1, 4, 0, 0)\nTTI_SFPNOP\nTTI_SFPIADD(1, 5, 5, 5)\n";
    assert_eq!(lint_text(&s, text), vec![]);

    // Line 2's regular SFPIADD (Simple, VD 5) executes beside macro 0's scheduled SFPSHFT2 (Round,
    // VD 1): neither has VD == 16.
    let s = one_sided(0, 0);
    let text = "TTI_SFPLOADMACRO((0 << 2) | 1, 4, 0, 0)\nTTI_SFPIADD(1, 5, 5, 5)\n";
    assert_eq!(lint_text(&s, text), vec![(2, Clause::LoadmacroRule)]);
    let s = one_sided(0, L16);
    assert_eq!(lint_text(&s, text), vec![]);
}

#[test]
fn lint_finds_the_sfpshft2_rule_in_a_program_that_configures_its_own_macro() {
    // From the reset state (every lane enabled, DISABLE_BACKDOOR_LOAD clear), the program writes
    // InstructionTemplate[1] = SFPSHFT2(0, 0, 0, 4) (SUBVEC_SHFLSHR1) and Sequence[0] = Round byte
    // 0x45 (bit 6: VD 16; delay 0; selector 5 = template 1) in bits 23..16, i.e. 0x00450000,
    // through LReg[0] and SFPCONFIG (SFPCONFIG.md: VD 1 = InstructionTemplate[1], VD 4 =
    // Sequence[0]; Mod1 0 takes LReg[0]). 0x94000004 = 0x94 << 24 | 4.
    assert_eq!(shft2(0, 0, 0, 4), 0x9400_0004);
    assert_eq!(seq(0, 0, L16 | at(T1, 0), 0), 0x0045_0000);
    let text = "\
TTI_SFPLOADI(0, 8, 0x9400)      # LReg[0] upper half
TTI_SFPLOADI(0, 10, 0x0004)     # LReg[0] lower half
TTI_SFPCONFIG(0, 1, 0)          # InstructionTemplate[1] = LReg[0]
TTI_SFPLOADI(0, 8, 0x0045)
TTI_SFPLOADI(0, 10, 0x0000)
TTI_SFPCONFIG(0, 4, 0)          # Sequence[0] = LReg[0]
TTI_SFPLOADMACRO((0 << 2) | 1, 4, 0, 0)  # line 7: SFPSHFT2 on Round in line 8's cycle
TTI_SFPLOADI(2, 2, 7)           # line 8: the SFPSHFT2's cycle; any instruction may issue
TTI_SFPLOADI(3, 2, 9)           # line 9: must be idle
TTI_SFPNOP
";
    assert_eq!(lint_text(&reset(), text), vec![(9, Clause::LoadmacroRule)]);
}

// ------------------------------------------------------------------------------------------------
// `step` on a lone SFPLOADMACRO
// ------------------------------------------------------------------------------------------------

#[test]
fn step_on_a_lone_loadmacro_equals_issue_then_drain() {
    for delay_kind in [0, 0b1111] {
        let s = four_units(delay_kind);
        let i = lm(0, 1, INT32, 0, 8);
        let mut a = s.clone();
        let out_a = step(&mut a, &i);
        let mut b = s.clone();
        let mut m = Machine::new();
        let mut out_b = m.issue(&mut b, &i);
        out_b.merge(&m.drain(&mut b));
        assert!(m.pending().is_empty());
        assert_eq!(a, b, "delay kind {delay_kind:#x}");
        assert_eq!(out_a, out_b);
        assert_defined(&out_a);
        // And the hand-derived result: L1 = 2*3 + l, L16 = L1 << 4, stored at Addr 8.
        let shifted = lanes(|l| (6.0 + l as f32).to_bits() << 4);
        assert_lanes(&a.LReg[1], &f32s(|l| 6.0 + l as f32), "L1");
        assert_lanes(&a.LReg[16], &shifted, "L16");
        assert_lanes(&get32(&a, 8), &shifted, "Dst");
    }
}

/// BlackholeA0 `SFPSWAP.md` (@ 585749d1) caution: a scheduled SFPSWAP (macro 0: template 0 on
/// Simple, SFPNOP on MAD, delay 0; VC and VD overridden to the macro's VD, `LReg[3]`) executes in
/// line 2's cycle and re-reads and writes `LReg[3]` in line 3's, unprotected: an SFPLOAD writing
/// `LReg[3]` there is reported; writing `LReg[5]`, or after another SFPNOP, it is not.
#[test]
fn lint_reports_a_load_on_sfpswaps_second_cycle() {
    let mut s = reset();
    let swap = instr("TTI_SFPSWAP(0, 1, 2, 1)").encode(Arch::Blackhole).unwrap();
    for l in 0..LANES {
        s.LoadMacroConfig[l].InstructionTemplate[0] = swap;
        s.LoadMacroConfig[l].Sequence[0] = 4 | (2 << 8);
    }
    let text = "TTI_SFPLOADMACRO((0 << 2) | 3, 0, 0, 0)\nTTI_SFPNOP\nTTI_SFPLOAD(3, 0, 0, 0)\n";
    assert_eq!(lint_text(&s, text), vec![(3, Clause::SfpswapSecondCycle)]);
    let text = "TTI_SFPLOADMACRO((0 << 2) | 3, 0, 0, 0)\nTTI_SFPNOP\nTTI_SFPLOAD(5, 0, 0, 0)\n";
    assert_eq!(lint_text(&s, text), vec![]);
    let text = "TTI_SFPLOADMACRO((0 << 2) | 3, 0, 0, 0)\nTTI_SFPNOP\nTTI_SFPNOP\nTTI_SFPLOAD(3, 0, 0, 0)\n";
    assert_eq!(lint_text(&s, text), vec![]);
}

/// Only SFPSTORE writes Dst: the machine relies on it to lend the live Dst, uncopied, to every
/// instruction of a cycle without an SFPSTORE (`Machine`'s cycles of several instructions).
/// Every other opcode of each chip, 300 random encodings each (every field drawn), issued on a
/// machine for one cycle (an SFPLOADMACRO's load; what it schedules runs later, and is checked
/// by its own opcode) on random states (LRegs, predication, `LaneConfig`, `LoadMacroConfig`, Dst
/// cells and valid bits all random), leaves Dst and its valid bits as they were. SFPSTORE, on
/// the same states, changes them in most runs, so the comparison does see a write.
#[test]
fn only_sfpstore_writes_dst() {
    let mut x = 0x0D57_0001_u64;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    for arch in Arch::ALL {
        for &op in Opcode::ALL.iter().filter(|&&op| arch.has(op)) {
            let (mut runs, mut changed) = (0, 0);
            for _ in 0..300 {
                let word = ((op.number() as u32) << 24) | (next() as u32 & op.drawn_mask(arch) & 0xFF_FFFF);
                let Ok(instr) = sfpu_reference::decode(arch, word) else { continue };
                let mut s = reset_of(arch);
                for reg in 0..8 {
                    for l in 0..LANES {
                        s.LReg[reg][l] = next() as u32;
                    }
                }
                for l in 0..LANES {
                    s.LaneFlags[l] = next() & 1 != 0;
                    s.UseLaneFlagsForLaneEnable[l] = next() & 3 == 0;
                    s.LaneConfig[l] = LaneConfig::truncating(next() as u32);
                    s.LoadMacroConfig[l] = LoadMacroConfig {
                        InstructionTemplate: [0; 4].map(|_| next() as u32),
                        Sequence: [0; 4].map(|_| next() as u32),
                        Misc: Misc::truncating(next() as u32),
                    };
                }
                for row in s.Dst.DstBits.iter_mut() {
                    for cell in row.iter_mut() {
                        *cell = next() as u16;
                    }
                }
                for valid in s.Dst.DstRowValid.iter_mut() {
                    *valid = next() & 7 != 0;
                }
                let before = s.Dst.clone();
                let _ = Machine::new().issue(&mut s, &instr);
                runs += 1;
                changed += usize::from(s.Dst != before);
                if op != Opcode::SFPSTORE {
                    assert!(s.Dst == before, "{arch}: {instr:?} ({word:#010x}) wrote Dst");
                }
            }
            assert!(runs >= 100, "{arch} {op:?}: only {runs} of 300 words decode");
            if op == Opcode::SFPSTORE {
                assert!(changed * 2 > runs, "{arch}: SFPSTORE wrote Dst in only {changed} of {runs} runs");
            }
        }
    }
}
