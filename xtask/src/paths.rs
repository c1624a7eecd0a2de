//! Where things are: the repository's root, which every subcommand finds its inputs and outputs
//! under (`vectors/`, `fuzz/`, `target/`).

use std::path::{Path, PathBuf};

/// The repository's root (this crate's parent directory), canonical where possible.
pub(crate) fn workspace_root() -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    root.canonicalize().unwrap_or(root)
}
