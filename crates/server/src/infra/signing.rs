//! HMAC-SHA256 signatures with the shop's signing key (shared by replicas through the
//! settings table): upload addresses, download addresses and gateway callback tokens. A
//! message names its purpose first, so a signature made for one use never fits another.

use hmac::{Hmac, Mac};
use sha2::Sha256;
use subtle::ConstantTimeEq;

/// The hex signature of `purpose` and `parts`.
pub fn sign(key: &[u8], purpose: &str, parts: &[&str]) -> String {
    let Ok(mut mac) = Hmac::<Sha256>::new_from_slice(key) else {
        return String::new();
    };
    // Each piece is length-prefixed, so no two lists of parts sign the same bytes.
    for piece in std::iter::once(&purpose).chain(parts) {
        mac.update(format!("{}:", piece.len()).as_bytes());
        mac.update(piece.as_bytes());
    }
    hex::encode(mac.finalize().into_bytes())
}

/// Whether `signature` is the signature of `purpose` and `parts`, compared in constant time.
pub fn verify(key: &[u8], purpose: &str, parts: &[&str], signature: &str) -> bool {
    same(&sign(key, purpose, parts), signature)
}

/// Whether a given signature is the expected one, compared in constant time.
pub fn same(expected: &str, given: &str) -> bool {
    !expected.is_empty() && bool::from(expected.as_bytes().ct_eq(given.as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signatures_fit_their_purpose_and_parts_only() {
        let key = b"key";
        let sig = sign(key, "download", &["a", "1"]);
        assert!(verify(key, "download", &["a", "1"], &sig));
        assert!(!verify(key, "upload", &["a", "1"], &sig));
        assert!(!verify(key, "download", &["a", "2"], &sig));
        assert!(!verify(key, "download", &["a:1"], &sig));
        assert!(!verify(b"other", "download", &["a", "1"], &sig));
        assert!(!verify(key, "download", &["a", "1"], ""));
    }
}
