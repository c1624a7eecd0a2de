//! The IEEE 754 characterisation (`harness_sfpu::ieee`): the FMA examples
//! (`docs/spec/sfpu-blackhole.md#fma-examples`) land in the categories the spec names, the counts
//! match independent recounts on fixed inputs, the categories partition what was examined, SFPCAST
//! agrees with IEEE everywhere, the output is a function of its arguments, and the golden vectors'
//! operands of the whole FMA family and of the conversions are what it examines.

use std::collections::BTreeMap;
use std::path::Path;

use harness_sfpu::ieee::{
    Category, NO_EXAMPLE, Operands, Operation, blackhole_conversion, characterise, characterise_fma,
    characterise_only, chip_conversion, classify_conversion, classify_fma, classify_fma_on,
    conversion_inputs, ieee_conversion, random_fma_triples,
};
use harness_sfpu::report::vector_operands;
use harness_sfpu::sections::IeeeCategory;
use harness_sfpu::vectors::load_corpus;
use sfpu_reference::isa::Arch;

use Category::*;

/// Triples whose category is known by hand: the FMA examples of
/// `docs/spec/sfpu-blackhole.md#fma-examples` (with their results), and small cases built for each
/// rule. `None` for results the spec does not state. A labelled triple: the inputs, the category,
/// and (Blackhole, IEEE) where checked.
type Labelled = ((u32, u32, u32), Category, Option<(u32, u32)>);

const LABELLED: &[Labelled] = &[
    // A product that overflows is final.
    ((0x7F00_0000, 0x4000_0000, 0xFF00_0000), ProductOverflow, Some((0x7F80_0000, 0x7F00_0000))),
    // -2^128 + 2^127 = -2^127 for IEEE, -Inf for Blackhole.
    ((0x7F00_0000, 0xC000_0000, 0x7F00_0000), ProductOverflow, Some((0xFF80_0000, 0xFF00_0000))),
    // A product that underflows is dropped.
    ((0x2000_0000, 0x1F00_0000, 0x0080_0000), ProductUnderflow, Some((0x0080_0000, 0x00A0_0000))),
    // The same product alone: IEEE 2^-128 (denormal); product-underflow comes first.
    ((0x2000_0000, 0x1F00_0000, 0x0000_0000), ProductUnderflow, Some((0x0000_0000, 0x0020_0000))),
    // The product is not fully fused.
    ((0x3F80_0001, 0x3F80_0001, 0xBF80_0002), PartialFusion, Some((0x3280_0000, 0x2880_0000))),
    ((0xCCBC_0FCE, 0x439D_FE8E, 0x50E8_2160), PartialFusion, None),
    ((0x17A8_791D, 0x2A9B_6B8C, 0x8128_A061), PartialFusion, Some((0x02B7_7C2A, 0x02B7_7C2B))),
    // Rounding near the denormal range: the exact result is normal; cancellation exposes the
    // narrowed product.
    ((0x27B4_A3E7, 0x1ADF_5E90, 0x8322_ED69), PartialFusion, Some((0x80A9_FD1C, 0x80A9_FD1F))),
    // Results in the underflow range are mis-scaled, then flushed.
    ((0xBC16_B9C2, 0x8412_A431, 0x808C_AD39), DenormalResult, Some((0x0080_0000, 0x0020_0000))),
    ((0x04BB_45BF, 0xBB93_BCF4, 0x0098_268D), DenormalResult, Some((0x8080_0000, 0x8040_0000))),
    // 2^-126 * 0.5 = 2^-127: flushed.
    ((0x0080_0000, 0x3F00_0000, 0x0000_0000), DenormalResult, Some((0x0000_0000, 0x0040_0000))),
    // Denormal inputs are zero: 2^-127 * 2^126 = 0.5 for IEEE.
    ((0x0040_0000, 0x7E80_0000, 0x0000_0000), DenormalInput, Some((0x0000_0000, 0x3F00_0000))),
    // Inf * denormal is Inf * 0 for Blackhole.
    ((0x7F80_0000, 0x0000_0001, 0x0000_0000), DenormalInput, Some((0x7FC0_0000, 0x7F80_0000))),
    // A denormal IEEE result from a denormal input: denormal-input comes first.
    ((0x3F80_0000, 0x0000_0001, 0x0000_0000), DenormalInput, Some((0x0000_0000, 0x0000_0001))),
    // NaN inputs whose payload Blackhole drops.
    ((0x7FC0_0001, 0x3F80_0000, 0x0000_0000), NanCanonicalisation, None),
    ((0x7F80_0001, 0x3F80_0000, 0x0000_0000), NanCanonicalisation, None),
    ((0x3F80_0000, 0x3F80_0000, 0xFFC1_2345), NanCanonicalisation, None),
    // Agreements: the sign of a NaN is not interpreted; a fresh NaN has no payload to keep;
    // one input NaN already has the canonical payload.
    ((0xFFC0_0000, 0x3F80_0000, 0x0000_0000), Agrees, None),
    ((0x7F80_0000, 0x0000_0000, 0x3F80_0000), Agrees, None),
    ((0x7F80_0000, 0x3F80_0000, 0xFF80_0000), Agrees, None),
    ((0x7FC0_0000, 0x7FC0_0001, 0x0000_0000), Agrees, None),
    // Ordinary arithmetic, signed zeros, a denormal addend that IEEE rounds away anyway, and
    // the Wormhole difference "overflowing product plus opposite infinity".
    ((0x3F80_0000, 0x4000_0000, 0x3F80_0000), Agrees, Some((0x4040_0000, 0x4040_0000))),
    ((0x8000_0000, 0x3F80_0000, 0x8000_0000), Agrees, Some((0x8000_0000, 0x8000_0000))),
    ((0x3F80_0000, 0x3F80_0000, 0x0000_0001), Agrees, Some((0x3F80_0000, 0x3F80_0000))),
    ((0x5F80_0000, 0x5F80_0000, 0xFF80_0000), Agrees, Some((0xFF80_0000, 0xFF80_0000))),
    // A product past 2^128 that IEEE also overflows.
    ((0x7F00_0000, 0x4000_0000, 0x3F80_0000), Agrees, Some((0x7F80_0000, 0x7F80_0000))),
];

