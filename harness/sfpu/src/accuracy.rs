//! The report's kernel accuracy section: for every numerical kernel of the SFPI corpus
//! (`sfpi::kernels::registry`) and every chip checked, the largest and mean error in ULPs against
//! the kernel's f64 oracle over its documented input range (random tiles plus a tile of its special
//! values and boundaries), a histogram and the worst inputs (`sfpi::accuracy::accuracy`); and, where
//! both chips are checked, how much and where their outputs differ (`sfpi::accuracy::chip_difference`).
//!
//! The numbers are the reference model's: they tell a kernel author what the kernel computes on
//! each chip, not whether an implementation under test is right (the kernel vectors in
//! `kernels.yaml` check that, bit for bit). `sfpu-conformance kernel NAME --accuracy` prints the same
//! numbers for one kernel, with the same default seed.
//!
//! Three renderings: [`markdown`] (a table, then the worst inputs and histograms folded in a
//! `<details>` element), [`html`] (a bar chart per chip as inline SVG, on a log scale, each bar
//! green within the kernel's documented bound and red beyond it, then a table with a histogram per
//! kernel and chip), and the JSON of [`KernelAccuracy`] itself in `report.json`.

use std::fmt::{self, Write as _};

use serde::{Deserialize, Serialize};
use sfpi::accuracy::{self, Accuracy, ChipDifference};
use sfpi::kernels::{Ulp, registry};
use sfpu_reference::isa::Arch;

use harness_core::report::text::escape;
use harness_core::report::{Extension, Report};

/// The seed of the accuracy tiles unless told otherwise (`sfpu-conformance kernel` uses it too).
pub const DEFAULT_SEED: u64 = 0x5F91;

/// The kernel accuracy section of a report.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct KernelAccuracy {
    /// The seed of the accuracy tiles.
    pub seed: u64,
    /// The chips measured, in report order.
    pub chips: Vec<Arch>,
    /// One entry per numerical kernel, in the corpus's order.
    pub kernels: Vec<KernelEntry>,
    /// Kernels whose accuracy could not be computed, with why (empty unless the corpus is broken).
    pub errors: Vec<String>,
}

/// One kernel's accuracy on every chip measured.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct KernelEntry {
    /// The kernel's name in the corpus (`exp`, `reciprocal`, ...).
    pub kernel: String,
    /// What it computes and how.
    pub description: String,
    /// Its accuracy per chip, in the order of [`KernelAccuracy::chips`] (chips it does not support
    /// left out).
    pub per_chip: Vec<Accuracy>,
    /// Where Blackhole's and Wormhole's outputs differ, when both were measured.
    pub chip_difference: Option<ChipDifference>,
}

impl KernelAccuracy {
    /// Measures every numerical kernel of the corpus on `chips`, deterministic in `seed`.
    pub fn measure(chips: &[Arch], seed: u64) -> KernelAccuracy {
        let mut out = KernelAccuracy { seed, chips: chips.to_vec(), ..KernelAccuracy::default() };
        for def in registry().into_iter().filter(|d| d.numeric.is_some()) {
            let mut entry = KernelEntry {
                kernel: def.name.to_string(),
                description: def.description.to_string(),
                per_chip: Vec::new(),
                chip_difference: None,
            };
            // Each chip's tiles run once; the accuracy and the chip difference both read them.
            let mut runs = Vec::new();
            for &arch in chips.iter().filter(|a| def.chips.contains(a)) {
                match accuracy::evaluate(&def, arch, seed)
                    .and_then(|e| Ok((accuracy::accuracy_of(&def, &e)?, e)))
                {
                    Ok((a, e)) => {
                        entry.per_chip.push(a);
                        runs.push(e);
                    }
                    Err(e) => out.errors.push(format!("{} on {arch}: {e}", def.name)),
                }
            }
            let run_on = |arch| runs.iter().find(|e| e.arch == arch);
            if let (Some(bh), Some(wh)) = (run_on(Arch::Blackhole), run_on(Arch::Wormhole)) {
                match accuracy::difference_of(&def, bh, wh) {
                    Ok(d) => entry.chip_difference = Some(d),
                    Err(e) => out.errors.push(format!("{} (Blackhole vs Wormhole): {e}", def.name)),
                }
            }
            if !entry.per_chip.is_empty() {
                out.kernels.push(entry);
            }
        }
        out
    }

