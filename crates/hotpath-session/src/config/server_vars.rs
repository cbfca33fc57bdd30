//! The overlay's variables about the live server: on or off, where it listens, and
//! the tokens. hotpath-rs's separate MCP and Prometheus servers are one port here:
//! their tokens protect their paths (`server`), their ports and host are answered
//! with a warning naming the variable in use.

use std::net::{IpAddr, Ipv4Addr};

use super::labels;
use super::server::{ServerSettings, Surface, ALL_SURFACES_TOKEN};
use super::vars::{flag, number, text, Value, Variable, NOT_UTF8};
use super::Config;

/// Applied after the core variables, in this order: tokens before the host, whose
/// check asks whether one is set.
pub(super) const SERVER_VARIABLES: &[Variable] = &[
    Variable {
        name: "HOTPATH_METRICS_SERVER_OFF",
        apply: |c, v| {
            // Anything but a clear "no" turns the server off: a typo must not open a port.
            let Value::Text(t) = v else {
                c.server.enabled = false;
                return Err(NOT_UTF8.into());
            };
            match t.trim().to_ascii_lowercase().as_str() {
                "" | "0" | "false" | "no" | "off" => Ok(()),
                "1" | "true" | "yes" | "on" => {
                    c.server.enabled = false;
                    Ok(())
                }
                _ => {
                    c.server.enabled = false;
                    Err("is not 1/true/yes/on or 0/false/no/off".into())
                }
            }
        },
        kept: |c| if c.server.enabled { "on" } else { "off" }.into(),
        secret: false,
    },
    Variable {
        name: "HOTPATH_METRICS_SERVER_ON",
        apply: |c, v| {
            c.server.force_on = flag(v)?;
            Ok(())
        },
        kept: |c| if c.server.force_on { "on under Valgrind" } else { "off under Valgrind" }.into(),
        secret: false,
    },
    Variable {
        name: "HOTPATH_METRICS_PORT",
        apply: |c, v| {
            c.server.port = number(v, 0..=u16::MAX, "is not a port number (0..=65535)")?;
            Ok(())
        },
        kept: |c| c.server.port.to_string(),
        secret: false,
    },
    Variable { name: ALL_SURFACES_TOKEN, apply: |c, v| token(c, v, |s| &mut s.token), kept: token_kept, secret: true },
    Variable {
        name: "HOTPATH_METRICS_AUTH_TOKEN",
        apply: |c, v| token(c, v, |s| &mut s.surface_tokens[Surface::Json as usize]),
        kept: token_kept,
        secret: true,
    },
    Variable {
        name: "HOTPATH_PROMETHEUS_AUTH_TOKEN",
        apply: |c, v| token(c, v, |s| &mut s.surface_tokens[Surface::Prometheus as usize]),
        kept: token_kept,
        secret: true,
    },
    Variable {
        name: "HOTPATH_MCP_AUTH_TOKEN",
        apply: |c, v| token(c, v, |s| &mut s.surface_tokens[Surface::Mcp as usize]),
        kept: token_kept,
        secret: true,
    },
    Variable {
        name: "HOTPATH_METRICS_HOST",
        apply: |c, v| {
            let host = host(v)?;
            if !host.is_loopback() && !c.server.guarded() {
                return Err("is not loopback and needs HOTPATH_AUTH_TOKEN".into());
            }
            c.server.host = host;
            Ok(())
        },
        kept: |c| c.server.host.to_string(),
        secret: false,
    },
    Variable {
        name: "HOTPATH_MCP_PORT",
        apply: |c, v| other_port(c, v, "MCP is served at /mcp"),
        kept: port_kept,
        secret: false,
    },
    Variable {
        name: "HOTPATH_PROMETHEUS_PORT",
        apply: |c, v| other_port(c, v, "Prometheus is served at /metrics"),
        kept: port_kept,
        secret: false,
    },
    Variable {
        name: "HOTPATH_PROMETHEUS_HOST",
        apply: |c, v| match host(v)? == c.server.host {
            true => Ok(()),
            false => Err("is not used: Prometheus is served at /metrics on the live server's address".into()),
        },
        kept: |c| format!("HOTPATH_METRICS_HOST ({})", c.server.host),
        secret: false,
    },
    Variable {
        name: "HOTPATH_METRICS_LABELS",
        apply: |c, v| {
            // The environment's names replace the builder's; its other names add to them.
            for (name, value) in labels::parse(text(v)?)? {
                match c.server.labels.iter_mut().find(|(n, _)| *n == name) {
                    Some(slot) => slot.1 = value,
                    None => c.server.labels.push((name, value)),
                }
            }
            Ok(())
        },
        kept: |c| labels::shown(&c.server.labels),
        secret: false,
    },
    Variable {
        name: "HOTPATH_PROMETHEUS_FAST_BUCKETS",
        apply: |_, _| Err(FIXED_BUCKETS.into()),
        kept: |_| BUCKETS_KEPT.into(),
        secret: false,
    },
    Variable {
        name: "HOTPATH_PROMETHEUS_SLOW_BUCKETS",
        apply: |_, _| Err(FIXED_BUCKETS.into()),
        kept: |_| BUCKETS_KEPT.into(),
        secret: false,
    },
];

