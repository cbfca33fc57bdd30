//! Linux: `/proc/self/task/<tid>/stat` for each thread, `/proc/self/statm` for RSS.

use std::fs;
use std::io;

use super::{OsSample, OsThread, State};

pub(crate) fn sample(main_tid: u64) -> io::Result<OsSample> {
    // SAFETY: sysconf has no preconditions.
    let (hz, page) = unsafe { (libc::sysconf(libc::_SC_CLK_TCK), libc::sysconf(libc::_SC_PAGESIZE)) };
    let ns_per_tick = 1_000_000_000 / hz.max(1) as u64;
    let process_name = read_stat("/proc/self/stat").map(|s| s.comm).unwrap_or_default();
    let mut threads = Vec::new();
    for entry in fs::read_dir("/proc/self/task")? {
        let Some(tid) = entry?.file_name().to_str().and_then(|n| n.parse::<u64>().ok()) else { continue };
        // A thread may exit between listing and reading: skip it.
        let Some(stat) = read_stat(&format!("/proc/self/task/{tid}/stat")) else { continue };
        let name = if tid == main_tid {
            Some("main".to_string())
        } else if stat.comm == process_name {
            None // unnamed threads inherit the process name
        } else {
            Some(stat.comm)
        };
        threads.push(OsThread {
            tid,
            name,
            state: stat.state,
            user_ns: stat.utime * ns_per_tick,
            sys_ns: stat.stime * ns_per_tick,
        });
    }
    let rss_pages = fs::read_to_string("/proc/self/statm")?
        .split_whitespace()
        .nth(1)
        .and_then(|v| v.parse::<u64>().ok())
        .unwrap_or(0);
    Ok(OsSample { threads, rss_bytes: rss_pages * page.max(0) as u64 })
}

struct Stat {
    comm: String,
    state: State,
    utime: u64,
    stime: u64,
}

/// Parses `pid (comm) state ... utime stime ...`; `comm` may itself contain spaces
/// and parentheses, so fields are counted from the last `)`.
fn read_stat(path: &str) -> Option<Stat> {
    parse_stat(&fs::read_to_string(path).ok()?)
}

fn parse_stat(text: &str) -> Option<Stat> {
    let open = text.find('(')?;
    let close = text.rfind(')')?;
    let comm = text.get(open + 1..close)?.to_string();
    let fields: Vec<&str> = text.get(close + 1..)?.split_whitespace().collect();
    // fields[0] is field 3 of proc(5) (state); utime and stime are fields 14 and 15.
    let state = match fields.first()?.chars().next()? {
        'R' => State::Running,
        'D' => State::Blocked,
        _ => State::Sleeping,
    };
    Some(Stat { comm, state, utime: fields.get(11)?.parse().ok()?, stime: fields.get(12)?.parse().ok()? })
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
        assert!(sample.rss_bytes > 0);
        let main = sample.threads.iter().find(|t| t.tid == u64::from(std::process::id())).unwrap();
        assert_eq!(main.name.as_deref(), Some("main"));
    }
}
