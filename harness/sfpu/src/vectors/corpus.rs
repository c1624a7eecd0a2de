//! A chip's corpus as the ISA-neutral session reads it ([`SfpuCorpus`], the core's
//! [`Corpus`](harness_core::vectors::Corpus)): from a directory, or built in: the generator's
//! files made in memory from the reference model (the same files `cargo xtask vectors` writes to
//! `vectors/<chip>/`, which a test keeps current) and the hand-written `regressions.yaml`,
//! compiled in, so that an installed binary needs no checkout.

use std::path::{Path, PathBuf};

use harness_core::isa::Strictness;
use harness_core::report::CorpusInfo;
use harness_core::vectors::VectorCase;
use sfpu_reference::isa::Arch;
use sfpu_reference::outcome::Clause;
use sfpu_reference::{Outcome, State};

use super::format::{FORMAT, Vector, VectorFile};
use super::load::{Corpus, LoadError, load_corpus, load_texts};
use crate::Sfpu;
use crate::generate::{DEFAULT_SEED, render_all};

/// The hand-written regression vectors of each chip, as the repository holds them.
const REGRESSIONS: [(Arch, &str); 2] = [
    (Arch::Blackhole, include_str!("../../../../vectors/blackhole/regressions.yaml")),
    (Arch::Wormhole, include_str!("../../../../vectors/wormhole/regressions.yaml")),
];

/// The hand-written regression vectors of `arch` (`vectors/<arch>/regressions.yaml`).
pub fn regressions(arch: Arch) -> &'static str {
    REGRESSIONS.iter().find(|(chip, _)| *chip == arch).map_or("", |(_, text)| text)
}

/// Where a built-in corpus says it comes from (its [`CorpusInfo::path`]).
pub fn builtin_path(arch: Arch) -> String {
    format!("built-in (generated in memory; the repository's vectors/{arch})")
}

/// The built-in corpus of `arch`: every generated file (seed [`DEFAULT_SEED`]) and the chip's
/// regression vectors, in file-name order, as a directory of them loads.
pub fn builtin(arch: Arch) -> Result<Corpus, Vec<LoadError>> {
    let root = PathBuf::from(builtin_path(arch));
    let mut texts: Vec<(PathBuf, Result<String, LoadError>)> =
        render_all(arch, DEFAULT_SEED).into_iter().map(|(name, text)| (root.join(name), Ok(text))).collect();
    for (chip, text) in REGRESSIONS {
        if chip == arch {
            texts.push((root.join("regressions.yaml"), Ok(text.to_string())));
        }
    }
    texts.sort_by(|a, b| a.0.cmp(&b.0));
    load_texts(arch, texts)
}

/// A loaded corpus with its vectors numbered in corpus order.
#[derive(Clone, Debug)]
pub struct SfpuCorpus {
    /// The files.
    pub corpus: Corpus,
    /// The chip.
    pub arch: Arch,
    /// Vector `i` is `corpus.files[at[i].0].1.vectors[at[i].1]`.
    at: Vec<(usize, usize)>,
    /// Where it was read from.
    path: String,
}

impl SfpuCorpus {
    /// `corpus` of `arch`, read from `path`.
    pub fn new(corpus: Corpus, arch: Arch, path: String) -> SfpuCorpus {
        let at = corpus
            .files
            .iter()
            .enumerate()
            .flat_map(|(f, (_, file))| (0..file.vectors.len()).map(move |v| (f, v)))
            .collect();
        SfpuCorpus { corpus, arch, at, path }
    }

    /// Loads `arch`'s corpus from `dir` (or from `dir/<arch>`, when `dir` holds the chips'
    /// directories, as the repository's `vectors/` does), or the built-in one; the error lists
    /// every problem.
    pub fn load(arch: Arch, dir: Option<&Path>) -> Result<SfpuCorpus, String> {
        let (loaded, path) = match dir {
            Some(dir) => {
                let nested = dir.join(arch.to_string());
                let dir = if nested.is_dir() { nested } else { dir.to_path_buf() };
                (load_corpus(&dir, arch), dir.display().to_string())
            }
            None => (builtin(arch), builtin_path(arch)),
        };
        let corpus = loaded.map_err(|errors| {
            format!(
                "the vectors in {path} do not load:\n{}",
                errors.iter().map(|e| e.to_string()).collect::<Vec<_>>().join("\n")
            )
        })?;
        Ok(SfpuCorpus::new(corpus, arch, path))
    }

