//! Sizes as users write them: `500GB`, `2TB`, `1.5TiB`, `512MB`, `64KiB`, `1000` (bytes).
//! KB/MB/GB/TB/PB are decimal (10^3 steps), KiB/MiB/GiB/TiB/PiB binary (2^10 steps), as
//! the Cosmos DB documentation and disk vendors use them.

/// Parses a size into bytes.
pub fn parse_size(text: &str) -> Result<u64, String> {
    let (number, unit) = number_and_unit(text);
    let value: f64 = number
        .parse()
        .map_err(|_| format!("{text:?} is not a size (expected e.g. 500GB, 2TB, 1.5TiB)"))?;
    let scale = unit_scale(unit).ok_or_else(|| {
        format!("unknown unit {unit:?} in {text:?} (use B, KB, MB, GB, TB, PB or KiB, MiB, GiB, TiB, PiB)")
    })?;
    let bytes = value * scale;
    if !bytes.is_finite() || bytes >= u64::MAX as f64 {
        return Err(format!("{text:?} is too large"));
    }
    Ok(bytes.round() as u64)
}

/// `text`'s leading number and the unit after it, blanks trimmed: `1.5TiB` → (`1.5`, `TiB`).
fn number_and_unit(text: &str) -> (&str, &str) {
    let t = text.trim();
    let split = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    (&t[..split], t[split..].trim())
}

fn unit_scale(unit: &str) -> Option<f64> {
    let u = unit.to_ascii_lowercase();
    let (stem, binary) = match u.strip_suffix("ib") {
        Some(stem) => (stem.to_owned(), true),
        None => (u.strip_suffix('b').unwrap_or(&u).to_owned(), false),
    };
    let power = ["", "k", "m", "g", "t", "p"]
        .iter()
        .position(|p| *p == stem)?;
    if binary && power == 0 {
        return None;
    }
    let base: f64 = if binary { 1024.0 } else { 1000.0 };
    Some(base.powi(power as i32))
}

/// Parses a duration into seconds: a number and a unit, `s`, `min`, `h`, `d`, `w`, `mo`
/// (30 days) or `y` (365 days): `30d`, `720h`, `1y`.
pub fn parse_duration(text: &str) -> Result<f64, String> {
    let (number, unit) = number_and_unit(text);
    let value: f64 = number
        .parse()
        .map_err(|_| format!("{text:?} is not a duration (expected e.g. 30d, 720h, 1y)"))?;
    let scale = match unit.to_ascii_lowercase().as_str() {
        "s" => 1.0,
        "min" => 60.0,
        "h" => 3_600.0,
        "d" => 86_400.0,
        "w" => 7.0 * 86_400.0,
        "mo" => 30.0 * 86_400.0,
        "y" => 365.0 * 86_400.0,
        _ => {
            return Err(format!(
                "unknown unit {unit:?} in {text:?} (use s, min, h, d, w, mo or y)"
            ));
        }
    };
    let seconds = value * scale;
    match seconds.is_finite() && seconds > 0.0 {
        true => Ok(seconds),
        false => Err(format!("{text:?} must be a positive duration")),
    }
}

/// Parses a growth rate `SIZE/PERIOD` (`50GB/month`, `2TB/y`, `1.5GB/30d`) into bytes a
/// day; a period without a number is one of it (`day`, `week`, `month` (30 days), `year`
/// (365 days), or a unit of [`parse_duration`]).
pub fn parse_growth(text: &str) -> Result<f64, String> {
    let Some((size, period)) = text.split_once('/') else {
        return Err(format!(
            "{text:?} is not a growth rate (expected SIZE/PERIOD, e.g. 50GB/month)"
        ));
    };
    let bytes = parse_size(size.trim())?;
    let period = period.trim();
    let unit = match period.to_ascii_lowercase().trim_end_matches('s') {
        "day" => "1d".to_owned(),
        "week" => "1w".to_owned(),
        "month" => "1mo".to_owned(),
        "year" => "1y".to_owned(),
        "hour" => "1h".to_owned(),
        _ if period.starts_with(|c: char| c.is_ascii_digit()) => period.to_owned(),
        _ => format!("1{period}"),
    };
    let seconds = parse_duration(&unit)?;
    let per_day = bytes as f64 / seconds * 86_400.0;
    match bytes > 0 {
        // A day past the largest container the engine models (1 PB) says nothing more.
        true if per_day > MAX_GROWTH_PER_DAY => Err(format!(
            "{text:?} is more than 1PB a day (the largest container the engine models is 1PB)"
        )),
        true => Ok(per_day),
        false => Err(format!("{text:?} must grow by more than 0 bytes")),
    }
}

/// The fastest growth accepted: 1 PB a day.
const MAX_GROWTH_PER_DAY: f64 = 1e15;

