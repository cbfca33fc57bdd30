//! CPU sampling with real timers and a real workload: samples follow CPU time
//! (3:1 burns get about 3:1 samples, a sleeping function gets almost none), a
//! thread started later is sampled, and the folded stacks, flamegraph SVG and pprof
//! files are written and parse (pprof decoded here by an independent reader).
#![cfg(all(feature = "hotpath-cpu", target_os = "linux"))]

mod common;

use std::io::Read;

use common::{command, json_report, run, stderr};

// Each test reads part of the fields.
#[allow(dead_code)]
#[path = "common/pprof.rs"]
mod pprof;

/// The two tests burn CPU; run side by side on two cores they contend for it, which
/// makes the kernel deliver timer signals late (see `late_samples`).
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

#[test]
fn samples_follow_cpu_time_and_files_parse() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let dir = std::env::temp_dir().join(format!("hotpath-cpu-test-{}", std::process::id()));
    let out = run(command("case_cpu_burn")
        .env("HOTPATH_OUTPUT_FORMAT", "json")
        .env("HOTPATH_CPU_HZ", "1000")
        .env("HOTPATH_CPU_OUTPUT", &dir));
    assert!(out.status.success(), "{}", stderr(&out));
    let report = json_report(&out);
    let cpu = &report["functions_cpu"];
    let samples = |name: &str| {
        cpu["rows"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["name"] == format!("case_cpu_burn::{name}"))
            .map_or(0, |r| r["self_samples"].as_u64().unwrap())
    };
    let (heavy, light) = (samples("heavy"), samples("light"));
    // CPU timers are checked at scheduler ticks while the thread runs; on a contended
    // CPU (a loaded CI host) the kernel finds their expiries late and a signal carries
    // tens or hundreds of milliseconds of samples, charged to whatever runs then: 3:1
    // burns measured 0.65 to 5.3 with a third of the samples late. The report counts
    // such samples; the shares are only checked when few arrived late (idle: 0-3%).
    let late = cpu["late_samples"].as_u64().unwrap();
    assert!(late <= cpu["samples"].as_u64().unwrap());
    if late * 20 <= cpu["samples"].as_u64().unwrap() {
        // 600 ms and 200 ms of CPU at 1 kHz: generous bounds around 3:1.
        assert!(heavy >= 300 && light >= 100, "{cpu:#}");
        let ratio = heavy as f64 / light as f64;
        assert!((2.0..=4.5).contains(&ratio), "heavy {heavy} / light {light} = {ratio:.2}");
        // A sleeping function uses no CPU, but one signal may land in it: a timer expiry is
        // found at a kernel tick and delivered when the thread next leaves the kernel, which
        // can be the `nanosleep` that starts the sleep, and the signal carries every period
        // the tick found (1 + overrun: 4 at 1 kHz with HZ=250, 10 with HZ=100). Two such
        // signals at most; a sleeper charged its wall time would have about 400.
        assert!(samples("sleeper") <= 20, "a sleeping function uses no CPU: {cpu:#}");
        assert!(samples("late_thread_work") >= 50, "a thread started later is sampled: {cpu:#}");
    } else {
        eprintln!("contended CPU: {late} samples delivered late, shares not checked: {cpu:#}");
    }
    assert_eq!(cpu["native_stacks"], true);

    // Folded stacks: `frames count` lines whose counts add up to the sampled stacks.
    let folded = std::fs::read_to_string(dir.join("hotpath-cpu.folded")).unwrap();
    let total: u64 = folded.lines().map(|l| l.rsplit_once(' ').unwrap().1.parse::<u64>().unwrap()).sum();
    let stacked = cpu["samples"].as_u64().unwrap() - cpu["samples_without_stack"].as_u64().unwrap();
    assert_eq!(total, stacked);
    assert!(folded.lines().any(|l| l.contains("case_cpu_burn::main;case_cpu_burn::heavy;")), "{folded}");

    let svg = std::fs::read_to_string(dir.join("hotpath-cpu.svg")).unwrap();
    assert!(svg.contains("<svg") && svg.trim_end().ends_with("</svg>"));
    assert!(svg.contains("case_cpu_burn::heavy"));

    let mut raw = Vec::new();
    flate2::read::GzDecoder::new(std::fs::File::open(dir.join("hotpath-cpu.pb.gz")).unwrap())
        .read_to_end(&mut raw)
        .unwrap();
    let profile: pprof::Profile = prost::Message::decode(raw.as_slice()).expect("valid pprof protobuf");
    let string = |i: i64| profile.string_table[i as usize].as_str();
    assert_eq!(profile.string_table[0], "");
    let types: Vec<(&str, &str)> = profile.sample_type.iter().map(|t| (string(t.r#type), string(t.unit))).collect();
    assert_eq!(types, [("samples", "count"), ("cpu", "nanoseconds")]);
    assert_eq!(profile.period, 1_000_000);
    let pprof_total: i64 = profile.sample.iter().map(|s| s.value[0]).sum();
    assert_eq!(pprof_total as u64, stacked);
    for sample in &profile.sample {
        assert_eq!(sample.value[1], sample.value[0] * profile.period);
        for id in &sample.location_id {
            let location = profile.location.iter().find(|l| l.id == *id).expect("location exists");
            let function = location.line[0].function_id;
            assert!(profile.function.iter().any(|f| f.id == function));
        }
    }
    assert!(profile.function.iter().any(|f| string(f.name) == "case_cpu_burn::heavy"));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The table names the profile files once, after every section (they split the report
/// between two sections before).
#[test]
fn profile_files_are_named_after_the_report() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let dir = std::env::temp_dir().join(format!("hotpath-cpu-table-{}", std::process::id()));
    let out = run(command("case_cpu_burn").env("HOTPATH_OUTPUT_FORMAT", "table").env("HOTPATH_CPU_OUTPUT", &dir));
    assert!(out.status.success(), "{}", stderr(&out));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    let first = lines.iter().position(|l| l.contains("cpu profile written")).expect("files named");
    let tail: Vec<&str> = lines[first..].iter().copied().filter(|l| !l.trim().is_empty()).collect();
    assert!(tail.iter().all(|l| l.starts_with("[hotpath] cpu profile written: ")), "{stdout}");
    assert!(lines[..first].iter().any(|l| l.starts_with("functions-cpu")), "{stdout}");
    for name in ["hotpath-cpu.folded", "hotpath-cpu.svg", "hotpath-cpu.pb.gz"] {
        assert_eq!(tail.iter().filter(|l| l.ends_with(name)).count(), 1, "{name} once: {stdout}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
