//! The golden-vector corpus: it passes on the reference model and on the fast model, it is what
//! the generator makes today, it covers every mode of every instruction, every file validates
//! against the published schema (which refuses what the loader refuses), the JSON export
//! validates and round-trips, what the specification leaves open is skipped (and `post` states no
//! value there), the header names the specification revision, and the corpus fits its size budget.
//!
//! `SFPU_VECTORS=SFPMAD,-SFPMAD/mod1=NEGATE_VA` filters the corpus run.

use std::path::{Path, PathBuf};

use harness_sfpu::generate::{
    DEFAULT_SEED, REGENERATE, SPEC_COMMITS, generate, header, mode_of_for, modes_for, render_all,
};
use harness_sfpu::taint::Locations;
use harness_sfpu::vectors::emit::{write_file, write_json};
use harness_sfpu::vectors::{Filter, Status, Strictness, Vector, load_corpus, parse_file, run_corpus};
use harness_sfpu::{FastModel, Reference};
use sfpu_reference::isa::{Arch, Opcode, decode};
use sfpu_reference::outcome::{ALL_LANES, Clause, Kind};

fn corpus_dir() -> PathBuf {
    corpus_dir_of(Arch::Blackhole)
}

/// `vectors/<arch>`.
fn corpus_dir_of(arch: Arch) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../vectors").join(arch.to_string())
}

fn load() -> harness_sfpu::vectors::Corpus {
    load_of(Arch::Blackhole)
}

fn load_of(arch: Arch) -> harness_sfpu::vectors::Corpus {
    match load_corpus(&corpus_dir_of(arch), arch) {
        Ok(c) => c,
        Err(errors) => panic!(
            "the corpus does not load:\n{}",
            errors.iter().map(|e| e.to_string()).collect::<Vec<_>>().join("\n")
        ),
    }
}

/// Runs the whole corpus on `model` with the silicon strictness (non-contractual parts compared
/// too) and fails with the first reports if any vector does not pass.
fn assert_every_vector_passes(model: &dyn harness_sfpu::Model, name: &str) {
    for arch in Arch::ALL {
        assert_every_vector_of_passes(arch, model, name);
    }
}

fn assert_every_vector_of_passes(arch: Arch, model: &dyn harness_sfpu::Model, name: &str) {
    let corpus = load_of(arch);
    let results = run_corpus(model, &corpus, &Filter::from_env(), Strictness::Silicon);
    assert!(!results.is_empty(), "no vector selected");
    let failures: Vec<String> = results
        .iter()
        .filter_map(|r| match &r.status {
            Status::Pass => None,
            Status::Fail(f) => Some(f.report.clone()),
            Status::Unsupported(why) | Status::Error(why) => Some(format!("vector {}: {why}", r.id)),
            Status::NotApplicable(why) => Some(format!("vector {}: {why}", r.id)),
            Status::Interrupted => Some(format!("vector {}: interrupted", r.id)),
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} {arch} vectors fail on the {name}:\n{}",
        failures.len(),
        results.len(),
        failures.iter().take(20).cloned().collect::<Vec<_>>().join("\n")
    );
}

/// Every vector passes on the reference model, state and outcome, comparing even the
/// non-contractual parts (the reference models current silicon where the pages describe it).
#[test]
fn reference_passes_every_vector() {
    assert_every_vector_passes(&Reference, "reference model");
}

/// Every vector passes on the fast model (`sfpu-fastpath`), state and outcome, with the same
/// strictness as the reference: the golden vectors are the reference's results, so this is the
/// whole corpus as a differential test of the optimised model.
#[test]
fn fast_model_passes_every_vector() {
    assert_every_vector_passes(&FastModel, "fast model");
}

/// The checked-in files are exactly what the generator produces (like rust-analyzer's
/// `ensure_file_contents`): a stale corpus fails with a diff and the command that fixes it.
#[test]
fn corpus_is_current() {
    let mut stale = Vec::new();
    for (arch, (name, text)) in
        Arch::ALL.into_iter().flat_map(|a| render_all(a, DEFAULT_SEED).into_iter().map(move |f| (a, f)))
    {
        let path = corpus_dir_of(arch).join(&name);
        let on_disk = std::fs::read_to_string(&path).unwrap_or_default();
        if on_disk != text {
            let diff = similar::TextDiff::from_lines(&on_disk, &text);
            let shown: Vec<String> = diff
                .unified_diff()
                .context_radius(1)
                .to_string()
                .lines()
                .take(30)
                .map(String::from)
                .collect();
            stale.push(format!("{arch}/{name}:\n{}", shown.join("\n")));
        }
    }
    assert!(
        stale.is_empty(),
        "{} vector file(s) are stale; run `{REGENERATE}` and commit the result:\n{}",
        stale.len(),
        stale.join("\n")
    );
}

/// Every (instruction, mode value) has at least one vector; the failure lists what is missing.
#[test]
fn every_mode_of_every_instruction_has_vectors() {
    let mut missing = Vec::new();
    for arch in Arch::ALL {
        let corpus = load_of(arch);
        for &op in arch.opcodes() {
            for (mode, _) in modes_for(arch, op) {
                let covered = corpus
                    .vectors()
                    .any(|(f, v)| f.file == op.name() && v.mode.as_deref() == Some(mode.as_str()));
                if !covered {
                    missing.push(format!("{arch} {} {mode}", op.name()));
                }
            }
        }
    }
    assert!(missing.is_empty(), "no vectors for:\n{}", missing.join("\n"));
}

fn validator() -> jsonschema::Validator {
    let schema_text =
        std::fs::read_to_string(corpus_dir().join("../schema.json")).expect("vectors/schema.json");
    let schema: serde_json::Value = serde_json::from_str(&schema_text).expect("schema.json is JSON");
    jsonschema::validator_for(&schema).expect("schema.json is a valid JSON Schema")
}

/// Every checked-in file validates against `vectors/schema.json`, the schema importers use.
#[test]
fn schema_validates_every_file() {
    let validator = validator();
    let mut errors = Vec::new();
    let mut paths: Vec<PathBuf> = Arch::ALL
        .iter()
        .flat_map(|&a| std::fs::read_dir(corpus_dir_of(a)).unwrap().filter_map(|e| e.ok().map(|e| e.path())))
        .collect();
    paths.sort();
    for path in paths.iter().filter(|p| p.extension().is_some_and(|x| x == "yaml")) {
        let text = std::fs::read_to_string(path).unwrap();
        let value: serde_json::Value = serde_yaml::from_str(&text).unwrap();
        for e in validator.iter_errors(&value).take(5) {
            errors.push(format!("{}: {} at {}", path.display(), e, e.instance_path));
        }
    }
    assert!(errors.is_empty(), "schema violations:\n{}", errors.join("\n"));
}

