//! The IEEE 754 characterisation: where each chip's arithmetic and conversions depart from IEEE
//! 754 (binary32, round to nearest even), measured case by case and classified by cause. The
//! sections below describe Blackhole; Wormhole's departures follow them.
//!
//! It compares the reference model with independent IEEE implementations:
//!
//! * **`fma`**: `sfpu_reference::fp::fma_model_bh` (`fma.c`; the arithmetic of SFPMAD, SFPADD,
//!   SFPMUL, SFPADDI, SFPMULI, SFPLUT and SFPLUTFP32) against Berkeley SoftFloat's
//!   `f32_mulAdd` (softfloat-wrapper `F32::fused_mul_add`, `RoundingMode::TiesToEven`).
//! * **`cast`**: SFPCAST `SM32_TO_FP32_RNE` (`SFPCAST_IntFloat.md`, run through
//!   [`sfpu_reference::step`]) against SoftFloat's `i32_to_f32` of the magnitude, with the input's
//!   sign applied.
//! * **`stochrnd-bf16`**: SFPSTOCHRND `NEAREST` `FP32_TO_FP16B` (`SFPSTOCHRND_FloatFloat.md`, run
//!   through `step`) against IEEE round-to-nearest-even to bfloat16 (`half::bf16::from_f32`),
//!   widened back to FP32.
//! * **`stochrnd-fp16`**: SFPSTOCHRND `NEAREST` `FP32_TO_FP16A` (`SFPSTOCHRND_FloatFloat.md`, run
//!   through `step`) against IEEE round-to-nearest-even to binary16 (`half::f16::from_f32`),
//!   widened back to FP32. Blackhole keeps FP16's 10 mantissa bits but FP32's exponent range.
//! * **`store-bf16`**: SFPSTORE's `ToBF16` (`SFPSTORE.md`) against `half::bf16::from_f32`, both as
//!   16-bit IEEE-layout bfloat16 patterns (before the Dst shuffle).
//! * **`store-fp16`**: SFPSTORE's `ToFP16` (`SFPSTORE.md`) against `half::f16::from_f32` (IEEE
//!   binary16, round to nearest even, with subnormals), both as 16-bit IEEE-layout patterns.
//! * **`store-fp32`**: SFPSTORE's `ToFP32` (`SFPSTORE.md`) against the identity.
//!
//! Every examined case lands in exactly one category of its operation: `agrees`, or the first
//! departure whose test holds, in the precedence order below. The category tests look at the
//! *cause* (which rule of the Blackhole model made the difference), so a case that several rules
//! touch is counted once, under the first. The per-operation categories, in precedence order:
//!
//! **`fma`** (inputs `x`, `y`, `z`; `e_v` is a biased exponent field; "DAZ inputs" are the inputs
//! with each denormal replaced by a zero of its sign):
//! 1. `nan-canonicalisation`: both results are NaN, and some input is a NaN, but no input NaN
//!    carries the canonical payload (mantissa `0x400000` once quieted), so Blackhole's
//!    `0x7FC00000` has dropped the payload that IEEE 754-2019 §6.2.3 says the result should
//!    keep. The sign of a NaN is not interpreted by IEEE 754 (§6.3), so a sign difference alone
//!    agrees; a NaN made by an invalid operation (no NaN input) has an implementation-defined
//!    payload, so `0x7FC00000` agrees there too (SoftFloat's own default NaN is platform-specific:
//!    `0xFFC00000` on x86).
//!    Outside this category, two NaN results agree whatever their bits.
//! 2. `denormal-input`: an input is denormal, and IEEE on the DAZ inputs differs from IEEE on the
//!    inputs (Blackhole reads denormals as zero; `Inf * denormal` is NaN for Blackhole).
//! 3. `product-overflow`: `x` and `y` are normal, `e_x + e_y >= 382` (the product's exponent
//!    `ep` reaches 255, so `|x * y| >= 2^128`) and the IEEE result is finite: Blackhole returns
//!    `±Inf` from the product alone, although `z` brings the exact sum back into range. (A
//!    product in `[2^128, 2^129)` with `e_x + e_y = 381` is not dropped: Blackhole adds `z` to it
//!    as usual, so such a case is not in this category.)
//! 4. `product-underflow`: `x` and `y` are normal and `e_x + e_y < 127` (`ep < 0`): Blackhole
//!    drops the product entirely and returns `z`, although it changes the IEEE sum.
//! 5. `denormal-result`: the exact result `x * y + z` (DAZ inputs) is below `2^-126` in magnitude
//!    (SoftFloat's fused multiply-add rounded toward zero is below `0x00800000`): IEEE returns a
//!    denormal (or rounds to zero or up to `±2^-126`), Blackhole mis-scales the underflow range
//!    (`fma_model_bh`, step 10) then flushes to a signed zero or rounds up to `±2^-126`.
//! 6. `partial-fusion`: everything else. The finite datapath makes the difference: the product
//!    narrowed to 28 bits plus a sticky bit before the add (step 4), and the semi-sticky
//!    alignment that keeps no trace of an addend shifted out entirely (step 7). Cancellation
//!    exposes the narrowed bits (`0x3F800001 * 0x3F800001 + 0xBF800002`), and 1-ulp differences
//!    occur without it. The spec's "near-denormal rounding" example
//!    (`0x27B4A3E7 * 0x1ADF5E90 + 0x8322ED69`) is here: its exact result is normal, and the
//!    difference comes from cancellation exposing the narrowed product.
//!
//! **`cast`**: every case is expected to agree (the round-to-nearest-even conversion is exact IEEE
//! for every input, checked exhaustively by the reference's tests); a disagreement would be
//! `other`. The sign-magnitude `-0` (`0x80000000`) converts to `-0` on both sides, because the IEEE
//! side converts the magnitude and then applies the sign (an exact negation).
//!
//! **`stochrnd-bf16`** (FP32 results compared bit for bit):
//! 1. `nan-to-inf`: the input is a NaN; Blackhole returns the infinity of its sign.
//! 2. `negative-zero`: the input is `-0`; Blackhole returns `+0` (its `e == 0 -> +0` rule).
//! 3. `denormal-flush`: the input is denormal; Blackhole returns `+0`, IEEE rounds it to a
//!    bfloat16 denormal (or to a zero of its sign: `-0` for a tiny negative one).
//! 4. `overflow`: the input is finite, Blackhole rounded up to `±Inf` and IEEE did not. Never
//!    seen: at the top binade's tie the kept mantissa `0x7F` is odd, so IEEE rounds up too.
//! 5. `ties-away`: the discarded 16 bits are exactly `0x8000` and the kept mantissa is even:
//!    Blackhole's threshold test (`discarded >= 0x8000`) rounds half away from zero, IEEE rounds
//!    half to even (down).
//! 6. `other`: anything else (reported only if found).
//!
//! **`stochrnd-fp16`** (FP32 results compared bit for bit):
//! 1. `nan-to-inf`: the input is a NaN; Blackhole returns the infinity of its sign.
//! 2. `negative-zero`: the input is `-0`; Blackhole returns `+0`.
//! 3. `denormal-flush`: the input is an FP32 denormal; Blackhole returns `+0`, IEEE the zero of
//!    its sign (binary16 has nothing that small), so only negative ones differ.
//! 4. `exponent-range`: the input is normal and outside what binary16 holds at full precision:
//!    `|x| >= 65520` (IEEE overflows to `±Inf`) or `|x| < 2^-14` (exponent field `<= 112`: IEEE
//!    rounds to a binary16 subnormal or zero); Blackhole keeps FP32's exponent with 11
//!    significant bits.
//! 5. `ties-away`: the discarded 13 bits are exactly `0x1000` and the kept mantissa is even:
//!    Blackhole's threshold test rounds half away from zero, IEEE half to even.
//! 6. `other`: anything else (reported only if found).
//!
//! **`store-bf16`** (16-bit bfloat16 patterns):
//! 1. `nan-to-inf`: the input is a NaN whose payload sits only in the low 16 bits; truncation
//!    leaves the infinity of its sign, IEEE a quiet NaN.
//! 2. `nan-not-quieted`: the input is a signalling NaN with payload in bits `[21:16]`; truncation
//!    keeps a signalling NaN, IEEE's conversion delivers it quiet (bit 6 set).
//! 3. `denormal-flush`: the input is denormal; Blackhole writes a zero of its sign, IEEE rounds
//!    it to a bfloat16 denormal (or up to the smallest normal).
//! 4. `truncation`: a normal input whose IEEE rounding goes up one bfloat16 ulp (including into
//!    `±Inf` above `0x7F7F7FFF`); Blackhole truncates toward zero.
//! 5. `other`: anything else (reported only if found).
//!
//! **`store-fp16`** (16-bit binary16 patterns; Dst has no FP16 infinity or NaN):
//! 1. `saturation`: the input is `±Inf`, a NaN, or `|x| >= 2^16` (exponent field `>= 143`):
//!    Blackhole writes an `e = 31` pattern, a finite value `>= 2^16` to Dst (the saturated
//!    pattern `e = 31, m = 0x3FF` for `|x| >= 2^17`, Inf and NaN, read back as `±Inf` only with
//!    `ENABLE_FP16A_INF`; the truncated mantissa for `2^16 <= |x| < 2^17`); IEEE gives `±Inf`
//!    or a NaN. These never agree, even where the bits coincide (`65536 -> 0x7C00` is 65536 in
//!    Dst, Inf in IEEE; NaN `0x7FFFFFFF -> 0x7FFF` is a number in Dst): the category is decided
//!    on the input alone. Everywhere else results are compared bit for bit.
//! 2. `flush`: the input's exponent field is `<= 112` (`|x| < 2^-14`, including FP32 denormals):
//!    Blackhole writes a zero of its sign, IEEE an FP16 subnormal (or rounds up to `2^-14`).
//! 3. `truncation`: the IEEE result is one FP16 ulp above Blackhole's (IEEE rounds up, Blackhole
//!    truncates; includes `65520 <= |x| < 65536`, where IEEE overflows to `±Inf` and Blackhole
//!    writes the largest finite `±65504`).
//! 4. `other`: anything else (reported only if found).
//!
//! **`store-fp32`**: `denormal-flush` (a denormal input is written as a zero of its sign), then
//! `other` (reported only if found).
//!
//! **Wormhole** ([`characterise_only`] with `Arch::Wormhole`;
//! `docs/spec/sfpu-wormhole.md#differences-from-blackhole`): `fma` compares `fma_model_wh`
//! (`Miscellaneous/FMA/fma.c`) with IEEE, with these categories in precedence order
//! ([`Operation::categories_on`]):
//! 1. `nan-form`: both results are NaN, and Wormhole's is not what IEEE 754 delivers: its
//!    `sign | 0x7F800001` form is signalling (bit 22 clear), or, with a NaN input, it carries the
//!    payload of no input NaN (compared once quieted). Otherwise two NaNs agree.
//! 2. `positive-zero`: IEEE returns `-0`, Wormhole `+0` ("every zero result is +0").
//! 3. `denormal-input`: as on Blackhole.
//! 4. `product-overflow`: as on Blackhole, and also when `z` is the infinity of the sign opposite
//!    to the overflowing finite product: IEEE returns `z`, Wormhole a NaN.
//! 5. `product-underflow`, 6. `denormal-result` (Wormhole's flush of `r.e < 0` before rounding
//!    lands here), 7. `partial-fusion` (Wormhole's normalisation sticky bit lands here): as on
//!    Blackhole.
//!
//! Its conversions have Blackhole's categories: SFPCAST and SFPSTOCHRND run through the Wormhole
//! model ([`chip_conversion`]); SFPSTORE's FP16 and BF16 conversions are shared by both chips,
//! and its FP32 store is a raw copy, so `store-fp32` agrees everywhere. Examples name the chip's
//! result `WH`.
//!
//! The inputs ([`Operands`]): for `fma`, the distinct given triples (the operands the golden
//! vectors of SFPMAD, SFPADD, SFPMUL, SFPADDI and SFPMULI feed the multiply-add) followed by
//! `random_cases` triples from a fixed-seed generator biased to the interesting regions; for each
//! conversion, a pool of special values, the distinct values the golden vectors of its own
//! instruction convert (SFPCAST's int-to-float modes, SFPSTOCHRND's float-to-float modes,
//! SFPSTORE's FP16, BF16 and FP32 stores), and `random_cases` random values (an integer pool for
//! `cast`, a floating-point pool for the others). The random values come from
//! [`generate::operands::Rng`](crate::generate::operands::Rng) streams named after the
//! operation. Everything is a function of the inputs and the seed: the same call gives the same
//! rows, in the same order (operation by operation as listed above, `agrees` first, then the
//! categories in precedence order; an operation's categories are all listed, with count 0 and
//! example `none observed` when empty, except `other`, which appears only when found).

