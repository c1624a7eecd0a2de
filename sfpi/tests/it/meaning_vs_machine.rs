//! Meaning versus machine: for every kernel of the corpus, on random tiles (and random values in
//! every general LReg, the programmable constants, the PRNG and Wormhole's SFPSHFT2 latch), the
//! lowered whole-tile program executed on a model leaves exactly the state the kernel's
//! lane-by-lane meaning gives: every Dst cell, every LReg set through `l_reg`, every programmable
//! constant set; and the predication state restored. This is what catches a wrong predication
//! lowering (see `a_planted_lowering_bug_is_caught`).

use proptest::prelude::*;
use sfpi::kernels::{KernelDef, registry};
use sfpi::run::{Engine, compare, undefined_notes};
use sfpi::{Arch, LowerOptions, PlantedBug};

/// The chips and models the property is checked on: both chips on both models (a test below
/// asserts every configuration is supported, so none is skipped silently).
const CONFIGS: &[(Arch, Engine)] = &[
    (Arch::Blackhole, Engine::Reference),
    (Arch::Wormhole, Engine::Reference),
    (Arch::Blackhole, Engine::Fast),
    (Arch::Wormhole, Engine::Fast),
];

/// Every disagreement between the meaning and `engine` running `def` on `arch` from the
/// whole-tile state of `seed`, as messages.
fn disagreements(def: &KernelDef, arch: Arch, engine: Engine, seed: u64, opts: &LowerOptions) -> Vec<String> {
    let inputs = def.random_inputs(seed);
    let case = match def.build_with(arch, seed, inputs, opts) {
        Ok(c) => c,
        Err(e) => return vec![format!("build: {e}")],
    };
    let expected = match case.expected() {
        Ok(e) => e,
        Err(e) => return vec![format!("meaning: {e}")],
    };
    let run = match case.run(engine) {
        Ok(r) => r,
        Err(e) => return vec![format!("run: {e}")],
    };
    let mut out: Vec<String> = undefined_notes(&run).iter().map(|n| format!("note {n:?}")).collect();
    out.extend(
        compare(&expected, &run.state)
            .iter()
            .map(|m| format!("{}: meaning {:#010x}, machine {:#010x}", m.what, m.expected, m.got)),
    );
    out
}

fn check_all(seed: u64) -> Result<(), TestCaseError> {
    for def in registry() {
        for &(arch, engine) in CONFIGS {
            if !engine.supports(arch) || !def.chips.contains(&arch) {
                continue;
            }
            let d = disagreements(&def, arch, engine, seed, &LowerOptions::default());
            prop_assert!(
                d.is_empty(),
                "{} on {arch} ({} model), seed {seed}: {} disagreements, first: {:?}",
                def.name,
                engine.name(),
                d.len(),
                &d[..d.len().min(5)]
            );
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, failure_persistence: None, ..ProptestConfig::default() })]

    /// Every kernel (nested chains three deep included), every configuration, random tiles.
    #[test]
    fn the_machine_does_what_the_kernel_means(seed in any::<u64>()) {
        check_all(seed)?;
    }
}

/// The configurations cover both chips on the reference model and Blackhole on the fast model.
#[test]
fn configurations() {
    for (arch, engine) in CONFIGS {
        assert!(engine.supports(*arch), "{arch} on the {} model", engine.name());
    }
    assert!(Engine::Reference.supports(Arch::Wormhole));
}

/// A planted lowering bug is caught: each of these deliberately wrong lowerings (a `v_else`
/// without its SFPCOMPC, an assignment under `v_if` that writes every lane, `>=` tested as `<`)
/// makes the machine disagree with the meaning on the three-deep chain and on the seed's
/// `v_block` / `v_and` example, on both chips, for the first random seed tried.
#[test]
fn a_planted_lowering_bug_is_caught() {
    let kernels: Vec<KernelDef> =
        registry().into_iter().filter(|k| ["seed/nested3", "seed/narrowing"].contains(&k.name)).collect();
    assert_eq!(kernels.len(), 2);
    for bug in
        [PlantedBug::ElseWithoutCompc, PlantedBug::MergeIgnoresPredication, PlantedBug::GreaterEqualAsLess]
    {
        for def in &kernels {
            for arch in Arch::ALL {
                let opts = LowerOptions { planted: Some(bug) };
                let d = disagreements(def, arch, Engine::Reference, 1, &opts);
                let caught = !d.is_empty();
                // seed/narrowing has no v_else: that bug cannot show there.
                let applies = !(bug == PlantedBug::ElseWithoutCompc && def.name == "seed/narrowing");
                assert_eq!(caught, applies, "{bug:?} on {} ({arch})", def.name);
                // And the correct lowering agrees.
                assert!(disagreements(def, arch, Engine::Reference, 1, &LowerOptions::default()).is_empty());
            }
        }
    }
}