/// The lanes (bit `l` for lane `l`) a value of `post` states, read from the document as an importer
/// reads it (vectors/README.md, "State documents", "Applying post"): one value for every lane, or
/// a list of 32 entries, `null` where there is none. Independent of the crate's own types.
fn stated_lanes(v: &serde_json::Value) -> u32 {
    match v {
        serde_json::Value::Array(items) => {
            items.iter().enumerate().fold(0, |m, (l, x)| if x.is_null() { m } else { m | (1 << l) })
        }
        serde_json::Value::Null => 0,
        _ => u32::MAX,
    }
}

/// A number of the format (an integer, or a `0x`/`0b`/decimal string with `_` allowed).
fn number(v: &serde_json::Value) -> u32 {
    match v {
        serde_json::Value::Number(n) => {
            n.as_u64().and_then(|n| u32::try_from(n).ok()).expect("a 32-bit number")
        }
        serde_json::Value::String(t) => {
            let t = t.replace('_', "");
            let parsed = if let Some(h) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
                u32::from_str_radix(h, 16)
            } else if let Some(b) = t.strip_prefix("0b").or_else(|| t.strip_prefix("0B")) {
                u32::from_str_radix(b, 2)
            } else {
                t.parse()
            };
            parsed.expect("a number")
        }
        serde_json::Value::Null => 0,
        other => panic!("not a number: {other}"),
    }
}

/// What a vector's `post` states where its `skip` covers, worked out from the document alone: one
/// entry per part (`LReg[13] 0xffffffff`). A lane's flag stack is one location: its depth and its
/// bits in every level.
fn post_inside_skip(vector: &serde_json::Value) -> Vec<String> {
    let empty = serde_json::json!({});
    let post = vector.get("post").filter(|p| !p.is_null()).unwrap_or(&empty);
    let skip = vector.get("skip").unwrap_or(&empty);
    let post_parts = post.as_object().expect("post is a map");
    if skip.get("all") == Some(&serde_json::Value::Bool(true)) {
        return post_parts.keys().filter(|k| *k != "arch").map(|k| format!("{k} (skip: all)")).collect();
    }
    let covered = |part: &str| skip.get(part).map_or(0, number);
    let mut out = Vec::new();
    let mut check = |what: String, stated: u32, covered: u32| {
        if stated & covered != 0 {
            out.push(format!("{what} 0x{:08x}", stated & covered));
        }
    };
    if let Some(regs) = post.get("LReg").and_then(|r| r.as_object()) {
        for (reg, value) in regs {
            let covered = skip.get("LReg").and_then(|l| l.get(reg)).map_or(0, number);
            check(format!("LReg[{reg}]"), stated_lanes(value), covered);
        }
    }
    for part in ["LaneFlags", "UseLaneFlagsForLaneEnable", "LaneConfig", "PRNG"] {
        if let Some(value) = post.get(part) {
            check(part.to_string(), stated_lanes(value), covered(part));
        }
    }
    if let Some(fs) = post.get("FlagStack") {
        let mut lanes = fs.get("depth").map_or(0, stated_lanes);
        for level in fs.get("levels").and_then(|l| l.as_array()).into_iter().flatten() {
            for bits in ["LaneFlags", "UseLaneFlagsForLaneEnable"] {
                lanes |= level.get(bits).map_or(0, number);
            }
        }
        check("FlagStack".into(), lanes, covered("FlagStack"));
    }
    if let Some(lmc) = post.get("LoadMacroConfig") {
        for words in ["InstructionTemplate", "Sequence"] {
            for (i, value) in lmc.get(words).and_then(|w| w.as_object()).into_iter().flatten() {
                check(
                    format!("LoadMacroConfig.{words}[{i}]"),
                    stated_lanes(value),
                    covered("LoadMacroConfig"),
                );
            }
        }
        if let Some(misc) = lmc.get("Misc") {
            check("LoadMacroConfig.Misc".into(), stated_lanes(misc), covered("LoadMacroConfig"));
        }
    }
    for part in ["Dst", "Addressing"] {
        if post.get(part).is_some() && skip.get(part) == Some(&serde_json::Value::Bool(true)) {
            out.push(part.to_string());
        }
    }
    out
}

/// No vector of any chip states a value in `post` where its `skip` covers (vectors/README.md,
/// "Applying post": an importer would read it as a promise), read from the checked-in YAML as an
/// importer reads it, not through the loader. The check itself catches such a value: the first
/// backdoor load of `SFPMAD.yaml` with the `post` the reference model computes (the instruction
/// word written into `InstructionTemplate[1]`, which its `skip` covers in every lane). AMX
/// `vecfp` promises every behaviour: its files have no `skip`.
#[test]
fn post_states_nothing_where_skip_covers() {
    let mut problems = Vec::new();
    let (mut skipping, mut partly) = (0, 0);
    for arch in Arch::ALL {
        let mut paths: Vec<PathBuf> = std::fs::read_dir(corpus_dir_of(arch))
            .unwrap()
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "yaml"))
            .collect();
        paths.sort();
        for path in paths {
            let file: serde_json::Value =
                serde_yaml::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
            for v in file["vectors"].as_array().expect("vectors") {
                if v.get("skip").is_some() {
                    skipping += 1;
                }
                if v.get("post").is_some_and(|p| p.to_string().contains("null")) {
                    partly += 1;
                }
                for what in post_inside_skip(v) {
                    problems.push(format!(
                        "{}: {}: post states {what}, which skip covers",
                        path.display(),
                        v["id"]
                    ));
                }
            }
        }
    }
    assert!(
        problems.is_empty(),
        "{} problem(s):\n{}",
        problems.len(),
        problems[..problems.len().min(20)].join("\n")
    );
    // The corpus has vectors with `skip`, and some whose `post` gives lanes no value.
    assert!(skipping > 1000 && partly > 0, "{skipping} vectors skip, {partly} give a lane no value");
    let amx = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../vectors/amx");
    for chip in ["m1", "m2", "m4"] {
        let text = std::fs::read_to_string(amx.join(format!("{chip}.yaml"))).unwrap();
        let file: serde_json::Value = serde_yaml::from_str(&text).unwrap();
        assert!(file["vectors"].as_array().unwrap().iter().all(|v| v.get("skip").is_none()), "{chip}");
    }
    // The check sees a value stated where skip covers.
    let v = serde_json::json!({
        "id": "SFPMAD/mod1=0/vd-12-15-backdoor",
        "post": {"LoadMacroConfig": {"InstructionTemplate": {"1": "0x840615d0"}}, "LReg": {"3": "0x1"}},
        "skip": {"LReg": {"13": "0xffffffff"}, "LoadMacroConfig": "0xffffffff", "Addressing": true},
    });
    assert_eq!(post_inside_skip(&v), ["LoadMacroConfig.InstructionTemplate[1] 0xffffffff"]);
    let lanes: Vec<serde_json::Value> =
        (0..32).map(|l| if l < 2 { serde_json::Value::Null } else { serde_json::json!(1) }).collect();
    let v = serde_json::json!({"post": {"LaneFlags": lanes, "Dst": {}}, "skip": {"LaneFlags": "0x7", "Dst": true}});
    assert_eq!(post_inside_skip(&v), ["LaneFlags 0x00000004", "Dst"]);
}

