//! The cycle-level view: one regular instruction per cycle, the instructions SFPLOADMACRO
//! schedules on the simple, MAD, round and store sub-units, each chip's automatic stalls, and the
//! scheduling rules whose violation leaves results unspecified. The chip is the state's
//! ([`FastState::arch`]); the machine itself is the same for both.
//!
//! Implements BlackholeA0 `SFPLOADMACRO.md` ("Functional model", its timing paragraphs and the
//! sub-unit table) and WormholeB0 `SFPLOADMACRO.md` (@ `a981f403`: the same model, Wormhole's
//! `SFPLOAD`, two `AddrMod` bits, a table without SFPARECIP, SFPGT, SFPLE and SFPMUL24), the
//! "Instruction scheduling" sections of each chip's `SFPMAD.md`, `SFPLUTFP32.md`, `SFPSWAP.md`,
//! `SFPSHFT2.md`, `SFPCONFIG.md` (the read and write sets they talk about are [`crate::hazard`]'s).
//! The cycle model is the one documented for the reference's `Machine` (module docs of
//! `reference/sfpu/src/machine.rs`; `docs/spec/sfpu-blackhole.md#cycle-model`):
//!
//! 1. The scheduled instructions due this cycle arrive at their sub-units; a regular instruction
//!    issued to a sub-unit that receives one is discarded ([`Clause::LoadmacroCollision`]).
//! 2. Everything executing in a cycle reads the state as it was at the start of the cycle; writes
//!    are combined at the end, and two instructions writing one location differently break a
//!    scheduling rule ([`Clause::LoadmacroRule`]). Implementation: with more than one instruction
//!    in a cycle, the instructions run one after the other on the live state when their
//!    [`footprint`]s show that no location is written twice and an order exists
//!    in which every reader runs before the writer (the common case). Otherwise each one runs on a
//!    copy of the start-of-cycle values of everything any of them may write, and the changes are
//!    merged word by word (the 32 KB Dst is never copied: only the store sub-unit writes it, and
//!    besides the store itself, which reads the rows' valid bits before it writes, only the load
//!    sub-unit reads it, so the load runs first).
//! 3. Scheduled instructions count down once per cycle, or once per issued instruction while any
//!    pending one waits for elapsed instructions. Delay 0 executes on the next cycle, delay `d`
//!    `d + 1` cycles later.
//!
//! Two-cycle results (the MAD sub-unit) are written at the end of their first cycle. A regular
//! instruction that the stall logic sees reading such a result on the next cycle is held back one
//! cycle; any read of such a result on the next cycle that the stall logic does not prevent (its
//! documented blind spots, and everything scheduled by SFPLOADMACRO) is reported as
//! [`Clause::Hazard`].
//!
//! Wormhole has no stall logic but SFPSWAP's: after a regular SFPSWAP the next instruction other
//! than SFPNOP waits a cycle. Its other next-cycle rules are software's, and are checked between
//! everything executed on consecutive cycles (scheduled instructions included, discarded ones not):
//! a MAD-unit result read ([`Clause::WormholeMadResultRead`]) and SFPSHFT2's four rules after modes
//! 2..4, each with its own clause ([`crate::hazard::WormholeCycle`]). What the hardware does then
//! is not said; the values are this cycle model's (results written at the end of their first
//! cycle). Blackhole's `SFPSHFT2.md` idle-cycle rule for a scheduled SFPSHFT2 is Blackhole's page;
//! on Wormhole the same four rules apply to it. An instruction the state's chip cannot express
//! takes its cycle and its sub-unit but executes nothing ([`Clause::NotOnChip`]).
//!
//! Interpretation choices (recorded as required; all concern cases the pages leave open):
//! * "Forget any pre-existing scheduled instruction which would execute at the same point in
//!   time": the pending instructions have already counted this cycle down when the SFPLOADMACRO's
//!   scheduling runs, so a pending instruction whose remaining delay equals the new one's `Delay`
//!   executes on the same cycle, and that is what is cancelled (lane by lane).
//! * `LoadMacroConfig` that differs between lanes (unspecified,
//!   `docs/spec/sfpu-blackhole.md#loadmacro-rule`): reported as [`Clause::LoadmacroRule`], and lane
//!   0's configuration drives the schedule (see `FastMachine::schedule`). `Ctx::lanes` still lets a
//!   scheduled instruction be restricted to some lanes: the cancellation of an earlier schedule is
//!   per lane in the page's model.
//! * SFPSHFT2 counts as having a `VB` field (its form-A encoding draws `VB` in bits 15..12), so
//!   the macro logic's "if `Insn.VB` is None" does not replace it.
//! * The "exactly one of Simple and Round has `VD == 16`" rule (`SFPLOADMACRO.md` (†)) is about
//!   what *executes* on those two sub-units in a cycle: a scheduled instruction, SFPNOPs included
//!   (the macro logic gives them a `VD` too), or else a regular instruction issued to the sub-unit
//!   and not discarded. A regular instruction's `VD` is a 4-bit field, so it never counts as 16:
//!   a regular Simple instruction beside a scheduled Round one not writing `LReg[16]` (or the
//!   other way round) breaks the rule.
//! * `SFPSHFT2.md`: a scheduled SFPSHFT2 in mode 2, 3 or 4 gets no automatic stall, and the next
//!   cycle must be idle. Idle means what the stall logic enforces after a regular one: nothing but
//!   SFPNOP executes anywhere in the Vector Unit (load sub-unit included). As for the SFPSWAP rule,
//!   what counts is what executes: a regular instruction discarded by a scheduled SFPNOP does not
//!   make the cycle busy. A violation is [`Clause::LoadmacroRule`].
//! * The stall logic remembers what the thread issued even when a scheduled instruction took the
//!   sub-unit and the regular one was discarded (the issuing side cannot know).
//! * SFPCONFIG counts as reading `LReg[0]` for the hazard check exactly when its page's code
//!   reads it (`SFPMAD.md`: "SFPCONFIG can read from `LReg[0]`"): always for an
//!   InstructionTemplate write, otherwise unless `MOD1_IMM16_IS_VALUE`.
//! * SFPSWAP: the stall logic "does not realise that any reads are performed during the 1st
//!   cycle" (`SFPMAD.md`), so it never stalls SFPSWAP; its second-cycle reads come after a MAD
//!   result is written, and its first-cycle compare reads (modes other than `SWAP`) of a MAD result
//!   are reported as a hazard.
//! * SFPSTOCHRND: the stall logic sees a (false) dependency on its `VB` field in every flavour
//!   (`SFPSTOCHRND_*.md`: "a false dependency bug in the automatic stalling logic"; software sets
//!   `VB = VC` to avoid it).
//! * An SFPCONFIG that changes `DISABLE_BACKDOOR_LOAD` (in any lane) makes the instruction the
//!   thread issues on the very next cycle unspecified in its backdoor behaviour
//!   ([`Clause::SfpconfigDblChange`], for the whole instruction) if its `VD` field is 12 or more;
//!   an idle cycle in between is as good as the SFPNOP the page recommends.

use sfpu_reference::isa::{Arch, Instr, Opcode, SubUnit, U, decode_ignoring_undrawn, str_eq};
use sfpu_reference::outcome::{Clause, Outcome};

use crate::exec::{self, Ctx, is_two_cycle_producer};
use crate::footprint::{self, Footprint};
use crate::hazard::{WormholeCycle, actual_writes, bit, first_cycle_reads};
use crate::program::{self, Decoded, LOAD, MAD, Program, ROUND, SIMPLE, STORE, vd_field};
use crate::simd::{Handlers, ScheduledCycle};
use crate::state::{ALL, Core, FastState};

