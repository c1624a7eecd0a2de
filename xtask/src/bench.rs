//! `cargo xtask bench`: throughput of the reference and the fast model per instruction class and
//! on a mixed random stream, against native 32-lane baselines, in one run.
//!
//! For each chip (Blackhole and Wormhole by default; `--arch` narrows it) and every instruction
//! class (integer/bitwise, FP field, FMA family, conversions, cross-lane, predication,
//! SFPLOADMACRO) and a mixed random stream, a fixed program of instructions of that class is run
//! repeatedly on the same state by the reference (`sfpu_reference::step`, or its cycle-level
//! `Machine` for SFPLOADMACRO and the mixed stream, which need the schedule), one call per
//! instruction, and by the fast model on the program decoded once (`sfpu_fastpath::Program`:
//! `program::run_steps` / `FastMachine::run`, which return one merged `Outcome` per pass) and
//! again one call per instruction (`step` / `FastMachine::issue`, the "(per call)" row). Wormhole runs the Blackhole programs' instructions
//! that it can encode, on the same state made a Wormhole one. The SFPI kernels are measured too
//! (`bench/sfpi.rs`): a whole 32x32 tile of each kernel's lowered program (default: exp, log,
//! reciprocal, sigmoid, gelu_tanh, relu; `--kernels` chooses), the programs users simulate,
//! in tiles and instructions per second on both models and at each SIMD level; `--only sfpi` alone.
//! AMX `vecfp` is measured too
//! (`bench/amx.rs`: operands per second per chip profile, the FMA of every lane width and a mixed
//! stream; `--only amx` alone, left out with `--arch`).
//!
//! The native baselines are what a user would write to do the arithmetic natively: a 32-lane
//! `f32::mul_add` loop and a 32-lane `u32::wrapping_add` loop over the same register data (the
//! FMA's subnormal operands read as zero, as the SFPU reads them: raw, they made Intel CPUs take a
//! microcode assist per subnormal and the loop measure those, `native_fma_operands`), compiled
//! with the CPU's features: the same source is compiled for AVX-512F, for AVX2 + FMA and for the
//! baseline target, and the widest the CPU supports is chosen at run time
//! (`is_x86_feature_detected!`); the output names it. (On the baseline `x86_64` target `mul_add`
//! is a library call, several times slower than the FMA instruction.) Operands are read through
//! `std::hint::black_box` so that nothing is optimised away. One "instruction" of a baseline is
//! one 32-lane operation; lane-operations/s is 32 x instructions/s everywhere. The loops' registers
//! are 64-byte aligned rows within one page (`Placed`), and the fast model's state is
//! page-aligned (`PlacedState`), in every run: as stack locals, their place moved with each
//! process's randomised stack start, and the native loops' speed with it, by up to 1.9x.
//!
//! Method (criterion-like, without the dependency): every measurement warms up for a fifth of its
//! time, then takes 5 samples of `--time / 5` seconds each, each sample timing whole passes over
//! the program; the reported rate is the median of the samples. The targets also show the
//! range over the samples (`[slowest, fastest]`; for a ratio, the extreme quotients of the two
//! rates' samples; `samples_range` in the JSON, `fast_samples_range` per class): these machines
//! are shared, and a verdict whose range straddles its limit is the noise's as much as the
//! code's. Every pass starts from the state's LRegs (restored, 2 KB, inside the timed pass, for
//! every model alike): otherwise repeated passes feed results back into operands, which drift to
//! Inf and NaN. The FMA family drifts within one pass too (on the Blackhole program from this
//! state, all 256 lanes of LReg[0..8] are Inf or NaN after 128 of its 512 instructions), so its
//! pass is run as segments of [`FMA_SEGMENT`] instructions, each from the state's LRegs (the
//! restore counted in the time, for every model alike): measured otherwise, three quarters of its
//! instructions would only propagate NaNs (the test `fma_class_runs_on_mostly_finite_operands`).
//!
//! The fast model runs at the best SIMD level the CPU supports (`sfpu_fastpath::simd`: the
//! hand-written FMA kernels and the compiled copy of every instruction's model differ per level);
//! each class is measured again at every lower supported level in the same run (the "(Avx2)",
//! "(Portable)" rows; `fast_at_lower_simd_levels` in the JSON).
//!
//! The measured code must be optimised. `cargo xtask` builds xtask in the dev profile, where the
//! workspace crates are not optimised (the root Cargo.toml optimises only non-member
//! dependencies), so an unoptimised build re-executes itself as
//! `cargo run --release -p xtask -- bench ...` (the figures of an unoptimised build are
//! meaningless). `--in-process` measures the running binary as built (used by the tests).
//!
//! The FMA kernel alone (`sfpu_fastpath::fp::fma32_of` at the level in force, looped like the
//! native FMA loop over the same registers: no decode, operand selection, lane mask or masked
//! write) is measured per chip with the FMA family (the "(kernel alone)" row, `fma_kernel_alone`
//! in the JSON), and the native loop's ratio to it is printed after the targets: the FMA family's
//! ratio to native cannot go below it without a faster kernel. It is measured again with every
//! addend +0 (the "(kernel, c=+0)" row, `fma_kernel_alone.zero_addend`): SFPMULI's addend and
//! SFPMUL's as SFPI emits it (`LCONST_0`), for which the kernels skip the alignment.
//!
//! Comparing two builds (`--ab BASELINE`, [`ab`]): this build's fast model against another build
//! of xtask, in alternating child runs of `--fast-only` (the fast model alone, at the SIMD level in
//! force, each selected class and chip with its samples' range, and each SFPI kernel when `--only`
//! names `sfpi`, as a row `sfpi/<name>`), `--rounds` of them; it prints
//! both builds' rates and the median of the per-round ratios with their range. On these shared
//! machines the same binary's figures move by several per cent from one minute to the next (and
//! by a quarter while a neighbour is busy), so only runs made side by side compare two builds.
//!
//! `--indirect-index R` (with `--fast-only` or `--ab` only): every lane of the state's `LReg[7]`
//! names register R, as kernels that use the indirect modes (`INDIRECT_VA`, `INDIRECT_VD`) set it;
//! the bench state's own `LReg[7]` names a register per lane, the costliest case, on which the
//! targets are judged (the FMA family's program draws the modes' `Mod1` bits at random).
//!
//! Targets (per chip), printed as met, MISSED or not measured: the FMA family within 25x of the
//! native FMA loop of the same run; the integer/bitwise and FP-field classes within 3x of the
//! native `u32` loop; the mixed stream at least 40 M instructions/s; `diff_stream` under libFuzzer
//! at least 30,000 executions/s (measured by `cargo xtask fuzz --rate`, which builds and runs the
//! fuzz target, so "not measured" here).
//!
//! `--write-performance` also writes what it prints to `docs/performance.md`, the one place the
//! project's figures live, with the command, the commit and the host that produced them.

use std::hint::black_box;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{Context, Result, bail};

mod ab;
mod amx;
mod common;
mod sfpi;
use harness_sfpu::generate::operands::Rng;
use harness_sfpu::generate::random_case;
use harness_sfpu::generate::streams::{random_state, random_stream};
use serde_json::json;
use sfpu_fastpath::{FastMachine, FastState, Program, simd};
use sfpu_reference::isa::{Arch, Instr, Opcode, decode, parse_instr};
use sfpu_reference::state::{LANES, LaneConfig, Misc};
use sfpu_reference::{Machine, ResetValues, State};

pub use common::Args;
use common::{Rate, SAMPLES, measure, measure_samples, progress_bar};

/// Instructions per class program.
const PROGRAM_LEN: usize = 512;

/// Instructions the FMA family runs from the state's LRegs before they are restored (the
/// `diff_stream` fuzz target's stream length).
const FMA_SEGMENT: usize = 16;

/// The instruction classes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Class {
    Integer,
    FpField,
    Fma,
    Conversion,
    CrossLane,
    Predication,
    LoadMacro,
    Mixed,
}

impl Class {
    const ALL: [Class; 8] = [
        Class::Integer,
        Class::FpField,
        Class::Fma,
        Class::Conversion,
        Class::CrossLane,
        Class::Predication,
        Class::LoadMacro,
        Class::Mixed,
    ];