/// A small valid file, as JSON, for the schema's negative tests.
fn good_document() -> serde_json::Value {
    serde_json::json!({
        "format": "sfpu-vectors/3",
        "arch": "blackhole",
        "file": "SFPMOV",
        "vectors": [{
            "id": "SFPMOV/mod1=0/example",
            "mode": "mod1=0",
            "requires": ["row-mask"],
            "program": [{"word": "0x7c000120", "text": "TTI_SFPMOV(0, 1, 2, 0)"}],
            "pre": {
                "LReg": {"1": "0x3f800000"},
                "LaneConfig": "0x3ffff",
                "LoadMacroConfig": {"Misc": "0xfff", "Sequence": {"3": 4}},
                "Dst": {"rows": {"1023": ["0xffff", 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, "0b1"]}},
                "Addressing": {"SFPU_DEST_FMT_Base": 15, "RWC": {"SrcA": 63, "Dst": 1023}, "ADDR_MOD": {"7": {"BiasIncr": 15}}}
            },
            "post": {"LReg": {"2": "0x3f800000"}}
        }]
    })
}

/// The schema refuses documents the loader refuses: out-of-range cells, fields and keys, wrong
/// widths, unknown fields. (It was looser than the loader: 16-bit Dst cells and 4-bit
/// Addressing fields took 32-bit and 10-bit values.)
#[test]
fn schema_rejects_bad_documents() {
    let validator = validator();
    let good = good_document();
    let errors: Vec<String> =
        validator.iter_errors(&good).map(|e| format!("{e} at {}", e.instance_path)).collect();
    assert!(errors.is_empty(), "the good document is refused: {errors:?}");
    let loader = |doc: &serde_json::Value| parse_file(Path::new("SFPMOV.json"), &doc.to_string());
    assert!(loader(&good).is_ok(), "{:?}", loader(&good).err());
    let pre = "/vectors/0/pre";
    let bad: &[(&str, serde_json::Value)] = &[
        ("/vectors/0/pre/Dst/rows/1023/0", serde_json::json!(65536)),
        ("/vectors/0/pre/Dst/rows/1023/0", serde_json::json!("0x10000")),
        ("/vectors/0/pre/Dst/rows/1023/0", serde_json::json!("0x1_0000")),
        ("/vectors/0/pre/Addressing/SFPU_DEST_FMT_Base", serde_json::json!(16)),
        ("/vectors/0/pre/Addressing/RWC/SrcA", serde_json::json!(64)),
        ("/vectors/0/pre/Addressing/RWC/Dst", serde_json::json!(1024)),
        ("/vectors/0/pre/Addressing/ADDR_MOD/7/BiasIncr", serde_json::json!(16)),
        ("/vectors/0/pre/LaneConfig", serde_json::json!("0x40000")),
        ("/vectors/0/pre/LaneConfig", serde_json::json!(262144)),
        ("/vectors/0/pre/LoadMacroConfig/Misc", serde_json::json!("0x1000")),
        ("/vectors/0/pre/LReg/1", serde_json::json!("0x100000000")),
        ("/vectors/0/pre/LReg/1", serde_json::json!("0x")),
        ("/vectors/0/pre/LReg/1", serde_json::json!(["0x1", "0x2"])),
        ("/vectors/0/pre/LReg/1", serde_json::json!(-1)),
        ("/vectors/0/requires/0", serde_json::json!("no-such-feature")),
        ("/vectors/0/requires", serde_json::json!("lane-config")),
        ("/format", serde_json::json!("sfpu-vectors/4")),
    ];
    for (pointer, value) in bad {
        let mut doc = good.clone();
        *doc.pointer_mut(pointer).unwrap_or_else(|| panic!("{pointer}")) = value.clone();
        assert!(!validator.is_valid(&doc), "the schema accepts {pointer} = {value}");
        assert!(loader(&doc).is_err(), "the loader accepts {pointer} = {value}");
    }
    // Keys out of range, and unknown fields.
    let mut keyed: Vec<(String, serde_json::Value)> = Vec::new();
    for (part, key) in [("LReg", "17"), ("Dst/rows", "1024")] {
        let mut doc = good.clone();
        let map = doc.pointer_mut(&format!("{pre}/{part}")).and_then(|m| m.as_object_mut()).unwrap();
        let first = map.values().next().cloned().unwrap();
        map.insert(key.to_string(), first);
        keyed.push((format!("{part}.{key}"), doc));
    }
    let mut doc = good.clone();
    doc.pointer_mut(pre).and_then(|m| m.as_object_mut()).unwrap().insert("Bogus".into(), 1.into());
    keyed.push(("unknown field".into(), doc));
    // `requires` is required in /3 and /2 and absent in /1.
    let mut doc = good.clone();
    doc.pointer_mut("/vectors/0").and_then(|m| m.as_object_mut()).unwrap().remove("requires");
    keyed.push(("a /3 vector without requires".into(), doc));
    // A lane without a value: in post where skip covers it (a per-lane list's `null`, a lane mask
    // as 32 lane bits), never in pre, nor in a /2 file, nor a lane bit other than 0 and 1.
    let lanes = |first: serde_json::Value, rest: serde_json::Value| -> serde_json::Value {
        std::iter::once(first).chain(std::iter::repeat_n(rest, 31)).collect()
    };
    let mut partly = good.clone();
    partly["vectors"][0]["post"]["LReg"]["2"] = lanes(serde_json::Value::Null, "0x3f800000".into());
    partly["vectors"][0]["post"]["LaneFlags"] = lanes(serde_json::Value::Null, 0.into());
    partly["vectors"][0]["skip"] =
        serde_json::json!({"LReg": {"2": "0x00000001"}, "LaneFlags": "0x00000001"});
    assert!(validator.is_valid(&partly), "the schema refuses a null lane in post");
    assert!(loader(&partly).is_ok(), "the loader refuses a null lane in post: {:?}", loader(&partly).err());
    let mut doc = good.clone();
    doc["vectors"][0]["pre"]["LReg"]["1"] = lanes(serde_json::Value::Null, "0x1".into());
    keyed.push(("a null lane in pre".into(), doc));
    let mut doc = partly.clone();
    doc["format"] = "sfpu-vectors/2".into();
    keyed.push(("a null lane in a /2 file".into(), doc));
    let mut doc = partly.clone();
    doc["vectors"][0]["post"]["LaneFlags"] = lanes(serde_json::Value::Null, 2.into());
    keyed.push(("a lane bit 2".into(), doc));
    let mut doc = good.clone();
    *doc.pointer_mut("/format").unwrap() = "sfpu-vectors/1".into();
    keyed.push(("a /1 vector with requires".into(), doc.clone()));
    doc.pointer_mut("/vectors/0").and_then(|m| m.as_object_mut()).unwrap().remove("requires");
    assert!(validator.is_valid(&doc), "the schema refuses a good /1 document");
    assert!(loader(&doc).is_ok(), "the loader refuses a good /1 document");
    let mut doc = good.clone();
    doc.pointer_mut("/vectors/0/pre/Addressing")
        .and_then(|m| m.as_object_mut())
        .unwrap()
        .insert("RWC_Dst".into(), 1.into());
    keyed.push(("unknown Addressing field".into(), doc));
    for (what, doc) in keyed {
        assert!(!validator.is_valid(&doc), "the schema accepts {what}");
        assert!(loader(&doc).is_err(), "the loader accepts {what}");
    }
}