use std::collections::HashSet;

use sfpu_reference::fp::{fma_model_bh, fma_model_wh};
use sfpu_reference::isa::mods::{
    SFPCAST_MOD1_SM32_TO_FP32_RNE, SFPSTOCHRND_MOD1_FP32_TO_FP16A, SFPSTOCHRND_MOD1_FP32_TO_FP16B,
    SFPSTOCHRND_RND_NEAREST,
};
use sfpu_reference::isa::{Arch, Instr, Opcode, U};
use sfpu_reference::ops::blackhole::load_store::ToFP32;
use sfpu_reference::ops::shared::dst_formats::{ToBF16, ToFP16};
use sfpu_reference::state::LANES;
use sfpu_reference::{ResetValues, State, step};
use softfloat_wrapper::{F32, Float, RoundingMode};

use crate::generate::operands::Rng;
use crate::sections::IeeeCategory;

/// The example text of a category no case fell into.
pub const NO_EXAMPLE: &str = "none observed";

/// What is compared.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Operation {
    /// The multiply-add family's arithmetic (`fma_model_bh`) against IEEE binary32 FMA.
    Fma,
    /// SFPCAST sign-magnitude int32 to FP32, round to nearest even.
    Cast,
    /// SFPSTOCHRND `NEAREST`, FP32 to bfloat16 precision (`FP32_TO_FP16B`).
    StochrndBf16,
    /// SFPSTOCHRND `NEAREST`, FP32 to FP16 precision (`FP32_TO_FP16A`).
    StochrndFp16,
    /// SFPSTORE to a BF16 Dst (`ToBF16`).
    StoreBf16,
    /// SFPSTORE to an FP16 Dst (`ToFP16`).
    StoreFp16,
    /// SFPSTORE to an FP32 Dst (`ToFP32`).
    StoreFp32,
}

impl Operation {
    /// Every operation, in report order.
    pub const ALL: [Operation; 7] = [
        Operation::Fma,
        Operation::Cast,
        Operation::StochrndBf16,
        Operation::StochrndFp16,
        Operation::StoreBf16,
        Operation::StoreFp16,
        Operation::StoreFp32,
    ];

    /// The conversions, in report order.
    pub const CONVERSIONS: [Operation; 6] = [
        Operation::Cast,
        Operation::StochrndBf16,
        Operation::StochrndFp16,
        Operation::StoreBf16,
        Operation::StoreFp16,
        Operation::StoreFp32,
    ];

