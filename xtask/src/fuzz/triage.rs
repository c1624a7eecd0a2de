//! `--triage ARTIFACT...`: replaying artifacts; a `diff_stream` divergence is minimised and
//! appended to its chip's regressions file (once per failure shape) by
//! `harness_sfpu::fuzz::append_regression`, and a crash or another oracle's failure is reported
//! with its input, one artifact at a time.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, Result};
use harness_sfpu::fuzz::{
    Appended, StreamInput, append_regression, decode_oracle, diff_stream_with_origin, dut_protocol_oracle,
    input_tag, vectors_load_oracle,
};
use harness_sfpu::vectors::{FORMAT, parse_file};
use sfpu_reference::isa::Arch;

use super::args::TARGETS;
use harness_core::replay::shell_quote;

/// An artifact to triage and the target whose oracle replays it.
pub(super) type Artifact = (PathBuf, &'static str);

/// The command that triages `artifact`, quoted for a POSIX shell (an artifact libFuzzer wrote
/// names its target by its directory).
pub(super) fn triage_command(artifact: &Path) -> String {
    format!("cargo xtask fuzz --triage {}", shell_quote(&artifact.to_string_lossy()))
}

/// [`triage_command`] naming `target` when the artifact's directory does not.
fn triage_command_for(artifact: &Path, target: &str) -> String {
    if artifact_target(artifact) == Some(target) {
        triage_command(artifact)
    } else {
        format!("{} --target {target}", triage_command(artifact))
    }
}

#[derive(Clone, Debug)]
pub(super) struct Added {
    pub(super) id: String,
    pub(super) shape: String,
    pub(super) artifact: PathBuf,
}

#[derive(Default)]
pub(super) struct TriageReport {
    pub(super) added: Vec<Added>,
    pub(super) duplicates: Vec<(PathBuf, String)>,
    pub(super) not_reproduced: Vec<PathBuf>,
    pub(super) other: Vec<(PathBuf, String)>,
    pub(super) failed: bool,
}

impl TriageReport {
    pub(super) fn merge(&mut self, other: TriageReport) {
        self.added.extend(other.added);
        self.duplicates.extend(other.duplicates);
        self.not_reproduced.extend(other.not_reproduced);
        self.other.extend(other.other);
        self.failed |= other.failed;
    }

    pub(super) fn json(&self) -> serde_json::Value {
        serde_json::json!({
            "added": self.added.iter().map(|a| serde_json::json!({
                "id": a.id, "shape": a.shape, "artifact": a.artifact.display().to_string()
            })).collect::<Vec<_>>(),
            "duplicates": self.duplicates.iter().map(|(p, s)| serde_json::json!({
                "artifact": p.display().to_string(), "shape": s
            })).collect::<Vec<_>>(),
            "not_reproduced": self.not_reproduced.iter().map(|p| p.display().to_string()).collect::<Vec<_>>(),
            "other": self.other.iter().map(|(p, m)| serde_json::json!({
                "artifact": p.display().to_string(), "message": m
            })).collect::<Vec<_>>(),
        })
    }
}

/// `vectors/<arch>/regressions.yaml`, written with an empty vector list (and the header the
/// loader needs) if the chip has none yet.
pub(super) fn regressions_file(root: &Path, arch: Arch) -> Result<PathBuf> {
    let path = root.join(format!("vectors/{arch}/regressions.yaml"));
    if !path.exists() {
        std::fs::create_dir_all(path.parent().unwrap_or(root))?;
        std::fs::write(&path, empty_regressions(arch))
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    Ok(path)
}

/// A regressions file of `arch` with no vector.
pub(super) fn empty_regressions(arch: Arch) -> String {
    format!(
        "# Hand-added regression vectors (kept apart from the generated files; never regenerated).\n\
         # `cargo xtask fuzz --triage` appends the divergences diff_stream finds on this chip.\n\
         format: {FORMAT}\narch: {arch}\nfile: regressions\nvectors: []\n"
    )
}

/// The target an artifact belongs to: the directory libFuzzer wrote it to (`fuzz/artifacts/T/`).
pub(super) fn artifact_target(path: &Path) -> Option<&'static str> {
    let dir = path.parent()?.file_name()?.to_str()?;
    TARGETS.iter().copied().find(|t| *t == dir)
}

/// The target whose oracle replays `artifact`: `--target T` when given (one at most), else the
/// directory libFuzzer wrote it to. Never a guess: an artifact outside `fuzz/artifacts/<target>/`
/// without `--target`, or one whose directory names another target than `--target`, is an error.
pub(super) fn triage_target(artifact: &Path, given: &[String]) -> Result<&'static str> {
    let from_dir = artifact_target(artifact);
    let given =
        match given {
            [] => None,
            [t] => {
                Some(TARGETS.iter().copied().find(|x| x == t).ok_or_else(|| {
                    anyhow::anyhow!("unknown target `{t}` (targets: {})", TARGETS.join(", "))
                })?)
            }
            _ => anyhow::bail!("--triage replays with one target: give --target once"),
        };
    match (from_dir, given) {
        (Some(dir), Some(t)) if dir != t => {
            anyhow::bail!("{}: it is in fuzz/artifacts/{dir}/, but --target names {t}", artifact.display())
        }
        (_, Some(t)) | (Some(t), None) => Ok(t),
        (None, None) => anyhow::bail!(
            "{}: which target wrote it? It is not in fuzz/artifacts/<target>/; name it with --target \
             ({})",
            artifact.display(),
            TARGETS.join(", ")
        ),
    }
}