/// A document is for one chip: a wormhole file's states say `arch: wormhole` and set none of the
/// addressing locations only Blackhole has
/// (`docs/spec/sfpu-wormhole.md#blackhole-only-state-in-a-wormhole-document`); a blackhole file's
/// states have no Wormhole SFPSHFT2 latch. The schema and the loader both refuse the rest.
#[test]
fn schema_and_loader_refuse_a_state_for_the_other_chip() {
    let validator = validator();
    let loader = |doc: &serde_json::Value| parse_file(Path::new("SFPMOV.json"), &doc.to_string());
    let mut wh = good_document();
    *wh.pointer_mut("/arch").unwrap() = "wormhole".into();
    let pre = wh.pointer_mut("/vectors/0/pre").and_then(|m| m.as_object_mut()).unwrap();
    pre.insert("arch".into(), "wormhole".into());
    pre.insert("SFPSHFT2_vc0".into(), "0xa0000000".into());
    pre.get_mut("Addressing").and_then(|m| m.as_object_mut()).unwrap().remove("SFPU_DEST_FMT_Base");
    let errors: Vec<String> =
        validator.iter_errors(&wh).map(|e| format!("{e} at {}", e.instance_path)).collect();
    assert!(errors.is_empty(), "the good wormhole document is refused: {errors:?}");
    assert!(loader(&wh).is_ok(), "{:?}", loader(&wh).err());

    let mut bad: Vec<(String, serde_json::Value)> = Vec::new();
    let mut doc = wh.clone();
    doc.pointer_mut("/vectors/0/pre").and_then(|m| m.as_object_mut()).unwrap().remove("arch");
    bad.push(("a wormhole file whose pre does not say arch".into(), doc));
    let mut doc = wh.clone();
    *doc.pointer_mut("/vectors/0/pre/arch").unwrap() = "blackhole".into();
    bad.push(("a wormhole file with a blackhole pre".into(), doc));
    let mut doc = wh.clone();
    doc.pointer_mut("/vectors/0/post")
        .and_then(|m| m.as_object_mut())
        .unwrap()
        .insert("arch".into(), "blackhole".into());
    bad.push(("a wormhole file with a blackhole post".into(), doc));
    for (field, value) in [
        ("SFPU_STACK_Incr", serde_json::json!(4)),
        ("SFPU_DEST_FMT_Enable", serde_json::json!(true)),
        ("SFPU_DEST_FMT_Base", serde_json::json!(5)),
        ("DEST_SP_BASE_Base", serde_json::json!(4)),
        ("DEST_ACCESS_CFG_remap_addrs", serde_json::json!(true)),
        ("DEST_ACCESS_CFG_swizzle_32b", serde_json::json!(true)),
    ] {
        let mut doc = wh.clone();
        doc.pointer_mut("/vectors/0/pre/Addressing")
            .and_then(|m| m.as_object_mut())
            .unwrap()
            .insert(field.into(), value);
        bad.push((format!("Addressing.{field} in a wormhole file"), doc));
    }
    let mut doc = wh.clone();
    *doc.pointer_mut("/vectors/0/pre/Addressing/RWC").unwrap() = serde_json::json!({"Sp": 3});
    bad.push(("RWC.Sp in a wormhole file".into(), doc));
    let mut doc = good_document();
    doc.pointer_mut("/vectors/0/pre")
        .and_then(|m| m.as_object_mut())
        .unwrap()
        .insert("SFPSHFT2_vc0".into(), 1.into());
    bad.push(("SFPSHFT2_vc0 in a blackhole file".into(), doc));
    let mut doc = good_document();
    doc.pointer_mut("/vectors/0/pre")
        .and_then(|m| m.as_object_mut())
        .unwrap()
        .insert("arch".into(), "wormhole".into());
    bad.push(("a wormhole pre in a blackhole file".into(), doc));
    for (what, doc) in bad {
        assert!(!validator.is_valid(&doc), "the schema accepts {what}");
        assert!(loader(&doc).is_err(), "the loader accepts {what}");
    }
    // And a whole file of the other chip is refused by load_corpus.
    let dir = std::env::temp_dir().join(format!("sfpu-wrong-chip-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("SFPMOV.yaml"), wh.to_string()).unwrap();
    let refused = load_corpus(&dir, Arch::Blackhole);
    std::fs::remove_dir_all(&dir).unwrap();
    let errors = refused.expect_err("a wormhole file in a blackhole corpus loads");
    assert!(
        errors.iter().any(|e| format!("{e:?}").contains("for wormhole, expected blackhole")),
        "{errors:?}"
    );
}

/// `cargo xtask vectors --json DIR` output (the same function writes it) validates against the
/// schema and reads back, through the loader, as the same vectors; so do the YAML files as
/// `cargo xtask vectors` writes them (a mode tag `rnd=0,mod1=0` once went out unquoted in a
/// one-line `tags: [...]` and read back as two tags).
#[test]
fn json_export_validates_and_round_trips() {
    let validator = validator();
    let mut files = Vec::new();
    for arch in Arch::ALL {
        files.extend(generate(arch, DEFAULT_SEED));
        let regressions = harness_sfpu::vectors::load_file(&corpus_dir_of(arch).join("regressions.yaml"))
            .unwrap_or_else(|e| panic!("{e:?}"));
        files.push(regressions);
    }
    let mut problems = Vec::new();
    for file in &files {
        let text = write_json(file);
        let value: serde_json::Value = serde_json::from_str(&text).expect("the export is JSON");
        for e in validator.iter_errors(&value).take(3) {
            problems.push(format!("{}.json: {e} at {}", file.file, e.instance_path));
        }
        match parse_file(Path::new(&format!("{}.json", file.file)), &text) {
            Ok(back) if back == *file => {}
            Ok(_) => problems.push(format!("{}.json reads back different", file.file)),
            Err(e) => problems.push(format!("{}.json does not load: {e:?}", file.file)),
        }
        let yaml = write_file(file, &[]);
        match parse_file(Path::new(&format!("{}.yaml", file.file)), &yaml) {
            Ok(back) if back == *file => {}
            Ok(back) => {
                let differs = file.vectors.iter().zip(&back.vectors).find(|(a, b)| a != b);
                problems.push(
                    format!("{}.yaml reads back different: {differs:?}", file.file)
                        .chars()
                        .take(600)
                        .collect(),
                )
            }
            Err(e) => problems.push(format!("{}.yaml does not load: {e:?}", file.file)),
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Each chip's checked-in instruction corpus is under 25 MB on disk (the corpus's size budget),
/// counting every file in whole 4 KiB blocks as `du` does; the SFPI kernel vectors (`kernels.yaml`,
/// whole-tile programs of about a thousand instructions each) have a budget of their own.
#[test]
fn corpus_fits_the_size_budget() {
    const BUDGET: u64 = 25_000_000;
    const KERNELS_BUDGET: u64 = 6_000_000;
    for arch in Arch::ALL {
        let (mut on_disk, mut kernels) = (0, 0);
        for entry in std::fs::read_dir(corpus_dir_of(arch)).unwrap() {
            let entry = entry.unwrap();
            let len = entry.metadata().unwrap().len().div_ceil(4096) * 4096;
            if entry.file_name() == "kernels.yaml" {
                kernels += len;
            } else {
                on_disk += len;
            }
        }
        assert!(on_disk < BUDGET, "vectors/{arch} takes {on_disk} bytes on disk, over the {BUDGET} budget");
        assert!(kernels > 0, "vectors/{arch}/kernels.yaml is missing");
        assert!(
            kernels < KERNELS_BUDGET,
            "vectors/{arch}/kernels.yaml takes {kernels} bytes, over the {KERNELS_BUDGET} budget"
        );
    }
}

/// The header names the specification revision: the commits of the pages the reference model
/// transcribes, which must be exactly those `reference/sfpu/src` cites.
#[test]
fn header_names_the_cited_spec_commits() {
    let mut cited = std::collections::BTreeSet::new();
    let mut stack = vec![Path::new(env!("CARGO_MANIFEST_DIR")).join("../../reference/sfpu/src")];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|x| x == "rs") {
                let text = std::fs::read_to_string(&path).unwrap();
                for (i, _) in text.match_indices("@ `") {
                    let id = &text[i + 3..];
                    let hex: String = id.chars().take_while(|c| c.is_ascii_hexdigit()).collect();
                    if hex.len() == 40 {
                        cited.insert(hex.to_ascii_lowercase());
                    }
                }
            }
        }
    }
    let listed: std::collections::BTreeSet<String> = SPEC_COMMITS.iter().map(|c| c.to_string()).collect();
    assert_eq!(listed, cited, "generate::SPEC_COMMITS must list the commits reference/sfpu/src cites");
    let text = header(DEFAULT_SEED).join("\n");
    for c in SPEC_COMMITS {
        assert!(text.contains(&c[..12]), "the header does not name {c}:\n{text}");
    }
    assert!(text.contains("harness/sfpu/src/generate") && text.contains(REGENERATE), "{text}");
}

/// The field `name` of a vector's single instruction.
fn field(v: &Vector, name: &str) -> Option<u32> {
    let instr = decode(Arch::Blackhole, v.program.first()?.word.0).ok()?;
    instr.field_values().iter().find(|(n, _)| *n == name).map(|&(_, x)| x)
}

/// Whether `loc` covers `lanes` of `LReg[reg]`.
fn covers_lreg(loc: &Locations, reg: usize, lanes: u32) -> bool {
    loc.lreg(reg) & lanes == lanes
}

/// What the specification leaves open is skipped. Every vector whose outcome names a clause lists
/// something under `skip` (undefined, unspecified) or `non_contractual`; undefined behaviour skips
/// everything; and for one-instruction vectors, the locations the clause's text leaves open (the
/// clauses' entries in `docs/spec/`, written out here from the text, not from the taint code) are
/// covered: a reserved mode leaves the destination open in every lane (SFPSHFT2 Mod1 7..15 are
/// undefined, so skip everything), SFPCONFIG's clauses every SFPCONFIG destination, a backdoor load
/// every lane's LoadMacroConfig, and so on.
#[test]
fn open_clauses_are_skipped() {
    let corpus = load();
    let mut problems = Vec::new();
    for (f, v) in corpus.vectors() {
        let skip = v.skip.clone().unwrap_or_default();
        let nc = v.non_contractual.clone().unwrap_or_default();
        let mut either = skip.clone();
        either.union(&nc);
        for n in &v.outcome {
            let clause = Clause::from_id(&n.clause).unwrap();
            let set = match n.kind {
                Kind::Undefined | Kind::Unspecified => &skip,
                Kind::NonContractual => &nc,
            };
            if set.is_empty() {
                problems.push(format!("{}: `{}` ({}) but nothing listed", v.id, n.clause, n.kind));
                continue;
            }
            if n.kind == Kind::Undefined && !skip.all {
                problems.push(format!("{}: undefined `{}` but `skip` is not `all`", v.id, n.clause));
            }
            if v.program.len() != 1 || f.file == "sequences" || either.all {
                continue;
            }
            let vd = field(v, "VD").map(|x| x as usize);
            let mut want: Vec<(String, bool)> = Vec::new();
            let mut lreg = |reg: usize, lanes: u32| {
                want.push((format!("LReg[{reg}] lanes 0x{lanes:08x}"), covers_lreg(&either, reg, lanes)));
            };
            use Clause::*;
            match clause {
                SfpshftReservedMod1 | SfpcastReservedMod1 | SfpmovReservedMod1 | SfpswapReservedMod1 => {
                    if let Some(d) = vd.filter(|&d| d < 8) {
                        lreg(d, ALL_LANES);
                    }
                }
                Sfpmul24NonZeroVc => {
                    if let Some(d) = vd.filter(|&d| d < 8) {
                        lreg(d, n.lanes.0);
                    }
                }
                SfpconfigNoopVd | SfpconfigMaskAndValue => {
                    for reg in 11..=14 {
                        lreg(reg, ALL_LANES);
                    }
                    want.push(("LaneConfig".into(), either.LaneConfig.0 == ALL_LANES));
                    want.push(("LoadMacroConfig".into(), either.LoadMacroConfig.0 == ALL_LANES));
                }
                SfpconfigVd12Constant => lreg(12, ALL_LANES),
                BackdoorLoad => {
                    want.push(("LoadMacroConfig".into(), either.LoadMacroConfig.0 == ALL_LANES));
                }
                SfppopcFullStackComplex => {
                    want.push(("FlagStack".into(), either.FlagStack.0 & n.lanes.0 == n.lanes.0));
                    want.push(("LaneFlags".into(), either.LaneFlags.0 & n.lanes.0 == n.lanes.0));
                }
                BlackholeAddrMod => want.push(("Addressing".into(), either.Addressing)),
                _ => {}
            }
            for (what, ok) in want {
                if !ok {
                    problems
                        .push(format!("{}: `{}` leaves {what} open, but it is not skipped", v.id, n.clause));
                }
            }
        }
    }
    assert!(
        problems.is_empty(),
        "{} problem(s):\n{}",
        problems.len(),
        problems.iter().take(30).cloned().collect::<Vec<_>>().join("\n")
    );
}

/// vectors/README.md, from which an importer is written, lists every clause an outcome can name
/// with its kind and section (a link to the entry, relative to `vectors/`).
#[test]
fn readme_lists_every_clause() {
    let readme = std::fs::read_to_string(corpus_dir().join("../README.md")).expect("vectors/README.md");
    for &c in Clause::ALL {
        let s = c.section();
        let row = format!("| `{}` | {} | [`{s}`](../{s}) |", c.id(), c.kind());
        assert!(readme.contains(&row), "vectors/README.md lacks the row `{row}`");
    }
}

/// The features table of vectors/README.md ("Features"), written out here from the README, not
/// from the code: which instructions' pages observe each feature.
fn observers(feature: &str) -> Vec<Opcode> {
    use Opcode::*;
    let dst = vec![SFPLOAD, SFPSTORE, SFPLOADMACRO];
    match feature {
        "flag-stack-ragged" => vec![SFPPUSHC, SFPPOPC, SFPCOMPC, SFPGT, SFPLE],
        "use-lane-flags-ragged" => Opcode::ALL.iter().copied().filter(|&o| o != SFPNOP).collect(),
        "row-mask" => Opcode::ALL
            .iter()
            .copied()
            .filter(|o| !matches!(o, SFPNOP | SFPENCC | SFPPUSHC | SFPPOPC | SFPCOMPC))
            .collect(),
        // Through DISABLE_BACKDOOR_LOAD: every instruction with a VD field (SFPCONFIG's is a
        // selector); and the pages that read other bits.
        "lane-config" => Opcode::ALL
            .iter()
            .copied()
            .filter(|o| {
                *o == SFPLOADMACRO
                    || (*o != SFPCONFIG && o.fields(Arch::Blackhole).iter().any(|f| f.name == "VD"))
            })
            .chain([SFPCONFIG, SFPSWAP, SFPMOV])
            .collect(),
        "load-macro-config" => vec![SFPMOV, SFPCONFIG, SFPLOADMACRO],
        "instruction-template" => vec![SFPMOV, SFPLOADMACRO],
        "prng" => vec![SFPSTOCHRND, SFPCAST, SFPMOV, SFPLOADMACRO],
        "lreg16" => vec![SFPLOADMACRO],
        "sfpshft2-latch" => vec![SFPSHFT2],
        _ => dst,
    }
}

fn requires_of(v: &Vector) -> Vec<&'static str> {
    v.requires.iter().flatten().map(|f| f.id()).collect()
}

