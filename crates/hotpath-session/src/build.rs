//! Builds a report of a session: the meta, every wanted section from the engine, the
//! session's own row, then the per-section row limits and the section selection,
//! all through the model's section table.

use hotpath_engine::{diag, sampling, switch, Moment};
use hotpath_model::{FunctionTiming, Percentiles, Report, SCHEMA_VERSION, SECTIONS};

use crate::config::Config;
use crate::end::End;
use crate::state::Session;

/// The report of `session` as `config` asks for it.
pub(crate) fn report(session: &Session, config: &Config, end: End) -> Report {
    let wall = session.started.elapsed();
    let mut report = Report::default();
    report.schema_version = SCHEMA_VERSION;
    report.user_metadata = config.user_metadata.clone();
    let meta = &mut report.meta;
    meta.hotpath_version = env!("CARGO_PKG_VERSION").to_string();
    meta.caller = config.caller.clone();
    meta.pid = std::process::id();
    meta.started_unix_ms = session.started_unix_ms;
    meta.wall_ns = wall.as_nanos() as u64;
    meta.ended_by = end.as_str().to_string();
    meta.percentiles = config.options.percentiles.clone();
    meta.limit = config.limits.of(hotpath_model::Section::FunctionsTiming);
    meta.focus = config.options.focus.as_ref().map(|f| f.as_string());
    meta.clock = hotpath_engine::clock_source().to_string();
    meta.clock_reason = hotpath_engine::clock_reason().to_string();
    meta.negative_intervals = hotpath_engine::negative_intervals();
    meta.dropped = switch::dropped();
    meta.label = config.label.clone();
    meta.name_depth = config.name_depth;
    meta.name_width = config.name_width;
    meta.wrapper_excluded = config.exclude_wrapper;
    meta.compact_tables = config.compact_tables;
    meta.time_sampling = sampling::active().into_iter().map(|(k, r)| (k.to_string(), r)).collect();
    meta.warnings = session.warnings.iter().cloned().chain(diag::report_warnings()).collect();
    meta.timeline = crate::timeline::meta();
    let moment = if end == End::Live { Moment::Live } else { Moment::Final };
    // The engine keeps every row; the limits below cut each section after its totals.
    let mut options = config.options.clone();
    options.limit = 0;
    options.threads_limit = usize::MAX;
    let wanted = |s| config.sections.wants(s);
    hotpath_engine::collect(&mut report, &options, moment, session.started_unix_ms, wall.as_nanos() as u64, &wanted);
    // Only beside something measured: an empty report still says "No measurements". A
    // live view shows the session as a call running since the start.
    let wrapper = !config.exclude_wrapper && !report.is_empty();
    if wrapper && wanted(hotpath_model::Section::FunctionsTiming) {
        let wall_ns = wall.as_nanos() as u64;
        match end {
            End::Live => running_row(&mut report, config, wall_ns),
            _ => wrapper_row(&mut report, config, wall_ns, session.main_thread.covered_ns()),
        }
    }
    config.sections.apply(&mut report);
    for def in SECTIONS {
        let limit = config.limits.of(def.section);
        if let (Some(section), true) = (report.section_mut(def.section), limit > 0) {
            let keep: Vec<usize> = (0..section.row_names().len().min(limit)).collect();
            section.keep_rows(&keep);
        }
    }
    report
}

/// The session's own row: one call spanning the session, like the seed system's
/// "wrapper" row. Its self time is the time on `main`'s own thread not inside another
/// measured call on that thread (`covered_ns`, from the engine's `ThreadMark`): work on
/// other threads runs beside `main`, not inside it, and is not subtracted.
fn wrapper_row(report: &mut Report, config: &Config, wall_ns: u64, covered_ns: u64) {
    let Some(section) = session_section(report, config) else { return };
    let mut row = FunctionTiming::default();
    row.name = config.caller.clone();
    row.calls = 1;
    row.total_ns = wall_ns;
    row.self_ns = wall_ns.saturating_sub(covered_ns);
    row.avg_ns = wall_ns;
    row.min_ns = wall_ns;
    row.max_ns = wall_ns;
    row.percentiles_ns = Percentiles(config.options.percentiles.iter().map(|&p| (p, wall_ns)).collect());
    section.total_functions += 1;
    let at = section.rows.iter().position(|r| r.total_ns < wall_ns).unwrap_or(section.rows.len());
    section.rows.insert(at, row);
}

/// The session's row in a live view: one call, still running, as old as the session.
/// Like any call in flight, it has no completed time yet.
fn running_row(report: &mut Report, config: &Config, wall_ns: u64) {
    let Some(section) = session_section(report, config) else { return };
    let mut row = FunctionTiming::default();
    row.name = config.caller.clone();
    row.active = 1;
    row.oldest_active_ns = Some(wall_ns);
    section.total_functions += 1;
    section.rows.push(row);
}

/// The functions section to add the session's row to; `None` when the focus leaves it
/// out or a measured function already has its name.
fn session_section<'a>(report: &'a mut Report, config: &Config) -> Option<&'a mut hotpath_model::FunctionsTiming> {
    if config.options.focus.as_ref().is_some_and(|f| !f.matches(&config.caller)) {
        return None;
    }
    let section = report.functions_timing.get_or_insert_with(Default::default);
    (!section.rows.iter().any(|r| r.name == config.caller)).then_some(section)
}