fn labelled_triples() -> Vec<(u32, u32, u32)> {
    LABELLED.iter().map(|&(t, _, _)| t).collect()
}

/// The labelled triples as the FMA operands, and their values as every conversion's operands.
fn labelled() -> Operands {
    let values: Vec<u32> = labelled_triples().into_iter().flat_map(|(x, y, z)| [x, y, z]).collect();
    Operands { fma: labelled_triples(), cast: values.clone(), stochrnd: values.clone(), store: values }
}

fn rows_of(rows: &[IeeeCategory], op: Operation) -> Vec<&IeeeCategory> {
    rows.iter().filter(|r| r.operation == op.name()).collect()
}

fn count_of(rows: &[IeeeCategory], op: Operation, category: Category) -> u64 {
    rows_of(rows, op).iter().find(|r| r.category == category.name()).map_or(0, |r| r.count)
}

fn hex_after(s: &str, marker: &str) -> u32 {
    let at = s.find(marker).unwrap_or_else(|| panic!("no {marker:?} in {s:?}")) + marker.len();
    let digits: String = s[at..].chars().take_while(|c| c.is_ascii_hexdigit()).collect();
    u32::from_str_radix(&digits, 16).unwrap()
}

#[test]
fn spec_examples_land_in_the_categories_the_spec_names() {
    for &((x, y, z), category, results) in LABELLED {
        let c = classify_fma(x, y, z);
        assert_eq!(c.category, category, "0x{x:08X} * 0x{y:08X} + 0x{z:08X}: {c:?}");
        if let Some((bh, ieee)) = results {
            assert_eq!((c.blackhole, c.ieee), (bh, ieee), "0x{x:08X} * 0x{y:08X} + 0x{z:08X}");
        }
    }
}

