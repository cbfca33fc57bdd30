//! The profiler's own threads, which the view leaves out.

/// OS ids of the profiler's own threads, known from their first instruction, so the
/// view leaves them out even when sampled before their name is set.
static PROFILER_THREADS: std::sync::Mutex<Vec<u64>> = std::sync::Mutex::new(Vec::new());

/// Records the calling profiler thread (cold: once per `hp-*` thread).
pub(crate) fn mark_profiler_thread(tid: u64) {
    let mut list = crate::sync::lock(&PROFILER_THREADS);
    if !list.contains(&tid) {
        list.push(tid);
    }
}

/// Whether `tid` (or `name`) is one of the profiler's threads.
pub(crate) fn is_profiler_thread(tid: u64, name: &str) -> bool {
    name.starts_with("hp-") || crate::sync::lock(&PROFILER_THREADS).contains(&tid)
}
