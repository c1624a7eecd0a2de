//! Accuracy: each numerical kernel's error, in ULPs, against an f64 evaluation of the function it
//! approximates, over its documented input range (random tiles plus every special value and
//! boundary), on each chip; and where Blackhole and Wormhole give different outputs.
//!
//! The outputs are the reference model's ([`Engine::Reference`]) running the lowered whole-tile
//! program; the oracle is [`Numeric::oracle`](crate::kernels::Numeric::oracle) in f64. An ULP is that of the exact result in the
//! kernel's unit ([`Ulp`]): for FP32 `2^(e - 23)` where `2^e <= |exact| < 2^(e+1)` (with `e` at
//! least -126), and so on for the narrower formats. Everything is deterministic in the seed.

use serde::{Deserialize, Serialize};
use sfpu_reference::isa::Arch;

use crate::error::KernelError;
use crate::kernels::{KernelDef, OutputKind, TILE_ROWS, Ulp};
use crate::lower::LowerOptions;
use crate::run::Engine;
use crate::tile::{self, TileFormat};

/// f64 fields that may be infinite or NaN (an error against a non-finite output, the last
/// histogram edge): JSON has no such numbers, so they are written as the strings `"inf"`,
/// `"-inf"` and `"nan"`.
mod nonfinite {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    #[derive(Serialize, Deserialize)]
    #[serde(untagged)]
    enum Repr {
        Num(f64),
        Text(String),
    }

    fn to(x: f64) -> Repr {
        if x.is_finite() {
            Repr::Num(x)
        } else if x.is_nan() {
            Repr::Text("nan".into())
        } else if x > 0.0 {
            Repr::Text("inf".into())
        } else {
            Repr::Text("-inf".into())
        }
    }

    fn from<E: serde::de::Error>(r: Repr) -> Result<f64, E> {
        match r {
            Repr::Num(x) => Ok(x),
            Repr::Text(t) => match t.as_str() {
                "inf" => Ok(f64::INFINITY),
                "-inf" => Ok(f64::NEG_INFINITY),
                "nan" => Ok(f64::NAN),
                _ => Err(E::custom(format!("not a number: {t}"))),
            },
        }
    }

    pub fn serialize<S: Serializer>(x: &f64, s: S) -> Result<S::Ok, S::Error> {
        to(*x).serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
        from(Repr::deserialize(d)?)
    }

    pub mod vec {
        use super::*;

        pub fn serialize<S: Serializer>(x: &[f64], s: S) -> Result<S::Ok, S::Error> {
            x.iter().map(|v| to(*v)).collect::<Vec<_>>().serialize(s)
        }

        pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<f64>, D::Error> {
            Vec::<Repr>::deserialize(d)?.into_iter().map(from).collect()
        }
    }
}

/// Random tiles per accuracy run (plus one tile of special values).
pub const RANDOM_TILES: u64 = 4;
/// How many worst inputs a result keeps.
pub const WORST: usize = 8;

/// One histogram bucket: errors in `(lo, hi]` ULPs (`[0, hi]` for the first).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Bucket {
    /// Lower edge (exclusive, except for the first bucket).
    pub lo: f64,
    /// Upper edge (inclusive); infinity for the last.
    #[serde(with = "nonfinite")]
    pub hi: f64,
    /// Samples in the bucket.
    pub count: u64,
}

/// One evaluated input.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Sample {
    /// The inputs (one per input tile), as numbers.
    #[serde(with = "nonfinite::vec")]
    pub inputs: Vec<f64>,
    /// The inputs in their tiles' encodings.
    pub input_bits: Vec<u32>,
    /// The kernel's output, as a number.
    #[serde(with = "nonfinite")]
    pub output: f64,
    /// The output as the lane held it.
    pub output_bits: u32,
    /// The f64 oracle's value.
    #[serde(with = "nonfinite")]
    pub expected: f64,
    /// The error in ULPs.
    #[serde(with = "nonfinite")]
    pub ulp: f64,
}