/// Every (instruction, mode value) has a vector that needs only the baseline.
#[test]
fn every_mode_has_a_baseline_vector() {
    let mut missing = Vec::new();
    for arch in Arch::ALL {
        let corpus = load_of(arch);
        for &op in arch.opcodes() {
            for (mode, _) in modes_for(arch, op) {
                let baseline = corpus.vectors().any(|(f, v)| {
                    f.file == op.name()
                        && v.mode.as_deref() == Some(mode.as_str())
                        && requires_of(v).is_empty()
                });
                if !baseline {
                    missing.push(format!("{arch} {} {mode}", op.name()));
                }
            }
        }
    }
    assert!(missing.is_empty(), "no baseline vector for:\n{}", missing.join("\n"));
}

/// Every feature is exercised, for every instruction whose page reads it, by vectors that add just
/// that feature to the baseline (`requires` is exactly that feature).
#[test]
fn every_feature_alone_for_every_instruction_that_reads_it() {
    let mut missing = Vec::new();
    for arch in Arch::ALL {
        let corpus = load_of(arch);
        for &f in harness_sfpu::features::Feature::ALL {
            // The state each chip does not have
            // (`docs/spec/sfpu-wormhole.md#blackhole-only-state-in-a-wormhole-document`).
            let absent = match arch {
                Arch::Blackhole => ["sfpshft2-latch"].as_slice(),
                Arch::Wormhole => ["sp", "dest-remap", "swizzle-32b"].as_slice(),
            };
            if absent.contains(&f.id()) {
                continue;
            }
            for op in observers(f.id()).into_iter().filter(|&o| arch.has(o)) {
                let alone =
                    corpus.vectors().any(|(file, v)| file.file == op.name() && requires_of(v) == [f.id()]);
                if !alone {
                    missing.push(format!("{arch}: {} alone in {}", f.id(), op.name()));
                }
            }
        }
    }
    assert!(missing.is_empty(), "missing one-feature vectors:\n{}", missing.join("\n"));
}