    fn key(self) -> &'static str {
        match self {
            Class::Integer => "integer",
            Class::FpField => "fp_field",
            Class::Fma => "fma",
            Class::Conversion => "conversion",
            Class::CrossLane => "cross_lane",
            Class::Predication => "predication",
            Class::LoadMacro => "loadmacro",
            Class::Mixed => "mixed",
        }
    }

    fn title(self) -> &'static str {
        match self {
            Class::Integer => "integer/bitwise",
            Class::FpField => "FP field",
            Class::Fma => "FMA family",
            Class::Conversion => "conversions",
            Class::CrossLane => "cross-lane",
            Class::Predication => "predication",
            Class::LoadMacro => "SFPLOADMACRO",
            Class::Mixed => "mixed stream",
        }
    }

    fn opcodes(self) -> &'static [Opcode] {
        use Opcode::*;
        match self {
            Class::Integer => &[SFPIADD, SFPAND, SFPOR, SFPXOR, SFPNOT, SFPSHFT, SFPLZ, SFPABS, SFPMOV],
            Class::FpField => &[SFPEXEXP, SFPEXMAN, SFPSETEXP, SFPSETMAN, SFPSETSGN, SFPDIVP2],
            Class::Fma => &[SFPMAD, SFPADD, SFPMUL, SFPADDI, SFPMULI],
            Class::Conversion => &[SFPCAST, SFPSTOCHRND, SFPLOAD, SFPSTORE],
            Class::CrossLane => &[SFPSHFT2, SFPTRANSP, SFPSWAP],
            Class::Predication => &[SFPSETCC, SFPPUSHC, SFPPOPC, SFPCOMPC, SFPENCC],
            Class::LoadMacro => &[SFPLOADMACRO],
            Class::Mixed => &[],
        }
    }

    /// The instructions run from the state's LRegs, restored before each: the whole program,
    /// except for the FMA family, whose results would otherwise drift to Inf and NaN (module
    /// docs).
    fn segment_len(self) -> usize {
        if self == Class::Fma { FMA_SEGMENT } else { PROGRAM_LEN }
    }

    /// Whether the class runs on the cycle-level machines (it needs the SFPLOADMACRO schedule).
    fn on_machine(self) -> bool {
        matches!(self, Class::LoadMacro | Class::Mixed)
    }
}

fn text(t: &str) -> Result<Instr> {
    parse_instr(Arch::Blackhole, t).map_err(|e| anyhow::anyhow!("{t}: {e}"))
}

/// The program of `class`: `PROGRAM_LEN` instructions, deterministic.
fn program(class: Class, rng: &mut Rng) -> Result<Vec<Instr>> {
    let mut p = Vec::with_capacity(PROGRAM_LEN);
    match class {
        Class::Predication => {
            // Well-formed blocks (the flag stack never over- or underflows), random conditions.
            while p.len() < PROGRAM_LEN {
                p.push(text("TTI_SFPENCC(1, 0, 0, 2)")?);
                p.push(text("TTI_SFPPUSHC(0, 0, 0, 0)")?);
                p.push(harness_sfpu::generate::build(
                    Opcode::SFPSETCC,
                    &[("VC", rng.below(8)), ("Mod1", rng.pick(&[0, 1, 2, 4, 6, 8])), ("Imm1", rng.below(2))],
                ));
                p.push(text("TTI_SFPPUSHC(0, 0, 0, 0)")?);
                p.push(harness_sfpu::generate::build(Opcode::SFPSETCC, &[("VC", rng.below(8)), ("Mod1", 4)]));
                p.push(text("TTI_SFPCOMPC(0, 0, 0, 0)")?);
                p.push(text("TTI_SFPPOPC(0, 0, 0, 0)")?);
                p.push(text("TTI_SFPCOMPC(0, 0, 0, 0)")?);
                p.push(text("TTI_SFPPOPC(0, 0, 0, 0)")?);
                p.push(text("TTI_SFPENCC(0, 0, 0, 2)")?);
            }
            p.truncate(PROGRAM_LEN);
        }
        Class::LoadMacro => {
            // A software pipeline that keeps SFPLOADMACRO's rules, as a kernel would
            // (`loadmacro_class_keeps_the_rules`): one SFPLOADMACRO per cycle, the two macros of
            // [`bench_state`] in turn, each loading into the next of LReg[0..8] (a register's
            // load, |x| or rounding, MAD and store are over before the load eight cycles later
            // reuses it), from and back to its own Dst row. (Until this class measured the rules
            // kept, its four macros broke them: three quarters of its instructions were reported
            // `loadmacro-rule`, a path no kernel takes.)
            for k in 0..PROGRAM_LEN as u32 {
                p.push(harness_sfpu::generate::build(
                    Opcode::SFPLOADMACRO,
                    &[
                        ("MacroIndex", k & 1),
                        ("VDLo", k & 3),
                        ("VDHi", (k >> 2) & 1),
                        ("Mod0", 3),
                        ("Imm9", (k * 2) & 31),
                    ],
                ));
            }
        }
        Class::Mixed => {
            while p.len() < PROGRAM_LEN {
                p.extend(random_stream(rng, 64, None).program);
            }
            p.truncate(PROGRAM_LEN);
        }
        _ => {
            let ops = class.opcodes();
            while p.len() < PROGRAM_LEN {
                let op = ops[rng.below(ops.len() as u32) as usize];
                p.push(random_case(op, rng).program[0]);
            }
        }
    }
    Ok(p)
}

/// The state every class runs on: the stream generator's state (mixed operand classes, random
/// predication), with lanes enabled, no backdoor loads, and a LoadMacroConfig for the
/// SFPLOADMACRO class's pipeline: macro 0 schedules |x| on Simple, macro 1 a rounding on Round,
/// then both `LReg[11] * x + LReg[12]` on MAD a cycle later and the store two cycles after that
/// (macros 2 and 3 repeat them).
///
/// With `indirect_index` (`--indirect-index`), `LReg[7]`'s low 4 bits are that register's number
/// in every lane (the upper bits stay the state's).
fn bench_state(rng: &mut Rng, indirect_index: Option<u32>) -> Result<State> {
    let mut s = random_state(rng);
    if let Some(r) = indirect_index {
        for w in &mut s.LReg[7] {
            *w = (*w & !15) | r;
        }
    }
    let templates = [
        text("TTI_SFPABS(0, 0, 0, 1)")?.encode_blackhole(),
        text("TTI_SFPMAD(11, 0, 12, 0, 0)")?.encode_blackhole(),
        text("TTI_SFP_STOCH_RND(0, 0, 0, 0, 0, 1)")?.encode_blackhole(),
        text("TTI_SFPSTORE(0, 0, 0, 0)")?.encode_blackhole(),
    ];
    // Byte i drives sub-unit i (Simple, MAD, Round, Store): bits 2:0 the selector (4 + i picks
    // template i, 3 a plain SFPSTORE), bits 5:3 the delay, bit 7 `VB = VD` (else `VC = VD`).
    // The delays (0, 1, 3) count from the cycle after the SFPLOADMACRO: the MAD reads the
    // Simple or Round result, the store the MAD's, whose two cycles are over by then.
    let sequences = [0x1B00_8D04u32, 0x1B06_8D00, 0x1B00_8D04, 0x1B06_8D00];
    for l in 0..LANES {
        s.UseLaneFlagsForLaneEnable[l] = false;
        s.LaneFlags[l] = true;
        s.LaneConfig[l] = LaneConfig::truncating(2); // DISABLE_BACKDOOR_LOAD
        s.LoadMacroConfig[l].InstructionTemplate = templates;
        s.LoadMacroConfig[l].Sequence = sequences;
        s.LoadMacroConfig[l].Misc = Misc::truncating(0x03);
    }
    Ok(s)
}

/// Whether this xtask was optimised, as the output says it.
fn build_kind() -> &'static str {
    if cfg!(debug_assertions) { "unoptimised (not representative)" } else { "release" }
}

fn reference_rate(class: Class, prog: &[Instr], state: &State, time: Duration) -> f64 {
    let mut s = state.clone();
    if class.on_machine() {
        let mut m = Machine::new();
        measure(time, || {
            s.LReg = state.LReg;
            for i in prog {
                black_box(m.issue(&mut s, black_box(i)));
            }
            black_box(m.drain(&mut s));
            prog.len() as u64
        })
    } else {
        measure(time, || {
            for segment in prog.chunks(class.segment_len()) {
                s.LReg = state.LReg;
                for i in segment {
                    black_box(sfpu_reference::step(&mut s, black_box(i)));
                }
            }
            prog.len() as u64
        })
    }
}

/// The fast model on a program decoded once ([`Program`]): `FastMachine::run` and `drain` for the
/// classes on the machine, `program::run_steps` for the others.
fn fast_rate(class: Class, prog: &[Instr], state: &State, time: Duration) -> Rate {
    let mut placed = PlacedState::new(state);
    let s = &mut placed.0;
    let lreg = s.lreg;
    if class.on_machine() {
        let program = Program::new(prog);
        let mut m = FastMachine::new();
        measure_samples(time, || {
            s.lreg = lreg;
            black_box(m.run(s, black_box(&program)));
            black_box(m.drain(s));
            prog.len() as u64
        })
    } else {
        let segments: Vec<Program> = prog.chunks(class.segment_len()).map(Program::new).collect();
        measure_samples(time, || {
            for segment in &segments {
                s.lreg = lreg;
                black_box(sfpu_fastpath::program::run_steps(s, black_box(segment)));
            }
            prog.len() as u64
        })
    }
}