/// Most instructions that can be pending at once: at most one SFPLOADMACRO per issued instruction,
/// four entries each, each living at most eight issued instructions (more only with lane-varying
/// configuration, whose extra groups are dropped if the slots run out).
const CAPACITY: usize = 64;

/// [`FastMachine::finish_cycle`] flags: a scheduled SFPSWAP executed (`SFPLOADMACRO.md` (‡): Simple and
/// Round quiet next cycle), a scheduled SFPSHFT2 in mode 2..4 executed (`SFPSHFT2.md`: an idle cycle).
const QUIET_AFTER_SWAP: u8 = 1;
const IDLE_AFTER_SHFT2: u8 = 2;

/// Whether sub-unit `unit` of chip `arch` can execute `op` (the table at the top of
/// `SFPLOADMACRO.md`; Wormhole's table is Blackhole's without the instructions Wormhole lacks:
/// SFPARECIP, SFPGT, SFPLE on Simple, SFPMUL24 on MAD).
fn can_execute(arch: Arch, unit: u8, op: Opcode) -> bool {
    use Opcode::*;
    if layout_bits(arch, op) & ON_CHIP == 0 {
        return false;
    }
    match unit {
        SIMPLE => matches!(
            op,
            SFPABS
                | SFPAND
                | SFPARECIP
                | SFPCAST
                | SFPCOMPC
                | SFPCONFIG
                | SFPDIVP2
                | SFPENCC
                | SFPEXEXP
                | SFPEXMAN
                | SFPGT
                | SFPIADD
                | SFPLE
                | SFPLZ
                | SFPMOV
                | SFPNOP
                | SFPNOT
                | SFPOR
                | SFPPOPC
                | SFPPUSHC
                | SFPSETCC
                | SFPSETEXP
                | SFPSETMAN
                | SFPSETSGN
                | SFPSHFT
                | SFPSWAP
                | SFPTRANSP
                | SFPXOR
        ),
        MAD => matches!(
            op,
            SFPADD | SFPADDI | SFPLUT | SFPLUTFP32 | SFPMAD | SFPMUL | SFPMULI | SFPMUL24 | SFPNOP
        ),
        ROUND => matches!(op, SFPNOP | SFPSHFT2 | SFPSTOCHRND),
        _ => op == SFPSTORE,
    }
}

/// Whether the instruction has a field called `name` on chip `arch` (Wormhole's SFPAND and SFPOR
/// have no `VB`; SFPSHFT2 counts as having one). Compile-time only: [`LAYOUT_BITS`].
const fn has_field(arch: Arch, op: Opcode, name: &str) -> bool {
    let fields = op.fields(arch);
    let mut i = 0;
    while i < fields.len() {
        if str_eq(fields[i].name, name) {
            return true;
        }
        i += 1;
    }
    str_eq(name, "VB") && op as u8 == Opcode::SFPSHFT2 as u8
}

/// [`LAYOUT_BITS`] flags: the chip has the opcode; it has a `VB` field ([`has_field`]); a `VC`.
const ON_CHIP: u8 = 1;
const HAS_VB: u8 = 2;
const HAS_VC: u8 = 4;

/// Per chip ([`Arch::ALL`] order) and opcode number, what SFPLOADMACRO's scheduling asks of the
/// layout of each instruction it schedules ([`ON_CHIP`], [`HAS_VB`], [`HAS_VC`]), worked out at
/// compile time from `Opcode::layout`: asked at run time, the layout look-ups and field-name
/// comparisons were about 5% of the time of the bench's SFPLOADMACRO class.
const LAYOUT_BITS: [[u8; 256]; 2] = {
    let mut t = [[0u8; 256]; 2];
    let mut a = 0;
    while a < Arch::ALL.len() {
        let arch = Arch::ALL[a];
        let mut i = 0;
        while i < Opcode::ALL.len() {
            let op = Opcode::ALL[i];
            let mut bits = 0;
            if arch.has(op) {
                bits |= ON_CHIP;
            }
            if has_field(arch, op, "VB") {
                bits |= HAS_VB;
            }
            if has_field(arch, op, "VC") {
                bits |= HAS_VC;
            }
            t[a][op as usize] = bits;
            i += 1;
        }
        a += 1;
    }
    t
};

/// [`LAYOUT_BITS`] of `op` on `arch`.
fn layout_bits(arch: Arch, op: Opcode) -> u8 {
    let a = match arch {
        Arch::Blackhole => 0,
        Arch::Wormhole => 1,
    };
    LAYOUT_BITS[a][op as usize]
}

/// One instruction SFPLOADMACRO scheduled that has not executed yet.
#[derive(Clone, Copy, Debug)]
struct Pending {
    unit: u8,
    instr: Instr,
    cx: Ctx,
    remaining: u8,
    ready: bool,
    by_instructions: bool,
}

/// What the stall logic remembers of the regular instruction executed on the previous cycle.
#[derive(Clone, Copy, Debug, Default)]
struct StallMemory {
    /// LRegs the stall logic believes a two-cycle producer writes (0 if it was not one).
    writes: u32,
    /// SFPSWAP, or SFPSHFT2 modes 2..4: only SFPNOP may issue on the next cycle.
    blocks_next: bool,
}

/// What a [`TraceEvent`] records.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TraceWhat {
    /// A regular instruction executed.
    Issued,
    /// A scheduled instruction executed.
    Scheduled,
    /// A regular instruction was discarded because a scheduled one took its sub-unit.
    Discarded,
    /// The thread stalled for a cycle before issuing the instruction.
    Stalled,
}

/// One entry of the (optional) execution trace.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TraceEvent {
    /// The cycle, counting from 1 for the first cycle.
    pub cycle: u64,
    /// The sub-unit.
    pub unit: SubUnit,
    /// The instruction.
    pub instr: Instr,
    /// What happened.
    pub what: TraceWhat,
}

fn sub_unit(unit: u8) -> SubUnit {
    match unit {
        SIMPLE => SubUnit::Simple,
        MAD => SubUnit::MAD,
        ROUND => SubUnit::Round,
        STORE => SubUnit::Store,
        _ => SubUnit::Load,
    }
}

/// The cycle-level fast machine. Holds no architectural state (every call takes the
/// [`FastState`]). It allocates only its work space for multi-instruction cycles, the first time
/// it needs it, and the trace when asked to.
#[derive(Clone, Debug)]
pub struct FastMachine {
    cycle: u64,
    slots: [Pending; CAPACITY],
    /// Bit `i`: `slots[i]` holds a pending instruction.
    live: u64,
    /// Bit `i` of entry `u`: `slots[i]` was last filled with an instruction for sub-unit `u`
    /// (meaningful where `live` has bit `i`), so that SFPLOADMACRO's search for a pending
    /// instruction of one sub-unit looks at that sub-unit's slots only.
    unit_slots: [u64; 5],
    stall: StallMemory,
    /// Actual LReg writes of two-cycle instructions that executed on the previous cycle.
    prev_two_cycle_writes: u32,
    /// The same for the regular two-cycle instruction the thread issued on the previous cycle,
    /// even if a scheduled instruction took its sub-unit (the thread's view; it only concerns the
    /// thread's next instruction).
    prev_issued_writes: u32,
    /// A scheduled SFPSWAP executed on the previous cycle.
    prev_scheduled_swap: bool,
    /// Blackhole: the LRegs an SFPSWAP of the previous cycle (regular or scheduled) reads again
    /// and writes on its second cycle (BlackholeA0 `SFPSWAP.md`, caution).
    swap_second: u32,
    /// A scheduled SFPSHFT2 in mode 2, 3 or 4 executed on the previous cycle (Blackhole).
    prev_scheduled_shft2: bool,
    /// Wormhole: what the previous cycle's instructions ask of this cycle's (`hazard`).
    wh_prev: WormholeCycle,
    /// Lanes whose `DISABLE_BACKDOOR_LOAD` an SFPCONFIG changed, until the next regular issue.
    dbl_changed: u32,
    /// The execution trace, when enabled (allocated only on request).
    trace: Option<Vec<TraceEvent>>,
    /// Each macro's schedule as its configuration last made it (see [`FastMachine::plan`]).
    plans: [Option<MacroPlan>; 4],
    /// Start-of-cycle and combined copies of state for cycles whose instructions cannot run in
    /// place (allocated once, on the first such cycle).
    scratch: Option<Box<[Core; 2]>>,
    /// The instructions of a multi-instruction cycle, their footprints and their order (kept
    /// between cycles so that a cycle allocates nothing once they have grown).
    bufs: CycleBuffers,
}

