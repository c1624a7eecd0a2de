//! `--smoke --planted`: for each chip, `diff_stream` must find the divergence planted behind the
//! fast model's `planted-divergence` feature from an empty corpus, and the artifact must triage
//! into a copy of the chip's regressions file as a vector that passes on the reference.

use std::path::Path;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::Result;
use harness_sfpu::fuzz::all_arches;
use harness_sfpu::vectors::{Vector, load_file};
use sfpu_reference::isa::Arch;

use super::args::Args;
use super::cargo_fuzz::{Fuzz, spinner};
use super::libfuzzer::{Pin, run_target};
use super::triage::{empty_regressions, triage};
use crate::interrupt::Interrupt;

pub(super) fn planted(root: &Path, args: &Args, fuzz: &Fuzz, interrupt: &Interrupt) -> Result<ExitCode> {
    let started = Instant::now();
    fuzz.build(root, &["diff_stream"], Some("planted"), args.quiet)?;
    let mut results = Vec::new();
    for arch in all_arches() {
        if interrupt.signal().is_some() {
            break;
        }
        results.push(planted_on(root, args, fuzz, arch)?);
    }
    let (verdict, not_checked) = planted_verdict(&results);
    let ok = verdict.unwrap_or(true);
    let stopped = interrupt.signal();
    if args.json {
        outln!(
            "{}",
            serde_json::to_string_pretty(&serde_json::json!({
                "planted": verdict,
                "chips": results,
                "total_seconds": started.elapsed().as_secs(),
                "interrupted": stopped,
                "not_checked": not_checked,
            }))?
        );
    }
    if let Some(signal) = stopped {
        errln!(
            "planted check interrupted by {signal} after {:.0}s{}",
            started.elapsed().as_secs_f64(),
            if not_checked.is_empty() {
                String::new()
            } else {
                format!("; not checked: {}", not_checked.join(", "))
            }
        );
        return Ok(ExitCode::from(interrupt.exit_status()));
    }
    if ok && !args.quiet {
        errln!("planted check passed on every chip (total {:.0}s)", started.elapsed().as_secs_f64());
    }
    Ok(if ok { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

/// The planted check's verdict from the chips' results (`planted_on`, in `all_arches` order) and
/// the chips not checked: `false` if a checked chip failed, `true` if every chip passed, `None`
/// when a signal stopped the check with no chip failed yet. A chip a signal cut short
/// (`"interrupted"`) has no verdict of its own, and counts as not checked.
fn planted_verdict(results: &[serde_json::Value]) -> (Option<bool>, Vec<String>) {
    let checked: Vec<&serde_json::Value> = results.iter().filter(|r| r["interrupted"].is_null()).collect();
    let not_checked: Vec<String> = all_arches().iter().skip(checked.len()).map(Arch::to_string).collect();
    let ok = checked.iter().all(|r| r["planted"].as_bool() == Some(true));
    ((not_checked.is_empty() || !ok).then_some(ok), not_checked)
}

/// The planted check on one chip: diff_stream, with the chip pinned, must find the planted
/// divergence from an empty corpus, and the artifact must triage into a copy of the chip's
/// regressions file as an SFPIADD vector that loads and passes on the reference.
fn planted_on(root: &Path, args: &Args, fuzz: &Fuzz, arch: Arch) -> Result<serde_json::Value> {
    // A fresh, empty corpus: the fuzzer must find the divergence on its own, not from a seed.
    let scratch = std::env::temp_dir().join(format!("sfpu-fuzz-planted-{arch}-{}", std::process::id()));
    let corpus = scratch.join("corpus");
    let _ = std::fs::remove_dir_all(&scratch);
    std::fs::create_dir_all(&corpus)?;
    let budget = Duration::from_secs(60);
    let bar = spinner(args.quiet, &format!("diff_stream (planted divergence, {arch}): starting"));
    let pin = Pin { chip: Some(arch), max_stream: args.max_stream, seed: None };
    let run = run_target(fuzz, root, "diff_stream", &corpus, budget, 1, Some("planted"), pin, &bar)?;
    bar.finish_and_clear();
    // Stopped before it found the divergence (once found, libFuzzer has stopped on its own).
    if let Some(signal) = run.interrupted.filter(|_| run.crashes.is_empty()) {
        let _ = std::fs::remove_dir_all(&scratch);
        return Ok(serde_json::json!({
            "chip": arch.to_string(),
            "planted": null,
            "execs": run.execs,
            "interrupted": signal,
        }));
    }
    let fail = |why: String| {
        errln!("planted check FAILED on {arch}: {why}");
        serde_json::json!({"chip": arch.to_string(), "planted": false, "execs": run.execs, "error": why})
    };
    let Some(raw) = run.crashes.first().cloned() else {
        return Ok(fail(format!(
            "diff_stream did not find the planted divergence in {:.0}s ({} execs){}",
            run.seconds,
            run.execs,
            run.error.as_deref().map(|e| format!("\n{e}")).unwrap_or_default()
        )));
    };
    let found_after = run.seconds;
    // The artifact as the oracle saw it: the chip bit pinned (the target overwrote it).
    let mut data = std::fs::read(&raw)?;
    let _ = std::fs::remove_file(&raw);
    if let Some(head) = data.first_mut() {
        *head = (*head & !0x40) | if arch == Arch::Wormhole { 0x40 } else { 0 };
    }
    let artifact = scratch.join("diff_stream").join(raw.file_name().unwrap_or_default());
    std::fs::create_dir_all(scratch.join("diff_stream"))?;
    std::fs::write(&artifact, &data)?;
    // Triage into a copy of the chip's regressions file, then check the copy loads and the new
    // vector passes on the reference.
    let copy = scratch.join("regressions.yaml");
    let real = root.join(format!("vectors/{arch}/regressions.yaml"));
    if real.exists() {
        std::fs::copy(&real, &copy)?;
    } else {
        std::fs::write(&copy, empty_regressions(arch))?;
    }
    let report = triage(root, &[(artifact.clone(), "diff_stream")], &copy, true)?;
    let file =
        load_file(&copy).map_err(|e| anyhow::anyhow!("the triaged regressions file does not load: {e:?}"))?;
    let added: Vec<&Vector> = file.vectors.iter().filter(|v| v.tags.iter().any(|t| t == "fuzz")).collect();
    let shape_ok = report.added.iter().any(|a| a.shape.starts_with("SFPIADD/"));
    let passes = file.arch == arch
        && added.iter().all(|v| {
            matches!(
                harness_sfpu::vectors::run_vector(
                    &harness_sfpu::Reference,
                    &file,
                    v,
                    harness_sfpu::vectors::Strictness::Silicon
                )
                .status,
                harness_sfpu::vectors::Status::Pass
            )
        });
    if added.is_empty() || !shape_ok || !passes {
        return Ok(fail(format!(
            "artifact {} triaged to {:?} (shape SFPIADD expected; vector passes on the reference: {passes}); files kept in {}",
            artifact.display(),
            report.added.iter().map(|a| &a.shape).collect::<Vec<_>>(),
            scratch.display()
        )));
    }
    if !args.quiet {
        errln!(
            "planted check passed on {arch}: diff_stream found the planted SFPIADD divergence after {found_after:.1}s \
             ({} execs, from an empty corpus) and triaged it into a {arch} regression vector:",
            run.execs,
        );
        for a in &report.added {
            errln!("  {} [{}]", a.id, a.shape);
        }
    }
    let _ = std::fs::remove_dir_all(&scratch);
    Ok(serde_json::json!({
        "chip": arch.to_string(),
        "planted": true,
        "found_after_seconds": (found_after * 10.0).round() / 10.0,
        "execs": run.execs,
        "shapes": report.added.iter().map(|a| a.shape.clone()).collect::<Vec<_>>(),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A chip cut short by a signal is neither a pass nor a failure; one failed chip fails the
    /// check whatever else happened.
    #[test]
    fn planted_verdicts() {
        use serde_json::json;
        let pass = |chip: &str| json!({"chip": chip, "planted": true});
        let fail = |chip: &str| json!({"chip": chip, "planted": false, "error": "not found"});
        let cut = |chip: &str| json!({"chip": chip, "planted": null, "interrupted": "SIGINT"});
        let none: Vec<String> = Vec::new();
        assert_eq!(planted_verdict(&[pass("blackhole"), pass("wormhole")]), (Some(true), none.clone()));
        assert_eq!(planted_verdict(&[pass("blackhole"), fail("wormhole")]), (Some(false), none));
        assert_eq!(
            planted_verdict(&[pass("blackhole"), cut("wormhole")]),
            (None, vec!["wormhole".to_string()])
        );
        assert_eq!(
            planted_verdict(&[fail("blackhole"), cut("wormhole")]),
            (Some(false), vec!["wormhole".to_string()])
        );
        assert_eq!(
            planted_verdict(&[cut("blackhole")]),
            (None, vec!["blackhole".to_string(), "wormhole".to_string()])
        );
        assert_eq!(planted_verdict(&[]), (None, vec!["blackhole".to_string(), "wormhole".to_string()]));
    }
}
