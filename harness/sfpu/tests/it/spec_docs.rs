//! The specification notes in `docs/spec` against the code and each other: every clause, seed
//! difference and notes override has its entry, and every entry of the clause and comparison
//! sections is one of them; every entry names an upstream file with the 40-digit commit it was read
//! at, what the pages say, what the model does, and code files that exist; the commits the SFPU and
//! AMX pages name are the ones the reference models' sources cite; and every link inside the pages
//! and every `docs/spec/<page>#<anchor>` citation in the repository resolves.
//!
//! Anchors are computed here from the pages' headings the way GitHub computes them, never taken
//! from the code: the code's citations are what is checked.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use harness_sfpu::generate::SPEC_COMMITS;
use harness_sfpu::report::{NOTES_OVERRIDES, SEED_DIFFERENCES};
use sfpu_reference::outcome::Clause;

/// The repository's root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The pages of `docs/spec` that hold entries: one per instruction set and chip.
const CHIP_PAGES: [&str; 3] = ["sfpu-blackhole.md", "sfpu-wormhole.md", "amx-vecfp.md"];

/// The anchor GitHub gives a heading: the text in lower case, every character but letters, digits,
/// `-`, `_` and spaces dropped (backticks and other punctuation included), each space turned into
/// `-`.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | ' '))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// One heading of a page and the text under it, up to the next heading of the same or a higher
/// level.
#[derive(Debug)]
struct Section {
    level: usize,
    heading: String,
    anchor: String,
    body: String,
}

/// A page of `docs/spec`: its text and its sections in order.
#[derive(Debug)]
struct Page {
    text: String,
    sections: Vec<Section>,
}

impl Page {
    fn read(name: &str) -> Page {
        let path = root().join("docs/spec").join(name);
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        // Headings outside fenced code blocks, with the line they start on.
        let lines: Vec<&str> = text.lines().collect();
        let mut heads = Vec::new();
        let mut fenced = false;
        for (i, line) in lines.iter().enumerate() {
            if line.trim_start().starts_with("```") {
                fenced = !fenced;
                continue;
            }
            let level = line.len() - line.trim_start_matches('#').len();
            if !fenced && level > 0 && line[level..].starts_with(' ') {
                heads.push((i, level, line[level..].trim().to_string()));
            }
        }
        let sections = heads
            .iter()
            .enumerate()
            .map(|(k, (i, level, heading))| {
                let end = heads[k + 1..].iter().find(|h| h.1 <= *level).map_or(lines.len(), |h| h.0);
                Section {
                    level: *level,
                    heading: heading.clone(),
                    anchor: anchor(heading),
                    body: lines[i + 1..end].join("\n"),
                }
            })
            .collect();
        Page { text, sections }
    }

    fn anchors(&self) -> BTreeSet<&str> {
        self.sections.iter().map(|s| s.anchor.as_str()).collect()
    }

    /// The entries: the third-level headings.
    fn entries(&self) -> impl Iterator<Item = &Section> {
        self.sections.iter().filter(|s| s.level == 3)
    }

    fn entry(&self, anchor: &str) -> Option<&Section> {
        self.entries().find(|s| s.anchor == anchor)
    }

    /// The entries under the second-level headings whose text starts with `prefix`.
    fn entries_under(&self, prefix: &str) -> Vec<&Section> {
        let mut out = Vec::new();
        let mut inside = false;
        for s in &self.sections {
            if s.level <= 2 {
                inside = s.level == 2 && s.heading.starts_with(prefix);
            } else if s.level == 3 && inside {
                out.push(s);
            }
        }
        out
    }
}

fn pages() -> BTreeMap<&'static str, Page> {
    ["README.md"].into_iter().chain(CHIP_PAGES).map(|n| (n, Page::read(n))).collect()
}

/// The line of `body` that starts with the list label `- **label:**`, without the label.
fn field<'a>(body: &'a str, label: &str) -> Option<&'a str> {
    let start = format!("- **{label}:**");
    body.lines().find_map(|l| l.strip_prefix(start.as_str()))
}

/// The inline code spans of `line`.
fn code_spans(line: &str) -> Vec<&str> {
    line.split('`').skip(1).step_by(2).collect()
}

/// Every run of exactly 40 hex digits in `text` (a commit id), in lower case.
fn commits(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i].is_ascii_alphanumeric() {
            let start = i;
            while i < bytes.len() && bytes[i].is_ascii_alphanumeric() {
                i += 1;
            }
            let word = &text[start..i];
            if word.len() == 40 && word.bytes().all(|b| b.is_ascii_hexdigit()) {
                out.insert(word.to_ascii_lowercase());
            }
        } else {
            i += 1;
        }
    }
    out
}