/// Seconds in the largest unit that holds at least one: `30 days`, `12 hours`, `90 s`.
pub fn human_duration(seconds: f64) -> String {
    const UNITS: [(f64, &str); 4] = [
        (86_400.0, "days"),
        (3_600.0, "hours"),
        (60.0, "minutes"),
        (1.0, "s"),
    ];
    let (scale, name) = (UNITS.iter())
        .find(|(scale, _)| seconds >= *scale)
        .unwrap_or(&UNITS[3]);
    let v = seconds / scale;
    match (v.fract() == 0.0, v == 1.0) {
        // One day, one hour, one minute: the unit without its plural s.
        (true, true) => format!(
            "1 {}",
            name.strip_suffix('s')
                .filter(|n| !n.is_empty())
                .unwrap_or(name)
        ),
        (true, false) => format!("{v:.0} {name}"),
        (false, _) => format!("{v:.1} {name}"),
    }
}

/// Bytes in the largest fitting decimal unit: `1.5 GB`, `730 B`.
pub fn human_bytes(b: u64) -> String {
    const UNITS: [&str; 6] = ["B", "kB", "MB", "GB", "TB", "PB"];
    let mut v = b as f64;
    let mut u = 0;
    while v >= 1000.0 && u < UNITS.len() - 1 {
        v /= 1000.0;
        u += 1;
    }
    if u == 0 {
        format!("{b} B")
    } else {
        format!("{v:.1} {}", UNITS[u])
    }
}

/// `text` for a message: whole up to `chars` characters, else its first `chars` and how
/// long it is (an expression or a cell of any length stays one readable line).
pub fn clipped(text: &str, chars: usize) -> String {
    match text.char_indices().nth(chars) {
        Some((i, _)) => format!("{}… ({} bytes)", &text[..i], text.len()),
        None => text.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_in_their_units() {
        assert_eq!(parse_duration("30d"), Ok(30.0 * 86_400.0));
        assert_eq!(parse_duration("720h"), Ok(30.0 * 86_400.0));
        assert_eq!(parse_duration("1y"), Ok(365.0 * 86_400.0));
        assert_eq!(parse_duration("90 min"), Ok(5_400.0));
        assert!(parse_duration("30").unwrap_err().contains("unknown unit"));
        assert!(parse_duration("0d").is_err());
        assert_eq!(human_duration(2_592_000.0), "30 days");
        assert_eq!(human_duration(86_400.0), "1 day");
        assert_eq!(human_duration(3_600.0), "1 hour");
        assert_eq!(human_duration(1.0), "1 s");
        assert_eq!(human_duration(5_400.0), "1.5 hours");
        assert_eq!(human_duration(45.0), "45 s");
        assert!(parse_duration("d").is_err());
    }

    #[test]
    fn decimal_and_binary_units() {
        assert_eq!(parse_size("500GB"), Ok(500_000_000_000));
        assert_eq!(parse_size("2TB"), Ok(2_000_000_000_000));
        assert_eq!(parse_size("1.5TiB"), Ok(1_649_267_441_664));
        assert_eq!(parse_size("512 MiB"), Ok(536_870_912));
        assert_eq!(parse_size("1000"), Ok(1000));
        assert_eq!(parse_size("20gb"), Ok(20_000_000_000));
        assert_eq!(parse_size("3k"), Ok(3000));
        assert!(parse_size("GB").is_err());
        assert!(parse_size("5XB").is_err());
        assert!(parse_size("-5GB").is_err());
    }

    #[test]
    fn human_sizes() {
        assert_eq!(human_bytes(730), "730 B");
        assert_eq!(human_bytes(1_500_000_000), "1.5 GB");
        assert_eq!(human_bytes(20_000_000_000), "20.0 GB");
    }

    #[test]
    fn growth_past_a_petabyte_a_day_is_refused() {
        assert!(
            parse_growth("1PB/1s")
                .unwrap_err()
                .contains("more than 1PB a day")
        );
        assert_eq!(parse_growth("1PB/day"), Ok(1e15));
    }

    #[test]
    fn growth_rates_read_as_bytes_a_day() {
        let day = |t: &str| parse_growth(t).unwrap();
        assert!((day("50GB/month") - 50e9 / 30.0).abs() < 1.0);
        assert!((day("2TB/year") - 2e12 / 365.0).abs() < 1.0);
        assert!((day("1GB/d") - 1e9).abs() < 1e-6);
        assert!((day("7GB/7d") - 1e9).abs() < 1e-6);
        assert!((day("1GB/days") - 1e9).abs() < 1e-6);
        assert!(parse_growth("50GB").unwrap_err().contains("SIZE/PERIOD"));
        assert!(parse_growth("0GB/day").is_err());
        assert!(parse_growth("5GB/fortnight").is_err());
    }
}
