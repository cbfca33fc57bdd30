//! Linux: `/proc/self/task/<tid>/stat` for each thread, `/proc/self/statm` for RSS.

use std::collections::HashMap;
use std::fs;
use std::io;
use std::sync::OnceLock;

use super::{OsSample, OsThread, State};

/// The process's own name, read once: threads that inherit it are unnamed.
static PROCESS_NAME: OnceLock<String> = OnceLock::new();

/// The name threads inherit from the process, once it could be read.
pub(crate) fn process_name() -> Option<&'static str> {
    match PROCESS_NAME.get() {
        Some(name) => Some(name.as_str()),
        None => read_stat("/proc/self/stat").ok().map(|s| PROCESS_NAME.get_or_init(|| s.comm).as_str()),
    }
}

/// Lists `/proc/self/task` and reads each thread's `stat`. A thread whose files are
/// gone has exited; one whose `stat` cannot be opened for another reason (no file
/// descriptor left) is listed as unreadable: alive, numbers unknown. The profiler's
/// own threads are left unread unless shown (`SKIP_PROFILER_THREADS`), and the process
/// name is read only once a thread other than main is.
pub(crate) fn sample(main_tid: u64) -> io::Result<OsSample> {
    // SAFETY: sysconf has no preconditions.
    let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    let ns_per_tick = ns_per_tick();
    let skip_profiler = super::sample::SKIP_PROFILER_THREADS.load(std::sync::atomic::Ordering::Relaxed);
    let mut process_name = None;
    let mut out = OsSample::complete(Vec::new(), 0);
    let (mut problem, mut failed) = (None, 0);
    for entry in fs::read_dir("/proc/self/task")? {
        let Some(tid) = entry?.file_name().to_str().and_then(|n| n.parse::<u64>().ok()) else { continue };
        if skip_profiler && tid != main_tid && crate::memory::is_profiler_thread(tid, "") {
            out.unreadable.push(tid); // alive: its allocation slot is not an exited thread's
            continue;
        }
        let stat = match read_stat(&format!("/proc/self/task/{tid}/stat")) {
            Ok(stat) => stat,
            // Exited between listing and reading.
            Err(e) if e.kind() == io::ErrorKind::NotFound || e.raw_os_error() == Some(libc::ESRCH) => continue,
            Err(e) => {
                out.unreadable.push(tid);
                failed += 1;
                problem.get_or_insert(e);
                continue;
            }
        };
        let name = if tid == main_tid {
            Some("main".to_string())
        } else if Some(stat.comm.as_str()) == *process_name.get_or_insert_with(self::process_name) {
            None // unnamed threads inherit the process name
        } else {
            Some(stat.comm)
        };
        out.threads.push(OsThread {
            tid,
            name,
            state: stat.state,
            user_ns: stat.utime * ns_per_tick,
            sys_ns: stat.stime * ns_per_tick,
        });
    }
    if process_name == Some(None) {
        out.problem = Some("the process name could not be read: unnamed threads show their inherited name".into());
    }
    if let Some(e) = problem {
        let listed = failed + out.threads.len();
        out.problem =
            Some(format!("{failed} of {listed} threads could not be read ({e}); they keep their last values"));
    }
    match crate::small_file::read_small::<512>("/proc/self/statm") {
        Ok(statm) => {
            let pages = statm.split_whitespace().nth(1).and_then(|v| v.parse::<u64>().ok()).unwrap_or(0);
            out.rss_bytes = Some(pages * page.max(0) as u64);
        }
        Err(e) => {
            out.rss_bytes = None;
            out.problem.get_or_insert_with(|| format!("the RSS could not be read ({e})"));
        }
    }
    Ok(out)
}

/// CPU time (user, system) of the threads running now, by OS id, read from their
/// `stat` files; left out: `main_tid` unless `with_main`, and the profiler's threads.
/// Nothing when `/proc` cannot be listed (the view then counts their time whole).
pub(crate) fn others_at_start(main_tid: u64, with_main: bool) -> HashMap<u64, (u64, u64)> {
    let Ok(entries) = fs::read_dir("/proc/self/task") else { return HashMap::new() };
    let ns_per_tick = ns_per_tick();
    entries
        .filter_map(|entry| entry.ok()?.file_name().to_str()?.parse::<u64>().ok())
        .filter(|&tid| (with_main || tid != main_tid) && !crate::memory::is_profiler_thread(tid, ""))
        .filter_map(|tid| {
            let stat = read_stat(&format!("/proc/self/task/{tid}/stat")).ok()?;
            Some((tid, (stat.utime * ns_per_tick, stat.stime * ns_per_tick)))
        })
        .collect()
}

/// Nanoseconds per clock tick, the unit of `utime` and `stime`.
fn ns_per_tick() -> u64 {
    // SAFETY: sysconf has no preconditions.
    let hz = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
    1_000_000_000 / hz.max(1) as u64
}

struct Stat {
    comm: String,
    state: State,
    utime: u64,
    stime: u64,
}

/// Room for a `stat` line: 52 fields of at most 20 digits, and the name.
const STAT_BYTES: usize = 2048;

/// Parses `pid (comm) state ... utime stime ...`; `comm` may itself contain spaces
/// and parentheses, so fields are counted from the last `)`.
fn read_stat(path: &str) -> io::Result<Stat> {
    let text = crate::small_file::read_small::<STAT_BYTES>(path)?;
    parse_stat(&text).ok_or_else(|| io::Error::new(io::ErrorKind::InvalidData, format!("cannot parse {path}")))
}

fn parse_stat(text: &str) -> Option<Stat> {
    let open = text.find('(')?;
    let close = text.rfind(')')?;
    let comm = text.get(open + 1..close)?.to_string();
    let mut fields = text.get(close + 1..)?.split_ascii_whitespace();
    // The first is field 3 of proc(5) (state); utime and stime are fields 14 and 15.
    let state = match fields.next()?.bytes().next()? {
        b'R' => State::Running,
        b'D' => State::Blocked,
        _ => State::Sleeping,
    };
    let utime = fields.nth(10)?.parse().ok()?;
    Some(Stat { comm, state, utime, stime: fields.next()?.parse().ok()? })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_names_with_spaces_and_parentheses() {
        let line = "1234 (my (odd) name) D 1 1234 1234 0 -1 4194560 100 0 0 0 57 13 0 0 20 0 3 0 1 1 1";
        let stat = parse_stat(line).unwrap();
        assert_eq!((stat.comm.as_str(), stat.state, stat.utime, stat.stime), ("my (odd) name", State::Blocked, 57, 13));
    }

    #[test]
    fn samples_this_process() {
        let sample = sample(std::process::id().into()).unwrap();
        assert!(sample.rss_bytes.unwrap() > 0);
        // Only the profiler's own threads (other tests start some) are left unread.
        assert!(sample.unreadable.iter().all(|&tid| crate::memory::is_profiler_thread(tid, "")));
        assert!(sample.problem.is_none());
        let main = sample.threads.iter().find(|t| t.tid == u64::from(std::process::id())).unwrap();
        assert_eq!(main.name.as_deref(), Some("main"));
    }
}