    /// Vector `i` with its file.
    pub fn vector(&self, i: usize) -> (&VectorFile, &Vector) {
        let (f, v) = self.at[i];
        let file = &self.corpus.files[f].1;
        (file, &file.vectors[v])
    }
}

/// The specification's verdict a vector expects, as an [`Outcome`] (`None` for a clause this
/// build does not know, which the loader refuses, so only for vectors built in memory).
fn expected_outcome(v: &Vector) -> Option<Outcome> {
    let mut o = Outcome::defined();
    for n in &v.outcome {
        o.note(Clause::from_id(&n.clause)?, n.lanes.0);
    }
    Some(o)
}

/// The expected post-state of `v`: `pre` with `post` applied (a location `skip` covers keeps its
/// value from `pre`, `post` stating none there; it is not compared). Vectors are checked when
/// loaded, so this only fails on vectors built in memory.
pub fn expected_states(v: &Vector) -> Result<(State, State), String> {
    let pre = v.pre.to_state().map_err(|e| format!("pre: {e}"))?;
    let mut post = pre.clone();
    v.post.apply_stated_to(&mut post).map_err(|e| format!("post: {e}"))?;
    Ok((pre, post))
}

/// Vector `v` of file `file` made runnable: its states, program and verdict, the locations it
/// does not promise skipped (and, under [`Strictness::Architecture`], the non-contractual ones),
/// and the features it lists as required.
pub fn case_of(file: &str, v: &Vector, strictness: Strictness) -> Result<VectorCase<Sfpu>, String> {
    let (pre, expected) = expected_states(v)?;
    let outcome = expected_outcome(v)
        .ok_or_else(|| "the vector's outcome names a clause this build does not know".to_string())?;
    let mut skip = v.skip.clone().unwrap_or_default();
    if strictness == Strictness::Architecture
        && let Some(nc) = &v.non_contractual
    {
        skip.union(nc);
    }
    Ok(VectorCase {
        id: v.id.clone(),
        file: file.to_string(),
        mode: v.mode.clone(),
        pre,
        program: v.program.iter().map(|w| w.word.0).collect(),
        expected,
        outcome: Some(outcome),
        skip,
        tainted: v.skip.is_some() || v.non_contractual.is_some(),
        meta: v.requires.as_ref().map(|_| v.required()),
    })
}

impl harness_core::vectors::Corpus<Sfpu> for SfpuCorpus {
    fn info(&self) -> CorpusInfo {
        CorpusInfo {
            path: self.path.clone(),
            format: FORMAT.to_string(),
            files: self.corpus.files.len(),
            vectors: self.at.len(),
            generator: if self.corpus.generators.is_empty() {
                "unknown (no generator header in the corpus)".to_string()
            } else {
                self.corpus.generators.join(" | ")
            },
        }
    }

    fn len(&self) -> usize {
        self.at.len()
    }

    fn id(&self, i: usize) -> &str {
        &self.vector(i).1.id
    }

    fn row(&self, i: usize) -> (String, Option<String>) {
        let (file, v) = self.vector(i);
        (file.file.clone(), v.mode.clone())
    }

    fn tags(&self, i: usize) -> &[String] {
        &self.vector(i).1.tags
    }

    fn case(&self, i: usize, strictness: Strictness) -> Result<VectorCase<Sfpu>, String> {
        let (file, v) = self.vector(i);
        case_of(&file.file, v, strictness)
    }

    fn snippet(&self, i: usize, origin: &str) -> String {
        crate::campaign::regression_snippet(self.vector(i).1, origin)
    }

    fn only_undefined(&self, i: usize) -> bool {
        let v = self.vector(i).1;
        !v.outcome.is_empty() && v.outcome.iter().all(|n| n.kind == sfpu_reference::outcome::Kind::Undefined)
    }
}