/// The accuracy of one kernel on one chip.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Accuracy {
    /// The kernel.
    pub kernel: String,
    /// The chip.
    pub arch: Arch,
    /// The seed.
    pub seed: u64,
    /// The unit of the errors.
    pub unit: Ulp,
    /// Inputs evaluated.
    pub samples: u64,
    /// The largest error, in ULPs.
    #[serde(with = "nonfinite")]
    pub max_ulp: f64,
    /// The mean error, in ULPs.
    #[serde(with = "nonfinite")]
    pub mean_ulp: f64,
    /// The kernel's documented bound on the largest error.
    pub bound_max_ulp: f64,
    /// The kernel's documented bound on the mean error.
    pub bound_mean_ulp: f64,
    /// Why the bounds hold.
    pub bound_reason: String,
    /// Whether both measured errors are within their bounds.
    pub within_bound: bool,
    /// The errors by power-of-two buckets.
    pub histogram: Vec<Bucket>,
    /// The worst inputs, worst first.
    pub worst: Vec<Sample>,
}

/// Why accuracy could not be computed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AccuracyError {
    /// The kernel has no oracle (a seed example or pure data movement).
    #[error("kernel `{0}` is not numerical")]
    NotNumerical(String),
    /// The kernel could not be built.
    #[error(transparent)]
    Kernel(#[from] KernelError),
    /// The model could not run the program.
    #[error("running `{kernel}` on {arch}: {what}")]
    Run {
        /// The kernel.
        kernel: String,
        /// The chip.
        arch: Arch,
        /// What failed.
        what: String,
    },
}

fn input_value(format: TileFormat, native: u32) -> f64 {
    match format {
        TileFormat::Int32 => native as i32 as f64,
        _ => f32::from_bits(tile::lane_value(format, native)) as f64,
    }
}

fn output_value(kind: OutputKind, bits: u32) -> f64 {
    match kind {
        OutputKind::Float => f32::from_bits(bits) as f64,
        OutputKind::Int => bits as i32 as f64,
        OutputKind::SignMag => {
            let m = (bits & 0x7FFF_FFFF) as f64;
            if bits >> 31 != 0 { -m } else { m }
        }
    }
}

/// The ULP of `exact` in `unit` for an output of `format`.
pub fn ulp_of(unit: Ulp, format: TileFormat, exact: f64) -> f64 {
    let (mbits, emin) = match unit {
        Ulp::Integer => return 1.0,
        Ulp::Mantissa(n) => (n as i32, -126),
        Ulp::Output => match format {
            TileFormat::Fp32 | TileFormat::Int32 => (23, -126),
            TileFormat::Bf16 => (7, -126),
            TileFormat::Fp16 => (10, -14),
        },
    };
    let e =
        if exact == 0.0 || !exact.is_finite() { emin } else { (exact.abs().log2().floor() as i32).max(emin) };
    2f64.powi(e - mbits)
}

/// The error of `got` against `exact` in ULPs: 0 when both are the same number (or both NaN),
/// infinite when only one is finite.
pub fn ulp_error(unit: Ulp, format: TileFormat, got: f64, exact: f64) -> f64 {
    if got == exact || (got.is_nan() && exact.is_nan()) {
        return 0.0;
    }
    if !got.is_finite() || !exact.is_finite() {
        return f64::INFINITY;
    }
    (got - exact).abs() / ulp_of(unit, format, exact)
}

/// The input tiles of one accuracy run: `tile` 0 holds every special value of each input (the
/// first positions, cycling, with the inputs offset so their specials meet in different
/// combinations), the rest random elements; tiles 1.. are random.
fn tiles(def: &KernelDef, seed: u64, tile: u64) -> Vec<Vec<u32>> {
    let mut inputs = def.random_inputs(seed.wrapping_mul(1_000_003).wrapping_add(tile));
    if tile == 0 {
        for (i, (input, values)) in def.inputs.iter().zip(inputs.iter_mut()).enumerate() {
            let n = input.specials.len();
            for p in 0..(n * n.max(1)).min(1024) {
                let s = input.specials[(p + i * (p / n.max(1))) % n];
                values[p] = crate::kernels::encode(input.format, s, &input.range);
            }
        }
    }
    inputs
}

