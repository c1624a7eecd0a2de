//! The toy instruction set: four lanes of 32-bit integers, eight registers `r0`..`r7`, and a
//! 32-bit instruction word:
//!
//! | bits    | field | meaning                                    |
//! |---------|-------|--------------------------------------------|
//! | 31..28  | op    | the operation (below); 12..15 are reserved |
//! | 27..25  | rd    | the destination register                   |
//! | 24..22  | ra    | the first source register                  |
//! | 21..19  | rb    | the second source register                 |
//! | 15..0   | imm   | an immediate                               |
//!
//! Bits 18..16 are ignored. Operations, per lane `l`: 0 `NOP`; 1 `LDI rd, imm` (every lane gets
//! `imm`, zero-extended); 2 `ADD`, 3 `SUB`, 4 `MUL` (wrapping, the low 32 bits); 5 `AND`, 6 `OR`,
//! 7 `XOR`; 8 `SHL`, 9 `SHR` (`ra` shifted by `rb & 31`, logical); 10 `MIN` (unsigned); 11 `ROT
//! rd, ra, imm` (`rd[l] = ra[(l + imm) & 3]`, the one cross-lane operation). A reserved operation
//! does nothing. Every result is defined.

use std::fmt;

/// Lanes per register.
pub const LANES: usize = 4;
/// Registers.
pub const REGS: usize = 8;

/// The architectural state: `R[r][l]` is lane `l` of register `r`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[allow(non_snake_case, reason = "the register file's name")]
pub struct State {
    /// The registers.
    pub R: [[u32; LANES]; REGS],
}

/// The operations, by their 4-bit code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Op {
    /// Nothing.
    NOP,
    /// `rd = imm` in every lane.
    LDI,
    /// `rd = ra + rb`.
    ADD,
    /// `rd = ra - rb`.
    SUB,
    /// `rd = ra * rb` (low 32 bits).
    MUL,
    /// `rd = ra & rb`.
    AND,
    /// `rd = ra | rb`.
    OR,
    /// `rd = ra ^ rb`.
    XOR,
    /// `rd = ra << (rb & 31)`.
    SHL,
    /// `rd = ra >> (rb & 31)`.
    SHR,
    /// `rd = min(ra, rb)`, unsigned.
    MIN,
    /// `rd[l] = ra[(l + imm) & 3]`.
    ROT,
    /// A reserved code (12..15): nothing.
    Reserved(u8),
}

impl Op {
    /// The defined operations, in code order.
    pub const DEFINED: [Op; 12] = [
        Op::NOP,
        Op::LDI,
        Op::ADD,
        Op::SUB,
        Op::MUL,
        Op::AND,
        Op::OR,
        Op::XOR,
        Op::SHL,
        Op::SHR,
        Op::MIN,
        Op::ROT,
    ];

    /// The operation of code `code` (the low 4 bits).
    pub fn from_code(code: u32) -> Op {
        match code & 15 {
            c @ 0..=11 => Op::DEFINED[c as usize],
            c => Op::Reserved(c as u8),
        }
    }

    /// Its 4-bit code.
    pub fn code(self) -> u32 {
        match self {
            Op::Reserved(c) => u32::from(c & 15),
            op => Op::DEFINED.iter().position(|&d| d == op).unwrap_or(0) as u32,
        }
    }

    /// Its name (`ADD`; `RES12` for a reserved code).
    pub fn name(self) -> String {
        match self {
            Op::Reserved(c) => format!("RES{c}"),
            op => format!("{op:?}"),
        }
    }
}

/// One decoded instruction word.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Instr {
    /// The operation.
    pub op: Op,
    /// The destination register.
    pub rd: usize,
    /// The first source register.
    pub ra: usize,
    /// The second source register.
    pub rb: usize,
    /// The immediate.
    pub imm: u32,
}