#[test]
fn fma_counts_equal_the_labels() {
    let rows = characterise(&labelled(), 7, 0);
    let fma = rows_of(&rows, Operation::Fma);
    let mut expected: BTreeMap<&str, u64> = BTreeMap::new();
    for &(_, category, _) in LABELLED {
        *expected.entry(category.name()).or_default() += 1;
    }
    for row in &fma {
        assert_eq!(row.examined, LABELLED.len() as u64);
        assert_eq!(row.count, expected.get(row.category.as_str()).copied().unwrap_or(0), "{row:?}");
        assert_eq!(row.source, "vector operands");
        if row.count == 0 {
            assert_eq!(row.example, NO_EXAMPLE);
        }
    }
    // Every labelled category has a row.
    for name in expected.keys() {
        assert!(fma.iter().any(|r| r.category == *name), "no row for {name}");
    }
    // Duplicated inputs are examined once.
    let twice: Vec<_> = labelled_triples().into_iter().chain(labelled_triples()).collect();
    assert_eq!(characterise_fma(&twice, 7, 0), characterise_fma(&labelled_triples(), 7, 0));
}

#[test]
fn fma_examples_are_formatted_and_reclassify_into_their_row() {
    let rows = characterise_fma(&labelled_triples(), 11, 20_000);
    for row in rows.iter().filter(|r| r.count > 0) {
        let e = &row.example;
        assert!(e.starts_with("0x") && e.contains(" * 0x") && e.contains(" + 0x"), "{e}");
        assert!(e.contains(" -> BH 0x") && e.contains(", IEEE 0x"), "{e}");
        let (x, y, z) = (hex_after(e, "0x"), hex_after(e, " * 0x"), hex_after(e, " + 0x"));
        let c = classify_fma(x, y, z);
        assert_eq!(c.category.name(), row.category, "{e}");
        assert_eq!(c.blackhole, hex_after(e, "BH 0x"), "{e}");
        assert_eq!(c.ieee, hex_after(e, "IEEE 0x"), "{e}");
        assert!(e.contains(" ("), "decoded values in {e}");
    }
    // The given triples come first, so the spec's examples are the ones shown.
    let example = |cat: Category| rows.iter().find(|r| r.category == cat.name()).unwrap().example.clone();
    assert!(
        example(ProductOverflow).starts_with("0x7F000000 * 0x40000000 + 0xFF000000 -> BH 0x7F800000 (inf)")
    );
    assert!(example(PartialFusion).starts_with("0x3F800001 * 0x3F800001 + 0xBF800002 -> BH 0x32800000"));
}

#[test]
fn the_random_sample_reaches_every_fma_category() {
    let rows = characterise_fma(&[], 0x5EED, 50_000);
    for row in &rows {
        assert!(row.count > 0, "no case in {row:?}");
        assert_eq!(row.source, "random sample");
    }
    // Every remaining disagreement is between finite inputs and finite results.
    for (x, y, z) in random_fma_triples(0x5EED, 50_000) {
        let c = classify_fma(x, y, z);
        if c.category == PartialFusion {
            for v in [x, y, z, c.blackhole, c.ieee] {
                assert_ne!(v & 0x7F80_0000, 0x7F80_0000, "0x{x:08X} * 0x{y:08X} + 0x{z:08X}: {c:?}");
            }
        }
    }
}

#[test]
fn categories_partition_what_is_examined() {
    let rows = characterise(&labelled(), 3, 10_000);
    let ops: Vec<&str> = rows.iter().map(|r| r.operation.as_str()).collect();
    let mut order: Vec<&str> = ops.clone();
    order.dedup();
    assert_eq!(order, Operation::ALL.map(Operation::name), "operations in report order, contiguous");
    for op in Operation::ALL {
        let rows = rows_of(&rows, op);
        let examined = rows[0].examined;
        assert!(examined > 0);
        assert!(rows.iter().all(|r| r.examined == examined), "{op:?}");
        assert_eq!(rows.iter().map(|r| r.count).sum::<u64>(), examined, "{op:?}");
        // agrees, then the categories in precedence order, then `other` only if found.
        let names: Vec<&str> = rows.iter().map(|r| r.category.as_str()).collect();
        let mut expected = vec![Agrees.name()];
        expected.extend(op.categories().iter().map(|c| c.name()));
        if names.last() == Some(&Other.name()) {
            expected.push(Other.name());
        }
        assert_eq!(names, expected, "{op:?}");
    }
}

