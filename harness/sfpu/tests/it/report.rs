//! The report renderers: Markdown, HTML and JUnit XML, on a realistic report with every cell
//! status and failures full of characters that need escaping (`report_sample`). The HTML in
//! headless Chromium is `report_browser.rs`.

use harness_core::report::{CellStatus, Counts, Report, html, junit, markdown};
use harness_sfpu::accuracy::KernelAccuracy;
use quick_xml::Reader;
use quick_xml::events::{BytesStart, Event};

use crate::report_sample::*;

/// No character XML 1.0 forbids (nor any other control character but tab and line feed).
fn assert_no_control_characters(what: &str, s: &str) {
    if let Some((i, ch)) = s.char_indices().find(|(_, ch)| ch.is_control() && *ch != '\n' && *ch != '\t') {
        panic!("{what} carries control character {ch:?} at byte {i}: {:?}", &s[i.saturating_sub(40)..i + 1]);
    }
}

#[test]
fn the_sample_has_every_status() {
    let r = sample();
    assert_eq!(r.arch_names(), ["blackhole", "wormhole"]);
    for chip in &r.chips {
        for row in &chip.matrix {
            for m in MODELS {
                let key = (chip.arch.clone(), row.instruction.clone(), row.mode.clone(), m.to_string());
                assert_eq!(row.counts(m).status(), expected_statuses()[&key], "{key:?}");
            }
        }
        assert_eq!(chip.model_names(), MODELS);
    }
    let all = status_tally(expected_statuses().into_values());
    assert_eq!(all.len(), CellStatus::ALL.len(), "{all:?}");
    // The DUT refused Wormhole: unsupported there, failing only on Blackhole.
    assert_eq!(r.failing(), [("blackhole", DUT_NAME)]);
    // Refused, it compared nothing on Wormhole: that fails the run too, unless accepted.
    assert_eq!(r.unchecked(), [("wormhole", DUT_NAME)]);
    let verdict = r.overall_verdict();
    assert!(
        verdict.starts_with(
            "FAIL: failing model(s) by chip: blackhole: dut; external implementation(s) that compared \
             nothing, by chip (--accept-unchecked accepts that): wormhole: dut; dut: blackhole "
        ) && verdict.contains(" vectors compared (51 passed), wormhole compared nothing ("),
        "{verdict}"
    );
    // The section of the chip the DUT refused does not say a bare PASS either.
    let wormhole = r.chips.iter().find(|c| c.arch == "wormhole").unwrap().verdict_text();
    assert!(
        wormhole.starts_with("PASS on what each model was checked on (dut compared nothing): "),
        "{wormhole}"
    );
    assert!(!r.passes());
    let accepted = Report { accept_unchecked: true, ..r.clone() };
    assert!(accepted.overall_verdict().starts_with("FAIL: failing model(s) by chip: blackhole: dut; dut: "));
    assert!(!accepted.passes(), "the Blackhole failure still fails it");
}

// ---------------------------------------------------------------------------------------------
// Markdown

/// The cells of a GFM table row, split as GitHub does: a backslash escapes the punctuation after
/// it (including `|`), everywhere, code spans included.
fn gfm_cells(line: &str) -> usize {
    let mut pipes = 0;
    let mut chars = line.chars().peekable();
    while let Some(ch) = chars.next() {
        if ch == '\\' {
            if chars.peek().is_some_and(|n| n.is_ascii_punctuation()) {
                chars.next();
            }
        } else if ch == '|' {
            pipes += 1;
        }
    }
    pipes - 1
}

