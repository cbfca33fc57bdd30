//! The configuration from parameters and a fake environment: values, defaults and
//! the exact warning lines.

use super::*;
use hotpath_engine::options::{DEFAULT_LIMIT, DEFAULT_PERCENTILES};
use hotpath_engine::sampling::Sampled;
use hotpath_model::Section;
use std::net::{IpAddr, Ipv4Addr};

fn resolve(main: MainConfig, vars: &[(&str, &str)]) -> (Config, Vec<String>) {
    Config::resolve(&main, |k| vars.iter().find(|(n, _)| *n == k).map(|(_, v)| OsString::from(v)))
}

#[test]
fn parameters_then_environment() {
    let main = MainConfig::new("app::main").format("json").limit(3).percentiles(&[50.0]);
    let (c, w) = resolve(main.clone(), &[]);
    assert_eq!(
        (c.format, c.limits.of(Section::FunctionsTiming), c.options.percentiles.clone()),
        (Format::Json, 3, vec![50.0])
    );
    assert!(w.is_empty());
    let (c, w) = resolve(main, &[("HOTPATH_OUTPUT_FORMAT", "table"), ("HOTPATH_LIMIT", "0")]);
    assert_eq!((c.format, c.limits.of(Section::FunctionsTiming)), (Format::Table, 0));
    assert!(w.is_empty());
}

#[test]
fn bad_values_warn_and_keep_the_default() {
    let (c, w) = resolve(
        MainConfig::new("m"),
        &[
            ("HOTPATH_LIMIT", "abc"),
            ("HOTPATH_OUTPUT_FORMAT", "xml"),
            ("HOTPATH_FOCUS", "/[/"),
            ("HOTPATH_PERCENTILES", "50,101"),
            ("HOTPATH_CLOCK", "sundial"),
            ("HOTPATH_TIME_SAMPLING_RATE", "1.5"),
        ],
    );
    assert_eq!(c.limits.of(Section::FunctionsTiming), DEFAULT_LIMIT);
    assert_eq!(c.format, Format::Table);
    assert!(c.options.focus.is_none());
    assert_eq!(c.options.percentiles, DEFAULT_PERCENTILES);
    assert_eq!(c.options.time_sampling[Sampled::Io as usize], 1.0);
    assert_eq!(w.len(), 6);
    assert_eq!(w[5], "HOTPATH_TIME_SAMPLING_RATE=\"1.5\" is not a number in 0..=1 (0 counts without timing); using 1");
    assert_eq!(w[0], "HOTPATH_OUTPUT_FORMAT=\"xml\" is not one of table, json, json-pretty, none; using table");
    assert_eq!(w[1], "HOTPATH_LIMIT=\"abc\" is not a row count (0 shows all); using 15");
    assert!(w.iter().all(|l| !l.contains('\n')));
}

#[test]
fn sampling_seed_is_a_whole_number() {
    let (c, w) = resolve(MainConfig::new("m"), &[("HOTPATH_SAMPLING_SEED", "18446744073709551615")]);
    assert_eq!((c.options.sampling_seed, w.len()), (u64::MAX, 0));
    let (c, w) = resolve(MainConfig::new("m"), &[("HOTPATH_SAMPLING_SEED", "-1")]);
    assert_eq!(c.options.sampling_seed, 0);
    assert_eq!(w, ["HOTPATH_SAMPLING_SEED=\"-1\" is not a whole number in 0..=18446744073709551615; using 0"]);
}

#[test]
fn server_settings() {
    let (c, w) = resolve(MainConfig::new("m"), &[]);
    assert_eq!(c.server, ServerSettings::default());
    assert!(w.is_empty());
    let (c, w) = resolve(
        MainConfig::new("m"),
        &[("HOTPATH_METRICS_PORT", "0"), ("HOTPATH_METRICS_HOST", "0.0.0.0"), ("HOTPATH_AUTH_TOKEN", "s3cr3t")],
    );
    assert_eq!(
        (c.server.port, c.server.host.to_string(), c.server.token.as_deref()),
        (0, "0.0.0.0".into(), Some("s3cr3t"))
    );
    assert!(w.is_empty(), "{w:?}");
    assert!(!resolve(MainConfig::new("m"), &[("HOTPATH_METRICS_SERVER_OFF", "1")]).0.server.enabled);
    assert!(resolve(MainConfig::new("m"), &[("HOTPATH_METRICS_SERVER_OFF", "0")]).0.server.enabled);
}

