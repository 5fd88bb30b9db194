//! Extraction of the requested paths from a parsed document: one walk over the simd-json
//! tape against a trie of the paths, skipping every value no path goes through in O(1) (the
//! tape records each container's size).
//!
//! A property that appears twice in one object counts once, with its last value, as
//! `JSON.parse` and serde_json have it.

use simd_json::{Node, StaticNode};

mod skim;

use crate::engine::{KeyPath, PkValueRef};
use crate::field::Field;

/// The requested paths, merged into a trie of property names.
pub(crate) struct PathTrie {
    nodes: Vec<TrieNode>,
    paths: usize,
    /// Unique to this trie: scratch [`Visits`] made for another start over.
    id: u64,
}

/// The next trie's [`PathTrie::id`] (0 is no trie's).
static TRIES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

#[derive(Default)]
struct TrieNode {
    children: Vec<Child>,
    /// Open-addressed hash table over `children`: index + 1, or 0 for an empty slot.
    slots: Vec<u32>,
    /// Indices of the paths that end here.
    targets: Vec<usize>,
    /// Indices of the paths that end here or below.
    below: Vec<usize>,
}

/// A property name under a trie node, found by hashing its length and first 16 bytes,
/// then compared by those (one integer comparison for most names) and the rest.
struct Child {
    head: u128,
    name: Box<[u8]>,
    node: usize,
}

impl TrieNode {
    /// Builds the hash table, at most half full.
    fn index(&mut self) {
        let size = (2 * self.children.len()).next_power_of_two().max(2);
        self.slots = vec![0; size];
        for (k, c) in self.children.iter().enumerate() {
            let mut at = slot(c.head, c.name.len(), size);
            while self.slots[at] != 0 {
                at = (at + 1) & (size - 1);
            }
            self.slots[at] = k as u32 + 1;
        }
    }

    /// The trie node for property `key`, whose [`head`] is `h`.
    fn find(&self, key: &[u8], h: u128) -> Option<usize> {
        let l = key.len();
        let mask = self.slots.len() - 1;
        let mut at = slot(h, l, self.slots.len());
        loop {
            let c = self
                .children
                .get((*self.slots.get(at)? as usize).checked_sub(1)?)?;
            if c.head == h && c.name.len() == l && (l <= 16 || c.name[16..] == key[16..]) {
                return Some(c.node);
            }
            at = (at + 1) & mask;
        }
    }
}

/// The home slot of a name in a table of `size` (a power of two) slots.
fn slot(head: u128, len: usize, size: usize) -> usize {
    let x = (head as u64) ^ ((head >> 64) as u64).rotate_left(29) ^ len as u64;
    let bits = size.trailing_zeros();
    (x.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - bits)) as usize
}

/// The first 16 bytes of a name, zero-padded, as one integer. Built from two overlapping
/// fixed-size loads (the second shifted to drop the overlap): no byte loop, no copy
/// through memory, which would stall the load that follows it.
fn head(k: &[u8]) -> u128 {
    let n = k.len();
    if n >= 16 {
        return u128::from_le_bytes(k[..16].try_into().expect("16 bytes"));
    }
    let (lo, hi, half) = match n {
        8..16 => (le::<8>(k, 0), le::<8>(k, n - 8), 8),
        4..8 => (le::<4>(k, 0), le::<4>(k, n - 4), 4),
        2..4 => (le::<2>(k, 0), le::<2>(k, n - 2), 2),
        1 => return u128::from(k[0]),
        _ => return 0,
    };
    // `hi` holds bytes n-half..n; keep the n-half of them past the first `half`.
    let hi = hi.checked_shr(8 * (2 * half - n) as u32).unwrap_or(0);
    u128::from(lo) | u128::from(hi) << (8 * half)
}

/// The [`head`] of the `len` bytes of `text` from `at`, read in one load when sixteen
/// bytes lie there (most names in a document's text).
#[inline(always)]
fn head_in(text: &[u8], at: usize, len: usize) -> u128 {
    match text.get(at..at + 16) {
        Some(block) => {
            let all = u128::from_le_bytes(block.try_into().expect("16 bytes"));
            let keep = 1u128
                .checked_shl(8 * len as u32)
                .map_or(u128::MAX, |b| b - 1);
            all & keep
        }
        None => head(&text[at..at + len]),
    }
}