/// The text of every file under `dir` whose name ends with one of `exts`.
fn sources(dir: &Path, exts: &[&str]) -> Vec<(PathBuf, String)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else { continue };
        for e in entries.flatten() {
            let p = e.path();
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or_default().to_string();
            if p.is_dir() {
                if !matches!(name.as_str(), "target" | ".git" | "node_modules" | "__pycache__") {
                    stack.push(p);
                }
            } else if exts.iter().any(|x| name.ends_with(x))
                && let Ok(text) = std::fs::read_to_string(&p)
            {
                out.push((p, text));
            }
        }
    }
    out
}

#[test]
fn anchors_as_github_forms_them() {
    assert_eq!(anchor("Seed 26: INT32_ALL addressing"), "seed-26-int32_all-addressing");
    assert_eq!(anchor("`backdoor-load`"), "backdoor-load");
    assert_eq!(anchor("LReg 8 value"), "lreg-8-value");
    assert_eq!(anchor("FMA model trusted as bit-exact"), "fma-model-trusted-as-bit-exact");
    assert_eq!(
        anchor("Clauses: scheduling rules software must keep"),
        "clauses-scheduling-rules-software-must-keep"
    );
    assert_eq!(
        anchor("AMX `vecfp`, chip profiles M1, M2 (= M3) and M4"),
        "amx-vecfp-chip-profiles-m1-m2--m3-and-m4"
    );
}

/// Within a page every heading has its own anchor (GitHub would number a repeated one, and a
/// citation of it would land on the first).
#[test]
fn anchors_are_unique_within_a_page() {
    for (name, page) in pages() {
        let mut seen = BTreeSet::new();
        for s in &page.sections {
            assert!(seen.insert(s.anchor.clone()), "{name}: two headings have the anchor #{}", s.anchor);
        }
    }
}

