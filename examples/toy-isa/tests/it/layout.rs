//! Nothing outside this folder names the toy in code: it joins the workspace by the folder glob
//! of the root `Cargo.toml` (`examples/*`) and the command's registry in its own tests. The only
//! mentions elsewhere are in documentation and in `Cargo.lock`, which cargo writes.

use std::process::Command;

#[test]
fn only_documentation_outside_the_crate_names_it() {
    let root = crate::here().join("../..");
    let out = Command::new("git")
        .args(["grep", "-l", "-i", "-E", "toy[-_]isa|toy_isa|ToyDut"])
        .current_dir(&root)
        .output()
        .expect("git");
    let files = String::from_utf8_lossy(&out.stdout);
    let outside: Vec<&str> = files
        .lines()
        .filter(|f| !f.starts_with("examples/toy-isa/"))
        .filter(|f| !f.ends_with(".md") && *f != "Cargo.lock")
        .collect();
    assert!(outside.is_empty(), "files outside examples/toy-isa that name it: {outside:?}");
}