    /// `(kernel, chip)` pairs whose measured error exceeds the kernel's documented bound.
    pub fn beyond_bound(&self) -> Vec<(&str, Arch)> {
        self.kernels
            .iter()
            .flat_map(|k| k.per_chip.iter().filter(|a| !a.within_bound).map(|a| (k.kernel.as_str(), a.arch)))
            .collect()
    }

    /// One line for the terminal summary.
    pub fn summary_line(&self) -> String {
        let pairs: usize = self.kernels.iter().map(|k| k.per_chip.len()).sum();
        let beyond = self.beyond_bound();
        let differ = self
            .kernels
            .iter()
            .filter(|k| k.chip_difference.as_ref().is_some_and(|d| d.differing > 0))
            .count();
        let mut line = format!(
            "kernel accuracy: {} numerical kernels, {pairs} kernel-chip pairs, {}",
            self.kernels.len(),
            if beyond.is_empty() {
                "all within their documented bounds".to_string()
            } else {
                let names: Vec<String> = beyond.iter().map(|(k, a)| format!("{k} on {a}")).collect();
                format!("{} BEYOND their bounds ({})", beyond.len(), names.join(", "))
            }
        );
        if self.chips.len() > 1 {
            write!(line, "; {differ} differ between the chips").ok();
        }
        if !self.errors.is_empty() {
            write!(line, "; {} could not be measured", self.errors.len()).ok();
        }
        line
    }
}

/// The name of a ULP unit, for headings.
pub fn unit_name(unit: Ulp) -> String {
    match unit {
        Ulp::Output => "ULP of the output format".into(),
        Ulp::Mantissa(m) => format!("ULP of a {m}-bit mantissa"),
        Ulp::Integer => "integer units".into(),
    }
}

/// A number of ULPs, short: `0`, `0.41`, `1.4e5`, `inf`.
fn ulps(x: f64) -> String {
    if x.is_nan() {
        "NaN".to_string()
    } else if x.is_infinite() {
        "inf".to_string()
    } else if x == 0.0 {
        "0".to_string()
    } else if x < 1e4 {
        let s = format!("{x:.3}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        format!("{x:.2e}")
    }
}

fn difference_text(d: &ChipDifference) -> String {
    if d.differing == 0 {
        return format!("identical on all {} inputs", d.samples);
    }
    let mut s = format!(
        "{} of {} outputs differ, max {} ULP, mean {} ULP",
        d.differing,
        d.samples,
        ulps(d.max_ulp),
        ulps(d.mean_ulp)
    );
    if let Some((lo, hi)) = d.input_span {
        write!(s, ", inputs in [{lo:e}, {hi:e}]").ok();
    }
    s
}

fn histogram_text(a: &Accuracy) -> String {
    let parts: Vec<String> = a
        .histogram
        .iter()
        .filter(|b| b.count > 0)
        .map(|b| {
            if b.lo == 0.0 {
                format!("≤{}: {}", ulps(b.hi), b.count)
            } else {
                format!("({}, {}]: {}", ulps(b.lo), ulps(b.hi), b.count)
            }
        })
        .collect();
    parts.join(", ")
}

/// The key of the section in `report.json` ([`Report::extensions`](harness_core::report::Report)).
pub const KEY: &str = "kernel_accuracy";

/// The kernel accuracy section as a report [`Extension`]: how the ISA-neutral renderers draw it.
pub struct KernelAccuracyExtension;

impl Extension for KernelAccuracyExtension {
    fn key(&self) -> &'static str {
        KEY
    }

    fn title(&self) -> &'static str {
        "Kernel accuracy"
    }

    fn markdown(&self, out: &mut String, data: &serde_json::Value) -> Result<(), String> {
        let k =
            KernelAccuracy::deserialize(data).map_err(|e| format!("not a kernel accuracy section: {e}"))?;
        markdown(out, &k).map_err(|e| e.to_string())
    }

    fn html(&self, out: &mut String, data: &serde_json::Value) -> Result<(), String> {
        let k =
            KernelAccuracy::deserialize(data).map_err(|e| format!("not a kernel accuracy section: {e}"))?;
        html(out, &k).map_err(|e| e.to_string())
    }
}

impl KernelAccuracy {
    /// The section of `report`, if it has one that reads.
    pub fn of(report: &Report) -> Option<KernelAccuracy> {
        report.extensions.get(KEY).and_then(|v| KernelAccuracy::deserialize(v).ok())
    }

    /// Stores the section in `report` (replacing one there).
    pub fn store(&self, report: &mut Report) {
        // A struct of numbers and strings always serialises.
        if let Ok(v) = serde_json::to_value(self) {
            report.extensions.insert(KEY.to_string(), v);
        }
    }
}