/// `N` bytes of `k` from `at`, little-endian.
fn le<const N: usize>(k: &[u8], at: usize) -> u64 {
    let mut b = [0u8; 8];
    b[..N].copy_from_slice(&k[at..at + N]);
    u64::from_le_bytes(b)
}

/// Per-worker scratch: which trie nodes the current document has visited.
#[derive(Default)]
pub(crate) struct Visits {
    /// The trie the rest belongs to ([`PathTrie::id`]).
    trie: u64,
    stamp: Vec<u64>,
    /// Per trie node, the names of the first [`REMEMBERED`] members of the last object
    /// walked there and where each led: documents of one source mostly repeat their
    /// members in one order, and a name that matches its place's needs no lookup.
    seen: Vec<Vec<Seen>>,
    doc: u64,
    /// Fields (of the first 64) whose integer literal lies beyond ±2^53 (see
    /// [`crate::input::Document::beyond_2_53`]).
    pub beyond: u64,
}

impl PathTrie {
    /// The trie of `paths`; path `i` fills field `i`.
    pub fn new(paths: &[KeyPath]) -> Self {
        let mut nodes = vec![TrieNode::default()];
        for (i, path) in paths.iter().enumerate() {
            let mut n = 0;
            nodes[0].below.push(i);
            for seg in path.segments() {
                let seg = seg.as_bytes();
                n = match nodes[n].children.iter().find(|c| *c.name == *seg) {
                    Some(c) => c.node,
                    None => {
                        nodes.push(TrieNode::default());
                        let node = nodes.len() - 1;
                        nodes[n].children.push(Child {
                            head: head(seg),
                            name: seg.into(),
                            node,
                        });
                        node
                    }
                };
                nodes[n].below.push(i);
            }
            nodes[n].targets.push(i);
        }
        nodes.iter_mut().for_each(TrieNode::index);
        PathTrie {
            nodes,
            paths: paths.len(),
            id: TRIES.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
        }
    }

