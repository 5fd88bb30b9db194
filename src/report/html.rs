//! The HTML renderer, for a design review: one self-contained page (inline CSS and SVG, no
//! script, nothing fetched) that prints on A4.
//!
//! The ranking: the decision (its reason in one line, the best candidates side by side:
//! [`super::decision`]), the target, the recommendation (with its secondary-index
//! proposal), the candidates' table, then per candidate its charts, drawn by hand as SVG (a charting crate
//! would add fonts and weight, not clarity): bars of bytes per physical partition with the
//! 50 GB split, the 20 GB logical-partition limit and the largest logical partition
//! projected; bars of RU/s per partition with the RU/s each gets; a heat map of partitions ×
//! replay windows in normalised RU (0–100%, as the Azure portal shows it); the routing of
//! reads and the monthly bill split into reads, writes, fan-out overhead and storage; its
//! largest values with their share and its findings. `--explain`'s map and check's verdict
//! are pages of their own. Every label comes from the report model, which `--redact` has
//! already hashed.
//!
//! Colours are the Okabe–Ito palette (series) and viridis (the heat map), both readable with
//! colour-blind vision; more than [`MAX_BARS`] partitions are drawn in groups of adjacent
//! ones, each showing its largest. Output is deterministic: the same report gives the same
//! bytes.

use std::io::{self, Write};

use super::View;
use super::columns::COLUMNS;
use super::model::{
    CandidateReport, CheckResult, ExplainReport, Finding, PartitionLoad, Report, SecondaryIndex,
    Severity,
};
use super::text::{
    MAP_RANGES, best_alternative, cost_line, cost_summary, landing_line, largest_values,
    map_header, map_legend, observed_line, partition_name, prices_note, round_up,
    secondary_index_line, small_sample_line, target_line, thousands,
};
use crate::units::human_bytes;

/// Bars (and heat-map rows) drawn at most; past it adjacent partitions share one.
pub const MAX_BARS: usize = 64;

/// The heat map's colours, 0–10% to 90–100% normalised RU: viridis, light for idle.
pub const HEAT: [&str; 10] = [
    "#fde725", "#b5de2b", "#6ece58", "#35b779", "#1f9e89", "#26828e", "#31688e", "#3e4989",
    "#482878", "#440154",
];

