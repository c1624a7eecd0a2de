//! Operand streams with the state carried over from one operand to the next, on every chip
//! profile: the fast model against `amx_reference::vecfp`, the whole 5120-byte state compared
//! after every operand.
//!
//! * `test_c_streams_*`: what corsix/amx `test.c` does (§4.1): a state of random bytes, then
//!   1000 steps of fully random 64-bit operands (7/8 of them no-ops that must change nothing),
//!   and the same with operands that mostly do something ([`common::sane`]), so Z accumulates
//!   Infs, default NaNs and subnormals as it goes. `AMX_STREAM_ROUNDS=N` rounds of 1000 steps
//!   per chip and kind (default 8).
//! * `state_machine_streams`: proptest-state-machine streams of up to 48 operands with the
//!   reference as the model and the fast model as the system under test (STYLE "Tests"); a
//!   failure shrinks to a minimal stream.

use crate::common::Rng;
use crate::common::*;
use amx_reference::{Chip, Operand, State};
use proptest::prelude::*;
use proptest::test_runner::Config;
use proptest_state_machine::{ReferenceStateMachine, StateMachineTest, prop_state_machine};

/// `rounds` × 1000 steps on `chip`, each round from a fresh random state; `operand` draws the
/// next operand. Panics with the round, the step and the divergence report.
fn streams(chip: Chip, seed: u64, rounds: u64, operand: impl Fn(&mut Rng) -> Operand) -> (u64, u64) {
    let mut rng = Rng::new(seed);
    let (mut steps, mut wrote) = (0u64, 0u64);
    for round in 0..rounds {
        let mut expected = raw_state(&mut rng);
        let mut actual = expected.clone();
        for step in 0..1000 {
            let op = operand(&mut rng);
            let before = expected.clone();
            amx_reference::vecfp(&mut expected, chip, op);
            amx_fastpath::vecfp(&mut actual, chip, op);
            if expected != actual {
                panic!(
                    "{chip} round {round} step {step}:\n{}",
                    report(chip, op, &before, &expected, &actual)
                );
            }
            steps += 1;
            wrote += (expected != before) as u64;
        }
    }
    (steps, wrote)
}

#[test]
fn test_c_streams_fully_random_operands() {
    let rounds = cases("AMX_STREAM_ROUNDS", 8);
    for (k, chip) in Chip::ALL.into_iter().enumerate() {
        let (steps, wrote) = streams(chip, 0x7E57_C000 + k as u64, rounds, |rng| Operand(rng.next()));
        eprintln!("{chip}: {steps} fully random operands agree ({wrote} wrote Z)");
    }
}

#[test]
fn test_c_streams_operations() {
    let rounds = cases("AMX_STREAM_ROUNDS", 8);
    for (k, chip) in Chip::ALL.into_iter().enumerate() {
        let (steps, wrote) =
            streams(chip, 0x0BE5_0000 + k as u64, rounds, |rng| sane(chip, rng.next(), rng.next()));
        eprintln!("{chip}: {steps} operations agree ({wrote} wrote Z)");
    }
}

/// The model side of the state machine: the chip, the reference state, the state before the
/// last operand (for the report) and the operands so far.
#[derive(Clone)]
struct RefAmx {
    chip: Chip,
    state: State,
    before_last: State,
    history: Vec<Operand>,
}

impl std::fmt::Debug for RefAmx {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} after {} operands", self.chip, self.history.len())
    }
}

struct AmxModel;

impl ReferenceStateMachine for AmxModel {
    type State = RefAmx;
    type Transition = Operand;

    fn init_state() -> BoxedStrategy<RefAmx> {
        (0..3usize, any::<u64>(), any::<bool>())
            .prop_map(|(chip, seed, raw)| {
                let chip = Chip::ALL[chip];
                let mut rng = Rng::new(seed);
                // A biased state for the operand kind most streams use (f32 FMA), or raw bytes.
                let state =
                    if raw { raw_state(&mut rng) } else { biased_state(&mut rng, chip, Operand(4 << 42)) };
                RefAmx { chip, before_last: state.clone(), state, history: Vec::new() }
            })
            .boxed()
    }

    fn transitions(s: &RefAmx) -> BoxedStrategy<Operand> {
        let chip = s.chip;
        prop_oneof![
            1 => any::<u64>().prop_map(Operand),
            7 => (any::<u64>(), any::<u64>()).prop_map(move |(raw, choice)| sane(chip, raw, choice)),
        ]
        .boxed()
    }

    fn apply(mut s: RefAmx, op: &Operand) -> RefAmx {
        s.before_last = s.state.clone();
        amx_reference::vecfp(&mut s.state, s.chip, *op);
        s.history.push(*op);
        s
    }
}

/// The system under test: the fast model's state.
struct FastAmx(State);

impl StateMachineTest for FastAmx {
    type SystemUnderTest = FastAmx;
    type Reference = AmxModel;

    fn init_test(r: &RefAmx) -> FastAmx {
        FastAmx(r.state.clone())
    }

    fn apply(mut sut: FastAmx, r: &RefAmx, op: Operand) -> FastAmx {
        amx_fastpath::vecfp(&mut sut.0, r.chip, op);
        sut
    }

    fn check_invariants(sut: &FastAmx, r: &RefAmx) {
        if sut.0 != r.state {
            let listing: String = r.history.iter().map(|op| format!("  0x{:016x}  {op}\n", op.0)).collect();
            let last = r.history.last().copied().unwrap_or(Operand::ZERO);
            panic!(
                "{} stream of {} operands diverges at the last one:\n{listing}{}",
                r.chip,
                r.history.len(),
                report(r.chip, last, &r.before_last, &r.state, &sut.0)
            );
        }
    }
}

prop_state_machine! {
    #![proptest_config(Config { cases: 256, failure_persistence: None, ..Config::default() })]

    /// Streams of 1 to 48 operands; the whole state is compared after every operand.
    #[test]
    fn state_machine_streams(sequential 1..48 => FastAmx);
}
