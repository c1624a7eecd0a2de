//! Random instruction streams: up to 64 instructions of every opcode and mode, with predication
//! blocks and SFPLOADMACRO configurations, from a random but well-formed initial state.

use sfpu_reference::isa::{Arch, Instr, Opcode, decode, parse_instr};
use sfpu_reference::state::{FlagStack, FlagStackEntry, LANES, LaneConfig, Misc, State};

use super::operands::*;
use super::{Case, build_for, random_case_for};

/// A random initial state exercising everything: mixed operand classes in `LReg[0..8]`, random
/// predication state and flag stacks, a usable SFPLOADMACRO configuration, Dst rows 0..64, small
/// RWC values and per-lane PRNG states.
pub fn random_state(rng: &mut Rng) -> State {
    random_state_for(Arch::Blackhole, rng)
}

/// [`random_state`] of `arch`: the same draws on both chips; on Wormhole the Blackhole-only
/// addressing state (Sp, SFPU_STACK_Incr) stays zero and the templates use its encodings.
pub fn random_state_for(arch: Arch, rng: &mut Rng) -> State {
    let mut s = State::reset(arch, &sfpu_reference::ResetValues::ZEROS);
    let pools = [
        FP_SPECIALS,
        INT_SPECIALS,
        fp_random(rng),
        bits_random(rng),
        shift_amounts(rng),
        lut_inputs(rng),
        fp_wide(rng),
    ];
    for reg in 0..8 {
        s.LReg[reg] = rotated(&pools[rng.below(pools.len() as u32) as usize], rng.below(32) as usize);
    }
    s.LReg[7] = std::array::from_fn(|l| (s.LReg[7][l] & !15) | rng.below(16));
    let use_flags = rng.u32() | if rng.below(2) == 0 { 0xFFFF_FFFF } else { 0 };
    let flags = rng.u32() | rng.u32(); // mostly enabled
    for l in 0..LANES {
        s.UseLaneFlagsForLaneEnable[l] = (use_flags >> l) & 1 != 0;
        s.LaneFlags[l] = (flags >> l) & 1 != 0;
        let mut st = FlagStack::new();
        for _ in 0..rng.below(4) {
            let _ = st.push(FlagStackEntry {
                LaneFlags: rng.below(2) == 0,
                UseLaneFlagsForLaneEnable: rng.below(2) == 0,
            });
        }
        s.FlagStack[l] = st;
        s.PRNG[l] = rng.u32();
    }
    // LaneConfig per column (as SFPCONFIG leaves it): DISABLE_BACKDOOR_LOAD mostly set, rarely a
    // ROW_MASK bit, other bits random.
    let columns: Vec<u32> = (0..8)
        .map(|_| {
            let mut c = rng.u32() & 0x1FD;
            if rng.below(8) != 0 {
                c |= 2;
            }
            if rng.below(6) == 0 {
                c |= 1 << (12 + rng.below(4));
            }
            c
        })
        .collect();
    // SFPLOADMACRO: templates from random instructions, sequences with random selectors.
    let templates: [u32; 4] =
        std::array::from_fn(|_| random_instr_for(arch, rng, None).encode(arch).unwrap_or(0x8F00_0000));
    let sequences: [u32; 4] = std::array::from_fn(|_| rng.u32() & 0x7F7F_7F7F & !0x0101_0101);
    let misc = rng.u32() & 0xFFF;
    for l in 0..LANES {
        s.LaneConfig[l] = LaneConfig::truncating(columns[l & 7]);
        s.LoadMacroConfig[l].InstructionTemplate = templates;
        s.LoadMacroConfig[l].Sequence = sequences;
        s.LoadMacroConfig[l].Misc = Misc::truncating(misc);
    }
    for r in 0..64 {
        s.Dst.DstBits[r] = std::array::from_fn(|_| rng.u32() as u16);
    }
    s.Addressing.RWC.Dst = rng.below(8) as u16 * 4;
    s.Addressing.SFPU_STACK_Incr = rng.below(3) as u16 * 4;
    s.Addressing.RWC.Sp = rng.below(4) as u16 * 4;
    s.Addressing.ADDR_MOD[rng.below(8) as usize].DestIncr = 4;
    if arch == Arch::Wormhole {
        // Wormhole has no Sp RWC and no SFPU_STACK_Incr
        // (`docs/spec/sfpu-wormhole.md#blackhole-only-state-in-a-wormhole-document`).
        s.Addressing.SFPU_STACK_Incr = 0;
        s.Addressing.RWC.Sp = 0;
    }
    s
}

