//! A channel as a flow: sender → queue → receiver, with send and receive rates
//! and the queue depth, read as the model's `ChannelRow` (`sent`, `received`,
//! `queue_len`); a row that type cannot read (another build's report) by its fields'
//! names (`sent…`, `received…`, `queue…`), whatever counters it has.

use hotpath_model::{ChannelRow, Unit};
use ratatui::text::Line;
use serde_json::Value;

use crate::console::state::History;

/// Two lines: the flow with the queue depth, then rates and totals of each side.
pub(crate) fn lines(section: &str, key: &str, row: &Value, history: &History) -> Vec<Line<'static>> {
    let (sent, received, queue) = match serde_json::from_value::<ChannelRow>(row.clone()) {
        Ok(c) => (
            Some(("sent".into(), c.sent)),
            Some(("received".into(), c.received)),
            Some(("queue_len".into(), c.queue_len)),
        ),
        Err(_) => by_name(row),
    };
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

/// A counter field of each side and the queue's, by name, for a row of another build.
type Counter = Option<(String, u64)>;

fn by_name(row: &Value) -> (Counter, Counter, Counter) {
    let object = row.as_object();
    let field = |pred: &dyn Fn(&str) -> bool| {
        object.and_then(|o| {
            o.iter().find(|(k, v)| pred(k) && v.is_u64()).map(|(k, v)| (k.clone(), v.as_u64().unwrap_or(0)))
        })
    };
    let sent = field(&|k| k.starts_with("sent") && !k.ends_with("per_sec"));
    let received = field(&|k| (k.starts_with("received") || k.starts_with("recv")) && !k.ends_with("per_sec"));
    let queue = field(&|k| k.contains("queue") && !k.starts_with("max"));
    (sent, received, queue)
}
