//! `--format html`: the page of every fixture set is valid HTML (html5ever's parse errors,
//! and `tidy` when installed), self-contained, under 1 MB and the same bytes on every run;
//! in a real headless browser it loads, every chart has its elements (bars per partition,
//! heat-map cells per partition and window, the routing and cost segments), a screenshot is
//! written and it prints on A4.
//!
//! The browser is Chromium (`PKADVISOR_CHROMIUM`, else `chromium`, `chromium-browser` or
//! `google-chrome` on the path). Without it the browser checks say `SKIPPED` on stderr, or
//! fail when `CI` is set (`.ci/run` installs Debian's `chromium` and `tidy`).

use std::path::{Path, PathBuf};
use std::time::Duration;

use assert_cmd::Command;
use scraper::{Html, Selector};
use serde_json::Value;

use crate::util::{json, pkadvisor, scratch, skip_unless_ci};

/// Each fixture set: its name, and the flags of its run besides DOCS and its log.
const SETS: [(&str, &[&str]); 5] = [
    ("multitenant", &[]),
    ("iot", &["--time-path", "/ts"]),
    ("nutrition", &[]),
    ("profiles", &[]),
    (
        "layouts",
        &[
            "--layout",
            "spillover",
            "--layout",
            "hash:/customerId=8",
            "--target-storage",
            "60GB",
        ],
    ),
];

/// What a browser is given to finish a page.
const BROWSER_TIMEOUT: Duration = Duration::from_secs(180);
/// The screenshot's size.
const WINDOW: (u32, u32) = (1200, 2400);

/// `analyze` of a fixture set in `format`, with `extra` flags.
fn analyze_args(set: &str, flags: &[&str], format: &str) -> Vec<String> {
    let mut args: Vec<String> = ["analyze", "-q", "--format", format]
        .map(str::to_owned)
        .to_vec();
    args.push(format!("fixtures/{set}/docs.ndjson"));
    args.extend([
        "--queries".to_owned(),
        format!("fixtures/{set}/queries.ndjson"),
    ]);
    args.extend(flags.iter().map(|f| f.to_string()));
    args
}

/// Runs `cmd` (`what` in messages) and asserts it succeeds.
fn succeed(cmd: &mut Command, what: &str) -> std::process::Output {
    let out = cmd.output().expect("runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{what}: {stderr}");
    out
}

/// Runs `args` with `-o FILE` and returns the page written.
fn page(args: &[String], file: &Path) -> String {
    let out = succeed(pkadvisor().args(args).arg("-o").arg(file), &args.join(" "));
    assert!(out.stdout.is_empty(), "-o leaves standard output empty");
    std::fs::read_to_string(file).expect("the page")
}

/// The HTML parser's errors (the WHATWG parsing algorithm's, as html5ever reports them).
fn parse_errors(html: &str) -> Vec<String> {
    let doc = Html::parse_document(html);
    let mut errors: Vec<String> = doc.errors.iter().map(|e| e.to_string()).collect();
    // Without `<!DOCTYPE html>` a browser renders in quirks mode.
    let mode = format!("{:?}", doc.quirks_mode);
    if mode != "NoQuirks" {
        errors.push(format!("quirks mode {mode}"));
    }
    errors
}

/// Runs `tidy` on `file` when installed: its warnings and errors (none is clean).
fn tidy(file: &Path) -> Option<String> {
    let run = std::process::Command::new("tidy")
        .args(["-q", "-e", "--show-warnings", "yes"])
        .arg(file)
        .output();
    match run {
        Ok(out) => Some(String::from_utf8_lossy(&out.stderr).into_owned()),
        Err(_) => {
            use std::io::Write as _;
            let _ = writeln!(
                std::io::stderr(),
                "SKIPPED: tidy is not installed; html5ever alone checks {}",
                file.display()
            );
            None
        }
    }
}

#[test]
fn the_parsers_catch_a_broken_page() {
    assert!(!parse_errors("<!DOCTYPE html><html><body><p></div></body></html>").is_empty());
    assert!(
        !parse_errors("<html><body></body></html>").is_empty(),
        "no doctype"
    );
    let dir = scratch("html_broken");
    let file = dir.join("broken.html");
    std::fs::write(&file, "<!DOCTYPE html><title>x</title><p><blink>").expect("written");
    if let Some(report) = tidy(&file) {
        assert!(!report.trim().is_empty(), "tidy says nothing of <blink>");
    }
}

