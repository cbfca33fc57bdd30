//! Two small sides used by the renderer tests.

use hotpath_model::Unit;

use crate::compare::diff::Comparison;
use crate::compare::samples::{RunSamples, Section};
use crate::compare::side::Side;
use crate::compare::verdict::Settings;

pub(crate) const SETTINGS: Settings = Settings {
    threshold_pct: 10.0,
    alpha: 0.05,
    icount_threshold_pct: 1.0,
    noise_floor_ns: 0.0,
    control: crate::compare::family::ErrorControl::Holm,
};

fn run(avg: f64, extra: Option<&str>) -> RunSamples {
    let mut section = Section::default();
    let mut metrics = |name: &str, avg: f64| {
        section.push(name, "calls", "calls", Unit::Count, 10.0);
        section.push(name, "avg_ns", "avg", Unit::Nanoseconds, avg);
    };
    metrics("app::work<T>", avg);
    metrics("app::steady|x", 1_000.0);
    if let Some(name) = extra {
        metrics(name, 5.0);
    }
    let mut r = RunSamples::default();
    r.sections.insert("functions_timing".into(), section);
    r
}

/// Five runs per side; `app::work<T>` 20 times slower in head.
pub(crate) fn sides() -> (Side, Side) {
    let base: Vec<_> = (0..5).map(|i| run(1_000_000.0 + f64::from(i), Some("app::old"))).collect();
    let head: Vec<_> = (0..5).map(|i| run(20_000_000.0 + f64::from(i), Some("app::new"))).collect();
    (Side::new("main", vec![], base), Side::new("HEAD", vec![], head))
}

/// One run per side, rows and labels named to break out of their cells.
pub(crate) fn hostile() -> (Side, Side) {
    let one = |bytes: f64, rate: f64| {
        let mut s = Section::default();
        for name in ["evil\n| fake | row |", "<script>alert(1)</script>", "\u{1b}]0;pwned\u{7}\u{1b}[2J"] {
            s.push(name, "alloc_bytes", "alloc_bytes", Unit::Bytes, bytes);
            s.push(name, "items_per_sec", "items_per_sec", Unit::PerSecond, rate);
        }
        let mut r = RunSamples::default();
        r.sections.insert("custom|sec\u{1b}[1m".into(), s);
        r
    };
    (
        Side::new("main\n# title", vec![], vec![one(4096.0, 16_305_862.0)]),
        Side::new("HEAD", vec![], vec![one(8192.0, 1e6)]),
    )
}

pub(crate) fn comparison<'a>(sides: &'a (Side, Side)) -> Comparison<'a> {
    Comparison::new(&sides.0, &sides.1, SETTINGS)
}
