//! What to do about a finding: one sentence a code, and the best-ranked candidate that does
//! not raise it. The recommendation explains its own key's warnings with them, so a user
//! who accepts it knows what to watch and what would remove each warning.

use super::model::{CandidateReport, FindingCode, Report, Severity};

/// What to do about `code`, in one sentence.
pub fn what_to_do(code: FindingCode) -> &'static str {
    use FindingCode::*;
    match code {
        LogicalPartitionLimit => {
            "add a level that splits the largest values (a hierarchical key), or a hash suffix; a TTL or retention stops values growing"
        }
        LogicalPartitionThroughput => {
            "spread the busiest value's writes with a second level or a hash suffix: no provisioning gives one value more than 10,000 RU/s"
        }
        InvalidKeyValue => {
            "give every document a string, number, boolean or null at the key path; ids must be unique when the key is /id"
        }
        KeyTooLong => {
            "declare the container with partition key version 2 (large keys) for values over 101 bytes; hash values over 2,048 bytes"
        }
        MissingKey => {
            "set the key on every document before it is written: documents without it share one logical partition"
        }
        LowCardinality => {
            "few values cap how far the container spreads: add a second level before the data outgrows them"
        }
        HotPartition => {
            "spread the hot values with a second level or a suffix; `--explain KEY` shows which values share the hot partition"
        }
        WriteHotspot => {
            "lead with a value that differs between writers arriving together (tenant, device, user), or add a hash suffix"
        }
        FanOutQueries => {
            "filter those queries by the key (or its first level), or serve them from a global secondary index keyed by their filter"
        }
        UnsafeNumber => {
            "store such numbers as strings: beyond 2^53 they lose digits and hash as another value"
        }
        KeyUpdated => {
            "key on a property set at creation that never changes: a move is a read, a delete and a create, not atomic"
        }
        CrossPartitionTransaction => {
            "choose a key the batch's items share: a transactional batch stays within one logical partition"
        }
        ExcessRu => "weigh the cheaper candidates' findings before paying for this one",
        ThroughputShortfall => {
            "provision the RU/s the key needs (`--throughput` states what is planned), or lower the peak"
        }
        MonotonicKey => {
            "nothing while writes of one value are few; a hash suffix if they come in bursts"
        }
        CollectionLimit => "give the layout more or larger collections",
        UnmappedValue => "map every value the documents hold (or add a \"*\" entry)",
    }
}

/// One explained warning of the recommended key.
#[derive(Clone, Debug, PartialEq)]
pub struct Explained {
    /// The finding's code.
    pub code: FindingCode,
    /// Its message.
    pub message: String,
    /// What to do.
    pub what_to_do: &'static str,
    /// The best-ranked candidate without violations that does not raise it, and its score.
    pub avoided_by: Option<(String, f64)>,
}

/// The recommended key's warnings (violations too, should it have any), each with what to
/// do and the best-ranked clean candidate that avoids it; empty without a recommendation.
pub fn recommended_warnings(report: &Report) -> Vec<Explained> {
    let Some(rec) = &report.recommendation else {
        return Vec::new();
    };
    let Some(c) = report.candidates.iter().find(|c| c.key.spec == rec.spec) else {
        return Vec::new();
    };
    let clean = |o: &&CandidateReport| o.key.spec != c.key.spec && !o.has_violation();
    (c.findings.iter())
        .filter(|f| f.severity != Severity::Info)
        .map(|f| Explained {
            code: f.code,
            message: f.message.clone(),
            what_to_do: what_to_do(f.code),
            avoided_by: (report.candidates.iter())
                .filter(clean)
                .find(|o| !o.findings.iter().any(|g| g.code == f.code))
                .map(|o| (o.key.spec.clone(), o.score)),
        })
        .collect()
}

impl Explained {
    /// The explanation in one paragraph: the code, the message, what to do and which
    /// candidate avoids it.
    pub fn sentence(&self) -> String {
        let avoided = match &self.avoided_by {
            Some((spec, score)) => format!(" ({spec}, score {score:.1}, has none.)"),
            None => " (No candidate without violations avoids it.)".to_owned(),
        };
        format!(
            "{}: {}. What to do: {}.{avoided}",
            self.code,
            self.message.trim_end_matches('.'),
            self.what_to_do
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_code_says_what_to_do() {
        for code in FindingCode::ALL {
            let s = what_to_do(code);
            assert!(s.len() > 20 && !s.ends_with('.'), "{code}: {s:?}");
        }
    }
}
