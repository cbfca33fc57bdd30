//! The printed table of the `tokio_runtime` section.

use crate::format::{format_count, format_duration_ns, format_percent_value};
use crate::grid::{shown, Table};
use crate::meta::Meta;

use super::{TokioFlag, TokioRuntime, TokioRuntimes};

impl TokioRuntimes {
    /// The `tokio-runtime` tables: one row per runtime, one table of workers per
    /// runtime, then the flags with their reasons.
    pub(crate) fn table(&self, _meta: &Meta) -> String {
        let metrics = if self.tokio_unstable { "tokio_unstable metrics" } else { "stable metrics" };
        let runtimes = match (self.runtimes.len(), self.total_runtimes) {
            (n, total) if n < total => format!("showing {n} of {total} runtimes"),
            (1, _) => "1 runtime".into(),
            (n, _) => format!("{n} runtimes"),
        };
        let mut out = format!(
            "tokio-runtime - Tokio runtime workers, scheduling and queues. ({runtimes}, sampled every {} ms, {metrics})\n",
            self.interval_ms
        );
        let mut header = vec!["Runtime", "Flavor", "Workers", "Alive tasks", "Global queue", "Max queue"];
        if self.tokio_unstable {
            header.extend(["Blocking threads", "Blocking queue", "Spawned"]);
        }
        header.extend(["Queue trend", "Flags"]);
        let mut table = Table::new(header);
        for rt in &self.runtimes {
            let mut cells = vec![
                rt.name.clone(),
                rt.flavor.clone(),
                rt.num_workers.to_string(),
                format_count(rt.alive_tasks as u64),
                format_count(rt.global_queue_depth as u64),
                format_count(rt.max_global_queue_depth as u64),
            ];
            if self.tokio_unstable {
                cells.extend([
                    optional(rt.blocking_threads.map(|n| n as u64)),
                    optional(rt.blocking_queue_depth.map(|n| n as u64)),
                    optional(rt.spawned_tasks),
                ]);
            }
            let flags: Vec<&str> = rt.flags.iter().map(|f| f.kind.as_str()).collect();
            cells.push(sparkline(rt.history.iter().map(|p| p.global_queue_depth as u64)));
            cells.push(if flags.is_empty() { "-".into() } else { flags.join(", ") });
            table.row(cells);
        }
        out.push_str(&table.render());
        for rt in &self.runtimes {
            out.push_str(&format!("\nworkers of {} ({}):\n", rt.name, shown(rt.workers.len(), rt.num_workers)));
            out.push_str(&self.worker_table(rt).render());
        }
        let flagged: Vec<(&TokioRuntime, &TokioFlag)> =
            self.runtimes.iter().flat_map(|rt| rt.flags.iter().map(move |f| (rt, f))).collect();
        if !flagged.is_empty() {
            out.push_str("\nflags:\n");
            for (rt, flag) in flagged {
                out.push_str(&format!("  {} ({}): {}\n", flag.kind, rt.name, flag.message));
            }
        }
        out
    }

    fn worker_table(&self, rt: &TokioRuntime) -> Table {
        let mut header = vec!["Worker", "Busy%", "Busy", "Parks"];
        if self.tokio_unstable {
            header.extend(["Polls", "Steals", "Local queue", "Mean poll", "Overflows"]);
        }
        header.extend(["Longest stall", "Stalls"]);
        let mut table = Table::new(header);
        for w in &rt.workers {
            let mut cells = vec![
                w.index.to_string(),
                format_percent_value(w.busy_percent),
                format_duration_ns(w.busy_ns),
                format_count(w.parks),
            ];
            if self.tokio_unstable {
                cells.extend([
                    optional(w.polls),
                    optional(w.steals),
                    optional(w.local_queue_depth.map(|n| n as u64)),
                    w.mean_poll_ns.map_or_else(|| "-".into(), format_duration_ns),
                    optional(w.overflows),
                ]);
            }
            let stall = if w.longest_stall_ns == 0 { "-".into() } else { format_duration_ns(w.longest_stall_ns) };
            cells.extend([stall, format_count(w.stalls)]);
            table.row(cells);
        }
        table
    }
}

fn optional(value: Option<u64>) -> String {
    value.map_or_else(|| "-".into(), format_count)
}

