//! Differential property test of instruction streams on both chips, with
//! `proptest-state-machine`: the reference `Machine` is the reference state machine, the fast
//! model's `FastMachine` the system under test. A stream is up to 64 steps, each an issued
//! instruction of the chip (every opcode, every mode,
//! predication blocks built from SFPPUSHC/SFPSETCC/SFPGT/SFPLE/SFPCOMPC/SFPPOPC/SFPENCC, nested,
//! SFPLOADMACRO with a LoadMacroConfig whose macros do things, SFPCONFIG and backdoor loads
//! rewriting it) or an idle cycle; after every step the full state, the step's `Outcome` and the
//! cycle count must agree, and again after the final drain.
//!
//! Undefined and unspecified behaviour is handled as golden vectors handle it: the reference's
//! outcomes feed a `taint::Tracker`, tainted locations are skipped in the state comparison, and an
//! outcome that differs is excused only when the step read tainted state. Tainted steps and
//! excused outcomes are counted and printed at the end (`-- --nocapture`).
//!
//! A failure shrinks to a minimal stream (steps deleted, instruction fields and the initial state
//! simplified) and prints it in `TTI_...` form with a YAML snippet for a regressions file; its seed
//! is appended to `harness/sfpu/proptest-regressions/prop_streams.txt` (commit it) and replayed
//! first on every later run. Environment:
//! * `SFPU_PROPTEST_CASES=N`: number of streams per chip (default 1000 on Blackhole, 500 on
//!   Wormhole; `N=20000` for a long run, on both);
//! * `SFPU_PROPTEST_SEED=S`: another base seed (decimal or `0x` hex).

use std::fmt::Write as _;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::prop_common::*;
use harness_sfpu::campaign::regression_snippet;
use harness_sfpu::diff;
use harness_sfpu::generate::{Case, to_vector};
use harness_sfpu::taint::{Locations, Tracker, differing, footprint};
use proptest::prelude::*;
use proptest::test_runner::{TestError, TestRunner};
use proptest_state_machine::{ReferenceStateMachine, StateMachineTest};
use sfpu_fastpath::{FastMachine, FastState};
use sfpu_reference::isa::{Arch, Instr, Opcode, parse_instr};
use sfpu_reference::state::NUM_LREGS;
use sfpu_reference::{Machine, Outcome, State};

const PERSISTENCE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/proptest-regressions/prop_streams.txt");

/// Every panic message of a divergence starts with this, so the panic hook can keep the many
/// panics of shrinking quiet.
const MARKER: &str = "SFPU stream divergence";

/// The chip of a test's type parameter (`WH`: Wormhole).
const fn arch_of<const WH: bool>() -> Arch {
    if WH { Arch::Wormhole } else { Arch::Blackhole }
}

/// One step of a stream on the chip of `WH`.
#[derive(Clone, Copy)]
enum Step<const WH: bool> {
    /// The thread issues an instruction.
    Issue(Instr),
    /// A cycle in which the thread issues nothing.
    Idle,
}

impl<const WH: bool> std::fmt::Debug for Step<WH> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Step::Issue(i) => write!(f, "{}", i.display(arch_of::<WH>())),
            Step::Idle => write!(f, "idle"),
        }
    }
}

/// The reference side: the reference state and machine, the taint of what the specification does
/// not promise, and what the stream has done so far.
#[derive(Clone)]
struct RefSfpu<const WH: bool> {
    pre: State,
    state: State,
    machine: Machine,
    tracker: Tracker,
    history: Vec<Step<WH>>,
    /// The outcome of the last step.
    last: Outcome,
    /// Whether the last step's outcome may legitimately differ (it read tainted state).
    excused: bool,
    /// SFPPUSHCs minus SFPPOPCs issued (for biasing the generator towards well-formed blocks).
    depth: i32,
    last_macro: Option<Instr>,
}

impl<const WH: bool> std::fmt::Debug for RefSfpu<WH> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "initial state ({}; the whole state is in the YAML snippet)", summary(&self.pre))
    }
}

