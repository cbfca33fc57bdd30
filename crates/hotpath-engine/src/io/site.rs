//! `io!`'s call sites and entries: the shared mechanism of `entries`, one entry per site
//! and concrete wrapped type (or per instance with `iter = true`). An entry has no
//! data of its own: its id indexes the per-thread I/O cells (`recorder`).

use crate::entries::{Entry, Instrument, Registry, Site};

/// The call site `io!` emits as a `static`. Not a public API.
pub type IoSite = Site<IoEntry>;

/// What an `io!` entry holds besides its site, type and label: nothing, its numbers
/// live in per-thread cells under its id. Not a public API.
pub struct IoEntry(());

static REGISTRY: Registry<Entry<IoEntry>> = Registry::new();

impl Instrument for IoEntry {
    const MACRO: &'static str = "io!";
    fn registry() -> &'static Registry<Entry<Self>> {
        &REGISTRY
    }
}

/// The entry a new instance of type `T` wrapped at `site` records into: the row of
/// `label` when one was computed at run time, else of the site's label.
#[inline]
pub(crate) fn entry<T: ?Sized>(site: &'static IoSite, label: Option<&str>) -> &'static Entry<IoEntry> {
    site.entry_labelled::<T>(label, || IoEntry(()))
}

/// Every entry, indexed by id.
pub(crate) fn registered() -> Vec<&'static Entry<IoEntry>> {
    REGISTRY.all()
}

#[cfg(test)]
mod tests {
    use super::*;

    static SHARED: IoSite = IoSite::new(Some("shared"), "src/a.rs", 3, false);
    static EACH: IoSite = IoSite::new(None, "src/b.rs", 9, true);

    #[test]
    fn one_entry_per_type_or_per_instance() {
        let a = entry::<std::fs::File>(&SHARED, None);
        let b = entry::<std::fs::File>(&SHARED, None);
        let c = entry::<Vec<u8>>(&SHARED, None);
        assert_eq!(a.id(), b.id());
        assert_ne!(a.id(), c.id());
        assert_eq!((a.name(), c.name()), ("shared", "shared"));
        let names: Vec<String> = (0..3).map(|_| entry::<Vec<u8>>(&EACH, None).name().to_string()).collect();
        assert_eq!(names, ["src/b.rs:9", "src/b.rs:9-2", "src/b.rs:9-3"]);
    }
}