/// The conversions, recounted with predicates written from the pages (`SFPSTOCHRND_FloatFloat.md`,
/// `SFPSTORE.md`) and IEEE round-to-nearest-even, without the library's classification or the
/// `half` crate.
fn recount(op: Operation, x: u32) -> Category {
    let e = (x >> 23) & 0xFF;
    let m = x & 0x7F_FFFF;
    let neg = x & 0x8000_0000 != 0;
    let nan = e == 255 && m != 0;
    let denormal = e == 0 && m != 0;
    let normal = e != 0 && e != 255;
    // Round to nearest even at bit `k` (drop the low k bits): up iff above half, or half and odd.
    let rounds_up = |k: u32| {
        let lo = x & ((1 << k) - 1);
        let half = 1 << (k - 1);
        lo > half || (lo == half && x & (1 << k) != 0)
    };
    match op {
        Operation::Fma => unreachable!(),
        Operation::Cast => Agrees,
        Operation::StochrndBf16 => {
            if nan {
                NanToInf
            } else if x == 0x8000_0000 {
                NegativeZero
            } else if denormal && (neg || m >> 16 != 0 || rounds_up(16)) {
                // Blackhole gives +0; IEEE keeps the sign and rounds to a bfloat16 denormal.
                DenormalFlush
            } else if normal && x & 0xFFFF == 0x8000 && x & 0x1_0000 == 0 {
                TiesAway
            } else {
                Agrees
            }
        }
        Operation::StochrndFp16 => {
            // Blackhole (`SFPSTOCHRND_FloatFloat.md`, NEAREST): keep 10 mantissa bits, round up
            // when the 13 discarded bits are >= 0x1000; zero and denormals give +0, Inf and NaN
            // give ±Inf.
            let bh = if e == 0 {
                0
            } else if e == 255 {
                x & 0xFF80_0000
            } else {
                (x & !0x1FFF) + if x & 0x1FFF >= 0x1000 { 0x2000 } else { 0 }
            };
            // IEEE binary16, round to nearest even, in f64 arithmetic: overflow at 65520, a
            // quantum of 2^-24 below 2^-14, 11 significant bits above.
            let v = f32::from_bits(x) as f64;
            let a = v.abs();
            let rounded = if nan {
                f64::NAN
            } else if a >= 65520.0 {
                f64::INFINITY
            } else if a < 2f64.powi(-14) {
                (a / 2f64.powi(-24)).round_ties_even() * 2f64.powi(-24)
            } else {
                let q = 2f64.powi(e as i32 - 127 - 10);
                (a / q).round_ties_even() * q
            };
            let ieee = (rounded as f32).to_bits() | (x & 0x8000_0000);
            if bh == ieee {
                Agrees
            } else if nan {
                NanToInf
            } else if x == 0x8000_0000 {
                NegativeZero
            } else if denormal {
                DenormalFlush
            } else if x & 0x7FFF_FFFF >= 0x477F_F000 || e <= 112 {
                ExponentRange
            } else if x & 0x1FFF == 0x1000 && x & 0x2000 == 0 {
                TiesAway
            } else {
                Other
            }
        }
        Operation::StoreBf16 => {
            if nan && x & 0x40_0000 == 0 {
                if (x >> 16) & 0x7F == 0 { NanToInf } else { NanNotQuieted }
            } else if denormal && (m >> 16 != 0 || rounds_up(16)) {
                DenormalFlush
            } else if normal && rounds_up(16) {
                Truncation
            } else {
                Agrees
            }
        }
        Operation::StoreFp16 => {
            if e >= 143 {
                Saturation
            } else if e <= 112 && x & 0x7FFF_FFFF > 0x3300_0000 {
                // Above 2^-25 (the tie with zero), IEEE gives a non-zero FP16 subnormal.
                Flush
            } else if (113..=142).contains(&e) && rounds_up(13) {
                Truncation
            } else {
                Agrees
            }
        }
        Operation::StoreFp32 => {
            if denormal {
                DenormalFlush
            } else {
                Agrees
            }
        }
    }
}