/// The features of a state, from the definitions in vectors/README.md ("Features").
fn present(s: &sfpu_reference::State) -> Vec<&'static str> {
    let a = &s.Addressing;
    let r = &a.RWC;
    let depths: std::collections::BTreeSet<usize> = s.FlagStack.iter().map(|st| st.len()).collect();
    let mut uses =
        vec![s.UseLaneFlagsForLaneEnable.iter().collect::<std::collections::BTreeSet<_>>().len() > 1];
    for level in 0..8 {
        let at: std::collections::BTreeSet<bool> = s
            .FlagStack
            .iter()
            .filter_map(|st| st.entries().get(level).map(|e| e.UseLaneFlagsForLaneEnable))
            .collect();
        uses.push(at.len() > 1);
    }
    let checks: [(&str, bool); 18] = [
        ("flag-stack-ragged", depths.len() > 1),
        ("use-lane-flags-ragged", uses.contains(&true)),
        ("row-mask", s.LaneConfig.iter().any(|c| c.bits() & 0xF000 != 0)),
        ("lane-config", s.LaneConfig.iter().any(|c| c.bits() & !0xF000 != 0)),
        ("load-macro-config", s.LoadMacroConfig.iter().any(|c| c.Misc.bits() != 0 || c.Sequence != [0; 4])),
        ("instruction-template", s.LoadMacroConfig.iter().any(|c| c.InstructionTemplate != [0; 4])),
        ("prng", s.PRNG != [0; 32]),
        ("lreg16", s.LReg[16] != [0; 32]),
        ("dst-invalid-rows", s.Dst.DstRowValid.contains(&false)),
        ("dst-debug-alias", a.DBG_FEATURE_DISABLE_bit11),
        ("dest-remap", a.DEST_ACCESS_CFG_remap_addrs),
        ("swizzle-32b", a.DEST_ACCESS_CFG_swizzle_32b),
        ("srcb-override", a.ALU_FORMAT_SPEC_REG_SrcB_override || a.ALU_FORMAT_SPEC_REG_SrcB_val != 0),
        (
            "dst-format-config",
            a.ALU_ACC_CTRL_SFPU_Fp32_enabled
                || a.ALU_FORMAT_SPEC_REG1_SrcB != 0
                || a.SFPU_DEST_FMT_Enable
                || a.SFPU_DEST_FMT_Base != 0,
        ),
        (
            "addr-mod",
            a.ADDR_MOD_SET_Base
                || a.ADDR_MOD.iter().any(|m| !m.is_identity() || m.FidelityIncr != 0 || m.FidelityClear),
        ),
        (
            "rwc",
            [r.Dst, r.Dst_Cr, r.SrcA, r.SrcA_Cr, r.SrcB, r.SrcB_Cr, r.FidelityPhase, r.ExtraAddrModBit]
                .iter()
                .any(|&x| x != 0),
        ),
        ("sp", r.Sp != 0 || a.SFPU_STACK_Incr != 0 || a.DEST_SP_BASE_Base != 0),
        ("dest-base", a.DEST_TARGET_REG_CFG_MATH_Offset != 0 || a.DEST_REGW_BASE_Base != 0),
    ];
    checks.iter().filter(|(_, c)| *c).map(|(f, _)| *f).collect()
}