    /// The instructions whose results the operation characterises (what `--only` selects it by).
    pub const fn opcodes(self) -> &'static [Opcode] {
        use Opcode::*;
        match self {
            Operation::Fma => &[SFPMAD, SFPADD, SFPMUL, SFPADDI, SFPMULI, SFPLUT, SFPLUTFP32],
            Operation::Cast => &[SFPCAST],
            Operation::StochrndBf16 | Operation::StochrndFp16 => &[SFPSTOCHRND],
            Operation::StoreBf16 | Operation::StoreFp16 | Operation::StoreFp32 => &[SFPSTORE],
        }
    }

    /// The name used in the report's `operation` column.
    pub const fn name(self) -> &'static str {
        match self {
            Operation::Fma => "fma",
            Operation::Cast => "cast",
            Operation::StochrndBf16 => "stochrnd-bf16",
            Operation::StochrndFp16 => "stochrnd-fp16",
            Operation::StoreBf16 => "store-bf16",
            Operation::StoreFp16 => "store-fp16",
            Operation::StoreFp32 => "store-fp32",
        }
    }

    /// The operation's departure categories on `arch`, in precedence order (the first whose test
    /// holds wins), without `agrees` and without `other`. Wormhole's `fma` has its own (see the
    /// module documentation, "Wormhole"); its conversions are Blackhole's.
    pub const fn categories_on(self, arch: Arch) -> &'static [Category] {
        use Category::*;
        match (arch, self) {
            (Arch::Wormhole, Operation::Fma) => &[
                NanForm,
                PositiveZero,
                DenormalInput,
                ProductOverflow,
                ProductUnderflow,
                DenormalResult,
                PartialFusion,
            ],
            _ => self.categories(),
        }
    }

    /// The operation's departure categories on Blackhole, in precedence order (the first whose
    /// test holds wins), without `agrees` and without `other`.
    pub const fn categories(self) -> &'static [Category] {
        use Category::*;
        match self {
            Operation::Fma => &[
                NanCanonicalisation,
                DenormalInput,
                ProductOverflow,
                ProductUnderflow,
                DenormalResult,
                PartialFusion,
            ],
            Operation::Cast => &[],
            Operation::StochrndBf16 => &[NanToInf, NegativeZero, DenormalFlush, Overflow, TiesAway],
            Operation::StochrndFp16 => &[NanToInf, NegativeZero, DenormalFlush, ExponentRange, TiesAway],
            Operation::StoreBf16 => &[NanToInf, NanNotQuieted, DenormalFlush, Truncation],
            Operation::StoreFp16 => &[Saturation, Flush, Truncation],
            Operation::StoreFp32 => &[DenormalFlush],
        }
    }
}

/// Where a case lands. The module documentation defines each category per operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Category {
    /// Blackhole and IEEE agree.
    Agrees,
    /// `fma`: both NaN, and Blackhole's canonical NaN drops an input NaN's payload.
    NanCanonicalisation,
    /// `fma`: a denormal input, read as zero, changes the result.
    DenormalInput,
    /// `fma`: the product alone overflows (`e_x + e_y >= 382`), the IEEE sum is finite.
    ProductOverflow,
    /// `fma`: the product is dropped (`e_x + e_y < 127`) although it changes the sum.
    ProductUnderflow,
    /// `fma`: the exact result is below `2^-126` (denormal range).
    DenormalResult,
    /// `fma`: the narrowed product / finite datapath changes the rounded sum.
    PartialFusion,
    /// Conversions: a NaN input becomes an infinity.
    NanToInf,
    /// `store-bf16`: a signalling NaN stays signalling.
    NanNotQuieted,
    /// `stochrnd-bf16`, `stochrnd-fp16`: `-0` becomes `+0`.
    NegativeZero,
    /// Conversions: a denormal input is flushed.
    DenormalFlush,
    /// `stochrnd-bf16`: a finite input rounded up to infinity where IEEE does not.
    Overflow,
    /// `stochrnd-bf16`, `stochrnd-fp16`: an exact tie rounded away from zero where IEEE rounds
    /// to even.
    TiesAway,
    /// `stochrnd-fp16`: a normal input binary16 cannot hold at full precision (FP32's exponent
    /// range kept).
    ExponentRange,
    /// `store-bf16`, `store-fp16`: truncation where IEEE rounds up.
    Truncation,
    /// `store-fp16`: `|x| < 2^-14` written as a signed zero.
    Flush,
    /// `store-fp16`: Inf, NaN or `|x| >= 2^16` written as an `e = 31` pattern.
    Saturation,
    /// `fma` on Wormhole: both NaN, and Wormhole's NaN is not the quiet NaN IEEE 754 delivers
    /// (its `sign | 0x7F800001` form is signalling) or drops every input NaN's payload.
    NanForm,
    /// `fma` on Wormhole: IEEE returns `-0`, Wormhole `+0` (every Wormhole zero result is `+0`).
    PositiveZero,
    /// A disagreement none of the operation's categories explains.
    Other,
}

impl Category {
    /// The name used in the report's `category` column.
    pub const fn name(self) -> &'static str {
        match self {
            Category::Agrees => "agrees",
            Category::NanCanonicalisation => "nan-canonicalisation",
            Category::DenormalInput => "denormal-input",
            Category::ProductOverflow => "product-overflow",
            Category::ProductUnderflow => "product-underflow",
            Category::DenormalResult => "denormal-result",
            Category::PartialFusion => "partial-fusion",
            Category::NanToInf => "nan-to-inf",
            Category::NanNotQuieted => "nan-not-quieted",
            Category::NegativeZero => "negative-zero",
            Category::DenormalFlush => "denormal-flush",
            Category::Overflow => "overflow",
            Category::TiesAway => "ties-away",
            Category::ExponentRange => "exponent-range",
            Category::Truncation => "truncation",
            Category::Flush => "flush",
            Category::Saturation => "saturation",
            Category::NanForm => "nan-form",
            Category::PositiveZero => "positive-zero",
            Category::Other => "other",
        }
    }
}

// ---------------------------------------------------------------------------------------------
// FP32 bit helpers.

const SIGN: u32 = 0x8000_0000;
const MIN_NORMAL: u32 = 0x0080_0000;

const fn exp_field(v: u32) -> u32 {
    (v >> 23) & 0xFF
}

const fn man_field(v: u32) -> u32 {
    v & 0x7F_FFFF
}

/// Whether `v` is an FP32 NaN.
pub const fn is_nan(v: u32) -> bool {
    v & 0x7FFF_FFFF > 0x7F80_0000
}

const fn is_denormal(v: u32) -> bool {
    exp_field(v) == 0 && man_field(v) != 0
}

const fn is_normal(v: u32) -> bool {
    exp_field(v) != 0 && exp_field(v) != 255
}

/// Denormals are zero: a denormal becomes the zero of its sign, everything else is unchanged.
const fn daz(v: u32) -> u32 {
    if is_denormal(v) { v & SIGN } else { v }
}

/// Equality of two FP32 results where any two NaNs are equal.
const fn same_result(a: u32, b: u32) -> bool {
    a == b || (is_nan(a) && is_nan(b))
}

// ---------------------------------------------------------------------------------------------
// FMA.

/// IEEE 754 binary32 `x * y + z`, round to nearest even (Berkeley SoftFloat `f32_mulAdd`).
pub fn ieee_fma(x: u32, y: u32, z: u32) -> u32 {
    ieee_fma_rounded(x, y, z, RoundingMode::TiesToEven)
}

fn ieee_fma_rounded(x: u32, y: u32, z: u32, rnd: RoundingMode) -> u32 {
    F32::from_bits(x).fused_mul_add(F32::from_bits(y), F32::from_bits(z), rnd).to_bits()
}

/// One classified case: the category and both sides' results.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Classified {
    /// Where the case lands.
    pub category: Category,
    /// The chip's result (Blackhole's for [`classify_fma`], the chosen chip's for
    /// [`classify_fma_on`]).
    pub blackhole: u32,
    /// The IEEE result.
    pub ieee: u32,
}

