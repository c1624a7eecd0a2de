//! The sample report the report tests render: every cell status, failures full of characters that
//! need escaping, and the statuses each cell must show. Shared by `report.rs` (the renderers) and
//! `report_browser.rs` (the page in headless Chromium).

#![allow(dead_code, reason = "each test target uses part of the sample")]

use std::collections::BTreeMap;

use harness_core::matrix::{coverage, totals};
use harness_core::report::{
    CampaignInfo, CellStatus, ChipReport, CorpusInfo, Counts, FailureEntry, MatrixRow, ModelInfo,
    REPORT_FORMAT, Report, SpecInfo, Tool,
};
use harness_sfpu::sections::{
    ClauseTaint, IeeeCategory, NotesOverride, OperandClass, SeedDifference, SpecNotes, extensions,
};

/// Details with everything an escaper can get wrong: markup, entities, quotes, a CDATA end, a
/// Markdown fence, pipes, dollars, CRLF and control characters (ESC, NUL, BEL).
pub const NASTY_DETAILS: &str = "SFPMAD/mod1=1/denormal-a: 2 lanes differ\r\n\
program: TTI_SFPMAD(0, 1, 2, 3, 1) <script>alert(\"x\")</script> & 'quoted' ]]>\n\
```\n\
lane | expected            | got\n\
3    | 0x00000001 (1e-45)  | 0x00000000 (+0) $x$\n\
\u{1b}[31mred\u{1b}[0m \u{0} \u{7}\n";

pub const DUT_NAME: &str = "dut";
pub const MODELS: [&str; 2] = ["reference", DUT_NAME];

pub fn c(run: u64, passed: u64, failed: u64, random: u64, random_failures: u64) -> Counts {
    Counts { vectors_run: run, passed, failed, random_cases: random, random_failures, ..Counts::default() }
}

pub fn row(instruction: &str, mode: &str, label: &str, cells: &[(&str, Counts)]) -> MatrixRow {
    MatrixRow {
        instruction: instruction.to_string(),
        mode: mode.to_string(),
        label: label.to_string(),
        per_model: cells.iter().map(|(m, c)| (m.to_string(), *c)).collect(),
        reasons: Default::default(),
    }
}

pub fn failure(mode: &str, id: &str, kind: &str, details: &str) -> FailureEntry {
    FailureEntry {
        model: DUT_NAME.to_string(),
        instruction: "SFPMAD".to_string(),
        mode: mode.to_string(),
        id: id.to_string(),
        kind: kind.to_string(),
        replay: format!(
            "cargo xtask conform --dut 'dut=./rtl-sim --mode=\"fast\"' --only '{id}' # a < b && c > d"
        ),
        details: details.to_string(),
        snippet: format!(
            "- id: regressions/{id}\n  mode: {mode}\n  program:\n  - word: 0x84001231\n    text: TTI_SFPMAD(0, 1, \
             2, 3, 1)\n  pre:\n    LReg:\n      0: 0x00000001\n  post:\n    LReg:\n      3: 0x00000001\n"
        ),
    }
}

/// A report with two chip sections: Blackhole ([`blackhole_chip`]) and Wormhole
/// ([`wormhole_chip`]), no kernel accuracy, and the run's timings.
pub fn sample() -> Report {
    Report {
        format: REPORT_FORMAT.to_string(),
        tool: Tool { name: "sfpu-conformance".to_string(), version: "0.1.0".to_string() },
        chips: vec![blackhole_chip(), wormhole_chip()],
        extensions: Default::default(),
        timings_ms: [("kernel-accuracy", 300), ("total", 63_500)]
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect(),
        incomplete: None,
        accept_unchecked: false,
    }
}

