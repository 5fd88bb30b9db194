//! Profiles: the statistics of one share of the input, written by `pkadvisor profile` and
//! merged by `analyze --profile`, so that an export too large for one machine (or spread
//! over several) is measured where it lies and judged in one place.
//!
//! A profile is one JSON document: the candidates measured (canonical specs, in order),
//! the settings their statistics depend on (`--time-path`, `--seed`, `--memory`), what was
//! read, and every candidate's statistics with a checksum of their text, so that a damaged
//! file is refused rather than believed. Profiles merge as reading threads do: every
//! accumulator has `merge`.

use std::io::{Read, Write};

use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

use super::candidate::Candidate;
use crate::engine::KeyPath;
use crate::engine::murmur::murmur3_x64_128;
use crate::input::Source;
use crate::key::KeySpec;
use crate::report::model::Role;
use crate::stats::CandidateStats;

/// The `format` field of every profile.
pub const FORMAT: &str = "pkadvisor-profile";
/// The layout version written, and the only one read (6: each candidate's kept values
/// say how many a single-level key keeps before the precision is looked at again; 5: kept
/// values, their details and
/// heavy hitters are written in hash order, so the same statistics give the same bytes;
/// 4: the documents' indexed terms, which price their writes, are counted).
pub const VERSION: u32 = 6;
/// What a file given after `--profile` that is not one most likely means.
const ORDER: &str = "DOCS go before --profile, which takes every file after it";
/// The largest profile read, decompressed: 1 GiB (a decompression bomb ends there; input
/// that does not start as a JSON object is refused at once).
pub const MAX_PROFILE_BYTES: u64 = 1 << 30;

/// The statistics of one share of the input.
#[derive(Debug)]
pub struct Profile {
    /// The candidates measured, in order.
    pub candidates: Vec<Candidate>,
    /// `--time-path`, if arrivals are by time.
    pub time_path: Option<KeyPath>,
    /// `--seed` (random suffixes depend on it).
    pub seed: u64,
    /// `--memory` in bytes.
    pub memory: usize,
    /// Documents read.
    pub documents: u64,
    /// Their bytes.
    pub bytes: u64,
    /// Documents skipped as invalid.
    pub invalid: u64,
    /// Documents without a timestamp at `--time-path`.
    pub untimed: u64,
    /// Per candidate, in order.
    pub stats: Vec<CandidateStats>,
    /// Whether key values were written as hashes (`profile --redact`).
    pub redacted: bool,
    /// Indexed terms of the documents read, under `indexing`.
    pub terms: u64,
    /// The rules of the indexing policy the terms were counted under
    /// ([`crate::indexing::IndexingPolicy::rules`]).
    pub indexing: String,
    /// With `redacted`: which key hashed them ([`key_fingerprint`]), so that profiles
    /// hashed with other keys (whose hashes of one value differ) are not merged.
    pub redact_key: Option<String>,
    /// The checksum of the file it was read from (none when measured here): the same
    /// statistics given twice are one share, not two.
    pub checksum: Option<String>,
    /// Each share merged in, by [`share_fingerprint`], with the file that gave it: the same
    /// documents measured twice (under other settings) are one share, not two.
    pub shares: Vec<(u64, String)>,
    /// How long the longest-lived item lives, in seconds (the documents' `ttl`, else
    /// `profile --retention`); none when some item lives forever or nothing says.
    pub retention: Option<f64>,
}

/// What identifies the documents a share read, whatever `--memory` or `--threads` counted
/// them with: each candidate's documents and bytes, in all and in every slice of the hash
/// space (the same documents give the same figures; other documents, practically never).
pub fn share_fingerprint(candidates: &[Candidate], stats: &[CandidateStats]) -> u64 {
    let mut pairs: Vec<(String, &CandidateStats)> = (candidates.iter())
        .map(|c| c.spec.to_string())
        .zip(stats)
        .collect();
    pairs.sort_by(|a, b| a.0.cmp(&b.0));
    let mut text = Vec::new();
    for (spec, s) in pairs {
        text.extend_from_slice(spec.as_bytes());
        text.push(0);
        for n in [s.documents, s.bytes, s.missing] {
            text.extend_from_slice(&n.to_le_bytes());
        }
        for slice in &s.histogram().slices {
            text.extend_from_slice(&slice.docs.to_le_bytes());
            text.extend_from_slice(&slice.bytes.to_le_bytes());
        }
    }
    murmur3_x64_128(&text).0
}

/// The file's layout.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    format: String,
    version: u32,
    candidates: Vec<FileCandidate>,
    time_path: Option<String>,
    seed: u64,
    memory: u64,
    documents: u64,
    bytes: u64,
    invalid: u64,
    untimed: u64,
    /// Indexed terms of the documents, under `indexing`.
    terms: u64,
    /// The indexing policy's rules.
    indexing: String,
    /// Key values written as hashes (absent when not).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    redacted: bool,
    /// Which key hashed the values ([`key_fingerprint`]; absent when not redacted).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    redact_key: Option<String>,
    /// How long the longest-lived item lives, in seconds (absent: forever, or unknown).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    retention: Option<f64>,
    /// [`checksum`] of every other field: see [`File::signed_text`].
    checksum: String,
    stats: Box<RawValue>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileCandidate {
    spec: String,
    origin: String,
    /// Absent for a given candidate (and in files written before roles).
    #[serde(default, skip_serializing_if = "is_given")]
    role: Role,
}