/// A divergence report as the fuzz binary prints it: the shape and the regression vector.
fn divergence_from_binary(root: &Path, target: &str, artifact: &Path) -> Option<(String, String)> {
    // The artifact's own build (say, with the planted feature) reproduces it when this process's
    // fast model does not.
    let binary = root.join(format!("fuzz/target/{}/release/{target}", host_triple()?));
    let out = Command::new(binary).arg(artifact).output().ok()?;
    let text = String::from_utf8_lossy(&out.stderr).into_owned();
    parse_report(&text)
}

fn host_triple() -> Option<String> {
    let out = Command::new("rustc").arg("-vV").env_remove("RUSTUP_TOOLCHAIN").output().ok()?;
    String::from_utf8_lossy(&out.stdout).lines().find_map(|l| l.strip_prefix("host: ").map(str::to_string))
}

/// The shape and the YAML vector of a printed [`Divergence`](harness_sfpu::fuzz::Divergence).
fn parse_report(text: &str) -> Option<(String, String)> {
    let shape = text.lines().find_map(|l| l.strip_prefix("shape: "))?.split(" (").next()?.to_string();
    let start = text.find("/regressions.yaml):\n")? + "/regressions.yaml):\n".len();
    let yaml: String = text[start..]
        .lines()
        .take_while(|l| l.starts_with("- ") || l.starts_with("  "))
        .map(|l| format!("{l}\n"))
        .collect();
    Some((shape, yaml))
}

/// A divergence an oracle reported: its shape, its YAML regression vector, and the message to
/// print (empty when it came from the fuzz binary's output).
struct Divergent {
    shape: String,
    yaml: String,
    printed: String,
}

/// Replays a `diff_stream` artifact: in this process first, then with the fuzz binary (the
/// artifact may come from a build with other features).
fn diff_stream_divergence(root: &Path, artifact: &Path, data: &[u8]) -> Option<Divergent> {
    match diff_stream_with_origin(data, &input_tag(data)) {
        Err(d) => Some(Divergent { shape: d.shape.clone(), yaml: d.snippet(), printed: d.to_string() }),
        Ok(()) => divergence_from_binary(root, "diff_stream", artifact).map(|(shape, yaml)| Divergent {
            shape,
            yaml,
            printed: String::new(),
        }),
    }
}

/// The message of a caught panic.
fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_else(|| "panic (no message)".into())
}

/// An input for a message: hex, cut after 512 bytes.
fn hex_input(data: &[u8]) -> String {
    let shown: String = data.iter().take(512).map(|b| format!("{b:02x}")).collect();
    if data.len() > 512 { format!("{shown}... ({} bytes)", data.len()) } else { shown }
}

