//! The toy instruction set through the whole harness, registered here beside the SFPU and AMX
//! (its `DRIVER` added to the command's registry: the one line an instruction set needs): its
//! vectors, `conform` with the fast model and with the template DUT, a planted bug found and its
//! replay line run as printed, shards merged into the unsharded report, the fuzz oracle, and the
//! layout (nothing outside its folder names it).

mod conform;
mod fuzz;
mod layout;
mod vectors;

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use harness_core::driver::Driver;

/// The command's registry with the toy added.
pub fn registry() -> Vec<&'static dyn Driver> {
    let mut registry = sfpu_conformance::registry();
    registry.push(&toy_isa::DRIVER);
    registry
}

/// The command's front end as these tests run it: replay lines start `toy-conform conform`.
pub fn context() -> sfpu_conformance::Context {
    sfpu_conformance::Context { command: "toy-conform conform".into(), out: tmp("default-out") }
}

/// Runs the command with `args` (without the program's name) over [`registry`].
pub fn command(args: &[&str]) -> ExitCode {
    let argv: Vec<OsString> =
        std::iter::once("toy-conform").chain(args.iter().copied()).map(OsString::from).collect();
    sfpu_conformance::main_with(&registry(), argv, &context())
}

/// This crate's folder.
pub fn here() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A fresh directory for one test's files.
pub fn tmp(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("toy-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    dir
}

/// The report a run wrote into `dir`.
pub fn report(dir: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(dir.join("report.json")).expect("report.json");
    serde_json::from_str(&text).expect("JSON")
}

/// The template DUT's command line, with `flags`.
pub fn dut(flags: &str) -> String {
    format!("python3 {} {flags}", here().join("dut.py").display()).trim_end().to_string()
}
