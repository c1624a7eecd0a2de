//! The differential checks of the fast model against the reference (the oracle) run once per SIMD
//! level this CPU supports (`simd::Level::supported`: portable, AVX2, AVX-512; portable and NEON
//! on AArch64, `.ci/aarch64`), with the level set
//! for the whole run, on both chips. A level changes the FMA kernels and the compiled copy of every
//! instruction's model (`simd::execute`), so: `step` on random states and instructions, half of
//! them from the FMA family (whose kernels are hand-written per level), whole post-state and
//! `Outcome` compared (`tests/it/differential.rs` runs the same check at the default level); and
//! random programs on the cycle-level machines, SFPLOADMACRO schedules included
//! (`tests/it/common/machine.rs`, which `tests/it/machine_diff.rs` runs at the default level).
//!
//! The level is process-wide state (`simd::set_level`), set here for the whole run: in one
//! process with the other tests it would change the level they run at (`differential.rs` and
//! `machine_diff.rs` check the default level) and race with `simd.rs`'s
//! `the_level_follows_the_cpu_and_the_request`, which sets the level and reads it back. So the
//! test runs in a process of its own: the test binary again, with this one test alone
//! ([`crate::common::alone`]).

use crate::common::{Rng, alone, diff, machine};
use sfpu_fastpath::FastState;
use sfpu_fastpath::simd::{self, Level};
use sfpu_reference::isa::{Arch, Instr, Opcode};

const FMA_FAMILY: [Opcode; 7] = [
    Opcode::SFPMAD,
    Opcode::SFPADD,
    Opcode::SFPMUL,
    Opcode::SFPADDI,
    Opcode::SFPMULI,
    Opcode::SFPLUT,
    Opcode::SFPLUTFP32,
];

/// Cases per chip and level: `FASTPATH_DIFF_CASES / 4`, or 15,000.
fn cases() -> u32 {
    std::env::var("FASTPATH_DIFF_CASES").ok().and_then(|v| v.parse::<u32>().ok()).map_or(15_000, |n| n / 4)
}

/// Machine programs per chip and level: `FASTPATH_MACHINE_CASES / 4`, or 1,000.
fn machine_cases() -> u32 {
    std::env::var("FASTPATH_MACHINE_CASES").ok().and_then(|v| v.parse::<u32>().ok()).map_or(1_000, |n| n / 4)
}

fn pick(rng: &mut Rng, arch: Arch) -> Instr {
    if rng.chance(1, 2) {
        return rng.instr_on(arch);
    }
    loop {
        let i = rng.instr_on(arch);
        if FMA_FAMILY.contains(&i.opcode()) {
            return i;
        }
    }
}

/// Runs `n` cases on `arch` at the level in force; returns the mismatches (none are excused: an
/// outcome the two models agree is undefined may differ in state, as in `differential.rs`).
fn run(arch: Arch, seed: u64, n: u32) -> Vec<String> {
    let mut rng = Rng(seed);
    let mut bad = Vec::new();
    let mut fma_cases = 0;
    for _ in 0..n {
        let st = rng.state_on(arch);
        let instr = pick(&mut rng, arch);
        fma_cases += FMA_FAMILY.contains(&instr.opcode()) as u32;
        let mut fast = FastState::from_state(&st);
        let mut reference = st.clone();
        let o_ref = sfpu_reference::step(&mut reference, &instr);
        let o_fast = sfpu_fastpath::step(&mut fast, &instr);
        let after = fast.to_state();
        let excused = o_ref == o_fast && !o_ref.is_defined();
        if (o_ref != o_fast || after != reference) && !excused && bad.len() < 5 {
            bad.push(format!(
                "{instr:?}: outcome reference {o_ref} | fast {o_fast}; state {}",
                diff(&reference, &after)
            ));
        }
    }
    assert!(fma_cases >= n / 2, "{arch}: only {fma_cases} of {n} cases were FMA-family instructions");
    bad
}

#[test]
fn step_matches_the_reference_at_every_supported_level() {
    if !alone("simd_levels::step_matches_the_reference_at_every_supported_level") {
        return;
    }
    let before = simd::level();
    let levels = Level::supported();
    assert_eq!(levels[0], Level::Portable);
    let mut failures = Vec::new();
    for &level in &levels {
        assert_eq!(simd::set_level(level), level);
        for (arch, seed) in [(Arch::Blackhole, 0x5EED_1001), (Arch::Wormhole, 0x5EED_1002)] {
            eprintln!("{arch} at {level:?}: {} cases", cases());
            for m in run(arch, seed, cases()) {
                failures.push(format!("{arch} {level:?}: {m}"));
            }
            // The cycle-level machine: scheduled instructions, multi-instruction cycles.
            let t = machine::programs(arch, seed ^ 0xC0FFEE, machine_cases());
            eprintln!("{arch} at {level:?}: {} machine programs", t.programs);
            for m in t.mismatches.iter().take(3) {
                failures.push(format!("{arch} {level:?} machine: {m}"));
            }
        }
    }
    simd::set_level(before);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
