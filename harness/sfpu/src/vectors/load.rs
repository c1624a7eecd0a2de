//! Reading vector files: parse, then check everything an importer relies on, reporting the file
//! and line of each problem. Unknown fields, malformed hex, duplicate ids, words that do not
//! decode, texts that do not match their words, states that cannot exist, a lane without a value
//! in `pre`, (formats `sfpu-vectors/2` and `/3`) a `requires` list other than the computed one,
//! and (format `/3`) a value in `post` where `skip` covers are all errors. Files of the previous
//! formats are read too: `sfpu-vectors/2` files with what their `post` states where `skip` covers
//! left out, `sfpu-vectors/1` files likewise and with the computed `requires`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use harness_core::input::{check_yaml_nesting, read_regular};
use rayon::prelude::*;
use sfpu_reference::isa::{Arch, decode, parse_instr};
use sfpu_reference::outcome::Clause;

use super::format::{FORMAT, FORMAT_V1, FORMAT_V2, Vector, VectorFile};
use super::promise::{leave_out, stated_in_skip};
use crate::features::requires;

/// A problem with a vector file.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LoadError {
    /// The file could not be read.
    #[error("{path}: cannot read: {message}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The system's message.
        message: String,
    },
    /// The file is not valid YAML for the format (the message includes the line and column).
    #[error("{path}: {message}")]
    Syntax {
        /// The file.
        path: PathBuf,
        /// What is wrong, and where.
        message: String,
    },
    /// The file parses but breaks a rule of the format.
    #[error("{path}:{line}: {message}")]
    Invalid {
        /// The file.
        path: PathBuf,
        /// The line of the vector concerned (1 for the file as a whole).
        line: usize,
        /// What is wrong.
        message: String,
    },
}

/// Every file of a corpus, in path order.
#[derive(Clone, Debug, Default)]
pub struct Corpus {
    /// The files with their paths.
    pub files: Vec<(PathBuf, VectorFile)>,
    /// The distinct generator lines of the files' headers, in file order (hand-written files have
    /// none).
    pub generators: Vec<String>,
}

impl Corpus {
    /// Every vector with its file's stem.
    pub fn vectors(&self) -> impl Iterator<Item = (&VectorFile, &Vector)> {
        self.files.iter().flat_map(|(_, f)| f.vectors.iter().map(move |v| (f, v)))
    }
}

/// The 1-based line of the `nth` (0-based) `id:` key with value `id` in `text`, YAML or JSON
/// (1 if it cannot be found).
fn line_of(text: &str, id: &str, nth: usize) -> usize {
    text.lines()
        .enumerate()
        .filter(|(_, l)| {
            let t = l.trim_start().trim_start_matches("- ").trim_start();
            t.strip_prefix("id:")
                .or_else(|| t.strip_prefix("\"id\":"))
                .is_some_and(|rest| rest.trim().trim_end_matches(',').trim_matches('"') == id)
        })
        .nth(nth)
        .map_or(1, |(i, _)| i + 1)
}