/// A fixture set's page: valid, self-contained, under 1 MB (the multitenant set's also the
/// same bytes on a second run); then in the browser, with a screenshot and a print for
/// the multitenant set.
fn fixture_page(set: &str) {
    let flags = SETS.iter().find(|s| s.0 == set).expect("a set").1;
    let dir = scratch(&format!("html_{set}"));
    let browser = chromium();
    let args = analyze_args(set, flags, "html");
    let file = dir.join(format!("{set}.html"));
    let html = page(&args, &file);
    let pictures = set == "multitenant";
    if pictures {
        assert_eq!(
            html,
            page(&args, &dir.join("again.html")),
            "{set}: two runs"
        );
    }
    assert_eq!(parse_errors(&html), Vec::<String>::new(), "{set}");
    if let Some(report) = tidy(&file) {
        assert_eq!(report.trim(), "", "{set}: tidy");
    }
    assert!(html.len() < 1_000_000, "{set}: {} bytes", html.len());
    for outside in ["<script", "src=", "href=\"http", "url(", "@import"] {
        assert!(
            !html.contains(outside),
            "{set}: {outside} fetches or runs something"
        );
    }
    let json_args = analyze_args(set, flags, "json");
    let report = json(&json_args.iter().map(String::as_str).collect::<Vec<_>>());
    charts_match_the_report(&Html::parse_document(&html), &report, set);
    decision_matches_the_report(&Html::parse_document(&html), &report, set);
    if let Some(b) = &browser {
        let dom = in_browser(b, &file, &dir, pictures);
        charts_match_the_report(&Html::parse_document(&dom), &report, set);
    }
}

#[test]
fn multitenant_page() {
    fixture_page("multitenant");
}

#[test]
fn iot_page() {
    fixture_page("iot");
}

#[test]
fn nutrition_page() {
    fixture_page("nutrition");
}

#[test]
fn profiles_page() {
    fixture_page("profiles");
}

#[test]
fn layouts_page() {
    fixture_page("layouts");
}

/// Every candidate of `report` has its section and each chart its elements: a bar per
/// physical partition (bytes and RU), a heat-map cell per partition and window, three
/// routing segments and the cost's (four with the bill, three in RU alone).
fn charts_match_the_report(doc: &Html, report: &Value, set: &str) {
    let candidates = report["candidates"].as_array().expect("candidates");
    assert!(!candidates.is_empty());
    let one = |css: &str| Selector::parse(css).expect("selector");
    assert_eq!(
        doc.select(&one("section.candidate")).count(),
        candidates.len(),
        "{set}"
    );
    let ranking_rows = (doc.select(&one("table.ranking tbody tr:not(.divider)"))).count();
    assert_eq!(ranking_rows, candidates.len(), "{set}");
    for c in candidates {
        let rank = c["rank"].as_u64().expect("rank");
        let spec = c["key"]["spec"].as_str().expect("spec");
        let at = |chart: &str| one(&format!("section#c{rank} svg.chart.{chart}"));
        let count = |css: &str| doc.select(&one(&format!("section#c{rank} {css}"))).count();
        let heading = doc.select(&one(&format!("section#c{rank} h2 code"))).next();
        assert_eq!(
            heading.map(|h| h.text().collect::<String>()),
            Some(spec.to_owned())
        );
        let parts = c["storage"]["physical_partitions"]
            .as_u64()
            .expect("partitions") as usize;
        // One partition count a page, or each labelled with what it counts.
        let header = report["target"]["physical_partitions"]
            .as_u64()
            .expect("count");
        let figures = (doc.select(&one(&format!("section#c{rank} > p"))).next())
            .map(|p| p.text().collect::<String>())
            .unwrap_or_default();
        let labelled = figures.contains(&format!("the {header} above are for data spread evenly"));
        assert_eq!(labelled, parts as u64 != header, "{set} {spec}: {figures}");
        let bars = parts.div_ceil(parts.div_ceil(64));
        assert_eq!(count("svg.bytes rect"), bars, "{set} {spec}: bytes bars");
        // The 20 GB limit is one value's: drawn on the logical gauge, never across the
        // physical partitions' bars, which split at 50 GB.
        assert_eq!(
            count("svg.logical line.lim2"),
            1,
            "{set} {spec}: logical limit"
        );
        assert_eq!(
            count("svg.bytes line.lim2"),
            0,
            "{set} {spec}: 20 GB on the bars"
        );
        assert_eq!(count("svg.ru rect"), bars, "{set} {spec}: RU bars");
        let windows = c["throughput"]["busiest_share_by_window"]
            .as_array()
            .expect("windows")
            .len();
        let cells: usize = (doc.select(&at("heat")))
            .flat_map(|svg| svg.select(&one("path")).collect::<Vec<_>>())
            .map(|p| p.value().attr("d").unwrap_or("").matches('M').count())
            .sum();
        // A heat map only when the log gives rates: without them a cell would be against
        // the busiest cell and read as a hot partition.
        let rates = c["cost"]["required_ru"].is_number();
        let expected = if rates { bars * windows } else { 0 };
        assert_eq!(cells, expected, "{set} {spec}: heat-map cells");
        let said = (doc.select(&one(&format!("section#c{rank} figcaption"))))
            .any(|f| f.text().collect::<String>().starts_with("No heat map"));
        assert_eq!(said, !rates, "{set} {spec}: says why there is no heat map");
        let reads = c["queries"]["reads"].as_u64().expect("reads");
        assert_eq!(
            count("svg.routing rect"),
            if reads > 0 { 3 } else { 0 },
            "{set} {spec}"
        );
        let billed = c["cost"]["monthly"]["throughput"].is_number();
        assert_eq!(
            count("svg.cost rect"),
            if billed { 4 } else { 3 },
            "{set} {spec}"
        );
        // Each bar's tooltip gives a partition and its figure.
        let first = doc
            .select(&one(&format!("section#c{rank} svg.bytes rect title")))
            .next();
        let tip = first
            .map(|t| t.text().collect::<String>())
            .unwrap_or_default();
        assert!(tip.starts_with("pkrange"), "{set} {spec}: {tip}");
    }
}

