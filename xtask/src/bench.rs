//! `cargo xtask bench`: throughput of the reference and the fast model per instruction class and
//! on a mixed random stream, against native 32-lane baselines, in one run.
//!
//! For every instruction class (integer/bitwise, FP field, FMA family, conversions, cross-lane,
//! predication, SFPLOADMACRO) and a mixed random stream, a fixed program of instructions of that
//! class is run repeatedly on the same state by the reference (`sfpu_reference::step`, or its
//! cycle-level `Machine` for SFPLOADMACRO and the mixed stream, which need the schedule) and by the
//! fast model (`sfpu_fastpath::step` / `FastMachine`). The native baselines run a plain 32-lane
//! `f32::mul_add` loop and a 32-lane `u32::wrapping_add` loop over the same register data, through
//! `std::hint::black_box` so that nothing is optimised away. One "instruction" of a baseline is
//! one 32-lane operation; lane-operations/s is 32 x instructions/s everywhere.
//!
//! Method (criterion-like, without the dependency): every measurement warms up for a fifth of its
//! time, then takes 5 samples of `--time / 5` seconds each, each sample timing whole passes over
//! the program; the reported rate is the median of the samples.
//!
//! The measured code must be optimised. `cargo xtask` builds xtask in the dev profile, where the
//! workspace crates are not optimised (the root Cargo.toml optimises only non-member
//! dependencies), so an unoptimised build re-executes itself as
//! `cargo run --release -p xtask -- bench ...` (the figures of an unoptimised build are
//! meaningless). `--in-process` measures the running binary as built (used by the tests).
//!
//! Targets (issue 5), as ratios measured in the same run: the fast model >= 100x the reference on
//! the mixed stream; the FMA family within 8x of the native `mul_add` baseline; the
//! integer/bitwise class within 3x of the native `u32` add baseline.

use std::hint::black_box;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde_json::json;
use sfpu_conformance::generate::operands::Rng;
use sfpu_conformance::generate::random_case;
use sfpu_conformance::generate::streams::{random_state, random_stream};
use sfpu_fastpath::{FastMachine, FastState, simd};
use sfpu_reference::isa::{Arch, Instr, Opcode, parse_instr};
use sfpu_reference::state::{LANES, LaneConfig, Misc};
use sfpu_reference::{Machine, State};

/// `cargo xtask bench` arguments.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Seconds per measurement (warm-up included); the whole run takes about 20 times this.
    #[arg(long, default_value_t = 0.25)]
    time: f64,
    /// Print the results as JSON on stdout instead of the table.
    #[arg(long)]
    json: bool,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
    /// Measure only these classes (comma-separated keys: integer, fp_field, fma, conversion,
    /// cross_lane, predication, loadmacro, mixed); the native baselines always run.
    #[arg(long, value_delimiter = ',')]
    only: Vec<String>,
    /// Measure this binary as built, without re-executing an optimised build (figures of an
    /// unoptimised build are not representative).
    #[arg(long)]
    in_process: bool,
}

/// Samples per measurement.
const SAMPLES: usize = 5;