/// What SFPLOADMACRO's macro logic makes of one macro's configuration (lane 0's `Sequence` word
/// of the macro, the four `InstructionTemplate`s and `Misc`, on one chip) before the macro's own
/// `VD`, `Mod0`, `Imm10` and address are known: for each sub-unit, what to cancel, what to report
/// and what to schedule. Worked out once per configuration ([`FastMachine::plan`]): a kernel runs
/// its macros thousands of times between two SFPCONFIGs, and decoding the templates, choosing the
/// instruction and looking up its sub-unit and fields on every SFPLOADMACRO instead made the
/// bench's Blackhole SFPLOADMACRO class about 9% slower (`--ab`; Wormhole's did not measurably
/// change).
#[derive(Clone, Copy, Debug)]
struct MacroPlan {
    /// The configuration the plan was made from.
    key: PlanKey,
    units: [UnitPlan; 4],
}

/// The configuration words a [`MacroPlan`] depends on.
#[derive(Clone, Copy, Debug)]
struct PlanKey {
    arch: Arch,
    sequence: u32,
    templates: [u32; 4],
    misc: u32,
}

/// One sub-unit's part of a [`MacroPlan`].
#[derive(Clone, Copy, Debug)]
struct UnitPlan {
    /// The `Sequence` byte (selector, delay, bits 6 and 7).
    b: u8,
    /// [`NOTE_SELECTOR_1`], [`NOTE_UNDRAWN`], [`NOTE_STORE_SLOT`]: the clauses to report.
    notes: u8,
    /// The instruction to schedule (the store's `Mod0` and `Imm10` still to be filled in), or
    /// nothing.
    insn: Option<Instr>,
    /// The template's `VD` field (kept when the instruction became an SFPNOP).
    template_vd: Option<u8>,
    /// [`layout_bits`] of the instruction.
    layout: u8,
    /// `Misc` says the delay counts issued instructions.
    by_instructions: bool,
}

/// [`UnitPlan::notes`] bits.
const NOTE_SELECTOR_1: u8 = 1;
const NOTE_UNDRAWN: u8 = 2;
const NOTE_STORE_SLOT: u8 = 4;

/// Reusable per-cycle work space of [`FastMachine`].
#[derive(Clone, Debug, Default)]
struct CycleBuffers {
    items: Vec<Item>,
    footprints: Vec<Footprint>,
    run: Vec<usize>,
}

/// Executes `instr` on `s` as if the thread issued it alone, and says what the specification
/// promises about the effect (same contract as `sfpu_reference::step`).
///
/// A lone SFPLOADMACRO runs its load part and then its whole schedule. Never panics. (Also
/// `crate::exec::step` and `crate::step`, where it is re-exported.)
#[inline]
pub fn step(s: &mut FastState, instr: &Instr) -> Outcome {
    if let Instr::SFPLOADMACRO { .. } = instr {
        return step_loadmacro(s, instr);
    }
    let mut out = Outcome::defined();
    exec::execute_regular(s, instr, &mut out);
    out
}

/// [`step`] for SFPLOADMACRO: a fresh machine, the issue, and the drain. Kept out of line so that
/// the machine's few KB of pending-instruction slots do not enlarge every `step`'s stack frame.
#[inline(never)]
fn step_loadmacro(s: &mut FastState, instr: &Instr) -> Outcome {
    let mut m = FastMachine::new();
    let mut out = m.issue(s, instr);
    out.merge(&m.drain(s));
    out
}

/// The copy-and-merge cycle as `simd::run_with_scheduled` compiles it per SIMD level (through
/// this trait, so that `simd` need not name the machine).
impl ScheduledCycle for FastMachine {
    #[inline(always)]
    fn run_scheduled_cycle(
        &mut self,
        s: &mut FastState,
        due: u64,
        issued: Option<&Decoded>,
        executes: Option<&Decoded>,
        issued_hazard: bool,
        out: &mut Outcome,
    ) {
        self.run_with_scheduled_on(s, due, issued, executes, issued_hazard, out)
    }
}

impl Default for FastMachine {
    fn default() -> Self {
        FastMachine::new()
    }
}

/// One instruction executing in a cycle.
#[derive(Clone, Copy, Debug)]
struct Item {
    unit: u8,
    instr: Instr,
    cx: Ctx,
    regular: bool,
}

/// The [`Item`] of a regular instruction that executes.
fn regular_item(d: &Decoded) -> Item {
    Item { unit: d.unit, instr: d.instr, cx: Ctx::REGULAR, regular: true }
}

/// SFPNOP, decoded: what [`FastMachine::drain`] issues while an instruction waits for issued ones.
static NOP: std::sync::LazyLock<Decoded> = std::sync::LazyLock::new(|| Decoded::new(&Instr::SFPNOP {}));

/// An unused slot.
const EMPTY: Pending = Pending {
    unit: LOAD,
    instr: Instr::SFPNOP {},
    cx: Ctx::REGULAR,
    remaining: 0,
    ready: false,
    by_instructions: false,
};

impl FastMachine {
    /// A machine with nothing pending, at cycle 0.
    pub fn new() -> FastMachine {
        FastMachine {
            cycle: 0,
            slots: [EMPTY; CAPACITY],
            live: 0,
            unit_slots: [0; 5],
            stall: StallMemory::default(),
            prev_two_cycle_writes: 0,
            prev_issued_writes: 0,
            prev_scheduled_swap: false,
            swap_second: 0,
            prev_scheduled_shft2: false,
            wh_prev: WormholeCycle::default(),
            dbl_changed: 0,
            trace: None,
            plans: [None; 4],
            scratch: None,
            bufs: CycleBuffers::default(),
        }
    }

    /// Makes this machine what [`FastMachine::new`] returns (nothing pending, cycle 0, no
    /// trace) while keeping its scratch storage, so that a caller running many short programs
    /// (the fuzz oracle) allocates nothing per program.
    ///
    /// Field by field, not `*self = ...`: replacing the whole value runs the old one's drop glue
    /// (its vectors and boxes, empty or not), about ten coverage counters that libFuzzer
    /// processes on every execution of the fuzz targets. The pattern names every field, so a new
    /// one cannot be forgotten here; `reset_machines_behave_as_new_ones`
    /// (`fastpath/sfpu/tests/it/machine_diff.rs`) checks the values.
    pub fn reset(&mut self) {
        let FastMachine {
            cycle,
            slots,
            live,
            unit_slots,
            stall,
            prev_two_cycle_writes,
            prev_issued_writes,
            prev_scheduled_swap,
            swap_second,
            prev_scheduled_shft2,
            wh_prev,
            dbl_changed,
            trace,
            plans,
            scratch: _,
            bufs: _,
        } = self;
        *cycle = 0;
        *slots = [EMPTY; CAPACITY];
        *live = 0;
        *unit_slots = [0; 5];
        *stall = StallMemory::default();
        *prev_two_cycle_writes = 0;
        *prev_issued_writes = 0;
        *prev_scheduled_swap = false;
        *swap_second = 0;
        *prev_scheduled_shft2 = false;
        *wh_prev = WormholeCycle::default();
        *dbl_changed = 0;
        if trace.is_some() {
            *trace = None;
        }
        *plans = [None; 4];
    }

