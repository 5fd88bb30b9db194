//! Measuring candidates over the sample: what a candidate is ([`candidate`]), the keys
//! auto mode generates from the log and the documents ([`auto`], [`discover`]), the sink
//! that measures every candidate as the documents stream past ([`sink`]), and the profiles
//! that carry those measures between machines ([`profile`]).

pub mod auto;
pub mod candidate;
pub mod discover;
pub mod profile;
pub mod sink;