/// `requires` of every one-instruction vector (SFPLOADMACRO aside: what its schedule observes
/// depends on the drain) is what the README's features table gives: the features present in
/// `pre` that the instruction's page observes, with the finer rules the table states (SFPMOV
/// observes LoadMacroConfig, LaneConfig and the PRNG only under FROM_SPECIAL and the `VC` that
/// selects them; the SrcB format features only under `MOD0_FMT_SRCB`; LaneConfig through
/// DISABLE_BACKDOOR_LOAD only with `VD` 12..15; the flag stack of SFPGT/SFPLE only with
/// `MUTATE_STACK`; SFPCONFIG LoadMacroConfig only with `VD` 8). And a state software cannot reach
/// (ragged flag stacks, ragged UseLaneFlagsForLaneEnable) is always declared.
#[test]
fn requires_follows_the_features_table() {
    let corpus = load();
    let mut problems = Vec::new();
    for (f, v) in corpus.vectors() {
        let pre = v.pre.to_state().unwrap();
        let have = present(&pre);
        let req = requires_of(v);
        for unreachable in ["flag-stack-ragged", "use-lane-flags-ragged"] {
            if have.contains(&unreachable) && !req.contains(&unreachable) && f.file != "sequences" {
                problems.push(format!("{}: pre has {unreachable}, requires does not list it", v.id));
            }
        }
        let [word] = v.program.as_slice() else { continue };
        let instr = decode(Arch::Blackhole, word.word.0).unwrap();
        let op = instr.opcode();
        if op == Opcode::SFPLOADMACRO {
            continue;
        }
        let get = |n: &str| instr.field_values().iter().find(|(k, _)| *k == n).map(|&(_, x)| x);
        let (mod1, vc, vd) = (get("Mod1").unwrap_or(0), get("VC").unwrap_or(0), get("VD"));
        let from_special = op == Opcode::SFPMOV && mod1 & 8 != 0;
        let want: Vec<&str> = have
            .iter()
            .copied()
            .filter(|&feat| {
                observers(feat).contains(&op)
                    && match feat {
                        "flag-stack-ragged" => !matches!(op, Opcode::SFPGT | Opcode::SFPLE) || mod1 & 2 != 0,
                        "lane-config" => match op {
                            Opcode::SFPMOV => from_special || vd.is_some_and(|d| d >= 12),
                            Opcode::SFPLOAD | Opcode::SFPSTORE | Opcode::SFPSWAP | Opcode::SFPCONFIG => true,
                            _ => vd.is_some_and(|d| d >= 12),
                        },
                        "load-macro-config" => match op {
                            Opcode::SFPMOV => from_special && (4..=8).contains(&vc),
                            _ => get("VD") == Some(8),
                        },
                        "instruction-template" => from_special && vc <= 3,
                        "prng" => match op {
                            Opcode::SFPMOV => from_special && vc == 9,
                            Opcode::SFPCAST => mod1 & 3 == 1,
                            _ => true,
                        },
                        "srcb-override" | "dst-format-config" => get("Mod0") == Some(0),
                        "row-mask" => op != Opcode::SFPCONFIG || get("VD") == Some(15),
                        _ => true,
                    }
            })
            .collect();
        if req != want {
            problems.push(format!("{}: requires {req:?}, the table gives {want:?}", v.id));
        }
    }
    assert!(
        problems.is_empty(),
        "{} problem(s):\n{}",
        problems.len(),
        problems[..problems.len().min(20)].join("\n")
    );
}