    /// Starts recording a [`TraceEvent`] for everything that executes, stalls or is discarded.
    pub fn enable_trace(&mut self) {
        self.trace.get_or_insert_with(Vec::new);
    }

    /// The recorded trace (empty unless [`enable_trace`](FastMachine::enable_trace) was called).
    pub fn trace(&self) -> &[TraceEvent] {
        self.trace.as_deref().unwrap_or(&[])
    }

    fn record(&mut self, unit: u8, instr: Instr, what: TraceWhat) {
        let cycle = self.cycle;
        if let Some(t) = self.trace.as_mut() {
            t.push(TraceEvent { cycle, unit: sub_unit(unit), instr, what });
        }
    }

    /// The number of cycles elapsed.
    pub fn cycle(&self) -> u64 {
        self.cycle
    }

    /// The number of scheduled instructions that have not executed yet.
    pub fn pending_count(&self) -> usize {
        self.live.count_ones() as usize
    }

    /// The pending entries.
    fn pending(&self) -> impl Iterator<Item = &Pending> + '_ {
        // Visits the set bits of `live` only (not all the slots).
        let mut live = self.live;
        std::iter::from_fn(move || {
            let i = live.trailing_zeros() as usize;
            live &= live.wrapping_sub(1);
            self.slots.get(i)
        })
    }

    /// The thread issues `instr`: after any stall cycle the hardware inserts, it executes in its
    /// sub-unit alongside whatever SFPLOADMACRO scheduled for that cycle.
    pub fn issue(&mut self, s: &mut FastState, instr: &Instr) -> Outcome {
        self.issue_decoded(s, &Decoded::new(instr))
    }

    /// [`issue`](FastMachine::issue) of an instruction decoded beforehand ([`Decoded::new`]).
    pub fn issue_decoded(&mut self, s: &mut FastState, d: &Decoded) -> Outcome {
        let mut out = Outcome::defined();
        self.issue_on_state_chip(Handlers::current(s.is_wormhole()), s, d, &mut out);
        out
    }

    /// Issues every instruction of `program` in order, as [`issue`](FastMachine::issue) would one
    /// by one, and returns the merge of their outcomes (nothing is drained: pending scheduled
    /// instructions stay pending, as after the last `issue`).
    pub fn run(&mut self, s: &mut FastState, program: &Program) -> Outcome {
        if s.is_wormhole() { self.run_on::<true>(s, program) } else { self.run_on::<false>(s, program) }
    }

    /// [`run`](FastMachine::run) compiled for one chip (`WH`: Wormhole), so that the loop and the
    /// cycles it runs test a constant, not the state's chip after every instruction.
    #[inline(never)]
    fn run_on<const WH: bool>(&mut self, s: &mut FastState, program: &Program) -> Outcome {
        let mut out = Outcome::defined();
        let handlers = Handlers::current(WH);
        for d in program.decoded() {
            self.issue_into::<WH>(handlers, s, d, &mut out);
        }
        out
    }

    /// [`issue_into`](FastMachine::issue_into) on the state's chip, for the callers that issue one
    /// instruction at a time.
    fn issue_on_state_chip(
        &mut self,
        handlers: &Handlers,
        s: &mut FastState,
        d: &Decoded,
        out: &mut Outcome,
    ) {
        if s.is_wormhole() {
            self.issue_into::<true>(handlers, s, d, out);
        } else {
            self.issue_into::<false>(handlers, s, d, out);
        }
    }

    /// Issues `d` on the chip `WH` names (the state's), with `handlers` that chip's table of
    /// per-opcode model copies.
    #[inline(always)]
    fn issue_into<const WH: bool>(
        &mut self,
        handlers: &Handlers,
        s: &mut FastState,
        d: &Decoded,
        out: &mut Outcome,
    ) {
        if self.must_stall(d) {
            self.run_cycle_on::<WH>(handlers, s, None, out);
            self.record(d.unit, d.instr, TraceWhat::Stalled);
        }
        // The common cycle here, inlined into the caller's loop; the others out of line.
        if !self.common_cycle::<WH>(handlers, s, d, out) {
            self.run_cycle_on::<WH>(handlers, s, Some(d), out);
        }
    }

    /// The common cycle, what [`run_cycle_on`](FastMachine::run_cycle_on)'s steps come to when
    /// nothing is pending, nothing the previous cycle did needs a look (no SFPCONFIG change of
    /// DISABLE_BACKDOOR_LOAD, no scheduled SFPSWAP or SFPSHFT2, no SFPSWAP's second cycle, no
    /// trace), and the thread issues `d`, an instruction of the chip with no cycle-level side of
    /// its own (`Decoded::plain`): the hazard checks, the execution, the record for the next
    /// cycle. Runs it and returns `true` when the cycle is one; else leaves everything as it was
    /// and returns `false`.
    #[inline(always)]
    fn common_cycle<const WH: bool>(
        &mut self,
        handlers: &Handlers,
        s: &mut FastState,
        d: &Decoded,
        out: &mut Outcome,
    ) -> bool {
        let wormhole = WH;
        if !(d.plain
            && d.on_chip(wormhole)
            && self.live == 0
            && self.dbl_changed == 0
            && !(self.prev_scheduled_swap | self.prev_scheduled_shft2)
            && self.swap_second == 0
            && self.trace.is_none())
        {
            return false;
        }
        self.cycle += 1;
        if d.first_reads & (self.prev_issued_writes | self.prev_two_cycle_writes) != 0 {
            out.note_all(Clause::Hazard);
        }
        if wormhole && !self.wh_prev.is_quiet() {
            self.check_wormhole_regular(s, d, out);
        }
        program::execute_regular_with(handlers, wormhole, s, d, out);
        self.finish_cycle(wormhole, Some(d), true, &[], 0);
        true
    }

    /// Wormhole's next-cycle rules for the regular instruction `d` of a common cycle: out of
    /// line, so that the loop [`common_cycle`](FastMachine::common_cycle) is inlined into stays
    /// small.
    #[inline(never)]
    fn check_wormhole_regular(&self, s: &FastState, d: &Decoded, out: &mut Outcome) {
        self.wh_prev.check(&d.instr, &Ctx::REGULAR, s.lc().dest_index != 0, out);
    }

    /// One cycle in which the thread issues nothing.
    pub fn idle(&mut self, s: &mut FastState) -> Outcome {
        let mut out = Outcome::defined();
        // A cycle without an instruction gives an SFPCONFIG's write of DISABLE_BACKDOOR_LOAD the
        // time the SFPNOP that SFPCONFIG.md recommends would give it: the "next instruction" of
        // the page is the one issued on the next cycle.
        self.dbl_changed = 0;
        self.run_cycle(Handlers::current(s.is_wormhole()), s, None, &mut out);
        out
    }

    /// Runs until nothing is pending. While a pending instruction waits for elapsed instructions,
    /// the thread issues SFPNOPs (which count), as a program would have to.
    pub fn drain(&mut self, s: &mut FastState) -> Outcome {
        let mut out = Outcome::defined();
        let handlers = Handlers::current(s.is_wormhole());
        // Every pending instruction executes within 9 counted steps; the bound only guards
        // against a logic error turning into a hang.
        for _ in 0..4096 {
            if self.live == 0 {
                break;
            }
            if self.pending().any(|p| p.by_instructions) {
                self.issue_on_state_chip(handlers, s, &NOP, &mut out);
            } else {
                self.run_cycle(handlers, s, None, &mut out);
            }
        }
        out
    }

    /// Whether the stall logic holds `d` back one cycle (`SFPMAD.md` "Instruction scheduling").
    fn must_stall(&self, d: &Decoded) -> bool {
        if self.stall.blocks_next && d.op != Opcode::SFPNOP {
            return true;
        }
        d.stall_reads & self.stall.writes != 0
    }

    /// Advances one cycle, executing what is due, with `regular` issued by the thread.
    fn run_cycle(
        &mut self,
        handlers: &Handlers,
        s: &mut FastState,
        regular: Option<&Decoded>,
        out: &mut Outcome,
    ) {
        if s.is_wormhole() {
            self.run_cycle_on::<true>(handlers, s, regular, out)
        } else {
            self.run_cycle_on::<false>(handlers, s, regular, out)
        }
    }

    /// [`run_cycle`](FastMachine::run_cycle) on the chip `WH` names, which must be the state's.
    /// Out of line: [`issue_into`](FastMachine::issue_into) runs the common cycle itself. (So the
    /// common-cycle test below repeats one `issue_into` has made; without it the SFPLOADMACRO
    /// class, whose cycles are never common, ran at 0.87x / 0.89x in `--ab`: the compiler laid
    /// this function out otherwise.)
    #[inline(never)]
    fn run_cycle_on<const WH: bool>(
        &mut self,
        handlers: &Handlers,
        s: &mut FastState,
        regular: Option<&Decoded>,
        out: &mut Outcome,
    ) {
        debug_assert_eq!(WH, s.is_wormhole());
        if let Some(d) = regular
            && self.common_cycle::<WH>(handlers, s, d, out)
        {
            return;
        }
        self.cycle += 1;
        let wormhole = WH;

        // 1. What arrives this cycle: the pending entries that were ready at the cycle's start.
        let mut due = 0u64;
        let mut due_units = 0u8;
        let mut live = self.live;
        while live != 0 {
            let i = live.trailing_zeros() as usize;
            live &= live - 1;
            if self.slots[i].ready {
                due |= 1 << i;
                due_units |= 1 << self.slots[i].unit;
            }
        }
        self.live &= !due;

        // 2. Count down what stays pending (before this cycle's SFPLOADMACRO schedules anything).
        if self.live != 0 {
            let waits_for_instructions = self.pending().any(|p| p.by_instructions);
            if regular.is_some() || !waits_for_instructions {
                let mut live = self.live;
                while live != 0 {
                    let i = live.trailing_zeros() as usize;
                    live &= live - 1;
                    let p = &mut self.slots[i];
                    p.remaining = p.remaining.saturating_sub(1);
                    if p.remaining == 0 {
                        p.ready = true;
                    }
                }
            }
        }

        // 3. The regular instruction, unless a scheduled one took its sub-unit. The stall logic
        // remembers it either way. (Its `Item` is built only where a list of what executes is
        // needed: building and copying it on every cycle cost more than the rest of the
        // bookkeeping, through store-forwarding stalls.)
        let mut executes: Option<&Decoded> = None;
        let issued = regular;
        if let Some(d) = regular {
            let unit = d.unit;
            if unit != LOAD && due_units & (1 << unit) != 0 {
                out.note_all(Clause::LoadmacroCollision);
                self.record(unit, d.instr, TraceWhat::Discarded);
            } else if !d.on_chip(wormhole) {
                // Not one of the chip's instructions (`Instr` is both chips'): nothing executes.
                out.note_all(Clause::NotOnChip);
            } else {
                executes = Some(d);
            }
            if self.dbl_changed != 0 {
                if d.vd_ge12_not_config {
                    out.note_all(Clause::SfpconfigDblChange);
                }
                self.dbl_changed = 0;
            }
        }

        // Hazards are checked on two sides: at issue, the thread's instruction against the result
        // of the thread's previous instruction (even if either was discarded: the thread's view of
        // a discarded instruction is unspecified, and it is treated as issued); at execution,
        // everything that executes against the results of everything that executed last cycle.
        let issued_hazard = issued.is_some_and(|d| d.first_reads & self.prev_issued_writes != 0);

        // Fast path: only the regular instruction executes (`executes`: `issued`, unless discarded).
        if due == 0 {
            let exec_hazard = executes.is_some_and(|d| d.first_reads & self.prev_two_cycle_writes != 0);
            if issued_hazard || exec_hazard {
                out.note_all(Clause::Hazard);
            }
            if let Some(d) = executes.filter(|_| self.prev_scheduled_swap || self.prev_scheduled_shft2) {
                self.check_rules(&[regular_item(d)], out);
            }
            if wormhole && let Some(d) = executes.filter(|_| !self.wh_prev.is_quiet()) {
                self.wh_prev.check(&d.instr, &Ctx::REGULAR, s.lc().dest_index != 0, out);
            }
            if self.swap_second != 0 {
                let reg = executes.map(regular_item);
                self.check_swap_second(reg.as_slice(), out);
            }
            self.swap_second = match executes {
                Some(d) if !wormhole && d.op == Opcode::SFPSWAP => swap_second_set(s, &[regular_item(d)]),
                _ => 0,
            };
            if let Some(d) = executes {
                let dbl_before = s.lc().dbl;
                if self.trace.is_some() || d.op == Opcode::SFPLOADMACRO {
                    self.execute_item(s, &regular_item(d), out);
                } else {
                    program::execute_regular_with(handlers, wormhole, s, d, out);
                }
                if d.op == Opcode::SFPCONFIG {
                    self.dbl_changed |= dbl_before ^ s.lc().dbl;
                }
            }
            self.finish_cycle(wormhole, issued, executes.is_some(), &[], 0);
            return;
        }

        self.run_with_scheduled(s, due, issued, executes, issued_hazard, out);
    }

    /// The rest of a cycle in which scheduled instructions execute (`due`), with the regular
    /// one `executes` if any; kept out of [`run_cycle`](FastMachine::run_cycle), whose common
    /// case (nothing scheduled) then stays small. Runs [`run_with_scheduled_on`]'s copy for the
    /// SIMD level in force (`simd::run_with_scheduled`), so that the state copies and merges of
    /// the copy-and-merge path use the level's vector moves.
    ///
    /// [`run_with_scheduled_on`]: FastMachine::run_with_scheduled_on
    #[inline(never)]
    fn run_with_scheduled(
        &mut self,
        s: &mut FastState,
        due: u64,
        issued: Option<&Decoded>,
        executes: Option<&Decoded>,
        issued_hazard: bool,
        out: &mut Outcome,
    ) {
        crate::simd::run_with_scheduled(self, s, due, issued, executes, issued_hazard, out)
    }

    /// [`run_with_scheduled`](FastMachine::run_with_scheduled)'s body, inlined into each SIMD
    /// level's copy.
    #[inline(always)]
    pub(crate) fn run_with_scheduled_on(
        &mut self,
        s: &mut FastState,
        due: u64,
        issued: Option<&Decoded>,
        executes: Option<&Decoded>,
        issued_hazard: bool,
        out: &mut Outcome,
    ) {
        let wormhole = s.is_wormhole();
        // Execution order: the load sub-unit first (it reads Dst before a store writes it), then
        // simple, MAD, round, store; the regular instruction at its sub-unit's place. Where two of
        // them write one location differently (a broken rule, unspecified), the later one's value
        // is kept: `docs/spec/sfpu-blackhole.md#conflicting-writes-in-one-cycle`, shared with the
        // reference (the pages are silent; this is the Sequence byte order of `SFPLOADMACRO.md`,
        // and a MAD result lands after a Simple one).
        let mut bufs = std::mem::take(&mut self.bufs);
        let items = &mut bufs.items;
        items.clear();
        // The regular instruction's item is built where it goes, in the buffer: an
        // `Option<Item>` kept on the stack was stored in pieces and then read whole for each
        // copy, a store-forwarding stall.
        if let Some(d) = executes.filter(|d| d.unit == LOAD) {
            items.push(regular_item(d));
        }
        for unit in [SIMPLE, MAD, ROUND, STORE] {
            let mut d = due;
            while d != 0 {
                let i = d.trailing_zeros() as usize;
                d &= d - 1;
                let p = &self.slots[i];
                if p.unit == unit {
                    items.push(Item { unit, instr: p.instr, cx: p.cx, regular: false });
                }
            }
            if let Some(d) = executes.filter(|d| d.unit == unit) {
                items.push(regular_item(d));
            }
        }
        let order = &bufs.items[..];

        // 4. The SFPLOADMACRO rules on what executes together, and hazards.
        self.check_rules(order, out);
        if self.swap_second != 0 {
            self.check_swap_second(order, out);
        }
        self.swap_second = if wormhole { 0 } else { swap_second_set(s, order) };
        if issued_hazard
            || (self.prev_two_cycle_writes != 0
                && order
                    .iter()
                    .any(|it| first_cycle_reads(&it.instr, &it.cx) & self.prev_two_cycle_writes != 0))
        {
            out.note_all(Clause::Hazard);
        }
        if wormhole && !self.wh_prev.is_quiet() {
            let dest_index = s.lc().dest_index != 0;
            for it in order {
                self.wh_prev.check(&it.instr, &it.cx, dest_index, out);
            }
        }

        // 5. Execute, every instruction seeing the start-of-cycle state.
        let dbl_before = s.lc().dbl;
        let config_ran = order.iter().any(|it| matches!(it.instr, Instr::SFPCONFIG { .. }));
        if order.len() == 1 {
            self.execute_item(s, &order[0], out);
        } else {
            let (fps, run) = (&mut bufs.footprints, &mut bufs.run);
            fps.clear();
            let captures = s.lc().dest_index & s.lc().capture_index != 0;
            fps.extend(order.iter().map(|it| footprint::footprint(&it.instr, &it.cx, it.regular, captures)));
            let written = fps.iter().fold(0, |w, f| w | f.writes);
            run.clear();
            run.resize(order.len(), 0);
            if let Some(n) = footprint::order(fps, run).filter(|_| self.trace.is_none()) {
                // Nothing is written twice, and every reader runs before the writer: running them
                // one after the other on the live state is the same as the copies below. (Not while
                // tracing, so that the trace keeps the sub-unit order.)
                for &i in &run[..n] {
                    self.execute_item(s, &order[i], out);
                }
            } else {
                // Every instruction starts from the start-of-cycle values of what any of them may
                // write (the rest is never written, so is the start-of-cycle state already); Dst
                // needs no copy (see point 2 of the module docs). After each one, only what it may
                // have written is folded into the result and put back to the start-of-cycle values,
                // so the next one starts from them again: copying every written location around
                // every instruction (a cycle's footprint, not each instruction's) made SFPLOADMACRO
                // about 11% slower in the bench's program.
                let m = written & !footprint::DST;
                let mut scratch = self.scratch.take().unwrap_or_default();
                let [base, acc] = &mut *scratch;
                s.save_core(base, m);
                s.save_core(acc, m);
                let mut conflict = false;
                for (it, fp) in order.iter().zip(fps.iter()) {
                    let w = fp.writes & m;
                    self.execute_item(s, it, out);
                    conflict |= acc.merge(base, s, w);
                    s.restore_core(base, w);
                }
                s.restore_core(acc, m);
                self.scratch = Some(scratch);
                if conflict {
                    out.note_all(Clause::LoadmacroRule);
                }
            }
        }
        if config_ran {
            self.dbl_changed |= dbl_before ^ s.lc().dbl;
        }
        let mut quiet_next = 0u8;
        for it in order.iter().filter(|it| !it.regular) {
            match it.instr {
                Instr::SFPSWAP { .. } => quiet_next |= QUIET_AFTER_SWAP,
                // BlackholeA0 `SFPSHFT2.md`; Wormhole's next-cycle rules are `hazard`'s.
                Instr::SFPSHFT2 { Mod1, .. } if matches!(Mod1.get(), 2..=4) && !wormhole => {
                    quiet_next |= IDLE_AFTER_SHFT2
                }
                _ => {}
            }
        }
        self.finish_cycle(wormhole, issued, executes.is_some(), order, quiet_next);
        self.bufs = bufs;
    }

    /// Records what the next cycle needs to know about this one. `issued` is the instruction the
    /// thread issued (even if it was discarded, which the issuing side does not know),
    /// `issued_executed` whether it executed, `scheduled_and_regular` everything that executed
    /// when that was more than the regular instruction alone; `quiet_next` the
    /// [`QUIET_AFTER_SWAP`] / [`IDLE_AFTER_SHFT2`] demands that this cycle's scheduled
    /// instructions make of the next one.
    ///
    /// On Wormhole there is no stall logic but the one after SFPSWAP, and what the next cycle
    /// needs is [`WormholeCycle`] (MAD-unit writes, SFPSHFT2 modes 2..4) of everything executed.
    fn finish_cycle(
        &mut self,
        wormhole: bool,
        issued: Option<&Decoded>,
        issued_executed: bool,
        scheduled_and_regular: &[Item],
        quiet_next: u8,
    ) {
        // What executed: `scheduled_and_regular`, or else the issued instruction if it executed
        // (a regular issue, whose footprints `Decoded` holds).
        let alone = if scheduled_and_regular.is_empty() { issued.filter(|_| issued_executed) } else { None };
        self.prev_scheduled_swap = quiet_next & QUIET_AFTER_SWAP != 0;
        if wormhole {
            let next = match alone {
                Some(d) => d.wh_next,
                None => {
                    let mut next = WormholeCycle::default();
                    for it in scheduled_and_regular {
                        next.add(&it.instr, &it.cx);
                    }
                    next
                }
            };
            self.wh_prev = next;
            self.prev_issued_writes = 0;
            self.prev_two_cycle_writes = 0;
            self.prev_scheduled_shft2 = false;
            self.stall =
                StallMemory { writes: 0, blocks_next: issued.is_some_and(|d| d.op == Opcode::SFPSWAP) };
            return;
        }
        let w2 = match alone {
            Some(d) => d.two_cycle_writes,
            None => {
                let mut w2 = 0u32;
                for it in scheduled_and_regular {
                    if is_two_cycle_producer(it.instr.opcode()) {
                        w2 |= actual_writes(&it.instr, &it.cx);
                    }
                }
                w2
            }
        };
        self.prev_issued_writes = issued.map_or(0, |d| d.two_cycle_writes);
        self.prev_two_cycle_writes = w2;
        self.prev_scheduled_shft2 = quiet_next & IDLE_AFTER_SHFT2 != 0;
        self.stall = match issued {
            Some(d) => StallMemory { writes: d.stall_writes, blocks_next: d.blocks_next },
            None => StallMemory::default(),
        };
    }

    /// Executes one item on `s`: a regular instruction (with the backdoor rule; SFPLOADMACRO
    /// also schedules), or a scheduled one.
    fn execute_item(&mut self, s: &mut FastState, it: &Item, out: &mut Outcome) {
        if self.trace.is_some() {
            let what = if it.regular { TraceWhat::Issued } else { TraceWhat::Scheduled };
            self.record(it.unit, it.instr, what);
        }
        if !it.regular {
            exec::execute(s, &it.instr, &it.cx, out);
            return;
        }
        if let Instr::SFPLOADMACRO { MacroIndex, VDLo, Mod0, AddrMod, Imm9, VDHi } = it.instr {
            // The load part first reads LoadMacroConfig as it was at the start of the cycle; the
            // load itself cannot change it.
            let vd = (VDHi.get() << 2) | VDLo.get();
            let imm10 = (Imm9.get() << 1) | VDHi.get();
            let addr = exec::sfpload(s, vd, Mod0.get(), AddrMod.get(), imm10, out);
            self.schedule(s, MacroIndex.get(), vd, Mod0.get(), imm10, addr, out);
        } else {
            exec::execute_regular(s, &it.instr, out);
        }
    }

    /// The scheduling part of SFPLOADMACRO (`SFPLOADMACRO.md` "Functional model").
    ///
    /// The page's model runs per lane, and `LoadMacroConfig` may in theory differ between lanes;
    /// the page only says that software should not do that (and that all lanes must schedule a
    /// store if any does). Such a difference is reported as [`Clause::LoadmacroRule`] whenever the
    /// `Sequence` word of this macro, any `InstructionTemplate`, or `Misc` differs between lanes;
    /// the schedule then follows lane 0's configuration, for all lanes.
    fn schedule(
        &mut self,
        s: &FastState,
        macro_index: u32,
        vd: u32,
        mod0: u32,
        imm10: u32,
        addr: u32,
        out: &mut Outcome,
    ) {
        let mi = (macro_index & 3) as usize;
        // Branch-free, so that it vectorises (an early-exit loop per register did not).
        let uniform = |v: &[u32; 32]| v.iter().fold(0, |acc, &x| acc | (x ^ v[0])) == 0;
        let agree =
            uniform(&s.lmc.sequence[mi]) && s.lmc.template.iter().all(uniform) && uniform(&s.lmc.misc);
        if !agree {
            out.note_all(Clause::LoadmacroRule);
        }
        let units = self.plan(s, mi);
        // Bit 4 + mi of `Misc`: the scheduled store takes the macro's `Mod0`, else `Misc`'s
        // low four bits.
        let misc = s.lmc.misc[0];
        let store_mod0 = if (misc >> (4 + mi)) & 1 != 0 { mod0 } else { misc & 0xF };
        for (unit, plan) in (0..4u8).zip(units) {
            self.schedule_unit(unit, &plan, vd, store_mod0, imm10, addr, out);
        }
    }

    /// The [`MacroPlan`] of macro `mi` for the state's configuration (its sub-units' parts): the
    /// remembered one if the configuration is the one it was made from, else a new one.
    fn plan(&mut self, s: &FastState, mi: usize) -> [UnitPlan; 4] {
        let lead = 0;
        let (arch, lmc) = (s.arch(), &s.lmc);
        // Compared word by word with the state (a `PlanKey` built on the stack and compared whole
        // was read back before its stores had landed, a store-forwarding stall).
        if let Some(p) = &self.plans[mi]
            && p.key.arch == arch
            && p.key.sequence == lmc.sequence[mi][lead]
            && p.key.misc == lmc.misc[lead]
            && (0..4).all(|k| p.key.templates[k] == lmc.template[k][lead])
        {
            return p.units;
        }
        let key = PlanKey {
            arch,
            sequence: lmc.sequence[mi][lead],
            templates: std::array::from_fn(|k| lmc.template[k][lead]),
            misc: lmc.misc[lead],
        };
        let units = std::array::from_fn(|u| unit_plan(&key, u as u8));
        self.plans[mi] = Some(MacroPlan { key, units });
        units
    }

    /// Schedules what sub-unit `unit` gets, from its part of the macro's plan (lane 0's
    /// configuration), the macro's `VD` and `Imm10`, the store's `Mod0` and the macro's address.
    fn schedule_unit(
        &mut self,
        unit: u8,
        plan: &UnitPlan,
        vd: u32,
        store_mod0: u32,
        imm10: u32,
        addr: u32,
        out: &mut Outcome,
    ) {
        let g = ALL;
        let b = plan.b;
        let delay = (b >> 3) & 7;
        if delay != 7 {
            let mut live = self.live & self.unit_slots[unit as usize];
            while live != 0 {
                let i = live.trailing_zeros() as usize;
                live &= live - 1;
                let p = &mut self.slots[i];
                if p.remaining == delay {
                    p.cx.lanes &= !g;
                    if p.cx.lanes == 0 {
                        self.live &= !(1 << i);
                    }
                }
            }
        }
        if plan.notes != 0 {
            for (bit, clause) in [
                (NOTE_SELECTOR_1, Clause::LoadmacroSelector1),
                (NOTE_UNDRAWN, Clause::UndrawnBits),
                (NOTE_STORE_SLOT, Clause::LoadmacroStoreSlotNotStore),
            ] {
                if plan.notes & bit != 0 {
                    out.note(clause, g);
                }
            }
        }
        let Some(insn) = plan.insn else { return };
        let mut cx = Ctx { scheduled: true, lanes: g, ..Ctx::REGULAR };
        let tvd = plan.template_vd;
        let insn = if unit != STORE {
            if b & 0x80 != 0 {
                cx.vb = Some(vd as u8);
                cx.vb_is_macro_vd = true;
                if plan.layout & HAS_VC == 0 {
                    cx.vc = tvd;
                }
            } else {
                cx.vc = Some(vd as u8);
                if plan.layout & HAS_VB == 0 {
                    cx.vb = tvd;
                }
            }
            cx.vd = Some(if b & 0x40 != 0 { 16 } else { vd as u8 });
            insn
        } else {
            cx.vd = Some(if b & 0x40 != 0 {
                16
            } else if b & 0x80 != 0 {
                tvd.unwrap_or(0)
            } else {
                vd as u8
            });
            cx.store_addr = addr;
            match insn {
                Instr::SFPSTORE { VD, AddrMod, .. } => Instr::SFPSTORE {
                    VD,
                    Mod0: U::new(store_mod0 & 0xF).unwrap_or_default(),
                    AddrMod,
                    Imm10: U::new(imm10 & 0x3FF).unwrap_or_default(),
                },
                other => other,
            }
        };
        let by_instructions = plan.by_instructions;
        let entry = Pending { unit, instr: insn, cx, remaining: delay, ready: delay == 0, by_instructions };
        let free = !self.live;
        if free != 0 {
            let i = free.trailing_zeros() as usize;
            self.slots[i] = entry;
            self.live |= 1 << i;
            for (u, slots) in self.unit_slots.iter_mut().enumerate() {
                *slots = if u == unit as usize { *slots | (1 << i) } else { *slots & !(1 << i) };
            }
        }
    }

    /// SFPSWAP's second cycle is not protected by the stall logic under SFPLOADMACRO (BlackholeA0
    /// `SFPSWAP.md`, caution): an instruction on the load, MAD or store sub-unit this cycle whose
    /// `VD`, or one of whose first-cycle reads, is a register the previous cycle's SFPSWAP is
    /// re-reading and writing leaves the result unspecified. (Simple and round are `SFPLOADMACRO.md`'s
    /// rule after a scheduled SFPSWAP; regular instructions are stalled after a regular one.)
    fn check_swap_second(&self, items: &[Item], out: &mut Outcome) {
        for it in items.iter().filter(|it| matches!(it.unit, LOAD | MAD | STORE)) {
            let named = match it.instr {
                Instr::SFPNOP {} => continue,
                Instr::SFPLOADMACRO { VDLo, VDHi, .. } => bit(((VDHi.get() << 2) | VDLo.get()) as usize),
                _ => vd_field(&it.instr).map_or(0, |vd| bit(it.cx.vd(vd))),
            };
            if (named | first_cycle_reads(&it.instr, &it.cx)) & self.swap_second != 0 {
                out.note_all(Clause::SfpswapSecondCycle);
                return;
            }
        }
    }

    /// The constraints of `SFPLOADMACRO.md` on what executes together, and the
    /// idle cycle `SFPSHFT2.md` asks for after a scheduled SFPSHFT2 in modes 2..4. `items` is
    /// everything that executes this cycle (a discarded regular instruction is not in it).
    fn check_rules(&self, items: &[Item], out: &mut Outcome) {
        let real = |unit: u8| -> Option<&Item> {
            items.iter().find(|it| it.unit == unit && it.instr.opcode() != Opcode::SFPNOP)
        };
        let mut broken = false;
        // (†) Whatever executes on Simple and on Round, scheduled or regular: exactly one of the two
        // has VD 16.
        let executing = |unit: u8| items.iter().find(|it| it.unit == unit);
        if let (Some(a), Some(b)) = (executing(SIMPLE), executing(ROUND))
            && (vd_of(a) == Some(16)) == (vd_of(b) == Some(16))
        {
            broken = true;
        }
        let swap_now = items.iter().any(|it| !it.regular && it.instr.opcode() == Opcode::SFPSWAP);
        if swap_now {
            let mad_nop =
                items.iter().any(|it| !it.regular && it.unit == MAD && it.instr.opcode() == Opcode::SFPNOP);
            if !mad_nop {
                broken = true;
            }
        }
        // (‡) "idle on the next cycle or have SFPNOP scheduled for then": what executes counts; a
        // regular instruction discarded by a scheduled SFPNOP is not in `items` (decision
        // "machine" #2: the collision is reported, the rule holds).
        if self.prev_scheduled_swap && (real(SIMPLE).is_some() || real(ROUND).is_some()) {
            broken = true;
        }
        // After a scheduled SFPSHFT2 in modes 2..4, no sub-unit (load included) may execute
        // anything but SFPNOP.
        if self.prev_scheduled_shft2
            && [LOAD, SIMPLE, MAD, ROUND, STORE].into_iter().any(|u| real(u).is_some())
        {
            broken = true;
        }
        if broken {
            out.note_all(Clause::LoadmacroRule);
        }
    }
}