#[test]
fn bad_server_values_warn() {
    let (c, w) = resolve(
        MainConfig::new("m"),
        &[
            ("HOTPATH_METRICS_PORT", "70000"),
            ("HOTPATH_METRICS_HOST", "0.0.0.0"),
            ("HOTPATH_METRICS_SERVER_OFF", "maybe"),
        ],
    );
    assert_eq!(c.server.port, DEFAULT_METRICS_PORT);
    assert!(c.server.host.is_loopback());
    assert!(!c.server.enabled);
    assert_eq!(w.len(), 3, "{w:?}");
    assert_eq!(w[1], "HOTPATH_METRICS_PORT=\"70000\" is not a port number (0..=65535); using 6770");
    assert!(w[2].contains("needs HOTPATH_AUTH_TOKEN; using 127.0.0.1"));
    let (c, w) = resolve(MainConfig::new("m"), &[("HOTPATH_AUTH_TOKEN", "has space")]);
    assert!(!c.server.enabled);
    assert!(w[0].contains("(value hidden)") && !w[0].contains("has space"));
}

#[test]
fn threads_variables_reject_zero_text_and_absurd_values() {
    for bad in ["0", "abc", "99999999999999999999999", "-1", ""] {
        let limit = if bad == "0" { "x" } else { bad };
        let (c, w) =
            resolve(MainConfig::new("m"), &[("HOTPATH_THREADS_INTERVAL_MS", bad), ("HOTPATH_THREADS_LIMIT", limit)]);
        assert_eq!((c.options.threads_interval_ms, c.limits.of(Section::Threads)), (250, 5), "{bad:?}");
        assert_eq!(w.len(), 2, "{bad:?}: {w:?}");
        assert!(w[0].starts_with(&format!("HOTPATH_THREADS_INTERVAL_MS={bad:?} ")) && w[0].ends_with("; using 250"));
        assert!(w[1].starts_with(&format!("HOTPATH_THREADS_LIMIT={limit:?} ")) && w[1].ends_with("; using 5"));
    }
    let (c, w) =
        resolve(MainConfig::new("m"), &[("HOTPATH_THREADS_INTERVAL_MS", "50"), ("HOTPATH_THREADS_LIMIT", "12")]);
    assert_eq!((c.options.threads_interval_ms, c.limits.of(Section::Threads), w.len()), (50, 12, 0));
}

#[test]
fn tokio_runtime_interval_accepts_milliseconds_and_warns_otherwise() {
    let (c, w) = resolve(MainConfig::new("m"), &[]);
    assert_eq!((c.options.tokio_runtime_interval_ms, w.len()), (1000, 0));
    let (c, w) = resolve(MainConfig::new("m"), &[("HOTPATH_TOKIO_RUNTIME_INTERVAL_MS", " 20 ")]);
    assert_eq!((c.options.tokio_runtime_interval_ms, w.len()), (20, 0));
    for bad in ["0", "1s", "60001", "-5", ""] {
        let (c, w) = resolve(MainConfig::new("m"), &[("HOTPATH_TOKIO_RUNTIME_INTERVAL_MS", bad)]);
        assert_eq!(c.options.tokio_runtime_interval_ms, 1000, "{bad:?}");
        assert_eq!(
            w,
            [format!(
                "HOTPATH_TOKIO_RUNTIME_INTERVAL_MS={bad:?} is not a number of milliseconds in 1..=60000; using 1000"
            )]
        );
    }
}

#[test]
fn time_sampling_rate() {
    let rate = |v: &str| resolve(MainConfig::new("m"), &[("HOTPATH_TIME_SAMPLING_RATE", v)]);
    assert_eq!(rate("0.25").0.options.time_sampling[Sampled::Io as usize], 0.25);
    assert_eq!(rate("0").0.options.time_sampling[Sampled::Io as usize], 0.0);
    for bad in ["-0.1", "NaN", "all"] {
        let (c, w) = rate(bad);
        assert_eq!((c.options.time_sampling[Sampled::Io as usize], w.len()), (1.0, 1), "{bad}");
    }
}

