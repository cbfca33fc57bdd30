//! Where a running program's metrics server is: the arguments `console` and `mcp` share.

/// The program's metrics server, as `hotpath console` and `hotpath mcp` take it.
#[derive(clap::Args)]
pub(crate) struct ServerArgs {
    /// Port of the program's metrics server (HOTPATH_METRICS_PORT).
    #[arg(long, env = "HOTPATH_METRICS_PORT", default_value_t = 6770)]
    pub(crate) port: u16,
    /// Host of the program's metrics server.
    #[arg(long, default_value = "127.0.0.1")]
    pub(crate) host: String,
    /// Token the server requires (HOTPATH_AUTH_TOKEN).
    #[arg(long, env = "HOTPATH_AUTH_TOKEN", hide_env_values = true)]
    pub(crate) token: Option<String>,
}

impl ServerArgs {
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
        let args = |host: &str| ServerArgs { port: 7, host: host.into(), token: None };
        assert_eq!(args("127.0.0.1").address(), "127.0.0.1:7");
        assert_eq!(args("::1").address(), "[::1]:7");
        assert_eq!(args("[::1]").address(), "[::1]:7");
    }
}