/// The browser to run, or `None` (after saying `SKIPPED`) when there is none; under `CI`
/// that is a failure instead.
fn chromium() -> Option<PathBuf> {
    let named = std::env::var_os("PKADVISOR_CHROMIUM").map(PathBuf::from);
    let found = named.into_iter().chain(
        ["chromium", "chromium-browser", "google-chrome"]
            .into_iter()
            .filter_map(|name| {
                let path = std::env::var_os("PATH")?;
                std::env::split_paths(&path)
                    .map(|d| d.join(name))
                    .find(|p| p.is_file())
            }),
    );
    if let Some(b) = found.into_iter().next() {
        return Some(b);
    }
    let reason = "no Chromium (set PKADVISOR_CHROMIUM, or install Debian's chromium)";
    skip_unless_ci("html browser test", reason, ".ci/run installs it");
    None
}

/// Headless Chromium on `page`: a profile of its own in `dir`, nothing fetched.
fn headless(browser: &Path, dir: &Path, name: &str) -> Command {
    let mut cmd = Command::new(browser);
    cmd.args([
        "--headless",
        "--disable-gpu",
        "--no-sandbox",
        "--no-first-run",
        "--disable-dev-shm-usage",
        "--disable-background-networking",
        "--hide-scrollbars",
    ])
    .arg(format!(
        "--user-data-dir={}",
        dir.join(format!("profile-{name}")).display()
    ))
    .timeout(BROWSER_TIMEOUT);
    cmd
}

/// Loads `file` in the browser: returns the DOM it built; with `pictures`, also checks a
/// screenshot (`<name>.png`, the window's size, not blank) and a print to PDF (A4 pages).
fn in_browser(browser: &Path, file: &Path, dir: &Path, pictures: bool) -> String {
    let url = format!("file://{}", file.canonicalize().expect("page").display());
    let name = file
        .file_stem()
        .expect("name")
        .to_string_lossy()
        .into_owned();
    let out = succeed(
        headless(browser, dir, &name).args(["--dump-dom", &url]),
        &name,
    );
    let dom = String::from_utf8(out.stdout).expect("UTF-8 DOM");
    // The whole page was read: its last paragraph is there.
    assert!(
        dom.contains("Written by pkadvisor"),
        "{name}: the DOM stops short"
    );
    if pictures {
        screenshot(browser, dir, &name, &url);
        prints_on_a4(browser, dir, &name, &url);
    }
    dom
}

