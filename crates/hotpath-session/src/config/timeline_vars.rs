//! The overlay's variables of the flight recorder (`HOTPATH_TIMELINE*`).

use hotpath_engine::options::TimelineTrigger;

use super::vars::{flag, number, path, text, Variable};

pub(super) const TIMELINE_VARIABLES: &[Variable] = &[
    Variable {
        name: "HOTPATH_TIMELINE",
        apply: |c, v| {
            c.options.timeline.on = flag(v)?;
            Ok(())
        },
        kept: |c| if c.options.timeline.on { "on" } else { "off" }.into(),
        secret: false,
    },
    Variable {
        name: "HOTPATH_TIMELINE_SIZE",
        apply: |c, v| {
            c.options.timeline.events = ring_events(text(v)?)?;
            Ok(())
        },
        kept: |c| format!("{} events per thread", c.options.timeline.events),
        secret: false,
    },
    Variable {
        name: "HOTPATH_TIMELINE_WINDOW",
        apply: |c, v| {
            c.options.timeline.window_ms = Some(duration_ns(text(v)?)?.div_ceil(1_000_000).max(1));
            Ok(())
        },
        kept: |c| c.options.timeline.window_ms.map_or("all the rings hold".into(), |ms| format!("{ms} ms")),
        secret: false,
    },
    Variable {
        name: "HOTPATH_TIMELINE_OUTPUT",
        apply: |c, v| {
            c.options.timeline.output = Some(path(v)?);
            c.options.timeline.on = true;
            Ok(())
        },
        kept: |c| c.options.timeline.output.as_ref().map_or("no trace at exit".into(), |p| p.display().to_string()),
        secret: false,
    },
    Variable {
        name: "HOTPATH_TIMELINE_TRIGGER",
        apply: |c, v| {
            c.options.timeline.triggers = triggers(text(v)?)?;
            c.options.timeline.on = true;
            Ok(())
        },
        kept: |c| format!("{} trigger(s)", c.options.timeline.triggers.len()),
        secret: false,
    },
    Variable {
        name: "HOTPATH_TIMELINE_DIR",
        apply: |c, v| {
            c.options.timeline.trigger_dir = path(v)?;
            Ok(())
        },
        kept: |c| c.options.timeline.trigger_dir.display().to_string(),
        secret: false,
    },
    Variable {
        name: "HOTPATH_TIMELINE_MAX_FILES",
        apply: |c, v| {
            c.options.timeline.max_files = number(v, 0..=10_000, "is not a number of files in 0..=10000")?;
            Ok(())
        },
        kept: |c| c.options.timeline.max_files.to_string(),
        secret: false,
    },
    Variable {
        name: "HOTPATH_TIMELINE_MIN_INTERVAL_MS",
        apply: |c, v| {
            c.options.timeline.min_interval_ms =
                number(v, 0..=86_400_000, "is not a number of milliseconds in 0..=86400000")?;
            Ok(())
        },
        kept: |c| c.options.timeline.min_interval_ms.to_string(),
        secret: false,
    },
];

/// `32768` events, or a size per thread: `4MiB`, `512KiB`.
pub(crate) fn ring_events(text: &str) -> Result<usize, String> {
    let t = text.trim();
    let problem = || "is not a number of events (32768) or a size (4MiB, 512KiB) in 2 events..=64 GiB".to_string();
    let (digits, scale) = match t.strip_suffix("MiB").or_else(|| t.strip_suffix("mib")) {
        Some(d) => (d, Some(1 << 20)),
        None => match t.strip_suffix("KiB").or_else(|| t.strip_suffix("kib")) {
            Some(d) => (d, Some(1 << 10)),
            None => (t, None),
        },
    };
    let n: u64 = digits.trim().parse().map_err(|_| problem())?;
    let events = match scale {
        Some(scale) => n.saturating_mul(scale) / hotpath_engine::timeline::EVENT_BYTES as u64,
        None => n,
    };
    if !(2..=1 << 30).contains(&events) {
        return Err(problem());
    }
    Ok(events as usize)
}

/// `50ms`, `2s`, `750us`, `100ns` (a number and a unit).
pub(crate) fn duration_ns(text: &str) -> Result<u64, String> {
    hotpath_sections::duration_ns(text)
        .ok_or_else(|| format!("{:?} is not a duration such as 50ms, 2s, 750us or 100ns", text.trim()))
}

/// `name>50ms` entries separated by commas.
pub(crate) fn triggers(text: &str) -> Result<Vec<TimelineTrigger>, String> {
    let mut out = Vec::new();
    for entry in text.split(',').map(str::trim).filter(|e| !e.is_empty()) {
        let Some((function, over)) = entry.rsplit_once('>') else {
            return Err(format!("has {entry:?}, not function>duration (my::handler>50ms)"));
        };
        let function = function.trim();
        if function.is_empty() {
            return Err(format!("has {entry:?} without a function name"));
        }
        let over_ns = duration_ns(over).map_err(|e| format!("has {e}"))?;
        out.push(TimelineTrigger { function: function.to_string(), over_ns });
    }
    if out.is_empty() {
        return Err("names no trigger (my::handler>50ms)".into());
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_durations_and_triggers_parse_or_say_why() {
        assert_eq!(ring_events("1000").unwrap(), 1000);
        assert_eq!(ring_events("1MiB").unwrap(), (1 << 20) / hotpath_engine::timeline::EVENT_BYTES);
        assert!(ring_events("1").is_err() && ring_events("lots").is_err());
        assert_eq!(duration_ns("50ms").unwrap(), 50_000_000);
        assert_eq!(duration_ns("1.5s").unwrap(), 1_500_000_000);
        assert!(duration_ns("50").is_err() && duration_ns("ms").is_err() && duration_ns("5 parsecs").is_err());
        let t = triggers("app::handle>50ms, b>1s").unwrap();
        assert_eq!(t[0], TimelineTrigger { function: "app::handle".into(), over_ns: 50_000_000 });
        assert_eq!(t[1].over_ns, 1_000_000_000);
        assert!(triggers("app::handle").is_err() && triggers(">5ms").is_err() && triggers("").is_err());
    }
}
