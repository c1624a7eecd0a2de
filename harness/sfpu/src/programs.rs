//! Self-checking programs: a golden vector as something that runs on anything that can issue
//! instruction words from reset and read Dst back (an RTL test bench, a board), in the manner of
//! riscv-arch-test's signatures.
//!
//! A [`ProgramForm`] is four instruction lists and some data:
//!
//! 1. the **prologue**, from the documented reset state (every part the documentation leaves
//!    unspecified at reset may hold anything): it sets, with SFPU instructions only, every part of
//!    the vector's initial state that the program may read or write: LaneConfig, LoadMacroConfig,
//!    the programmable constants `LReg[11..14]`, `LReg[16]`, the Dst rows the program reaches,
//!    the flag stack, the flags and `LReg[0..7]`;
//! 2. the **configuration** outside the SFPU the program needs (its initial `Addressing`: Dst
//!    format, address modifiers, RWCs, bases, remap), written by the bench before the program;
//! 3. the vector's **program**, followed by the SFPNOPs that let SFPLOADMACRO's schedule drain;
//! 4. the **epilogue**, after the bench has put the configuration back to its defaults: it stores
//!    every location the program may write (the LRegs, LaneConfig, LoadMacroConfig, the flags,
//!    the flag stack level by level, `LReg[16]`) into a readout area of Dst;
//!
//! and the **signature**: the Dst rows a correct implementation ends with (the readout area and
//! the rows the vector's program reaches), cell by cell, `None` where the value is not promised
//! (locations the vector skips) or not determined (cells the epilogue does not write). The
//! signature is what the epilogue makes of the vector's *expected* state, computed by running it
//! on the reference model; that it reads back every location is checked by tests that change one
//! location of the expected state at a time.
//!
//! Not read back: the RWCs and other `Addressing` state the program changes (Tensix state the
//! SFPU cannot read; listed as [`ProgramForm::expected_addressing`] for benches that can), and
//! the PRNG when the program only advances it (its reset value is unspecified and no instruction
//! sets it, so a program that uses its value has no program form).
//!
//! Everything here is specific to the Blackhole SFPU.

use std::collections::{BTreeMap, BTreeSet};

use sfpu_reference::isa::mods::*;
use sfpu_reference::isa::{Arch, Instr, Opcode, decode};
use sfpu_reference::ops::blackhole::load_store::{ComputeAddr, ResolveSrcB};
use sfpu_reference::state::{
    Addressing, DST_COLS, FLAG_STACK_CAPACITY, FlagStack, FlagStackEntry, LANES, LaneConfig, State,
};
use sfpu_reference::{Machine, ResetValues};

use crate::generate::build;
use crate::generate::operands::Rng;
use crate::taint::{Locations, Parts, footprint, potential_writes};
use crate::vectors::{Vector, expected_states};

/// A vector as a self-checking program (module documentation).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProgramForm {
    /// The vector's id.
    pub id: String,
    /// From reset, with the default configuration: sets the initial state.
    pub prologue: Vec<Instr>,
    /// The configuration to write before the program (the vector's initial `Addressing`).
    pub before_program: Addressing,
    /// The vector's program, then the SFPNOPs that drain SFPLOADMACRO's schedule.
    pub program: Vec<Instr>,
    /// The `Addressing` state the program leaves (RWCs), when it may change it and the vector
    /// promises it: for benches that can read it; not part of the signature.
    pub expected_addressing: Option<Addressing>,
    /// With the default configuration again: stores what the program may have written into Dst.
    pub epilogue: Vec<Instr>,
    /// The Dst image to expect at the end, by physical row: `None` for a cell not promised.
    pub signature: BTreeMap<usize, [Option<u16>; DST_COLS]>,
    /// What the epilogue reads back: `LReg[0..7]`, `LReg[11]` .. `LReg[14]`, `LReg[16]`,
    /// `LaneConfig`, `LoadMacroConfig`, `flags`, `flag stack` (the Dst rows are in the signature
    /// as they are).
    pub read_back: Vec<&'static str>,
    /// What the program changes that the epilogue does not read back, and why.
    pub not_read_back: Vec<String>,
    /// The readout area's groups of four logical rows (default addressing), which the prologue
    /// fills with a marker.
    pub readout: Vec<u32>,
}

// Instruction modifiers used here (the pages' constants where they have names).
const SFPENCC_MOD1_EI_RI: u32 = SFPENCC_MOD1_EI | SFPENCC_MOD1_RI;
const SFPIADD_IMM_GTE0: u32 = SFPIADD_MOD1_ARG_IMM | SFPIADD_MOD1_CC_GTE0;
const CONFIG_OR: u32 = MOD1_IMM16_IS_VALUE | MOD1_BITWISE_OR;
const CONFIG_AND: u32 = MOD1_IMM16_IS_VALUE | MOD1_BITWISE_AND;

/// LaneConfig bits that change how SFPLOAD, SFPSTORE and predicated instructions behave (ROW_MASK,
/// the Dst index capture, blocking and column exchange): set last, without registers.
const PHASE_B: u32 = 0xF0FC;

/// What the prologue writes into the readout area (raw, as a 32-bit value per cell pair).
const MARKER: u32 = 0xA5A5_5A5A;

/// The first logical 32-bit row of Dst used for the readout (physical rows 0x200 and up).
const AREA_START: u32 = 0x100;
/// The end of the readout area (logical rows).
const AREA_END: u32 = 0x200;

