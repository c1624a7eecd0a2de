//! The cycle-level view of the Vector Unit: one regular instruction issued per cycle, the
//! instructions SFPLOADMACRO schedules on the simple, MAD, round and store sub-units, the
//! automatic stalls of Blackhole, and the scheduling rules whose violation leaves results
//! unspecified.
//!
//! Transcribes tt-isa-documentation BlackholeA0 `SFPLOADMACRO.md`
//! (@ `f7fda211c86e1977ff430076cf52b96a7aba8cca`) and WormholeB0 `SFPLOADMACRO.md`
//! (@ `a981f40374e1e0a2833d88824f69c4e0487263cc`; the same functional model with Wormhole's
//! `SFPLOAD`, two `AddrMod` bits and no SFPARECIP/SFPGT/SFPLE/SFPMUL24 to schedule) § "Functional
//! model" and their timing paragraphs, and the "Instruction scheduling" sections cited in
//! [`hazard`], including the cautions of `SFPSWAP.md`
//! (@ `585749d1dcc6bcc56f1d6ff2dd6b72682d57fcd1`) and `SFPSHFT2.md`
//! (@ `135471044308278122aec9664bd5f0935429205f`) on those instructions inside SFPLOADMACRO
//! sequences.
//!
//! Model of a cycle (the pages describe the rules, not a pipeline, so the parts below that are
//! choices are marked as such; `docs/spec/sfpu-blackhole.md#cycle-model` records them):
//! 1. The instructions SFPLOADMACRO scheduled for this cycle arrive at their sub-units. A regular
//!    instruction issued this cycle to a sub-unit that receives a scheduled instruction is
//!    discarded (`SFPLOADMACRO.md`).
//! 2. Every instruction that executes this cycle reads the state as it was at the start of the
//!    cycle, and their writes are combined at the end (choice: this is what lets a scheduled
//!    store read `LReg[16]` in the same cycle as a scheduled simple instruction overwrites it,
//!    which is how software uses SFPLOADMACRO). Two of them writing the same location differently
//!    is reported as a broken scheduling rule, and the value of the later sub-unit in the order
//!    Load, Simple, MAD, Round, Store is kept (choice). Each `LoadMacroConfig` register
//!    (`InstructionTemplate[i]`, `Sequence[i]`, `Misc`) is a location of its own.
//! 3. Scheduled instructions count down: once per cycle, or once per issued instruction if any of
//!    them waits for elapsed instructions (`SFPLOADMACRO.md`). Instructions SFPLOADMACRO schedules
//!    this cycle start counting next cycle, so delay `d` executes `d + 1` cycles later.
//!
//! Two-cycle results are written at the end of their first cycle (choice); reading them the next
//! cycle is exactly what Blackhole's stall logic prevents for regular instructions, and where it
//! does not (its documented blind spots, and anything scheduled by SFPLOADMACRO) the read is
//! reported as a hazard, whose result the documentation leaves unspecified.
//!
//! SFPSWAP executes for two cycles on Blackhole (`SFPSWAP.md` caution): its second re-reads and
//! writes `VC` and `VD`, unprotected under SFPLOADMACRO. The machine writes its results in the
//! first cycle and reports a Load, MAD or Store sub-unit instruction naming those registers in
//! the second as `sfpswap-second-cycle` (the Simple and Round sub-units are `SFPLOADMACRO.md`'s
//! rule after a scheduled SFPSWAP, and the stall logic holds regular instructions after a regular
//! one). The Wormhole page has no such caution; its SFPSWAP stall is modelled as the page says.
//!
//! Wormhole stalls only after SFPSWAP. Every other next-cycle rule of its pages is software's,
//! and the machine checks them between everything executed on consecutive cycles
//! ([`hazard::wormhole_rules`]): a broken rule is reported with its own clause
//! (`wormhole-mad-result-read`, ...), and since the pages do not say what the hardware then does,
//! the values are the model's (results written at the end of their first cycle) and unspecified.

#![allow(non_snake_case, reason = "names follow the ISA documentation")]

use crate::exec::execute;
use crate::hazard;
use crate::isa::{Arch, Instr, Opcode, SubUnit, U, decode_ignoring_undrawn};
use crate::ops::{Ctx, ScheduledStore, blackhole, wormhole};
use crate::outcome::{Clause, Outcome};
use crate::state::{LANES, LaneConfig, State};

/// How a scheduled instruction counts down its delay (`LoadMacroConfig.Misc.UnitDelayKind`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DelayKind {
    /// Count cycles.
    WaitForElapsedCycles,
    /// Count SFPU instructions issued by a thread.
    WaitForElapsedInstructions,
}

/// The four sub-units SFPLOADMACRO schedules onto, in the order of the Sequence bytes.
pub const MACRO_UNITS: [SubUnit; 4] = [SubUnit::Simple, SubUnit::MAD, SubUnit::Round, SubUnit::Store];