/// Whether Blackhole's canonical NaN drops an input NaN's payload: some input is a NaN and none
/// of them has the canonical payload once quieted (bit 22 set). Signs are not looked at.
fn nan_payload_lost(x: u32, y: u32, z: u32) -> bool {
    let nans = [x, y, z].into_iter().filter(|&v| is_nan(v));
    let mut any = false;
    for v in nans {
        any = true;
        if (man_field(v) | 0x40_0000) == 0x40_0000 {
            return false;
        }
    }
    any
}

/// Classifies `x * y + z`: Blackhole (`fma_model_bh`) against IEEE ([`ieee_fma`]). The tests
/// run in the precedence order of the module documentation.
pub fn classify_fma(x: u32, y: u32, z: u32) -> Classified {
    let blackhole = fma_model_bh(x, y, z);
    let ieee = ieee_fma(x, y, z);
    let category = fma_category(x, y, z, blackhole, ieee);
    Classified { category, blackhole, ieee }
}

/// Classifies `x * y + z` on `arch`: the chip's FMA (`fma_model_bh` or `fma_model_wh`) against
/// IEEE ([`ieee_fma`]), with the chip's categories ([`Operation::categories_on`]).
pub fn classify_fma_on(arch: Arch, x: u32, y: u32, z: u32) -> Classified {
    match arch {
        Arch::Blackhole => classify_fma(x, y, z),
        Arch::Wormhole => {
            let wormhole = fma_model_wh(x, y, z);
            let ieee = ieee_fma(x, y, z);
            Classified { category: fma_category_wh(x, y, z, wormhole, ieee), blackhole: wormhole, ieee }
        }
    }
}

/// Whether a Wormhole NaN result is not what IEEE 754 delivers: not quiet (bit 22 clear: the
/// `sign | 0x7F800001` form), or, when some input is a NaN, the payload of none of them (compared
/// once quieted; signs are not looked at).
fn wh_nan_departs(x: u32, y: u32, z: u32, r: u32) -> bool {
    if man_field(r) & 0x40_0000 == 0 {
        return true;
    }
    let mut nans = [x, y, z].into_iter().filter(|&v| is_nan(v)).peekable();
    if nans.peek().is_none() {
        return false;
    }
    !nans.any(|v| (man_field(v) | 0x40_0000) == man_field(r))
}

/// The Wormhole categories, in the precedence order of the module documentation ("Wormhole").
fn fma_category_wh(x: u32, y: u32, z: u32, wh: u32, ieee: u32) -> Category {
    // 1. NaN form: both NaN, Wormhole's NaN signalling or without any input's payload.
    if is_nan(wh) && is_nan(ieee) {
        return if wh_nan_departs(x, y, z, wh) { Category::NanForm } else { Category::Agrees };
    }
    if wh == ieee {
        return Category::Agrees;
    }
    // 2. Positive zero: IEEE's zero is -0, Wormhole's every zero is +0.
    if wh == 0 && ieee == SIGN {
        return Category::PositiveZero;
    }
    // 3. Denormal input, as on Blackhole.
    if is_denormal(x) || is_denormal(y) || is_denormal(z) {
        let flushed = ieee_fma(daz(x), daz(y), daz(z));
        if !same_result(flushed, ieee) {
            return Category::DenormalInput;
        }
    }
    let (x, y, z) = (daz(x), daz(y), daz(z));
    let (ex, ey) = (exp_field(x), exp_field(y));
    // 4. Product overflow: as on Blackhole (the IEEE sum is finite), and also when z is the
    //    infinity of the opposite sign: IEEE returns z, Wormhole a NaN.
    if is_normal(x) && is_normal(y) && ex + ey >= 382 && (exp_field(ieee) != 255 || is_nan(wh)) {
        return Category::ProductOverflow;
    }
    // 5. Product underflow, 6. denormal result, 7. partial fusion: as on Blackhole (Wormhole's
    //    flush before rounding and its normalisation sticky bit land in 6 and 7).
    if is_normal(x) && is_normal(y) && ex + ey < 127 {
        return Category::ProductUnderflow;
    }
    if ieee_fma_rounded(x, y, z, RoundingMode::TowardZero) & 0x7FFF_FFFF < MIN_NORMAL {
        return Category::DenormalResult;
    }
    Category::PartialFusion
}

fn fma_category(x: u32, y: u32, z: u32, bh: u32, ieee: u32) -> Category {
    // 1. NaN canonicalisation: both NaN (the agreement check treats them as equal), and the
    //    canonical 0x7FC00000 is not the payload of any input NaN. A NaN result without a NaN
    //    input (an invalid operation) has no payload to keep: that agrees.
    if is_nan(bh) && is_nan(ieee) {
        return if nan_payload_lost(x, y, z) { Category::NanCanonicalisation } else { Category::Agrees };
    }
    if bh == ieee {
        return Category::Agrees;
    }
    // 2. Denormal input: reading the denormals as zeros changes the IEEE answer itself.
    if is_denormal(x) || is_denormal(y) || is_denormal(z) {
        let flushed = ieee_fma(daz(x), daz(y), daz(z));
        if !same_result(flushed, ieee) {
            return Category::DenormalInput;
        }
    }
    // From here on the DAZ inputs give the same IEEE result; look at them, as Blackhole does.
    let (x, y, z) = (daz(x), daz(y), daz(z));
    let (ex, ey) = (exp_field(x), exp_field(y));
    // 3. Product overflow: Blackhole's `ep = e_x + e_y - 127 >= 255` takes the specials path and
    //    returns ±Inf (|x*y| >= 2^128), while the IEEE sum is finite. z is finite here (an
    //    infinite or NaN z gives the same answer on both sides).
    if is_normal(x) && is_normal(y) && ex + ey >= 382 && exp_field(ieee) != 255 {
        return Category::ProductOverflow;
    }
    // 4. Product underflow: `ep < 0`, Blackhole returns z (or a signed zero) untouched by a
    //    non-zero product.
    if is_normal(x) && is_normal(y) && ex + ey < 127 {
        return Category::ProductUnderflow;
    }
    // 5. Denormal result: the exact sum is below 2^-126 in magnitude. Rounding toward zero
    //    never crosses 2^-126 upwards, so this test is exact.
    if ieee_fma_rounded(x, y, z, RoundingMode::TowardZero) & 0x7FFF_FFFF < MIN_NORMAL {
        return Category::DenormalResult;
    }
    // 6. Partial fusion: the rest (narrowed product, semi-sticky alignment).
    Category::PartialFusion
}

/// Formats an FP32 value for an example: plain decimals for moderate magnitudes, scientific
/// notation otherwise, `NaN` and `±inf` for the specials.
fn fmt_value(v: f64) -> String {
    if v.is_nan() {
        "NaN".to_string()
    } else if v.is_infinite() {
        if v > 0.0 { "inf".to_string() } else { "-inf".to_string() }
    } else if v == 0.0 {
        if v.is_sign_negative() { "-0".to_string() } else { "0".to_string() }
    } else if (1e-4..1e7).contains(&v.abs()) {
        format!("{v}")
    } else {
        format!("{v:e}")
    }
}

fn fmt_f32(bits: u32) -> String {
    // Print through f32 so the shortest round-trip decimal of the FP32 value is shown.
    let f = f32::from_bits(bits);
    if f.is_nan() || f.is_infinite() || f == 0.0 {
        fmt_value(f as f64)
    } else if (1e-4..1e7).contains(&f.abs()) {
        format!("{f}")
    } else {
        format!("{f:e}")
    }
}

