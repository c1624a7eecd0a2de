//! Bounded unsigned instruction fields.
//!
//! Every field of an [`Instr`](super::Instr) is a [`U<N>`]: an unsigned integer of exactly `N`
//! bits. The invariant "the value fits in `N` bits" lives here, behind a private field, so an
//! `Instr` can never hold a value its encoding cannot represent, `encode` never has to truncate,
//! and the execution functions can index register files with these values without checks that
//! could panic.

use std::fmt;

/// An unsigned instruction field of `N` bits (`1 <= N <= 16`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct U<const N: u32>(u16);

/// The error returned when a value does not fit in its field.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("value {value} (0x{value:x}) does not fit in a {bits}-bit field (max {max})")]
pub struct FieldOverflow {
    /// The value that was offered.
    pub value: u64,
    /// The width of the field.
    pub bits: u32,
    /// The largest value the field can hold.
    pub max: u32,
}

impl<const N: u32> U<N> {
    /// The width of the field in bits.
    pub const BITS: u32 = N;
    /// The largest value the field can hold.
    pub const MAX: u32 = (1u32 << N) - 1;
    /// The zero value.
    pub const ZERO: Self = U(0);

    /// Returns the field holding `value`, or an error if `value` needs more than `N` bits.
    pub const fn new(value: u32) -> Result<Self, FieldOverflow> {
        if value <= Self::MAX {
            Ok(U(value as u16))
        } else {
            Err(FieldOverflow { value: value as u64, bits: N, max: Self::MAX })
        }
    }

    /// Returns the low `N` bits of `value`. Used by the decoder, which extracts exactly `N` bits.
    pub(crate) const fn from_masked(value: u32) -> Self {
        U((value & Self::MAX) as u16)
    }

    /// Returns the value as a `u32`.
    pub const fn get(self) -> u32 {
        self.0 as u32
    }

    /// Returns the value as a `usize`, for indexing register files.
    pub const fn idx(self) -> usize {
        self.0 as usize
    }
}

impl<const N: u32> From<U<N>> for u32 {
    fn from(value: U<N>) -> u32 {
        value.get()
    }
}

impl<const N: u32> TryFrom<u32> for U<N> {
    type Error = FieldOverflow;
    fn try_from(value: u32) -> Result<Self, FieldOverflow> {
        U::new(value)
    }
}

impl<const N: u32> fmt::Debug for U<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.0, f)
    }
}

impl<const N: u32> fmt::Display for U<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds() {
        assert_eq!(U::<4>::new(15).unwrap().get(), 15);
        assert_eq!(U::<4>::new(16), Err(FieldOverflow { value: 16, bits: 4, max: 15 }));
        assert_eq!(U::<16>::MAX, 0xFFFF);
        assert_eq!(U::<1>::MAX, 1);
        assert_eq!(U::<10>::from_masked(0xFFFF_FFFF).get(), 0x3FF);
    }
}
