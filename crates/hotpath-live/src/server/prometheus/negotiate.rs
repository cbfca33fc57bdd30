//! Which exposition format a scraper asked for, read from its `Accept` header the way
//! Prometheus's own client library (`expfmt.Negotiate`) reads it: the media ranges
//! ordered by quality (highest first; at equal quality a concrete type before a
//! wildcard, then as written), and the first that names a format served here wins:
//! the delimited protobuf (`application/vnd.google.protobuf` with
//! `proto=io.prometheus.client.MetricFamily` and `encoding=delimited`) or the text
//! format (`text/plain` with version 0.0.4 or none). Anything else (OpenMetrics, a
//! wildcard, garbage, no header) gets the text format, which every scraper reads. A
//! quality of 0 means "not acceptable": that range is skipped.

/// A format `/metrics` serves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Format {
    /// Text format 0.0.4.
    Text,
    /// Varint-delimited `MetricFamily` messages, with native histograms.
    Protobuf,
}

impl Format {
    /// The `Content-Type` of a response in this format.
    pub(crate) fn content_type(self) -> &'static str {
        match self {
            Self::Text => "text/plain; version=0.0.4; charset=utf-8",
            Self::Protobuf => {
                "application/vnd.google.protobuf; proto=io.prometheus.client.MetricFamily; encoding=delimited"
            }
        }
    }

    /// A short name, for the render cache's key.
    pub(crate) fn key(self) -> &'static str {
        match self {
            Self::Text => "text",
            Self::Protobuf => "protobuf",
        }
    }
}

/// One media range of an `Accept` header.
struct Range<'a> {
    media: String,
    params: Vec<(String, &'a str)>,
    quality: f64,
}

impl Range<'_> {
    fn param(&self, name: &str) -> Option<&str> {
        self.params.iter().find(|(n, _)| n == name).map(|(_, v)| *v)
    }

    fn format(&self) -> Option<Format> {
        match self.media.as_str() {
            "application/vnd.google.protobuf"
                if self.param("proto") == Some("io.prometheus.client.MetricFamily")
                    && self.param("encoding") == Some("delimited") =>
            {
                Some(Format::Protobuf)
            }
            "text/plain" if matches!(self.param("version"), None | Some("0.0.4")) => Some(Format::Text),
            _ => None,
        }
    }

    fn wildcard(&self) -> bool {
        self.media.contains('*')
    }
}

/// The format for a request with this `Accept` header (`None`: no header).
pub(crate) fn negotiate(accept: Option<&str>) -> Format {
    let Some(accept) = accept else { return Format::Text };
    let mut ranges: Vec<Range> = accept.split(',').filter_map(range).filter(|r| r.quality > 0.0).collect();
    // Stable: equal quality and specificity keep the header's order.
    ranges.sort_by(|a, b| b.quality.total_cmp(&a.quality).then(a.wildcard().cmp(&b.wildcard())));
    ranges.iter().find_map(Range::format).unwrap_or(Format::Text)
}

/// `type/subtype;name=value;...`, or `None` for a range without a `/`.
fn range(text: &str) -> Option<Range<'_>> {
    let mut parts = text.split(';');
    let media = parts.next()?.trim().to_ascii_lowercase();
    let (kind, sub) = media.split_once('/')?;
    if kind.is_empty() || sub.is_empty() {
        return None;
    }
    let mut params = Vec::new();
    let mut quality = 1.0;
    for part in parts {
        let Some((name, value)) = part.split_once('=') else { continue };
        let (name, value) = (name.trim().to_ascii_lowercase(), value.trim().trim_matches('"'));
        if name == "q" {
            quality = value.parse::<f64>().ok().filter(|q| (0.0..=1.0).contains(q))?;
        } else {
            params.push((name, value));
        }
    }
    Some(Range { media, params, quality })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What Prometheus 2.42 sends with `--enable-feature=native-histograms`.
    const PROMETHEUS_NATIVE: &str = "application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;\
        encoding=delimited,application/openmetrics-text;version=1.0.0;q=0.8,application/openmetrics-text;\
        version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1";
    /// What it sends without the flag.
    const PROMETHEUS_CLASSIC: &str = "application/openmetrics-text;version=1.0.0,application/openmetrics-text;\
        version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1";

    #[test]
    fn prometheus_with_native_histograms_gets_protobuf() {
        assert_eq!(negotiate(Some(PROMETHEUS_NATIVE)), Format::Protobuf);
        let spaced = "application/vnd.google.protobuf; proto=io.prometheus.client.MetricFamily; encoding=delimited";
        assert_eq!(negotiate(Some(spaced)), Format::Protobuf);
        // Media types are case-insensitive.
        assert_eq!(
            negotiate(Some(&spaced.replace("application/vnd.google", "Application/Vnd.Google"))),
            Format::Protobuf
        );
    }

    #[test]
    fn everything_else_gets_text() {
        for accept in [
            Some(PROMETHEUS_CLASSIC),
            Some("text/plain;version=0.0.4"),
            Some("text/plain"),
            Some("*/*"),
            None,
            Some(""),
            Some("garbage"),
            Some(";;;,,/,q=,\u{0}"),
            Some("application/json"),
            // Protobuf but not the delimited MetricFamily stream.
            Some("application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;encoding=text"),
            Some("application/vnd.google.protobuf;encoding=delimited"),
        ] {
            assert_eq!(negotiate(accept), Format::Text, "{accept:?}");
        }
    }

    #[test]
    fn quality_orders_the_ranges() {
        let proto = "application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;encoding=delimited";
        assert_eq!(negotiate(Some(&format!("text/plain;q=0.5,{proto}"))), Format::Protobuf);
        assert_eq!(negotiate(Some(&format!("text/plain,{proto};q=0.9"))), Format::Text);
        assert_eq!(negotiate(Some(&format!("{proto};q=0.9,text/plain"))), Format::Text);
        // Equal quality: the header's order.
        assert_eq!(negotiate(Some(&format!("{proto},text/plain"))), Format::Protobuf);
        assert_eq!(negotiate(Some(&format!("text/plain,{proto}"))), Format::Text);
        // A wildcard at the top does not hide protobuf below it; q=0 refuses.
        assert_eq!(negotiate(Some(&format!("*/*,{proto};q=0.2"))), Format::Protobuf);
        assert_eq!(negotiate(Some(&format!("{proto};q=0"))), Format::Text);
        // A text version other than 0.0.4 is not served; the next range is.
        assert_eq!(negotiate(Some(&format!("text/plain;version=1.0.0,{proto};q=0.5"))), Format::Protobuf);
        // A malformed quality drops its range only.
        assert_eq!(negotiate(Some(&format!("text/plain;q=high,{proto};q=0.1"))), Format::Protobuf);
    }
}
