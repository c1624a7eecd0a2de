//! The `diff_stream` input grammar, encoding side: the bytes of an input that starts from a given
//! state and runs a given stream ([`encode_stream_input`], through [`sections_for`]), for the
//! seed corpora and the minimised cases, and a case carried over to another chip
//! ([`stream_input_on`]).

use sfpu_reference::State;
use sfpu_reference::isa::{Arch, Instr, parse_instr};
use sfpu_reference::outcome::ALL_LANES;
use sfpu_reference::state::{DST_COLS, DST_ROWS, LANES};

use super::base::base_state;
use super::input::{MAX_STREAM, Section, StreamInput, WRITABLE_LREGS};

fn put16(out: &mut Vec<u8>, v: u16) {
    out.extend_from_slice(&v.to_le_bytes());
}
fn put32(out: &mut Vec<u8>, v: u32) {
    out.extend_from_slice(&v.to_le_bytes());
}

fn encode_section(out: &mut Vec<u8>, sec: &Section) {
    match sec {
        Section::LRegPool { reg, pool, arg } => {
            out.extend([0, *reg, *pool]);
            put32(out, *arg);
        }
        Section::LReg { reg, values } => {
            out.extend([1, *reg]);
            values.iter().for_each(|&v| put32(out, v));
        }
        Section::Predication { flags, uses } => {
            out.push(2);
            put32(out, *flags);
            put32(out, *uses);
        }
        Section::FlagStacks { lanes, depth, bits } => {
            out.push(3);
            put32(out, *lanes);
            out.push(*depth);
            put16(out, *bits);
        }
        Section::LaneConfig { lanes, value } => {
            out.push(4);
            put32(out, *lanes);
            put32(out, *value);
        }
        Section::LoadMacroRaw { lanes, config } => {
            out.push(5);
            put32(out, *lanes);
            config.InstructionTemplate.iter().chain(&config.Sequence).for_each(|&v| put32(out, v));
            put16(out, config.Misc.bits() as u16);
        }
        Section::LoadMacroTyped { config } => {
            // Typed templates cannot hold every word: written as the raw form for all lanes.
            encode_section(out, &Section::LoadMacroRaw { lanes: ALL_LANES, config: *config });
        }
        Section::Prng { values } => {
            out.push(7);
            values.iter().for_each(|&v| put32(out, v));
        }
        Section::PrngSplat { lanes, value } => {
            out.push(8);
            put32(out, *lanes);
            put32(out, *value);
        }
        Section::DstRows { row, cells } => {
            for (k, chunk) in cells.chunks(256).enumerate() {
                out.push(9);
                put16(out, row + 256 * k as u16);
                out.push((chunk.len() - 1) as u8);
                chunk.iter().flatten().for_each(|&c| put16(out, c));
            }
        }
        Section::DstValid { row, count, valid } => {
            out.push(10);
            put16(out, *row);
            put16(out, *count);
            out.push(*valid as u8);
        }
        Section::Addressing(a) => {
            out.push(11);
            let flags = [
                a.SFPU_DEST_FMT_Enable,
                a.ADDR_MOD_SET_Base,
                a.ALU_ACC_CTRL_SFPU_Fp32_enabled,
                a.ALU_FORMAT_SPEC_REG_SrcB_override,
                a.DEST_ACCESS_CFG_remap_addrs,
                a.DEST_ACCESS_CFG_swizzle_32b,
                a.DBG_FEATURE_DISABLE_bit11,
            ];
            put16(out, flags.iter().enumerate().fold(0, |m, (i, &b)| m | (b as u16) << i));
            for v in [
                a.DEST_TARGET_REG_CFG_MATH_Offset,
                a.SFPU_STACK_Incr,
                a.SFPU_DEST_FMT_Base,
                a.DEST_REGW_BASE_Base,
                a.DEST_SP_BASE_Base,
                a.ALU_FORMAT_SPEC_REG_SrcB_val,
                a.ALU_FORMAT_SPEC_REG1_SrcB,
            ] {
                put16(out, v);
            }
            let r = &a.RWC;
            for v in [
                r.Dst,
                r.Dst_Cr,
                r.SrcA,
                r.SrcA_Cr,
                r.SrcB,
                r.SrcB_Cr,
                r.FidelityPhase,
                r.ExtraAddrModBit,
                r.Sp,
            ] {
                put16(out, v);
            }
        }
        Section::AddrMod { index, slot: m } => {
            out.extend([12, *index]);
            let flags = [
                m.SrcACR,
                m.SrcAClear,
                m.SrcBCR,
                m.SrcBClear,
                m.DestCR,
                m.DestClear,
                m.DestCToCR,
                m.FidelityClear,
                m.BiasClear,
            ];
            put16(out, flags.iter().enumerate().fold(0, |acc, (i, &b)| acc | (b as u16) << i));
            for v in [m.SrcAIncr, m.SrcBIncr, m.DestIncr, m.FidelityIncr, m.BiasIncr] {
                put16(out, v);
            }
        }
        Section::DstFill { row, count, value } => {
            out.push(13);
            put16(out, *row);
            put16(out, *count);
            put16(out, *value);
        }
        Section::Vc0 { values } => {
            out.push(14);
            values.iter().for_each(|&v| put32(out, v));
        }
    }
}