/// The reasons a vector has no program form, and the program form otherwise.
pub fn program_form(v: &Vector) -> Result<ProgramForm, String> {
    let (pre, stated) = expected_states(v)?;
    let program: Vec<Instr> = v
        .program
        .iter()
        .map(|w| decode(Arch::Blackhole, w.word.0).map_err(|e| e.to_string()))
        .collect::<Result<_, _>>()?;
    let skip = v.skip.clone().unwrap_or_default();
    if skip.all {
        return Err("undefined behaviour: the vector promises nothing to read back".to_string());
    }
    // The state the epilogue reads: the vector's expected state, which `post` gives only where it
    // promises a value; elsewhere (`skip`), what the reference model ends with, as an
    // implementation's state there has some value too. Every signature cell that depends on it
    // is a `None` (the scramble below).
    let words: Vec<u32> = program.iter().map(Instr::encode_blackhole).collect();
    let expected = harness_core::isa::Model::run(&crate::model::Reference, Arch::Blackhole, &pre, &words)
        .map_err(|e| format!("the reference model: {e}"))?
        .post;
    if !crate::taint::differing(&stated, &expected, &skip).is_empty() {
        return Err("the reference model does not end in the vector's expected state".to_string());
    }
    let access = Access::of(&program, &pre);
    reachable(&pre, &access)?;

    // Dst: the rows the vector lists, the rows its program reaches, and the readout area.
    let mut rows: BTreeSet<usize> = touched_rows(&pre, &program);
    for r in 0..sfpu_reference::state::DST_ROWS {
        if pre.Dst.DstBits[r] != [0; DST_COLS] || expected.Dst.DstBits[r] != pre.Dst.DstBits[r] {
            rows.insert(r);
        }
    }
    let groups = dst_groups(&rows)?;
    let mut avoid = rows.clone();
    avoid.extend(groups.iter().flat_map(|&g| Area::rows_of(g)));
    let mut area = Area::new(&avoid)?;

    // The epilogue first: it takes the readout area's first groups, which the prologue fills with
    // a marker (a store that does not happen then shows).
    let mut e = Asm::default();
    let mut end = expected.clone();
    end.Addressing = Addressing::default();
    let read_back = epilogue(&mut e, &end, &access, &skip, &mut area)?;
    let readout: Vec<u32> = area.used.clone();
    mark(&mut end, &readout);

    let mut p = Asm::default();
    prologue(&mut p, &pre, &access, &groups, &readout, &mut area)?;

    // The program, then SFPNOPs until SFPLOADMACRO's schedule has drained.
    let mut run = program.clone();
    run.extend(std::iter::repeat_n(Instr::SFPNOP {}, drain_nops(&pre, &program)));

    let mut not_read_back = Vec::new();
    if skip.LaneConfig.0 != 0 {
        not_read_back.push(
            "LaneConfig: the vector does not promise it (skip), and the readout clears it first (it decides \
             which lanes and columns the readout reaches)"
                .to_string(),
        );
    }
    if access.writes.prng {
        not_read_back.push(
            "the PRNG: its reset value is unspecified and no instruction sets it (the program only advances it)"
                .to_string(),
        );
    }
    let addressing_promised = !skip.Addressing && !skip.all;
    let expected_addressing =
        (access.writes.addressing && addressing_promised).then_some(expected.Addressing);
    if access.writes.addressing {
        not_read_back.push(
            "the RWCs and the rest of Addressing: Tensix state the SFPU cannot read (see expected_addressing)"
                .to_string(),
        );
    }

    // The signature: the epilogue on the expected state, with every cell that varies with what is
    // not promised (skipped locations) or not set (the rest of Dst, unset configuration) a `None`.
    let signature_rows: BTreeSet<usize> = rows.iter().copied().chain(area.physical_rows()).collect();
    let image = run_epilogue(&end, &e.out)?;
    let mut signature: BTreeMap<usize, [Option<u16>; DST_COLS]> =
        signature_rows.iter().map(|&r| (r, image.Dst.DstBits[r].map(Some))).collect();
    let set_rows: BTreeSet<usize> =
        rows.iter().copied().chain(readout.iter().flat_map(|&g| Area::rows_of(g))).collect();
    let mut others: Vec<State> = (0..3)
        .map(|k| {
            let mut other = end.clone();
            scramble(&mut other, &skip, &access, &set_rows, 0x5EED_0000 + k);
            other
        })
        .collect();
    // A cell may depend on one lane's skipped flag (a random scramble keeps it with probability
    // 1/2): each lane's skipped locations are also changed on their own, and then all at once.
    if !skip.is_empty() {
        others.extend((0..LANES).map(|l| changed(&end, &skip, 1 << l)));
        others.push(changed(&end, &skip, u32::MAX));
    }
    for other in &others {
        let image2 = run_epilogue(other, &e.out)?;
        for (&r, cells) in signature.iter_mut() {
            for (c, cell) in cells.iter_mut().enumerate() {
                if *cell != Some(image2.Dst.DstBits[r][c]) {
                    *cell = None;
                }
            }
        }
    }
    Ok(ProgramForm {
        id: v.id.clone(),
        prologue: p.out,
        before_program: pre.Addressing,
        program: run,
        expected_addressing,
        epilogue: e.out,
        signature,
        read_back,
        not_read_back,
        readout,
    })
}

/// Fills the readout area's rows of `s` with the marker, as the prologue does.
fn mark(s: &mut State, readout: &[u32]) {
    for &g in readout {
        for r in Area::rows_of(g) {
            let half = if r & 8 == 0 { MARKER >> 16 } else { MARKER & 0xFFFF };
            s.Dst.DstBits[r] = [half as u16; DST_COLS];
        }
    }
}

/// The Dst image the form's epilogue makes of `state` (a program's final state, with the default
/// configuration; the readout area is marked as the prologue leaves it), on the reference model:
/// what the signature is computed from.
pub fn epilogue_image(form: &ProgramForm, state: &State) -> Result<State, String> {
    let mut s = state.clone();
    mark(&mut s, &form.readout);
    run_epilogue(&s, &form.epilogue)
}

/// Runs `epilogue` on the reference model from `state`; the epilogue itself must be defined.
fn run_epilogue(state: &State, epilogue: &[Instr]) -> Result<State, String> {
    let mut s = state.clone();
    let mut m = Machine::new();
    let mut out = sfpu_reference::Outcome::defined();
    for i in epilogue {
        out.merge(&m.issue(&mut s, i));
    }
    out.merge(&m.drain(&mut s));
    if !out.is_defined() {
        let clauses: Vec<&str> = out.notes().map(|(c, _)| c.id()).collect();
        return Err(format!(
            "the readout would touch behaviour the specification leaves open ({})",
            clauses.join(", ")
        ));
    }
    Ok(s)
}

/// Changes every location of `s` that the signature must not depend on: the skipped locations
/// (every bit of each, every level of a flag stack), the Dst rows the prologue does not set, and
/// the state it does not set.
fn scramble(s: &mut State, skip: &Locations, access: &Access, rows: &BTreeSet<usize>, seed: u64) {
    let mut rng = Rng::new(seed);
    for reg in 0..sfpu_reference::state::NUM_LREGS {
        let lanes = skip.lreg(reg);
        let unset = match reg {
            11..=14 => !access.sets_lreg(reg),
            16 => !access.sets_lreg16(),
            _ => false,
        };
        for l in 0..LANES {
            if ((lanes >> l) & 1 != 0 || unset) && sfpu_reference::state::lreg_constant(reg, l).is_none() {
                s.LReg[reg][l] = rng.u32();
            }
        }
    }
    for l in 0..LANES {
        let bit = |m: u32| (m >> l) & 1 != 0;
        if bit(skip.LaneFlags.0) {
            s.LaneFlags[l] = rng.below(2) == 1;
        }
        if bit(skip.UseLaneFlagsForLaneEnable.0) {
            s.UseLaneFlagsForLaneEnable[l] = rng.below(2) == 1;
        }
        if bit(skip.FlagStack.0) {
            let entries: Vec<FlagStackEntry> = s.FlagStack[l]
                .entries()
                .iter()
                .map(|_| FlagStackEntry {
                    LaneFlags: rng.below(2) == 1,
                    UseLaneFlagsForLaneEnable: rng.below(2) == 1,
                })
                .collect();
            if let Ok(st) = FlagStack::from_entries(&entries) {
                s.FlagStack[l] = st;
            }
        }
        if bit(skip.LaneConfig.0) {
            s.LaneConfig[l] = LaneConfig::truncating(rng.u32());
        }
        if bit(skip.LoadMacroConfig.0) || !access.sets_lmc() {
            let c = &mut s.LoadMacroConfig[l];
            c.InstructionTemplate = std::array::from_fn(|_| rng.u32());
            c.Sequence = std::array::from_fn(|_| rng.u32());
            c.Misc = sfpu_reference::state::Misc::truncating(rng.u32());
        }
        s.PRNG[l] = rng.u32();
    }
    for r in 0..sfpu_reference::state::DST_ROWS {
        if skip.Dst || !rows.contains(&r) {
            s.Dst.DstBits[r] = std::array::from_fn(|_| rng.u32() as u16);
        }
    }
}