/// The Markdown section (a `##` heading and what follows).
pub fn markdown(out: &mut String, k: &KernelAccuracy) -> fmt::Result {
    use harness_core::report::text::{cell_code, text};
    writeln!(out, "## Kernel accuracy")?;
    writeln!(out)?;
    writeln!(
        out,
        "The reference model running each numerical SFPI kernel of the corpus over its documented input \
         range (seed `{:#x}`), against the kernel's f64 oracle. `sfpu-conformance kernel NAME --accuracy` \
         shows one kernel.",
        k.seed
    )?;
    writeln!(out)?;
    if k.kernels.is_empty() {
        writeln!(out, "No kernel was measured.")?;
        return writeln!(out);
    }
    let chips: Vec<String> = k.chips.iter().map(|a| a.to_string()).collect();
    write!(out, "| kernel | unit |")?;
    for c in &chips {
        write!(out, " {c}: max | mean | bound (max / mean) |")?;
    }
    if k.chips.len() > 1 {
        write!(out, " Blackhole vs Wormhole |")?;
    }
    writeln!(out)?;
    write!(out, "|---|---|")?;
    for _ in &chips {
        write!(out, "---:|---:|---|")?;
    }
    if k.chips.len() > 1 {
        write!(out, "---|")?;
    }
    writeln!(out)?;
    for e in &k.kernels {
        let unit = e.per_chip.first().map_or(String::new(), |a| match a.unit {
            Ulp::Output => "output ULP".into(),
            Ulp::Mantissa(m) => format!("{m}-bit mantissa ULP"),
            Ulp::Integer => "integer".into(),
        });
        write!(out, "| {} | {unit} |", cell_code(&e.kernel))?;
        for &chip in &k.chips {
            match e.per_chip.iter().find(|a| a.arch == chip) {
                Some(a) => {
                    let verdict = if a.within_bound { "✅" } else { "❌ **beyond**" };
                    write!(
                        out,
                        " {} | {} | {} / {} {verdict} |",
                        ulps(a.max_ulp),
                        ulps(a.mean_ulp),
                        ulps(a.bound_max_ulp),
                        ulps(a.bound_mean_ulp)
                    )?;
                }
                None => write!(out, " — | — | not on this chip |")?,
            }
        }
        if k.chips.len() > 1 {
            let d = e.chip_difference.as_ref().map_or("—".to_string(), difference_text);
            write!(out, " {} |", text(&d))?;
        }
        writeln!(out)?;
    }
    writeln!(out)?;
    writeln!(out, "<details><summary>Worst inputs and histograms</summary>")?;
    writeln!(out)?;
    for e in &k.kernels {
        writeln!(out, "**{}**: {}", text(&e.kernel), text(&e.description))?;
        writeln!(out)?;
        for a in &e.per_chip {
            writeln!(
                out,
                "- {} ({} inputs, {}): {}",
                a.arch,
                a.samples,
                unit_name(a.unit),
                text(&histogram_text(a))
            )?;
            for s in a.worst.iter().take(3) {
                let inputs: Vec<String> =
                    s.inputs.iter().zip(&s.input_bits).map(|(x, b)| format!("{x:e} (0x{b:08x})")).collect();
                writeln!(
                    out,
                    "  - {} → {:e} (0x{:08x}), exact {:e}: {} ULP",
                    text(&inputs.join(", ")),
                    s.output,
                    s.output_bits,
                    s.expected,
                    ulps(s.ulp)
                )?;
            }
        }
        writeln!(out)?;
    }
    writeln!(out, "</details>")?;
    writeln!(out)?;
    for err in &k.errors {
        writeln!(out, "- could not be measured: {}", text(err))?;
    }
    if !k.errors.is_empty() {
        writeln!(out)?;
    }
    Ok(())
}

/// Width of the chart's bar area, in SVG units.
const BAR_AREA: f64 = 420.0;
/// Where the bar area starts (after the kernel names).
const BAR_X: f64 = 130.0;
/// Height of one kernel's row.
const ROW: f64 = 18.0;
/// The largest error the scale shows; larger ones run to the end.
const SCALE_TOP: f64 = 4096.0;

