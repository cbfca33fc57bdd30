//! The `hp-threads` sampling thread and the history it keeps per thread.

use std::collections::{HashMap, HashSet};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use super::exited::{Ended, Exited};
use super::{os, OsSample, State};
use crate::diag::warn;
use crate::record::exit_hook;
use crate::sync::lock;

/// What the view knows about one live thread.
pub(crate) struct Tracked {
    pub(crate) name: String,
    pub(crate) state: State,
    /// CPU time since the session started (see [`History::baseline`]).
    pub(crate) user_ns: u64,
    pub(crate) sys_ns: u64,
    /// CPU time the thread had used before the session started, left out of the above.
    before: (u64, u64),
    /// CPU% over the last interval; `None` until the thread was sampled twice.
    pub(crate) cpu_percent: Option<f64>,
    pub(crate) max_cpu_percent: Option<f64>,
    /// CPU time and instant the next CPU% is measured from.
    base_cpu_ns: u64,
    base_at: Instant,
}

/// The sampler's state, shared with report builders.
pub(crate) struct History {
    pub(crate) threads: HashMap<u64, Tracked>,
    pub(crate) exited: Exited,
    pub(crate) rss_bytes: u64,
    pub(crate) samples: u64,
    pub(crate) interval: Duration,
    /// What the last sample could not read.
    pub(crate) problem: Option<String>,
    /// Threads whose exit record the last update took: a listing may still show such
    /// a thread for a moment while it finishes exiting, and must not revive it.
    just_ended: HashSet<u64>,
    /// The starting thread's CPU time when the session started: under `cargo run`
    /// (cargo execs the program on its own thread) it includes cargo's own work.
    baseline: Option<(u64, u64)>,
    /// The other threads running when the session started, with their CPU time then
    /// (left out too); threads not in it started during the session and count whole.
    at_start: HashMap<u64, (u64, u64)>,
    /// When the session started: the first CPU% of a thread running then spans from it.
    started: Instant,
    main_tid: u64,
    unnamed: u64,
    failed: bool,
}

static HISTORY: Mutex<Option<History>> = Mutex::new(None);
/// One sample at a time: a sample applied after a newer one would bring back a
/// thread that had ended.
static SAMPLING: Mutex<()> = Mutex::new(());

/// Starts sampling every `interval` on a hidden `hp-threads` thread, created when the
/// first interval has passed: a program that ends sooner has its one sample taken by
/// the report. `main_tid` is the OS id of the thread that started profiling, shown as
/// `main`. Only the CPU time of threads already running is read here: for a
/// `#[hotpath::main]` program, none but this one, whose time is a cheap call.
/// With `show_internal`, samples read the profiler's threads too.
pub(crate) fn start(interval: Duration, main_tid: u64, show_internal: bool) {
    super::sample::SKIP_PROFILER_THREADS.store(!show_internal, std::sync::atomic::Ordering::Relaxed);
    let baseline = exit_hook::own_cpu();
    let at_start = os::others_at_start(main_tid, baseline.is_none());
    *lock(&HISTORY) = Some(History {
        threads: HashMap::new(),
        exited: Exited::default(),
        rss_bytes: 0,
        samples: 0,
        interval,
        problem: None,
        just_ended: HashSet::new(),
        baseline,
        at_start,
        started: Instant::now(),
        main_tid,
        unnamed: 0,
        failed: false,
    });
    exit_hook::enable();
    #[cfg(feature = "alloc")]
    crate::alloc_counters::on_new_thread(exit_hook::watch);
    // Created by the starter, one interval from now: neither the thread's creation nor
    // its samples are on the program's thread, nor in a run shorter than that.
    crate::spawn::after(
        interval,
        std::thread::Builder::new().name("hp-threads".into()).stack_size(128 * 1024),
        move || {
            crate::memory::profiler_thread();
            loop {
                sample_now();
                std::thread::sleep(interval);
            }
        },
        |e| warn(&format!("could not start the threads sampler ({e}); the threads view is not updated")),
    );
}

/// Takes one sample now and folds it into the history.
pub(crate) fn sample_now() {
    let _one_at_a_time = lock(&SAMPLING);
    let main_tid = match lock(&HISTORY).as_ref() {
        Some(h) => h.main_tid,
        None => return,
    };
    // Slots claimed before the listing: an owner the listing misses has exited.
    #[cfg(feature = "alloc")]
    let claimed = crate::alloc_counters::claimed();
    let sample = os::sample(main_tid);
    let mut guard = lock(&HISTORY);
    let Some(history) = guard.as_mut() else { return };
    match sample {
        Ok(sample) => {
            #[cfg(feature = "alloc")]
            let alive = sample.alive();
            history.update(sample, Instant::now());
            if crate::timeline::on() {
                history.to_timeline();
            }
            #[cfg(feature = "alloc")]
            crate::alloc_counters::reclaim(&claimed, &alive);
        }
        Err(e) if !history.failed => {
            history.failed = true;
            warn(&format!("threads view unavailable: {e}"));
        }
        Err(_) => {}
    }
}

/// Runs `f` on the current history, if sampling was started.
pub(crate) fn with_history<R>(f: impl FnOnce(&History) -> R) -> Option<R> {
    lock(&HISTORY).as_ref().map(f)
}

impl History {
    /// The process's RSS and each thread's CPU share, as timeline counters.
    fn to_timeline(&self) {
        use crate::timeline::{instant, Kind};
        let now = crate::clock::now();
        instant(Kind::Rss, 0, now, self.rss_bytes);
        for (tid, t) in &self.threads {
            if let Some(percent) = t.cpu_percent {
                instant(Kind::ThreadCpu, *tid as u32, now, percent.to_bits());
            }
        }
    }

