//! What one measured call costs on this machine, measured once on the budget's own
//! thread (never on the program's): a timed call (two clock reads, the frame and the
//! cell's bookkeeping), an untimed one (the countdown, the count and the mark) and an
//! untimed one of a recursive site (which also keeps the site's depth). The
//! thread-local lookups the guard also does are not in these loops; they cost about
//! a nanosecond each on the project's machines (docs/PERFORMANCE.md).

use std::hint::black_box;
use std::time::Instant;

use crate::record::{self as recorder, Countdowns, SiteCell, Usage};

/// Nanoseconds per call of each kind.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Costs {
    pub(crate) timed_ns: f64,
    pub(crate) untimed_ns: f64,
    /// An untimed call of a recursive site, which takes the slow path
    /// (`functions/budgeted.rs`), begun and ended out of line as there.
    pub(crate) recursive_ns: f64,
}

/// Calls per timed loop: 2,000 timed calls take about 50 µs, long against the clock's
/// resolution, and the whole calibration (three rounds of three loops) about 0.2 ms.
const ROUNDS: u32 = 2_000;

/// Measures the three costs on the calling thread; the fastest of three rounds of each,
/// so a preemption does not inflate them.
pub(crate) fn measure() -> Costs {
    // SAFETY: this thread's recorder, valid while the thread runs.
    let Some(r) = (unsafe { recorder::current().as_ref() }) else {
        return Costs { timed_ns: 30.0, untimed_ns: 3.0, recursive_ns: 6.0 };
    };
    let cell = SiteCell::new();
    let countdowns = Countdowns::new();
    let best = |f: &dyn Fn()| (0..3).map(|_| time(f)).fold(f64::MAX, f64::min);
    let slot = countdowns.slot(1, &cell);
    let timed_ns = best(&|| {
        black_box(slot.countdown(&cell, false).redraw(0));
        let saved = r.push_budget_frame();
        let start = Usage::now();
        cell.enter(start.ticks);
        let inclusive = Usage::now().elapsed_since(start);
        let (excl, ticks, var) = r.pop_weighted(saved, inclusive, 0, false);
        cell.exit_weighted(inclusive, (excl, ticks), 0, var);
    });
    // A countdown of about 2^20 calls: every call below is an untimed one, as the
    // guard makes it (`FnGuard::skipped`) but for the thread-local load.
    slot.countdown(&cell, false).redraw(20);
    let untimed_ns = best(&|| {
        if countdowns.skip(black_box(1)) && r.mode() == recorder::NORMAL {
            r.mark_untimed();
            r.clear_untimed();
        }
    });
    let diverted = SiteCell::new();
    countdowns.slot(2, &diverted).countdown(&diverted, true).redraw(20);
    // The untimed path's try first (a diverted slot fails it), then begun and ended
    // out of line, as the guard's are (`skipped`, then `budgeted` and `end_tagged`).
    let recursive_ns = best(&|| {
        if countdowns.skip(black_box(2)) {
            return;
        }
        if let Some(mode) = enter_recursive(&countdowns, &diverted, r) {
            exit_recursive(&diverted, r, mode);
        }
    });
    Costs { timed_ns, untimed_ns, recursive_ns }
}

/// The start of an untimed call of a recursive site: counted, on its site's depth;
/// the thread's mode before it.
#[inline(never)]
fn enter_recursive(countdowns: &Countdowns, cell: &SiteCell, r: &recorder::ThreadRecorder) -> Option<u8> {
    if !countdowns.slot(black_box(2), cell).countdown(cell, true).skip() {
        return None;
    }
    cell.count_untimed();
    let mode = r.mode();
    if mode == recorder::NORMAL {
        r.mark_untimed();
    }
    cell.enter(u64::MAX);
    Some(mode)
}

#[inline(never)]
fn exit_recursive(cell: &SiteCell, r: &recorder::ThreadRecorder, mode: u8) {
    black_box(cell.exit_untimed());
    r.set_mode(mode);
}

fn time(f: &dyn Fn()) -> f64 {
    let start = Instant::now();
    for _ in 0..ROUNDS {
        f();
    }
    start.elapsed().as_nanos() as f64 / f64::from(ROUNDS)
}