/// The Wormhole section: the DUT refused Wormhole at its hello (it declares Blackhole only), so
/// each of its cells is `unsupported`; the reference passes every one.
///
/// | row | reference | dut |
/// |---|---|---|
/// | SFPMAD mod1=0 | pass | unsupported |
/// | SFPSHFT2 mod1=4 | pass | unsupported |
/// | sequences - | pass | unsupported |
pub fn wormhole_chip() -> ChipReport {
    let pass = c(10, 10, 0, 1000, 0);
    let refused = Counts { unsupported: 10, ..c(10, 0, 0, 0, 0) };
    let matrix = vec![
        row("SFPMAD", "mod1=0", "mod1=0", &[("reference", pass), (DUT_NAME, refused)]),
        row("SFPSHFT2", "mod1=4", "mod1=SUBVEC_SHFLSHR1", &[("reference", pass), (DUT_NAME, refused)]),
        row("sequences", "-", "-", &[("reference", pass), (DUT_NAME, refused)]),
    ];
    let totals = totals(&matrix);
    let coverage = MODELS.iter().map(|m| coverage(&matrix, m, 30, &Default::default())).collect();
    ChipReport {
        isa: "sfpu".to_string(),
        arch: "wormhole".to_string(),
        spec: SpecInfo {
            notes: "docs/spec/sfpu-wormhole.md".to_string(),
            upstream: "tt-isa-documentation @ 5f2c1e0 (WormholeB0/TensixTile/TensixCoprocessor)".to_string(),
            ..SpecInfo::default()
        },
        corpus: CorpusInfo {
            path: "vectors/wormhole".to_string(),
            format: "sfpu-vectors/1".to_string(),
            files: 40,
            vectors: 30,
            generator: "sfpu-conformance 0.1.0, seed 0x5eed".to_string(),
        },
        campaign: CampaignInfo {
            seed: "0x00c0ffee".to_string(),
            cases_per_mode: 64,
            ..CampaignInfo::default()
        },
        strictness: "silicon".to_string(),
        models: vec![
            ModelInfo {
                name: "reference".to_string(),
                kind: "reference".to_string(),
                ..ModelInfo::default()
            },
            ModelInfo {
                name: DUT_NAME.to_string(),
                kind: "dut".to_string(),
                command: Some("./rtl-sim --mode=\"fast\"".to_string()),
                description: Some(
                    "declines wormhole (it models blackhole): every case is unsupported".to_string(),
                ),
                declaration: None,
            },
        ],
        matrix,
        totals,
        failures: Vec::new(),
        failure_cap: None,
        failures_total: 0,
        cases: Vec::new(),
        extensions: extensions(
            &[IeeeCategory {
                operation: "fma".to_string(),
                category: "positive-zero".to_string(),
                examined: 10_000,
                count: 7,
                source: "random sample".to_string(),
                example: "0x80000000 * 0x3F800000 + 0x80000000 -> WH 0x00000000 (+0), IEEE 0x80000000 (-0)"
                    .to_string(),
            }],
            &SpecNotes::default(),
            &[OperandClass { class: "+0".to_string(), lanes: 64 }],
        ),
        coverage,
        reasons: Vec::new(),
        timings_ms: [("vectors/reference", 90)].into_iter().map(|(k, v)| (k.to_string(), v)).collect(),
    }
}

