//! Differential property test, one instruction at a time, on both chips: for every opcode of the
//! chip and every value of its mode field (reserved ones included, as
//! `harness_sfpu::generate::modes` lists them, less the values the chip's encoding cannot
//! hold), random other fields and a random state of the chip biased towards the operand classes of
//! the golden vectors; the fast model (`FastModel`) must produce the reference's post-state and
//! `Outcome` bit for bit.
//!
//! The comparison is the golden vectors' own: the case becomes a vector with
//! `generate::to_vector` (the reference's result, its outcome, and the locations undefined or
//! unspecified behaviour taints) and runs with `vectors::run_vector(&FastModel, ..)`, so tainted
//! locations are skipped. Tainted cases are counted and printed per instruction at the end
//! (`-- --nocapture` to see the table).
//!
//! Every (opcode, mode) cell gets its own proptest runner with a fixed seed, so a default run is
//! the same everywhere. Environment:
//! * `SFPU_PROPTEST_CASES=N`: cases per cell (default 8 on Blackhole, 3 on Wormhole, whose cells
//!   differ from Blackhole's only in a few pages; `N=1000` for a long run, on both);
//! * `SFPU_PROPTEST_SEED=S`: another base seed (decimal or `0x` hex) to explore other cases;
//! * `SFPU_PROPTEST_OPS=SFPMAD,SFPLUT`: only these opcodes;
//! * `SFPU_PROPTEST_ARCH=wormhole`: only this chip.
//!
//! A failure shrinks to a minimal instruction and state and prints the instruction in `TTI_...`
//! form, the differing locations, and a YAML snippet to paste into a regressions file; its seed is
//! appended to `harness/sfpu/proptest-regressions/prop_instructions.txt` (commit it) and replayed
//! first on every later run.

use std::collections::BTreeMap;
use std::sync::Mutex;

use crate::prop_common::*;
use harness_sfpu::FastModel;
use harness_sfpu::campaign::regression_snippet;
use harness_sfpu::generate::operands::{Rng, fma_edges};
use harness_sfpu::generate::{Case, modes, per_lane_index, to_vector};
use harness_sfpu::vectors::{FORMAT, Status, Strictness, Vector, VectorFile, run_vector};
use proptest::prelude::*;
use proptest::test_runner::{TestCaseError, TestError, TestRunner};
use rayon::prelude::*;
use sfpu_reference::isa::{Arch, Instr, Opcode};

const PERSISTENCE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/proptest-regressions/prop_instructions.txt");

/// One generated input: the instruction, the state, and the extra choices that depend on the
/// instruction.
#[derive(Clone, Debug)]
struct Input {
    /// The chip.
    arch: Arch,
    /// The instruction, as its `TTI_...` text in `Debug` output.
    instr: Shown,
    parts: StateParts,
    /// For the FMA family: fill VA, VB, VC with the rounding-edge triples from this seed.
    fma: Option<u64>,
    /// Give `LReg[7]` lane-varying low bits 0..=15 (the indirect register modes), as
    /// `generate::per_lane_index` makes them.
    lreg7_index: bool,
}

/// An instruction whose `Debug` is its `TTI_...` text on its chip.
#[derive(Clone, Copy)]
struct Shown(Instr, Arch);

impl std::fmt::Debug for Shown {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let word = self.0.encode(self.1).unwrap_or_else(|_| self.0.encode_blackhole());
        write!(f, "{} (0x{word:08x}, {})", self.0.display(self.1), self.1)
    }
}

fn field(instr: &Instr, name: &str) -> Option<u32> {
    instr.field_values().iter().find(|(n, _)| *n == name).map(|&(_, v)| v)
}

fn is_fma_family(op: Opcode) -> bool {
    matches!(op, Opcode::SFPMAD | Opcode::SFPADD | Opcode::SFPMUL | Opcode::SFPADDI | Opcode::SFPMULI)
}