/// `s` with every bit of the skipped locations of the lanes in `lanes` inverted: LReg lanes, flags,
/// every level of a flag stack, LaneConfig, LoadMacroConfig (and every Dst cell, with every lane,
/// when Dst is skipped).
fn changed(s: &State, skip: &Locations, lanes: u32) -> State {
    let mut s = s.clone();
    let open = |mask: u32, l: usize| ((mask & lanes) >> l) & 1 != 0;
    for reg in 0..sfpu_reference::state::NUM_LREGS {
        for l in 0..LANES {
            if open(skip.lreg(reg), l) && sfpu_reference::state::lreg_constant(reg, l).is_none() {
                s.LReg[reg][l] = !s.LReg[reg][l];
            }
        }
    }
    for l in 0..LANES {
        if open(skip.LaneFlags.0, l) {
            s.LaneFlags[l] = !s.LaneFlags[l];
        }
        if open(skip.UseLaneFlagsForLaneEnable.0, l) {
            s.UseLaneFlagsForLaneEnable[l] = !s.UseLaneFlagsForLaneEnable[l];
        }
        if open(skip.FlagStack.0, l) {
            let inverted: Vec<FlagStackEntry> = s.FlagStack[l]
                .entries()
                .iter()
                .map(|e| FlagStackEntry {
                    LaneFlags: !e.LaneFlags,
                    UseLaneFlagsForLaneEnable: !e.UseLaneFlagsForLaneEnable,
                })
                .collect();
            if let Ok(st) = FlagStack::from_entries(&inverted) {
                s.FlagStack[l] = st;
            }
        }
        if open(skip.LaneConfig.0, l) {
            s.LaneConfig[l] = LaneConfig::truncating(!s.LaneConfig[l].bits());
        }
        if open(skip.LoadMacroConfig.0, l) {
            let c = &mut s.LoadMacroConfig[l];
            c.InstructionTemplate = c.InstructionTemplate.map(|w| !w);
            c.Sequence = c.Sequence.map(|w| !w);
            c.Misc = sfpu_reference::state::Misc::truncating(!c.Misc.bits());
        }
    }
    if skip.Dst && lanes == u32::MAX {
        for row in s.Dst.DstBits.iter_mut() {
            *row = row.map(|c| !c);
        }
    }
    s
}

/// What the program may read and write (the taint analysis's footprints; everything after an
/// SFPLOADMACRO), and the vector's initial state.
struct Access {
    reads: Parts,
    writes: Parts,
    everything: bool,
    /// The program reads the PRNG's value (not only advances it).
    prng_value: bool,
}

/// Whether `instr` uses the PRNG's value (not only advances it).
fn reads_prng_value(instr: &Instr) -> bool {
    let field = |n: &str| instr.field_values().iter().find(|(k, _)| *k == n).map_or(0, |&(_, v)| v);
    match instr.opcode() {
        Opcode::SFPSTOCHRND => matches!(field("RoundingMode"), SFPSTOCHRND_RND_STOCH | 3),
        Opcode::SFPCAST => field("Mod1") & 3 == SFPCAST_MOD1_SM32_TO_FP32_RNS,
        Opcode::SFPMOV => field("Mod1") & SFPMOV_MOD1_FROM_SPECIAL != 0 && field("VC") == 9,
        _ => false,
    }
}

impl Access {
    fn of(program: &[Instr], pre: &State) -> Access {
        let mut a = Access {
            reads: Parts::default(),
            writes: Parts::default(),
            everything: false,
            prng_value: false,
        };
        // The templates an SFPLOADMACRO may schedule, as they are when it issues.
        let mut s = pre.clone();
        let mut m = Machine::new();
        for i in program {
            if i.opcode() == Opcode::SFPLOADMACRO {
                a.prng_value |= s.LoadMacroConfig.iter().any(|c| {
                    c.InstructionTemplate
                        .iter()
                        .any(|&w| decode(Arch::Blackhole, w).is_ok_and(|t| reads_prng_value(&t)))
                });
            }
            m.issue(&mut s, i);
        }
        for i in program {
            let f = footprint(i);
            let w = potential_writes(i);
            a.everything |= f.everything;
            a.reads = union(a.reads, f.reads);
            a.writes = union(a.writes, w);
            a.prng_value |= reads_prng_value(i);
        }
        if a.everything {
            let all = Parts {
                lregs: 0x1_FFFF,
                lane_flags: true,
                use_flags: true,
                flag_stack: true,
                lane_config: true,
                lmc: true,
                prng: true,
                dst: true,
                addressing: true,
            };
            a.reads = all;
            a.writes = all;
        }
        a
    }

    fn touches(&self, f: impl Fn(&Parts) -> bool) -> bool {
        f(&self.reads) || f(&self.writes)
    }

    fn sets_lreg(&self, reg: usize) -> bool {
        self.touches(|p| (p.lregs >> reg) & 1 != 0)
    }

    fn sets_lreg16(&self) -> bool {
        self.sets_lreg(16)
    }

    /// LoadMacroConfig is set by the prologue when the program may touch it, and when it sets
    /// `LReg[16]` (through a macro, which needs LoadMacroConfig).
    fn sets_lmc(&self) -> bool {
        self.touches(|p| p.lmc) || self.sets_lreg16()
    }
}

fn union(a: Parts, b: Parts) -> Parts {
    Parts {
        lregs: a.lregs | b.lregs,
        lane_flags: a.lane_flags || b.lane_flags,
        use_flags: a.use_flags || b.use_flags,
        flag_stack: a.flag_stack || b.flag_stack,
        lane_config: a.lane_config || b.lane_config,
        lmc: a.lmc || b.lmc,
        prng: a.prng || b.prng,
        dst: a.dst || b.dst,
        addressing: a.addressing || b.addressing,
    }
}

/// Whether `pre` can be produced from reset by SFPU instructions (and the program run on it
/// read back): `Err` says why not.
fn reachable(pre: &State, access: &Access) -> Result<(), String> {
    let col_uniform = |f: &dyn Fn(usize) -> u64| (0..LANES).all(|l| f(l) == f(l & 7));
    if access.touches(|p| p.prng) && access.prng_value {
        return Err("the program uses the PRNG's value, whose reset value is unspecified and which no \
                    instruction sets"
            .to_string());
    }
    let depth = pre.FlagStack[0].len();
    if pre.FlagStack.iter().any(|st| st.len() != depth) {
        return Err("flag stacks of different depths (software pushes and pops every lane alike)".to_string());
    }
    let uses_ragged = pre.UseLaneFlagsForLaneEnable.iter().any(|&u| u != pre.UseLaneFlagsForLaneEnable[0])
        || (0..depth).any(|k| {
            pre.FlagStack.iter().any(|st| {
                st.entries()[k].UseLaneFlagsForLaneEnable
                    != pre.FlagStack[0].entries()[k].UseLaneFlagsForLaneEnable
            })
        });
    if uses_ragged {
        return Err(
            "UseLaneFlagsForLaneEnable different between lanes (every instruction writes every lane alike)"
                .to_string(),
        );
    }
    if !col_uniform(&|l| pre.LaneConfig[l].bits() as u64) {
        return Err("LaneConfig different within a column (SFPCONFIG writes a column at a time)".to_string());
    }
    if access.sets_lmc() && !col_uniform(&|l| hash_lmc(pre, l)) {
        return Err(
            "LoadMacroConfig different within a column (SFPCONFIG writes a column at a time)".to_string()
        );
    }
    for reg in 11..=14 {
        if access.sets_lreg(reg) && !col_uniform(&|l| pre.LReg[reg][l] as u64) {
            return Err(format!(
                "LReg[{reg}] different within a column (SFPCONFIG writes it a column at a time)"
            ));
        }
    }
    if pre.LReg[16].iter().any(|&x| x != 0) && access.sets_lreg16() {
        return Err("a non-zero LReg[16] (only SFPLOADMACRO's schedule writes it)".to_string());
    }
    if pre.Dst.DstRowValid.iter().any(|&v| !v) {
        return Err("invalid Dst rows (no SFPU instruction makes a row invalid)".to_string());
    }
    Ok(())
}