fn is_given(r: &Role) -> bool {
    *r == Role::Given
}

impl File {
    /// What the checksum covers: every field but itself, the statistics as written.
    fn signed_text(&self) -> String {
        let mut header = serde_json::json!([
            self.format,
            self.version,
            self.candidates,
            self.time_path,
            self.seed,
            self.memory,
            self.documents,
            self.bytes,
            self.invalid,
            self.untimed,
            self.terms,
            self.indexing,
        ]);
        // Signed only when set, so that files written before it existed still verify.
        if let (true, Some(h)) = (self.redacted, header.as_array_mut()) {
            h.push(serde_json::Value::Bool(true));
            if let Some(k) = &self.redact_key {
                h.push(serde_json::Value::String(k.clone()));
            }
        }
        // Signed only when set too.
        if let (Some(r), Some(h)) = (self.retention, header.as_array_mut()) {
            h.push(serde_json::json!({ "retention": r }));
        }
        format!("{header}\n{}", self.stats.get())
    }
}

/// Why a profile was refused: the file, and what is wrong with it.
#[derive(Debug, thiserror::Error)]
pub enum ProfileError {
    /// Not readable as a profile.
    #[error("{file}: {problem}")]
    Invalid {
        /// The profile's name.
        file: String,
        /// What is wrong.
        problem: Invalid,
    },
    /// A profile that cannot be merged with the first one.
    #[error("{file} {problem}")]
    Incompatible {
        /// The profile's name.
        file: String,
        /// What differs.
        problem: Incompatible,
    },
}

/// What makes a file no readable profile.
#[derive(Debug, PartialEq, thiserror::Error)]
pub enum Invalid {
    /// The input failed.
    #[error("cannot be read ({0})")]
    Unreadable(String),
    /// It does not start as a JSON object.
    #[error("not a pkadvisor profile (a profile is one JSON object); {ORDER}")]
    NotAnObject,
    /// Larger than any profile.
    #[error("more than {} MiB once decompressed: not a profile pkadvisor writes", MAX_PROFILE_BYTES >> 20)]
    TooLarge,
    /// Its JSON is not a profile's.
    #[error("line {line} column {column}: not a pkadvisor profile ({error}); {ORDER}")]
    NotAProfile {
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What the JSON reader said.
        error: String,
    },
    /// Another format, or another release's layout.
    #[error("format {format:?} version {version}; expected {FORMAT:?} version {VERSION}{}",
        if format == FORMAT { " (written by another pkadvisor release: profile its documents again with this one)" } else { "" })]
    OtherFormat {
        /// The format it names.
        format: String,
        /// Its layout version.
        version: u32,
    },
    /// The checksum does not match.
    #[error("its contents do not match their checksum (the file was changed or damaged)")]
    Checksum,
    /// No candidate measured.
    #[error("it measured no candidates")]
    NoCandidates,
    /// A candidate listed twice.
    #[error("candidate {0:?} is listed twice")]
    Twice(String),
    /// Totals no input can reach.
    #[error(
        "{documents} documents of {bytes} bytes ({invalid} invalid, {untimed} untimed): more than any input holds"
    )]
    Totals {
        /// Documents.
        documents: u64,
        /// Bytes.
        bytes: u64,
        /// Invalid documents.
        invalid: u64,
        /// Documents without a timestamp.
        untimed: u64,
    },
    /// A time to live no item can have.
    #[error("items live {0} seconds: a retention is a positive number of seconds")]
    Retention(f64),
    /// More indexed terms than bytes: a term takes at least one.
    #[error("{terms} indexed terms in {bytes} bytes of documents: more than any input holds")]
    Terms {
        /// Terms counted.
        terms: u64,
        /// Bytes of the documents.
        bytes: u64,
    },
    /// The statistics are not readable.
    #[error("line {line} column {column}: statistics unreadable ({error})")]
    Statistics {
        /// 1-based line in the file.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What the JSON reader said, without its position.
        error: String,
    },
    /// A candidate spec that does not parse.
    #[error("candidate {spec:?}: {error}")]
    Candidate {
        /// The spec.
        spec: String,
        /// Why it does not parse.
        error: String,
    },
    /// Candidates and statistics do not pair up.
    #[error("{candidates} candidates but statistics for {stats}")]
    Counts {
        /// Candidates listed.
        candidates: usize,
        /// Statistics given.
        stats: usize,
    },
    /// A candidate's statistics are inconsistent.
    #[error("statistics of {spec}: {error}")]
    BadStatistics {
        /// The candidate.
        spec: String,
        /// What is wrong.
        error: String,
    },
    /// A candidate's statistics count other documents than the profile.
    #[error("statistics of {spec} count {counted} documents, the profile {documents}")]
    Documents {
        /// The candidate.
        spec: String,
        /// Documents its statistics count.
        counted: u64,
        /// Documents the profile counts.
        documents: u64,
    },
    /// Statistics listed under another key than they measure.
    #[error("candidate {spec} is paired with the statistics of {measured}")]
    Swapped {
        /// The candidate listed.
        spec: String,
        /// The key its statistics measure.
        measured: String,
    },
    /// A value whose EPK its candidate's definition cannot give.
    #[error("statistics of {spec}: value {value} has EPK {epk:?}, not one {spec} gives")]
    Epk {
        /// The candidate.
        spec: String,
        /// The value's label.
        value: String,
        /// The EPK claimed, in hex.
        epk: String,
    },
    /// A time path that does not parse.
    #[error("time path {path:?}: {error}")]
    TimePath {
        /// The path.
        path: String,
        /// Why it does not parse.
        error: String,
    },
}