/// The case an input stands for.
fn case_of(op: Opcode, mode: &str, input: &Input) -> Case {
    let instr = input.instr.0;
    let mut pre = input.parts.build_on(input.arch);
    // Data where the instruction's Dst address points, beyond the low rows the state fills.
    if let Some(seed) = input.parts.dst_seed {
        let imm10 = match op {
            Opcode::SFPLOADMACRO => {
                (field(&instr, "Imm9").unwrap_or(0) << 1) | field(&instr, "VDHi").unwrap_or(0)
            }
            _ => field(&instr, "Imm10").unwrap_or(0),
        } as usize;
        let base = (imm10 + pre.Addressing.RWC.Dst as usize) & !15;
        fill_dst(&mut pre, seed ^ 1, base..base + 32);
        fill_dst(&mut pre, seed ^ 2, 2 * base..2 * base + 32);
    }
    if let Some(seed) = input.fma
        && is_fma_family(op)
    {
        let (a, b, c) = fma_edges(&mut Rng::new(seed));
        for (name, values) in [("VA", a), ("VB", b), ("VC", c)] {
            if let Some(r) = field(&instr, name).filter(|&r| r < 8) {
                pre.LReg[r as usize] = values;
            }
        }
    }
    if input.lreg7_index {
        // As the golden vectors' lane-by-lane cases name registers (each half of the lanes all
        // 16, never the lane's own number).
        pre.LReg[7] = std::array::from_fn(|l| (pre.LReg[7][l] & !15) | per_lane_index(l as u32, 0));
    }
    Case {
        name: "prop".to_string(),
        mode: Some(mode.to_string()),
        mode_label: None,
        tags: vec![],
        program: vec![instr],
        pre,
    }
}

fn input_strategy(arch: Arch, op: Opcode, mode: &str) -> impl Strategy<Value = Input> {
    (
        instr_of_on(arch, op, mode_fields(mode)),
        state_parts_on(arch),
        proptest::option::weighted(0.5, any::<u64>()),
        prop::bool::weighted(0.3),
    )
        .prop_map(move |(instr, parts, fma, lreg7_index)| Input {
            arch,
            instr: Shown(instr, arch),
            parts,
            fma,
            lreg7_index,
        })
}

/// Per-cell counts.
#[derive(Clone, Copy, Debug, Default)]
struct Counts {
    cases: u64,
    /// Cases with some location skipped as not promised (undefined or unspecified behaviour).
    tainted: u64,
    /// Of those, cases where everything was skipped (undefined behaviour).
    everything: u64,
}

fn file(arch: Arch) -> VectorFile {
    VectorFile { format: FORMAT.to_string(), arch, file: "prop".to_string(), vectors: vec![] }
}

fn vector_of(op: Opcode, mode: &str, input: &Input) -> Vector {
    let mut v = to_vector(op.name(), &case_of(op, mode, input));
    v.id = format!("{}/{mode}", op.name());
    v
}

/// Runs one (chip, opcode, mode) cell; returns its counts, or the failure report.
fn run_cell(arch: Arch, op: Opcode, mode: &str, cases: u32) -> Result<Counts, String> {
    let counts = Mutex::new(Counts::default());
    // Blackhole's cells keep the names (and seeds) they had before Wormhole was added.
    let name = match arch {
        Arch::Blackhole => format!("prop_instructions/{}/{mode}", op.name()),
        _ => format!("prop_instructions/{arch}/{}/{mode}", op.name()),
    };
    let mut runner = TestRunner::new(config(cases, &name, PERSISTENCE));
    let result = runner.run(&input_strategy(arch, op, mode), |input| {
        let v = vector_of(op, mode, &input);
        let r = run_vector(&FastModel, &file(arch), &v, Strictness::Silicon);
        {
            let mut c = counts.lock().unwrap_or_else(|e| e.into_inner());
            c.cases += 1;
            if let Some(skip) = &v.skip {
                c.tainted += 1;
                c.everything += skip.all as u64;
            }
        }
        match r.status {
            Status::Pass => Ok(()),
            Status::Fail(f) => Err(TestCaseError::fail(f.report)),
            Status::Unsupported(why) | Status::Error(why) => Err(TestCaseError::fail(why)),
            Status::NotApplicable(why) => Err(TestCaseError::fail(why.to_string())),
            Status::Interrupted => Err(TestCaseError::fail("interrupted")),
        }
    });
    match result {
        Ok(()) => Ok(counts.into_inner().unwrap_or_else(|e| e.into_inner())),
        Err(TestError::Fail(reason, input)) => {
            let v = vector_of(op, mode, &input);
            Err(format!(
                "{arch} {} {mode}: the fast model differs from the reference (minimal case after shrinking)\n\
                 instruction: {:?}\n{reason}\n\
                 replay: cargo test -p harness-sfpu --test it prop_instructions:: \
                 (the seed is in harness/sfpu/proptest-regressions/prop_instructions.txt; \
                 SFPU_PROPTEST_OPS={} narrows the run)\n\
                 regression vector (paste under `vectors:` of a regressions file):\n{}",
                op.name(),
                input.instr,
                op.name(),
                regression_snippet(&v, "prop_instructions"),
            ))
        }
        Err(TestError::Abort(why)) => Err(format!("{arch} {} {mode}: proptest aborted: {why}", op.name())),
    }
}