/// Where an error of `ulp` ends on the chart's log scale: 0 at 0 ULP, the whole area at
/// `SCALE_TOP` and beyond.
pub fn bar_width(ulp: f64) -> f64 {
    if ulp.is_nan() || ulp >= SCALE_TOP {
        return BAR_AREA;
    }
    ((1.0 + ulp.max(0.0)).log2() / (1.0 + SCALE_TOP).log2() * BAR_AREA).max(0.0)
}

/// The SVG bar chart of one chip: a row per kernel, the max error as a bar (green within the
/// kernel's bound, red beyond), the mean as a darker inner bar, the bound as a tick.
fn chart(out: &mut String, k: &KernelAccuracy, chip: Arch) -> fmt::Result {
    let rows: Vec<(&str, &Accuracy)> = k
        .kernels
        .iter()
        .filter_map(|e| e.per_chip.iter().find(|a| a.arch == chip).map(|a| (e.kernel.as_str(), a)))
        .collect();
    let width = BAR_X + BAR_AREA + 170.0;
    let height = 28.0 + ROW * rows.len() as f64;
    writeln!(
        out,
        "<svg class=\"accuracy-chart\" data-chip=\"{chip}\" role=\"img\" width=\"{width}\" height=\"{height}\" \
         viewBox=\"0 0 {width} {height}\" xmlns=\"http://www.w3.org/2000/svg\">"
    )?;
    writeln!(out, "<title>Largest and mean error per kernel on {chip}, in ULPs (log scale)</title>")?;
    // The scale: ticks at 0, 1, 4, 16, ... ULPs.
    let mut tick = 0.0;
    while tick <= SCALE_TOP {
        let x = BAR_X + bar_width(tick);
        writeln!(
            out,
            "<line x1=\"{x:.1}\" y1=\"14\" x2=\"{x:.1}\" y2=\"{height}\" stroke=\"#d0d7de\" stroke-width=\"1\" />\
             <text x=\"{x:.1}\" y=\"11\" font-size=\"10\" text-anchor=\"middle\" fill=\"#57606a\">{}</text>",
            ulps(tick)
        )?;
        tick = if tick == 0.0 { 1.0 } else { tick * 4.0 };
    }
    for (i, (name, a)) in rows.iter().enumerate() {
        let y = 20.0 + ROW * i as f64;
        let (fill, status) = if a.within_bound { ("#2da44e", "within") } else { ("#cf222e", "beyond") };
        writeln!(
            out,
            "<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"11\" text-anchor=\"end\" fill=\"#1f2328\">{}</text>",
            BAR_X - 6.0,
            y + 11.0,
            escape(name)
        )?;
        writeln!(
            out,
            "<rect class=\"acc-max\" data-kernel=\"{}\" data-status=\"{status}\" data-ulp=\"{}\" x=\"{BAR_X}\" \
             y=\"{y:.1}\" width=\"{:.2}\" height=\"14\" fill=\"{fill}\"><title>{} on {chip}: max {} ULP \
             (bound {})</title></rect>",
            escape(name),
            ulps(a.max_ulp),
            bar_width(a.max_ulp).max(1.0),
            escape(name),
            ulps(a.max_ulp),
            ulps(a.bound_max_ulp)
        )?;
        writeln!(
            out,
            "<rect class=\"acc-mean\" data-kernel=\"{}\" x=\"{BAR_X}\" y=\"{:.1}\" width=\"{:.2}\" height=\"6\" \
             fill=\"#1a4d2e\"><title>{} on {chip}: mean {} ULP</title></rect>",
            escape(name),
            y + 4.0,
            bar_width(a.mean_ulp),
            escape(name),
            ulps(a.mean_ulp)
        )?;
        let bx = BAR_X + bar_width(a.bound_max_ulp);
        writeln!(
            out,
            "<line class=\"acc-bound\" x1=\"{bx:.1}\" y1=\"{:.1}\" x2=\"{bx:.1}\" y2=\"{:.1}\" stroke=\"#1f2328\" \
             stroke-width=\"2\" />",
            y - 1.0,
            y + 15.0
        )?;
        writeln!(
            out,
            "<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"11\" fill=\"#1f2328\">max {} / mean {}</text>",
            BAR_X + BAR_AREA + 8.0,
            y + 11.0,
            ulps(a.max_ulp),
            ulps(a.mean_ulp)
        )?;
    }
    writeln!(out, "</svg>")
}

