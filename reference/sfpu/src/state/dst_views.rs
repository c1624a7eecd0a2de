//! The 16-bit and 32-bit views of the Dst register, as methods of [`State`]: `Dst16b[Row][Col]`
//! as `DstBits[Adj16(Row)][Col]`, `Dst32b[Row][Col]` as the pair of rows `Adj32(Row)` (high half)
//! and `Adj32(Row) + 8` (low half), and the `DBG_FEATURE_DISABLE` bit 11 aliasing mode, per chip.
//!
//! Transcribes BlackholeA0 and WormholeB0 `Dst.md` (@ `093af914694547840dfc96750df15f003517129e`);
//! `dst.rs` has the storage they address and says how the chips differ.

#![allow(non_snake_case, reason = "names follow the ISA documentation")]

use super::State;
use super::addressing::Addressing;
use super::dst::DstAccess;
use crate::isa::Arch;

/// The physical row of 16-bit row `Row` on `arch`: Blackhole's `Adj16`, Wormhole's identity.
fn Adj16(arch: Arch, a: &Addressing, Row: u32) -> u32 {
    match arch {
        Arch::Blackhole => a.Adj16(Row),
        Arch::Wormhole => Row & 0x3FF,
    }
}

/// The physical row of the high half of 32-bit row `Row` on `arch`: Blackhole's `Adj32` (after
/// `Adj16` and `swizzle_32b`), Wormhole's `Adj32` of its `Dst.md`.
fn Adj32(arch: Arch, a: &Addressing, Row: u32) -> u32 {
    match arch {
        Arch::Blackhole => a.Adj32(Row),
        Arch::Wormhole => {
            let Row = Row & 0x3FF;
            ((Row & 0x1F8) << 1) | (Row & 0x207)
        }
    }
}

impl State {
    /// Reads `Dst16b[Row][Col]`.
    pub fn Dst16b_read(&self, Row: u32, Col: u32) -> DstAccess {
        let a = &self.Addressing;
        if a.DBG_FEATURE_DISABLE_bit11 {
            // Reads give the high 16 bits of Dst32b[Row][Col].
            let high = self.Dst32b_read(Row, Col);
            return DstAccess { value: high.value >> 16, aliased: true, ..high };
        }
        let r = Adj16(self.arch(), a, Row) as usize;
        let c = (Col & 15) as usize;
        DstAccess {
            value: self.Dst.DstBits[r][c] as u32,
            physical_row: r,
            row_valid: self.Dst.DstRowValid[r],
            aliased: false,
        }
    }

    /// Writes the low 16 bits of `value` to `Dst16b[Row][Col]`.
    pub fn Dst16b_write(&mut self, Row: u32, Col: u32, value: u32) -> DstAccess {
        let c = (Col & 15) as usize;
        if self.Addressing.DBG_FEATURE_DISABLE_bit11 {
            // Writes go to the high 16 bits of Dst32b[Row][Col]; the low 16 bits receive an
            // unpredictable value, which this model leaves unchanged (the caller reports the
            // access as undefined).
            let r = Adj32(self.arch(), &self.Addressing, Row) as usize;
            self.Dst.DstBits[r][c] = value as u16;
            return DstAccess {
                value: value & 0xFFFF,
                physical_row: r,
                row_valid: self.Dst.DstRowValid[r],
                aliased: true,
            };
        }
        let r = Adj16(self.arch(), &self.Addressing, Row) as usize;
        self.Dst.DstBits[r][c] = value as u16;
        DstAccess {
            value: value & 0xFFFF,
            physical_row: r,
            row_valid: self.Dst.DstRowValid[r],
            aliased: false,
        }
    }

    /// Reads `Dst32b[Row][Col]`.
    pub fn Dst32b_read(&self, Row: u32, Col: u32) -> DstAccess {
        let a = Adj32(self.arch(), &self.Addressing, Row) as usize;
        let c = (Col & 15) as usize;
        let value = ((self.Dst.DstBits[a][c] as u32) << 16) | self.Dst.DstBits[a + 8][c] as u32;
        DstAccess { value, physical_row: a, row_valid: self.Dst.DstRowValid[a], aliased: false }
    }

    /// Writes `value` to `Dst32b[Row][Col]`.
    pub fn Dst32b_write(&mut self, Row: u32, Col: u32, value: u32) -> DstAccess {
        let a = Adj32(self.arch(), &self.Addressing, Row) as usize;
        let c = (Col & 15) as usize;
        self.Dst.DstBits[a][c] = (value >> 16) as u16;
        self.Dst.DstBits[a + 8][c] = value as u16;
        DstAccess { value, physical_row: a, row_valid: self.Dst.DstRowValid[a], aliased: false }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::ResetValues;

    #[test]
    fn adj32_by_hand() {
        let s = State::reset(Arch::Blackhole, &ResetValues::ZEROS);
        let a = &s.Addressing;
        // Without remap or swizzle: rows 0..7 map to themselves, row 8 to 16, row 9 to 17.
        assert_eq!(a.Adj32(0), 0);
        assert_eq!(a.Adj32(7), 7);
        assert_eq!(a.Adj32(8), 16);
        assert_eq!(a.Adj32(9), 17);
        // Bit 9 of r and shifted bit 8 coincide: 0x100 and 0x200 both map to 0x200.
        assert_eq!(a.Adj32(0x100), 0x200);
        assert_eq!(a.Adj32(0x200), 0x200);
    }

    #[test]
    fn views_share_storage() {
        let mut s = State::reset(Arch::Blackhole, &ResetValues::ZEROS);
        s.Dst32b_write(9, 3, 0x1234_5678);
        assert_eq!(s.Dst.DstBits[17][3], 0x1234);
        assert_eq!(s.Dst.DstBits[25][3], 0x5678);
        assert_eq!(s.Dst16b_read(17, 3).value, 0x1234);
        assert_eq!(s.Dst32b_read(9, 3).value, 0x1234_5678);
    }
}