pub(super) fn triage(
    root: &Path,
    artifacts: &[Artifact],
    regressions: &Path,
    quiet: bool,
) -> Result<TriageReport> {
    triage_with(artifacts, regressions, quiet, &|artifact, data| diff_stream_divergence(root, artifact, data))
}

/// [`triage`] with the `diff_stream` replay given: `oracle` says whether an artifact diverges.
///
/// Every artifact is handled on its own: a panic of the models (or of any oracle) is caught and
/// reported as a crash with its input, an artifact that cannot be read or whose vector would not
/// load is reported, and the run goes on; the regressions file is rewritten after every vector
/// added, so nothing found before a failure is lost. Whether a divergence is added or a duplicate
/// is [`append_regression`]'s decision over the file's current text.
fn triage_with(
    artifacts: &[Artifact],
    regressions: &Path,
    quiet: bool,
    oracle: &dyn Fn(&Path, &[u8]) -> Option<Divergent>,
) -> Result<TriageReport> {
    let mut report = TriageReport::default();
    let text = std::fs::read_to_string(regressions)
        .with_context(|| format!("cannot read {}", regressions.display()))?;
    parse_file(regressions, &text).map_err(|e| {
        anyhow::anyhow!(
            "{} does not load before triage: {}",
            regressions.display(),
            e.iter().map(|e| e.to_string()).collect::<Vec<_>>().join("; ")
        )
    })?;
    let mut current = text;
    for (artifact, target) in artifacts {
        let (artifact, target) = (artifact.as_path(), *target);
        let data = match std::fs::read(artifact) {
            Ok(d) => d,
            Err(e) => {
                let message = format!("cannot read the artifact: {e}");
                errln!("{} ({target}): {message}", artifact.display());
                report.other.push((artifact.to_path_buf(), message));
                report.failed = true;
                continue;
            }
        };
        let replayed = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| match target {
            "diff_stream" => Ok(oracle(artifact, &data)),
            "decode" => decode_oracle(&data).map(|()| None),
            "vectors_load" => vectors_load_oracle(&data).map(|()| None),
            // An AMX divergence is reported with what differs; AMX regressions are added to the
            // generator's named vectors by hand (harness/amx/src/generate.rs).
            "amx_diff" => harness_amx::fuzz::amx_diff_oracle(&data).map(|()| None),
            _ => dut_protocol_oracle(&data).map(|()| None),
        }));
        let found = match replayed {
            Ok(Ok(Some(found))) => found,
            Ok(Ok(None)) => {
                errln!("{} ({target}): does not reproduce (no divergence, no crash)", artifact.display());
                report.not_reproduced.push(artifact.to_path_buf());
                continue;
            }
            Ok(Err(message)) => {
                errln!(
                    "{} ({target}): {message}\n  input: {:?}\n  (not a model divergence: add a unit test next to the code at fault)",
                    artifact.display(),
                    String::from_utf8_lossy(&data)
                );
                report.other.push((artifact.to_path_buf(), message));
                report.failed = true;
                continue;
            }
            Err(payload) => {
                let message = format!("crash: {target} panicked: {}", panic_message(payload.as_ref()));
                let stream = if target == "diff_stream" {
                    std::panic::catch_unwind(|| {
                        let input = StreamInput::from_bytes(&data);
                        let arch = input.arch;
                        input
                            .program
                            .iter()
                            .enumerate()
                            .map(|(i, instr)| {
                                format!(
                                    "\n    {i:>3}  0x{:08x}  {} ({arch})",
                                    instr.encode(arch).unwrap_or_else(|_| instr.encode_blackhole()),
                                    instr.display(arch)
                                )
                            })
                            .collect::<String>()
                    })
                    .unwrap_or_else(|_| " (the input does not decode either)".to_string())
                } else {
                    String::new()
                };
                errln!(
                    "{}: {message}\n  input ({} bytes): {}{}\n  replay: {}\n  \
                     (a panic in the models is a bug in its own right: fix it, then triage again)",
                    artifact.display(),
                    data.len(),
                    hex_input(&data),
                    if stream.is_empty() { String::new() } else { format!("\n  stream:{stream}") },
                    triage_command_for(artifact, target)
                );
                report.other.push((artifact.to_path_buf(), message));
                report.failed = true;
                continue;
            }
        };
        report.failed = true;
        if !quiet && !found.printed.is_empty() {
            errln!("{}", found.printed);
        }
        let shape = found.shape;
        let name = artifact.file_name().and_then(|n| n.to_str()).unwrap_or("artifact");
        match append_regression(&current, regressions, name, &shape, &found.yaml) {
            Ok(Appended::Duplicate { id }) => {
                errln!("{} ({target}): duplicate of {id} (shape {shape}); not added", artifact.display());
                report.duplicates.push((artifact.to_path_buf(), shape));
            }
            Ok(Appended::Added { id, text: candidate }) => {
                write_atomically(regressions, &candidate)?;
                current = candidate;
                if !quiet {
                    errln!(
                        "{} ({target}): added {id} (shape {shape}) to {}",
                        artifact.display(),
                        regressions.display()
                    );
                }
                report.added.push(Added { id, shape, artifact: artifact.to_path_buf() });
            }
            Err(e) => {
                let message = format!("divergence {shape} not added: {e}");
                errln!("{} ({target}): {message}", artifact.display());
                report.other.push((artifact.to_path_buf(), message));
            }
        }
    }
    if !quiet {
        errln!(
            "triage: {} added, {} duplicate(s), {} not reproduced, {} other crash(es) or problem(s)",
            report.added.len(),
            report.duplicates.len(),
            report.not_reproduced.len(),
            report.other.len()
        );
    }
    Ok(report)
}