/// The fast model's state as the bench runs it: page-aligned, on the heap, so that its registers
/// are where the native loops' are ([`Placed`]) in every run, not wherever the process's
/// randomised stack start put a local. In alternating runs this placement ran the integer/bitwise
/// and FP-field classes 3-9% faster than a stack local did, the others alike (CHANGELOG.md, "Fast
/// model tuning").
#[repr(C, align(4096))]
struct PlacedState(FastState);

impl PlacedState {
    fn new(state: &State) -> Box<PlacedState> {
        Box::new(PlacedState(FastState::from_state(state)))
    }
}

/// The fast model one call per instruction (`FastMachine::issue`, `step`), each returning its
/// `Outcome`: what a caller that looks at every instruction's outcome pays.
fn fast_per_call_rate(class: Class, prog: &[Instr], state: &State, time: Duration) -> f64 {
    let mut placed = PlacedState::new(state);
    let s = &mut placed.0;
    let lreg = s.lreg;
    if class.on_machine() {
        let mut m = FastMachine::new();
        measure(time, || {
            s.lreg = lreg;
            for i in prog {
                black_box(m.issue(s, black_box(i)));
            }
            black_box(m.drain(s));
            prog.len() as u64
        })
    } else {
        measure(time, || {
            for segment in prog.chunks(class.segment_len()) {
                s.lreg = lreg;
                for i in segment {
                    black_box(sfpu_fastpath::step(s, black_box(i)));
                }
            }
            prog.len() as u64
        })
    }
}

/// The register data the native loops use: the state's general registers, as `f32` and `u32`.
fn native_data(state: &State) -> [[u32; LANES]; 8] {
    std::array::from_fn(|r| state.LReg[r])
}

/// Which instructions the native baselines were compiled for: the widest the CPU offers, chosen at
/// run time (the same source compiled once per level, `#[target_feature]`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code, reason = "the x86-64 levels"))]
pub enum NativeLevel {
    /// AVX-512F (with AVX2 and FMA): 16 `f32` / `u32` lanes per instruction.
    Avx512,
    /// AVX2 and FMA: 8 lanes per instruction.
    Avx2Fma,
    /// The baseline target's instructions (on `x86_64`, SSE2: no fused multiply-add instruction,
    /// so `f32::mul_add` is a library call; on `aarch64`, Advanced SIMD, whose `fmla` is fused).
    Portable,
}

impl NativeLevel {
    /// What the CPU offers, best first.
    pub fn detect() -> NativeLevel {
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx512f")
                && std::arch::is_x86_feature_detected!("avx2")
                && std::arch::is_x86_feature_detected!("fma")
            {
                return NativeLevel::Avx512;
            }
            if std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma") {
                return NativeLevel::Avx2Fma;
            }
        }
        NativeLevel::Portable
    }

    /// The target features the loops were compiled with, as `rustc` names them.
    pub fn features(self) -> &'static str {
        match self {
            NativeLevel::Avx512 => "avx512f,avx2,fma",
            NativeLevel::Avx2Fma => "avx2,fma",
            NativeLevel::Portable if cfg!(target_arch = "aarch64") => {
                "baseline target (AArch64 Advanced SIMD, fused multiply-add)"
            }
            NativeLevel::Portable => "baseline target (no run-time features)",
        }
    }
}

/// Eight 32-lane registers where the native loops (and the FMA kernel alone) read and write them:
/// every row on 64-byte boundaries (one AVX-512 vector per half row, no load or store split across
/// two cache lines) and the whole 1 KiB in one page. On the stack their place would move with each
/// process's randomised stack start (16-byte steps), and the loops' speed with it: the
/// native `u32` add measured 483-916 Mi/s in 22 runs of one binary, about 900 only in the runs
/// where the input rows happened to be aligned and within a page, and the same figure every time with
/// address-space randomisation off (`setarch -R`). Placed, the loops run as fast as the CPU lets
/// them in every run, which is what a baseline is for (CHANGELOG.md, "Fast model tuning").
#[repr(C, align(1024))]
struct Placed<T>([[T; LANES]; 8]);

/// One pass of the native FMA baseline: `PROGRAM_LEN` 32-lane `f32::mul_add`s, cycling through the
/// registers, what a user would write to do the arithmetic natively. `#[inline(always)]` so each
/// `#[target_feature]` copy below compiles it with its own instructions.
#[inline(always)]
fn native_fma_pass(regs: &[[f32; LANES]; 8], out: &mut [[f32; LANES]; 8]) -> u64 {
    for k in 0..PROGRAM_LEN {
        // Copies of the operands (the compiler cannot see through `black_box`, so it could not
        // prove that references do not alias the destination, and would not vectorise).
        let (a, b, c) =
            (*black_box(&regs[k & 7]), *black_box(&regs[(k + 1) & 7]), *black_box(&regs[(k + 2) & 7]));
        let mut d = [0f32; LANES];
        for l in 0..LANES {
            d[l] = a[l].mul_add(b[l], c[l]);
        }
        out[(k + 3) & 7] = d;
        black_box(&mut out[(k + 3) & 7]);
    }
    PROGRAM_LEN as u64
}

/// One pass of the native integer baseline: `PROGRAM_LEN` 32-lane `u32::wrapping_add`s.
#[inline(always)]
fn native_add_pass(data: &[[u32; LANES]; 8], out: &mut [[u32; LANES]; 8]) -> u64 {
    for k in 0..PROGRAM_LEN {
        let (a, b) = (*black_box(&data[k & 7]), *black_box(&data[(k + 1) & 7]));
        let mut d = [0u32; LANES];
        for l in 0..LANES {
            d[l] = a[l].wrapping_add(b[l]);
        }
        out[(k + 2) & 7] = d;
        black_box(&mut out[(k + 2) & 7]);
    }
    PROGRAM_LEN as u64
}

#[cfg(target_arch = "x86_64")]
mod native_x86 {
    use super::{LANES, native_add_pass, native_fma_pass};

    #[target_feature(enable = "avx2,fma")]
    pub fn fma_avx2(regs: &[[f32; LANES]; 8], out: &mut [[f32; LANES]; 8]) -> u64 {
        native_fma_pass(regs, out)
    }

    #[target_feature(enable = "avx512f,avx2,fma")]
    pub fn fma_avx512(regs: &[[f32; LANES]; 8], out: &mut [[f32; LANES]; 8]) -> u64 {
        native_fma_pass(regs, out)
    }

    #[target_feature(enable = "avx2,fma")]
    pub fn add_avx2(data: &[[u32; LANES]; 8], out: &mut [[u32; LANES]; 8]) -> u64 {
        native_add_pass(data, out)
    }

    #[target_feature(enable = "avx512f,avx2,fma")]
    pub fn add_avx512(data: &[[u32; LANES]; 8], out: &mut [[u32; LANES]; 8]) -> u64 {
        native_add_pass(data, out)
    }
}

/// The FMA pass compiled for `level` (which must be what [`NativeLevel::detect`] found or less).
#[allow(unsafe_code, reason = "calls of #[target_feature] functions after run-time detection")]
fn native_fma_dispatch(level: NativeLevel, regs: &[[f32; LANES]; 8], out: &mut [[f32; LANES]; 8]) -> u64 {
    match level {
        // SAFETY: `level` comes from `NativeLevel::detect`, which checked that the CPU has every
        // feature the function is compiled with.
        #[cfg(target_arch = "x86_64")]
        NativeLevel::Avx512 => unsafe { native_x86::fma_avx512(regs, out) },
        // SAFETY: as above.
        #[cfg(target_arch = "x86_64")]
        NativeLevel::Avx2Fma => unsafe { native_x86::fma_avx2(regs, out) },
        _ => native_fma_pass(regs, out),
    }
}

/// The add pass compiled for `level`.
#[allow(unsafe_code, reason = "calls of #[target_feature] functions after run-time detection")]
fn native_add_dispatch(level: NativeLevel, data: &[[u32; LANES]; 8], out: &mut [[u32; LANES]; 8]) -> u64 {
    match level {
        // SAFETY: `level` comes from `NativeLevel::detect` (see `native_fma_dispatch`).
        #[cfg(target_arch = "x86_64")]
        NativeLevel::Avx512 => unsafe { native_x86::add_avx512(data, out) },
        // SAFETY: as above.
        #[cfg(target_arch = "x86_64")]
        NativeLevel::Avx2Fma => unsafe { native_x86::add_avx2(data, out) },
        _ => native_add_pass(data, out),
    }
}