/// Checks one vector; returns the features it requires (computed), or the message.
fn check_vector(file: &VectorFile, v: &Vector) -> Result<Vec<crate::features::Feature>, String> {
    let prefix = format!("{}/", file.file);
    if !v.id.starts_with(&prefix) || v.id.len() == prefix.len() || v.id.contains(char::is_whitespace) {
        return Err(format!("id `{}` must be `{}<name>` without spaces", v.id, prefix));
    }
    if v.program.is_empty() {
        return Err(format!("{}: the program is empty", v.id));
    }
    let mut program = Vec::with_capacity(v.program.len());
    for (i, w) in v.program.iter().enumerate() {
        let instr = decode(file.arch, w.word.0).map_err(|e| format!("{}: program[{i}]: {e}", v.id))?;
        program.push(instr);
        let text =
            parse_instr(file.arch, &w.text).map_err(|e| format!("{}: program[{i}].text: {e}", v.id))?;
        if text != instr {
            return Err(format!(
                "{}: program[{i}]: the text `{}` is 0x{:08x}, not the word 0x{:08x}",
                v.id,
                w.text,
                text.encode_blackhole(),
                w.word.0
            ));
        }
    }
    // The state documents are for the file's chip (a document without `arch` is Blackhole's).
    if v.pre.arch() != file.arch {
        return Err(format!("{}: pre: the state is for {}, the file for {}", v.id, v.pre.arch(), file.arch));
    }
    if let Some(arch) = v.post.arch
        && arch != file.arch
    {
        return Err(format!("{}: post: the state is for {arch}, the file for {}", v.id, file.arch));
    }
    let pre = v.pre.to_state().map_err(|e| format!("{}: pre: {e}", v.id))?;
    let mut s = pre.clone();
    v.post.apply_stated_to(&mut s).map_err(|e| format!("{}: post: {e}", v.id))?;
    let stated = stated_in_skip(&v.post, &v.skip.clone().unwrap_or_default());
    if !stated.is_empty() {
        return Err(format!(
            "{}: post states a value where skip covers (not promised): {}; leave out of post a part \
             or register skip covers in every lane, and write null for a lane it covers (vectors/README.md, \
             \"Applying post\")",
            v.id,
            stated.join(", ")
        ));
    }
    let computed = requires(&pre, &program).to_vec();
    match (&v.requires, file.format.as_str()) {
        (Some(_), FORMAT_V1) => {
            return Err(format!("{}: `requires` is not a field of {FORMAT_V1} (it is computed)", v.id));
        }
        (None, FORMAT | FORMAT_V2) => {
            return Err(format!("{}: every {} vector lists `requires`", v.id, file.format));
        }
        (Some(listed), _) if *listed != computed => {
            let show = |l: &[crate::features::Feature]| {
                format!("[{}]", l.iter().map(|f| f.id()).collect::<Vec<_>>().join(", "))
            };
            return Err(format!(
                "{}: `requires` lists {}, but the vector requires {} (computed from its pre and program; \
                 never write it by hand)",
                v.id,
                show(listed),
                show(&computed)
            ));
        }
        _ => {}
    }
    for n in &v.outcome {
        let clause =
            Clause::from_id(&n.clause).ok_or_else(|| format!("{}: unknown clause `{}`", v.id, n.clause))?;
        if clause.kind() != n.kind || (clause.section() != n.section && !is_notes_label(&n.section)) {
            return Err(format!(
                "{}: clause `{}` is {} in {}, not {} in {}",
                v.id,
                n.clause,
                clause.kind(),
                clause.section(),
                n.kind,
                n.section
            ));
        }
    }
    // (An LReg index above 16 in `skip` / `non_contractual` is refused by the parse itself:
    // `taint::LRegLanes`.)
    Ok(computed)
}

/// Whether `section` is a label of the numbered specification notes that files written before the
/// clauses' entries moved into `docs/spec` carry (`§6.1 item 2`, `WH §3.5`): the clause id still
/// names the clause, so such a file loads.
fn is_notes_label(section: &str) -> bool {
    let rest = section.strip_prefix("WH ").unwrap_or(section);
    rest.strip_prefix('§').is_some_and(|r| r.starts_with(|c: char| c.is_ascii_digit()))
}

