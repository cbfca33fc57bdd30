//! One process of the fleet test (tests/fleet_prometheus.rs): a known share of work,
//! served live on `/metrics` for a real Prometheus to scrape.
//!
//! `fleet_case SHARE GO_FILE SECONDS`: calls `work` once and sends itself two
//! requests (one answered 500), then waits until GO_FILE
//! exists (the test creates it once Prometheus has scraped every process twice), then
//! calls `work` SHARE × 100 times (every 50th call sleeps 20 ms, the others take
//! microseconds: exactly 2% slow, so the p99 is a slow call), locking a mutex and an
//! RwLock and sending on a channel each time, and sends SHARE × 20 requests to its own
//! axum server (every 5th answered 500), each running one sqlx query. Then it prints
//! `done` and idles, still served, until SECONDS have passed since it started.

use std::io::Write;
use std::path::PathBuf;
use std::sync::{mpsc, Mutex, RwLock};
use std::time::{Duration, Instant};

use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::get;
use axum::Router;
use sqlx::SqlitePool;
use tracing_subscriber::prelude::*;

/// Calls of `work` per unit of share.
const CALLS_PER_SHARE: u64 = 100;
/// Every this many calls, one sleeps [`SLOW`].
const SLOW_EVERY: u64 = 50;
const SLOW: Duration = Duration::from_millis(20);
/// Requests per unit of share; every 5th goes to the failing route.
const REQUESTS_PER_SHARE: u64 = 20;

struct Shared {
    ledger: hotpath::wrap::std::sync::Mutex<u64>,
    config: hotpath::wrap::std::sync::RwLock<u64>,
}

#[hotpath::measure]
fn work(i: u64, shared: &Shared, jobs: &hotpath::wrap::std::sync::mpsc::Sender<u64>) {
    if i % SLOW_EVERY == 0 {
        std::thread::sleep(SLOW);
    }
    let fee = *shared.config.read().unwrap();
    *shared.ledger.lock().unwrap() += fee;
    let _ = jobs.send(i);
}

async fn item(State(db): State<SqlitePool>) -> Result<String, StatusCode> {
    let (n,): (i64,) =
        sqlx::query_as("SELECT ?").bind(7_i64).fetch_one(&db).await.map_err(|_| StatusCode::INTERNAL_SERVER_ERROR)?;
    Ok(n.to_string())
}

async fn fail() -> StatusCode {
    StatusCode::INTERNAL_SERVER_ERROR
}

#[hotpath::main]
fn main() {
    let started = Instant::now();
    let mut args = std::env::args().skip(1);
    let usage = "usage: fleet_case SHARE GO_FILE SECONDS";
    let share: u64 = args.next().and_then(|a| a.parse().ok()).expect(usage);
    let go = PathBuf::from(args.next().expect(usage));
    let seconds: u64 = args.next().and_then(|a| a.parse().ok()).expect(usage);
    let deadline = started + Duration::from_secs(seconds);

    tracing_subscriber::registry().with(hotpath::sqlx_tracing_layer()).init();
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    let base = runtime.block_on(serve());

    let shared = Shared {
        ledger: hotpath::mutex!(Mutex::new(0), label = "ledger"),
        config: hotpath::rw_lock!(RwLock::new(1), label = "config"),
    };
    let (jobs, queue) = hotpath::channel!(mpsc::channel::<u64>(), label = "jobs");
    let consumer = std::thread::spawn(move || queue.iter().count());

    // One fast call and two requests before the start: every process has its series
    // before the work.
    work(1, &shared, &jobs);
    requests(&runtime, &base, 3..5);
    while !go.exists() {
        assert!(Instant::now() < deadline, "{} never appeared", go.display());
        std::thread::sleep(Duration::from_millis(10));
    }
    for i in 0..share * CALLS_PER_SHARE {
        work(i, &shared, &jobs);
    }
    drop(jobs);
    let _ = consumer.join();
    requests(&runtime, &base, 5..5 + share * REQUESTS_PER_SHARE);

    println!("done");
    std::io::stdout().flush().unwrap();
    while Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Requests number `numbers` to the server: every 5th (4, 9, ...) to the failing route.
fn requests(runtime: &tokio::runtime::Runtime, base: &str, numbers: std::ops::Range<u64>) {
    runtime.block_on(async {
        let client = reqwest::Client::new();
        for i in numbers {
            let path = if i % 5 == 4 { "fail" } else { "item" };
            client.get(format!("{base}/{path}")).send().await.expect("a response");
        }
    });
}

/// The axum server on a loopback port; returns its base URL.
async fn serve() -> String {
    let db = SqlitePool::connect("sqlite::memory:").await.expect("an in-memory database");
    let router = Router::new().route("/item", get(item)).route("/fail", get(fail)).with_state(db);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, hotpath::axum!(router)).await });
    base
}