/// Whether `unit` can execute `op` when scheduled by SFPLOADMACRO on `arch` (the table at the top
/// of each chip's `SFPLOADMACRO.md`: Wormhole's lacks SFPARECIP, SFPGT and SFPLE on the simple
/// sub-unit and SFPMUL24 on the MAD sub-unit, which Wormhole does not have).
pub fn can_execute(arch: Arch, unit: SubUnit, op: Opcode) -> bool {
    use Opcode::*;
    if !arch.has(op) {
        return false;
    }
    match unit {
        SubUnit::Simple => matches!(
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
        SubUnit::MAD => {
            matches!(
                op,
                SFPADD | SFPADDI | SFPLUT | SFPLUTFP32 | SFPMAD | SFPMUL | SFPMULI | SFPMUL24 | SFPNOP
            )
        }
        SubUnit::Round => matches!(op, SFPNOP | SFPSHFT2 | SFPSTOCHRND),
        SubUnit::Store => matches!(op, SFPSTORE),
        SubUnit::Load => false,
    }
}

/// An instruction SFPLOADMACRO scheduled and that has not executed yet.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scheduled {
    /// The sub-unit it will execute on.
    pub unit: SubUnit,
    /// The instruction (after the SFPNOP substitution).
    pub instr: Instr,
    /// The fields the macro logic overrode.
    pub cx: Ctx,
    /// Remaining delay.
    pub remaining: u32,
    /// Whether it executes on the next cycle.
    pub ready: bool,
    /// How it counts down.
    pub kind: DelayKind,
}

/// One entry of the execution trace.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TraceEvent {
    /// The cycle, counting from 1 for the first issue.
    pub cycle: u64,
    /// The sub-unit.
    pub unit: SubUnit,
    /// The instruction.
    pub instr: Instr,
    /// What happened.
    pub what: TraceKind,
}

/// What a [`TraceEvent`] records.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TraceKind {
    /// A regular instruction executed.
    Issued,
    /// A scheduled instruction executed.
    Scheduled,
    /// A regular instruction was discarded because a scheduled one took its sub-unit.
    Discarded,
    /// The thread stalled for a cycle before issuing the instruction.
    Stalled,
}

/// The regular instruction issued on the previous cycle, for the stall logic.
#[derive(Clone, Copy, Debug)]
struct Previous {
    instr: Instr,
    cycle: u64,
    dbl_changed: bool,
}

/// The cycle-level machine: the pending SFPLOADMACRO schedule, the cycle count, and what the stall
/// logic remembers. It holds no architectural state; every call takes the [`State`] it acts on.
#[derive(Clone, Debug, Default)]
pub struct Machine {
    cycle: u64,
    pending: Vec<Scheduled>,
    previous: Option<Previous>,
    /// LRegs written by two-cycle instructions in the previous cycle, when no stall protects them.
    unprotected_writes: u32,
    /// A scheduled SFPSWAP executed in the previous cycle (its next cycle must be quiet).
    swap_last_cycle: bool,
    /// Blackhole: the LRegs an SFPSWAP of the previous cycle reads again and writes in its
    /// second cycle (`VC`, `VD`, and its index registers if some lane has `ENABLE_DEST_INDEX`).
    swap_second_cycle: u32,
    /// A scheduled SFPSHFT2 in mode 2, 3 or 4 executed in the previous cycle (its next cycle
    /// must be idle).
    shft2_last_cycle: bool,
    /// Wormhole: what executed in the previous cycle, for the next-cycle rules
    /// ([`hazard::wormhole_rules`]).
    last_cycle: Vec<(Instr, Ctx)>,
    trace: Option<Vec<TraceEvent>>,
    scratch: CycleScratch,
}

/// The buffers a cycle works in, kept so that a long run allocates nothing per cycle; they hold
/// nothing from one cycle to the next.
#[derive(Clone, Debug, Default)]
struct CycleScratch {
    /// The scheduled instructions that arrive this cycle.
    due: Vec<Scheduled>,
    /// What executes this cycle.
    items: Vec<Item>,
    /// What this cycle's SFPLOADMACRO schedules.
    schedule: Vec<(SubUnit, u32, Option<Scheduled>)>,
    /// In a cycle of more than one item: the start-of-cycle state, and the copy of it an item
    /// executes on (in a cycle without an SFPSTORE their Dst is stale: the live one is lent).
    states: Option<Box<(State, State)>>,
}

/// One instruction executing in a cycle.
#[derive(Clone, Copy, Debug)]
struct Item {
    unit: SubUnit,
    instr: Instr,
    cx: Ctx,
    regular: bool,
}

impl Machine {
    /// A machine with nothing pending, at cycle 0.
    pub fn new() -> Machine {
        Machine::default()
    }

    /// Makes this machine what [`Machine::new`] returns (nothing pending, cycle 0, no trace)
    /// while keeping the storage it has grown, so that a caller running many short programs
    /// (the fuzz oracle) allocates nothing per program.
    ///
    /// Field by field, not `*self = ...`: replacing the whole value runs the old one's drop glue
    /// (its vectors and boxes), about fifteen coverage counters that libFuzzer processes on every
    /// execution of the fuzz targets. The pattern names every field, so a new one cannot be
    /// forgotten here; `reset_machines_behave_as_new_ones` (`fastpath/sfpu/tests/it/machine_diff.rs`)
    /// checks the values.
    pub fn reset(&mut self) {
        let Machine {
            cycle,
            pending,
            previous,
            unprotected_writes,
            swap_last_cycle,
            swap_second_cycle,
            shft2_last_cycle,
            last_cycle,
            trace,
            scratch: _,
        } = self;
        *cycle = 0;
        pending.clear();
        *previous = None;
        *unprotected_writes = 0;
        *swap_last_cycle = false;
        *swap_second_cycle = 0;
        *shft2_last_cycle = false;
        last_cycle.clear();
        if trace.is_some() {
            *trace = None;
        }
    }