/// A kernel run over the accuracy tiles of one seed on one chip: per lane, the inputs and the
/// output. [`accuracy_of`] and [`difference_of`] read it, so a report that wants both runs each
/// chip once.
#[derive(Clone, Debug, PartialEq)]
pub struct Evaluation {
    /// The chip.
    pub arch: Arch,
    /// The seed of the tiles.
    pub seed: u64,
    /// Per lane: the inputs' bits (one per input tile) and the output's bits.
    pub lanes: Vec<(Vec<u32>, u32)>,
}

/// Runs `def` on `arch` for the accuracy tiles of `seed`.
pub fn evaluate(def: &KernelDef, arch: Arch, seed: u64) -> Result<Evaluation, AccuracyError> {
    Ok(Evaluation { arch, seed, lanes: evaluate_lanes(def, arch, seed)? })
}

fn evaluate_lanes(def: &KernelDef, arch: Arch, seed: u64) -> Result<Vec<(Vec<u32>, u32)>, AccuracyError> {
    let output = def.outputs.first().ok_or_else(|| AccuracyError::NotNumerical(def.name.to_string()))?;
    let mut out = Vec::new();
    for t in 0..=RANDOM_TILES {
        let inputs = tiles(def, seed, t);
        let case = def.build_with(arch, seed ^ t, inputs.clone(), &LowerOptions::default())?;
        let run = case.run(Engine::Reference).map_err(|what| AccuracyError::Run {
            kernel: def.name.to_string(),
            arch,
            what,
        })?;
        let got = tile::read_tile(&run.state, output.base, output.format);
        debug_assert_eq!(got.len(), (TILE_ROWS * 32) as usize);
        for (lane, &g) in got.iter().enumerate() {
            out.push((inputs.iter().map(|t| t[lane]).collect(), g));
        }
    }
    Ok(out)
}

/// The accuracy of numerical kernel `def` on `arch`, deterministic in `seed`.
pub fn accuracy(def: &KernelDef, arch: Arch, seed: u64) -> Result<Accuracy, AccuracyError> {
    accuracy_of(def, &evaluate(def, arch, seed)?)
}

/// The accuracy of numerical kernel `def` from its evaluation `e`.
pub fn accuracy_of(def: &KernelDef, e: &Evaluation) -> Result<Accuracy, AccuracyError> {
    let numeric = def.numeric.as_ref().ok_or_else(|| AccuracyError::NotNumerical(def.name.to_string()))?;
    let output = def.outputs.first().ok_or_else(|| AccuracyError::NotNumerical(def.name.to_string()))?;
    let (arch, seed, lanes) = (e.arch, e.seed, &e.lanes);
    let mut edges = vec![0.5];
    while *edges.last().unwrap_or(&0.5) < 4096.0 {
        edges.push(edges.last().copied().unwrap_or(0.5) * 2.0);
    }
    let mut histogram: Vec<Bucket> = Vec::new();
    let mut lo = 0.0;
    for &hi in &edges {
        histogram.push(Bucket { lo, hi, count: 0 });
        lo = hi;
    }
    histogram.push(Bucket { lo, hi: f64::INFINITY, count: 0 });
    let (mut max_ulp, mut sum) = (0.0f64, 0.0f64);
    let mut worst: Vec<Sample> = Vec::new();
    for (bits, got_bits) in lanes {
        let inputs: Vec<f64> = def.inputs.iter().zip(bits).map(|(i, &b)| input_value(i.format, b)).collect();
        let expected = (numeric.oracle)(&inputs);
        let got = output_value(output.kind, *got_bits);
        let ulp = ulp_error(numeric.ulp, output.format, got, expected);
        max_ulp = max_ulp.max(ulp);
        sum += ulp;
        if let Some(b) = histogram.iter_mut().find(|b| ulp <= b.hi) {
            b.count += 1;
        }
        if worst.len() < WORST || ulp > worst.last().map_or(0.0, |w| w.ulp) {
            worst.push(Sample {
                inputs,
                input_bits: bits.clone(),
                output: got,
                output_bits: *got_bits,
                expected,
                ulp,
            });
            worst.sort_by(|a, b| b.ulp.total_cmp(&a.ulp));
            worst.truncate(WORST);
        }
    }
    let samples = lanes.len() as u64;
    let mean_ulp = sum / samples.max(1) as f64;
    Ok(Accuracy {
        kernel: def.name.to_string(),
        arch,
        seed,
        unit: numeric.ulp,
        samples,
        max_ulp,
        mean_ulp,
        bound_max_ulp: numeric.max_ulp,
        bound_mean_ulp: numeric.mean_ulp,
        bound_reason: numeric.why.to_string(),
        within_bound: max_ulp <= numeric.max_ulp && mean_ulp <= numeric.mean_ulp,
        histogram,
        worst,
    })
}

