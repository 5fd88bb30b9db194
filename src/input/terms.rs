//! Indexed terms per document: the scalar values (each array element one) the container's
//! indexing policy indexes, counted on the parsed tape. Under a policy that indexes every
//! path, the count is the tape's size less its objects, arrays and member names (and a
//! top-level `_etag`); under another, a walk keeps the path of each value and asks the
//! policy.

use simd_json::Node;

use crate::indexing::IndexingPolicy;

/// The terms `policy` indexes in the document whose tape (its root an object) is `tape`.
pub(crate) fn count(tape: &[Node<'_>], policy: &IndexingPolicy) -> u32 {
    if policy.is_off() {
        return 0;
    }
    let values = match policy.is_everything() {
        true => every_value(tape),
        false => walk(tape, policy),
    };
    values.saturating_add(policy.extra_terms())
}

/// Every scalar value but a top-level `_etag`.
fn every_value(tape: &[Node<'_>]) -> u32 {
    let (mut containers, mut names) = (0usize, 0usize);
    for n in tape {
        match n {
            Node::Object { len, .. } => {
                containers += 1;
                names += len;
            }
            Node::Array { .. } => containers += 1,
            _ => {}
        }
    }
    let values = tape.len().saturating_sub(containers + names);
    (values - usize::from(etag_is_scalar(tape))) as u32
}

/// Whether the root object holds a scalar `_etag` (the default policy excludes it).
fn etag_is_scalar(tape: &[Node<'_>]) -> bool {
    let Some(Node::Object { len, .. }) = tape.first() else {
        return false;
    };
    let mut i = 1;
    for _ in 0..*len {
        let value = tape.get(i + 1);
        if let (Some(Node::String("_etag")), Some(Node::String(_) | Node::Static(_))) =
            (tape.get(i), value)
        {
            return true;
        }
        i += 1 + value.map_or(1, size);
    }
    false
}

/// Tape nodes taken by a value, itself included.
fn size(n: &Node<'_>) -> usize {
    match n {
        Node::Object { count, .. } | Node::Array { count, .. } => count + 1,
        _ => 1,
    }
}

/// Every scalar value whose path `policy` indexes, walked without recursion (nesting is
/// bounded by the reader's depth limit, not by the stack).
fn walk(tape: &[Node<'_>], policy: &IndexingPolicy) -> u32 {
    let Some(Node::Object { len, .. }) = tape.first() else {
        return 0;
    };
    let mut path: Vec<&str> = Vec::new();
    // Open containers: whether an object, and members or elements left.
    let mut open: Vec<(bool, usize)> = vec![(true, *len)];
    let (mut i, mut terms) = (1usize, 0u32);
    while let Some(top) = open.last_mut() {
        if top.1 == 0 {
            open.pop();
            if !open.is_empty() {
                path.pop();
            }
            continue;
        }
        top.1 -= 1;
        if top.0 {
            let Some(Node::String(name)) = tape.get(i) else {
                return terms;
            };
            path.push(name);
            i += 1;
        } else {
            path.push("[]");
        }
        match tape.get(i) {
            Some(Node::Object { len, .. }) => open.push((true, *len)),
            Some(Node::Array { len, .. }) => open.push((false, *len)),
            Some(_) => {
                terms += u32::from(policy.indexes(&path));
                path.pop();
            }
            None => return terms,
        }
        i += 1;
    }
    terms
}

#[cfg(test)]
mod tests {
    use super::*;

    fn terms(doc: &str, policy: &IndexingPolicy) -> u32 {
        let mut bytes = doc.as_bytes().to_vec();
        let tape = simd_json::to_tape(&mut bytes).unwrap();
        count(&tape.0, policy)
    }

    /// The walk's count, whatever the policy.
    fn walked(doc: &str, policy: &IndexingPolicy) -> u32 {
        let mut bytes = doc.as_bytes().to_vec();
        let tape = simd_json::to_tape(&mut bytes).unwrap();
        walk(&tape.0, policy)
    }

    #[test]
    fn every_scalar_and_array_element_is_a_term_by_default() {
        let doc = r#"{"id":"a","n":1,"o":{"x":true,"y":null,"e":{}},"t":[1,2,[3]],"_etag":"q"}"#;
        let all = IndexingPolicy::default();
        // id, n, o.x, o.y, t[0], t[1], t[2][0]: seven; _etag is excluded.
        assert_eq!(terms(doc, &all), 7);
        // The walk agrees with the count.
        assert_eq!(walked(doc, &all), 7);
    }

    #[test]
    fn a_policy_counts_only_its_paths() {
        let policy = IndexingPolicy::from_json(
            &serde_json::json!({
                "includedPaths": [{"path": "/o/*"}, {"path": "/t/[]/?"}],
                "excludedPaths": [{"path": "/*"}],
                "compositeIndexes": [[{"path": "/a"}, {"path": "/b"}]]
            }),
            "p",
        )
        .unwrap();
        let doc = r#"{"id":"a","o":{"x":1,"y":{"z":2}},"t":[1,2,[3]]}"#;
        // o.x, o.y.z, t[0], t[1] (t[2][0] is /t/[]/[]), and the composite index.
        assert_eq!(terms(doc, &policy), 5);
        let off = IndexingPolicy::from_json(&serde_json::json!({"indexingMode": "none"}), "p");
        assert_eq!(terms(doc, &off.unwrap()), 0);
    }
}
