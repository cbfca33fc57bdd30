//! The bearer-token check, in constant time so that response timing does not
//! reveal how much of a guessed token was right.

use subtle::ConstantTimeEq;

/// True when no token is configured, or `authorization` is `Bearer <token>`.
pub(crate) fn allowed(token: Option<&str>, authorization: Option<&str>) -> bool {
    let Some(token) = token else { return true };
    let Some(given) = authorization.and_then(bearer) else { return false };
    // ct_eq answers at once on a length mismatch: only the token's length can leak.
    bool::from(given.as_bytes().ct_eq(token.as_bytes()))
}

fn bearer(header: &str) -> Option<&str> {
    let (scheme, rest) = header.trim().split_once(' ')?;
    scheme.eq_ignore_ascii_case("bearer").then(|| rest.trim())
}

#[cfg(test)]
mod tests {
    use super::allowed;

    #[test]
    fn token_checks() {
        assert!(allowed(None, None));
        assert!(allowed(None, Some("Bearer x")));
        assert!(allowed(Some("s3cr3t"), Some("Bearer s3cr3t")));
        assert!(allowed(Some("s3cr3t"), Some("bearer  s3cr3t ")));
        assert!(!allowed(Some("s3cr3t"), None));
        assert!(!allowed(Some("s3cr3t"), Some("s3cr3t")));
        assert!(!allowed(Some("s3cr3t"), Some("Bearer s3cr3")));
        assert!(!allowed(Some("s3cr3t"), Some("Bearer s3cr3T")));
        assert!(!allowed(Some("s3cr3t"), Some("Basic s3cr3t")));
    }
}
