//! The loader refuses bad files with the file and line of the problem, reads the previous formats
//! (computing `requires`, leaving out of `post` what `skip` covers), refuses a `requires` list
//! that is not the computed one, a `post` that states a value where `skip` covers, and a clause
//! `section` that is not the clause's entry (or an earlier version's label), and the runner
//! reports a failing vector with the instruction, the differing lanes and both sides' bits.

use std::path::Path;

use harness_sfpu::Reference;
use harness_sfpu::vectors::emit::write_file;
use harness_sfpu::vectors::{Filter, LoadError, Status, Strictness, parse_file, run_vector};

const GOOD: &str = "\
format: sfpu-vectors/3
arch: blackhole
file: SFPMOV
vectors:
- id: SFPMOV/mod1=0/example
  mode: mod1=0
  requires: []
  program:
  - word: 0x7c000120
    text: TTI_SFPMOV(0, 1, 2, 0)
  pre:
    LReg:
      1: 0x3f800000
  post:
    LReg:
      2: 0x3f800000
";

fn parse(text: &str) -> Result<harness_sfpu::vectors::VectorFile, Vec<LoadError>> {
    parse_file(Path::new("SFPMOV.yaml"), text)
}

fn error_of(text: &str) -> String {
    match parse(text) {
        Ok(_) => panic!("accepted:\n{text}"),
        Err(errors) => errors.iter().map(|e| e.to_string()).collect::<Vec<_>>().join("\n"),
    }
}

#[test]
fn a_good_file_loads_and_passes() {
    let file = parse(GOOD).unwrap();
    let r = run_vector(&Reference, &file, &file.vectors[0], Strictness::Silicon);
    assert_eq!(r.status, Status::Pass);
}

#[test]
fn unknown_fields_are_refused_with_their_line() {
    let e = error_of(&GOOD.replace("  mode: mod1=0\n", "  mode: mod1=0\n  colour: blue\n"));
    assert!(e.contains("unknown field `colour`") && e.contains("line 7"), "{e}");
    let e = error_of(&GOOD.replace("requires: []", "requires: [no-such-feature]"));
    assert!(e.contains("unknown feature `no-such-feature`"), "{e}");
    let e = error_of(&GOOD.replace("      1: 0x3f800000", "      1: 0x3f800000\n    Bogus: 1"));
    assert!(e.contains("unknown field `Bogus`"), "{e}");
}

#[test]
fn malformed_hex_is_refused_with_its_line() {
    let e = error_of(&GOOD.replace("1: 0x3f800000", "1: 0x3fz00000"));
    assert!(e.contains("not a number") && e.contains("line 13"), "{e}");
    let e = error_of(&GOOD.replace("1: 0x3f800000", "1: 0x1ffffffff"));
    assert!(e.contains("does not fit"), "{e}");
}

#[test]
fn duplicate_ids_are_refused_with_the_second_line() {
    let body = GOOD.split_once("vectors:\n").unwrap().1;
    let e = error_of(&format!("{GOOD}{body}"));
    assert!(e.contains("duplicate id `SFPMOV/mod1=0/example`") && e.contains(":17:"), "{e}");
}

#[test]
fn inconsistent_vectors_are_refused() {
    for (from, to, want) in [
        (
            "format: sfpu-vectors/3",
            "format: sfpu-vectors/4",
            "is not `sfpu-vectors/3` (or `sfpu-vectors/2`, `sfpu-vectors/1`)",
        ),
        ("file: SFPMOV", "file: SFPNOT", "does not match the file name"),
        ("id: SFPMOV/", "id: SFPNOT/", "must be `SFPMOV/<name>`"),
        ("text: TTI_SFPMOV(0, 1, 2, 0)", "text: TTI_SFPMOV(0, 1, 3, 0)", "not the word 0x7c000120"),
        ("word: 0x7c000120", "word: 0x7c0001ff", "not the word"),
        ("word: 0x7c000120", "word: 0x7cf00120", "does not use bits"),
        ("      1: 0x3f800000", "      8: 0", "constant register"),
        ("      1: 0x3f800000", "      1: [0x1, 0x2]", "exactly 32"),
    ] {
        let e = error_of(&GOOD.replace(from, to));
        assert!(e.contains(want), "{from} -> {to}: {e}");
    }
}

