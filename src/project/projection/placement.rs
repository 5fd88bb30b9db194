//! The placement of the sample's values and of the new data on the partition engine: at
//! their own EPKs, inside their prefix's range, or spread like the sample, in chunks.

use super::*;

/// A new value of the log's placed as a value of its own (see
/// [`crate::project::newcomers::Newcomers::values`]): its share of the new values' bytes (of a
/// hierarchical key, of the new first levels'), at the target.
pub(super) struct Carried<'t> {
    pub(super) epk: &'t Epk,
    pub(super) label: &'t str,
    pub(super) bytes: f64,
    /// The bytes it gains for each sample's worth the container grows: it takes a fixed
    /// share of the new data.
    pub(super) per_sample: f64,
}

/// The log's new values placed on their own, when values are counted exactly, new values
/// hash where their key says (not a layout's), the key is not one of periods (a session
/// of the log's hour stands for none of those to come) and the container grows.
pub(super) fn carried<'t>(
    time: &'t Time,
    stats: &CandidateStats,
    (carriers, g): (&[Carrier<'_>], &Growth),
    (scale, hierarchical, new): (f64, bool, NewValues),
) -> Vec<Carried<'t>> {
    let Some(n) = time.newcomers.as_ref() else {
        return Vec::new();
    };
    if new != NewValues::Anywhere || !stats.values.is_exact() || g.periodic || scale <= 1.0 {
        return Vec::new();
    }
    // The mass their shares are of: all new values' of a single-level key; of a
    // hierarchical one, the new first levels'.
    let mass: f64 = (carriers.iter())
        .map(|c| match parent(&c.epk, hierarchical) {
            Some(_) => c.bytes * g.unseen_per_byte * g.new_firsts,
            None => c.bytes * g.unseen_per_byte,
        })
        .sum();
    // A log of every request of a share of the values writes each value at its own rate,
    // not 1 / share times it: a new value takes its rate × the time to the target.
    let exact = match time.log {
        LogKind::Values => time.log_share.clamp(f64::MIN_POSITIVE, 1.0),
        LogKind::Requests => 1.0,
    };
    (n.values.iter())
        .map(|v| Carried {
            epk: &v.epk,
            label: &v.label,
            bytes: v.share * mass * exact,
            per_sample: v.share * mass * exact / (scale - 1.0),
        })
        .collect()
}

/// The largest logical partition never exceeds this many bytes in one placed chunk.
pub(super) const CHUNK: f64 = GB as f64;

/// How much the bytes placed for each carrier grow, grouped as `new` places new values.
pub(super) fn placed(
    carriers: &[Carrier<'_>],
    g: &Growth,
    new: NewValues,
    container: &Container,
    hierarchical: bool,
) -> Vec<f64> {
    match new {
        NewValues::LikeSample => {
            let routes: Vec<usize> = carriers.iter().map(|c| container.route(&c.epk)).collect();
            placed_growth(carriers, g, &routes)
        }
        NewValues::Anywhere => {
            let parents: Vec<_> = carriers
                .iter()
                .map(|c| parent(&c.epk, hierarchical))
                .collect();
            placed_growth(carriers, g, &parents)
        }
    }
}

/// Spreads `mass` bytes over slice `bucket` of the hash space in chunks of at most 1 GB.
pub(super) fn place_chunks(c: &mut Container, bucket: usize, mass: f64, avg_doc: f64, v1: bool) {
    let pieces = pieces(mass);
    for j in 0..pieces {
        let f = (bucket as f64 + (j as f64 + 0.5) / pieces as f64) / BUCKETS as f64;
        insert_piece(c, boundary_at(f, v1), mass / pieces as f64, avg_doc);
    }
}

/// Spreads `mass` bytes over the partitions of `c` in proportion to the carriers' bytes in
/// each partition still written to (all of them when none is), over each one's range, in
/// chunks of at most 1 GB (evenly when carriers hold nothing). For a container of equal
/// fixed ranges (a layout's collections): a collection is closed as a value is, judged on
/// the arrivals of all its values (a past quarter of unique timestamps is closed though no
/// timestamp repeats).
pub(super) fn place_like_sample(
    c: &mut Container,
    carriers: &[Carrier<'_>],
    arrivals: &Arrivals,
    mass: f64,
    avg_doc: f64,
) {
    let n = c.partitions().len();
    let mut groups = vec![(0.0, 0u64, Span::at(None)); n];
    for carrier in carriers {
        let g = &mut groups[c.route(&carrier.epk)];
        g.0 += carrier.bytes;
        g.1 += carrier.count;
        g.2 = g.2.union(carrier.span);
    }
    let open: Vec<bool> = (groups.iter())
        .map(|g| g.0 > 0.0 && !arrivals.is_closed_span(g.2, g.1))
        .collect();
    let any_open = open.iter().any(|o| *o);
    let weights: Vec<f64> = (groups.iter().zip(&open))
        .map(|(g, o)| if *o || !any_open { g.0 } else { 0.0 })
        .collect();
    let total: f64 = weights.iter().sum();
    for (i, w) in weights.into_iter().enumerate() {
        let share = if total > 0.0 {
            w / total
        } else {
            1.0 / n as f64
        };
        let pieces = pieces(mass * share);
        for j in 0..pieces {
            let f = (j as f64 + 0.5) / pieces as f64;
            let epk = crate::engine::epk::within(i, n, f, j as u64);
            insert_piece(c, epk, mass * share / pieces as f64, avg_doc);
        }
    }
}

/// Spreads `mass` bytes of new values under a hierarchical `prefix` over its EPK range, by
/// their last level's hash, in chunks of at most 1 GB.
pub(super) fn place_in_prefix(c: &mut Container, prefix: &[u8], mass: f64, avg_doc: f64) {
    let pieces = pieces(mass);
    let mut epk = Vec::with_capacity(prefix.len() + 16);
    for j in 0..pieces {
        let f = (j as f64 + 0.5) / pieces as f64;
        epk.clear();
        epk.extend_from_slice(prefix);
        epk.extend_from_slice(boundary_at(f, false).as_bytes());
        insert_piece(c, Epk::from_bytes(&epk), mass / pieces as f64, avg_doc);
    }
}

/// Places each of `heavy`'s shares of `mass` inside its prefix's range (see
/// [`place_in_prefix`]); returns what is left for anywhere.
pub(super) fn place_at_prefixes(
    c: &mut Container,
    heavy: &[(Vec<u8>, f64)],
    mass: f64,
    avg_doc: f64,
) -> f64 {
    for (prefix, share) in heavy {
        place_in_prefix(c, prefix, mass * share, avg_doc);
    }
    let placed: f64 = heavy.iter().map(|h| h.1).sum();
    mass * (1.0 - placed).max(0.0)
}

/// Inserts each carrier grown by `grows`; returns the new values' bytes (with what each
/// carrier's bound holds back) per parent prefix of a hierarchical key, over the whole
/// space, and of new first levels.
pub(super) fn place_carriers<'c>(
    container: &mut Container,
    carriers: &'c [Carrier<'_>],
    (grows, held_back): (&[f64], &[f64]),
    g: &Growth,
    hierarchical: bool,
) -> (BTreeMap<&'c [u8], f64>, f64, f64) {
    let mut parents: BTreeMap<&[u8], f64> = BTreeMap::new();
    let (mut anywhere, mut new_firsts) = (0.0, 0.0);
    for ((c, &grow), lost) in carriers.iter().zip(grows).zip(held_back) {
        let items = (c.docs * grow).round().max(1.0) as u64;
        container.insert_unsplit(c.epk.clone(), (c.bytes * grow).round() as u64, items);
        let new = c.bytes * g.unseen_per_byte;
        match parent(&c.epk, hierarchical) {
            Some(p) => {
                *parents.entry(p).or_default() += new * (1.0 - g.new_firsts) + lost;
                new_firsts += new * g.new_firsts;
            }
            None => anywhere += new + lost,
        }
    }
    (parents, anywhere, new_firsts)
}