fn screenshot(browser: &Path, dir: &Path, name: &str, url: &str) {
    let png = dir.join(format!("{name}.png"));
    succeed(
        headless(browser, dir, name)
            .arg(format!("--screenshot={}", png.display()))
            .arg(format!("--window-size={},{}", WINDOW.0, WINDOW.1))
            .arg(url),
        "the screenshot",
    );
    let bytes = std::fs::read(&png).expect("a screenshot");
    // PNG: the signature, then IHDR's width and height (big-endian).
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    let be = |at: usize| u32::from_be_bytes(bytes[at..at + 4].try_into().expect("4 bytes"));
    assert_eq!((be(16), be(20)), WINDOW);
    // A blank page of this size compresses to a few kB; charts and text do not.
    assert!(
        bytes.len() > 60_000,
        "{name}: a {}-byte screenshot",
        bytes.len()
    );
    eprintln!("screenshot: {}", png.display());
}

fn prints_on_a4(browser: &Path, dir: &Path, name: &str, url: &str) {
    let pdf = dir.join(format!("{name}.pdf"));
    succeed(
        headless(browser, dir, name)
            .arg("--no-pdf-header-footer")
            .arg(format!("--print-to-pdf={}", pdf.display()))
            .arg(url),
        "the print",
    );
    let text = String::from_utf8_lossy(&std::fs::read(&pdf).expect("a PDF")).into_owned();
    let boxes: Vec<&str> = text
        .match_indices("/MediaBox [")
        .map(|(i, _)| &text[i..])
        .collect();
    assert!(boxes.len() > 1, "{name}: {} pages", boxes.len());
    for b in boxes {
        let figures: Vec<f64> = b["/MediaBox [".len()..b.find(']').expect("a box")]
            .split_whitespace()
            .map(|x| x.parse().expect("a number"))
            .collect();
        // A4 in points: 210 × 297 mm.
        assert!(
            (figures[2] - 595.3).abs() < 1.0 && (figures[3] - 841.9).abs() < 1.0,
            "{figures:?}"
        );
    }
}

/// `check --format html` and `--explain --format html` are pages too; `--redact` leaves no
/// key value in the page.
#[test]
fn verdict_map_and_redacted_pages() {
    let dir = scratch("html_pages");
    let tenant = ["--key", "/tenantId"];
    let mut check = analyze_args("multitenant", &tenant, "html");
    check[0] = "check".to_owned();
    let verdict = pkadvisor().args(&check).output().expect("runs");
    assert_eq!(verdict.status.code(), Some(1), "/tenantId fails its gate");
    let html = String::from_utf8(verdict.stdout).expect("UTF-8");
    assert_eq!(parse_errors(&html), Vec::<String>::new());
    assert!(html.contains("<title>pkadvisor check: FAIL</title>"));
    assert!(html.contains("LOGICAL_PARTITION_LIMIT"));
    // The key check gates is compared wherever it ranks.
    let doc = Html::parse_document(&html);
    let compared: Vec<String> = (doc
        .select(&Selector::parse("table.compare td code").expect("selector")))
    .map(|c| c.text().collect())
    .collect();
    assert!(compared.iter().any(|k| k == "/tenantId"), "{compared:?}");
    let explain = analyze_args("multitenant", &["--explain", "/tenantId,/userId"], "html");
    let map = page(&explain, &dir.join("map.html"));
    assert_eq!(parse_errors(&map), Vec::<String>::new());
    let doc = Html::parse_document(&map);
    let count = |css: &str| doc.select(&Selector::parse(css).expect("selector")).count();
    let (rows, bars) = (count("table tbody tr"), count("svg.bytes rect"));
    assert!(rows > 1 && rows == bars, "{rows} partitions, {bars} bars");
    // The values the plain report shows, gone from the redacted page.
    let plain = analyze_args("multitenant", &tenant, "json");
    let plain = json(&plain.iter().map(String::as_str).collect::<Vec<_>>());
    let values: Vec<String> = (plain["candidates"][0]["largest_values"].as_array())
        .expect("values")
        .iter()
        .map(|v| {
            v["value"]
                .as_str()
                .expect("value")
                .trim_matches('"')
                .to_owned()
        })
        .collect();
    assert_eq!(values.len(), 3);
    let args = analyze_args("multitenant", &tenant, "html");
    let text = |out: std::process::Output| String::from_utf8(out.stdout).expect("UTF-8");
    let shown = text(succeed(pkadvisor().args(&args), "plain"));
    let hidden = text(succeed(pkadvisor().args(&args).arg("--redact"), "redacted"));
    for v in &values {
        assert!(shown.contains(v.as_str()), "{v} shown without --redact");
        assert!(
            !hidden.contains(v.as_str()),
            "{v} left in the redacted page"
        );
    }
}