/// What keeps two profiles from merging.
#[derive(Debug, PartialEq, thiserror::Error)]
pub enum Incompatible {
    /// Other candidates.
    #[error(
        "measured other candidates ({theirs}) than the first profile ({mine}); give every profile the same --key list"
    )]
    Candidates {
        /// This profile's specs, space-separated.
        theirs: String,
        /// The first profile's.
        mine: String,
    },
    /// Another `--time-path` or `--seed`.
    #[error("was measured with another --time-path or --seed than the first profile")]
    Settings,
    /// Items that live another time.
    #[error(
        "holds items that live {theirs}, the first profile's {mine}: give every profile the same --retention"
    )]
    Retention {
        /// How long this profile's items live.
        theirs: String,
        /// The first one's.
        mine: String,
    },
    /// Indexed terms counted under another indexing policy.
    #[error(
        "counted indexed terms under another indexing policy ({theirs}) than the first profile ({mine}); give every profile the same --indexing-policy"
    )]
    Indexing {
        /// This profile's policy rules.
        theirs: String,
        /// The first profile's.
        mine: String,
    },
    /// Values hashed with another key, or not hashed where the first profile's are.
    #[error(
        "holds key values {theirs}, the first profile {mine}: the same value would count as two (write every profile with the same --redact key)"
    )]
    Redaction {
        /// How this profile holds them.
        theirs: String,
        /// How the first one does.
        mine: String,
    },
    /// The same statistics as a profile already given.
    #[error("holds the same statistics as {first} (checksum {checksum}): one share given twice")]
    Twice {
        /// The profile given first.
        first: String,
        /// Their checksum.
        checksum: String,
    },
    /// The documents of a profile already given, measured again (another --memory,
    /// --threads or file).
    #[error(
        "measured the same documents as {first} (other settings give other files, not other shares): one share given twice"
    )]
    SameDocuments {
        /// The profile given first.
        first: String,
    },
}

/// The file position of `(line, column)` (1-based) of a text that starts at byte `start`.
fn position(text: &[u8], start: usize, line: usize, column: usize) -> (usize, usize) {
    let before = &text[..start.min(text.len())];
    let lines_before = before.iter().filter(|&&b| b == b'\n').count();
    if line > 1 {
        return (lines_before + line, column);
    }
    let line_start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    (lines_before + 1, start - line_start + column)
}

/// The checksum a profile carries of its contents: MurmurHash3 x64_128 of `text`, in hex.
pub fn checksum(text: &str) -> String {
    let (h1, h2) = murmur3_x64_128(text.as_bytes());
    format!("{h2:016x}{h1:016x}")
}

/// What names the key of `profile --redact` in a profile: MurmurHash3 of a fixed prefix and
/// the key, 16 hex digits (equal keys agree; it does not give the key back, and a random key
/// cannot be guessed from it).
pub fn key_fingerprint(key: &[u8]) -> String {
    let mut bytes = b"pkadvisor-redact-key\0".to_vec();
    bytes.extend_from_slice(key);
    format!("{:016x}", murmur3_x64_128(&bytes).0)
}

impl Profile {
    /// Writes the profile as one JSON document.
    pub fn write(&self, mut out: impl Write) -> std::io::Result<()> {
        let stats = serde_json::to_string(&self.stats)?;
        let mut file = File {
            format: FORMAT.to_owned(),
            version: VERSION,
            candidates: self
                .candidates
                .iter()
                .map(|c| FileCandidate {
                    spec: c.spec.to_string(),
                    origin: c.origin.clone(),
                    role: c.role,
                })
                .collect(),
            time_path: self.time_path.as_ref().map(KeyPath::to_string),
            seed: self.seed,
            memory: self.memory as u64,
            documents: self.documents,
            bytes: self.bytes,
            invalid: self.invalid,
            untimed: self.untimed,
            terms: self.terms,
            indexing: self.indexing.clone(),
            redacted: self.redacted,
            redact_key: self.redact_key.clone().filter(|_| self.redacted),
            retention: self.retention,
            checksum: String::new(),
            stats: RawValue::from_string(stats)?,
        };
        file.checksum = checksum(&file.signed_text());
        serde_json::to_writer(&mut out, &file)?;
        out.write_all(b"\n")
    }

    /// Reads a profile written by [`write`](Self::write); `name` names it in errors.
    pub fn read(name: &str, input: impl Read) -> Result<Profile, ProfileError> {
        Self::read_checked(input).map_err(|problem| ProfileError::Invalid {
            file: name.to_owned(),
            problem,
        })
    }

