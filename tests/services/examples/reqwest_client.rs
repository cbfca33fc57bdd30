//! A reqwest client profiled with hotpath: `http!` turns `reqwest::Client` into a
//! reqwest-middleware client whose calls are counted per normalized endpoint (ids and
//! the port folded, query dropped), with status classes, errors and latency. The
//! program starts a small loopback server to call, and one call fails to connect.
//!
//! cargo run --manifest-path tests/services/Cargo.toml --example reqwest_client

use axum::extract::Path;
use axum::http::StatusCode;
use axum::routing::get;
use axum::Router;

type Client = hotpath::wrap::reqwest::Client;

#[hotpath::measure]
async fn fetch_user(client: &Client, base: &str, id: u32) -> Option<String> {
    let response = client.get(format!("{base}/users/{id}?fields=name")).send().await.ok()?;
    response.error_for_status().ok()?.text().await.ok()
}

async fn user(Path(id): Path<u32>) -> Result<String, StatusCode> {
    if id % 5 == 0 {
        Err(StatusCode::NOT_FOUND)
    } else {
        Ok(format!("user {id}"))
    }
}

#[hotpath::main(percentiles = [50, 99])]
#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let router = Router::new().route("/users/{id}", get(user)).route("/health", get(|| async { "ok" }));
    tokio::spawn(async move { axum::serve(listener, router).await });

    let client: Client = hotpath::http!(reqwest::Client::new());
    let found = futures_join(&client, &base).await;
    println!("{found} users found");

    let status: Client = hotpath::http!(reqwest::Client::new(), label = "status");
    for _ in 0..5 {
        status.get(format!("{base}/health")).send().await.unwrap();
    }
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap();
    assert!(status.get(format!("http://{closed}/health")).send().await.is_err());
}

/// Fetches users 1..=30, ten at a time.
async fn futures_join(client: &Client, base: &str) -> usize {
    let mut found = 0;
    for chunk in (1..=30).collect::<Vec<u32>>().chunks(10) {
        let tasks: Vec<_> = chunk
            .iter()
            .map(|&id| {
                let (client, base) = (client.clone(), base.to_string());
                tokio::spawn(async move { fetch_user(&client, &base, id).await })
            })
            .collect();
        for task in tasks {
            found += usize::from(task.await.unwrap().is_some());
        }
    }
    found
}