    /// Fills `fields` (one per path) from a tape whose root is an object.
    pub fn extract<'a>(&self, tape: &[Node<'a>], fields: &mut Vec<Field<'a>>, v: &mut Visits) {
        fields.clear();
        fields.resize(self.paths, Field::Missing);
        self.start(v);
        self.object(0, tape, 0, fields, v);
    }

    /// Readies the scratch `v` for a new document.
    fn start(&self, v: &mut Visits) {
        if v.trie != self.id {
            v.stamp = vec![0; self.nodes.len()];
            v.seen = vec![Vec::new(); self.nodes.len()];
            v.trie = self.id;
        }
        v.doc += 1;
        v.beyond = 0;
    }

    /// Walks the members of the object at `tape[at]` under trie node `n`.
    fn object<'a>(
        &self,
        n: usize,
        tape: &[Node<'a>],
        at: usize,
        fields: &mut [Field<'a>],
        v: &mut Visits,
    ) {
        let Some(Node::Object { len, .. }) = tape.get(at) else {
            return;
        };
        let mut i = at + 1;
        for k in 0..*len {
            let value = i + 1;
            if let Some(Node::String(key)) = tape.get(i)
                && let Some(child) = self.member(n, k, key.as_bytes(), v)
            {
                self.visit(child, tape, value, fields, v);
            }
            i = value + tape.get(value).map_or(1, node_size);
        }
    }

    /// The trie node under node `n` for member `k`'s name `key`: where the member at
    /// that place led last time when the names match, else looked up (and remembered).
    /// The first is most members of most documents, and always inlined: left to the
    /// compiler, whether it was depended on how the crate fell into codegen units, and
    /// a call cost the walk a fifth more instructions.
    #[inline(always)]
    fn member(&self, n: usize, k: usize, key: &[u8], v: &mut Visits) -> Option<usize> {
        self.member_headed(n, k, key, head(key), v)
    }

    /// [`member`](Self::member) given the name's [`head`] `h`.
    #[inline(always)]
    fn member_headed(
        &self,
        n: usize,
        k: usize,
        key: &[u8],
        h: u128,
        v: &mut Visits,
    ) -> Option<usize> {
        if key.len() <= 16
            && let Some(s) = v.seen[n].get(k)
            && s.head == h
            && s.len as usize == key.len()
        {
            return (s.node as usize).checked_sub(1);
        }
        self.look_up(n, k, key, h, v)
    }

    /// [`member`](Self::member) for a name not seen at its place: found in the node's
    /// children, and remembered.
    #[inline(never)]
    fn look_up(&self, n: usize, k: usize, key: &[u8], h: u128, v: &mut Visits) -> Option<usize> {
        let short = key.len() <= 16;
        let seen = &mut v.seen[n];
        let found = self.nodes[n].find(key, h);
        if short && k < REMEMBERED {
            if seen.len() <= k {
                seen.resize(k + 1, UNSEEN);
            }
            let node = found.map_or(0, |c| c as u32 + 1);
            seen[k] = Seen {
                head: h,
                len: key.len() as u32,
                node,
            };
        }
        found
    }

    fn visit<'a>(
        &self,
        n: usize,
        tape: &[Node<'a>],
        at: usize,
        fields: &mut [Field<'a>],
        v: &mut Visits,
    ) {
        let node = &self.nodes[n];
        if v.stamp[n] == v.doc {
            // A repeated property: the last occurrence wins, whole.
            for &t in &node.below {
                fields[t] = Field::Missing;
                v.beyond &= !bit(t);
            }
        }
        v.stamp[n] = v.doc;
        if !node.targets.is_empty() {
            let f = tape.get(at).map_or(Field::Missing, field);
            let beyond = tape.get(at).is_some_and(integer_beyond_2_53);
            assign(&node.targets, f, beyond, fields, v);
        }
        if !node.children.is_empty() {
            self.object(n, tape, at, fields, v);
        }
    }
}

/// Members remembered per trie node (see [`Visits::seen`]): a bound, whatever an object
/// holds.
const REMEMBERED: usize = 64;

/// A member name remembered (its [`head`] and length, names of up to 16 bytes only) and the
/// trie node it led to.
#[derive(Clone, Copy)]
struct Seen {
    head: u128,
    /// `u32::MAX` for a place not yet seen (no name is that long).
    len: u32,
    /// The trie node + 1; 0: none (a member no path goes through).
    node: u32,
}

const UNSEEN: Seen = Seen {
    head: 0,
    len: u32::MAX,
    node: 0,
};

/// Gives the fields `targets` (the paths ending at one node) the value `f`, and their bits
/// in [`Visits::beyond`] whether it is an integer beyond ±2^53.
fn assign<'a>(
    targets: &[usize],
    f: Field<'a>,
    beyond: bool,
    fields: &mut [Field<'a>],
    v: &mut Visits,
) {
    for &t in targets {
        fields[t] = f;
        v.beyond = if beyond {
            v.beyond | bit(t)
        } else {
            v.beyond & !bit(t)
        };
    }
}

/// Field `t`'s bit in [`Visits::beyond`] (none past the first 64 fields).
fn bit(t: usize) -> u64 {
    1u64.checked_shl(t as u32).unwrap_or(0)
}

/// Whether the value is an integer literal beyond ±2^53: its double may be exactly ±2^53
/// (`9007199254740993` reads as 9007199254740992), so only the literal tells it unsafe.
fn integer_beyond_2_53(n: &Node<'_>) -> bool {
    const LIMIT: u64 = 1 << 53;
    match n {
        Node::Static(StaticNode::U64(u)) => *u > LIMIT,
        Node::Static(StaticNode::I64(i)) => i.unsigned_abs() > LIMIT,
        _ => false,
    }
}

/// Tape nodes taken by a value, itself included.
fn node_size(n: &Node<'_>) -> usize {
    match n {
        Node::Object { count, .. } | Node::Array { count, .. } => count + 1,
        _ => 1,
    }
}

/// The field a tape value gives. Integers convert to doubles as the SDKs do (`-0` is
/// `+0.0`); floats keep their sign.
fn field<'a>(n: &Node<'a>) -> Field<'a> {
    match *n {
        Node::String(s) => Field::Scalar(PkValueRef::Str(s)),
        Node::Object { .. } => Field::Object,
        Node::Array { .. } => Field::Array,
        Node::Static(s) => Field::Scalar(scalar(s)),
    }
}

