//! What the commands need from their front end (the installed binary, `cargo xtask`), and the
//! parsing they share.

use std::path::PathBuf;

/// What differs between the front ends that run these commands.
#[derive(Clone, Debug)]
pub struct Context {
    /// How a replay line starts (`sfpu-conformance conform`, `cargo xtask conform`).
    pub command: String,
    /// Where `conform` writes its report without `--out`.
    pub out: PathBuf,
}

impl Context {
    /// The installed command's: replay lines name it, the report goes to `./conform-report`.
    pub fn installed() -> Context {
        Context { command: "sfpu-conformance conform".to_string(), out: PathBuf::from("conform-report") }
    }
}

/// Parses a seed: decimal, or hexadecimal after `0x`; `_` separators allowed.
pub fn parse_seed(s: &str) -> Result<u64, String> {
    let t = s.trim_start_matches("0x").replace('_', "");
    u64::from_str_radix(&t, if s.starts_with("0x") { 16 } else { 10 })
        .map_err(|e| format!("bad seed `{s}`: {e}"))
}