/// Sub-unit `unit`'s part of the plan for the configuration `key` (`SFPLOADMACRO.md`
/// "Functional model", up to the point where the macro's own fields come in): the `Sequence`
/// byte's selector chooses nothing (0), an unsupported selector (1, reported), SFPNOP (2),
/// SFPSTORE (3) or `InstructionTemplate[selector - 4]`, which is decoded (undrawn bits reported;
/// a word that is no instruction is nothing); an instruction the sub-unit cannot execute becomes
/// SFPNOP, keeping its `VD` field, except on the store sub-unit, where it is reported and
/// nothing is scheduled.
fn unit_plan(key: &PlanKey, unit: u8) -> UnitPlan {
    let arch = key.arch;
    let b = ((key.sequence >> (8 * unit as u32)) & 0xFF) as u8;
    let by_instructions = (key.misc >> (8 + unit as u32)) & 1 != 0;
    let mut plan = UnitPlan { b, notes: 0, insn: None, template_vd: None, layout: 0, by_instructions };
    let nop = Instr::SFPNOP {};
    let mut insn = match b & 7 {
        0 => return plan,
        1 => {
            plan.notes |= NOTE_SELECTOR_1;
            return plan;
        }
        2 => Some(nop),
        3 => Some(Instr::SFPSTORE { VD: U::ZERO, Mod0: U::ZERO, AddrMod: U::ZERO, Imm10: U::ZERO }),
        sel => match decode_ignoring_undrawn(arch, key.templates[usize::from(sel - 4) & 3]) {
            Ok((i, undrawn)) => {
                if undrawn != 0 {
                    plan.notes |= NOTE_UNDRAWN;
                }
                Some(i)
            }
            Err(_) => None,
        },
    };
    // The template VD survives the SFPNOP substitution (only the opcode is replaced).
    plan.template_vd = insn.as_ref().and_then(vd_field).map(|v| v as u8);
    if !insn.is_some_and(|i| can_execute(arch, unit, i.opcode())) {
        if unit == STORE {
            plan.notes |= NOTE_STORE_SLOT;
            return plan;
        }
        insn = Some(nop);
    }
    plan.insn = insn;
    plan.layout = insn.map_or(0, |i| layout_bits(arch, i.opcode()));
    plan
}