/// The `reserved-encoding` and `reserved-bits` tags (vectors/README.md, "Tags") are on exactly
/// the vectors whose program has such an encoding, and those encodings are promised (audit, issue
/// 14 part 7: the pseudocode defines them).
#[test]
fn reserved_encodings_are_tagged() {
    let corpus = load();
    let mut problems = Vec::new();
    let mut seen = (0, 0);
    let mut promised = 0;
    for (_, v) in corpus.vectors() {
        let (mut encoding, mut bits) = (false, false);
        for w in &v.program {
            let instr = decode(Arch::Blackhole, w.word.0).unwrap();
            let get = |n: &str| instr.field_values().iter().find(|(k, _)| *k == n).map_or(0, |&(_, x)| x);
            let mod1 = get("Mod1");
            match instr.opcode() {
                Opcode::SFPARECIP => encoding |= mod1 >= 3,
                Opcode::SFPSTOCHRND => {
                    encoding |= get("RoundingMode") == 3
                        || (!matches!(mod1, 4 | 5) && (get("Imm5") | get("UseImm5")) != 0)
                }
                Opcode::SFPABS | Opcode::SFPEXMAN | Opcode::SFPSETSGN => bits |= mod1 & 0b1110 != 0,
                Opcode::SFPEXEXP => bits |= mod1 & 4 != 0,
                Opcode::SFPLZ => bits |= mod1 & 1 != 0,
                Opcode::SFPMUL24 => bits |= mod1 & 2 != 0,
                _ => {}
            }
        }
        seen.0 += encoding as usize;
        seen.1 += bits as usize;
        // What the pseudocode computes is promised: no clause marks a reserved encoding or an
        // unread Mod1 bit unpromised. Only clauses about something else may appear (a backdoor
        // load with VD >= 12, SFPMUL24's non-zero VC).
        if encoding || bits {
            for n in &v.outcome {
                if !matches!(
                    n.clause.as_str(),
                    "backdoor-load" | "guard-outside-lane-loop" | "sfpmul24-nonzero-vc"
                ) {
                    problems.push(format!(
                        "{}: reserved encoding or bit, but `{}` in the outcome",
                        v.id, n.clause
                    ));
                }
            }
            promised += v.outcome.is_empty() as usize;
        }
        for (tag, want) in [("reserved-encoding", encoding), ("reserved-bits", bits)] {
            if v.tags.iter().any(|t| t == tag) != want {
                problems.push(format!(
                    "{}: tag {tag} should be {}",
                    v.id,
                    if want { "present" } else { "absent" }
                ));
            }
        }
    }
    assert!(seen.0 > 0 && seen.1 > 0 && promised > 0, "{seen:?}, {promised} fully defined");
    assert!(problems.is_empty(), "{}", problems[..problems.len().min(20)].join("\n"));
}

/// `generate::mode_of`, which the DUT declarations' `INSTRUCTION/mode` refusals use, gives every
/// one-instruction vector's own `mode`.
#[test]
fn mode_of_an_instruction_is_its_vectors_mode() {
    for arch in Arch::ALL {
        let corpus = load_of(arch);
        for (_, v) in corpus.vectors() {
            let (Some(mode), [word]) = (&v.mode, v.program.as_slice()) else { continue };
            let instr = decode(arch, word.word.0).unwrap();
            assert_eq!(&mode_of_for(arch, &instr), mode, "{arch} {}", v.id);
        }
    }
}

/// The golden vectors' indirect-mode cases (`INDIRECT_VA`, `INDIRECT_VD`: every register a
/// possible operand or destination) set `LReg[7]` so that an implementation that takes a lane's
/// register number from the wrong place fails some of them: either one register for every lane
/// (as kernels set it), or lane by lane with each half of the lanes naming all 16 registers, lanes
/// `l` and `l ^ 16` naming different ones and no lane naming `l & 15` (generator v6; v5 named
/// `l & 15` in every lane, which an implementation reading the lane number, or the other half's
/// lane, also gets). Every file's lane-by-lane cases catch each of three mistakes: the lane
/// number as the register, lane `l ^ 16`'s number, and `LReg[7]`'s bits 2:0 alone.
#[test]
fn indirect_cases_name_registers_apart_from_the_lane_number() {
    use harness_core::isa::Model as _;
    use sfpu_reference::hazard::{ALL_LREGS, actual};
    use sfpu_reference::ops::Ctx;

    let mut problems = Vec::new();
    for arch in Arch::ALL {
        let corpus = load_of(arch);
        // Per file: one-register cases, lane-by-lane cases, and lane-by-lane cases in which each
        // mistaken index (the lane number; the other half's lane; bits 2:0) changes a promised
        // register.
        let mut counts: std::collections::BTreeMap<&str, [usize; 5]> = Default::default();
        for (f, v) in corpus.vectors() {
            let [word] = &v.program[..] else { continue };
            let word = word.word.0;
            let Ok(instr) = decode(arch, word) else { continue };
            let access = actual(arch, &instr, &Ctx::REGULAR);
            if access.reads != ALL_LREGS && access.writes != ALL_LREGS {
                continue;
            }
            let pre = v.pre.to_state().unwrap();
            let idx: [u32; 32] = std::array::from_fn(|l| pre.LReg[7][l] & 15);
            let c = counts.entry(&f.file).or_default();
            if idx.iter().all(|&i| i == idx[0]) {
                c[0] += 1;
                continue;
            }
            c[1] += 1;
            for half in [0..16, 16..32] {
                let mut seen = 0u32;
                for l in half {
                    seen |= 1 << idx[l];
                }
                if seen != 0xFFFF {
                    problems
                        .push(format!("{arch} {}: a half of the lanes names registers {seen:#06x}", v.id));
                }
            }
            for l in 0..32 {
                if idx[l] == l as u32 & 15 || idx[l] == idx[l ^ 16] {
                    problems.push(format!("{arch} {}: lane {l} names register {}", v.id, idx[l]));
                    break;
                }
            }
            // The mistaken implementation, emulated on the reference: lane `l` takes its register
            // number from `mistake(l)`. Only lanes where neither number is 7 are compared (the
            // emulation changes `LReg[7]`'s low bits, which an indirect read of register 7 would
            // see), in every register but `LReg[7]`, and only vectors the specification defines
            // whole.
            if !v.outcome.is_empty() {
                continue;
            }
            let good = Reference.run(arch, &pre, &[word]).unwrap().post;
            let mistakes: [fn(usize, &[u32; 32]) -> u32; 3] =
                [|l, _| l as u32 & 15, |l, idx| idx[l ^ 16], |l, idx| idx[l] & 7];
            for (k, mistake) in mistakes.iter().enumerate() {
                let mut wrong = pre.clone();
                let taken: [u32; 32] = std::array::from_fn(|l| mistake(l, &idx));
                for l in 0..32 {
                    wrong.LReg[7][l] = (pre.LReg[7][l] & !15) | taken[l];
                }
                let bad = Reference.run(arch, &wrong, &[word]).unwrap().post;
                let caught = (0..32).filter(|&l| idx[l] != 7 && taken[l] != 7).any(|l| {
                    (0..good.LReg.len()).filter(|&r| r != 7).any(|r| good.LReg[r][l] != bad.LReg[r][l])
                });
                if caught {
                    c[2 + k] += 1;
                }
            }
        }
        for (file, [one, per_lane, lane_number, other_half, low3]) in &counts {
            if *one == 0 || *per_lane == 0 || *lane_number == 0 || *other_half == 0 || *low3 == 0 {
                problems.push(format!(
                    "{arch} {file}: {one} one-register and {per_lane} lane-by-lane indirect cases, \
                     {lane_number} catch the lane number as the register, {other_half} the other \
                     half's, {low3} bits 2:0 alone"
                ));
            }
        }
        assert!(
            ["SFPMAD", "SFPMUL", "SFPADDI", "SFPLUT"].iter().all(|f| counts.contains_key(f)),
            "{arch}: indirect-mode files {:?}",
            counts.keys().collect::<Vec<_>>()
        );
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
