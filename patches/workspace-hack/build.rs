//! Empty: present so that cargo resolves this crate's build-dependencies (Cargo.toml).
fn main() {}