const STYLE: &str = "\
:root{color-scheme:light}
body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;color:#1a1a1a;background:#fff;margin:0}
main{max-width:1080px;margin:0 auto;padding:20px 24px}
h1{font-size:22px;margin:0 0 6px}
h2{font-size:18px;margin:28px 0 8px;padding-bottom:2px;border-bottom:1px solid #bbb}
h3{font-size:15px;margin:14px 0 4px}
p{margin:6px 0}
code{font:12.5px ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;overflow-wrap:anywhere}
code.key{white-space:nowrap;overflow-wrap:normal}
table.ranking{font-size:12px}
table.ranking th,table.ranking td{padding:3px 5px}
table.ranking td span{font-size:10.5px}
.wide{overflow-x:auto}
table{border-collapse:collapse;font-size:13px;margin:6px 0}
th,td{padding:3px 8px;border-bottom:1px solid #ddd;text-align:left;vertical-align:top}
th{background:#f2f2f2}
.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
.pass{color:#007a4d}.fail,.violation{color:#b00020}.warning{color:#8a5a00}.info{color:#555}
.charts{display:grid;grid-template-columns:repeat(auto-fit,minmax(420px,1fr));gap:10px 28px}
figure{margin:4px 0;break-inside:avoid}
figcaption{font-size:12px;color:#444}
svg.chart{width:100%;max-width:620px;height:auto;display:block}
svg text{font:11px system-ui,sans-serif;fill:#333}
svg text.l{paint-order:stroke;stroke:#fff;stroke-width:3px;stroke-linejoin:round}
svg text.gut{font-size:10px}
svg text.row{font-size:9px}
span.key{white-space:nowrap}
svg.sw{width:10px;height:10px;display:inline-block;vertical-align:-1px;margin:0 3px 0 8px}
.ax{stroke:#777;stroke-width:1}
.grid{stroke:#e3e3e3;stroke-width:1}
.lim{stroke:#000;stroke-width:1.2;stroke-dasharray:5 3}
.lim2{stroke:#d55e00;stroke-width:1.4;stroke-dasharray:7 3}
.mark{stroke:#0072b2;stroke-width:1.2;stroke-dasharray:2 2}
.by{fill:#56b4e9}.ru{fill:#e69f00}
.rs{fill:#009e73}.rt{fill:#56b4e9}.rf{fill:#d55e00}
.cr{fill:#0072b2}.cw{fill:#009e73}.cf{fill:#d55e00}.cs{fill:#cc79a7}
section.candidate{border-top:2px solid #333;margin-top:26px}
section.decision{margin:10px 0 4px}
p.why{font-size:15px}
table.compare{width:100%;table-layout:fixed}
table.compare td:first-child,table.compare th:first-child{width:32%}
table.compare th:last-child{width:24%}
.bv{position:relative;height:18px;margin-right:4.2em}
.bv .bar{position:absolute;top:3px;height:12px;background:#e69f00}
.bv .v{position:absolute;top:0;margin-left:5px;line-height:18px;font-variant-numeric:tabular-nums;white-space:nowrap}
tr.more td{color:#555;font-size:12px}
tr.divider th{background:#fff;color:#b00020;border-bottom:1px solid #b00020;padding-top:10px;font-weight:600}
.mk{display:inline-block;font-size:10px;line-height:1.2;padding:0 3px;margin:1px 0;border:1px solid currentColor;border-radius:3px;overflow-wrap:anywhere}
@media screen and (max-width:900px){
main{padding:12px}
table.compare td:first-child,table.compare th:first-child{width:26%}
table.compare th:last-child{width:19%}
.lo{display:none}
.charts{grid-template-columns:1fr}
}
@media print{
@page{size:A4;margin:12mm}
*{-webkit-print-color-adjust:exact;print-color-adjust:exact}
body{font-size:9.5pt}
main{max-width:none;padding:0}
section.candidate{break-before:page;border-top:none;margin-top:0}
.charts{grid-template-columns:1fr 1fr}
table{font-size:8pt}
table.ranking{font-size:7pt}
table.ranking td span{font-size:6.5pt}
.wide{overflow:visible}
}
";

/// Writes `view` as one HTML page.
pub fn render(view: View, out: &mut dyn Write) -> io::Result<()> {
    let (title, body) = match view {
        View::Ranking(r) => ("pkadvisor: partition-key analysis".to_owned(), ranking(r)),
        View::Map(m) => (
            format!("pkadvisor: partition map of {}", m.key.spec),
            partition_map(m),
        ),
        View::Verdict(r) => {
            let v = r.check.as_ref().expect("check verdict");
            let status = if v.passed { "PASS" } else { "FAIL" };
            (format!("pkadvisor check: {status}"), verdict(r, v))
        }
        View::Migration(p) => {
            let mut text = Vec::new();
            super::plan::terminal(p, None, &mut text)?;
            let title = super::plan::heading(p);
            let text = String::from_utf8_lossy(&text).into_owned();
            (title, format!("<pre>{}</pre>\n", esc(&text)))
        }
    };
    let page = format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{}</title>\n<style>\n{STYLE}{}</style>\n</head>\n<body>\n<main>\n{body}</main>\n</body>\n</html>\n",
        esc(&title),
        heat_style()
    );
    out.write_all(page.as_bytes())
}

/// The heat map's classes, `.h0` to `.h9`.
fn heat_style() -> String {
    (HEAT.iter().enumerate())
        .map(|(i, c)| format!(".h{i}{{fill:{c}}}"))
        .collect::<String>()
        + "\n"
}

/// Escapes text for HTML content and attribute values.
pub fn esc(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(ch),
        }
    }
    out
}

/// A coordinate: one decimal, without a trailing `.0`.
fn n(x: f64) -> String {
    let s = format!("{:.1}", if x.abs() < 0.05 { 0.0 } else { x });
    s.strip_suffix(".0").map_or(s.clone(), str::to_owned)
}

/// Dollars: cents below 10, whole dollars with separators above.
fn money(x: f64) -> String {
    match x < 10.0 {
        true => format!("{x:.2}"),
        false => thousands(x),
    }
}

/// A share as a whole percentage.
fn pct(x: f64) -> String {
    format!("{:.0}%", x * 100.0)
}

/// The ranking page: the decision, what was read, the recommendation, the table, then
/// each candidate.
fn ranking(report: &Report) -> String {
    let mut s = String::from("<h1>Partition-key analysis</h1>\n");
    s += &super::decision::block(report);
    s += &format!("<p>{}</p>\n", esc(&target_line(report)));
    if let Some(line) = small_sample_line(report) {
        s += &format!("<p class=\"note\">{}</p>\n", esc(&line));
    }
    s += &recommendation(report);
    s += &table(report);
    for c in &report.candidates {
        s += &candidate(report, c);
    }
    let p = &report.target.prices;
    s += &format!(
        "<p class=\"info\">{} Written by {} {}.</p>\n",
        esc(&prices_note(p)),
        esc(&report.tool.name),
        esc(&report.tool.version)
    );
    s
}

/// The recommendation and its secondary-index proposal.
fn recommendation(report: &Report) -> String {
    let Some(r) = &report.recommendation else {
        return "<h2 id=\"recommendation\">Recommendation</h2>\n<p>No candidate to recommend.</p>\n".to_owned();
    };
    let mut s = format!(
        "<h2 id=\"recommendation\">Recommendation: <code>{}</code></h2>\n<p>{}</p>\n",
        esc(&r.spec),
        esc(&r.reason)
    );
    if let Some(line) = super::text::recommended_bills(report) {
        s += &format!("<p>{}</p>\n", esc(&line));
    }
    let warnings = super::remedy::recommended_warnings(report);
    if !warnings.is_empty() {
        s += "<p>Its warnings, and what to do:</p>\n<ul>\n";
        for w in warnings {
            s += &format!("<li>{}</li>\n", esc(&w.sentence()));
        }
        s += "</ul>\n";
    }
    if let Some(g) = &r.secondary_index {
        s += &secondary_index(g);
    }
    s
}

/// A secondary index weighed: its sentence and its figures.
fn secondary_index(g: &SecondaryIndex) -> String {
    let after = g
        .monthly_after
        .map_or("unknown".to_owned(), |m| format!("{} USD", thousands(m)));
    let rows = [
        ("reads moved to it", pct(g.queries_moved)),
        ("RU saved over the log", thousands(g.ru_saved)),
        ("RU of its writes", thousands(g.write_ru_added)),
        ("RU of the change feed", thousands(g.change_feed_ru)),
        ("storage added", human_bytes(g.storage_added_bytes)),
        (
            "a month, one container",
            format!("{} USD", thousands(g.monthly_before)),
        ),
        ("a month, with the index", after),
    ];
    let mut s = format!(
        "<h3>Secondary index</h3>\n<p>{}</p>\n<table>\n",
        esc(&secondary_index_line(g))
    );
    for (what, v) in rows {
        s += &format!("<tr><th>{what}</th><td class=\"n\">{}</td></tr>\n", esc(&v));
    }
    s + "</table>\n"
}

/// The candidates' table, each key linked to its section; those with a violation under a
/// divider. Below 900 px, the columns an 80-column terminal drops first are hidden too, so
/// that the findings stay in view.
fn table(report: &Report) -> String {
    let class = |col: &super::columns::Column| {
        let mut classes = Vec::new();
        if col.numeric {
            classes.push("n");
        }
        if col.priority >= NARROW_PRIORITY {
            classes.push("lo");
        }
        match classes.is_empty() {
            true => String::new(),
            false => format!(" class=\"{}\"", classes.join(" ")),
        }
    };
    let mut s = String::from(
        "<h2 id=\"ranking\">Ranking</h2>\n<div class=\"wide\">\n<table class=\"ranking\">\n<thead><tr>",
    );
    for col in &COLUMNS {
        s += &format!(
            "<th{} title=\"{}\">{}</th>",
            class(col),
            esc(col.long_header),
            esc(col.header)
        );
    }
    s += "</tr></thead>\n";
    let mut divided = false;
    for (i, c) in report.candidates.iter().enumerate() {
        if i == 0 && !c.has_violation() {
            s += "<tbody>\n";
        }
        if !divided && c.has_violation() {
            divided = true;
            // No empty body before the divider when every candidate violates.
            if i > 0 {
                s += "</tbody>\n";
            }
            s += &format!(
                "<tbody class=\"violators\">\n<tr class=\"divider\"><th colspan=\"{}\">With violations: not to be used</th></tr>\n",
                COLUMNS.len()
            );
        }
        s += "<tr>";
        for col in &COLUMNS {
            let cell = match col.header {
                "key" => format!(
                    "<a href=\"#c{}\"><code class=\"key\">{}</code></a>",
                    c.rank,
                    esc(&c.key.spec)
                ),
                "findings" => (c.findings.iter())
                    .map(|f| format!("<span class=\"{}\">{}</span>", severity(f.severity), f.code))
                    .collect::<Vec<_>>()
                    .join("<br>"),
                _ => esc(&(col.text)(c)),
            };
            s += &format!("<td{}>{cell}</td>", class(col));
        }
        s += "</tr>\n";
    }
    if !report.candidates.is_empty() {
        s += "</tbody>\n";
    }
    s + "</table>\n</div>\n"
}

/// Columns of this priority and over are hidden on narrow screens (below 900 px).
const NARROW_PRIORITY: u8 = 6;

/// A finding as a list item: its code in its severity's colour, the severity, the message.
fn finding(f: &Finding) -> String {
    format!(
        "<li><strong class=\"{0}\">{1}</strong> ({0}): {2}</li>\n",
        severity(f.severity),
        f.code,
        esc(&f.message)
    )
}

/// A severity's class and word.
pub(super) fn severity(s: Severity) -> &'static str {
    match s {
        Severity::Violation => "violation",
        Severity::Warning => "warning",
        Severity::Info => "info",
    }
}

/// One candidate's section: its figures, charts, largest values and findings.
fn candidate(report: &Report, c: &CandidateReport) -> String {
    let mut s = format!(
        "<section class=\"candidate\" id=\"c{}\">\n<h2>#{} <code>{}</code>: score {:.1}</h2>\n",
        c.rank,
        c.rank,
        esc(&c.key.spec),
        c.score
    );
    let distinct = match c.cardinality.exact {
        true => thousands(c.cardinality.estimate as f64),
        false => format!("about {}", thousands(c.cardinality.estimate as f64)),
    };
    // One count a page, or each labelled: the header's is the target's with data spread
    // evenly, a section's the key's own after its splits.
    let counted = match c.storage.physical_partitions == report.target.physical_partitions {
        true => String::new(),
        false => format!(
            " (its own data split at 50 GB; the {} above are for data spread evenly)",
            report.target.physical_partitions
        ),
    };
    s += &format!(
        "<p>{} key, {distinct} distinct values, {} physical partitions at the target{counted}. Needs {}. {}</p>\n",
        esc(&c.key.kind),
        c.storage.physical_partitions,
        esc(&cost_summary(c)),
        esc(&c.origin)
    );
    s += "<div class=\"charts\">\n";
    if let Some(p) = &c.partitions {
        s += &bytes_chart(c, p);
        s += &ru_chart(report, c, p);
        s += &heat_chart(c, p);
        s += &cost_chart(c, p);
    }
    s += &routing_chart(c);
    s += "</div>\n";
    s += &values_table(c);
    s += &timeline_html(c);
    if !c.findings.is_empty() {
        s += "<h3>Findings</h3>\n<ul>\n";
        s.extend(c.findings.iter().map(finding));
        s += "</ul>\n";
    }
    s + "</section>\n"
}

/// When the key breaks, at the timeline's ingest: the days, the partitions as they double
/// and the bill at 3, 12 and 36 months; empty without a timeline.
fn timeline_html(c: &CandidateReport) -> String {
    let Some(t) = &c.timeline else {
        return String::new();
    };
    let day = |d: &Option<String>| d.as_deref().map_or("never".to_owned(), esc);
    let partitions: Vec<String> = (t.partitions.iter())
        .map(|p| format!("{} from {}", thousands(p.count as f64), esc(&p.on)))
        .collect();
    let mut s = format!(
        "<h3>Timeline</h3>\n<p>From {}: its largest logical partition passes 20 GB on <strong>{}</strong>; one value needs more than 10,000 RU/s: {}. Physical partitions: {}.</p>\n",
        esc(&t.from),
        day(&t.breaks_on),
        day(&t.throughput_limit_on),
        partitions.join(", ")
    );
    s += "<table>\n<thead><tr><th>after</th><th class=\"n\">USD a month</th></tr></thead>\n<tbody>\n";
    for m in ["3", "12", "36"] {
        if let Some(usd) = t.monthly_at.get(m) {
            s += &format!(
                "<tr><td>{m} months</td><td class=\"n\">{}</td></tr>\n",
                money(*usd)
            );
        }
    }
    s + "</tbody>\n</table>\n"
}

/// The largest values with their share of the sample.
fn values_table(c: &CandidateReport) -> String {
    if c.largest_values.is_empty() {
        return String::new();
    }
    let mut s = String::from(
        "<h3>Largest values</h3>\n<table>\n<thead><tr><th>value</th><th class=\"n\">documents</th>\
         <th class=\"n\">bytes in the sample</th><th class=\"n\">share</th></tr></thead>\n<tbody>\n",
    );
    for v in &c.largest_values {
        // Past --memory, figures are bounds: at most, unless partial.
        let bound = match (v.exact, v.partial) {
            (true, _) => "",
            (false, false) => "≤ ",
            (false, true) => "≥ ",
        };
        s += &format!(
            "<tr><td><code>{}</code></td><td class=\"n\">{bound}{}</td><td class=\"n\">{bound}{}</td><td class=\"n\">{bound}{:.1}%</td></tr>\n",
            esc(&v.value),
            thousands(v.documents as f64),
            human_bytes(v.bytes),
            v.share * 100.0
        );
    }
    s + "</tbody>\n</table>\n"
}

/// A figure: a caption over an SVG of `width` × `height` with `class`, and its legend.
fn figure(caption: &str, class: &str, (width, height): (f64, f64), svg: &str) -> String {
    format!(
        "<figure>\n<figcaption>{caption}</figcaption>\n\
         <svg class=\"chart {class}\" viewBox=\"0 0 {} {}\" role=\"img\" xmlns=\"http://www.w3.org/2000/svg\">\n{svg}</svg>\n</figure>\n",
        n(width),
        n(height)
    )
}

/// A legend swatch (its own small SVG, apart from the chart's) and its words.
fn swatch(class: &str, words: &str) -> String {
    format!(
        "<span class=\"key\"><svg class=\"sw\" viewBox=\"0 0 10 10\"><rect class=\"{class}\" width=\"10\" height=\"10\"/></svg>{}</span>",
        esc(words)
    )
}

/// A horizontal line across a bar chart at `value`, labelled.
struct Line {
    value: f64,
    label: String,
    class: &'static str,
    /// Drawn only when within the bars' scale (else named in the caption).
    optional: bool,
}

/// A line always drawn: the scale reaches it.
fn line(value: f64, label: String, class: &'static str) -> Line {
    Line {
        value,
        label,
        class,
        optional: false,
    }
}

/// A line drawn when within the bars' scale.
fn optional(value: f64, label: String, class: &'static str) -> Line {
    Line {
        optional: true,
        ..line(value, label, class)
    }
}

/// A bar chart of one figure per partition.
struct Bars<'a> {
    /// The chart's class (`bytes`, `ru`).
    class: &'a str,
    /// The bars' class (their colour).
    fill: &'a str,
    /// The partitions' figures and ids, in EPK order.
    values: Vec<f64>,
    ids: &'a [u64],
    /// How a figure reads.
    unit: fn(f64) -> String,
    /// How a gridline's figure reads (the caption names a bare number's unit).
    tick: fn(f64) -> String,
    lines: Vec<Line>,
    caption: String,
}

const W: f64 = 520.0;
const LEFT: f64 = 58.0;
const RIGHT: f64 = 8.0;
const TOP: f64 = 8.0;
const PLOT_H: f64 = 170.0;

/// Partitions drawn together so that at most [`MAX_BARS`] are drawn: how many per group.
pub fn group_size(partitions: usize) -> usize {
    partitions.div_ceil(MAX_BARS).max(1)
}

/// The largest of each group of `k` adjacent values.
fn group_max(values: &[f64], k: usize) -> Vec<f64> {
    values
        .chunks(k.max(1))
        .map(|g| g.iter().copied().fold(0.0, f64::max))
        .collect()
}

/// A step of 1, 2, 2.5 or 5 × 10ⁿ giving about four gridlines up to `max`.
fn tick_step(max: f64) -> f64 {
    round_up(max / 4.0)
}

/// Draws `b`: the bars, gridlines, the lines within scale (the others are named in the
/// caption as off the scale).
fn bar_chart(b: Bars) -> String {
    let k = group_size(b.values.len());
    let values = group_max(&b.values, k);
    let top = values.iter().copied().fold(0.0, f64::max);
    let on_scale: Vec<&Line> = (b.lines.iter())
        .filter(|l| l.value > 0.0 && (!l.optional || l.value <= top * 1.6))
        .collect();
    let y_max = on_scale.iter().map(|l| l.value).fold(top, f64::max) * 1.08;
    let y_max = if y_max > 0.0 { y_max } else { 1.0 };
    let y = |v: f64| TOP + PLOT_H * (1.0 - v / y_max);
    let mut s = axes(y_max, b.tick, &y);
    let slot = (W - LEFT - GUTTER) / values.len().max(1) as f64;
    for (i, v) in values.iter().enumerate() {
        let ids = &b.ids[i * k..((i + 1) * k).min(b.ids.len())];
        let name = match ids {
            [one] => format!("pkrange {one}"),
            [first, .., last] => format!("pkranges {first}–{last}, the largest"),
            [] => String::new(),
        };
        s += &format!(
            "<rect class=\"{}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"><title>{}: {}</title></rect>\n",
            b.fill,
            n(LEFT + slot * i as f64 + slot * 0.1),
            n(y(*v)),
            n(slot * 0.8),
            n(TOP + PLOT_H - y(*v)),
            esc(&name),
            esc(&(b.unit)(*v))
        );
    }
    s += &line_labels(&on_scale, &y);
    let mut caption = b.caption;
    let off: Vec<&str> = (b.lines.iter())
        .filter(|l| !on_scale.iter().any(|o| std::ptr::eq(*o, *l)))
        .map(|l| l.label.as_str())
        .collect();
    if !off.is_empty() {
        caption += &format!(" Off the scale: {}.", off.join("; "));
    }
    if k > 1 {
        caption += &format!(" Each bar: the largest of {k} adjacent partitions.");
    }
    s += &format!(
        "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{} physical partitions, EPK order</text>\n",
        n(LEFT + (W - LEFT - GUTTER) / 2.0),
        n(TOP + PLOT_H + 16.0),
        b.values.len()
    );
    figure(&esc(&caption), b.class, (W, TOP + PLOT_H + 22.0), &s)
}

/// The lines across a bar chart, each labelled in the gutter right of the bars (never over
/// them): in one or two lines of at most [`LABEL_CHARS`] characters, moved down when it
/// would touch the label above.
fn line_labels(lines: &[&Line], y: &dyn Fn(f64) -> f64) -> String {
    let mut sorted: Vec<&&Line> = lines.iter().collect();
    sorted.sort_by(|a, b| y(a.value).total_cmp(&y(b.value)));
    let mut s = String::new();
    let mut free = 0.0_f64;
    for l in sorted {
        let at = y(l.value);
        let rows = wrap_label(&l.label);
        let height = LABEL_LINE * rows.len() as f64;
        let top = (at - height / 2.0).max(free);
        free = top + height + 2.0;
        s += &format!(
            "<line class=\"{}\" x1=\"{LEFT}\" x2=\"{}\" y1=\"{}\" y2=\"{}\"/>\n<text class=\"l gut\" x=\"{}\" y=\"{}\">",
            l.class,
            n(W - GUTTER + 4.0),
            n(at),
            n(at),
            n(W - GUTTER + 7.0),
            n(top + LABEL_LINE - 2.0),
        );
        for (i, row) in rows.iter().enumerate() {
            let dy = if i == 0 { 0.0 } else { LABEL_LINE };
            s += &format!(
                "<tspan x=\"{}\" dy=\"{}\">{}</tspan>",
                n(W - GUTTER + 7.0),
                n(dy),
                esc(row)
            );
        }
        s += "</text>\n";
    }
    s
}

/// The gutter right of a bar chart's bars that holds its lines' labels.
const GUTTER: f64 = 106.0;
/// A gutter label's line height.
const LABEL_LINE: f64 = 11.0;
/// The most characters on one line of a gutter label (10 px type in 100 units).
const LABEL_CHARS: usize = 17;

/// `label` in lines of at most [`LABEL_CHARS`] characters, broken at spaces, never at a
/// no-break space (a word longer than that stands alone).
fn wrap_label(label: &str) -> Vec<String> {
    let mut rows: Vec<String> = Vec::new();
    for word in label.split(' ').filter(|w| !w.is_empty()) {
        match rows.last_mut() {
            Some(row) if row.chars().count() + 1 + word.chars().count() <= LABEL_CHARS => {
                row.push(' ');
                row.push_str(word);
            }
            _ => rows.push(word.to_owned()),
        }
    }
    rows
}

/// The y axis with its gridlines and labels up to `y_max`.
fn axes(y_max: f64, unit: fn(f64) -> String, y: &dyn Fn(f64) -> f64) -> String {
    let step = tick_step(y_max);
    let mut s = String::new();
    let mut v = 0.0;
    while v <= y_max {
        s += &format!(
            "<line class=\"grid\" x1=\"{LEFT}\" x2=\"{}\" y1=\"{y}\" y2=\"{y}\"/>\
             <text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>\n",
            n(W - GUTTER),
            n(LEFT - 4.0),
            n(y(v) + 4.0),
            esc(&unit(v)),
            y = n(y(v)),
        );
        v += step;
    }
    s += &format!(
        "<line class=\"ax\" x1=\"{LEFT}\" x2=\"{LEFT}\" y1=\"{TOP}\" y2=\"{}\"/>\n",
        n(TOP + PLOT_H)
    );
    s
}

fn bytes_unit(v: f64) -> String {
    human_bytes(v.round() as u64)
}

fn ru_s_unit(v: f64) -> String {
    format!("{} RU/s", thousands(v))
}

fn ru_unit(v: f64) -> String {
    format!("{} RU", thousands(v))
}

/// Bytes per physical partition, with the split size, the logical-partition limit and the
/// largest logical partition projected.
fn bytes_chart(c: &CandidateReport, p: &PartitionLoad) -> String {
    let (split, logical) = match p.collections {
        true => ("collection size", "one value's limit"),
        false => ("split at", "logical partition limit"),
    };
    // Only the physical partition's own limit: the logical one applies to a value, and
    // drawn across these bars every large partition would seem to break it.
    let lines = vec![line(
        p.partition_bytes_limit as f64,
        format!("{split} {}", human_bytes(p.partition_bytes_limit)),
        "lim",
    )];
    let mut s = logical_chart(c, p, logical);
    s += &bar_chart(Bars {
        class: "bytes",
        fill: "by",
        values: p.bytes.iter().map(|&b| b as f64).collect(),
        ids: &p.ids,
        unit: bytes_unit,
        tick: bytes_unit,
        lines,
        caption: "Storage per physical partition at the target.".to_owned(),
    });
    s
}

/// The largest logical partition at the target against the limit one value may hold: a
/// gauge, the limit's line labelled beside it.
fn logical_chart(c: &CandidateReport, p: &PartitionLoad, limit_name: &str) -> String {
    let (largest, limit) = (
        c.storage.largest_logical_bytes as f64,
        p.logical_bytes_limit as f64,
    );
    let scale = largest.max(limit) * 1.1;
    let plot_w = W - LEFT - RIGHT;
    let x = |v: f64| LEFT + plot_w * (v / scale.max(1.0));
    let over = largest > limit;
    // The limit's label above the bar, beside its line: never on the bar.
    let (lx, label) = (
        x(limit),
        format!("{limit_name} {}", human_bytes(p.logical_bytes_limit)),
    );
    let (anchor, tx) = match lx > W / 2.0 {
        true => ("end", lx - 4.0),
        false => ("start", lx + 4.0),
    };
    let svg = format!(
        "<text class=\"l\" x=\"{}\" y=\"11\" text-anchor=\"{anchor}\">{}</text>\n\
         <rect class=\"{}\" x=\"{LEFT}\" y=\"16\" width=\"{}\" height=\"18\"><title>largest logical partition: {}</title></rect>\n\
         <line class=\"lim2\" x1=\"{lx}\" x2=\"{lx}\" y1=\"2\" y2=\"40\"/>\n",
        n(tx),
        esc(&label),
        if over { "ru" } else { "by" },
        n(x(largest) - LEFT),
        esc(&human_bytes(c.storage.largest_logical_bytes)),
        lx = n(lx),
    );
    let caption = format!(
        "The largest logical partition (one key value's items) at the target: {} against the {} of {}{}.",
        human_bytes(c.storage.largest_logical_bytes),
        limit_name,
        human_bytes(p.logical_bytes_limit),
        if over { ": over it" } else { "" }
    );
    figure(&esc(&caption), "logical", (W, 42.0), &svg)
}

/// RU/s per physical partition at the workload's peak, with what each gets; RU over the
/// log when the log gives no rates.
fn ru_chart(report: &Report, c: &CandidateReport, p: &PartitionLoad) -> String {
    let parts = p.ids.len().max(1) as f64;
    let (values, unit, lines, caption) = match (&p.ru_per_second, c.cost.required_ru) {
        (Some(rates), Some(need)) => {
            let lines = vec![
                optional(
                    need / parts,
                    format!("its {} RU/s ÷\u{a0}{parts}", thousands(need)),
                    "lim2",
                ),
                optional(
                    report.target.throughput_ru / parts,
                    format!(
                        "the target's {} RU/s ÷\u{a0}{parts}",
                        thousands(report.target.throughput_ru)
                    ),
                    "mark",
                ),
                optional(
                    p.partition_ru_limit,
                    format!("limit {} RU/s", thousands(p.partition_ru_limit)),
                    "lim",
                ),
            ];
            let caption = "RU/s per physical partition at the workload's peak, against the RU/s each gets (provisioned throughput divides evenly).";
            (
                rates.clone(),
                ru_s_unit as fn(f64) -> String,
                lines,
                caption.to_owned(),
            )
        }
        _ => {
            let mean = p.ru.iter().sum::<f64>() / parts;
            let lines = vec![line(mean, format!("even share {}", ru_unit(mean)), "mark")];
            let why = c
                .cost
                .required_ru_unknown
                .as_deref()
                .unwrap_or("rates unknown");
            let caption = format!("RU per physical partition over the whole log ({why}).");
            (p.ru.clone(), ru_unit as fn(f64) -> String, lines, caption)
        }
    };
    bar_chart(Bars {
        class: "ru",
        fill: "ru",
        values,
        ids: &p.ids,
        unit,
        tick: thousands,
        lines,
        caption,
    })
}

/// The heat map: physical partitions (rows, EPK order) × replay windows (columns, time
/// order), each cell its normalised RU in ten steps, as the Azure portal's "Normalized RU
/// Consumption by PartitionKeyRangeID" draws it: only when the log gives rates (without
/// them a cell would be against the busiest cell, not against what a partition gets), its
/// rows labelled with their range ids and its columns with their clock times (UTC).
fn heat_chart(c: &CandidateReport, p: &PartitionLoad) -> String {
    let (Some(seconds), Some(start), true) = (p.window_seconds, p.window_start, p.heat_of_required)
    else {
        let why = (c.cost.required_ru_unknown.as_deref()).unwrap_or(
            "the log gives no rates (no times on its operations, or no RU/s to set them against)",
        );
        return format!(
            "<figure><figcaption>No heat map of RU per partition and window: {}; without rates the busiest cell would read as a hot partition.</figcaption></figure>\n",
            esc(why)
        );
    };
    if p.heat.is_empty() {
        return "<figure><figcaption>Normalised RU per partition and window: the replay charged nothing.</figcaption></figure>\n".to_owned();
    }
    let k = group_size(p.ids.len());
    let rows: Vec<Vec<f64>> = p.heat.iter().map(|w| group_max(w, k)).collect();
    let height = rows[0].len();
    let columns = p.heat_windows.iter().max().map_or(rows.len(), |&m| m + 1);
    let cell_h = (180.0 / height as f64).clamp(3.0, 12.0);
    let (plot_w, plot_h) = (W - LEFT - RIGHT, cell_h * height as f64);
    let cell_w = plot_w / columns as f64;
    // Cells are unit squares, scaled to the plot.
    let mut s = format!(
        "<g transform=\"translate({LEFT} {TOP}) scale({:.3} {:.3})\" shape-rendering=\"crispEdges\">\n",
        cell_w, cell_h
    );
    // One path per colour step, a unit square per cell: a quarter of the bytes of a rect
    // per cell.
    let mut steps = vec![String::new(); HEAT.len()];
    for (i, column) in rows.iter().enumerate() {
        let x = p.heat_windows.get(i).copied().unwrap_or(i);
        for (y, v) in column.iter().enumerate() {
            let step = ((v * 10.0).floor() as usize).min(HEAT.len() - 1);
            steps[step] += &format!("M{x} {y}h1v1h-1z");
        }
    }
    for (i, d) in steps.iter().enumerate().filter(|(_, d)| !d.is_empty()) {
        s += &format!("<path class=\"h{i}\" d=\"{d}\"/>\n");
    }
    s += "</g>\n";
    // A row label's box: 9 px type stands about 11 units tall.
    let every_row = (11.5 / cell_h).ceil().max(1.0) as usize;
    s += &heat_labels(
        p,
        (k, height, every_row),
        (columns, cell_w, cell_h),
        (start, seconds),
    );
    s += "\n";
    let mut caption = format!(
        "Normalised RU per physical partition (rows, pkrange ids in EPK order) and window ({columns} windows of {}, clock times UTC): its RU/s in the window over the RU/s it gets when the key's RU/s are provisioned, as the Azure portal shows it (capped at 100%); a window without load is blank.",
        duration(seconds)
    );
    if k > 1 {
        caption += &format!(" Each row: the busiest of {k} adjacent partitions.");
    }
    if every_row > 1 {
        caption += &format!(" One row in {every_row} labelled.");
    }
    caption += "<br>";
    for i in 0..HEAT.len() {
        let words = match i {
            0 => "0–10%",
            9 => "90–100%",
            _ => "",
        };
        caption += &swatch(&format!("h{i}"), words);
    }
    figure(&caption, "heat", (W, TOP + plot_h + 16.0), &s)
}

/// The heat map's labels: every `every_row`-th row's first range id (rows of `k`
/// partitions), and the clock time (UTC) of as many windows' starts as fit.
fn heat_labels(
    p: &PartitionLoad,
    (k, height, every_row): (usize, usize, usize),
    (columns, cell_w, cell_h): (usize, f64, f64),
    (start, seconds): (i64, f64),
) -> String {
    let mut s = String::new();
    let plot_h = cell_h * height as f64;
    for y in (0..height).step_by(every_row) {
        let id = p.ids.get(y * k).copied().unwrap_or(0);
        s += &format!(
            "<text class=\"row\" x=\"{}\" y=\"{}\" text-anchor=\"end\">{id}</text>",
            n(LEFT - 4.0),
            n(TOP + (y as f64 + 0.5) * cell_h + 3.0)
        );
    }
    let format = clock_format(columns as f64 * seconds, seconds);
    // A label's width: 6.5 units a character at 11 px, and a gap of 10.
    let label_w = 6.5 * clock(start, format).chars().count() as f64 + 10.0;
    let every_column = (label_w / cell_w).ceil().max(1.0) as usize;
    for x in (0..columns).step_by(every_column) {
        let at = start.saturating_add((x as f64 * seconds) as i64);
        // The last label only when it ends within the chart.
        if x > 0 && LEFT + x as f64 * cell_w + label_w - 10.0 > W - RIGHT {
            break;
        }
        s += &format!(
            "<text x=\"{}\" y=\"{}\">{}</text>",
            n(LEFT + x as f64 * cell_w),
            n(TOP + plot_h + 12.0),
            clock(at, format)
        );
    }
    s
}

/// How a window's start reads: with the day when the windows span more than a day, with
/// seconds when a window is shorter than a minute.
fn clock_format(span: f64, window: f64) -> &'static str {
    match (span > 86_400.0, window < 60.0) {
        (true, _) => "%m-%d %H:%M",
        (false, true) => "%H:%M:%S",
        (false, false) => "%H:%M",
    }
}

/// A window's start (seconds since the epoch) as a clock time, UTC, in `format`.
fn clock(seconds: i64, format: &str) -> String {
    let Ok(t) = jiff::Timestamp::from_second(seconds) else {
        return String::new();
    };
    t.strftime(format).to_string()
}

/// Seconds as a few words: `45 s`, `12 min`, `3.5 h`, `2.0 days`.
fn duration(seconds: f64) -> String {
    match seconds {
        s if s < 120.0 => format!("{s:.0} s"),
        s if s < 7_200.0 => format!("{:.0} min", s / 60.0),
        s if s < 172_800.0 => format!("{:.1} h", s / 3_600.0),
        s => format!("{:.1} days", s / 86_400.0),
    }
}

/// One horizontal bar split into `parts` (class, words, share), and its legend.
fn split_bar(caption: &str, class: &str, parts: &[(&str, String, f64)]) -> String {
    let total: f64 = parts.iter().map(|p| p.2.max(0.0)).sum();
    let width = W - 2.0 * RIGHT;
    let mut x = RIGHT;
    let mut s = String::new();
    let mut legend = String::new();
    for (fill, words, v) in parts {
        let w = if total > 0.0 {
            width * v.max(0.0) / total
        } else {
            0.0
        };
        s += &format!(
            "<rect class=\"{fill}\" x=\"{}\" y=\"4\" width=\"{}\" height=\"26\"><title>{}</title></rect>\n",
            n(x),
            n(w),
            esc(words)
        );
        x += w;
        legend += &swatch(fill, words);
    }
    figure(&format!("{caption}<br>{legend}"), class, (W, 34.0), &s)
}

/// The reads' routing: single partition, targeted, fan-out.
fn routing_chart(c: &CandidateReport) -> String {
    let q = &c.queries;
    if q.reads == 0 {
        return "<figure><figcaption>Routing of reads: the log has no reads.</figcaption></figure>\n".to_owned();
    }
    split_bar(
        &format!(
            "Routing of the {} logged reads ({:.1} physical partitions per read).",
            thousands(q.reads as f64),
            q.avg_partitions
        ),
        "routing",
        &[
            ("rs", format!("single value {}", pct(q.single)), q.single),
            ("rt", format!("targeted {}", pct(q.targeted)), q.targeted),
            ("rf", format!("fan-out {}", pct(q.fan_out)), q.fan_out),
        ],
    )
}

/// The monthly bill split: throughput shared between reads, writes and the fan-out
/// overhead by the RU each was charged, and storage; RU alone when rates are unknown.
fn cost_chart(c: &CandidateReport, p: &PartitionLoad) -> String {
    let m = &c.cost.monthly;
    let ru = p.read_ru + p.write_ru + p.fan_out_ru;
    // A log without writes: the sample's documents stand in for them, and the chart says so.
    let writes = match c.queries.writes_from_sample {
        true => "writes (the sample's documents as creates)",
        false => "writes",
    };
    match m.throughput {
        Some(t) => {
            let share = |x: f64| if ru > 0.0 { t * x / ru } else { 0.0 };
            let usd = |what: &str, v: f64| format!("{what} {} USD", money(v));
            split_bar(
                &format!(
                    "The monthly bill, {} USD: throughput shared by the RU each kind of request was charged, and storage.",
                    thousands(m.total)
                ),
                "cost",
                &[
                    ("cr", usd("reads", share(p.read_ru)), share(p.read_ru)),
                    ("cw", usd(writes, share(p.write_ru)), share(p.write_ru)),
                    (
                        "cf",
                        usd("fan-out overhead", share(p.fan_out_ru)),
                        share(p.fan_out_ru),
                    ),
                    ("cs", usd("storage", m.storage), m.storage),
                ],
            )
        }
        None => {
            let of =
                |what: &str, v: f64| format!("{what} {}", pct(if ru > 0.0 { v / ru } else { 0.0 }));
            split_bar(
                &format!(
                    "RU charged over the log by kind of request (throughput's cost unknown; storage {} USD a month).",
                    thousands(m.storage)
                ),
                "cost",
                &[
                    ("cr", of("reads", p.read_ru), p.read_ru),
                    ("cw", of(writes, p.write_ru), p.write_ru),
                    ("cf", of("fan-out overhead", p.fan_out_ru), p.fan_out_ru),
                ],
            )
        }
    }
}

/// `--explain`: the map's bars and its table.
fn partition_map(r: &ExplainReport) -> String {
    let mut s = format!("<h1>{}</h1>\n", esc(&map_header(r)));
    s += &format!("<p>{}</p>\n", esc(&map_legend(MAP_RANGES)));
    let ids: Vec<u64> = r.map.partitions.iter().map(|p| p.id).collect();
    let ru: Vec<f64> = r.map.partitions.iter().map(|p| p.ru).collect();
    let mean = ru.iter().sum::<f64>() / ru.len().max(1) as f64;
    let limits = crate::engine::Limits::default();
    let limit_lines = if r.collections.is_empty() {
        vec![
            line(
                limits.physical_bytes as f64,
                format!("split at {}", human_bytes(limits.physical_bytes)),
                "lim",
            ),
            line(
                limits.logical_bytes as f64,
                format!(
                    "logical partition limit {}",
                    human_bytes(limits.logical_bytes)
                ),
                "lim2",
            ),
        ]
    } else {
        Vec::new()
    };
    s += "<div class=\"charts\">\n";
    s += &bar_chart(Bars {
        class: "bytes",
        fill: "by",
        values: r.map.partitions.iter().map(|p| p.bytes as f64).collect(),
        ids: &ids,
        unit: bytes_unit,
        tick: bytes_unit,
        lines: limit_lines,
        caption: "Storage per physical partition.".to_owned(),
    });
    s += &bar_chart(Bars {
        class: "ru",
        fill: "ru",
        values: ru,
        ids: &ids,
        unit: ru_unit,
        tick: thousands,
        lines: vec![line(mean, format!("even share {}", ru_unit(mean)), "mark")],
        caption: "RU the replayed log charged each physical partition.".to_owned(),
    });
    s += "</div>\n";
    s += &map_table(r);
    for v in &r.values {
        s += &format!("<p>{}</p>\n", esc(&landing_line(r, v)));
    }
    s
}

/// The map's table, ranges and values whole.
fn map_table(r: &ExplainReport) -> String {
    let mut s = String::from(
        "<table>\n<thead><tr><th class=\"n\">#</th><th class=\"n\">pkrange</th><th>min</th><th>max</th>\
         <th class=\"n\">bytes</th><th class=\"n\">logical</th><th class=\"n\">RU</th><th>largest values</th></tr></thead>\n<tbody>\n",
    );
    for (i, p) in r.map.partitions.iter().enumerate() {
        let values = largest_values(r, p, None)
            .lines()
            .map(esc)
            .collect::<Vec<_>>()
            .join("<br>");
        s += &format!(
            "<tr><td class=\"n\">{}</td><td class=\"n\">{}</td><td><code>{}</code></td><td><code>{}</code></td>\
             <td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td>{values}</td></tr>\n",
            i + 1,
            esc(&partition_name(r, i, p)),
            esc(&p.min),
            esc(&p.max),
            human_bytes(p.bytes),
            p.logical_partitions,
            thousands(p.ru),
        );
    }
    s + "</tbody>\n</table>\n"
}

/// check's verdict, then the ranking it was drawn from.
fn verdict(report: &Report, v: &CheckResult) -> String {
    let c = report.declared();
    let (class, status) = match v.passed {
        true => ("pass", "PASS"),
        false => ("fail", "FAIL"),
    };
    let container = v.container.as_ref().map_or(String::new(), |n| {
        format!(" (container <code>{}</code>)", esc(n))
    });
    let mut s = format!(
        "<h1>pkadvisor check: <span class=\"{class}\">{status}</span></h1>\n\
         <p>Key <code>{}</code>{container}: score <strong>{:.1}</strong> (minimum {}).</p>\n<ul>\n",
        esc(&v.key),
        c.score,
        v.min_score
    );
    for r in &v.reasons {
        s += &format!("<li class=\"fail\">{}</li>\n", esc(&r.text));
    }
    s += &format!("<li>Cost: {}</li>\n", esc(&cost_line(report, v)));
    if let Some(o) = &v.observed {
        s += &format!("<li>Observed: {}</li>\n", esc(&observed_line(o)));
    }
    for i in &report.declared_indexes {
        s += &format!(
            "<li>Index <code>{}</code>: {}</li>\n",
            esc(&i.key.spec),
            esc(&i.reason)
        );
    }
    s.extend(
        (c.findings.iter())
            .filter(|f| f.severity != Severity::Violation)
            .map(finding),
    );
    s += "</ul>\n";
    if let Some((spec, tail)) = best_alternative(report, v) {
        s += &format!(
            "<p><strong>Best alternative: <code>{}</code></strong> {}</p>\n",
            esc(spec),
            esc(&tail)
        );
    }
    s + &ranking(report)
        .replacen("<h1>", "<h2>", 1)
        .replacen("</h1>", "</h2>", 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clock_labels_carry_seconds_or_days_when_they_need_them() {
        // 2026-12-03 14:05:30 UTC.
        let at = 1_796_306_730;
        assert_eq!(clock(at, clock_format(3_600.0, 120.0)), "14:05");
        assert_eq!(clock(at, clock_format(600.0, 10.0)), "14:05:30");
        assert_eq!(
            clock(at, clock_format(3.0 * 86_400.0, 3_600.0)),
            "12-03 14:05"
        );
    }

    #[test]
    fn gutter_labels_wrap_at_spaces_and_keep_apart() {
        assert_eq!(
            wrap_label("the target's 20,000 RU/s ÷\u{a0}32"),
            vec!["the target's", "20,000 RU/s ÷\u{a0}32"]
        );
        assert_eq!(wrap_label("split at 50.0 GB"), vec!["split at 50.0 GB"]);
        // Two lines a pixel apart: the second label moves below the first.
        let (a, b) = (
            line(100.0, "its 1,800 RU/s ÷\u{a0}32".to_owned(), "lim2"),
            line(99.0, "limit 10,000 RU/s".to_owned(), "lim"),
        );
        let y = |v: f64| 200.0 - v;
        let svg = line_labels(&[&a, &b], &y);
        let tops: Vec<f64> = (svg
            .match_indices("class=\"l gut\" x=\"")
            .map(|(i, _)| &svg[i..]))
        .map(|t| {
            let at = t.find(" y=\"").unwrap() + 4;
            t[at..at + t[at..].find('"').unwrap()].parse().unwrap()
        })
        .collect();
        // The first label (its 1,800 RU/s, two lines) is centred on y = 100; the second,
        // at y = 101, starts below its 22 units and the gap.
        assert_eq!(tops.len(), 2);
        assert!(tops[1] - tops[0] >= 2.0 * LABEL_LINE, "{tops:?}");
    }

    #[test]
    fn escapes_what_html_reads() {
        assert_eq!(
            esc("<a href=\"x\">'&'</a>"),
            "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;"
        );
    }

    #[test]
    fn coordinates_and_steps() {
        assert_eq!(n(12.0), "12");
        assert_eq!(n(12.345), "12.3");
        assert_eq!(n(-0.01), "0");
        assert_eq!(tick_step(100.0), 25.0);
        assert_eq!(tick_step(50e9), 2e10);
        assert_eq!(tick_step(7.0), 2.0);
    }

    #[test]
    fn many_partitions_are_drawn_in_groups_showing_their_largest() {
        assert_eq!(group_size(MAX_BARS), 1);
        assert_eq!(group_size(MAX_BARS + 1), 2);
        assert_eq!(group_size(20_000), 313);
        assert_eq!(
            group_max(&[1.0, 5.0, 2.0, 0.0, 3.0], 2),
            vec![5.0, 2.0, 3.0]
        );
    }
}
