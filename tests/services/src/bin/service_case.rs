//! The test scenario: serves the shared router, sends it an exact set of requests with
//! a reqwest and a ureq client, runs sqlx queries, then ends (the report is written).
//! `service_case DIR [wait]`: databases in DIR; with `wait`, prints `ready` and keeps
//! the session open until standard input closes (live endpoint tests).

use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};

use sqlx::sqlite::{SqliteConnectOptions, SqlitePoolOptions};
use tracing_subscriber::prelude::*;

#[hotpath::main]
fn main() {
    tracing_subscriber::registry().with(hotpath::sqlx_tracing_layer()).init();
    hotpath::instrument_diesel_sql();
    let dir = PathBuf::from(std::env::args().nth(1).expect("usage: service_case DIR [wait]"));
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    runtime.block_on(run(&dir));
    if std::env::args().nth(2).is_some_and(|a| a == "wait") {
        println!("ready");
        std::io::stdout().flush().unwrap();
        for _ in std::io::stdin().lock().lines() {}
    }
}

async fn run(dir: &Path) {
    let (router, app) = hotpath_services_tests::router(hotpath_services_tests::open_diesel(&dir.join("diesel.db")));
    let address = hotpath_services_tests::serve(router).await;
    let base = format!("http://{address}");
    *app.base.lock().unwrap() = base.clone();

    // reqwest, through reqwest-middleware.
    let client: hotpath::wrap::reqwest::Client = hotpath::http!(reqwest::Client::new());
    let get = |path: &str| client.get(format!("{base}{path}")).send();
    for path in ["/users/1", "/users/2", "/users/3", "/users/999", "/crash", "/proxy/2", "/proxy/3", "/nowhere"] {
        get(path).await.expect("a response");
    }
    get("/pages/about?lang=en").await.expect("a response");
    for _ in 0..2 {
        client.post(format!("{base}/users")).send().await.expect("a response");
    }

    // ureq, on a blocking thread; one call to a port nobody listens on.
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let ureq_base = base.clone();
    tokio::task::spawn_blocking(move || {
        let agent: ureq::Agent = hotpath::http!(ureq::Agent::config_builder(), label = "ext").build().new_agent();
        for path in ["/users/1", "/users/2", "/crash"] {
            let _ = agent.get(format!("{ureq_base}{path}")).call();
        }
        assert!(agent.get(format!("http://127.0.0.1:{closed}/")).call().is_err());
        ping(&agent, &format!("http://127.0.0.1:{closed}/"));
    })
    .await
    .unwrap();

    // sqlx on SQLite.
    let options = SqliteConnectOptions::new().filename(dir.join("sqlx.db")).create_if_missing(true);
    let pool = SqlitePoolOptions::new().max_connections(1).connect_with(options).await.expect("open the sqlx database");
    sqlx::query("CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT)").execute(&pool).await.unwrap();
    for i in 0..5 {
        sqlx::query("INSERT INTO items (name) VALUES (?)").bind(format!("item{i}")).execute(&pool).await.unwrap();
    }
    for id in 1..=3 {
        sqlx::query("SELECT name FROM items WHERE id = ?").bind(id).fetch_optional(&pool).await.unwrap();
    }
    for id in [4, 5] {
        sqlx::query(&format!("SELECT name FROM items WHERE id = {id}")).fetch_optional(&pool).await.unwrap();
    }
    sqlx::query("SELECT COUNT(*) FROM items WHERE id IN (1, 2, 3)").fetch_one(&pool).await.unwrap();
    sqlx::query("select count(*) from items where id in (4,5)").fetch_one(&pool).await.unwrap();
    sql_rows(&pool).await;
    audit(&dir.join("audit.db"));
    pool.close().await;
}

/// A call made inside a measured function: its row's Source.
#[hotpath::measure]
fn ping(agent: &ureq::Agent, url: &str) {
    assert!(agent.get(url).call().is_err());
}

/// A diesel query run inside a measured function.
#[hotpath::measure]
fn audit(path: &Path) {
    use diesel::{Connection, RunQueryDsl};
    let mut db = diesel::SqliteConnection::establish(&path.display().to_string()).expect("open the audit database");
    diesel::sql_query("SELECT 1").execute(&mut db).expect("select");
}

/// Row counts by statement kind, literals of every form and comments (none may reach
/// the report), batches of several sizes, and two long statements that differ only at
/// their end.
async fn sql_rows(pool: &sqlx::SqlitePool) {
    let run = |sql: String| async move { sqlx::query(&sql).fetch_all(pool).await.unwrap() };
    // A write of 4 rows, then a read of 5: SQLite's changes() still says 4.
    run("UPDATE items SET name = name || '!' WHERE id <= 4".into()).await;
    assert_eq!(run("SELECT id, name FROM items ORDER BY id".into()).await.len(), 5);
    for who in ["alice", "bob"] {
        run(format!("/* user={who} */ SELECT name FROM items WHERE name = 'it''s {who}secret' -- token {who}tok")).await;
    }
    run("SELECT X'DEADBEEF01', 0xCAFE01, 1e5, -7771".into()).await;
    for batch in [2, 3, 5] {
        let values: Vec<String> = (0..batch).map(|i| format!("({}, 'batch{batch}-{i}')", 100 + 10 * batch + i)).collect();
        run(format!("INSERT INTO items (id, name) VALUES {}", values.join(", "))).await;
    }
    let columns: Vec<String> = (0..200).map(|i| format!("name AS column_{i}")).collect();
    for order in ["id", "name"] {
        run(format!("SELECT {} FROM items ORDER BY {order}", columns.join(", "))).await;
    }
}
