//! Who may read the program's numbers, decided once for every path before any
//! handler runs: the bearer token (compared in constant time, so that response
//! timing does not reveal how much of a guessed token was right), a token that was
//! set but is unusable (every request refused), and, without a token, the `Host`
//! check that stops DNS rebinding: a web page that points its own name at
//! 127.0.0.1 sends that name as `Host`, and must not read the profile.

use std::net::IpAddr;

use subtle::ConstantTimeEq;

use super::http::{host_name, HttpRequest, Response};

/// The refusal for `request`, or None when it may be served. `tokens`: those that
/// open the request's surface, any one of them, each with its variable (none: no
/// token is needed); `refuse_all`: a token was set but is unusable.
pub(crate) fn gate(request: &HttpRequest, tokens: &[(&str, String)], refuse_all: bool) -> Option<Response> {
    let denied = |message: &str| Some(Response::error(401, message).with_header("WWW-Authenticate", "Bearer"));
    if refuse_all {
        return denied("a token variable is set but unusable (see the program's stderr): every request is refused");
    }
    if !tokens.is_empty() {
        // The token stops a rebinding page, which cannot know it; any Host may be a tunnel's name.
        let given = request.header("authorization");
        // Every token is compared, so the time taken does not say which one came close.
        let matched = tokens.iter().fold(false, |ok, (_, token)| allowed(Some(token), given) | ok);
        if matched {
            return None;
        }
        let names: Vec<&str> = tokens.iter().map(|(name, _)| *name).collect();
        let message = format!("missing or wrong token: send Authorization: Bearer <{}>", names.join(" or "));
        return denied(&message);
    }
    match request.header("host") {
        Some(host) if !loopback_name(host) => Some(Response::error(
            403,
            "the Host header is not a loopback name (localhost, 127.0.0.1, [::1]); without HOTPATH_AUTH_TOKEN \
             only requests addressed to this machine are served",
        )),
        // No Host at all comes from a tool, never from a browser.
        _ => None,
    }
}

/// `localhost` or a loopback address, with or without a port (a malformed Host was
/// refused with a 400 already, and is not loopback here either).
fn loopback_name(host: &str) -> bool {
    let Ok(name) = host_name(host) else { return false };
    let name = name.strip_suffix('.').unwrap_or(name);
    name.eq_ignore_ascii_case("localhost") || name.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback())
}

/// True when no token is configured, or `authorization` is `Bearer <token>`.
fn allowed(token: Option<&str>, authorization: Option<&str>) -> bool {
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
    use super::{allowed, loopback_name};

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

    #[test]
    fn loopback_names() {
        for host in ["localhost", "LOCALHOST:6770", "localhost.", "127.0.0.1", "127.1.2.3:80", "[::1]", "[::1]:6770"] {
            assert!(loopback_name(host), "{host}");
        }
        for host in ["attacker.example", "localhost.attacker.example", "10.0.0.1:6770", "[::2]:1", "::1x", "", "test"] {
            assert!(!loopback_name(host), "{host}");
        }
        // After the brackets only `:port` may follow.
        for host in ["[::1]x", "[::1]:x", "[::1]]", "[::1]:6770x", "[::1", "[localhost]", "[::1]@evil"] {
            assert!(!loopback_name(host), "{host}");
        }
    }
}