/// The example text of an `fma` case:
/// `0x... * 0x... + 0x... -> BH 0x... (value), IEEE 0x... (value)`.
pub fn fma_example(x: u32, y: u32, z: u32, c: &Classified) -> String {
    format!(
        "0x{x:08X} * 0x{y:08X} + 0x{z:08X} -> BH 0x{:08X} ({}), IEEE 0x{:08X} ({})",
        c.blackhole,
        fmt_f32(c.blackhole),
        c.ieee,
        fmt_f32(c.ieee)
    )
}

// ---------------------------------------------------------------------------------------------
// The random generator and the input pools.

// The generator is `generate::operands::Rng` (SplitMix64), so every sequence is fixed by the
// seed alone; these helpers draw the shapes the pools need from it.

/// A random sign bit.
fn sign(rng: &mut Rng) -> u32 {
    rng.u32() & SIGN
}

/// A random normal number with biased exponent `e` (clamped to 1..=254), random sign and
/// mantissa.
fn normal_at(rng: &mut Rng, e: u32) -> u32 {
    (rng.u32() & 0x807F_FFFF) | (e.clamp(1, 254) << 23)
}

/// A random normal number with biased exponent in `lo..lo + span`.
fn normal_in(rng: &mut Rng, lo: u32, span: u32) -> u32 {
    let e = lo + rng.below(span);
    normal_at(rng, e)
}

/// A mantissa that is often special: zero, all ones, a few low bits, or random.
fn mantissa(rng: &mut Rng) -> u32 {
    match rng.below(5) {
        0 => 0,
        1 => 0x7F_FFFF,
        2 => rng.below(8),
        3 => 0x7F_FFFF - rng.below(8),
        _ => rng.u32() & 0x7F_FFFF,
    }
}

/// Special FP32 values of every class, positive (callers add the negative ones).
const FP_SPECIAL_MAGNITUDES: [u32; 44] = [
    0x0000_0000, // zero
    0x0000_0001, // smallest denormal
    0x0000_8000,
    0x0000_FFFF,
    0x0001_0000, // smallest denormal with a bfloat16 bit
    0x0020_0000,
    0x0040_0000, // mid denormal
    0x007F_FFFF, // largest denormal
    0x007F_8000, // denormal tie to the smallest normal (bfloat16)
    0x0080_0000, // smallest normal
    0x0080_0001,
    0x00FF_FFFF,
    0x3300_0000, // 2^-25: FP16 tie to zero
    0x3380_0000, // 2^-24: smallest FP16 subnormal
    0x3800_0000, // 2^-15: FP16 subnormal
    0x387F_E000, // just below 2^-14, rounds up to it in FP16
    0x387F_FFFF,
    0x3880_0000, // 2^-14: smallest FP16 normal
    0x3F00_0000, // 0.5
    0x3F7F_FFFF, // just below 1
    0x3F80_0000, // 1
    0x3F80_0001, // just above 1
    0x3F80_1000, // FP16 tie, even
    0x3F80_3000, // FP16 tie, odd
    0x3F80_8000, // bfloat16 tie, even
    0x3F81_8000, // bfloat16 tie, odd
    0x3F80_7FFF, // just below a bfloat16 tie
    0x3F80_8001, // just above a bfloat16 tie
    0x3FFF_FFFF, // just below 2
    0x4000_0000, // 2
    0x477F_E000, // 65504: largest FP16
    0x477F_EFFF, // just below the FP16 overflow tie
    0x477F_F000, // 65520: FP16 overflow tie
    0x4780_0000, // 65536: Dst's extra FP16 binade
    0x47FF_FFFF, // just below 2^17
    0x4800_0000, // 2^17: saturates
    0x7F00_0000, // 2^127
    0x7F7E_8000, // bfloat16 tie below the largest bfloat16, even
    0x7F7F_8000, // bfloat16 tie at the largest bfloat16: rounds to Inf
    0x7F7F_FFFF, // largest normal
    0x7F80_0000, // infinity
    0x7F80_0001, // signalling NaN, payload in the low bits only
    0x7F81_0000, // signalling NaN, payload in the bfloat16 bits
    0x7FC0_0000, // quiet NaN
];

/// More NaNs (both signs are added).
const FP_SPECIAL_NANS: [u32; 3] = [0x7FC0_0001, 0x7FFF_FFFF, 0x7FA0_0000];

fn fp_specials() -> Vec<u32> {
    FP_SPECIAL_MAGNITUDES.iter().chain(&FP_SPECIAL_NANS).flat_map(|&m| [m, m | SIGN]).collect()
}

/// Sign-magnitude integers for SFPCAST: zeros, every power of two with its neighbours, the
/// largest magnitude, and exact ties (and their neighbours) at every rounding position, both
/// signs.
pub fn cast_specials() -> Vec<u32> {
    let mut mags = vec![0u32, 0x7FFF_FFFF, 0x7FFF_FFC0, 0x7FFF_FF80, 0x7FFF_FF7F];
    for k in 0..31 {
        let p = 1u32 << k;
        mags.extend([p, p - 1, p + 1]);
    }
    // Ties: a 24-bit significand j followed by a single one just below it, for every shift.
    for s in 1..=7u32 {
        for j in [0x80_0000u32, 0x80_0001, 0x80_0002, 0x80_0003, 0xAA_AAAA, 0xFF_FFFE, 0xFF_FFFF] {
            let tie = (j << s) | (1 << (s - 1));
            mags.extend([tie, tie - 1, tie + 1]);
        }
    }
    mags.iter().map(|m| m & 0x7FFF_FFFF).flat_map(|m| [m, m | SIGN]).collect()
}

/// `n` random triples from the fixed-seed generator, biased to the regions where Blackhole and
/// IEEE part: cancellation, products near the underflow and overflow thresholds, results near
/// `2^-126`, denormal operands, special values, plus plain random bit patterns.
pub fn random_fma_triples(seed: u64, n: usize) -> Vec<(u32, u32, u32)> {
    let mut rng = Rng::stream(seed, "ieee/fma");
    let specials = fp_specials();
    (0..n).map(|_| random_triple(&mut rng, &specials)).collect()
}