#[test]
fn markdown_has_every_section_and_status() {
    let md = markdown::render_with(&sample(), &harness_sfpu::sections::renderers());
    for heading in [
        "# SFPU conformance report: `blackhole`, `wormhole`",
        "## SFPU chip `blackhole`",
        "## SFPU chip `wormhole`",
        "### Summary",
        "#### Models",
        "#### Totals",
        "#### Cells by status",
        "### Matrix",
        "#### By instruction",
        "#### By mode",
        "### Failures",
        "### IEEE 754 characterisation",
        "### Spec notes",
        "#### Seed differences",
        "#### Where upstream overrides the first spec notes",
        "#### Clauses",
        "### Operand coverage",
        "### Timings",
        "## Timings (whole run)",
    ] {
        assert!(md.lines().any(|l| l == heading), "no heading {heading:?} in:\n{md}");
    }
    // Every per-chip section is there once per chip, Blackhole's before Wormhole's.
    for heading in ["### Summary", "### Matrix", "### Failures", "### IEEE 754 characterisation"] {
        assert_eq!(md.lines().filter(|l| *l == heading).count(), 2, "{heading}");
    }
    let (bh, wh) =
        (md.find("## SFPU chip `blackhole`").unwrap(), md.find("## SFPU chip `wormhole`").unwrap());
    assert!(bh < wh);
    assert!(md.contains("**Overall: ❌ FAIL: failing model(s) by chip: blackhole: dut; "), "{md}");
    let wormhole = &md[wh..];
    for needle in [
        "**Verdict: ✅ PASS** on what each model was checked on:",
        "| `SFPSHFT2` | `mod1=4` | `mod1=SUBVEC_SHFLSHR1` | ✅ pass | 🚫 unsupported |",
        "| Corpus | `vectors/wormhole` (`sfpu-vectors/1`): 40 files, 30 vectors; generator sfpu-conformance 0.1.0, seed 0x5eed |",
        "How `wormhole` departs from IEEE 754",
        "| `fma` | `positive-zero` | 7 | 10000 | 0.1 % | random sample |",
    ] {
        assert!(wormhole.contains(needle), "no {needle:?} in the Wormhole section:\n{wormhole}");
    }
    assert!(md.contains("**Verdict: ❌ FAIL**: failing model(s): `dut`."), "{md}");
    assert!(
        md.contains(r"| SFPABS \| -Inf | WormholeB0/SFPABS.md | keeps \<-Inf\> \& its sign |"),
        "the notes override, escaped, in:\n{md}"
    );
    for needle in [
        // Summary.
        "| Tool | sfpu-conformance 0.1.0 |",
        "| Corpus | `vectors/blackhole` (`sfpu-vectors/1`): 42 files, 1234 vectors; generator sfpu-conformance 0.1.0, seed 0x5eed |",
        "| Random campaign | seed `0x00c0ffee`, a time budget of 2.0 s per instruction and model; 100000 cases and 250 streams over all models |",
        "| Strictness | `silicon` (non-contractual locations compared) |",
        "| `dut` | dut | `./rtl-sim --mode=\"fast\" < in.bin > out.bin && echo 'ok'` | RTL sim \\<v2\\> \\& \"friends\" \\| nightly |",
        // Totals.
        "| `reference` | ✅ pass | 102 | 102 | 0 | 6 | 4 | 0 | 0 | 0 | 6000 | 0 | 0 | 0 | 0 |",
        "| `dut` | ❌ fail | 72 | 51 | 2 | 2 | 2 | 16 | 3 | 10 | 4100 | 3 | 0 | 350 | 64 |",
        // Cells by status: pass, partial, fail, unsupported, not applicable, undefined, untested,
        // cells.
        "| `reference` | 10 | 0 | 0 | 0 | 0 | 1 | 1 | 12 |",
        "| `dut` | 2 | 1 | 3 | 2 | 1 | 1 | 2 | 12 |",
        // The verdict's coverage, and what was not applicable.
        // A model's cells are the rows it had a case of: the reference every row but
        // `regressions`; the DUT not `sequences` either.
        // Compared: passed + failed (102 + 0; 51 + 2); 53 / 112 = 47.3 %.
        "- `reference`: 102 of 112 vectors compared (91.1 %), 102 passed; 11 of 11 cells",
        "- `dut`: 53 of 112 vectors compared (47.3 %), 51 passed; 7 of 10 cells (10 not applicable, 16 unsupported, 3 errors, 2 failed)",
        "| `dut` | 112 | 72 | 10 | 72 | 16 | 3 | 53 | 51 | 7 of 10 |",
        "| `SFPLOADMACRO` | 1 | ✅ 1 | ➖ 1 |",
        // Matrix by instruction.
        "| `SFPMAD` | 4 | ✅ 4 | ✅ 1 ❌ 3 |",
        "| `SFPLOADI` | 3 | ✅ 3 | 🌓 1 🚫 2 |",
        "| `SFPARECIP` | 2 | ✅ 1 ⚠️ 1 | ✅ 1 ⚠️ 1 |",
        "| `regressions` | 1 | ⬜ 1 | ⬜ 1 |",
        // Matrix by mode, with the label's pipe escaped.
        "| `SFPMAD` | `mod1=1` | `mod1=NEGATE_VA\\|NEGATE_VC` | ✅ pass | ❌ fail: 2/10 vectors |",
        "| `SFPMAD` | `mod1=2` | `mod1=INDIRECT_VA` | ✅ pass | ❌ fail: 3/1000 random |",
        "| `SFPMAD` | `mod1=4` | `mod1=INDIRECT_VD` | ✅ pass | ❌ fail: 3 errors |",
        "| `SFPLOADI` | `mod0=0` | `mod0=FP16B` | ✅ pass | 🚫 unsupported |",
        "| `SFPLOADI` | `mod0=1` | `mod0=FP16A` | ✅ pass | 🚫 unsupported |",
        "| `SFPLOADI` | `mod0=2` | `mod0=USHORT` | ✅ pass | 🌓 partial: 52 declined |",
        "| `SFPARECIP` | `mod1=3` | `mod1=3` | ⚠️ undefined | ⚠️ undefined |",
        "| `sequences` | `-` | `-` | ✅ pass | ⬜ untested |",
        "| `regressions` | `-` | `-` | ⬜ untested | ⬜ untested |",
        // IEEE, spec notes, coverage, timings.
        "| `fma` | `denormal-flush` | 1000 | 10000 | 10.0 % | random sample |",
        "| `store-bf16` | `rounding` | 250 | 500 | 50.0 % | vector operands | `0x3f808000 -> BH 0x3f80, IEEE 0x3f80 < 0x3f81` |",
        // The spec notes' rows link to their entries in docs/spec (anchors as GitHub forms them
        // from the headings "Seed 3: SFPCOMPC has no lane-enable check" and
        // "sfppushc-full-stack"); a topic this build does not know has no link.
        "| 3 | [SFPMAD with \\<denormal\\> operands \\& flags](docs/spec/sfpu-blackhole.md#seed-3-sfpcompc-has-no-lane-enable-check) | flushes them to zero, as upstream says |",
        "| [`sfppushc-full-stack`](docs/spec/sfpu-blackhole.md#sfppushc-full-stack) | undefined | `docs/spec/sfpu-blackhole.md#sfppushc-full-stack` | pushing onto a full stack | 4 |",
        "| `signalling-nan` | 0 ⚠️ not covered | 0.0 % |",
        "| random campaign | 62000 | 1 min 2 s |",
        "| total | 63500 | 1 min 3 s |",
    ] {
        assert!(md.contains(needle), "no {needle:?} in:\n{md}");
    }
}

#[test]
fn markdown_failures_carry_replay_details_and_snippet() {
    let md = markdown::render_with(&sample(), &harness_sfpu::sections::renderers());
    assert!(md.contains("4 failure(s)"), "{md}");
    assert!(md.contains("#### 1. `dut` · `SFPMAD` · `mod1=1` · `SFPMAD/mod1=1/denormal-a`"), "{md}");
    assert!(md.contains("#### 3. `dut` · `SFPMAD` · `mod1=4` · `SFPMAD/mod1=4/basic`"), "{md}");
    // The replay command, verbatim, in a shell block.
    assert!(
        md.contains(
            "```sh\ncargo xtask conform --dut 'dut=./rtl-sim --mode=\"fast\"' --only 'SFPMAD/mod1=1/denormal-a' \
             # a < b && c > d\n```\n"
        ),
        "{md}"
    );
    // The details contain a ``` line, so their fence must be longer; inside, everything is
    // verbatim but the control characters, which show as control pictures, and CRLF, now LF.
    let details = "````text\nSFPMAD/mod1=1/denormal-a: 2 lanes differ\nprogram: TTI_SFPMAD(0, 1, 2, 3, 1) \
                   <script>alert(\"x\")</script> & 'quoted' ]]>\n```\nlane | expected            | got\n3    | \
                   0x00000001 (1e-45)  | 0x00000000 (+0) $x$\n␛[31mred␛[0m ␀ ␇\n````\n";
    assert!(md.contains(details), "no {details:?} in:\n{md}");
    assert!(md.contains("```text\nDUT exited: signal 11 (SIGSEGV)␇\n```\n"), "{md}");
    // The YAML vector.
    assert!(
        md.contains("<summary>YAML vector for <code>vectors/blackhole/regressions.yaml</code></summary>")
    );
    assert!(md.contains("```yaml\n- id: regressions/random/0x1234\n  mode: mod1=2\n  program:\n"), "{md}");
    assert_no_control_characters("report.md", &md);
}