/// A random instruction: an opcode (from `only` if given), a random mode value, random fields,
/// VD mostly a general register.
pub fn random_instr(rng: &mut Rng, only: Option<&[Opcode]>) -> Instr {
    random_instr_for(Arch::Blackhole, rng, only)
}

/// [`random_instr`] of `arch`: an opcode the chip has (`only` filtered to them).
pub fn random_instr_for(arch: Arch, rng: &mut Rng, only: Option<&[Opcode]>) -> Instr {
    let all = arch.opcodes();
    let op = match only {
        Some(ops) if !ops.is_empty() => ops[rng.below(ops.len() as u32) as usize],
        _ => all[rng.below(all.len() as u32) as usize],
    };
    if !arch.has(op) {
        return Instr::SFPNOP {};
    }
    if rng.below(8) == 0 {
        // A raw word with random fields: decoding masks nothing, so clear the undrawn bits.
        let word = ((op.number() as u32) << 24) | (rng.u32() & op.drawn_mask(arch) & 0x00FF_FFFF);
        return decode(arch, word).unwrap_or(Instr::SFPNOP {});
    }
    random_case_for(arch, op, rng).program.first().copied().unwrap_or(Instr::SFPNOP {})
}

/// A random stream of `len` instructions (1..=64), with predication blocks mixed in, from
/// [`random_state`].
pub fn random_stream(rng: &mut Rng, len: usize, only: Option<&[Opcode]>) -> Case {
    random_stream_for(Arch::Blackhole, rng, len, only)
}

/// [`random_stream`] of `arch` (Wormhole's conditions are SFPSETCC where Blackhole draws SFPGT or
/// SFPLE, which it lacks).
pub fn random_stream_for(arch: Arch, rng: &mut Rng, len: usize, only: Option<&[Opcode]>) -> Case {
    let mut program = Vec::new();
    let text = |t: &str| -> Instr { parse_instr(arch, t).unwrap_or(Instr::SFPNOP {}) };
    while program.len() < len.clamp(1, 64) {
        match rng.below(10) {
            0 => {
                // if / else block: enable, push, condition, then-part, else, else-part, pop.
                program.push(text("TTI_SFPENCC(1, 0, 0, 2)"));
                program.push(text("TTI_SFPPUSHC(0, 0, 0, 0)"));
                let op = [Opcode::SFPSETCC, Opcode::SFPGT, Opcode::SFPLE][rng.below(3) as usize];
                let op = if arch.has(op) { op } else { Opcode::SFPSETCC };
                let cond = build_for(
                    arch,
                    op,
                    &[
                        ("VC", rng.below(8)),
                        ("VD", rng.below(8)),
                        ("Mod1", rng.below(16)),
                        ("Imm1", rng.below(2)),
                    ],
                );
                program.push(cond);
                for _ in 0..rng.below(3) {
                    program.push(random_instr_for(arch, rng, only));
                }
                program.push(text("TTI_SFPCOMPC(0, 0, 0, 0)"));
                for _ in 0..rng.below(3) {
                    program.push(random_instr_for(arch, rng, only));
                }
                program.push(text("TTI_SFPPOPC(0, 0, 0, 0)"));
            }
            1 => program.push(text("TTI_SFPNOP")),
            _ => program.push(random_instr_for(arch, rng, only)),
        }
    }
    program.truncate(len.clamp(1, 64));
    Case {
        name: "stream".to_string(),
        mode: None,
        mode_label: None,
        tags: vec!["stream".to_string()],
        program,
        pre: random_state_for(arch, rng),
    }
}
