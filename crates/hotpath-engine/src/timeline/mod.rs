//! The flight recorder: a per-thread ring of the last events each thread recorded
//! (measured calls, future polls, channel messages, lock waits and holds, `io!`
//! operations, gauges), kept while `HOTPATH_TIMELINE` is on and copied out on demand.
//!
//! Part of the recording core: instruments call `slice` and `instant` after their
//! own bookkeeping, behind one relaxed load of `on`; nothing here names an
//! instrument. Writing an event is five plain stores into the thread's ring: no lock,
//! no allocation after the ring exists, no system call. The export (`crate::export`)
//! turns a [`Snapshot`] into Perfetto or Chrome trace files.

mod event;
mod ring;
mod rings;
#[cfg(test)]
mod tests;
mod threshold;
pub(crate) mod trigger;

pub use event::{Event, Kind};
pub(crate) use event::{MARK_DBG, MARK_VAL};
pub(crate) use ring::{Ring, Writer};
pub use rings::ThreadEvents;
pub(crate) use rings::{ring_of_thread, this_thread, thread_id};
pub use rings::{DEFAULT_EVENTS, KEEP_RETIRED};
pub(crate) use threshold::Threshold;
pub use trigger::{files, flush, record_file, Files, TimelineTrigger, MAX_LISTED};

/// Bytes one event takes in a thread's ring.
pub const EVENT_BYTES: usize = ring::SLOT_BYTES;

/// Whether events are recorded: one relaxed load of the switch's timeline byte, the
/// only cost when off.
#[inline(always)]
pub(crate) fn on() -> bool {
    crate::switch::traced()
}

/// Applies a session's settings: the ring size for threads that attach from now on,
/// whether events are recorded, and what the triggers do.
pub(crate) fn configure(on: bool, events: usize, triggers: trigger::Settings) {
    rings::set_capacity(events);
    trigger::configure(triggers);
    crate::switch::set_tracing(on);
}

/// Rings and the bytes they hold, events written over their lives, and their capacity
/// in events (for the report's header and `/profiler_status`).
pub fn usage() -> Usage {
    let (rings, bytes) = rings::footprint();
    let (written, capacity) = rings::written();
    Usage { on: crate::switch::tracing(), rings, bytes, written, capacity, per_thread: rings::capacity() }
}

/// What the flight recorder holds.
#[derive(Clone, Copy, Debug, Default)]
pub struct Usage {
    /// Whether the recorder is on (it records while a session does).
    pub on: bool,
    /// Rings (one per thread that recorded, plus retired ones kept).
    pub rings: usize,
    /// Bytes the rings hold.
    pub bytes: usize,
    /// Events written over the rings' lives.
    pub written: u64,
    /// Events the rings hold at most.
    pub capacity: u64,
    /// Events per thread's ring for threads that attach from now on.
    pub per_thread: usize,
}

/// Records an event that spanned `len` ticks from `start`. Callers check [`on`] first.
#[inline(always)]
pub(crate) fn slice(kind: Kind, id: u32, start: u64, len: u64, extra: u64) {
    rings::push(Event::what(kind, id), start, len, extra);
}

/// Records an event at `at`. Callers check [`on`] first.
#[inline(always)]
pub(crate) fn instant(kind: Kind, id: u32, at: u64, extra: u64) {
    rings::push(Event::what(kind, id), at, 0, extra);
}

/// Every thread's events at one moment, with what turns ticks into clock times.
pub struct Snapshot {
    /// Threads with their events, oldest first.
    pub threads: Vec<ThreadEvents>,
    /// Events left out because a thread overwrote them while they were copied.
    pub torn: u64,
    /// The tick at which the clocks below were read.
    pub now_ticks: u64,
    /// Nanoseconds per tick.
    pub ns_per_tick: f64,
    /// `CLOCK_BOOTTIME`, `CLOCK_MONOTONIC` and `CLOCK_REALTIME` at `now_ticks` (ns).
    pub clocks: Clocks,
}

/// Three system clocks read at one moment.
#[derive(Clone, Copy, Debug, Default)]
pub struct Clocks {
    /// `CLOCK_BOOTTIME` (Perfetto's default trace clock).
    pub boottime: u64,
    /// `CLOCK_MONOTONIC` (what `Instant` reads on Linux).
    pub monotonic: u64,
    /// `CLOCK_REALTIME` (wall-clock time since the epoch).
    pub realtime: u64,
}

impl Snapshot {
    /// Copies every ring now, keeping events that end within the last `window_ns`
    /// (all of them for `None`).
    pub fn take(window_ns: Option<u64>) -> Snapshot {
        let (mut threads, torn) = rings::read_all();
        let ns_per_tick = crate::clock::ns_per_tick();
        let now_ticks = crate::clock::now();
        let clocks = read_clocks();
        if let Some(window) = window_ns {
            let ticks = (window as f64 / ns_per_tick.max(f64::MIN_POSITIVE)) as u64;
            let from = now_ticks.saturating_sub(ticks);
            threads.iter_mut().for_each(|t| t.events.retain(|e| e.end() >= from));
        }
        threads.retain(|t| !t.events.is_empty());
        Snapshot { threads, torn, now_ticks, ns_per_tick, clocks }
    }

    /// `CLOCK_BOOTTIME` nanoseconds of tick `ticks`.
    #[inline]
    pub fn boottime_ns(&self, ticks: u64) -> u64 {
        self.clocks.boottime.saturating_sub(self.ns_since(ticks))
    }

    /// `CLOCK_MONOTONIC` nanoseconds of tick `ticks`.
    #[inline]
    pub fn monotonic_ns(&self, ticks: u64) -> u64 {
        self.clocks.monotonic.saturating_sub(self.ns_since(ticks))
    }

    /// Nanoseconds spanned by `ticks`, in fixed point (2^-32 ns per tick: two million
    /// conversions per full window).
    #[inline]
    pub fn ns(&self, ticks: u64) -> u64 {
        ((u128::from(ticks) * u128::from(self.fixed_ratio())) >> 32).min(u128::from(u64::MAX)) as u64
    }

    fn fixed_ratio(&self) -> u64 {
        (self.ns_per_tick * (1u64 << 32) as f64) as u64
    }

    #[inline]
    fn ns_since(&self, ticks: u64) -> u64 {
        self.ns(self.now_ticks.saturating_sub(ticks))
    }

    /// Events in the snapshot.
    pub fn events(&self) -> usize {
        self.threads.iter().map(|t| t.events.len()).sum()
    }
}

fn read_clocks() -> Clocks {
    #[cfg(unix)]
    {
        let read = |clock| {
            let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
            // SAFETY: `ts` is a valid timespec to write; the clock ids are constants.
            unsafe { libc::clock_gettime(clock, &mut ts) };
            ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64
        };
        #[cfg(target_os = "linux")]
        let boottime = read(libc::CLOCK_BOOTTIME);
        #[cfg(not(target_os = "linux"))]
        let boottime = read(libc::CLOCK_MONOTONIC);
        Clocks { boottime, monotonic: read(libc::CLOCK_MONOTONIC), realtime: read(libc::CLOCK_REALTIME) }
    }
    #[cfg(not(unix))]
    {
        let realtime =
            std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64);
        Clocks { boottime: realtime, monotonic: realtime, realtime }
    }
}