#[test]
fn conversion_counts_equal_independent_recounts() {
    for random in [0, 5_000] {
        let given = labelled();
        let rows = characterise(&given, 0xC0FFEE, random);
        for op in Operation::CONVERSIONS {
            let inputs = conversion_inputs(op, given.of(op), 0xC0FFEE, random);
            let mut expected: BTreeMap<&str, u64> = BTreeMap::new();
            for &x in &inputs {
                *expected.entry(recount(op, x).name()).or_default() += 1;
            }
            let got: BTreeMap<&str, u64> = rows_of(&rows, op)
                .iter()
                .filter(|r| r.count > 0)
                .map(|r| (r.category.as_str(), r.count))
                .collect();
            assert_eq!(got, expected, "{op:?} with {random} random values");
            assert!(rows_of(&rows, op).iter().all(|r| r.examined == inputs.len() as u64));
        }
        // The special values alone reach every conversion category but the impossible one.
        for op in Operation::CONVERSIONS {
            for &c in op.categories() {
                if c != Overflow {
                    assert!(count_of(&rows, op, c) > 0, "{op:?} {c:?}");
                }
            }
        }
        assert_eq!(count_of(&rows, Operation::StochrndBf16, Overflow), 0);
    }
}

#[test]
fn conversion_examples_match_their_rows() {
    let rows = characterise(&Operands::default(), 5, 2_000);
    for op in Operation::CONVERSIONS {
        for row in rows_of(&rows, op).into_iter().filter(|r| r.count > 0) {
            let e = &row.example;
            let x = hex_after(e, "0x");
            let bh = hex_after(e, "BH 0x");
            let ieee = hex_after(e, "IEEE 0x");
            assert_eq!(blackhole_conversion(op, &[x]), vec![bh], "{e}");
            assert_eq!(ieee_conversion(op, x), ieee, "{e}");
            assert_eq!(classify_conversion(op, x, bh, ieee).name(), row.category, "{e}");
        }
    }
    let example = |op: Operation, c: Category| {
        rows_of(&rows, op).iter().find(|r| r.category == c.name()).unwrap().example.clone()
    };
    assert_eq!(
        example(Operation::StochrndBf16, TiesAway),
        "0x3F808000 (1.0039063) -> BH 0x3F810000 (1.0078125), IEEE 0x3F800000 (1)"
    );
    assert!(example(Operation::StoreFp16, Saturation).contains("Dst e=31"));
}

/// A sample of sign-magnitude integers: every power of two and its neighbours, exact ties and
/// their neighbours at every rounding position, the extremes, and random values.
fn cast_sample() -> Vec<u32> {
    let mut mags = vec![0u32, 0x7FFF_FFFF, 0x7FFF_FFC0, 0x7FFF_FFBF];
    for k in 0..31 {
        let p = 1u32 << k;
        mags.extend([p, p - 1, p + 1, p | (p >> 1)]);
    }
    for dropped in 1..=7u32 {
        let half = 1u32 << (dropped - 1);
        for significand in [0x80_0000u32, 0x80_0001, 0x80_0002, 0x90_0001, 0xC0_0000, 0xFF_FFFE, 0xFF_FFFF] {
            let tie = (significand << dropped) | half;
            mags.extend([tie - 1, tie, tie + 1]);
        }
    }
    let mut state = 0x1234_5678_9ABC_DEF0u64;
    for _ in 0..20_000 {
        state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        let v = (state >> 33) as u32;
        mags.push(v >> (v & 31));
    }
    mags.into_iter().map(|m| m & 0x7FFF_FFFF).flat_map(|m| [m, m | 0x8000_0000]).collect()
}

