//! `Money`: Thai baht held as integer satang (1 baht = 100 satang), so no price is ever a
//! float on the server. JSON carries baht as numbers with two decimals (`200.00`).

use std::fmt;
use std::iter::Sum;
use std::ops::{Add, Sub};

use serde::{Deserialize, Serialize};

/// The largest amount the shop accepts anywhere: ten million baht.
pub const MAX_SATANG: i64 = 1_000_000_000;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Money(i64);

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoneyError {
    #[error("amount must be a finite number")]
    NotFinite,
    #[error("amount must not be negative")]
    Negative,
    #[error("amount may have at most two decimals")]
    TooPrecise,
    #[error("amount is larger than the shop accepts")]
    TooLarge,
}

impl Money {
    pub const ZERO: Money = Money(0);

    pub fn from_satang(satang: i64) -> Result<Self, MoneyError> {
        if satang < 0 {
            Err(MoneyError::Negative)
        } else if satang > MAX_SATANG {
            Err(MoneyError::TooLarge)
        } else {
            Ok(Money(satang))
        }
    }

    /// Reads a baht amount as written by people (`99`, `99.5`, `99.50`), refusing anything
    /// that is not a whole number of satang.
    pub fn from_baht(baht: f64) -> Result<Self, MoneyError> {
        if !baht.is_finite() {
            return Err(MoneyError::NotFinite);
        }
        if baht < 0.0 {
            return Err(MoneyError::Negative);
        }
        let scaled = baht * 100.0;
        if scaled > MAX_SATANG as f64 {
            return Err(MoneyError::TooLarge);
        }
        let satang = scaled.round();
        // Binary floats cannot hold 0.1 exactly; anything this close is the written value.
        if (scaled - satang).abs() > 1e-6 {
            return Err(MoneyError::TooPrecise);
        }
        Money::from_satang(satang as i64)
    }

    pub fn satang(self) -> i64 {
        self.0
    }

    /// `"200.00"`: the amount in baht with exactly two decimals.
    pub fn baht_text(self) -> String {
        format!("{}.{:02}", self.0 / 100, self.0 % 100)
    }

    pub fn times(self, n: u32) -> Money {
        Money(self.0.saturating_mul(i64::from(n)))
    }

    /// `percent` of the amount, rounded half up to the satang.
    pub fn percent(self, percent: u32) -> Money {
        Money((self.0 * i64::from(percent) + 50) / 100)
    }
}

impl Add for Money {
    type Output = Money;
    fn add(self, rhs: Money) -> Money {
        Money(self.0.saturating_add(rhs.0))
    }
}

impl Sub for Money {
    type Output = Money;
    /// Never below zero: a discount can take a price to nothing, not under it.
    fn sub(self, rhs: Money) -> Money {
        Money((self.0 - rhs.0).max(0))
    }
}

impl Sum for Money {
    fn sum<I: Iterator<Item = Money>>(iter: I) -> Money {
        iter.fold(Money::ZERO, Add::add)
    }
}

impl fmt::Display for Money {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.baht_text())
    }
}

impl Serialize for Money {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        // A JSON number that keeps its two decimals (`200.00`), as the shop's clients expect.
        match serde_json::value::RawValue::from_string(self.baht_text()) {
            Ok(raw) => raw.serialize(s),
            Err(e) => Err(serde::ser::Error::custom(e)),
        }
    }
}

impl<'de> Deserialize<'de> for Money {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let baht = f64::deserialize(d)?;
        Money::from_baht(baht).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn reads_baht_as_written() {
        assert_eq!(Money::from_baht(99.0).map(Money::satang), Ok(9_900));
        assert_eq!(Money::from_baht(99.5).map(Money::satang), Ok(9_950));
        assert_eq!(Money::from_baht(0.1).map(Money::satang), Ok(10));
        assert_eq!(Money::from_baht(1234.56).map(Money::satang), Ok(123_456));
        assert_eq!(Money::from_baht(1.005), Err(MoneyError::TooPrecise));
        assert_eq!(Money::from_baht(-1.0), Err(MoneyError::Negative));
        assert_eq!(Money::from_baht(f64::NAN), Err(MoneyError::NotFinite));
        assert_eq!(Money::from_baht(1e12), Err(MoneyError::TooLarge));
    }

    #[test]
    fn writes_two_decimals() {
        let m = Money::from_satang(21_000).unwrap_or_default();
        assert_eq!(serde_json::to_string(&m).ok().as_deref(), Some("210.00"));
        let m = Money::from_satang(5).unwrap_or_default();
        assert_eq!(m.to_string(), "0.05");
    }

    #[test]
    fn percent_rounds_half_up() {
        assert_eq!(Money(20_000).percent(5), Money(1_000));
        assert_eq!(Money(10).percent(5), Money(1)); // 0.5 satang rounds up
        assert_eq!(Money(9).percent(5), Money(0));
    }

    proptest! {
        #[test]
        fn every_satang_amount_survives_json(satang in 0i64..=MAX_SATANG) {
            let m = Money::from_satang(satang).unwrap_or_default();
            let json = serde_json::to_string(&m).unwrap_or_default();
            let back: Money = serde_json::from_str(&json).unwrap_or_default();
            prop_assert_eq!(back, m);
        }
    }
}