fn hash_lmc(s: &State, l: usize) -> u64 {
    let c = &s.LoadMacroConfig[l];
    let mut h = c.Misc.bits() as u64;
    for w in c.InstructionTemplate.iter().chain(&c.Sequence) {
        h = h.wrapping_mul(0x100_0000_01B3) ^ *w as u64;
    }
    h
}

/// The physical Dst rows the program's SFPLOAD, SFPSTORE and SFPLOADMACRO may access (both the
/// 16-bit and the 32-bit view of each row they address), under the addressing of the moment.
pub fn touched_rows(pre: &State, program: &[Instr]) -> BTreeSet<usize> {
    let mut s = pre.clone();
    let mut m = Machine::new();
    let mut rows = BTreeSet::new();
    for instr in program {
        let get = |n: &str| instr.field_values().iter().find(|(k, _)| *k == n).map_or(0, |&(_, v)| v);
        let access = match instr.opcode() {
            Opcode::SFPLOAD => Some((get("Mod0"), get("Imm10"), true)),
            Opcode::SFPSTORE => Some((get("Mod0"), get("Imm10"), false)),
            Opcode::SFPLOADMACRO => Some((get("Mod0"), (get("Imm9") << 1) | get("VDHi"), true)),
            _ => None,
        };
        if let Some((mod0, imm10, load)) = access {
            let mut scratch = s.clone();
            let mod0 = ResolveSrcB(&scratch, mod0);
            let addr = ComputeAddr(&mut scratch, mod0, imm10, load);
            for k in 0..4 {
                let row = ((addr & !3) + k) & 0x3FF;
                let a16 = s.Addressing.Adj16(row) as usize;
                let a32 = s.Addressing.Adj32(row) as usize;
                rows.extend([a16, a32, a32 + 8]);
            }
        }
        m.issue(&mut s, instr);
    }
    rows
}

/// How many SFPNOPs after the program let everything SFPLOADMACRO scheduled execute.
fn drain_nops(pre: &State, program: &[Instr]) -> usize {
    let mut s = pre.clone();
    let mut m = Machine::new();
    for i in program {
        m.issue(&mut s, i);
    }
    let mut n = 0;
    while !m.pending().is_empty() && n < 64 {
        m.issue(&mut s, &Instr::SFPNOP {});
        n += 1;
    }
    // Two more: a program ending in a two-cycle instruction has its result in place before the
    // configuration changes.
    n + 2
}

/// The readout area: aligned groups of four logical 32-bit rows, allocated in order.
struct Area {
    next: u32,
    used: Vec<u32>,
    avoid: BTreeSet<usize>,
}

impl Area {
    fn new(avoid: &BTreeSet<usize>) -> Result<Area, String> {
        Ok(Area { next: AREA_START, used: Vec::new(), avoid: avoid.clone() })
    }

    /// The physical rows of logical group `g` (default addressing).
    fn rows_of(g: u32) -> Vec<usize> {
        let a = Addressing::default();
        (0..4).flat_map(|k| [a.Adj32(g + k) as usize, a.Adj32(g + k) as usize + 8]).collect()
    }

    /// The next group whose rows the vector does not use.
    fn group(&mut self) -> Result<u32, String> {
        while self.next < AREA_END {
            let g = self.next;
            self.next += 4;
            if Area::rows_of(g).iter().all(|r| !self.avoid.contains(r)) {
                self.used.push(g);
                return Ok(g);
            }
        }
        Err("the readout needs more of Dst than the vector leaves free".to_string())
    }

    fn physical_rows(&self) -> Vec<usize> {
        self.used.iter().flat_map(|&g| Area::rows_of(g)).collect()
    }
}

/// An instruction list under construction.
#[derive(Default)]
struct Asm {
    out: Vec<Instr>,
}

impl Asm {
    fn op(&mut self, op: Opcode, fields: &[(&str, u32)]) {
        self.out.push(build(op, fields));
    }

    fn nop(&mut self) {
        self.out.push(Instr::SFPNOP {});
    }

    fn loadi(&mut self, vd: usize, mod0: u32, imm: u32) {
        self.op(Opcode::SFPLOADI, &[("VD", vd as u32), ("Mod0", mod0), ("Imm16", imm & 0xFFFF)]);
    }

    /// `LReg[vd] = v` in every enabled lane.
    fn set(&mut self, vd: usize, v: u32) {
        if v <= 0xFFFF {
            self.loadi(vd, SFPLOADI_MOD0_USHORT, v);
        } else if v >= 0xFFFF_8000 {
            self.loadi(vd, SFPLOADI_MOD0_SHORT, v);
        } else {
            self.loadi(vd, SFPLOADI_MOD0_UPPER, v >> 16);
            self.loadi(vd, SFPLOADI_MOD0_LOWER, v);
        }
    }

    /// `UseLaneFlagsForLaneEnable = use_flags`, `LaneFlags = flags` in every lane.
    fn encc(&mut self, use_flags: bool, flags: bool) {
        let imm2 = ((use_flags as u32) * SFPENCC_IMM2_E) | ((flags as u32) * SFPENCC_IMM2_R);
        self.op(Opcode::SFPENCC, &[("Imm2", imm2), ("VD", 0), ("Mod1", SFPENCC_MOD1_EI_RI)]);
    }

    /// Per-lane values into `LReg[vd]`, using `temp` (clobbered): the lanes from the first are
    /// narrowed to those from lane `k` on, one value at a time. Needs every lane enabled (lane
    /// flags off, no ROW_MASK) and leaves the flags off.
    fn lanes(&mut self, vd: usize, values: &[u32; LANES], temp: usize) {
        if values.iter().all(|&v| v == values[0]) {
            self.set(vd, values[0]);
            return;
        }
        self.encc(true, true);
        let mut k = 0;
        let mut current: Option<u32> = None;
        while k < LANES {
            let v = values[k];
            match current {
                None => self.set(vd, v),
                Some(c) => {
                    if c >> 16 != v >> 16 {
                        self.loadi(vd, SFPLOADI_MOD0_UPPER, v >> 16);
                    }
                    if c & 0xFFFF != v & 0xFFFF {
                        self.loadi(vd, SFPLOADI_MOD0_LOWER, v);
                    }
                }
            }
            current = Some(v);
            let Some(next) = (k..LANES).find(|&j| values[j] != v) else { break };
            // temp = 2 * lane - 2 * next, LaneFlags = (temp >= 0): the lanes from `next` on.
            let imm = (-(2 * next as i32)) as u32 & 0xFFF;
            self.op(
                Opcode::SFPIADD,
                &[("Imm12", imm), ("VC", 15), ("VD", temp as u32), ("Mod1", SFPIADD_IMM_GTE0)],
            );
            k = next;
        }
        self.encc(false, false);
    }

