//! Where the live server listens and which token opens which of its surfaces.
//!
//! hotpath-rs ran three servers (JSON on 6770, MCP on 6771, Prometheus on 6772), each
//! with its own `*_AUTH_TOKEN`; here one port serves all three. A surface's own token
//! opens it; without one, `HOTPATH_AUTH_TOKEN` does; without that either, every token
//! the user set does. So a token set for any surface never leaves another one open on
//! the shared port (fail closed), and distinct tokens keep their separate meanings.

use std::net::{IpAddr, Ipv4Addr};

/// Port of the live metrics server when `HOTPATH_METRICS_PORT` is not set.
pub const DEFAULT_METRICS_PORT: u16 = 6770;

/// `HOTPATH_AUTH_TOKEN`: every surface without a token of its own.
pub(crate) const ALL_SURFACES_TOKEN: &str = "HOTPATH_AUTH_TOKEN";

/// A part of the live server that a token can protect.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Surface {
    /// The JSON endpoints (`/`, `/profiler_status`, `/report`, `/functions_timing`, ...):
    /// hotpath-rs's metrics server. `/timeline` too: a trace names the program's
    /// functions and threads, as the report does, so the report's token opens it.
    Json,
    /// `/metrics`, the Prometheus text exposition.
    Prometheus,
    /// `/mcp`, the MCP endpoint.
    Mcp,
}

impl Surface {
    /// Every surface, in the order of [`ServerSettings::surface_tokens`].
    pub const ALL: [Surface; 3] = [Surface::Json, Surface::Prometheus, Surface::Mcp];

    /// The surface a request path belongs to (any path not named here is the report
    /// data's: `/timeline` and every section's).
    pub fn of_path(path: &str) -> Self {
        match path {
            "/metrics" => Self::Prometheus,
            "/mcp" => Self::Mcp,
            _ => Self::Json,
        }
    }

    /// hotpath-rs's variable for this surface's token.
    pub fn token_variable(self) -> &'static str {
        match self {
            Self::Json => "HOTPATH_METRICS_AUTH_TOKEN",
            Self::Prometheus => "HOTPATH_PROMETHEUS_AUTH_TOKEN",
            Self::Mcp => "HOTPATH_MCP_AUTH_TOKEN",
        }
    }
}

/// Where and how the live metrics server listens.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServerSettings {
    /// False with `HOTPATH_METRICS_SERVER_OFF`.
    pub enabled: bool,
    /// `HOTPATH_METRICS_SERVER_ON`: the server runs under Valgrind too, where it is off
    /// by default.
    pub force_on: bool,
    /// Address to bind (`HOTPATH_METRICS_HOST`, loopback unless a token is set).
    pub host: IpAddr,
    /// 0 asks the system for a free port, which is then printed on stderr.
    pub port: u16,
    /// `HOTPATH_AUTH_TOKEN`, required as `Authorization: Bearer <token>` on every
    /// surface that has no token of its own.
    pub token: Option<String>,
    /// The surfaces' own tokens, by [`Surface::ALL`]: `HOTPATH_METRICS_AUTH_TOKEN`,
    /// `HOTPATH_PROMETHEUS_AUTH_TOKEN`, `HOTPATH_MCP_AUTH_TOKEN`.
    pub surface_tokens: [Option<String>; 3],
    /// A token variable is set but unusable (empty, or not UTF-8): the server fails
    /// closed and answers every request with 401.
    pub refuse_all: bool,
    /// Process labels on every series of `/metrics` (`HOTPATH_METRICS_LABELS`, the
    /// builder's `metrics_label`): valid names, none reserved, in the order given.
    pub labels: Vec<(String, String)>,
    /// OTLP metrics export (`HOTPATH_OTLP_ENDPOINT`), independent of `enabled`: the
    /// push needs no port of the program's.
    pub otlp: Option<super::OtlpSettings>,
}

impl Default for ServerSettings {
    fn default() -> Self {
        Self {
            enabled: true,
            force_on: false,
            host: IpAddr::V4(Ipv4Addr::LOCALHOST),
            port: DEFAULT_METRICS_PORT,
            token: None,
            surface_tokens: [None, None, None],
            refuse_all: false,
            labels: Vec::new(),
            otlp: None,
        }
    }
}

impl ServerSettings {
    /// The tokens that open `surface`, any one of them, each with the variable it
    /// came from: the surface's own, else `HOTPATH_AUTH_TOKEN`, else every token set.
    /// Empty when no token is set at all.
    pub fn tokens_for(&self, surface: Surface) -> Vec<(&'static str, &str)> {
        if let Some(own) = self.surface_tokens[surface as usize].as_deref() {
            return vec![(surface.token_variable(), own)];
        }
        if let Some(all) = self.token.as_deref() {
            return vec![(ALL_SURFACES_TOKEN, all)];
        }
        Surface::ALL
            .iter()
            .filter_map(|s| self.surface_tokens[*s as usize].as_deref().map(|t| (s.token_variable(), t)))
            .collect()
    }

    /// True when some request needs a token (or every request is refused).
    pub fn guarded(&self) -> bool {
        self.refuse_all || self.token.is_some() || self.surface_tokens.iter().any(Option::is_some)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with(all: Option<&str>, own: [Option<&str>; 3]) -> ServerSettings {
        ServerSettings {
            token: all.map(String::from),
            surface_tokens: own.map(|t| t.map(String::from)),
            ..ServerSettings::default()
        }
    }

    fn tokens(s: &ServerSettings, surface: Surface) -> Vec<&str> {
        s.tokens_for(surface).into_iter().map(|(_, t)| t).collect()
    }

    #[test]
    fn each_surface_takes_its_own_token_then_the_general_one_then_any() {
        let none = with(None, [None, None, None]);
        assert!(Surface::ALL.iter().all(|s| none.tokens_for(*s).is_empty()) && !none.guarded());
        // One token for one surface protects them all (they share the port).
        let mcp_only = with(None, [None, None, Some("m")]);
        for surface in Surface::ALL {
            assert_eq!(tokens(&mcp_only, surface), ["m"], "{surface:?}");
        }
        let mixed = with(Some("a"), [Some("j"), None, Some("m")]);
        assert_eq!(tokens(&mixed, Surface::Json), ["j"]);
        assert_eq!(tokens(&mixed, Surface::Prometheus), ["a"]);
        assert_eq!(mixed.tokens_for(Surface::Mcp), [("HOTPATH_MCP_AUTH_TOKEN", "m")]);
        let two = with(None, [Some("j"), None, Some("m")]);
        assert_eq!(tokens(&two, Surface::Prometheus), ["j", "m"]);
        assert!(two.guarded());
    }

    #[test]
    fn paths_name_their_surface() {
        assert_eq!(Surface::of_path("/metrics"), Surface::Prometheus);
        assert_eq!(Surface::of_path("/mcp"), Surface::Mcp);
        for path in
            ["/", "/functions_timing", "/profiler_status", "/report", "/debug/val/1/logs", "/metricsx", "/timeline"]
        {
            assert_eq!(Surface::of_path(path), Surface::Json, "{path}");
        }
    }
}
