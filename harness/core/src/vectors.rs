//! Golden vectors as the core runs them, whatever their instruction set's file format (a loaded
//! corpus is the instruction set's [`Corpus`], a vector made runnable a [`VectorCase`], both part
//! of the seam): the selection of a run ([`Filter`]) and running a selection on a model
//! ([`run_selected`]: in parallel on a built-in model, in corpus order on an external one,
//! stoppable).

use rayon::prelude::*;

use crate::check::{CaseResult, Expected, Status, compare};
use crate::isa::{Isa, Model, Strictness};

pub use crate::isa::{Corpus, VectorCase};

/// Which vectors to run: `SFPMAD,-SFPLUT` style. A vector is selected if some include pattern
/// matches (or there is none) and no exclude pattern does; a pattern matches an id equal to it or
/// starting with it followed by `/`, a tag equal to it, the vector's mode value, or its matrix
/// row's instruction (`SFPMAD`, `source`).
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

    /// The include patterns `names` (a run's `--only`).
    pub fn only(names: &[String]) -> Filter {
        Filter { include: names.to_vec(), exclude: Vec::new() }
    }

    /// Whether `pattern` matches a vector with this id, row, mode and tags.
    pub fn matches(pattern: &str, id: &str, row: &str, mode: Option<&str>, tags: &[String]) -> bool {
        id == pattern
            || id.strip_prefix(pattern).is_some_and(|rest| rest.starts_with('/'))
            || tags.iter().any(|t| t == pattern)
            || mode == Some(pattern)
            || row.eq_ignore_ascii_case(pattern)
    }

    /// Whether a vector with this id, row, mode and tags is selected.
    pub fn selects(&self, id: &str, row: &str, mode: Option<&str>, tags: &[String]) -> bool {
        (self.include.is_empty() || self.include.iter().any(|p| Filter::matches(p, id, row, mode, tags)))
            && !self.exclude.iter().any(|p| Filter::matches(p, id, row, mode, tags))
    }

    /// The indices of `corpus`'s vectors this filter selects, in corpus order.
    pub fn select<I: Isa>(&self, corpus: &I::Corpus) -> Vec<usize> {
        (0..corpus.len())
            .filter(|&i| {
                let (row, mode) = corpus.row(i);
                self.selects(corpus.id(i), &row, mode.as_deref(), corpus.tags(i))
            })
            .collect()
    }
}

/// Runs `case` on `model` on `chip` and compares: a case the model's declaration does not cover
/// is not run (not applicable).
pub fn run_case<I: Isa>(model: &dyn Model<I>, chip: I::Chip, c: &VectorCase<I>) -> CaseResult<I::Locations> {
    let status = match model.declaration().and_then(|d| I::not_applicable(d, chip, c)) {
        Some(na) => Status::NotApplicable(Box::new(na)),
        None => {
            let expected = Expected::<I> { state: &c.expected, outcome: c.outcome.as_ref(), skip: &c.skip };
            compare::<I>(
                &c.id,
                &model.name(),
                chip,
                &c.program,
                expected,
                model.run(chip, &c.pre, &c.program),
            )
        }
    };
    CaseResult { id: c.id.clone(), file: c.file.clone(), mode: c.mode.clone(), tainted: c.tainted, status }
}

/// Runs vector `i` of `corpus` on `model`: made runnable, run, compared. A vector that cannot be
/// made runnable is an error of the case.
pub fn run_vector<I: Isa>(
    model: &dyn Model<I>,
    chip: I::Chip,
    corpus: &I::Corpus,
    i: usize,
    strictness: Strictness,
) -> CaseResult<I::Locations> {
    match corpus.case(i, strictness) {
        Ok(case) => run_case(model, chip, &case),
        Err(e) => {
            let (file, mode) = corpus.row(i);
            CaseResult { id: corpus.id(i).to_string(), file, mode, tainted: false, status: Status::Error(e) }
        }
    }
}

/// Runs the vectors `selected` of `corpus` on `model`, calling `done` after each: in parallel
/// unless `in_order` (an external implementation runs one case at a time anyway, and a fixed
/// order makes its case numbers, and a fault's neighbours, the same on every run). Once `stop`
/// says so no further vector starts; the results are those that completed, in corpus order (a
/// case the interruption cut short, [`Status::Interrupted`], is not among them).
pub fn run_selected<I: Isa>(
    model: &dyn Model<I>,
    chip: I::Chip,
    corpus: &I::Corpus,
    selected: &[usize],
    strictness: Strictness,
    in_order: bool,
    done: &(dyn Fn() + Sync),
    stop: &(dyn Fn() -> bool + Sync),
) -> Vec<CaseResult<I::Locations>> {
    let one = |&i: &usize| {
        if stop() {
            return None;
        }
        let r = run_vector(model, chip, corpus, i, strictness);
        if matches!(r.status, Status::Interrupted) {
            return None; // not done
        }
        done();
        Some(r)
    };
    if in_order {
        selected.iter().map_while(one).collect()
    } else {
        selected.par_iter().map(one).collect::<Vec<_>>().into_iter().flatten().collect()
    }
}