    fn read_checked(input: impl Read) -> Result<Profile, Invalid> {
        let text = read_text(input)?;
        let file: File = serde_json::from_slice(&text).map_err(|e| {
            let (line, column) = crate::json_error::position(&e);
            Invalid::NotAProfile {
                line,
                column,
                error: crate::json_error::message(&e),
            }
        })?;
        check_header(&file)?;
        let stats: Vec<CandidateStats> = serde_json::from_str(file.stats.get()).map_err(|e| {
            // Where the statistics start in the file, so that the position is the file's.
            let raw = file.stats.get().as_bytes();
            let start = memchr::memmem::find(&text, raw).unwrap_or(0);
            let (l, c) = crate::json_error::position(&e);
            let (line, column) = position(&text, start, l, c);
            Invalid::Statistics {
                line,
                column,
                error: crate::json_error::message(&e),
            }
        })?;
        let candidates = (file.candidates.iter())
            .map(|c| {
                KeySpec::parse(&c.spec)
                    .map(|spec| Candidate::new(spec, c.origin.clone()).with_role(c.role))
                    .map_err(|e| Invalid::Candidate {
                        spec: c.spec.clone(),
                        error: e.render(&c.spec),
                    })
            })
            .collect::<Result<Vec<_>, _>>()?;
        check_statistics(&file, &candidates, &stats)?;
        let time_path = (file.time_path.as_ref())
            .map(|p| {
                KeyPath::parse(p).map_err(|e| Invalid::TimePath {
                    path: p.clone(),
                    error: e.to_string(),
                })
            })
            .transpose()?;
        Ok(Profile {
            candidates,
            time_path,
            seed: file.seed,
            memory: usize::try_from(file.memory).unwrap_or(usize::MAX),
            documents: file.documents,
            bytes: file.bytes,
            invalid: file.invalid,
            untimed: file.untimed,
            stats,
            redacted: file.redacted,
            terms: file.terms,
            indexing: file.indexing,
            redact_key: file.redact_key.clone(),
            checksum: Some(file.checksum.clone()),
            shares: Vec::new(),
            retention: file.retention,
        })
    }

    /// Replaces every key value by its hash, keyed with `key` (see
    /// [`crate::redact::redact_keyed`]): EPKs, counts and sizes were measured before and stay.
    pub fn redact(&mut self, key: &[u8]) {
        self.redact_key = Some(key_fingerprint(key));
        let hide = |label: &str| crate::redact::redact_keyed(label, key);
        for (c, s) in self.candidates.iter().zip(&mut self.stats) {
            // What depends on the values' order is decided on them, before they are hidden.
            s.order
                .get_or_insert_with(|| crate::stats::clock::order(&c.spec, &s.values));
            s.values.redact_labels(&hide);
            s.unplaced.iter_mut().for_each(|v| *v = hide(v));
        }
        self.redacted = true;
    }

    /// The file that gave the share of `fingerprint` (see [`share_fingerprint`]), if one did.
    pub fn share(&self, fingerprint: u64) -> Option<String> {
        (self.shares.iter())
            .find(|(f, _)| *f == fingerprint)
            .map(|(_, name)| name.clone())
    }

    /// Adds everything `other` measured; `name` names `other` in errors. Profiles merge
    /// only when they measured the same candidates with the same settings.
    pub fn merge(&mut self, mut other: Profile, name: &str) -> Result<(), ProfileError> {
        let specs = |p: &Profile| -> Vec<String> {
            let mut v: Vec<String> = p.candidates.iter().map(|c| c.spec.to_string()).collect();
            v.sort();
            v
        };
        if specs(self) != specs(&other) {
            let problem = Incompatible::Candidates {
                theirs: specs(&other).join(" "),
                mine: specs(self).join(" "),
            };
            return Err(incompatible(name, problem));
        }
        if self.time_path != other.time_path || self.seed != other.seed {
            return Err(incompatible(name, Incompatible::Settings));
        }
        if self.retention != other.retention {
            let lives =
                |r: Option<f64>| r.map_or("forever".to_owned(), crate::units::human_duration);
            let problem = Incompatible::Retention {
                theirs: lives(other.retention),
                mine: lives(self.retention),
            };
            return Err(incompatible(name, problem));
        }
        if self.indexing != other.indexing {
            let problem = Incompatible::Indexing {
                theirs: other.indexing,
                mine: self.indexing.clone(),
            };
            return Err(incompatible(name, problem));
        }
        let held = |p: &Profile| match (p.redacted, &p.redact_key) {
            (false, _) => "as they are".to_owned(),
            (true, Some(k)) => format!("hashed with key {k}"),
            (true, None) => "hashed with an unnamed key".to_owned(),
        };
        if (self.redacted, &self.redact_key) != (other.redacted, &other.redact_key) {
            let problem = Incompatible::Redaction {
                theirs: held(&other),
                mine: held(self),
            };
            return Err(incompatible(name, problem));
        }
        // The same candidates, perhaps in another order: match them by key.
        let mut theirs: Vec<Option<CandidateStats>> = other.stats.drain(..).map(Some).collect();
        for (mine, c) in self.stats.iter_mut().zip(&self.candidates) {
            let i = other
                .candidates
                .iter()
                .position(|o| o.spec == c.spec)
                .expect("the same set of keys");
            if let Some(s) = theirs[i].take() {
                mine.merge(s);
            }
        }
        self.documents = self.documents.saturating_add(other.documents);
        self.bytes = self.bytes.saturating_add(other.bytes);
        self.invalid = self.invalid.saturating_add(other.invalid);
        self.untimed = self.untimed.saturating_add(other.untimed);
        self.terms = self.terms.saturating_add(other.terms);
        self.shares.append(&mut other.shares);
        Ok(())
    }
}