    /// Starts recording a [`TraceEvent`] for everything that executes.
    pub fn enable_trace(&mut self) {
        self.trace.get_or_insert_with(Vec::new);
    }

    /// The recorded trace (empty unless [`enable_trace`](Machine::enable_trace) was called).
    pub fn trace(&self) -> &[TraceEvent] {
        self.trace.as_deref().unwrap_or(&[])
    }

    /// The number of cycles elapsed.
    pub fn cycle(&self) -> u64 {
        self.cycle
    }

    /// The scheduled instructions that have not executed yet.
    pub fn pending(&self) -> &[Scheduled] {
        &self.pending
    }

    fn record(&mut self, unit: SubUnit, instr: Instr, what: TraceKind) {
        let cycle = self.cycle;
        if let Some(t) = &mut self.trace {
            t.push(TraceEvent { cycle, unit, instr, what });
        }
    }

    /// The thread issues `instr`: after any stall cycles the hardware inserts, it executes in its
    /// sub-unit alongside whatever SFPLOADMACRO scheduled for that cycle. The chip is `s`'s.
    pub fn issue(&mut self, s: &mut State, instr: &Instr) -> Outcome {
        let mut out = Outcome::defined();
        let stalls = match s.arch() {
            Arch::Blackhole => self.stall_cycles(instr, &mut out),
            Arch::Wormhole => self.stall_cycles_wormhole(instr, &mut out),
        };
        for _ in 0..stalls {
            out.merge(&self.tick(s, None));
            self.record(instr.opcode().sub_unit(), *instr, TraceKind::Stalled);
        }
        out.merge(&self.tick(s, Some(instr)));
        out
    }

    /// One cycle in which the thread issues nothing.
    pub fn idle(&mut self, s: &mut State) -> Outcome {
        self.tick(s, None)
    }

    /// Runs until nothing is pending. While a pending instruction waits for elapsed instructions,
    /// the thread issues SFPNOPs (which count), as a program would have to.
    pub fn drain(&mut self, s: &mut State) -> Outcome {
        let mut out = Outcome::defined();
        // Every delay is at most 7, so this bound is never reached; it guards the loop.
        for _ in 0..64 {
            if self.pending.is_empty() {
                break;
            }
            if self.pending.iter().any(|p| p.kind == DelayKind::WaitForElapsedInstructions) {
                out.merge(&self.tick(s, Some(&Instr::SFPNOP {})));
            } else {
                out.merge(&self.tick(s, None));
            }
        }
        out
    }

    /// How many cycles the stall logic holds `instr` back, given the instruction issued on the
    /// previous cycle, and the hazards it misses (`SFPMAD.md` "Instruction scheduling").
    fn stall_cycles(&self, instr: &Instr, out: &mut Outcome) -> u32 {
        let Some(prev) = self.previous.filter(|p| p.cycle == self.cycle) else { return 0 };
        if prev.dbl_changed && vd_field(instr).is_some_and(|vd| vd >= 12) {
            // SFPCONFIG.md: the next instruction may see either value of DISABLE_BACKDOOR_LOAD.
            out.note_all(Clause::SfpconfigDblChange);
        }
        if hazard::blocks_next_cycle(&prev.instr) && !matches!(instr, Instr::SFPNOP {}) {
            return 1;
        }
        if hazard::is_two_cycle_producer(&prev.instr) {
            let seen = hazard::stall_view(&prev.instr).writes & hazard::stall_view(instr).reads;
            if seen != 0 {
                return 1;
            }
            let real = hazard::actual(Arch::Blackhole, &prev.instr, &Ctx::REGULAR).writes
                & hazard::first_cycle_reads(instr, &Ctx::REGULAR);
            if real != 0 {
                out.note_all(Clause::Hazard);
            }
        }
        0
    }

    /// Wormhole's stall logic: the one automatic stall is after SFPSWAP, where the next cycle
    /// accepts only SFPNOP (WormholeB0 `SFPSWAP.md` @ `585749d1dcc6bcc56f1d6ff2dd6b72682d57fcd1`
    /// § "Instruction scheduling"); every other rule is software's ([`hazard::wormhole_rules`],
    /// checked when the instructions execute).
    fn stall_cycles_wormhole(&self, instr: &Instr, out: &mut Outcome) -> u32 {
        let Some(prev) = self.previous.filter(|p| p.cycle == self.cycle) else { return 0 };
        if prev.dbl_changed && vd_field(instr).is_some_and(|vd| vd >= 12) {
            // SFPCONFIG.md: the next instruction may see either value of DISABLE_BACKDOOR_LOAD.
            out.note_all(Clause::SfpconfigDblChange);
        }
        if matches!(prev.instr, Instr::SFPSWAP { .. }) && !matches!(instr, Instr::SFPNOP {}) {
            return 1;
        }
        0
    }

