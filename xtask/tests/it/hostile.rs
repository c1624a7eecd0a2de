//! The hostile probe of xtask's chores (the others are the `sfpu-conformance` command's, in its
//! own tests): `vectors --check` against another seed summarises (the first differing vectors and
//! a count) instead of printing a 76 KB diff, and names paths from the repository root.

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
