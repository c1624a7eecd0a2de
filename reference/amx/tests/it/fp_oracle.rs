//! The independent oracle: `rustc_apfloat` (exact for f16, bf16, f32 and f64; §5) against the
//! reference's FMA, add, multiply, min and max, on random and edge operands of every format.
//!
//! The comparison is after mapping every NaN result of the oracle to the format's default NaN
//! (FPCR.DN = 1, §2.8). min/max use apfloat's IEEE 754-2019 `minimum`/`maximum` (NaN-propagating,
//! −0 < +0), which with that mapping is Arm FMIN/FMAX with DN (§5). A seeded loop: 100 000 cases
//! per format for each operation by default, plus the reference's generic integer FMA on every
//! format; `AMX_ORACLE_CASES` raises the count for a longer run.

use crate::common::{Rng, operand, specials};
use amx_reference::fp::{self, Format};
use rustc_apfloat::ieee::{BFloat, Double, Half, Single};
use rustc_apfloat::{Float, Round};

/// The oracle's results for one format.
trait Oracle {
    fn fma(x: u64, y: u64, z: u64) -> u64;
    fn mul(x: u64, y: u64) -> u64;
    fn add(x: u64, y: u64) -> u64;
    fn min(x: u64, y: u64) -> u64;
    fn max(x: u64, y: u64) -> u64;
}

macro_rules! oracle {
    ($name:ident, $t:ty) => {
        struct $name;
        impl Oracle for $name {
            fn fma(x: u64, y: u64, z: u64) -> u64 {
                let [x, y, z] = [x, y, z].map(|v| <$t>::from_bits(v as u128));
                x.mul_add_r(y, z, Round::NearestTiesToEven).value.to_bits() as u64
            }
            fn mul(x: u64, y: u64) -> u64 {
                let [x, y] = [x, y].map(|v| <$t>::from_bits(v as u128));
                x.mul_r(y, Round::NearestTiesToEven).value.to_bits() as u64
            }
            fn add(x: u64, y: u64) -> u64 {
                let [x, y] = [x, y].map(|v| <$t>::from_bits(v as u128));
                x.add_r(y, Round::NearestTiesToEven).value.to_bits() as u64
            }
            fn min(x: u64, y: u64) -> u64 {
                let [x, y] = [x, y].map(|v| <$t>::from_bits(v as u128));
                x.minimum(y).to_bits() as u64
            }
            fn max(x: u64, y: u64) -> u64 {
                let [x, y] = [x, y].map(|v| <$t>::from_bits(v as u128));
                x.maximum(y).to_bits() as u64
            }
        }
    };
}

oracle!(HalfOracle, Half);
oracle!(BFloatOracle, BFloat);
oracle!(SingleOracle, Single);
oracle!(DoubleOracle, Double);

fn cases() -> usize {
    std::env::var("AMX_ORACLE_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(100_000)
}

/// Runs every operation on `n` random triples plus every triple of specials, and collects at most
/// a few mismatches per operation.
fn check<O: Oracle>(fmt: Format, seed: u64) {
    let dn = |r: u64| fp::canonicalise(fmt, r);
    let mut rng = Rng(seed);
    let mut triples: Vec<[u64; 3]> = Vec::new();
    let s = specials(fmt);
    for &a in &s {
        for &b in &s {
            for &c in &s {
                triples.push([a, b, c]);
            }
        }
    }
    triples.extend(
        (0..cases()).map(|_| [operand(&mut rng, fmt), operand(&mut rng, fmt), operand(&mut rng, fmt)]),
    );
    let mut failures: Vec<String> = Vec::new();
    let mut report = |what: &str, args: &[u64], got: u64, want: u64| {
        if got != want && failures.len() < 20 {
            failures.push(format!("{fmt:?} {what}({args:#x?}) = {got:#x}, oracle {want:#x}"));
        }
    };
    for [x, y, z] in triples {
        report("fma", &[x, y, z], fp::fma(fmt, x, y, z), dn(O::fma(x, y, z)));
        report("fma_exact", &[x, y, z], fp::fma_exact(fmt, x, y, z), dn(O::fma(x, y, z)));
        report("mul", &[x, y], fp::mul(fmt, x, y), dn(O::mul(x, y)));
        report("add", &[z, x], fp::add(fmt, z, x), dn(O::add(z, x)));
        report("min", &[x, z], fp::min(fmt, x, z), dn(O::min(x, z)));
        report("max", &[x, z], fp::max(fmt, x, z), dn(O::max(x, z)));
    }
    assert!(failures.is_empty(), "{} mismatches:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn f16_agrees_with_apfloat() {
    check::<HalfOracle>(Format::F16, 0xF16);
}

#[test]
fn bf16_agrees_with_apfloat() {
    check::<BFloatOracle>(Format::BF16, 0xBF16);
}

#[test]
fn f32_agrees_with_apfloat() {
    check::<SingleOracle>(Format::F32, 0xF32);
}

#[test]
fn f64_agrees_with_apfloat() {
    check::<DoubleOracle>(Format::F64, 0xF64);
}

/// §5's crafted bf16 case where the naive routes double-round, and its mirror images.
#[test]
fn bf16_double_rounding_cases_agree() {
    for (x, y, z) in [(0x3f81, 0x3fc0, 0x8001), (0xbf81, 0x3fc0, 0x0001), (0x3f81, 0xbfc0, 0x0001)] {
        assert_eq!(fp::fma(Format::BF16, x, y, z), BFloatOracle::fma(x, y, z), "{x:#x} {y:#x} {z:#x}");
    }
    assert_eq!(fp::fma(Format::BF16, 0x3f81, 0x3fc0, 0x8001), 0x3fc1);
}

/// The f16 narrowing agrees with apfloat's `convert` on random f64 values around the f16 range.
#[test]
fn f64_to_f16_agrees_with_apfloat() {
    use rustc_apfloat::FloatConvert;
    let mut rng = Rng(0xF64F16);
    for _ in 0..cases() {
        let bits = rng.next();
        // Keep exponents near the f16 range (2^-30 .. 2^17) half of the time.
        let v = if bits & 1 == 0 {
            f64::from_bits(bits & 0x800F_FFFF_FFFF_FFFF | ((1023 - 30 + (bits >> 52) % 48) << 52))
        } else {
            f64::from_bits(bits)
        };
        let mut lost = false;
        let want: Half =
            Double::from_bits(v.to_bits() as u128).convert_r(Round::NearestTiesToEven, &mut lost).value;
        let want = fp::canonicalise(Format::F16, want.to_bits() as u64);
        assert_eq!(fp::f64_to_f16(v), want, "{v:e} ({:#x})", v.to_bits());
    }
}