/// The native FMA loop's operands: the registers' words as the SFPU reads them, with every
/// subnormal read as a zero of its sign (both chips' FMAs treat denormal inputs as zero). Fed raw,
/// a quarter of the bench state's words are subnormal, and CPUs that take a microcode assist for a
/// subnormal operand or result (Intel's, with MXCSR's DAZ and FTZ clear, which Rust leaves them)
/// then run the loop 36 times slower than their FMA unit does (11 against 400 Mi/s on a Xeon of
/// the pool): the baseline would measure the assists, not the arithmetic. With these operands no
/// result of the loop is subnormal either (`native_fma_loop_sees_no_subnormal`).
fn native_fma_operands(data: &[[u32; LANES]; 8]) -> [[f32; LANES]; 8] {
    std::array::from_fn(|r| {
        std::array::from_fn(|l| {
            let v = f32::from_bits(data[r][l]);
            if v.is_subnormal() { 0f32.copysign(v) } else { v }
        })
    })
}

/// 32-lane `f32::mul_add`, one "instruction" per 32 lanes, compiled for `level`, on
/// [`native_fma_operands`].
fn native_fma_rate(level: NativeLevel, data: &[[u32; LANES]; 8], time: Duration) -> Rate {
    let regs = Placed(native_fma_operands(data));
    let mut out = Placed([[0f32; LANES]; 8]);
    measure_samples(time, || native_fma_dispatch(level, &regs.0, &mut out.0))
}

/// 32-lane `u32::wrapping_add`, one "instruction" per 32 lanes, compiled for `level`.
fn native_add_rate(level: NativeLevel, data: &[[u32; LANES]; 8], time: Duration) -> Rate {
    let data = Placed(*data);
    let mut out = Placed([[0u32; LANES]; 8]);
    measure_samples(time, || native_add_dispatch(level, &data.0, &mut out.0))
}

/// The fast model's FMA kernel alone (`sfpu_fastpath::fp::fma32_of`, the SIMD level in force),
/// looped like the native FMA loop: `PROGRAM_LEN` calls over the same registers, raw (the kernel
/// reads subnormals as zero itself), each result independent of the others. No decode, lane
/// mask, operand selection or masked write: how close the FMA family could come to the native
/// loop with this kernel, which [`fast_rate`]'s FMA family figure is then measured against.
///
/// With `zero_addend` every `c` is +0 instead: SFPMULI's addend, and `LCONST_0`, the addend of
/// every SFPMUL that SFPI emits (the family's random operands seldom give a vector of zeros).
fn kernel_fma_rate(arch: Arch, data: &[[u32; LANES]; 8], zero_addend: bool, time: Duration) -> f64 {
    let (data, mut out) = (Placed(*data), Placed([[0u32; LANES]; 8]));
    let (data, out) = (&data.0, &mut out.0);
    let zero = [0u32; LANES];
    measure(time, || {
        for k in 0..PROGRAM_LEN {
            sfpu_fastpath::fp::fma32_of(
                arch,
                black_box(&data[k & 7]),
                black_box(&data[(k + 1) & 7]),
                black_box(if zero_addend { &zero } else { &data[(k + 2) & 7] }),
                &mut out[(k + 3) & 7],
            );
            black_box(&mut out[(k + 3) & 7]);
        }
        PROGRAM_LEN as u64
    })
}

/// One SFPI kernel's figures on one chip ([`sfpi`]): instructions per second of the reference and
/// the fast model, and of the fast model at each lower SIMD level.
struct KernelResult<'a> {
    case: &'a sfpi::Case,
    reference: f64,
    fast: Rate,
    fast_lower: Vec<(simd::Level, f64)>,
}

/// One class's figures on one chip, in instructions per second.
struct ClassResult {
    arch: Arch,
    class: Class,
    reference: f64,
    fast: Rate,
    /// The fast model again at each lower SIMD level this CPU supports (`sfpu_fastpath::simd`;
    /// AVX2, portable).
    fast_lower: Vec<(simd::Level, f64)>,
    /// The fast model one call per instruction, at the selected level.
    fast_per_call: f64,
    /// The FMA family only: its kernel alone ([`kernel_fma_rate`]), on the family's operands and
    /// with every addend +0.
    kernel: Option<(f64, f64)>,
}

/// What a target compares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Unit {
    /// A ratio of two rates of this run (`x`).
    Ratio,
    /// Million instructions per second.
    MegaPerSecond,
    /// Executions per second.
    PerSecond,
}

/// One speed target.
struct Target {
    name: String,
    description: String,
    /// The measured figure; `None` when it was not measured (see `why_not`).
    value: Option<f64>,
    /// The figure's range over the samples: a rate's slowest and fastest sample; for a ratio,
    /// the numerator's slowest over the denominator's fastest and the other way round. The
    /// verdict is the median's (`value`); this shows how far the machine's noise moved it.
    range: Option<(f64, f64)>,
    unit: Unit,
    /// The limit and whether the figure must be at least (`true`) or at most (`false`) it.
    limit: f64,
    at_least: bool,
    /// Why the figure is not measured in this run.
    why_not: &'static str,
}

impl Target {
    /// Whether the target is met; `None` when it was not measured.
    fn met(&self) -> Option<bool> {
        self.value.map(|r| if self.at_least { r >= self.limit } else { r <= self.limit })
    }

    /// `met`, `MISSED` or `not measured (...)`.
    fn verdict(&self) -> String {
        match self.met() {
            Some(true) => "met".to_string(),
            Some(false) => "MISSED".to_string(),
            None => format!("not measured ({})", self.why_not),
        }
    }

    /// The range as `[lo, hi]` in the figure's unit, or nothing.
    fn show_range(&self) -> String {
        self.range.map_or_else(String::new, |(lo, hi)| format!("[{lo:.2}, {hi:.2}]"))
    }

    fn show(&self, v: f64) -> String {
        match self.unit {
            Unit::Ratio => format!("{v:.2}x"),
            Unit::MegaPerSecond => format!("{v:.2} Mi/s"),
            Unit::PerSecond => format!("{v:.0}/s"),
        }
    }
}

/// The FMA family's target: at most this many times slower than the native f32 FMA loop of the
/// same run (a ratio, so that it does not depend on the host's speed).
const FMA_VS_NATIVE: f64 = 25.0;

/// Why a class's target has no figure.
const LEFT_OUT: &str = "--only or --arch left out a class it needs";

/// The speed targets (`fastpath/README.md`), from one run's figures.
fn targets(results: &[ClassResult], arches: &[Arch], native_fma: Rate, native_add: Rate) -> Vec<Target> {
    let result = |a: Arch, c: Class| results.iter().find(|r| r.arch == a && r.class == c);
    let fast = |a: Arch, c: Class| result(a, c).map(|r| r.fast.median);
    // The ranges of a rate in Mi/s and of a native rate over a fast one.
    let mega = |a: Arch, c: Class| result(a, c).map(|r| (r.fast.lo / 1e6, r.fast.hi / 1e6));
    let ratio = |n: Rate, a: Arch, c: Class| result(a, c).map(|r| (n.lo / r.fast.hi, n.hi / r.fast.lo));
    let mut t = Vec::new();
    for &a in arches {
        t.push(Target {
            name: format!("fma_vs_native/{a}"),
            description: format!("native f32 FMA / fast FMA family, {a}"),
            value: fast(a, Class::Fma).map(|f| native_fma.median / f),
            range: ratio(native_fma, a, Class::Fma),
            unit: Unit::Ratio,
            limit: FMA_VS_NATIVE,
            at_least: false,
            why_not: LEFT_OUT,
        });
        for (class, key) in [(Class::Integer, "integer"), (Class::FpField, "fp_field")] {
            t.push(Target {
                name: format!("{key}_vs_native/{a}"),
                description: format!("native u32 add / fast {}, {a}", class.title()),
                value: fast(a, class).map(|f| native_add.median / f),
                range: ratio(native_add, a, class),
                unit: Unit::Ratio,
                limit: 3.0,
                at_least: false,
                why_not: LEFT_OUT,
            });
        }
        t.push(Target {
            name: format!("mixed_rate/{a}"),
            description: format!("fast mixed stream (machine), {a}"),
            value: fast(a, Class::Mixed).map(|f| f / 1e6),
            range: mega(a, Class::Mixed),
            unit: Unit::MegaPerSecond,
            limit: 40.0,
            at_least: true,
            why_not: LEFT_OUT,
        });
    }
    t.push(Target {
        name: "diff_stream_libfuzzer".to_string(),
        description: "diff_stream (16 instructions) under libFuzzer, one core".to_string(),
        value: None,
        range: None,
        unit: Unit::PerSecond,
        limit: 30_000.0,
        at_least: true,
        why_not: "it needs the fuzz build: `cargo xtask fuzz --rate` measures it; the oracle alone: `cargo xtask fuzz --throughput`",
    });
    t
}

