//! Call sites of measured functions: one `static FnSite` per annotated item,
//! registered on its first call and identified by a dense id from then on.

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU8, Ordering::Relaxed};
use std::sync::Mutex;

use crate::logs::LogSlot;
use crate::sync::lock;
use crate::timeline::trigger::{self, Reason, Subject};
use crate::timeline::Threshold;

/// How a site is named in reports.
#[derive(Clone, Copy, Debug)]
pub enum SiteName {
    /// A label given by the user.
    Label(&'static str),
    /// The function's path, read from the type name of an item nested in it.
    Path(fn() -> &'static str),
}

/// What a site measures; decides which report section shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SiteKind {
    /// `#[measure]`, `#[measure_all]`, `measure_block!`: the functions sections.
    Function,
    /// `future!`: the futures section (with the async functions).
    Future,
}

/// Static metadata of one measured function or block, emitted by the macros.
pub struct FnSite {
    id: AtomicU32,
    /// Under an overhead budget, the site's timing rate as a power of two: a call is
    /// timed with probability `2^-shift` (0: every call). Set by the budget's collector,
    /// read by each call with one relaxed load.
    shift: AtomicU8,
    /// A call of the site was seen inside another on one thread's stack: under the
    /// budget its calls then all keep the site's recursion depth (`Slot::countdown`).
    recursive: AtomicBool,
    name: SiteName,
    file: &'static str,
    line: u32,
    is_async: bool,
    kind: SiteKind,
    /// Where `log = true` keeps the site's last values.
    logs: LogSlot,
    /// The call duration over which the timeline is written out.
    threshold: Threshold,
    /// `hotpath-callgrind`: the tag of the marker function the body runs in; empty
    /// when the body could not be wrapped. Absent without the feature.
    #[cfg(feature = "icount")]
    icount: Option<&'static str>,
}

/// Registered sites in id order; index 0 is unused so that id 0 means "unregistered".
static SITES: Mutex<Vec<&'static FnSite>> = Mutex::new(Vec::new());

impl FnSite {
    /// A site; `const` so the macros can place it in a `static`.
    pub const fn new(name: SiteName, file: &'static str, line: u32, is_async: bool) -> Self {
        Self {
            id: AtomicU32::new(0),
            shift: AtomicU8::new(0),
            recursive: AtomicBool::new(false),
            name,
            file,
            line,
            is_async,
            kind: SiteKind::Function,
            logs: LogSlot::new(),
            threshold: Threshold::new(0),
            #[cfg(feature = "icount")]
            icount: None,
        }
    }

    /// The same site, whose body runs inside the marker function `__hotpath_cg_<tag>`
    /// (`hotpath-callgrind`); an empty tag says the body could not be wrapped.
    pub const fn icount(self, tag: &'static str) -> Self {
        #[cfg(feature = "icount")]
        {
            let mut site = self;
            site.icount = Some(tag);
            site
        }
        #[cfg(not(feature = "icount"))]
        {
            let _ = tag;
            self
        }
    }

    /// The same site, whose calls over `ns` nanoseconds write the timeline out
    /// (`#[measure(timeline_over = "50ms")]`).
    pub const fn timeline_over(self, ns: u64) -> Self {
        let mut site = self;
        site.threshold = Threshold::new(ns);
        site
    }

    /// The site of a `future!`, reported in the futures section only.
    pub const fn future(name: SiteName, file: &'static str, line: u32) -> Self {
        Self {
            id: AtomicU32::new(0),
            shift: AtomicU8::new(0),
            recursive: AtomicBool::new(false),
            name,
            file,
            line,
            is_async: true,
            kind: SiteKind::Future,
            logs: LogSlot::new(),
            threshold: Threshold::new(0),
            #[cfg(feature = "icount")]
            icount: None,
        }
    }

    /// The budget's timing rate of this site, `2^-shift` (see the field).
    #[inline(always)]
    pub(crate) fn shift(&self) -> u32 {
        u32::from(self.shift.load(Relaxed))
    }

    /// Whether a call of the site was seen inside another (see the field).
    #[inline(always)]
    pub(crate) fn is_recursive(&self) -> bool {
        self.recursive.load(Relaxed)
    }

    pub(crate) fn mark_recursive(&self) {
        self.recursive.store(true, Relaxed);
    }

    /// Sets the budget's timing rate of this site to `2^-shift`.
    pub(crate) fn set_shift(&self, shift: u32) {
        self.shift.store(shift.min(u32::from(u8::MAX)) as u8, Relaxed);
    }

    /// The site's id, registering it on first use.
    #[inline(always)]
    pub(crate) fn id(&'static self) -> u32 {
        match self.id.load(Relaxed) {
            0 => self.register(),
            id => id,
        }
    }

    #[cold]
    #[inline(never)]
    fn register(&'static self) -> u32 {
        crate::memory::untracked(|| self.register_locked())
    }

