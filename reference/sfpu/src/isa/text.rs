//! The tt-llk macro text form of instructions: `TTI_SFPMAD(0, 1, 2, 3, 0)`.
//!
//! Each opcode is written with the argument list of its tt-llk `TT_OP_*` macro for the chip
//! (`tt_llk_blackhole/common/inc/ckernel_ops.h`, and tt-llk commit
//! 247358105940650e1e2c67c3a0b97404833d1410's `tt_llk_wormhole_b0/common/inc/ckernel_ops.h`), so instruction sequences can be pasted from
//! kernels. Parsing evaluates the arguments, builds the word exactly as the macro does
//! (`(opcode << 24) + (arg << shift) + ...`), and then [`decode`](super::decode)s it, so the text
//! form can never mean something the binary form cannot. Arguments are integers (decimal, `0x`,
//! `0b`), named constants ([`mods`](super::mods), tt-llk's `p_sfpu::LREG*`/`LCONST_*`,
//! `ADDR_MOD_*`, `InstrModLoadStore::*`), and `|`, `+`, `<<` and parentheses over them, so
//! `TT_SFPLOADMACRO((2 << 2) + 1, 3, ADDR_MOD_7, (100 << 1) + 0)` parses.

use std::fmt;

use super::{Arch, DecodeError, Instr, Opcode, decode};

/// One argument of a tt-llk macro: its name, where it goes in the word, and how many bits it
/// may have.
#[derive(Clone, Copy, Debug)]
struct Arg {
    name: &'static str,
    shift: u32,
    bits: u32,
    /// Written in hexadecimal when it is 10 or more (immediates and addresses).
    hex: bool,
}

const fn arg(name: &'static str, shift: u32, bits: u32) -> Arg {
    Arg { name, shift, bits, hex: false }
}

const fn imm(name: &'static str, shift: u32, bits: u32) -> Arg {
    Arg { name, shift, bits, hex: true }
}

/// `(imm12_math, lreg_c, lreg_dest, instr_mod1)`, shared by most register-form instructions.
const REG_FORM: &[Arg] =
    &[imm("imm12_math", 12, 12), arg("lreg_c", 8, 4), arg("lreg_dest", 4, 4), arg("instr_mod1", 0, 4)];
/// `(lreg_src_a, lreg_src_b, lreg_src_c, lreg_dest, instr_mod1)`. tt-llk accepts 8 bits for
/// `lreg_src_a`, but only 4 are drawn, so more is reported as out of range here.
const MAD_FORM: &[Arg] = &[
    arg("lreg_src_a", 16, 4),
    arg("lreg_src_b", 12, 4),
    arg("lreg_src_c", 8, 4),
    arg("lreg_dest", 4, 4),
    arg("instr_mod1", 0, 4),
];
/// `(imm16_math, lreg_dest, instr_mod1)`.
const IMM16_FORM: &[Arg] = &[imm("imm16_math", 8, 16), arg("lreg_dest", 4, 4), arg("instr_mod1", 0, 4)];
/// `(lreg_ind, instr_mod0, sfpu_addr_mode, dest_reg_addr)` on Blackhole: a 3-bit address mode at
/// bit 13 (`tt_llk_blackhole/common/inc/ckernel_ops.h`).
const MEM_FORM_BH: &[Arg] = &[
    arg("lreg_ind", 20, 4),
    arg("instr_mod0", 16, 4),
    arg("sfpu_addr_mode", 13, 3),
    imm("dest_reg_addr", 0, 13),
];
/// The same on Wormhole: a 2-bit address mode at bit 14 and 14 bits of address
/// (`tt_llk_wormhole_b0/common/inc/ckernel_ops.h`, `TT_SFPLOAD_VALID`: `sfpu_addr_mode` 2 bits,
/// `dest_reg_addr` 14 bits).
const MEM_FORM_WH: &[Arg] = &[
    arg("lreg_ind", 20, 4),
    arg("instr_mod0", 16, 4),
    arg("sfpu_addr_mode", 14, 2),
    imm("dest_reg_addr", 0, 14),
];

