//! The toy's literal reference model: one instruction at a time, lane by lane, each operation
//! written as its definition in `isa.rs` reads.

use crate::isa::{LANES, Op, State, decode};

/// Executes `word` on `s`.
pub fn execute(s: &mut State, word: u32) {
    let i = decode(word);
    let before = *s;
    for l in 0..LANES {
        let a = before.R[i.ra][l];
        let b = before.R[i.rb][l];
        let result = match i.op {
            Op::NOP | Op::Reserved(_) => continue,
            Op::LDI => i.imm,
            Op::ADD => a.wrapping_add(b),
            Op::SUB => a.wrapping_sub(b),
            Op::MUL => a.wrapping_mul(b),
            Op::AND => a & b,
            Op::OR => a | b,
            Op::XOR => a ^ b,
            Op::SHL => a << (b & 31),
            Op::SHR => a >> (b & 31),
            Op::MIN => a.min(b),
            // ROT reads lane `(l + imm) & 3` of `ra` as it was before the instruction.
            Op::ROT => before.R[i.ra][(l + i.imm as usize) & 3],
        };
        s.R[i.rd][l] = result;
    }
}

/// Executes `program` on `s`, in order.
pub fn run(s: &mut State, program: &[u32]) {
    for &word in program {
        execute(s, word);
    }
}
