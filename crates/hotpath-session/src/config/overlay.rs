//! The `HOTPATH_*` environment overlay: one table of variables, each saying how its
//! value applies and what stays in use when the value is rejected. Values are read
//! raw (`var_os`), so one that is not UTF-8 is a warning like any bad value, never a
//! variable silently treated as unset.

use std::ffi::OsString;

use hotpath_engine::sampling::Sampled;
use hotpath_model::Section;

use super::otlp_vars::OTLP_VARIABLES;
use super::report_vars::REPORT_VARIABLES;
use super::seed_vars::{SEED_VARIABLES, UNUSED};
use super::server_vars::SERVER_VARIABLES;
use super::timeline_vars::TIMELINE_VARIABLES;
use super::vars::{flag, number, parse_percentiles, path, text, Value, Variable};
use super::{limit_group, limit_groups, Config};

/// Every variable, in the order their warnings are printed.
const VARIABLES: &[Variable] = &[
    Variable {
        name: "HOTPATH_OUTPUT_FORMAT",
        apply: |c, v| {
            c.format = text(v)?.parse().map_err(|_| "is not one of table, json, json-pretty, none".to_string())?;
            Ok(())
        },
        kept: |c| c.format.name().into(),
        secret: false,
    },
    Variable {
        name: "HOTPATH_OUTPUT_PATH",
        apply: |c, v| {
            c.output_path = Some(path(v)?);
            Ok(())
        },
        kept: |c| c.output_path.as_ref().map_or("standard output".into(), |p| p.display().to_string()),
        secret: false,
    },
    Variable {
        name: "HOTPATH_LIMIT",
        apply: |c, v| {
            c.limits.set_all(number(v, 0..=usize::MAX, "is not a row count (0 shows all)")?);
            Ok(())
        },
        kept: |c| c.limits.of(Section::FunctionsTiming).to_string(),
        secret: false,
    },
    Variable {
        name: "HOTPATH_PERCENTILES",
        apply: |c, v| {
            let list = parse_percentiles(text(v)?);
            c.options.percentiles = list.ok_or("is not a comma-separated list of numbers in 0..=100")?;
            Ok(())
        },
        kept: |c| format!("{:?}", c.options.percentiles),
        secret: false,
    },
    Variable {
        name: "HOTPATH_FOCUS",
        apply: |c, v| {
            c.options.focus = Some(text(v)?.parse()?);
            Ok(())
        },
        kept: |c| c.options.focus.as_ref().map_or("no focus filter".into(), |f| f.as_string()),
        secret: false,
    },
    Variable {
        name: "HOTPATH_CLOCK",
        apply: |c, v| {
            c.options.allow_tsc = match text(v)? {
                "tsc" => true,
                "monotonic" => false,
                _ => return Err("is not tsc or monotonic".into()),
            };
            Ok(())
        },
        kept: |c| if c.options.allow_tsc { "tsc where invariant" } else { "monotonic" }.into(),
        secret: false,
    },
    Variable {
        name: "HOTPATH_ALLOC_MODE",
        apply: |c, v| {
            c.options.alloc_inclusive = match text(v)? {
                "exclusive" => false,
                "inclusive" => true,
                _ => return Err("is not exclusive or inclusive".into()),
            };
            Ok(())
        },
        kept: |c| if c.options.alloc_inclusive { "inclusive" } else { "exclusive" }.into(),
        secret: false,
    },
    Variable {
        name: "HOTPATH_THREADS_INTERVAL_MS",
        apply: |c, v| {
            c.options.threads_interval_ms = number(v, 1..=60_000, "is not a number of milliseconds in 1..=60000")?;
            Ok(())
        },
        kept: |c| c.options.threads_interval_ms.to_string(),
        secret: false,
    },
    Variable {
        name: "HOTPATH_CPU_HZ",
        apply: |c, v| {
            c.options.cpu_hz = number(v, 1..=10_000, "is not a rate in 1..=10000")?;
            Ok(())
        },
        kept: |c| c.options.cpu_hz.to_string(),
        secret: false,
    },
    Variable {
        name: "HOTPATH_CPU_OUTPUT",
        apply: |c, v| {
            c.options.cpu_output = Some(path(v)?);
            Ok(())
        },
        kept: |c| c.options.cpu_output.as_ref().map_or("no profile files".into(), |p| p.display().to_string()),
        secret: false,
    },
    Variable {
        name: "HOTPATH_HEAP_SAMPLE_BYTES",
        apply: |c, v| {
            c.options.heap_sample_bytes = number(v, 1..=(1 << 40), "is not a number of bytes in 1..=2^40")?;
            Ok(())
        },
        kept: |c| c.options.heap_sample_bytes.to_string(),
        secret: false,
    },
    Variable {
        name: "HOTPATH_HEAP_SNAPSHOT_MS",
        apply: |c, v| {
            c.options.heap_snapshot_ms = number(v, 10..=3_600_000, "is not a number of milliseconds in 10..=3600000")?;
            Ok(())
        },
        kept: |c| c.options.heap_snapshot_ms.to_string(),
        secret: false,
    },
    Variable {
        name: "HOTPATH_HEAP_IGNORE",
        apply: |c, v| {
            let prefixes: Vec<String> =
                text(v)?.split(',').map(str::trim).filter(|p| !p.is_empty()).map(String::from).collect();
            if prefixes.is_empty() {
                return Err("names no function or crate prefix".into());
            }
            c.options.heap_ignore = prefixes;
            Ok(())
        },
        kept: |c| {
            if c.options.heap_ignore.is_empty() {
                "nothing ignored".into()
            } else {
                c.options.heap_ignore.join(",")
            }
        },
        secret: false,
    },
    Variable {
        name: "HOTPATH_HEAP_OUTPUT",
        apply: |c, v| {
            c.options.heap_output = Some(path(v)?);
            Ok(())
        },
        kept: |c| c.options.heap_output.as_ref().map_or("no profile files".into(), |p| p.display().to_string()),
        secret: false,
    },
    Variable {
        name: "HOTPATH_CALLGRIND_OUT_FILE",
        apply: |c, v| {
            match text(v)?.trim() {
                "" => return Err("is empty".into()),
                t => c.options.callgrind_out_file = Some(t.to_string()),
            }
            Ok(())
        },
        kept: |c| c.options.callgrind_out_file.clone().unwrap_or_else(|| "callgrind.out.%p".into()),
        secret: false,
    },
    Variable {
        name: "HOTPATH_MERGE_REPORT",
        apply: |c, v| {
            c.options.merge_report = Some(path(v)?);
            Ok(())
        },
        kept: |c| c.options.merge_report.as_ref().map_or("no merge".into(), |p| p.display().to_string()),
        secret: false,
    },
    Variable {
        name: "HOTPATH_TOKIO_RUNTIME_INTERVAL_MS",
        apply: |c, v| {
            let problem = "is not a number of milliseconds in 1..=60000";
            c.options.tokio_runtime_interval_ms = number(v, 1..=60_000, problem)?;
            Ok(())
        },
        kept: |c| c.options.tokio_runtime_interval_ms.to_string(),
        secret: false,
    },
    Variable {
        name: "HOTPATH_TIME_SAMPLING_RATE",
        apply: |c, v| {
            c.env_sampling.0 = Some(number(v, 0.0..=1.0, RATE_PROBLEM)?);
            Ok(())
        },
        kept: |c| c.env_sampling.0.map_or("1".into(), |r| r.to_string()),
        secret: false,
    },
    Variable {
        name: "HOTPATH_OVERHEAD_BUDGET",
        apply: |c, v| {
            let t = text(v)?;
            let problem = hotpath_sections::BUDGET_PROBLEM;
            c.options.overhead_budget = Some(hotpath_sections::budget_fraction(t).ok_or(problem)?);
            Ok(())
        },
        kept: |c| {
            c.options.overhead_budget.map_or("no budget (every call timed)".into(), |b| format!("{}%", b * 100.0))
        },
        secret: false,
    },
    Variable {
        name: "HOTPATH_OVERHEAD_BUDGET_SHADOW",
        apply: |c, v| {
            c.options.budget_shadow = flag(v)?;
            Ok(())
        },
        kept: |c| if c.options.budget_shadow { "on" } else { "off" }.into(),
        secret: false,
    },
    Variable {
        name: "HOTPATH_SAMPLING_SEED",
        apply: |c, v| {
            c.options.sampling_seed = number(v, 0..=u64::MAX, "is not a whole number in 0..=18446744073709551615")?;
            Ok(())
        },
        kept: |c| c.options.sampling_seed.to_string(),
        secret: false,
    },
    Variable {
        name: "HOTPATH_SQL_RAW_LOGS",
        apply: |c, v| {
            c.options.sql_raw_logs = match text(v)?.trim().to_ascii_lowercase().as_str() {
                "1" | "true" | "yes" | "on" => true,
                "" | "0" | "false" | "no" | "off" => false,
                _ => return Err("is not 1/true/yes/on or 0/false/no/off".into()),
            };
            Ok(())
        },
        kept: |c| if c.options.sql_raw_logs { "on" } else { "off" }.into(),
        secret: false,
    },
];

