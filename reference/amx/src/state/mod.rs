//! The architectural state `vecfp` touches: X (8 × 64 B), Y (8 × 64 B) and Z (64 × 64 B), 5120
//! bytes in all, every lane little-endian.
//!
//! Spec: `amx-vecfp.md` §1.1 ("State touched by vecfp") and §3 (`amx_reg` / `amx_state` of
//! corsix/amx `emulate.h`: a register is 64 bytes seen as u8\[64\], u16\[32\], u32\[16\] or
//! u64\[8\]). `vecfp` has no other state: no flags, no exceptions. The state after AMX `set` is
//! all zeros ([`State::zeroed`]); `vecfp` before `set` is out of scope (§1.1).

#![allow(non_snake_case, reason = "register names follow the specification notes")]

mod serde_form;

pub use serde_form::{Index, StateDoc, StateError, StateReadError, reg_from_hex, reg_to_hex};

/// Bytes in one X, Y or Z register.
pub const REG_BYTES: usize = 64;
/// Registers in the X pool and in the Y pool.
pub const XY_REGS: usize = 8;
/// Rows of Z.
pub const Z_ROWS: usize = 64;
/// Bytes in the X pool or the Y pool, seen as one circular buffer (§2.7 "Window").
pub const POOL_BYTES: usize = XY_REGS * REG_BYTES;

/// One 64-byte register.
pub type Reg = [u8; REG_BYTES];

/// The AMX register file as `vecfp` sees it.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct State {
    /// X: 8 registers of 64 bytes. `vecfp` only reads it.
    pub X: [Reg; XY_REGS],
    /// Y: 8 registers of 64 bytes. `vecfp` only reads it.
    pub Y: [Reg; XY_REGS],
    /// Z: 64 rows of 64 bytes. `vecfp` reads and writes it.
    pub Z: [Reg; Z_ROWS],
}

impl Default for State {
    fn default() -> State {
        State::zeroed()
    }
}

impl std::fmt::Debug for State {
    /// The non-zero registers, in the state document's hex form.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.to_yaml())
    }
}

impl State {
    /// The all-zero state: what AMX `set` leaves (§1.1).
    pub const fn zeroed() -> State {
        State { X: [[0; REG_BYTES]; XY_REGS], Y: [[0; REG_BYTES]; XY_REGS], Z: [[0; REG_BYTES]; Z_ROWS] }
    }

    /// A state from 5120 bytes in the order X, Y, Z (the layout of `amx_state`).
    pub fn from_bytes(bytes: &[u8; 5120]) -> State {
        let mut s = State::zeroed();
        let regs = s.X.iter_mut().chain(s.Y.iter_mut()).chain(s.Z.iter_mut());
        for (reg, chunk) in regs.zip(bytes.chunks_exact(REG_BYTES)) {
            reg.copy_from_slice(chunk);
        }
        s
    }

    /// The 5120 bytes in the order X, Y, Z.
    pub fn to_bytes(&self) -> [u8; 5120] {
        let mut out = [0; 5120];
        let regs = self.X.iter().chain(self.Y.iter()).chain(self.Z.iter());
        for (chunk, reg) in out.chunks_exact_mut(REG_BYTES).zip(regs) {
            chunk.copy_from_slice(reg);
        }
        out
    }
}

/// Lane `i` of `bytes` seen as elements of `eb` bytes (little-endian), zero-extended; `eb` is
/// 1..=8 (wider elements keep their low 8 bytes). Lanes past the end read as 0 (the flow never
/// asks for them).
pub fn lane(bytes: &[u8], eb: usize, i: usize) -> u64 {
    let mut v = 0u64;
    for k in (0..eb.min(8)).rev() {
        let byte = i.checked_mul(eb).and_then(|b| b.checked_add(k)).and_then(|b| bytes.get(b));
        v = (v << 8) | *byte.unwrap_or(&0) as u64;
    }
    v
}

/// Sets lane `i` of `bytes`, seen as elements of `eb` bytes (little-endian), to the low `eb`
/// bytes of `v`. Lanes past the end are not written (the flow never names them).
pub fn set_lane(bytes: &mut [u8], eb: usize, i: usize, v: u64) {
    for k in 0..eb.min(8) {
        if let Some(b) = i.checked_mul(eb).and_then(|b| b.checked_add(k)).and_then(|b| bytes.get_mut(b)) {
            *b = (v >> (8 * k)) as u8;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lanes_are_little_endian() {
        let mut r = [0u8; 64];
        set_lane(&mut r, 4, 1, 0x3F80_0000);
        assert_eq!(&r[4..8], &[0x00, 0x00, 0x80, 0x3F]);
        assert_eq!(lane(&r, 4, 1), 0x3F80_0000);
        assert_eq!(lane(&r, 2, 3), 0x3F80);
        assert_eq!(lane(&r, 8, 0), 0x3F80_0000_0000_0000);
        assert_eq!(lane(&r, 8, 8), 0);
        set_lane(&mut r, 8, 8, 1); // out of range: nothing happens
    }

    #[test]
    fn bytes_round_trip() {
        let bytes: [u8; 5120] = std::array::from_fn(|i| (i * 7 + i / 64) as u8);
        let s = State::from_bytes(&bytes);
        assert_eq!(s.X[1][0], bytes[64]);
        assert_eq!(s.Y[0][0], bytes[512]);
        assert_eq!(s.Z[63][63], bytes[5119]);
        assert_eq!(s.to_bytes(), bytes);
    }
}