/// The lanes in which `reads` touches a location of `tainted`.
fn tainted_reads(tainted: &Locations, instr: &Instr) -> bool {
    if tainted.all {
        return true;
    }
    let f = footprint(instr);
    let mut lanes = 0;
    for reg in 0..NUM_LREGS {
        if (f.reads.lregs >> reg) & 1 != 0 {
            lanes |= tainted.lreg(reg);
        }
    }
    let m = |b: bool, v: u32| if b { v } else { 0 };
    lanes |= m(f.reads.lane_flags, tainted.LaneFlags.0);
    lanes |= m(f.reads.use_flags, tainted.UseLaneFlagsForLaneEnable.0);
    lanes |= m(f.reads.flag_stack, tainted.FlagStack.0);
    lanes |= m(f.reads.lane_config, tainted.LaneConfig.0);
    lanes |= m(f.reads.lmc, tainted.LoadMacroConfig.0);
    lanes |= m(f.reads.prng, tainted.PRNG.0);
    lanes != 0 || (f.reads.dst && tainted.Dst) || (f.reads.addressing && tainted.Addressing) || f.everything
}

impl<const WH: bool> RefSfpu<WH> {
    fn new(pre: State) -> RefSfpu<WH> {
        RefSfpu {
            state: pre.clone(),
            pre,
            machine: Machine::new(),
            tracker: Tracker::default(),
            history: Vec::new(),
            last: Outcome::defined(),
            excused: false,
            depth: 0,
            last_macro: None,
        }
    }

    /// The instruction the taint of a cycle without an issued instruction is charged to: the last
    /// SFPLOADMACRO (whose schedule runs then), else the last instruction.
    fn charged(&self) -> Instr {
        self.last_macro
            .or_else(|| {
                self.history.iter().rev().find_map(|s| match s {
                    Step::Issue(i) => Some(*i),
                    Step::Idle => None,
                })
            })
            .unwrap_or(Instr::SFPNOP {})
    }

    /// Accounts for the outcome `o` of a step: `issued` is the issued instruction, if any.
    fn account(&mut self, issued: Option<&Instr>, o: &Outcome, pending_before: bool) {
        let before = self.tracker.unpromised.clone();
        let charged = issued.copied().unwrap_or_else(|| self.charged());
        self.excused = tainted_reads(&before, &charged) || (pending_before && !before.is_empty());
        self.tracker.step(&charged, o);
        if pending_before {
            // A scheduled instruction ran in this cycle: what it read and wrote is not in the
            // issued instruction's footprint, so charge its notes and any taint to the macro.
            let m = self.last_macro.unwrap_or(Instr::SFPNOP {});
            if !o.is_defined() {
                self.tracker.step(&m, o);
            }
            if !before.is_empty() {
                self.tracker.unpromised = Locations::everything();
            }
        }
    }

    /// The stream so far as a case (idle cycles become SFPNOPs, which the vector format can say).
    fn case(&self) -> Case {
        Case {
            name: "stream".to_string(),
            mode: None,
            mode_label: None,
            tags: vec!["stream".to_string()],
            program: self
                .history
                .iter()
                .map(|s| match s {
                    Step::Issue(i) => *i,
                    Step::Idle => Instr::SFPNOP {},
                })
                .collect(),
            pre: self.pre.clone(),
        }
    }

    fn listing(&self) -> String {
        let mut out = String::new();
        for (k, s) in self.history.iter().enumerate() {
            match s {
                Step::Issue(i) => {
                    let arch = arch_of::<WH>();
                    let _ = writeln!(
                        out,
                        "  {}    // step {k}: 0x{:08x}",
                        i.display(arch),
                        i.encode(arch).unwrap_or_else(|_| i.encode_blackhole())
                    );
                }
                Step::Idle => {
                    let _ = writeln!(out, "  // step {k}: idle cycle");
                }
            }
        }
        out
    }
}

struct SfpuRef<const WH: bool>;