/// The sections that turn [`base_state`] into `s` (exactly, for every valid state).
pub fn sections_for(s: &State) -> Vec<Section> {
    let base = base_state(s.arch());
    let mut out = Vec::new();
    if let (Some(wh), Some(b)) = (s.wormhole(), base.wormhole())
        && wh.SFPSHFT2_vc0 != b.SFPSHFT2_vc0
    {
        out.push(Section::Vc0 { values: wh.SFPSHFT2_vc0 });
    }
    for (i, &reg) in WRITABLE_LREGS.iter().enumerate() {
        let v = s.LReg[reg];
        if v != base.LReg[reg] {
            out.push(if v.iter().all(|&x| x == v[0]) {
                Section::LRegPool { reg: i as u8, pool: 2, arg: v[0] }
            } else {
                Section::LReg { reg: i as u8, values: v }
            });
        }
    }
    let mask = |f: &dyn Fn(usize) -> bool| (0..LANES).fold(0u32, |m, l| m | (f(l) as u32) << l);
    let (flags, uses) = (mask(&|l| s.LaneFlags[l]), mask(&|l| s.UseLaneFlagsForLaneEnable[l]));
    if flags != 0 || uses != 0 {
        out.push(Section::Predication { flags, uses });
    }
    // Per-lane parts, grouped by value (one section per distinct value).
    fn groups<T: PartialEq + Copy>(values: &[T; LANES], base: &[T; LANES]) -> Vec<(u32, T)> {
        let mut g: Vec<(u32, T)> = Vec::new();
        for l in 0..LANES {
            if values[l] == base[l] {
                continue;
            }
            match g.iter_mut().find(|(_, v)| *v == values[l]) {
                Some((m, _)) => *m |= 1 << l,
                None => g.push((1 << l, values[l])),
            }
        }
        g
    }
    for (lanes, st) in groups(&s.FlagStack, &base.FlagStack) {
        let bits = st.entries().iter().enumerate().fold(0u16, |m, (i, e)| {
            m | (e.LaneFlags as u16) << (2 * i) | (e.UseLaneFlagsForLaneEnable as u16) << (2 * i + 1)
        });
        out.push(Section::FlagStacks { lanes, depth: st.len() as u8, bits });
    }
    for (lanes, c) in groups(&s.LaneConfig, &base.LaneConfig) {
        out.push(Section::LaneConfig { lanes, value: c.bits() });
    }
    for (lanes, config) in groups(&s.LoadMacroConfig, &base.LoadMacroConfig) {
        out.push(Section::LoadMacroRaw { lanes, config });
    }
    if s.PRNG != base.PRNG {
        let g = groups(&s.PRNG, &base.PRNG);
        if g.len() <= 2 {
            out.extend(g.into_iter().map(|(lanes, value)| Section::PrngSplat { lanes, value }));
        } else {
            out.push(Section::Prng { values: s.PRNG });
        }
    }
    if s.Dst.DstBits != base.Dst.DstBits {
        // Clear the base's rows if the state does not keep them, then the non-zero rows in runs.
        let keeps_base = (0..64).all(|r| s.Dst.DstBits[r] == base.Dst.DstBits[r]);
        let reference =
            if keeps_base { base.Dst.DstBits.clone() } else { Box::new([[0u16; DST_COLS]; DST_ROWS]) };
        if !keeps_base {
            out.push(Section::DstFill { row: 0, count: DST_ROWS as u16 - 1, value: 0 });
        }
        let mut r = 0;
        while r < DST_ROWS {
            if s.Dst.DstBits[r] == reference[r] {
                r += 1;
                continue;
            }
            let start = r;
            while r < DST_ROWS && s.Dst.DstBits[r] != reference[r] {
                r += 1;
            }
            out.push(Section::DstRows { row: start as u16, cells: s.Dst.DstBits[start..r].to_vec() });
        }
    }
    let mut r = 0;
    while r < DST_ROWS {
        if s.Dst.DstRowValid[r] {
            r += 1;
            continue;
        }
        let start = r;
        while r < DST_ROWS && !s.Dst.DstRowValid[r] {
            r += 1;
        }
        out.push(Section::DstValid { row: start as u16, count: (r - start - 1) as u16, valid: false });
    }
    if s.Addressing != base.Addressing {
        let mut top = s.Addressing;
        top.ADDR_MOD = base.Addressing.ADDR_MOD;
        if top != base.Addressing {
            out.push(Section::Addressing(top));
        }
        for (i, slot) in s.Addressing.ADDR_MOD.iter().enumerate() {
            if *slot != base.Addressing.ADDR_MOD[i] {
                out.push(Section::AddrMod { index: i as u8, slot: *slot });
            }
        }
    }
    out
}

