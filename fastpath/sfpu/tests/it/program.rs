//! Decoded programs (`sfpu_fastpath::Program`) against the reference (the oracle): random
//! programs of both chips run by `FastMachine::run` and by `program::run_steps` give the state,
//! the cycle count and the merged `Outcome` that the reference's `Machine` and `step` give when
//! each instruction is issued (or stepped) one by one and their outcomes merged. The per-call
//! paths (`FastMachine::issue`, `step`) are `machine_diff.rs` and `differential.rs`.

use crate::common::machine::{pick, uniform_lmc};
use crate::common::{Rng, diff};
use sfpu_fastpath::program::run_steps;
use sfpu_fastpath::{FastMachine, FastState, Program};
use sfpu_reference::isa::{Arch, Instr};
use sfpu_reference::{Machine, Outcome};

/// A random program of `arch` (timing-relevant instructions and SFPLOADMACRO favoured) and a state.
fn case(arch: Arch, r: &mut Rng) -> (sfpu_reference::State, Vec<Instr>) {
    let mut st = r.state_on(arch);
    if r.chance(7, 8) {
        uniform_lmc(&mut st);
    }
    let len = 1 + r.below(24) as usize;
    let prog = (0..len).map(|_| if r.chance(1, 2) { pick(arch, r) } else { r.instr_on(arch) }).collect();
    (st, prog)
}

/// Compares one run; returns the first difference. A state difference under an outcome both sides
/// agree is not fully defined is excused (`Some(None)`), as in the other differential tests.
fn compare(
    what: &str,
    (o_ref, reference): (&Outcome, &sfpu_reference::State),
    (o_fast, fast): (&Outcome, &FastState),
    cycles: Option<(u64, u64)>,
) -> Option<Option<String>> {
    if o_ref != o_fast {
        return Some(Some(format!("{what} outcome: reference {o_ref} | fast {o_fast}")));
    }
    if let Some((rc, fc)) = cycles.filter(|(rc, fc)| rc != fc) {
        return Some(Some(format!("{what} cycles: reference {rc} | fast {fc}")));
    }
    let after = fast.to_state();
    if &after != reference {
        if !o_ref.is_defined() {
            return Some(None);
        }
        return Some(Some(format!("{what} state: {}", diff(reference, &after))));
    }
    None
}

fn check(arch: Arch, seed: u64, n: u32) {
    let mut r = Rng(seed);
    let (mut bad, mut excused, mut undefined) = (Vec::new(), 0, 0);
    for k in 0..n {
        let (st, prog) = case(arch, &mut r);
        let program = Program::new(&prog);
        assert_eq!(program.len(), prog.len());

        // The cycle-level machine: run, then drain, against issue-by-issue on the reference.
        let mut rm = Machine::new();
        let mut reference = st.clone();
        let mut o_ref = Outcome::defined();
        for i in &prog {
            o_ref.merge(&rm.issue(&mut reference, i));
        }
        let mut fm = FastMachine::new();
        let mut fast = FastState::from_state(&st);
        let o_fast = fm.run(&mut fast, &program);
        undefined += !o_ref.is_defined() as u32;
        let mut verdict =
            compare("run", (&o_ref, &reference), (&o_fast, &fast), Some((rm.cycle(), fm.cycle())));
        if verdict.is_none() {
            let (d_ref, d_fast) = (rm.drain(&mut reference), fm.drain(&mut fast));
            let mut all_ref = o_ref.clone();
            all_ref.merge(&d_ref);
            let mut all_fast = o_fast.clone();
            all_fast.merge(&d_fast);
            verdict =
                compare("drain", (&all_ref, &reference), (&all_fast, &fast), Some((rm.cycle(), fm.cycle())));
        }

        // Step semantics: each instruction alone, in order.
        if verdict.is_none() {
            let mut reference = st.clone();
            let mut o_ref = Outcome::defined();
            for i in &prog {
                o_ref.merge(&sfpu_reference::step(&mut reference, i));
            }
            let mut fast = FastState::from_state(&st);
            let o_fast = run_steps(&mut fast, &program);
            verdict = compare("run_steps", (&o_ref, &reference), (&o_fast, &fast), None);
        }
        match verdict {
            Some(Some(m)) if bad.len() < 5 => bad.push(format!("{arch} case {k} {prog:?}:\n  {m}")),
            Some(None) => excused += 1,
            _ => {}
        }
    }
    eprintln!(
        "{arch}: {n} programs, {undefined} with a non-empty outcome, {excused} state differences excused"
    );
    // The generator must reach both kinds of program for the comparison to mean something.
    assert!(undefined > n / 20 && undefined < n, "{arch}: {undefined} of {n} programs had notes");
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// Programs per chip: `FASTPATH_PROGRAM_CASES`, or 1,500.
fn cases() -> u32 {
    std::env::var("FASTPATH_PROGRAM_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(1_500)
}

#[test]
fn blackhole_programs_match_the_reference() {
    check(Arch::Blackhole, 0x9E0_0001, cases());
}

#[test]
fn wormhole_programs_match_the_reference() {
    check(Arch::Wormhole, 0x9E0_0002, cases());
}

#[test]
fn an_empty_program_does_nothing() {
    let mut r = Rng(7);
    let st = r.state_on(Arch::Blackhole);
    let program = Program::new(&[]);
    assert!(program.is_empty());
    let mut fast = FastState::from_state(&st);
    let mut fm = FastMachine::new();
    assert!(fm.run(&mut fast, &program).is_defined());
    assert!(run_steps(&mut fast, &program).is_defined());
    assert_eq!(fm.cycle(), 0);
    assert_eq!(fast.to_state(), st);
}
