//! `FastState::from_state` / `to_state` are lossless, and `FastState::reset` mirrors
//! `State::reset`, on both chips.

use crate::common::Rng;
use proptest::prelude::*;
use sfpu_fastpath::FastState;
use sfpu_reference::isa::Arch;
use sfpu_reference::state::{ResetValues, State};

#[test]
fn random_states_round_trip() {
    let mut r = Rng(42);
    for k in 0..300 {
        let s = r.state_on(Arch::ALL[k % 2]);
        let f = FastState::from_state(&s);
        assert_eq!(f.to_state(), s);
        // And the other way: converting the converted state gives the same fast state.
        assert_eq!(FastState::from_state(&f.to_state()), f);
    }
}

/// `clone_from` gives a state equal to its source, in every part (random states of both chips,
/// so each part differs from the target's, the chip included), while keeping the target's Dst
/// storage; `clone` gives an equal state too.
#[test]
fn clone_from_copies_every_part_into_the_same_storage() {
    let mut r = Rng(43);
    let mut target = FastState::from_state(&r.state_on(Arch::Blackhole));
    let bits = target.dst.DstBits.as_ptr();
    let valid = target.dst.DstRowValid.as_ptr();
    for k in 0..40 {
        let source = FastState::from_state(&r.state_on(Arch::ALL[(k + 1) % 2]));
        assert_ne!(target.to_state(), source.to_state());
        target.clone_from(&source);
        assert_eq!(target.to_state(), source.to_state());
        assert_eq!(target, source);
        assert_eq!((target.dst.DstBits.as_ptr(), target.dst.DstRowValid.as_ptr()), (bits, valid));
        assert_eq!(source.clone(), source);
    }
}

#[test]
fn flag_stacks_of_every_depth_round_trip() {
    // Lane `l` gets depth `l % 9`, with entries drawn from the lane number.
    let mut s = State::reset(Arch::Blackhole, &ResetValues::ZEROS);
    for l in 0..32 {
        let entries: Vec<_> = (0..l % 9)
            .map(|k| sfpu_reference::state::FlagStackEntry {
                LaneFlags: (l + k) % 2 == 0,
                UseLaneFlagsForLaneEnable: (l * k) % 3 == 0,
            })
            .collect();
        s.FlagStack[l] = sfpu_reference::state::FlagStack::from_entries(&entries).unwrap();
    }
    assert_eq!(FastState::from_state(&s).to_state(), s);
}

#[test]
fn reset_matches_reference() {
    for rv in [
        ResetValues::ZEROS,
        ResetValues {
            general_lregs: 0xDEAD_BEEF,
            config_lregs: 0x1234_5678,
            lreg16: 0xFFFF_FFFF,
            lane_config: 0x3_FFFF,
            load_macro_config: 0xFFFF_FFFF,
            prng: 0x8000_0001,
            dst: 0xABCD,
            sfpshft2_vc0: 0x1357_9BDF,
        },
    ] {
        for arch in Arch::ALL {
            let f = FastState::reset(arch, &rv);
            assert_eq!(f.arch(), arch);
            assert_eq!(f.to_state(), State::reset(arch, &rv), "{arch}");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn round_trip_any_seed(seed in any::<u64>(), wormhole in any::<bool>()) {
        let arch = if wormhole { Arch::Wormhole } else { Arch::Blackhole };
        let s = Rng(seed).state_on(arch);
        let f = FastState::from_state(&s);
        prop_assert_eq!(f.arch(), arch);
        prop_assert_eq!(f.to_state(), s);
    }
}
