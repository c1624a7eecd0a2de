//! Preparing a recorded kernel for one chip: the chip's checks, then SFPI's MAD generation.
//!
//! MAD generation (the seed's "Optimizer: MAD generation (from MUL/ADD)") changes results, since
//! the SFPU's multiply-add rounds once where a multiply then an add rounds twice; so it is a step
//! of the kernel's meaning, applied here before either the meaning or the lowering reads the
//! kernel. A product `x = a * b` used exactly once, by an add or (on Blackhole, which can negate
//! an operand) a subtract in the same statement list, becomes one [`Op::Mad`]. MULI/ADDI
//! generation is not done: constants are loaded into an LReg, as the seed's example shows
//! ("This emits two loadis and a mad").

use std::collections::HashMap;

use sfpu_reference::isa::Arch;

use crate::error::KernelError;
use crate::ir::{ChipKernel, Cond, Kernel, Op, Src, Stmt, ValueId, walk};

impl Kernel {
    /// The kernel prepared for `arch`: rejects what the chip does not have (an arithmetic right
    /// shift on Wormhole) and what the init part may not contain (predication), then applies
    /// MAD generation.
    pub fn for_chip(&self, arch: Arch) -> Result<ChipKernel, KernelError> {
        let kernel = || self.name.clone();
        let mut bad = None;
        let mut check = |s: &Stmt| {
            if let Stmt::Let {
                op: Op::ShiftImm { arith: true, .. } | Op::ShiftVec { arith: true, .. }, ..
            } = s
                && arch == Arch::Wormhole
            {
                bad.get_or_insert(KernelError::NotOnChip {
                    kernel: kernel(),
                    what: "an arithmetic right shift (`>>` or `shft` on a vInt; SFPSHFT_MOD1_ARITHMETIC)"
                        .into(),
                    arch,
                });
            }
        };
        walk(&self.init, &mut check);
        walk(&self.body, &mut check);
        if let Some(e) = bad {
            return Err(e);
        }
        if crate::ir::uses_predication(&self.init) {
            return Err(KernelError::Unsupported {
                kernel: kernel(),
                what: "v_if / v_block in the init part (init runs once, unpredicated)".into(),
            });
        }
        let mut uses = HashMap::<ValueId, u32>::new();
        count_uses(&self.init, &mut uses);
        count_uses(&self.body, &mut uses);
        let mut init = self.init.clone();
        let mut body = self.body.clone();
        fuse(&mut init, &uses, arch);
        fuse(&mut body, &uses, arch);
        Ok(ChipKernel { arch, name: self.name.clone(), init, body, values: self.values.clone() })
    }
}

fn count_src(s: Src, uses: &mut HashMap<ValueId, u32>) {
    if let Src::Val(v) = s {
        *uses.entry(v).or_default() += 1;
    }
}

fn count_cond(c: &Cond, uses: &mut HashMap<ValueId, u32>) {
    for s in c.srcs() {
        count_src(s, uses);
    }
}

fn count_uses(stmts: &[Stmt], uses: &mut HashMap<ValueId, u32>) {
    walk(stmts, &mut |s| match s {
        Stmt::Let { op, .. } => op.srcs().into_iter().for_each(|x| count_src(x, uses)),
        Stmt::Swap { ins, .. } => ins.iter().for_each(|&v| count_src(Src::Val(v), uses)),
        Stmt::Transp { ins, .. } => ins.iter().for_each(|&v| count_src(Src::Val(v), uses)),
        Stmt::Store { value, .. } | Stmt::SetLReg { value, .. } | Stmt::SetConst { value, .. } => {
            count_src(*value, uses)
        }
        Stmt::If(i) => i.arms.iter().for_each(|a| count_cond(&a.cond, uses)),
        Stmt::And(c) => count_cond(c, uses),
        Stmt::Block(_) => {}
    });
}