/// The bytes of a `diff_stream` input that starts from `state` (any valid state of either chip;
/// the chip is the state's) and runs `program` (raw words of that chip, so every instruction is
/// represented exactly; at most [`MAX_STREAM`]). `None` if the state needs more than 63 sections
/// or an instruction has no word on the chip.
pub fn encode_stream_input(state: &State, program: &[Instr]) -> Option<Vec<u8>> {
    let arch = state.arch();
    let mut sections = Vec::new();
    for sec in sections_for(state) {
        // Long Dst runs are written as several sections.
        match &sec {
            Section::DstRows { row, cells } if cells.len() > 256 => {
                for (k, chunk) in cells.chunks(256).enumerate() {
                    sections.push(Section::DstRows { row: row + 256 * k as u16, cells: chunk.to_vec() });
                }
            }
            _ => sections.push(sec),
        }
    }
    if sections.len() > 63 {
        return None;
    }
    let chip = if arch == Arch::Wormhole { 0x40 } else { 0 };
    let mut out = vec![sections.len() as u8 | chip];
    for sec in &sections {
        encode_section(&mut out, sec);
    }
    for instr in program.iter().take(MAX_STREAM) {
        out.push(0);
        put32(&mut out, instr.encode(arch).ok()?);
    }
    Some(out)
}

/// A `diff_stream` input for `arch` made from a case of another chip (`pre` and `program` of
/// `pre.arch()`), for seeding: the state's sections are applied over `arch`'s base state (then
/// [`fit_to_chip`]), and each instruction is carried over by its tt-llk text, dropped where
/// `arch` lacks it. `None` if nothing of the program is left or the state does not encode.
///
/// [`fit_to_chip`]: super::fit_to_chip
pub fn stream_input_on(arch: Arch, pre: &State, program: &[Instr]) -> Option<Vec<u8>> {
    let from = pre.arch();
    let program: Vec<Instr> = program
        .iter()
        .filter_map(|i| parse_instr(arch, &i.display(from).to_string()).ok())
        .take(MAX_STREAM)
        .collect();
    if program.is_empty() {
        return None;
    }
    let input = StreamInput { arch, sections: sections_for(pre), program };
    encode_stream_input(&input.state(), &input.program)
}

