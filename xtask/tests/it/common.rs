//! What xtask's end-to-end tests share: the built binaries (xtask's, and the `sfpu-conformance`
//! command's, which some chores' outputs are checked with), the repository and scratch files.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

/// The built xtask binary.
pub const XTASK: &str = env!("CARGO_BIN_EXE_xtask");

/// The repository's root.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("the repository root").to_path_buf()
}

/// Runs xtask with `args` from the repository's root, to its end.
pub fn xtask(args: &[&str]) -> Output {
    Command::new(XTASK).args(args).current_dir(root()).output().expect("run the xtask binary")
}

/// The exit status, standard output and standard error of `o`, for assertion messages.
pub fn text(o: &Output) -> String {
    format!(
        "status {:?}\nstdout:\n{}\nstderr:\n{}",
        o.status,
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// The `sfpu-conformance` binary of this build, beside xtask's (same target directory, profile
/// and target). `cargo test -p xtask` builds no binary of another package, so the first call
/// builds it with the cargo that runs the tests (a no-op when it is up to date; never a stale
/// binary from an older build).
pub fn sfpu_conformance() -> &'static Path {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    BIN.get_or_init(|| {
        let xtask = Path::new(XTASK);
        let profile_dir = xtask.parent().expect("xtask's directory");
        let bin = profile_dir.join(format!("sfpu-conformance{}", std::env::consts::EXE_SUFFIX));
        // The target directory holds CACHEDIR.TAG; under --target, the profile's directory is in
        // a directory named after the target.
        let above = profile_dir.parent().expect("the target directory");
        let (target_dir, triple) = if above.join("CACHEDIR.TAG").exists() {
            (above, None)
        } else {
            (above.parent().expect("the target directory"), above.file_name())
        };
        // `cargo test` builds with the `test` profile into `debug`, `cargo test --release` with
        // `bench` into `release`; a custom profile builds into its own name.
        let profile = match profile_dir.file_name().and_then(|n| n.to_str()) {
            Some("debug") => "test",
            Some("release") => "bench",
            Some(other) => other,
            None => panic!("no profile directory in {}", xtask.display()),
        };
        let mut c = Command::new(option_env!("CARGO").unwrap_or("cargo"));
        c.args([
            "build",
            "--quiet",
            "-p",
            "sfpu-conformance",
            "--bin",
            "sfpu-conformance",
            "--profile",
            profile,
        ])
        .env("CARGO_TARGET_DIR", target_dir)
        .current_dir(root());
        if let Some(triple) = triple {
            c.arg("--target").arg(triple);
        }
        let o = c.output().expect("run cargo build -p sfpu-conformance");
        assert!(o.status.success(), "cargo build -p sfpu-conformance: {}", text(&o));
        assert!(bin.is_file(), "no {} after cargo build -p sfpu-conformance", bin.display());
        bin
    })
}

/// An output directory or scratch file for one test, removed when the test passes and kept after a
/// failure (for reading). The names carry the process id, so without this every run would leave
/// its own set behind in the target directory (tens of MB each).
pub struct Scratch(pub PathBuf);

impl std::ops::Deref for Scratch {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<std::ffi::OsStr> for Scratch {
    fn as_ref(&self) -> &std::ffi::OsStr {
        self.0.as_os_str()
    }
}

impl AsRef<Path> for Scratch {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            let _ = if self.0.is_dir() {
                std::fs::remove_dir_all(&self.0)
            } else {
                std::fs::remove_file(&self.0)
            };
        }
    }
}

/// A path of its own for one test's `name` (the tests of one module share a `prefix`), nothing
/// there yet. Every test of the binary runs in one process, so the prefixes keep them apart.
pub fn scratch_path(prefix: &str, name: &str) -> Scratch {
    let path = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("{prefix}_{}_{name}", std::process::id()));
    let _ = if path.is_dir() { std::fs::remove_dir_all(&path) } else { std::fs::remove_file(&path) };
    Scratch(path)
}