/// Applies MAD generation to one statement list and, recursively, to the lists inside it.
fn fuse(stmts: &mut Vec<Stmt>, uses: &HashMap<ValueId, u32>, arch: Arch) {
    for s in stmts.iter_mut() {
        match s {
            Stmt::If(i) => {
                for arm in &mut i.arms {
                    fuse(&mut arm.prelude, uses, arch);
                    fuse(&mut arm.body, uses, arch);
                }
                if let Some(e) = &mut i.else_body {
                    fuse(e, uses, arch);
                }
            }
            Stmt::Block(b) => fuse(b, uses, arch),
            _ => {}
        }
    }
    // Products of this list that are used once: value -> (index, a, b).
    let mut products: HashMap<ValueId, (usize, Src, Src)> = HashMap::new();
    let mut removed = vec![false; stmts.len()];
    for i in 0..stmts.len() {
        let (id, op) = match &stmts[i] {
            Stmt::Let { id, op } => (*id, op.clone()),
            _ => continue,
        };
        if let Op::FMul(a, b) = op {
            products.insert(id, (i, a, b));
            continue;
        }
        let single = |x: Src| match x {
            Src::Val(v) if uses.get(&v) == Some(&1) => products.get(&v).copied(),
            _ => None,
        };
        let fused = match op {
            Op::FAdd(x, c) => match (single(x), single(c)) {
                (Some((j, a, b)), _) => Some((j, Op::Mad { a, b, c, neg_a: false, neg_c: false })),
                (None, Some((j, a, b))) => Some((j, Op::Mad { a, b, c: x, neg_a: false, neg_c: false })),
                _ => None,
            },
            // Only Blackhole's SFPMAD can negate an operand (SFPMAD_MOD1_NEGATE_VA / _VC).
            Op::FSub(x, c) if arch == Arch::Blackhole => match (single(x), single(c)) {
                (Some((j, a, b)), _) => Some((j, Op::Mad { a, b, c, neg_a: false, neg_c: true })),
                (None, Some((j, a, b))) => Some((j, Op::Mad { a, b, c: x, neg_a: true, neg_c: false })),
                _ => None,
            },
            _ => None,
        };
        if let Some((j, mad)) = fused {
            removed[j] = true;
            if let Stmt::Let { id: pid, .. } = &stmts[j] {
                products.remove(pid);
            }
            stmts[i] = Stmt::Let { id, op: mad };
        }
    }
    let mut k = 0;
    stmts.retain(|_| {
        let keep = !removed[k];
        k += 1;
        keep
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::*;

    fn ops(k: &ChipKernel) -> Vec<&'static str> {
        let mut out = vec![];
        walk(&k.body, &mut |s| {
            if let Stmt::Let { op, .. } = s {
                out.push(op.name())
            }
        });
        out
    }

    #[test]
    fn a_product_used_once_by_an_add_becomes_a_mad() {
        let k = Kernel::record("mad", || {
            let a = vFloat::from(dst_reg[0]);
            let b = vFloat::from(dst_reg[1]);
            dst_reg[2].set(a * b + 1.5);
        })
        .unwrap();
        for arch in Arch::ALL {
            let c = k.for_chip(arch).unwrap();
            assert_eq!(ops(&c), ["dst_reg read", "dst_reg read", "immediate", "multiply-add"], "{arch}");
        }
    }

    #[test]
    fn a_product_used_twice_is_not_fused() {
        let k = Kernel::record("mul2", || {
            let a = vFloat::from(dst_reg[0]);
            let p = a * a;
            dst_reg[1].set(p + 1.0);
            dst_reg[2].set(p);
        })
        .unwrap();
        let c = k.for_chip(Arch::Blackhole).unwrap();
        assert_eq!(ops(&c), ["dst_reg read", "float *", "immediate", "float +"]);
    }

    #[test]
    fn subtract_fuses_only_on_blackhole() {
        let k = Kernel::record("msub", || {
            let a = vFloat::from(dst_reg[0]);
            dst_reg[1].set(a * a - 2.0);
        })
        .unwrap();
        assert_eq!(ops(&k.for_chip(Arch::Blackhole).unwrap()).last(), Some(&"multiply-add"));
        assert_eq!(ops(&k.for_chip(Arch::Wormhole).unwrap()).last(), Some(&"float -"));
    }
}
