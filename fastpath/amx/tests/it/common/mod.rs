//! Shared by the integration tests: a seeded generator (xoshiro256++, as corsix/amx `test.c`),
//! operands biased towards operations that do something, states biased towards the values where
//! floating point is hard, and the comparison of the fast model with the reference model
//! (`amx_reference::vecfp`, the oracle) with a divergence report.

#![allow(dead_code, reason = "examples/bench.rs includes it and uses a subset; Fmt::is_nan is spare")]

use std::fmt::Write as _;

use amx_reference::{AluMode, Chip, Decoded, Field, LaneWidth, Operand, State, StateDoc, decode};

/// xoshiro256++ seeded through SplitMix64: the generator of corsix/amx `test.c` (§4.1).
#[derive(Clone)]
pub struct Rng([u64; 4]);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        let mut x = seed;
        let mut next = || {
            x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = x;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        };
        Rng([next(), next(), next(), next()])
    }

    pub fn next(&mut self) -> u64 {
        let s = &mut self.0;
        let out = s[0].wrapping_add(s[3]).rotate_left(23).wrapping_add(s[0]);
        let t = s[1] << 17;
        s[2] ^= s[0];
        s[3] ^= s[1];
        s[1] ^= s[2];
        s[0] ^= s[3];
        s[2] ^= t;
        s[3] = s[3].rotate_left(45);
        out
    }

    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }

    pub fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len() as u64) as usize]
    }
}

/// A floating-point format, described by its bit layout (the tests' own, independent of both
/// models).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fmt {
    F16,
    BF16,
    F32,
    F64,
}

impl Fmt {
    pub const ALL: [Fmt; 4] = [Fmt::F16, Fmt::BF16, Fmt::F32, Fmt::F64];

    pub fn bytes(self) -> usize {
        match self {
            Fmt::F16 | Fmt::BF16 => 2,
            Fmt::F32 => 4,
            Fmt::F64 => 8,
        }
    }
    pub fn man_bits(self) -> u32 {
        match self {
            Fmt::F16 => 10,
            Fmt::BF16 => 7,
            Fmt::F32 => 23,
            Fmt::F64 => 52,
        }
    }
    pub fn exp_bits(self) -> u32 {
        match self {
            Fmt::F16 => 5,
            Fmt::BF16 | Fmt::F32 => 8,
            Fmt::F64 => 11,
        }
    }
    pub fn sign(self) -> u64 {
        1 << (self.man_bits() + self.exp_bits())
    }
    pub fn inf(self) -> u64 {
        ((1 << self.exp_bits()) - 1) << self.man_bits()
    }
    pub fn bias(self) -> u64 {
        (1 << (self.exp_bits() - 1)) - 1
    }
    pub fn one(self) -> u64 {
        self.bias() << self.man_bits()
    }
    /// The default NaN of §2.8.
    pub fn default_nan(self) -> u64 {
        self.inf() | (1 << (self.man_bits() - 1))
    }
    pub fn mask(self, v: u64) -> u64 {
        if self == Fmt::F64 { v } else { v & ((1 << (8 * self.bytes())) - 1) }
    }
    pub fn is_nan(self, v: u64) -> bool {
        v & !self.sign() > self.inf()
    }

    /// The §4.2 special inputs: ±0, ±min/max subnormal, ±min normal, ±1, ±max finite, ±Inf,
    /// ±qNaN, ±sNaN.
    pub fn specials(self) -> Vec<u64> {
        (0..18).map(|k| self.special(k)).collect()
    }

    /// Special value `k` (0..18) of [`Fmt::specials`].
    pub fn special(self, k: u64) -> u64 {
        let m = self.man_bits();
        let p = match (k / 2) % 9 {
            0 => 0,
            1 => 1,
            2 => (1 << m) - 1,
            3 => 1 << m,
            4 => self.one(),
            5 => self.inf() - 1,
            6 => self.inf(),
            7 => self.default_nan(),
            _ => self.inf() | 1,
        };
        if k % 2 == 1 { p | self.sign() } else { p }
    }