#[test]
fn a_log_without_writes_says_whose_writes_the_bill_shows() {
    let dir = scratch("html_reads_only");
    let docs = dir.join("docs.ndjson");
    let log = dir.join("log.ndjson");
    std::fs::write(
        &docs,
        "{\"id\":\"a\",\"t\":\"x\"}\n{\"id\":\"b\",\"t\":\"y\"}\n",
    )
    .unwrap();
    std::fs::write(
        &log,
        "{\"op\":\"read\",\"id\":\"a\",\"known\":{\"/t\":\"x\"},\"ts\":1794700800}\n{\"op\":\"read\",\"id\":\"b\",\"known\":{\"/t\":\"y\"},\"ts\":1794700860}\n",
    )
    .unwrap();
    let args: Vec<String> = [
        "analyze",
        docs.to_str().unwrap(),
        "--queries",
        log.to_str().unwrap(),
    ]
    .iter()
    .map(|s| (*s).to_owned())
    .chain(["--key", "/t", "--format", "html", "-q"].map(String::from))
    .collect();
    let html = page(&args, &dir.join("page.html"));
    // Two reads and no writes: the writes in the cost chart are the sample's documents.
    assert!(
        html.contains("writes (the sample&#39;s documents as creates)"),
        "{html}"
    );
    let bare = html.matches(">writes ").count();
    let named = html.matches(">writes (the sample").count();
    assert!(named > 0 && bare == named, "a bare 'writes' share");
}

/// The decision block: a row per candidate shown, the best without a violation first (at
/// most five), then under a divider at most three with one; each bar carries its
/// candidate's figure from the JSON report.
fn decision_matches_the_report(doc: &Html, report: &Value, set: &str) {
    let one = |css: &str| Selector::parse(css).expect("selector");
    let candidates = report["candidates"].as_array().expect("candidates");
    let violates = |c: &Value| {
        (c["findings"].as_array().expect("findings"))
            .iter()
            .any(|f| f["severity"] == "violation")
    };
    let clean: Vec<&Value> = candidates.iter().filter(|c| !violates(c)).take(5).collect();
    let bad: Vec<&Value> = candidates.iter().filter(|c| violates(c)).take(3).collect();
    let rows: Vec<_> = doc
        .select(&one(
            "section.decision table.compare tbody tr:not(.divider):not(.more)",
        ))
        .collect();
    let expected: Vec<String> = (clean.iter().chain(&bad))
        .map(|c| format!("d{}", c["rank"]))
        .collect();
    let ids: Vec<String> = (rows.iter())
        .map(|r| r.value().attr("id").unwrap_or("").to_owned())
        .collect();
    assert_eq!(ids, expected, "{set}: the compared rows");
    let dividers = doc.select(&one("section.decision tr.divider")).count();
    assert_eq!(dividers, usize::from(!bad.is_empty()), "{set}: the divider");
    let rates = candidates[0]["cost"]["required_ru"].is_number();
    for (row, c) in rows.iter().zip(clean.iter().chain(&bad)) {
        let shown: Vec<f64> = (row.select(&one(".bar")))
            .map(|b| {
                b.value()
                    .attr("data-value")
                    .expect("a value")
                    .parse()
                    .expect("a number")
            })
            .collect();
        let figures: Vec<f64> = match rates {
            true => [&c["cost"]["required_ru"], &c["cost"]["monthly"]["total"]]
                .into_iter()
                .chain(
                    (c["cost"]["provisioned"].is_object())
                        .then_some(&c["cost"]["provisioned"]["monthly"]["total"]),
                )
                .map(|v| v.as_f64().expect("a figure"))
                .collect(),
            false => {
                let best = candidates[0]["cost"]["efficiency"]
                    .as_f64()
                    .expect("efficiency");
                let mine = c["cost"]["efficiency"].as_f64().expect("efficiency");
                vec![
                    best / mine,
                    c["cost"]["ru_per_operation"].as_f64().expect("RU"),
                ]
            }
        };
        assert_eq!(shown.len(), figures.len(), "{set} {}", c["key"]["spec"]);
        for (s, f) in shown.iter().zip(&figures) {
            assert!(
                (s - f).abs() <= 1e-9 * f.abs().max(1.0),
                "{set}: {s} against {f}"
            );
        }
        let marks = row.select(&one("span.mk")).count();
        let mut codes: Vec<&str> = (c["findings"].as_array().expect("findings"))
            .iter()
            .map(|f| f["code"].as_str().expect("code"))
            .collect();
        codes.dedup();
        codes.sort_unstable();
        codes.dedup();
        assert_eq!(marks, codes.len(), "{set}: a mark per finding");
    }
}

