//! The end-to-end tests of `cargo xtask fuzz` and of `.clusterfuzzlite/build.sh`, through the
//! built binary and the script: a fuzzing run, a `--rate` measurement and a `--throughput`
//! measurement stopped by SIGINT ([`signals`]), and the ClusterFuzzLite build ([`clusterfuzzlite`]).
//!
//! This target has its own harness (libtest-mimic), so that on a machine without cargo-fuzz the
//! tests that need it are reported *ignored*, with the reason, rather than passed: whether
//! cargo-fuzz is installed is asked when the tests run ([`cargo_fuzz_installed`]), so installing
//! or removing it needs no rebuild. CI installs cargo-fuzz and sets `SFPU_REQUIRE_CARGO_FUZZ=1`,
//! which turns a missing cargo-fuzz into a failure of those tests, so a CI run that did not run
//! them cannot pass. Unix only (signals, process groups, `/proc`, `build.sh`).

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use libtest_mimic::{Arguments, Failed, Trial};

#[cfg(unix)]
mod clusterfuzzlite;
#[cfg(unix)]
mod signals;

/// The built xtask binary.
pub const XTASK: &str = env!("CARGO_BIN_EXE_xtask");

/// The environment variable that makes a missing cargo-fuzz a failure instead of an ignored test.
pub const REQUIRE: &str = "SFPU_REQUIRE_CARGO_FUZZ";

/// How to install cargo-fuzz, for the messages.
const INSTALL: &str = "cargo install cargo-fuzz --locked";

/// The repository's root.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("the repository root").to_path_buf()
}

/// A command without the outer cargo's toolchain and target directory, for a nested cargo
/// (cargo-fuzz's, which builds with its own toolchain and target directory).
pub fn clean(mut c: Command) -> Command {
    for var in ["CARGO", "RUSTUP_TOOLCHAIN", "CARGO_TARGET_DIR", "CARGO_BUILD_TARGET_DIR", "RUSTC", "RUSTDOC"]
    {
        c.env_remove(var);
    }
    c
}

/// Whether `cargo fuzz --version` succeeds, run as the tests run cargo-fuzz (with [`clean`]'s
/// environment), with `path` as `PATH` when given (the test of this probe), else the inherited
/// one.
pub fn cargo_fuzz_installed(path: Option<&OsStr>) -> bool {
    let mut c = clean(Command::new("cargo"));
    c.args(["fuzz", "--version"]).stdin(Stdio::null()).stdout(Stdio::null()).stderr(Stdio::null());
    if let Some(path) = path {
        c.env("PATH", path);
    }
    c.status().is_ok_and(|s| s.success())
}

/// What becomes of a test that needs cargo-fuzz.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Plan {
    /// cargo-fuzz is installed: the test runs.
    Run,
    /// cargo-fuzz is missing and not required: the test is reported ignored.
    Ignore,
    /// cargo-fuzz is missing and `SFPU_REQUIRE_CARGO_FUZZ=1`: the test runs and fails, saying why.
    Fail,
}

/// The [`Plan`] for the tests that need cargo-fuzz, from whether it is installed and the value of
/// `SFPU_REQUIRE_CARGO_FUZZ` (only `1` requires it).
pub fn plan(installed: bool, require: Option<&OsStr>) -> Plan {
    match (installed, require.is_some_and(|v| v == "1")) {
        (true, _) => Plan::Run,
        (false, false) => Plan::Ignore,
        (false, true) => Plan::Fail,
    }
}

/// The tests of [`plan`] and [`cargo_fuzz_installed`], which run everywhere.
fn probe_trials() -> Vec<Trial> {
    vec![
        Trial::test("probe::only_a_required_missing_cargo_fuzz_fails", || {
            let one = Some(OsStr::new("1"));
            let cases = [
                (true, None, Plan::Run),
                (true, one, Plan::Run),
                (true, Some(OsStr::new("0")), Plan::Run),
                (false, None, Plan::Ignore),
                (false, Some(OsStr::new("0")), Plan::Ignore),
                (false, Some(OsStr::new("")), Plan::Ignore),
                (false, Some(OsStr::new("yes")), Plan::Ignore),
                (false, one, Plan::Fail),
            ];
            for (installed, require, want) in cases {
                let got = plan(installed, require);
                if got != want {
                    return Err(format!("plan({installed}, {require:?}) is {got:?}, not {want:?}").into());
                }
            }
            Ok(())
        }),
        #[cfg(unix)]
        Trial::test("probe::cargo_fuzz_is_looked_for_on_path", probe_on_path),
    ]
}