const FIXED_BUCKETS: &str = "is not used: /metrics histograms have fixed bounds";
const BUCKETS_KEPT: &str = "decades from 100 ns to 10 s (le=\"1e-7\" to le=\"10\")";

/// A token variable's value into `slot`. Fail closed: a token that was meant but
/// cannot be used never leaves the server open.
fn token(c: &mut Config, v: Value<'_>, slot: fn(&mut ServerSettings) -> &mut Option<String>) -> Result<(), String> {
    match v {
        Value::Raw(_) => {
            c.server.refuse_all = true;
            Err(NOT_UTF8.into())
        }
        Value::Text("") => {
            c.server.refuse_all = true;
            Err("is empty".into())
        }
        // A token travels in a header, where clients trim or reject whitespace and control bytes.
        Value::Text(t) if t.bytes().all(|b| b.is_ascii_graphic()) => {
            *slot(&mut c.server) = Some(t.into());
            Ok(())
        }
        Value::Text(_) => {
            c.server.enabled = false;
            Err("must be printable ASCII without spaces".into())
        }
    }
}

fn token_kept(c: &Config) -> String {
    match (c.server.enabled, c.server.refuse_all) {
        (false, _) => "no metrics server".into(),
        (true, true) => "a metrics server that answers every request with 401 Unauthorized".into(),
        (true, false) => "no token".into(),
    }
}

/// An IP, `localhost`, or hotpath-rs's console form `http://localhost` (no port:
/// that is `HOTPATH_METRICS_PORT`).
fn host(v: Value<'_>) -> Result<IpAddr, String> {
    let t = text(v)?.trim();
    let t = t.strip_prefix("http://").or_else(|| t.strip_prefix("https://")).unwrap_or(t);
    let t = t.strip_suffix('/').unwrap_or(t);
    let t = t.strip_prefix('[').and_then(|a| a.strip_suffix(']')).unwrap_or(t);
    match t {
        "localhost" => Ok(IpAddr::V4(Ipv4Addr::LOCALHOST)),
        other => other.parse().map_err(|_| "is not an IP address".to_string()),
    }
}

/// A port of one of hotpath-rs's separate servers: fine when it is the live
/// server's own, else a warning naming `HOTPATH_METRICS_PORT`.
fn other_port(c: &mut Config, v: Value<'_>, what: &str) -> Result<(), String> {
    let port: u16 = number(v, 0..=u16::MAX, "is not a port number (0..=65535)")?;
    match port == c.server.port {
        true => Ok(()),
        false => Err(format!("is not used: {what} on the live server's port")),
    }
}

fn port_kept(c: &Config) -> String {
    format!("HOTPATH_METRICS_PORT ({})", c.server.port)
}