/// Every opcode but SFPPUSHC and SFPPOPC.
const NOT_STACK: &[Opcode] = &{
    let mut out = [Opcode::SFPNOP; 40];
    let mut k = 0;
    let mut i = 0;
    while i < Opcode::ALL.len() {
        let op = Opcode::ALL[i];
        if !matches!(op, Opcode::SFPPUSHC | Opcode::SFPPOPC) && k < out.len() {
            out[k] = op;
            k += 1;
        }
        i += 1;
    }
    out
};

/// The timing-relevant instructions: MAD results read soon after, swaps, stores.
const TIMING: &[Opcode] =
    &[Opcode::SFPMAD, Opcode::SFPSWAP, Opcode::SFPSTORE, Opcode::SFPLOAD, Opcode::SFPNOP];

/// A predication instruction of `arch`, biased by the current nesting depth towards well-formed
/// blocks (and sometimes past them: flag-stack overflow and underflow are undefined behaviour the
/// models must agree on reporting).
fn predication(arch: Arch, depth: i32) -> BoxedStrategy<Instr> {
    let text = |t: &str| parse_instr(arch, t).unwrap_or(Instr::SFPNOP {});
    let enable = Just(text("TTI_SFPENCC(1, 0, 0, 2)"));
    let disable = Just(text("TTI_SFPENCC(0, 0, 0, 2)"));
    // The other SFPPUSHC/SFPPOPC modes act on the top of the stack: undefined on an empty one,
    // so mostly only inside a block.
    let other = if depth >= 1 { 2 } else { 0 };
    let push = prop_oneof![
        8 => Just(text("TTI_SFPPUSHC(0, 0, 0, 0)")),
        other => instr_of_on(arch, Opcode::SFPPUSHC, vec![]),
        1 => instr_of_on(arch, Opcode::SFPPUSHC, vec![]),
    ];
    let pop = prop_oneof![
        8 => Just(text("TTI_SFPPOPC(0, 0, 0, 0)")),
        other => instr_of_on(arch, Opcode::SFPPOPC, vec![]),
        1 => instr_of_on(arch, Opcode::SFPPOPC, vec![]),
    ];
    let cond = instr_among_on(arch, &[Opcode::SFPSETCC, Opcode::SFPGT, Opcode::SFPLE, Opcode::SFPENCC]);
    let compc = instr_of_on(arch, Opcode::SFPCOMPC, vec![]);
    let (w_push, w_pop) = match depth {
        ..=0 => (6, 1),
        1..=3 => (3, 3),
        _ => (1, 6),
    };
    prop_oneof![
        2 => enable,
        1 => disable,
        w_push => push,
        w_pop => pop,
        3 => cond,
        2 => compc,
    ]
    .boxed()
}

/// The next step of writing an instruction template through `LReg[0]`: SFPLOADI the upper half
/// of an instruction word of the chip, then the lower half, then SFPCONFIG it into
/// `InstructionTemplate`.
fn template_write<const WH: bool>(history: &[Step<WH>]) -> BoxedStrategy<Instr> {
    let arch = arch_of::<WH>();
    let build = move |op: Opcode, fields: &[(&str, u32)]| build_on(arch, op, fields);
    let word = move |i: &Instr| i.encode(arch).unwrap_or(0);
    let loadi = |s: Option<&Step<WH>>, mod0: u32| match s {
        Some(Step::Issue(i @ Instr::SFPLOADI { .. })) => {
            let f = i.field_values();
            let get = |n: &str| f.iter().find(|(k, _)| *k == n).map(|&(_, v)| v);
            (get("VD") == Some(0) && get("Mod0") == Some(mod0)).then(|| get("Imm16").unwrap_or(0))
        }
        _ => None,
    };
    let last = history.last();
    let before = history.len().checked_sub(2).and_then(|k| history.get(k));
    if loadi(last, 10).is_some() && loadi(before, 8).is_some() {
        // Write L0 (per column) into a template, all columns or a lane mask of columns.
        return (0u32..4, prop_oneof![Just(0u32), Just(8u32)], any::<u16>())
            .prop_map(move |(vd, mod1, imm)| {
                build(Opcode::SFPCONFIG, &[("VD", vd), ("Mod1", mod1), ("Imm16", imm as u32)])
            })
            .boxed();
    }
    if let Some(upper) = loadi(last, 8) {
        // The lower half: fields of an instruction of the opcode in the upper half.
        let op = Opcode::from_u8((upper >> 8) as u8).filter(|&op| arch.has(op)).unwrap_or(Opcode::SFPNOP);
        return instr_of_on(arch, op, vec![])
            .prop_map(move |i| {
                build(Opcode::SFPLOADI, &[("VD", 0), ("Mod0", 10), ("Imm16", word(&i) & 0xFFFF)])
            })
            .boxed();
    }
    instr_among_on(arch, &[])
        .prop_map(move |i| build(Opcode::SFPLOADI, &[("VD", 0), ("Mod0", 8), ("Imm16", word(&i) >> 16)]))
        .boxed()
}

