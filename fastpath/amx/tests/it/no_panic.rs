//! The fast model is total: any 64-bit operand on any chip and any state, at every SIMD level
//! the machine has, returns without panicking, never writes X or Y (§1.1), and leaves the state
//! untouched when `Plan::is_nop` says so.

use crate::common::Rng;
use crate::common::raw_state;
use amx_fastpath::Plan;
use amx_fastpath::simd::Level;
use amx_reference::{Chip, Operand};
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig { cases: 20_000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn total_on_any_operand_chip_and_state(raw in any::<u64>(), chip in 0..3usize, seed in any::<u64>()) {
        let (chip, op) = (Chip::ALL[chip], Operand(raw));
        let before = raw_state(&mut Rng::new(seed));
        let plan = Plan::new(chip, op);
        for level in Level::supported() {
            let mut s = before.clone();
            plan.run_at(level, &mut s);
            prop_assert!(s.X == before.X && s.Y == before.Y, "X or Y written");
            if plan.is_nop() {
                prop_assert!(s == before, "a no-op plan changed the state");
            }
        }
    }
}