const NO_ARGS: &[Arg] = &[];
const LOADI_FORM: &[Arg] = &[arg("lreg_ind", 20, 4), arg("instr_mod0", 16, 4), imm("imm16", 0, 16)];
const LUT_FORM: &[Arg] = &[arg("lreg_ind", 20, 4), arg("instr_mod0", 16, 4), imm("dest_reg_addr", 0, 16)];
const CONFIG_FORM: &[Arg] = &[imm("imm16_math", 8, 16), arg("config_dest", 4, 4), arg("instr_mod1", 0, 4)];
const CAST_FORM: &[Arg] = &[arg("lreg_src_c", 8, 4), arg("lreg_dest", 4, 4), arg("instr_mod1", 0, 4)];
const LUTFP32_FORM: &[Arg] = &[imm("lreg_dest", 4, 20), arg("instr_mod1", 0, 4)];
const STOCH_RND_FORM: &[Arg] = &[
    arg("rnd_mode", 21, 3),
    arg("imm8_math", 16, 5),
    arg("lreg_src_b", 12, 4),
    arg("lreg_src_c", 8, 4),
    arg("lreg_dest", 4, 4),
    arg("instr_mod1", 0, 4),
];

/// The tt-llk macro name (without `TT_`/`TTI_`) and argument list of `op` on `arch`. The two
/// chips' `ckernel_ops.h` differ only in the address mode of SFPLOAD, SFPSTORE and SFPLOADMACRO;
/// every other SFPU macro has the same argument list on both (what a chip's encoding does not
/// draw, [`decode`] refuses).
fn macro_form(arch: Arch, op: Opcode) -> (&'static str, &'static [Arg]) {
    use Opcode::*;
    let mem_form = match arch {
        Arch::Blackhole => MEM_FORM_BH,
        Arch::Wormhole => MEM_FORM_WH,
    };
    match op {
        SFPLOAD => ("SFPLOAD", mem_form),
        SFPSTORE => ("SFPSTORE", mem_form),
        SFPLOADMACRO => ("SFPLOADMACRO", mem_form),
        SFPLOADI => ("SFPLOADI", LOADI_FORM),
        SFPLUT => ("SFPLUT", LUT_FORM),
        SFPMULI => ("SFPMULI", IMM16_FORM),
        SFPADDI => ("SFPADDI", IMM16_FORM),
        SFPCONFIG => ("SFPCONFIG", CONFIG_FORM),
        SFPMAD => ("SFPMAD", MAD_FORM),
        SFPADD => ("SFPADD", MAD_FORM),
        SFPMUL => ("SFPMUL", MAD_FORM),
        SFPMUL24 => ("SFPMUL24", MAD_FORM),
        SFPCAST => ("SFPCAST", CAST_FORM),
        SFPLUTFP32 => ("SFPLUTFP32", LUTFP32_FORM),
        SFPSTOCHRND => ("SFP_STOCH_RND", STOCH_RND_FORM),
        SFPNOP => ("SFPNOP", NO_ARGS),
        SFPDIVP2 | SFPEXEXP | SFPEXMAN | SFPIADD | SFPSHFT | SFPSETCC | SFPMOV | SFPABS | SFPAND | SFPOR
        | SFPNOT | SFPLZ | SFPSETEXP | SFPSETMAN | SFPPUSHC | SFPPOPC | SFPSETSGN | SFPENCC | SFPCOMPC
        | SFPTRANSP | SFPXOR | SFPSWAP | SFPSHFT2 | SFPLE | SFPGT | SFPARECIP => (op.name(), REG_FORM),
    }
}

/// The opcode whose tt-llk macro is called `name` (also accepting the ISA spelling
/// `SFPSTOCHRND` for tt-llk's `SFP_STOCH_RND`).
fn opcode_for_macro(name: &str) -> Option<Opcode> {
    if name == "SFP_STOCH_RND" {
        return Some(Opcode::SFPSTOCHRND);
    }
    Opcode::from_name(name)
}

fn write_value(f: &mut fmt::Formatter<'_>, v: u32, hex: bool) -> fmt::Result {
    if hex && v >= 10 { write!(f, "0x{v:x}") } else { write!(f, "{v}") }
}

/// An instruction in the tt-llk macro form of a chip ([`Instr::display`]).
#[derive(Clone, Copy, Debug)]
pub struct InstrDisplay<'a> {
    instr: &'a Instr,
    arch: Arch,
}

