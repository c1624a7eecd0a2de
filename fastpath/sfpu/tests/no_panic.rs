//! The fast model never panics, for any instruction and any state the `State` type can hold,
//! including addressing fields far outside their documented widths.

mod common;

use common::Rng;
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
    let mut r = Rng(31337);
    for _ in 0..300 {
        let st = extreme(r.state(), &mut r);
        let mut f = FastState::from_state(&st);
        let mut m = FastMachine::new();
        for _ in 0..64 {
            // Any decodable word, including all SFPLOADMACRO schedules the state allows.
            let w = r.raw_word();
            if let Ok(i) = decode(Arch::Blackhole, w) {
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
