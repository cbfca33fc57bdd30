//! The readers of every row log, by row: the `log = true` logs of functions, futures,
//! channels and streams (`logs/log_ring.rs`) and the logs of the SQL, HTTP client
//! and server rows (`services/logs.rs`), merged by (section, row name). Above both, so
//! that neither imports the other.

use hotpath_model::{LoggedRow, RowLogs};

use crate::logs::log_ring::{own_logs, pair};
use crate::logs::LogRing;

/// The logged values of the row `name` of `section` (`functions_timing`, `futures`,
/// `channels` or `streams`; `sql`, `http` and `server` rows log every execution or
/// request, see `services::logs`), newest first; rows of one name are merged by time.
/// `None` when that row logged nothing.
pub fn row_logs(section: &str, name: &str) -> Option<RowLogs> {
    let logs: Vec<&'static LogRing> =
        all_logs().into_iter().filter(|(s, n, _)| *s == section && n == name).map(|(_, _, l)| l).collect();
    if logs.is_empty() {
        return None;
    }
    let mut out = RowLogs::default();
    (out.section, out.name) = (section.to_string(), name.to_string());
    for log in logs {
        out.total += log.total();
        out.logs.extend(log.logs());
    }
    out.logs.sort_by_key(|l| std::cmp::Reverse(l.at_ns));
    out.logs.truncate(crate::logs::current_limits().per_entry);
    Some(out)
}

/// Every row's log: the `log = true` ones, then the SQL, HTTP and server rows' own
/// (`services::logs`), as (section, row name, log).
fn all_logs() -> Vec<(&'static str, String, &'static LogRing)> {
    #[allow(unused_mut)]
    let mut all = own_logs();
    #[cfg(feature = "services")]
    all.extend(crate::services::logs::row_logs());
    all
}

/// One summary per logged row (sites of one name merged), by section then name.
pub(crate) fn logged_rows() -> Vec<LoggedRow> {
    let mut rows: Vec<LoggedRow> = Vec::new();
    for (section, name, log) in all_logs() {
        let (total, newest) = log.summary();
        let Some(newest) = newest.filter(|_| total > 0) else { continue };
        let name = name.as_str();
        let index = match rows.iter().position(|r| r.section == section && r.name == name) {
            Some(i) => i,
            None => {
                let mut row = LoggedRow::default();
                (row.section, row.name) = (section.to_string(), name.to_string());
                rows.push(row);
                rows.len() - 1
            }
        };
        let row = &mut rows[index];
        row.total += total;
        row.kept += log.kept();
        if row.total == total || newest.at_ns >= row.last_at_ns {
            (row.value, row.cut, row.last_at_ns) = (newest.value.unwrap_or_default(), newest.cut, newest.at_ns);
        }
    }
    rows.sort_by(|a, b| (&a.section, &a.name).cmp(&(&b.section, &b.name)));
    rows
}

/// The logged values of the row `name` of `instrument`, oldest first: (nanoseconds
/// since the session started, text).
pub fn logs_named(instrument: &str, name: &str) -> Vec<(u64, String)> {
    let mut logs = row_logs(instrument, name).map(|r| r.logs).unwrap_or_default();
    logs.reverse();
    logs.into_iter().map(pair).collect()
}

#[cfg(test)]
mod tests {
    use super::{logs_named, row_logs};
    use crate::logs::log_ring::{LogSlot, Owner};

    #[test]
    fn a_log_keeps_the_last_values_up_to_the_limit_merged_by_name() {
        static SLOT: LogSlot = LogSlot::new();
        static TWIN: LogSlot = LogSlot::new();
        let keep = crate::logs::current_limits().per_entry;
        let _alone = crate::sync::lock(&crate::logs::TEST_LOGS);
        let owner = || Owner { instrument: "channels", name: "ring-test".into() };
        // Without the session switch (unit tests): the store's append, as a session would.
        for i in 0..keep + 10 {
            SLOT.ring(owner).ring().append_keyed(&i, None, None);
        }
        let texts: Vec<String> = logs_named("channels", "ring-test").into_iter().map(|(_, t)| t).collect();
        let expected: Vec<String> = (10..keep + 10).map(|i| i.to_string()).collect();
        assert_eq!(texts, expected, "oldest first");
        assert!(logs_named("streams", "ring-test").is_empty(), "logs are per section");
        assert_eq!(row_logs("channels", "ring-test").map(|r| r.total), Some(keep as u64 + 10));
        // Two sites of one name merge (their order, by time, is not checked here: other
        // unit tests move the log clock's base).
        static ONE: LogSlot = LogSlot::new();
        let twin = || Owner { instrument: "channels", name: "merge-test".into() };
        ONE.ring(twin).ring().append_keyed(&1, None, None);
        ONE.ring(twin).ring().append_keyed(&2, None, None);
        TWIN.ring(twin).ring().append_keyed(&"twin", None, None);
        let merged = row_logs("channels", "merge-test").expect("logged");
        assert_eq!((merged.section.as_str(), merged.total, merged.logs.len()), ("channels", 3, 3));
        let mut values: Vec<String> = merged.logs.iter().filter_map(|l| l.value.clone()).collect();
        values.sort();
        assert_eq!(values, ["\"twin\"", "1", "2"]);
        assert!(row_logs("channels", "never").is_none());
    }
}