/// Writes `text` to `path` through a temporary file in the same directory and a rename, so the
/// file is never seen half-written.
fn write_atomically(path: &Path, text: &str) -> Result<()> {
    let tmp = path.with_extension(format!("yaml.tmp-{}", std::process::id()));
    std::fs::write(&tmp, text).with_context(|| format!("cannot write {}", tmp.display()))?;
    std::fs::rename(&tmp, path).with_context(|| format!("cannot replace {}", path.display()))
}

#[cfg(test)]
mod tests {
    use harness_sfpu::campaign::vector_yaml;
    use harness_sfpu::fuzz::all_arches;
    use harness_sfpu::vectors::load_file;

    use super::*;

    /// A chip with no regressions file yet gets one that loads, with no vector; a report's
    /// vector is found whichever chip's file it names.
    #[test]
    fn regressions_files_of_both_chips() {
        for arch in all_arches() {
            let f = parse_file(Path::new("regressions.yaml"), &empty_regressions(arch)).expect("loads");
            assert_eq!((f.arch, f.vectors.len()), (arch, 0));
            let report = format!(
                "shape: SFPIADD/mod1=5/LReg (stream minimised from 6 to 1 instructions)\n\
                 regression vector (expected values are the reference model's; paste under `vectors:` in \
                 vectors/{arch}/regressions.yaml):\n- id: a\n  mode: m\nnot yaml\n"
            );
            assert_eq!(
                parse_report(&report),
                Some(("SFPIADD/mod1=5/LReg".to_string(), "- id: a\n  mode: m\n".to_string()))
            );
        }
    }

    /// The target comes from the artifact's directory or from --target, never from a guess.
    #[test]
    fn the_target_is_named_never_guessed() {
        let t = |path: &str, given: &[&str]| {
            let given: Vec<String> = given.iter().map(|s| s.to_string()).collect();
            triage_target(Path::new(path), &given).map_err(|e| e.to_string())
        };
        assert_eq!(t("fuzz/artifacts/decode/crash-1", &[]), Ok("decode"));
        assert_eq!(t("/tmp/crash-1", &["amx_diff"]), Ok("amx_diff"));
        assert_eq!(t("fuzz/artifacts/decode/crash-1", &["decode"]), Ok("decode"));
        assert!(t("/tmp/crash-1", &[]).unwrap_err().contains("which target wrote it?"));
        assert!(t("fuzz/artifacts/decode/crash-1", &["diff_stream"]).unwrap_err().contains("--target names"));
        assert!(t("/tmp/crash-1", &["nope"]).unwrap_err().contains("unknown target `nope`"));
        assert!(t("/tmp/crash-1", &["decode", "amx_diff"]).unwrap_err().contains("give --target once"));
        assert_eq!(triage_command(Path::new("a b/crash-$(x)")), "cargo xtask fuzz --triage 'a b/crash-$(x)'");
    }

