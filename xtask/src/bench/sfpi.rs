//! The SFPI kernels part of `cargo xtask bench`: how fast each model runs the programs kernel
//! authors run, a whole 32x32 tile of an SFPI kernel (`sfpi::kernels`, lowered as `cargo xtask
//! kernel NAME --listing` prints it), per chip.
//!
//! The instruction classes measure random programs of one kind on a random state; a kernel is
//! what users simulate: its own mix of instructions (SFPNOPs of the scheduling rules included),
//! finite operands from the kernel's documented input range, `LReg[7]` as the kernel sets it, on
//! the cycle-level machine (a kernel may schedule with SFPLOADMACRO). Each pass puts back the
//! case's starting state, runs the tile's program on it and drains the machine; the reference is
//! `sfpu_reference::Machine`, one call per instruction, the fast model `FastMachine::run` on the
//! program decoded once. Putting back is what a simulator does per tile, no more: every part of
//! the state but Dst (a few KB), and the Dst rows the program writes ([`written_rows`], found
//! once by running it on both models), not the whole 32 KB Dst; counted in the time for both
//! models alike. The figures are tiles per second and instructions per second (the program's
//! length times tiles per second).
//!
//! Every case is built from the kernel's own seed-chosen inputs (`KernelDef::build` with
//! [`SEED`]), so two runs measure the same programs on the same states. Not targets: the speed
//! targets are the classes'.

use std::time::Duration;

use anyhow::{Result, bail};
use sfpu_fastpath::{FastMachine, FastState, Program};
use sfpu_reference::isa::{Arch, Instr, Opcode};
use sfpu_reference::state::Dst;
use sfpu_reference::{Machine, State};

use super::common::{Rate, measure_samples};

/// The kernels measured when `--kernels` is not given: the transcendental, activation and
/// division kernels that models spend their SFPU time in.
pub const DEFAULT_KERNELS: [&str; 6] = ["exp", "log", "reciprocal", "sigmoid", "gelu_tanh", "relu"];

/// The seed of every case's inputs and unspecified state.
pub const SEED: u64 = 0x5F9C_BE4C_0000_0003;

/// One kernel made ready for one chip: the whole-tile program and its starting state.
pub struct Case {
    /// The chip.
    pub arch: Arch,
    /// The kernel's name in the registry.
    pub name: String,
    /// The lowered whole-tile program.
    pub program: Vec<Instr>,
    /// The state it starts from.
    pub state: State,
    /// How many of the program's instructions are of the FMA family (SFPMAD, SFPADD, SFPMUL,
    /// SFPADDI, SFPMULI).
    pub fma_family: usize,
    /// How many are SFPNOPs (the scheduling rules').
    pub nops: usize,
}

/// The kernels `--kernels` names (`all`: every kernel of the registry), in the registry's order,
/// or an error naming an unknown one.
pub fn select(list: &[String]) -> Result<Vec<String>> {
    let registry = sfpi::kernels::registry();
    if list.iter().any(|k| k == "all") {
        return Ok(registry.iter().map(|k| k.name.to_string()).collect());
    }
    let wanted: Vec<&str> =
        if list.is_empty() { DEFAULT_KERNELS.to_vec() } else { list.iter().map(String::as_str).collect() };
    for w in &wanted {
        if !registry.iter().any(|k| k.name == *w) {
            bail!(
                "--kernels: unknown kernel `{w}` (`sfpu-conformance kernel` lists them; `all` selects every one)"
            );
        }
    }
    Ok(registry.iter().filter(|k| wanted.contains(&k.name)).map(|k| k.name.to_string()).collect())
}

/// The cases of `names` on each of `arches` that the kernel supports.
pub fn cases(names: &[String], arches: &[Arch]) -> Result<Vec<Case>> {
    let mut out = Vec::new();
    for &arch in arches {
        for name in names {
            let Some(def) = sfpi::kernels::find(name) else { bail!("no kernel `{name}`") };
            if !def.chips.contains(&arch) {
                continue;
            }
            let case = def.build(arch, SEED).map_err(|e| anyhow::anyhow!("kernel {name} on {arch}: {e}"))?;
            let count = |ops: &[Opcode]| case.program.iter().filter(|i| ops.contains(&i.opcode())).count();
            let fma_family =
                count(&[Opcode::SFPMAD, Opcode::SFPADD, Opcode::SFPMUL, Opcode::SFPADDI, Opcode::SFPMULI]);
            let nops = count(&[Opcode::SFPNOP]);
            out.push(Case {
                arch,
                name: name.clone(),
                program: case.program,
                state: case.state,
                fma_family,
                nops,
            });
        }
    }
    Ok(out)
}

/// The Dst rows a pass of `case` changes (on either model, from the case's starting state):
/// what [`reference_rate`] and [`fast_rate`] put back besides the rest of the state.
pub fn written_rows(case: &Case) -> Vec<usize> {
    let (start, reference, fast) =
        (&case.state.Dst, reference_pass(case).Dst, fast_pass(case).to_state().Dst);
    (0..start.DstBits.len())
        .filter(|&r| {
            [&reference, &fast]
                .iter()
                .any(|end| end.DstBits[r] != start.DstBits[r] || end.DstRowValid[r] != start.DstRowValid[r])
        })
        .collect()
}