/// `requires` is computed, never trusted: a `/3` vector must list it, and list exactly the
/// computed features. Here the pre-state has a `ROW_MASK` (column 0, row 1) that SFPMOV's lane
/// enable reads (vectors/README.md, Features), so the vector requires `row-mask` and nothing else.
#[test]
fn requires_is_checked_against_the_computed_list() {
    let e = error_of(&GOOD.replace("  requires: []\n", ""));
    assert!(e.contains("every sfpu-vectors/3 vector lists `requires`"), "{e}");
    let e = error_of(&GOOD.replace("  requires: []\n", "").replace("/3", "/2"));
    assert!(e.contains("every sfpu-vectors/2 vector lists `requires`"), "{e}");
    let masked = GOOD.replace("      1: 0x3f800000\n", "      1: 0x3f800000\n    LaneConfig: 0x02000\n");
    let e = error_of(&masked);
    assert!(e.contains("`requires` lists [], but the vector requires [row-mask]"), "{e}");
    assert!(parse(&masked.replace("requires: []", "requires: [row-mask]")).is_ok());
    let e = error_of(&GOOD.replace("requires: []", "requires: [prng]"));
    assert!(e.contains("lists [prng], but the vector requires []"), "{e}");
}

/// The first format still loads: its vectors have no `requires` (it is refused there), and the
/// loader fills in the computed list.
#[test]
fn format_1_files_load_with_computed_requires() {
    let v1 = GOOD.replace("format: sfpu-vectors/3", "format: sfpu-vectors/1").replace("  requires: []\n", "");
    let file = parse(&v1).unwrap();
    assert_eq!(file.vectors[0].requires, Some(vec![]));
    // Read, it is a current file: written back (with `requires`), it says format 3 and loads as
    // the same file; the written text is the format-3 original (found by the vectors_load fuzz
    // target: the writer kept `sfpu-vectors/1` and wrote `requires`, which format 1 refuses).
    assert_eq!(file.format, "sfpu-vectors/3");
    let written = write_file(&file, &[]);
    assert_eq!(parse(&written), Ok(file.clone()), "{written}");
    assert_eq!(parse(GOOD), Ok(file));
    let masked = v1.replace(
        "      1: 0x3f800000\n",
        "      1: 0x3f800000\n    UseLaneFlagsForLaneEnable: 0x1\n    LaneFlags: 0x1\n",
    );
    let file = parse(&masked).unwrap();
    assert_eq!(
        file.vectors[0].requires.as_deref().map(|r| r.iter().map(|f| f.id()).collect::<Vec<_>>()),
        Some(vec!["use-lane-flags-ragged"])
    );
    let e = error_of(&GOOD.replace("format: sfpu-vectors/3", "format: sfpu-vectors/1"));
    assert!(e.contains("`requires` is not a field of sfpu-vectors/1"), "{e}");
}

/// `post` states no value where `skip` covers (vectors/README.md, "Applying post"): a `/3` vector
/// whose `post` does is refused, naming the vector's line, the part and the lanes; `post` leaves
/// out a register `skip` covers in every lane and gives `null` to a lane it covers, and such a
/// vector loads and passes (the reference model's value there is not compared). A `/2` file,
/// written before the rule, loads with those values left out, as a current file (and may hold
/// no `null`). A `null` in `pre` is refused: every location of the initial state has a value.
#[test]
fn a_post_value_where_skip_covers_is_refused() {
    let with_skip = |text: &str, skip: &str| format!("{text}  skip:\n{skip}");
    // SFPMOV writes LReg[2] in every lane; skip covers all of it, or lanes 0 and 1.
    let all_of_2 = "    LReg:\n      2: 0xffffffff\n";
    let e = error_of(&with_skip(GOOD, all_of_2));
    assert!(
        e.contains(
            "SFPMOV.yaml:5: SFPMOV/mod1=0/example: post states a value where skip covers (not promised): \
                    LReg[2] lanes 0xffffffff; leave out of post"
        ),
        "{e}"
    );
    let two_lanes = "    LReg:\n      2: 0x00000003\n";
    let e = error_of(&with_skip(GOOD, two_lanes));
    assert!(e.contains("LReg[2] lanes 0x00000003"), "{e}");
    let nulls = format!("      2: [null, null{}]\n", ", 0x3f800000".repeat(30));
    let partly = with_skip(&GOOD.replace("      2: 0x3f800000\n", &nulls), two_lanes);
    let file = parse(&partly).unwrap_or_else(|e| panic!("{e:?}\n{partly}"));
    let r = run_vector(&Reference, &file, &file.vectors[0], Strictness::Silicon);
    assert_eq!(r.status, Status::Pass);
    let left_out =
        with_skip(&GOOD.replace("  post:\n    LReg:\n      2: 0x3f800000\n", "  post: {}\n"), all_of_2);
    assert!(parse(&left_out).is_ok(), "{:?}", parse(&left_out).err());
    // A lane mask, Dst, Addressing, everything: each named.
    for (post, skip, want) in [
        ("    LaneFlags: 0x00000001\n", "    LaneFlags: 0x00000001\n", "LaneFlags lanes 0x00000001"),
        ("    Addressing: {}\n", "    Addressing: true\n", "Addressing"),
        ("", "    all: true\n", "LReg (skip: all)"),
    ] {
        let e = error_of(&with_skip(&GOOD.replace("  post:\n", &format!("  post:\n{post}")), skip));
        assert!(e.contains(&format!("(not promised): {want}")), "{post} {skip}: {e}");
    }
    // Format 2: the value skip covers is left out, and the file reads as format 3.
    let v2 = with_skip(&GOOD.replace("sfpu-vectors/3", "sfpu-vectors/2"), all_of_2);
    let file = parse(&v2).unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(file.format, "sfpu-vectors/3");
    assert!(file.vectors[0].post.LReg.is_empty(), "{:?}", file.vectors[0].post);
    assert_eq!(parse(&write_file(&file, &[])), Ok(file.clone()));
    assert_eq!(parse(&left_out), Ok(file));
    let e = error_of(&partly.replace("sfpu-vectors/3", "sfpu-vectors/2"));
    assert!(
        e.contains("post: LReg.2: lane 0 has no value (null), which only sfpu-vectors/3 files may write"),
        "{e}"
    );
    // No lane of `pre` goes without a value.
    let e =
        error_of(&GOOD.replace("      1: 0x3f800000\n", &format!("      1: [null{}]\n", ", 0x1".repeat(31))));
    assert!(e.contains("pre: LReg.1: lane 0 has no value (null)"), "{e}");
}

