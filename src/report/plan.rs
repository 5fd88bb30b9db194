//! `migrate`'s plan in words: the same sections for the terminal (aligned label and text)
//! and for Markdown (a two-column table per section). HTML pages wrap the terminal text.

use std::io::{self, Write};

use super::migration::{Breach, MigrationReport};
use super::text::{thousands, wrap};
use crate::units::{human_bytes, human_duration};

/// One section: a heading and its (label, text) rows.
struct Section {
    heading: String,
    rows: Vec<(String, String)>,
}

/// The verdict's line.
pub fn verdict_line(p: &MigrationReport) -> String {
    match p.passed {
        true => "PASS  the copy would complete".to_owned(),
        false => "FAIL  the copy would stop".to_owned(),
    }
}

/// The heading line: the keys, the container's size and items.
pub fn heading(p: &MigrationReport) -> String {
    format!(
        "pkadvisor migrate: {} → {} at {} ({} items)",
        p.from,
        p.to,
        human_bytes(p.storage_bytes),
        thousands(p.items as f64)
    )
}

/// Writes the plan for a terminal, lines wrapped at `width` when given.
pub fn terminal(p: &MigrationReport, width: Option<usize>, out: &mut dyn Write) -> io::Result<()> {
    let line = |out: &mut dyn Write, text: &str, first: &str, rest: &str| match width {
        Some(w) => writeln!(out, "{}", wrap(text, w, first, rest)),
        None => writeln!(out, "{first}{text}"),
    };
    line(out, &heading(p), "", "  ")?;
    line(out, &verdict_line(p), "", "      ")?;
    for f in &p.failures {
        line(out, f, "  ✗ ", "    ")?;
    }
    for s in sections(p) {
        writeln!(out)?;
        line(out, &s.heading, "", "  ")?;
        let pad = s
            .rows
            .iter()
            .map(|(l, _)| l.chars().count())
            .max()
            .unwrap_or(0);
        let rest = " ".repeat(pad + 4);
        for (label, text) in &s.rows {
            line(out, text, &format!("  {label:<pad$}  "), &rest)?;
        }
    }
    if !p.notes.is_empty() {
        writeln!(out, "\nNotes")?;
        for n in &p.notes {
            line(out, n, "  - ", "    ")?;
        }
    }
    Ok(())
}

/// Writes the plan as Markdown.
pub fn markdown(p: &MigrationReport, out: &mut dyn Write) -> io::Result<()> {
    writeln!(out, "## {}\n", heading(p).replace('|', "\\|"))?;
    writeln!(out, "**{}**\n", verdict_line(p))?;
    for f in &p.failures {
        writeln!(out, "- {}", cell(f))?;
    }
    for s in sections(p) {
        writeln!(out, "\n### {}\n\n| | |\n|---|---|", s.heading)?;
        for (label, text) in &s.rows {
            writeln!(out, "| {} | {} |", cell(label), cell(text))?;
        }
    }
    if !p.notes.is_empty() {
        writeln!(out, "\n### Notes\n")?;
        for n in &p.notes {
            writeln!(out, "- {n}")?;
        }
    }
    Ok(())
}

/// Text safe in a Markdown table cell.
fn cell(text: &str) -> String {
    text.replace('|', "\\|").replace('\n', " ")
}

fn sections(p: &MigrationReport) -> Vec<Section> {
    vec![preflight(p), copy(p), after(p)]
}