/// A small SVG histogram: one bar per bucket, heights on a log scale of the count.
fn mini_histogram(out: &mut String, a: &Accuracy) -> fmt::Result {
    let n = a.histogram.len();
    let (w, h) = (6.0 * n as f64, 24.0);
    let top = a.histogram.iter().map(|b| b.count).max().unwrap_or(0).max(1) as f64;
    write!(
        out,
        "<svg class=\"acc-hist\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" xmlns=\"http://www.w3.org/2000/svg\">"
    )?;
    write!(out, "<title>{}</title>", escape(&histogram_text(a)))?;
    for (i, b) in a.histogram.iter().enumerate() {
        if b.count == 0 {
            continue;
        }
        let bh = ((1.0 + b.count as f64).ln() / (1.0 + top).ln() * (h - 2.0)).max(1.0);
        write!(
            out,
            "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"5\" height=\"{bh:.1}\" fill=\"#0969da\" />",
            6.0 * i as f64,
            h - bh
        )?;
    }
    write!(out, "</svg>")
}

/// The HTML section (`<section id="kernel-accuracy">`).
pub fn html(out: &mut String, k: &KernelAccuracy) -> fmt::Result {
    writeln!(out, "<section id=\"kernel-accuracy\">")?;
    writeln!(out, "<h2>Kernel accuracy</h2>")?;
    writeln!(
        out,
        "<p>The reference model running each numerical SFPI kernel over its documented input range (seed \
         <code>{:#x}</code>), against the kernel's f64 oracle. Bars: the largest error (green within the \
         kernel's documented bound, red beyond it; the black tick is the bound), the mean as the dark inner \
         bar; log scale. <code>sfpu-conformance kernel NAME --accuracy</code> shows one kernel.</p>",
        k.seed
    )?;
    if k.kernels.is_empty() {
        writeln!(out, "<p>No kernel was measured.</p>")?;
    }
    for &chip in &k.chips {
        writeln!(out, "<h3>{chip}</h3>")?;
        chart(out, k, chip)?;
    }
    if !k.kernels.is_empty() {
        writeln!(
            out,
            "<table class=\"accuracy\"><thead><tr><th>kernel</th><th>chip</th><th>inputs</th>\
             <th>max</th><th>mean</th><th>bound</th><th>histogram</th><th>worst input</th></tr></thead><tbody>"
        )?;
        for e in &k.kernels {
            for (i, a) in e.per_chip.iter().enumerate() {
                write!(out, "<tr>")?;
                if i == 0 {
                    write!(
                        out,
                        "<td rowspan=\"{}\" title=\"{}\"><code>{}</code></td>",
                        e.per_chip.len(),
                        escape(&e.description),
                        escape(&e.kernel)
                    )?;
                }
                let verdict = if a.within_bound { "" } else { " <strong class=\"beyond\">beyond</strong>" };
                write!(
                    out,
                    "<td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{} / {}{verdict}</td><td>",
                    a.arch,
                    a.samples,
                    ulps(a.max_ulp),
                    ulps(a.mean_ulp),
                    ulps(a.bound_max_ulp),
                    ulps(a.bound_mean_ulp)
                )?;
                mini_histogram(out, a)?;
                write!(out, "</td><td>")?;
                if let Some(s) = a.worst.first() {
                    let inputs: Vec<String> = s.inputs.iter().map(|x| format!("{x:e}")).collect();
                    write!(
                        out,
                        "{} → {:e}, exact {:e} ({} ULP)",
                        escape(&inputs.join(", ")),
                        s.output,
                        s.expected,
                        ulps(s.ulp)
                    )?;
                }
                writeln!(out, "</td></tr>")?;
            }
            if let Some(d) = &e.chip_difference {
                writeln!(
                    out,
                    "<tr class=\"chip-difference\"><td colspan=\"8\">Blackhole vs Wormhole: {}</td></tr>",
                    escape(&difference_text(d))
                )?;
            }
        }
        writeln!(out, "</tbody></table>")?;
    }
    for err in &k.errors {
        writeln!(out, "<p class=\"error\">could not be measured: {}</p>", escape(err))?;
    }
    writeln!(out, "</section>")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_log_scale_puts_zero_at_the_start_and_the_top_at_the_end() {
        assert_eq!(bar_width(0.0), 0.0);
        // log2(1 + 1) / log2(4097) of the area: one ULP is a twelfth of it, near enough.
        assert!((bar_width(1.0) - BAR_AREA / 4097f64.log2()).abs() < 1e-9);
        assert_eq!(bar_width(SCALE_TOP), BAR_AREA);
        assert_eq!(bar_width(f64::INFINITY), BAR_AREA);
        assert_eq!(bar_width(f64::NAN), BAR_AREA);
        assert!(bar_width(0.5) < bar_width(1.0) && bar_width(1.0) < bar_width(3.0));
    }

    #[test]
    fn ulps_print_short() {
        assert_eq!(ulps(0.0), "0");
        assert_eq!(ulps(1.0), "1");
        assert_eq!(ulps(1.414), "1.414");
        assert_eq!(ulps(0.25), "0.25");
        assert_eq!(ulps(123456.0), "1.23e5");
        assert_eq!(ulps(f64::INFINITY), "inf");
    }

    /// `abs` is exact on every chip (SFPABS clears the sign), `square` is one correctly rounded
    /// multiplication (at most half an ULP), and neither differs between the chips on finite
    /// inputs, so their rows are known without the code under test.
    #[test]
    fn measuring_both_chips_gives_every_numerical_kernel_a_row_per_chip() {
        let k = KernelAccuracy::measure(&[Arch::Blackhole, Arch::Wormhole], DEFAULT_SEED);
        assert!(k.errors.is_empty(), "{:?}", k.errors);
        let numerical = registry().iter().filter(|d| d.numeric.is_some()).count();
        assert_eq!(k.kernels.len(), numerical);
        for e in &k.kernels {
            let chips: Vec<Arch> = e.per_chip.iter().map(|a| a.arch).collect();
            assert_eq!(chips, [Arch::Blackhole, Arch::Wormhole], "{}", e.kernel);
            assert!(e.chip_difference.is_some(), "{}", e.kernel);
        }
        let abs = k.kernels.iter().find(|e| e.kernel == "abs").expect("abs is in the corpus");
        for a in &abs.per_chip {
            assert_eq!((a.max_ulp, a.mean_ulp), (0.0, 0.0), "abs on {}", a.arch);
        }
        let square = k.kernels.iter().find(|e| e.kernel == "square").expect("square is in the corpus");
        for a in &square.per_chip {
            assert!(a.max_ulp <= 0.5, "square on {}: {}", a.arch, a.max_ulp);
        }
        assert!(k.beyond_bound().is_empty(), "{:?}", k.beyond_bound());
        assert!(k.summary_line().contains("all within their documented bounds"), "{}", k.summary_line());
    }

    #[test]
    fn one_chip_has_no_chip_difference() {
        let k = KernelAccuracy::measure(&[Arch::Wormhole], DEFAULT_SEED);
        assert!(!k.kernels.is_empty());
        assert!(k.kernels.iter().all(|e| e.chip_difference.is_none() && e.per_chip.len() == 1));
        assert!(!k.summary_line().contains("differ between"));
    }

    fn planted() -> KernelAccuracy {
        let mut k = KernelAccuracy::measure(&[Arch::Blackhole, Arch::Wormhole], DEFAULT_SEED);
        let exp = k.kernels.iter_mut().find(|e| e.kernel == "exp").unwrap();
        exp.per_chip[1].max_ulp = 9000.0;
        exp.per_chip[1].within_bound = false;
        exp.description = "<script>alert(1)</script> | pipe".to_string();
        k
    }

    #[test]
    fn a_kernel_beyond_its_bound_is_named_everywhere() {
        let k = planted();
        assert_eq!(k.beyond_bound(), [("exp", Arch::Wormhole)]);
        assert!(k.summary_line().contains("1 BEYOND their bounds (exp on wormhole)"), "{}", k.summary_line());
        let mut md = String::new();
        markdown(&mut md, &k).unwrap();
        let exp_row = md.lines().find(|l| l.starts_with("| `exp` |")).expect("an exp row");
        assert!(exp_row.contains("9000 |") && exp_row.contains("❌ **beyond**"), "{exp_row}");
        assert!(!md.contains("<script>") && md.contains("\\<script\\>"), "the description is escaped");
        let mut page = String::new();
        html(&mut page, &k).unwrap();
        assert!(page.contains("data-kernel=\"exp\" data-status=\"beyond\" data-ulp=\"9000\""));
        assert!(!page.contains("<script>"));
        // Every kernel has a bar per chip, and exactly one is red.
        assert_eq!(page.matches("class=\"acc-max\"").count(), 2 * k.kernels.len());
        assert_eq!(page.matches("data-status=\"beyond\"").count(), 1);
    }

    #[test]
    fn the_json_round_trips() {
        let k = planted();
        let json = serde_json::to_string(&k).unwrap();
        let back: KernelAccuracy = serde_json::from_str(&json).unwrap();
        assert_eq!(back, k);
    }
}
