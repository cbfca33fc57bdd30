//! The `channels` section: messages through `channel!`-wrapped channels, queue build-up,
//! blocked senders, send-to-receive latency and the slow-consumer flag.

mod metrics;
mod row_metrics;
mod table;

use serde::{Deserialize, Serialize};

use crate::stats::DurationStats;

/// Every `channel!` site and message type (or instance, with `iter = true`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Channels {
    /// The rule behind `slow_consumer`, in words (thresholds included).
    pub slow_consumer_rule: String,
    /// Rows before the focus filter and the row limit.
    pub total_channels: usize,
    /// Rows after focus and limit: slow consumers first, then by messages sent.
    pub rows: Vec<ChannelRow>,
}

/// One `channel!` site and message type.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct ChannelRow {
    /// The label or `file:line`; `label-2`, `label-3`, ... for further instances with `iter = true`.
    pub name: String,
    /// Source file of the macro.
    pub file: String,
    /// Source line.
    pub line: u32,
    /// Backend and flavour, such as `std::sync_channel` or `tokio::mpsc::unbounded`.
    pub kind: String,
    /// Type of the messages.
    pub message_type: String,
    /// Capacity of a bounded channel, when the backend reports it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub capacity: Option<u64>,
    /// Channels wrapped at this site.
    pub instances: u64,
    /// Of those, closed: every sender or every receiver dropped.
    pub closed_instances: u64,
    /// `open` while any instance is open, else `closed`.
    pub state: String,
    /// Messages sent successfully.
    pub sent: u64,
    /// Messages received (for broadcast, deliveries to each receiver).
    pub received: u64,
    /// Messages in the queue now, summed over open instances (for broadcast, pending
    /// deliveries; watch keeps no queue and shows 0).
    pub queue_len: u64,
    /// Longest queue any instance had, observed at each send.
    pub max_queue_len: u64,
    /// Sends that found a bounded channel full and waited, and how long they waited.
    pub blocked: DurationStats,
    /// Time from a successful send to the matching receive.
    pub latency: DurationStats,
    /// True when the queue grew for a sustained window at some point (see `slow_consumer_rule`).
    pub slow_consumer: bool,
    /// True when the rule holds for the latest window.
    pub slow_consumer_now: bool,
    /// Times code reached the wrapped halves through `Deref` (a `&wrapped` passed as the
    /// backend's own type, or a method the wrapper does not define): sends and receives done that way
    /// are not measured. 0 when the wrapper's type is used throughout.
    #[serde(default)]
    pub derefs: u64,
}
