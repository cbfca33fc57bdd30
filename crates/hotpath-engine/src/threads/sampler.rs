//! The `hp-threads` sampling thread and the history it keeps per thread.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use super::{os, OsSample, State};
use crate::diag::warn;
use crate::spawn::SpawnMasked;
use crate::sync::lock;

/// What the view knows about one live thread.
pub(crate) struct Tracked {
    pub(crate) name: String,
    pub(crate) state: State,
    pub(crate) user_ns: u64,
    pub(crate) sys_ns: u64,
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
    pub(crate) rss_bytes: u64,
    pub(crate) samples: u64,
    pub(crate) interval: Duration,
    main_tid: u64,
    unnamed: u64,
    failed: bool,
}

static HISTORY: Mutex<Option<History>> = Mutex::new(None);

/// Starts sampling every `interval` on a hidden `hp-threads` thread. `main_tid` is
/// the OS id of the thread that started profiling, shown as `main`.
pub(crate) fn start(interval: Duration, main_tid: u64) {
    *lock(&HISTORY) = Some(History {
        threads: HashMap::new(),
        rss_bytes: 0,
        samples: 0,
        interval,
        main_tid,
        unnamed: 0,
        failed: false,
    });
    sample_now();
    let spawned =
        std::thread::Builder::new().name("hp-threads".into()).stack_size(128 * 1024).spawn_masked(move || {
            crate::memory::profiler_thread();
            loop {
                std::thread::sleep(interval);
                sample_now();
            }
        });
    if let Err(e) = spawned {
        warn(&format!("could not start the threads sampler ({e}); the threads view is not updated"));
    }
}

/// Takes one sample now and folds it into the history.
pub(crate) fn sample_now() {
    let main_tid = match lock(&HISTORY).as_ref() {
        Some(h) => h.main_tid,
        None => return,
    };
    let sample = os::sample(main_tid);
    let mut guard = lock(&HISTORY);
    let Some(history) = guard.as_mut() else { return };
    match sample {
        Ok(sample) => history.update(sample, Instant::now()),
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
    fn update(&mut self, sample: OsSample, now: Instant) {
        self.samples += 1;
        self.rss_bytes = sample.rss_bytes;
        let mut alive = Vec::with_capacity(sample.threads.len());
        for t in sample.threads {
            alive.push(t.tid);
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
                    (known.user_ns, known.sys_ns) = (t.user_ns, t.sys_ns);
                    if let Some(name) = t.name {
                        known.name = name; // renamed since last seen
                    }
                }
                None => {
                    let name = t.name.unwrap_or_else(|| {
                        self.unnamed += 1;
                        format!("thread_{}", self.unnamed)
                    });
                    let tracked = Tracked {
                        name,
                        state: t.state,
                        user_ns: t.user_ns,
                        sys_ns: t.sys_ns,
                        cpu_percent: None,
                        max_cpu_percent: None,
                        base_cpu_ns: cpu,
                        base_at: now,
                    };
                    self.threads.insert(t.tid, tracked);
                }
            }
        }
        let live: std::collections::HashSet<u64> = alive.iter().copied().collect();
        self.threads.retain(|tid, _| live.contains(tid));
        #[cfg(feature = "alloc")]
        crate::alloc::counters::reclaim(|| alive);
    }
}
