//! Joining the reports of the shards of one run (`conform --shard K/N`, K = 1..N) into the report
//! the whole run would have written ([`merge`]).
//!
//! A shard checks, of every model's sequence of cases (its vectors in corpus order, then its
//! campaign's cases job by job), a contiguous share, the K-th in order. So the whole run's
//! account of a model is its shards' accounts one after the other: counts add up, a cell keeps
//! the first reason and its failures (the first ones of the first shards, under a cap), a reason
//! pattern keeps its first examples, the case records follow one another. The sections' and the report's extensions (not cut) are the first shard's.
//! Timings add up; they are the only part that differs from an unsharded run's.

use std::collections::BTreeMap;

use super::{ChipReport, MatrixRow, ModelCoverage, ReasonEntry, Report};
use crate::matrix::{self, Reasons, Tally};

/// The report of the whole run whose shards wrote `shards`, in shard order. Shards of different
/// runs (other chips, models or settings) are an error.
pub fn merge(shards: &[Report]) -> Result<Report, String> {
    let first = shards.first().ok_or("no report to merge")?;
    let mut out = Report {
        format: first.format.clone(),
        tool: first.tool.clone(),
        chips: Vec::new(),
        extensions: BTreeMap::new(),
        timings_ms: BTreeMap::new(),
        incomplete: None,
        accept_unchecked: first.accept_unchecked,
    };
    let mut incomplete = Vec::new();
    for (k, shard) in shards.iter().enumerate() {
        if shard.chips.len() != first.chips.len()
            || shard.chips.iter().zip(&first.chips).any(|(a, b)| (&a.isa, &a.arch) != (&b.isa, &b.arch))
        {
            return Err(format!("shard {} checked other chips than shard 1: not shards of one run", k + 1));
        }
        if shard.accept_unchecked != first.accept_unchecked {
            return Err(format!(
                "shard {} differs from shard 1 in --accept-unchecked: not shards of one run",
                k + 1
            ));
        }
        for (key, value) in &shard.extensions {
            out.extensions.entry(key.clone()).or_insert_with(|| value.clone());
        }
        for (key, ms) in &shard.timings_ms {
            *out.timings_ms.entry(key.clone()).or_default() += ms;
        }
        if let Some(why) = &shard.incomplete {
            incomplete.push(format!("shard {}: {why}", k + 1));
        }
    }
    out.incomplete = (!incomplete.is_empty()).then(|| incomplete.join("; "));
    for c in 0..first.chips.len() {
        let sections: Vec<&ChipReport> = shards.iter().map(|s| &s.chips[c]).collect();
        out.chips.push(merge_sections(&sections)?);
    }
    Ok(out)
}

/// Whether case `id` is a golden vector's (not a random case's, `random/<job>/<n>`).
fn from_vectors(id: &str) -> bool {
    !id.starts_with("random/")
}