    /// Advances one cycle, executing what is due, with `regular` issued by the thread.
    fn tick(&mut self, s: &mut State, regular: Option<&Instr>) -> Outcome {
        let mut out = Outcome::defined();
        self.cycle += 1;

        // The cycle's buffers, taken for the cycle and put back at its end.
        let mut scratch = std::mem::take(&mut self.scratch);
        let CycleScratch { due, items, schedule: new_schedule, states } = &mut scratch;

        // 1. The scheduled instructions that arrive this cycle, and the regular one.
        due.clear();
        due.extend(self.pending.extract_if(.., |p| p.ready));
        items.clear();
        if let Some(instr) = regular {
            let unit = instr.opcode().sub_unit();
            if due.iter().any(|p| p.unit == unit) {
                out.note_all(Clause::LoadmacroCollision);
                self.record(unit, *instr, TraceKind::Discarded);
            } else if s.arch() == Arch::Wormhole && !instr.fits(Arch::Wormhole) {
                // Not one of Wormhole's instructions (an `Instr` built for Blackhole, e.g. an
                // SFPLOADMACRO with AddrMod 4..7, which Wormhole's two-bit field cannot express):
                // nothing executes and nothing is scheduled.
                out.note_all(Clause::NotOnChip);
            } else {
                items.push(Item { unit, instr: *instr, cx: Ctx::REGULAR, regular: true });
            }
        }
        for p in due.iter() {
            items.push(Item { unit: p.unit, instr: p.instr, cx: p.cx, regular: false });
        }
        // Decision (`docs/spec/sfpu-blackhole.md#conflicting-writes-in-one-cycle`): when two
        // instructions of one cycle write one location differently (a broken rule, `LoadmacroRule`,
        // whose result is unspecified), the value kept is that of the later sub-unit in pipeline
        // order Load, Simple, MAD, Round, Store (`SFPLOADMACRO.md` orders the Sequence bytes
        // Simple, MAD, Round, Store, and the MAD sub-unit's result lands after a one-cycle Simple
        // result). The pages are silent; this fixes one answer so that both models agree on it.
        // Stable: scheduled instructions of one sub-unit keep the order they were scheduled in.
        items.sort_by_key(|it| it.unit);
        let arch = s.arch();
        self.check_cycle_rules(arch, due, regular, &mut out);

        match arch {
            // Hazards: two-cycle results of the previous cycle that no stall protected.
            Arch::Blackhole => {
                for item in items.iter() {
                    if hazard::first_cycle_reads(&item.instr, &item.cx) & self.unprotected_writes != 0 {
                        out.note_all(Clause::Hazard);
                    }
                }
                // SFPSWAP's second cycle (BlackholeA0 `SFPSWAP.md` @ 585749d1, caution: it reads
                // VC and VD again and writes them; automatic stalling does not protect it under
                // SFPLOADMACRO). What the pages leave unpromised is an instruction of the Load,
                // MAD or Store sub-unit executing in that cycle and naming one of those registers
                // (as its VD, or among what it reads). Simple and Round are already held by
                // `SFPLOADMACRO.md`'s rule after a scheduled SFPSWAP (`LoadmacroRule`), and the
                // stall logic holds regular instructions after a regular one.
                if self.swap_second_cycle != 0 {
                    for item in items.iter() {
                        if matches!(item.unit, SubUnit::Load | SubUnit::MAD | SubUnit::Store)
                            && hazard::swap_second_cycle_touch(&item.instr, &item.cx) & self.swap_second_cycle
                                != 0
                        {
                            out.note_all(Clause::SfpswapSecondCycle);
                        }
                    }
                }
            }
            // Wormhole: software's next-cycle rules, between everything that executed in the
            // previous cycle and everything that executes in this one.
            Arch::Wormhole => {
                let dest_index = lane_config_lanes(s, LaneConfig::ENABLE_DEST_INDEX) != 0;
                for (prev, prev_cx) in &self.last_cycle {
                    for item in items.iter() {
                        hazard::wormhole_rules(prev, prev_cx, &item.instr, &item.cx, dest_index, &mut out);
                    }
                }
                self.last_cycle.clear();
                self.last_cycle.extend(items.iter().map(|it| (it.instr, it.cx)));
            }
        }

        // What this cycle's SFPSWAPs re-read and write on their second cycle, the next one (as
        // configured at the start of this cycle).
        self.swap_second_cycle = 0;
        if arch == Arch::Blackhole {
            let dest_index = lane_config_lanes(s, LaneConfig::ENABLE_DEST_INDEX) != 0;
            for item in items.iter() {
                if let Instr::SFPSWAP { VC, VD, .. } = item.instr {
                    let (c, d) = (item.cx.vc(VC.idx()), item.cx.vd(VD.idx()));
                    let index = if dest_index { (1 << (4 + (c & 3))) | (1 << (4 + (d & 3))) } else { 0 };
                    self.swap_second_cycle |= hazard::lreg_bit(c) | hazard::lreg_bit(d) | index;
                }
            }
        }

        // 2. Execute, reading the start-of-cycle state.
        let mut unprotected = 0;
        new_schedule.clear();
        let dbl_before = lane_config_lanes(s, LaneConfig::DISABLE_BACKDOOR_LOAD);
        if items.len() == 1 {
            let o = self.execute_item(s, &items[0], None, new_schedule);
            out.merge(&o);
        } else if items.len() > 1 {
            // Each item executes on its own copy of the start-of-cycle state. Only SFPSTORE
            // writes Dst (`only_sfpstore_writes_dst`, tests/it/machine.rs), so in a cycle without one every
            // item reads the start-of-cycle Dst, which is the live one: it is lent to each copy
            // (swapped in and back, two pointers each way) rather than copied (32 KB per copy)
            // and compared by the merge.
            let lend_dst = !items.iter().any(|it| it.instr.opcode() == Opcode::SFPSTORE);
            let (base, copy) = &mut **states.get_or_insert_with(|| Box::new((s.clone(), s.clone())));
            if lend_dst {
                base.clone_from_except_Dst(s);
            } else {
                base.clone_from(s);
            }
            for item in items.iter() {
                if lend_dst {
                    copy.clone_from_except_Dst(base);
                    std::mem::swap(&mut copy.Dst, &mut s.Dst);
                } else {
                    copy.clone_from(base);
                }
                let o = self.execute_item(copy, item, Some(base), new_schedule);
                if lend_dst {
                    std::mem::swap(&mut copy.Dst, &mut s.Dst);
                }
                out.merge(&o);
                merge_writes(base, copy, s, !lend_dst, &mut out);
            }
        }
        for item in items.iter() {
            if hazard::is_two_cycle_producer(&item.instr) && !item.regular {
                unprotected |= hazard::actual(Arch::Blackhole, &item.instr, &item.cx).writes;
            }
            self.record(
                item.unit,
                item.instr,
                if item.regular { TraceKind::Issued } else { TraceKind::Scheduled },
            );
        }
        // A regular two-cycle result read next cycle by a scheduled instruction is not protected
        // either ("none of this applies inside SFPLOADMACRO sequences").
        if let Some(Item { instr, .. }) = items.iter().find(|it| it.regular)
            && hazard::is_two_cycle_producer(instr)
        {
            unprotected |= hazard::actual(Arch::Blackhole, instr, &Ctx::REGULAR).writes;
        }
        self.unprotected_writes = unprotected;
        self.swap_last_cycle =
            due.iter().any(|p| p.unit == SubUnit::Simple && p.instr.opcode() == Opcode::SFPSWAP);
        self.shft2_last_cycle = due.iter().any(|p| {
            p.unit == SubUnit::Round
                && matches!(p.instr, Instr::SFPSHFT2 { .. })
                && hazard::blocks_next_cycle(&p.instr)
        });

        // 3. Count down, then add what SFPLOADMACRO scheduled this cycle.
        let per_instruction = self.pending.iter().any(|p| p.kind == DelayKind::WaitForElapsedInstructions);
        if !per_instruction || regular.is_some() {
            for p in &mut self.pending {
                p.remaining = p.remaining.saturating_sub(1);
                if p.remaining == 0 {
                    p.ready = true;
                }
            }
        }
        for (unit, delay, sched) in new_schedule.drain(..) {
            if delay != 7 {
                // Forget a pending instruction on that sub-unit due at the same time.
                self.pending.retain(|p| !(p.unit == unit && p.remaining == delay));
            }
            self.pending.extend(sched);
        }

        if let Some(instr) = regular.filter(|i| !matches!(i, Instr::SFPNOP {})) {
            let dbl_changed = lane_config_lanes(s, LaneConfig::DISABLE_BACKDOOR_LOAD) != dbl_before;
            self.previous = Some(Previous { instr: *instr, cycle: self.cycle, dbl_changed });
        } else {
            self.previous = None;
        }
        // What `take` left in its place owns nothing (empty vectors, no states, and nothing in
        // the cycle touches `self.scratch`): forgotten rather than dropped, which skips its drop
        // glue, coverage counters that libFuzzer would process on every execution of the fuzz
        // targets.
        std::mem::forget(std::mem::replace(&mut self.scratch, scratch));
        out
    }

