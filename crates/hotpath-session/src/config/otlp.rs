//! OTLP metrics export settings: where to push (`HOTPATH_OTLP_ENDPOINT`), how often
//! (`HOTPATH_OTLP_INTERVAL`) and the resource attributes that say who pushes.
//!
//! Only `HOTPATH_OTLP_ENDPOINT` (or the builder's `otlp_endpoint`) turns the export
//! on: `OTEL_EXPORTER_OTLP_ENDPOINT` is not read, so a program that already exports
//! its own telemetry does not start sending hotpath's too.
//!
//! Resource attributes, later ones replacing earlier ones of the same key:
//! `OTEL_RESOURCE_ATTRIBUTES`, then `OTEL_SERVICE_NAME` as `service.name` (as the
//! OpenTelemetry SDKs do), then the process labels (`HOTPATH_METRICS_LABELS`, the
//! builder's `metrics_label`) for keys not set yet, then
//! `HOTPATH_OTLP_RESOURCE_ATTRIBUTES`, which wins. `service.name` defaults to
//! `unknown_service:<executable>` as in the SDKs.

use std::time::Duration;

/// How often a batch is pushed when `HOTPATH_OTLP_INTERVAL` is not set.
pub const DEFAULT_OTLP_INTERVAL: Duration = Duration::from_secs(10);

/// Where OTLP/HTTP requests go: `http://host:port/path` (no TLS).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OtlpEndpoint {
    /// Host name or IP literal (an IPv6 literal without brackets).
    pub host: String,
    /// Port (80 when the URL has none).
    pub port: u16,
    /// Path of the request, `/v1/metrics` appended to a base URL's path.
    pub path: String,
}

impl OtlpEndpoint {
    /// A base URL (`http://collector:4318`, to which `/v1/metrics` is appended, as the
    /// OTLP spec says of `OTEL_EXPORTER_OTLP_ENDPOINT`) or a full one ending in
    /// `/v1/metrics`. `https://` is refused: the exporter speaks plain HTTP only.
    pub fn parse(url: &str) -> Result<Self, String> {
        let url = url.trim();
        if url.starts_with("https://") {
            return Err("is https, which hotpath does not speak; send to a local OpenTelemetry Collector over \
                        http:// and let it forward over TLS"
                .into());
        }
        let rest = url.strip_prefix("http://").ok_or("is not an http:// URL")?;
        let (authority, path) = rest.find('/').map_or((rest, ""), |i| rest.split_at(i));
        if authority.contains('@') {
            return Err("has credentials in the URL, which are not supported".into());
        }
        let (host, port) = if let Some(v6) = authority.strip_prefix('[') {
            let (host, after) = v6.split_once(']').ok_or("has an unclosed [ in its host")?;
            (host, after.strip_prefix(':'))
        } else {
            match authority.rsplit_once(':') {
                Some((host, port)) => (host, Some(port)),
                None => (authority, None),
            }
        };
        if host.is_empty() {
            return Err("has no host".into());
        }
        let port = match port {
            Some(p) => p.parse::<u16>().ok().filter(|p| *p > 0).ok_or("has a bad port")?,
            None => 80,
        };
        let path = path.split(['?', '#']).next().unwrap_or("").trim_end_matches('/');
        let path = if path.ends_with("/v1/metrics") { path.to_string() } else { format!("{path}/v1/metrics") };
        Ok(Self { host: host.to_string(), port, path })
    }

    /// The URL, for messages.
    pub fn url(&self) -> String {
        let host = if self.host.contains(':') { format!("[{}]", self.host) } else { self.host.clone() };
        format!("http://{host}:{}{}", self.port, self.path)
    }
}

/// What the OTLP exporter needs, once resolved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OtlpSettings {
    /// Where to POST.
    pub endpoint: OtlpEndpoint,
    /// Time between pushes.
    pub interval: Duration,
    /// Resource attributes, keys unique, in order.
    pub resource: Vec<(String, String)>,
}

