//! `log = true` values of functions, futures, channels and streams (`case_row_logs`):
//! summarised in the JSON report's `debug.logged`, printed in the table, and served
//! live at `/{section}/{name}/logs` over real HTTP.

mod common;

#[cfg(not(feature = "hotpath"))]
#[test]
fn off_the_program_runs_and_reports_nothing() {
    let out = common::run(&mut common::command("case_row_logs"));
    assert!(out.status.success());
    assert_eq!((common::stdout(&out).as_str(), common::stderr(&out).as_str()), ("values ok\n", ""));
}

#[cfg(feature = "hotpath")]
mod report {
    use super::common::{command, json_report, run, stdout};

    #[test]
    fn every_kind_is_summarised_in_the_json_report_and_the_table() {
        let out = run(command("case_row_logs").env("HOTPATH_OUTPUT_FORMAT", "json"));
        assert!(out.status.success(), "{}", stdout(&out));
        let report = json_report(&out);
        let logged = report["debug"]["logged"].as_array().cloned().unwrap_or_else(|| panic!("{report:#}"));
        let found: Vec<(String, String, u64, u64, String)> = logged
            .iter()
            .map(|r| {
                let text = |k: &str| r[k].as_str().unwrap_or_default().to_string();
                (
                    text("section"),
                    text("name"),
                    r["total"].as_u64().unwrap(),
                    r["kept"].as_u64().unwrap(),
                    text("value"),
                )
            })
            .collect();
        let row = |section: &str, name: &str, value: &str| (section.into(), name.into(), 60, 50, value.into());
        assert_eq!(
            found,
            [
                row("channels", "jobs", "(59, \"job\")"),
                row("functions_timing", "case_row_logs::parse", "Err(\"odd 59\")"),
                row("futures", "case_row_logs::fetch", "590"),
                row("futures", "ready", "60"),
                row("streams", "counter", "59"),
            ]
        );

        let table = run(command("case_row_logs").env("HOTPATH_OUTPUT_FORMAT", "table"));
        let text = stdout(&table);
        assert!(text.contains("\nlog = true\n"), "{text}");
        assert!(text.contains("| functions_timing | case_row_logs::parse | 60     | Err(\"odd 59\")"), "{text}");
    }

    #[test]
    fn the_log_limits_of_the_environment_apply_to_every_kind() {
        let mut cmd = command("case_row_logs");
        cmd.envs([("HOTPATH_OUTPUT_FORMAT", "json"), ("HOTPATH_LOGS_LIMIT", "7"), ("HOTPATH_MAX_LOG_LEN", "10")]);
        let report = json_report(&run(&mut cmd));
        let logged = report["debug"]["logged"].as_array().cloned().unwrap_or_else(|| panic!("{report:#}"));
        assert_eq!(logged.len(), 5, "{logged:#?}");
        for row in &logged {
            assert_eq!((row["total"].as_u64(), row["kept"].as_u64()), (Some(60), Some(7)), "{row}");
            assert!(row["value"].as_str().unwrap().chars().count() <= 10, "{row}");
        }
        let jobs = logged.iter().find(|r| r["name"] == "jobs").unwrap();
        assert_eq!((jobs["value"].as_str(), jobs["cut"].as_bool()), (Some("(59, \"j..."), Some(true)), "{jobs}");
    }
}

#[cfg(all(feature = "hotpath", feature = "live", target_os = "linux"))]
mod live {
    use std::time::{Duration, Instant};

    use serde_json::Value;

    use super::common::{command, live::Live};

    fn start() -> Live {
        let mut cmd = command("case_row_logs");
        cmd.env_remove("HOTPATH_METRICS_SERVER_OFF")
            .env("HOTPATH_METRICS_PORT", "0")
            .env("HOTPATH_OUTPUT_FORMAT", "none")
            .args(["live", "60"]);
        Live::start(cmd)
    }

    /// The logs at `path`, waiting until they exist (the program logs right after start).
    fn logs(live: &Live, path: &str) -> Value {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let reply = live.get(path, "");
            if reply.status == 200 {
                return reply.json();
            }
            assert!(Instant::now() < deadline, "GET {path}: {} {}", reply.status, reply.body);
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    fn values(logs: &Value) -> Vec<String> {
        logs["logs"].as_array().unwrap().iter().map(|l| l["value"].as_str().unwrap_or("").to_string()).collect()
    }

    #[test]
    fn each_kind_serves_its_rows_logs() {
        let live = start();
        let index = live.json("/");
        let pattern = "/{functions_timing|futures|channels|streams|sql|http|server}/{name}/logs";
        assert!(index["endpoints"].as_array().unwrap().iter().any(|e| e == pattern), "{index}");

        let parse = logs(&live, "/functions_timing/case_row_logs%3A%3Aparse/logs");
        assert_eq!(
            (parse["section"].as_str(), parse["name"].as_str()),
            (Some("functions_timing"), Some("case_row_logs::parse"))
        );
        assert!(parse["total"].as_u64().unwrap() >= 60, "{parse}");
        let first = &parse["logs"][0];
        assert!(first["at_ns"].as_u64().unwrap() > 0 && first["thread"] == "main", "{first}");
        let newest: Vec<String> = values(&live.json("/functions_timing/case_row_logs::parse/logs?limit=3"));
        assert_eq!(newest.len(), 3, "unencoded :: works too");
        assert!(values(&live.json("/functions_timing/case_row_logs::parse/logs?focus=odd"))
            .iter()
            .all(|v| v.contains("odd")));

        let fetch = logs(&live, "/futures/case_row_logs::fetch/logs");
        assert_eq!(fetch["total"], 60);
        assert_eq!(values(&fetch)[..2], ["590", "580"]);
        assert_eq!(values(&logs(&live, "/futures/ready/logs"))[0], "60");
        let jobs = logs(&live, "/channels/jobs/logs");
        assert!(values(&jobs).iter().any(|v| v == "(59, \"job\")"), "{jobs}");
        let counter = logs(&live, "/streams/counter/logs");
        assert_eq!((counter["total"].as_u64(), counter["logs"].as_array().unwrap().len()), (Some(60), 50));

        let missing = live.get("/functions_timing/nobody/logs", "");
        assert_eq!(missing.status, 404, "{}", missing.body);
        assert!(missing.body.contains("log = true"), "{}", missing.body);
        assert_eq!(live.get("/threads/main/logs", "").status, 404, "only sections that log");
    }
}
