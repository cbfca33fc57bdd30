//! Builds the `threads` section from the sampler's history.

use hotpath_model::{ThreadRow, Threads};

use super::sampler::{sample_now, with_history};

/// The view at this instant (one fresh sample): live threads and the ended threads it
/// kept (status `Exited`, final numbers), busiest first, at most `limit` rows.
/// Profiler threads (`hp-*`) are left out unless `show_internal`. `None` if sampling never started.
pub(crate) fn section(limit: usize, show_internal: bool) -> Option<Threads> {
    sample_now();
    #[cfg(feature = "alloc")]
    let allocs: std::collections::HashMap<u64, crate::alloc_counters::ThreadAllocs> =
        crate::alloc_counters::per_thread().into_iter().collect();
    with_history(|history| {
        let mut rows: Vec<ThreadRow> = history
            .threads
            .iter()
            .filter(|(&tid, t)| show_internal || !crate::memory::is_profiler_thread(tid, &t.name))
            .map(|(&tid, t)| {
                let mut row = ThreadRow::default();
                row.name = t.name.clone();
                row.tid = tid;
                row.status = t.state.as_str().to_string();
                row.cpu_percent = t.cpu_percent.map(round2);
                row.max_cpu_percent = t.max_cpu_percent.map(round2);
                row.cpu_user_ns = t.user_ns;
                row.cpu_sys_ns = t.sys_ns;
                #[cfg(feature = "alloc")]
                {
                    let a = allocs.get(&tid).copied().unwrap_or_default();
                    row.alloc_bytes = Some(a.alloc_bytes);
                    row.dealloc_bytes = Some(a.free_bytes);
                }
                row
            })
            .collect();
        rows.extend(
            history
                .exited
                .kept
                .iter()
                .filter(|e| show_internal || !crate::memory::is_profiler_thread(e.tid, &e.name))
                .map(|e| {
                    let mut row = ThreadRow::default();
                    row.name = e.name.clone();
                    row.tid = e.tid;
                    row.status = "Exited".to_string();
                    row.max_cpu_percent = e.max_cpu_percent.map(round2);
                    row.cpu_user_ns = e.user_ns;
                    row.cpu_sys_ns = e.sys_ns;
                    #[cfg(feature = "alloc")]
                    {
                        let (alloc, free) = e.allocs.unwrap_or_default();
                        row.alloc_bytes = Some(alloc);
                        row.dealloc_bytes = Some(free);
                    }
                    row
                }),
        );
        rows.sort_by(|a, b| {
            (b.cpu_user_ns + b.cpu_sys_ns).cmp(&(a.cpu_user_ns + a.cpu_sys_ns)).then(a.tid.cmp(&b.tid))
        });
        let mut section = Threads::default();
        section.pid = std::process::id();
        section.rss_bytes = history.rss_bytes;
        section.interval_ms = history.interval.as_millis() as u64;
        section.samples = history.samples;
        section.total_threads = rows.len() + history.exited.dropped as usize;
        section.exited_dropped = history.exited.dropped;
        section.warning = history.problem.clone();
        rows.truncate(limit);
        section.rows = rows;
        #[cfg(feature = "alloc")]
        {
            let totals = crate::alloc_counters::process_totals();
            let mut alloc = hotpath_model::AllocTotals::default();
            alloc.alloc_bytes = totals.alloc_bytes;
            alloc.dealloc_bytes = totals.free_bytes;
            section.alloc = Some(alloc);
        }
        section
    })
}

/// Percentages to two decimals: a sampled CPU share has no more precision than that.
fn round2(percent: f64) -> f64 {
    (percent * 100.0).round() / 100.0
}
