//! A small log-analytics job, profiled: parse and aggregate synthetic access-log
//! lines (nested measured functions), evaluate alert rules held as expression
//! trees (a recursive function), then enrich the top clients concurrently on a
//! multi-thread Tokio runtime (async functions and an awaiting block).
//!
//! cargo run --release -p hotpath-demo

use std::collections::HashMap;
use std::time::Duration;

/// One parsed access-log line.
struct Request {
    client: u32,
    path: String,
    status: u16,
    micros: u32,
}

/// Deterministic pseudo-random numbers (xorshift), so every run does the same work.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

#[hotpath::measure]
fn generate_log(lines: usize) -> Vec<String> {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let paths = ["/api/users", "/api/orders", "/static/app.js", "/health", "/api/search"];
    (0..lines)
        .map(|_| {
            let r = rng.next();
            format!(
                "client={} path={} status={} micros={}",
                r % 97,
                paths[(r >> 8) as usize % paths.len()],
                [200, 200, 200, 201, 404, 500][(r >> 16) as usize % 6],
                (r >> 24) % 5_000 + 50
            )
        })
        .collect()
}

#[hotpath::measure]
fn parse_line(line: &str) -> Option<Request> {
    let mut fields = tokenize(line);
    Some(Request {
        client: fields.next()?.parse().ok()?,
        path: fields.next()?.to_string(),
        status: fields.next()?.parse().ok()?,
        micros: fields.next()?.parse().ok()?,
    })
}

#[hotpath::measure]
fn tokenize(line: &str) -> impl Iterator<Item = &str> {
    line.split(' ').filter_map(|kv| kv.split_once('=').map(|(_, v)| v))
}

/// Per-path request counts, error counts and latency sums.
#[derive(Default)]
struct Stats {
    by_path: HashMap<String, (u64, u64, u64)>,
    by_client: HashMap<u32, u64>,
}

#[hotpath::measure_all]
impl Stats {
    fn record(&mut self, r: &Request) {
        let entry = self.by_path.entry(r.path.clone()).or_default();
        entry.0 += 1;
        entry.1 += u64::from(r.status >= 500);
        entry.2 += u64::from(r.micros);
        *self.by_client.entry(r.client).or_default() += 1;
    }

    fn top_clients(&self, n: usize) -> Vec<(u32, u64)> {
        let mut clients: Vec<_> = self.by_client.iter().map(|(c, n)| (*c, *n)).collect();
        clients.sort_unstable_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        clients.truncate(n);
        clients
    }

    #[hotpath::skip]
    fn paths(&self) -> usize {
        self.by_path.len()
    }
}

/// An alert rule: arithmetic over per-path metrics.
enum Expr {
    Metric(usize),
    Const(f64),
    Add(Box<Expr>, Box<Expr>),
    Mul(Box<Expr>, Box<Expr>),
    Div(Box<Expr>, Box<Expr>),
}

#[hotpath::measure]
fn evaluate(expr: &Expr, metrics: &[f64; 3]) -> f64 {
    match expr {
        Expr::Metric(i) => metrics[*i],
        Expr::Const(c) => *c,
        Expr::Add(a, b) => evaluate(a, metrics) + evaluate(b, metrics),
        Expr::Mul(a, b) => evaluate(a, metrics) * evaluate(b, metrics),
        Expr::Div(a, b) => evaluate(a, metrics) / evaluate(b, metrics).max(1.0),
    }
}

/// error_rate * 100 + mean latency / 1000, nested a few levels deep.
fn alert_rule() -> Expr {
    use Expr::*;
    let error_rate = Div(Box::new(Metric(1)), Box::new(Metric(0)));
    let mean_latency = Div(Box::new(Metric(2)), Box::new(Metric(0)));
    Add(
        Box::new(Mul(Box::new(error_rate), Box::new(Const(100.0)))),
        Box::new(Div(Box::new(mean_latency), Box::new(Const(1000.0)))),
    )
}

#[hotpath::measure]
async fn fetch_profile(client: u32) -> String {
    // Stands in for a network call: waiting, not computing.
    tokio::time::sleep(Duration::from_millis(5 + u64::from(client % 7))).await;
    format!("client-{client}")
}

#[hotpath::measure]
async fn enrich(client: u32, requests: u64) -> String {
    let profile = fetch_profile(client).await;
    tokio::task::yield_now().await;
    format!("{profile}: {requests} requests")
}

#[hotpath::main(percentiles = [50, 95, 99])]
fn main() {
    let lines = generate_log(200_000);
    let mut stats = Stats::default();
    for line in &lines {
        if let Some(request) = parse_line(line) {
            stats.record(&request);
        }
    }

    let rule = alert_rule();
    let alerts = stats
        .by_path
        .values()
        .cycle()
        .take(5_000)
        .filter(|(count, errors, micros)| evaluate(&rule, &[*count as f64, *errors as f64, *micros as f64]) > 19.0)
        .count();

    let top = stats.top_clients(40);
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(4).enable_all().build().unwrap();
    let enriched = runtime.block_on(async {
        hotpath::measure_block!("enrich_all", {
            let tasks: Vec<_> = top.iter().map(|&(c, n)| tokio::spawn(enrich(c, n))).collect();
            let mut out = Vec::with_capacity(tasks.len());
            for task in tasks {
                out.push(task.await.unwrap());
            }
            out
        })
    });

    println!(
        "demo: {} lines, {} paths, {} alert evaluations over threshold, {} clients enriched (top: {})",
        lines.len(),
        stats.paths(),
        alerts,
        enriched.len(),
        enriched[0]
    );
}
