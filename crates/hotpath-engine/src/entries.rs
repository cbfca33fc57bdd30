//! Call sites of the wrapping macros (`stream!`, `channel!`, `mutex!`, `rw_lock!`) and
//! the report entries behind them.
//!
//! Each macro expansion owns a `static WrapSite`. A wrapped value belongs to an *entry*
//! keyed by its site and the type it carries (message, item or data type), so values
//! created over and over at one site (a channel per request) share one entry and memory
//! stays bounded by call sites. With `iter = true` every value gets an entry of its own.
//!
//! Creating a wrapper finds its entry through the site's one-entry cache (a load and a
//! type-name comparison); only the first value of a (site, type) pair, or a site used
//! with several types in turn, takes the instrument's registry lock.

use std::sync::atomic::{AtomicPtr, AtomicU32, Ordering};
use std::sync::Mutex;

use crate::memory;
use crate::sync::lock;

/// Where a wrapping macro was written, emitted as a `static` by the macros.
pub struct WrapSite {
    label: Option<&'static str>,
    file: &'static str,
    line: u32,
    iter: bool,
    /// The entry this site used last, as a pointer to its [`EntryHeader`].
    cache: AtomicPtr<EntryHeader>,
    /// Values wrapped with `iter = true`, numbering their rows.
    iterations: AtomicU32,
}

impl WrapSite {
    /// A site; `const` so the macros can place it in a `static`.
    pub const fn new(label: Option<&'static str>, file: &'static str, line: u32, iter: bool) -> Self {
        Self { label, file, line, iter, cache: AtomicPtr::new(std::ptr::null_mut()), iterations: AtomicU32::new(0) }
    }
}

/// Which instrument an entry belongs to; checked before the site cache is trusted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Instrument {
    Stream,
    Channel,
    Mutex,
    RwLock,
}

/// The first field of every entry (`#[repr(C)]`), so a site's cache can point at any.
pub(crate) struct EntryHeader {
    pub(crate) instrument: Instrument,
    pub(crate) site: &'static WrapSite,
    pub(crate) type_name: &'static str,
    /// Display name: label or `file:line`, with `-N` for the N-th value of an `iter` site.
    pub(crate) name: String,
}

impl EntryHeader {
    pub(crate) fn file(&self) -> &'static str {
        self.site.file
    }

    pub(crate) fn line(&self) -> u32 {
        self.site.line
    }
}

/// An instrument's entry type.
///
/// # Safety
/// The type must be `#[repr(C)]` with an [`EntryHeader`] as its first field whose
/// `instrument` is [`INSTRUMENT`](Self::INSTRUMENT), and no other entry type may use
/// the same `INSTRUMENT`.
pub(crate) unsafe trait Entry: Sized + Sync + 'static {
    const INSTRUMENT: Instrument;
    /// Every entry of this instrument, in creation order.
    fn registry() -> &'static Mutex<Vec<&'static Self>>;
    fn header(&self) -> &EntryHeader;
}

/// The entry for a value of type `type_name` wrapped at `site`; `create` builds a new
/// one from its header when there is none yet (or always, on an `iter` site).
#[inline]
pub(crate) fn entry<E: Entry>(
    site: &'static WrapSite,
    type_name: &'static str,
    create: impl FnOnce(EntryHeader) -> E,
) -> &'static E {
    if !site.iter {
        let cached = site.cache.load(Ordering::Acquire);
        // SAFETY: the cache only ever holds headers of leaked entries (see `cold`).
        if let Some(header) = unsafe { cached.as_ref() } {
            if header.instrument == E::INSTRUMENT && header.type_name == type_name {
                // SAFETY: `Entry` guarantees E is repr(C) with this header first.
                return unsafe { &*cached.cast::<E>() };
            }
        }
    }
    cold(site, type_name, create)
}

#[cold]
#[inline(never)]
fn cold<E: Entry>(
    site: &'static WrapSite,
    type_name: &'static str,
    create: impl FnOnce(EntryHeader) -> E,
) -> &'static E {
    memory::untracked(|| {
        let mut entries = lock(E::registry());
        let found = (!site.iter)
            .then(|| {
                entries
                    .iter()
                    .copied()
                    .find(|e| std::ptr::eq(e.header().site, site) && e.header().type_name == type_name)
            })
            .flatten();
        let entry = match found {
            Some(entry) => entry,
            None => {
                let base = site.label.map_or_else(|| format!("{}:{}", site.file, site.line), str::to_string);
                let name = match site.iter.then(|| site.iterations.fetch_add(1, Ordering::Relaxed) + 1) {
                    Some(n) if n > 1 => format!("{base}-{n}"),
                    _ => base,
                };
                let header = EntryHeader { instrument: E::INSTRUMENT, site, type_name, name };
                let entry: &'static E = Box::leak(Box::new(create(header)));
                memory::allocated(std::mem::size_of::<E>());
                entries.push(entry);
                CREATED.store(true, Ordering::Relaxed);
                entry
            }
        };
        if !site.iter {
            site.cache.store((entry.header() as *const EntryHeader).cast_mut(), Ordering::Release);
        }
        entry
    })
}

/// Entries created so far, over all instruments (a report needs the clock ratio then).
static CREATED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Whether any wrapping macro has created an entry.
pub(crate) fn any() -> bool {
    CREATED.load(Ordering::Relaxed)
}

/// A copy of the registry's list, so sections build rows without holding its lock.
pub(crate) fn all<E: Entry>() -> Vec<&'static E> {
    lock(E::registry()).clone()
}

/// Short type names for reports: `alloc::string::String` → `String`,
/// `core::option::Option<alloc::vec::Vec<u8>>` → `Option<Vec<u8>>`.
pub(crate) fn short_type_name(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut segment = String::new();
    for c in name.chars() {
        if c.is_alphanumeric() || c == '_' || c == ':' {
            segment.push(c);
        } else {
            out.push_str(segment.rsplit("::").next().unwrap_or(""));
            segment.clear();
            out.push(c);
        }
    }
    out.push_str(segment.rsplit("::").next().unwrap_or(""));
    out
}

#[cfg(test)]
mod tests {
    use super::short_type_name;

    #[test]
    fn shortens_paths_inside_generics() {
        assert_eq!(short_type_name("alloc::string::String"), "String");
        assert_eq!(short_type_name("core::option::Option<alloc::vec::Vec<u8>>"), "Option<Vec<u8>>");
        assert_eq!(short_type_name("(u32, &str)"), "(u32, &str)");
        assert_eq!(short_type_name("[app::Job; 4]"), "[Job; 4]");
    }
}
