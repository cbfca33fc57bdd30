//! A call site of a wrapping macro and the entries its values record into.

use std::ops::Deref;
use std::ptr;
use std::sync::atomic::{AtomicU32, Ordering::Relaxed};
use std::sync::OnceLock;

use super::registry::{warn_overflow, Registry};
use crate::memory;

/// An instrument's entry data, with the registry of its entries.
pub(crate) trait Instrument: Sized + Send + Sync + 'static {
    /// The macro's name in messages, such as `channel!`.
    const MACRO: &'static str;
    fn registry() -> &'static Registry<Entry<Self>>;
}

/// Where a wrapping macro was written; each expansion emits one as a `static`, of its
/// instrument's `Site<K>` type (`IoSite`, `StreamSite`, `ChannelSite`, `MutexSite`,
/// `RwLockSite`). Not a public API.
pub struct Site<K: 'static> {
    label: Option<&'static str>,
    file: &'static str,
    line: u32,
    iter: bool,
    /// Entries shared by this site's values, and its overflow entries, oldest first.
    /// Read without a lock; appended only under the instrument's registry lock.
    first: OnceLock<&'static Entry<K>>,
    /// Values wrapped with `iter = true` that got an entry of their own, numbering rows.
    instances: AtomicU32,
}

/// The row name of the entry that values past a cap count in.
pub(crate) const OVERFLOW_NAME: &str = "<other>";

/// What an entry stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Role {
    /// Every value of one (site, type, label).
    Shared,
    /// One `iter = true` value: the n-th of its site (from 1).
    Instance(u32),
    /// The values of one (site, type) past a cap.
    Overflow,
}

/// One report row of an instrument: what it shares with every entry, then the
/// instrument's own data `K` (reached through `Deref`).
pub(crate) struct Entry<K: 'static> {
    id: u32,
    site: &'static Site<K>,
    type_name: &'static str,
    label: Option<Box<str>>,
    role: Role,
    name: String,
    /// The next entry of the site's list (unused by `Instance` entries, never listed).
    next: OnceLock<&'static Entry<K>>,
    data: K,
}

impl<K> Site<K> {
    /// A site; `const` so the macros can place it in a `static`.
    pub const fn new(label: Option<&'static str>, file: &'static str, line: u32, iter: bool) -> Self {
        Self { label, file, line, iter, first: OnceLock::new(), instances: AtomicU32::new(0) }
    }

    // `K: Instrument` is bound on each method below: the trait is crate-private and
    // `Site` is public.

    /// The entry of a value of type `T` with the site's label; `create` makes the
    /// instrument's data when a new entry is needed. Once per value, never per operation.
    #[cfg(test)]
    #[inline]
    pub(crate) fn entry_of<T: ?Sized>(&'static self, create: impl FnOnce() -> K) -> &'static Entry<K>
    where
        K: Instrument,
    {
        self.entry(std::any::type_name::<T>(), self.label, create)
    }

    /// The entry of a value of type `T` labelled `label` when given (computed at run
    /// time, as `channel!(.., label = format!(..))` does), else with the site's label.
    #[inline]
    pub(crate) fn entry_labelled<T: ?Sized>(
        &'static self,
        label: Option<&str>,
        create: impl FnOnce() -> K,
    ) -> &'static Entry<K>
    where
        K: Instrument,
    {
        self.entry(std::any::type_name::<T>(), label.or(self.label), create)
    }

    /// The entry of a value carrying `type_name`, labelled `label` (which may have been
    /// computed at run time: it is compared as a string, and copied into a new entry).
    #[inline]
    pub(crate) fn entry(
        &'static self,
        type_name: &'static str,
        label: Option<&str>,
        create: impl FnOnce() -> K,
    ) -> &'static Entry<K>
    where
        K: Instrument,
    {
        if !self.iter {
            if let Some(entry) = self.find(|e| e.role == Role::Shared && e.has(type_name, label)) {
                return entry;
            }
        }
        if K::registry().full(self.iter) {
            if let Some(entry) = self.find(|e| e.role == Role::Overflow && same(e.type_name, type_name)) {
                return entry;
            }
        }
        self.register(type_name, label, create)
    }

    /// The first listed entry that `matches`; a lock-free walk.
    fn find(&self, matches: impl Fn(&Entry<K>) -> bool) -> Option<&'static Entry<K>> {
        let mut next = self.first.get().copied();
        while let Some(entry) = next {
            if matches(entry) {
                return Some(entry);
            }
            next = entry.next.get().copied();
        }
        None
    }