impl<const WH: bool> ReferenceStateMachine for SfpuRef<WH> {
    type State = RefSfpu<WH>;
    type Transition = Step<WH>;

    fn init_state() -> BoxedStrategy<RefSfpu<WH>> {
        // Mostly a tame state (shallow stacks, uniform LoadMacroConfig), so that most streams
        // are not undefined as a whole.
        let arch = arch_of::<WH>();
        (state_parts_on(arch), prop::bool::weighted(0.85))
            .prop_map(move |(mut p, tame)| {
                if tame {
                    p.tame(2);
                }
                RefSfpu::new(p.build_on(arch))
            })
            .boxed()
    }

    fn transitions(state: &RefSfpu<WH>) -> BoxedStrategy<Step<WH>> {
        let arch = arch_of::<WH>();
        let build = move |op: Opcode, fields: &[(&str, u32)]| build_on(arch, op, fields);
        let issue = |s: BoxedStrategy<Instr>| s.prop_map(Step::Issue);
        let in_template_write = matches!(state.history.last(), Some(Step::Issue(Instr::SFPLOADI { .. })));
        let template_weight = if in_template_write { 6 } else { 1 };
        prop_oneof![
            // Everything but the flag-stack instructions, which `predication` emits.
            12 => issue(
                (instr_among_on(arch, NOT_STACK), prop::bool::weighted(0.9))
                    .prop_map(move |(i, defined)| match i {
                        // SFPLOADI's reserved Mod0 values are undefined: mostly a defined one.
                        Instr::SFPLOADI { .. } if defined => {
                            let f = i.field_values();
                            let get = |n: &str| f.iter().find(|(k, _)| *k == n).map_or(0, |&(_, v)| v);
                            let mod0 = [0, 1, 2, 4, 8, 10][(get("Mod0") % 6) as usize];
                            let fields = [("VD", get("VD")), ("Mod0", mod0), ("Imm16", get("Imm16"))];
                            build(Opcode::SFPLOADI, &fields)
                        }
                        other => other,
                    })
                    .boxed()
            ),
            1 => Just(Step::Idle),
            5 => issue(predication(arch, state.depth)),
            2 => issue(instr_of_on(arch, Opcode::SFPLOADMACRO, vec![])),
            1 => issue(instr_of_on(arch, Opcode::SFPCONFIG, vec![])),
            template_weight => issue(template_write(&state.history)),
            // The timing-relevant instructions: MAD results read soon after, swaps, stores, and on
            // Wormhole SFPSHFT2's shuffles (whose next-cycle rules are software's).
            2 => issue(instr_among_on(arch, TIMING)),
            if WH { 2 } else { 0 } => issue(instr_of_on(arch, Opcode::SFPSHFT2, vec![])),
        ]
        .boxed()
    }

    fn apply(mut s: RefSfpu<WH>, step: &Step<WH>) -> RefSfpu<WH> {
        let pending_before = !s.machine.pending().is_empty();
        let o = match step {
            Step::Issue(i) => s.machine.issue(&mut s.state, i),
            Step::Idle => s.machine.idle(&mut s.state),
        };
        let issued = match step {
            Step::Issue(i) => Some(i),
            Step::Idle => None,
        };
        s.account(issued, &o, pending_before);
        if let Step::Issue(i) = step {
            match i.opcode() {
                Opcode::SFPLOADMACRO => s.last_macro = Some(*i),
                Opcode::SFPPUSHC => s.depth += 1,
                Opcode::SFPPOPC => s.depth -= 1,
                _ => {}
            }
        }
        s.last = o;
        s.history.push(*step);
        s
    }
}

