//! Sequences read from a profile with their length checked as they arrive: a forged file
//! cannot make a list expand past what the writer ever produces before its shape is
//! checked (a window of sparse triples becomes a dense row of slices).

use std::fmt;
use std::marker::PhantomData;

use serde::de::{Deserialize, Deserializer, Error, SeqAccess, Visitor};

/// Reads a sequence of at most `max` elements; `what` names it in the error.
pub fn seq<'de, D, T>(d: D, max: usize, what: &'static str) -> Result<Vec<T>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    d.deserialize_seq(Bounded {
        max,
        what,
        item: PhantomData,
    })
}

struct Bounded<T> {
    max: usize,
    what: &'static str,
    item: PhantomData<T>,
}

impl<'de, T: Deserialize<'de>> Visitor<'de> for Bounded<T> {
    type Value = Vec<T>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "a list of at most {} {}", self.max, self.what)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<T>, A::Error> {
        let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(self.max));
        while let Some(item) = seq.next_element()? {
            if out.len() == self.max {
                return Err(A::Error::custom(format!(
                    "more than {} {}",
                    self.max, self.what
                )));
            }
            out.push(item);
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(serde::Deserialize)]
    struct Three {
        #[serde(deserialize_with = "three")]
        v: Vec<u8>,
    }

    fn three<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<u8>, D::Error> {
        seq(d, 3, "numbers")
    }

    #[test]
    fn longer_lists_are_refused_as_they_arrive() {
        let ok: Three = serde_json::from_str(r#"{"v":[1,2,3]}"#).unwrap();
        assert_eq!(ok.v, [1, 2, 3]);
        let e = serde_json::from_str::<Three>(r#"{"v":[1,2,3,4]}"#)
            .err()
            .unwrap();
        assert!(e.to_string().contains("more than 3 numbers"), "{e}");
    }
}
