//! The seed corpora: `fuzz/corpus/<target>/seed-*` written from the golden vectors (SFPU of
//! both chips, AMX) and a few hand-written DUT answers and words.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use anyhow::Result;
use harness_sfpu::fuzz::{all_arches, encode_stream_input, stream_input_on};
use harness_sfpu::vectors::emit::write_file;
use harness_sfpu::vectors::{VectorFile, load_corpus};
use sfpu_reference::isa::{Arch, decode};
use sfpu_reference::state::StateDoc;

use super::args::TARGETS;

/// Writes `fuzz/corpus/<target>/seed-*` from the golden vectors (deterministic; the files are
/// rewritten on every run, libFuzzer's own additions are kept). Returns the count per target.
pub(super) fn write_seeds(root: &Path) -> Result<Vec<(&'static str, usize)>> {
    let corpus = load_corpus(&root.join("vectors/blackhole"), Arch::Blackhole).map_err(|e| {
        anyhow::anyhow!(
            "the golden vectors do not load: {}",
            e.iter().map(|e| e.to_string()).collect::<Vec<_>>().join("; ")
        )
    })?;
    let mut seeds: BTreeMap<&'static str, BTreeMap<String, Vec<u8>>> = BTreeMap::new();
    let safe = |id: &str| {
        id.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' { c } else { '_' }).collect::<String>()
    };
    let mut modes_seen = BTreeSet::new();
    let mut words = BTreeSet::new();
    for (file, v) in corpus.vectors() {
        for w in &v.program {
            words.insert(w.word.0);
        }
        // diff_stream: one vector per (file, mode), and every multi-instruction vector.
        let first_of_mode = modes_seen.insert((file.file.clone(), v.mode.clone()));
        if first_of_mode || v.program.len() > 1 {
            let Ok(pre) = v.pre.to_state() else { continue };
            let program: Vec<_> =
                v.program.iter().filter_map(|w| decode(Arch::Blackhole, w.word.0).ok()).collect();
            if let Some(bytes) = encode_stream_input(&pre, &program) {
                seeds.entry("diff_stream").or_default().insert(format!("seed-{}", safe(&v.id)), bytes);
            }
            // The same case on the other chips (instructions carried over by their text).
            for arch in all_arches().into_iter().filter(|&a| a != Arch::Blackhole) {
                if let Some(bytes) = stream_input_on(arch, &pre, &program) {
                    seeds
                        .entry("diff_stream")
                        .or_default()
                        .insert(format!("seed-{arch}-{}", safe(&v.id)), bytes);
                }
            }
        }
        // vectors_load: one-vector files of the first vector of each file; state documents.
        if first_of_mode && v.mode.as_deref().is_none_or(|m| m.ends_with("=0") || m == "none") {
            let one = VectorFile { vectors: vec![v.clone()], ..file.clone() };
            let text = write_file(&one, &["seed".to_string()]);
            let load = seeds.entry("vectors_load").or_default();
            load.insert(format!("seed-file-{}", safe(&v.id)), text.into_bytes());
            if let Ok(s) = v.pre.to_state() {
                load.insert(format!("seed-state-{}", safe(&v.id)), s.to_yaml().into_bytes());
                load.insert(format!("seed-json-{}", safe(&v.id)), s.to_json().into_bytes());
            }
            // dut_protocol: a result answer with the vector's post state.
            let answer = serde_json::json!({"type": "result", "id": v.id, "state": v.post,
                "outcome": v.outcome.iter().map(|n| serde_json::json!({"clause": n.clause, "lanes": n.lanes})).collect::<Vec<_>>()});
            seeds
                .entry("dut_protocol")
                .or_default()
                .insert(format!("seed-result-{}", safe(&v.id)), answer.to_string().into_bytes());
        }
    }
    let dut = seeds.entry("dut_protocol").or_default();
    for (name, line) in [
        ("hello", r#"{"type":"hello","protocol":"sfpu-dut/1","name":"seed","version":"1"}"#),
        ("unsupported", r#"{"type":"unsupported","id":"SFPMAD/x","reason":"not yet"}"#),
        ("error", r#"{"type":"error","id":"SFPMAD/x","message":"crashed"}"#),
        ("error-no-id", r#"{"type":"error","message":"wrong protocol"}"#),
        ("result-empty", r#"{"type":"result","id":"a","state":{}}"#),
    ] {
        dut.insert(format!("seed-{name}"), line.as_bytes().to_vec());
    }
    let empty_state = serde_json::to_string(&StateDoc::default()).unwrap_or_default();
    dut.insert(
        "seed-result-default".into(),
        format!(r#"{{"type":"result","id":"b","state":{empty_state}}}"#).into_bytes(),
    );
    // amx_diff: every AMX golden vector, as (chip, operands, state).
    let amx = seeds.entry("amx_diff").or_default();
    for f in harness_amx::generate::files(harness_amx::generate::DEFAULT_SEED) {
        let Ok(chip) = f.chip.parse::<amx_reference::Chip>() else { continue };
        for v in &f.vectors {
            let (Ok(pre), Ok(ops)) = (
                v.pre.to_state(),
                v.program
                    .iter()
                    .map(|w| w.text.parse::<amx_reference::Operand>())
                    .collect::<Result<Vec<_>, _>>(),
            ) else {
                continue;
            };
            let bytes = harness_amx::fuzz::encode_input(chip, &ops, &pre);
            amx.insert(format!("seed-{}", safe(&v.id)), bytes);
        }
    }
    let decode_seeds = seeds.entry("decode").or_default();
    for w in words.iter().chain(&[0u32, 0xFFFF_FFFF, 0x6F00_0000, 0x9A00_0000, 0x7000_1C00]) {
        decode_seeds.insert(format!("seed-{w:08x}"), w.to_le_bytes().to_vec());
    }
    let mut counts = Vec::new();
    for target in TARGETS {
        let dir = root.join("fuzz/corpus").join(target);
        std::fs::create_dir_all(&dir)?;
        let files = seeds.remove(target).unwrap_or_default();
        // Remove stale seeds (a vector renamed or removed), keep libFuzzer's files.
        for e in std::fs::read_dir(&dir)?.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            if name.starts_with("seed-") && !files.contains_key(&name) {
                let _ = std::fs::remove_file(e.path());
            }
        }
        for (name, bytes) in &files {
            let path = dir.join(name);
            if std::fs::read(&path).ok().as_deref() != Some(bytes.as_slice()) {
                std::fs::write(&path, bytes)?;
            }
        }
        counts.push((target, files.len()));
    }
    Ok(counts)
}
