//! Timestamps as documents and logs carry them: RFC 3339 strings (`2026-11-30T08:15:00Z`,
//! with fractions and offsets), plain dates (`2026-11-30`), or epoch numbers in seconds or
//! milliseconds (a number above 10^11 is taken as milliseconds: 10^11 seconds is the year
//! 5138). Everything becomes whole seconds since the Unix epoch.

use crate::engine::PkValueRef;

/// The latest time accepted, 9999-12-31T23:59:59Z (and as far before the epoch): past it
/// a number is no timestamp.
pub const MAX_SECONDS: i64 = 253_402_300_799;

/// Seconds since the epoch of a timestamp value, if it is one.
pub fn epoch_seconds(v: PkValueRef<'_>) -> Option<i64> {
    match v {
        PkValueRef::Number(n) if n.is_finite() => {
            let secs = if n.abs() >= 1e11 { n / 1000.0 } else { n };
            (secs.abs() <= MAX_SECONDS as f64).then_some(secs.floor() as i64)
        }
        PkValueRef::Str(s) => parse_rfc3339(s.trim()),
        _ => None,
    }
}

/// Parses an RFC 3339 time or date: `YYYY-MM-DD[(T| )HH:MM[:SS[.fff]]][Z|±HH:MM]` (no
/// offset: UTC), with the Temporal ISO 8601 parser of `jiff`.
pub fn parse_rfc3339(s: &str) -> Option<i64> {
    let pieces = jiff::fmt::temporal::Pieces::parse(s).ok()?;
    // A time-zone name (`[Europe/Paris]`) needs a database the tool does not carry.
    if pieces.time_zone_annotation().is_some() {
        return None;
    }
    let time = pieces.time().unwrap_or(jiff::civil::Time::midnight());
    let offset = pieces.to_numeric_offset().unwrap_or(jiff::tz::Offset::UTC);
    Some(civil_seconds(pieces.date().to_datetime(time)) - i64::from(offset.seconds()))
}

/// The portal's CSV time, `11/14/2026, 12:01:15.376 AM` (UTC, or a 24-hour clock without
/// AM/PM): seconds since the epoch.
pub fn portal_seconds(t: &str) -> Option<i64> {
    let t = t.trim();
    [
        "%m/%d/%Y, %I:%M:%S%.f %p",
        "%m/%d/%Y, %I:%M %p",
        "%m/%d/%Y, %H:%M:%S%.f",
        "%m/%d/%Y, %H:%M",
    ]
    .iter()
    .find_map(|f| jiff::civil::DateTime::strptime(f, t).ok())
    .map(civil_seconds)
}

/// Seconds since the epoch of a civil time in UTC (the whole range of years 1 to 9999:
/// past `jiff::Timestamp`'s, which leaves room for offsets).
fn civil_seconds(t: jiff::civil::DateTime) -> i64 {
    let epoch = jiff::civil::DateTime::constant(1970, 1, 1, 0, 0, 0, 0);
    let d = t.duration_since(epoch);
    // Whole seconds, rounded down (before the epoch too).
    d.as_secs() - i64::from(d.subsec_nanos() < 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc3339_forms() {
        assert_eq!(parse_rfc3339("1970-01-01T00:00:00Z"), Some(0));
        assert_eq!(parse_rfc3339("2026-11-30T08:15:00Z"), Some(1_796_026_500));
        assert_eq!(
            parse_rfc3339("2026-11-30T08:15:00.123Z"),
            Some(1_796_026_500)
        );
        assert_eq!(
            parse_rfc3339("2026-11-30T09:15:00+01:00"),
            Some(1_796_026_500)
        );
        assert_eq!(parse_rfc3339("2026-11-30"), Some(1_795_996_800));
        assert_eq!(parse_rfc3339("2000-02-29T00:00"), Some(951_782_400));
        assert_eq!(parse_rfc3339("2026-11-30 08:15:00z"), Some(1_796_026_500));
        assert_eq!(parse_rfc3339("9999-12-31T23:59:59Z"), Some(MAX_SECONDS));
        assert_eq!(parse_rfc3339("1969-12-31T23:59:59.5Z"), Some(-1));
        for bad in [
            "",
            "2026-13-01",
            "2026-11-30T25:00:00Z",
            "30/11/2026",
            "2026-11-30T08:15:00X",
            "2026-02-30",
            "2026-11-30T08:15:00[Europe/Paris]",
        ] {
            assert_eq!(parse_rfc3339(bad), None, "{bad}");
        }
    }

    #[test]
    fn portal_times_on_twelve_and_twenty_four_hour_clocks() {
        assert_eq!(
            portal_seconds("11/30/2026, 8:15:00.376 AM"),
            Some(1_796_026_500)
        );
        assert_eq!(
            portal_seconds("11/30/2026, 12:15:00 AM"),
            Some(1_796_026_500 - 8 * 3_600)
        );
        assert_eq!(
            portal_seconds("11/30/2026, 8:15:00 PM"),
            Some(1_796_026_500 + 12 * 3_600)
        );
        assert_eq!(
            portal_seconds("11/30/2026, 20:15:00"),
            Some(1_796_026_500 + 12 * 3_600)
        );
        for bad in [
            "13/30/2026, 8:15:00 AM",
            "11/30/2026",
            "11/30/2026, 25:00:00",
            "é",
        ] {
            assert_eq!(portal_seconds(bad), None, "{bad}");
        }
    }

    #[test]
    fn epoch_numbers_in_seconds_or_milliseconds() {
        assert_eq!(
            epoch_seconds(PkValueRef::Number(1_796_026_500.0)),
            Some(1_796_026_500)
        );
        assert_eq!(
            epoch_seconds(PkValueRef::Number(1_796_026_500_500.0)),
            Some(1_796_026_500)
        );
        assert_eq!(epoch_seconds(PkValueRef::Bool(true)), None);
    }
}