    /// Executes one item of a cycle on `s`.
    fn execute_item(
        &mut self,
        s: &mut State,
        item: &Item,
        base: Option<&State>,
        schedule: &mut Vec<(SubUnit, u32, Option<Scheduled>)>,
    ) -> Outcome {
        match (item.regular, &item.instr) {
            (true, Instr::SFPLOADMACRO { .. }) => self.execute_loadmacro(s, &item.instr, base, schedule),
            _ => execute(s, &item.instr, &item.cx),
        }
    }

    /// The constraints of `SFPLOADMACRO.md` on what executes together
    /// (`docs/spec/sfpu-blackhole.md#loadmacro-rule`; the same on both chips), and the caution of
    /// Blackhole's `SFPSHFT2.md` on SFPSHFT2 inside SFPLOADMACRO sequences (Wormhole's page has no
    /// such paragraph: its next-cycle rules apply to scheduled instructions like any other,
    /// [`hazard::wormhole_rules`]).
    fn check_cycle_rules(&self, arch: Arch, due: &[Scheduled], regular: Option<&Instr>, out: &mut Outcome) {
        let on = |unit: SubUnit| due.iter().find(|p| p.unit == unit);
        // The regular instruction executes unless a scheduled one arrives at its sub-unit
        // (`SFPLOADMACRO.md`: "the regular instruction is silently discarded").
        let regular_executes = regular.filter(|r| on(r.opcode().sub_unit()).is_none());
        // (†) `SFPLOADMACRO.md`: a Simple and a Round instruction executing in the same cycle must
        // have exactly one VD == 16 between them. What executes on a sub-unit is the scheduled
        // instruction if one arrived there, else the regular one issued to it. A scheduled
        // instruction's VD is the macro logic's override; a regular one's is its 4-bit field,
        // never 16 (only SFPLOADMACRO reaches LReg[16]).
        let executes_vd16 = |unit: SubUnit| -> Option<bool> {
            match on(unit) {
                Some(p) => Some(p.cx.VD == Some(16)),
                None => regular_executes.filter(|r| r.opcode().sub_unit() == unit).map(|_| false),
            }
        };
        if let (Some(a), Some(b)) = (executes_vd16(SubUnit::Simple), executes_vd16(SubUnit::Round))
            && a == b
        {
            out.note_all(Clause::LoadmacroRule);
        }
        // (‡) SFPSWAP on Simple needs SFPNOP on MAD in the same cycle ...
        if on(SubUnit::Simple).is_some_and(|p| p.instr.opcode() == Opcode::SFPSWAP)
            && on(SubUnit::MAD).is_none_or(|p| p.instr.opcode() != Opcode::SFPNOP)
        {
            out.note_all(Clause::LoadmacroRule);
        }
        // ... and Simple and Round idle or SFPNOP on the next cycle. Decision
        // (`docs/spec/sfpu-blackhole.md#idle-after-a-scheduled-sfpswap-or-sfpshft2`): the page asks
        // that each sub-unit "either be idle on the next cycle or have SFPNOP scheduled for then".
        // A regular instruction issued to a sub-unit that receives a scheduled SFPNOP is discarded
        // (`SFPLOADMACRO.md`: "the scheduled instruction takes priority"), so the sub-unit executes
        // the SFPNOP and the rule holds; the discarding itself is reported as `LoadmacroCollision`.
        // Only a regular instruction that executes (nothing scheduled on its sub-unit) makes the
        // sub-unit busy.
        let busy = |unit: SubUnit| match on(unit) {
            Some(p) => p.instr.opcode() != Opcode::SFPNOP,
            None => regular_executes
                .is_some_and(|r| r.opcode().sub_unit() == unit && r.opcode() != Opcode::SFPNOP),
        };
        if self.swap_last_cycle && (busy(SubUnit::Simple) || busy(SubUnit::Round)) {
            out.note_all(Clause::LoadmacroRule);
        }
        // `SFPSHFT2.md` "Instruction scheduling": automatic stalling does not apply to an SFPSHFT2
        // that SFPLOADMACRO scheduled, and after one in mode SUBVEC_SHFLROR1_AND_COPY4,
        // SUBVEC_SHFLROR1 or SUBVEC_SHFLSHR1 (2, 3, 4) software must leave at least one idle cycle.
        // Decision (the same entry): "idle" is read as what the stall logic enforces after a
        // regular SFPSHFT2 of those modes, a cycle on which the Vector Unit accepts nothing but
        // SFPNOP: the whole unit, all five sub-units including the load sub-unit (SFPLOAD,
        // SFPLOADI, SFPLOADMACRO), executes nothing but SFPNOP on the next cycle. As for SFPSWAP
        // above (the same decision), what counts is what executes: a scheduled SFPNOP keeps its
        // sub-unit idle even if it discards a regular instruction (the collision is reported on its
        // own). Broken, the rule is reported as `LoadmacroRule`, the clause of the SFPSWAP rule.
        if arch == Arch::Blackhole
            && self.shft2_last_cycle
            && [SubUnit::Load, SubUnit::Simple, SubUnit::MAD, SubUnit::Round, SubUnit::Store]
                .into_iter()
                .any(busy)
        {
            out.note_all(Clause::LoadmacroRule);
        }
    }

