//! Arbitrary text as the statistics of a profile whose checksum matches (so that reading
//! gets past it): reading must refuse or accept without panicking, and what it accepts
//! must merge, report and project without panicking either.

#![no_main]

use libfuzzer_sys::fuzz_target;
use pkadvisor::measure::profile::{Profile, with_matching_checksum};
use pkadvisor::project::Target;
use pkadvisor::project::projection::project;

fn file(stats: &str) -> String {
    format!(
        r#"{{"format":"pkadvisor-profile","version":1,"candidates":[{{"spec":"/t","origin":"fuzz"}}],"time_path":null,"seed":0,"memory":1048576,"documents":1,"bytes":1,"invalid":0,"untimed":0,"checksum":"","stats":{}}}"#,
        stats
    )
}

fuzz_target!(|data: &[u8]| {
    let Ok(stats) = std::str::from_utf8(data) else {
        return;
    };
    let Some(text) = with_matching_checksum(file(stats).as_bytes()) else {
        return;
    };
    let Ok(mut p) = Profile::read("fuzz", &text[..]) else {
        return;
    };
    let again = Profile::read("fuzz", &text[..]).expect("read once, read twice");
    let _ = p.merge(again, "again");
    let target = Target {
        storage_bytes: Target::DEFAULT_STORAGE,
        throughput: Target::DEFAULT_THROUGHPUT,
    };
    for (c, s) in p.candidates.iter().zip(&mut p.stats) {
        let _ = s.distinct_values();
        let _ = s.values.top(5);
        let _ = s.histogram();
        let _ = project(&c.definition(), s, &target, false);
    }
});
