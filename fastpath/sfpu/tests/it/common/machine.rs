//! The differential check of the cycle-level model shared by `machine_diff.rs` (at the default
//! SIMD level) and `simd_levels.rs` (at each level): random programs issued one instruction at a
//! time to `sfpu_fastpath::FastMachine` and to the reference `sfpu_reference::Machine` (the
//! oracle), interleaved with idle cycles, then drained; each call's `Outcome`, the cycle count
//! and the final state compared.

use super::{Rng, diff};
use sfpu_fastpath::{FastMachine, FastState};
use sfpu_reference::Machine;
use sfpu_reference::isa::{Arch, Instr, Opcode};

/// Makes `LoadMacroConfig` identical in all lanes (as SFPCONFIG's broadcast usually leaves it),
/// so that schedules are meaningful rather than reported as lane disagreements.
pub fn uniform_lmc(st: &mut sfpu_reference::State) {
    let c = st.LoadMacroConfig[0];
    for l in 0..32 {
        st.LoadMacroConfig[l] = c;
    }
}

/// An instruction of `arch` biased towards the timing-relevant ones (on Wormhole: the MAD unit's
/// results, SFPSHFT2's next-cycle rules and the instructions they list, SFPSWAP's stall).
pub fn pick(arch: Arch, r: &mut Rng) -> Instr {
    let want: &[Opcode] = match (arch, r.below(6)) {
        (Arch::Blackhole, 0) => {
            &[Opcode::SFPMAD, Opcode::SFPMUL, Opcode::SFPADDI, Opcode::SFPLUTFP32, Opcode::SFPMUL24]
        }
        (Arch::Wormhole, 0) => {
            &[Opcode::SFPMAD, Opcode::SFPMULI, Opcode::SFPADDI, Opcode::SFPLUT, Opcode::SFPLUTFP32]
        }
        (_, 1) => &[Opcode::SFPLOADMACRO],
        (_, 2) => &[Opcode::SFPSWAP, Opcode::SFPSHFT2, Opcode::SFPNOP, Opcode::SFPAND, Opcode::SFPIADD],
        (Arch::Blackhole, 3) => &[Opcode::SFPCONFIG, Opcode::SFPSTORE, Opcode::SFPLOAD],
        (Arch::Wormhole, 3) => {
            &[Opcode::SFPSHFT2, Opcode::SFPSHFT, Opcode::SFPCAST, Opcode::SFPSTOCHRND, Opcode::SFPTRANSP]
        }
        _ => &[],
    };
    loop {
        let i = r.instr_on(arch);
        if want.is_empty() || want.contains(&i.opcode()) {
            return i;
        }
    }
}

/// What [`programs`] found.
pub struct Tally {
    /// Programs compared.
    pub programs: u32,
    /// Programs whose final states differ where the reference's outcome was not empty.
    pub excused: u32,
    /// One description per mismatching program (its instructions and the first difference).
    pub mismatches: Vec<String>,
    /// How many calls' outcomes (the reference's) noted each clause.
    pub clauses: std::collections::BTreeMap<&'static str, u32>,
}

/// Runs `n` random programs of `arch` from `seed` on both machines.
pub fn programs(arch: Arch, seed: u64, n: u32) -> Tally {
    let mut r = Rng(seed);
    let mut t = Tally { programs: 0, excused: 0, mismatches: Vec::new(), clauses: Default::default() };
    for case in 0..n {
        let mut st = r.state_on(arch);
        if r.chance(7, 8) {
            uniform_lmc(&mut st);
        }
        let len = 4 + r.below(12);
        let mut prog: Vec<Option<Instr>> = Vec::new();
        for _ in 0..len {
            prog.push(if r.chance(1, 8) { None } else { Some(pick(arch, &mut r)) });
        }
        let mut fast = FastState::from_state(&st);
        let mut reference = st.clone();
        let mut fm = FastMachine::new();
        let mut rm = Machine::new();
        let mut log = String::new();
        let mut any_undefined = false;
        let mut bad = None;
        for (step, p) in prog.iter().enumerate() {
            let (o_ref, o_fast) = match p {
                None => (rm.idle(&mut reference), fm.idle(&mut fast)),
                Some(i) => (rm.issue(&mut reference, i), fm.issue(&mut fast, i)),
            };
            log += &format!("  {step}: {p:?}\n");
            any_undefined |= !o_ref.is_defined();
            for (c, _) in o_ref.notes() {
                *t.clauses.entry(c.id()).or_default() += 1;
            }
            if o_ref != o_fast && bad.is_none() {
                bad = Some(format!("step {step} outcome: reference {o_ref} | fast {o_fast}"));
            }
            if rm.cycle() != fm.cycle() && bad.is_none() {
                bad = Some(format!("step {step} cycle: reference {} | fast {}", rm.cycle(), fm.cycle()));
            }
        }
        let (o_ref, o_fast) = (rm.drain(&mut reference), fm.drain(&mut fast));
        any_undefined |= !o_ref.is_defined();
        if o_ref != o_fast && bad.is_none() {
            bad = Some(format!("drain outcome: reference {o_ref} | fast {o_fast}"));
        }
        if rm.cycle() != fm.cycle() && bad.is_none() {
            bad = Some(format!("drain cycle: reference {} | fast {}", rm.cycle(), fm.cycle()));
        }
        let after = fast.to_state();
        if after != reference && bad.is_none() {
            if any_undefined {
                t.excused += 1;
            } else {
                bad = Some(format!("state: {}", diff(&reference, &after)));
            }
        }
        t.programs += 1;
        if let Some(b) = bad {
            t.mismatches.push(format!("case {case}:\n{log}  {b}"));
        }
    }
    t
}