/// The probe asks `cargo fuzz --version` of the `cargo` on `PATH`: a `PATH` with no `cargo` at
/// all, or one whose `cargo` fails that command, is "not installed"; one whose `cargo` answers it
/// is "installed". Stand-in `cargo` scripts in a temporary folder play the three cases.
#[cfg(unix)]
fn probe_on_path() -> Result<(), Failed> {
    use std::os::unix::fs::PermissionsExt as _;
    let dir = std::env::temp_dir().join(format!("sfpu-cargo-fuzz-probe-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let fake = |name: &str, body: &str| -> Result<PathBuf, Failed> {
        let bin = dir.join(name);
        std::fs::create_dir_all(&bin).map_err(|e| e.to_string())?;
        let cargo = bin.join("cargo");
        std::fs::write(&cargo, format!("#!/bin/sh\n{body}\n")).map_err(|e| e.to_string())?;
        std::fs::set_permissions(&cargo, std::fs::Permissions::from_mode(0o755))
            .map_err(|e| e.to_string())?;
        Ok(bin)
    };
    let empty = dir.join("empty");
    std::fs::create_dir_all(&empty).map_err(|e| e.to_string())?;
    // The cargo of a machine without cargo-fuzz: `cargo fuzz` is "no such command", status 101.
    let without = fake("without", "echo \"error: no such command: \\`$1\\`\" >&2; exit 101")?;
    // The cargo of a machine with it: `cargo fuzz --version` prints the version.
    let with =
        fake("with", "[ \"$1 $2\" = 'fuzz --version' ] && echo 'cargo-fuzz 0.13.2' && exit 0; exit 101")?;
    let cases = [(&empty, false), (&without, false), (&with, true)];
    let mut wrong = Vec::new();
    for (path, want) in cases {
        if cargo_fuzz_installed(Some(path.as_os_str())) != want {
            wrong.push(format!("PATH={}: installed should be {want}", path.display()));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    if wrong.is_empty() { Ok(()) } else { Err(wrong.join("; ").into()) }
}

/// A test that needs cargo-fuzz, as a trial: ignored (with the reason) when cargo-fuzz is missing
/// and not required; when it is missing and required, or run with `--include-ignored`, it fails
/// saying that cargo-fuzz is missing rather than running into the missing command.
#[cfg(unix)]
fn needs_cargo_fuzz(name: &'static str, installed: bool, test: fn()) -> Trial {
    let ignored = plan(installed, std::env::var_os(REQUIRE).as_deref()) == Plan::Ignore;
    let trial = Trial::test(name, move || {
        if !installed {
            return Err(format!(
                "cargo-fuzz is not installed ({INSTALL}); this test runs it{}",
                if std::env::var_os(REQUIRE).is_some_and(|v| v == "1") {
                    format!(", and {REQUIRE}=1 requires it")
                } else {
                    String::new()
                }
            )
            .into());
        }
        test();
        Ok(())
    });
    trial.with_ignored_flag(ignored)
}

fn main() {
    let args = Arguments::from_args();
    let mut trials = probe_trials();
    #[cfg(unix)]
    {
        let installed = cargo_fuzz_installed(None);
        if plan(installed, std::env::var_os(REQUIRE).as_deref()) == Plan::Ignore {
            eprintln!(
                "note: cargo-fuzz is not installed, so the tests that run it are IGNORED (not passed). \
                 Install it with `{INSTALL}`; {REQUIRE}=1 makes its absence a failure."
            );
        }
        let fuzzing = |name, test| needs_cargo_fuzz(name, installed, test);
        trials.extend([
            fuzzing(
                "signals::a_fuzzing_run_stopped_by_sigint_prints_its_summary",
                signals::a_fuzzing_run_stopped_by_sigint_prints_its_summary,
            ),
            fuzzing(
                "signals::a_rate_measurement_stopped_by_sigint_reports_what_it_measured",
                signals::a_rate_measurement_stopped_by_sigint_reports_what_it_measured,
            ),
            Trial::test(
                "signals::a_throughput_measurement_stopped_by_sigint_keeps_its_finished_rows",
                || {
                    signals::a_throughput_measurement_stopped_by_sigint_keeps_its_finished_rows();
                    Ok(())
                },
            ),
            fuzzing(
                "clusterfuzzlite::build_sh_installs_every_target_into_out",
                clusterfuzzlite::build_sh_installs_every_target_into_out,
            ),
        ]);
    }
    libtest_mimic::run(&args, trials).exit();
}
