//! Tiles in Dst: the formats kernels read and write, how a `dst_reg` access maps to Dst rows and
//! columns, and the conversions SFPLOAD and SFPSTORE apply, written independently of the reference
//! model from the pages (`SFPLOAD.md`, `SFPSTORE.md`, `Dst.md`, each chip's; the chips' differences
//! in `docs/spec/sfpu-wormhole.md`), for the per-lane meaning and for building whole-tile states.
//!
//! A tile is 32 rows of 32 lanes (a 32x32 tile: four 16x16 faces), row `i` at `dst_reg[base + i]`
//! (SFPLOAD address `2 * (base + i)`: rows `(addr & ~3) + lane / 8` of the 16-bit or 32-bit view,
//! even columns for even `addr / 2`, odd columns for odd).

use serde::{Deserialize, Serialize};
use sfpu_reference::isa::Arch;
use sfpu_reference::state::{Dst, State, addressing::data_format};

/// A tile format: how Dst is configured and how each element is encoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TileFormat {
    /// FP32 in 32-bit Dst (`ALU_ACC_CTRL_SFPU_Fp32_enabled`).
    Fp32,
    /// BF16 in 16-bit Dst (SrcB format BF16).
    Bf16,
    /// FP16 in 16-bit Dst (SrcB format FP16; the SFPU's "fp16a").
    Fp16,
    /// 32-bit integers in 32-bit Dst: sign-magnitude on Wormhole (SFPLOAD/SFPSTORE
    /// `MOD0_FMT_INT32_SM` convert to and from two's complement), two's complement on Blackhole
    /// (where that mode does not convert). Either way a `vInt` read gives two's complement.
    Int32,
}

impl TileFormat {
    /// Whether Dst holds 32-bit values.
    pub fn is_32bit(self) -> bool {
        matches!(self, TileFormat::Fp32 | TileFormat::Int32)
    }

    /// The format's name.
    pub fn name(self) -> &'static str {
        match self {
            TileFormat::Fp32 => "fp32",
            TileFormat::Bf16 => "bf16",
            TileFormat::Fp16 => "fp16",
            TileFormat::Int32 => "int32",
        }
    }
}

/// What `MOD0_FMT_SRCB` (a `vFloat` access) resolves to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FloatMode {
    /// FP32, 32-bit Dst.
    Fp32,
    /// BF16, 16-bit Dst.
    Bf16,
    /// FP16, 16-bit Dst.
    Fp16,
}

/// Configures `state`'s Dst mode for `format` (`SFPLOAD.md`, "Resolve MOD0_FMT_SRCB").
pub fn configure(state: &mut State, format: TileFormat) {
    let a = &mut state.Addressing;
    a.ALU_ACC_CTRL_SFPU_Fp32_enabled = format.is_32bit();
    a.ALU_FORMAT_SPEC_REG_SrcB_override = false;
    a.SFPU_DEST_FMT_Enable = false;
    a.ALU_FORMAT_SPEC_REG1_SrcB = match format {
        TileFormat::Fp16 => data_format::FP16,
        TileFormat::Bf16 => data_format::BF16,
        TileFormat::Fp32 => data_format::FP32,
        TileFormat::Int32 => data_format::INT32,
    };
}

/// `MOD0_FMT_SRCB` as `state` resolves it (`SFPLOAD.md`): FP32 if the SFPU's FP32 mode is on,
/// otherwise BF16 for the SrcB formats with an 8-bit exponent and FP16 for the others.
pub fn float_mode(state: &State) -> FloatMode {
    let a = &state.Addressing;
    if a.ALU_ACC_CTRL_SFPU_Fp32_enabled {
        return FloatMode::Fp32;
    }
    let mut fmt = if a.ALU_FORMAT_SPEC_REG_SrcB_override {
        a.ALU_FORMAT_SPEC_REG_SrcB_val
    } else {
        a.ALU_FORMAT_SPEC_REG1_SrcB
    };
    if state.arch() == Arch::Blackhole && a.SFPU_DEST_FMT_Enable {
        fmt = a.SFPU_DEST_FMT_Base;
    }
    use data_format::*;
    if matches!(fmt, FP32 | TF32 | BF16 | BFP8 | BFP4 | BFP2 | INT32 | INT16) {
        FloatMode::Bf16
    } else {
        FloatMode::Fp16
    }
}

/// The physical row of the high half of 32-bit row `r` (`Dst.md` `Adj32` without remapping or
/// swizzling; the low half is 8 rows further on).
fn adj32(r: u32) -> usize {
    let r = r & 0x3FF;
    (((r & 0x1F8) << 1) | (r & 0x207)) as usize
}

/// The row and column lane `lane` of an access at address `addr` touches.
pub fn row_col(addr: u32, lane: usize) -> (u32, usize) {
    let row = (addr & !3) + (lane / 8) as u32;
    let col = 2 * (lane & 7) + usize::from(addr & 2 != 0);
    (row, col)
}

/// `Dst32b[row][col]`.
pub fn read32(dst: &Dst, row: u32, col: usize) -> u32 {
    let a = adj32(row);
    ((dst.DstBits[a][col] as u32) << 16) | dst.DstBits[a + 8][col] as u32
}