fn merge_sections(sections: &[&ChipReport]) -> Result<ChipReport, String> {
    let first = sections[0];
    let what = format!("{} {}", first.isa, first.arch);
    for (k, s) in sections.iter().enumerate() {
        let same = s.models == first.models
            && s.spec == first.spec
            && s.strictness == first.strictness
            && s.campaign.seed == first.campaign.seed
            && s.campaign.cases_per_mode == first.campaign.cases_per_mode
            && s.campaign.budget_ms == first.campaign.budget_ms
            && s.failure_cap == first.failure_cap;
        if !same {
            return Err(format!(
                "{what}: shard {} differs from shard 1 in its models or settings: not shards of one run",
                k + 1
            ));
        }
    }
    let mut out = first.clone();
    out.corpus.vectors = sections.iter().map(|s| s.corpus.vectors).sum();
    out.campaign.cases = sections.iter().map(|s| s.campaign.cases).sum();
    out.campaign.streams = sections.iter().map(|s| s.campaign.streams).sum();
    out.timings_ms.clear();
    out.extensions.clear();
    for s in sections {
        for (key, ms) in &s.timings_ms {
            *out.timings_ms.entry(key.clone()).or_default() += ms;
        }
        for (key, value) in &s.extensions {
            if !out.extensions.contains_key(key) {
                out.extensions.insert(key.clone(), value.clone());
            }
        }
    }

    // The matrix: every shard's rows, counts added, each cell's first reason kept.
    let mut rows: Vec<MatrixRow> = Vec::new();
    let mut at: BTreeMap<(String, String), usize> = BTreeMap::new();
    for s in sections {
        for row in &s.matrix {
            let key = (row.instruction.clone(), row.mode.clone());
            let i = *at.entry(key).or_insert_with(|| {
                rows.push(MatrixRow { per_model: BTreeMap::new(), reasons: BTreeMap::new(), ..row.clone() });
                rows.len() - 1
            });
            for (model, c) in &row.per_model {
                rows[i].per_model.entry(model.clone()).or_default().add(c);
            }
            for (model, why) in &row.reasons {
                rows[i].reasons.entry(model.clone()).or_insert_with(|| why.clone());
            }
        }
    }

    // The failures and the case records: the vectors' of every model, then the campaign's, each
    // model's shards one after the other, a cell keeping its first ones under a cap.
    let models: Vec<&str> = first.models.iter().map(|m| m.name.as_str()).collect();
    let cap = first.failure_cap.map_or(usize::MAX, |n| n as usize);
    let mut failures = Vec::new();
    let mut cases = Vec::new();
    for vectors in [true, false] {
        for model in &models {
            let mut kept: BTreeMap<(String, String), usize> = BTreeMap::new();
            for s in sections {
                for f in s.failures.iter().filter(|f| f.model == *model && from_vectors(&f.id) == vectors) {
                    let n = kept.entry((f.instruction.clone(), f.mode.clone())).or_default();
                    if *n < cap {
                        *n += 1;
                        failures.push(f.clone());
                    }
                }
                cases.extend(
                    s.cases.iter().filter(|c| c.model == *model && from_vectors(&c.id) == vectors).cloned(),
                );
            }
        }
    }

    // The reasons: counts added, the first examples kept (each model's shards in order).
    let mut reasons: Vec<ReasonEntry> = Vec::new();
    for model in &models {
        let mut by: BTreeMap<(String, String), Reasons> = BTreeMap::new();
        for s in sections {
            for e in s.reasons.iter().filter(|e| e.model == *model) {
                // A report of a format without patterns counts by the reason itself.
                let pattern = if e.pattern.is_empty() { &e.reason } else { &e.pattern };
                by.entry((e.kind.clone(), pattern.clone())).or_default().add(e.count, &e.examples, &e.reason);
            }
        }
        let tally = Tally { reasons: by, ..Tally::default() };
        reasons.extend(tally.entries(model));
    }

    // The coverage, from the merged matrix and the shards' vectors and not-applicable counts.
    let coverage: Vec<ModelCoverage> = models
        .iter()
        .map(|model| {
            let mut tally = Tally::default();
            let mut vectors = 0;
            for s in sections {
                if let Some(c) = s.coverage_of(model) {
                    vectors += c.vectors;
                    for (k, n) in &c.not_applicable_by_feature {
                        *tally.by_feature.entry(k.clone()).or_default() += n;
                    }
                    for (k, n) in &c.not_applicable_by_refusal {
                        *tally.by_refusal.entry(k.clone()).or_default() += n;
                    }
                }
            }
            matrix::coverage(&rows, model, vectors, &tally)
        })
        .collect();

    out.totals = matrix::totals(&rows);
    out.matrix = rows;
    out.failures = failures;
    out.failures_total = sections.iter().map(|s| s.failures_total).sum();
    out.cases = cases;
    out.reasons = reasons;
    out.coverage = coverage;
    Ok(out)
}