/// The Blackhole section, with two models and every status:
///
/// | row | reference | dut |
/// |---|---|---|
/// | SFPMAD mod1=0 | pass | pass |
/// | SFPMAD mod1=1 | pass | fail (vectors) |
/// | SFPMAD mod1=2 | pass | fail (random) |
/// | SFPMAD mod1=4 | pass | fail (errors only: a JUnit error) |
/// | SFPLOADI mod0=0 | pass (tainted) | unsupported |
/// | SFPLOADI mod0=1 | pass | unsupported (random cases declined too) |
/// | SFPLOADI mod0=2 | pass | partial (some vectors and random cases declined) |
/// | SFPARECIP mod1=0 | pass | pass |
/// | SFPARECIP mod1=3 | undefined | undefined (some declined) |
/// | sequences - | pass | untested (absent) |
/// | regressions - | untested (zero) | untested (absent) |
pub fn blackhole_chip() -> ChipReport {
    let pass = c(10, 10, 0, 1000, 0);
    let matrix = vec![
        row("SFPMAD", "mod1=0", "mod1=0", &[("reference", pass), (DUT_NAME, pass)]),
        row(
            "SFPMAD",
            "mod1=1",
            "mod1=NEGATE_VA|NEGATE_VC",
            &[("reference", pass), (DUT_NAME, c(10, 8, 2, 1000, 0))],
        ),
        row(
            "SFPMAD",
            "mod1=2",
            "mod1=INDIRECT_VA",
            &[("reference", pass), (DUT_NAME, c(10, 10, 0, 1000, 3))],
        ),
        row(
            "SFPMAD",
            "mod1=4",
            "mod1=INDIRECT_VD",
            &[("reference", pass), (DUT_NAME, Counts { errors: 3, ..c(10, 7, 0, 0, 0) })],
        ),
        row(
            "SFPLOADI",
            "mod0=0",
            "mod0=FP16B",
            &[
                ("reference", Counts { tainted: 2, ..c(6, 6, 0, 0, 0) }),
                (DUT_NAME, Counts { unsupported: 6, ..c(6, 0, 0, 0, 0) }),
            ],
        ),
        row(
            "SFPLOADI",
            "mod0=1",
            "mod0=FP16A",
            &[
                ("reference", c(6, 6, 0, 0, 0)),
                (DUT_NAME, Counts { unsupported: 6, random_unsupported: 300, ..c(6, 0, 0, 0, 0) }),
            ],
        ),
        row(
            "SFPLOADI",
            "mod0=2",
            "mod0=USHORT",
            &[
                ("reference", c(6, 6, 0, 0, 0)),
                (DUT_NAME, Counts { unsupported: 2, random_unsupported: 50, ..c(6, 4, 0, 100, 0) }),
            ],
        ),
        row("SFPARECIP", "mod1=0", "mod1=RECIP", &[("reference", pass), (DUT_NAME, pass)]),
        row(
            "SFPARECIP",
            "mod1=3",
            "mod1=3",
            &[
                ("reference", Counts { undefined: 4, tainted: 4, ..c(4, 4, 0, 0, 0) }),
                (DUT_NAME, Counts { undefined: 2, unsupported: 2, tainted: 2, ..c(4, 2, 0, 0, 0) }),
            ],
        ),
        row(
            "SFPLOADMACRO",
            "mod0=0",
            "mod0=SRCB",
            &[
                ("reference", pass),
                (DUT_NAME, Counts { not_applicable: 10, random_not_applicable: 64, ..Counts::default() }),
            ],
        ),
        row("sequences", "-", "-", &[("reference", c(20, 20, 0, 0, 0))]),
        row("regressions", "-", "-", &[("reference", Counts::default())]),
    ];
    let mut totals = BTreeMap::new();
    for m in MODELS {
        let mut t = Counts::default();
        for r in &matrix {
            t.add(&r.counts(m));
        }
        totals.insert(m.to_string(), t);
    }
    // 112 vectors selected: the reference's 102 and the 10 not applicable to the DUT.
    let coverage = MODELS.iter().map(|m| coverage(&matrix, m, 112, &Default::default())).collect();
    ChipReport {
        isa: "sfpu".to_string(),
        arch: "blackhole".to_string(),
        spec: SpecInfo {
            notes: "docs/spec/sfpu-blackhole.md".to_string(),
            upstream: "tt-isa-documentation @ 5f2c1e0 (BlackholeA0/TensixTile/TensixCoprocessor)".to_string(),
            notes_sha256: "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08".to_string(),
            upstream_commits: vec!["5f2c1e0d2b1a9c8e7f6a5b4c3d2e1f0a9b8c7d6e".to_string()],
        },
        corpus: CorpusInfo {
            path: "vectors/blackhole".to_string(),
            format: "sfpu-vectors/1".to_string(),
            files: 42,
            vectors: 1234,
            generator: "sfpu-conformance 0.1.0, seed 0x5eed".to_string(),
        },
        campaign: CampaignInfo {
            seed: "0x00c0ffee".to_string(),
            budget_ms: 2000,
            cases_per_mode: 0,
            cases: 100_000,
            streams: 250,
            streams_per_model: 0,
        },
        strictness: "silicon".to_string(),
        models: vec![
            ModelInfo {
                name: "reference".to_string(),
                kind: "reference".to_string(),
                ..ModelInfo::default()
            },
            ModelInfo {
                name: DUT_NAME.to_string(),
                kind: "dut".to_string(),
                command: Some("./rtl-sim --mode=\"fast\" < in.bin > out.bin && echo 'ok'".to_string()),
                description: Some("RTL sim <v2> & \"friends\" | nightly".to_string()),
                declaration: None,
            },
        ],
        matrix,
        totals,
        failures: vec![
            failure("mod1=1", "SFPMAD/mod1=1/denormal-a", "vector", NASTY_DETAILS),
            failure(
                "mod1=2",
                "random/0x1234",
                "random",
                "random case 0x1234: lane 7 differs\nexpected 0x3f800000\n",
            ),
            failure("mod1=4", "SFPMAD/mod1=4/basic", "error", "DUT exited: signal 11 (SIGSEGV)\u{7}\n"),
            failure("mod1=1", "SFPMAD/mod1=1/second", "vector", "the second failure of the cell\n"),
        ],
        failure_cap: None,
        failures_total: 0,
        cases: Vec::new(),
        extensions: extensions(
            &[
                IeeeCategory {
                    operation: "fma".to_string(),
                    category: "agrees".to_string(),
                    examined: 10_000,
                    count: 9_000,
                    source: "random sample".to_string(),
                    example: String::new(),
                },
                IeeeCategory {
                    operation: "fma".to_string(),
                    category: "denormal-flush".to_string(),
                    examined: 10_000,
                    count: 1_000,
                    source: "random sample".to_string(),
                    example:
                        "a=0x00000001 (1e-45) * b=0x3f800000 (1) + c=0 -> BH 0x00000000 (+0), IEEE 0x00000001"
                            .to_string(),
                },
                IeeeCategory {
                    operation: "store-bf16".to_string(),
                    category: "rounding".to_string(),
                    examined: 500,
                    count: 250,
                    source: "vector operands".to_string(),
                    example: "0x3f808000 -> BH 0x3f80, IEEE 0x3f80 < 0x3f81".to_string(),
                },
            ],
            &SpecNotes {
                seed_differences: vec![SeedDifference {
                    row: 3,
                    topic: "SFPMAD with <denormal> operands & flags".to_string(),
                    model: "flushes them to zero, as upstream says".to_string(),
                }],
                notes_overrides: vec![NotesOverride {
                    topic: "SFPABS | -Inf".to_string(),
                    page: "WormholeB0/SFPABS.md".to_string(),
                    model: "keeps <-Inf> & its sign".to_string(),
                }],
                clauses: vec![
                    ClauseTaint {
                        clause: "sfppushc-full-stack".to_string(),
                        kind: "undefined".to_string(),
                        section: "docs/spec/sfpu-blackhole.md#sfppushc-full-stack".to_string(),
                        summary: "pushing onto a full stack".to_string(),
                        vectors: 4,
                    },
                    ClauseTaint {
                        clause: "backdoor-load".to_string(),
                        kind: "non-contractual".to_string(),
                        section: "docs/spec/sfpu-blackhole.md#backdoor-load".to_string(),
                        summary: "loads via the \"backdoor\"".to_string(),
                        vectors: 0,
                    },
                ],
            },
            &[
                OperandClass { class: "+0".to_string(), lanes: 512 },
                OperandClass { class: "denormal".to_string(), lanes: 128 },
                OperandClass { class: "normal".to_string(), lanes: 8192 },
                OperandClass { class: "signalling-nan".to_string(), lanes: 0 },
            ],
        ),
        coverage,
        reasons: Vec::new(),
        timings_ms: [("golden vectors", 812), ("random campaign", 62_000)]
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect(),
    }
}