#[cfg(test)]
mod tests {
    use sfpu_reference::state::{Addressing, StateDoc};

    use super::*;
    use crate::fuzz::input_arch;

    #[test]
    fn base_state_is_valid_and_round_trips() {
        for (arch, head) in [(Arch::Blackhole, 0x00), (Arch::Wormhole, 0x40)] {
            let s = base_state(arch);
            assert_eq!(s.arch(), arch);
            assert!(s.constants_intact());
            assert_eq!(StateDoc::from_state(&s).to_state().unwrap(), s);
            let bytes = encode_stream_input(&s, &[]).unwrap();
            assert_eq!(bytes, vec![head], "the base state needs no section; bit 6 is the chip");
            assert_eq!(input_arch(&bytes), arch);
            assert_eq!(StreamInput::from_bytes(&bytes).state(), s);
        }
    }

    /// A Blackhole case carried over to Wormhole keeps its registers and its instructions.
    #[test]
    fn a_blackhole_case_seeds_wormhole() {
        let mut pre = base_state(Arch::Blackhole);
        pre.LReg[3][7] = 0x4040_0000;
        let program = [
            parse_instr(Arch::Blackhole, "TTI_SFPMAD(3, 1, 2, 4, 0)").unwrap(),
            parse_instr(Arch::Blackhole, "TTI_SFPGT(0, 1, 2, 0)").unwrap(),
        ];
        let bytes = stream_input_on(Arch::Wormhole, &pre, &program).expect("encodes");
        let back = StreamInput::from_bytes(&bytes);
        assert_eq!(back.arch, Arch::Wormhole);
        assert_eq!(back.state().LReg[3][7], 0x4040_0000);
        // SFPGT is Blackhole's only: the SFPMAD is what is left.
        assert_eq!(back.program, vec![parse_instr(Arch::Wormhole, "TTI_SFPMAD(3, 1, 2, 4, 0)").unwrap()]);
        assert_eq!(stream_input_on(Arch::Wormhole, &pre, &program[1..]), None);
    }

    /// Wormhole inputs never set an addressing field only Blackhole has, and their `vc0` latch
    /// section round-trips through the encoder.
    #[test]
    fn wormhole_states_fit_the_chip_and_round_trip() {
        let mut s = base_state(Arch::Wormhole);
        s.wormhole_mut().unwrap().SFPSHFT2_vc0 = std::array::from_fn(|l| 0x1234_0000 + l as u32);
        s.LReg[3][5] = 0xDEAD_BEEF;
        s.Addressing.RWC.Dst = 17;
        let program = [parse_instr(Arch::Wormhole, "TTI_SFPSHFT2(0, 1, 2, 4)").unwrap()];
        let bytes = encode_stream_input(&s, &program).unwrap();
        assert_eq!(bytes[0] & 0x40, 0x40);
        let back = StreamInput::from_bytes(&bytes);
        assert_eq!(back.state(), s);
        assert_eq!(back.program, program);
        // Every Blackhole-only addressing field set by a section is cleared on Wormhole.
        let mut a = Addressing::default();
        a.RWC.Sp = 5;
        a.DEST_SP_BASE_Base = 6;
        a.SFPU_STACK_Incr = 7;
        a.SFPU_DEST_FMT_Enable = true;
        a.SFPU_DEST_FMT_Base = 3;
        a.DEST_ACCESS_CFG_remap_addrs = true;
        a.DEST_ACCESS_CFG_swizzle_32b = true;
        let input =
            StreamInput { arch: Arch::Wormhole, sections: vec![Section::Addressing(a)], program: vec![] };
        let st = input.state();
        assert_eq!(st.Addressing, Addressing::default());
        assert!(StateDoc::from_state(&st).to_state().is_ok());
    }
}