#[test]
fn sfpcast_agrees_with_ieee_everywhere() {
    let sample = cast_sample();
    let bh = blackhole_conversion(Operation::Cast, &sample);
    for (&c, &d) in sample.iter().zip(&bh) {
        // Rust's integer-to-float `as` rounds to nearest even: an oracle independent of both.
        let magnitude = (c & 0x7FFF_FFFF) as f32;
        let oracle = magnitude.to_bits() | (c & 0x8000_0000);
        assert_eq!(d, oracle, "SFPCAST 0x{c:08X}");
        assert_eq!(ieee_conversion(Operation::Cast, c), oracle, "softfloat 0x{c:08X}");
        assert_eq!(classify_conversion(Operation::Cast, c, d, oracle), Agrees);
    }
    let rows = characterise(&labelled(), 9, 20_000);
    let cast = rows_of(&rows, Operation::Cast);
    assert_eq!(cast[0].source, "special values + vector operands + random sample");
    assert_eq!(cast.len(), 1, "{cast:?}");
    assert_eq!(cast[0].category, "agrees");
    assert_eq!(cast[0].count, cast[0].examined);
}

#[test]
fn output_is_a_function_of_the_arguments() {
    let given = labelled();
    let a = characterise(&given, 0xABCD, 30_000);
    let b = characterise(&given, 0xABCD, 30_000);
    assert_eq!(a, b);
    let c = characterise(&given, 0xABCE, 30_000);
    assert_ne!(a, c, "another seed draws another sample");
    assert_eq!(random_fma_triples(1, 100), random_fma_triples(1, 100));
    assert_eq!(&random_fma_triples(1, 200)[..100], &random_fma_triples(1, 100)[..]);
}

/// The operands of the golden vectors: every instruction of the FMA family and each conversion
/// contributes, read lane by lane as the instruction does (checked here on one SFPADDI and one
/// SFPMULI vector decoded by hand from the encoding: `Imm16` in bits [23:8], `VD` [7:4], `Mod1`
/// [3:0]).
#[test]
fn vector_operands_cover_the_fma_family_and_the_conversions() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../vectors/blackhole");
    let corpus = load_corpus(&dir, Arch::Blackhole).expect("the corpus loads");
    let ops = vector_operands(&corpus);
    assert!(!ops.cast.is_empty() && !ops.stochrnd.is_empty() && !ops.store.is_empty(), "conversions");
    for name in ["SFPADDI", "SFPMULI"] {
        let (_, file) = corpus.files.iter().find(|(_, f)| f.file == name).expect(name);
        let v = file
            .vectors
            .iter()
            .find(|v| {
                let w = v.program[0].word.0;
                let pre = v.pre.to_state().unwrap();
                // VD < 8, no indirection, lane 0 enabled (no lane flags in use, no row mask).
                (w >> 4) & 15 < 8
                    && w & 8 == 0
                    && !pre.UseLaneFlagsForLaneEnable[0]
                    && pre.LaneConfig[0].ROW_MASK() == 0
            })
            .expect("a plain vector");
        let w = v.program[0].word.0;
        let (imm16, vd, mod1) = ((w >> 8) & 0xFFFF, ((w >> 4) & 15) as usize, w & 15);
        let pre = v.pre.to_state().unwrap();
        let c = pre.LReg[vd][0] ^ if mod1 & 2 != 0 { 0x8000_0000 } else { 0 }; // NEGATE_VC
        let want = if name == "SFPADDI" { (imm16 << 16, 0x3F80_0000, c) } else { (imm16 << 16, c, 0) };
        assert!(ops.fma.contains(&want), "{name} {}: {want:08x?}", v.id);
    }
    // SFPADD, SFPMUL and SFPMAD triples are there too: more than SFPMAD's vectors alone give.
    let mad_lanes: usize =
        corpus.files.iter().filter(|(_, f)| f.file == "SFPMAD").map(|(_, f)| f.vectors.len() * 32).sum();
    assert!(ops.fma.len() > 2 * mad_lanes, "{} triples, SFPMAD alone {mad_lanes}", ops.fma.len());
    // And the characterisation says where they come from.
    let rows = characterise(&ops, 1, 0);
    for op in Operation::ALL {
        let row = rows_of(&rows, op)[0];
        assert!(row.source.contains("vector operands"), "{op:?}: {row:?}");
    }
}

