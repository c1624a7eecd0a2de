//! [`Format`]: the four floating-point formats of X, Y and Z lanes (§1.1), with their bit layouts
//! and the field accessors the arithmetic of [`crate::fp`] and its routes ([`super::fma`],
//! [`super::round`]) share.

/// A floating-point format of an X, Y or Z lane (§1.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[allow(clippy::upper_case_acronyms, reason = "format names")]
pub enum Format {
    /// IEEE binary16.
    F16,
    /// bfloat16: the top half of an f32.
    BF16,
    /// IEEE binary32.
    F32,
    /// IEEE binary64.
    F64,
}

impl Format {
    /// Every format.
    pub const ALL: [Format; 4] = [Format::F16, Format::BF16, Format::F32, Format::F64];

    /// Bytes per element.
    pub const fn bytes(self) -> usize {
        match self {
            Format::F16 | Format::BF16 => 2,
            Format::F32 => 4,
            Format::F64 => 8,
        }
    }

    /// Bits per element.
    pub const fn bits(self) -> u32 {
        8 * self.bytes() as u32
    }

    /// Width of the exponent field.
    pub const fn exp_bits(self) -> u32 {
        match self {
            Format::F16 => 5,
            Format::BF16 | Format::F32 => 8,
            Format::F64 => 11,
        }
    }

    /// Width of the trailing significand field.
    pub const fn man_bits(self) -> u32 {
        match self {
            Format::F16 => 10,
            Format::BF16 => 7,
            Format::F32 => 23,
            Format::F64 => 52,
        }
    }

    /// The exponent bias.
    pub const fn bias(self) -> i32 {
        (1 << (self.exp_bits() - 1)) - 1
    }

    /// The sign bit.
    pub const fn sign_bit(self) -> u64 {
        1 << (self.bits() - 1)
    }

    /// The all-ones exponent field in place (the pattern of +Inf).
    pub const fn inf(self) -> u64 {
        ((1 << self.exp_bits()) - 1) << self.man_bits()
    }

    /// The pattern of +1.0.
    pub const fn one(self) -> u64 {
        (self.bias() as u64) << self.man_bits()
    }

    /// The default NaN: the canonical positive quiet NaN of §2.8's table (`0x7E00`, `0x7FC0`,
    /// `0x7FC0_0000`, `0x7FF8_0000_0000_0000`).
    pub const fn default_nan(self) -> u64 {
        self.inf() | (1 << (self.man_bits() - 1))
    }

    /// The trailing significand field of `x`.
    pub const fn man(self, x: u64) -> u64 {
        x & ((1 << self.man_bits()) - 1)
    }

    /// The biased exponent field of `x`.
    pub const fn exp(self, x: u64) -> u64 {
        (x >> self.man_bits()) & ((1 << self.exp_bits()) - 1)
    }

    /// Whether the sign bit of `x` is set.
    pub const fn sign(self, x: u64) -> bool {
        x & self.sign_bit() != 0
    }

    /// Whether `x` is a NaN (quiet or signalling, any sign and payload).
    pub const fn is_nan(self, x: u64) -> bool {
        x & !self.sign_bit() > self.inf()
    }

    /// Whether `x` is ±Inf.
    pub const fn is_inf(self, x: u64) -> bool {
        x & !self.sign_bit() == self.inf()
    }

    /// Whether `x` is ±0.
    pub const fn is_zero(self, x: u64) -> bool {
        x & !self.sign_bit() == 0
    }

    /// The pattern of `x` with only the format's bits kept.
    pub const fn mask(self, x: u64) -> u64 {
        if self.bits() == 64 { x } else { x & ((1 << self.bits()) - 1) }
    }

    /// `x` with its sign flipped (the negation that `fmsub` applies to x before the multiply).
    pub const fn neg(self, x: u64) -> u64 {
        x ^ self.sign_bit()
    }

    /// A finite `x` as `(sign, m, e)` with value `(-1)^sign · m · 2^e`, `m` an integer (the
    /// implicit bit included for normal numbers). Callers pass finite values only; for Inf or NaN
    /// the result is meaningless but defined.
    pub const fn unpack(self, x: u64) -> (bool, u128, i32) {
        let m = self.man(x) as u128;
        let e = self.exp(x) as i32;
        let first = 1 - self.bias() - self.man_bits() as i32; // exponent of the subnormal ulp
        if e == 0 {
            (self.sign(x), m, first)
        } else {
            (self.sign(x), m | (1 << self.man_bits()), first + e - 1)
        }
    }
}