/// The last 16 values as block characters scaled to their maximum: `▁▁▂▄▆█`.
fn sparkline(values: impl DoubleEndedIterator<Item = u64> + ExactSizeIterator) -> String {
    const BARS: [char; 8] = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];
    let skip = values.len().saturating_sub(16);
    let recent: Vec<u64> = values.skip(skip).collect();
    let max = recent.iter().copied().max().unwrap_or(0);
    if recent.is_empty() {
        return "-".into();
    }
    recent
        .iter()
        .map(|&v| BARS[(v.saturating_mul(7) + max / 2).checked_div(max).unwrap_or(0).min(7) as usize])
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::{TokioPoint, TokioWorker};
    use super::*;

    fn runtime(unstable: bool) -> TokioRuntimes {
        let worker = |index, busy_percent| TokioWorker {
            index,
            busy_ns: 900_000_000,
            busy_percent,
            parks: 12,
            polls: unstable.then_some(4_000),
            steals: unstable.then_some(7),
            local_queue_depth: unstable.then_some(3),
            mean_poll_ns: unstable.then_some(12_500),
            overflows: unstable.then_some(0),
            longest_stall_ns: if index == 0 { 1_450_000_000 } else { 0 },
            stalls: u64::from(index == 0),
            ..TokioWorker::default()
        };
        let rt = TokioRuntime {
            name: "api".into(),
            flavor: "multi_thread".into(),
            num_workers: 3,
            alive_tasks: 5,
            global_queue_depth: 1_200,
            max_global_queue_depth: 4_000,
            blocking_threads: unstable.then_some(2),
            blocking_queue_depth: unstable.then_some(0),
            spawned_tasks: unstable.then_some(10_000),
            flags: vec![TokioFlag {
                kind: "blocking".into(),
                workers: vec![0],
                at_ns: 1_500_000_000,
                message: "worker 0 made no progress for 1.45 s".into(),
            }],
            workers: vec![worker(0, 97.5), worker(2, 1.0)],
            history: [0, 10, 40, 80]
                .iter()
                .map(|&d| TokioPoint { global_queue_depth: d, ..TokioPoint::default() })
                .collect(),
            ..TokioRuntime::default()
        };
        TokioRuntimes { interval_ms: 20, tokio_unstable: unstable, total_runtimes: 1, runtimes: vec![rt] }
    }

    fn columns(text: &str, first: &str) -> Vec<String> {
        let line = text.lines().find(|l| l.starts_with(&format!("| {first} "))).unwrap();
        line.split('|').map(str::trim).filter(|c| !c.is_empty()).map(String::from).collect()
    }

    #[test]
    fn stable_build_shows_only_stable_columns() {
        let text = runtime(false).table(&Meta::default());
        assert!(text.starts_with(
            "tokio-runtime - Tokio runtime workers, scheduling and queues. (1 runtime, sampled every 20 ms, stable metrics)\n"
        ));
        assert_eq!(
            columns(&text, "Runtime"),
            ["Runtime", "Flavor", "Workers", "Alive tasks", "Global queue", "Max queue", "Queue trend", "Flags"]
        );
        assert_eq!(columns(&text, "api"), ["api", "multi_thread", "3", "5", "1,200", "4,000", "▁▂▅█", "blocking"]);
        assert_eq!(columns(&text, "Worker"), ["Worker", "Busy%", "Busy", "Parks", "Longest stall", "Stalls"]);
        assert_eq!(columns(&text, "0"), ["0", "97.5%", "900.00 ms", "12", "1.45 s", "1"]);
        assert!(text.contains("workers of api (showing top 2 of 3):"), "{text}");
        assert!(text.contains("\nflags:\n  blocking (api): worker 0 made no progress for 1.45 s\n"), "{text}");
    }

    #[test]
    fn unstable_build_adds_its_columns() {
        let text = runtime(true).table(&Meta::default());
        assert!(text.contains(", tokio_unstable metrics)"));
        assert_eq!(columns(&text, "api")[6..9], ["2", "0", "10,000"]);
        assert_eq!(
            columns(&text, "Worker"),
            [
                "Worker",
                "Busy%",
                "Busy",
                "Parks",
                "Polls",
                "Steals",
                "Local queue",
                "Mean poll",
                "Overflows",
                "Longest stall",
                "Stalls"
            ]
        );
        assert_eq!(columns(&text, "2")[4..], ["4,000", "7", "3", "12.50 µs", "0", "-", "0"]);
    }

    #[test]
    fn sparkline_scales_to_the_maximum_and_keeps_the_last_sixteen() {
        assert_eq!(sparkline([0u64, 0, 0].into_iter()), "▁▁▁");
        assert_eq!(sparkline(std::iter::empty()), "-");
        assert_eq!(sparkline((0..20u32).map(|v| if v == 19 { 100 } else { 0 })), "▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁█");
    }
}