    /// A 32-bit store of `LReg[vd]` to logical rows `g..g+4` (odd columns when `odd`).
    fn store(&mut self, vd: usize, mod0: u32, g: u32, odd: bool) {
        let imm10 = g | ((odd as u32) << 1);
        self.op(Opcode::SFPSTORE, &[("VD", vd as u32), ("Mod0", mod0), ("AddrMod", 0), ("Imm10", imm10)]);
    }

    fn load(&mut self, vd: usize, mod0: u32, g: u32, odd: bool) {
        let imm10 = g | ((odd as u32) << 1);
        self.op(Opcode::SFPLOAD, &[("VD", vd as u32), ("Mod0", mod0), ("AddrMod", 0), ("Imm10", imm10)]);
    }

    fn config(&mut self, imm16: u32, vd: u32, mod1: u32) {
        self.op(Opcode::SFPCONFIG, &[("Imm16", imm16 & 0xFFFF), ("VD", vd), ("Mod1", mod1)]);
    }

    /// `LReg[vd] = LReg[vc]` in every lane, enabled or not.
    fn mov_all(&mut self, vc: usize, vd: usize) {
        self.op(
            Opcode::SFPMOV,
            &[("VC", vc as u32), ("VD", vd as u32), ("Mod1", SFPMOV_MOD1_ALL_LANES_ENABLED)],
        );
    }

    fn pushc(&mut self, mod1: u32) {
        self.op(Opcode::SFPPUSHC, &[("VD", 0), ("Mod1", mod1)]);
    }

    fn popc(&mut self, mod1: u32) {
        self.op(Opcode::SFPPOPC, &[("VD", 0), ("Mod1", mod1)]);
    }

    /// Writes configuration word `vd` of SFPCONFIG (0..3 templates, 4..7 sequences, 8 Misc,
    /// 11..14 LRegs, 15 LaneConfig) from one value per column, through `LReg[0]` (clobbered,
    /// with `temp`). Needs every lane enabled; leaves the flags off.
    fn config_columns(&mut self, vd: u32, per_column: [u32; 8], temp: usize) {
        let values: [u32; LANES] = std::array::from_fn(|l| per_column[l & 7]);
        self.lanes(0, &values, temp);
        self.config(0, vd, 0);
        self.nop();
    }

    /// SFPLOADMACRO with macro 0, `VD` 0, `Mod0` and the logical rows `g`.
    fn loadmacro(&mut self, mod0: u32, g: u32) {
        let fields =
            [("MacroIndex", 0), ("VDLo", 0), ("VDHi", 0), ("Mod0", mod0), ("AddrMod", 0), ("Imm9", g >> 1)];
        self.op(Opcode::SFPLOADMACRO, &fields);
        for _ in 0..4 {
            self.nop();
        }
    }
}