impl Instr {
    /// The tt-llk macro form of the instruction on `arch`, for example
    /// `TTI_SFPMAD(0, 1, 2, 3, 0)`. An instruction `arch` cannot encode prints as
    /// `<not a wormhole instruction: ...>` with the [`EncodeError`](super::EncodeError).
    pub fn display(&self, arch: Arch) -> InstrDisplay<'_> {
        InstrDisplay { instr: self, arch }
    }
}

impl fmt::Display for InstrDisplay<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let word = match self.instr.encode(self.arch) {
            Ok(word) => word,
            Err(e) => return write!(f, "<not a {} instruction: {e}>", self.arch),
        };
        let (name, args) = macro_form(self.arch, self.instr.opcode());
        write!(f, "TTI_{name}")?;
        if args.is_empty() {
            return Ok(());
        }
        f.write_str("(")?;
        for (i, a) in args.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write_value(f, (word >> a.shift) & ((1u32 << a.bits) - 1), a.hex)?;
        }
        f.write_str(")")
    }
}

/// What is wrong with an instruction's text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseErrorKind {
    /// The text is not `TT_NAME(args)` / `TTI_NAME(args)` / `TT_OP_NAME(args)`.
    #[error("expected an instruction like `TTI_SFPMAD(0, 1, 2, 3, 0)`, found `{0}`")]
    Syntax(String),
    /// The macro name is not an SFPU instruction.
    #[error("`{0}` is not an SFPU instruction")]
    UnknownInstruction(String),
    /// The number of arguments does not match the macro.
    #[error("{name} takes {expected} arguments ({signature}), found {found}")]
    ArgumentCount {
        /// The macro name.
        name: &'static str,
        /// How many it takes.
        expected: usize,
        /// Its signature.
        signature: String,
        /// How many were given.
        found: usize,
    },
    /// An argument is not a valid expression.
    #[error("argument {index} ({arg}): {message}")]
    BadArgument {
        /// 1-based position.
        index: usize,
        /// The macro's name for it.
        arg: &'static str,
        /// What is wrong.
        message: String,
    },
    /// An argument does not fit the macro's field.
    #[error("argument {index} ({arg}) = {value} (0x{value:x}) does not fit in {bits} bits")]
    OutOfRange {
        /// 1-based position.
        index: usize,
        /// The macro's name for it.
        arg: &'static str,
        /// Its value.
        value: u64,
        /// The field's width.
        bits: u32,
    },
    /// The resulting word does not decode.
    #[error(transparent)]
    Decode(#[from] DecodeError),
}

/// An instruction text that does not parse, with its line number when it came from a program.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}{kind}", line.map(|l| format!("line {l}: ")).unwrap_or_default())]
pub struct ParseError {
    /// The 1-based line number, for programs.
    pub line: Option<usize>,
    /// What is wrong.
    pub kind: ParseErrorKind,
}

impl From<ParseErrorKind> for ParseError {
    fn from(kind: ParseErrorKind) -> ParseError {
        ParseError { line: None, kind }
    }
}

/// Values of the tt-llk names that kernels pass as arguments (`ckernel_instr_params.h`
/// `p_sfpu`, `ckernel_addrmod.h` `ADDR_MOD_*`, `llk_defs.h` `InstrModLoadStore`).
fn tt_llk_constant(path: &[&str]) -> Option<u64> {
    let name = *path.last()?;
    let qualifier = if path.len() >= 2 { path[path.len() - 2] } else { "" };
    if qualifier == "InstrModLoadStore" {
        // tt-llk's enum: note LO16 = 6 (the ISA's MOD0_FMT_UINT16) differs from MOD0_FMT_LO16 = 9.
        return Some(match name {
            "DEFAULT" => 0,
            "FP16A" => 1,
            "FP16B" => 2,
            "FP32" => 3,
            "INT32" => 4,
            "INT8" => 5,
            "LO16" => 6,
            "HI16" => 7,
            "INT32_2S_COMP" => 12,
            "INT8_2S_COMP" => 13,
            "LO16_ONLY" => 14,
            "HI16_ONLY" => 15,
            _ => return None,
        });
    }
    if let Some(v) = super::mods::lookup(name) {
        return Some(v as u64);
    }
    if let Some(n) = name.strip_prefix("LREG").and_then(|d| d.parse::<u64>().ok()).filter(|&n| n < 16) {
        return Some(n);
    }
    if let Some(n) = name.strip_prefix("ADDR_MOD_").and_then(|d| d.parse::<u64>().ok()).filter(|&n| n < 8) {
        return Some(n);
    }
    Some(match name {
        "LCONST_0_8373" => 8,
        "LCONST_0" => 9,
        "LCONST_1" => 10,
        "LCONST_neg1" => 11,
        "LTILEID" => 15,
        _ => return None,
    })
}

