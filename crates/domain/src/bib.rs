//! Bib numbers: the event's rule for what a bib looks like, and the one normal form every
//! bib is stored and searched in.
//!
//! A bib is an optional letter from the event's prefix letters followed by 1 to
//! [`MAX_BIB_DIGITS`] digits. Text read off a photo and what a runner types go through the
//! same [`BibRule`], so `a-0042`, `A 42` and `A42` are one bib: spaces, dashes and dots are
//! dropped, letters upper-cased, O, I and L in the number taken for 0 and 1 (how a
//! recogniser reads `10` and `11` in some fonts) and leading zeros removed (no race hands
//! out both `042` and `42`).

use serde::Serialize;

/// The longest number a rule may allow.
pub const MAX_BIB_DIGITS: u32 = 8;
/// At most this many prefix letters may be configured.
pub const MAX_PREFIX_LETTERS: usize = 8;
/// What a runner may type, before normalising; anything longer is refused unread.
pub const MAX_BIB_INPUT: usize = 32;

/// A bib in normal form (see the module header). Built only by [`BibRule::parse`] or
/// [`Bib::from_stored`].
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(transparent)]
pub struct Bib(String);

impl Bib {
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// A bib read back from storage, which only ever holds normal forms.
    pub fn from_stored(s: String) -> Self {
        Bib(s)
    }
}

impl std::fmt::Display for Bib {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// Why a text is not a bib of this event.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BibError {
    #[error("a bib is a number, optionally after one letter")]
    Malformed,
    #[error("this event's bib numbers have {min} to {max} digits")]
    Digits { min: u32, max: u32 },
    #[error("this event's bib numbers do not start with that letter")]
    Prefix,
}

/// What an event's bibs look like: `min_digits..=max_digits` digits, optionally after one
/// of the `prefix` letters (none when empty).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BibRule {
    pub min_digits: u32,
    pub max_digits: u32,
    pub prefix: String,
}

impl Default for BibRule {
    fn default() -> Self {
        BibRule {
            min_digits: 1,
            max_digits: 6,
            prefix: String::new(),
        }
    }
}

impl BibRule {
    /// Checks the rule itself: `1 <= min <= max <= MAX_BIB_DIGITS`, prefix letters A–Z.
    /// Problems come back as (field, message) in the import format's names.
    pub fn new(
        min_digits: u32,
        max_digits: u32,
        prefix: &str,
    ) -> Result<Self, Vec<(&'static str, String)>> {
        let mut problems = Vec::new();
        if !(1..=MAX_BIB_DIGITS).contains(&min_digits) {
            problems.push(("bib_min_digits", format!("must be 1 to {MAX_BIB_DIGITS}")));
        }
        if !(1..=MAX_BIB_DIGITS).contains(&max_digits) {
            problems.push(("bib_max_digits", format!("must be 1 to {MAX_BIB_DIGITS}")));
        } else if max_digits < min_digits {
            problems.push(("bib_max_digits", "must not be below bib_min_digits".into()));
        }
        let prefix = prefix.trim().to_ascii_uppercase();
        if !prefix.chars().all(|c| c.is_ascii_uppercase()) {
            problems.push(("bib_prefix", "must be letters A to Z only".into()));
        } else if prefix.len() > MAX_PREFIX_LETTERS {
            problems.push((
                "bib_prefix",
                format!("must be at most {MAX_PREFIX_LETTERS} letters"),
            ));
        }
        if !problems.is_empty() {
            return Err(problems);
        }
        let mut letters: Vec<char> = prefix.chars().collect();
        letters.sort_unstable();
        letters.dedup();
        Ok(BibRule {
            min_digits,
            max_digits,
            prefix: letters.into_iter().collect(),
        })
    }