/// Parses and checks one file's text. `path` names it in errors and its stem must be the file's
/// `file` field.
pub fn parse_file(path: &Path, text: &str) -> Result<VectorFile, Vec<LoadError>> {
    check_yaml_nesting(text)
        .map_err(|message| vec![LoadError::Syntax { path: path.to_path_buf(), message }])?;
    let mut file: VectorFile = serde_yaml::from_str(text)
        .map_err(|e| vec![LoadError::Syntax { path: path.to_path_buf(), message: e.to_string() }])?;
    let invalid =
        |line: usize, message: String| LoadError::Invalid { path: path.to_path_buf(), line, message };
    let mut errors = Vec::new();
    if ![FORMAT, FORMAT_V2, FORMAT_V1].contains(&file.format.as_str()) {
        errors.push(invalid(
            1,
            format!("format `{}` is not `{FORMAT}` (or `{FORMAT_V2}`, `{FORMAT_V1}`)", file.format),
        ));
        return Err(errors);
    }
    // The earlier formats' `post` gives every lane it lists a value, also where `skip` covers:
    // those were never compared, and are left out, as the current format writes it.
    if file.format != FORMAT {
        for v in &mut file.vectors {
            if let Some(what) = v.post.first_unstated() {
                let line = line_of(text, &v.id, 0);
                errors.push(invalid(
                    line,
                    format!("{}: post: {what}, which only {FORMAT} files may write", v.id),
                ));
            }
            leave_out(&mut v.post, &v.skip.clone().unwrap_or_default());
        }
        if !errors.is_empty() {
            return Err(errors);
        }
    }
    if let Some(stem) = path.file_stem().and_then(|s| s.to_str())
        && stem != file.file
    {
        errors.push(invalid(1, format!("`file: {}` does not match the file name `{stem}`", file.file)));
    }
    let mut seen: BTreeMap<&str, usize> = BTreeMap::new();
    let mut computed = Vec::with_capacity(file.vectors.len());
    for v in &file.vectors {
        let nth = *seen.get(v.id.as_str()).unwrap_or(&0);
        if nth > 0 {
            errors.push(invalid(line_of(text, &v.id, nth), format!("duplicate id `{}`", v.id)));
        }
        *seen.entry(&v.id).or_insert(0) += 1;
        match check_vector(&file, v) {
            Ok(features) => computed.push(features),
            Err(message) => {
                computed.push(Vec::new());
                errors.push(invalid(line_of(text, &v.id, nth), message));
            }
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    for (v, features) in file.vectors.iter_mut().zip(computed) {
        v.requires = Some(features);
    }
    // With `requires` filled in and `post` stating nothing where `skip` covers, a file of an
    // earlier format is a current one: written back it must say so (the writer writes
    // `requires`, which format 1 refuses, and `null`s, which format 2 does).
    file.format = FORMAT.to_string();
    Ok(file)
}

/// Reads and checks one file.
pub fn load_file(path: &Path) -> Result<VectorFile, Vec<LoadError>> {
    let text =
        read_regular(path).map_err(|message| vec![LoadError::Io { path: path.to_path_buf(), message }])?;
    parse_file(path, &text)
}

/// Reads every `*.yaml` file of `dir` (sorted by name), checking each, and that ids are unique
/// across files and every file is for `arch`. Returns every error found, not only the first.
pub fn load_corpus(dir: &Path, arch: Arch) -> Result<Corpus, Vec<LoadError>> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| vec![LoadError::Io { path: dir.to_path_buf(), message: e.to_string() }])?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "yaml"))
        .collect();
    paths.sort();
    // Read the files in parallel (the corpus is tens of MB of YAML).
    let texts: Vec<(PathBuf, Result<String, LoadError>)> = paths
        .into_par_iter()
        .map(|path| {
            let text = read_regular(&path).map_err(|message| LoadError::Io { path: path.clone(), message });
            (path, text)
        })
        .collect();
    load_texts(arch, texts)
}

/// The corpus of `arch` made of `texts` (each named by its path, or why it could not be read),
/// checked as [`load_corpus`] checks a directory's files. The files keep the order given.
pub fn load_texts(
    arch: Arch,
    texts: Vec<(PathBuf, Result<String, LoadError>)>,
) -> Result<Corpus, Vec<LoadError>> {
    // Parse the files in parallel, then gather them in the order given so errors and vectors
    // come out the same on every run.
    type Parsed = Result<(String, VectorFile), Vec<LoadError>>;
    let parsed: Vec<(PathBuf, Parsed)> = texts
        .into_par_iter()
        .map(|(path, text)| {
            let result = match text {
                Ok(text) => parse_file(&path, &text).map(|file| (text, file)),
                Err(e) => Err(vec![e]),
            };
            (path, result)
        })
        .collect();
    let mut corpus = Corpus::default();
    let mut errors = Vec::new();
    let mut texts = Vec::new();
    for (path, result) in parsed {
        match result {
            Ok((text, file)) => {
                if file.arch != arch {
                    errors.push(LoadError::Invalid {
                        path: path.clone(),
                        line: 1,
                        message: format!("the file is for {}, expected {arch}", file.arch),
                    });
                }
                if let Some(line) = generator_line(&text)
                    && !corpus.generators.contains(&line)
                {
                    corpus.generators.push(line);
                }
                texts.push(text);
                corpus.files.push((path, file));
            }
            Err(mut e) => errors.append(&mut e),
        }
    }
    errors.extend(cross_file_duplicates(&corpus.files, &texts));
    if errors.is_empty() { Ok(corpus) } else { Err(errors) }
}

