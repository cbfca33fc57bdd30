//! The exporter's bounded queue of encoded batches and their delivery. Only the
//! exporter's thread touches it, so the program's threads never wait on it: they
//! never see it at all. When the endpoint is down the queue keeps the latest
//! [`CAPACITY`] batches and drops the oldest, counting each; with cumulative
//! temporality the newest batch holds every total, so a dropped batch loses points
//! in time, never counts.
//!
//! Responses, as the OTLP/HTTP spec has them: 2xx is delivered (a partial success's
//! rejected points are counted); 429, 502, 503 and 504 are retried at the next push,
//! not before a `Retry-After` of at most a minute; any other status drops the batch
//! (the endpoint will not take it later either); no connection, a timeout or a broken
//! response keep it for the next push.

use std::collections::VecDeque;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::Arc;
use std::time::{Duration, Instant};

use hotpath_session::OtlpEndpoint;
use prost::Message;

use super::client;
use super::proto::ExportMetricsServiceResponse;
use crate::otlp_stats::OtlpStats;

/// Batches kept while the endpoint cannot take them.
pub(crate) const CAPACITY: usize = 8;

/// Most time one request may take.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(5);

pub(crate) struct Outbox {
    endpoint: OtlpEndpoint,
    queue: VecDeque<Vec<u8>>,
    stats: Arc<OtlpStats>,
    /// No request before this (a `Retry-After`).
    hold_until: Option<Instant>,
}

impl Outbox {
    pub(crate) fn new(endpoint: OtlpEndpoint, stats: Arc<OtlpStats>) -> Self {
        Self { endpoint, queue: VecDeque::with_capacity(CAPACITY), stats, hold_until: None }
    }

    /// Queues a batch, dropping the oldest when full.
    pub(crate) fn push(&mut self, batch: Vec<u8>) {
        if self.queue.len() == CAPACITY {
            self.queue.pop_front();
            self.stats.dropped.fetch_add(1, Relaxed);
        }
        self.queue.push_back(batch);
        self.stats.queued.store(self.queue.len() as u64, Relaxed);
    }

    /// Sends queued batches, oldest first, until one fails or `deadline` passes.
    pub(crate) fn flush(&mut self, deadline: Instant) {
        if self.hold_until.is_some_and(|t| Instant::now() < t) {
            return;
        }
        self.hold_until = None;
        while let Some(batch) = self.queue.front() {
            let Some(left) = deadline.checked_duration_since(Instant::now()).filter(|d| !d.is_zero()) else { break };
            let delivered = match client::post(&self.endpoint, batch, left.min(REQUEST_TIMEOUT)) {
                Ok(r) if (200..300).contains(&r.status) => {
                    self.stats.sent.fetch_add(1, Relaxed);
                    self.partial_success(&r.body);
                    true
                }
                Ok(r) if matches!(r.status, 429 | 502 | 503 | 504) => {
                    self.failed(format!("{} answered {}; retrying", self.endpoint.url(), r.status));
                    let wait = Duration::from_secs(r.retry_after.unwrap_or(0).min(60));
                    self.hold_until = Some(Instant::now() + wait);
                    false
                }
                Ok(r) => {
                    self.stats.dropped.fetch_add(1, Relaxed);
                    let message = format!("{} answered {}; batch dropped", self.endpoint.url(), r.status);
                    self.stats.note_error(message);
                    true
                }
                Err(e) => {
                    self.failed(format!("{}: {e}; retrying", self.endpoint.url()));
                    false
                }
            };
            if !delivered {
                break;
            }
            self.queue.pop_front();
        }
        self.stats.queued.store(self.queue.len() as u64, Relaxed);
    }

    fn failed(&self, message: String) {
        self.stats.failed.fetch_add(1, Relaxed);
        self.stats.note_error(message);
    }

    fn partial_success(&self, body: &[u8]) {
        let Ok(response) = ExportMetricsServiceResponse::decode(body) else { return };
        if let Some(partial) = response.partial_success.filter(|p| p.rejected_data_points > 0) {
            self.stats.rejected_points.fetch_add(partial.rejected_data_points as u64, Relaxed);
            self.stats.note_error(format!("{} rejected points: {}", self.endpoint.url(), partial.error_message));
        }
    }

    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.queue.len()
    }
}