// Counters, per chip (index `WH as usize`; the chips run one after the other).
static STREAMS: [AtomicU64; 2] = [AtomicU64::new(0), AtomicU64::new(0)];
static STEPS: [AtomicU64; 2] = [AtomicU64::new(0), AtomicU64::new(0)];
static TAINTED_STEPS: [AtomicU64; 2] = [AtomicU64::new(0), AtomicU64::new(0)];
static TAINTED_STREAMS: [AtomicU64; 2] = [AtomicU64::new(0), AtomicU64::new(0)];
static UNDEFINED_STREAMS: [AtomicU64; 2] = [AtomicU64::new(0), AtomicU64::new(0)];
static EXCUSED_OUTCOMES: [AtomicU64; 2] = [AtomicU64::new(0), AtomicU64::new(0)];
static MACROS: [AtomicU64; 2] = [AtomicU64::new(0), AtomicU64::new(0)];

/// The system under test: the fast model, and the latest reference side (for the final drain).
struct Sut<const WH: bool> {
    fast: FastState,
    machine: FastMachine,
    reference: Option<RefSfpu<WH>>,
}

/// Compares the fast model with the reference after a step (`what` names it); panics with the
/// stream, the differences and a regression snippet on a divergence.
fn compare<const WH: bool>(
    what: &str,
    r: &RefSfpu<WH>,
    fast: &FastState,
    fm: &FastMachine,
    o_fast: &Outcome,
) {
    let c = WH as usize;
    let actual = fast.to_state();
    let skip = &r.tracker.unpromised;
    let d = differing(&r.state, &actual, skip);
    let outcome_differs = *o_fast != r.last;
    if outcome_differs && r.excused {
        EXCUSED_OUTCOMES[c].fetch_add(1, Ordering::Relaxed);
    }
    let outcome_fails = outcome_differs && !r.excused;
    let cycle_fails = fm.cycle() != r.machine.cycle() && !skip.all;
    if !skip.is_empty() {
        TAINTED_STEPS[c].fetch_add(1, Ordering::Relaxed);
    }
    if d.is_empty() && !outcome_fails && !cycle_fails {
        return;
    }
    let mut msg = format!(
        "{MARKER} {what} (step {} of the {} stream below)\n",
        r.history.len().saturating_sub(1),
        arch_of::<WH>()
    );
    msg += "stream:\n";
    msg += &r.listing();
    if !d.is_empty() {
        msg += "state differs (reference = expected, fast = actual):\n";
        msg += &diff::describe(&r.state, &actual, &d);
    }
    if outcome_fails {
        let _ = writeln!(msg, "outcome: reference {} | fast {}", r.last, o_fast);
    }
    if cycle_fails {
        let _ = writeln!(msg, "cycle: reference {} | fast {}", r.machine.cycle(), fm.cycle());
    }
    if !skip.is_empty() {
        let _ = writeln!(msg, "skipped as not promised: {skip:?}");
    }
    msg += "replay: cargo test -p harness-sfpu --test it prop_streams:: (the seed is in \
            harness/sfpu/proptest-regressions/prop_streams.txt)\n";
    let mut v = to_vector("streams", &r.case());
    v.id = format!("streams/{}-steps", r.history.len());
    msg +=
        "regression vector (idle cycles written as SFPNOP; paste under `vectors:` of a regressions file):\n";
    msg += &regression_snippet(&v, "prop_streams");
    panic!("{msg}");
}

impl<const WH: bool> StateMachineTest for Sut<WH> {
    type SystemUnderTest = Sut<WH>;
    type Reference = SfpuRef<WH>;

    fn init_test(r: &RefSfpu<WH>) -> Sut<WH> {
        Sut { fast: FastState::from_state(&r.pre), machine: FastMachine::new(), reference: None }
    }