/// A full-size run examines every random case it was asked for. (Its speed is measured by
/// `cargo xtask bench`, not here.)
#[test]
fn a_full_size_run_examines_every_case() {
    let rows = characterise(&labelled(), 0x5EED, 200_000);
    assert!(rows_of(&rows, Operation::Fma)[0].examined >= 200_000);
}

// ---------------------------------------------------------------------------------------------
// Wormhole: its own FMA departures, from `docs/spec/sfpu-wormhole.md#differences-from-blackhole`.

/// Wormhole FMA cases whose results the specification notes state
/// (`docs/spec/sfpu-wormhole.md#fma-examples-on-wormhole`), with Blackhole's for the same inputs
/// (`fma_model_bh`: IEEE zero signs, canonical NaN, an overflowing product plus an infinity returns
/// the infinity).
#[test]
fn wormhole_fma_departures_follow_the_spec_notes() {
    // -0 * 1 + -0: IEEE -0 + -0 = -0 (0x80000000). "Sign of a zero result: always +0" on
    // Wormhole; Blackhole keeps IEEE's zero sign.
    let c = classify_fma_on(Arch::Wormhole, 0x8000_0000, 0x3F80_0000, 0x8000_0000);
    assert_eq!((c.blackhole, c.ieee, c.category), (0x0000_0000, 0x8000_0000, PositiveZero));
    let b = classify_fma_on(Arch::Blackhole, 0x8000_0000, 0x3F80_0000, 0x8000_0000);
    assert_eq!((b.blackhole, b.category), (0x8000_0000, Agrees));

    // -2^-100 * 2^-100 + -0: the exact -2^-200 rounds to -0 for IEEE; Wormhole's zero is +0
    // (its category comes before the product underflow); Blackhole drops the product and
    // returns z = -0, which agrees.
    let c = classify_fma_on(Arch::Wormhole, 0x8D80_0000, 0x0D80_0000, 0x8000_0000);
    assert_eq!((c.blackhole, c.ieee, c.category), (0x0000_0000, 0x8000_0000, PositiveZero));
    assert_eq!(classify_fma_on(Arch::Blackhole, 0x8D80_0000, 0x0D80_0000, 0x8000_0000).category, Agrees);

    // 1 * 1 + qNaN(0x7FC00000): IEEE keeps the input's payload (0x7FC00000). Wormhole: "a NaN
    // result is any value with at least the 0x7f800001 bits set", sign from c (positive), so
    // bit 0 is set and the payload differs from the input's: nan-form. Blackhole's canonical
    // 0x7FC00000 is the input's payload: agrees.
    let c = classify_fma_on(Arch::Wormhole, 0x3F80_0000, 0x3F80_0000, 0x7FC0_0000);
    assert_eq!(c.ieee, 0x7FC0_0000);
    assert_eq!(c.blackhole & 0xFF80_0001, 0x7F80_0001, "0x{:08X}", c.blackhole);
    assert_eq!(c.category, NanForm);
    assert_eq!(classify_fma_on(Arch::Blackhole, 0x3F80_0000, 0x3F80_0000, 0x7FC0_0000).category, Agrees);
    // With c = -qNaN the sign is c's.
    let c = classify_fma_on(Arch::Wormhole, 0x3F80_0000, 0x3F80_0000, 0xFFC0_0000);
    assert_eq!(c.blackhole & 0xFF80_0001, 0xFF80_0001, "0x{:08X}", c.blackhole);

    // 2^127 * 2 + -Inf: the finite product 2^128 overflows (e_x + e_y = 254 + 128 = 382) and c
    // is the infinity of the opposite sign: "NaN" on Wormhole, "returns c" on Blackhole, -Inf
    // for IEEE.
    let c = classify_fma_on(Arch::Wormhole, 0x7F00_0000, 0x4000_0000, 0xFF80_0000);
    assert_eq!(c.ieee, 0xFF80_0000);
    assert!(
        c.blackhole & 0x7F80_0000 == 0x7F80_0000 && c.blackhole & 0x7F_FFFF != 0,
        "0x{:08X}",
        c.blackhole
    );
    assert_eq!(c.category, ProductOverflow);
    let b = classify_fma_on(Arch::Blackhole, 0x7F00_0000, 0x4000_0000, 0xFF80_0000);
    assert_eq!((b.blackhole, b.category), (0xFF80_0000, Agrees));
}