/// Instructions per class program.
const PROGRAM_LEN: usize = 512;

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
                p.push(sfpu_conformance::generate::build(
                    Opcode::SFPSETCC,
                    &[("VC", rng.below(8)), ("Mod1", rng.pick(&[0, 1, 2, 4, 6, 8])), ("Imm1", rng.below(2))],
                ));
                p.push(text("TTI_SFPPUSHC(0, 0, 0, 0)")?);
                p.push(sfpu_conformance::generate::build(
                    Opcode::SFPSETCC,
                    &[("VC", rng.below(8)), ("Mod1", 4)],
                ));
                p.push(text("TTI_SFPCOMPC(0, 0, 0, 0)")?);
                p.push(text("TTI_SFPPOPC(0, 0, 0, 0)")?);
                p.push(text("TTI_SFPCOMPC(0, 0, 0, 0)")?);
                p.push(text("TTI_SFPPOPC(0, 0, 0, 0)")?);
                p.push(text("TTI_SFPENCC(0, 0, 0, 2)")?);
            }
            p.truncate(PROGRAM_LEN);
        }
        Class::LoadMacro => {
            for k in 0..PROGRAM_LEN as u32 {
                p.push(sfpu_conformance::generate::build(
                    Opcode::SFPLOADMACRO,
                    &[("MacroIndex", k & 3), ("VDLo", (k >> 2) & 3), ("Mod0", 3), ("Imm9", (k * 2) & 31)],
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
/// predication), with lanes enabled, no backdoor loads, and a LoadMacroConfig whose four macros
/// schedule an instruction on every sub-unit (float |x|, a MAD, a rounding, a store).
fn bench_state(rng: &mut Rng) -> Result<State> {
    let mut s = random_state(rng);
    let templates = [
        text("TTI_SFPABS(0, 0, 0, 1)")?.encode_blackhole(),
        text("TTI_SFPMAD(0, 10, 9, 0, 0)")?.encode_blackhole(),
        text("TTI_SFP_STOCH_RND(0, 0, 0, 0, 0, 1)")?.encode_blackhole(),
        text("TTI_SFPSTORE(0, 0, 0, 0)")?.encode_blackhole(),
    ];
    // Byte i drives sub-unit i (Simple, MAD, Round, Store): selector 4 + i picks template i,
    // bits 5:3 the delay.
    let sequences = [0x1B00_0004u32, 0x0B06_0500, 0x0006_0D04, 0x1B0E_0C0C];
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

/// Instructions per second of one measurement: the median of the samples.
fn measure(time: Duration, mut pass: impl FnMut() -> u64) -> f64 {
    let warm_until = Instant::now() + time / 5;
    while Instant::now() < warm_until {
        pass();
    }
    let per_sample = (time * 4 / 5) / SAMPLES as u32;
    let mut rates: Vec<f64> = (0..SAMPLES)
        .map(|_| {
            let start = Instant::now();
            let mut n = 0u64;
            loop {
                n += pass();
                let e = start.elapsed();
                if e >= per_sample {
                    break n as f64 / e.as_secs_f64();
                }
            }
        })
        .collect();
    rates.sort_by(f64::total_cmp);
    rates[SAMPLES / 2]
}

fn reference_rate(class: Class, prog: &[Instr], state: &State, time: Duration) -> f64 {
    let mut s = state.clone();
    if class.on_machine() {
        let mut m = Machine::new();
        measure(time, || {
            for i in prog {
                black_box(m.issue(&mut s, black_box(i)));
            }
            black_box(m.drain(&mut s));
            prog.len() as u64
        })
    } else {
        measure(time, || {
            for i in prog {
                black_box(sfpu_reference::step(&mut s, black_box(i)));
            }
            prog.len() as u64
        })
    }
}

fn fast_rate(class: Class, prog: &[Instr], state: &State, time: Duration) -> f64 {
    let mut s = FastState::from_state(state);
    if class.on_machine() {
        let mut m = FastMachine::new();
        measure(time, || {
            for i in prog {
                black_box(m.issue(&mut s, black_box(i)));
            }
            black_box(m.drain(&mut s));
            prog.len() as u64
        })
    } else {
        measure(time, || {
            for i in prog {
                black_box(sfpu_fastpath::step(&mut s, black_box(i)));
            }
            prog.len() as u64
        })
    }
}

/// The register data the native loops use: the state's general registers, as `f32` and `u32`.
fn native_data(state: &State) -> [[u32; LANES]; 8] {
    std::array::from_fn(|r| state.LReg[r])
}

/// 32-lane `f32::mul_add`, one "instruction" per 32 lanes, cycling through the registers.
fn native_fma_rate(data: &[[u32; LANES]; 8], time: Duration) -> f64 {
    let regs: [[f32; LANES]; 8] =
        std::array::from_fn(|r| std::array::from_fn(|l| f32::from_bits(data[r][l])));
    let mut out = [[0f32; LANES]; 8];
    measure(time, || {
        for k in 0..PROGRAM_LEN {
            let (a, b, c) =
                (black_box(&regs[k & 7]), black_box(&regs[(k + 1) & 7]), black_box(&regs[(k + 2) & 7]));
            let d = &mut out[(k + 3) & 7];
            for l in 0..LANES {
                d[l] = a[l].mul_add(b[l], c[l]);
            }
            black_box(&mut *d);
        }
        PROGRAM_LEN as u64
    })
}

/// 32-lane `u32::wrapping_add`, one "instruction" per 32 lanes.
fn native_add_rate(data: &[[u32; LANES]; 8], time: Duration) -> f64 {
    let mut out = [[0u32; LANES]; 8];
    measure(time, || {
        for k in 0..PROGRAM_LEN {
            let (a, b) = (black_box(&data[k & 7]), black_box(&data[(k + 1) & 7]));
            let d = &mut out[(k + 2) & 7];
            for l in 0..LANES {
                d[l] = a[l].wrapping_add(b[l]);
            }
            black_box(&mut *d);
        }
        PROGRAM_LEN as u64
    })
}

/// One class's figures, in instructions per second.
struct ClassResult {
    class: Class,
    reference: f64,
    fast: f64,
    /// The fast model again with its run-time SIMD selection forced to the portable copy
    /// (`sfpu_fastpath::simd`), for the classes that use it, when the CPU offers more.
    fast_portable: Option<f64>,
}

/// One target of the issue.
struct Target {
    name: &'static str,
    description: &'static str,
    /// The measured ratio; `None` when `--only` left out a class it needs.
    ratio: Option<f64>,
    /// The limit and whether the ratio must be at least (`true`) or at most (`false`) it.
    limit: f64,
    at_least: bool,
}

impl Target {
    /// Whether the target is met; `None` when it was not measured.
    fn met(&self) -> Option<bool> {
        self.ratio.map(|r| if self.at_least { r >= self.limit } else { r <= self.limit })
    }

    /// `met`, `MISSED` or `not measured`.
    fn verdict(&self) -> &'static str {
        match self.met() {
            Some(true) => "met",
            Some(false) => "MISSED",
            None => "not measured (--only left out a class it needs)",
        }
    }
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

/// `cargo xtask bench`.
pub fn main(args: Args) -> Result<ExitCode> {
    if !(args.time.is_finite() && args.time > 0.0 && args.time <= 600.0) {
        bail!("--time must be a number of seconds in (0, 600], got {}", args.time);
    }
    if cfg!(debug_assertions) && !args.in_process {
        return reexec_release();
    }
    for key in &args.only {
        if !Class::ALL.iter().any(|c| c.key() == key) {
            let keys: Vec<&str> = Class::ALL.iter().map(|c| c.key()).collect();
            bail!("--only: unknown class `{key}` (one of {})", keys.join(", "));
        }
    }
    let selected = |c: &Class| args.only.is_empty() || args.only.iter().any(|k| k == c.key());
    let time = Duration::from_secs_f64(args.time);
    let mut rng = Rng::stream(0x5F9C_BE4C_0000_0001, "bench");
    let state = bench_state(&mut rng)?;
    let programs: Vec<(Class, Vec<Instr>)> =
        Class::ALL.iter().map(|&c| Ok((c, program(c, &mut rng)?))).collect::<Result<_>>()?;

    let measurements = (programs.iter().filter(|(c, _)| selected(c)).count() * 2 + 3) as u64;
    let bar = if args.quiet {
        ProgressBar::hidden()
    } else {
        let b = ProgressBar::with_draw_target(Some(measurements), ProgressDrawTarget::stderr());
        if let Ok(style) = ProgressStyle::with_template("{bar:30} {pos}/{len} {msg}") {
            b.set_style(style);
        }
        b
    };
    let mut results = Vec::new();
    for (class, prog) in programs.iter().filter(|(c, _)| selected(c)) {
        bar.set_message(format!("{}: reference", class.title()));
        let reference = reference_rate(*class, prog, &state, time);
        bar.inc(1);
        bar.set_message(format!("{}: fast model", class.title()));
        let fast = fast_rate(*class, prog, &state, time);
        bar.inc(1);
        let fast_portable = (*class == Class::Fma && simd::level() != simd::Level::Portable).then(|| {
            bar.set_message(format!("{}: fast model, portable SIMD", class.title()));
            let level = simd::level();
            simd::set_level(simd::Level::Portable);
            let r = fast_rate(*class, prog, &state, time);
            simd::set_level(level);
            r
        });
        results.push(ClassResult { class: *class, reference, fast, fast_portable });
    }
    let data = native_data(&state);
    bar.set_message("native f32 mul_add");
    let native_fma = native_fma_rate(&data, time);
    bar.inc(1);
    bar.set_message("native u32 add");
    let native_add = native_add_rate(&data, time);
    bar.inc(1);
    bar.finish_and_clear();

    // (reference, fast) of a class, if it was measured.
    let rate = |c: Class| results.iter().find(|r| r.class == c).map(|r| (r.reference, r.fast));
    let targets = [
        Target {
            name: "mixed_speedup",
            description: "fast model vs reference, mixed stream",
            ratio: rate(Class::Mixed).map(|(r, f)| f / r),
            limit: 100.0,
            at_least: true,
        },
        Target {
            name: "fma_vs_native",
            description: "native f32 mul_add vs fast FMA family",
            ratio: rate(Class::Fma).map(|(_, f)| native_fma / f),
            limit: 8.0,
            at_least: false,
        },
        Target {
            name: "integer_vs_native",
            description: "native u32 add vs fast integer/bitwise",
            ratio: rate(Class::Integer).map(|(_, f)| native_add / f),
            limit: 3.0,
            at_least: false,
        },
    ];
    let build = if cfg!(debug_assertions) { "unoptimised (not representative)" } else { "release" };

    if args.json {
        let figures = |ips: f64| json!({ "instructions_per_s": ips, "lane_ops_per_s": ips * LANES as f64 });
        let classes: Vec<serde_json::Value> = results
            .iter()
            .map(|r| {
                json!({
                    "class": r.class.key(),
                    "title": r.class.title(),
                    "opcodes": r.class.opcodes().iter().map(|o| o.name()).collect::<Vec<_>>(),
                    "driver": if r.class.on_machine() { "machine" } else { "step" },
                    "reference": figures(r.reference),
                    "fast": figures(r.fast),
                    "speedup": r.fast / r.reference,
                    "fast_portable_simd": r.fast_portable.map(figures),
                })
            })
            .collect();
        let out = json!({
            "build": build,
            "simd": format!("{:?}", simd::level()),
            "time_per_measurement_s": args.time,
            "samples": SAMPLES,
            "program_len": PROGRAM_LEN,
            "classes": classes,
            "native": {
                "f32_mul_add": figures(native_fma),
                "u32_wrapping_add": figures(native_add),
            },
            "targets": targets.iter().map(|t| json!({
                "name": t.name,
                "description": t.description,
                "ratio": t.ratio,
                "limit": t.limit,
                "at_least": t.at_least,
                "measured": t.ratio.is_some(),
                "met": t.met(),
            })).collect::<Vec<_>>(),
        });
        outln!("{}", serde_json::to_string_pretty(&out)?);
        return Ok(ExitCode::SUCCESS);
    }

    let m = |ips: f64| ips / 1e6;
    outln!(
        "cargo xtask bench ({build} build; {:.2} s per measurement, median of {SAMPLES} samples)",
        args.time
    );
    outln!();
    outln!(
        "{:<16} {:>14} {:>14} {:>10} {:>16} {:>16}",
        "class",
        "reference Mi/s",
        "fast Mi/s",
        "fast/ref",
        "ref Mlane-op/s",
        "fast Mlane-op/s"
    );
    for r in &results {
        outln!(
            "{:<16} {:>14.3} {:>14.3} {:>9.1}x {:>16.1} {:>16.1}",
            r.class.title(),
            m(r.reference),
            m(r.fast),
            r.fast / r.reference,
            m(r.reference) * LANES as f64,
            m(r.fast) * LANES as f64,
        );
        if let Some(p) = r.fast_portable {
            outln!(
                "{:<16} {:>14} {:>14.3} {:>9.1}x {:>16} {:>16.1}",
                "  (portable)",
                "",
                m(p),
                p / r.reference,
                "",
                m(p) * LANES as f64,
            );
        }
    }
    outln!(
        "{:<16} {:>14} {:>14.3} {:>10} {:>16} {:>16.1}",
        "native mul_add",
        "",
        m(native_fma),
        "",
        "",
        m(native_fma) * LANES as f64
    );
    outln!(
        "{:<16} {:>14} {:>14.3} {:>10} {:>16} {:>16.1}",
        "native u32 add",
        "",
        m(native_add),
        "",
        "",
        m(native_add) * LANES as f64
    );
    outln!();
    outln!("(Mi/s: million instructions per second; one instruction = 32 lane-operations; SFPLOADMACRO and");
    outln!(" the mixed stream run on the cycle-level machines, the other classes through `step`;");
    outln!(
        " fast-model SIMD kernels: {:?}; \"(portable)\": the same with the baseline-target copy.)",
        simd::level()
    );
    outln!();
    outln!("targets:");
    for t in &targets {
        let ratio = t.ratio.map_or_else(|| "-".to_string(), |r| format!("{r:.2}x"));
        outln!(
            "  {:<40} {:>9}  (target {} {}x)  {}",
            t.description,
            ratio,
            if t.at_least { ">=" } else { "<=" },
            t.limit,
            t.verdict()
        );
    }
    Ok(ExitCode::SUCCESS)
}