fn incompatible(name: &str, problem: Incompatible) -> ProfileError {
    ProfileError::Incompatible {
        file: name.to_owned(),
        problem,
    }
}

/// A profile's whole text, refused early when it does not start as a JSON object and when
/// it is larger than any profile.
fn read_text(input: impl Read) -> Result<Vec<u8>, Invalid> {
    let unreadable = |e: std::io::Error| Invalid::Unreadable(e.to_string());
    let mut input = input.take(MAX_PROFILE_BYTES + 1);
    // A profile is one JSON object: anything else is refused before it is buffered.
    let mut text = vec![0u8; 64];
    let n = read_up_to(&mut input, &mut text).map_err(unreadable)?;
    text.truncate(n);
    if text.iter().find(|b| !b.is_ascii_whitespace()) != Some(&b'{') {
        return Err(Invalid::NotAnObject);
    }
    input.read_to_end(&mut text).map_err(unreadable)?;
    if text.len() as u64 > MAX_PROFILE_BYTES {
        return Err(Invalid::TooLarge);
    }
    Ok(text)
}

/// The format, version, checksum, candidate list and totals of a file.
fn check_header(file: &File) -> Result<(), Invalid> {
    if file.format != FORMAT || file.version != VERSION {
        return Err(Invalid::OtherFormat {
            format: file.format.clone(),
            version: file.version,
        });
    }
    if checksum(&file.signed_text()) != file.checksum {
        return Err(Invalid::Checksum);
    }
    if file.candidates.is_empty() {
        return Err(Invalid::NoCandidates);
    }
    let mut specs: Vec<&str> = file.candidates.iter().map(|c| c.spec.as_str()).collect();
    specs.sort_unstable();
    if let Some(w) = specs.windows(2).find(|w| w[0] == w[1]) {
        return Err(Invalid::Twice(w[0].to_owned()));
    }
    let totals = [file.documents, file.invalid, file.untimed];
    if totals
        .iter()
        .any(|&n| n > crate::stats::PROFILE_MAX_DOCUMENTS)
        || file.bytes > crate::stats::PROFILE_MAX_BYTES
    {
        return Err(Invalid::Totals {
            documents: file.documents,
            bytes: file.bytes,
            invalid: file.invalid,
            untimed: file.untimed,
        });
    }
    if let Some(r) = file.retention.filter(|r| !(r.is_finite() && *r > 0.0)) {
        return Err(Invalid::Retention(r));
    }
    if file.terms > file.bytes {
        return Err(Invalid::Terms {
            terms: file.terms,
            bytes: file.bytes,
        });
    }
    Ok(())
}

/// Each candidate's statistics are well formed and count every document read.
fn check_statistics(
    file: &File,
    candidates: &[Candidate],
    stats: &[CandidateStats],
) -> Result<(), Invalid> {
    if stats.len() != candidates.len() {
        return Err(Invalid::Counts {
            candidates: candidates.len(),
            stats: stats.len(),
        });
    }
    for (c, s) in candidates.iter().zip(stats) {
        s.validate().map_err(|e| Invalid::BadStatistics {
            spec: c.spec.to_string(),
            error: e.to_string(),
        })?;
        if let Some(m) = s.measured.as_ref().filter(|m| **m != c.spec.to_string()) {
            return Err(Invalid::Swapped {
                spec: c.spec.to_string(),
                measured: m.clone(),
            });
        }
        check_epks(c, s, file.redacted)?;
        if s.documents != file.documents || file.untimed > file.documents {
            return Err(Invalid::Documents {
                spec: c.spec.to_string(),
                counted: s.documents,
                documents: file.documents,
            });
        }
    }
    Ok(())
}

/// Each kept value's EPK is one its candidate's definition gives: not empty, 16 bytes a
/// level under Hash V2 and MultiHash, and for a one-path key whose values are not hashed,
/// the EPK of the value itself.
fn check_epks(c: &Candidate, s: &CandidateStats, redacted: bool) -> Result<(), Invalid> {
    let definition = c.definition();
    let one_path = matches!(c.spec.levels(), [crate::key::KeyLevel::Path(_)]);
    let width = (!definition.is_v1()).then(|| 16 * definition.paths().len());
    for v in s.values.sample() {
        let bytes = v.epk.as_bytes();
        let fits = !bytes.is_empty() && width.is_none_or(|w| bytes.len() == w);
        let recomputed = (one_path && !redacted)
            .then(|| crate::engine::PkValue::parse_literal(v.label).ok())
            .flatten()
            .map(|value| definition.epk_unchecked(&[value.as_ref()]));
        if !fits || recomputed.is_some_and(|e| e != v.epk) {
            return Err(Invalid::Epk {
                spec: c.spec.to_string(),
                value: v.label.to_owned(),
                epk: v.epk.to_hex(),
            });
        }
    }
    Ok(())
}

/// The profile file `text` with its checksum made to match its contents: for tests and
/// fuzzing, which change files on purpose. `None` if it is not a profile file.
#[doc(hidden)]
pub fn with_matching_checksum(text: &[u8]) -> Option<Vec<u8>> {
    let mut file: File = serde_json::from_slice(text).ok()?;
    file.checksum = checksum(&file.signed_text());
    serde_json::to_vec(&file).ok()
}

