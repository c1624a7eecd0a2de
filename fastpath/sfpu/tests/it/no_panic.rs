//! The fast model never panics, for any instruction and any state the `State` type can hold,
//! including addressing fields far outside their documented widths, on either chip: every word
//! either chip decodes (so on Wormhole also Blackhole's instructions, which Wormhole cannot
//! express, and Wormhole's words read as Blackhole's on a Blackhole state).

use crate::common::Rng;
use sfpu_fastpath::{FastMachine, FastState};
use sfpu_reference::isa::{Arch, decode};
use sfpu_reference::state::{AddrModSlot, State};

fn extreme(mut s: State, r: &mut Rng) -> State {
    let a = &mut s.Addressing;
    a.DEST_TARGET_REG_CFG_MATH_Offset = u16::MAX;
    a.SFPU_STACK_Incr = u16::MAX;
    a.SFPU_DEST_FMT_Base = u16::MAX;
    a.DEST_REGW_BASE_Base = u16::MAX;
    a.DEST_SP_BASE_Base = u16::MAX;
    a.ALU_FORMAT_SPEC_REG_SrcB_val = u16::MAX;
    a.ALU_FORMAT_SPEC_REG1_SrcB = u16::MAX;
    a.RWC.Dst = u16::MAX;
    a.RWC.Dst_Cr = u16::MAX;
    a.RWC.SrcA = u16::MAX;
    a.RWC.SrcA_Cr = u16::MAX;
    a.RWC.SrcB = u16::MAX;
    a.RWC.SrcB_Cr = u16::MAX;
    a.RWC.FidelityPhase = u16::MAX;
    a.RWC.ExtraAddrModBit = u16::MAX;
    a.RWC.Sp = u16::MAX;
    a.DBG_FEATURE_DISABLE_bit11 = r.chance(1, 2);
    for slot in a.ADDR_MOD.iter_mut() {
        *slot = AddrModSlot {
            SrcAIncr: u16::MAX,
            SrcACR: r.chance(1, 2),
            SrcAClear: false,
            SrcBIncr: u16::MAX,
            SrcBCR: r.chance(1, 2),
            SrcBClear: false,
            DestIncr: u16::MAX,
            DestCR: r.chance(1, 2),
            DestClear: false,
            DestCToCR: r.chance(1, 2),
            FidelityIncr: u16::MAX,
            FidelityClear: false,
            BiasIncr: u16::MAX,
            BiasClear: false,
        };
    }
    s
}

#[test]
fn extreme_states_and_all_words() {
    for (arch, seed) in [(Arch::Blackhole, 31337), (Arch::Wormhole, 31338)] {
        extreme_states_and_all_words_on(arch, seed);
    }
}

fn extreme_states_and_all_words_on(arch: Arch, seed: u64) {
    let mut r = Rng(seed);
    for _ in 0..300 {
        let mut st = extreme(r.state_on(arch), &mut r);
        if let Some(wh) = st.wormhole_mut() {
            wh.SFPSHFT2_vc0 = [u32::MAX; 32];
        }
        let mut f = FastState::from_state(&st);
        let mut m = FastMachine::new();
        for _ in 0..64 {
            // Any word either chip decodes, including all SFPLOADMACRO schedules the state
            // allows, issued to this chip's state.
            let word_arch = if r.chance(1, 4) { Arch::Blackhole } else { arch };
            let w = r.raw_word_on(word_arch);
            if let Ok(i) = decode(word_arch, w) {
                let _ = sfpu_fastpath::step(&mut f, &i);
                let _ = m.issue(&mut f, &i);
            }
            if r.chance(1, 8) {
                let _ = m.idle(&mut f);
            }
        }
        let _ = m.drain(&mut f);
        assert_eq!(m.pending_count(), 0);
        let _ = f.to_state();
    }
}
