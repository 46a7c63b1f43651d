//! Money: stored in integer minor units, sent as a JSON number with at most
//! two decimals (docs/contract.md#wire-conventions).

/// Minor units (cents) to the wire's decimal number.
pub fn to_major(minor: i64) -> f64 {
    minor as f64 / 100.0
}

/// A positive amount with at most two decimals, in minor units; None when the
/// number is not positive, not finite, too large, or has finer precision.
pub fn from_major(amount: f64) -> Option<i64> {
    if !amount.is_finite() || amount <= 0.0 || amount > 10_000_000_000.0 {
        return None;
    }
    // The shortest decimal that reads back as this number is the one the
    // partner wrote (12.34, not 12.339999…): count its decimals exactly
    // rather than trusting `amount * 100`, whose rounding noise grows with
    // the amount. Amounts at most 1e10 always print without an exponent.
    let text = amount.to_string();
    let (whole, fraction) = text.split_once('.').unwrap_or((&text, ""));
    if fraction.len() > 2 {
        return None;
    }
    let whole: i64 = whole.parse().ok()?;
    let fraction: i64 = format!("{fraction:0<2}").parse().ok()?;
    whole.checked_mul(100)?.checked_add(fraction)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_decimals_round_trip() {
        assert_eq!(from_major(12.34), Some(1234));
        assert_eq!(from_major(0.01), Some(1));
        assert_eq!(from_major(19.9), Some(1990));
        assert_eq!(to_major(1234), 12.34);
        assert_eq!(from_major(to_major(987_654_321)), Some(987_654_321));
        // Large amounts, where amount * 100 carries rounding noise.
        assert_eq!(from_major(1_305_112_049.41), Some(130_511_204_941));
        assert_eq!(from_major(9_999_999_999.99), Some(999_999_999_999));
        assert_eq!(from_major(10_000_000_000.0), Some(1_000_000_000_000));
    }

    #[test]
    fn refuses_non_positive_and_fine_precision() {
        for bad in [0.0, -1.0, 0.001, 12.345, f64::NAN, f64::INFINITY, 1e12] {
            assert_eq!(from_major(bad), None, "{bad}");
        }
    }
}
