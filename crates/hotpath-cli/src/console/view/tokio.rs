//! The Tokio tab: how often the runtimes are sampled (the interval, beside which the
//! runtimes table counts samples rather than showing a rate of them), the runtimes,
//! one row each (`state/runtimes.rs`), and for the selected runtime its
//! queues, its workers (busy now and overall, parks, polls, steals, local queues,
//! stalls), sparklines of the workers' busy share and of the global queue from the
//! runtime's own history, and its flags with their reasons. Falls back to the
//! generic section screen when the server sends no runtime it can read.

use hotpath_model::{format_count, format_duration_ns, Section, TokioRuntime, TokioRuntimes, TokioWorker, Unit};
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style, Stylize};
use ratatui::text::Line;
use ratatui::widgets::{Block, Paragraph, Row, Sparkline, Table as TableWidget, Wrap};
use ratatui::Frame;
use serde_json::Value;

use super::detail::Extra;
use super::section;
use super::table;
use crate::console::state::{nested_key, App, History};

pub(crate) fn draw(frame: &mut Frame<'_>, area: Rect, app: &mut App) {
    let view = app.current_view();
    let Some(runtimes) = app.table(&view) else { return section::draw(frame, area, app, Extra::None) };
    let selected = app.selected_index(&view, &runtimes);
    let row = selected.and_then(|i| runtimes.rows.get(i)).cloned();
    let Some((row, rt)) = row.and_then(|r| Some((r.key.clone(), serde_json::from_value::<TokioRuntime>(r.raw).ok()?)))
    else {
        return section::draw(frame, area, app, Extra::None);
    };
    let section = app.report().and_then(|r| r.get(Section::TokioRuntime.key())).cloned().unwrap_or(Value::Null);
    let list_height = (runtimes.rows.len() as u16 + 3).min(8);
    let [summary, list, queues, body] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Length(list_height),
        Constraint::Length(1),
        Constraint::Min(4),
    ])
    .areas(area);
    frame.render_widget(Paragraph::new(summary_line(&section)).style(Style::new().fg(Color::Gray)), summary);
    table::draw(frame, list, app, &view, &runtimes, selected);
    frame.render_widget(Paragraph::new(queue_line(&rt)), queues);
    let [workers, side] = if body.width >= 110 {
        Layout::horizontal([Constraint::Percentage(64), Constraint::Percentage(36)]).areas(body)
    } else {
        Layout::vertical([Constraint::Percentage(55), Constraint::Percentage(45)]).areas(body)
    };
    workers_table(frame, workers, &rt, &app.history, &row);
    let [busy, queue, flags] =
        Layout::vertical([Constraint::Length(5), Constraint::Length(5), Constraint::Min(3)]).areas(side);
    let busy_points: Vec<u64> = rt.history.iter().map(|p| p.busy_percent.round() as u64).collect();
    let busy_title = |now: u64, max: u64| format!(" Workers busy: now {now}%, max {max}% ");
    chart(frame, busy, &busy_points, Some(100), busy_title, Color::Green);
    let depth: Vec<u64> = rt.history.iter().map(|p| p.global_queue_depth as u64).collect();
    chart(frame, queue, &depth, None, |now, max| format!(" Global queue: now {now}, max {max} "), Color::Yellow);
    flag_lines(frame, flags, &rt);
}

/// How the runtimes are sampled and how many there are; the runtimes table's Samples
/// column counts the same samples (one per interval).
fn summary_line(section: &Value) -> Line<'static> {
    let Ok(s) = serde_json::from_value::<TokioRuntimes>(section.clone()) else { return Line::from("") };
    let shown = if s.runtimes.len() < s.total_runtimes {
        format!("{} of {} runtimes", s.runtimes.len(), s.total_runtimes)
    } else {
        format!("{} runtime{}", s.total_runtimes, if s.total_runtimes == 1 { "" } else { "s" })
    };
    let every = format_duration_ns(s.interval_ms.saturating_mul(1_000_000));
    let unstable =
        if s.tokio_unstable { "on" } else { "off (build with --cfg tokio_unstable for polls, steals, queues)" };
    Line::from(format!("{shown}, sampled every {every}   tokio_unstable metrics: {unstable}"))
}

/// Queue depths and task counts of the runtime, now and at their highest.
fn queue_line(rt: &TokioRuntime) -> Line<'static> {
    let mut parts = vec![
        format!("{} {} workers", rt.flavor, rt.num_workers),
        format!("global queue {} (max {})", rt.global_queue_depth, rt.max_global_queue_depth),
        format!("alive tasks {} (max {})", rt.alive_tasks, rt.max_alive_tasks),
    ];
    if let (Some(threads), Some(depth)) = (rt.blocking_threads, rt.blocking_queue_depth) {
        let idle = rt.idle_blocking_threads.map_or_else(String::new, |i| format!(", {i} idle"));
        let max = rt.max_blocking_queue_depth.map_or_else(String::new, |m| format!(" (max {m})"));
        parts.push(format!("blocking threads {threads}{idle}, queue {depth}{max}"));
    }
    if let Some(spawned) = rt.spawned_tasks {
        parts.push(format!("spawned {}", format_count(spawned)));
    }
    Line::from(parts.join("   ")).add_modifier(Modifier::BOLD)
}