/// The prologue (module documentation, and the order in which it sets things: everything that
/// needs registers or every lane enabled first, the LaneConfig bits that disable lanes or change
/// Dst accesses and the final flags last, from entries prepared on the flag stack).
fn prologue(
    p: &mut Asm,
    pre: &State,
    access: &Access,
    groups: &BTreeSet<u32>,
    readout: &[u32],
    area: &mut Area,
) -> Result<(), String> {
    // 1. Whatever the reset left in LaneConfig: clear it (SFPCONFIG follows the flags, which
    //    reset clears; SFPMOV ALL_LANES_ENABLED writes LReg[0] whatever the row masks say).
    p.mov_all(9, 0);
    p.config(0, 15, 0);
    p.nop();
    // 2. LReg[16], through a macro that copies a zero into it; then LoadMacroConfig.
    if access.sets_lreg16() {
        let sfpmov_all =
            build(Opcode::SFPMOV, &[("VC", 9), ("VD", 0), ("Mod1", SFPMOV_MOD1_ALL_LANES_ENABLED)]);
        p.config_columns(0, [sfpmov_all.encode_blackhole(); 8], 1);
        p.config(0x44, 4, MOD1_IMM16_IS_VALUE); // Sequence[0]: simple, template 0, delay 0, to LReg[16]
        p.config(0, 8, MOD1_IMM16_IS_VALUE); // Misc 0
        p.nop();
        p.loadmacro(MOD0_FMT_ZERO, 0);
    }
    if access.sets_lmc() {
        let col = |f: &dyn Fn(usize) -> u32| -> [u32; 8] { std::array::from_fn(f) };
        for k in 0..4 {
            p.config_columns(k as u32, col(&|c| pre.LoadMacroConfig[c].InstructionTemplate[k]), 1);
            p.config_columns(4 + k as u32, col(&|c| pre.LoadMacroConfig[c].Sequence[k]), 1);
        }
        p.config_columns(8, col(&|c| pre.LoadMacroConfig[c].Misc.bits()), 1);
    }
    // 3. The programmable constants.
    for reg in 11..=14 {
        if access.sets_lreg(reg) {
            p.config_columns(reg as u32, std::array::from_fn(|c| pre.LReg[reg][c]), 1);
        }
    }
    // 4. Dst: each 4-row group holding a row to set, as two 32-bit raw stores (HI16: the pair of
    //    physical rows high and low halves as they are).
    let a = Addressing::default();
    for &g in groups {
        for odd in [false, true] {
            let values: [u32; LANES] = std::array::from_fn(|l| {
                let row = g + (l as u32 / 8);
                let col = 2 * (l & 7) + odd as usize;
                let hi = a.Adj32(row) as usize;
                ((pre.Dst.DstBits[hi][col] as u32) << 16) | pre.Dst.DstBits[hi + 8][col] as u32
            });
            p.lanes(1, &values, 2);
            p.store(1, MOD0_FMT_HI16, g, odd);
        }
    }
    // The readout area: the marker in both column halves.
    p.set(1, MARKER);
    for &g in readout {
        p.store(1, MOD0_FMT_HI16, g, false);
        p.store(1, MOD0_FMT_HI16, g, true);
    }
    // 5. LaneConfig but the bits that disable lanes or change Dst accesses.
    let config: [u32; 8] = std::array::from_fn(|c| pre.LaneConfig[c].bits());
    if config.iter().any(|&c| c & !PHASE_B != 0) {
        p.config_columns(15, config.map(|c| c & !PHASE_B), 1);
    }
    // 6. The flag stack, bottom first; then, above it, the final flags and the selections of
    //    columns for the rest of LaneConfig, to be popped at the end.
    let depth = pre.FlagStack[0].len();
    let final_lf: u32 = (0..LANES).fold(0, |m, l| m | ((pre.LaneFlags[l] as u32) << l));
    let final_use = pre.UseLaneFlagsForLaneEnable[0];
    let uniform_lf = final_lf == 0 || final_lf == u32::MAX;
    // ROW_MASK and the other bits that change lane enables or Dst accesses go in last. Through
    // LReg[0] (set aside in Dst and loaded back after) unless a lane blocks SFPLOAD
    // (BLOCK_SFPU_RD_FROM_DEST, which would keep LReg[0] from coming back); then without
    // registers, a column selection at a time, from entries staged on the flag stack.
    let blocks_loads = config.iter().any(|c| c & 0x20 != 0);
    let selections = if blocks_loads { phase_b_selections(&config) } else { Vec::new() };
    let through_lreg0 = !blocks_loads && config.iter().any(|c| c & PHASE_B != 0);
    let mut entries: Vec<(u32, bool)> = (0..depth)
        .map(|k| {
            let lf = (0..LANES).fold(0, |m, l| m | ((pre.FlagStack[l].entries()[k].LaneFlags as u32) << l));
            (lf, pre.FlagStack[0].entries()[k].UseLaneFlagsForLaneEnable)
        })
        .collect();
    let final_entry = !uniform_lf;
    if final_entry {
        entries.push((final_lf, final_use));
    }
    // Used last first: pushed in reverse order.
    for (cols, _) in selections.iter().rev() {
        let lf = (0..LANES).fold(0, |m, l| m | (((cols >> (l & 7)) & 1) << l));
        entries.push((lf, true));
    }
    if entries.len() > FLAG_STACK_CAPACITY {
        return Err(format!(
            "the flag stack has no room to stage the flags and the {} LaneConfig column selections",
            selections.len()
        ));
    }
    if !entries.is_empty() {
        const IDX: usize = 7;
        const PAT: usize = 6;
        p.op(
            Opcode::SFPSHFT,
            &[
                ("Imm12", 0xFFF),
                ("VC", 15),
                ("VD", IDX as u32),
                ("Mod1", SFPSHFT_MOD1_ARG_IMM | SFPSHFT_MOD1_ARG_IMM_USE_VC),
            ],
        );
        p.set(PAT, 31);
        p.op(Opcode::SFPXOR, &[("VC", PAT as u32), ("VD", IDX as u32)]); // 31 - lane
        for &(lf, use_flags) in &entries {
            p.encc(false, true);
            p.set(PAT, lf);
            // Bit `lane` of the pattern to the sign bit.
            p.op(Opcode::SFPSHFT, &[("Imm12", 0), ("VC", IDX as u32), ("VD", PAT as u32), ("Mod1", 0)]);
            p.encc(use_flags, true);
            p.op(
                Opcode::SFPIADD,
                &[("Imm12", 0), ("VC", PAT as u32), ("VD", PAT as u32), ("Mod1", SFPIADD_MOD1_ARG_IMM)],
            );
            p.pushc(0);
        }
        p.encc(false, false);
    }
    // 7. LReg[0..7]. A register loaded one lane group at a time needs a temporary: one not loaded
    //    yet, or, for the last, one already loaded and set aside in Dst.
    let values: Vec<[u32; LANES]> = (0..8).map(|r| pre.LReg[r]).collect();
    let uniform = |r: usize| values[r].iter().all(|&v| v == values[r][0]);
    let per_lane: Vec<usize> = (0..8).filter(|&r| !uniform(r)).collect();
    let uniforms: Vec<usize> = (0..8).filter(|&r| uniform(r)).collect();
    for (i, &r) in per_lane.iter().enumerate() {
        let spare = per_lane[i + 1..].iter().chain(&uniforms).next().copied();
        match spare {
            Some(t) => p.lanes(r, &values[r], t),
            None => {
                let t = if r == per_lane[0] { 7 } else { per_lane[0] };
                let g = area.group()?;
                p.store(t, MOD0_FMT_INT32_ALL, g, true);
                p.lanes(r, &values[r], t);
                p.load(t, MOD0_FMT_INT32_ALL, g, true);
            }
        }
    }
    for &r in &uniforms {
        p.set(r, values[r][0]);
    }
    // 8. The rest of LaneConfig, then the final flags.
    if through_lreg0 {
        let (g0, g4) = (area.group()?, area.group()?);
        p.store(0, MOD0_FMT_INT32_ALL, g0, true);
        p.store(4, MOD0_FMT_INT32_ALL, g4, true);
        p.config_columns(15, config, 4);
        // LReg[0] first: with the Dst index capture, loading it writes LReg[4] too.
        p.load(0, MOD0_FMT_INT32_ALL, g0, true);
        p.load(4, MOD0_FMT_INT32_ALL, g4, true);
    }
    for (_, bits) in &selections {
        p.popc(0);
        p.config(*bits, 15, CONFIG_OR);
    }
    if final_entry {
        p.popc(0);
    } else {
        p.encc(final_use, final_lf != 0);
    }
    p.nop();
    p.nop();
    Ok(())
}

/// The aligned groups of four logical 32-bit rows (default addressing) that hold `rows`.
fn dst_groups(rows: &BTreeSet<usize>) -> Result<BTreeSet<u32>, String> {
    let a = Addressing::default();
    let mut logical_of = BTreeMap::new();
    for r in 0..0x200u32 {
        logical_of.entry(a.Adj32(r) as usize).or_insert(r);
    }
    let mut groups = BTreeSet::new();
    for &row in rows {
        let r = *logical_of.get(&(row & !8)).ok_or_else(|| format!("Dst row {row} has no 32-bit view"))?;
        groups.insert(r & !3);
    }
    Ok(groups)
}

/// The LaneConfig bits of [`PHASE_B`] to OR in, as (column mask, bits) pairs: per distinct
/// pattern or per bit, whichever needs fewer.
fn phase_b_selections(config: &[u32; 8]) -> Vec<(u32, u32)> {
    let mut by_pattern: BTreeMap<u32, u32> = BTreeMap::new();
    for (c, &v) in config.iter().enumerate() {
        if v & PHASE_B != 0 {
            *by_pattern.entry(v & PHASE_B).or_default() |= 1 << c;
        }
    }
    let mut by_bit: BTreeMap<u32, u32> = BTreeMap::new();
    for (c, &v) in config.iter().enumerate() {
        for b in 0..16 {
            if (v & PHASE_B) >> b & 1 != 0 {
                *by_bit.entry(1 << b).or_default() |= 1 << c;
            }
        }
    }
    // Merge bits that go to the same columns.
    let mut merged: BTreeMap<u32, u32> = BTreeMap::new();
    for (bit, cols) in by_bit {
        *merged.entry(cols).or_default() |= bit;
    }
    let patterns: Vec<(u32, u32)> = by_pattern.into_iter().map(|(bits, cols)| (cols, bits)).collect();
    let bits: Vec<(u32, u32)> = merged.into_iter().collect();
    if bits.len() < patterns.len() { bits } else { patterns }
}