/// The pieces the overlay and the builder gather, assembled at the end of `resolve`.
#[derive(Clone, Debug, Default)]
pub(crate) struct OtlpParts {
    pub(crate) endpoint: Option<OtlpEndpoint>,
    pub(crate) interval: Option<Duration>,
    /// `OTEL_RESOURCE_ATTRIBUTES`, parsed only when the export is on (a program's own
    /// OpenTelemetry setup is not hotpath's to warn about otherwise).
    pub(crate) otel_attributes: Option<String>,
    pub(crate) otel_service_name: Option<String>,
    pub(crate) attributes: Vec<(String, String)>,
}

impl OtlpParts {
    /// The settings, if an endpoint is set; a bad `OTEL_RESOURCE_ATTRIBUTES` is a
    /// warning and is left out.
    pub(crate) fn settings(&self, labels: &[(String, String)], warnings: &mut Vec<String>) -> Option<OtlpSettings> {
        let endpoint = self.endpoint.clone()?;
        let mut resource: Vec<(String, String)> = Vec::new();
        let mut set = |key: &str, value: &str, replace: bool| match resource.iter_mut().find(|(k, _)| k == key) {
            Some(slot) if replace => slot.1 = value.to_string(),
            Some(_) => {}
            None => resource.push((key.to_string(), value.to_string())),
        };
        if let Some(raw) = &self.otel_attributes {
            match parse_otel_attributes(raw) {
                Ok(pairs) => pairs.iter().for_each(|(k, v)| set(k, v, true)),
                Err(why) => warnings.push(format!("OTEL_RESOURCE_ATTRIBUTES={raw:?} {why}; not used for OTLP export")),
            }
        }
        if let Some(name) = self.otel_service_name.as_deref().map(str::trim).filter(|n| !n.is_empty()) {
            set("service.name", name, true);
        }
        labels.iter().for_each(|(k, v)| set(k, v, false));
        self.attributes.iter().for_each(|(k, v)| set(k, v, true));
        set("service.name", &unknown_service(), false);
        Some(OtlpSettings { endpoint, interval: self.interval.unwrap_or(DEFAULT_OTLP_INTERVAL), resource })
    }
}

fn unknown_service() -> String {
    let exe = std::env::current_exe().ok();
    let name = exe.as_deref().and_then(|p| p.file_stem()).map(|s| s.to_string_lossy().into_owned());
    format!("unknown_service:{}", name.unwrap_or_default())
}

/// `key=value,...` with percent-encoded values, as the OpenTelemetry spec defines
/// `OTEL_RESOURCE_ATTRIBUTES`.
pub(crate) fn parse_otel_attributes(text: &str) -> Result<Vec<(String, String)>, String> {
    let mut pairs: Vec<(String, String)> = Vec::new();
    for segment in text.split(',').filter(|s| !s.trim().is_empty()) {
        let (key, value) = segment.split_once('=').ok_or_else(|| format!("has {:?}, not key=value", segment.trim()))?;
        let (key, value) = (key.trim(), percent_decode(value.trim()).ok_or("has a bad %-escape")?);
        if key.is_empty() {
            return Err(format!("has an empty key in {:?}", segment.trim()));
        }
        match pairs.iter_mut().find(|(k, _)| k == key) {
            Some(slot) => slot.1 = value,
            None => pairs.push((key.to_string(), value)),
        }
    }
    Ok(pairs)
}

fn percent_decode(text: &str) -> Option<String> {
    let mut out = Vec::with_capacity(text.len());
    let mut bytes = text.bytes();
    while let Some(b) = bytes.next() {
        if b == b'%' {
            let hex = [bytes.next()?, bytes.next()?];
            out.push(u8::from_str_radix(std::str::from_utf8(&hex).ok()?, 16).ok()?);
        } else {
            out.push(b);
        }
    }
    String::from_utf8(out).ok()
}