/// How deeply an argument may nest parentheses. Kernel arguments nest two or three deep; the
/// limit keeps the recursive evaluator's stack bounded for any input.
pub const MAX_NESTING: usize = 64;

/// Why an argument does not evaluate.
enum ExprError {
    /// A number too large for any field (more than 64 bits).
    TooLarge(String),
    /// Anything else, in words.
    Other(String),
}

impl From<String> for ExprError {
    fn from(message: String) -> ExprError {
        ExprError::Other(message)
    }
}

impl From<&str> for ExprError {
    fn from(message: &str) -> ExprError {
        ExprError::Other(message.to_string())
    }
}

/// A small recursive-descent evaluator for macro arguments.
struct Expr<'a> {
    s: &'a [u8],
    i: usize,
    depth: usize,
    /// The named constants used, for the check that they belong to the instruction.
    names: Vec<String>,
}

impl Expr<'_> {
    /// The value of `text`, and the named constants it used.
    fn eval(text: &str) -> Result<(u64, Vec<String>), ExprError> {
        let mut e = Expr { s: text.as_bytes(), i: 0, depth: 0, names: Vec::new() };
        let v = e.or()?;
        e.ws();
        if e.i != e.s.len() {
            return Err(format!("unexpected `{}`", &text[e.i..]).into());
        }
        Ok((v, e.names))
    }

    fn ws(&mut self) {
        while self.i < self.s.len() && self.s[self.i].is_ascii_whitespace() {
            self.i += 1;
        }
    }

    fn eat(&mut self, tok: &str) -> bool {
        self.ws();
        if self.s[self.i..].starts_with(tok.as_bytes()) {
            self.i += tok.len();
            true
        } else {
            false
        }
    }

    fn or(&mut self) -> Result<u64, ExprError> {
        let mut v = self.shift()?;
        loop {
            if self.eat("|") {
                v |= self.shift()?;
            } else if self.eat("+") {
                v = v.checked_add(self.shift()?).ok_or("overflow")?;
            } else {
                return Ok(v);
            }
        }
    }

    fn shift(&mut self) -> Result<u64, ExprError> {
        let mut v = self.atom()?;
        while self.eat("<<") {
            let by = self.atom()?;
            if by >= 32 {
                return Err(format!("shift by {by} is too large").into());
            }
            v = v.checked_shl(by as u32).filter(|r| r >> by == v).ok_or("overflow")?;
        }
        Ok(v)
    }

    fn atom(&mut self) -> Result<u64, ExprError> {
        self.ws();
        if self.eat("(") {
            self.depth += 1;
            if self.depth > MAX_NESTING {
                return Err(format!("parentheses nest deeper than {MAX_NESTING}").into());
            }
            let v = self.or()?;
            if !self.eat(")") {
                return Err("missing `)`".into());
            }
            self.depth -= 1;
            return Ok(v);
        }
        let start = self.i;
        while self.i < self.s.len()
            && (self.s[self.i].is_ascii_alphanumeric() || b"_:".contains(&self.s[self.i]))
        {
            self.i += 1;
        }
        let tok = std::str::from_utf8(&self.s[start..self.i]).map_err(|e| e.to_string())?;
        if tok.is_empty() {
            return Err(ExprError::Other(if self.i < self.s.len() {
                format!("unexpected `{}`", self.s[self.i] as char)
            } else {
                "missing value".into()
            }));
        }
        if tok.as_bytes()[0].is_ascii_digit() {
            let t = tok.trim_end_matches(['u', 'U']);
            return crate::state::parse_uint(t).ok_or_else(|| {
                if is_numeral(t) {
                    ExprError::TooLarge(tok.to_string())
                } else {
                    format!("`{tok}` is not a number").into()
                }
            });
        }
        let path: Vec<&str> = tok.split("::").filter(|p| !p.is_empty()).collect();
        let value = tt_llk_constant(&path).ok_or_else(|| format!("unknown name `{tok}`"))?;
        self.names.push(path.last().copied().unwrap_or_default().to_string());
        Ok(value)
    }
}