    fn register_locked(&'static self) -> u32 {
        let mut sites = lock(&SITES);
        // Another thread may have registered this site while we waited for the lock.
        let id = self.id.load(Relaxed);
        if id != 0 {
            return id;
        }
        if sites.is_empty() {
            sites.push(self); // placeholder for id 0
        }
        let id = sites.len() as u32;
        sites.push(self);
        self.threshold.apply(|| self.name());
        self.id.store(id, Relaxed);
        id
    }

    /// The id of a site already registered (every site a frame was entered with); 0
    /// if it is not yet.
    #[inline(always)]
    pub(crate) fn registered_id(&self) -> u32 {
        self.id.load(Relaxed)
    }

    /// Its timeline trigger.
    #[inline(always)]
    pub(crate) fn threshold(&self) -> &Threshold {
        &self.threshold
    }

    /// Writes the timeline out if a call that lasted `ticks` breached the threshold.
    #[inline(always)]
    pub(crate) fn check_threshold(&self, ticks: u64) {
        if self.threshold.maybe_breached(ticks) {
            self.confirm_breach(ticks);
        }
    }

    /// A call over the threshold in ticks (or before the clock's rate settled): one
    /// out-of-line call that confirms, then writes the timeline out.
    #[cold]
    #[inline(never)]
    fn confirm_breach(&self, ticks: u64) {
        if self.threshold.confirm(ticks) {
            self.breached(ticks);
        }
    }

    fn breached(&self, ticks: u64) {
        let over = self.threshold.ns();
        trigger::breach(Reason::SlowCall, || {
            let ms = crate::clock::to_ns(ticks, crate::clock::ns_per_tick()) as f64 / 1e6;
            Subject::Text(format!("{} took {ms:.3} ms (over {:.3} ms)", self.name(), over as f64 / 1e6))
        });
    }

    /// Display name: the label, or the cleaned-up function path.
    pub(crate) fn name(&self) -> String {
        match self.name {
            SiteName::Label(label) => label.to_string(),
            SiteName::Path(f) => clean_path(f()),
        }
    }

    pub(crate) fn file(&self) -> &'static str {
        self.file
    }

    pub(crate) fn line(&self) -> u32 {
        self.line
    }

    pub(crate) fn is_async(&self) -> bool {
        self.is_async
    }

    /// Which time-sampling rate applies to its calls.
    pub(crate) fn sampled(&self) -> crate::sampling::Sampled {
        match self.kind {
            SiteKind::Function => crate::sampling::Sampled::Functions,
            SiteKind::Future => crate::sampling::Sampled::Futures,
        }
    }

    pub(crate) fn kind(&self) -> SiteKind {
        self.kind
    }

    pub(crate) fn logs(&self) -> &LogSlot {
        &self.logs
    }

    #[cfg(feature = "icount")]
    pub(crate) fn icount_tag(&self) -> Option<&'static str> {
        self.icount
    }
}

/// Every registered site, indexed by id (index 0 is a placeholder).
pub(crate) fn registered() -> Vec<&'static FnSite> {
    lock(&SITES).clone()
}

/// What stands for a site no cell can name (an id not registered): no threshold.
pub(crate) static UNKNOWN: FnSite = FnSite::new(SiteName::Label("?"), "", 0, false);

/// The site registered as `id`, or a placeholder without a threshold.
pub(crate) fn by_id(id: usize) -> &'static FnSite {
    lock(&SITES).get(id).copied().filter(|_| id != 0).unwrap_or(&UNKNOWN)
}

/// `app::Foo<_>::run::{{closure}}::__HOTPATH_SITE::__hotpath_fn_name` → `app::Foo::run`.
fn clean_path(raw: &str) -> String {
    let path = raw.strip_suffix("::__hotpath_fn_name").unwrap_or(raw);
    let path = path.strip_suffix("::__HOTPATH_SITE").unwrap_or(path);
    let path = path.replace("::{{closure}}", "");
    let mut out = String::with_capacity(path.len());
    let mut rest = path.as_str();
    // Drop inferred generic arguments such as `<_>` and `<_, _>`, keep real ones.
    while let Some(start) = rest.find("<_") {
        let tail = &rest[start..];
        match tail.find('>') {
            Some(end) if tail[1..end].split(',').all(|a| a.trim() == "_") => {
                out.push_str(&rest[..start]);
                rest = &tail[end + 1..];
            }
            _ => {
                out.push_str(&rest[..start + 2]);
                rest = &tail[2..];
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::clean_path;

    #[test]
    fn cleans_type_name_paths() {
        assert_eq!(clean_path("app::work::__HOTPATH_SITE::__hotpath_fn_name"), "app::work");
        assert_eq!(clean_path("app::Foo<_>::run::{{closure}}::__hotpath_fn_name"), "app::Foo::run");
        assert_eq!(clean_path("<app::Foo<_, _> as app::Tr>::t::__hotpath_fn_name"), "<app::Foo as app::Tr>::t");
        assert_eq!(clean_path("app::Foo<u8>::run"), "app::Foo<u8>::run");
    }
}
