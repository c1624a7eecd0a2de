//! What the tests that run cargo-fuzz share (`#[path]`-included by each of them).

use std::process::Command;

/// A command without the outer cargo's toolchain and target directory, for a nested cargo.
pub fn clean(mut c: Command) -> Command {
    for var in ["CARGO", "RUSTUP_TOOLCHAIN", "CARGO_TARGET_DIR", "CARGO_BUILD_TARGET_DIR", "RUSTC", "RUSTDOC"]
    {
        c.env_remove(var);
    }
    c
}

/// Whether cargo-fuzz is installed, so that the test can run. When it is not, the test is
/// skipped with the reason printed, except under `SFPU_REQUIRE_CARGO_FUZZ=1`: CI installs
/// cargo-fuzz first and sets it, so a CI run that did not run the test cannot pass.
pub fn available() -> bool {
    let mut c = clean(Command::new("cargo"));
    c.args(["fuzz", "--version"]);
    if c.output().is_ok_and(|o| o.status.success()) {
        return true;
    }
    assert!(
        std::env::var_os("SFPU_REQUIRE_CARGO_FUZZ").is_none_or(|v| v != "1"),
        "cargo-fuzz is not installed and SFPU_REQUIRE_CARGO_FUZZ=1 (cargo install cargo-fuzz --locked)"
    );
    println!("SKIPPED: cargo-fuzz is not installed (cargo install cargo-fuzz --locked)");
    false
}