fn preflight(p: &MigrationReport) -> Section {
    let f = &p.preflight;
    let c = &f.collisions;
    let collisions = match c.sample_pairs {
        0 => "none in the sample".to_owned(),
        n => format!(
            "{n} pairs in the sample ({} inserts conflict; at least {} at {}): {}",
            c.sample_conflicts,
            thousands(c.estimated_conflicts.round()),
            human_bytes(p.storage_bytes),
            (c.pairs.iter().take(5))
                .map(|x| format!("id {} under {} ({} items)", x.id, x.value, x.items))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    let missing = match f.missing.documents {
        0 => "none".to_owned(),
        n => format!(
            "{} sample documents ({} items, {} at the target)",
            thousands(n as f64),
            thousands(f.missing.items as f64),
            human_bytes(f.missing.bytes)
        ),
    };
    let ttl = match (f.default_ttl, f.ttl_declared) {
        (Some(t), _) => format!("not copied: set defaultTtl {t} on the new container"),
        (None, true) => "off in the declared container: nothing to set".to_owned(),
        (None, false) => "not copied: none known (--container reads it)".to_owned(),
    };
    let portal = match f.portal.len() {
        0 => "within its limits (1,000,000 RU/s, 4 TB, no merge)".to_owned(),
        _ => f.portal.join("; "),
    };
    Section {
        heading: format!("Preflight (the copy reads {})", f.read_order),
        rows: vec![
            ("values past 20 GB".to_owned(), breaches(&f.breaches)),
            ("(id, key) collisions".to_owned(), collisions),
            ("without the new key".to_owned(), missing),
            ("default TTL".to_owned(), ttl),
            ("portal".to_owned(), portal),
        ],
    }
}

fn breaches(b: &[Breach]) -> String {
    match b.len() {
        0 => "none".to_owned(),
        n => format!(
            "{n}: {}",
            (b.iter().take(5))
                .map(|b| format!(
                    "{} ({}) {} the copy at {:.0}%",
                    b.value,
                    human_bytes(b.bytes),
                    match b.beyond_chance {
                        true => "stops",
                        false => "may stop",
                    },
                    b.stops_at * 100.0
                ))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

fn copy(p: &MigrationReport) -> Section {
    let c = &p.copy;
    let mut rows = vec![
        (
            "read (change feed)".to_owned(),
            format!("{} RU", thousands(c.read_ru.round())),
        ),
        (
            "write (creates)".to_owned(),
            format!("{} RU", thousands(c.write_ru.round())),
        ),
        ("duration".to_owned(), duration(c)),
        ("money".to_owned(), money(p)),
    ];
    if let Some(f) = c.online_surcharge {
        let ru = match c.online_ru {
            Some(ru) => format!("{} RU", thousands(ru.round())),
            None => "unknown without a log's rates".to_owned(),
        };
        rows.push((
            "online surcharge".to_owned(),
            format!("{ru} on the source's writes ({:.0}% extra)", f * 100.0),
        ));
    }
    Section {
        heading: "Copy".to_owned(),
        rows,
    }
}

/// "a to b", or one figure when both ends say the same.
fn span(low: String, high: String) -> String {
    match low == high {
        true => low,
        false => format!("{low} to {high}"),
    }
}

/// `n` `what`s, the plural with an s.
fn count(n: usize, what: &str) -> String {
    match n {
        1 => format!("1 {what}"),
        _ => format!("{} {what}s", thousands(n as f64)),
    }
}

fn duration(c: &super::migration::CopyCost) -> String {
    let Some(s) = c.seconds else {
        return "none: the source has no RU/s left for the copy's reads".to_owned();
    };
    format!(
        "{} (the fast end bounded by the {}; {} at {} RU/s each, the busiest takes {:.0}% of the writes; {} RU/s free on the source)",
        span(human_duration(s.low), human_duration(s.high)),
        c.bound.as_deref().unwrap_or("source reads"),
        count(c.copy_partitions, "partition"),
        thousands(c.partition_ru.round()),
        c.hottest_share * 100.0,
        thousands(c.source_ru_free.max(0.0).round())
    )
}

fn money(p: &MigrationReport) -> String {
    let c = &p.copy;
    let Some(m) = c.money else {
        return "none: the copy cannot run".to_owned();
    };
    let usd = span(thousands(m.low), thousands(m.high));
    match !c.serverless {
        true => format!(
            "{usd} USD ({} RU/s on the new container over the copy's clock hours, at list price)",
            thousands(c.copy_ru)
        ),
        false => format!("{usd} USD (the copy's RU at the price per million)"),
    }
}

fn after(p: &MigrationReport) -> Section {
    let a = &p.after;
    let added = a.partitions.saturating_sub(a.workload_partitions);
    let mut partitions = match added {
        0 => format!("{} (as for the workload alone)", a.partitions),
        n => format!(
            "{} (the workload alone: {}; the copy's {} RU/s added {n}, which stay after the throughput comes down)",
            a.partitions,
            a.workload_partitions,
            thousands(p.copy.copy_ru)
        ),
    };
    if a.created_at_copy_partitions != a.partitions {
        partitions.push_str(&format!(
            "; created at {} RU/s instead of raised, {}",
            thousands(p.copy.copy_ru),
            count(a.created_at_copy_partitions, "partition")
        ));
    }
    Section {
        heading: "After the copy".to_owned(),
        rows: vec![
            ("partitions".to_owned(), partitions),
            (
                "fan-out".to_owned(),
                match a.fan_out_extra_ru {
                    Some(ru) if ru > 0.0 => format!(
                        "+{} RU/s for reads that visit every partition",
                        thousands(ru.round())
                    ),
                    Some(_) => "no extra cost".to_owned(),
                    None => "unknown without a log's rates".to_owned(),
                },
            ),
            (
                "merge back".to_owned(),
                match a.merge_possible {
                    true => format!(
                        "possible at {} RU/s (under 3,000 RU/s and 20 GB per partition on average)",
                        thousands(a.ru)
                    ),
                    false if p.copy.serverless => "not possible (serverless containers do not merge)".to_owned(),
                    false => "not possible (it needs under 3,000 RU/s and 20 GB per partition on average, one write region)".to_owned(),
                },
            ),
        ],
    }
}
