//! The `#[hotpath::main]` row's self time is the time on main's own thread outside
//! its outermost measured calls: work on other threads runs beside `main`, not inside
//! it, and is not subtracted (it used to be: wall time minus every row's self time).
#![cfg(feature = "hotpath")]

mod common;

#[test]
fn main_self_time_leaves_other_threads_work_alone() {
    let out = common::run(common::command("case_main_self").env("HOTPATH_OUTPUT_FORMAT", "json"));
    assert!(out.status.success(), "{}", common::stderr(&out));
    let report = common::json_report(&out);
    let ns = |row: &serde_json::Value, key: &str| row[key].as_u64().unwrap_or_else(|| panic!("{key}: {row:#}"));
    let main = common::row(&report, "case_main_self::main");
    let on_main = common::row(&report, "case_main_self::on_main");
    let on_worker = common::row(&report, "case_main_self::on_worker");
    assert_eq!((ns(on_main, "calls"), ns(on_worker, "calls")), (2, 1));
    // An identity up to tick→ns rounding (and the clock ratio's refinement between
    // the two conversions): self = wall - main's own measured calls.
    let expected = ns(main, "total_ns") - ns(on_main, "total_ns");
    let slack = ns(main, "total_ns") / 1000 + 1_000;
    assert!(ns(main, "self_ns").abs_diff(expected) <= slack, "self {} vs {expected}: {report:#}", ns(main, "self_ns"));
    // The worker's time would have been subtracted by the old rule: it is far beyond the slack.
    assert!(ns(on_worker, "self_ns") > 10 * slack, "{report:#}");
}
