//! A channel as a flow: sender → queue → receiver, with send and receive rates
//! and the queue depth, read from the row's fields by name (`sent…`,
//! `received…`, `queue…`), so it works with whatever counters the section has.

use hotpath_model::Unit;
use ratatui::text::Line;
use serde_json::Value;

use crate::console::state::History;

/// Two lines: the flow with the queue depth, then rates and totals of each side.
pub(crate) fn lines(section: &str, key: &str, row: &Value, history: &History) -> Vec<Line<'static>> {
    let object = row.as_object();
    let field = |pred: &dyn Fn(&str) -> bool| {
        object.and_then(|o| {
            o.iter().find(|(k, v)| pred(k) && v.is_u64()).map(|(k, v)| (k.clone(), v.as_u64().unwrap_or(0)))
        })
    };
    let sent = field(&|k| k.starts_with("sent") && !k.ends_with("per_sec"));
    let received = field(&|k| (k.starts_with("received") || k.starts_with("recv")) && !k.ends_with("per_sec"));
    let queue = field(&|k| k.contains("queue") && !k.starts_with("max"));
    if sent.is_none() && received.is_none() {
        return vec![Line::from("no flow counters (sent/received) in this row")];
    }
    let rate = |f: &Option<(String, u64)>| {
        f.as_ref()
            .and_then(|(k, _)| history.rate(section, key, k))
            .map_or_else(|| "-/s".to_string(), |r| Unit::PerSecond.format(r))
    };
    let total = |f: &Option<(String, u64)>| f.as_ref().map_or_else(|| "-".to_string(), |(_, v)| v.to_string());
    let depth = queue.as_ref().map_or_else(|| "?".to_string(), |(_, v)| v.to_string());
    vec![
        Line::from(format!("sender ──▶ [ queue {depth} ] ──▶ receiver")),
        Line::from(format!(
            "sent {} ({})   received {} ({})",
            rate(&sent),
            total(&sent),
            rate(&received),
            total(&received)
        )),
    ]
}
