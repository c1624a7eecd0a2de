//! No code: the crate exists for its dependencies' features (Cargo.toml).