/// `Dst32b[row][col] = v`.
pub fn write32(dst: &mut Dst, row: u32, col: usize, v: u32) {
    let a = adj32(row);
    dst.DstBits[a][col] = (v >> 16) as u16;
    dst.DstBits[a + 8][col] = v as u16;
}

/// `Dst16b[row][col]`.
pub fn read16(dst: &Dst, row: u32, col: usize) -> u32 {
    dst.DstBits[(row & 0x3FF) as usize][col] as u32
}

/// `Dst16b[row][col] = v`.
pub fn write16(dst: &mut Dst, row: u32, col: usize, v: u32) {
    dst.DstBits[(row & 0x3FF) as usize][col] = v as u16;
}

/// Dst's BF16 layout (sign, mantissa 7, exponent 8) to IEEE BF16.
pub fn bf16_from_dst(h: u32) -> u32 {
    (h & 0x8000) | ((h & 0xFF) << 7) | ((h >> 8) & 0x7F)
}

/// IEEE BF16 to Dst's BF16 layout.
pub fn bf16_to_dst(h: u32) -> u32 {
    (h & 0x8000) | ((h & 0x7F) << 8) | ((h >> 7) & 0xFF)
}

/// Dst's FP16 layout (sign, mantissa 10, exponent 5) to IEEE FP16.
pub fn fp16_from_dst(h: u32) -> u32 {
    (h & 0x8000) | ((h & 0x1F) << 10) | ((h >> 5) & 0x3FF)
}

/// IEEE FP16 to Dst's FP16 layout.
pub fn fp16_to_dst(h: u32) -> u32 {
    (h & 0x8000) | ((h & 0x3FF) << 5) | ((h >> 10) & 0x1F)
}

/// Dst's FP32 layout (the high half shuffled as BF16) to IEEE FP32.
pub fn fp32_from_dst(w: u32) -> u32 {
    (bf16_from_dst(w >> 16) << 16) | (w & 0xFFFF)
}

/// IEEE FP32 to Dst's FP32 layout.
pub fn fp32_to_dst(w: u32) -> u32 {
    (bf16_to_dst(w >> 16) << 16) | (w & 0xFFFF)
}

/// The FP32 value SFPLOAD gives for the IEEE FP16 pattern `h` (with `ENABLE_FP16A_INF` clear):
/// every exponent is finite, exponent 0 gives an FP32 denormal.
pub fn fp16_to_lane(h: u32) -> u32 {
    let s = (h >> 15) & 1;
    let e = (h >> 10) & 0x1F;
    let m = h & 0x3FF;
    if e != 0 { (s << 31) | ((e + 112) << 23) | (m << 13) } else { (s << 31) | (m << 13) }
}

/// The IEEE FP16 pattern SFPSTORE writes for the FP32 `d`: truncation, exponents below the range
/// to signed zero, above it to the largest pattern.
pub fn lane_to_fp16(d: u32) -> u32 {
    let s = d >> 31;
    let e = ((d >> 23) & 0xFF) as i32 - 112;
    let m = d & 0x7F_FFFF;
    let (e, m) = if e <= 0 {
        (0, 0)
    } else if e > 31 {
        (31, 0x7F_FFFF)
    } else {
        (e as u32, m)
    };
    (s << 15) | (e << 10) | (m >> 13)
}

/// The IEEE BF16 pattern SFPSTORE writes for the FP32 `d`: truncation, denormals to signed zero.
pub fn lane_to_bf16(d: u32) -> u32 {
    let d = if (d >> 23) & 0xFF == 0 { d & 0x8000_0000 } else { d };
    d >> 16
}

fn sign_mag_to_twos(x: u32) -> u32 {
    let m = x & 0x7FFF_FFFF;
    if x & 0x8000_0000 != 0 { m.wrapping_neg() } else { m }
}

fn twos_to_sign_mag(x: u32) -> u32 {
    let s = x & 0x8000_0000;
    let m = if s != 0 { x.wrapping_neg() } else { x };
    s | (m & 0x7FFF_FFFF)
}

/// What SFPLOAD puts in `lane` for a `vFloat` (`float = true`, `MOD0_FMT_SRCB` resolved to
/// `mode`) or `vInt` (`MOD0_FMT_INT32_SM`) read at `addr`.
pub fn load(arch: Arch, dst: &Dst, float: bool, mode: FloatMode, addr: u32, lane: usize) -> u32 {
    let (row, col) = row_col(addr, lane);
    if !float {
        let v = fp32_from_dst(read32(dst, row, col));
        return match arch {
            Arch::Wormhole => sign_mag_to_twos(v),
            Arch::Blackhole => v,
        };
    }
    match mode {
        FloatMode::Fp32 => fp32_from_dst(read32(dst, row, col)),
        FloatMode::Bf16 => bf16_from_dst(read16(dst, row, col)) << 16,
        FloatMode::Fp16 => fp16_to_lane(fp16_from_dst(read16(dst, row, col))),
    }
}

