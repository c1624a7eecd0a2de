//! Running vectors on a [`Model`]: every vector, in parallel, every failure collected before
//! anything is reported.

use std::fmt::Write as _;

use rayon::prelude::*;
use sfpu_reference::{Outcome, State};

use super::format::{Vector, VectorFile};
use super::load::Corpus;
use crate::diff;
use crate::model::Model;
use crate::sfpu::declaration::NotApplicable;
use crate::taint::{Locations, differing};

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

/// Why a vector did not pass.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// The locations that differ (outside the skipped ones).
    pub differing: Locations,
    /// Whether the outcome differs (when the model reports one).
    pub outcome_differs: bool,
    /// A readable account: the program, the differing lanes with both sides' bits, the outcomes.
    pub report: String,
}

/// The result of one vector.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Status {
    /// Everything compared is equal.
    Pass,
    /// Something compared differs.
    Fail(Box<Failure>),
    /// The model said it does not support the case.
    Unsupported(String),
    /// The model failed to run the case.
    Error(String),
    /// The case was not given to the model: its declaration does not cover what the case requires
    /// (features it does not model, instructions or modes it refuses up front).
    NotApplicable(Box<NotApplicable>),
}

/// One vector's result, with what identifies it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VectorResult {
    /// The vector's id.
    pub id: String,
    /// The vector's file stem.
    pub file: String,
    /// The vector's mode, if any.
    pub mode: Option<String>,
    /// Whether some locations were skipped as not promised.
    pub tainted: bool,
    /// The result.
    pub status: Status,
}

fn outcome_notes(o: &Outcome) -> Vec<(String, u32)> {
    o.notes().map(|(c, l)| (c.id().to_string(), l)).collect()
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
            None => crate::sfpu::features::requires(&pre, &program),
        };
        if let Err(why) = declaration.check(requires, &program) {
            return result(Status::NotApplicable(Box::new(why)));
        }
    }
    let run = match model.run(file.arch, &pre, &words) {
        Ok(run) => run,
        Err(crate::ModelError::Unsupported(why)) => return result(Status::Unsupported(why)),
        Err(crate::ModelError::Failed(why)) => return result(Status::Error(why)),
    };
    let mut skip = v.skip.clone().unwrap_or_default();
    if strictness == Strictness::Architecture
        && let Some(nc) = &v.non_contractual
    {
        skip.union(nc);
    }
    let diff = differing(&expected, &run.post, &skip);
    let expected_notes: Vec<(String, u32)> =
        v.outcome.iter().map(|n| (n.clause.clone(), n.lanes.0)).collect();
    let outcome_differs = run.outcome.as_ref().is_some_and(|o| outcome_notes(o) != expected_notes);
    if diff.is_empty() && !outcome_differs {
        return result(Status::Pass);
    }
    let mut report = String::new();
    let _ = writeln!(
        report,
        "vector {} ({}): {} differs",
        v.id,
        model.name(),
        if diff.is_empty() { "the outcome" } else { "the state" }
    );
    for w in &v.program {
        let _ = writeln!(report, "  0x{:08x}  {}", w.word.0, w.text);
    }
    report.push_str(&diff::describe(&expected, &run.post, &diff));
    if outcome_differs {
        let _ = writeln!(
            report,
            "  outcome: expected {expected_notes:x?}, got {:x?}",
            run.outcome.as_ref().map(outcome_notes)
        );
    }
    result(Status::Fail(Box::new(Failure { differing: diff, outcome_differs, report })))
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
