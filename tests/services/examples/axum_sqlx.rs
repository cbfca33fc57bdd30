//! An axum service over SQLite through sqlx, profiled with hotpath: the `server`
//! section times each route, the `sql` section each normalized statement, and the
//! route scope adds each request's measured-function time to its route. The program
//! serves on a loopback port, sends itself a few requests and ends.
//!
//! cargo run --manifest-path tests/services/Cargo.toml --example axum_sqlx
//! (`--no-default-features` builds it without profiling: the same program, no report)

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::routing::get;
use axum::Router;
use sqlx::SqlitePool;
use tracing_subscriber::prelude::*;

#[hotpath::measure]
fn title_case(name: &str) -> String {
    let mut chars = name.chars();
    chars.next().map(|c| c.to_uppercase().chain(chars).collect()).unwrap_or_default()
}

async fn list(State(db): State<SqlitePool>) -> String {
    let names: Vec<(String,)> =
        sqlx::query_as("SELECT name FROM todos ORDER BY id").fetch_all(&db).await.unwrap_or_default();
    names.iter().map(|(n,)| title_case(n)).collect::<Vec<_>>().join(", ")
}

async fn one(State(db): State<SqlitePool>, Path(id): Path<i64>) -> Result<String, StatusCode> {
    let row: Option<(String,)> = sqlx::query_as("SELECT name FROM todos WHERE id = ?")
        .bind(id)
        .fetch_optional(&db)
        .await
        .map_err(|_| StatusCode::INTERNAL_SERVER_ERROR)?;
    row.map(|(n,)| title_case(&n)).ok_or(StatusCode::NOT_FOUND)
}

async fn add(State(db): State<SqlitePool>, Path(name): Path<String>) -> StatusCode {
    match sqlx::query("INSERT INTO todos (name) VALUES (?)").bind(name).execute(&db).await {
        Ok(_) => StatusCode::CREATED,
        Err(_) => StatusCode::INTERNAL_SERVER_ERROR,
    }
}

#[hotpath::main(percentiles = [50, 99])]
#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    tracing_subscriber::registry().with(hotpath::sqlx_tracing_layer()).init();
    let db = SqlitePool::connect("sqlite::memory:").await.expect("an in-memory database");
    sqlx::query("CREATE TABLE todos (id INTEGER PRIMARY KEY, name TEXT NOT NULL)").execute(&db).await.unwrap();

    let router = Router::new()
        .route("/todos", get(list))
        .route("/todos/{id}", get(one))
        .route("/todos/new/{name}", axum::routing::post(add))
        .with_state(db);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, hotpath::axum!(router)).await });

    let client = reqwest::Client::new();
    for name in ["milk", "bread", "eggs", "tea"] {
        client.post(format!("{base}/todos/new/{name}")).send().await.unwrap();
    }
    for i in 0..40 {
        client.get(format!("{base}/todos/{}", i % 6)).send().await.unwrap();
    }
    for _ in 0..10 {
        client.get(format!("{base}/todos")).send().await.unwrap();
    }
}
