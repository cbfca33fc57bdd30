//! `dbg!`, `val!` and `gauge!` inside one session shared by this test binary: values
//! come back unchanged, counts and last values per call site or key, the last N log
//! records, long values cut and marked, gauge arithmetic. Each test uses its own
//! call sites and keys. Without the feature the same calls compile and return their
//! values (a type without `Debug` included).

mod common;

#[derive(Clone, Debug, PartialEq)]
struct Job {
    id: u32,
    name: String,
}

#[test]
fn values_come_back_unchanged() {
    #[cfg(feature = "hotpath")]
    common::session();
    let job = Job { id: 7, name: "resize".into() };
    let moved = hotpath::dbg!(job);
    assert_eq!(moved, Job { id: 7, name: "resize".into() });
    let borrowed: &Job = hotpath::dbg!(&moved);
    assert_eq!(borrowed.id, 7);
    let (a, b, c) = hotpath::dbg!(1u8, "two", vec![3],);
    assert_eq!((a, b, c), (1, "two", vec![3]));
    let single: u8 = hotpath::dbg!(5u8,);
    assert_eq!(single, 5);
    let unit: () = hotpath::dbg!();
    assert_eq!(unit, ());
    hotpath::val!("unchanged").set(&moved);
    let gauge = hotpath::gauge!("unchanged");
    let chained: &hotpath::GaugeHandle = gauge.set(1).inc(2_u8).dec(0.5_f32);
    let _ = chained;
}

#[cfg(feature = "hotpath")]
mod on {
    use super::common;
    use hotpath::__private::model::{DebugRow, DebugTrackers, TrackerKind};
    use hotpath::__private::snapshot;
    use hotpath::debug::logs as debug_logs;

    fn section() -> DebugTrackers {
        snapshot().expect("session started").debug.expect("a debug section")
    }

    fn row(kind: TrackerKind, name: &str) -> DebugRow {
        let rows = section().rows;
        rows.iter().find(|r| r.kind() == kind && r.name() == name).cloned().unwrap_or_else(|| {
            let names: Vec<_> = rows.iter().map(|r| (r.kind(), r.name().to_string())).collect();
            panic!("no {kind:?} row {name}: {names:?}")
        })
    }

    #[test]
    fn one_row_per_dbg_call_site_with_the_last_values_logged() {
        common::session();
        for step in 0..60u32 {
            hotpath::dbg!(step);
        }
        let DebugRow::Dbg(r) = row(TrackerKind::Dbg, "step") else { unreachable!() };
        assert_eq!((r.count, r.value.as_str(), r.cut), (60, "59", false));
        assert!(r.file.ends_with("debug_macros.rs") && r.line > 0 && r.column > 0, "{r:?}");
        assert!(r.thread.contains("one_row_per_dbg_call_site"), "the test thread's name: {}", r.thread);
        let logs = debug_logs(TrackerKind::Dbg, r.id).expect("logs");
        assert_eq!((logs.total, logs.logs.len(), logs.name.as_str()), (60, 50, "step"));
        let newest = &logs.logs[0];
        assert_eq!((newest.seq, newest.value.as_deref()), (60, Some("59")));
        assert_eq!((logs.logs[49].seq, logs.logs[49].value.as_deref()), (11, Some("10")));
        assert!(logs.logs.windows(2).all(|w| w[0].at_ns >= w[1].at_ns), "newest first");
        assert!(newest.at_ns > 0 && newest.file.is_none(), "a dbg! record's site is its row's");
    }

    #[test]
    fn long_values_are_cut_at_the_limit_and_marked() {
        common::session();
        let long = "ж".repeat(5000);
        assert_eq!(hotpath::dbg!(long.as_str()).len(), long.len());
        let DebugRow::Dbg(r) = row(TrackerKind::Dbg, "long.as_str()") else { unreachable!() };
        assert!(r.cut, "{r:?}");
        assert_eq!(r.value.chars().count(), 1536, "HOTPATH_MAX_LOG_LEN's default");
        assert!(r.value.starts_with("\"жжж") && r.value.ends_with("ж..."));
        let logs = debug_logs(TrackerKind::Dbg, r.id).unwrap();
        assert!(logs.logs[0].cut);
    }

