//! Photo passes: codes an organiser hands runners with their entry, so that the entry fee
//! pays for their photos. A code is 12 letters and digits that cannot be mistaken for each
//! other (60 random bits), shown as `XXXX-XXXX-XXXX` and read back forgiving case, spaces
//! and dashes; a pass covers a number of photos of one event or every photo the runner's
//! searches found (the all-photos deal).

use std::fmt;

use crate::order::UNAMBIGUOUS as ALPHABET;

/// A pass's code, in normal form (12 upper-case symbols of [`ALPHABET`]).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct PassCode(String);

impl PassCode {
    pub const LENGTH: usize = 12;

    /// A new code from 12 random bytes (5 bits of each are used).
    pub fn from_random(bytes: [u8; Self::LENGTH]) -> Self {
        PassCode(
            bytes
                .iter()
                .map(|b| char::from(ALPHABET[usize::from(b % 32)]))
                .collect(),
        )
    }

    /// A code as a runner typed it: case, spaces and dashes do not matter.
    pub fn parse(raw: &str) -> Option<Self> {
        let code: String = raw
            .chars()
            .filter(|c| !c.is_whitespace() && *c != '-')
            .map(|c| c.to_ascii_uppercase())
            .collect();
        let ok = code.len() == Self::LENGTH && code.bytes().all(|b| ALPHABET.contains(&b));
        ok.then_some(PassCode(code))
    }

    /// The normal form (no dashes), what is hashed and stored.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// As printed for runners: `XXXX-XXXX-XXXX`.
impl fmt::Display for PassCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (a, rest) = self.0.split_at(4);
        let (b, c) = rest.split_at(4);
        write!(f, "{a}-{b}-{c}")
    }
}

/// What a pass pays for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PassCover {
    /// Up to this many photos of the event.
    Photos(u32),
    /// Every photo the runner's searches found (the all-photos deal).
    AllPhotos,
}

impl PassCover {
    /// The most photos one pass may cover.
    pub const MAX_PHOTOS: u32 = 500;

    /// `Some(n)` photos (1 to [`Self::MAX_PHOTOS`]), or the deal for `None`.
    pub fn from_photos(photos: Option<u32>) -> Option<Self> {
        match photos {
            None => Some(PassCover::AllPhotos),
            Some(n) if (1..=Self::MAX_PHOTOS).contains(&n) => Some(PassCover::Photos(n)),
            Some(_) => None,
        }
    }

    /// The number of photos, `None` for the deal (as stored).
    pub fn photos(self) -> Option<u32> {
        match self {
            PassCover::Photos(n) => Some(n),
            PassCover::AllPhotos => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    #[test]
    fn codes_are_read_back_forgiving_case_spaces_and_dashes() {
        let code = PassCode::from_random([0, 1, 2, 3, 31, 32, 33, 200, 255, 7, 8, 9]);
        assert_eq!(code.as_str(), "ABCD9ABJ9HJK");
        assert_eq!(code.to_string(), "ABCD-9ABJ-9HJK");
        assert_eq!(PassCode::parse(" abcd-9abj 9hjk "), Some(code));
        // Too short, too long, or with a letter the shop never prints.
        for bad in [
            "ABCD-9ABJ-9HJ",
            "ABCD-9ABJ-9HJKA",
            "ABCD-9ABJ-9HJ0",
            "ABCD-9ABJ-9HJI",
            "",
        ] {
            assert_eq!(PassCode::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn a_cover_is_some_photos_or_the_deal() {
        assert_eq!(PassCover::from_photos(None), Some(PassCover::AllPhotos));
        assert_eq!(PassCover::from_photos(Some(5)), Some(PassCover::Photos(5)));
        assert_eq!(PassCover::from_photos(Some(0)), None);
        assert_eq!(PassCover::from_photos(Some(501)), None);
        assert_eq!(PassCover::Photos(5).photos(), Some(5));
        assert_eq!(PassCover::AllPhotos.photos(), None);
    }

    proptest! {
        #[test]
        fn every_random_code_is_read_back_as_printed(bytes in any::<[u8; 12]>()) {
            let code = PassCode::from_random(bytes);
            prop_assert_eq!(PassCode::parse(&code.to_string()), Some(code.clone()));
            prop_assert_eq!(PassCode::parse(&code.as_str().to_lowercase()), Some(code));
        }
    }
}