/// Each chip's section lists its own categories: Wormhole's `fma` rows have `nan-form` and
/// `positive-zero` (counted as the hand-labelled cases say) and no `nan-canonicalisation`;
/// Blackhole's the reverse. Wormhole's FP32 store is a raw copy ("the raw FP32 store"), so a
/// denormal input agrees there, where Blackhole flushes it.
#[test]
fn each_chip_lists_its_own_departures() {
    let triples = vec![
        (0x8000_0000, 0x3F80_0000, 0x8000_0000),
        (0x8D80_0000, 0x0D80_0000, 0x8000_0000),
        (0x3F80_0000, 0x3F80_0000, 0x7FC0_0000),
        (0x7F00_0000, 0x4000_0000, 0xFF80_0000),
        (0x3F80_0000, 0x3F80_0000, 0x3F80_0000),
    ];
    let given = Operands::fma(&triples);
    let wh = characterise_only(Arch::Wormhole, &given, 1, 0, &[Operation::Fma]);
    let bh = characterise_only(Arch::Blackhole, &given, 1, 0, &[Operation::Fma]);
    let names = |rows: &[IeeeCategory]| rows.iter().map(|r| r.category.clone()).collect::<Vec<_>>();
    assert_eq!(
        names(&wh),
        [
            "agrees",
            "nan-form",
            "positive-zero",
            "denormal-input",
            "product-overflow",
            "product-underflow",
            "denormal-result",
            "partial-fusion"
        ]
    );
    assert!(names(&bh).contains(&"nan-canonicalisation".to_string()));
    assert!(!names(&bh).contains(&"positive-zero".to_string()));
    assert_eq!(count_of(&wh, Operation::Fma, Agrees), 1);
    assert_eq!(count_of(&wh, Operation::Fma, PositiveZero), 2);
    assert_eq!(count_of(&wh, Operation::Fma, NanForm), 1);
    assert_eq!(count_of(&wh, Operation::Fma, ProductOverflow), 1);
    assert_eq!(count_of(&bh, Operation::Fma, Agrees), 5);
    let example =
        &rows_of(&wh, Operation::Fma).iter().find(|r| r.category == "positive-zero").unwrap().example;
    assert!(example.contains("-> WH 0x00000000"), "{example}");

    assert_eq!(
        chip_conversion(Arch::Wormhole, Operation::StoreFp32, &[0x0000_0001, 0x8000_0001]),
        [1, 0x8000_0001]
    );
    assert_eq!(blackhole_conversion(Operation::StoreFp32, &[0x0000_0001]), [0]);
    let wh_store = characterise_only(Arch::Wormhole, &Operands::default(), 1, 1000, &[Operation::StoreFp32]);
    assert_eq!(count_of(&wh_store, Operation::StoreFp32, DenormalFlush), 0);
    let bh_store = characterise_only(Arch::Blackhole, &Operands::default(), 1, 1000, &[Operation::StoreFp32]);
    assert!(count_of(&bh_store, Operation::StoreFp32, DenormalFlush) > 0);
}
