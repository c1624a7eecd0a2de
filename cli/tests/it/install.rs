//! The installed command works from anywhere: `cargo install --path cli --root DIR`, then, from an
//! empty directory outside the repository, `DIR/bin/sfpu-conformance conform --out OUT` exits 0
//! and writes the report `cargo xtask conform` writes, apart from the tool, the paths and the
//! timings (its normalised digest is the recorded one, as the built binary's is: `digest.rs`).
//!
//! The install is the real one. CI installs first, with the workspace's build (`.ci/run`), and
//! names the root in `SFPU_INSTALL_ROOT`; without it the test installs into a root of its own with
//! a target directory of its own (slow the first time: a debug build of the command).

use std::path::PathBuf;
use std::process::Command;

use crate::common::{Scratch, repo, scratch_path, text};
use crate::digest::{digest, recorded};

#[test]
fn an_installed_command_runs_anywhere_and_writes_the_report() {
    let root: PathBuf = match std::env::var_os("SFPU_INSTALL_ROOT") {
        Some(root) => PathBuf::from(root),
        None => {
            let root = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("install-root");
            let target = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("install-target");
            let o = Command::new(env!("CARGO"))
                .args(["install", "--path", "cli", "--root"])
                .arg(&root)
                .args(["--debug", "--locked", "--quiet"])
                .env("CARGO_TARGET_DIR", &target)
                .current_dir(repo())
                .output()
                .expect("cargo install");
            assert!(o.status.success(), "cargo install failed: {}", text(&o));
            root
        }
    };
    let bin = root.join("bin").join(format!("sfpu-conformance{}", std::env::consts::EXE_SUFFIX));
    assert!(bin.is_file(), "no installed binary at {}", bin.display());
    // An empty directory outside the repository: nothing of the checkout is at hand.
    let empty = std::env::temp_dir().join(format!("sfpu-installed-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&empty);
    std::fs::create_dir_all(&empty).unwrap();
    assert!(!empty.starts_with(repo().canonicalize().unwrap()));
    let out: Scratch = scratch_path("install", "report");
    let o = Command::new(&bin)
        .args(["conform", "--quiet", "--out"])
        .arg(&*out)
        .current_dir(&empty)
        .output()
        .unwrap();
    let _ = std::fs::remove_dir_all(&empty);
    assert!(o.status.success(), "{}", text(&o));
    assert_eq!(digest(&out), recorded(), "the installed command's report differs from the recorded one");
    let report = std::fs::read_to_string(out.join("report.json")).unwrap();
    assert!(
        report.contains("built-in (generated in memory"),
        "the built-in corpus: {}",
        &report[..400.min(report.len())]
    );
}