#[test]
fn markdown_tables_are_rectangular() {
    let md = markdown::render_with(&sample(), &harness_sfpu::sections::renderers());
    // The fence of the code block we are in: a block closes on a line of at least as many
    // backticks and nothing else.
    let mut fence: Option<usize> = None;
    let mut table: Vec<&str> = Vec::new();
    let mut tables = 0;
    for line in md.lines().chain([""]) {
        let ticks = line.len() - line.trim_start_matches('`').len();
        match fence {
            None if ticks >= 3 => fence = Some(ticks),
            Some(open) if ticks >= open && line.trim_start_matches('`').is_empty() => fence = None,
            _ => {}
        }
        if fence.is_none() && line.starts_with('|') {
            table.push(line);
            continue;
        }
        if let Some(header) = table.first() {
            tables += 1;
            let width = gfm_cells(header);
            assert!(table.len() >= 2 && table[1].starts_with("|-"), "{table:#?}");
            for l in &table {
                assert_eq!(gfm_cells(l), width, "row {l:?} of table {header:?}");
            }
        }
        table.clear();
    }
    // The run's table, Blackhole's 14, Wormhole's 10 (no spec notes), the run's timings.
    assert_eq!(tables, 1 + 14 + 10 + 1, "tables in:\n{md}");
}

// ---------------------------------------------------------------------------------------------
// JUnit

#[derive(Debug, Default)]
struct Suite {
    name: String,
    attributes: [usize; 4],
    counted: [usize; 4],
    cases: Vec<Case>,
}

#[derive(Debug, Default)]
struct Case {
    classname: String,
    name: String,
    outcome: Option<(String, String, String)>,
    text: String,
}

fn attribute(e: &BytesStart<'_>, name: &str) -> Option<String> {
    e.attributes()
        .map(|a| a.expect("well-formed attribute"))
        .find(|a| a.key.as_ref() == name.as_bytes())
        .map(|a| a.unescape_value().expect("escaped attribute").into_owned())
}

fn counts_of(e: &BytesStart<'_>) -> [usize; 4] {
    ["tests", "failures", "errors", "skipped"]
        .map(|a| attribute(e, a).unwrap_or_else(|| panic!("no {a}")).parse().expect("a number"))
}

/// Parses the JUnit XML, checking it is well formed, into the `<testsuites>` counts and suites.
fn parse_junit(xml: &str) -> ([usize; 4], Vec<Suite>) {
    let mut reader = Reader::from_str(xml);
    let mut stack: Vec<String> = Vec::new();
    let mut top = None;
    let mut suites: Vec<Suite> = Vec::new();
    let mut text = String::new();
    loop {
        let event = reader.read_event().unwrap_or_else(|e| panic!("at {}: {e}", reader.buffer_position()));
        match event {
            Event::Start(ref e) | Event::Empty(ref e) => {
                let name = String::from_utf8(e.name().as_ref().to_vec()).unwrap();
                match name.as_str() {
                    "testsuites" => top = Some(counts_of(e)),
                    "testsuite" => suites.push(Suite {
                        name: attribute(e, "name").unwrap(),
                        attributes: counts_of(e),
                        ..Suite::default()
                    }),
                    "testcase" => {
                        let suite = suites.last_mut().expect("testcase outside testsuite");
                        suite.counted[0] += 1;
                        suite.cases.push(Case {
                            classname: attribute(e, "classname").unwrap(),
                            name: attribute(e, "name").unwrap(),
                            ..Case::default()
                        });
                    }
                    "failure" | "error" | "skipped" => {
                        assert_eq!(
                            stack.last().map(String::as_str),
                            Some("testcase"),
                            "{name} outside testcase"
                        );
                        let suite = suites.last_mut().unwrap();
                        suite.counted[match name.as_str() {
                            "failure" => 1,
                            "error" => 2,
                            _ => 3,
                        }] += 1;
                        let case = suite.cases.last_mut().unwrap();
                        assert!(case.outcome.is_none(), "two outcomes in {case:?}");
                        let message = attribute(e, "message").expect("message");
                        let kind = attribute(e, "type").unwrap_or_default();
                        case.outcome = Some((name.clone(), message, kind));
                    }
                    _ => {}
                }
                if matches!(event, Event::Start(_)) {
                    stack.push(name);
                    text.clear();
                }
            }
            Event::Text(t) => text.push_str(&t.decode().unwrap()),
            Event::GeneralRef(r) => match r.resolve_char_ref().unwrap() {
                Some(ch) => text.push(ch),
                None => text.push_str(
                    quick_xml::escape::resolve_predefined_entity(&r.decode().unwrap()).expect("known entity"),
                ),
            },
            Event::End(e) => {
                let name = String::from_utf8(e.name().as_ref().to_vec()).unwrap();
                assert_eq!(stack.pop().as_deref(), Some(name.as_str()));
                if matches!(name.as_str(), "failure" | "error" | "system-out") {
                    let case = suites.last_mut().unwrap().cases.last_mut().unwrap();
                    case.text.push_str(&text);
                    case.text.push('\n');
                }
                text.clear();
            }
            Event::Eof => break,
            Event::CData(_) => panic!("no CDATA expected"),
            _ => {}
        }
    }
    assert!(stack.is_empty(), "unclosed {stack:?}");
    (top.expect("a <testsuites> element"), suites)
}