/// Reads the profiles at `paths` (`-`: standard input; `.gz` and `.zst` decompressed) and
/// merges them in order.
pub fn load(paths: &[String]) -> anyhow::Result<Profile> {
    let mut merged: Option<Profile> = None;
    let mut seen: Vec<(String, String)> = Vec::new();
    for path in paths {
        let source = if path == "-" {
            Source::stdin()
        } else {
            Source::file(path)
        };
        let opened = source.open()?;
        let profile = Profile::read(source.name(), opened.reader)?;
        // The same statistics again (the same file, or a copy) would count every document
        // twice; shares that read nothing change nothing.
        let first = (profile.checksum.as_ref().filter(|_| profile.documents > 0))
            .and_then(|c| seen.iter().find(|(k, _)| k == c));
        if let Some((checksum, first)) = first {
            let problem = Incompatible::Twice {
                first: first.clone(),
                checksum: checksum.clone(),
            };
            return Err(incompatible(source.name(), problem).into());
        }
        if let Some(c) = &profile.checksum {
            seen.push((c.clone(), source.name().to_owned()));
        }
        let mut profile = profile;
        if profile.documents > 0 {
            let fingerprint = share_fingerprint(&profile.candidates, &profile.stats);
            let earlier = merged.as_ref().and_then(|m| m.share(fingerprint));
            if let Some(first) = earlier {
                let problem = Incompatible::SameDocuments { first };
                return Err(incompatible(source.name(), problem).into());
            }
            profile.shares.push((fingerprint, source.name().to_owned()));
        }
        match &mut merged {
            None => merged = Some(profile),
            Some(m) => m.merge(profile, source.name())?,
        }
    }
    merged.ok_or_else(|| anyhow::anyhow!("no profile given"))
}