    /// SFPLOADMACRO: the SFPLOAD part, then the scheduling of `SFPLOADMACRO.md` § "Functional
    /// model". `base` is the start-of-cycle state when other instructions execute alongside.
    fn execute_loadmacro(
        &mut self,
        s: &mut State,
        instr: &Instr,
        base: Option<&State>,
        schedule: &mut Vec<(SubUnit, u32, Option<Scheduled>)>,
    ) -> Outcome {
        let mut out = Outcome::defined();
        let Instr::SFPLOADMACRO { MacroIndex, VDLo, Mod0, AddrMod, Imm9, VDHi } = *instr else {
            return out;
        };
        let VD = (VDHi.idx() << 2) | VDLo.idx(); // (0 << 3) | (VDHi << 2) | VDLo
        let Imm10 = (Imm9.get() << 1) | VDHi.get();
        let Mod0 = Mod0.get();
        let MacroIndex = MacroIndex.idx();
        let config_state = base.unwrap_or(s).LoadMacroConfig;

        // The SFPLOAD part, as per the chip's SFPLOAD.
        let arch = s.arch();
        let Addr = match arch {
            Arch::Blackhole => blackhole::load_store::SFPLOAD(s, VD, Mod0, AddrMod.get(), Imm10, &mut out),
            Arch::Wormhole => wormhole::load_store::SFPLOAD(s, VD, Mod0, AddrMod.get(), Imm10, &mut out),
        };

        // LoadMacroConfig may differ between lanes; this model schedules one instruction per
        // sub-unit for all lanes from lane 0's configuration, and reports any difference in what
        // the lanes would schedule (`docs/spec/sfpu-blackhole.md#loadmacro-rule`).
        let lane0 = &config_state[0];
        let differs = config_state.iter().any(|c| {
            c.Sequence[MacroIndex] != lane0.Sequence[MacroIndex]
                || c.Misc != lane0.Misc
                || c.InstructionTemplate != lane0.InstructionTemplate
        });
        if differs {
            out.note_all(Clause::LoadmacroRule);
        }

        for (i, SubUnit) in MACRO_UNITS.into_iter().enumerate() {
            let SequenceBits = (lane0.Sequence[MacroIndex] >> (i * 8)) & 0xFF;
            let Delay = (SequenceBits >> 3) & 7;

            // "Forget any pre-existing scheduled instruction which would execute at the same point in
            // time": applied when this cycle's schedule is added (`tick`), after the countdown, so
            // that "the same point in time" compares like with like. It happens even when nothing
            // is scheduled for this sub-unit.
            let mut Insn: Instr = match SequenceBits & 7 {
                0 => {
                    schedule.push((SubUnit, Delay, None));
                    continue; // Do not schedule anything for this sub-unit.
                }
                1 => {
                    out.note_all(Clause::LoadmacroSelector1); // UndefinedBehavior();
                    schedule.push((SubUnit, Delay, None));
                    continue;
                }
                2 => Instr::SFPNOP {},
                3 => Instr::SFPSTORE { VD: U::ZERO, Mod0: U::ZERO, AddrMod: U::ZERO, Imm10: U::ZERO },
                sel => {
                    let word = lane0.InstructionTemplate[(sel - 4) as usize];
                    match decode_ignoring_undrawn(arch, word) {
                        Ok((insn, undrawn)) => {
                            if undrawn != 0 {
                                out.note_all(Clause::UndrawnBits);
                            }
                            insn
                        }
                        // Not an SFPU instruction: no sub-unit can execute it.
                        Err(_) => Instr::SFPNOP {},
                    }
                }
            };
            if !can_execute(arch, SubUnit, Insn.opcode()) {
                if !can_execute(arch, SubUnit, Opcode::SFPNOP) {
                    // The store sub-unit should not be fed SFPNOP.
                    out.note_all(Clause::LoadmacroStoreSlotNotStore); // UndefinedBehavior();
                    schedule.push((SubUnit, Delay, None));
                    continue;
                }
                Insn = Instr::SFPNOP {};
            }

            // Override instruction fields with values from the SFPLOADMACRO instruction.
            // "Insn.VC is None": the chip's encoding of the opcode has no such field.
            let fields = Insn.opcode().fields(arch);
            let has = |name: &str| fields.iter().any(|f| f.name == name);
            let template_vd = Insn.vd().unwrap_or(0) as usize;
            let mut cx = Ctx { scheduled: true, ..Ctx::REGULAR };
            if i != 3 {
                let has_vb = has("VB") || Insn.opcode() == Opcode::SFPSHFT2;
                if SequenceBits & 0x80 != 0 {
                    cx.VB = Some(VD);
                    if !has("VC") {
                        cx.VC = Some(template_vd);
                    }
                } else {
                    cx.VC = Some(VD);
                    if !has_vb {
                        cx.VB = Some(template_vd);
                    }
                }
                cx.VD = Some(if SequenceBits & 0x40 != 0 { 16 } else { VD });
            } else {
                cx.VD = Some(if SequenceBits & 0x40 != 0 {
                    16
                } else if SequenceBits & 0x80 != 0 {
                    template_vd
                } else {
                    VD
                });
                let misc = lane0.Misc;
                let store_mod0 = if (misc.UsesLoadMod0ForStore() >> MacroIndex) & 1 != 0 {
                    Mod0
                } else {
                    misc.StoreMod0()
                };
                cx.store = Some(ScheduledStore { Mod0: store_mod0, Imm10, Addr });
            }

            let kind = if (lane0.Misc.UnitDelayKind() >> i) & 1 != 0 {
                DelayKind::WaitForElapsedInstructions
            } else {
                DelayKind::WaitForElapsedCycles
            };
            let sched =
                Scheduled { unit: SubUnit, instr: Insn, cx, remaining: Delay, ready: Delay == 0, kind };
            schedule.push((SubUnit, Delay, Some(sched)));
        }
        out
    }
}