    fn apply(mut sut: Sut<WH>, r: &RefSfpu<WH>, step: Step<WH>) -> Sut<WH> {
        let o = match step {
            Step::Issue(i) => sut.machine.issue(&mut sut.fast, &i),
            Step::Idle => sut.machine.idle(&mut sut.fast),
        };
        STEPS[WH as usize].fetch_add(1, Ordering::Relaxed);
        compare("after a step", r, &sut.fast, &sut.machine, &o);
        sut.reference = Some(r.clone());
        sut
    }

    fn teardown(mut sut: Sut<WH>) {
        let c = WH as usize;
        let Some(mut r) = sut.reference.take() else { return };
        let pending_before = !r.machine.pending().is_empty();
        let o_ref = r.machine.drain(&mut r.state);
        let o_fast = sut.machine.drain(&mut sut.fast);
        r.account(None, &o_ref, pending_before);
        r.last = o_ref;
        compare("after the final drain", &r, &sut.fast, &sut.machine, &o_fast);
        STREAMS[c].fetch_add(1, Ordering::Relaxed);
        if r.history.iter().any(|s| matches!(s, Step::Issue(i) if i.opcode() == Opcode::SFPLOADMACRO)) {
            MACROS[c].fetch_add(1, Ordering::Relaxed);
        }
        if !r.tracker.unpromised.is_empty() {
            TAINTED_STREAMS[c].fetch_add(1, Ordering::Relaxed);
        }
        if r.tracker.unpromised.all {
            UNDEFINED_STREAMS[c].fetch_add(1, Ordering::Relaxed);
        }
    }
}

/// Random streams agree on the fast model and the reference after every step and the drain, on
/// Blackhole and then on Wormhole.
#[test]
fn streams_agree_after_every_step() {
    // Shrinking panics many times; keep the divergence panics quiet (the final one is reported).
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let quiet = info.payload().downcast_ref::<String>().is_some_and(|m| m.starts_with(MARKER));
        if !quiet {
            default_hook(info);
        }
    }));
    // proptest's value trees for a whole state are deep: run on a thread with a large stack.
    let both = || {
        run_streams::<false>();
        run_streams::<true>();
    };
    let run = std::thread::Builder::new().stack_size(STACK).spawn(both).expect("a thread");
    let result = run.join();
    let _ = std::panic::take_hook();
    if let Err(e) = result {
        std::panic::resume_unwind(e);
    }
}

fn run_streams<const WH: bool>() {
    let arch = arch_of::<WH>();
    // Blackhole keeps the name (and seed) it had before Wormhole was added.
    let (name, n) = if WH { ("prop_streams/wormhole", cases(500)) } else { ("prop_streams", cases(1000)) };
    let config = config(n, name, PERSISTENCE);
    let mut runner = TestRunner::new(config.clone());
    let result = runner.run(&SfpuRef::<WH>::sequential_strategy(1..=64), |(initial, steps, seen)| {
        Sut::<WH>::test_sequential(config.clone(), initial, steps, seen);
        Ok(())
    });
    let c = WH as usize;
    eprintln!(
        "{arch}: streams {} (with SFPLOADMACRO {}), steps {}; tainted: streams {} (undefined behaviour {}), \
         steps {}, excused outcome differences {}",
        STREAMS[c].load(Ordering::Relaxed),
        MACROS[c].load(Ordering::Relaxed),
        STEPS[c].load(Ordering::Relaxed),
        TAINTED_STREAMS[c].load(Ordering::Relaxed),
        UNDEFINED_STREAMS[c].load(Ordering::Relaxed),
        TAINTED_STEPS[c].load(Ordering::Relaxed),
        EXCUSED_OUTCOMES[c].load(Ordering::Relaxed),
    );
    match result {
        Ok(()) => {}
        Err(TestError::Fail(reason, (_, steps, _))) => {
            panic!("{arch}: minimal failing stream ({} steps): {steps:?}\n{reason}", steps.len())
        }
        Err(TestError::Abort(why)) => panic!("proptest aborted: {why}"),
    }
}
