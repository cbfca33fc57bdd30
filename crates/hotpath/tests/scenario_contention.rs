//! The lock_contention example: contended acquisitions, waits and hold times of the
//! mutex, and reads and writes of the RwLock counted apart.
#![cfg(feature = "hotpath")]

mod common;

use common::{command, json_report, run, stdout};

#[test]
fn contended_mutex_and_rwlock() {
    let out = run(command("lock_contention").env("HOTPATH_OUTPUT_FORMAT", "json"));
    assert!(out.status.success(), "{}", common::stderr(&out));
    assert_eq!(stdout(&out).lines().next(), Some("ledger has 40 entries"));
    let report = json_report(&out);
    let ledger = report["mutexes"]["rows"].as_array().unwrap().iter().find(|r| r["name"] == "ledger").unwrap();
    let lock = &ledger["lock"];
    assert_eq!(lock["acquisitions"], 41, "4 workers x 10 updates, and the final count");
    let contended = lock["contended"].as_u64().unwrap();
    assert!((1..=40).contains(&contended), "{lock:#}");
    assert_eq!(lock["wait"]["count"], 41);
    assert!(lock["wait"]["max_ns"].as_u64().unwrap() >= 1_000_000, "a waiter waited for a 2 ms hold: {lock:#}");
    // Every update held the lock across a 2 ms sleep.
    assert!(lock["hold"]["percentiles_ns"]["p50"].as_u64().unwrap() >= 2_000_000, "{lock:#}");
    assert_eq!(ledger["data_type"], "Vec<u64>");

    let config = report["rw_locks"]["rows"].as_array().unwrap().iter().find(|r| r["name"] == "config").unwrap();
    assert_eq!(config["reads"]["acquisitions"], 40);
    assert_eq!(config["writes"]["acquisitions"], 2);
    assert!(config["writes"]["hold"]["max_ns"].as_u64().unwrap() >= 1_000_000);
    assert_eq!(config["data_type"], "Config");
}

#[test]
fn table_has_reads_and_writes() {
    let text = stdout(&run(&mut command("lock_contention")));
    assert!(text.contains("\nmutexes - "), "{text}");
    let rw = &text[text.find("rw-locks - ").unwrap_or_else(|| panic!("{text}"))..];
    let reads = rw.find("\nReads\n").unwrap();
    let writes = rw.find("\nWrites\n").unwrap();
    assert!(reads < writes);
    let columns = common::table_columns_named(&text, "| Mutex");
    assert_eq!(&columns[..5], ["Mutex", "Kind", "Inst", "Acquired", "Contended"]);
    assert!(columns.contains(&"Wait P95".to_string()) && columns.contains(&"Hold Avg".to_string()));
}