    /// The text in normal form if it is a bib of this event. Linear in the text; texts
    /// longer than [`MAX_BIB_INPUT`] are malformed.
    pub fn parse(&self, text: &str) -> Result<Bib, BibError> {
        if text.len() > MAX_BIB_INPUT {
            return Err(BibError::Malformed);
        }
        let compact: String = text
            .chars()
            .filter(|c| !matches!(c, ' ' | '-' | '.' | '_'))
            .map(|c| c.to_ascii_uppercase())
            .collect();
        // A leading letter is the prefix when the rule has it; otherwise it may be a digit
        // read as a letter (`I3` for 13), like any letter after it.
        let (letter, rest) = match compact.chars().next() {
            Some(c) if self.prefix.contains(c) && c.is_ascii_uppercase() => {
                (Some(c), &compact[1..])
            }
            _ => (None, compact.as_str()),
        };
        let digits: String = rest.chars().map(digit_read_as_letter).collect();
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            // `A12` where the event has no A: a number after a letter it does not use.
            let after_first: String = compact.chars().skip(1).map(digit_read_as_letter).collect();
            let foreign_prefix = letter.is_none()
                && compact.starts_with(|c: char| c.is_ascii_uppercase())
                && !after_first.is_empty()
                && after_first.bytes().all(|b| b.is_ascii_digit());
            return Err(if foreign_prefix {
                BibError::Prefix
            } else {
                BibError::Malformed
            });
        }
        let count = u32::try_from(digits.len()).unwrap_or(u32::MAX);
        if !(self.min_digits..=self.max_digits).contains(&count) {
            return Err(BibError::Digits {
                min: self.min_digits,
                max: self.max_digits,
            });
        }
        let number = digits.trim_start_matches('0');
        let number = if number.is_empty() { "0" } else { number };
        Ok(Bib(letter.into_iter().chain(number.chars()).collect()))
    }
}

/// The digit a text recogniser, or a hurried runner, writes as a letter: O for 0, I and L
/// for 1. Anything else is itself.
fn digit_read_as_letter(c: char) -> char {
    match c {
        'O' => '0',
        'I' | 'L' => '1',
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rule(min: u32, max: u32, prefix: &str) -> BibRule {
        BibRule::new(min, max, prefix).unwrap()
    }

    #[test]
    fn one_normal_form_for_typed_and_read_text() {
        let r = rule(1, 6, "a");
        for text in ["A42", "a 42", "A-0042", " a.42 "] {
            assert_eq!(r.parse(text).unwrap().as_str(), "A42", "{text}");
        }
        assert_eq!(r.parse("000").unwrap().as_str(), "0");
        assert_eq!(r.parse("10458").unwrap().as_str(), "10458");
        // Digits read as letters are digits.
        assert_eq!(r.parse("1O").unwrap().as_str(), "10");
        assert_eq!(r.parse("II").unwrap().as_str(), "11");
        assert_eq!(r.parse("AI3").unwrap().as_str(), "A13");
    }

    #[test]
    fn refuses_what_the_rule_does_not_allow() {
        let r = rule(2, 4, "");
        assert_eq!(r.parse("7"), Err(BibError::Digits { min: 2, max: 4 }));
        assert_eq!(r.parse("12345"), Err(BibError::Digits { min: 2, max: 4 }));
        assert_eq!(r.parse("A12"), Err(BibError::Prefix));
        for bad in ["", "-", "12A", "1 2 x", "๑๒", "12.5e3", &"9".repeat(40)] {
            assert_eq!(r.parse(bad), Err(BibError::Malformed), "{bad}");
        }
    }

    #[test]
    fn rule_checks_name_their_fields() {
        assert!(BibRule::new(0, 6, "").is_err());
        let e = BibRule::new(4, 3, "A1").unwrap_err();
        let fields: Vec<_> = e.iter().map(|(f, _)| *f).collect();
        assert_eq!(fields, ["bib_max_digits", "bib_prefix"]);
        assert_eq!(rule(1, 6, " hfh").prefix, "FH");
    }
}