    /// A value where arithmetic is interesting, in roughly equal parts: random bits, a special,
    /// near ±1, a short significand (products land on ties), a subnormal or tiny value, a value
    /// near overflow.
    pub fn value(self, rng: &mut Rng) -> u64 {
        let r = rng.next();
        let m = self.man_bits();
        let sign = if r >> 63 == 1 { self.sign() } else { 0 };
        let man = (r >> 8) & ((1 << m) - 1);
        let max_exp = (1 << self.exp_bits()) - 2;
        match rng.below(8) {
            0 | 1 => self.mask(r),
            2 => self.special(r % 18),
            3 => sign | (self.one() + (r % 64)).wrapping_sub(32),
            4 => {
                let exp = (self.bias() + (r >> 4) % 13).wrapping_sub(6);
                let top = (r >> 20) & 7;
                sign | (exp << m) | (top << (m - 3))
            }
            5 => sign | (man >> (r % 4)) | (((r >> 6) & 1) << m),
            6 => sign | ((max_exp - (r >> 4) % 4) << m) | man,
            _ => sign | (((r >> 10) % (max_exp + 1)) << m) | man,
        }
    }
}

/// The X/Y and Z formats of an operand on a chip (`None` for a no-op).
pub fn formats(chip: Chip, op: Operand) -> Option<(Fmt, Fmt)> {
    match decode(chip, op) {
        Decoded::Nop(_) => None,
        Decoded::Op(v) => Some(match v.lw {
            LaneWidth::Bf16 => (Fmt::BF16, Fmt::BF16),
            LaneWidth::Bf16F32Pair => (Fmt::BF16, Fmt::F32),
            LaneWidth::F16F32Pair => (Fmt::F16, Fmt::F32),
            LaneWidth::F32 => (Fmt::F32, Fmt::F32),
            LaneWidth::F64 => (Fmt::F64, Fmt::F64),
            LaneWidth::F16 => (Fmt::F16, Fmt::F16),
        }),
    }
}

/// Fills a register with values of `fmt`.
pub fn fill(reg: &mut [u8; 64], fmt: Fmt, rng: &mut Rng) {
    let eb = fmt.bytes();
    for lane in reg.chunks_exact_mut(eb) {
        let v = fmt.value(rng);
        lane.copy_from_slice(&v.to_le_bytes()[..eb]);
    }
}

/// A state of random bytes, as `test.c` makes them.
pub fn raw_state(rng: &mut Rng) -> State {
    let mut s = State::zeroed();
    for reg in s.X.iter_mut().chain(s.Y.iter_mut()).chain(s.Z.iter_mut()) {
        for chunk in reg.chunks_exact_mut(8) {
            chunk.copy_from_slice(&rng.next().to_le_bytes());
        }
    }
    s
}

/// A state for `op` on `chip`: X and Y filled with values of its X/Y format, Z with values of its
/// Z format (random formats for a no-op), each register raw random bytes one time in eight.
pub fn biased_state(rng: &mut Rng, chip: Chip, op: Operand) -> State {
    let (xy, z) = formats(chip, op).unwrap_or((rng.pick(&Fmt::ALL), rng.pick(&Fmt::ALL)));
    let mut s = raw_state(rng);
    for reg in s.X.iter_mut().chain(s.Y.iter_mut()) {
        if rng.below(8) != 0 {
            fill(reg, xy, rng);
        }
    }
    for reg in s.Z.iter_mut() {
        if rng.below(8) != 0 {
            fill(reg, z, rng);
        }
    }
    s
}

/// A random state for `op`: raw bytes one time in four, otherwise biased.
pub fn state_for(rng: &mut Rng, chip: Chip, op: Operand) -> State {
    if rng.below(4) == 0 { raw_state(rng) } else { biased_state(rng, chip, op) }
}

/// Turns random bits into an operand that does something most of the time: MBZ cleared, then
/// one time in four an indexed load, otherwise an ALU mode valid on `chip`; every other bit
/// (offsets, shuffles, lane selection, rows, ignored bits) stays random.
pub fn sane(chip: Chip, raw: u64, choice: u64) -> Operand {
    let op = Operand(raw & !Field::MBZ.mask());
    if choice & 3 == 0 {
        op.with(Field::IDX, 1).unwrap()
    } else {
        let valid = AluMode::valid_on(chip);
        let alu = valid[((choice >> 2) % valid.len() as u64) as usize];
        op.with(Field::IDX, 0).unwrap().with(Field::ALU, alu.code()).unwrap()
    }
}

/// A random operand for the big runs: fully random bits one time in eight (mostly no-ops, as in
/// `test.c`), otherwise [`sane`].
pub fn random_operand(rng: &mut Rng, chip: Chip) -> Operand {
    let raw = rng.next();
    if rng.below(8) == 0 { Operand(raw) } else { sane(chip, raw, rng.next()) }
}