#[test]
fn junit_parses_with_the_right_counts() {
    let r = sample();
    let xml = junit::render(&r);
    assert!(xml.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites "), "{xml}");
    assert_no_control_characters("junit.xml", &xml);
    let (top, suites) = parse_junit(&xml);
    assert_eq!(
        suites.iter().map(|s| s.name.as_str()).collect::<Vec<_>>(),
        ["blackhole/reference", "blackhole/dut", "wormhole/reference", "wormhole/dut", "conform"]
    );
    // tests, failures, errors, skipped.
    assert_eq!(suites[0].attributes, [12, 0, 0, 1], "blackhole reference");
    assert_eq!(suites[1].attributes, [12, 2, 1, 5], "blackhole dut");
    assert_eq!(suites[2].attributes, [3, 0, 0, 0], "wormhole reference");
    assert_eq!(suites[3].attributes, [3, 0, 0, 3], "wormhole dut: refused, skipped, not failed");
    // The run's own suite: the DUT compared nothing on Wormhole, a failure of the run.
    assert_eq!(suites[4].attributes, [1, 1, 0, 0], "conform");
    assert_eq!(suites[4].counted, [1, 1, 0, 0], "conform");
    assert_eq!(top, [31, 3, 1, 9]);
    let suites = &suites[..4];
    let chip_of = |i: usize| &r.chips[i / 2];
    for (i, s) in suites.iter().enumerate() {
        assert_eq!(s.attributes, s.counted, "suite {} says one thing and holds another", s.name);
        let names: Vec<(&str, &str)> =
            s.cases.iter().map(|c| (c.classname.as_str(), c.name.as_str())).collect();
        let chip = chip_of(i);
        let expected: Vec<(String, String)> = chip
            .matrix
            .iter()
            .map(|row| (format!("{}.{}", chip.arch, row.instruction), row.mode.clone()))
            .collect();
        assert_eq!(names, expected.iter().map(|(a, b)| (a.as_str(), b.as_str())).collect::<Vec<_>>());
    }
    // Each status maps to its outcome.
    for (i, suite) in suites.iter().enumerate() {
        let (chip, model) = (chip_of(i), MODELS[i % 2]);
        for (case, row) in suite.cases.iter().zip(&chip.matrix) {
            let key = (chip.arch.clone(), row.instruction.clone(), row.mode.clone(), model.to_string());
            let status = expected_statuses()[&key];
            let element = case.outcome.as_ref().map(|(e, _, _)| e.as_str());
            let want = match status {
                CellStatus::Pass | CellStatus::Partial | CellStatus::Undefined => None,
                CellStatus::Fail if row.mode == "mod1=4" => Some("error"),
                CellStatus::Fail => Some("failure"),
                CellStatus::Unsupported | CellStatus::Untested | CellStatus::NotApplicable => Some("skipped"),
            };
            assert_eq!(element, want, "{model} {} {}", row.instruction, row.mode);
            assert!(case.text.contains(&format!("{model}: {}", status.name())), "{case:?}");
        }
    }
}

#[test]
fn junit_failures_carry_the_first_failure_escaped() {
    let xml = junit::render_with(&sample(), &harness_sfpu::sections::renderers());
    let (_, suites) = parse_junit(&xml);
    let dut = &suites[1];
    let case =
        |mode: &str| dut.cases.iter().find(|c| c.classname == "blackhole.SFPMAD" && c.name == mode).unwrap();

    let (element, message, kind) = case("mod1=1").outcome.clone().unwrap();
    assert_eq!((element.as_str(), kind.as_str()), ("failure", "vector"));
    assert_eq!(
        message,
        "2 of 10 vectors failed; first: SFPMAD/mod1=1/denormal-a (vector): SFPMAD/mod1=1/denormal-a: 2 lanes differ"
    );
    let text = &case("mod1=1").text;
    // The first failure's details, round-tripped through the escaping (control characters shown).
    for needle in [
        "program: TTI_SFPMAD(0, 1, 2, 3, 1) <script>alert(\"x\")</script> & 'quoted' ]]>\n",
        "␛[31mred␛[0m ␀ ␇",
        "Replay:\ncargo xtask conform --dut 'dut=./rtl-sim --mode=\"fast\"' --only 'SFPMAD/mod1=1/denormal-a' # a < b",
        "Regression vector (for vectors/blackhole/regressions.yaml):\n- id: regressions/SFPMAD/mod1=1/denormal-a\n",
        "dut: fail\nvectors: 10 run, 8 passed, 2 failed",
    ] {
        assert!(text.contains(needle), "no {needle:?} in {text:?}");
    }
    assert!(!text.contains("the second failure"), "{text}");

    let (element, message, kind) = case("mod1=2").outcome.clone().unwrap();
    assert_eq!((element.as_str(), kind.as_str()), ("failure", "random"));
    assert!(
        message.starts_with("3 of 1000 random cases differed; first: random/0x1234 (random)"),
        "{message}"
    );

    let (element, message, kind) = case("mod1=4").outcome.clone().unwrap();
    assert_eq!((element.as_str(), kind.as_str()), ("error", "error"));
    assert_eq!(message, "3 errors; first: SFPMAD/mod1=4/basic (error): DUT exited: signal 11 (SIGSEGV)␇");

    let skipped = dut.cases.iter().find(|c| c.classname == "blackhole.SFPLOADI").unwrap();
    assert_eq!(
        skipped.outcome.as_ref().map(|(e, m, _)| (e.as_str(), m.as_str())),
        Some(("skipped", "unsupported: the model declined every case (6 vectors, 0 random cases)"))
    );
    let declined =
        dut.cases.iter().find(|c| c.classname == "blackhole.SFPLOADI" && c.name == "mod0=1").unwrap();
    assert_eq!(
        declined.outcome.as_ref().map(|(e, m, _)| (e.as_str(), m.as_str())),
        Some(("skipped", "unsupported: the model declined every case (6 vectors, 300 random cases)"))
    );
    let partial =
        dut.cases.iter().find(|c| c.classname == "blackhole.SFPLOADI" && c.name == "mod0=2").unwrap();
    assert_eq!(partial.outcome, None, "what was compared passed");
    assert!(
        partial.text.contains("dut: partial")
            && partial.text.contains("100 compared, 0 differed, 0 errors, 50 declined")
    );
    // Attribute values keep their quotes and markup.
    assert!(xml.contains(
        "value=\"./rtl-sim --mode=&quot;fast&quot; &lt; in.bin &gt; out.bin &amp;&amp; echo &apos;ok&apos;\""
    ));
}

// ---------------------------------------------------------------------------------------------
// HTML

/// A `td` of the matrix, as rendered.
#[derive(Debug, PartialEq, Eq)]
struct Cell {
    class: String,
    arch: String,
    instruction: String,
    mode: String,
    model: String,
    title: String,
}

/// Parses the page as XML (it is written as polyglot markup), checking it is well formed and
/// returning the cells of the `#matrix` table.
fn parse_html(page: &str) -> Vec<Cell> {
    let mut reader = Reader::from_str(page);
    let mut stack: Vec<String> = Vec::new();
    let mut in_matrix = None;
    let mut matrices = 0;
    let mut cells = Vec::new();
    loop {
        let event = reader.read_event().unwrap_or_else(|e| panic!("at {}: {e}", reader.buffer_position()));
        match event {
            Event::Start(ref e) | Event::Empty(ref e) => {
                let name = String::from_utf8(e.name().as_ref().to_vec()).unwrap();
                assert!(
                    !["script", "img", "link", "iframe", "object", "embed"].contains(&name.as_str()),
                    "<{name}>"
                );
                for a in e.attributes() {
                    let a = a.expect("well-formed attribute");
                    let key = String::from_utf8(a.key.as_ref().to_vec()).unwrap();
                    let value = a.unescape_value().unwrap();
                    assert!(!key.starts_with("on") && key != "src", "attribute {key}={value:?}");
                    if key == "href" {
                        // In-page anchors, and the specification notes' entries as paths from the
                        // repository's root (`docs/report.md`, "Spec notes").
                        assert!(
                            value.starts_with('#')
                                || (value.starts_with("docs/spec/") && !value.contains(':')),
                            "external link {value:?}"
                        );
                    }
                }
                if attribute(e, "class").as_deref() == Some("matrix") {
                    assert_eq!(name, "table");
                    let arch = attribute(e, "data-arch").expect("data-arch");
                    assert_eq!(attribute(e, "id"), Some(format!("{arch}-matrix")));
                    matrices += 1;
                    in_matrix = Some(stack.len());
                }
                let class = attribute(e, "class").unwrap_or_default();
                if class.split(' ').any(|c| c == "cell") {
                    assert!(in_matrix.is_some(), "a cell outside the matrix: {class}");
                    assert_eq!(name, "td");
                    cells.push(Cell {
                        class,
                        arch: attribute(e, "data-arch").expect("data-arch"),
                        instruction: attribute(e, "data-instruction").expect("data-instruction"),
                        mode: attribute(e, "data-mode").expect("data-mode"),
                        model: attribute(e, "data-model").expect("data-model"),
                        title: attribute(e, "title").expect("title"),
                    });
                }
                if matches!(event, Event::Start(_)) {
                    stack.push(name);
                }
            }
            Event::End(e) => {
                let name = String::from_utf8(e.name().as_ref().to_vec()).unwrap();
                assert_eq!(stack.pop().as_deref(), Some(name.as_str()), "at {}", reader.buffer_position());
                if in_matrix == Some(stack.len()) {
                    in_matrix = None;
                }
            }
            Event::Eof => break,
            _ => {}
        }
    }
    assert!(stack.is_empty(), "unclosed {stack:?}");
    let chips = page.matches("<section class=\"chip\"").count();
    assert_eq!(matrices, chips, "one matrix table per chip section");
    cells
}

#[test]
fn html_is_well_formed_self_contained_and_escaped() {
    let r = sample();
    let page = html::render_with(&r, &harness_sfpu::sections::renderers());
    assert!(page.starts_with("<!DOCTYPE html>\n<html lang=\"en\">"), "{page}");
    assert_no_control_characters("report.html", &page);
    for forbidden in ["<script", "http://", "https://", "url(", "@import", "\u{a0}"] {
        assert!(!page.contains(forbidden), "{forbidden:?} in the page");
    }
    let cells = parse_html(&page);
    assert_eq!(cells.len(), r.chips.iter().map(|c| c.matrix.len()).sum::<usize>() * MODELS.len());
    assert_cells_match_sample(cells.iter().map(|c| {
        let (cell, status) = c.class.split_once(' ').expect("class=\"cell <status>\"");
        assert_eq!(cell, "cell");
        (status.to_string(), c.arch.clone(), c.instruction.clone(), c.mode.clone(), c.model.clone())
    }));
    let failing = cells.iter().find(|c| c.model == DUT_NAME && c.mode == "mod1=1").unwrap();
    assert_eq!(
        failing.title,
        "SFPMAD mod1=1 (mod1=NEGATE_VA|NEGATE_VC)\ndut: fail\nvectors: 10 run, 8 passed, 2 failed, 0 tainted, \
         0 undefined, 0 unsupported, 0 errors, 0 not applicable; random: 1000 compared, 0 differed, 0 errors, 0 declined, \
         0 not applicable\nfirst failure: SFPMAD/mod1=1/denormal-a (vector)"
    );
    // Failing cells link to their first failure, which exists.
    assert!(page.contains("data-status=\"fail\" title=\""), "{page}");
    assert!(
        page.contains("<a href=\"#blackhole-failure-1\">✗</a>")
            && page.contains("id=\"blackhole-failure-1\"")
    );
    assert!(
        page.contains("<a href=\"#blackhole-failure-3\">✗</a>")
            && page.contains("id=\"blackhole-failure-3\"")
    );
    // Markup from the report is text.
    assert!(page.contains(
        "program: TTI_SFPMAD(0, 1, 2, 3, 1) &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;quoted&#39; ]]&gt;"
    ));
    assert!(page.contains("␛[31mred␛[0m ␀ ␇"));
    assert!(page.contains("RTL sim &lt;v2&gt; &amp; &quot;friends&quot; | nightly"));
    for arch in ["blackhole", "wormhole"] {
        assert!(page.contains(&format!("<section class=\"chip\" id=\"{arch}-chip\" data-arch=\"{arch}\">")));
        for section in
            ["summary", "matrix-section", "failures", "ieee", "spec-notes", "operand-coverage", "timings"]
        {
            let id = format!("<section id=\"{arch}-{section}\">");
            assert_eq!(page.matches(&id).count(), 1, "no section {id}");
        }
    }
    assert!(page.contains("<section id=\"timings\">"), "the whole run's timings");
    assert!(page.contains("id=\"overall-verdict\"><span class=\"badge fail\">FAIL</span> FAIL: failing model(s) by chip: blackhole: dut"));
    assert!(page.contains("<code>positive-zero</code></td><td class=\"num\">7</td>"), "Wormhole's IEEE row");
    for needle in [
        "<code>denormal-flush</code></td><td class=\"num\">1000</td><td class=\"num\">10000</td><td class=\"num\">10.0 %</td>",
        "<td><a href=\"docs/spec/sfpu-blackhole.md#seed-3-sfpcompc-has-no-lane-enable-check\">SFPMAD with &lt;denormal&gt; operands &amp; flags</a></td>",
        "<td><a href=\"docs/spec/sfpu-blackhole.md#sfppushc-full-stack\"><code>sfppushc-full-stack</code></a></td>",
        "<td>SFPABS | -Inf</td>",
        "<code>signalling-nan</code></td><td class=\"num\">0</td>",
        "<td>random campaign</td><td class=\"num\">62000</td><td class=\"num\">1 min 2 s</td>",
        "<pre class=\"replay\"><code>cargo xtask conform --dut &#39;dut=./rtl-sim --mode=&quot;fast&quot;&#39;",
    ] {
        assert!(page.contains(needle), "no {needle:?}");
    }
}

#[test]
fn html_breaks_wide_instructions_into_lines() {
    // SFPCONFIG has 256 mode values; the matrix shows 16 to a line.
    let mut r = sample();
    r.chips.truncate(1);
    let pass = c(4, 4, 0, 0, 0);
    r.chips[0].matrix = (0..40)
        .map(|i| {
            let (vd, m) = (i / 16, i % 16);
            row(
                "SFPCONFIG",
                &format!("vd={vd},mod1={m}"),
                &format!("vd={vd},mod1=MOD1_{m}"),
                &[("reference", pass)],
            )
        })
        .collect();
    r.chips[0].failures.clear();
    let page = html::render_with(&r, &harness_sfpu::sections::renderers());
    let cells = parse_html(&page);
    assert_eq!(cells.len(), 40 * MODELS.len());
    assert!(
        cells.iter().all(|c| c.class == if c.model == "reference" { "cell pass" } else { "cell untested" })
    );
    assert_eq!(page.matches("<tr class=\"modes\">").count(), 3, "16 + 16 + 8 mode values");
    assert_eq!(page.matches("<th scope=\"col\" class=\"mode mono\"").count(), 40);
    assert!(page.contains("rowspan=\"9\"><code>SFPCONFIG</code>"), "three lines of a header and two models");
    assert!(page.contains("title=\"vd=2,mod1=7 = vd=2,mod1=MOD1_7\"><span>vd=2,mod1=MOD1_7</span>"));
}

/// The status rules of `docs/report.md`, declined random cases included: a model that declines
/// everything is `unsupported`, never `pass`.
#[test]
fn statuses_follow_the_documented_rules() {
    use CellStatus::*;
    let cases: [(Counts, CellStatus); 9] = [
        (Counts::default(), Untested),
        (Counts { random_unsupported: 40, ..Counts::default() }, Unsupported),
        (Counts { unsupported: 6, random_unsupported: 40, ..c(6, 0, 0, 0, 0) }, Unsupported),
        (Counts { unsupported: 6, ..c(6, 0, 0, 0, 0) }, Unsupported),
        (Counts { random_unsupported: 40, ..c(6, 6, 0, 0, 0) }, Partial),
        (Counts { random_unsupported: 1, ..c(0, 0, 0, 10, 0) }, Partial),
        (Counts { unsupported: 6, random_unsupported: 1, ..c(6, 0, 0, 10, 0) }, Partial),
        (Counts { random_unsupported: 40, ..c(6, 6, 0, 10, 1) }, Fail),
        (c(6, 6, 0, 10, 0), Pass),
    ];
    for (counts, want) in cases {
        assert_eq!(counts.status(), want, "{counts:?}");
    }
}

/// `Report::from_json` reads what `report.json` holds, ignores fields it does not know (adding
/// fields keeps the format number), defaults the fields added since the first version, and
/// refuses another format.
#[test]
fn reading_a_report_is_tolerant_but_checks_the_format() {
    let r = sample();
    let json = serde_json::to_string_pretty(&r).unwrap();
    assert_eq!(Report::from_json(&json).unwrap(), r);

    let mut v: serde_json::Value = serde_json::from_str(&json).unwrap();
    v["a_field_from_the_future"] = serde_json::json!({"x": 1});
    v["tool"]["build"] = serde_json::json!("nightly");
    v["chips"][0]["matrix"][0]["per_model"]["reference"]["random_retried"] = serde_json::json!(3);
    v["chips"][1]["failures_by_severity"] = serde_json::json!({"high": 2});
    // Unknown fields are ignored, but a section's are kept as its extensions: an instruction set's
    // part of a section this build does not know is shown as its JSON, never dropped.
    let read = Report::from_json(&v.to_string()).unwrap();
    let mut want = r.clone();
    want.chips[1].extensions.insert("failures_by_severity".into(), serde_json::json!({"high": 2}));
    assert_eq!(read, want, "unknown fields are ignored, a section's kept");
    assert_eq!(v["format"], "conform-report/4");
    assert_eq!(v["chips"][1]["arch"], "wormhole");
    assert_eq!(v["chips"][1]["isa"], "sfpu");

    // A format 2 file: SFPU sections without `isa`, the kernel accuracy at the top level. Its
    // sections are SFPU ones and the kernel accuracy is an extension.
    let mut v2: serde_json::Value = serde_json::from_str(&json).unwrap();
    v2["format"] = serde_json::json!("sfpu-conform-report/2");
    for chip in v2["chips"].as_array_mut().unwrap() {
        chip.as_object_mut().unwrap().remove("isa");
    }
    v2["kernel_accuracy"] = serde_json::json!({"seed": 1, "chips": [], "kernels": [], "errors": []});
    let read2 = Report::from_json(&v2.to_string()).unwrap();
    assert_eq!(read2.format, "conform-report/4");
    assert!(read2.chips.iter().all(|c| c.isa == "sfpu"));
    assert_eq!(read2.extensions["kernel_accuracy"]["seed"], 1);
    assert_eq!(read2.chips, r.chips);

    // A format 1 file: the Blackhole section at the top level with the report's own fields, and
    // without the fields added during format 1. It reads as a one-chip report; its timings are the
    // report's, its chip's are empty.
    let bh = serde_json::to_value(&r.chips[0]).unwrap();
    let mut old = bh.as_object().unwrap().clone();
    old.remove("timings_ms");
    old.insert("format".into(), serde_json::json!("sfpu-conform-report/1"));
    old.insert("tool".into(), serde_json::to_value(&r.tool).unwrap());
    old.insert("timings_ms".into(), serde_json::json!({"golden vectors": 812, "total": 63500}));
    old["spec"].as_object_mut().unwrap().remove("notes_sha256");
    old["spec"].as_object_mut().unwrap().remove("upstream_commits");
    old.remove("coverage");
    for row in old["matrix"].as_array_mut().unwrap() {
        for counts in row["per_model"].as_object_mut().unwrap().values_mut() {
            counts.as_object_mut().unwrap().remove("random_unsupported");
        }
    }
    let read = Report::from_json(&serde_json::Value::Object(old).to_string()).unwrap();
    assert_eq!(read.format, "conform-report/4");
    assert_eq!(read.chips[0].isa, "sfpu");
    assert_eq!(read.arch_names(), ["blackhole"]);
    assert_eq!(read.tool, r.tool);
    assert_eq!(read.timings_ms.get("total"), Some(&63500));
    let chip = &read.chips[0];
    assert!(chip.timings_ms.is_empty() && chip.coverage.is_empty());
    assert_eq!(chip.spec.notes_sha256, "");
    assert_eq!(chip.matrix[5].counts(DUT_NAME).random_unsupported, 0);
    assert_eq!(chip.matrix.len(), r.chips[0].matrix.len());
    assert_eq!(chip.failures, r.chips[0].failures);
    assert_eq!(read.failing(), [("blackhole", DUT_NAME)]);
    // It renders like a one-chip report of format 2.
    assert!(markdown::render(&read).contains("## SFPU chip `blackhole`"));

    // A format 3 file: every section carried the SFPU's fields, empty in an AMX one. They are
    // dropped from the AMX section; the SFPU sections keep theirs.
    let mut v3: serde_json::Value = serde_json::from_str(&json).unwrap();
    v3["format"] = serde_json::json!("conform-report/3");
    let mut amx = v3["chips"][1].clone();
    amx["isa"] = serde_json::json!("amx");
    amx["arch"] = serde_json::json!("m2");
    amx["ieee"] = serde_json::json!([]);
    amx["operand_coverage"] = serde_json::json!([]);
    amx["spec_notes"] = serde_json::json!({"seed_differences": [], "notes_overrides": [], "clauses": []});
    v3["chips"].as_array_mut().unwrap().push(amx);
    let read3 = Report::from_json(&v3.to_string()).unwrap();
    assert_eq!(read3.format, "conform-report/4");
    assert_eq!(read3.chips[..2], r.chips[..]);
    assert!(read3.chips[2].extensions.is_empty(), "{:?}", read3.chips[2].extensions);

    let mut other: serde_json::Value = serde_json::from_str(&json).unwrap();
    other["format"] = serde_json::json!("conform-report/5");
    let e = Report::from_json(&other.to_string()).unwrap_err();
    assert!(
        e.to_string().contains(
            "`conform-report/5` is none of `conform-report/4`, `conform-report/3`, `sfpu-conform-report/2`, \
             `sfpu-conform-report/1`"
        ),
        "{e}"
    );
    assert!(Report::from_json("{\"format\": 1}").is_err());
    assert!(Report::from_json("not json").is_err());
}

#[test]
fn a_report_survives_json_and_an_empty_one_renders() {
    let r = sample();
    let json = serde_json::to_string_pretty(&r).unwrap();
    let back: Report = serde_json::from_str(&json).unwrap();
    assert_eq!(back, r);
    assert_eq!(markdown::render(&back), markdown::render(&r));
    assert_eq!(html::render(&back), html::render(&r));
    assert_eq!(junit::render(&back), junit::render(&r));

    let empty = Report::default();
    let md = markdown::render(&empty);
    assert!(md.contains("NOTHING CHECKED"), "{md}");
    assert_eq!(parse_html(&html::render(&empty)).len(), 0);
    let (top, suites) = parse_junit(&junit::render(&empty));
    assert_eq!(top, [0; 4]);
    assert!(suites.is_empty(), "{suites:?}");

    // An empty chip section renders too.
    let one_empty = Report { chips: vec![Default::default()], ..Report::default() };
    let md = markdown::render(&one_empty);
    assert!(md.contains("The matrix is empty.") && md.contains("No failures."), "{md}");
    assert!(md.contains("**Verdict: ✅ PASS**"), "{md}");
    assert_eq!(parse_html(&html::render(&one_empty)).len(), 0);
}

/// An interrupted run's report says so before its verdict in every form, and JUnit counts it as
/// an error of the run (an interrupted run still writes a report).
#[test]
fn an_incomplete_report_says_so_everywhere() {
    let mut r = sample();
    r.incomplete = Some("interrupted by SIGINT after 3.0 s; not done: the IEEE 754 characterisation".into());
    let md = markdown::render(&r);
    let verdict = md.find("**Verdict").expect("a verdict");
    let incomplete = md.find("**INCOMPLETE**: interrupted by SIGINT").expect("the incomplete line");
    assert!(incomplete < verdict, "the incomplete line comes first");
    let page = html::render_with(&r, &harness_sfpu::sections::renderers());
    assert!(page.contains("INCOMPLETE</span> interrupted by SIGINT after 3.0 s"), "html");
    let xml = junit::render(&r);
    let (totals, suites) = parse_junit(&xml);
    let run = suites.iter().find(|s| s.name == "conform").expect("a conform suite");
    // The error, beside the sample's failure (its DUT compared nothing on Wormhole).
    assert_eq!(run.attributes, [2, 1, 1, 0]);
    assert_eq!(run.counted, [2, 1, 1, 0]);
    let (plain_totals, _) = parse_junit(&junit::render(&sample()));
    assert_eq!(totals[2], plain_totals[2] + 1, "one more error in all");
    let back = Report::from_json(&serde_json::to_string(&r).unwrap()).unwrap();
    assert_eq!(back.incomplete, r.incomplete);
    assert!(!serde_json::to_string(&sample()).unwrap().contains("incomplete"), "absent when complete");
}

/// The verdict carries every model's coverage in every form, the reasons are kept with their counts
/// and examples (Markdown, HTML escaped, JUnit skipped messages), and a cell whose every case was
/// not applicable has its own status, skipped in JUnit with the reason.
#[test]
fn verdict_coverage_and_reasons_in_every_form() {
    use harness_core::report::{ModelCoverage, ReasonEntry};
    let mut report = sample();
    report.chips.truncate(1);
    let r = &mut report.chips[0];
    r.failures.clear();
    for row in &mut r.matrix {
        let d = row.per_model.entry(DUT_NAME.to_string()).or_default();
        *d = Counts { not_applicable: 4, random_not_applicable: 7, ..Counts::default() };
        row.reasons.insert(DUT_NAME.to_string(), "not applicable: requires dest-remap (not declared)".into());
    }
    r.totals = harness_core::matrix::totals(&r.matrix);
    r.coverage = vec![
        ModelCoverage {
            model: "reference".into(),
            vectors: 40,
            applicable: 40,
            compared: 40,
            passed: 40,
            cells: 8,
            cells_covered: 8,
            ..Default::default()
        },
        ModelCoverage {
            model: DUT_NAME.into(),
            vectors: 40,
            not_applicable: 32,
            applicable: 8,
            unsupported: 3,
            compared: 5,
            passed: 5,
            cells: 8,
            cells_covered: 2,
            not_applicable_by_feature: [("dest-remap".to_string(), 32)].into_iter().collect(),
            ..Default::default()
        },
    ];
    r.reasons = vec![ReasonEntry {
        model: DUT_NAME.into(),
        kind: "unsupported".into(),
        reason: "no <LOADMACRO> & co".into(),
        pattern: "no <LOADMACRO> & co".into(),
        count: 3,
        examples: vec!["SFPMAD/mod1=0/a".into(), "SFPMAD/mod1=0/b".into()],
    }];
    // The verdict text says PASS next to the coverage, never alone.
    let v = r.verdict_text();
    // (The matrix gives the DUT no compared case, so the head says it compared nothing.)
    assert!(v.starts_with("PASS on what each model was checked on (dut compared nothing):"), "{v}");
    assert!(
        v.contains(
            "dut 5 of 40 vectors compared (12.5 %), 5 passed; 2 of 8 cells (32 not applicable, 3 unsupported)"
        ),
        "{v}"
    );
    let md = markdown::render(&report);
    let r = &report.chips[0];
    assert!(
        md.contains("\n- `dut`: 5 of 40 vectors compared (12.5 %), 5 passed; 2 of 8 cells (32 not applicable, 3 unsupported)\n"),
        "{md}"
    );
    assert!(md.contains("| feature `dest-remap` | 32 |"), "{md}");
    assert!(
        md.contains(
            "| `dut` | unsupported | no \\<LOADMACRO\\> \\& co | 3 | `SFPMAD/mod1=0/a`, `SFPMAD/mod1=0/b` |"
        ),
        "{md}"
    );
    let page = html::render(&report);
    assert!(page.contains("<li><code>dut</code>: 5 of 40 vectors compared (12.5 %), 5 passed; 2 of 8 cells (32 not applicable, 3 unsupported)</li>"), "{page}");
    assert!(page.contains("no &lt;LOADMACRO&gt; &amp; co"), "escaped");
    assert!(page.contains("class=\"cell not-applicable"), "the status has its colour");
    let xml = junit::render(&report);
    assert!(xml.contains("<skipped message=\"unsupported: no &lt;LOADMACRO&gt; &amp; co (3 case(s); e.g. SFPMAD/mod1=0/a, SFPMAD/mod1=0/b)\"/>"), "{xml}");
    assert!(xml.contains("<skipped message=\"not applicable: the model&apos;s declaration covers no case (4 vectors, 7 random cases); the first: not applicable: requires dest-remap (not declared)\"/>"), "{xml}");
    assert_eq!(r.matrix[0].counts(DUT_NAME).status(), CellStatus::NotApplicable);
}

/// The kernel accuracy section in every form: the JSON carries the numbers and survives a round
/// trip, the Markdown has a rectangular table with a row per kernel naming the planted kernel
/// beyond its bound, the HTML stays well-formed polyglot markup with a chart per chip, a bar per
/// kernel and chip, and only the planted bar red. The sample's renderings without the section do
/// not mention it.
#[test]
fn kernel_accuracy_in_every_form() {
    let r = sample_with_kernel_accuracy();
    let k = KernelAccuracy::of(&r).unwrap();
    let kernels = k.kernels.len();
    assert!(kernels >= 25, "{kernels} numerical kernels");

    let json = serde_json::to_string(&r).unwrap();
    let back: Report = serde_json::from_str(&json).unwrap();
    assert_eq!(back, r);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let exp = v["extensions"]["kernel_accuracy"]["kernels"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["kernel"] == "exp")
        .unwrap();
    assert_eq!(exp["per_chip"][1]["arch"], "wormhole");
    assert_eq!(exp["per_chip"][1]["max_ulp"], 9000.0);
    assert_eq!(exp["per_chip"][1]["within_bound"], false);
    assert!(exp["per_chip"][0]["histogram"].as_array().unwrap().len() > 5);
    assert!(exp["chip_difference"]["samples"].as_u64().unwrap() > 0);

    // Without the SFPU's renderer the section is shown as its JSON, not dropped.
    let plain = markdown::render(&r);
    assert!(
        plain.contains("## kernel\\_accuracy") && plain.contains("```json"),
        "the data is shown:\n{plain}"
    );
    assert!(html::render(&r).contains("<section id=\"kernel-accuracy\"><h2>kernel_accuracy</h2>"));

    let md = markdown::render_with(&r, &harness_sfpu::sections::renderers());
    assert_no_control_characters("report.md", &md);
    let start = md.find("## Kernel accuracy").expect("a kernel accuracy section");
    let table: Vec<&str> =
        md[start..].lines().skip_while(|l| !l.starts_with('|')).take_while(|l| l.starts_with('|')).collect();
    assert_eq!(table.len(), 2 + kernels, "{table:#?}");
    let width = gfm_cells(table[0]);
    assert_eq!(width, 2 + 3 * 2 + 1, "kernel, unit, three columns per chip, the chip difference");
    for l in &table {
        assert_eq!(gfm_cells(l), width, "{l:?}");
    }
    let exp_row = table.iter().find(|l| l.starts_with("| `exp` |")).unwrap();
    assert!(exp_row.contains("| 9000 |") && exp_row.contains("**beyond**"), "{exp_row}");
    let beyond = table.iter().filter(|l| l.contains("**beyond**")).count();
    assert_eq!(beyond, 1, "only the planted row is beyond its bound");
    assert!(md.contains("e^x \\<script\\>"), "the description is escaped");
    assert!(
        !markdown::render_with(&sample(), &harness_sfpu::sections::renderers())
            .contains("## Kernel accuracy")
    );

    let page = html::render_with(&r, &harness_sfpu::sections::renderers());
    assert_no_control_characters("report.html", &page);
    assert!(!page.contains("<script"));
    parse_html(&page);
    assert!(page.contains("<section id=\"kernel-accuracy\">"));
    assert!(page.contains("<a href=\"#kernel-accuracy\">"));
    for chip in ["blackhole", "wormhole"] {
        assert_eq!(page.matches(&format!("<svg class=\"accuracy-chart\" data-chip=\"{chip}\"")).count(), 1);
    }
    assert_eq!(page.matches("<rect class=\"acc-max\"").count(), 2 * kernels);
    assert_eq!(page.matches("data-status=\"beyond\"").count(), 1);
    assert!(page.contains("data-kernel=\"exp\" data-status=\"beyond\" data-ulp=\"9000\""));
    assert!(page.contains("e^x &lt;script&gt;alert(&quot;k&quot;)&lt;/script&gt; | &amp; co"));
    let without = html::render(&sample());
    assert!(!without.contains("<section id=\"kernel-accuracy\">") && !without.contains("#kernel-accuracy"));
}
