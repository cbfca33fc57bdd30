//! Clients that ask for `/metrics` of a large report and never read (issue 23, item
//! 5): the program's memory stays within the server's budget for unsent responses
//! (one body shared by every client asking within a snapshot, new renders refused
//! with 503 beyond the budget), the server closes the stalled connections by itself
//! at their deadline, then its memory returns near where it was and the next
//! `/metrics` is answered whole. With `hotpath-alloc`, none of the server's renders
//! counts as the program's allocation. Bounds on memory only; the waits only catch hangs.
#![cfg(all(feature = "hotpath", target_os = "linux"))]

mod common;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use common::live::{live_command, Live};

/// `gauge!` keys of about 1 KB: about 4 KB of `/metrics` text each.
const GAUGES: usize = 2000;
const CLIENTS: usize = 64;
/// The server's budget for response bytes held at once (`pending::BUDGET`).
const BUDGET_KIB: u64 = 16 * 1024;

fn status_kib(live: &Live, field: &str) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{}/status", live.child.id())).expect("/proc readable");
    let line = status.lines().find(|l| l.starts_with(field)).unwrap_or_else(|| panic!("no {field}"));
    line.split_whitespace().nth(1).and_then(|v| v.parse().ok()).expect("a number")
}

/// Sockets the program has open (the listener and its own pair included).
fn sockets(live: &Live) -> usize {
    let fds = std::fs::read_dir(format!("/proc/{}/fd", live.child.id())).expect("/proc readable");
    fds.filter_map(Result::ok)
        .filter(|fd| std::fs::read_link(fd.path()).is_ok_and(|l| l.to_string_lossy().starts_with("socket:")))
        .count()
}

/// A whole `/metrics` response: its length, once the body is as long as it says.
fn full_metrics(live: &Live) -> usize {
    let reply = live.get("/metrics", "");
    assert_eq!(reply.status, 200, "{}", reply.head);
    let length: usize = reply.header("content-length").and_then(|v| v.parse().ok()).expect("a Content-Length");
    assert_eq!(reply.body.len(), length, "the whole body arrived");
    length
}

/// Bytes the whole program allocated while profiled (`hotpath-alloc`), else None.
fn program_allocated(live: &Live) -> Option<u64> {
    cfg!(feature = "hotpath-alloc").then(|| {
        let section = live.json("/functions_alloc");
        section["process_alloc_bytes"].as_u64().unwrap_or_else(|| panic!("no process_alloc_bytes: {section}"))
    })
}

#[test]
fn clients_that_never_read_cost_a_bounded_amount_of_memory_and_are_closed() {
    let mut cmd = live_command(300);
    cmd.arg(GAUGES.to_string()).env("HOTPATH_ENTRIES_LIMIT", "3000").env("HOTPATH_MAX_LOG_LEN", "1536");
    let mut live = Live::start(cmd);
    let started = Instant::now();
    let mut body = 0;
    while body < GAUGES * 3 * 1000 {
        assert!(started.elapsed() < Duration::from_secs(120), "the gauges never all showed up ({body} bytes)");
        std::thread::sleep(Duration::from_millis(100));
        body = full_metrics(&live);
    }
    // The kernel must not be able to take a whole response off the server's hands.
    let wmem = std::fs::read_to_string("/proc/sys/net/ipv4/tcp_wmem").unwrap_or_default();
    let wmem_max: usize = wmem.split_whitespace().nth(2).and_then(|v| v.parse().ok()).unwrap_or(0);
    assert!(body > wmem_max, "a {body}-byte /metrics fits this machine's socket send buffers ({wmem_max})");
    // Steady state: the snapshot, thread stacks and allocator pools at their size.
    for _ in 0..3 {
        full_metrics(&live);
        std::thread::sleep(Duration::from_millis(300));
    }
    let (baseline, baseline_sockets) = (live.rss_kib(), sockets(&live));
    let allocated_before = program_allocated(&live);

    // Half ask for the same /metrics (shared), half for one of their own (a render
    // each, until the budget is full).
    let mut stalled: Vec<TcpStream> = (0..CLIENTS)
        .map(|i| {
            let mut s = TcpStream::connect(live.address).unwrap();
            let path = if i % 2 == 0 { "/metrics".to_string() } else { format!("/metrics?client={i}") };
            s.write_all(format!("GET {path} HTTP/1.1\r\nHost: localhost\r\n\r\n").as_bytes()).unwrap();
            std::thread::sleep(Duration::from_millis(20));
            s
        })
        .collect();
    // The server gives up on them by itself (their deadline), while they are still open here.
    let since = Instant::now();
    while sockets(&live) > baseline_sockets {
        assert!(since.elapsed() < Duration::from_secs(60), "stalled connections still open: {}", sockets(&live));
        std::thread::sleep(Duration::from_millis(100));
    }
    let peak = status_kib(&live, "VmHWM:");
    let body_kib = body as u64 / 1024;
    let bound = baseline + BUDGET_KIB + 2 * body_kib + 32 * 1024;
    println!("body {body_kib} KiB, RSS baseline {baseline} KiB, peak {peak} KiB (bound {bound} KiB)");
    assert!(peak <= bound, "{CLIENTS} non-reading clients: RSS peaked at {peak} KiB (baseline {baseline} KiB)");

    // What each got: the status line arrived; a 200's body was cut off at the deadline.
    let (mut ok, mut busy) = (0, 0);
    for s in &mut stalled {
        s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
        let mut raw = Vec::new();
        let _ = s.read_to_end(&mut raw);
        let text = String::from_utf8_lossy(&raw);
        match text.get(9..12) {
            Some("200") => {
                ok += 1;
                assert!(raw.len() < body, "a stalled 200 was closed before its end ({} bytes)", raw.len());
            }
            Some("503") => {
                busy += 1;
                assert!(text.to_ascii_lowercase().contains("retry-after: 1\r\n"), "{text}");
            }
            _ => panic!("neither 200 nor 503: {:?}", text.get(..200)),
        }
    }
    println!("{ok} answered 200 (then cut off), {busy} refused with 503");
    assert!(ok >= 2, "the shared /metrics and the first own one are served");
    assert!(busy >= CLIENTS / 4, "renders beyond the budget are refused: {busy} of {CLIENTS}");
    drop(stalled);
    // The server rendered at least two bodies of `body` bytes meanwhile, on its own threads.
    if let (Some(before), Some(after)) = (allocated_before, program_allocated(&live)) {
        println!("the program allocated {} KiB meanwhile", (after - before) / 1024);
        assert!(after - before < body as u64, "the server's renders counted as the program's: {before} -> {after}");
    }

    // Memory given back: what stays is at most the response budget and one body (the
    // allocator's pools and fragmentation; before the budget it was hundreds of MiB),
    // and the next client gets everything. The give-back runs on the server's thread
    // once the cached renders expire: wait for it, up to a bound that only catches a hang.
    let bound = baseline + BUDGET_KIB + body_kib;
    let since = Instant::now();
    let mut after = live.rss_kib();
    while after > bound && since.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(200));
        after = live.rss_kib();
    }
    println!("RSS after the clients left: {after} KiB");
    assert!(after <= bound, "RSS {after} KiB after the clients left (baseline {baseline} KiB, bound {bound} KiB)");
    assert!(full_metrics(&live) >= body);
    assert!(live.running());
}