fn random_triple(rng: &mut Rng, specials: &[u32]) -> (u32, u32, u32) {
    match rng.below(10) {
        // Plain random bit patterns.
        0 | 1 => (rng.u32(), rng.u32(), rng.u32()),
        // Near-cancellation: z is minus the rounded product, give or take a few ulps.
        2 => {
            let x = normal_in(rng, 64, 127);
            let y = normal_in(rng, 64, 127);
            let z = minus_product(x, y).wrapping_add(rng.below(9)).wrapping_sub(4);
            (x, y, z)
        }
        // Near one: a few ulps above or below, the spec's `0x3F800001^2 - 0x3F800002` shape.
        3 => {
            let x = 0x3F80_0000u32.wrapping_add(rng.below(16)).wrapping_sub(8) | sign(rng);
            let y = 0x3F80_0000u32.wrapping_add(rng.below(16)).wrapping_sub(8) | sign(rng);
            let z = minus_product(x, y).wrapping_add(rng.below(5)).wrapping_sub(2);
            (x, y, z)
        }
        // Products around the underflow threshold e_x + e_y = 127, small addends.
        4 => {
            let ex = 1 + rng.below(126);
            let ey = (110 + rng.below(30)).saturating_sub(ex).clamp(1, 254);
            let z = normal_in(rng, 1, 40);
            (normal_at(rng, ex), normal_at(rng, ey), z)
        }
        // Products around the overflow threshold e_x + e_y = 382, large addends of either sign;
        // half of them just past it with small mantissas, cancelled by an addend near -2^128.
        5 => {
            let ex = 128 + rng.below(127);
            if rng.below(2) == 0 {
                let ey = (372 + rng.below(16)).saturating_sub(ex).clamp(1, 254);
                let z = normal_in(rng, 240, 15);
                (normal_at(rng, ex), normal_at(rng, ey), z)
            } else {
                let x = sign(rng) | (ex << 23) | (rng.u32() & 0xF_FFFF);
                let y = sign(rng) | ((382 - ex) << 23) | (rng.u32() & 0xF_FFFF);
                let z = (((x ^ y) & SIGN) ^ SIGN) | (254 << 23) | (rng.u32() & 0x7F_FFFF);
                (x, y, z)
            }
        }
        // Results near 2^-126: products in the lowest binades cancelled by z.
        6 => {
            let ex = 1 + rng.below(126);
            let ey = (127 + rng.below(30)).saturating_sub(ex).clamp(1, 254);
            let (x, y) = (normal_at(rng, ex), normal_at(rng, ey));
            let z = if rng.below(2) == 0 {
                minus_product(x, y).wrapping_add(rng.below(65)).wrapping_sub(32)
            } else {
                normal_in(rng, 1, 4)
            };
            (x, y, z)
        }
        // A denormal operand among normal ones.
        7 => {
            let d = sign(rng) | (rng.u32() >> 9).max(1);
            let a = normal_in(rng, 1, 254);
            let b = normal_in(rng, 1, 254);
            match rng.below(3) {
                0 => (d, a, b),
                1 => (a, d, b),
                _ => (a, b, d),
            }
        }
        // Special values mixed with random ones.
        8 => {
            let mut v = [0u32; 3];
            for slot in &mut v {
                *slot = if rng.below(2) == 0 { rng.pick(specials) } else { rng.u32() };
            }
            (v[0], v[1], v[2])
        }
        // Uniform exponents with special mantissas.
        _ => {
            let mut v = [0u32; 3];
            for slot in &mut v {
                *slot = sign(rng) | (rng.below(256) << 23) | mantissa(rng);
            }
            (v[0], v[1], v[2])
        }
    }
}

/// The FP32 pattern of `-(x * y)` rounded to FP32 (the product is exact in f64).
fn minus_product(x: u32, y: u32) -> u32 {
    let p = f32::from_bits(x) as f64 * f32::from_bits(y) as f64;
    (-(p as f32)).to_bits()
}

/// Distinct values in first-seen order.
fn distinct<T: Copy + Eq + std::hash::Hash>(values: impl IntoIterator<Item = T>) -> Vec<T> {
    let mut seen = HashSet::new();
    values.into_iter().filter(|v| seen.insert(*v)).collect()
}

/// The operands the golden vectors give each operation (see the module documentation), which
/// [`characterise`] examines before its random sample.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Operands {
    /// `(x, y, z)` triples as the multiply-add family (SFPMAD, SFPADD, SFPMUL, SFPADDI, SFPMULI)
    /// feeds `x * y + z` to the FMA, negations and indirections applied.
    pub fma: Vec<(u32, u32, u32)>,
    /// The sign-magnitude integers SFPCAST's int-to-float modes convert.
    pub cast: Vec<u32>,
    /// The FP32 values SFPSTOCHRND's float-to-float modes (`FP32_TO_FP16A`, `FP32_TO_FP16B`)
    /// round.
    pub stochrnd: Vec<u32>,
    /// The FP32 values SFPSTORE's FP16, BF16 and FP32 stores convert.
    pub store: Vec<u32>,
}

impl Operands {
    /// Only FMA triples (no conversion operands).
    pub fn fma(triples: &[(u32, u32, u32)]) -> Operands {
        Operands { fma: triples.to_vec(), ..Operands::default() }
    }

    /// The given values of a conversion (empty for [`Operation::Fma`]).
    pub fn of(&self, op: Operation) -> &[u32] {
        match op {
            Operation::Fma => &[],
            Operation::Cast => &self.cast,
            Operation::StochrndBf16 | Operation::StochrndFp16 => &self.stochrnd,
            Operation::StoreBf16 | Operation::StoreFp16 | Operation::StoreFp32 => &self.store,
        }
    }
}

/// The inputs a conversion is examined on: its special values (FP32 specials, or
/// [`cast_specials`] for `cast`), the distinct `given` values (the golden vectors' operands of
/// the conversion), then `random_cases` random values from the fixed-seed generator. Specials
/// and given values are de-duplicated; the random values are not.
///
/// # Panics
///
/// If `op` is [`Operation::Fma`].
pub fn conversion_inputs(op: Operation, given: &[u32], seed: u64, random_cases: usize) -> Vec<u32> {
    assert!(op != Operation::Fma, "conversion_inputs is for the conversions");
    let specials = if op == Operation::Cast { cast_specials() } else { fp_specials() };
    let mut pool = distinct(specials.into_iter().chain(given.iter().copied()));
    if op == Operation::Cast {
        let mut rng = Rng::stream(seed, "ieee/cast");
        pool.extend((0..random_cases).map(|_| random_int(&mut rng)));
    } else {
        let mut rng = Rng::stream(seed, "ieee/float");
        pool.extend((0..random_cases).map(|_| random_float(&mut rng)));
    }
    pool
}

/// A random sign-magnitude integer: random sign, random bit length, and often a tie or a
/// near-tie at the rounding position.
fn random_int(rng: &mut Rng) -> u32 {
    let len = rng.below(32); // magnitude < 2^len
    let mut m = if len == 0 { 0 } else { (rng.u32() >> (32 - len)) | (1 << (len - 1)) };
    m &= 0x7FFF_FFFF;
    if len > 24 && rng.below(2) == 0 {
        // Make the bits below the 24-bit significand an exact tie, give or take one.
        let s = len - 24; // bits dropped
        let low = (1u32 << s) - 1;
        m = (m & !low) | (1 << (s - 1));
        m = m.wrapping_add(rng.below(3)).wrapping_sub(1) & 0x7FFF_FFFF;
    }
    sign(rng) | m
}

/// A random FP32 value biased to the conversions' boundaries.
fn random_float(rng: &mut Rng) -> u32 {
    let sign = sign(rng);
    let e = match rng.below(8) {
        0 | 1 => return rng.u32(),
        2 => 0,                   // denormals and zeros
        3 => 100 + rng.below(20), // the FP16 underflow boundary (exponent 112/113)
        4 => 135 + rng.below(12), // the FP16 overflow boundary (142/143/144)
        5 => 250 + rng.below(6),  // the top binades, Inf and NaN
        _ => rng.below(256),
    };
    let m = match rng.below(6) {
        0 => (rng.u32() & 0x7F_0000) | 0x8000,                  // bfloat16 tie
        1 => (rng.u32() & 0x7F_E000) | 0x1000,                  // FP16 tie
        2 => (rng.u32() & 0x7F_0000) | (rng.below(2) * 0xFFFF), // bfloat16 exact or all ones
        3 => rng.u32() & 0xFFFF,                                // payload only in the low bits
        _ => rng.u32() & 0x7F_FFFF,
    };
    sign | (e << 23) | m
}

// ---------------------------------------------------------------------------------------------
// Conversions.

/// Runs one instruction reading `L[0]` and writing `L[1]` on `inputs`, 32 lanes at a time, on a
/// zeroed state, and returns what `L[1]` holds.
fn run_lanes(arch: Arch, instr: &Instr, inputs: &[u32]) -> Vec<u32> {
    let mut out = Vec::with_capacity(inputs.len());
    let template = State::reset(arch, &ResetValues::ZEROS);
    let mut s = template.clone();
    for chunk in inputs.chunks(LANES) {
        s.LReg[0][..chunk.len()].copy_from_slice(chunk);
        step(&mut s, instr);
        out.extend_from_slice(&s.LReg[1][..chunk.len()]);
    }
    out
}

