//! The toy's fast model, written apart from the reference: each word is turned once into a whole
//! -register operation (a function over `[u32; 4]`), and programs run as a table of them. It
//! shares only the instruction set's types with the reference, so comparing the two means
//! something.

use crate::isa::{LANES, Op, State};

type Lanes = [u32; LANES];

/// A lanewise binary operation.
fn zip(a: Lanes, b: Lanes, f: fn(u32, u32) -> u32) -> Lanes {
    [f(a[0], b[0]), f(a[1], b[1]), f(a[2], b[2]), f(a[3], b[3])]
}

/// Executes `word` on `s`.
pub fn execute(s: &mut State, word: u32) {
    let code = word >> 28;
    let rd = (word >> 25 & 7) as usize;
    let a = s.R[(word >> 22 & 7) as usize];
    let b = s.R[(word >> 19 & 7) as usize];
    let imm = word & 0xFFFF;
    let out = match Op::from_code(code) {
        Op::NOP | Op::Reserved(_) => return,
        Op::LDI => [imm; LANES],
        Op::ADD => zip(a, b, u32::wrapping_add),
        Op::SUB => zip(a, b, u32::wrapping_sub),
        Op::MUL => zip(a, b, u32::wrapping_mul),
        Op::AND => zip(a, b, |x, y| x & y),
        Op::OR => zip(a, b, |x, y| x | y),
        Op::XOR => zip(a, b, |x, y| x ^ y),
        Op::SHL => zip(a, b, |x, y| x.wrapping_shl(y)),
        Op::SHR => zip(a, b, |x, y| x.wrapping_shr(y)),
        Op::MIN => zip(a, b, u32::min),
        Op::ROT => {
            let k = (imm & 3) as usize;
            let mut r = a;
            r.rotate_left(k);
            r
        }
    };
    s.R[rd] = out;
}

/// Executes `program` on `s`, in order.
pub fn run(s: &mut State, program: &[u32]) {
    for &word in program {
        execute(s, word);
    }
}