/// SFPSTORE of `value` from `lane` as a `vFloat` or `vInt` at `addr`.
pub fn store(arch: Arch, dst: &mut Dst, float: bool, mode: FloatMode, addr: u32, lane: usize, value: u32) {
    let (row, col) = row_col(addr, lane);
    if !float {
        let v = match arch {
            Arch::Wormhole => twos_to_sign_mag(value),
            Arch::Blackhole => value,
        };
        write32(dst, row, col, fp32_to_dst(v));
        return;
    }
    match mode {
        FloatMode::Fp32 => {
            // Blackhole's SFPSTORE FP32 flushes denormals to signed zero; Wormhole's is raw.
            let v = if arch == Arch::Blackhole && (value >> 23) & 0xFF == 0 {
                value & 0x8000_0000
            } else {
                value
            };
            write32(dst, row, col, fp32_to_dst(v));
        }
        FloatMode::Bf16 => write16(dst, row, col, bf16_to_dst(lane_to_bf16(value))),
        FloatMode::Fp16 => write16(dst, row, col, fp16_to_dst(lane_to_fp16(value))),
    }
}

/// Writes element `native` (the format's own encoding: FP32 bits, a BF16 or FP16 pattern, or a
/// two's complement integer) of `format` at `addr`, `lane`, exactly (no rounding or flushing).
pub fn write_native(arch: Arch, dst: &mut Dst, format: TileFormat, addr: u32, lane: usize, native: u32) {
    let (row, col) = row_col(addr, lane);
    match format {
        TileFormat::Fp32 => write32(dst, row, col, fp32_to_dst(native)),
        TileFormat::Int32 => {
            let v = if arch == Arch::Wormhole { twos_to_sign_mag(native) } else { native };
            write32(dst, row, col, fp32_to_dst(v));
        }
        TileFormat::Bf16 => write16(dst, row, col, bf16_to_dst(native & 0xFFFF)),
        TileFormat::Fp16 => write16(dst, row, col, fp16_to_dst(native & 0xFFFF)),
    }
}

/// What a `vFloat` (or, for [`TileFormat::Int32`], a `vInt`) read gives for the element `native`.
pub fn lane_value(format: TileFormat, native: u32) -> u32 {
    match format {
        TileFormat::Fp32 | TileFormat::Int32 => native,
        TileFormat::Bf16 => (native & 0xFFFF) << 16,
        TileFormat::Fp16 => fp16_to_lane(native & 0xFFFF),
    }
}

/// The tile of `format` at `dst_reg[base..base + 32]`, as a `vFloat` (or, for `Int32`, `vInt`)
/// read of each row would give it: `out[row * 32 + lane]`.
pub fn read_tile(state: &State, base: u32, format: TileFormat) -> Vec<u32> {
    let arch = state.arch();
    let mode = float_mode(state);
    let mut out = Vec::with_capacity(1024);
    for row in 0..32 {
        for lane in 0..32 {
            out.push(load(arch, &state.Dst, format != TileFormat::Int32, mode, 2 * (base + row), lane));
        }
    }
    out
}

/// Writes the elements `native[row * 32 + lane]` of `format` to `dst_reg[base..base + 32]`.
pub fn write_tile(state: &mut State, base: u32, format: TileFormat, native: &[u32]) {
    let arch = state.arch();
    for (i, &v) in native.iter().enumerate().take(1024) {
        write_native(arch, &mut state.Dst, format, 2 * (base + (i / 32) as u32), i % 32, v);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_by_hand() {
        // dst_reg[0]: rows 0..3, even columns; lane 9 is row 1, column 2.
        assert_eq!(row_col(0, 9), (1, 2));
        // dst_reg[1] (address 2): the odd columns of the same rows.
        assert_eq!(row_col(2, 9), (1, 3));
        // dst_reg[2] (address 4): rows 4..7.
        assert_eq!(row_col(4, 31), (7, 14));
    }

    #[test]
    fn formats_by_hand() {
        // 1.0 = 0x3F800000; BF16 0x3F80 is Dst 0x007F (`Dst.md` layout).
        assert_eq!(bf16_to_dst(0x3F80), 0x007F);
        // FP16 1.0 = 0x3C00 loads as FP32 1.0: exponent 15 + 112 = 127.
        assert_eq!(fp16_to_lane(0x3C00), 0x3F80_0000);
        // 65536.0 (2^16) has FP32 exponent 143 = 112 + 31: exponent 31 is finite here, so it
        // stores exactly as e=31, m=0; 2^17 (exponent 144) is beyond and saturates to e=31,
        // m=0x3FF.
        assert_eq!(lane_to_fp16(0x4780_0000), 0x7C00);
        assert_eq!(lane_to_fp16(0x4800_0000), 0x7FFF);
        // BF16 store truncates 1.00390625 + tiny (0x3F808001) to 0x3F80.
        assert_eq!(lane_to_bf16(0x3F80_8001), 0x3F80);
        assert_eq!(twos_to_sign_mag(-5i32 as u32), 0x8000_0005);
        assert_eq!(sign_mag_to_twos(0x8000_0005), -5i32 as u32);
    }
}
