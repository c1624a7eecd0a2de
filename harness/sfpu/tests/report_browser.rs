//! The HTML report in headless Chromium: the matrix is in the DOM with every cell, the page's
//! Content-Security-Policy stops scripts, every cell is laid out and painted in its status's
//! colour, and a screenshot comes out the size asked for; the kernel accuracy chart is laid out
//! with a bar per kernel and chip, in order and in the right colours.
//!
//! This target has its own harness (libtest-mimic) so that a machine without Chromium reports the
//! test as *ignored*, with the reason, rather than as passed. CI installs Debian's `chromium` and
//! sets `SFPU_REQUIRE_CHROMIUM=1`, which turns a missing `chromium` into a failure, so a CI run
//! that did not render the page cannot pass.

#![cfg(unix)]

use std::collections::BTreeMap;
use std::fs;
use std::os::unix::process::CommandExt as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use harness_core::report::{html, junit, markdown};
use harness_sfpu::accuracy::KernelAccuracy;
use libtest_mimic::{Arguments, Trial};

#[path = "it/report_sample/mod.rs"]
mod report_sample;
use report_sample::*;

/// How long one Chromium run may take before it is killed.
const TIMEOUT: Duration = Duration::from_secs(60);

/// A fresh directory under the system's temporary directory, removed when the test passes
/// (kept, and named, when it fails).
struct TempDir(PathBuf);

impl TempDir {
    fn new() -> TempDir {
        let nanos = SystemTime::now().duration_since(UNIX_EPOCH).unwrap().as_nanos();
        let dir = std::env::temp_dir().join(format!("sfpu-report-test-{}-{nanos}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        if std::thread::panicking() {
            eprintln!("kept {} for inspection", self.0.display());
        } else {
            let _ = fs::remove_dir_all(&self.0);
        }
    }
}

/// `chromium` on the PATH, if there is one.
fn find_chromium() -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path).map(|d| d.join("chromium")).find(|p| p.is_file())
}

fn file_url(path: &Path) -> String {
    let mut url = String::from("file://");
    for b in path.to_str().expect("a UTF-8 temporary path").bytes() {
        if b.is_ascii_alphanumeric() || b"/-_.~".contains(&b) {
            url.push(b as char);
        } else {
            url.push_str(&format!("%{b:02X}"));
        }
    }
    url
}

/// Kills the process group `pgid` (Chromium and the helpers it started), ignoring a group
/// that is already gone.
fn kill_group(pgid: u32) {
    let _ = Command::new("kill")
        .args(["-s", "KILL", "--", &format!("-{pgid}")])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
}