const RATE_PROBLEM: &str = "is not a number in 0..=1 (0 counts without timing)";

/// Applies every variable `env` holds; returns one warning line per rejected value.
pub(super) fn apply(config: &mut Config, env: impl Fn(&str) -> Option<OsString>) -> Vec<String> {
    let mut warnings = Vec::new();
    let mut one = |name: &str,
                   secret: bool,
                   apply: &dyn Fn(&mut Config, Value<'_>) -> Result<(), String>,
                   kept: &dyn Fn(&Config) -> String| {
        let Some(raw) = env(name) else { return };
        let value = raw.to_str().map_or(Value::Raw(&raw), Value::Text);
        if let Err(problem) = apply(config, value) {
            let shown = if secret { " (value hidden)".to_string() } else { format!("={:?}", raw.to_string_lossy()) };
            warnings.push(format!("{name}{shown} {problem}; using {}", kept(config)));
        }
    };
    let tables = [VARIABLES, SERVER_VARIABLES, OTLP_VARIABLES, REPORT_VARIABLES, TIMELINE_VARIABLES, SEED_VARIABLES];
    for v in tables.iter().flat_map(|t| t.iter()) {
        one(v.name, v.secret, &v.apply, &v.kept);
    }
    for u in UNUSED {
        one(u.name, u.secret, &|_, _| Err(u.problem.into()), &|_| u.kept.into());
    }
    // One `HOTPATH_<GROUP>_LIMIT` per limit group of the section table, beating `HOTPATH_LIMIT`.
    for group in limit_groups() {
        let name = format!("HOTPATH_{}_LIMIT", group.to_ascii_uppercase());
        let apply = |c: &mut Config, v: Value<'_>| {
            c.limits.set(group, number(v, 0..=usize::MAX, "is not a row count (0 shows all)")?);
            Ok(())
        };
        let kept = |c: &Config| {
            let section =
                Section::all().into_iter().find(|s| limit_group(*s) == Some(group)).unwrap_or(Section::FunctionsTiming);
            c.limits.of(section).to_string()
        };
        one(&name, false, &apply, &kept);
    }
    // One `HOTPATH_<INSTRUMENT>_TIME_SAMPLING_RATE` per instrument with a rate.
    for kind in Sampled::ALL {
        let name = format!("HOTPATH_{}_TIME_SAMPLING_RATE", kind.name().to_ascii_uppercase());
        let apply = |c: &mut Config, v: Value<'_>| {
            c.env_sampling.1[kind as usize] = Some(number(v, 0.0..=1.0, RATE_PROBLEM)?);
            Ok(())
        };
        one(&name, false, &apply, &|_| "the configured rate".into());
    }
    warnings
}
