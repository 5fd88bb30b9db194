//! Candidate partition keys: the `--key SPEC` grammar, its canonical form, the Cosmos DB
//! definition each key creates, and the key value each document gets.
//!
//! # Grammar
//!
//! A spec is 1 to 3 levels separated by `,`; two or three levels make a hierarchical key.
//! Each level is one of:
//!
//! | level | value |
//! |---|---|
//! | `/tenantId`, `/a/b`, `/"my-prop"` | the value at that path |
//! | `concat(/p1,/p2,...)` | the texts of 2 or more paths joined with `-` |
//! | `rand_suffix(/p,N)` | the text of `/p`, `.`, and a number `1..=N` drawn at write time |
//! | `hash_suffix(/p,/q,N)` | the text of `/p`, `.`, and `hash(/q) mod N + 1` |
//!
//! `N` is an integer from 1 to 1,000,000. Function names are lower case. Whitespace may
//! surround any token; the canonical form ([`KeySpec`]'s `Display`) has none, and parses
//! back to the same spec. The levels of a key must differ.
//!
//! # Definitions
//!
//! One level is a Hash V2 key, two or three a MultiHash (V2) key. A path level is stored
//! under its own path. A synthetic level is a property the application writes: the first of
//! `/partitionKey`, `/partitionKey2`, `/partitionKey3`, … that the key neither reads (as an
//! input's top-level property) nor has given to an earlier level. So `concat(/a,/b)` is
//! `{"paths":["/partitionKey"],"kind":"Hash","version":2}` and
//! `/tenantId,concat(/a,/b),rand_suffix(/d,10)` stores under
//! `["/tenantId","/partitionKey","/partitionKey2"]`.
//!
//! # Synthetic values
//!
//! * **Text of an input.** A string is used as it is; `true`, `false` and `null` are those
//!   words; a number is written as JavaScript's `String(number)` writes it (ECMAScript
//!   Number::toString): the shortest digits that read back as the same double, no `.0` on
//!   integral values, plain decimal from 1e-6 up to 1e21 and exponent form outside
//!   (`42`, `1.5`, `0.000001`, `1e-7`, `1e+21`); `-0` is `0`.
//! * **Missing input.** If any input of a synthetic level is missing, the application
//!   could not compute the level: its component is `undefined` (as a missing plain path is).
//!   This includes the hashed path of `hash_suffix`.
//! * **Object or array input.** The document's key value is [`KeyValue::Invalid`] (this wins
//!   over a missing input).
//! * **`rand_suffix`** draws its number from the run's seed and the document's ordinal, so
//!   a run is reproducible: level `L` (from 0) of document `i` takes output `3i + L` (from
//!   0) of SplitMix64 seeded with the seed, mod N, plus 1 ([`rand_suffix`]).
//! * **`hash_suffix`** uses `h1`, the first 64-bit half of MurmurHash3 x64_128 (seed 0) of
//!   the UTF-8 bytes of the hashed input's text, mod N, plus 1 ([`hash_suffix`]).
//!
//! # Knowledge
//!
//! [`KeySpec::is_known`] tells routing which levels an application can compute from the
//! paths it knows: a path or `concat`/`hash_suffix` level when all its inputs are known; a
//! `rand_suffix` level never exactly, only as one of N values, which reads must all visit.

mod eval;
pub mod layout;
mod parse;
mod spec;

pub use eval::{
    Components, KeyValue, Knowledge, LevelKnowledge, Scratch, hash_suffix, rand_suffix,
    write_number, write_text,
};
pub use layout::{Layout, LayoutError};
pub use parse::SpecError;
pub use spec::{KeyKind, KeyLevel, KeySpec, MAX_SUFFIXES, RuleError, SYNTHETIC_PROPERTY};
