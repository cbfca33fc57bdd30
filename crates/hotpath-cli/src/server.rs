//! Where a running program's metrics server is: the arguments `console`, `timeline` and `mcp` share.

/// The program's metrics server, as `hotpath console`, `hotpath timeline` and `hotpath mcp` take it.
#[derive(clap::Args)]
pub(crate) struct ServerArgs {
    /// Port of the program's metrics server (HOTPATH_METRICS_PORT).
    #[arg(long, env = "HOTPATH_METRICS_PORT", default_value_t = 6770)]
    pub(crate) port: u16,
    /// Host of the program's metrics server (HOTPATH_METRICS_HOST; hotpath-rs's
    /// `http://localhost` form is taken too).
    #[arg(long, env = "HOTPATH_METRICS_HOST", default_value = "127.0.0.1", value_parser = host)]
    pub(crate) host: String,
    /// Token the server requires (HOTPATH_AUTH_TOKEN).
    #[arg(long, env = "HOTPATH_AUTH_TOKEN", hide_env_values = true)]
    pub(crate) token: Option<String>,
    /// hotpath-rs's token of the JSON endpoints, used without `--token`.
    #[arg(long, env = "HOTPATH_METRICS_AUTH_TOKEN", hide_env_values = true, hide = true)]
    pub(crate) metrics_auth_token: Option<String>,
    /// hotpath-rs's token of MCP, used by `hotpath mcp` without `--token`.
    // Taken (and ignored) without the `mcp` feature too, so the console's environment parses alike.
    #[cfg_attr(not(feature = "mcp"), allow(dead_code))]
    #[arg(long, env = "HOTPATH_MCP_AUTH_TOKEN", hide_env_values = true, hide = true)]
    pub(crate) mcp_auth_token: Option<String>,
}

/// A host name or IP, without hotpath-rs's `http://` and a trailing `/`.
fn host(text: &str) -> Result<String, String> {
    let t = text.trim();
    let t = t.strip_prefix("http://").or_else(|| t.strip_prefix("https://")).unwrap_or(t);
    let t = t.strip_suffix('/').unwrap_or(t);
    match t {
        "" => Err("empty host".into()),
        t if t.contains('/') => Err(format!("{text:?} has a path; give the host only")),
        t => Ok(t.to_string()),
    }
}

impl ServerArgs {
    /// The token for the JSON endpoints: `--token` (or HOTPATH_AUTH_TOKEN), else
    /// HOTPATH_METRICS_AUTH_TOKEN.
    pub(crate) fn json_token(&self) -> Option<String> {
        self.token.clone().or_else(|| self.metrics_auth_token.clone())
    }

    /// The token for `/mcp`: `--token` (or HOTPATH_AUTH_TOKEN), else HOTPATH_MCP_AUTH_TOKEN.
    #[cfg_attr(not(feature = "mcp"), allow(dead_code))]
    pub(crate) fn mcp_token(&self) -> Option<String> {
        self.token.clone().or_else(|| self.mcp_auth_token.clone())
    }

    /// `host:port`, an IPv6 host in brackets.
    pub(crate) fn address(&self) -> String {
        if self.host.contains(':') && !self.host.starts_with('[') {
            format!("[{}]:{}", self.host, self.port)
        } else {
            format!("{}:{}", self.host, self.port)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ipv6_hosts_get_brackets() {
        let args = |host: &str| ServerArgs {
            port: 7,
            host: host.into(),
            token: None,
            metrics_auth_token: None,
            mcp_auth_token: None,
        };
        assert_eq!(args("127.0.0.1").address(), "127.0.0.1:7");
        assert_eq!(args("::1").address(), "[::1]:7");
        assert_eq!(args("[::1]").address(), "[::1]:7");
    }

    #[test]
    fn hosts_in_hotpath_rs_form() {
        assert_eq!(host("http://localhost").as_deref(), Ok("localhost"));
        assert_eq!(host("https://10.0.0.2/").as_deref(), Ok("10.0.0.2"));
        assert_eq!(host("::1").as_deref(), Ok("::1"));
        assert!(host("http://localhost/x").is_err() && host(" ").is_err());
    }

    #[test]
    fn the_general_token_first_then_the_surface_one() {
        let args = |token: Option<&str>| ServerArgs {
            port: 7,
            host: "127.0.0.1".into(),
            token: token.map(String::from),
            metrics_auth_token: Some("m".into()),
            mcp_auth_token: Some("c".into()),
        };
        assert_eq!((args(None).json_token(), args(None).mcp_token()), (Some("m".into()), Some("c".into())));
        assert_eq!(args(Some("t")).json_token(), Some("t".into()));
    }
}