/// The epilogue: reads back what the program may have written (module documentation), from the
/// state `end` (the program's final state with the default configuration).
fn epilogue(
    e: &mut Asm,
    end: &State,
    access: &Access,
    skip: &Locations,
    area: &mut Area,
) -> Result<Vec<&'static str>, String> {
    let mut read: Vec<&'static str> = vec!["LReg[0..7]"];
    let w = &access.writes;
    let depth = end.FlagStack[0].len();
    let stack_room = end.FlagStack.iter().all(|st| st.len() < FLAG_STACK_CAPACITY);
    let flags_block_config = (0..8).any(|c| end.UseLaneFlagsForLaneEnable[c] && !end.LaneFlags[c]);
    // Under `save`, the flags are set aside on the flag stack and turned off, so that SFPCONFIG
    // reaches every column and every lane is enabled but for ROW_MASK.
    let save = |e: &mut Asm| -> Result<(), String> {
        if !stack_room {
            return Err("the flag stack is full at the end: no room to set the flags aside for the readout"
                .to_string());
        }
        e.pushc(0);
        e.encc(false, false);
        Ok(())
    };
    // 0. A LaneConfig the vector does not promise decides which lanes and columns the readout
    //    would reach (ROW_MASK, the column exchanges, BLOCK_DEST_WR_FROM_SFPU): it is cleared
    //    first, with the flags set aside, and not read back.
    let config_open = skip.LaneConfig.0 != 0;
    if config_open {
        save(e)?;
        e.config(0, 15, CONFIG_AND);
        e.nop();
        e.popc(0);
    }
    let blocked = !config_open && end.LaneConfig.iter().any(|c| c.BLOCK_DEST_WR_FROM_SFPU());
    // 1. Stores blocked by BLOCK_DEST_WR_FROM_SFPU: show which (a constant stored where it may),
    //    then clear the bit.
    if blocked {
        let g = area.group()?;
        e.store(10, MOD0_FMT_INT32_ALL, g, true);
        if flags_block_config {
            save(e)?;
        }
        e.config(0xFFEF, 15, CONFIG_AND);
        if flags_block_config {
            e.popc(0);
        }
        e.nop();
    }
    // 2. The LRegs: every lane, whatever the lane enables (odd columns: the column exchange does
    //    not move them).
    for r in 0..8 {
        let g = area.group()?;
        e.store(r, MOD0_FMT_INT32_ALL, g, true);
    }
    if w.lregs >> 11 & 1 != 0 {
        let g = area.group()?;
        e.store(11, MOD0_FMT_INT32_ALL, g, true);
        read.push("LReg[11]");
    }
    let flags_written = w.lane_flags || w.use_flags || w.flag_stack;
    let more = w.lane_config || w.lmc || w.lregs & 0x1_7000 != 0 || flags_written;
    if !more {
        return Ok(read);
    }
    if !config_open {
        read.push("LaneConfig");
    }
    // 3. LaneConfig as the lane enables let SFPMOV read it: shows the enables too.
    let read_config = |e: &mut Asm, area: &mut Area| -> Result<(), String> {
        if config_open {
            return Ok(());
        }
        e.mov_all(10, 0);
        e.op(Opcode::SFPMOV, &[("VC", 15), ("VD", 0), ("Mod1", SFPMOV_MOD1_FROM_SPECIAL)]);
        let g = area.group()?;
        e.store(0, MOD0_FMT_INT32_ALL, g, true);
        Ok(())
    };
    read_config(e, area)?;
    // 4. With the flags set aside: LaneConfig with only ROW_MASK disabling lanes, without it, and
    //    the rest.
    save(e)?;
    read_config(e, area)?;
    // With ROW_MASK inverted, the lanes it disabled are the ones enabled: every lane's own
    // LaneConfig is read once, its ROW_MASK bits as they are or inverted.
    e.config(0xF000, 15, MOD1_IMM16_IS_VALUE | MOD1_BITWISE_XOR);
    e.nop();
    read_config(e, area)?;
    e.config(0x0FFF, 15, CONFIG_AND);
    e.nop();
    read_config(e, area)?;
    e.config(0x0F0F, 15, CONFIG_AND);
    e.nop();
    if w.lregs & 0x7000 != 0 {
        // LReg[12..14] are stored only with DISABLE_BACKDOOR_LOAD set.
        e.config(0x2, 15, CONFIG_OR);
        e.nop();
        e.nop();
        for (r, name) in [(12, "LReg[12]"), (13, "LReg[13]"), (14, "LReg[14]")] {
            if w.lregs >> r & 1 != 0 {
                let g = area.group()?;
                e.store(r, MOD0_FMT_INT32_ALL, g, true);
                read.push(name);
            }
        }
    }
    if w.lmc || w.lregs >> 16 & 1 != 0 {
        for vc in 0..=8 {
            e.mov_all(10, 0);
            e.op(Opcode::SFPMOV, &[("VC", vc), ("VD", 0), ("Mod1", SFPMOV_MOD1_FROM_SPECIAL)]);
            let g = area.group()?;
            e.store(0, MOD0_FMT_INT32_ALL, g, true);
        }
        read.push("LoadMacroConfig");
    }
    if w.lregs >> 16 & 1 != 0 {
        read.push("LReg[16]");
        // LReg[16] through a macro whose store stores it: Sequence[0] store, delay 0, from
        // LReg[16]; the store's Mod0 the SFPLOADMACRO's (INT32). Every lane's templates are
        // cleared first (the macro logic wants one configuration in every lane).
        e.mov_all(9, 0);
        for k in 0..4 {
            e.config(0, k, 0);
        }
        e.set(0, 0x4300_0000);
        e.config(0, 4, 0);
        e.config(0x010, 8, MOD1_IMM16_IS_VALUE);
        e.nop();
        let g = area.group()?;
        e.loadmacro(MOD0_FMT_INT32, g);
    }
    e.popc(0);
    // 5. The flags, then each level of the flag stack (popped into the flags), then whether the
    //    stack is then empty.
    if flags_written {
        read_flags(e, area)?;
        read.push("flags");
    }
    if w.flag_stack {
        for _ in 0..depth {
            e.popc(0);
            read_flags(e, area)?;
        }
        // An empty stack's top reads {true, true} to SFPCOMPC.
        e.encc(true, false);
        e.op(Opcode::SFPCOMPC, &[("VD", 0)]);
        flag_to_register(e, 0);
        let g = area.group()?;
        e.store(0, MOD0_FMT_INT32_ALL, g, true);
        read.push("flag stack");
    }
    Ok(read)
}

/// `LReg[vd]` = 1 in the lanes enabled now, 0 elsewhere (lanes without ROW_MASK).
fn flag_to_register(e: &mut Asm, vd: usize) {
    e.mov_all(9, vd);
    e.loadi(vd, SFPLOADI_MOD0_USHORT, 1);
}

