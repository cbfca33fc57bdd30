//! `iter = true` values past the per-instrument cap (1,000) count in their site's
//! `<other>` row, the report header says so once, and instruments never take function
//! sites' ids: a function measured after 20,000 per-instance channels and `io!` values
//! has its row. (Alone in its binary: the caps are per process.)
#![cfg(feature = "hotpath")]

use std::io::Write;

mod common;

const VALUES: u64 = 20_000;
const CAP: u64 = 1_000;

#[hotpath::measure]
fn measured_after_instances() -> u64 {
    std::hint::black_box(7)
}

#[test]
fn instances_past_the_cap_fold_into_other_and_functions_keep_their_rows() {
    common::session();
    for i in 0..VALUES {
        let (tx, rx) = hotpath::channel!(std::sync::mpsc::channel::<u64>(), label = "per-request", iter = true);
        tx.send(i).unwrap();
        rx.recv().unwrap();
        let mut out = hotpath::io!(Vec::new(), label = "per-connection", iter = true);
        out.write_all(&[0u8; 3]).unwrap();
    }
    measured_after_instances();
    let report = common::report();

    let functions = report.functions_timing.expect("functions section").rows;
    let function = functions.iter().find(|r| r.name.ends_with("measured_after_instances"));
    assert_eq!(function.map(|r| r.calls), Some(1), "{functions:#?}");

    let channels: Vec<_> = report
        .channels
        .expect("channels section")
        .rows
        .into_iter()
        .filter(|r| r.file.ends_with("instance_cap.rs"))
        .collect();
    assert_eq!(channels.len() as u64, CAP + 1);
    let other = channels.iter().find(|r| r.name == "<other>").expect("an <other> channel row");
    let rest = VALUES - CAP;
    assert_eq!((other.instances, other.closed_instances, other.sent, other.received), (rest, rest, rest, rest));
    assert_eq!(other.latency.count, rest);
    assert_eq!(channels.iter().map(|r| r.sent).sum::<u64>(), VALUES);
    assert!(channels.iter().any(|r| r.name == format!("per-request-{CAP}")));

    let io: Vec<_> = report
        .io
        .expect("io section")
        .rows
        .into_iter()
        .filter(|r| r.label.as_deref() == Some("per-connection"))
        .collect();
    assert_eq!(io.len() as u64, CAP + 1);
    let other = io.iter().find(|r| r.name == "<other>").expect("an <other> io row");
    assert_eq!((other.instances, other.write.ops, other.write.bytes), (rest, rest, 3 * rest));
    assert_eq!(io.iter().map(|r| r.write.bytes).sum::<u64>(), 3 * VALUES);

    let warnings = &report.meta.warnings;
    for instrument in ["channel!", "io!"] {
        let about = warnings.iter().filter(|w| w.contains(instrument) && w.contains("`<other>`")).count();
        assert_eq!(about, 1, "one warning about {instrument}: {warnings:#?}");
    }
}
