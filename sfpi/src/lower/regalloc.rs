//! Register allocation over `LReg[0..=7]`.
//!
//! The program is straight-line (predication is not control flow), so liveness is an interval
//! per virtual register, from its definition to its last use, and allocation is a single linear
//! scan. Constraints:
//!
//! * fixed operands (SFPLUT's table in `LReg[0..=2]` and input in `LReg[3]`, SFPTRANSP's four
//!   operands, SFPCONFIG's source in `LReg[0]`): the occupant is moved elsewhere and the value
//!   moved or copied in;
//! * tied results (two-address instructions such as SFPIADD `VD = VC + VD`, and assignments
//!   under predication): the result overwrites its operand's register, after copying the
//!   operand if it is still needed;
//! * registers `l_reg` uses are reserved for the whole body.
//!
//! Every move and copy is an `SFPMOV` with `Mod1 = 2`, which copies all lanes whatever the
//! predication. When no register is free the kernel is rejected
//! ([`KernelError::OutOfRegisters`]): like SFPI's compiler, this does not spill.

use sfpu_reference::isa::Arch;

use super::emit::{DefC, Emit, Opnd, UseC, VInstr, VReg, build, copy_all};
use crate::error::KernelError;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Slot {
    Free,
    Value(VReg),
    /// A copy made for one instruction's fixed operand.
    Temp,
    /// Reserved by `l_reg`.
    Reserved,
}

struct Alloc<'a> {
    kernel: &'a str,
    slots: [Slot; 8],
    reg_of: Vec<Option<u8>>,
    last_use: Vec<usize>,
    out: Vec<Emit>,
}

impl Alloc<'_> {
    fn out_of_registers(&self, what: &str) -> KernelError {
        let live = self.slots.iter().filter(|s| !matches!(s, Slot::Free)).count() + 1;
        KernelError::OutOfRegisters { kernel: self.kernel.to_string(), at: what.to_string(), live }
    }

    fn free_reg(&self, avoid: u8) -> Option<u8> {
        (0..8u8).find(|&r| self.slots[r as usize] == Slot::Free && avoid >> r & 1 == 0)
    }

    fn mov(&mut self, from: u8, to: u8) {
        self.out.push(copy_all(from, to).into());
    }

    fn set(&mut self, r: u8, s: Slot) {
        if let Slot::Value(v) = self.slots[r as usize]
            && self.reg_of[v as usize] == Some(r)
        {
            self.reg_of[v as usize] = None;
        }
        self.slots[r as usize] = s;
        if let Slot::Value(v) = s {
            self.reg_of[v as usize] = Some(r);
        }
    }
}

/// Allocates `vis`; `reserved` is the mask of LRegs `l_reg` uses.
pub(crate) fn allocate(
    arch: Arch,
    kernel: &str,
    vis: &[VInstr],
    reserved: u8,
) -> Result<Vec<Emit>, KernelError> {
    let nregs = vis.iter().flat_map(|v| v.defs.iter().map(|d| d.0 as usize + 1)).max().unwrap_or(0);
    let mut last_use = vec![0usize; nregs];
    for (i, v) in vis.iter().enumerate() {
        for (d, _) in &v.defs {
            last_use[*d as usize] = last_use[*d as usize].max(i);
        }
        for (u, _) in &v.uses {
            if let Opnd::V(x) = u {
                last_use[*x as usize] = i;
            }
        }
    }
    let mut slots = [Slot::Free; 8];
    for r in 0..8 {
        if reserved >> r & 1 != 0 {
            slots[r] = Slot::Reserved;
        }
    }
    let mut a = Alloc { kernel, slots, reg_of: vec![None; nregs], last_use, out: Vec::new() };
    for (i, vi) in vis.iter().enumerate() {
        step(&mut a, arch, i, vi)?;
    }
    Ok(a.out)
}

