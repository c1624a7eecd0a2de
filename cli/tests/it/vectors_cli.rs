//! `vectors --out DIR`: the golden vectors an installed command writes for importers are the
//! repository's `vectors/`, byte for byte (the built-in corpus is the checked-in one); `--json`
//! writes each as JSON that the file's YAML reads to; a selection naming nothing is an error.

use std::path::Path;

use crate::common::{Scratch, cli, repo, scratch_path, text};

/// Every file under `dir`, as paths relative to it, sorted.
fn files(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else {
                out.push(p.strip_prefix(dir).unwrap().display().to_string());
            }
        }
    }
    out.sort();
    out
}

#[test]
fn the_written_vectors_are_the_repositorys() {
    let out: Scratch = scratch_path("vectors_cli", "yaml");
    let o = cli(&["vectors", "--out", out.to_str().unwrap(), "--quiet"]);
    assert!(o.status.success(), "{}", text(&o));
    let written = files(&out);
    // Every YAML file of the repository's chips' folders, and nothing else.
    let repo_vectors = repo().join("vectors");
    let want: Vec<String> = files(&repo_vectors)
        .into_iter()
        .filter(|f| {
            f.ends_with(".yaml") && ["blackhole/", "wormhole/", "amx/"].iter().any(|d| f.starts_with(d))
        })
        .collect();
    assert_eq!(written, want);
    for f in &written {
        let a = std::fs::read(out.join(f)).unwrap();
        let b = std::fs::read(repo_vectors.join(f)).unwrap();
        assert!(a == b, "{f} differs from the repository's");
    }
}

#[test]
fn json_reads_like_the_yaml_and_selections_narrow() {
    let out: Scratch = scratch_path("vectors_cli", "json");
    let o = cli(&[
        "vectors",
        "--out",
        out.to_str().unwrap(),
        "--json",
        "--isa",
        "amx",
        "--chip",
        "m3",
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", text(&o));
    assert_eq!(files(&out), ["amx/m2.json"], "m3 is the m2 profile");
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("amx/m2.json")).unwrap()).unwrap();
    let yaml: serde_json::Value =
        serde_yaml::from_str(&std::fs::read_to_string(repo().join("vectors/amx/m2.yaml")).unwrap()).unwrap();
    assert_eq!(json, yaml);
    for (args, want) in
        [(&["--isa", "nope"][..], "`nope` is no instruction set"), (&["--chip", "m9"][..], "`m9` is no chip")]
    {
        let mut all = vec!["vectors", "--out", out.to_str().unwrap()];
        all.extend(args);
        let o = cli(&all);
        assert_eq!(o.status.code(), Some(2), "{}", text(&o));
        assert!(String::from_utf8_lossy(&o.stderr).contains(want), "{}", text(&o));
    }
}