/// Executes `instr` on `s` as if the thread issued it alone, and says what the specification
/// promises about the effect.
///
/// An SFPLOADMACRO's scheduled instructions run to completion before this returns (so `step` on a
/// lone SFPLOADMACRO is the load plus its whole sequence). Never panics, for any `Instr` and any
/// `State`. (Also `crate::exec::step` and `crate::step`, where it is re-exported.)
pub fn step(s: &mut State, instr: &Instr) -> Outcome {
    let mut m = Machine::new();
    let mut out = m.issue(s, instr);
    out.merge(&m.drain(s));
    out
}

/// The lanes (bit `l` for lane `l`) whose `LaneConfig` has the bit `bit` reads. A fold over every
/// lane, without the early exit of `any`, so that the compiler makes it a few vector
/// instructions: the machine asks on every cycle, and under the fuzzer each lane's branch would be a
/// coverage counter to process (and a traced call in a build that traces comparisons).
fn lane_config_lanes(s: &State, bit: impl Fn(LaneConfig) -> bool) -> u32 {
    (0..LANES).fold(0, |lanes, l| lanes | (u32::from(bit(s.LaneConfig[l])) << l))
}

/// The instruction's VD field, if it names an LReg.
fn vd_field(instr: &Instr) -> Option<usize> {
    match instr.opcode() {
        Opcode::SFPCONFIG | Opcode::SFPLOADMACRO | Opcode::SFPNOP => None,
        _ => instr.vd().map(|v| v as usize),
    }
}

