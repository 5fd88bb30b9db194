//! Rounding of report figures, so that output does not depend on the last bits of a float
//! sum.

/// Rounds to whole cents.
pub fn cents(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

/// Rounds to 4 decimals, so output does not depend on the last bits of a float sum.
pub fn round4(x: f64) -> f64 {
    if x.is_finite() {
        (x * 1e4).round() / 1e4
    } else {
        0.0
    }
}
