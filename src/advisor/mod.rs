//! The advisor: measures candidate keys over the sample, projects each onto the partition
//! engine at the target, replays the workload, and turns the figures into ranked,
//! explained candidates (the report model).
//!
//! Stages, each in its own file: [`measure`] and [`discover`] read the sample,
//! [`project`] and [`layout`] place it on the engine at the [`target`], [`evaluate`]
//! replays the workload, [`findings`], [`score`] and [`need`] judge the figures,
//! [`assemble`] builds the report model, [`rank`] orders it and writes the
//! recommendation, [`gsi`] weighs a secondary index, [`map`] shows one partition map, and
//! [`redact`] hides values; [`key_block`] writes a key's spec and definition.

pub mod assemble;
pub mod auto;
pub mod candidate;
pub mod clock;
pub mod discover;
pub mod evaluate;
pub mod findings;
pub mod gsi;
pub mod key_block;
pub mod layout;
pub mod map;
pub mod measure;
pub mod need;
pub mod newcomers;
pub mod pipeline;
pub mod profile;
pub mod project;
pub mod rank;
pub mod redact;
pub mod round;
pub mod score;
pub mod target;
pub mod timeline;

pub use assemble::{DEFAULT_TOP_VALUES, ReportOptions, build_report};
pub use map::{AskedValue, explain, partition_map};
pub use target::Target;