/// Decodes a word (every word decodes: reserved codes are no-ops, bits 18..16 are ignored).
pub fn decode(word: u32) -> Instr {
    Instr {
        op: Op::from_code(word >> 28),
        rd: ((word >> 25) & 7) as usize,
        ra: ((word >> 22) & 7) as usize,
        rb: ((word >> 19) & 7) as usize,
        imm: word & 0xFFFF,
    }
}

/// What an instruction does, without the fields its operation does not use (so two words that
/// differ only there mean the same, and their text is the same).
pub fn meaning(word: u32) -> Instr {
    let i = decode(word);
    match i.op {
        Op::NOP | Op::Reserved(_) => Instr { op: i.op, rd: 0, ra: 0, rb: 0, imm: 0 },
        Op::LDI => Instr { ra: 0, rb: 0, ..i },
        Op::ROT => Instr { rb: 0, ..i },
        _ => Instr { imm: 0, ..i },
    }
}

/// Encodes an instruction (the ignored bits zero).
pub fn encode(i: &Instr) -> u32 {
    i.op.code() << 28
        | (i.rd as u32 & 7) << 25
        | (i.ra as u32 & 7) << 22
        | (i.rb as u32 & 7) << 19
        | (i.imm & 0xFFFF)
}

impl fmt::Display for Instr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = self.op.name();
        match self.op {
            Op::NOP | Op::Reserved(_) => f.write_str(&name),
            Op::LDI => write!(f, "{name} r{}, {:#x}", self.rd, self.imm),
            Op::ROT => write!(f, "{name} r{}, r{}, {:#x}", self.rd, self.ra, self.imm),
            _ => write!(f, "{name} r{}, r{}, r{}", self.rd, self.ra, self.rb),
        }
    }
}

/// Parses one line of text form (`ADD r1, r2, r3`, `LDI r1, 0x10`, `ROT r1, r2, 1`, `NOP`, or a
/// raw `0x...` word).
pub fn parse(line: &str) -> Result<u32, String> {
    let line = line.trim();
    if let Some(hex) = line.strip_prefix("0x") {
        return u32::from_str_radix(hex, 16).map_err(|e| format!("`{line}`: {e}"));
    }
    let (name, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
    let op = (0..16)
        .map(Op::from_code)
        .find(|op| op.name().eq_ignore_ascii_case(name))
        .ok_or_else(|| format!("`{name}` is not an instruction"))?;
    let args: Vec<&str> = rest.split(',').map(str::trim).filter(|a| !a.is_empty()).collect();
    let reg = |a: &str| -> Result<usize, String> {
        a.strip_prefix('r')
            .and_then(|n| n.parse::<usize>().ok())
            .filter(|&n| n < REGS)
            .ok_or_else(|| format!("`{a}` is not a register r0..r7"))
    };
    let num = |a: &str| -> Result<u32, String> {
        let v = match a.strip_prefix("0x") {
            Some(h) => u32::from_str_radix(h, 16),
            None => a.parse::<u32>(),
        };
        v.ok().filter(|&v| v <= 0xFFFF).ok_or_else(|| format!("`{a}` is not a 16-bit immediate"))
    };
    let want = |n: usize| -> Result<(), String> {
        if args.len() == n { Ok(()) } else { Err(format!("{name} takes {n} operand(s), not {}", args.len())) }
    };
    let mut i = Instr { op, rd: 0, ra: 0, rb: 0, imm: 0 };
    match op {
        Op::NOP | Op::Reserved(_) => want(0)?,
        Op::LDI => {
            want(2)?;
            i.rd = reg(args[0])?;
            i.imm = num(args[1])?;
        }
        Op::ROT => {
            want(3)?;
            i.rd = reg(args[0])?;
            i.ra = reg(args[1])?;
            i.imm = num(args[2])?;
        }
        _ => {
            want(3)?;
            i.rd = reg(args[0])?;
            i.ra = reg(args[1])?;
            i.rb = reg(args[2])?;
        }
    }
    Ok(encode(&i))
}
