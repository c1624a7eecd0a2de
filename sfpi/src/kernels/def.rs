//! What a kernel of the corpus is ([`KernelDef`]: its chips, input and output tiles, accuracy
//! bound), with the helpers the corpus files write their entries with. The corpus files
//! (`seed`, `math`, `activation`, `convert`, `data`) and the registry in [`super`] both use it.

use serde::{Deserialize, Serialize};
use sfpu_reference::isa::Arch;

use crate::error::KernelError;
use crate::ir::Kernel;
use crate::tile::TileFormat;

/// The documented input range of a tile.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum InputRange {
    /// Floats in `[lo, hi]`, uniform in value.
    Uniform {
        /// Lower bound.
        lo: f64,
        /// Upper bound.
        hi: f64,
    },
    /// Positive floats in `[lo, hi]`, uniform in the exponent (log scale).
    LogUniform {
        /// Lower bound (> 0).
        lo: f64,
        /// Upper bound.
        hi: f64,
    },
    /// Floats of either sign with magnitude in `[lo, hi]`, uniform in the exponent.
    SignedLog {
        /// Lower magnitude (> 0).
        lo: f64,
        /// Upper magnitude.
        hi: f64,
    },
    /// Integers in `[lo, hi]`.
    Int {
        /// Lower bound.
        lo: i64,
        /// Upper bound.
        hi: i64,
    },
}

impl InputRange {
    /// Whether `x` is in the range.
    pub fn contains(&self, x: f64) -> bool {
        match *self {
            InputRange::Uniform { lo, hi } | InputRange::LogUniform { lo, hi } => (lo..=hi).contains(&x),
            InputRange::SignedLog { lo, hi } => (lo..=hi).contains(&x.abs()) || x == 0.0,
            InputRange::Int { lo, hi } => (lo as f64..=hi as f64).contains(&x),
        }
    }
}

/// One input tile.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TileInput {
    /// Its first row, as a `dst_reg` index (tile `t` is at `32 * t`).
    pub base: u32,
    /// Its format.
    pub format: TileFormat,
    /// Its documented range.
    pub range: InputRange,
    /// Special values and boundaries inside the range, always included in accuracy runs.
    pub specials: Vec<f64>,
}

/// How an output tile's lanes are read as numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OutputKind {
    /// Floats of the tile's format.
    Float,
    /// Two's complement integers.
    Int,
    /// Sign-magnitude integers (the results of `float_to_int8` and friends).
    SignMag,
}

/// One output tile.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TileOutput {
    /// Its first row, as a `dst_reg` index.
    pub base: u32,
    /// Its format.
    pub format: TileFormat,
    /// How its lanes read.
    pub kind: OutputKind,
}

/// The unit accuracy is measured in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Ulp {
    /// The ULP of the output tile's format (FP32: 23 mantissa bits, BF16: 7, FP16: 10).
    Output,
    /// The ULP of a float with this many mantissa bits and FP32's exponent range (the
    /// `float_to_fp16a` / `float_to_fp16b` results, kept in FP32 layout).
    Mantissa(u32),
    /// Integers: one unit.
    Integer,
}

/// The mathematical function a numerical kernel approximates, and the bound its algorithm
/// guarantees.
#[derive(Clone, Debug)]
pub struct Numeric {
    /// The function, in f64, of the inputs (one per input tile).
    pub oracle: fn(&[f64]) -> f64,
    /// The unit of the error.
    pub ulp: Ulp,
    /// The largest error, in ULPs of the output format, the algorithm allows on the documented
    /// range.
    pub max_ulp: f64,
    /// The mean error bound, in ULPs.
    pub mean_ulp: f64,
    /// How the bounds follow from the algorithm.
    pub why: &'static str,
}

/// One kernel of the corpus.
#[derive(Clone, Debug)]
pub struct KernelDef {
    /// Its name (`exp`, `reciprocal`, `seed/silly`, ...).
    pub name: &'static str,
    /// What it computes and how.
    pub description: &'static str,
    /// The chips it supports.
    pub chips: Vec<Arch>,
    /// Its input tiles.
    pub inputs: Vec<TileInput>,
    /// Its output tiles.
    pub outputs: Vec<TileOutput>,
    /// Records the kernel.
    pub record: fn() -> Result<Kernel, KernelError>,
    /// For a numerical kernel, its function and accuracy bound.
    pub numeric: Option<Numeric>,
}

/// Both chips.
pub(crate) fn both() -> Vec<Arch> {
    Arch::ALL.to_vec()
}

/// One FP32 input tile at `dst_reg[0]`.
pub(crate) fn fp32_in(range: InputRange, specials: &[f64]) -> Vec<TileInput> {
    vec![TileInput { base: 0, format: TileFormat::Fp32, range, specials: specials.to_vec() }]
}

/// One output tile of `format` at `dst_reg[base]`.
pub(crate) fn out(base: u32, format: TileFormat, kind: OutputKind) -> Vec<TileOutput> {
    vec![TileOutput { base, format, kind }]
}