/// Sets a field (the value must fit).
pub fn set(op: Operand, field: Field, value: u64) -> Operand {
    op.with(field, value).expect("the value fits the field")
}

/// The reference model (the oracle) on a copy of `before`.
pub fn reference(chip: Chip, op: Operand, before: &State) -> State {
    let mut s = before.clone();
    amx_reference::vecfp(&mut s, chip, op);
    s
}

/// Runs `fast` (a fast-model entry point, or a planted variant) on a copy of `before` and
/// compares the whole state with the reference; `Err` holds the divergence report.
pub fn compare_with(
    chip: Chip,
    op: Operand,
    before: &State,
    fast: impl FnOnce(&mut State),
) -> Result<(), String> {
    let expected = reference(chip, op, before);
    let mut actual = before.clone();
    fast(&mut actual);
    if expected == actual { Ok(()) } else { Err(report(chip, op, before, &expected, &actual)) }
}

/// [`compare`], and whether the reference changed the state (`Ok(true)`): the share of cases
/// that write Z shows a class is not mostly no-ops.
pub fn check(chip: Chip, op: Operand, before: &State) -> Result<bool, String> {
    let expected = reference(chip, op, before);
    let mut actual = before.clone();
    amx_fastpath::vecfp(&mut actual, chip, op);
    if expected == actual {
        Ok(expected != *before)
    } else {
        Err(report(chip, op, before, &expected, &actual))
    }
}

/// [`compare_with`] for `amx_fastpath::vecfp`.
pub fn compare(chip: Chip, op: Operand, before: &State) -> Result<(), String> {
    compare_with(chip, op, before, |s| amx_fastpath::vecfp(s, chip, op))
}

/// The bytes of register `reg` as `eb`-byte little-endian lanes.
fn lane(reg: &[u8; 64], eb: usize, i: usize) -> u64 {
    let mut b = [0u8; 8];
    b[..eb].copy_from_slice(&reg[i * eb..(i + 1) * eb]);
    u64::from_le_bytes(b)
}

/// The divergence report (STYLE "Reporting a divergence"): the instruction in hex, as its text
/// form and decoded; each register that differs, lane by lane with both sides' bits; then a
/// YAML regression snippet with the state before and the reference's changes.
pub fn report(chip: Chip, op: Operand, before: &State, expected: &State, actual: &State) -> String {
    let mut m = String::new();
    let _ = writeln!(m, "vecfp divergence on {chip}: operand 0x{:016x}", op.0);
    let _ = writeln!(m, "  text form: {op}");
    let _ = writeln!(m, "  decoded:   {:?}", decode(chip, op));
    let eb = formats(chip, op).map_or(8, |(_, z)| z.bytes());
    type Pool<'a> = &'a [[u8; 64]];
    let pools: [(&str, Pool<'_>, Pool<'_>); 3] =
        [("X", &expected.X, &actual.X), ("Y", &expected.Y, &actual.Y), ("Z", &expected.Z, &actual.Z)];
    for (name, e, a) in pools {
        for (r, (er, ar)) in e.iter().zip(a).enumerate() {
            if er == ar {
                continue;
            }
            let _ = writeln!(
                m,
                "  {name}[{r}] differs ({}-byte lanes; reference = expected | fast = actual):",
                eb
            );
            for i in 0..64 / eb {
                let (x, y) = (lane(er, eb, i), lane(ar, eb, i));
                if x != y {
                    let w = 2 * eb;
                    let _ = writeln!(m, "    lane {i:2}: 0x{x:0w$x} | 0x{y:0w$x}");
                }
            }
        }
    }
    let changes = serde_yaml::to_string(&StateDoc::changes(before, expected)).unwrap_or_default();
    let indent = |t: &str| t.lines().map(|l| format!("    {l}\n")).collect::<String>();
    let _ = writeln!(m, "regression (YAML):\n- chip: {chip}\n  operand: 0x{:016x}  # {op}", op.0);
    let _ = write!(m, "  state:\n{}", indent(&before.to_yaml()));
    let _ = write!(m, "  expected:\n{}", indent(&changes));
    m
}

/// The number of cases for a run: the environment variable `var` if set, else `default`.
pub fn cases(var: &str, default: u64) -> u64 {
    std::env::var(var).ok().and_then(|v| v.replace('_', "").parse().ok()).unwrap_or(default)
}
