//! One outgoing call from its start to its response head: the endpoint row it counts
//! in, and the route scope it began in.

use std::time::Instant;

use crate::services::log_record::{self as logs, HttpRecord};
use crate::services::recorder::with_cell;
use crate::services::rows::{Key, Row, RowTable};
use crate::services::scope;
use crate::services::text::{push_path, TextBuf};
use crate::switch;

/// Endpoint rows; `tag` is the client library.
pub(crate) static ENDPOINTS: RowTable = RowTable::new("HTTP endpoints");

/// The client libraries, as row tags.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub(crate) enum Client {
    #[cfg(any(feature = "reqwest-0-12", feature = "reqwest-0-13"))]
    Reqwest = 0,
    #[cfg(feature = "ureq")]
    Ureq = 1,
}

impl Client {
    /// The library of a row tag (the discriminants above).
    pub(crate) fn name(tag: u8) -> &'static str {
        match tag {
            1 => "ureq",
            _ => "reqwest",
        }
    }
}

/// The parts of a request URL that name its endpoint.
pub(crate) struct Target<'a> {
    pub(crate) method: &'a str,
    pub(crate) scheme: &'a str,
    pub(crate) host: &'a str,
    /// An explicit port (a default one is `None`): folded to `:{port}`.
    pub(crate) port: Option<u16>,
    pub(crate) path: &'a str,
}

/// How a call ended.
pub(crate) enum Outcome {
    /// A response head with this status and, when announced, body length.
    Response { status: u16, length: Option<u64> },
    /// No response: connect, timeout, protocol or middleware failure.
    Failed,
}

/// A call in progress.
pub(crate) struct Call {
    row: &'static Row,
    route: u32,
    start: Instant,
    /// `scheme://host[:port]/path`, for the row's log: never the query string.
    url: String,
}

impl Call {
    /// Starts timing a call; `None` while profiling is off.
    pub(crate) fn begin(client: Client, label: Option<&str>, target: &Target<'_>) -> Option<Call> {
        if !switch::enabled() {
            return None;
        }
        let mut text = TextBuf::new();
        text.push(target.method);
        text.push(" ");
        text.push(target.host);
        if target.port.is_some() {
            text.push(":{port}");
        }
        push_path(&mut text, target.path);
        let route = scope::current_route();
        let key = Key { text: text.as_str(), label, route, function: scope::current_function(), tag: client as u8 };
        let url = crate::memory::untracked(|| url(target));
        Some(Call { row: ENDPOINTS.get(&key, || None), route, start: Instant::now(), url })
    }

    /// Records the call's end (on the thread that saw it end).
    pub(crate) fn finish(self, outcome: Outcome) {
        let ns = self.start.elapsed().as_nanos() as u64;
        scope::add_http(self.route, ns);
        let (status, bytes) = match &outcome {
            Outcome::Response { status, length } => (Some(*status), *length),
            Outcome::Failed => (None, None),
        };
        let method = self.row.text().split_once(' ').map_or("", |(m, _)| m);
        logs::record(self.row, &HttpRecord { method, status, ns, bytes, url: &self.url });
        self.row.on_timeline(ns, status.unwrap_or(0));
        with_cell(self.row.id(), |cell| {
            cell.complete(ns);
            match outcome {
                Outcome::Response { status, length } => {
                    cell.status(status);
                    if let Some(n) = length {
                        cell.amount(0, n);
                    }
                }
                Outcome::Failed => cell.error(true),
            }
        });
    }
}

impl Drop for Call {
    /// Frees the URL as it was made: outside the program's allocation counts (a call
    /// whose future was dropped never finishes).
    fn drop(&mut self) {
        let url = std::mem::take(&mut self.url);
        crate::memory::untracked(|| drop(url));
    }
}

/// The call's URL without its query string (`path` never has one).
fn url(target: &Target<'_>) -> String {
    let mut url = String::with_capacity(target.scheme.len() + target.host.len() + target.path.len() + 9);
    url.push_str(target.scheme);
    url.push_str("://");
    url.push_str(target.host);
    if let Some(port) = target.port {
        url.push(':');
        url.push_str(&port.to_string());
    }
    url.push_str(target.path);
    url
}
