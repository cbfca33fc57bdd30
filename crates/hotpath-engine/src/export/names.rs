//! What each timeline event is called: function sites by id, instrument metrics
//! (lock waits and holds, channel messages and blocked sends) by metric id, `io!`
//! entries and `gauge!` keys by their ids. Read from the instruments' registries when
//! a trace is written, so recording never carries a name.

use std::collections::HashMap;

use crate::channels::ChannelEntry;
use crate::entries::Instrument;
use crate::locks::{MutexEntry, RwLockEntry};
use crate::streams::StreamEntry;
use crate::timeline::Kind;

/// Names by event kind and id.
#[derive(Default)]
pub(crate) struct Names {
    functions: Vec<String>,
    /// Metric id → the entry's name.
    metrics: HashMap<u32, String>,
    io: HashMap<u32, String>,
    gauges: HashMap<u32, String>,
    /// HTTP routes and endpoints, SQL statements, by row id.
    requests: HashMap<u32, String>,
    /// (`debug::MARK_DBG` or `MARK_VAL`, id) → the expression or key.
    marks: HashMap<(u64, u32), String>,
}

impl Names {
    /// Every name registered so far.
    pub(crate) fn read() -> Names {
        let mut names = Names {
            functions: crate::record::registered_sites().iter().map(|s| s.name()).collect(),
            ..Names::default()
        };
        for e in ChannelEntry::registry().all() {
            names.metrics.insert(e.latency.id(), e.name().to_string());
            names.metrics.insert(e.blocked.id(), e.name().to_string());
        }
        for e in MutexEntry::registry().all() {
            names.metrics.insert(e.mode.contended.id(), e.name().to_string());
            names.metrics.insert(e.mode.hold.id(), e.name().to_string());
        }
        for e in RwLockEntry::registry().all() {
            for (mode, how) in [(&e.read, "read"), (&e.write, "write")] {
                let name = format!("{} ({how})", e.name());
                names.metrics.insert(mode.contended.id(), name.clone());
                names.metrics.insert(mode.hold.id(), name);
            }
        }
        for e in crate::io::registered() {
            names.io.insert(e.id(), e.name().to_string());
        }
        for (id, key) in crate::debug::gauge_keys() {
            names.gauges.insert(id, key);
        }
        for (kind, id, text) in crate::debug::mark_names() {
            names.marks.insert((kind, id), text);
        }
        for e in StreamEntry::registry().all() {
            names.metrics.insert(e.items.id(), e.name().to_string());
        }
        #[cfg(feature = "services")]
        for row in crate::services::rows() {
            names.requests.insert(row.id(), row.text().to_string());
        }
        names
    }

    /// The name of the thing an event of `kind` with `id` (and `extra`) is about.
    pub(crate) fn of(&self, kind: Kind, id: u32, extra: u64) -> String {
        let found = match kind {
            Kind::Call | Kind::Poll => self.functions.get(id as usize).cloned(),
            Kind::Io => self.io.get(&id).cloned(),
            Kind::Gauge => self.gauges.get(&id).cloned(),
            Kind::Request => self.requests.get(&id).cloned(),
            Kind::Mark => self.marks.get(&(extra, id)).cloned(),
            _ => self.metrics.get(&id).cloned(),
        };
        found.unwrap_or_else(|| format!("#{id}"))
    }
}
