//! Every entry of one instrument, numbered, and the caps on how many it makes. Generic
//! over the entry type, so that it needs nothing of `site`.

use std::sync::atomic::{AtomicBool, AtomicU32, Ordering::Relaxed};
use std::sync::{Mutex, MutexGuard};

use crate::diag;
use crate::sync::lock;

/// Per instrument, `iter = true` values past this many count in their site's `<other>`
/// entry instead of getting one of their own.
pub(crate) const MAX_INSTANCES: u32 = 1_000;

/// Per instrument, (site, type, label) entries past this many count in their site's
/// `<other>` entry: far more than programs have call sites × types, it bounds labels
/// computed at run time.
pub(crate) const MAX_SHARED: u32 = 2_000;

/// The entries of one instrument by id, and its counts against the caps.
pub(crate) struct Registry<E: 'static> {
    entries: Mutex<Vec<&'static E>>,
    /// Entries made for (site, type, label)s, then for `iter = true` values: written
    /// under the lock, read without it to know when a cap is reached.
    made: [AtomicU32; 2],
    /// Whether each cap has sent a value to an overflow entry yet (under the lock).
    overflowed: [AtomicBool; 2],
}

/// Entries made so far, over all instruments (a report needs the clock ratio then).
static CREATED: AtomicBool = AtomicBool::new(false);

/// Whether any wrapping macro has created an entry.
pub(crate) fn any() -> bool {
    CREATED.load(Relaxed)
}

impl<E> Registry<E> {
    pub(crate) const fn new() -> Self {
        Self {
            entries: Mutex::new(Vec::new()),
            made: [AtomicU32::new(0), AtomicU32::new(0)],
            overflowed: [AtomicBool::new(false), AtomicBool::new(false)],
        }
    }

    /// A copy of the list in id order, so sections build rows without holding the lock.
    pub(crate) fn all(&self) -> Vec<&'static E> {
        lock(&self.entries).clone()
    }

    /// Whether the cap for `iter` (or shared) entries is reached.
    #[inline]
    pub(crate) fn full(&self, iter: bool) -> bool {
        self.made[iter as usize].load(Relaxed) >= cap(iter)
    }

    pub(super) fn lock(&self) -> MutexGuard<'_, Vec<&'static E>> {
        lock(&self.entries)
    }

    /// Under the lock: counts one more entry of its own for an `iter` value (or a new
    /// (site, type, label)), or returns false when the cap is reached.
    pub(super) fn admit(&self, iter: bool) -> bool {
        let made = &self.made[iter as usize];
        let n = made.load(Relaxed);
        if n >= cap(iter) {
            return false;
        }
        made.store(n + 1, Relaxed);
        true
    }

    /// Under the lock: adds `entry`, whose id is the list's length.
    pub(super) fn push(&self, entries: &mut Vec<&'static E>, entry: &'static E) {
        let capacity = entries.capacity();
        entries.push(entry);
        crate::memory::allocated((entries.capacity() - capacity) * std::mem::size_of::<&E>());
        CREATED.store(true, Relaxed);
    }

    /// Under the lock: whether this is the first overflow entry for the `iter` cap.
    pub(super) fn first_overflow(&self, iter: bool) -> bool {
        !self.overflowed[iter as usize].swap(true, Relaxed)
    }
}

/// Says (once per instrument and cap, see `first_overflow`) that values of `macro_name`
/// now count in `<other>` rows; printed now and in the report header.
#[cold]
pub(super) fn warn_overflow(macro_name: &str, iter: bool) {
    let what = if iter { "values wrapped with `iter = true`" } else { "rows (call site, type and label)" };
    crate::memory::untracked(|| {
        diag::warn_in_report(format!(
            "more than {} {macro_name} {what}: further ones are counted in the `<other>` row of their call site",
            cap(iter),
        ));
    });
}

fn cap(iter: bool) -> u32 {
    if iter {
        MAX_INSTANCES
    } else {
        MAX_SHARED
    }
}
