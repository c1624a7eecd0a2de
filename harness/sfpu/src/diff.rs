//! Human-readable differences between two states: each differing location with both sides' bits
//! and decoded values.

use std::fmt::Write as _;

use sfpu_reference::State;
use sfpu_reference::state::{DST_COLS, DST_ROWS, LANES, NUM_LREGS};

use crate::taint::Locations;
use crate::vectors::emit::describe_u32;

fn lanes_of(mask: u32) -> impl Iterator<Item = usize> {
    (0..LANES).filter(move |l| (mask >> l) & 1 != 0)
}

/// An LReg value read every way the SFPU's instructions read one: as FP32, as a two's-complement
/// integer, and (when its sign bit is set) as a sign-magnitude integer, so that a difference
/// shows whatever the instruction computed (`1.0 | i32 1065353216`, `-0.0 | i32 -2147483648 |
/// sm -0`).
fn reading(bits: u32) -> String {
    let fp = describe_u32(bits);
    let fp = fp.split(" | ").next().unwrap_or_default();
    let mut out = format!("{fp} | i32 {}", bits as i32);
    if bits >> 31 != 0 {
        out.push_str(&format!(" | sm -{}", bits & 0x7FFF_FFFF));
    }
    out
}

/// At most this many lines per part, so a wholesale mismatch stays readable.
const MAX_LINES: usize = 8;

/// Describes every location in `differing`, with the expected and actual values.
pub fn describe(expected: &State, actual: &State, differing: &Locations) -> String {
    let mut t = String::new();
    for reg in 0..NUM_LREGS {
        let lanes = differing.lreg(reg);
        if lanes == 0 {
            continue;
        }
        let _ = writeln!(t, "  LReg[{reg}], lanes 0x{lanes:08x}:");
        for (n, l) in lanes_of(lanes).enumerate() {
            if n == MAX_LINES {
                let _ = writeln!(t, "    ... {} more lanes", lanes.count_ones() as usize - MAX_LINES);
                break;
            }
            let (e, a) = (expected.LReg[reg][l], actual.LReg[reg][l]);
            let _ = writeln!(
                t,
                "    lane {l:>2}: expected 0x{e:08x} ({}), got 0x{a:08x} ({})",
                reading(e),
                reading(a)
            );
        }
    }
    let mask = |f: &dyn Fn(usize) -> bool| (0..LANES).fold(0u32, |m, l| m | ((f(l) as u32) << l));
    for (name, lanes, e, a) in [
        (
            "LaneFlags",
            differing.LaneFlags.0,
            mask(&|l| expected.LaneFlags[l]),
            mask(&|l| actual.LaneFlags[l]),
        ),
        (
            "UseLaneFlagsForLaneEnable",
            differing.UseLaneFlagsForLaneEnable.0,
            mask(&|l| expected.UseLaneFlagsForLaneEnable[l]),
            mask(&|l| actual.UseLaneFlagsForLaneEnable[l]),
        ),
    ] {
        if lanes != 0 {
            let _ = writeln!(t, "  {name}: expected 0x{e:08x}, got 0x{a:08x} (lanes 0x{lanes:08x} differ)");
        }
    }
    for l in lanes_of(differing.FlagStack.0).take(MAX_LINES) {
        let _ = writeln!(
            t,
            "  FlagStack lane {l}: expected {:?}, got {:?}",
            expected.FlagStack[l].entries(),
            actual.FlagStack[l].entries()
        );
    }
    for l in lanes_of(differing.LaneConfig.0).take(MAX_LINES) {
        let _ = writeln!(
            t,
            "  LaneConfig lane {l}: expected 0x{:05x}, got 0x{:05x}",
            expected.LaneConfig[l].bits(),
            actual.LaneConfig[l].bits()
        );
    }
    for l in lanes_of(differing.LoadMacroConfig.0).take(MAX_LINES) {
        let _ = writeln!(
            t,
            "  LoadMacroConfig lane {l}: expected {:x?}, got {:x?}",
            expected.LoadMacroConfig[l], actual.LoadMacroConfig[l]
        );
    }
    for l in lanes_of(differing.PRNG.0).take(MAX_LINES) {
        let _ =
            writeln!(t, "  PRNG lane {l}: expected 0x{:08x}, got 0x{:08x}", expected.PRNG[l], actual.PRNG[l]);
    }
    if differing.Dst {
        let mut n = 0;
        'rows: for r in 0..DST_ROWS {
            if expected.Dst.DstRowValid[r] != actual.Dst.DstRowValid[r] {
                let _ = writeln!(
                    t,
                    "  DstRowValid[{r}]: expected {}, got {}",
                    expected.Dst.DstRowValid[r], actual.Dst.DstRowValid[r]
                );
            }
            for c in 0..DST_COLS {
                let (e, a) = (expected.Dst.DstBits[r][c], actual.Dst.DstBits[r][c]);
                if e != a {
                    if n == MAX_LINES {
                        let _ = writeln!(t, "    ... more Dst cells differ");
                        break 'rows;
                    }
                    let _ = writeln!(t, "  DstBits[{r}][{c}]: expected 0x{e:04x}, got 0x{a:04x}");
                    n += 1;
                }
            }
        }
    }
    if differing.Addressing {
        let _ = writeln!(
            t,
            "  Addressing: expected {:?}\n              got      {:?}",
            expected.Addressing, actual.Addressing
        );
    }
    t
}

#[cfg(test)]
mod tests {
    use super::reading;

    /// Each reading by hand: 0x3f800000 is 1.0 (exponent 127, mantissa 0) and 1065353216 as an
    /// integer; 0x80000000 is -0.0, i32::MIN and sign-magnitude -0; 0xfffffff9 is a negative NaN,
    /// -7, and sign-magnitude -(2^31 - 7).
    #[test]
    fn a_value_is_read_as_a_float_and_as_integers() {
        assert_eq!(reading(0x3F80_0000), "1.0 | i32 1065353216");
        assert_eq!(reading(0x8000_0000), "-0.0 | i32 -2147483648 | sm -0");
        assert_eq!(reading(0xFFFF_FFF9), "-nan(0x7ffff9) | i32 -7 | sm -2147483641");
        assert_eq!(reading(0x0000_0007), "1e-44 | i32 7");
    }
}
