//! Call sites of `io!` and their entries.
//!
//! Each `io!` expansion owns a `static IoSite`. A site has one entry per concrete
//! wrapped type (the type is resolved when an instance is created, never per
//! operation), or with `iter = true` one entry per instance. Entries get dense ids
//! that index the per-thread cells, and are never freed: without `iter` their
//! number is bounded by call sites × types.

use std::any::type_name;
use std::ptr;
use std::sync::atomic::{AtomicPtr, AtomicU32, Ordering};
use std::sync::Mutex;

use super::recorder::MAX_ENTRIES;
use crate::sync::lock;
use crate::{diag, memory};

/// Static metadata of one `io!` call, emitted by the macro.
pub struct IoSite {
    label: Option<&'static str>,
    file: &'static str,
    line: u32,
    iter: bool,
    /// This site's shared entries (one per concrete type), newest first. Read
    /// without a lock when an instance is created; pushed under `ENTRIES`.
    first: AtomicPtr<Entry>,
    /// Instances created so far with `iter = true`, for their row names.
    instances: AtomicU32,
}

/// What one report row aggregates: a site and a concrete type, or one instance.
pub(crate) struct Entry {
    pub(crate) id: u32,
    pub(crate) site: &'static IoSite,
    pub(crate) type_name: &'static str,
    /// 1-based instance number for `iter = true` entries, 0 otherwise.
    pub(crate) ordinal: u32,
    next: AtomicPtr<Entry>,
}

/// Every entry by id; index 0 is unused so that ids start at 1.
static ENTRIES: Mutex<Vec<Option<&'static Entry>>> = Mutex::new(Vec::new());

impl IoSite {
    /// A site; `const` so the macro can place it in a `static`.
    pub const fn new(label: Option<&'static str>, file: &'static str, line: u32, iter: bool) -> Self {
        Self { label, file, line, iter, first: AtomicPtr::new(ptr::null_mut()), instances: AtomicU32::new(0) }
    }

    /// The entry a new instance of type `T` records into; `None` when the entry
    /// table is full (the instance then passes its operations through unmeasured).
    #[inline]
    pub(crate) fn entry<T: ?Sized>(&'static self) -> Option<&'static Entry> {
        let name = type_name::<T>();
        if !self.iter {
            if let Some(entry) = self.find(name) {
                return Some(entry);
            }
        }
        self.register(name)
    }

    fn find(&self, name: &'static str) -> Option<&'static Entry> {
        let mut next = self.first.load(Ordering::Acquire);
        // SAFETY: entries are leaked, so every published pointer stays valid.
        while let Some(entry) = unsafe { next.as_ref() } {
            if same_name(entry.type_name, name) {
                return Some(entry);
            }
            next = entry.next.load(Ordering::Acquire);
        }
        None
    }

    /// The profiler's own allocation: never counted as the program's.
    #[cold]
    #[inline(never)]
    fn register(&'static self, name: &'static str) -> Option<&'static Entry> {
        memory::untracked(|| self.register_locked(name))
    }

    fn register_locked(&'static self, name: &'static str) -> Option<&'static Entry> {
        let mut entries = lock(&ENTRIES);
        if !self.iter {
            // Another thread may have registered this type while we waited.
            if let Some(entry) = self.find(name) {
                return Some(entry);
            }
        }
        if entries.is_empty() {
            entries.push(None);
        }
        if entries.len() >= MAX_ENTRIES {
            drop(entries);
            table_full();
            return None;
        }
        let ordinal = if self.iter { self.instances.fetch_add(1, Ordering::Relaxed) + 1 } else { 0 };
        let id = entries.len() as u32;
        let entry: &'static Entry = Box::leak(Box::new(Entry {
            id,
            site: self,
            type_name: name,
            ordinal,
            next: AtomicPtr::new(self.first.load(Ordering::Relaxed)),
        }));
        let capacity = entries.capacity();
        entries.push(Some(entry));
        memory::allocated(
            std::mem::size_of::<Entry>() + (entries.capacity() - capacity) * std::mem::size_of::<Option<&Entry>>(),
        );
        if !self.iter {
            // Release publishes the entry's fields to lock-free readers in `find`.
            self.first.store(ptr::from_ref(entry).cast_mut(), Ordering::Release);
        }
        Some(entry)
    }

    pub(crate) fn label(&self) -> Option<&'static str> {
        self.label
    }

    pub(crate) fn file(&self) -> &'static str {
        self.file
    }

    pub(crate) fn line(&self) -> u32 {
        self.line
    }

    pub(crate) fn iter(&self) -> bool {
        self.iter
    }
}

impl Entry {
    /// Row name: the label or `file:line`, then `-2`, `-3`, ... for the second and
    /// later instances of an `iter = true` site.
    pub(crate) fn name(&self) -> String {
        let base = match self.site.label {
            Some(label) => label.to_string(),
            None => format!("{}:{}", self.site.file, self.site.line),
        };
        if self.ordinal > 1 {
            format!("{base}-{}", self.ordinal)
        } else {
            base
        }
    }
}

/// Type names of one type are usually the same static string; compare the pointer
/// first and the text only when it differs.
#[inline]
fn same_name(a: &'static str, b: &'static str) -> bool {
    ptr::eq(a, b) || a == b
}

#[cold]
fn table_full() {
    crate::switch::count_dropped();
    static WARNED: std::sync::Once = std::sync::Once::new();
    WARNED.call_once(|| {
        diag::warn(&format!(
            "more than {} io! entries (iter = true creates one per instance); further instances are not measured",
            MAX_ENTRIES - 1
        ));
    });
}

/// Every registered entry, indexed by id (index 0 is `None`).
pub(crate) fn registered() -> Vec<Option<&'static Entry>> {
    lock(&ENTRIES).clone()
}

#[cfg(test)]
mod tests {
    use super::*;

    static SHARED: IoSite = IoSite::new(Some("shared"), "src/a.rs", 3, false);
    static EACH: IoSite = IoSite::new(None, "src/b.rs", 9, true);

    #[test]
    fn one_entry_per_type_or_per_instance() {
        let a = SHARED.entry::<std::fs::File>().unwrap();
        let b = SHARED.entry::<std::fs::File>().unwrap();
        let c = SHARED.entry::<Vec<u8>>().unwrap();
        assert_eq!(a.id, b.id);
        assert_ne!(a.id, c.id);
        assert_eq!((a.name(), c.name()), ("shared".to_string(), "shared".to_string()));
        let names: Vec<String> = (0..3).map(|_| EACH.entry::<Vec<u8>>().unwrap().name()).collect();
        assert_eq!(names, ["src/b.rs:9", "src/b.rs:9-2", "src/b.rs:9-3"]);
    }
}