/// Whether `t` is written like a number (decimal, `0x` hex or `0b` binary digits, `_` allowed),
/// whatever its size.
fn is_numeral(t: &str) -> bool {
    let t = t.replace('_', "");
    let (digits, radix) = match t.get(..2) {
        Some("0x" | "0X") => (&t[2..], 16),
        Some("0b" | "0B") => (&t[2..], 2),
        _ => (&t[..], 10),
    };
    !digits.is_empty() && digits.chars().all(|c| c.is_digit(radix))
}

/// The instructions whose fields a page's mode constant is meant for: the constant's prefix names
/// its page (`SFPLOADI_MOD0_FLOATB` is SFPLOADI's), and a few pages share theirs (`SFPMAD_MOD1_*`
/// with the other multiply-adds, `MOD0_FMT_*` with SFPSTORE and SFPLOADMACRO). `None` for names
/// that are not a page's mode constants (LRegs, address modifiers, tt-llk enums).
fn constant_owners(name: &str) -> Option<&'static [Opcode]> {
    use Opcode::*;
    super::mods::lookup(name)?;
    let prefix = name.split('_').next().unwrap_or_default();
    Some(match prefix {
        "MOD0" => &[SFPLOAD, SFPSTORE, SFPLOADMACRO],
        "MOD1" => &[SFPCONFIG],
        "SFPMAD" => &[SFPMAD, SFPADD, SFPMUL, SFPADDI, SFPMULI, SFPMUL24],
        "SFPSDIVP2" | "SFPDIVP2" => &[SFPDIVP2],
        "SFPLUT" => &[SFPLUT],
        _ => {
            let op = Opcode::ALL.iter().find(|op| op.name() == prefix)?;
            std::slice::from_ref(op)
        }
    })
}

/// Splits `a, (b, c), d` at top-level commas; `None` if the parentheses do not balance.
fn split_args(text: &str) -> Option<Vec<&str>> {
    let mut out = Vec::new();
    let (mut depth, mut start) = (0i32, 0);
    for (i, c) in text.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth < 0 {
                    return None;
                }
            }
            ',' if depth == 0 => {
                out.push(&text[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    if depth != 0 {
        return None;
    }
    out.push(&text[start..]);
    Some(if out.len() == 1 && out[0].trim().is_empty() { Vec::new() } else { out })
}

/// Parses one instruction in tt-llk macro form for `arch`.
pub fn parse_instr(arch: Arch, text: &str) -> Result<Instr, ParseError> {
    parse_instr_with_warnings(arch, text).map(|(instr, _)| instr)
}

/// [`parse_instr`], and warnings about arguments that are valid but probably not meant: a mode
/// constant of another instruction's page (`SFPLOADI_MOD0_FLOATB` as SFPMAD's `instr_mod1`).
pub fn parse_instr_with_warnings(arch: Arch, text: &str) -> Result<(Instr, Vec<String>), ParseError> {
    let t = text.trim().trim_end_matches(';').trim();
    let syntax = || ParseErrorKind::Syntax(t.to_string());
    let rest = t
        .strip_prefix("TTI_")
        .or_else(|| t.strip_prefix("TT_OP_"))
        .or_else(|| t.strip_prefix("TT_"))
        .ok_or_else(syntax)?;
    let (name, args_text) = match rest.find('(') {
        Some(open) => {
            let inner = rest[open + 1..].strip_suffix(')').ok_or_else(syntax)?;
            (rest[..open].trim(), Some(inner))
        }
        None => (rest.trim(), None),
    };
    if !name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
        return Err(syntax().into());
    }
    let op = opcode_for_macro(name).ok_or_else(|| ParseErrorKind::UnknownInstruction(name.to_string()))?;
    let (macro_name, form) = macro_form(arch, op);
    let args = match args_text {
        Some(text) => split_args(text).ok_or_else(syntax)?,
        None => Vec::new(),
    };
    if args.len() != form.len() {
        return Err(ParseErrorKind::ArgumentCount {
            name: macro_name,
            expected: form.len(),
            signature: form.iter().map(|a| a.name).collect::<Vec<_>>().join(", "),
            found: args.len(),
        }
        .into());
    }
    let mut word = (op.number() as u32) << 24;
    let mut warnings = Vec::new();
    for (index, (a, text)) in form.iter().zip(&args).enumerate() {
        let (value, names) = Expr::eval(text).map_err(|e| ParseErrorKind::BadArgument {
            index: index + 1,
            arg: a.name,
            message: match e {
                ExprError::TooLarge(tok) => format!(
                    "`{tok}` is out of range for the field ({} bits, at most {})",
                    a.bits,
                    (1u64 << a.bits) - 1
                ),
                ExprError::Other(message) => message,
            },
        })?;
        if value >> a.bits != 0 {
            return Err(
                ParseErrorKind::OutOfRange { index: index + 1, arg: a.name, value, bits: a.bits }.into()
            );
        }
        for name in names {
            if let Some(owners) = constant_owners(&name).filter(|owners| !owners.contains(&op)) {
                let whose: Vec<&str> = owners.iter().map(|o| o.name()).collect();
                warnings.push(format!(
                    "argument {} ({}): `{name}` is a mode constant of {}, not of {}",
                    index + 1,
                    a.name,
                    whose.join("/"),
                    op.name()
                ));
            }
        }
        word += (value as u32) << a.shift;
    }
    Ok((decode(arch, word).map_err(ParseErrorKind::from)?, warnings))
}

/// A warning about one line of a program: see [`parse_instr_with_warnings`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseWarning {
    /// The 1-based line number.
    pub line: usize,
    /// What looks wrong.
    pub message: String,
}

