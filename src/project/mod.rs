//! The projection of a measured candidate onto the container it will be: the [`target`]
//! (storage, throughput, retention), the growth of every value to it and the placement of
//! the sample and the new data on the partition engine ([`projection`]), the log's new
//! values ([`newcomers`]) and client-side layouts of several collections ([`layout`]).

pub mod grouping;
pub mod kinds;
pub mod layout;
pub mod newcomers;
pub mod novelty;
pub mod projection;
pub mod target;

pub use target::Target;
