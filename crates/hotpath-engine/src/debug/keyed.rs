//! The registry of a keyed macro (`val!`, `gauge!`): one entry per distinct key, at
//! most `HOTPATH_ENTRIES_LIMIT` of them counting `<other>`, into which every further
//! key folds (with one warning in the report). Entries are leaked, never removed, so
//! ids (indices) and the sites' cached pointers stay valid; memory is bounded by the
//! limit, not by the keys a program makes up.

use std::collections::BTreeMap;
use std::sync::Mutex;

use crate::logs::cut_key;
use crate::logs::limits::{self, LogLimits};
use crate::sync::lock;
use crate::{diag, memory};

/// Name of the entry that keys beyond the limit fold into.
pub(crate) const OTHER: &str = "<other>";

/// An entry type of a keyed registry.
pub(crate) trait KeyedEntry: Sized + Sync + 'static {
    /// The registry of this macro.
    fn registry() -> &'static Keyed<Self>;
    /// A new entry.
    fn create(id: u32, key: &str, other: bool) -> Self;
    fn key(&self) -> &str;
    fn is_other(&self) -> bool;
}

struct Inner<E: 'static> {
    by_key: BTreeMap<Box<str>, &'static E>,
    /// Every entry, `<other>` included, in creation order: ids are indices.
    list: Vec<&'static E>,
    other: Option<&'static E>,
}

/// Entries of one keyed macro.
pub(crate) struct Keyed<E: 'static> {
    /// The macro, for the warning (`val!`).
    what: &'static str,
    inner: Mutex<Inner<E>>,
}

impl<E: KeyedEntry> Keyed<E> {
    pub(crate) const fn new(what: &'static str) -> Self {
        Self { what, inner: Mutex::new(Inner { by_key: BTreeMap::new(), list: Vec::new(), other: None }) }
    }

    /// The entry for `key` (cut to the length limit), created while the limit allows
    /// (one place is kept for `<other>`), else `<other>`.
    pub(crate) fn get(&self, key: &str) -> &'static E {
        self.get_with(key, &limits::current())
    }

    fn get_with(&self, key: &str, limits: &LogLimits) -> &'static E {
        let key = cut_key(key, limits.max_len);
        memory::untracked(|| {
            let mut inner = lock(&self.inner);
            if let Some(entry) = inner.by_key.get(key) {
                return *entry;
            }
            if inner.by_key.len() + 1 < limits.entries {
                let entry: &'static E = Box::leak(Box::new(E::create(inner.list.len() as u32, key, false)));
                // The entry, its key twice (map and entry) and a map node's share.
                memory::allocated(size_of::<E>() + 2 * key.len() + 64);
                inner.by_key.insert(key.into(), entry);
                inner.list.push(entry);
                return entry;
            }
            if let Some(other) = inner.other {
                return other;
            }
            let other: &'static E = Box::leak(Box::new(E::create(inner.list.len() as u32, OTHER, true)));
            memory::allocated(size_of::<E>() + OTHER.len());
            inner.other = Some(other);
            inner.list.push(other);
            diag::warn_in_report(format!(
                "{} has more than {} distinct keys: further keys are counted under {OTHER} (HOTPATH_ENTRIES_LIMIT={})",
                self.what,
                limits.entries - 1,
                limits.entries
            ));
            other
        })
    }

    /// Every entry, in creation order.
    pub(crate) fn all(&self) -> Vec<&'static E> {
        lock(&self.inner).list.clone()
    }

    /// The entry with this id.
    pub(crate) fn by_id(&self, id: u32) -> Option<&'static E> {
        lock(&self.inner).list.get(id as usize).copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Entry {
        id: u32,
        key: Box<str>,
        other: bool,
    }

    static TEST: Keyed<Entry> = Keyed::new("test!");

    impl KeyedEntry for Entry {
        fn registry() -> &'static Keyed<Self> {
            &TEST
        }
        fn create(id: u32, key: &str, other: bool) -> Self {
            Self { id, key: key.into(), other }
        }
        fn key(&self) -> &str {
            &self.key
        }
        fn is_other(&self) -> bool {
            self.other
        }
    }

    #[test]
    fn keys_beyond_the_limit_fold_into_other_once() {
        let limits = LogLimits { entries: 4, max_len: 5, ..LogLimits::default() };
        let a = TEST.get_with("a", &limits);
        assert!(std::ptr::eq(a, TEST.get_with("a", &limits)), "one entry per key");
        let long = TEST.get_with("abcdefgh", &limits);
        assert_eq!(long.key(), "abcde", "keys are cut to the length limit");
        TEST.get_with("c", &limits);
        let warnings = diag::report_warnings().len();
        let other = TEST.get_with("d", &limits);
        assert!(other.is_other() && other.key() == OTHER && other.id == 3);
        assert!(std::ptr::eq(other, TEST.get_with("e", &limits)));
        assert!(std::ptr::eq(a, TEST.get_with("a", &limits)), "known keys still have their entry");
        let ids: Vec<u32> = TEST.all().iter().map(|e| e.id).collect();
        assert_eq!(ids, [0, 1, 2, 3]);
        assert!(TEST.by_id(3).is_some_and(Entry::is_other) && TEST.by_id(4).is_none());
        let added: Vec<String> = diag::report_warnings().into_iter().skip(warnings).collect();
        assert_eq!(
            added.iter().filter(|w| w.starts_with("test! has more than 3 distinct keys")).count(),
            1,
            "{added:?}"
        );
    }

    #[test]
    fn keys_are_cut_at_characters() {
        assert_eq!(cut_key("abc", 8), "abc");
        assert_eq!(cut_key("abcdefghij", 4), "abcd");
        assert_eq!(cut_key("ééé", 2), "éé");
        assert_eq!(cut_key("éé", 3), "éé", "4 bytes but 2 characters");
    }
}