    fn update(&mut self, sample: OsSample, now: Instant) {
        self.samples += 1;
        if let Some(rss) = sample.rss_bytes {
            self.rss_bytes = rss;
        }
        let alive: HashSet<u64> = sample.alive().into_iter().collect();
        self.problem = sample.problem;
        let just_ended = std::mem::take(&mut self.just_ended);
        for t in sample.threads {
            if just_ended.contains(&t.tid) && !self.threads.contains_key(&t.tid) {
                continue; // still finishing its exit
            }
            let cpu = t.user_ns + t.sys_ns;
            match self.threads.get_mut(&t.tid) {
                Some(known) => {
                    let wall = now.duration_since(known.base_at);
                    let used = cpu.saturating_sub(known.base_cpu_ns);
                    // A sample right after the previous one (the report's own) would
                    // give a noisy CPU%: keep the last one until half an interval passed.
                    if wall >= self.interval / 2 {
                        let percent = used as f64 * 100.0 / wall.as_nanos().max(1) as f64;
                        known.cpu_percent = Some(percent);
                        known.max_cpu_percent = Some(known.max_cpu_percent.map_or(percent, |m| m.max(percent)));
                        (known.base_cpu_ns, known.base_at) = (cpu, now);
                    }
                    known.state = if cfg!(windows) && used > 0 { State::Running } else { t.state };
                    (known.user_ns, known.sys_ns) = since(known.before, t.user_ns, t.sys_ns);
                    if let Some(name) = t.name {
                        known.name = name; // renamed since last seen
                    }
                }
                None => {
                    let name = t.name.unwrap_or_else(|| self.next_unnamed());
                    let known_at_start = match self.baseline {
                        Some(start) if t.tid == self.main_tid => Some(start),
                        _ => self.at_start.get(&t.tid).copied(),
                    };
                    let before = known_at_start.unwrap_or((0, 0));
                    let (user_ns, sys_ns) = since(before, t.user_ns, t.sys_ns);
                    // A thread running at the start has its CPU% from then; a newer one
                    // from this sample on.
                    let (base_cpu_ns, base_at) = match known_at_start {
                        Some((user, sys)) => (user + sys, self.started),
                        None => (cpu, now),
                    };
                    let tracked = Tracked {
                        name,
                        state: t.state,
                        user_ns,
                        sys_ns,
                        before,
                        cpu_percent: None,
                        max_cpu_percent: None,
                        base_cpu_ns,
                        base_at,
                    };
                    self.threads.insert(t.tid, tracked);
                }
            }
        }
        self.retire_ended(&alive);
    }

    /// Moves threads that left an exit record, and threads the listing no longer
    /// shows, to the ended ones: with the record's final numbers, else the last
    /// values read.
    fn retire_ended(&mut self, alive: &HashSet<u64>) {
        let records = exit_hook::drain();
        let gone: Vec<u64> = self.threads.keys().filter(|tid| !alive.contains(tid)).copied().collect();
        if records.is_empty() && gone.is_empty() {
            return;
        }
        // Slots of ended threads are reclaimed after this update: still readable here.
        #[cfg(feature = "alloc")]
        let allocs: HashMap<u64, crate::alloc_counters::ThreadAllocs> =
            crate::alloc_counters::per_thread().into_iter().collect();
        #[cfg(feature = "alloc")]
        let allocs_of = |tid: u64| allocs.get(&tid).map(|a| (a.alloc_bytes, a.free_bytes)).or(Some((0, 0)));
        for record in records {
            let tid = record.tid;
            // The name at exit is the latest: a sample may have caught the thread before it
            // named itself (with the name it inherited from the thread that created it).
            let own = !record.comm.is_empty() && Some(record.comm.as_str()) != os::process_name();
            let (name, max_cpu_percent, before) = match self.threads.remove(&tid) {
                Some(t) => (if own { record.comm } else { t.name }, t.max_cpu_percent, t.before),
                None => (if own { record.comm } else { self.next_unnamed() }, None, (0, 0)),
            };
            self.just_ended.insert(tid);
            // The profiler's own threads are never shown, so they take no place among the
            // kept ended threads.
            if crate::memory::is_profiler_thread(tid, &name) {
                continue;
            }
            let (user_ns, sys_ns) = since(before, record.user_ns, record.sys_ns);
            self.exited.add(Ended {
                tid,
                name,
                user_ns,
                sys_ns,
                max_cpu_percent,
                #[cfg(feature = "alloc")]
                allocs: allocs_of(tid),
            });
        }
        for tid in gone {
            // Already retired above if it left a record.
            let Some(t) = self.threads.remove(&tid) else { continue };
            if crate::memory::is_profiler_thread(tid, &t.name) {
                continue;
            }
            let (user_ns, sys_ns, max_cpu_percent) = (t.user_ns, t.sys_ns, t.max_cpu_percent);
            self.exited.add(Ended {
                tid,
                name: t.name,
                user_ns,
                sys_ns,
                max_cpu_percent,
                #[cfg(feature = "alloc")]
                allocs: allocs_of(tid),
            });
        }
    }

    fn next_unnamed(&mut self) -> String {
        self.unnamed += 1;
        format!("thread_{}", self.unnamed)
    }
}

/// CPU time used since `before` (user, system); the OS's coarser figures can read a
/// little below a precise baseline, which counts as none.
fn since(before: (u64, u64), user_ns: u64, sys_ns: u64) -> (u64, u64) {
    (user_ns.saturating_sub(before.0), sys_ns.saturating_sub(before.1))
}