/// The status each (chip, instruction, mode, model) cell of [`sample`] must have.
pub fn expected_statuses() -> BTreeMap<(String, String, String, String), CellStatus> {
    use CellStatus::*;
    let table: [(&str, &str, CellStatus, CellStatus); 12] = [
        ("SFPMAD", "mod1=0", Pass, Pass),
        ("SFPMAD", "mod1=1", Pass, Fail),
        ("SFPMAD", "mod1=2", Pass, Fail),
        ("SFPMAD", "mod1=4", Pass, Fail),
        ("SFPLOADI", "mod0=0", Pass, Unsupported),
        ("SFPLOADI", "mod0=1", Pass, Unsupported),
        ("SFPLOADI", "mod0=2", Pass, Partial),
        ("SFPARECIP", "mod1=0", Pass, Pass),
        ("SFPARECIP", "mod1=3", Undefined, Undefined),
        ("SFPLOADMACRO", "mod0=0", Pass, NotApplicable),
        ("sequences", "-", Pass, Untested),
        ("regressions", "-", Untested, Untested),
    ];
    let wormhole: [(&str, &str, CellStatus, CellStatus); 3] = [
        ("SFPMAD", "mod1=0", Pass, Unsupported),
        ("SFPSHFT2", "mod1=4", Pass, Unsupported),
        ("sequences", "-", Pass, Unsupported),
    ];
    let mut map = BTreeMap::new();
    for (arch, rows) in [("blackhole", &table[..]), ("wormhole", &wormhole[..])] {
        for &(i, m, r, d) in rows {
            map.insert((arch.to_string(), i.to_string(), m.to_string(), "reference".to_string()), r);
            map.insert((arch.to_string(), i.to_string(), m.to_string(), DUT_NAME.to_string()), d);
        }
    }
    map
}

