//! What the end-to-end tests of the `sfpu-conformance` command share: the built binary, the
//! repository, scratch files and directories, and reading a report.json or a golden-vector file
//! as plain JSON or YAML (not with the library's loader).

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde_json::Value;

/// The built `sfpu-conformance` binary.
pub const BIN: &str = env!("CARGO_BIN_EXE_sfpu-conformance");

/// The repository's root.
pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Runs the command with `args` from the repository's root, with no input, to its end.
pub fn cli(args: &[&str]) -> Output {
    command(args).output().expect("run the sfpu-conformance binary")
}

/// The command with `args`, from the repository's root, with no input.
pub fn command<S: AsRef<std::ffi::OsStr>>(args: impl IntoIterator<Item = S>) -> Command {
    let mut c = Command::new(BIN);
    c.args(args).current_dir(repo()).stdin(Stdio::null());
    c
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

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
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

/// A scratch file holding `text`.
pub fn scratch_file(prefix: &str, name: &str, text: &str) -> Scratch {
    let path = scratch_path(prefix, name);
    std::fs::write(&path, text).unwrap();
    path
}

/// The whole report.json in `dir`.
pub fn whole(dir: &Path) -> Value {
    let json = std::fs::read_to_string(dir.join("report.json")).expect("report.json written");
    serde_json::from_str(&json).expect("report.json is JSON")
}

/// The section of chip `arch` in a report.json (`chips: [...]`).
pub fn section(r: &Value, arch: &str) -> Value {
    r["chips"]
        .as_array()
        .expect("chips")
        .iter()
        .find(|c| c["arch"] == arch)
        .unwrap_or_else(|| panic!("no {arch} section in {}", r["chips"]))
        .clone()
}

/// The Blackhole section of the report.json in `dir`.
pub fn blackhole(dir: &Path) -> Value {
    section(&whole(dir), "blackhole")
}

/// The ids of the vectors of `vectors/blackhole/NAME.yaml`, in file order, read as plain YAML.
pub fn ids_of(name: &str) -> Vec<String> {
    let path = repo().join("vectors/blackhole").join(format!("{name}.yaml"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let doc: serde_yaml::Value =
        serde_yaml::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    doc["vectors"]
        .as_sequence()
        .unwrap_or_else(|| panic!("{}: no `vectors` list", path.display()))
        .iter()
        .map(|v| v["id"].as_str().expect("every vector has an id").to_string())
        .collect()
}

/// How many golden vectors `--only NAME` selects on Blackhole: those of `NAME.yaml`.
pub fn vectors_of(name: &str) -> u64 {
    ids_of(name).len() as u64
}

/// The counts of `model` summed over the matrix rows of `instruction`.
pub fn cell_sum(r: &Value, instruction: &str, model: &str, field: &str) -> u64 {
    r["matrix"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|row| row["instruction"] == instruction)
        .map(|row| row["per_model"][model][field].as_u64().unwrap_or(0))
        .sum()
}

/// The Python interpreter that runs the example DUTs.
pub fn python() -> &'static str {
    if Command::new("python3").arg("--version").output().is_ok_and(|o| o.status.success()) {
        "python3"
    } else {
        panic!("python3 is needed to run the example DUTs (examples/dut-python, examples/amx/dut-python)")
    }
}

/// The reference DUT's command line (`sfpu-conformance reference-dut`, this build's), with `args`.
pub fn reference_dut(args: &str) -> String {
    format!("{BIN} reference-dut {args}")
}

/// The default run, `conform --out DIR` and nothing else, made once per test process for the tests
/// that read the default report (it is the longest single run, about 10 s on 2 cores): its output
/// and its directory. The directory has a fixed name, replaced by the next test run.
pub fn default_run() -> &'static (Output, PathBuf) {
    static RUN: std::sync::OnceLock<(Output, PathBuf)> = std::sync::OnceLock::new();
    RUN.get_or_init(|| {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("shared_default-run");
        let _ = std::fs::remove_dir_all(&dir);
        let o = cli(&["conform", "--out", dir.to_str().unwrap()]);
        (o, dir)
    })
}