/// Every clause's section is `docs/spec/<page>#<anchor>` of an entry whose heading is the clause's
/// id (docs/spec/README.md, "Citing an entry") and whose kind is the clause's; and the clause
/// sections of the pages hold exactly the clauses.
#[test]
fn every_clause_has_its_entry() {
    let pages = pages();
    let mut problems = Vec::new();
    for &c in Clause::ALL {
        let Some((page, anchor)) = c.section().strip_prefix("docs/spec/").and_then(|s| s.split_once('#'))
        else {
            problems.push(format!("{}: section {:?} is not docs/spec/<page>#<anchor>", c.id(), c.section()));
            continue;
        };
        let Some(p) = pages.get(page) else {
            problems.push(format!("{}: no page docs/spec/{page}", c.id()));
            continue;
        };
        match p.entry(anchor) {
            None => problems.push(format!("{}: docs/spec/{page} has no entry #{anchor}", c.id())),
            Some(e) => {
                if e.anchor != c.id() {
                    problems.push(format!("{}: the entry's heading is {:?}, not the id", c.id(), e.heading));
                }
                if field(&e.body, "Kind").map(str::trim) != Some(&c.kind().to_string()) {
                    problems.push(format!(
                        "{}: docs/spec/{page}#{anchor} does not give the kind {}",
                        c.id(),
                        c.kind()
                    ));
                }
            }
        }
    }
    let ids: BTreeSet<&str> = Clause::ALL.iter().map(|c| c.id()).collect();
    for page in ["sfpu-blackhole.md", "sfpu-wormhole.md"] {
        for e in pages[page].entries_under("Clauses") {
            if !ids.contains(e.anchor.as_str()) {
                problems.push(format!(
                    "docs/spec/{page}: clause entry {:?} is no clause of the model",
                    e.heading
                ));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Every seed difference and notes override of the report's tables links to an entry of its own
/// section of `sfpu-blackhole.md`, headed with its row number, naming its page; and those sections
/// hold exactly the tables' rows.
#[test]
fn every_seed_difference_and_notes_override_has_its_entry() {
    let pages = pages();
    let bh = &pages["sfpu-blackhole.md"];
    let mut problems = Vec::new();
    let seeds = bh.entries_under("Where the model follows upstream against the seed summaries");
    let overrides =
        bh.entries_under("Where the model follows upstream against the first specification notes");
    for &(row, topic, _, doc) in SEED_DIFFERENCES {
        let Some(anchor) = doc.strip_prefix("docs/spec/sfpu-blackhole.md#") else {
            problems.push(format!(
                "seed difference {row} ({topic}): {doc:?} is not an entry of sfpu-blackhole.md"
            ));
            continue;
        };
        match seeds.iter().find(|e| e.anchor == anchor) {
            None => problems.push(format!("seed difference {row} ({topic}): no seed entry #{anchor}")),
            Some(e) if !e.heading.starts_with(&format!("Seed {row}: ")) => {
                problems.push(format!("seed difference {row}: the entry is headed {:?}", e.heading))
            }
            Some(_) => {}
        }
    }
    if seeds.len() != SEED_DIFFERENCES.len() {
        problems.push(format!(
            "{} seed entries for {} seed differences",
            seeds.len(),
            SEED_DIFFERENCES.len()
        ));
    }
    for &(topic, page, _, doc) in NOTES_OVERRIDES {
        let Some(anchor) = doc.strip_prefix("docs/spec/sfpu-blackhole.md#") else {
            problems.push(format!("notes override {topic:?}: {doc:?} is not an entry of sfpu-blackhole.md"));
            continue;
        };
        match overrides.iter().find(|e| e.anchor == anchor) {
            None => problems.push(format!("notes override {topic:?}: no entry #{anchor}")),
            Some(e) => {
                // The page the table names (up to a wildcard or a remark) is the entry's upstream
                // file.
                let named = page.split(['*', ' ']).next().unwrap_or(page);
                if !field(&e.body, "Upstream").is_some_and(|u| u.contains(named)) {
                    problems
                        .push(format!("notes override {topic:?}: the entry's upstream file is not {named}"));
                }
            }
        }
    }
    if overrides.len() != NOTES_OVERRIDES.len() {
        problems.push(format!(
            "{} override entries for {} notes overrides",
            overrides.len(),
            NOTES_OVERRIDES.len()
        ));
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Every entry names its upstream file (a path with its extension) and the commit it was read at
/// (40 hex digits), says what the pages say and what the model does, and names the code that makes
/// the choice: paths that exist in the repository.
#[test]
fn every_entry_names_upstream_commit_and_code() {
    let pages = pages();
    let root = root();
    let mut problems = Vec::new();
    let mut entries = 0;
    for name in CHIP_PAGES {
        for e in pages[name].entries() {
            entries += 1;
            let at = format!("docs/spec/{name}#{}", e.anchor);
            match field(&e.body, "Upstream") {
                None => problems.push(format!("{at}: no Upstream line")),
                Some(u) => {
                    let spans = code_spans(u);
                    let file = spans.iter().any(|s| {
                        [".md", ".c", ".h", ".lua"].iter().any(|x| s.ends_with(x)) && !s.contains(' ')
                    });
                    if !file {
                        problems.push(format!("{at}: the Upstream line names no file: {u}"));
                    }
                    if !spans.iter().any(|s| s.len() == 40 && s.bytes().all(|b| b.is_ascii_hexdigit())) {
                        problems.push(format!("{at}: the Upstream line names no 40-digit commit: {u}"));
                    }
                }
            }
            for label in ["The pages", "The model"] {
                if field(&e.body, label).is_none_or(|t| t.trim().is_empty()) {
                    problems.push(format!("{at}: no {label:?} line"));
                }
            }
            match field(&e.body, "Code") {
                None => problems.push(format!("{at}: no Code line")),
                Some(code) => {
                    let paths: Vec<&str> = code_spans(code).into_iter().filter(|s| s.contains('/')).collect();
                    if paths.is_empty() {
                        problems.push(format!("{at}: the Code line names no file"));
                    }
                    for p in paths {
                        if !root.join(p).is_file() {
                            problems.push(format!("{at}: the Code line names {p}, which does not exist"));
                        }
                    }
                }
            }
        }
    }
    assert!(entries >= 80, "only {entries} entries: the pages were not parsed");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The commits the SFPU pages name are commits `reference/sfpu/src` cites, and every commit the
/// reference model transcribes (`SPEC_COMMITS`) is in the pages' table of revisions; the AMX page
/// names the corsix/amx commits `reference/amx` cites, and every one `reference/amx/src` cites.
#[test]
fn commits_are_the_reference_models() {
    let pages = pages();
    let root = root();
    let cited = |dir: &str, exts: &[&str]| -> BTreeSet<String> {
        sources(&root.join(dir), exts).iter().flat_map(|(_, t)| commits(t)).collect()
    };
    let mut problems = Vec::new();

    let sfpu_pages: BTreeSet<String> =
        ["sfpu-blackhole.md", "sfpu-wormhole.md"].iter().flat_map(|p| commits(&pages[p].text)).collect();
    let sfpu_cited = cited("reference/sfpu/src", &[".rs"]);
    for c in sfpu_pages.difference(&sfpu_cited) {
        problems.push(format!("docs/spec names {c}, which reference/sfpu/src does not cite"));
    }
    for c in SPEC_COMMITS {
        if !sfpu_pages.contains(*c) {
            problems.push(format!("SPEC_COMMITS has {c}, which docs/spec does not name"));
        }
    }

    let amx_page = commits(&pages["amx-vecfp.md"].text);
    let mut amx_cited = cited("reference/amx/src", &[".rs"]);
    for c in amx_cited.difference(&amx_page) {
        problems.push(format!("reference/amx/src cites {c}, which docs/spec/amx-vecfp.md does not name"));
    }
    amx_cited.extend(cited("reference/amx", &["README.md"]));
    for c in amx_page.difference(&amx_cited) {
        problems.push(format!("docs/spec/amx-vecfp.md names {c}, which reference/amx does not cite"));
    }
    assert!(!amx_page.is_empty(), "the AMX page names no commit");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The links inside `docs/spec` lead to files that exist and anchors that exist; so does every
/// `docs/spec/<page>#<anchor>` cited in the repository's sources and documentation.
#[test]
fn links_and_citations_resolve() {
    let pages = pages();
    let root = root();
    let mut problems = Vec::new();
    let check = |from: &str, page: &str, anchor: Option<&str>| -> Option<String> {
        match pages.get(page) {
            None if anchor.is_none() && root.join("docs/spec").join(page).exists() => None,
            None => Some(format!("{from}: no page docs/spec/{page}")),
            Some(p) => anchor
                .filter(|a| !p.anchors().contains(a))
                .map(|a| format!("{from}: docs/spec/{page} has no #{a}")),
        }
    };
    // Markdown links between the pages: `](page.md#anchor)`, `](#anchor)`, `](../path)`.
    for (name, page) in &pages {
        for target in page.text.split("](").skip(1).filter_map(|t| t.split_once(')')).map(|t| t.0) {
            if target.contains("://") {
                continue;
            }
            let (path, anchor) = match target.split_once('#') {
                Some((p, a)) => (p, Some(a)),
                None => (target, None),
            };
            if path.is_empty() {
                problems.extend(check(name, name, anchor));
            } else if path.ends_with(".md") && !path.contains('/') {
                problems.extend(check(name, path, anchor));
            } else if !root.join("docs/spec").join(path).exists() {
                problems.push(format!("{name}: the link {target} leads nowhere"));
            }
        }
    }
    // Citations anywhere: `docs/spec/<page>` and `docs/spec/<page>#<anchor>`.
    let mut files = Vec::new();
    for dir in ["reference", "fastpath", "harness", "sfpi", "cli", "xtask", "fuzz", "examples", "docs"] {
        files.extend(sources(&root.join(dir), &[".rs", ".md", ".py", ".json"]));
    }
    for f in ["README.md", "CHANGELOG.md", "vectors/README.md", "vectors/schema.json"] {
        let p = root.join(f);
        files.push((p.clone(), std::fs::read_to_string(&p).unwrap_or_default()));
    }
    let mut citations = 0;
    for (path, text) in &files {
        let from = path.strip_prefix(&root).unwrap_or(path).display().to_string();
        for (i, _) in text.match_indices("docs/spec/") {
            let rest = &text[i + "docs/spec/".len()..];
            let end =
                rest.find(|c: char| !(c.is_ascii_alphanumeric() || "-_.#".contains(c))).unwrap_or(rest.len());
            let cite = rest[..end].trim_end_matches('.');
            if cite.is_empty() || cite.starts_with('<') {
                continue;
            }
            let (page, anchor) = match cite.split_once('#') {
                Some((p, a)) => (p, Some(a)),
                None => (cite, None),
            };
            // A citation is a page, or a page and a non-empty anchor (code that builds one from
            // parts, as this file does, leaves the anchor empty here).
            if page.ends_with(".md") && anchor != Some("") {
                citations += 1;
                problems.extend(check(&from, page, anchor));
            }
        }
    }
    assert!(citations > 100, "only {citations} citations of docs/spec found");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The report names each chip's specification notes page, a file of `docs/spec`, and records a
/// SHA-256 of it.
#[test]
fn the_report_names_the_notes_page() {
    use harness_core::isa::Isa;
    use sfpu_reference::isa::Arch;
    let infos = [
        harness_sfpu::Sfpu::spec(Arch::Blackhole),
        harness_sfpu::Sfpu::spec(Arch::Wormhole),
        <harness_amx::Amx as Isa>::spec(amx_reference::Chip::M2),
    ];
    for (info, page) in infos.iter().zip(CHIP_PAGES) {
        assert!(info.notes.starts_with(&format!("docs/spec/{page}")), "{:?}", info.notes);
        assert!(root().join("docs/spec").join(page).is_file());
        assert!(
            info.notes_sha256.len() == 64 && info.notes_sha256.bytes().all(|b| b.is_ascii_hexdigit()),
            "{:?}",
            info.notes_sha256
        );
    }
}
