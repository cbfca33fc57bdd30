//! Call sites whose label is computed at run time: `measure_block!(name, ..)` with a
//! label expression, and `future!(.., label = expr)`. The macro emits one static
//! [`DynSites`]; each distinct label it sees gets a [`FnSite`] of its own, so rows are
//! keyed by the label's text whatever produced it.
//!
//! Finding the site: the one used last is compared by text without a lock (most call
//! sites see the same few labels in a row); otherwise a lock and a scan of this call
//! site's labels. At most [`MAX_LABELS`] labels per call site get a row; further ones
//! count in the `<other>` row of the call site, and the report header says so.

use std::sync::atomic::{AtomicBool, AtomicPtr, Ordering};
use std::sync::Mutex;

use crate::record::{FnSite, SiteName};
use crate::sync::lock;
use crate::{diag, memory};

/// Distinct run-time labels one call site may create rows for.
pub(crate) const MAX_LABELS: usize = 1_000;

/// A label and its site; leaked, never freed (bounded by [`MAX_LABELS`] per call site).
struct Slot {
    label: &'static str,
    site: FnSite,
}

/// The sites of one macro call whose label is known only at run time. Not a public API.
pub struct DynSites {
    file: &'static str,
    line: u32,
    is_async: bool,
    future: bool,
    /// The slot used last, or null.
    last: AtomicPtr<Slot>,
    slots: Mutex<Vec<&'static Slot>>,
    overflowed: AtomicBool,
}

impl DynSites {
    /// The sites of a `measure_block!`; `const` so the macro can place it in a `static`.
    pub const fn new(file: &'static str, line: u32, is_async: bool) -> Self {
        Self::make(file, line, is_async, false)
    }

    /// The sites of a `future!`, reported in the futures section.
    pub const fn future(file: &'static str, line: u32) -> Self {
        Self::make(file, line, true, true)
    }

    const fn make(file: &'static str, line: u32, is_async: bool, future: bool) -> Self {
        Self {
            file,
            line,
            is_async,
            future,
            last: AtomicPtr::new(std::ptr::null_mut()),
            slots: Mutex::new(Vec::new()),
            overflowed: AtomicBool::new(false),
        }
    }

    /// The site of `label`, made on its first use.
    #[inline]
    pub fn site(&'static self, label: &str) -> &'static FnSite {
        let last = self.last.load(Ordering::Acquire);
        // SAFETY: `last` is null or was stored from a leaked `&'static Slot` below (with
        // Release, so the slot is fully written); slots are never freed.
        if let Some(slot) = unsafe { last.cast_const().as_ref() } {
            if slot.label == label {
                return &slot.site;
            }
        }
        self.find_or_make(label)
    }

    #[cold]
    #[inline(never)]
    fn find_or_make(&'static self, label: &str) -> &'static FnSite {
        let slot = memory::untracked(|| {
            let mut slots = lock(&self.slots);
            if let Some(slot) = slots.iter().find(|s| s.label == label) {
                return *slot;
            }
            let label = if slots.len() < MAX_LABELS {
                label
            } else {
                if !self.overflowed.swap(true, Ordering::Relaxed) {
                    diag::warn_in_report(format!(
                        "more than {MAX_LABELS} run-time labels at {}:{}: further ones are counted in its `<other>` row",
                        self.file, self.line
                    ));
                }
                "<other>"
            };
            if let Some(slot) = slots.iter().find(|s| s.label == label) {
                return *slot;
            }
            let label: &'static str = Box::leak(label.to_string().into_boxed_str());
            let name = SiteName::Label(label);
            let site = if self.future {
                FnSite::future(name, self.file, self.line)
            } else {
                FnSite::new(name, self.file, self.line, self.is_async)
            };
            let slot: &'static Slot = Box::leak(Box::new(Slot { label, site }));
            memory::allocated(std::mem::size_of::<Slot>() + label.len());
            slots.push(slot);
            slot
        });
        self.last.store((slot as *const Slot).cast_mut(), Ordering::Release);
        &slot.site
    }
}

#[cfg(test)]
mod tests {
    use super::DynSites;

    static SITES: DynSites = DynSites::new("src/a.rs", 7, false);

    #[test]
    fn one_site_per_label_text() {
        let a = SITES.site("alpha");
        let b = SITES.site(&String::from("beta"));
        assert!(std::ptr::eq(a, SITES.site(&format!("al{}", "pha"))));
        assert!(std::ptr::eq(b, SITES.site("beta")));
        assert!(!std::ptr::eq(a, b));
        assert_eq!((a.name(), b.name()), ("alpha".to_string(), "beta".to_string()));
    }
}