/// Stores the flags `(LaneFlags, UseLaneFlagsForLaneEnable)` of every lane (no ROW_MASK left),
/// using one free level of the flag stack; leaves them as `(LaneFlags, true)`.
fn read_flags(e: &mut Asm, area: &mut Area) -> Result<(), String> {
    // Keep a copy; with LaneFlags cleared the lanes enabled are those not using the flags.
    e.pushc(0);
    e.op(Opcode::SFPSETCC, &[("Imm1", 0), ("VC", 0), ("VD", 0), ("Mod1", SFPSETCC_MOD1_CLEAR)]);
    flag_to_register(e, 1);
    // Back to the copy, with UseLaneFlagsForLaneEnable set: the lanes enabled are those flagged.
    e.encc(true, true);
    e.pushc(3); // top.LaneFlags &= true; top.Use = true
    e.popc(0);
    flag_to_register(e, 2);
    let (g1, g2) = (area.group()?, area.group()?);
    e.store(1, MOD0_FMT_INT32_ALL, g1, true);
    e.store(2, MOD0_FMT_INT32_ALL, g2, true);
    Ok(())
}

/// Runs a program form on `model` from the reset state `reset` (the parts the documentation leaves
/// unspecified chosen by the caller): the prologue, the configuration, the program, the default
/// configuration, the epilogue. Returns the final state, the state right after the program, and
/// any clause the prologue or the epilogue touched.
pub fn run_form(
    model: &dyn crate::Model,
    form: &ProgramForm,
    reset: &ResetValues,
) -> Result<(State, State), String> {
    let words = |l: &[Instr]| l.iter().map(Instr::encode_blackhole).collect::<Vec<u32>>();
    let s0 = State::reset(Arch::Blackhole, reset);
    let r1 = model.run(Arch::Blackhole, &s0, &words(&form.prologue)).map_err(|e| format!("prologue: {e}"))?;
    if let Some(o) = r1.outcome.as_ref().filter(|o| !o.is_defined()) {
        return Err(format!("the prologue touches {:?}", o.notes().map(|(c, _)| c.id()).collect::<Vec<_>>()));
    }
    let mut s1 = r1.post;
    s1.Addressing = form.before_program;
    let r2 = model.run(Arch::Blackhole, &s1, &words(&form.program)).map_err(|e| format!("program: {e}"))?;
    let after = r2.post.clone();
    let mut s2 = r2.post;
    s2.Addressing = Addressing::default();
    let r3 = model.run(Arch::Blackhole, &s2, &words(&form.epilogue)).map_err(|e| format!("epilogue: {e}"))?;
    if let Some(o) = r3.outcome.as_ref().filter(|o| !o.is_defined()) {
        return Err(format!("the epilogue touches {:?}", o.notes().map(|(c, _)| c.id()).collect::<Vec<_>>()));
    }
    Ok((r3.post, after))
}

/// The cells where `image` differs from the signature, as `row:col`.
pub fn mismatches(form: &ProgramForm, image: &State) -> Vec<String> {
    let mut out = Vec::new();
    for (&r, cells) in &form.signature {
        for (c, want) in cells.iter().enumerate() {
            if let Some(w) = want
                && image.Dst.DstBits[r][c] != *w
            {
                out.push(format!("{r}:{c} 0x{:04x} not 0x{w:04x}", image.Dst.DstBits[r][c]));
            }
        }
    }
    out
}

/// The format identifier of the files `cargo xtask vectors --programs` writes.
pub const PROGRAMS_FORMAT: &str = "sfpu-programs/1";

/// Every vector of `corpus` with its program form or why it has none, in corpus order (computed
/// in parallel): `(file stem, vector id, form)`.
pub fn program_forms(corpus: &crate::vectors::Corpus) -> Vec<(String, String, Result<ProgramForm, String>)> {
    use rayon::prelude::*;
    let vectors: Vec<(&crate::vectors::VectorFile, &Vector)> = corpus.vectors().collect();
    vectors.par_iter().map(|(f, v)| (f.file.clone(), v.id.clone(), program_form(v))).collect()
}

/// An `Addressing` in the state format's form (only the fields that are not default).
fn addressing_doc(a: &Addressing) -> serde_json::Value {
    let s = State { Addressing: *a, ..State::reset(Arch::Blackhole, &ResetValues::ZEROS) };
    let doc = sfpu_reference::state::StateDoc::from_state(&s);
    serde_json::to_value(doc.Addressing).unwrap_or(serde_json::Value::Null)
}

/// The program form as JSON: the words (`"0x%08x"`) of each part, the configuration, the
/// signature (`rows`: physical row -> 16 cells, `null` for a cell not promised).
pub fn json_form(form: &ProgramForm) -> serde_json::Value {
    use serde_json::json;
    let words = |l: &[Instr]| l.iter().map(|i| format!("0x{:08x}", i.encode_blackhole())).collect::<Vec<_>>();
    let rows: serde_json::Map<String, serde_json::Value> = form
        .signature
        .iter()
        .map(|(r, cells)| {
            let cells: Vec<serde_json::Value> = cells
                .iter()
                .map(|c| c.map_or(serde_json::Value::Null, |x| json!(format!("0x{x:04x}"))))
                .collect();
            (r.to_string(), json!(cells))
        })
        .collect();
    let mut v = json!({
        "id": form.id,
        "prologue": words(&form.prologue),
        "before_program": addressing_doc(&form.before_program),
        "program": words(&form.program),
        "before_epilogue": serde_json::Value::Null,
        "epilogue": words(&form.epilogue),
        "signature": {"rows": rows},
        "read_back": form.read_back,
        "not_read_back": form.not_read_back,
    });
    if let Some(a) = &form.expected_addressing {
        v["expected_addressing"] = addressing_doc(a);
    }
    v
}

/// The program form as tt-llk text, pastable into a kernel and runnable with `sfpu-conformance run`:
/// the three parts with the configuration writes between them as comments.
pub fn text_form(form: &ProgramForm) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    let _ = writeln!(out, "# Program form of golden vector {} ({PROGRAMS_FORMAT}).", form.id);
    let _ = writeln!(out, "# Generated by `cargo xtask vectors --programs DIR`: do not edit.");
    let _ = writeln!(out, "# Run from reset with the default Tensix configuration; the signature (the Dst");
    let _ = writeln!(
        out,
        "# image to expect) is in the JSON file next to this directory. Reads back: {}.",
        form.read_back.join(", ")
    );
    for n in &form.not_read_back {
        let _ = writeln!(out, "# Not read back: {n}.");
    }
    let _ = writeln!(out, "\n# Prologue: the vector's initial state, from reset.");
    for i in &form.prologue {
        let _ = writeln!(out, "{}", i.display(Arch::Blackhole));
    }
    let cfg = addressing_doc(&form.before_program);
    if cfg.is_null() {
        let _ = writeln!(out, "\n# Configuration before the program: the defaults (nothing to write).");
    } else {
        let _ = writeln!(
            out,
            "\n# Configuration before the program (outside the SFPU; vectors/README.md, Addressing):"
        );
        let _ = writeln!(out, "#   {cfg}");
    }
    let _ = writeln!(out, "\n# The vector's program, then SFPNOPs to drain.");
    for i in &form.program {
        let _ = writeln!(out, "{}", i.display(Arch::Blackhole));
    }
    if let Some(a) = &form.expected_addressing {
        let _ = writeln!(
            out,
            "\n# Addressing the program should leave (for benches that can read it):\n#   {}",
            addressing_doc(a)
        );
    }
    let _ = writeln!(out, "\n# Configuration back to the defaults, then the readout.");
    for i in &form.epilogue {
        let _ = writeln!(out, "{}", i.display(Arch::Blackhole));
    }
    out
}