/// SFPCAST `L1 = SM32_TO_FP32_RNE(L0)`.
fn sfpcast_rne() -> Instr {
    Instr::SFPCAST { VC: field(0), VD: field(1), Mod1: field(SFPCAST_MOD1_SM32_TO_FP32_RNE) }
}

/// SFPSTOCHRND `L1 = NEAREST FP32_TO_FP16B(L0)` (`FP32_TO_FP16A` with `fp16`).
fn sfpstochrnd_nearest(fp16: bool) -> Instr {
    let mod1 = if fp16 { SFPSTOCHRND_MOD1_FP32_TO_FP16A } else { SFPSTOCHRND_MOD1_FP32_TO_FP16B };
    Instr::SFPSTOCHRND {
        RoundingMode: field(SFPSTOCHRND_RND_NEAREST),
        Imm5: field(0),
        VB: field(0),
        VC: field(0),
        VD: field(1),
        UseImm5: field(0),
        Mod1: field(mod1),
    }
}

fn field<const N: u32>(v: u32) -> U<N> {
    U::new(v).expect("constant fits its field")
}

/// Blackhole's results of a conversion on `inputs`: FP32 patterns for `cast`, `stochrnd-bf16`,
/// `stochrnd-fp16` and `store-fp32`, 16-bit IEEE-layout patterns for `store-bf16` and `store-fp16`. SFPCAST and
/// SFPSTOCHRND run through [`sfpu_reference::step`]; the stores call the conversion functions of
/// SFPSTORE.
///
/// # Panics
///
/// If `op` is [`Operation::Fma`].
pub fn blackhole_conversion(op: Operation, inputs: &[u32]) -> Vec<u32> {
    chip_conversion(Arch::Blackhole, op, inputs)
}

/// [`blackhole_conversion`] on `arch`: SFPCAST and SFPSTOCHRND run through `step` on the chip's
/// state; the FP16 and BF16 stores are the same on both chips (`ops/shared/dst_formats.rs`);
/// Wormhole's FP32 store is a raw copy (`WormholeB0 SFPSTORE.md`: no denormal flush).
///
/// # Panics
///
/// If `op` is [`Operation::Fma`].
pub fn chip_conversion(arch: Arch, op: Operation, inputs: &[u32]) -> Vec<u32> {
    match op {
        Operation::Fma => panic!("chip_conversion is for the conversions"),
        Operation::Cast => run_lanes(arch, &sfpcast_rne(), inputs),
        Operation::StochrndBf16 => run_lanes(arch, &sfpstochrnd_nearest(false), inputs),
        Operation::StochrndFp16 => run_lanes(arch, &sfpstochrnd_nearest(true), inputs),
        Operation::StoreBf16 => inputs.iter().map(|&x| ToBF16(x)).collect(),
        Operation::StoreFp16 => inputs.iter().map(|&x| ToFP16(x)).collect(),
        Operation::StoreFp32 => match arch {
            Arch::Blackhole => inputs.iter().map(|&x| ToFP32(x)).collect(),
            Arch::Wormhole => inputs.to_vec(),
        },
    }
}

/// The IEEE result of a conversion, in the same form as [`blackhole_conversion`]'s.
///
/// # Panics
///
/// If `op` is [`Operation::Fma`].
pub fn ieee_conversion(op: Operation, x: u32) -> u32 {
    match op {
        Operation::Fma => panic!("ieee_conversion is for the conversions"),
        Operation::Cast => {
            // Convert the magnitude (it fits an i32), then apply the sign: negation is exact and
            // round-to-nearest-even is symmetric, so this is the conversion of the signed value,
            // and sign-magnitude -0 gives -0.
            let mag = F32::from_i32((x & 0x7FFF_FFFF) as i32, RoundingMode::TiesToEven).to_bits();
            mag | (x & SIGN)
        }
        Operation::StochrndBf16 => (half::bf16::from_f32(f32::from_bits(x)).to_bits() as u32) << 16,
        Operation::StochrndFp16 => half::f16::from_f32(f32::from_bits(x)).to_f32().to_bits(),
        Operation::StoreBf16 => half::bf16::from_f32(f32::from_bits(x)).to_bits() as u32,
        Operation::StoreFp16 => half::f16::from_f32(f32::from_bits(x)).to_bits() as u32,
        Operation::StoreFp32 => x,
    }
}

/// Classifies one conversion case, given both sides' results, in the precedence order of the
/// module documentation. Results are compared bit for bit, except that `store-fp16`'s
/// `saturation` is decided on the input alone (see the module documentation).
pub fn classify_conversion(op: Operation, x: u32, blackhole: u32, ieee: u32) -> Category {
    if op == Operation::StoreFp16 && exp_field(x) >= 143 {
        // Inf, NaN and |x| >= 2^16: an e=31 pattern, which Dst reads as a finite value (or as
        // ±Inf only with ENABLE_FP16A_INF), never a NaN; IEEE gives ±Inf or a NaN. This holds
        // even where the bits coincide (65536 -> 0x7C00, NaN 0x7FFFFFFF -> 0x7FFF).
        return Category::Saturation;
    }
    if blackhole == ieee {
        return Category::Agrees;
    }
    let finite = exp_field(x) != 255;
    match op {
        Operation::Fma => panic!("classify_conversion is for the conversions"),
        Operation::Cast => Category::Other,
        Operation::StochrndBf16 => {
            if is_nan(x) {
                // Flavour A: `e == 255 -> x &= 0xFF800000`.
                Category::NanToInf
            } else if x == SIGN {
                // `e == 0 -> +0` drops the sign of -0.
                Category::NegativeZero
            } else if is_denormal(x) {
                Category::DenormalFlush
            } else if finite && blackhole & 0x7FFF_FFFF == 0x7F80_0000 && ieee & 0x7FFF_FFFF != 0x7F80_0000 {
                Category::Overflow
            } else if finite && x & 0xFFFF == 0x8000 && x & 0x1_0000 == 0 {
                // An exact tie with an even kept mantissa: `>=` rounds up, IEEE stays.
                Category::TiesAway
            } else {
                Category::Other
            }
        }
        Operation::StochrndFp16 => {
            if is_nan(x) {
                // Flavour A: `e == 255 -> x &= 0xFF800000`.
                Category::NanToInf
            } else if x == SIGN {
                Category::NegativeZero
            } else if is_denormal(x) {
                // `e == 0 -> +0`; IEEE gives the zero of the input's sign.
                Category::DenormalFlush
            } else if finite && (x & 0x7FFF_FFFF >= 0x477F_F000 || exp_field(x) <= 112) {
                // |x| >= 65520 overflows binary16, |x| < 2^-14 is below its normal range; Blackhole
                // keeps FP32's exponent.
                Category::ExponentRange
            } else if finite && x & 0x1FFF == 0x1000 && x & 0x2000 == 0 {
                // An exact tie with an even kept mantissa: `>=` rounds up, IEEE stays.
                Category::TiesAway
            } else {
                Category::Other
            }
        }
        Operation::StoreBf16 => {
            if is_nan(x) {
                if blackhole & 0x7FFF == 0x7F80 { Category::NanToInf } else { Category::NanNotQuieted }
            } else if is_denormal(x) {
                Category::DenormalFlush
            } else if finite && ieee == blackhole + 1 {
                // Truncation toward zero where IEEE rounds up (the carry may reach Inf).
                Category::Truncation
            } else {
                Category::Other
            }
        }
        Operation::StoreFp16 => {
            // Saturation (exponent field >= 143) was decided above.
            if exp_field(x) <= 112 {
                // |x| < 2^-14: no FP16 subnormals, a signed zero.
                Category::Flush
            } else if ieee == blackhole + 1 {
                Category::Truncation
            } else {
                Category::Other
            }
        }
        Operation::StoreFp32 => {
            if is_denormal(x) {
                Category::DenormalFlush
            } else {
                Category::Other
            }
        }
    }
}