/// Where Blackhole's and Wormhole's outputs of a kernel differ.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ChipDifference {
    /// The kernel.
    pub kernel: String,
    /// The seed.
    pub seed: u64,
    /// Lanes compared.
    pub samples: u64,
    /// Lanes whose output bits differ.
    pub differing: u64,
    /// The largest difference between the two outputs, in ULPs of the Blackhole output.
    #[serde(with = "nonfinite")]
    pub max_ulp: f64,
    /// The mean difference over the differing lanes, in ULPs.
    #[serde(with = "nonfinite")]
    pub mean_ulp: f64,
    /// The smallest and largest first input among the differing lanes (where they are).
    pub input_span: Option<(f64, f64)>,
    /// Some differing lanes, largest difference first.
    pub examples: Vec<LaneDifference>,
}

/// One lane where the chips differ.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LaneDifference {
    /// The inputs.
    #[serde(with = "nonfinite::vec")]
    pub inputs: Vec<f64>,
    /// The inputs' bits.
    pub input_bits: Vec<u32>,
    /// Blackhole's output bits.
    pub blackhole: u32,
    /// Wormhole's output bits.
    pub wormhole: u32,
    /// The difference in ULPs.
    #[serde(with = "nonfinite")]
    pub ulp: f64,
}

/// How much and where `def`'s outputs differ between Blackhole and Wormhole on the accuracy
/// tiles of `seed` (the same inputs on both chips).
pub fn chip_difference(def: &KernelDef, seed: u64) -> Result<ChipDifference, AccuracyError> {
    difference_of(def, &evaluate(def, Arch::Blackhole, seed)?, &evaluate(def, Arch::Wormhole, seed)?)
}

/// [`chip_difference`] from the two chips' evaluations (of the same seed).
pub fn difference_of(
    def: &KernelDef,
    bh: &Evaluation,
    wh: &Evaluation,
) -> Result<ChipDifference, AccuracyError> {
    let output = def.outputs.first().ok_or_else(|| AccuracyError::NotNumerical(def.name.to_string()))?;
    let unit = def.numeric.as_ref().map_or(Ulp::Output, |n| n.ulp);
    let seed = bh.seed;
    let (bh, wh) = (&bh.lanes, &wh.lanes);
    let mut examples = Vec::new();
    let (mut max_ulp, mut sum, mut differing) = (0.0f64, 0.0f64, 0u64);
    let mut span: Option<(f64, f64)> = None;
    for ((bits, b), (_, w)) in bh.iter().zip(wh) {
        if b == w {
            continue;
        }
        differing += 1;
        let (vb, vw) = (output_value(output.kind, *b), output_value(output.kind, *w));
        let ulp = ulp_error(unit, output.format, vw, vb);
        max_ulp = max_ulp.max(ulp);
        sum += if ulp.is_finite() { ulp } else { 0.0 };
        let inputs: Vec<f64> = def.inputs.iter().zip(bits).map(|(i, &x)| input_value(i.format, x)).collect();
        if let Some(&x) = inputs.first() {
            span = Some(span.map_or((x, x), |(lo, hi)| (lo.min(x), hi.max(x))));
        }
        examples.push(LaneDifference { inputs, input_bits: bits.clone(), blackhole: *b, wormhole: *w, ulp });
    }
    examples.sort_by(|a, b| b.ulp.total_cmp(&a.ulp));
    examples.truncate(WORST);
    Ok(ChipDifference {
        kernel: def.name.to_string(),
        seed,
        samples: bh.len() as u64,
        differing,
        max_ulp,
        mean_ulp: if differing == 0 { 0.0 } else { sum / differing as f64 },
        input_span: span,
        examples,
    })
}