    #[test]
    fn val_groups_values_by_key_whatever_the_key_type_and_call_site() {
        common::session();
        let key = String::from("val-mode");
        hotpath::val!("val-mode").set(&"starting");
        hotpath::val!(key).set(&"running");
        hotpath::val!(&key).set(&1u8);
        hotpath::val!(std::sync::Arc::<str>::from("val-mode")).set(&Some(2));
        hotpath::val!(format!("val-{}", "mode")).set(&[3, 4]);
        let DebugRow::Val(r) = row(TrackerKind::Val, "val-mode") else { unreachable!() };
        assert_eq!((r.count, r.value.as_str()), (5, "[3, 4]"));
        let logs = debug_logs(TrackerKind::Val, r.id).unwrap();
        let values: Vec<_> = logs.logs.iter().map(|l| l.value.clone().unwrap()).collect();
        assert_eq!(values, ["[3, 4]", "Some(2)", "1", "\"running\"", "\"starting\""]);
        let lines: Vec<u32> = logs.logs.iter().map(|l| l.line.unwrap()).collect();
        assert!(lines.windows(2).all(|w| w[0] > w[1]), "each record names its own call site: {lines:?}");
        assert!(logs.logs.iter().all(|l| l.file.as_deref().is_some_and(|f| f.ends_with("debug_macros.rs"))));
    }

    #[test]
    fn gauges_add_up_from_zero_and_keep_min_max_and_history() {
        common::session();
        hotpath::gauge!("gauge-depth").set(10).inc(5_u64).dec(3.5_f32);
        hotpath::gauge!("gauge-fresh").inc(2_i8);
        hotpath::gauge!(String::from("gauge-fresh")).dec(5_usize);
        let DebugRow::Gauge(depth) = row(TrackerKind::Gauge, "gauge-depth") else { unreachable!() };
        assert_eq!((depth.current, depth.min, depth.max, depth.updates), (11.5, 10.0, 15.0, 3));
        assert_eq!(depth.history, [10.0, 15.0, 11.5]);
        let DebugRow::Gauge(fresh) = row(TrackerKind::Gauge, "gauge-fresh") else { unreachable!() };
        assert_eq!((fresh.current, fresh.min, fresh.max), (-3.0, -3.0, 2.0));
        let logs = debug_logs(TrackerKind::Gauge, depth.id).unwrap();
        let ops: Vec<_> =
            logs.logs.iter().map(|l| (l.op.clone().unwrap(), l.operand.unwrap(), l.current.unwrap())).collect();
        assert_eq!(ops, [("dec".into(), 3.5, 11.5), ("inc".into(), 5.0, 15.0), ("set".into(), 10.0, 10.0)]);
    }

    #[test]
    fn updates_from_many_threads_are_counted_exactly() {
        common::session();
        std::thread::scope(|s| {
            for _ in 0..4 {
                s.spawn(|| {
                    for i in 0..2_000u32 {
                        hotpath::gauge!("exact-gauge").inc(1);
                        hotpath::val!("exact-val").set(&i);
                        hotpath::dbg!(i + 1);
                    }
                });
            }
        });
        let DebugRow::Gauge(g) = row(TrackerKind::Gauge, "exact-gauge") else { unreachable!() };
        assert_eq!((g.current, g.updates, g.max), (8_000.0, 8_000, 8_000.0));
        assert_eq!(row(TrackerKind::Val, "exact-val").count(), 8_000);
        assert_eq!(row(TrackerKind::Dbg, "i + 1").count(), 8_000);
    }
}

/// With the feature off a type without `Debug` goes through every macro.
#[cfg(not(feature = "hotpath"))]
#[test]
fn off_needs_no_debug() {
    struct Opaque(u32);
    let back = hotpath::dbg!(Opaque(3));
    assert_eq!(back.0, 3);
    hotpath::val!("opaque").set(&back);
    hotpath::val!(format!("never-{}", back.0)).set(&Opaque(4));
    hotpath::gauge!("off").set(1).inc(2).dec(3);
}