/// The decoded value of a Dst FP16 pattern (IEEE layout): `e = 31` is a finite binade there.
fn dst_fp16_value(h: u32) -> String {
    let e = (h >> 10) & 0x1F;
    if e == 31 {
        let m = h & 0x3FF;
        let v = (1.0 + m as f64 / 1024.0) * 65536.0;
        let v = if h & 0x8000 != 0 { -v } else { v };
        format!("{}, Dst e=31", fmt_value(v))
    } else {
        fmt_f32(half::f16::from_bits(h as u16).to_f32().to_bits())
    }
}

/// The example text of a conversion case: `0x... (value) -> BH 0x... (value), IEEE 0x...
/// (value)`; the input of `cast` is shown as a sign-magnitude integer, 16-bit results in four
/// hex digits.
pub fn conversion_example(op: Operation, x: u32, blackhole: u32, ieee: u32) -> String {
    let input = if op == Operation::Cast {
        let mag = (x & 0x7FFF_FFFF) as i64;
        let v = if x & SIGN != 0 { -mag } else { mag };
        if x == SIGN { "-0".to_string() } else { v.to_string() }
    } else {
        fmt_f32(x)
    };
    let (bh, ie) = match op {
        Operation::StoreBf16 => (
            format!("0x{blackhole:04X} ({})", fmt_f32(blackhole << 16)),
            format!("0x{ieee:04X} ({})", fmt_f32(ieee << 16)),
        ),
        Operation::StoreFp16 => (
            format!("0x{blackhole:04X} ({})", dst_fp16_value(blackhole)),
            format!("0x{ieee:04X} ({})", fmt_f32(half::f16::from_bits(ieee as u16).to_f32().to_bits())),
        ),
        _ => (
            format!("0x{blackhole:08X} ({})", fmt_f32(blackhole)),
            format!("0x{ieee:08X} ({})", fmt_f32(ieee)),
        ),
    };
    format!("0x{x:08X} ({input}) -> BH {bh}, IEEE {ie}")
}

// ---------------------------------------------------------------------------------------------
// The whole characterisation.

/// Counts per category and the first example of each.
struct Tally {
    op: Operation,
    examined: u64,
    rows: Vec<(Category, u64, Option<String>)>,
}

impl Tally {
    fn new(arch: Arch, op: Operation) -> Tally {
        let rows = std::iter::once(Category::Agrees)
            .chain(op.categories_on(arch).iter().copied())
            .chain(std::iter::once(Category::Other))
            .map(|c| (c, 0, None))
            .collect();
        Tally { op, examined: 0, rows }
    }

    fn add(&mut self, category: Category, example: impl FnOnce() -> String) {
        self.examined += 1;
        let row = self.rows.iter_mut().find(|r| r.0 == category).expect("category belongs to its operation");
        row.1 += 1;
        if row.2.is_none() {
            row.2 = Some(example());
        }
    }

    fn into_rows(self, source: &str) -> Vec<IeeeCategory> {
        let (op, examined) = (self.op, self.examined);
        self.rows
            .into_iter()
            .filter(|(c, count, _)| *c != Category::Other || *count > 0)
            .map(|(c, count, example)| IeeeCategory {
                operation: op.name().to_string(),
                category: c.name().to_string(),
                examined,
                count,
                source: source.to_string(),
                example: example.unwrap_or_else(|| NO_EXAMPLE.to_string()),
            })
            .collect()
    }
}

/// The `source` text for a set of inputs.
fn source(specials: bool, operands: bool, random: bool) -> String {
    let parts: Vec<&str> =
        [(specials, "special values"), (operands, "vector operands"), (random, "random sample")]
            .into_iter()
            .filter_map(|(on, name)| on.then_some(name))
            .collect();
    if parts.is_empty() { "none".to_string() } else { parts.join(" + ") }
}

/// The `fma` rows: the distinct triples of `fma_inputs`, then `random_cases` random triples of
/// `seed`.
pub fn characterise_fma(fma_inputs: &[(u32, u32, u32)], seed: u64, random_cases: usize) -> Vec<IeeeCategory> {
    characterise_fma_on(Arch::Blackhole, fma_inputs, seed, random_cases)
}

/// [`characterise_fma`] on `arch`'s FMA, with its categories.
pub fn characterise_fma_on(
    arch: Arch,
    fma_inputs: &[(u32, u32, u32)],
    seed: u64,
    random_cases: usize,
) -> Vec<IeeeCategory> {
    let mut tally = Tally::new(arch, Operation::Fma);
    let given = distinct(fma_inputs.iter().copied());
    let random = random_fma_triples(seed, random_cases);
    for (x, y, z) in given.into_iter().chain(random) {
        let c = classify_fma_on(arch, x, y, z);
        tally.add(c.category, || fma_example(x, y, z, &c).replacen("BH ", chip_tag(arch), 1));
    }
    tally.into_rows(&source(false, !fma_inputs.is_empty(), random_cases > 0))
}

/// How an example names the chip's result (`BH ` or `WH `).
fn chip_tag(arch: Arch) -> &'static str {
    match arch {
        Arch::Blackhole => "BH ",
        Arch::Wormhole => "WH ",
    }
}

/// The rows of one conversion, on [`conversion_inputs`].
///
/// # Panics
///
/// If `op` is [`Operation::Fma`].
pub fn characterise_conversion(
    op: Operation,
    given: &[u32],
    seed: u64,
    random_cases: usize,
) -> Vec<IeeeCategory> {
    characterise_conversion_on(Arch::Blackhole, op, given, seed, random_cases)
}

/// [`characterise_conversion`] on `arch` ([`chip_conversion`]).
///
/// # Panics
///
/// If `op` is [`Operation::Fma`].
pub fn characterise_conversion_on(
    arch: Arch,
    op: Operation,
    given: &[u32],
    seed: u64,
    random_cases: usize,
) -> Vec<IeeeCategory> {
    let inputs = conversion_inputs(op, given, seed, random_cases);
    let chip = chip_conversion(arch, op, &inputs);
    let mut tally = Tally::new(arch, op);
    for (&x, &r) in inputs.iter().zip(&chip) {
        let ieee = ieee_conversion(op, x);
        tally.add(classify_conversion(op, x, r, ieee), || {
            conversion_example(op, x, r, ieee).replacen("BH ", chip_tag(arch), 1)
        });
    }
    tally.into_rows(&source(true, !given.is_empty(), random_cases > 0))
}

/// The whole characterisation of Blackhole: the `fma` rows (see [`characterise_fma`]) on
/// `given.fma`, then the rows of every conversion (see [`characterise_conversion`]) on its own
/// given values ([`Operands::of`]), in [`Operation::ALL`] order; `random_cases` is the number of
/// random FMA triples and of random values per conversion. Deterministic in its arguments.
pub fn characterise(given: &Operands, seed: u64, random_cases: usize) -> Vec<IeeeCategory> {
    characterise_only(Arch::Blackhole, given, seed, random_cases, &Operation::ALL)
}

/// [`characterise`] on `arch`, restricted to the operations in `ops` (kept in
/// [`Operation::ALL`] order).
pub fn characterise_only(
    arch: Arch,
    given: &Operands,
    seed: u64,
    random_cases: usize,
    ops: &[Operation],
) -> Vec<IeeeCategory> {
    let mut rows = Vec::new();
    for op in Operation::ALL.into_iter().filter(|op| ops.contains(op)) {
        rows.extend(match op {
            Operation::Fma => characterise_fma_on(arch, &given.fma, seed, random_cases),
            _ => characterise_conversion_on(arch, op, given.of(op), seed, random_cases),
        });
    }
    rows
}