/// One instruction of a program, with the line it came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProgramLine {
    /// The 1-based line number.
    pub line: usize,
    /// The instruction.
    pub instr: Instr,
}

/// Parses a program: one instruction per line in tt-llk macro form, or a raw instruction word
/// (`0x84012300`); blank lines and comments (`#` or `//` to the end of the line) are ignored.
/// The first error is returned with its line number.
pub fn parse_program(arch: Arch, text: &str) -> Result<Vec<ProgramLine>, ParseError> {
    parse_program_with_warnings(arch, text).map(|(program, _)| program)
}

/// [`parse_program`], and the warnings of [`parse_instr_with_warnings`] with their lines.
pub fn parse_program_with_warnings(
    arch: Arch,
    text: &str,
) -> Result<(Vec<ProgramLine>, Vec<ParseWarning>), ParseError> {
    let mut out = Vec::new();
    let mut warnings = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let code = raw.split('#').next().unwrap_or("");
        let code = code.split("//").next().unwrap_or("").trim();
        if code.is_empty() {
            continue;
        }
        let parsed = if code.starts_with("0x") || code.starts_with("0X") {
            let word = crate::state::parse_uint(code)
                .filter(|&w| w <= u32::MAX as u64)
                .ok_or_else(|| ParseErrorKind::Syntax(code.to_string()))
                .map_err(ParseError::from);
            word.and_then(|w| decode(arch, w as u32).map_err(|e| ParseErrorKind::from(e).into()))
        } else {
            parse_instr_with_warnings(arch, code).map(|(instr, w)| {
                warnings.extend(w.into_iter().map(|message| ParseWarning { line, message }));
                instr
            })
        };
        match parsed {
            Ok(instr) => out.push(ProgramLine { line, instr }),
            Err(e) => return Err(ParseError { line: Some(line), kind: e.kind }),
        }
    }
    Ok((out, warnings))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> Result<Instr, ParseError> {
        parse_instr(Arch::Blackhole, s)
    }

    fn show(i: &Instr) -> String {
        i.display(Arch::Blackhole).to_string()
    }

    #[test]
    fn display_matches_tt_llk() {
        let i = p("TTI_SFPMAD(0, 1, 2, 3, 0)").unwrap();
        assert_eq!(i.encode(Arch::Blackhole).unwrap(), 0x8400_1230);
        assert_eq!(show(&i), "TTI_SFPMAD(0, 1, 2, 3, 0)");
        assert_eq!(p("TTI_SFPNOP").unwrap().encode(Arch::Blackhole).unwrap(), 0x8F00_0000);
        assert_eq!(show(&p("TTI_SFPNOP").unwrap()), "TTI_SFPNOP");
        assert_eq!(p("TTI_SFPLOADI(2, 0, 0x3f80)").unwrap().encode(Arch::Blackhole).unwrap(), 0x7120_3F80);
        assert_eq!(show(&p("TTI_SFPLOADI(2, 0, 0x3f80)").unwrap()), "TTI_SFPLOADI(2, 0, 0x3f80)");
    }

    #[test]
    fn kernel_style_arguments() {
        let i = p("TT_SFPLOAD(p_sfpu::LREG3, InstrModLoadStore::FP32, ADDR_MOD_7, 0x10);").unwrap();
        assert_eq!(
            i.encode(Arch::Blackhole).unwrap(),
            (0x70 << 24) | (3 << 20) | (3 << 16) | (7 << 13) | 0x10
        );
        let m = p("TTI_SFPLOADMACRO((2 << 2) + 1, 3, 0, (100 << 1) + 1)").unwrap();
        assert_eq!(
            m,
            Instr::SFPLOADMACRO {
                MacroIndex: super::super::U::new(2).unwrap(),
                VDLo: super::super::U::new(1).unwrap(),
                Mod0: super::super::U::new(3).unwrap(),
                AddrMod: super::super::U::ZERO,
                Imm9: super::super::U::new(100).unwrap(),
                VDHi: super::super::U::new(1).unwrap(),
            }
        );
        let s = p("TTI_SFP_STOCH_RND(SFPSTOCHRND_RND_STOCH, 0, 0, 1, 2, SFPSTOCHRND_MOD1_FP32_TO_FP16B)")
            .unwrap();
        assert_eq!(s.encode(Arch::Blackhole).unwrap(), 0x8E20_0121);
        assert_eq!(p("TTI_SFPSTOCHRND(1, 0, 0, 1, 2, 1)").unwrap(), s);
        assert_eq!(
            p("TTI_SFPMAD(LCONST_1, 0, LCONST_0, 4, SFPMAD_MOD1_NEGATE_VA | SFPMAD_MOD1_NEGATE_VC)")
                .unwrap()
                .encode(Arch::Blackhole)
                .unwrap(),
            0x840A_0943
        );
    }

    #[test]
    fn errors_say_what_is_wrong() {
        let cases = [
            ("SFPMAD(0,1,2,3,0)", "expected an instruction"),
            ("TTI_SFPFOO(1)", "not an SFPU instruction"),
            ("TTI_SFPMAD(0, 1, 2, 3)", "takes 5 arguments"),
            ("TTI_SFPMAD(0, 1, 2, 16, 0)", "does not fit in 4 bits"),
            ("TTI_SFPMAD(0, 1, 2, BOGUS, 0)", "unknown name `BOGUS`"),
            ("TTI_SFPNOT(1, 2, 3, 0)", "does not use bits"),
            ("TTI_SFPMAD(0, 1, 2, (3, 0)", "expected an instruction"),
            // A number too large for any integer is out of range, not "not a number".
            (
                "TTI_SFPMAD(0, 1, 2, 3, 99999999999999999999999)",
                "`99999999999999999999999` is out of range for the field (4 bits, at most 15)",
            ),
            ("TTI_SFPMAD(0, 1, 2, 3, 0x1zz)", "`0x1zz` is not a number"),
        ];
        for (text, want) in cases {
            let err = p(text).expect_err(text).to_string();
            assert!(err.contains(want), "{text}: {err}");
        }
    }

    /// Nesting is bounded (64 levels): 20,000 nested parentheses are an error, not an overflow of
    /// the evaluator's stack (SIGABRT); within the bound it still evaluates.
    #[test]
    fn deep_nesting_is_an_error_not_a_crash() {
        let deep = format!("TTI_SFPNOP({}0{})", "(".repeat(20_000), ")".repeat(20_000));
        let err = p(&deep).expect_err("too deep").to_string();
        assert!(err.contains("expected an instruction") || err.contains("takes 0 arguments"), "{err}");
        let deep = format!("TTI_SFPMAD(0, 1, 2, 3, {}0{})", "(".repeat(20_000), ")".repeat(20_000));
        let err = p(&deep).expect_err("too deep").to_string();
        assert!(err.contains("parentheses nest deeper than 64"), "{err}");
        let ok = format!("TTI_SFPMAD(0, 1, 2, 3, {}5{})", "(".repeat(64), ")".repeat(64));
        assert_eq!(p(&ok).unwrap(), p("TTI_SFPMAD(0, 1, 2, 3, 5)").unwrap());
    }

    /// Another instruction's mode constant is accepted (its value is valid) but warned
    /// about; a page's own constants, and the shared ones, are not.
    #[test]
    fn foreign_mode_constants_are_warned_about() {
        let warn = |t: &str| parse_instr_with_warnings(Arch::Blackhole, t).unwrap().1;
        let w = warn("TTI_SFPMAD(0, 1, 2, 3, SFPLOADI_MOD0_FLOATB)");
        assert_eq!(
            w,
            ["argument 5 (instr_mod1): `SFPLOADI_MOD0_FLOATB` is a mode constant of SFPLOADI, not of SFPMAD"]
        );
        assert!(warn("TTI_SFPMAD(0, 1, 2, 3, SFPMAD_MOD1_INDIRECT_VA | SFPMAD_MOD1_NEGATE_VC)").is_empty());
        assert!(warn("TTI_SFPADD(0, 1, 2, 3, SFPMAD_MOD1_NEGATE_VC)").is_empty());
        assert!(warn("TTI_SFPLOADI(p_sfpu::LREG3, SFPLOADI_MOD0_FLOATB, 0x3f80)").is_empty());
        assert!(warn("TTI_SFPSTORE(0, MOD0_FMT_FP32, ADDR_MOD_3, 0)").is_empty());
        let (lines, warnings) = parse_program_with_warnings(
            Arch::Blackhole,
            "TTI_SFPNOP\nTTI_SFPIADD(0, 1, 2, SFPSETCC_MOD1_CLEAR)\n",
        )
        .unwrap();
        assert_eq!(lines.len(), 2);
        assert_eq!(warnings.len(), 1);
        assert_eq!(warnings[0].line, 2);
        assert!(warnings[0].message.contains("of SFPSETCC, not of SFPIADD"), "{:?}", warnings);
    }

    /// Wormhole's argument lists: the address mode is 2 bits at bit 14
    /// (`TT_OP_SFPLOAD(lreg_ind, instr_mod0, sfpu_addr_mode, dest_reg_addr)` of the Wormhole
    /// `ckernel_ops.h`: `(lreg_ind << 20) + (instr_mod0 << 16) + (sfpu_addr_mode << 14) + dest_reg_addr`).
    #[test]
    fn wormhole_argument_lists() {
        let wh = |t: &str| parse_instr(Arch::Wormhole, t);
        let i = wh("TT_SFPLOAD(p_sfpu::LREG3, InstrModLoadStore::FP32, ADDR_MOD_3, 0x10)").unwrap();
        assert_eq!(
            i.encode(Arch::Wormhole).unwrap(),
            (0x70 << 24) | (3 << 20) | (3 << 16) | (3 << 14) | 0x10
        );
        assert_eq!(i.display(Arch::Wormhole).to_string(), "TTI_SFPLOAD(3, 3, 3, 0x10)");
        // ADDR_MOD_7 needs three bits: Blackhole only.
        let err = wh("TTI_SFPLOAD(3, 3, 7, 0x10)").unwrap_err().to_string();
        assert!(err.contains("does not fit in 2 bits"), "{err}");
        // Fields Wormhole's encodings lack: SFPAND Mod1, SFPPUSHC Mod1, the new opcodes.
        assert!(wh("TTI_SFPAND(0, 1, 2, 1)").unwrap_err().to_string().contains("does not use bits"));
        assert!(wh("TTI_SFPPUSHC(0, 0, 0, 3)").unwrap_err().to_string().contains("does not use bits"));
        assert!(wh("TTI_SFPGT(0, 1, 2, 1)").unwrap_err().to_string().contains("not a wormhole SFPU"));
        // The same instruction does not print for a chip that cannot express it.
        let and_vb = p("TTI_SFPAND(3, 1, 2, 1)").unwrap();
        assert!(and_vb.display(Arch::Wormhole).to_string().starts_with("<not a wormhole instruction"));
    }

    #[test]
    fn programs_report_lines() {
        let prog = "# comment\nTTI_SFPNOP\n\n0x84001230 // raw word\nTTI_SFPMAD(1,2,3,4,5)\n";
        let lines = parse_program(Arch::Blackhole, prog).unwrap();
        assert_eq!(lines.iter().map(|l| l.line).collect::<Vec<_>>(), vec![2, 4, 5]);
        let err = parse_program(Arch::Blackhole, "TTI_SFPNOP\nTTI_SFPMAD(1)\n").unwrap_err();
        assert_eq!(err.line, Some(2));
        assert!(err.to_string().starts_with("line 2: "));
    }
}