/// The bench state for `arch`: [`bench_state`]'s contents in a state of that chip, with its
/// SFPLOADMACRO templates encoded for it and Blackhole-only addressing bits clear.
fn state_for(arch: Arch, bh: &State) -> Result<State> {
    if arch == Arch::Blackhole {
        return Ok(bh.clone());
    }
    let mut s = State::reset(arch, &ResetValues::ZEROS);
    s.LReg = bh.LReg;
    s.LaneFlags = bh.LaneFlags;
    s.UseLaneFlagsForLaneEnable = bh.UseLaneFlagsForLaneEnable;
    s.FlagStack = bh.FlagStack;
    s.LaneConfig = bh.LaneConfig;
    s.PRNG = bh.PRNG;
    s.Dst = bh.Dst.clone();
    s.Addressing = bh.Addressing;
    s.Addressing.DEST_ACCESS_CFG_remap_addrs = false;
    s.Addressing.DEST_ACCESS_CFG_swizzle_32b = false;
    let mut config = bh.LoadMacroConfig[0];
    for t in &mut config.InstructionTemplate {
        let i = decode(Arch::Blackhole, *t).map_err(|e| anyhow::anyhow!("template 0x{t:08x}: {e}"))?;
        *t = i.encode(arch).map_err(|e| anyhow::anyhow!("template {i:?} on {arch}: {e}"))?;
    }
    s.LoadMacroConfig = [config; LANES];
    Ok(s)
}

/// The program of `class` for `arch`: the Blackhole generator's instructions that `arch` can
/// encode (an instruction another chip cannot encode would only be refused as `not-on-chip`).
fn program_for(arch: Arch, class: Class, rng: &mut Rng) -> Result<Vec<Instr>> {
    if arch == Arch::Blackhole {
        return program(class, rng);
    }
    let mut p = Vec::with_capacity(PROGRAM_LEN);
    for _ in 0..64 {
        p.extend(program(class, rng)?.into_iter().filter(|i| i.encode(arch).is_ok()));
        if p.len() >= PROGRAM_LEN {
            p.truncate(PROGRAM_LEN);
            return Ok(p);
        }
    }
    bail!("{}: the generator gives too few instructions {arch} can encode", class.title())
}

/// Re-executes the optimised build with the same arguments.
fn reexec_release() -> Result<ExitCode> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    let args: Vec<String> = std::env::args().skip(1).collect();
    errln!(
        "bench: this xtask is not optimised; running `cargo run --release -p xtask -- {}`",
        args.join(" ")
    );
    let status = std::process::Command::new(cargo)
        .args(["run", "--release", "--quiet", "-p", "xtask", "--"])
        .args(&args)
        .arg("--in-process")
        .status()
        .context("running cargo for the optimised build")?;
    Ok(match status.code() {
        Some(0) => ExitCode::SUCCESS,
        Some(c) => ExitCode::from(c.clamp(1, 255) as u8),
        None => ExitCode::from(2),
    })
}

/// Each class's program for one chip.
type Programs = Vec<(Class, Vec<Instr>)>;