#[cfg(unix)]
fn not_utf8() -> OsString {
    use std::os::unix::ffi::OsStringExt;
    OsString::from_vec(b"7\xff".to_vec())
}

#[cfg(unix)]
#[test]
fn values_that_are_not_utf8_warn_once_each() {
    let names = [
        "HOTPATH_OUTPUT_FORMAT",
        "HOTPATH_LIMIT",
        "HOTPATH_PERCENTILES",
        "HOTPATH_FOCUS",
        "HOTPATH_CLOCK",
        "HOTPATH_ALLOC_MODE",
        "HOTPATH_THREADS_INTERVAL_MS",
        "HOTPATH_THREADS_LIMIT",
        "HOTPATH_CPU_HZ",
        "HOTPATH_TOKIO_RUNTIME_INTERVAL_MS",
        "HOTPATH_TIME_SAMPLING_RATE",
        "HOTPATH_METRICS_PORT",
        "HOTPATH_METRICS_HOST",
    ];
    let (c, w) = Config::resolve(&MainConfig::new("m"), |k| names.contains(&k).then(not_utf8));
    assert_eq!(w.len(), names.len(), "{w:#?}");
    for name in names {
        let prefix = format!("{name}=\"7\u{fffd}\" is not valid UTF-8; using ");
        assert_eq!(w.iter().filter(|l| l.starts_with(&prefix)).count(), 1, "{name}: {w:#?}");
    }
    assert_eq!(w[0], "HOTPATH_OUTPUT_FORMAT=\"7\u{fffd}\" is not valid UTF-8; using table");
    assert_eq!(
        (c.format, c.limits.of(Section::FunctionsTiming), c.options.cpu_hz),
        (Format::Table, DEFAULT_LIMIT, 100)
    );
    assert_eq!((c.server.port, c.server.host), (DEFAULT_METRICS_PORT, IpAddr::V4(Ipv4Addr::LOCALHOST)));
    assert!(c.options.focus.is_none() && c.server.enabled);
}

#[cfg(unix)]
#[test]
fn paths_take_any_bytes_and_an_unreadable_server_switch_means_off() {
    let env = |k: &str| match k {
        "HOTPATH_OUTPUT_PATH" | "HOTPATH_CPU_OUTPUT" | "HOTPATH_METRICS_SERVER_OFF" => Some(not_utf8()),
        _ => None,
    };
    let (c, w) = Config::resolve(&MainConfig::new("m"), env);
    assert_eq!(c.output_path, Some(PathBuf::from(not_utf8())));
    assert_eq!(c.options.cpu_output, Some(PathBuf::from(not_utf8())));
    assert!(!c.server.enabled);
    assert_eq!(w, ["HOTPATH_METRICS_SERVER_OFF=\"7\u{fffd}\" is not valid UTF-8; using off"]);
}

#[test]
fn an_unusable_token_fails_closed_without_showing_it() {
    let (c, w) = resolve(MainConfig::new("m"), &[("HOTPATH_AUTH_TOKEN", "")]);
    assert!(c.server.enabled && c.server.refuse_all && c.server.token.is_none());
    assert_eq!(
        w,
        ["HOTPATH_AUTH_TOKEN (value hidden) is empty; using a metrics server that answers every request with 401 \
          Unauthorized"]
    );
    #[cfg(unix)]
    {
        let (c, w) = Config::resolve(&MainConfig::new("m"), |k| (k == "HOTPATH_AUTH_TOKEN").then(not_utf8));
        assert!(c.server.enabled && c.server.refuse_all);
        assert_eq!(w.len(), 1);
        assert!(w[0].starts_with("HOTPATH_AUTH_TOKEN (value hidden) is not valid UTF-8; ") && !w[0].contains('7'));
    }
    // A refusing server may listen where it was asked to: it serves nobody.
    let (c, w) = resolve(MainConfig::new("m"), &[("HOTPATH_AUTH_TOKEN", ""), ("HOTPATH_METRICS_HOST", "0.0.0.0")]);
    assert_eq!((c.server.host.to_string(), w.len()), ("0.0.0.0".into(), 1));
    let (c, _) = resolve(MainConfig::new("m"), &[("HOTPATH_AUTH_TOKEN", "ok-token")]);
    assert!(!c.server.refuse_all && c.server.token.as_deref() == Some("ok-token"));
}