/// Every mode value of every instruction agrees on the fast model and the reference, on both
/// chips.
#[test]
fn every_instruction_and_mode_agrees() {
    let only: Vec<String> = std::env::var("SFPU_PROPTEST_OPS")
        .unwrap_or_default()
        .split(',')
        .map(|s| s.trim().to_ascii_uppercase())
        .filter(|s| !s.is_empty())
        .collect();
    let chips: Vec<Arch> = match std::env::var("SFPU_PROPTEST_ARCH") {
        Ok(a) if !a.trim().is_empty() => {
            vec![a.trim().parse().expect("SFPU_PROPTEST_ARCH: blackhole or wormhole")]
        }
        _ => Arch::ALL.to_vec(),
    };
    let cells: Vec<(Arch, Opcode, String)> = chips
        .iter()
        .flat_map(|&arch| {
            let only = &only;
            arch.opcodes()
                .iter()
                .filter(move |op| only.is_empty() || only.iter().any(|o| o == op.name()))
                .flat_map(move |&op| {
                    let modes: Vec<String> = match arch {
                        Arch::Blackhole => modes(op).into_iter().map(|(m, _)| m).collect(),
                        _ => modes_on(arch, op),
                    };
                    modes.into_iter().map(move |mode| (arch, op, mode))
                })
        })
        .collect();
    assert!(!cells.is_empty(), "SFPU_PROPTEST_OPS selects no opcode");
    // SFPCONFIG has 256 cells and SFPSTOCHRND 32 (16 on Wormhole); give them fewer cases each so
    // that every opcode gets a similar share of the time. Wormhole's cells get half Blackhole's
    // cases by default (3 rather than 8): most of its pages are Blackhole's.
    // Wormhole's SFPAND, SFPOR and SFPPUSHC have one cell where Blackhole has sixteen: four times
    // the cases.
    let cells_of = |arch: Arch, op: Opcode| cells.iter().filter(|c| c.0 == arch && c.1 == op).count();
    let per_cell = |arch: Arch, op: Opcode| {
        let n = match arch {
            Arch::Blackhole => cases(8),
            _ => cases(3),
        };
        match op {
            Opcode::SFPCONFIG => n.div_ceil(8).max(2),
            Opcode::SFPSTOCHRND => n.div_ceil(2).max(2),
            Opcode::SFPAND | Opcode::SFPOR | Opcode::SFPPUSHC if cells_of(arch, op) == 1 => n * 4,
            _ => n,
        }
    };
    // proptest's value trees for a whole state are deep: run on threads with large stacks.
    let pool = rayon::ThreadPoolBuilder::new().stack_size(STACK).build().expect("a thread pool");
    let results: Vec<(Arch, Opcode, String, Result<Counts, String>)> = pool.install(|| {
        cells
            .par_iter()
            .map(|(arch, op, mode)| {
                (*arch, *op, mode.clone(), run_cell(*arch, *op, mode, per_cell(*arch, *op)))
            })
            .collect()
    });

    let mut per_op: BTreeMap<(Arch, &str), (u64, Counts)> = BTreeMap::new();
    let mut failures = Vec::new();
    for (arch, op, _mode, r) in &results {
        let e = per_op.entry((*arch, op.name())).or_default();
        e.0 += 1;
        match r {
            Ok(c) => {
                e.1.cases += c.cases;
                e.1.tainted += c.tainted;
                e.1.everything += c.everything;
            }
            Err(report) => failures.push(report.clone()),
        }
    }
    eprintln!(
        "{:<10} {:<14} {:>6} {:>8} {:>8} {:>10}",
        "chip", "instruction", "modes", "cases", "tainted", "undefined"
    );
    let mut total = Counts::default();
    for ((arch, name), (cells, c)) in &per_op {
        eprintln!(
            "{:<10} {name:<14} {cells:>6} {:>8} {:>8} {:>10}",
            arch.to_string(),
            c.cases,
            c.tainted,
            c.everything
        );
        total.cases += c.cases;
        total.tainted += c.tainted;
        total.everything += c.everything;
    }
    eprintln!(
        "{:<10} {:<14} {:>6} {:>8} {:>8} {:>10}",
        "",
        "total",
        results.len(),
        total.cases,
        total.tainted,
        total.everything
    );
    assert!(
        failures.is_empty(),
        "{} of {} (instruction, mode) cells fail:\n\n{}",
        failures.len(),
        results.len(),
        failures.iter().take(5).cloned().collect::<Vec<_>>().join("\n\n")
    );
}
