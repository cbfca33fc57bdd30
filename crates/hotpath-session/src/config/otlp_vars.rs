//! The overlay's variables about the OTLP metrics export (`otlp`): the endpoint that
//! turns it on, the interval, and the resource attributes, hotpath's and
//! OpenTelemetry's own.

use super::otlp::{parse_interval, OtlpEndpoint, DEFAULT_OTLP_INTERVAL};
use super::vars::{parse_metadata, text, Variable};

/// Applied after the server's variables (the process labels are known by then).
pub(super) const OTLP_VARIABLES: &[Variable] = &[
    Variable {
        name: "HOTPATH_OTLP_ENDPOINT",
        apply: |c, v| {
            c.otlp.endpoint = match text(v)?.trim() {
                "" => None,
                url => Some(OtlpEndpoint::parse(url)?),
            };
            Ok(())
        },
        kept: |c| c.otlp.endpoint.as_ref().map_or("no OTLP export".into(), OtlpEndpoint::url),
        secret: false,
    },
    Variable {
        name: "HOTPATH_OTLP_INTERVAL",
        apply: |c, v| {
            c.otlp.interval = Some(parse_interval(text(v)?)?);
            Ok(())
        },
        kept: |c| format!("{:?}", c.otlp.interval.unwrap_or(DEFAULT_OTLP_INTERVAL)),
        secret: false,
    },
    Variable {
        name: "HOTPATH_OTLP_RESOURCE_ATTRIBUTES",
        apply: |c, v| {
            for (key, value) in parse_metadata(text(v)?)? {
                match c.otlp.attributes.iter_mut().find(|(k, _)| *k == key) {
                    Some(slot) => slot.1 = value,
                    None => c.otlp.attributes.push((key, value)),
                }
            }
            Ok(())
        },
        kept: |_| "the other resource attributes".into(),
        secret: false,
    },
    // OpenTelemetry's own: read as they are, checked only when the export is on.
    Variable {
        name: "OTEL_RESOURCE_ATTRIBUTES",
        apply: |c, v| {
            c.otlp.otel_attributes = Some(text(v)?.to_string());
            Ok(())
        },
        kept: |_| "no attributes from it".into(),
        secret: false,
    },
    Variable {
        name: "OTEL_SERVICE_NAME",
        apply: |c, v| {
            c.otlp.otel_service_name = Some(text(v)?.to_string());
            Ok(())
        },
        kept: |_| "service.name from elsewhere".into(),
        secret: false,
    },
];