#[test]
fn log_limits_warn_and_keep() {
    let (c, w) = resolve(
        MainConfig::new("m"),
        &[("HOTPATH_LOGS_LIMIT", "7"), ("HOTPATH_MAX_LOG_LEN", "3"), ("HOTPATH_ENTRIES_LIMIT", "many")],
    );
    assert_eq!((c.options.logs.per_entry, c.options.logs.max_len, c.options.logs.entries), (7, 1536, 1000));
    assert_eq!(
        w,
        [
            "HOTPATH_ENTRIES_LIMIT=\"many\" is not a number in 1..=1000000; using 1000",
            "HOTPATH_MAX_LOG_LEN=\"3\" is not a number in 8..=1048576; using 1536",
        ]
    );
}

#[test]
fn http_and_sql_settings() {
    let (c, w) = resolve(MainConfig::new("m"), &[]);
    assert_eq!((c.options.logs.entries, c.options.route_scope, c.options.sql_raw_logs), (1000, true, false));
    assert!(w.is_empty());
    for (value, on) in [("0", false), ("false", false), ("FALSE", false), ("1", true), ("yes", true), ("", true)] {
        let (c, w) = resolve(MainConfig::new("m"), &[("HOTPATH_ROUTE_SCOPE", value)]);
        assert_eq!(c.options.route_scope, on, "{value:?}");
        assert!(w.is_empty());
    }
    let (c, w) = resolve(MainConfig::new("m"), &[("HOTPATH_ENTRIES_LIMIT", "20"), ("HOTPATH_SQL_RAW_LOGS", "true")]);
    assert_eq!((c.options.logs.entries, c.options.sql_raw_logs), (20, true));
    assert!(w.is_empty());
    let (c, w) = resolve(MainConfig::new("m"), &[("HOTPATH_ENTRIES_LIMIT", "0"), ("HOTPATH_SQL_RAW_LOGS", "maybe")]);
    assert_eq!((c.options.logs.entries, c.options.sql_raw_logs), (1000, false));
    assert_eq!(
        w,
        [
            "HOTPATH_SQL_RAW_LOGS=\"maybe\" is not 1/true/yes/on or 0/false/no/off; using off",
            "HOTPATH_ENTRIES_LIMIT=\"0\" is not a number in 1..=1000000; using 1000",
        ]
    );
}

#[test]
fn callgrind_output_and_merge_report() {
    let vars = [("HOTPATH_CALLGRIND_OUT_FILE", "/tmp/cg.%p"), ("HOTPATH_MERGE_REPORT", "native.json")];
    let (c, w) = resolve(MainConfig::new("m"), &vars);
    assert_eq!(c.options.callgrind_out_file.as_deref(), Some("/tmp/cg.%p"));
    assert_eq!(c.options.merge_report, Some(PathBuf::from("native.json")));
    assert!(w.is_empty(), "{w:?}");
    let (c, w) = resolve(MainConfig::new("m"), &[("HOTPATH_CALLGRIND_OUT_FILE", " "), ("HOTPATH_MERGE_REPORT", "")]);
    assert_eq!((c.options.callgrind_out_file, c.options.merge_report), (None, None));
    assert_eq!(
        w,
        [
            "HOTPATH_CALLGRIND_OUT_FILE=\" \" is empty; using callgrind.out.%p",
            "HOTPATH_MERGE_REPORT=\"\" is empty; using no merge"
        ]
    );
}

