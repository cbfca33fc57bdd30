//! The overlay's variables about the report itself: which sections, its label and
//! metadata, names, tables, logs and the shutdown timer.

use super::vars::{flag, number, parse_metadata, text, Variable};
use super::SectionSpec;

/// Applied after the core variables, in this order.
pub(super) const REPORT_VARIABLES: &[Variable] = &[
    Variable {
        name: "HOTPATH_REPORT",
        apply: |c, v| {
            let (spec, unknown) = SectionSpec::parse(text(v)?);
            if !unknown.is_empty() {
                return Err(format!("names no section: {}", unknown.join(", ")));
            }
            c.sections = spec;
            Ok(())
        },
        kept: |c| format!("{:?}", c.sections),
        secret: false,
    },
    Variable {
        name: "HOTPATH_REPORT_LABEL",
        apply: |c, v| {
            let label = text(v)?.trim();
            c.label = (!label.is_empty()).then(|| label.to_string());
            Ok(())
        },
        kept: |c| c.label.clone().unwrap_or_else(|| "no label".into()),
        secret: false,
    },
    Variable {
        name: "HOTPATH_USER_METADATA",
        apply: |c, v| {
            for (key, value) in parse_metadata(text(v)?)? {
                c.user_metadata.insert(key, value);
            }
            Ok(())
        },
        kept: |c| format!("{:?}", c.user_metadata),
        secret: false,
    },
    Variable {
        name: "HOTPATH_EXCLUDE_WRAPPER",
        apply: |c, v| {
            c.exclude_wrapper = flag(v)?;
            Ok(())
        },
        kept: |c| c.exclude_wrapper.to_string(),
        secret: false,
    },
    Variable {
        name: "HOTPATH_COMPACT_TABLES",
        apply: |c, v| {
            c.compact_tables = flag(v)?;
            Ok(())
        },
        kept: |c| c.compact_tables.to_string(),
        secret: false,
    },
    Variable {
        name: "HOTPATH_FUNCTIONS_NAME_DEPTH",
        apply: |c, v| {
            c.name_depth = number(v, 0..=64, "is not a number of path segments in 0..=64 (0 = full paths)")?;
            Ok(())
        },
        kept: |c| c.name_depth.to_string(),
        secret: false,
    },
    Variable {
        name: "HOTPATH_NAME_WIDTH",
        apply: |c, v| {
            c.name_width = number(v, 0..=100_000, "is not a number of characters in 0..=100000 (0 = whole names)")?;
            Ok(())
        },
        kept: |c| c.name_width.to_string(),
        secret: false,
    },
    Variable {
        name: "HOTPATH_ENTRIES_LIMIT",
        apply: |c, v| {
            c.options.logs.entries = number(v, 1..=1_000_000, "is not a number in 1..=1000000")?;
            Ok(())
        },
        kept: |c| c.options.logs.entries.to_string(),
        secret: false,
    },
    Variable {
        name: "HOTPATH_LOGS_LIMIT",
        apply: |c, v| {
            c.options.logs.per_entry = number(v, 0..=100_000, "is not a number in 0..=100000")?;
            Ok(())
        },
        kept: |c| c.options.logs.per_entry.to_string(),
        secret: false,
    },
    Variable {
        name: "HOTPATH_MAX_LOG_LEN",
        apply: |c, v| {
            c.options.logs.max_len = number(v, 8..=1_048_576, "is not a number in 8..=1048576")?;
            Ok(())
        },
        kept: |c| c.options.logs.max_len.to_string(),
        secret: false,
    },
    Variable {
        name: "HOTPATH_SHOW_INTERNAL_THREADS",
        apply: |c, v| {
            c.options.show_internal_threads = flag(v)?;
            Ok(())
        },
        kept: |c| c.options.show_internal_threads.to_string(),
        secret: false,
    },
    Variable {
        name: "HOTPATH_SHUTDOWN_MS",
        apply: |c, v| {
            c.shutdown_ms = Some(number(v, 0..=u64::MAX, "is not a number of milliseconds")?);
            Ok(())
        },
        kept: |c| c.shutdown_ms.map_or("no shutdown timer".into(), |ms| ms.to_string()),
        secret: false,
    },
    Variable {
        name: "HOTPATH_ROUTE_SCOPE",
        apply: |c, v| {
            // As the seed system reads it: `0` or `false` turn it off, anything else on.
            let t = text(v)?.trim().to_ascii_lowercase();
            c.options.route_scope = !matches!(t.as_str(), "0" | "false");
            Ok(())
        },
        kept: |c| c.options.route_scope.to_string(),
        secret: false,
    },
];