/// Whether the file `source` is a profile (it starts as one does), so that a profile given
/// among the documents is refused instead of being counted as one document lacking every
/// key. Only regular files are looked at: standard input, pipes, FIFOs and readers can be
/// read only once.
pub fn is_profile(source: &Source) -> bool {
    if !source.is_regular_file() {
        return false;
    }
    let Ok(mut opened) = source.open() else {
        return false;
    };
    let mut head = [0u8; 64];
    let n = read_up_to(&mut opened.reader, &mut head).unwrap_or(0);
    let start = format!(r#"{{"format":"{FORMAT}""#);
    head[..n].trim_ascii_start().starts_with(start.as_bytes())
}

/// Reads until `buf` is full or the input ends; the bytes read.
fn read_up_to(input: &mut impl Read, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match input.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(n)
}

/// Writes `profile` to `path` (`-`: standard output), compressed when the name ends in
/// `.gz` or `.zst`, whole or not at all ([`crate::atomic::write`]).
pub fn save(profile: &Profile, path: &str) -> anyhow::Result<()> {
    match path {
        "-" => crate::atomic::write(path, |w| profile.write(w)),
        _ => crate::atomic::write(path, |w| write_compressed(profile, w, path)),
    }
}

fn write_compressed(profile: &Profile, file: &mut dyn Write, path: &str) -> std::io::Result<()> {
    if path.ends_with(".gz") {
        let mut gz = flate2::write::GzEncoder::new(file, flate2::Compression::default());
        profile.write(&mut gz)?;
        gz.finish()?.flush()
    } else if path.ends_with(".zst") {
        let mut zst = zstd::Encoder::new(file, 3)?;
        profile.write(&mut zst)?;
        zst.finish()?.flush()
    } else {
        profile.write(&mut *file)?;
        file.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::PkValueRef;
    use crate::engine::epk::hash_v2;

    fn sample() -> Profile {
        let mut stats = CandidateStats::new(1 << 20, false);
        for i in 0..500i64 {
            let v = format!("tenant-{}", i % 37);
            let c = [PkValueRef::Str(&v)];
            stats.add(&c, &hash_v2(&c), false, 100 + i as u64 % 7, Some(i * 100));
        }
        Profile {
            candidates: vec![Candidate::new(KeySpec::parse("/t").unwrap(), "given")],
            time_path: None,
            seed: 3,
            memory: 1 << 20,
            documents: 500,
            bytes: 51_500,
            invalid: 0,
            untimed: 0,
            stats: vec![stats],
            redacted: false,
            terms: 4_000,
            indexing: crate::indexing::IndexingPolicy::default().rules(),
            redact_key: None,
            checksum: None,
            retention: None,
            shares: Vec::new(),
        }
    }

    /// The file with its statistics changed by `edit` and the checksum made to match.
    fn forged(p: &Profile, edit: impl Fn(&mut serde_json::Value)) -> Vec<u8> {
        let mut out = Vec::new();
        p.write(&mut out).unwrap();
        let mut file: serde_json::Value = serde_json::from_slice(&out).unwrap();
        edit(&mut file["stats"]);
        with_matching_checksum(&serde_json::to_vec(&file).unwrap()).unwrap()
    }

    #[test]
    fn a_profile_of_another_release_is_refused_with_what_to_do() {
        let mut out = Vec::new();
        sample().write(&mut out).unwrap();
        let mut file: serde_json::Value = serde_json::from_slice(&out).unwrap();
        file["version"] = (VERSION - 1).into();
        let old = with_matching_checksum(&serde_json::to_vec(&file).unwrap()).unwrap();
        let err = Profile::read("old.profile", &old[..])
            .unwrap_err()
            .to_string();
        assert!(
            err.contains(&format!("version {}; expected", VERSION - 1)),
            "{err}"
        );
        assert!(err.contains("profile its documents again"), "{err}");
        file["format"] = "something-else".into();
        let other = with_matching_checksum(&serde_json::to_vec(&file).unwrap()).unwrap();
        let err = Profile::read("other.json", &other[..])
            .unwrap_err()
            .to_string();
        assert!(!err.contains("again"), "{err}");
    }

    #[test]
    fn redaction_hashes_labels_by_key_and_keeps_the_rest() {
        let top = |p: &Profile| p.stats[0].values.top(3);
        let plain = sample();
        let (mut a, mut b, mut a2) = (sample(), sample(), sample());
        a.redact(b"one");
        b.redact(b"two");
        a2.redact(b"one");
        let (t, ta, tb) = (top(&plain), top(&a), top(&b));
        assert!(ta.iter().all(|v| v.value.starts_with("\"#")));
        assert_eq!(ta, top(&a2), "the same key gives the same hashes");
        assert_ne!(ta[0].value, tb[0].value, "another key, other hashes");
        let figures = |v: &[crate::stats::TopValue]| -> Vec<(u64, u64)> {
            v.iter().map(|x| (x.docs, x.bytes)).collect()
        };
        assert_eq!(figures(&t), figures(&ta));
        // The flag travels with the file and its checksum.
        let mut out = Vec::new();
        a.write(&mut out).unwrap();
        assert!(Profile::read("p", &out[..]).unwrap().redacted);
    }

    #[test]
    fn a_written_profile_reads_back_whole() {
        let p = sample();
        let mut out = Vec::new();
        p.write(&mut out).unwrap();
        let mut back = Profile::read("p", &out[..]).unwrap();
        assert_eq!(back.candidates, p.candidates);
        assert_eq!((back.seed, back.documents, back.bytes), (3, 500, 51_500));
        let (a, b) = (back.stats.remove(0), p.stats[0].clone());
        assert_eq!(a.values.top(40), b.values.top(40));
        assert_eq!(a.distinct_values(), b.distinct_values());
        assert_eq!(a.histogram(), b.histogram());
        assert_eq!(a.arrival, b.arrival);
    }

    #[test]
    fn a_sampled_profile_with_its_sketch_reads_back() {
        let mut stats = CandidateStats::new(64 * 1024, false);
        for i in 0..60_000i64 {
            let v = format!("id-{i}");
            let c = [PkValueRef::Str(&v)];
            stats.add(&c, &hash_v2(&c), false, 100, Some(i * 100));
        }
        assert!(!stats.values.is_exact() && !stats.distinct.is_exact());
        let mut p = sample();
        p.stats = vec![stats];
        (p.documents, p.bytes) = (60_000, 6_000_000);
        let mut out = Vec::new();
        p.write(&mut out).unwrap();
        let back = Profile::read("p", &out[..]).unwrap();
        assert_eq!(
            back.stats[0].distinct_values(),
            p.stats[0].distinct_values()
        );
        // A sketch in its sparse form, or with a short table, is not one made here.
        for sparse in [true, false] {
            let forged = forged(&p, |s| {
                let sketch = &mut s[0]["distinct"]["Sketch"];
                if sparse {
                    sketch["sparse"] =
                        serde_json::json!({"count": 5, "last": 0, "buf": [255, 255, 255]});
                    sketch["registers"] = serde_json::Value::Null;
                } else {
                    sketch["registers"]["buf"].as_array_mut().unwrap().pop();
                }
            });
            let err = Profile::read("forged", &forged[..]).unwrap_err();
            assert!(err.to_string().contains("not made here"), "{err}");
        }
    }

    #[test]
    fn forged_statistics_are_refused_not_trusted() {
        let p = sample();
        type Edit = fn(&mut serde_json::Value);
        let cases: [(&str, Edit); 6] = [
            ("without its details", |s| {
                let sample = s[0]["values"]["sample"].as_object_mut().unwrap();
                let first = sample.values_mut().next().unwrap();
                first["detail"] = 9_999.into();
            }),
            ("outside the hash space", |s| {
                let sample = s[0]["values"]["sample"].as_object_mut().unwrap();
                sample.values_mut().next().unwrap()["slice"] = 5_000.into();
            }),
            ("slice 2000 of 1024", |s| {
                s[0]["arrival"]["windows"][0][1]["slices"] = serde_json::json!([[2000, 1, 1]]);
            }),
            ("more than the documents", |s| {
                let sample = s[0]["values"]["sample"].as_object_mut().unwrap();
                sample.values_mut().next().unwrap()["bytes"] = u64::MAX.into();
            }),
            ("documents of", |s| s[0]["documents"] = u64::MAX.into()),
            // The admission cells: a row of every cell, or none.
            ("outside the hash space", |s| {
                s[0]["values"]["cells"] = serde_json::json!([1, 2, 3]);
            }),
        ];
        for (want, edit) in cases {
            let text = forged(&p, edit);
            let err = Profile::read("forged.profile", &text[..]).unwrap_err();
            assert!(err.to_string().contains(want), "{want}: {err}");
        }
    }
    #[test]
    fn redaction_records_the_values_order_first() {
        // Values that increase with arrival, times of the clock: hashes of them are neither.
        let mut stats = CandidateStats::new(1 << 20, true);
        for i in 0..200i64 {
            let v = format!("2026-11-{:02}T{:02}:00:00Z", 1 + i / 24, i % 24);
            let c = [PkValueRef::Str(&v)];
            stats.add(
                &c,
                &hash_v2(&c),
                false,
                100,
                Some(1_790_000_000 + i * 3_600),
            );
        }
        let mut p = sample();
        p.candidates = vec![Candidate::new(KeySpec::parse("/ts").unwrap(), "given")];
        p.stats = vec![stats];
        (p.documents, p.bytes) = (200, 20_000);
        let plain = crate::stats::clock::order(&p.candidates[0].spec, &p.stats[0].values);
        assert!(plain.clock_reading && plain.arrival_correlation.unwrap() > 0.99);
        p.redact(b"k");
        let hashed = crate::stats::clock::order(&p.candidates[0].spec, &p.stats[0].values);
        assert!(!hashed.clock_reading, "hashes are no clock");
        assert_eq!(p.stats[0].order, Some(plain));
        let mut out = Vec::new();
        p.write(&mut out).unwrap();
        assert_eq!(
            Profile::read("p", &out[..]).unwrap().stats[0].order,
            Some(plain)
        );
    }

    #[test]
    fn profiles_hashed_with_other_keys_or_none_do_not_merge() {
        let (mut a, mut b, plain) = (sample(), sample(), sample());
        a.redact(b"one");
        b.redact(b"two");
        let err = a.merge(b, "b.profile").unwrap_err().to_string();
        assert!(err.contains("hashed with key"), "{err}");
        let mut a = sample();
        a.redact(b"one");
        let err = a.merge(plain, "plain.profile").unwrap_err().to_string();
        assert!(err.contains("as they are"), "{err}");
        let (mut a, mut a2) = (sample(), sample());
        a.redact(b"one");
        a2.redact(b"one");
        assert!(a.merge(a2, "again").is_ok());
    }

    #[test]
    fn the_same_profile_given_twice_is_refused() {
        let dir = std::env::temp_dir().join(format!("pkadvisor-twice-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let (one, copy) = (dir.join("one.profile"), dir.join("copy.profile"));
        let mut out = Vec::new();
        sample().write(&mut out).unwrap();
        std::fs::write(&one, &out).unwrap();
        std::fs::write(&copy, &out).unwrap();
        let name = |p: &std::path::Path| p.to_string_lossy().into_owned();
        for paths in [[name(&one), name(&one)], [name(&one), name(&copy)]] {
            let err = load(&paths).unwrap_err().to_string();
            assert!(err.contains("one share given twice"), "{err}");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn swapped_candidates_emptied_epks_and_forged_levels_are_refused() {
        let mut p = sample();
        let mut other = p.stats[0].clone();
        other.measured = Some("/u".into());
        p.stats[0].measured = Some("/t".into());
        p.candidates
            .push(Candidate::new(KeySpec::parse("/u").unwrap(), "given"));
        p.stats.push(other);
        let mut out = Vec::new();
        p.write(&mut out).unwrap();
        assert!(Profile::read("p", &out[..]).is_ok());
        let mut file: serde_json::Value = serde_json::from_slice(&out).unwrap();
        file["candidates"].as_array_mut().unwrap().swap(0, 1);
        let swapped = with_matching_checksum(&serde_json::to_vec(&file).unwrap()).unwrap();
        let err = Profile::read("swapped", &swapped[..])
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("candidate /u is paired with the statistics of /t"),
            "{err}"
        );
        type Edit = fn(&mut serde_json::Value);
        let cases: [(&str, Edit); 3] = [
            ("has EPK \"\"", |s| {
                s[0]["values"]["details"][0]["epk"] = "".into()
            }),
            ("not one /t gives", |s| {
                s[0]["values"]["details"][0]["epk"] = "00000000000000000000000000000001".into();
            }),
            ("sampling level 40", |s| s[0]["values"]["level"] = 40.into()),
        ];
        for (want, edit) in cases {
            let text = forged(&sample(), edit);
            let err = Profile::read("forged.profile", &text[..]).unwrap_err();
            assert!(err.to_string().contains(want), "{want}: {err}");
        }
    }

    #[test]
    fn a_sampling_level_its_values_cannot_have_is_refused() {
        // 500 documents counted exactly, relabelled level 1: half the values are ones
        // level 1 would not keep.
        let text = forged(&sample(), |s| s[0]["values"]["level"] = 1.into());
        let err = Profile::read("forged.profile", &text[..]).unwrap_err();
        assert!(err.to_string().contains("level 1 would not keep"), "{err}");
        // Without them, the histogram kept only once sampling starts is empty: projected
        // from it, the values were once scaled by 10^12 and split for ever.
        let text = forged(&sample(), |s| {
            s[0]["values"]["level"] = 1.into();
            let kept = s[0]["values"]["sample"].as_object_mut().unwrap();
            kept.retain(|hash, _| hash.parse::<u64>().unwrap() % 2 == 0);
            assert!(!kept.is_empty());
        });
        let err = Profile::read("forged.profile", &text[..]).unwrap_err();
        assert!(
            err.to_string().contains("more than their histogram"),
            "{err}"
        );
    }
}
