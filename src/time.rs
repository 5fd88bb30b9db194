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

/// Parses `YYYY-MM-DD[(T| )HH:MM[:SS[.fff]]][Z|±HH:MM]`.
pub fn parse_rfc3339(s: &str) -> Option<i64> {
    let b = s.as_bytes();
    let year = digits(b, 0, 4)?;
    if b.get(4) != Some(&b'-') || b.get(7) != Some(&b'-') {
        return None;
    }
    let (month, day) = (digits(b, 5, 2)?, digits(b, 8, 2)?);
    if !(1..=12).contains(&month) || !(1..=31).contains(&day) {
        return None;
    }
    let days = days_from_civil(year, month as u32, day as u32);
    if b.len() == 10 {
        return Some(days * 86_400);
    }
    if !matches!(b.get(10), Some(b'T' | b't' | b' ')) || b.get(13) != Some(&b':') {
        return None;
    }
    let (hour, minute) = (digits(b, 11, 2)?, digits(b, 14, 2)?);
    let mut pos = 16;
    let mut second = 0;
    if b.get(pos) == Some(&b':') {
        second = digits(b, pos + 1, 2)?;
        pos += 3;
        if b.get(pos) == Some(&b'.') {
            pos += 1;
            while b.get(pos).is_some_and(u8::is_ascii_digit) {
                pos += 1;
            }
        }
    }
    if hour > 23 || minute > 59 || second > 60 {
        return None;
    }
    let offset = offset_seconds(&b[pos..])?;
    Some(days * 86_400 + hour * 3_600 + minute * 60 + second - offset)
}

fn offset_seconds(b: &[u8]) -> Option<i64> {
    match b {
        [] | [b'Z' | b'z'] => Some(0),
        [sign @ (b'+' | b'-'), ..] if b.len() == 6 && b[3] == b':' => {
            let secs = digits(b, 1, 2)? * 3_600 + digits(b, 4, 2)? * 60;
            Some(if *sign == b'-' { -secs } else { secs })
        }
        _ => None,
    }
}

fn digits(b: &[u8], start: usize, len: usize) -> Option<i64> {
    let s = b.get(start..start + len)?;
    s.iter().try_fold(0i64, |acc, &c| {
        c.is_ascii_digit().then(|| acc * 10 + (c - b'0') as i64)
    })
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m as i64 + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d as i64 - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
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
        for bad in [
            "",
            "2026-13-01",
            "2026-11-30T25:00:00Z",
            "30/11/2026",
            "2026-11-30T08:15:00X",
        ] {
            assert_eq!(parse_rfc3339(bad), None, "{bad}");
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