/// Puts `rows` of `start`'s Dst back into `dst`.
fn put_back(dst: &mut Dst, start: &Dst, rows: &[usize]) {
    for &r in rows {
        dst.DstBits[r] = start.DstBits[r];
        dst.DstRowValid[r] = start.DstRowValid[r];
    }
}

/// The reference model's instructions per second on `case`. A pass puts the starting state back
/// (everything but Dst, and the Dst rows in `rows`: [`written_rows`]), issues the program on a
/// `Machine` and drains it.
pub fn reference_rate(case: &Case, rows: &[usize], time: Duration) -> f64 {
    let mut s = case.state.clone();
    let mut m = Machine::new();
    measure_samples(time, || {
        reference_restore(&mut s, case, rows);
        for i in &case.program {
            std::hint::black_box(m.issue(&mut s, std::hint::black_box(i)));
        }
        std::hint::black_box(m.drain(&mut s));
        case.program.len() as u64
    })
    .median
}

fn reference_restore(s: &mut State, case: &Case, rows: &[usize]) {
    s.clone_from_except_Dst(&case.state);
    put_back(&mut s.Dst, &case.state.Dst, rows);
}

/// The fast model's instructions per second on `case`, with the samples' range. A pass puts the
/// starting state back as [`reference_rate`]'s does, runs the decoded program on a `FastMachine`
/// and drains it.
pub fn fast_rate(case: &Case, rows: &[usize], time: Duration) -> Rate {
    let start = FastState::from_state(&case.state);
    let mut s = Box::new(start.clone());
    let program = Program::new(&case.program);
    let mut m = FastMachine::new();
    measure_samples(time, || {
        fast_restore(&mut s, &start, rows);
        std::hint::black_box(m.run(&mut s, std::hint::black_box(&program)));
        std::hint::black_box(m.drain(&mut s));
        case.program.len() as u64
    })
}

fn fast_restore(s: &mut FastState, start: &FastState, rows: &[usize]) {
    s.clone_from_except_dst(start);
    put_back(&mut s.dst, &start.dst, rows);
}

/// The final state of one pass of the fast model from the case's starting state.
pub fn fast_pass(case: &Case) -> FastState {
    let mut s = FastState::from_state(&case.state);
    let mut m = FastMachine::new();
    m.run(&mut s, &Program::new(&case.program));
    m.drain(&mut s);
    s
}

/// The final state of one pass of the reference model from the case's starting state.
pub fn reference_pass(case: &Case) -> State {
    let mut s = case.state.clone();
    let mut m = Machine::new();
    for i in &case.program {
        m.issue(&mut s, i);
    }
    m.drain(&mut s);
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What the bench measures is each kernel's work: the fast model's pass ends in the reference's
    /// state, the program writes its output (some Dst row changes), and the restore between
    /// passes gives back the starting state exactly on both models, so every pass runs the same
    /// program on the same inputs.
    #[test]
    fn a_pass_runs_the_kernel_and_the_restore_undoes_it() {
        let names = select(&[]).expect("the default kernels");
        assert_eq!(names.len(), DEFAULT_KERNELS.len());
        let cases = cases(&names, &Arch::ALL).expect("the cases");
        assert_eq!(cases.len(), 2 * DEFAULT_KERNELS.len(), "every default kernel on both chips");
        for case in &cases {
            let what = format!("{} {}", case.arch, case.name);
            let reference = reference_pass(case);
            assert_eq!(fast_pass(case).to_state(), reference, "{what}: the models disagree");
            let rows = written_rows(case);
            assert!(!rows.is_empty(), "{what}: the program writes no Dst row");
            assert!(rows.len() < reference.Dst.DstBits.len() / 4, "{what}: {} rows written", rows.len());

            let mut s = reference.clone();
            reference_restore(&mut s, case, &rows);
            assert_eq!(s, case.state, "{what}: the reference's restore");
            let start = FastState::from_state(&case.state);
            let mut f = fast_pass(case);
            fast_restore(&mut f, &start, &rows);
            assert_eq!(f, start, "{what}: the fast model's restore");
        }
    }

    /// `--kernels`: names in the registry's order, `all`, the default set, and a clear error for an
    /// unknown name.
    #[test]
    fn kernels_are_selected_by_name() {
        let list = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(select(&list(&["relu", "exp"])).expect("known"), list(&["exp", "relu"]));
        assert_eq!(select(&[]).expect("default"), list(&DEFAULT_KERNELS));
        let all = select(&list(&["all"])).expect("all");
        assert_eq!(all.len(), sfpi::kernels::registry().len());
        let err = select(&list(&["exp", "nope"])).expect_err("unknown").to_string();
        assert!(err.contains("`nope`") && err.contains("sfpu-conformance kernel"), "{err}");
    }
}
