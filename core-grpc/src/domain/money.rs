//! Money: stored in integer minor units, sent as a JSON number with at most
//! two decimals (decisions §2).

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
    let cents = (amount * 100.0).round();
    // 12.34 * 100 is 1233.9999999999998: accept float noise, not a third decimal.
    ((amount * 100.0 - cents).abs() < 1e-6).then_some(cents as i64)
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
    }

    #[test]
    fn refuses_non_positive_and_fine_precision() {
        for bad in [0.0, -1.0, 0.001, 12.345, f64::NAN, f64::INFINITY, 1e12] {
            assert_eq!(from_major(bad), None, "{bad}");
        }
    }
}