#[allow(unreachable_patterns)] // 128-bit variants exist when a dependency enables them
fn scalar<'a>(s: StaticNode) -> PkValueRef<'a> {
    match s {
        StaticNode::Null => PkValueRef::Null,
        StaticNode::Bool(b) => PkValueRef::Bool(b),
        StaticNode::I64(i) => PkValueRef::Number(i as f64),
        StaticNode::U64(u) => PkValueRef::Number(u as f64),
        StaticNode::F64(f) => PkValueRef::Number(f),
        _ => PkValueRef::Number(f64::NAN),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn trie(paths: &[&str]) -> PathTrie {
        let paths: Vec<KeyPath> = paths.iter().map(|p| KeyPath::parse(p).unwrap()).collect();
        PathTrie::new(&paths)
    }

    /// The fields `trie` gives `doc`, walked with the scratch `v`.
    fn walk(trie: &PathTrie, doc: &str, v: &mut Visits) -> Vec<String> {
        let mut bytes = doc.as_bytes().to_vec();
        let tape = simd_json::to_tape(&mut bytes).unwrap();
        let mut fields = Vec::new();
        trie.extract(&tape.0, &mut fields, v);
        fields.iter().map(|f| format!("{f:?}")).collect()
    }

    fn extract(doc: &str, paths: &[&str]) -> Vec<String> {
        walk(&trie(paths), doc, &mut Visits::default())
    }

    /// Members are matched by their place in the last object first: documents whose
    /// members move, change, repeat or run long give what a fresh walk gives.
    #[test]
    fn remembered_member_places_never_change_what_is_found() {
        let long = "a_property_name_longer_than_16";
        let many: String = (0..100).map(|i| format!(r#""m{i}":{i},"#)).collect();
        let docs = [
            r#"{"a":1,"b":{"c":2},"z":3}"#.to_string(),
            r#"{"b":{"c":3},"a":4,"z":5}"#.to_string(),
            r#"{"x":0,"a":7}"#.to_string(),
            r#"{"a":8,"b":{"d":1,"c":9}}"#.to_string(),
            format!(r#"{{"{long}":1,"{long}x":2,"a":3}}"#),
            // The same length and first 16 bytes as `long`, in its place.
            r#"{"a_property_name_longer_than_17":4}"#.to_string(),
            format!(r#"{{"{long}x":4,"{long}":5}}"#),
            format!(r#"{{{many}"a":10,"m80":{{"c":1}}}}"#),
            format!(r#"{{{many}"b":{{"c":11}},"a":12}}"#),
            r#"{"a":13,"a":{"c":14},"b":15}"#.to_string(),
            r#"{}"#.to_string(),
            // 17 bytes, the first 16 shared, in one place.
            r#"{"abcdefghijklmnopq":20}"#.to_string(),
            r#"{"abcdefghijklmnopr":21}"#.to_string(),
            // Names that differ only by a trailing NUL (their heads are equal).
            r#"{"ab":30}"#.to_string(),
            r#"{"ab\u0000":31}"#.to_string(),
            // One name at one place under two trie nodes.
            r#"{"a":{"a":40}}"#.to_string(),
        ];
        let paths = [
            "/a",
            "/b/c",
            "/z",
            &format!("/{long}"),
            "/m80",
            "/m99",
            "/abcdefghijklmnopq",
            "/ab",
            "/a/a",
        ];
        let trie = trie(&paths);
        let walk = |doc: &str, v: &mut Visits| walk(&trie, doc, v);
        let mut warm = Visits::default();
        for _ in 0..2 {
            for doc in &docs {
                let fresh = walk(doc, &mut Visits::default());
                assert_eq!(walk(doc, &mut warm), fresh, "{doc}");
            }
        }
        assert_eq!(walk(&docs[5], &mut warm)[3], "Missing");
        assert_eq!(walk(&docs[6], &mut warm)[3], "Scalar(Number(5.0))");
        assert_eq!(
            walk(&docs[8], &mut warm)[..2],
            ["Scalar(Number(12.0))", "Scalar(Number(11.0))"]
        );
        assert_eq!(walk(&docs[12], &mut warm)[6], "Missing");
        assert_eq!(walk(&docs[14], &mut warm)[7], "Missing");
        assert_eq!(walk(&docs[15], &mut warm)[8], "Scalar(Number(40.0))");
        assert!(warm.seen.iter().all(|s| s.len() <= REMEMBERED));
    }

    #[test]
    fn scratch_made_for_another_trie_starts_over() {
        let (ab, ba) = (trie(&["/a", "/b"]), trie(&["/b", "/a"]));
        let mut v = Visits::default();
        let doc = r#"{"a":1,"b":2}"#;
        let got = walk(&ab, doc, &mut v);
        assert_eq!(got, ["Scalar(Number(1.0))", "Scalar(Number(2.0))"]);
        let got = walk(&ba, doc, &mut v);
        assert_eq!(got, ["Scalar(Number(2.0))", "Scalar(Number(1.0))"]);
    }

    #[test]
    fn nested_quoted_and_shared_prefix_paths() {
        let doc = r#"{"a":{"b":1,"c":{"d":"x"}},"my-prop":true,"skip":[{"a":2}],"e":null}"#;
        let got = extract(
            doc,
            &["/a/b", "/a/c/d", "/\"my-prop\"", "/e", "/a/b", "/zz"],
        );
        assert_eq!(
            got,
            [
                "Scalar(Number(1.0))",
                "Scalar(Str(\"x\"))",
                "Scalar(Bool(true))",
                "Scalar(Null)",
                "Scalar(Number(1.0))",
                "Missing"
            ]
        );
    }

    #[test]
    fn containers_and_paths_through_scalars() {
        let doc = r#"{"o":{"x":1},"a":[1,2],"s":"str","n":5}"#;
        let got = extract(doc, &["/o", "/a", "/s/x", "/n/x", "/a/0"]);
        assert_eq!(got, ["Object", "Array", "Missing", "Missing", "Missing"]);
    }

    #[test]
    fn the_last_of_repeated_properties_wins_whole() {
        let doc = r#"{"a":{"b":1},"k":1,"a":{"c":2},"k":2}"#;
        let got = extract(doc, &["/a/b", "/a/c", "/k"]);
        assert_eq!(
            got,
            ["Missing", "Scalar(Number(2.0))", "Scalar(Number(2.0))"]
        );
    }

    #[test]
    fn heads_are_the_zero_padded_prefix() {
        for n in 0..40 {
            let name: Vec<u8> = (1..=n as u8).collect();
            let mut b = [0u8; 16];
            b[..n.min(16)].copy_from_slice(&name[..n.min(16)]);
            assert_eq!(head(&name), u128::from_le_bytes(b), "{n}");
        }
        // Read in place, with and without sixteen bytes after the name's start.
        let text: Vec<u8> = (1..=40u8).collect();
        for at in 0..text.len() {
            for len in 0..=text.len() - at {
                let h = head(&text[at..at + len]);
                assert_eq!(head_in(&text, at, len), h, "{at} {len}");
            }
        }
    }

    #[test]
    fn escaped_property_names_match_unescaped_paths() {
        let doc = r#"{"my\u002dprop":"caf\u00e9 \ud83d\ude00"}"#;
        assert_eq!(
            extract(doc, &["/\"my-prop\""]),
            ["Scalar(Str(\"café 😀\"))"]
        );
    }
}
