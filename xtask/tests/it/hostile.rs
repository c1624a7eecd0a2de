//! The hostile probe of xtask's chores (the others are the `sfpu-conformance` command's, in its
//! own tests): `vectors --check` against another seed summarises (the first differing vectors and
//! a count) instead of printing a 76 KB diff, and names paths from the repository root; `fuzz
//! --triage` of a file outside `fuzz/artifacts/<target>/` asks for the target instead of guessing.

use crate::common::{text, xtask};

/// Probe 10, `vectors --check`.
#[test]
fn a_vector_check_against_another_seed_is_a_summary() {
    let o = xtask(&["vectors", "--check", "--seed", "5"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.len() < 8_000, "{} bytes:\n{err}", err.len());
    assert!(!err.contains("xtask/.."), "{err}");
    assert!(
        err.contains("vectors/blackhole/SFPMAD.yaml is stale") || err.contains("more stale file(s)"),
        "{err}"
    );
    assert!(err.contains("file(s) are stale (") && err.contains("vector(s) differ"), "{err}");
}

/// `fuzz --triage FILE` of a file libFuzzer did not write into `fuzz/artifacts/<target>/`: the
/// target cannot be told, so the triage stops (exit status 2) asking for `--target`, replays
/// nothing and touches no regressions file; `--target` naming another target than the
/// artifact's directory is refused too. With `--target decode` the file is replayed by that
/// target's oracle, whose name is in what it prints.
#[test]
fn triage_names_its_target_and_never_guesses() {
    let dir = std::env::temp_dir().join(format!("xtask-triage-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("decode")).unwrap();
    let loose = dir.join("crash-somewhere");
    std::fs::write(&loose, [0x00, 0x00, 0x00, 0x84]).unwrap();
    let o = xtask(&["fuzz", "--triage", loose.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("which target wrote it?") && err.contains("--target"), "{err}");

    let in_decode = dir.join("decode").join("crash-x");
    std::fs::write(&in_decode, [0x00, 0x00, 0x00, 0x84]).unwrap();
    let o = xtask(&["fuzz", "--triage", in_decode.to_str().unwrap(), "--target", "diff_stream"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(String::from_utf8_lossy(&o.stderr).contains("but --target names diff_stream"), "{}", text(&o));

    // An SFPMAD word decodes: nothing to reproduce, and the line names the target.
    let o = xtask(&["fuzz", "--triage", loose.to_str().unwrap(), "--target", "decode"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("(decode): does not reproduce"), "{}", text(&o));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A newcomer's first `fuzz --smoke` wrote the seed corpora and only then said cargo-fuzz was
/// missing. Now, with no cargo-fuzz (here: a `PATH` and `CARGO_HOME` where cargo finds none), it
/// says so, and how to install it, before writing anything.
#[test]
fn a_fuzzing_run_without_cargo_fuzz_says_so_first() {
    let dir = std::env::temp_dir().join(format!("xtask-no-cargo-fuzz-{}", std::process::id()));
    let (bin, home) = (dir.join("bin"), dir.join("cargo-home"));
    std::fs::create_dir_all(&bin).unwrap();
    std::fs::create_dir_all(&home).unwrap();
    let _ = std::fs::remove_file(bin.join("cargo"));
    std::os::unix::fs::symlink(env!("CARGO"), bin.join("cargo")).unwrap();
    let o = std::process::Command::new(crate::common::XTASK)
        .args(["fuzz", "--smoke"])
        .current_dir(crate::common::root())
        .env("PATH", format!("{}:/usr/bin:/bin", bin.display()))
        .env("CARGO_HOME", &home)
        .env_remove("RUSTUP_TOOLCHAIN")
        .output()
        .unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("cargo-fuzz is not installed: run `cargo install cargo-fuzz --locked`"), "{err}");
    assert!(!err.contains("seed corpora written"), "{err}");
}