pub fn status_tally(statuses: impl IntoIterator<Item = CellStatus>) -> BTreeMap<CellStatus, usize> {
    let mut tally = BTreeMap::new();
    for s in statuses {
        *tally.entry(s).or_insert(0) += 1;
    }
    tally
}

pub fn status_named(name: &str) -> CellStatus {
    match name {
        "pass" => CellStatus::Pass,
        "fail" => CellStatus::Fail,
        "partial" => CellStatus::Partial,
        "unsupported" => CellStatus::Unsupported,
        "undefined" => CellStatus::Undefined,
        "untested" => CellStatus::Untested,
        "not-applicable" => CellStatus::NotApplicable,
        _ => panic!("unknown status {name:?}"),
    }
}

/// Checks `(status, chip, instruction, mode, model)` cells against [`expected_statuses`]: every
/// cell of both chips once, with its status.
pub fn assert_cells_match_sample(cells: impl IntoIterator<Item = (String, String, String, String, String)>) {
    let expected = expected_statuses();
    let mut seen = BTreeMap::new();
    for (status, arch, instruction, mode, model) in cells {
        let key = (arch, instruction, mode, model);
        let want = expected.get(&key).unwrap_or_else(|| panic!("unexpected cell {key:?}"));
        assert_eq!(status_named(&status), *want, "{key:?}");
        assert!(seen.insert(key.clone(), ()).is_none(), "cell {key:?} twice");
    }
    assert_eq!(seen.len(), expected.len(), "cells: {seen:?}");
}

/// The sample with a kernel accuracy section: the reference model's accuracy of the SFPI kernel
/// corpus on both chips, with one planted result beyond its bound (`exp` on Wormhole, 9000 ULP)
/// and a description that needs escaping.
pub fn sample_with_kernel_accuracy() -> Report {
    use harness_sfpu::accuracy::{DEFAULT_SEED, KernelAccuracy};
    use sfpu_reference::isa::Arch;
    let mut k = KernelAccuracy::measure(&[Arch::Blackhole, Arch::Wormhole], DEFAULT_SEED);
    let exp = k.kernels.iter_mut().find(|e| e.kernel == "exp").expect("exp is in the corpus");
    exp.per_chip[1].max_ulp = 9000.0;
    exp.per_chip[1].within_bound = false;
    exp.description = "e^x <script>alert(\"k\")</script> | & co".to_string();
    let mut r = sample();
    k.store(&mut r);
    r
}