/// Measures the page in the browser at `width` pixels (a copy with a script that writes
/// what it finds into the DOM): how far it, or a table in it, scrolls sideways, every text of a chart that
/// overlaps one of its bars or another of its texts, and the comparison's bars (column, figure, width).
fn layout(browser: &Path, file: &Path, dir: &Path, width: u32) -> Value {
    const MEASURE: &str = r#"<script>
(function () {
  const wide = [...document.querySelectorAll('.wide')].map(w => w.scrollWidth - w.clientWidth);
  const out = {sideways: Math.max(document.documentElement.scrollWidth - window.innerWidth, ...wide), overlaps: [], bars: []};
  const hit = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
  document.querySelectorAll('svg.chart').forEach(svg => {
    const bars = [...svg.querySelectorAll('rect')].map(r => r.getBoundingClientRect()).filter(r => r.width > 0 && r.height > 0);
    const texts = [...svg.querySelectorAll('text')].map(t => [t.textContent, t.getBoundingClientRect()]);
    texts.forEach(([words, box], i) => {
      if (bars.some(r => hit(box, r))) out.overlaps.push(svg.getAttribute('class') + ': ' + words);
      texts.slice(i + 1).forEach(([other, b]) => {
        if (hit(box, b)) out.overlaps.push(svg.getAttribute('class') + ': ' + words + ' on ' + other);
      });
    });
  });
  document.querySelectorAll('table.compare tr').forEach(tr => {
    [...tr.children].forEach((td, col) => {
      const bv = td.querySelector('.bv');
      if (!bv) return;
      const bar = bv.querySelector('.bar').getBoundingClientRect(), v = bv.querySelector('.v').getBoundingClientRect();
      if (hit(bar, v) || v.right > td.getBoundingClientRect().right + 0.5) out.overlaps.push('compare: ' + v.textContent);
      out.bars.push([col, +bv.querySelector('.bar').dataset.value, bar.width]);
    });
  });
  document.body.setAttribute('data-layout', JSON.stringify(out));
})();
</script>"#;
    let page = std::fs::read_to_string(file).expect("the page");
    let name = format!("measured-{width}");
    let copy = dir.join(format!("{name}.html"));
    std::fs::write(
        &copy,
        page.replace("</body>", &format!("{MEASURE}\n</body>")),
    )
    .expect("a copy");
    let url = format!("file://{}", copy.canonicalize().expect("page").display());
    let out = succeed(
        headless(browser, dir, &name)
            .arg(format!("--window-size={width},1600"))
            .args(["--dump-dom", &url]),
        &name,
    );
    let dom = Html::parse_document(&String::from_utf8(out.stdout).expect("UTF-8"));
    let body = dom
        .select(&Selector::parse("body").expect("selector"))
        .next()
        .expect("a body");
    let found = body.value().attr("data-layout").expect("the script ran");
    serde_json::from_str(found).expect("JSON")
}