#[test]
fn a_failing_vector_reports_lanes_and_bits() {
    let file = parse(&GOOD.replace("      2: 0x3f800000", "      2: 0x3f800001")).unwrap();
    let r = run_vector(&Reference, &file, &file.vectors[0], Strictness::Silicon);
    let Status::Fail(f) = r.status else { panic!("expected a failure, got {:?}", r.status) };
    assert_eq!(f.differing.lreg(2), 0xFFFF_FFFF);
    for want in [
        "SFPMOV/mod1=0/example",
        "0x7c000120  TTI_SFPMOV(0, 1, 2, 0)",
        "LReg[2]",
        // Each side read as FP32 and as a two's-complement integer (1.0 is 0x3f800000).
        "expected 0x3f800001 (1.0000001 | i32 1065353217), got 0x3f800000 (1.0 | i32 1065353216)",
    ] {
        assert!(f.report.contains(want), "missing `{want}` in:\n{}", f.report);
    }
}

#[test]
fn filters_select_by_id_prefix_tag_and_mode() {
    let file = parse(GOOD).unwrap();
    let v = &file.vectors[0];
    assert!(Filter::parse("").selects(v));
    assert!(Filter::parse("SFPMOV").selects(v));
    assert!(Filter::parse("SFPMOV/mod1=0").selects(v));
    assert!(!Filter::parse("SFPMO").selects(v));
    assert!(!Filter::parse("SFPMOV,-SFPMOV/mod1=0").selects(v));
    assert!(Filter::parse("SFPMAD,mod1=0").selects(v));
}

/// A clause's `section` is its entry in the specification notes; files of earlier versions carry
/// the numbered label of the notes of their time instead (vectors/README.md, "Comparing
/// `outcome`"), and load too; a section naming another entry is refused.
#[test]
fn a_clause_section_is_its_entry_or_an_earlier_label() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../vectors/blackhole/SFPMOV.yaml");
    let text = std::fs::read_to_string(&path).expect("vectors/blackhole/SFPMOV.yaml");
    let current = "section: docs/spec/sfpu-blackhole.md#sfpmov-reserved-mod1";
    assert!(text.contains(current), "no vector of SFPMOV's reserved Mod1 bit");
    assert!(parse(&text).is_ok());
    assert!(parse(&text.replace(current, "section: §6.2 item 11")).is_ok());
    let e = error_of(&text.replace(current, "section: docs/spec/sfpu-blackhole.md#backdoor-load"));
    assert!(
        e.contains(
            "clause `sfpmov-reserved-mod1` is non-contractual in docs/spec/sfpu-blackhole.md#sfpmov-reserved-mod1"
        ),
        "{e}"
    );
}