#[test]
fn name_width_warns_on_bad_values() {
    let (c, w) = resolve(MainConfig::new("m"), &[]);
    assert_eq!(c.name_width, 0);
    assert!(w.is_empty());
    let (c, w) = resolve(MainConfig::new("m"), &[("HOTPATH_NAME_WIDTH", "80")]);
    assert_eq!((c.name_width, w.len()), (80, 0));
    let (c, w) = resolve(MainConfig::new("m"), &[("HOTPATH_NAME_WIDTH", "wide")]);
    assert_eq!(c.name_width, 0);
    assert_eq!(
        w,
        ["HOTPATH_NAME_WIDTH=\"wide\" is not a number of characters in 0..=100000 (0 = whole names); using 0"]
    );
}

#[test]
fn metrics_labels_from_builder_then_environment() {
    let main = MainConfig::new("app::main").metrics_label("service", "api").metrics_label("team", "core");
    let (c, w) = resolve(main.clone(), &[("HOTPATH_METRICS_LABELS", "service=web, zone=a")]);
    assert!(w.is_empty(), "{w:?}");
    let labels: Vec<(&str, &str)> = c.server.labels.iter().map(|(n, v)| (n.as_str(), v.as_str())).collect();
    assert_eq!(labels, [("service", "web"), ("team", "core"), ("zone", "a")]);
    // A bad value is one warning and is ignored whole: the builder's labels stay.
    for bad in ["zone", "function=f", "le=1", "__x=1", "9a=1", "a-b=1", "zone="] {
        let (c, w) = resolve(main.clone(), &[("HOTPATH_METRICS_LABELS", bad)]);
        assert_eq!(w.len(), 1, "{bad}: {w:?}");
        assert!(w[0].starts_with(&format!("HOTPATH_METRICS_LABELS={bad:?} has ")), "{}", w[0]);
        assert!(w[0].ends_with("; using service=api,team=core"), "{}", w[0]);
        assert_eq!(c.server.labels.len(), 2);
    }
    let (c, w) = resolve(MainConfig::new("m").metrics_label("instance", "x").metrics_label("ok", "1"), &[]);
    assert_eq!(
        w,
        ["metrics label instance=\"x\": has \"instance\", a label hotpath or Prometheus already uses; ignored"]
    );
    assert_eq!(c.server.labels, [("ok".to_string(), "1".to_string())]);
}

#[test]
fn otlp_export_from_builder_then_environment() {
    use std::time::Duration;
    let main = MainConfig::new("m").otlp_endpoint("http://a:4318").otlp_interval(Duration::from_secs(2));
    let (c, w) = resolve(main.clone(), &[("OTEL_RESOURCE_ATTRIBUTES", "x=%zz")]);
    let otlp = c.server.otlp.expect("on from the builder");
    assert_eq!((otlp.endpoint.url().as_str(), otlp.interval), ("http://a:4318/v1/metrics", Duration::from_secs(2)));
    assert!(w.len() == 1 && w[0].starts_with("OTEL_RESOURCE_ATTRIBUTES=\"x=%zz\" has a bad"), "{w:?}");
    let vars = [("HOTPATH_OTLP_ENDPOINT", "http://b:1/v1/metrics"), ("HOTPATH_OTLP_INTERVAL", "300ms")];
    let (c, w) = resolve(main.clone(), &vars);
    let otlp = c.server.otlp.unwrap();
    assert_eq!((otlp.endpoint.host.as_str(), otlp.interval, w.len()), ("b", Duration::from_millis(300), 0));
    // A bad environment value keeps the builder's; https is refused, saying why.
    let (c, w) = resolve(main, &[("HOTPATH_OTLP_ENDPOINT", "https://b"), ("HOTPATH_OTLP_INTERVAL", "1ms")]);
    assert_eq!(c.server.otlp.unwrap().endpoint.host, "a");
    assert!(
        w[0].starts_with("HOTPATH_OTLP_ENDPOINT=\"https://b\" is https")
            && w[0].ends_with("using http://a:4318/v1/metrics")
    );
    assert!(w[1].starts_with("HOTPATH_OTLP_INTERVAL=\"1ms\" is not a duration"), "{w:?}");
    // Off without an endpoint, and OpenTelemetry's variables are then none of hotpath's business.
    let (c, w) = resolve(MainConfig::new("m"), &[("OTEL_RESOURCE_ATTRIBUTES", "x=%zz")]);
    assert!(c.server.otlp.is_none() && w.is_empty(), "{w:?}");
}
