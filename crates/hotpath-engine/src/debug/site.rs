//! Call sites of the tracker macros, emitted as `static`s by their expansions. A site
//! caches the entry it used last, so a repeated call finds it with one atomic load
//! (and, for keyed macros, one comparison of the key); only the first call, or a
//! site whose key changes, looks it up under the registry's lock.

use std::fmt::Debug;
use std::sync::atomic::{AtomicPtr, Ordering};
use std::sync::Mutex;

use super::keyed::{Keyed, KeyedEntry};
use crate::logs::location::Location;
use crate::logs::log::LogRing;
use crate::sync::lock;
use crate::{memory, switch, timeline};

/// A `dbg!` call site: one report row, its expression's text and its log.
pub struct DbgSite {
    location: Location,
    expression: &'static str,
    entry: AtomicPtr<DbgEntry>,
}

/// The row of a `dbg!` site.
pub(crate) struct DbgEntry {
    pub(crate) id: u32,
    pub(crate) site: &'static DbgSite,
    pub(crate) log: LogRing,
}

/// Every `dbg!` site that recorded, in first-use order (ids are indices).
pub(crate) static DBG_ENTRIES: Mutex<Vec<&'static DbgEntry>> = Mutex::new(Vec::new());

impl DbgSite {
    /// A site; `const` so the macro can place it in a `static`.
    pub const fn new(file: &'static str, line: u32, column: u32, expression: &'static str) -> Self {
        Self { location: Location::new(file, line, column), expression, entry: AtomicPtr::new(std::ptr::null_mut()) }
    }

    /// Logs `value` under this site while a session records; a relaxed load otherwise.
    #[inline]
    pub fn record<T: Debug>(&'static self, value: &T) {
        if switch::enabled() {
            self.record_dyn(value);
        }
    }

    #[inline(never)]
    fn record_dyn(&'static self, value: &dyn Debug) {
        let entry = self.entry();
        entry.log.append_keyed(value, None, None);
        if timeline::on() {
            timeline::instant(timeline::Kind::Mark, entry.id, crate::clock::now(), timeline::MARK_DBG);
        }
    }

    fn entry(&'static self) -> &'static DbgEntry {
        // SAFETY: the pointer is null or a leaked `DbgEntry` stored by `register`.
        match unsafe { self.entry.load(Ordering::Acquire).as_ref() } {
            Some(entry) => entry,
            None => self.register(),
        }
    }

    #[cold]
    fn register(&'static self) -> &'static DbgEntry {
        memory::untracked(|| {
            let mut entries = lock(&DBG_ENTRIES);
            // SAFETY: as in `entry`; re-read under the lock so two threads make one entry.
            if let Some(entry) = unsafe { self.entry.load(Ordering::Acquire).as_ref() } {
                return entry;
            }
            let entry: &'static DbgEntry =
                Box::leak(Box::new(DbgEntry { id: entries.len() as u32, site: self, log: LogRing::new() }));
            memory::allocated(size_of::<DbgEntry>() + size_of::<usize>());
            entries.push(entry);
            self.entry.store((entry as *const DbgEntry).cast_mut(), Ordering::Release);
            entry
        })
    }

    pub(crate) fn location(&self) -> Location {
        self.location
    }

    pub(crate) fn expression(&self) -> &'static str {
        self.expression
    }
}

/// A call site of a keyed macro (`val!`, `gauge!`) for entries of type `E`.
pub(crate) struct KeySite<E: 'static> {
    pub(crate) location: Location,
    cache: AtomicPtr<E>,
}

impl<E: KeyedEntry> KeySite<E> {
    pub(crate) const fn new(file: &'static str, line: u32, column: u32) -> Self {
        Self { location: Location::new(file, line, column), cache: AtomicPtr::new(std::ptr::null_mut()) }
    }

    /// The entry for `key` while a session records, and the key itself when it was
    /// folded into `<other>` (the records then name it).
    #[inline]
    pub(crate) fn entry(&'static self, key: &str) -> Option<(&'static E, Option<Box<str>>)> {
        if !switch::enabled() {
            return None;
        }
        // SAFETY: the cache is null or a leaked entry stored by `lookup`.
        if let Some(entry) = unsafe { self.cache.load(Ordering::Acquire).as_ref() } {
            if entry.key() == key {
                return Some((entry, None));
            }
        }
        Some(self.lookup(key))
    }

    #[cold]
    #[inline(never)]
    fn lookup(&'static self, key: &str) -> (&'static E, Option<Box<str>>) {
        let registry: &Keyed<E> = E::registry();
        let entry = registry.get(key);
        if entry.key() == key {
            self.cache.store((entry as *const E).cast_mut(), Ordering::Release);
            return (entry, None);
        }
        // Folded (or cut to the length limit): not cached, so the comparison above stays exact.
        let max = crate::logs::limits::current().max_len;
        let folded = entry.is_other().then(|| memory::untracked(|| Box::<str>::from(crate::logs::cut_key(key, max))));
        (entry, folded)
    }
}