/// What an SFPSWAP among `items` occupies on its second cycle (BlackholeA0 `SFPSWAP.md`
/// @ `585749d1`: "the 2nd cycle involves reading `VC` and `VD` again and then writing them"):
/// `VC`, `VD`, and, when a lane has `ENABLE_DEST_INDEX`, `LReg[4 + (VC & 3)]` and
/// `LReg[4 + (VD & 3)]`, which the argmin+argmax branch swaps too. Read at the start of the cycle.
fn swap_second_set(s: &FastState, items: &[Item]) -> u32 {
    let mut set = 0;
    for it in items {
        if let Instr::SFPSWAP { VC, VD, .. } = it.instr {
            let vc = it.cx.vc(VC.get());
            let vd = it.cx.vd(VD.get());
            set |= bit(vc) | bit(vd);
            if s.lc().dest_index != 0 {
                set |= bit(4 + (vc & 3)) | bit(4 + (vd & 3));
            }
        }
    }
    set
}

/// The effective `VD` of an executing instruction: the SFPLOADMACRO override for scheduled ones
/// (which the macro logic sets even on an SFPNOP), else the instruction's field.
fn vd_of(it: &Item) -> Option<u32> {
    match it.cx.vd {
        Some(v) => Some(v as u32),
        None => vd_field(&it.instr),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The compile-time table says what the layouts say when asked at run time, and what the
    /// pages say: Wormhole's SFPAND has no `VB` (Blackhole's has), SFPGT is Blackhole's only.
    #[test]
    fn layout_bits_are_the_layouts() {
        for arch in Arch::ALL {
            for &op in Opcode::ALL {
                let bits = layout_bits(arch, op);
                let named = |n: &str| op.fields(arch).iter().any(|f| f.name == n);
                assert_eq!(bits & ON_CHIP != 0, op.layout(arch).is_some(), "{arch} {op:?}");
                assert_eq!(bits & HAS_VB != 0, named("VB") || op == Opcode::SFPSHFT2, "{arch} {op:?} VB");
                assert_eq!(bits & HAS_VC != 0, named("VC"), "{arch} {op:?} VC");
            }
        }
        assert_eq!(layout_bits(Arch::Wormhole, Opcode::SFPAND), ON_CHIP | HAS_VC);
        assert_eq!(layout_bits(Arch::Blackhole, Opcode::SFPAND), ON_CHIP | HAS_VB | HAS_VC);
        assert_eq!(layout_bits(Arch::Wormhole, Opcode::SFPGT), 0);
        assert_ne!(layout_bits(Arch::Blackhole, Opcode::SFPGT) & ON_CHIP, 0);
    }
}
