//! `hotpath timeline`: saves a running program's flight-recorder trace, fetched from
//! its live server's `/timeline` (the program runs with `HOTPATH_TIMELINE=on`).

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{anyhow, bail, Context};

use crate::server::ServerArgs;

/// Arguments of `hotpath timeline`.
#[derive(clap::Args)]
pub(crate) struct Args {
    #[command(flatten)]
    server: ServerArgs,
    /// Seconds of timeline to save, ending now (fractions allowed). Default: all the
    /// program's rings hold.
    #[arg(long, value_parser = positive_seconds)]
    seconds: Option<f64>,
    /// File to write: `.json` is Chrome trace JSON, any other name Perfetto protobuf
    /// (ui.perfetto.dev). Default: timeline.pftrace (timeline.json with --format json).
    #[arg(short, long)]
    output: Option<PathBuf>,
    /// The trace format, whatever the file's name says.
    #[arg(long, value_enum)]
    format: Option<Format>,
    /// How long to wait for the whole trace, in seconds.
    #[arg(long, default_value_t = 60, value_name = "SECONDS")]
    timeout: u64,
}

/// A trace file's format, as `/timeline?format=` names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum Format {
    /// Perfetto's protobuf trace.
    Perfetto,
    /// Chrome trace-event JSON.
    Json,
}

impl Format {
    /// By a file's extension: `.json` is JSON, anything else Perfetto.
    fn of(path: &Path) -> Self {
        match path.extension().and_then(|e| e.to_str()) {
            Some(e) if e.eq_ignore_ascii_case("json") => Format::Json,
            _ => Format::Perfetto,
        }
    }

    fn query(self) -> &'static str {
        match self {
            Format::Perfetto => "perfetto",
            Format::Json => "json",
        }
    }
}

fn positive_seconds(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(s) if s.is_finite() && s > 0.0 => Ok(s),
        _ => Err(format!("{text:?} is not a positive number of seconds (e.g. 5 or 0.5)")),
    }
}

/// The file and format the arguments ask for.
fn target(output: Option<&Path>, format: Option<Format>) -> (PathBuf, Format) {
    match (output, format) {
        (Some(path), format) => (path.to_path_buf(), format.unwrap_or_else(|| Format::of(path))),
        (None, Some(Format::Json)) => ("timeline.json".into(), Format::Json),
        (None, _) => ("timeline.pftrace".into(), Format::Perfetto),
    }
}

/// The request path for `seconds` of timeline in `format`.
fn request_path(seconds: Option<f64>, format: Format) -> String {
    let seconds = seconds.map_or(String::new(), |s| format!("seconds={s}&"));
    format!("/timeline?{seconds}format={}", format.query())
}

pub(crate) fn run(args: &Args) -> anyhow::Result<()> {
    let (path, format) = target(args.output.as_deref(), args.format);
    let address = args.server.address();
    let url = format!("http://{address}{}", request_path(args.seconds, format));
    let config = ureq::Agent::config_builder()
        .timeout_global(Some(Duration::from_secs(args.timeout.max(1))))
        .http_status_as_error(false)
        .build();
    let agent: ureq::Agent = config.into();
    let mut request = agent.get(&url);
    if let Some(token) = args.server.json_token() {
        request = request.header("Authorization", format!("Bearer {token}"));
    }
    let mut response = request.call().map_err(|e| {
        anyhow!("cannot reach http://{address}: {e} (is the program running with its metrics server? --port, --host)")
    })?;
    let status = response.status().as_u16();
    if status != 200 {
        let body = response.body_mut().read_to_string().unwrap_or_default();
        bail!("{}", refusal(status, &body));
    }
    let header = |name: &str| response.headers().get(name).and_then(|v| v.to_str().ok()).map(String::from);
    let (events, threads) = (header("x-hotpath-trace-events"), header("x-hotpath-trace-threads"));
    let file = File::create(&path).with_context(|| format!("cannot create {}", path.display()))?;
    let mut writer = BufWriter::new(file);
    // No size limit: a full dump of many threads' rings is larger than ureq's default.
    let copied = std::io::copy(&mut response.body_mut().as_reader(), &mut writer).and_then(|n| {
        writer.flush()?;
        Ok(n)
    });
    let bytes = match copied {
        Ok(bytes) => bytes,
        Err(e) => {
            drop(writer);
            let _ = std::fs::remove_file(&path);
            bail!("the trace from http://{address} did not arrive whole: {e}");
        }
    };
    let counts = match (events, threads) {
        (Some(e), Some(t)) => format!(", {e} events on {t} threads"),
        _ => String::new(),
    };
    println!("wrote {} ({bytes} bytes{counts})", path.display());
    Ok(())
}

/// The one line that says why the server did not send a trace.
fn refusal(status: u16, body: &str) -> String {
    let said = serde_json::from_str::<serde_json::Value>(body)
        .ok()
        .and_then(|v| v["error"].as_str().map(String::from))
        .unwrap_or_else(|| body.trim().chars().take(200).collect());
    match status {
        401 => format!("the server wants a token: pass --token or set HOTPATH_AUTH_TOKEN ({said})"),
        _ => format!("no trace (HTTP {status}): {said}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn format_follows_the_file_unless_given() {
        let path = |p: &str| Some(PathBuf::from(p));
        assert_eq!(target(path("a/t.json").as_deref(), None), ("a/t.json".into(), Format::Json));
        assert_eq!(target(path("t.JSON").as_deref(), None).1, Format::Json);
        assert_eq!(target(path("t.pftrace").as_deref(), None).1, Format::Perfetto);
        assert_eq!(target(path("trace").as_deref(), None).1, Format::Perfetto);
        assert_eq!(target(path("t.json").as_deref(), Some(Format::Perfetto)).1, Format::Perfetto);
        assert_eq!(target(None, None), ("timeline.pftrace".into(), Format::Perfetto));
        assert_eq!(target(None, Some(Format::Json)), ("timeline.json".into(), Format::Json));
    }

    #[test]
    fn requests_and_refusals() {
        assert_eq!(request_path(Some(2.5), Format::Json), "/timeline?seconds=2.5&format=json");
        assert_eq!(request_path(None, Format::Perfetto), "/timeline?format=perfetto");
        assert!(positive_seconds("0").is_err() && positive_seconds("abc").is_err() && positive_seconds("inf").is_err());
        assert_eq!(positive_seconds("0.5"), Ok(0.5));
        let off = refusal(409, r#"{"error":"the timeline is off: start the program with HOTPATH_TIMELINE=on"}"#);
        assert_eq!(off, "no trace (HTTP 409): the timeline is off: start the program with HOTPATH_TIMELINE=on");
        assert!(refusal(401, "{}").contains("--token"));
        assert!(refusal(502, "<html>bad gateway</html>").contains("bad gateway"));
    }
}