/// Copies every location that `after` changed relative to `base` into `into`, reporting two
/// instructions of the same cycle writing one location differently; Dst only if `with_dst`
/// (else it was lent, not copied, and `after.Dst` is not a copy of `base.Dst`).
fn merge_writes(base: &State, after: &State, into: &mut State, with_dst: bool, out: &mut Outcome) {
    fn merge<T: PartialEq + Copy>(base: T, after: T, into: &mut T, conflict: &mut bool) {
        merge_by(base, after, into, conflict, |x, y| x != y);
    }
    /// `merge` with `differ` for `!=`.
    fn merge_by<T: Copy>(
        base: T,
        after: T,
        into: &mut T,
        conflict: &mut bool,
        differ: impl Fn(&T, &T) -> bool,
    ) {
        if differ(&after, &base) {
            if differ(into, &base) && differ(into, &after) {
                *conflict = true;
            }
            *into = after;
        }
    }
    let mut conflict = false;
    // Each group of locations is compared whole first and merged location by location only if
    // `after` changed something in it: the same result (an unchanged location merges nothing),
    // without a comparison per lane, row and field for every instruction of every
    // multi-instruction cycle (in a fuzz build that traced comparisons, a traced call each: the
    // cycle's merges were most of the reference machine's time in `diff_stream`).
    if after.LReg != base.LReg {
        for r in 0..base.LReg.len() {
            for l in 0..LANES {
                merge(base.LReg[r][l], after.LReg[r][l], &mut into.LReg[r][l], &mut conflict);
            }
        }
    }
    let stacks_differ =
        (0..LANES).fold(0, |d, l| d | (after.FlagStack[l].packed() ^ base.FlagStack[l].packed())) != 0;
    if after.LaneFlags != base.LaneFlags
        || after.UseLaneFlagsForLaneEnable != base.UseLaneFlagsForLaneEnable
        || stacks_differ
        || after.LaneConfig != base.LaneConfig
        || after.LoadMacroConfig != base.LoadMacroConfig
        || after.PRNG != base.PRNG
    {
        for l in 0..LANES {
            merge(base.LaneFlags[l], after.LaneFlags[l], &mut into.LaneFlags[l], &mut conflict);
            merge(
                base.UseLaneFlagsForLaneEnable[l],
                after.UseLaneFlagsForLaneEnable[l],
                &mut into.UseLaneFlagsForLaneEnable[l],
                &mut conflict,
            );
            merge(base.FlagStack[l], after.FlagStack[l], &mut into.FlagStack[l], &mut conflict);
            merge(base.LaneConfig[l], after.LaneConfig[l], &mut into.LaneConfig[l], &mut conflict);
            // Each InstructionTemplate, Sequence and Misc register is its own location
            // (`docs/spec/sfpu-blackhole.md#loadmacroconfig-registers-are-separate-locations`):
            // `SFPCONFIG.md` writes them one selector at a time and a backdoor load
            // (`SFPLOADMACRO.md`, VD 12..15) writes one template, so e.g. a scheduled SFPCONFIG
            // writing `Sequence[2]` and a regular SFPADDI backdoor-loading `InstructionTemplate[3]`
            // in the same cycle touch different registers: both writes land, and no rule is broken.
            let (b, a, i) =
                (&base.LoadMacroConfig[l], &after.LoadMacroConfig[l], &mut into.LoadMacroConfig[l]);
            for k in 0..4 {
                merge(
                    b.InstructionTemplate[k],
                    a.InstructionTemplate[k],
                    &mut i.InstructionTemplate[k],
                    &mut conflict,
                );
                merge(b.Sequence[k], a.Sequence[k], &mut i.Sequence[k], &mut conflict);
            }
            merge(b.Misc, a.Misc, &mut i.Misc, &mut conflict);
            merge(base.PRNG[l], after.PRNG[l], &mut into.PRNG[l], &mut conflict);
        }
    }
    if with_dst && after.Dst != base.Dst {
        for r in 0..base.Dst.DstBits.len() {
            if base.Dst.DstBits[r] != after.Dst.DstBits[r] {
                for c in 0..base.Dst.DstBits[r].len() {
                    merge(
                        base.Dst.DstBits[r][c],
                        after.Dst.DstBits[r][c],
                        &mut into.Dst.DstBits[r][c],
                        &mut conflict,
                    );
                }
            }
            merge(
                base.Dst.DstRowValid[r],
                after.Dst.DstRowValid[r],
                &mut into.Dst.DstRowValid[r],
                &mut conflict,
            );
        }
    }
    // `Addressing::difference` is `!=` without a comparison per field.
    merge_by(base.Addressing, after.Addressing, &mut into.Addressing, &mut conflict, |x, y| {
        x.difference(y) != 0
    });
    // Wormhole's SFPSHFT2 `vc0` latch is a location too: a mode 2/3 SFPSHFT2 sharing its cycle
    // with a scheduled instruction latches it (found by the fuzzer: it was dropped here).
    if let (Some(b), Some(a)) = (base.wormhole(), after.wormhole()) {
        let (b, a) = (b.SFPSHFT2_vc0, a.SFPSHFT2_vc0);
        if let Some(i) = into.wormhole_mut() {
            for l in 0..LANES {
                merge(b[l], a[l], &mut i.SFPSHFT2_vc0[l], &mut conflict);
            }
        }
    }
    if conflict {
        out.note_all(Clause::LoadmacroRule);
    }
}