/// Runs headless Chromium on `page` with `extra` arguments, in its own process group and its
/// own profile, killing it after [`TIMEOUT`]; returns what it printed on stdout.
fn run_chromium(chromium: &Path, dir: &Path, run: &str, page: &Path, extra: &[String]) -> String {
    let profile = dir.join(format!("profile-{run}"));
    let stdout = dir.join(format!("{run}.stdout"));
    let stderr = dir.join(format!("{run}.stderr"));
    let mut child = Command::new(chromium)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-dev-shm-usage",
            "--hide-scrollbars",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(extra)
        .arg(file_url(page))
        .stdin(Stdio::null())
        .stdout(fs::File::create(&stdout).unwrap())
        .stderr(fs::File::create(&stderr).unwrap())
        .process_group(0)
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start chromium: {e}"));
    let pgid = child.id();
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > TIMEOUT {
            kill_group(pgid);
            let _ = child.wait();
            panic!(
                "chromium ({run}) did not finish within {TIMEOUT:?}; killed. stderr:\n{}",
                fs::read_to_string(&stderr).unwrap_or_default()
            );
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    // Whatever Chromium left behind in its group goes too.
    kill_group(pgid);
    let err = fs::read_to_string(&stderr).unwrap_or_default();
    assert!(status.success(), "chromium ({run}) failed: {status}\n{err}");
    fs::read_to_string(&stdout).unwrap()
}

/// The `table.matrix` tables of a DOM dump (one per chip section), each from its start tag to
/// its end tag.
fn matrices_of(dom: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut at = 0;
    while let Some(i) = dom[at..].find("<table class=\"matrix\"") {
        let start = at + i;
        let end = dom[start..].find("</table>").expect("the matrix table ends") + start;
        out.push(&dom[start..end]);
        at = end;
    }
    assert!(!out.is_empty(), "no matrix table in the DOM:\n{dom}");
    out
}

/// The (status, chip, instruction, mode, model) of every `td.cell` of a DOM dump's matrices.
fn dumped_cells(dom: &str) -> Vec<(String, String, String, String, String)> {
    let mut cells = Vec::new();
    for tag in matrices_of(dom).into_iter().flat_map(|m| m.split("<td ").skip(1)) {
        let tag = &tag[..tag.find('>').unwrap()];
        let attr = |name: &str| -> String {
            let key = format!("{name}=\"");
            let at = tag.find(&key).unwrap_or_else(|| panic!("no {name} in <td {tag}>")) + key.len();
            tag[at..at + tag[at..].find('"').unwrap()].to_string()
        };
        let class = attr("class");
        let status = class.strip_prefix("cell ").unwrap_or_else(|| panic!("class {class:?}"));
        cells.push((
            status.to_string(),
            attr("data-arch"),
            attr("data-instruction"),
            attr("data-mode"),
            attr("data-model"),
        ));
    }
    cells
}

/// Measures every cell as laid out: appended to a copy of the page, writes one line per cell
/// into `<pre id="probe">`, which `--dump-dom` then shows.
const PROBE: &str = r#"<script>
(function () {
  var lines = [];
  var tables = document.querySelectorAll('table.matrix');
  for (var j = 0; j < tables.length; j++) {
var t = tables[j].getBoundingClientRect();
lines.push(['TABLE', tables[j].dataset.arch, Math.round(t.width), Math.round(t.height)].join('\t'));
  }
  var cells = document.querySelectorAll('table.matrix td.cell');
  for (var i = 0; i < cells.length; i++) {
var c = cells[i], r = c.getBoundingClientRect(), s = getComputedStyle(c);
lines.push([c.dataset.status, c.dataset.arch, c.dataset.instruction, c.dataset.mode, c.dataset.model,
  Math.round(r.width), Math.round(r.height), s.display, s.visibility, s.backgroundColor,
  s.backgroundImage.indexOf('repeating-linear-gradient') >= 0 ? 'hatched' : 'plain'].join('\t'));
  }
  var pre = document.createElement('pre');
  pre.id = 'probe';
  pre.textContent = lines.join('\n');
  document.body.appendChild(pre);
})();
</script>
"#;

fn rgb(s: &str) -> (u32, u32, u32) {
    let inner =
        s.strip_prefix("rgb(").and_then(|s| s.strip_suffix(')')).unwrap_or_else(|| panic!("colour {s:?}"));
    let v: Vec<u32> = inner.split(',').map(|x| x.trim().parse().unwrap()).collect();
    (v[0], v[1], v[2])
}

fn chromium_shows_the_matrix(chromium: &Path) {
    let r = sample();
    let page = html::render(&r);
    let dir = TempDir::new();

    // 1. The page as written: the DOM Chromium builds holds the matrix with every cell.
    let path = dir.0.join("report.html");
    fs::write(&path, &page).unwrap();
    let dom = run_chromium(chromium, &dir.0, "dom", &path, &["--dump-dom".to_string()]);
    let cells = dumped_cells(&dom);
    let all_cells = r.chips.iter().map(|c| c.matrix.len()).sum::<usize>() * MODELS.len();
    assert_eq!(matrices_of(&dom).len(), 2, "a matrix per chip");
    assert_eq!(cells.len(), all_cells, "cells in:\n{}", matrices_of(&dom).join("\n"));
    for arch in ["blackhole", "wormhole"] {
        let n = cells.iter().filter(|c| c.1 == arch).count();
        let chip = r.chip(arch).unwrap();
        assert_eq!(n, chip.matrix.len() * MODELS.len(), "{arch}'s cells");
    }
    let tally = status_tally(cells.iter().map(|c| status_named(&c.0)));
    assert_eq!(tally, status_tally(expected_statuses().into_values()));
    assert_cells_match_sample(cells);
    assert!(
        dom.contains("id=\"blackhole-failure-1\"") && dom.contains("&lt;script&gt;alert"),
        "failures in the DOM"
    );

    // 2. The page's Content-Security-Policy stops even an inline script.
    let blocked = dir.0.join("blocked.html");
    fs::write(&blocked, page.replace("</body>", &format!("{PROBE}</body>"))).unwrap();
    let dom = run_chromium(chromium, &dir.0, "blocked", &blocked, &["--dump-dom".to_string()]);
    assert!(!dom.contains("<pre id=\"probe\">"), "the page's CSP let a script run");

    // 3. Laid out (a copy without the CSP, with the probe): every cell is visible, sized and
    //    painted in its status's colour.
    let csp_start = page.find("<meta http-equiv=\"Content-Security-Policy\"").expect("a CSP");
    let csp_end = csp_start + page[csp_start..].find("/>").unwrap() + 2;
    let probed =
        format!("{}{}", &page[..csp_start], &page[csp_end..]).replace("</body>", &format!("{PROBE}</body>"));
    let probed_path = dir.0.join("probed.html");
    fs::write(&probed_path, probed).unwrap();
    let dom = run_chromium(
        chromium,
        &dir.0,
        "probe",
        &probed_path,
        &["--dump-dom".to_string(), "--window-size=1280,2000".to_string()],
    );
    let start = dom.find("<pre id=\"probe\">").unwrap_or_else(|| panic!("the probe did not run:\n{dom}"));
    let probe = &dom[start + "<pre id=\"probe\">".len()..];
    let probe = &probe[..probe.find("</pre>").unwrap()];
    let (tables, lines): (Vec<&str>, Vec<&str>) = probe.lines().partition(|l| l.starts_with("TABLE\t"));
    let mut laid_out_tables = Vec::new();
    for t in &tables {
        let table: Vec<&str> = t.split('\t').collect();
        let (w, h): (u32, u32) = (table[2].parse().unwrap(), table[3].parse().unwrap());
        // Blackhole's matrix has 12 rows, Wormhole's 3: both laid out, neither collapsed.
        assert!(w >= 150 && h >= 60, "the {} matrix is {w}x{h} px", table[1]);
        laid_out_tables.push(table[1]);
    }
    assert_eq!(laid_out_tables, ["blackhole", "wormhole"]);
    let mut colours: BTreeMap<String, (String, String)> = BTreeMap::new();
    let mut laid_out = 0;
    let mut per_chip: BTreeMap<String, usize> = BTreeMap::new();
    for line in lines {
        let mut f: Vec<&str> = line.split('\t').collect();
        assert_eq!(f.len(), 11, "{line:?}");
        *per_chip.entry(f.remove(1).to_string()).or_default() += 1;
        let (width, height): (u32, u32) = (f[4].parse().unwrap(), f[5].parse().unwrap());
        assert!(width >= 16 && height >= 16, "cell {line:?} is too small to see");
        assert_eq!((f[6], f[7]), ("table-cell", "visible"), "{line:?}");
        let paint = (f[8].to_string(), f[9].to_string());
        let previous = colours.entry(f[0].to_string()).or_insert_with(|| paint.clone());
        assert_eq!(*previous, paint, "cells of status {} painted differently", f[0]);
        laid_out += 1;
    }
    assert_eq!(laid_out, all_cells);
    assert_eq!(per_chip["blackhole"], 12 * MODELS.len());
    assert_eq!(per_chip["wormhole"], 3 * MODELS.len());
    assert_eq!(colours.len(), 7, "{colours:?}");
    let (r_, g, b) = rgb(&colours["pass"].0);
    assert!(g > r_ + 40 && g > b + 40, "pass is not green: {colours:?}");
    let (r_, g, b) = rgb(&colours["partial"].0);
    assert!(g > r_ + 20 && g > b + 20 && r_ > 120, "partial is not a pale green: {colours:?}");
    assert_ne!(colours["partial"], colours["pass"]);
    let (r_, g, b) = rgb(&colours["fail"].0);
    assert!(r_ > g + 80 && r_ > b + 80, "fail is not red: {colours:?}");
    let (r_, g, b) = rgb(&colours["unsupported"].0);
    assert!(r_.abs_diff(g) < 24 && g.abs_diff(b) < 24 && r_ < 200, "unsupported is not grey: {colours:?}");
    let (r_, g, b) = rgb(&colours["undefined"].0);
    assert!(r_ > 180 && g > 100 && b < 80, "undefined is not amber: {colours:?}");
    let (r_, g, b) = rgb(&colours["untested"].0);
    assert!(r_ > 240 && g > 240 && b > 240 && colours["untested"].1 == "hatched", "untested: {colours:?}");
    let (r_, g, b) = rgb(&colours["not-applicable"].0);
    assert!(
        r_.abs_diff(g) < 24
            && g.abs_diff(b) < 24
            && r_ > 200
            && colours["not-applicable"] != colours["unsupported"],
        "not-applicable is not a light grey apart from unsupported: {colours:?}"
    );
    for s in ["pass", "partial", "fail", "unsupported", "undefined", "not-applicable"] {
        assert_eq!(colours[s].1, "plain", "{s}: {colours:?}");
    }

    // 4. A screenshot of the page as written.
    let png = dir.0.join("report.png");
    run_chromium(
        chromium,
        &dir.0,
        "screenshot",
        &path,
        &[format!("--screenshot={}", png.display()), "--window-size=1280,2000".to_string()],
    );
    let bytes = fs::read(&png).unwrap_or_else(|e| panic!("no screenshot {}: {e}", png.display()));
    assert!(bytes.len() > 20_000, "the screenshot is only {} bytes", bytes.len());
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n", "not a PNG");
    assert_eq!(&bytes[12..16], b"IHDR");
    let width = u32::from_be_bytes(bytes[16..20].try_into().unwrap());
    let height = u32::from_be_bytes(bytes[20..24].try_into().unwrap());
    assert_eq!((width, height), (1280, 2000));
    // To look at the renderings: SFPU_REPORT_KEEP=DIR keeps them (and the screenshot) in DIR.
    if let Some(keep) = std::env::var_os("SFPU_REPORT_KEEP") {
        let keep = PathBuf::from(keep);
        fs::create_dir_all(&keep).unwrap();
        fs::copy(&png, keep.join("report.png")).unwrap();
        fs::write(keep.join("report.html"), &page).unwrap();
        fs::write(keep.join("report.md"), markdown::render(&r)).unwrap();
        fs::write(keep.join("junit.xml"), junit::render(&r)).unwrap();
    }
}

/// Measures the kernel accuracy charts as laid out: one line per chart, then one per bar.
const CHART_PROBE: &str = r#"<script>
(function () {
  var lines = [];
  var charts = document.querySelectorAll('svg.accuracy-chart');
  for (var i = 0; i < charts.length; i++) {
    var c = charts[i], r = c.getBoundingClientRect(), s = getComputedStyle(c);
    lines.push(['CHART', c.dataset.chip, Math.round(r.width), Math.round(r.height), s.display,
      s.visibility].join('\t'));
    var bars = c.querySelectorAll('rect.acc-max');
    for (var j = 0; j < bars.length; j++) {
      var b = bars[j], br = b.getBoundingClientRect();
      lines.push(['BAR', c.dataset.chip, b.dataset.kernel, b.dataset.status, b.dataset.ulp,
        br.width.toFixed(2), br.height.toFixed(2), Math.round(br.left - r.left),
        getComputedStyle(b).fill].join('\t'));
    }
  }
  var pre = document.createElement('pre');
  pre.id = 'probe';
  pre.textContent = lines.join('\n');
  document.body.appendChild(pre);
})();
</script>
"#;

/// One bar of a kernel accuracy chart, as laid out.
#[derive(Debug)]
struct Bar {
    kernel: String,
    status: String,
    ulp: f64,
    width: f64,
    left: f64,
    fill: String,
}

/// The kernel accuracy chart renders. A chart per chip, laid out and visible; a bar per numerical
/// kernel in each, painted green within the kernel's bound and red beyond (only the planted `exp`
/// on Wormhole); bar lengths ordered as the errors are (a log scale: a larger error never draws a
/// shorter bar, an error past the scale's top runs the whole width).
fn chromium_draws_the_kernel_accuracy_chart(chromium: &Path) {
    let r = sample_with_kernel_accuracy();
    let kernels = KernelAccuracy::of(&r).unwrap().kernels.len();
    let page = html::render_with(&r, &harness_sfpu::sections::renderers());
    let dir = TempDir::new();
    let csp_start = page.find("<meta http-equiv=\"Content-Security-Policy\"").expect("a CSP");
    let csp_end = csp_start + page[csp_start..].find("/>").unwrap() + 2;
    let probed = format!("{}{}", &page[..csp_start], &page[csp_end..])
        .replace("</body>", &format!("{CHART_PROBE}</body>"));
    let probed_path = dir.0.join("chart.html");
    fs::write(&probed_path, probed).unwrap();
    let dom = run_chromium(
        chromium,
        &dir.0,
        "chart",
        &probed_path,
        &["--dump-dom".to_string(), "--window-size=1280,2000".to_string()],
    );
    let start = dom.find("<pre id=\"probe\">").unwrap_or_else(|| panic!("the probe did not run:\n{dom}"));
    let probe = &dom[start + "<pre id=\"probe\">".len()..];
    let probe = &probe[..probe.find("</pre>").unwrap()];
    let mut charts = Vec::new();
    let mut bars: BTreeMap<String, Vec<Bar>> = BTreeMap::new();
    for line in probe.lines() {
        let f: Vec<&str> = line.split('\t').collect();
        match f[0] {
            "CHART" => {
                let (w, h): (u32, u32) = (f[2].parse().unwrap(), f[3].parse().unwrap());
                assert!(w >= 600 && h as usize >= 18 * kernels, "chart {line:?} is too small");
                assert_eq!((f[4], f[5]), ("block", "visible"), "{line:?}");
                charts.push(f[1].to_string());
            }
            "BAR" => {
                let ulp: f64 = f[4].parse().unwrap_or_else(|_| panic!("data-ulp in {line:?}"));
                let (w, h): (f64, f64) = (f[5].parse().unwrap(), f[6].parse().unwrap());
                assert!(w >= 1.0 && h >= 10.0, "bar {line:?} is too small to see");
                bars.entry(f[1].to_string()).or_default().push(Bar {
                    kernel: f[2].to_string(),
                    status: f[3].to_string(),
                    ulp,
                    width: w,
                    left: f[7].parse().unwrap(),
                    fill: f[8].to_string(),
                });
            }
            other => panic!("probe line {other:?}"),
        }
    }
    assert_eq!(charts, ["blackhole", "wormhole"]);
    for (chip, bars) in &bars {
        assert_eq!(bars.len(), kernels, "{chip}");
        // Every bar starts at the same place.
        assert!(bars.iter().all(|b| b.left == bars[0].left), "{chip}: {bars:?}");
        for a in bars {
            for b in bars {
                if a.ulp < b.ulp {
                    assert!(
                        a.width <= b.width + 0.01,
                        "{chip}: {} ({} ULP) longer than {} ({} ULP)",
                        a.kernel,
                        a.ulp,
                        b.kernel,
                        b.ulp
                    );
                }
            }
            let (r_, g, b_) = rgb(&a.fill);
            if a.status == "beyond" {
                assert!(
                    r_ > g + 80 && r_ > b_ + 80,
                    "{chip} {}: beyond its bound but not red: {}",
                    a.kernel,
                    a.fill
                );
            } else {
                assert_eq!(a.status, "within");
                assert!(
                    g > r_ + 40 && g > b_ + 40,
                    "{chip} {}: within its bound but not green: {}",
                    a.kernel,
                    a.fill
                );
            }
        }
    }
    let beyond: Vec<(&String, &String)> = bars
        .iter()
        .flat_map(|(c, bs)| bs.iter().filter(|b| b.status == "beyond").map(move |b| (c, &b.kernel)))
        .collect();
    assert_eq!(beyond, [(&"wormhole".to_string(), &"exp".to_string())]);
    let widest = bars["wormhole"].iter().map(|b| b.width).fold(0.0, f64::max);
    let exp = bars["wormhole"].iter().find(|b| b.kernel == "exp").unwrap();
    assert_eq!(exp.width, widest, "9000 ULP is past the scale's top and runs the whole width");
    let abs = bars["blackhole"].iter().find(|b| b.kernel == "abs").unwrap();
    assert!(abs.ulp == 0.0 && abs.width < 2.0, "abs is exact: a sliver, not a bar: {abs:?}");
}

/// The environment variable that makes a missing `chromium` a failure instead of an ignored test.
const REQUIRE: &str = "SFPU_REQUIRE_CHROMIUM";

fn main() {
    let args = Arguments::from_args();
    let chromium = find_chromium();
    let required = std::env::var_os(REQUIRE).is_some_and(|v| v == "1");
    if chromium.is_none() && !required {
        eprintln!(
            "note: `chromium` is not on PATH, so the browser::* tests are IGNORED (not passed). \
             Install Debian's `chromium` package to run it; {REQUIRE}=1 makes its absence a failure."
        );
    }
    let ignored = chromium.is_none() && !required;
    let trial = |name: &'static str, test: fn(&Path)| {
        let chromium = chromium.clone();
        Trial::test(name, move || match &chromium {
            Some(path) => {
                test(path);
                Ok(())
            }
            None => Err(format!(
                "`chromium` is not on PATH and {REQUIRE}=1: this test renders report.html in headless Chromium; \
                 install Debian's `chromium` package (`apt-get install -y chromium`)"
            )
            .into()),
        })
        .with_ignored_flag(ignored)
    };
    let trials = vec![
        trial("browser::chromium_shows_the_matrix", chromium_shows_the_matrix),
        trial("browser::chromium_draws_the_kernel_accuracy_chart", chromium_draws_the_kernel_accuracy_chart),
    ];
    libtest_mimic::run(&args, trials).exit();
}