    /// Triage survives an artifact whose replay panics (reported as a crash with its input), an
    /// unreadable artifact and a divergence whose vector does not parse, and keeps the vector it
    /// added before them in the regressions file.
    #[test]
    fn triage_survives_panics_and_keeps_what_it_added() {
        let root = crate::paths::workspace_root();
        let dir = std::env::temp_dir().join(format!("sfpu-triage-test-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let artifacts_dir = dir.join("diff_stream");
        std::fs::create_dir_all(&artifacts_dir).unwrap();
        let regressions = dir.join("regressions.yaml");
        std::fs::copy(root.join("vectors/blackhole/regressions.yaml"), &regressions).unwrap();
        let before = load_file(&regressions).unwrap().vectors.len();

        // A real vector, as a divergence report would carry it.
        let file = load_file(&root.join("vectors/blackhole/SFPNOT.yaml")).unwrap();
        let mut v = file.vectors[0].clone();
        v.id = "regressions/fuzz-test/sfpnot".into();
        v.tags.push("fuzz-shape:SFPNOT/test".into());
        let good_yaml = vector_yaml(&v);

        let artifact = |name: &str, data: &[u8]| {
            let p = artifacts_dir.join(name);
            std::fs::write(&p, data).unwrap();
            p
        };
        let paths = vec![
            artifact("crash-diverges", b"diverges"),
            artifact("crash-panics", b"panics"),
            artifacts_dir.join("crash-missing"),
            artifact("crash-bad-yaml", b"bad yaml"),
            artifact("crash-agrees", b"agrees"),
            artifact("crash-duplicate", b"diverges"),
        ];
        let artifacts: Vec<Artifact> = paths.iter().map(|p| (p.clone(), "diff_stream")).collect();
        let artifacts_paths = &paths;
        let oracle = |_: &Path, data: &[u8]| -> Option<Divergent> {
            match data {
                b"diverges" => Some(Divergent {
                    shape: "SFPNOT/test".into(),
                    yaml: good_yaml.clone(),
                    printed: String::new(),
                }),
                b"panics" => panic!("a model panicked on purpose"),
                b"bad yaml" => Some(Divergent {
                    shape: "SFPNOT/other".into(),
                    yaml: "- id: [not a vector".into(),
                    printed: String::new(),
                }),
                _ => None,
            }
        };
        let report = triage_with(&artifacts, &regressions, true, &oracle).expect("triage goes on");
        assert!(report.failed);
        assert_eq!(report.added.len(), 1, "{:?}", report.added);
        assert_eq!(report.added[0].id, "regressions/fuzz-test/sfpnot");
        assert_eq!(report.duplicates.len(), 1);
        assert_eq!(report.not_reproduced, vec![artifacts_paths[4].clone()]);
        let other: Vec<(&Path, &str)> = report.other.iter().map(|(p, m)| (p.as_path(), m.as_str())).collect();
        assert_eq!(other.len(), 3, "{other:?}");
        assert!(
            other[0].0 == artifacts_paths[1] && other[0].1.contains("a model panicked on purpose"),
            "{other:?}"
        );
        assert!(other[1].0 == artifacts_paths[2] && other[1].1.contains("cannot read"), "{other:?}");
        assert!(other[2].0 == artifacts_paths[3] && other[2].1.contains("does not parse"), "{other:?}");
        // The file holds the vector added before the failures, and still loads.
        let after = load_file(&regressions).unwrap();
        assert_eq!(after.vectors.len(), before + 1);
        let added = after.vectors.iter().find(|v| v.id == "regressions/fuzz-test/sfpnot").unwrap();
        assert!(added.tags.iter().any(|t| t == "fuzz-artifact:crash-diverges"), "{:?}", added.tags);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