/// `--fast-only`: each selected class's fast-model rate on each chip, at the SIMD level in force.
fn fast_only(
    args: &Args,
    runs: &[(Arch, State, Programs)],
    kernels: &[sfpi::Case],
    selected: &dyn Fn(&Class) -> bool,
    time: Duration,
) -> Result<ExitCode> {
    let count =
        runs.iter().map(|(_, _, p)| p.iter().filter(|(c, _)| selected(c)).count() as u64).sum::<u64>()
            + kernels.len() as u64;
    let bar = progress_bar(args.quiet, count);
    // (chip, key, title, rate): the classes, then the SFPI kernels (`sfpi/<name>`).
    let mut results: Vec<(Arch, String, String, Rate)> = Vec::new();
    for (arch, state, programs) in runs {
        for (class, prog) in programs.iter().filter(|(c, _)| selected(c)) {
            bar.set_message(format!("{arch} {}: fast model", class.title()));
            let rate = fast_rate(*class, prog, state, time);
            results.push((*arch, class.key().to_string(), class.title().to_string(), rate));
            bar.inc(1);
        }
    }
    for case in kernels {
        bar.set_message(format!("{} SFPI {}: fast model", case.arch, case.name));
        let rate = sfpi::fast_rate(case, &sfpi::written_rows(case), time);
        results.push((case.arch, format!("sfpi/{}", case.name), format!("SFPI {}", case.name), rate));
        bar.inc(1);
    }
    bar.finish_and_clear();
    let build = build_kind();
    if args.json {
        let out = json!({
            "fast_only": true,
            "build": build,
            "simd": format!("{:?}", simd::level()),
            "time_per_measurement_s": args.time,
            "samples": SAMPLES,
            "indirect_index": args.indirect_index,
            "results": results.iter().map(|(arch, key, title, r)| json!({
                "arch": arch.to_string(),
                "class": key,
                "title": title,
                "instructions_per_s": r.median,
                "samples_range": [r.lo, r.hi],
            })).collect::<Vec<_>>(),
        });
        outln!("{}", serde_json::to_string_pretty(&out)?);
        return Ok(ExitCode::SUCCESS);
    }
    outln!(
        "cargo xtask bench --fast-only ({build} build, SIMD {:?}; {:.2} s per measurement, median of \
         {SAMPLES} samples [slowest, fastest]{})",
        simd::level(),
        args.time,
        match args.indirect_index {
            Some(r) => format!("; every lane's LReg[7] names LReg[{r}]"),
            None => String::new(),
        }
    );
    for (arch, _, title, r) in &results {
        outln!(
            "{:<10} {:<16} {:>10.3} Mi/s  [{:.3}, {:.3}]",
            arch.to_string(),
            title,
            r.median / 1e6,
            r.lo / 1e6,
            r.hi / 1e6
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// `cargo xtask bench`.
pub fn main(args: Args) -> Result<ExitCode> {
    if !(args.time.is_finite() && args.time > 0.0 && args.time <= 600.0) {
        bail!("--time must be a number of seconds in (0, 600], got {}", args.time);
    }
    if args.indirect_index.is_some() && !args.fast_only && args.ab.is_none() {
        bail!(
            "--indirect-index changes the state the targets are measured on: use it with --fast-only or --ab"
        );
    }
    if cfg!(debug_assertions) && !args.in_process {
        return reexec_release();
    }
    for key in &args.only {
        if key != "amx" && key != "sfpi" && !Class::ALL.iter().any(|c| c.key() == key) {
            let keys: Vec<&str> = Class::ALL.iter().map(|c| c.key()).chain(["sfpi", "amx"]).collect();
            bail!("--only: unknown class `{key}` (one of {})", keys.join(", "));
        }
        if key == "amx" && (args.fast_only || args.ab.is_some()) {
            bail!("--only amx: --fast-only and --ab measure the SFPU fast model only");
        }
    }
    // The SFPI kernels (bench/sfpi.rs): by default in the whole bench, and in --fast-only and
    // --ab runs when --only names them (so that a build from before they existed compares).
    let named = |key: &str| args.only.iter().any(|k| k == key);
    let with_sfpi = named("sfpi") || (args.only.is_empty() && !args.fast_only && args.ab.is_none());
    if !args.kernels.is_empty() && !with_sfpi {
        bail!(
            "--kernels: the SFPI kernels are not measured in this run ({})",
            if args.only.is_empty() {
                "--fast-only and --ab measure them when --only names sfpi"
            } else {
                "add sfpi to --only"
            }
        );
    }
    let kernel_names = if with_sfpi { sfpi::select(&args.kernels)? } else { Vec::new() };
    if let Some(baseline) = &args.ab {
        return ab::main(&args, baseline, kernel_names.len());
    }
    // AMX vecfp (bench/amx.rs): unless --only leaves it out or --arch names SFPU chips only.
    let with_amx = args.arch.is_empty() && (args.only.is_empty() || named("amx"));
    let arches: Vec<Arch> = if args.arch.is_empty() {
        Arch::ALL.to_vec()
    } else {
        Arch::ALL.iter().copied().filter(|a| args.arch.contains(a)).collect()
    };
    let kernel_cases = sfpi::cases(&kernel_names, &arches)?;
    let selected = |c: &Class| args.only.is_empty() || args.only.iter().any(|k| k == c.key());
    let time = Duration::from_secs_f64(args.time);
    let mut rng = Rng::stream(0x5F9C_BE4C_0000_0001, "bench");
    let bh_state = bench_state(&mut rng, args.indirect_index)?;
    let mut runs: Vec<(Arch, State, Programs)> = Vec::new();
    for &arch in &arches {
        // The same seed per chip: Wormhole's programs are Blackhole's that it can encode.
        let mut rng = Rng::stream(0x5F9C_BE4C_0000_0002, "bench/programs");
        let programs = Class::ALL
            .iter()
            .map(|&c| Ok((c, program_for(arch, c, &mut rng)?)))
            .collect::<Result<Vec<_>>>()?;
        runs.push((arch, state_for(arch, &bh_state)?, programs));
    }
    if args.fast_only {
        return fast_only(&args, &runs, &kernel_cases, &selected, time);
    }
    let native_level = NativeLevel::detect();

    let measurements = runs
        .iter()
        .map(|(_, _, p)| {
            p.iter()
                .filter(|(c, _)| selected(c))
                .map(|(c, _)| 2 + simd::Level::supported().len() as u64 + u64::from(*c == Class::Fma))
                .sum::<u64>()
        })
        .sum::<u64>()
        + kernel_cases.len() as u64 * (1 + simd::Level::supported().len() as u64)
        + 2
        + if with_amx { amx::measurements() } else { 0 };
    let bar = progress_bar(args.quiet, measurements);
    let mut results = Vec::new();
    for (arch, state, programs) in &runs {
        for (class, prog) in programs.iter().filter(|(c, _)| selected(c)) {
            bar.set_message(format!("{arch} {}: reference", class.title()));
            let reference = reference_rate(*class, prog, state, time);
            bar.inc(1);
            bar.set_message(format!("{arch} {}: fast model", class.title()));
            let fast = fast_rate(*class, prog, state, time);
            bar.inc(1);
            let level = simd::level();
            let mut fast_lower = Vec::new();
            for lower in simd::Level::supported().into_iter().rev().filter(|&l| l < level) {
                bar.set_message(format!("{arch} {}: fast model, {lower:?} SIMD", class.title()));
                simd::set_level(lower);
                fast_lower.push((lower, fast_rate(*class, prog, state, time).median));
                bar.inc(1);
            }
            simd::set_level(level);
            bar.set_message(format!("{arch} {}: fast model, one call per instruction", class.title()));
            let fast_per_call = fast_per_call_rate(*class, prog, state, time);
            bar.inc(1);
            let kernel = (*class == Class::Fma).then(|| {
                bar.set_message(format!("{arch} FMA kernel alone"));
                let k = kernel_fma_rate(*arch, &native_data(state), false, time);
                let z = kernel_fma_rate(*arch, &native_data(state), true, time);
                bar.inc(1);
                (k, z)
            });
            results.push(ClassResult {
                arch: *arch,
                class: *class,
                reference,
                fast,
                fast_lower,
                fast_per_call,
                kernel,
            });
        }
    }
    let mut kernel_results = Vec::new();
    for case in &kernel_cases {
        let rows = sfpi::written_rows(case);
        bar.set_message(format!("{} SFPI {}: reference", case.arch, case.name));
        let reference = sfpi::reference_rate(case, &rows, time);
        bar.inc(1);
        bar.set_message(format!("{} SFPI {}: fast model", case.arch, case.name));
        let fast = sfpi::fast_rate(case, &rows, time);
        bar.inc(1);
        let level = simd::level();
        let mut fast_lower = Vec::new();
        for lower in simd::Level::supported().into_iter().rev().filter(|&l| l < level) {
            bar.set_message(format!("{} SFPI {}: fast model, {lower:?} SIMD", case.arch, case.name));
            simd::set_level(lower);
            fast_lower.push((lower, sfpi::fast_rate(case, &rows, time).median));
            bar.inc(1);
        }
        simd::set_level(level);
        kernel_results.push(KernelResult { case, reference, fast, fast_lower });
    }
    let data = native_data(&bh_state);
    bar.set_message(format!("native f32 FMA ({})", native_level.features()));
    let native_fma_samples = native_fma_rate(native_level, &data, time);
    let native_fma = native_fma_samples.median;
    bar.inc(1);
    bar.set_message(format!("native u32 add ({})", native_level.features()));
    let native_add_samples = native_add_rate(native_level, &data, time);
    let native_add = native_add_samples.median;
    bar.inc(1);
    let amx_results = if with_amx {
        amx::run(time, |what| {
            bar.set_message(what.to_string());
            bar.inc(1);
        })
    } else {
        Vec::new()
    };
    bar.finish_and_clear();

    let targets = targets(&results, &arches, native_fma_samples, native_add_samples);
    let build = build_kind();

    if args.json {
        let figures = |ips: f64| json!({ "instructions_per_s": ips, "lane_ops_per_s": ips * LANES as f64 });
        let chips: Vec<serde_json::Value> = arches
            .iter()
            .map(|&a| {
                let classes: Vec<serde_json::Value> = results
                    .iter()
                    .filter(|r| r.arch == a)
                    .map(|r| {
                        json!({
                            "class": r.class.key(),
                            "title": r.class.title(),
                            "opcodes": r.class.opcodes().iter().map(|o| o.name()).collect::<Vec<_>>(),
                            "driver": if r.class.on_machine() { "machine" } else { "step" },
                            "reference": figures(r.reference),
                            "fast": figures(r.fast.median),
                            "fast_samples_range": [r.fast.lo, r.fast.hi],
                            "speedup": r.fast.median / r.reference,
                            "simd_level": format!("{:?}", simd::level()),
                            "fast_per_call": figures(r.fast_per_call),
                            "fast_at_lower_simd_levels": r.fast_lower.iter().map(|(l, v)| json!({
                                "level": format!("{l:?}"),
                                "fast": figures(*v),
                            })).collect::<Vec<_>>(),
                        })
                    })
                    .collect();
                let kernel =
                    results.iter().filter(|r| r.arch == a).find_map(|r| Some((r.fast.median, r.kernel?)));
                let kernel = kernel.map(|(family, (v, z))| {
                    json!({
                        "what": "sfpu_fastpath::fp::fma32_of alone, independent 32-lane triples",
                        "fast": figures(v),
                        "native_f32_fma_over_kernel": native_fma / v,
                        "fma_family_over_kernel": family / v,
                        "zero_addend": {
                            "what": "the same with every addend +0 (SFPMULI; SFPMUL with LCONST_0)",
                            "fast": figures(z),
                            "native_f32_fma_over_kernel": native_fma / z,
                        },
                    })
                });
                json!({ "arch": a.to_string(), "classes": classes, "fma_kernel_alone": kernel })
            })
            .collect();
        let out = json!({
            "build": build,
            "simd": format!("{:?}", simd::level()),
            "time_per_measurement_s": args.time,
            "samples": SAMPLES,
            "program_len": PROGRAM_LEN,
            "chips": chips,
            "sfpi_kernels": kernel_results.iter().map(|r| {
                let len = r.case.program.len() as f64;
                let tile = |ips: f64| json!({ "instructions_per_s": ips, "tiles_per_s": ips / len });
                json!({
                    "arch": r.case.arch.to_string(),
                    "kernel": r.case.name,
                    "instructions_per_tile": r.case.program.len(),
                    "fma_family_per_tile": r.case.fma_family,
                    "sfpnop_per_tile": r.case.nops,
                    "reference": tile(r.reference),
                    "fast": tile(r.fast.median),
                    "fast_samples_range": [r.fast.lo, r.fast.hi],
                    "speedup": r.fast.median / r.reference,
                    "fast_at_lower_simd_levels": r.fast_lower.iter().map(|(l, v)| json!({
                        "level": format!("{l:?}"),
                        "fast": tile(*v),
                    })).collect::<Vec<_>>(),
                })
            }).collect::<Vec<_>>(),
            "amx": amx_results.iter().map(|r| json!({
                "chip": r.chip.name(),
                "class": r.class,
                "reference_operands_per_s": r.reference,
                "fast_operands_per_s": r.fast,
                "speedup": r.fast / r.reference,
            })).collect::<Vec<_>>(),
            "native": {
                "level": format!("{native_level:?}"),
                "features": native_level.features(),
                "f32_mul_add": figures(native_fma),
                "f32_mul_add_samples_range": [native_fma_samples.lo, native_fma_samples.hi],
                "u32_wrapping_add": figures(native_add),
                "u32_wrapping_add_samples_range": [native_add_samples.lo, native_add_samples.hi],
            },
            "targets": targets.iter().map(|t| json!({
                "name": t.name,
                "description": t.description,
                "value": t.value,
                "samples_range": t.range.map(|(lo, hi)| [lo, hi]),
                "unit": match t.unit { Unit::Ratio => "ratio", Unit::MegaPerSecond => "M instructions/s", Unit::PerSecond => "per s" },
                "limit": t.limit,
                "at_least": t.at_least,
                "measured": t.value.is_some(),
                "met": t.met(),
                "not_measured_because": t.value.is_none().then_some(t.why_not),
            })).collect::<Vec<_>>(),
        });
        outln!("{}", serde_json::to_string_pretty(&out)?);
        return Ok(ExitCode::SUCCESS);
    }

    let m = |ips: f64| ips / 1e6;
    // What follows is printed, and with --write-performance also written to docs/performance.md.
    let mut text = String::new();
    macro_rules! outln {
        () => {
            text.push('\n')
        };
        ($($arg:tt)*) => {{
            use std::fmt::Write as _;
            let _ = writeln!(text, $($arg)*);
        }};
    }
    outln!(
        "cargo xtask bench ({build} build; {:.2} s per measurement, median of {SAMPLES} samples)",
        args.time
    );
    // A chip's table only where a class of it was measured (not for `--only sfpi` or `amx`).
    for &a in arches.iter().filter(|&&a| results.iter().any(|r| r.arch == a)) {
        outln!();
        outln!(
            "{:<16} {:>14} {:>14} {:>10} {:>16} {:>16}",
            a.to_string(),
            "reference Mi/s",
            "fast Mi/s",
            "fast/ref",
            "ref Mlane-op/s",
            "fast Mlane-op/s"
        );
        for r in results.iter().filter(|r| r.arch == a) {
            outln!(
                "{:<16} {:>14.3} {:>14.3} {:>9.1}x {:>16.1} {:>16.1}",
                r.class.title(),
                m(r.reference),
                m(r.fast.median),
                r.fast.median / r.reference,
                m(r.reference) * LANES as f64,
                m(r.fast.median) * LANES as f64,
            );
            let per_call = ("  (per call)".to_string(), r.fast_per_call);
            let lower = r.fast_lower.iter().map(|&(level, p)| (format!("  ({level:?})"), p));
            let kernel = r.kernel.into_iter().flat_map(|(k, z)| {
                [("  (kernel alone)".to_string(), k), ("  (kernel, c=+0)".to_string(), z)]
            });
            for (label, p) in std::iter::once(per_call).chain(lower).chain(kernel) {
                outln!(
                    "{:<16} {:>14} {:>14.3} {:>9.1}x {:>16} {:>16.1}",
                    label,
                    "",
                    m(p),
                    p / r.reference,
                    "",
                    m(p) * LANES as f64,
                );
            }
        }
    }
    if !kernel_results.is_empty() {
        outln!();
        let lower: Vec<String> =
            kernel_results[0].fast_lower.iter().map(|(l, _)| format!("({l:?}) Mi/s")).collect();
        outln!(
            "{:<26} {:>10} {:>6} {:>6} {:>12} {:>12} {:>9} {:>10}{}",
            "SFPI kernels, 32x32 tile",
            "instr/tile",
            "FMA",
            "NOP",
            "ref tiles/s",
            "fast tiles/s",
            "fast/ref",
            "fast Mi/s",
            lower.iter().map(|l| format!(" {l:>16}")).collect::<String>()
        );
        for r in &kernel_results {
            let len = r.case.program.len() as f64;
            outln!(
                "{:<26} {:>10} {:>6} {:>6} {:>12.0} {:>12.0} {:>8.1}x {:>10.3}{}",
                format!("{} {}", r.case.arch, r.case.name),
                r.case.program.len(),
                r.case.fma_family,
                r.case.nops,
                r.reference / len,
                r.fast.median / len,
                r.fast.median / r.reference,
                m(r.fast.median),
                r.fast_lower.iter().map(|(_, v)| format!(" {:>16.3}", m(*v))).collect::<String>()
            );
        }
        outln!("(instr/tile: the lowered whole-tile program's instructions, of which FMA: the FMA family's,");
        outln!(" NOP: SFPNOPs of the scheduling rules; a pass puts back the kernel's starting state, inputs");
        outln!(
            " from its documented range (the Dst rows the program writes and the rest of the state), runs"
        );
        outln!(" the program on the cycle-level machine and drains it; Mi/s counts every instruction; the");
        outln!(" fast model at the SIMD level in force, then at each lower one; bench/sfpi.rs)");
    }
    outln!();
    outln!(
        "native baselines, compiled for {} ({native_level:?}, chosen at run time):",
        native_level.features()
    );
    outln!(
        "{:<16} {:>14} {:>14.3} {:>10} {:>16} {:>16.1}",
        "f32 mul_add",
        "",
        m(native_fma),
        "",
        "",
        m(native_fma) * LANES as f64
    );
    outln!(
        "{:<16} {:>14} {:>14.3} {:>10} {:>16} {:>16.1}",
        "u32 add",
        "",
        m(native_add),
        "",
        "",
        m(native_add) * LANES as f64
    );
    outln!();
    outln!("(Mi/s: million instructions per second; one instruction = 32 lane-operations; SFPLOADMACRO and");
    outln!(" the mixed stream run on the cycle-level machines, the other classes with `step` semantics;");
    outln!(" the reference one call per instruction, the fast model on the program decoded once");
    outln!(" (`Program`: `FastMachine::run`, `program::run_steps`); \"(per call)\": the fast model one");
    outln!(
        " call per instruction (`issue`, `step`); fast-model SIMD level: {:?}; \"(Avx2)\", \"(Portable)\":",
        simd::level()
    );
    outln!(" the same class at that lower level; \"(kernel alone)\": the FMA kernel looped like the native");
    outln!(
        " FMA loop, no decode, operand selection or masked write; \"(kernel, c=+0)\": the same with every"
    );
    outln!(" addend +0 (SFPMULI; SFPMUL with LCONST_0); the FMA family runs in segments of {FMA_SEGMENT}");
    outln!(" instructions, each from the state's LRegs: its results drift to special values; the native");
    outln!(
        " loops use the same registers, the FMA's subnormal operands read as zero, as the SFPU reads them.)"
    );
    if !amx_results.is_empty() {
        outln!();
        outln!("{:<20} {:>16} {:>16} {:>10}", "AMX vecfp", "reference Mop/s", "fast Mop/s", "fast/ref");
        for r in &amx_results {
            outln!(
                "{:<20} {:>16.3} {:>16.3} {:>9.1}x",
                format!("{} {}", r.chip, r.class),
                m(r.reference),
                m(r.fast),
                r.fast / r.reference
            );
        }
        outln!("(Mop/s: million vecfp operands per second, the state carried over; bench/amx.rs)");
    }
    outln!();
    outln!("targets (the verdict is the median's; [slowest, fastest] over the samples):");
    for t in &targets {
        let value = t.value.map_or_else(|| "-".to_string(), |v| t.show(v));
        outln!(
            "  {:<48} {:>12} {:>16}  (target {} {})  {}",
            t.description,
            value,
            t.show_range(),
            if t.at_least { ">=" } else { "<=" },
            t.show(t.limit),
            t.verdict()
        );
    }
    let kernels: Vec<(Arch, (f64, f64))> = results.iter().filter_map(|r| Some((r.arch, r.kernel?))).collect();
    if !kernels.is_empty() {
        outln!("the FMA kernel alone, the floor of the FMA family's ratio to native (not a target):");
        for (a, (k, _)) in &kernels {
            outln!(
                "  {:<59} {:>12}",
                format!("native f32 FMA / FMA kernel alone, {a}"),
                format!("{:.2}x", native_fma / k)
            );
        }
        for (a, (_, z)) in &kernels {
            outln!(
                "  {:<59} {:>12}",
                format!("native f32 FMA / FMA kernel with c = +0, {a}"),
                format!("{:.2}x", native_fma / z)
            );
        }
    }
    out!("{text}");
    if args.write_performance {
        let path = crate::paths::workspace_root().join("docs").join("performance.md");
        std::fs::write(&path, performance_page(&text))
            .with_context(|| format!("cannot write {}", path.display()))?;
        errln!("wrote {}", path.display());
    }
    Ok(ExitCode::SUCCESS)
}

/// `docs/performance.md`: the bench's figures (`text`) under a header naming the command line,
/// the commit and the host that produced them.
fn performance_page(text: &str) -> String {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let command = format!("cargo xtask {}", args.join(" "));
    let commit = std::process::Command::new("git")
        .args(["rev-parse", "HEAD"])
        .current_dir(crate::paths::workspace_root())
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_else(|| "unknown".to_string());
    let dirty = std::process::Command::new("git")
        .args(["status", "--porcelain", "--untracked-files=no"])
        .current_dir(crate::paths::workspace_root())
        .output()
        .is_ok_and(|o| !o.stdout.is_empty());
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|c| {
            c.lines()
                .find(|l| l.starts_with("model name"))
                .map(|l| l.split(':').nth(1).unwrap_or("").trim().to_string())
        })
        .unwrap_or_else(|| std::env::consts::ARCH.to_string());
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    format!(
        "<!-- Generated by `cargo xtask bench --write-performance`: do not edit; run it again. -->\n\
         # Performance\n\n\
         The figures of the models, measured by `cargo xtask bench` (xtask/src/bench.rs says how).\n\
         They depend on the machine and its load: compare builds only side by side (`--ab`).\n\n\
         | | |\n|---|---|\n\
         | Command | `{command}` |\n\
         | Commit | `{commit}`{} |\n\
         | Host | {cpu}, {cores} cores available, {} |\n\n\
         ```text\n{}```\n",
        if dirty { " (with uncommitted changes)" } else { "" },
        std::env::consts::OS,
        text
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The native FMA loop measures the FMA unit: none of its operands, as the bench passes them,
    /// and none of its results (the pass's `mul_add`s, redone here one by one) is subnormal, so no
    /// CPU takes a microcode assist in it; the bench state's raw words have subnormals (which is
    /// why the operands are read as the SFPU reads them), and nothing else of them is changed.
    #[test]
    fn native_fma_loop_sees_no_subnormal() {
        let mut rng = Rng::stream(0x5F9C_BE4C_0000_0001, "bench");
        let state = bench_state(&mut rng, None).expect("the bench state");
        let data = native_data(&state);
        let raw = data.iter().flatten().filter(|&&w| f32::from_bits(w).is_subnormal()).count();
        assert!(raw > 0, "the bench state has subnormal words: the test would check nothing");
        let regs = native_fma_operands(&data);
        for r in 0..8 {
            for l in 0..LANES {
                let (w, v) = (data[r][l], regs[r][l]);
                let expected = if w & 0x7F80_0000 == 0 { w & 0x8000_0000 } else { w };
                assert_eq!(v.to_bits(), expected, "LReg[{r}] lane {l}: {w:#010x}");
            }
        }
        let mut out = [[0f32; LANES]; 8];
        native_fma_pass(&regs, &mut out);
        for k in 0..PROGRAM_LEN {
            let (a, b, c) = (regs[k & 7], regs[(k + 1) & 7], regs[(k + 2) & 7]);
            for l in 0..LANES {
                let d = a[l].mul_add(b[l], c[l]);
                assert!(
                    !d.is_subnormal(),
                    "instruction {k} lane {l}: {a:?} * {b:?} + {c:?} = {d:e}",
                    a = a[l],
                    b = b[l],
                    c = c[l]
                );
            }
        }
        assert!(out.iter().flatten().all(|d| !d.is_subnormal()));
    }

    /// The registers the native loops and the fast model run on are where the bench says
    /// (`Placed`, `PlacedState`): 64-byte aligned rows, each block within one page, on the stack
    /// and on the heap alike.
    #[test]
    fn measured_registers_are_aligned_rows_within_a_page() {
        let on_stack = Placed([[0u32; LANES]; 8]);
        let on_heap = Box::new(Placed([[0f32; LANES]; 8]));
        let state = State::reset(Arch::Blackhole, &ResetValues::ZEROS);
        let fast = PlacedState::new(&state);
        let blocks = [
            (on_stack.0.as_ptr() as usize, size_of_val(&on_stack.0)),
            (on_heap.0.as_ptr() as usize, size_of_val(&on_heap.0)),
            (fast.0.lreg.as_ptr() as usize, size_of_val(&fast.0.lreg)),
        ];
        for (start, len) in blocks {
            assert_eq!(start % 64, 0, "{start:#x}: rows not 64-byte aligned");
            assert_eq!(start / 4096, (start + len - 1) / 4096, "{start:#x} + {len}: crosses a page");
        }
    }

    /// Mean fraction of the lanes of LReg[0..8] that hold Inf or NaN before each instruction of
    /// `class`'s Blackhole program, run by the reference model as the bench runs a pass: in
    /// segments of `segment` instructions, each from the state's LRegs.
    fn special_fraction(class: Class, segment: usize) -> f64 {
        let mut rng = Rng::stream(0x5F9C_BE4C_0000_0001, "bench");
        let state = bench_state(&mut rng, None).expect("the bench state");
        let mut rng = Rng::stream(0x5F9C_BE4C_0000_0002, "bench/programs");
        let prog = Class::ALL
            .iter()
            .map(|&c| program_for(Arch::Blackhole, c, &mut rng).expect("a program"))
            .nth(Class::ALL.iter().position(|&c| c == class).expect("a class"))
            .expect("the class's program");
        let mut s = state.clone();
        let (mut special, mut lanes) = (0u64, 0u64);
        for chunk in prog.chunks(segment) {
            s.LReg = state.LReg;
            for i in chunk {
                for r in 0..8 {
                    special += s.LReg[r].iter().filter(|&&v| (v >> 23) & 0xFF == 0xFF).count() as u64;
                    lanes += LANES as u64;
                }
                let _ = sfpu_reference::step(&mut s, i);
            }
        }
        special as f64 / lanes as f64
    }

    /// `--indirect-index R` sets the low 4 bits of every lane of `LReg[7]` to `R` and changes
    /// nothing else (the default state's lanes name several registers, so the option matters).
    #[test]
    fn indirect_index_names_one_register_in_every_lane() {
        let state = |index| bench_state(&mut Rng::stream(0x5F9C_BE4C_0000_0001, "bench"), index).unwrap();
        let (plain, nine) = (state(None), state(Some(9)));
        assert!(plain.LReg[7].iter().any(|w| w & 15 != plain.LReg[7][0] & 15), "{:x?}", plain.LReg[7]);
        for l in 0..LANES {
            assert_eq!(nine.LReg[7][l], (plain.LReg[7][l] & !15) | 9, "lane {l}");
        }
        let mut restored = nine.clone();
        restored.LReg[7] = plain.LReg[7];
        assert!(restored == plain, "only LReg[7] differs");
    }

    /// The SFPLOADMACRO class measures what a kernel that keeps SFPLOADMACRO's rules runs: on the
    /// reference's cycle-level machine, from the bench state, no instruction of its program on
    /// either chip breaks a rule, collides, meets a hazard or leaves anything unspecified.
    #[test]
    fn loadmacro_class_keeps_the_rules() {
        let mut rng = Rng::stream(0x5F9C_BE4C_0000_0001, "bench");
        let bh = bench_state(&mut rng, None).expect("the bench state");
        for arch in [Arch::Blackhole, Arch::Wormhole] {
            let mut rng = Rng::stream(0x5F9C_BE4C_0000_0002, "bench/programs");
            let prog = program_for(arch, Class::LoadMacro, &mut rng).expect("a program");
            let mut s = state_for(arch, &bh).expect("the state");
            let mut m = Machine::new();
            for (k, i) in prog.iter().enumerate() {
                let out = m.issue(&mut s, i);
                let notes = || out.notes().map(|(c, _)| c.id()).collect::<Vec<_>>();
                assert!(out.is_defined(), "{arch}: instruction {k} ({i:?}) noted {:?}", notes());
            }
            let out = m.drain(&mut s);
            assert!(out.is_defined(), "{arch}: the drain noted {:?}", out.notes().collect::<Vec<_>>());
        }
    }

    /// The FMA family is measured on the state's operands, not on the NaNs its results drift to:
    /// run as one 512-instruction pass, most of its instructions would see Inf / NaN lanes only.
    /// The state's own mix is 46 of LReg[0..8]'s 256 lanes special (18%), the fraction before
    /// the first instruction of each segment; it grows within a segment (28% on average over the
    /// segments of 16 when written, 90% over one 512-instruction pass).
    #[test]
    fn fma_class_runs_on_mostly_finite_operands() {
        let segmented = special_fraction(Class::Fma, Class::Fma.segment_len());
        assert!(segmented < 0.4, "{:.0}% of the FMA family's operand lanes are Inf / NaN", segmented * 100.0);
        let whole = special_fraction(Class::Fma, PROGRAM_LEN);
        assert!(
            whole > 0.7,
            "the drift this guards against is gone ({:.0}%): revisit FMA_SEGMENT",
            whole * 100.0
        );
    }
}
