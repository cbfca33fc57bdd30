//! The service the test programs and examples share: an axum router over a diesel
//! SQLite database, whose handlers query, call a measured function and call back
//! into the server through an instrumented reqwest client.

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

use axum::extract::{Path, State};
use axum::http::{StatusCode, Uri};
use axum::routing::{get, post};
use axum::Router;
use diesel::prelude::*;
use diesel::sql_types::{Integer, Text};

/// What the handlers share.
#[derive(Clone)]
pub struct App {
    db: Arc<Mutex<SqliteConnection>>,
    client: hotpath::wrap::reqwest::Client,
    /// The server's own address, for the proxy route.
    pub base: Arc<Mutex<String>>,
}

#[derive(QueryableByName)]
struct Name {
    #[diesel(sql_type = Text)]
    name: String,
}

/// Opens (creates) the diesel database in `path` with three users.
pub fn open_diesel(path: &std::path::Path) -> SqliteConnection {
    let mut db = SqliteConnection::establish(&path.display().to_string()).expect("open the diesel database");
    diesel::sql_query("CREATE TABLE IF NOT EXISTS users (id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
        .execute(&mut db)
        .expect("create table");
    for name in ["ada", "grace", "edsger"] {
        diesel::sql_query("INSERT INTO users (name) VALUES (?)")
            .bind::<Text, _>(name)
            .execute(&mut db)
            .expect("insert");
    }
    db
}

#[hotpath::measure]
fn render(name: &str) -> String {
    format!("<h1>{name}</h1>")
}

async fn user(State(app): State<App>, Path(id): Path<i32>) -> Result<String, StatusCode> {
    let found = {
        let mut db = app.db.lock().unwrap_or_else(|e| e.into_inner());
        diesel::sql_query("SELECT name FROM users WHERE id = ?").bind::<Integer, _>(id).load::<Name>(&mut *db)
    };
    match found.map(|mut rows| rows.pop()) {
        Ok(Some(row)) => Ok(render(&row.name)),
        Ok(None) => Err(StatusCode::NOT_FOUND),
        Err(_) => Err(StatusCode::INTERNAL_SERVER_ERROR),
    }
}

async fn create(State(app): State<App>) -> StatusCode {
    let mut db = app.db.lock().unwrap_or_else(|e| e.into_inner());
    match diesel::sql_query("INSERT INTO users (name) VALUES (?)").bind::<Text, _>("new").execute(&mut *db) {
        Ok(_) => StatusCode::CREATED,
        Err(_) => StatusCode::INTERNAL_SERVER_ERROR,
    }
}

async fn crash() -> StatusCode {
    StatusCode::INTERNAL_SERVER_ERROR
}

/// Fetches `/users/{id}` from this same server: an outgoing call inside a request.
async fn proxy(State(app): State<App>, Path(id): Path<i32>) -> Result<String, StatusCode> {
    let base = app.base.lock().unwrap_or_else(|e| e.into_inner()).clone();
    let response = app.client.get(format!("{base}/users/{id}")).send().await.map_err(|_| StatusCode::BAD_GATEWAY)?;
    response.text().await.map_err(|_| StatusCode::BAD_GATEWAY)
}

/// Serves `/pages/...`, refuses anything else.
async fn fallback(uri: Uri) -> (StatusCode, &'static str) {
    if uri.path().starts_with("/pages/") {
        (StatusCode::OK, "page")
    } else {
        (StatusCode::NOT_FOUND, "no such route")
    }
}

/// The router, layered with `hotpath::axum!`.
pub fn router(db: SqliteConnection) -> (Router, App) {
    let app = App {
        db: Arc::new(Mutex::new(db)),
        client: hotpath::http!(reqwest::Client::new()),
        base: Arc::new(Mutex::new(String::new())),
    };
    let router = Router::new()
        .route("/users/{id}", get(user))
        .route("/users", post(create))
        .route("/crash", get(crash))
        .route("/proxy/{id}", get(proxy))
        .fallback(fallback)
        .with_state(app.clone());
    (hotpath::axum!(router), app)
}

/// Serves `router` on a free loopback port; returns its address.
pub async fn serve(router: Router) -> SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind a loopback port");
    let address = listener.local_addr().expect("local address");
    tokio::spawn(async move { axum::serve(listener, router).await });
    address
}