    /// The cold path: under the registry lock, finds the entry again (another thread
    /// may have made it meanwhile) or makes one, of the value's own or the overflow's.
    #[cold]
    #[inline(never)]
    fn register(
        &'static self,
        type_name: &'static str,
        label: Option<&str>,
        create: impl FnOnce() -> K,
    ) -> &'static Entry<K>
    where
        K: Instrument,
    {
        let registry = K::registry();
        let (entry, first_overflow) = memory::untracked(|| {
            let mut entries = registry.lock();
            if !self.iter {
                if let Some(entry) = self.find(|e| e.role == Role::Shared && e.has(type_name, label)) {
                    return (entry, false);
                }
            }
            let role = if registry.admit(self.iter) {
                if self.iter {
                    Role::Instance(self.instances.fetch_add(1, Relaxed) + 1)
                } else {
                    Role::Shared
                }
            } else if let Some(entry) = self.find(|e| e.role == Role::Overflow && same(e.type_name, type_name)) {
                return (entry, false);
            } else {
                Role::Overflow
            };
            let label = if role == Role::Overflow { self.label } else { label };
            let entry = Entry::leak(entries.len() as u32, self, type_name, label, role, create());
            registry.push(&mut entries, entry);
            if !matches!(role, Role::Instance(_)) {
                self.append(entry);
            }
            (entry, role == Role::Overflow && registry.first_overflow(self.iter))
        });
        if first_overflow {
            warn_overflow(K::MACRO, self.iter);
        }
        entry
    }

    /// Links `entry` at the end of the site's list. Called under the registry lock, so
    /// there is one writer; readers see the entry whole (`OnceLock` publishes it).
    fn append(&self, entry: &'static Entry<K>) {
        let mut slot = &self.first;
        while let Some(last) = slot.get() {
            slot = &last.next;
        }
        let _ = slot.set(entry);
    }
}

impl<K> Entry<K> {
    fn leak(
        id: u32,
        site: &'static Site<K>,
        type_name: &'static str,
        label: Option<&str>,
        role: Role,
        data: K,
    ) -> &'static Self {
        let base = label.map_or_else(|| format!("{}:{}", site.file, site.line), str::to_string);
        let name = match role {
            Role::Shared | Role::Instance(1) => base,
            Role::Instance(n) => format!("{base}-{n}"),
            Role::Overflow => OVERFLOW_NAME.to_string(),
        };
        let label: Option<Box<str>> = label.map(Box::from);
        memory::allocated(std::mem::size_of::<Self>() + name.capacity() + label.as_ref().map_or(0, |l| l.len()));
        Box::leak(Box::new(Self { id, site, type_name, label, role, name, next: OnceLock::new(), data }))
    }

    fn has(&self, type_name: &'static str, label: Option<&str>) -> bool {
        same(self.type_name, type_name) && self.label.as_deref() == label
    }

    /// Dense per instrument, from 0, in creation order.
    pub(crate) fn id(&self) -> u32 {
        self.id
    }

    /// Row name: the label or `file:line`; `-2`, `-3`, ... for the second and later
    /// values of an `iter = true` site; `<other>` for values past a cap.
    pub(crate) fn name(&self) -> &str {
        &self.name
    }

    pub(crate) fn label(&self) -> Option<&str> {
        self.label.as_deref()
    }

    /// The full name of the carried type, as `std::any::type_name` spells it.
    pub(crate) fn type_name(&self) -> &'static str {
        self.type_name
    }

    pub(crate) fn file(&self) -> &'static str {
        self.site.file
    }

    pub(crate) fn line(&self) -> u32 {
        self.site.line
    }

    /// Whether the site gives each value a row (`iter = true`).
    pub(crate) fn iter(&self) -> bool {
        self.site.iter
    }
}

impl<K> Deref for Entry<K> {
    type Target = K;
    fn deref(&self) -> &K {
        &self.data
    }
}

/// Type names of one type are usually one static string: the pointer first, the text
/// only when it differs.
#[inline]
fn same(a: &'static str, b: &'static str) -> bool {
    ptr::eq(a, b) || a == b
}
