//! What several of xtask's end-to-end tests share.

use std::path::{Path, PathBuf};

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
