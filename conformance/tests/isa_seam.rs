//! The layout is the architecture: the ISA-neutral core of this crate (every source file outside
//! `src/sfpu/` and `src/amx/`) and the fuzz targets name no type of an instruction set and no
//! crate of one; only the per-ISA folders do. Adding a third instruction set then touches only its
//! own folder and the command line's list.
//!
//! The same check by hand:
//! `grep -rnE 'sfpu_reference|sfpu_fastpath|amx_reference|amx_fastpath|sfpi::|crate::(sfpu|amx)' conformance/src --include=*.rs | grep -vE '^conformance/src/(sfpu|amx)/' | grep -vE ':[0-9]+:\s*//'`

use std::path::{Path, PathBuf};

/// What the core must not name in code: the instruction sets' crates, the per-ISA modules, and
/// the instruction sets' own types.
const FORBIDDEN: &[&str] = &[
    "sfpu_reference",
    "sfpu_fastpath",
    "amx_reference",
    "amx_fastpath",
    "sfpi::",
    "crate::sfpu",
    "crate::amx",
    "super::sfpu",
    "super::amx",
    "Arch::",
    "Opcode",
    "Operand",
    "LaneWidth",
    "LReg",
    "Blackhole",
    "Wormhole",
];

/// Whether `code` has `name` as a whole name: not inside a longer identifier (`OperandClass` does
/// not name `Operand`).
fn names(code: &str, name: &str) -> bool {
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    code.match_indices(name).any(|(at, _)| {
        let before = code[..at].chars().next_back();
        let after = code[at + name.len()..].chars().next();
        let glued_before = before.is_some_and(ident);
        let glued_after = name.ends_with(ident) && after.is_some_and(ident);
        !glued_before && !glued_after
    })
}

/// `line` with the text of its string literals removed (headings such as "Operand coverage" are
/// words, not names).
fn without_strings(line: &str) -> String {
    let mut out = String::new();
    let mut in_string = false;
    let mut escaped = false;
    for c in line.chars() {
        match (in_string, c) {
            (true, _) if escaped => escaped = false,
            (true, '\\') => escaped = true,
            (_, '"') => {
                in_string = !in_string;
                out.push('"');
            }
            (true, _) => {}
            (false, c) => out.push(c),
        }
    }
    out
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir).expect("readable source folder").flatten().collect();
    entries.sort_by_key(|e| e.path());
    for e in entries {
        let p = e.path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The lines of `path` that are code (not comments) and name something of `FORBIDDEN`.
fn offending(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).expect("readable source file");
    text.lines()
        .enumerate()
        .filter(|(_, line)| {
            let code = line.trim_start();
            !code.starts_with("//")
        })
        .filter_map(|(i, line)| {
            let code = without_strings(line.split("//").next().unwrap_or(""));
            let code = code.as_str();
            FORBIDDEN
                .iter()
                .find(|f| names(code, f))
                .map(|f| format!("{}:{}: names `{f}`: {}", path.display(), i + 1, line.trim()))
        })
        .collect()
}

fn core_files() -> Vec<PathBuf> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut all = Vec::new();
    rust_files(&src, &mut all);
    all.into_iter()
        .filter(|p| {
            let rel = p.strip_prefix(&src).expect("under src");
            !rel.starts_with("sfpu") && !rel.starts_with("amx")
        })
        .collect()
}

#[test]
fn the_core_names_no_instruction_set() {
    let files = core_files();
    // The core is there: the seam, the checks, the report and the DUT process.
    for expected in ["isa.rs", "check.rs", "rng.rs", "report/mod.rs", "dut/process.rs"] {
        assert!(files.iter().any(|p| p.ends_with(expected)), "the core has {expected} (files: {files:?})");
    }
    let bad: Vec<String> = files.iter().flat_map(|p| offending(p)).collect();
    assert!(bad.is_empty(), "the ISA-neutral core names an instruction set:\n{}", bad.join("\n"));
}

#[test]
fn the_fuzz_targets_name_no_instruction_set_type() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz/fuzz_targets");
    let mut files = Vec::new();
    rust_files(&dir, &mut files);
    assert!(files.len() >= 5, "{files:?}");
    let bad: Vec<String> = files.iter().flat_map(|p| offending(p)).collect();
    assert!(bad.is_empty(), "a fuzz target names an instruction set's type:\n{}", bad.join("\n"));
}

/// The check itself finds what it looks for (it is not a test that cannot fail).
#[test]
fn the_check_finds_a_forbidden_name() {
    let dir = std::env::temp_dir().join(format!("isa-seam-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("bad.rs");
    std::fs::write(
        &f,
        "// sfpu_reference in a comment is fine\nuse sfpu_reference::State;\nlet a = Arch::Blackhole; // x\n\
         struct OperandClass;\nfn f(o: Operand) {}\n",
    )
    .unwrap();
    let bad = offending(&f);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(bad.len(), 3, "{bad:?}");
    assert!(bad[0].contains(":2:") && bad[1].contains(":3:") && bad[2].contains(":5:"), "{bad:?}");
}
