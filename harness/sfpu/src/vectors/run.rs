//! Running vectors on a [`Model`]: every vector, in parallel, every failure collected before
//! anything is reported.

use rayon::prelude::*;
use sfpu_reference::outcome::Clause;
use sfpu_reference::{Outcome, State};

use super::format::{Vector, VectorFile};
use super::load::Corpus;
use harness_core::check::{Expected, compare};
use crate::Sfpu;
use crate::model::Model;
use crate::taint::Locations;

/// Which vectors to run: `SFPU_VECTORS=SFPMAD,-SFPLUT` style. A vector is selected if some
/// include pattern matches (or there is none) and no exclude pattern does; a pattern matches an id
/// equal to it or starting with it followed by `/`, or a tag equal to it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Filter {
    include: Vec<String>,
    exclude: Vec<String>,
}

impl Filter {
    /// Parses a comma-separated list; patterns starting with `-` exclude.
    pub fn parse(spec: &str) -> Filter {
        let mut f = Filter::default();
        for p in spec.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            match p.strip_prefix('-') {
                Some(x) => f.exclude.push(x.to_string()),
                None => f.include.push(p.to_string()),
            }
        }
        f
    }

    /// The filter in the `SFPU_VECTORS` environment variable (empty: everything).
    pub fn from_env() -> Filter {
        Filter::parse(&std::env::var("SFPU_VECTORS").unwrap_or_default())
    }

    fn matches(pattern: &str, v: &Vector) -> bool {
        v.id == pattern
            || v.id.strip_prefix(pattern).is_some_and(|rest| rest.starts_with('/'))
            || v.tags.iter().any(|t| t == pattern)
            || v.mode.as_deref() == Some(pattern)
    }

    /// Whether `v` is selected.
    pub fn selects(&self, v: &Vector) -> bool {
        (self.include.is_empty() || self.include.iter().any(|p| Filter::matches(p, v)))
            && !self.exclude.iter().any(|p| Filter::matches(p, v))
    }
}

/// How strictly to compare.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Strictness {
    /// Compare everything but the `skip` locations, including non-contractual ones (the
    /// documented behaviour of current silicon). The default for this project's own models.
    #[default]
    Silicon,
    /// Also skip the `non_contractual` locations: only what the architecture promises.
    Architecture,
}

/// Why a vector did not pass (the core's [`harness_core::check::Failure`] over the SFPU's locations).
pub type Failure = harness_core::check::Failure<Locations>;

/// The result of one vector (the core's [`harness_core::check::Status`]).
pub type Status = harness_core::check::Status<Locations>;

/// One vector's result, with what identifies it (the core's [`harness_core::check::CaseResult`]).
pub type VectorResult = harness_core::check::CaseResult<Locations>;

/// The specification's verdict a vector expects, as an [`Outcome`] (`None` for a clause this
/// build does not know, which the loader refuses, so only for vectors built in memory).
fn expected_outcome(v: &Vector) -> Option<Outcome> {
    let mut o = Outcome::defined();
    for n in &v.outcome {
        o.note(Clause::from_id(&n.clause)?, n.lanes.0);
    }
    Some(o)
}

/// The expected post-state of `v`: `pre` with `post` applied. Vectors are checked when loaded,
/// so this only fails on vectors built in memory.
pub fn expected_states(v: &Vector) -> Result<(State, State), String> {
    let pre = v.pre.to_state().map_err(|e| format!("pre: {e}"))?;
    let mut post = pre.clone();
    v.post.apply_to(&mut post).map_err(|e| format!("post: {e}"))?;
    Ok((pre, post))
}

/// Runs one vector of `file` on `model`.
pub fn run_vector(model: &dyn Model, file: &VectorFile, v: &Vector, strictness: Strictness) -> VectorResult {
    let result = |status| VectorResult {
        id: v.id.clone(),
        file: file.file.clone(),
        mode: v.mode.clone(),
        tainted: v.skip.is_some() || v.non_contractual.is_some(),
        status,
    };
    let (pre, expected) = match expected_states(v) {
        Ok(s) => s,
        Err(e) => return result(Status::Error(e)),
    };
    let words: Vec<u32> = v.program.iter().map(|w| w.word.0).collect();
    if let Some(declaration) = model.declaration() {
        let program: Vec<sfpu_reference::isa::Instr> =
            words.iter().filter_map(|&w| sfpu_reference::isa::decode(file.arch, w).ok()).collect();
        let requires = match &v.requires {
            Some(_) => v.required(),
            None => crate::features::requires(&pre, &program),
        };
        if let Err(why) = declaration.check(requires, &program) {
            return result(Status::NotApplicable(Box::new(why)));
        }
    }
    let Some(outcome) = expected_outcome(v) else {
        return result(Status::Error(
            "the vector's outcome names a clause this build does not know".to_string(),
        ));
    };
    let mut skip = v.skip.clone().unwrap_or_default();
    if strictness == Strictness::Architecture
        && let Some(nc) = &v.non_contractual
    {
        skip.union(nc);
    }
    let expected = Expected::<Sfpu> { state: &expected, outcome: Some(&outcome), skip: &skip };
    let run = model.run(file.arch, &pre, &words);
    result(compare::<Sfpu>(&v.id, &model.name(), file.arch, &words, expected, run))
}

/// Runs every selected vector of `corpus` on `model`, in parallel; results are in corpus order.
pub fn run_corpus(
    model: &dyn Model,
    corpus: &Corpus,
    filter: &Filter,
    strictness: Strictness,
) -> Vec<VectorResult> {
    let selected: Vec<(&VectorFile, &Vector)> = corpus.vectors().filter(|(_, v)| filter.selects(v)).collect();
    selected.par_iter().map(|(f, v)| run_vector(model, f, v, strictness)).collect()
}