fn step(a: &mut Alloc<'_>, arch: Arch, i: usize, vi: &VInstr) -> Result<(), KernelError> {
    let mut regs = vec![0u8; vi.uses.len()];
    let mut temps: Vec<u8> = Vec::new();
    let fixed: u8 = vi.uses.iter().fold(0, |m, (_, c)| if let UseC::Fixed(p) = c { m | 1 << p } else { m });

    // 1. Fixed operands, as a parallel move: move out of the way whatever is not wanted there,
    //    then move (or, for a value wanted in two places or a register that must stay, copy)
    //    each operand into its register, breaking cycles through a free register.
    struct Move {
        k: usize,
        p: u8,
        opnd: Opnd,
        relocate: bool,
        done: bool,
    }
    let mut moves: Vec<Move> = Vec::new();
    for (k, &(opnd, c)) in vi.uses.iter().enumerate() {
        let UseC::Fixed(p) = c else { continue };
        if a.slots[p as usize] == Slot::Reserved {
            return Err(KernelError::Unsupported {
                kernel: a.kernel.to_string(),
                what: format!("{} needs LReg[{p}], which the kernel reserves through l_reg", vi.what),
            });
        }
        let first = !moves.iter().any(|m| m.opnd == opnd);
        moves.push(Move { k, p, opnd, relocate: first && matches!(opnd, Opnd::V(_)), done: false });
    }
    for m in &moves {
        if let Slot::Value(w) = a.slots[m.p as usize]
            && !moves.iter().any(|o| o.opnd == Opnd::V(w))
        {
            if a.last_use[w as usize] >= i {
                let Some(to) = a.free_reg(fixed) else { return Err(a.out_of_registers(vi.what)) };
                a.mov(m.p, to);
                a.set(to, Slot::Value(w));
            }
            a.set(m.p, Slot::Free);
        }
    }
    let src = |a: &Alloc<'_>, o: Opnd| match o {
        Opnd::V(v) => a.reg_of[v as usize],
        Opnd::P(n) => Some(n),
    };
    loop {
        let pending: Vec<usize> = (0..moves.len()).filter(|&j| !moves[j].done).collect();
        if pending.is_empty() {
            break;
        }
        let mut progressed = false;
        for &j in &pending {
            let from = src(a, moves[j].opnd).ok_or_else(|| a.out_of_registers(vi.what))?;
            let p = moves[j].p;
            if from == p {
                moves[j].done = true;
                regs[moves[j].k] = p;
                progressed = true;
                break;
            }
            let blocked = pending.iter().any(|&o| o != j && src(a, moves[o].opnd) == Some(p));
            if blocked {
                continue;
            }
            a.mov(from, p);
            match moves[j].opnd {
                Opnd::V(v) if moves[j].relocate && from < 8 => {
                    a.set(from, Slot::Free);
                    a.set(p, Slot::Value(v));
                }
                _ => {
                    a.set(p, Slot::Temp);
                    temps.push(p);
                }
            }
            moves[j].done = true;
            regs[moves[j].k] = p;
            progressed = true;
            break;
        }
        if !progressed {
            // A cycle: park one operand in a free register.
            let j = pending[0];
            let Opnd::V(v) = moves[j].opnd else { return Err(a.out_of_registers(vi.what)) };
            let from = src(a, moves[j].opnd).ok_or_else(|| a.out_of_registers(vi.what))?;
            let Some(to) = a.free_reg(fixed) else { return Err(a.out_of_registers(vi.what)) };
            a.mov(from, to);
            a.set(from, Slot::Free);
            a.set(to, Slot::Value(v));
        }
    }

    // 2. The other operands.
    for (k, &(opnd, c)) in vi.uses.iter().enumerate() {
        if matches!(c, UseC::Fixed(_)) {
            continue;
        }
        regs[k] = match opnd {
            Opnd::V(v) => a.reg_of[v as usize].ok_or_else(|| a.out_of_registers(vi.what))?,
            Opnd::P(n) if c == UseC::General && n >= 8 => {
                let Some(t) = a.free_reg(0) else { return Err(a.out_of_registers(vi.what)) };
                a.mov(n, t);
                a.set(t, Slot::Temp);
                temps.push(t);
                t
            }
            Opnd::P(n) => n,
        };
    }

    // 3. Tied results: take the operand's register if the operand dies here, else a copy.
    let mut defregs = vec![0u8; vi.defs.len()];
    let mut claimed: u8 = 0;
    for (j, &(d, c)) in vi.defs.iter().enumerate() {
        let DefC::Tied(k) = c else { continue };
        let r = regs[k];
        let dies = match vi.uses[k].0 {
            Opnd::V(v) => a.last_use[v as usize] == i && a.reg_of[v as usize] == Some(r),
            Opnd::P(_) => temps.contains(&r),
        } || temps.contains(&r);
        if dies && r < 8 && claimed >> r & 1 == 0 {
            claimed |= 1 << r;
            temps.retain(|&t| t != r);
            a.set(r, Slot::Value(d));
            defregs[j] = r;
        } else {
            let Some(to) = a.free_reg(fixed | claimed) else { return Err(a.out_of_registers(vi.what)) };
            a.mov(r, to);
            regs[k] = to;
            claimed |= 1 << to;
            a.set(to, Slot::Value(d));
            defregs[j] = to;
        }
    }

    // 4. Operands that die here, and temporary copies, free their registers.
    for (opnd, _) in &vi.uses {
        if let Opnd::V(v) = opnd
            && a.last_use[*v as usize] == i
            && let Some(r) = a.reg_of[*v as usize]
            && claimed >> r & 1 == 0
        {
            a.set(r, Slot::Free);
        }
    }
    for t in temps {
        a.set(t, Slot::Free);
    }

    // 5. Untied results.
    for (j, &(d, c)) in vi.defs.iter().enumerate() {
        if c != DefC::Any {
            continue;
        }
        let Some(r) = a.free_reg(0) else { return Err(a.out_of_registers(vi.what)) };
        a.set(r, Slot::Value(d));
        defregs[j] = r;
    }

    // SFPTRANSP transposes LReg[4..=7] as well as its operands in LReg[0..=3].
    if matches!(vi.op, super::emit::MOp::Transp) {
        let others = (0..8).filter(|&r| match a.slots[r] {
            Slot::Value(v) => !vi.defs.iter().any(|(d, _)| *d == v),
            Slot::Reserved => true,
            _ => false,
        });
        if others.count() > 0 {
            return Err(KernelError::Unsupported {
                kernel: a.kernel.to_string(),
                what: "subvec_transp rewrites all eight LRegs, but other vector values are live across it \
                       (recompute them after the transpose)"
                    .into(),
            });
        }
    }

    a.out.extend(build(arch, vi.op, &regs, &defregs));

    // 6. Results nobody reads free their registers at once.
    for (d, _) in &vi.defs {
        if a.last_use[*d as usize] <= i
            && let Some(r) = a.reg_of[*d as usize]
        {
            a.set(r, Slot::Free);
        }
    }
    Ok(())
}
