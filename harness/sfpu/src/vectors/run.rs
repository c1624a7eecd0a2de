//! Running vectors on a [`Model`] outside a session (the tests, the fuzz oracles): one vector of a
//! file made runnable ([`case_of`](super::corpus::case_of)) and checked by the core's
//! [`run_case`], or every selected vector of a corpus in parallel.

use harness_core::vectors::run_case;
use rayon::prelude::*;

use super::format::{Vector, VectorFile};
use super::load::Corpus;
use crate::model::Model;
use crate::taint::Locations;

pub use super::corpus::expected_states;
pub use harness_core::isa::Strictness;

/// Which vectors to run: `SFPU_VECTORS=SFPMAD,-SFPLUT` style, the core's
/// [`Filter`](harness_core::vectors::Filter) over a vector's id, file, mode and tags.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Filter(harness_core::vectors::Filter);

impl Filter {
    /// Parses a comma-separated list; patterns starting with `-` exclude.
    pub fn parse(spec: &str) -> Filter {
        Filter(harness_core::vectors::Filter::parse(spec))
    }

    /// The filter in the `SFPU_VECTORS` environment variable (empty: everything).
    pub fn from_env() -> Filter {
        Filter::parse(&std::env::var("SFPU_VECTORS").unwrap_or_default())
    }

    /// Whether `v` is selected (its file is the start of its id).
    pub fn selects(&self, v: &Vector) -> bool {
        let file = v.id.split('/').next().unwrap_or("");
        self.0.selects(&v.id, file, v.mode.as_deref(), &v.tags)
    }
}

/// Why a vector did not pass (the core's [`harness_core::check::Failure`] over the SFPU's
/// locations).
pub type Failure = harness_core::check::Failure<Locations>;

/// The result of one vector (the core's [`harness_core::check::Status`]).
pub type Status = harness_core::check::Status<Locations>;

/// One vector's result, with what identifies it (the core's [`harness_core::check::CaseResult`]).
pub type VectorResult = harness_core::check::CaseResult<Locations>;

/// Runs one vector of `file` on `model`.
pub fn run_vector(model: &dyn Model, file: &VectorFile, v: &Vector, strictness: Strictness) -> VectorResult {
    match super::corpus::case_of(&file.file, v, strictness) {
        Ok(case) => run_case(model, file.arch, &case),
        Err(e) => VectorResult {
            id: v.id.clone(),
            file: file.file.clone(),
            mode: v.mode.clone(),
            tainted: v.skip.is_some() || v.non_contractual.is_some(),
            status: Status::Error(e),
        },
    }
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