/// `10s`, `500ms`, `2m`, or a number of seconds; from 100 ms to 1 h.
pub(crate) fn parse_interval(text: &str) -> Result<Duration, String> {
    const PROBLEM: &str = "is not a duration from 100ms to 1h (10s, 500ms, 2m)";
    let t = text.trim();
    let (number, unit) = match t.find(|c: char| c.is_ascii_alphabetic()) {
        Some(i) => t.split_at(i),
        None => (t, "s"),
    };
    let n: f64 = number.trim().parse().map_err(|_| PROBLEM.to_string())?;
    let seconds = match unit {
        "ms" => n / 1e3,
        "s" => n,
        "m" => n * 60.0,
        _ => return Err(PROBLEM.into()),
    };
    (0.1..=3600.0).contains(&seconds).then(|| Duration::from_secs_f64(seconds)).ok_or_else(|| PROBLEM.into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn endpoints_get_the_metrics_path_once() {
        let e = OtlpEndpoint::parse("http://collector:4318").unwrap();
        assert_eq!((e.host.as_str(), e.port, e.path.as_str()), ("collector", 4318, "/v1/metrics"));
        assert_eq!(OtlpEndpoint::parse("http://c:1/v1/metrics").unwrap().path, "/v1/metrics");
        assert_eq!(OtlpEndpoint::parse("http://c:1/otlp/").unwrap().path, "/otlp/v1/metrics");
        assert_eq!(OtlpEndpoint::parse("http://c").unwrap().port, 80);
        let v6 = OtlpEndpoint::parse("http://[::1]:4318/").unwrap();
        assert_eq!((v6.host.as_str(), v6.url()), ("::1", "http://[::1]:4318/v1/metrics".to_string()));
        for (bad, why) in
            [("https://c:4318", "https"), ("c:4318", "http://"), ("http://:1", "no host"), ("http://c:x", "port")]
        {
            assert!(OtlpEndpoint::parse(bad).unwrap_err().contains(why), "{bad}");
        }
    }

    #[test]
    fn intervals_take_units() {
        assert_eq!(parse_interval("10s"), Ok(Duration::from_secs(10)));
        assert_eq!(parse_interval("250ms"), Ok(Duration::from_millis(250)));
        assert_eq!(parse_interval(" 2m "), Ok(Duration::from_secs(120)));
        assert_eq!(parse_interval("5"), Ok(Duration::from_secs(5)));
        for bad in ["0", "50ms", "2h", "x", "10 parsecs"] {
            assert!(parse_interval(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn resource_attributes_in_their_order_of_precedence() {
        let parts = OtlpParts {
            endpoint: Some(OtlpEndpoint::parse("http://c:1").unwrap()),
            interval: None,
            otel_attributes: Some("service.name=a,deployment.environment=prod%20eu,zone=x".into()),
            otel_service_name: Some("b".into()),
            attributes: vec![("zone".into(), "z".into())],
        };
        let labels = [("zone".to_string(), "label".to_string()), ("team".to_string(), "core".to_string())];
        let mut warnings = Vec::new();
        let s = parts.settings(&labels, &mut warnings).unwrap();
        let get = |k: &str| s.resource.iter().find(|(n, _)| n == k).map(|(_, v)| v.as_str());
        assert_eq!(get("service.name"), Some("b"));
        assert_eq!(get("deployment.environment"), Some("prod eu"));
        assert_eq!(get("zone"), Some("z"));
        assert_eq!(get("team"), Some("core"));
        assert_eq!((s.interval, warnings.len()), (DEFAULT_OTLP_INTERVAL, 0));
        let bad = OtlpParts { otel_attributes: Some("a=%zz".into()), otel_service_name: None, ..parts };
        let s = bad.settings(&[], &mut warnings).unwrap();
        assert!(warnings[0].contains("%-escape"), "{warnings:?}");
        assert!(s.resource.iter().any(|(k, v)| k == "service.name" && v.starts_with("unknown_service:")));
        assert!(OtlpParts::default().settings(&[], &mut warnings).is_none());
    }
}
