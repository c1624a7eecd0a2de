//! The Dst register: its storage, what one access touched, and the data formats Dst holds values
//! in. The 16-bit and 32-bit views that read and write it are methods of the state (`dst_views.rs`).
//!
//! Transcribes BlackholeA0 `Dst.md` (@ `093af914694547840dfc96750df15f003517129e`): the storage
//! `DstBits[1024][16]`, the valid bits `DstRowValid[1024]`, `Dst16b[Row][Col]` as
//! `DstBits[Adj16(Row)][Col]`, `Dst32b[Row][Col]` as the pair of rows `Adj32(Row)` (high half)
//! and `Adj32(Row) + 8` (low half), and the `DBG_FEATURE_DISABLE` bit 11 aliasing mode.
//!
//! On Wormhole, WormholeB0 `Dst.md` (@ `093af914694547840dfc96750df15f003517129e`): `Dst16b[Row]`
//! is `DstBits[Row]` and `Adj32(Row)` is `((Row & 0x1f8) << 1) | (Row & 0x207)`; there is no
//! `DEST_ACCESS_CFG_remap_addrs` / `swizzle_32b` adjustment (neither the WormholeB0 `Dst.md`
//! nor its `SFPLOAD.md` / `SFPSTORE.md` mention them), so those two Blackhole configuration bits
//! are ignored on a Wormhole state even if set (`docs/spec/sfpu-wormhole.md#dst-remapping-bits`).

#![allow(non_snake_case, reason = "names follow the ISA documentation")]

/// Rows of `DstBits`.
pub const DST_ROWS: usize = 1024;
/// Columns of `DstBits`.
pub const DST_COLS: usize = 16;

/// The Dst register: `DstBits[1024][16]` and `DstRowValid[1024]`.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct Dst {
    /// The storage, indexed by physical row.
    pub DstBits: Box<[[u16; DST_COLS]; DST_ROWS]>,
    /// One valid bit per physical row; `false` after a ZEROACC (reads of such a row are undefined).
    pub DstRowValid: Box<[bool; DST_ROWS]>,
}

/// `clone_from` copies into the storage `self` already has (no allocation), so that a caller
/// that keeps a scratch copy of a state (the machine's multi-instruction cycles, the fuzz
/// oracle) allocates nothing per use.
impl Clone for Dst {
    fn clone(&self) -> Dst {
        Dst { DstBits: self.DstBits.clone(), DstRowValid: self.DstRowValid.clone() }
    }

    fn clone_from(&mut self, source: &Dst) {
        *self.DstBits = *source.DstBits;
        *self.DstRowValid = *source.DstRowValid;
    }
}

impl Dst {
    /// Every cell holding `value`, every row valid.
    pub fn filled(value: u16) -> Dst {
        Dst { DstBits: Box::new([[value; DST_COLS]; DST_ROWS]), DstRowValid: Box::new([true; DST_ROWS]) }
    }
}

/// What one access to Dst touched, beyond its value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DstAccess {
    /// The value read, or written.
    pub value: u32,
    /// The physical row whose valid bit the access consults.
    pub physical_row: usize,
    /// Whether that row was valid.
    pub row_valid: bool,
    /// Whether the `DBG_FEATURE_DISABLE` bit 11 aliasing mode was in force (unsupported
    /// functionality, with unpredictable low halves on 16-bit writes).
    pub aliased: bool,
}

/// `DstDecodeBF16(x)` (`Dst.md` § "Pseudocode helpers"): Dst's `sign, man(7), exp(8)` layout
/// to IEEE BF16 bits.
pub fn DstDecodeBF16(x: u32) -> u32 {
    let e = x & 255;
    let m = (x >> 8) & 127;
    (x & 0x8000) | (e << 7) | m
}

/// `DstEncodeBF16(x)`: IEEE BF16 bits to Dst's layout.
pub fn DstEncodeBF16(x: u32) -> u32 {
    let e = (x >> 7) & 255;
    let m = x & 127;
    (x & 0x8000) | (m << 8) | e
}

/// `DstDecodeFP16(x)`: Dst's `sign, man(10), exp(5)` layout to IEEE FP16 bits.
pub fn DstDecodeFP16(x: u32) -> u32 {
    let e = x & 31;
    let m = (x >> 5) & 1023;
    (x & 0x8000) | (e << 10) | m
}

/// `DstEncodeFP16(x)`: IEEE FP16 bits to Dst's layout.
pub fn DstEncodeFP16(x: u32) -> u32 {
    let e = (x >> 10) & 31;
    let m = x & 1023;
    (x & 0x8000) | (m << 5) | e
}

/// `DstDecodeFP32(x)`: Dst's FP32 layout (also used for INT32) to IEEE FP32 bits.
pub fn DstDecodeFP32(x: u32) -> u32 {
    (DstDecodeBF16(x >> 16) << 16) | (x & 0xFFFF)
}

/// `DstEncodeFP32(x)`: IEEE FP32 bits to Dst's FP32 layout.
pub fn DstEncodeFP32(x: u32) -> u32 {
    (DstEncodeBF16(x >> 16) << 16) | (x & 0xFFFF)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_shuffles_by_hand() {
        // 1.0 in BF16 is 0x3F80: sign 0, exponent 0x7F, mantissa 0 -> Dst 0x007F.
        assert_eq!(DstEncodeBF16(0x3F80), 0x007F);
        assert_eq!(DstDecodeBF16(0x007F), 0x3F80);
        // 1.0 in FP16 is 0x3C00: exponent 15, mantissa 0 -> Dst 0x000F.
        assert_eq!(DstEncodeFP16(0x3C00), 0x000F);
        assert_eq!(DstDecodeFP16(0x000F), 0x3C00);
        // -1.5 FP32 0xBFC00000: high half 0xBFC0 -> BF16 encode: sign 1, m=0x40, e=0x7F -> 0xC07F.
        assert_eq!(DstEncodeFP32(0xBFC0_0000), 0xC07F_0000);
        assert_eq!(DstDecodeFP32(0xC07F_1234), 0xBFC0_1234);
    }
}