/// One row per worker; columns of `tokio_unstable` metrics only when present, in
/// order of importance: whole columns that do not fit are left out, last first.
fn workers_table(frame: &mut Frame<'_>, area: Rect, rt: &TokioRuntime, history: &History, runtime_key: &str) {
    let rate = |index: usize, field: &str| {
        history.rate(Section::TokioRuntime.key(), &nested_key(runtime_key, "workers", &format!("index {index}")), field)
    };
    let each = |f: &dyn Fn(&TokioWorker) -> String| rt.workers.iter().map(f).collect::<Vec<String>>();
    let optional = |f: &dyn Fn(&TokioWorker) -> Option<u64>| {
        rt.workers.iter().any(|w| f(w).is_some()).then(|| each(&|w| f(w).map_or("-".into(), format_count)))
    };
    let mut columns: Vec<(&str, Vec<String>)> = vec![
        ("Worker", each(&|w| w.index.to_string())),
        // busy_ns per second of wall time: the share of its thread the worker was busy lately.
        ("Busy now", each(&|w| rate(w.index, "busy_ns").map_or("-".into(), |r| format!("{:.1}%", r / 1e7)))),
        ("Busy", each(&|w| Unit::Percent.format(w.busy_percent))),
    ];
    if rt.workers.iter().any(|w| w.polls.is_some()) {
        columns.push(("Polls/s", each(&|w| rate(w.index, "polls").map_or("-".into(), |r| Unit::PerSecond.format(r)))));
    }
    columns.push(("Parks", each(&|w| format_count(w.parks))));
    columns.extend(optional(&|w| w.local_queue_depth.map(|d| d as u64)).map(|c| ("Local queue", c)));
    columns.extend(optional(&|w| w.steals).map(|c| ("Steals", c)));
    columns.push(("Longest stall", each(&|w| format_duration_ns(w.longest_stall_ns))));
    columns.push(("Stalls", each(&|w| format_count(w.stalls))));
    columns.extend(optional(&|w| w.polls).map(|c| ("Polls", c)));
    columns.extend(optional(&|w| w.max_local_queue_depth.map(|d| d as u64)).map(|c| ("Max local", c)));
    columns.extend(optional(&|w| w.mean_poll_ns).map(|c| ("Mean poll", c)));
    columns.extend(optional(&|w| w.overflows).map(|c| ("Overflows", c)));
    // Whole columns while they fit, each with one space after it.
    let room = area.width.saturating_sub(2);
    let mut used = 0;
    let total = columns.len();
    columns.retain(|(title, cells)| {
        let w = cells.iter().map(|c| c.chars().count()).chain([title.chars().count()]).max().unwrap_or(1) as u16;
        let fits = used + w <= room;
        if fits {
            used += w + 1;
        }
        fits
    });
    let widths: Vec<Constraint> = columns
        .iter()
        .map(|(title, cells)| {
            let w = cells.iter().map(|c| c.chars().count()).chain([title.chars().count()]).max().unwrap_or(1);
            Constraint::Length(w as u16)
        })
        .collect();
    let header =
        Row::new(columns.iter().map(|(t, _)| *t)).style(Style::new().add_modifier(Modifier::BOLD).fg(Color::Cyan));
    let rows = (0..rt.workers.len()).map(|i| Row::new(columns.iter().map(|(_, cells)| cells[i].clone())));
    let mut shown = if rt.workers.len() < rt.num_workers {
        format!("{} of {} workers, busiest kept", rt.workers.len(), rt.num_workers)
    } else {
        format!("{} workers", rt.workers.len())
    };
    if columns.len() < total {
        shown.push_str(&format!(", {} columns need a wider terminal", total - columns.len()));
    }
    let block = Block::bordered().title(format!(" Workers of {} ({shown}) ", rt.name));
    frame.render_widget(TableWidget::new(rows, widths).header(header).block(block), area);
}

/// A sparkline with the newest points on the right and its now/max in the title.
fn chart(
    frame: &mut Frame<'_>,
    area: Rect,
    points: &[u64],
    ceiling: Option<u64>,
    title: impl Fn(u64, u64) -> String,
    color: Color,
) {
    let shown = &points[points.len().saturating_sub(area.width.saturating_sub(2) as usize)..];
    let max = points.iter().max().copied().unwrap_or(0);
    let block = Block::bordered().title(title(points.last().copied().unwrap_or(0), max));
    let mut widget = Sparkline::default().block(block).data(shown).style(Style::new().fg(color));
    if let Some(top) = ceiling {
        widget = widget.max(top);
    }
    frame.render_widget(widget, area);
}

/// The runtime's flags, each with the workers involved and why it fired.
fn flag_lines(frame: &mut Frame<'_>, area: Rect, rt: &TokioRuntime) {
    let lines: Vec<Line> = if rt.flags.is_empty() {
        vec![Line::from("nothing flagged").fg(Color::Green)]
    } else {
        rt.flags
            .iter()
            .map(|f| {
                let workers = match f.workers.as_slice() {
                    [] => String::new(),
                    w => format!(" (workers {})", w.iter().map(usize::to_string).collect::<Vec<_>>().join(", ")),
                };
                Line::from(vec![format!("⚑ {}{workers}: ", f.kind).fg(Color::Red).bold(), f.message.clone().into()])
            })
            .collect()
    };
    let block = Block::bordered().title(format!(" Flags ({}) ", rt.flags.len()));
    frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: true }).block(block), area);
}