/// Places the log's new first levels at their prefixes and its large new values at their
/// own EPKs (see [`carried`]), out of `new_firsts` (the new first levels' bytes) and
/// `anywhere` (the other new values'); returns those values and what is left of
/// `anywhere`. Only while the values are counted exactly: sampled, a known first level may
/// look new.
pub(super) fn place_log_news<'t>(
    container: &mut Container,
    (stats, time): (&CandidateStats, &'t Time),
    (carriers, g): (&[Carrier<'_>], &Growth),
    (scale, hierarchical, new, avg_doc): (f64, bool, NewValues, f64),
    (anywhere, new_firsts): (f64, f64),
) -> (Vec<Carried<'t>>, f64) {
    let heavy = (time.newcomers.as_ref())
        .filter(|_| hierarchical && stats.values.is_exact())
        .map_or(&[][..], |n| &n.heavy_firsts[..]);
    // The values' bytes come out of the new values' (of a hierarchical key, out of their
    // prefix's).
    let named = carried(time, stats, (carriers, g), (scale, hierarchical, new));
    let heavy = prefixes_less(heavy, &named, new_firsts);
    let mut anywhere = anywhere + place_at_prefixes(container, &heavy, new_firsts, avg_doc);
    for v in &named {
        insert_piece(container, v.epk.clone(), v.bytes, avg_doc);
    }
    anywhere = (anywhere - named.iter().map(|v| v.bytes).sum::<f64>()).max(0.0);
    (named, anywhere)
}

/// The shares of `heavy` (new first levels) less the bytes of `values` of the same first
/// level, out of `mass`.
pub(super) fn prefixes_less(
    heavy: &[(Vec<u8>, f64)],
    values: &[Carried<'_>],
    mass: f64,
) -> Vec<(Vec<u8>, f64)> {
    let mut out = heavy.to_vec();
    for v in values.iter().filter(|_| mass > 0.0) {
        let first = crate::project::newcomers::first_level(v.epk.as_bytes());
        if let Some(h) = out.iter_mut().find(|h| h.0 == first) {
            h.1 = (h.1 - v.bytes / mass).max(0.0);
        }
    }
    out
}

/// Chunks of at most 1 GB for `mass` bytes (none below a byte; at most 256).
pub(super) fn pieces(mass: f64) -> usize {
    if mass < 1.0 {
        return 0;
    }
    (mass / CHUNK).ceil().clamp(1.0, 256.0) as usize
}

pub(super) fn insert_piece(c: &mut Container, epk: Epk, bytes: f64, avg_doc: f64) {
    let items = (bytes / avg_doc).round().max(1.0) as u64;
    c.insert_unsplit(epk, bytes.round() as u64, items);
}
