//! A bounded loopback load test: several clients hammer every kind of endpoint
//! (and send garbage) while the program works. The program keeps running and
//! recording, and its memory stays flat. Figures are printed for
//! docs/PERFORMANCE.md (`cargo test ... --test live_load -- --nocapture`); only
//! behaviour and a generous memory bound are asserted.
#![cfg(all(feature = "hotpath", target_os = "linux"))]

mod common;

use std::net::TcpStream;
use std::time::{Duration, Instant};

use common::live::{live_command, send, Live};

const CLIENTS: usize = 4;
const REQUESTS_PER_CLIENT: usize = 2500;

#[test]
fn hammering_the_server_leaves_the_program_running_and_flat() {
    let mut live = Live::start(live_command(300));
    live.calls("case_live::step");
    let paths = ["/metrics", "/report?limit=0", "/functions_timing", "/profiler_status", "/threads", "/nope"];
    let hammer = |rounds: usize| {
        std::thread::scope(|s| {
            for c in 0..CLIENTS {
                let address = live.address;
                s.spawn(move || {
                    for i in 0..rounds {
                        match (c + i) % 8 {
                            6 => assert_eq!(send(address, b"BREW /pot HTCPCP/1.0\r\n\r\n").status, 400),
                            // Connect and leave at once.
                            7 => drop(TcpStream::connect(address).unwrap()),
                            n => {
                                let path = paths[n % paths.len()];
                                let reply = send(address, format!("GET {path} HTTP/1.1\r\n\r\n").as_bytes());
                                assert!(matches!(reply.status, 200 | 404), "{path}: {reply:?}");
                            }
                        }
                    }
                });
            }
        });
    };
    hammer(100); // warm-up: thread stacks, caches and allocator pools reach their steady size
                 // The program's own pace without clients, for comparison (printed, not asserted).
    let idle_from = (live.calls("case_live::step"), Instant::now());
    std::thread::sleep(Duration::from_secs(1));
    let idle_rate = (live.calls("case_live::step") - idle_from.0) as f64 / idle_from.1.elapsed().as_secs_f64();
    let rss_before = live.rss_kib();
    let calls_before = live.calls("case_live::step");
    let started = Instant::now();
    hammer(REQUESTS_PER_CLIENT);
    let elapsed = started.elapsed();
    let calls_after = live.calls("case_live::step");
    let busy_rate = (calls_after - calls_before) as f64 / started.elapsed().as_secs_f64();
    std::thread::sleep(Duration::from_millis(300));
    let rss_after = live.rss_kib();
    let requests = CLIENTS * REQUESTS_PER_CLIENT;
    println!(
        "load: {requests} requests from {CLIENTS} clients in {:.2} s ({:.0} req/s); RSS {rss_before} KiB -> {rss_after} KiB; \
         program's step() {idle_rate:.0}/s idle, {busy_rate:.0}/s under load",
        elapsed.as_secs_f64(),
        requests as f64 / elapsed.as_secs_f64()
    );
    assert!(live.running(), "the program survived");
    assert!(calls_after > calls_before, "the program kept working and recording");
    assert!(rss_after <= rss_before + 16 * 1024, "memory stayed flat: {rss_before} KiB -> {rss_after} KiB");
}
