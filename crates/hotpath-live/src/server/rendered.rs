//! Responses rendered once per snapshot and shared: many clients asking for
//! `/metrics` (or any path and query) within one snapshot's life get the same body,
//! one `Arc` each, instead of a render and a copy each. Renders run one at a time
//! (a large report's render is the server's biggest transient allocation), and only
//! while the bodies held (`pending`) are under the budget; beyond it the answer is a
//! 503 with `Retry-After` until slow clients read or reach their deadline. Entries
//! expire with their snapshot, and the reactor purges them when nobody asks, so an
//! idle server holds no rendered body.

use std::sync::{Arc, Mutex, OnceLock, Weak};
use std::time::Instant;

use super::http::Response;
use super::pending::PENDING;
use super::snapshot::{Snapshot, MAX_AGE};
use crate::lock;

/// Distinct path-and-query keys kept; the oldest gives way beyond it.
const ENTRIES: usize = 16;

/// Rendered responses of the current snapshot.
#[derive(Default)]
pub(crate) struct Rendered {
    entries: Mutex<Vec<Entry>>,
    /// Held across a render, so that renders never run side by side.
    rendering: Mutex<()>,
}

struct Entry {
    key: String,
    /// The snapshot it is rendered from (weak: the cache never keeps a report alive).
    from: Weak<Snapshot>,
    /// When the entry was made; the render's own time once there is one.
    made: Instant,
    slot: Arc<Slot>,
}

/// The response once rendered, and when it was.
type Slot = OnceLock<(Response, Instant)>;

impl Entry {
    /// Whether the entry still serves at `now`: [`MAX_AGE`] after its render (a slow
    /// render does not make the response expire at once), or after it was made.
    fn live(&self, now: Instant) -> bool {
        self.slot.get().map_or(self.made, |(_, at)| *at) + MAX_AGE > now
    }
}

impl Rendered {
    /// The response for `key` (path and query) from `snapshot`: the one already
    /// rendered from it, else `render`'s when the budget has room, else a 503.
    pub(crate) fn serve(&self, snapshot: &Arc<Snapshot>, key: &str, render: impl FnOnce() -> Response) -> Response {
        let slot = self.slot(snapshot, key);
        if let Some((response, _)) = slot.get() {
            return response.clone();
        }
        let _one = lock(&self.rendering);
        if let Some((response, _)) = slot.get() {
            return response.clone(); // rendered while this request waited
        }
        if PENDING.full() {
            return Response::busy("the server holds as many unsent responses as it may (slow clients)");
        }
        let response = render();
        let _ = slot.set((response.clone(), Instant::now()));
        response
    }

    /// The entry for `key` from `snapshot`, made (empty) if there is none; entries of
    /// older snapshots and expired ones go.
    fn slot(&self, snapshot: &Arc<Snapshot>, key: &str) -> Arc<Slot> {
        let now = Instant::now();
        let mut entries = lock(&self.entries);
        entries.retain(|e| e.live(now) && std::ptr::eq(e.from.as_ptr(), Arc::as_ptr(snapshot)));
        if let Some(entry) = entries.iter().find(|e| e.key == key) {
            return Arc::clone(&entry.slot);
        }
        if entries.len() >= ENTRIES {
            entries.remove(0);
        }
        let slot = Arc::new(OnceLock::new());
        let from = Arc::downgrade(snapshot);
        entries.push(Entry { key: key.to_string(), from, made: now, slot: Arc::clone(&slot) });
        slot
    }

    /// Drops expired entries; returns when the next one is due to be looked at.
    pub(crate) fn purge(&self, now: Instant) -> Option<Instant> {
        let mut entries = lock(&self.entries);
        entries.retain(|e| e.live(now));
        // An entry still rendering is looked at again after MAX_AGE.
        entries.iter().map(|e| e.slot.get().map_or(now, |(_, at)| *at).max(e.made) + MAX_AGE).min()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hotpath_model::Report;
    use std::time::Duration;

    fn snapshot() -> Arc<Snapshot> {
        Arc::new(Snapshot::new(Report::default(), Duration::from_secs(1)))
    }

    #[test]
    fn one_render_per_snapshot_and_key_shared_by_every_caller() {
        let rendered = Rendered::default();
        let (first, second) = (snapshot(), snapshot());
        let mut renders = 0;
        let mut get = |s: &Arc<Snapshot>, key: &str| {
            rendered.serve(s, key, || {
                renders += 1;
                Response::json(200, format!("{key} #{renders}"))
            })
        };
        let a = get(&first, "/metrics");
        let b = get(&first, "/metrics");
        assert!(Arc::ptr_eq(&a.body, &b.body), "the same bytes, not a copy");
        let other = get(&first, "/report?limit=0");
        assert_eq!(other.body.bytes(), b"/report?limit=0 #2");
        let newer = get(&second, "/metrics");
        assert_eq!(newer.body.bytes(), b"/metrics #3", "a new snapshot is rendered anew");
        assert_eq!(get(&second, "/metrics").body.bytes(), b"/metrics #3");
    }

    #[test]
    fn entries_expire_so_an_idle_server_holds_no_body() {
        let rendered = Rendered::default();
        let s = snapshot();
        let body = rendered.serve(&s, "/metrics", || Response::json(200, "x".repeat(1000))).body;
        let weak = Arc::downgrade(&body);
        drop(body);
        assert!(weak.upgrade().is_some(), "cached");
        let expiry = rendered.purge(Instant::now()).expect("one entry");
        assert!(expiry <= Instant::now() + MAX_AGE);
        assert!(rendered.purge(Instant::now()).is_some(), "kept until then");
        assert_eq!(rendered.purge(expiry), None);
        assert!(weak.upgrade().is_none(), "purged and freed");
        for i in 0..3 * ENTRIES {
            rendered.serve(&s, &format!("/report?focus={i}"), || Response::json(200, String::new()));
        }
        assert_eq!(lock(&rendered.entries).len(), ENTRIES, "distinct queries are bounded");
    }
}
