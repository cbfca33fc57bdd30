//! The site mechanism on an instrument of its own, so the caps are this test's alone.

use std::sync::atomic::{AtomicU32, Ordering::Relaxed};

use super::registry::{MAX_INSTANCES, MAX_SHARED};
use super::{Entry, Instrument, Registry, Site};

/// Counts how often an entry's data was made.
struct Probe(u32);

static MADE: AtomicU32 = AtomicU32::new(0);
static PROBES: Registry<Entry<Probe>> = Registry::new();

impl Instrument for Probe {
    const MACRO: &'static str = "probe!";
    fn registry() -> &'static Registry<Entry<Self>> {
        &PROBES
    }
}

fn probe() -> Probe {
    Probe(MADE.fetch_add(1, Relaxed))
}

static SHARED: Site<Probe> = Site::new(Some("shared"), "src/a.rs", 1, false);
static EACH: Site<Probe> = Site::new(Some("each"), "src/a.rs", 2, true);
static LABELS: Site<Probe> = Site::new(None, "src/a.rs", 3, false);

#[test]
fn entries_by_type_label_and_instance_with_caps() {
    // One entry per (site, type, label); the label may be any string, compared by value.
    let a = SHARED.entry_of::<u8>(probe);
    assert!(std::ptr::eq(a, SHARED.entry_of::<u8>(probe)));
    let b = SHARED.entry_of::<u16>(probe);
    assert_ne!(a.id(), b.id());
    let worker = format!("worker-{}", 7);
    let c = SHARED.entry(std::any::type_name::<u8>(), Some(&worker), probe);
    assert!(std::ptr::eq(c, SHARED.entry(std::any::type_name::<u8>(), Some("worker-7"), probe)));
    assert_eq!((a.name(), c.name(), c.label()), ("shared", "worker-7", Some("worker-7")));

    // `iter = true`: an entry per value up to the cap, then the site's `<other>`.
    let names: Vec<String> = (0..MAX_INSTANCES + 5).map(|_| EACH.entry_of::<u8>(probe).name().to_string()).collect();
    assert_eq!(&names[..3], ["each", "each-2", "each-3"]);
    assert_eq!(names[MAX_INSTANCES as usize - 1], format!("each-{MAX_INSTANCES}"));
    assert!(names[MAX_INSTANCES as usize..].iter().all(|n| n == "<other>"));
    let other = EACH.entry_of::<u8>(probe);
    assert!(std::ptr::eq(other, EACH.entry_of::<u8>(probe)));
    assert_ne!(other.id(), EACH.entry_of::<u16>(probe).id(), "one overflow entry per type");

    // Labels computed at run time: past the shared cap, new ones share `<other>`; the
    // entries made before keep theirs.
    let before = PROBES.all().len();
    let made: Vec<_> = (0..MAX_SHARED + 10)
        .map(|i| LABELS.entry(std::any::type_name::<u8>(), Some(&format!("w{i}")), probe).name().to_string())
        .collect();
    assert!(made.iter().filter(|n| *n == "<other>").count() >= 10);
    assert!(std::ptr::eq(a, SHARED.entry_of::<u8>(probe)));
    let made_now = MADE.load(Relaxed);
    assert_eq!(LABELS.entry(std::any::type_name::<u8>(), Some("w-new"), probe).name(), "<other>");
    assert_eq!(MADE.load(Relaxed), made_now, "an overflowing value makes nothing");

    // Ids are dense per instrument, in creation order.
    let all = PROBES.all();
    assert!(all.iter().enumerate().all(|(i, e)| e.id() as usize == i));
    assert!(all.len() > before);
    assert!(all.iter().all(|e| e.0 < MADE.load(Relaxed)));
    let warnings = crate::diag::report_warnings();
    for what in ["iter = true", "rows (call site, type and label)"] {
        assert_eq!(warnings.iter().filter(|w| w.contains("probe!") && w.contains(what)).count(), 1, "{warnings:?}");
    }
}
