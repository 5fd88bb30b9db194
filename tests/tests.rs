//! Integration tests: one binary, one module per subcommand.

// Helpers shared by the modules.
mod util;

// `pkadvisor analyze`: the report contract, routing fractions, findings, errors.
mod analyze;

// `pkadvisor check`: declared keys from ARM and Terraform files, the gate, exit codes.
mod check;

// `pkadvisor epk` and the 64 golden EPK vectors.
mod epk;

// Ranking by cost: efficiency, RU/s, the monthly bill, and the gate on cost.
mod cost;

// Advice an expert would sign: hard limits, priced hazards, sampled logs, every alternative.
mod advice;

// Global secondary indexes: proposed when they pay, declined with a reason.
mod gsi;

// Azure Monitor diagnostic logs as the query log.
mod monitor;

// DocumentDB-era client-side layouts beside native keys.
mod layouts;

// The advisor's verdicts on the realistic fixtures.
mod fixtures;

// The projection and write replay on data built for each of their rules.
mod projection;

// When a key breaks, as a date: timelines on data with known per-value rates.
mod timeline;

// Help examples run as written; completions and manual pages are generated.
mod help;

// `--format html`: valid, self-contained pages, checked in a headless browser.
mod html;

// Reports validate against schema/report.schema.json.
mod schema;

// Finding codes agree in the code, the report schema and the README's findings table.
mod finding_codes;

// The query parser and key-constraint extraction, on real and written query corpora.
mod query;

// The document readers: formats, compression, errors and their positions, threads.
mod input;

// The skimming walk against the full parse: fixtures, bad input, malformed variants.
mod skim;

// `pkadvisor profile` and `analyze --profile`: shares measured apart, merged.
mod profile;

// The Spark driver in contrib/spark: profiles of partitions merge into the whole's report.
mod spark;

// Bills as Azure makes them: splits, indexed writes, autoscale by the hour, the rest.
mod billing;
// Hostile input, round two: non-ASCII at the sniffing boundary, misreads, memory, positions.
mod hostile;
// Public artefacts (../shared/real): real templates, Terraform, logs and data sets.
mod real;
// Screens at 80, 100 and 140 columns.
mod screens;
// `pkadvisor migrate`: what stops a copy, its RU, money and duration, the partitions after.
mod migrate;
// What no ranking may depend on: property names, the documents' order.
mod invariance;
