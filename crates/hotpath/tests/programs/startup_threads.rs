//! How many threads besides its own an `#[hotpath::main]` program has, for
//! `tests/startup_threads.rs`: listed from `/proc/self/task` when main starts, when
//! it ends and after the report (a C `atexit` hook of the program's own, which runs
//! before the profiler's), as `label: N [names]` (a thread that has not named itself
//! yet shows the process's name). Modes (first argument): none, `interval` (waits, up
//! to 10 s, for the threads view's sampler), `connect` (asks its own live server at
//! `HOTPATH_METRICS_PORT` for `/profiler_status`, printing the status line).

use std::io::{Read, Write};
use std::time::{Duration, Instant};

/// Names of the process's threads other than the calling one, sorted.
fn other_threads() -> Vec<String> {
    // SAFETY: gettid has no preconditions.
    let me = unsafe { libc::syscall(libc::SYS_gettid) }.to_string();
    let mut names: Vec<String> = std::fs::read_dir("/proc/self/task")
        .map(|tasks| {
            tasks
                .filter_map(|task| task.ok())
                .filter(|task| task.file_name().to_str() != Some(me.as_str()))
                .filter_map(|task| std::fs::read_to_string(task.path().join("comm")).ok())
                .map(|name| name.trim().to_string())
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

fn show(label: &str) -> String {
    let names = other_threads();
    format!("{label}: {} [{}]", names.len(), names.join(","))
}

extern "C" fn at_exit() {
    let _ = writeln!(std::io::stdout(), "{}", show("at exit"));
}

fn ask_own_server() -> String {
    let port = std::env::var("HOTPATH_METRICS_PORT").expect("HOTPATH_METRICS_PORT names the server's port");
    let mut stream = std::net::TcpStream::connect(("127.0.0.1", port.parse::<u16>().expect("a port number")))
        .expect("the live server accepts a connection");
    stream.set_read_timeout(Some(Duration::from_secs(20))).expect("a read timeout");
    stream.write_all(b"GET /profiler_status HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n").expect("request sent");
    let mut response = String::new();
    let _ = stream.read_to_string(&mut response);
    response.lines().next().unwrap_or_default().to_string()
}

#[hotpath::main]
fn main() {
    // SAFETY: registers a plain extern "C" function, run at exit after main's report.
    unsafe { libc::atexit(at_exit) };
    println!("{}", show("start"));
    match std::env::args().nth(1).as_deref() {
        Some("interval") => {
            let since = Instant::now();
            while !other_threads().iter().any(|name| name == "hp-threads") && since.elapsed() < Duration::from_secs(10)
            {
                std::thread::sleep(Duration::from_millis(5));
            }
        }
        Some("connect") => println!("status: {}", ask_own_server()),
        _ => {}
    }
    println!("{}", show("end"));
}