/// Checks `page` at 1400 and 800 pixels: no sideways scroll, no chart text over a bar, the
/// comparison's bars in proportion to their figures; with `PKADVISOR_SCREENSHOTS=DIR`,
/// screenshots `NAME-1400.png` and `NAME-800.png` go there (the README's pictures).
fn reads_at_both_widths(browser: &Path, file: &Path, dir: &Path, name: &str, pictures: bool) {
    for width in [1400, 800] {
        let found = layout(browser, file, dir, width);
        let sideways = found["sideways"].as_f64().expect("a width");
        assert!(
            sideways <= 0.0,
            "{name} at {width} px scrolls {sideways} px sideways"
        );
        let overlaps = found["overlaps"].as_array().expect("a list");
        assert!(overlaps.is_empty(), "{name} at {width} px: {overlaps:?}");
        let bars = found["bars"].as_array().expect("bars");
        assert!(!bars.is_empty(), "{name}: no comparison");
        for col in 1..=3 {
            let of: Vec<(f64, f64)> = (bars.iter())
                .filter(|b| b[0] == col)
                .map(|b| {
                    (
                        b[1].as_f64().expect("figure"),
                        b[2].as_f64().expect("width"),
                    )
                })
                .collect();
            let Some(&(top, widest)) = of.iter().max_by(|a, b| a.0.total_cmp(&b.0)) else {
                continue;
            };
            for (v, w) in &of {
                let expected = widest * v / top;
                assert!(
                    (w - expected).abs() <= 1.0,
                    "{name} at {width} px: {v} drawn {w} px, {expected:.1} expected"
                );
            }
        }
        if let Some(to) = std::env::var_os("PKADVISOR_SCREENSHOTS").filter(|_| pictures) {
            let url = format!("file://{}", file.canonicalize().expect("page").display());
            let png = Path::new(&to).join(format!("{name}-{width}.png"));
            succeed(
                headless(browser, dir, name)
                    .arg(format!("--screenshot={}", png.display()))
                    .arg(format!("--window-size={width},1800"))
                    .arg(&url),
                "a screenshot",
            );
        }
    }
}

/// Three pages in the browser at 1400 and 800 pixels: a fixture with rates, a public data
/// set (CosmicWorks products and their queries) and a log without rates.
#[test]
fn pages_read_at_1400_and_800_pixels() {
    let Some(browser) = chromium() else { return };
    let dir = scratch("html_widths");
    let mut pages: Vec<(String, Vec<String>)> = vec![
        (
            "multitenant".to_owned(),
            analyze_args("multitenant", &[], "html"),
        ),
        (
            "nutrition".to_owned(),
            analyze_args("nutrition", &[], "html"),
        ),
    ];
    let real = Path::new("../shared/real");
    let docs = real.join("docs/cosmicworks-v4-product.json");
    let queries = real.join("queries/cosmicworks-product-queries.ndjson");
    if docs.exists() && queries.exists() {
        let args = ["analyze", "-q", "--format", "html"]
            .map(str::to_owned)
            .into_iter()
            .chain([
                docs.display().to_string(),
                "--queries".to_owned(),
                queries.display().to_string(),
            ])
            .collect();
        pages.push(("cosmicworks".to_owned(), args));
    } else {
        skip_unless_ci(
            "the CosmicWorks page",
            "../shared/real is absent",
            "it is part of the run",
        );
    }
    // Throughput given: a third bar column, the bill as provisioned.
    let given = analyze_args("multitenant", &["--throughput", "100000"], "html");
    pages.push(("provisioned".to_owned(), given));
    for (name, args) in &pages {
        let file = dir.join(format!("{name}.html"));
        let html = page(args, &file);
        let json_args: Vec<String> = (args.iter())
            .map(|a| {
                if a == "html" {
                    "json".to_owned()
                } else {
                    a.clone()
                }
            })
            .collect();
        let report = json(&json_args.iter().map(String::as_str).collect::<Vec<_>>());
        decision_matches_the_report(&Html::parse_document(&html), &report, name);
        reads_at_both_widths(&browser, &file, &dir, name, name != "provisioned");
    }
}

/// Every candidate with a violation: the decision says the first is the least bad (the
/// reason's own first sentence kept), and no table has an empty body.
#[test]
fn a_page_where_every_candidate_violates_says_the_first_is_the_least_bad() {
    let dir = scratch("html_all_violate");
    let args = analyze_args(
        "multitenant",
        &["--key", "/tenantId", "--key", "/type"],
        "html",
    );
    let file = dir.join("page.html");
    let html = page(&args, &file);
    assert_eq!(parse_errors(&html), Vec::<String>::new());
    if let Some(report) = tidy(&file) {
        assert_eq!(report.trim(), "", "tidy");
    }
    let doc = Html::parse_document(&html);
    let text = |css: &str| -> String {
        (doc.select(&Selector::parse(css).expect("selector")))
            .map(|e| e.text().collect::<String>())
            .collect::<Vec<_>>()
            .join("|")
    };
    assert!(
        text("p.why").contains("No candidate is free of violations"),
        "{}",
        text("p.why")
    );
    assert!(
        text("table.compare tr.divider").starts_with("Every candidate has a violation"),
        "{}",
        text("table.compare tr.divider")
    );
    assert!(!html.contains("<tbody>\n</tbody>"), "an empty body");
}