/// The generator line of a file's header comment (`format: ...; generator: ...; seed: ...`), if
/// it has one (hand-written files have none).
fn generator_line(text: &str) -> Option<String> {
    text.lines()
        .take_while(|l| l.starts_with('#'))
        .find(|l| l.contains("generator:"))
        .map(|l| l.trim_start_matches('#').trim().to_string())
}

/// Ids that appear in more than one of `files` (whose texts are `texts`), each reported at the
/// line of its repeat, naming the file and line of its first appearance. (Every id starts with
/// its file's stem, so this only happens when one corpus mixes directories or forms.)
fn cross_file_duplicates(files: &[(PathBuf, VectorFile)], texts: &[String]) -> Vec<LoadError> {
    // Lines are looked up only for the duplicates (a scan of the text per id would be quadratic).
    let mut errors = Vec::new();
    let mut ids: BTreeMap<&str, usize> = BTreeMap::new();
    for (index, (path, file)) in files.iter().enumerate() {
        for v in &file.vectors {
            if let Some(&other) = ids.get(v.id.as_str()) {
                let line = line_of(&texts[index], &v.id, 0);
                let other_line = line_of(&texts[other], &v.id, 0);
                errors.push(LoadError::Invalid {
                    path: path.clone(),
                    line,
                    message: format!("id `{}` is also in {}:{other_line}", v.id, files[other].0.display()),
                });
            } else {
                ids.insert(&v.id, index);
            }
        }
    }
    errors
}

#[cfg(test)]
mod tests {
    use super::*;

    const FILE: &str = "\
format: sfpu-vectors/3
arch: blackhole
file: SFPNOP
vectors:
- id: SFPNOP/none/a
  requires: []
  program:
  - word: 0x8f000000
    text: TTI_SFPNOP
- id: SFPNOP/none/b
  requires: []
  program:
  - word: 0x8f000000
    text: TTI_SFPNOP
";

    #[test]
    fn duplicates_across_files_are_reported_at_their_lines() {
        let a = parse_file(Path::new("a/SFPNOP.yaml"), FILE).unwrap();
        // The second copy, as JSON (one key per line).
        let json = crate::vectors::emit::write_json(&a);
        let b = parse_file(Path::new("b/SFPNOP.json"), &json).unwrap();
        let files = vec![(PathBuf::from("a/SFPNOP.yaml"), a), (PathBuf::from("b/SFPNOP.json"), b)];
        let errors: Vec<String> = cross_file_duplicates(&files, &[FILE.to_string(), json.clone()])
            .iter()
            .map(|e| e.to_string())
            .collect();
        let line = |id: &str| json.lines().position(|l| l.contains(&format!("\"{id}\""))).unwrap() + 1;
        let (a_line, b_line) = (line("SFPNOP/none/a"), line("SFPNOP/none/b"));
        assert!(a_line > 1 && b_line > a_line);
        assert_eq!(
            errors,
            vec![
                format!("b/SFPNOP.json:{a_line}: id `SFPNOP/none/a` is also in a/SFPNOP.yaml:5"),
                format!("b/SFPNOP.json:{b_line}: id `SFPNOP/none/b` is also in a/SFPNOP.yaml:10"),
            ]
        );
    }
}
