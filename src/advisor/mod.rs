//! The advisor: judges each candidate measured ([`crate::measure`]) and projected
//! ([`crate::project`]), and turns the figures into ranked, explained candidates (the
//! report model).
//!
//! Each job in its own file: [`pipeline`] runs the stages over one request (measure,
//! project, replay); [`evaluate`] holds one candidate's figures after the replay;
//! [`findings`], [`score`] and [`need`] judge them; [`timeline`] dates the growth;
//! [`assemble`] builds the report model, [`rank`] orders it and writes the
//! recommendation; [`gsi`] weighs a secondary index; [`map`] shows one partition map;
//! [`key_block`] writes a key's spec and definition, and [`round`] the figures' rounding.

pub mod assemble;
pub mod evaluate;
pub mod findings;
pub mod gsi;
pub mod key_block;
pub mod map;
pub mod need;
pub mod pipeline;
pub mod rank;
pub mod relief;
pub mod round;
pub mod score;
pub mod timeline;

pub use assemble::{DEFAULT_TOP_VALUES, ReportOptions, build_report};
pub use map::{AskedValue, explain, partition_map};
