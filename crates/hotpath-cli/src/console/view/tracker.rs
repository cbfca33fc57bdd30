//! The detail pane of a selected debug tracker: its fields, a sparkline of a gauge's
//! last values, and its log records as the server keeps them
//! (`/debug/{kind}/{id}/logs`, newest first, fetched by the poller), read as the model's
//! `DebugRow` and `DebugLogs`.

use hotpath_model::{DebugLog, DebugLogs, DebugRow};
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Style, Stylize};
use ratatui::text::Line;
use ratatui::widgets::{Block, Paragraph, Sparkline, Wrap};
use ratatui::Frame;

use crate::console::state::{App, TableRow};

/// The detail pane of the selected tracker; also tells the poller to fetch its logs.
/// `fields` are the row's labelled fields.
pub(crate) fn draw(frame: &mut Frame<'_>, area: Rect, app: &App, row: &TableRow, fields: Vec<Line<'static>>) {
    let tracker: Option<DebugRow> = serde_json::from_value(row.raw.clone()).ok();
    app.logs.follow(tracker.as_ref());
    let history = match &tracker {
        Some(DebugRow::Gauge(gauge)) => Some(&gauge.history),
        _ => None,
    };
    let [top, chart, logs] = Layout::vertical([
        Constraint::Length((fields.len() as u16 + 2).min(area.height / 3).max(3)),
        Constraint::Length(if history.is_some() { 6 } else { 0 }),
        Constraint::Min(3),
    ])
    .areas(area);
    let block = Block::bordered().title(format!(" {} ", row.name));
    frame.render_widget(Paragraph::new(fields).wrap(Wrap { trim: false }).block(block), top);
    if let Some(history) = history {
        sparkline(frame, chart, history);
    }
    let (title, lines) = match tracker.as_ref().map(|t| app.logs.of(t)) {
        None => (" Logs ".to_string(), vec![Line::from("not a dbg!, val! or gauge! row").fg(Color::Yellow)]),
        Some(None) => (" Logs ".to_string(), vec![Line::from("fetching…").fg(Color::Yellow)]),
        Some(Some(Err(e))) => (" Logs ".to_string(), vec![Line::from(e.clone()).fg(Color::Yellow)]),
        Some(Some(Ok(answer))) => log_lines(answer),
    };
    frame.render_widget(Paragraph::new(lines).block(Block::bordered().title(title)), logs);
}

/// The title (`Logs: 50 kept of 1200`) and one line per record, newest first.
fn log_lines(answer: &DebugLogs) -> (String, Vec<Line<'static>>) {
    records(&answer.logs, answer.total)
}

/// The title (`Logs: 50 kept of 1200`) and one line per record of `records`, newest
/// first, of `total` ever logged (a tracker's or a `log = true` row's).
pub(crate) fn records(records: &[DebugLog], total: u64) -> (String, Vec<Line<'static>>) {
    let title = format!(" Logs: {} kept of {total} ", records.len());
    if records.is_empty() {
        return (title, vec![Line::from("no records yet")]);
    }
    let lines = records
        .iter()
        .map(|r| {
            let at = r.at_ns as f64 / 1e9;
            Line::from(vec![
                format!("#{:<6} ", r.seq).fg(Color::DarkGray),
                format!("{at:>9.3}s ").fg(Color::Cyan),
                format!("{:<12} ", r.thread).fg(Color::Gray),
                what(r).into(),
            ])
        })
        .collect();
    (title, lines)
}

/// What a record says: a gauge's operation and the value after it, or the value's
/// `Debug` text, prefixed with its key when folded into `<other>`.
fn what(record: &DebugLog) -> String {
    let number = |v: Option<f64>| v.map_or_else(|| "?".to_string(), |v| v.to_string());
    let key = record.key.as_deref().map(|k| format!("{k} = ")).unwrap_or_default();
    if let Some(op) = &record.op {
        return format!("{key}{op} {} → {}", number(record.operand), number(record.current));
    }
    let cut = if record.cut { " (cut)" } else { "" };
    format!("{key}{}{cut}", record.value.as_deref().unwrap_or(""))
}

/// A gauge's last values, scaled between their smallest and largest.
fn sparkline(frame: &mut Frame<'_>, area: Rect, history: &[f64]) {
    let values: Vec<f64> = history.iter().copied().filter(|v| v.is_finite()).collect();
    let lo = values.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let span = if hi > lo { hi - lo } else { 1.0 };
    // The smallest value still shows as one step, so a flat line is visible.
    let points: Vec<u64> = values.iter().map(|v| 1 + ((v - lo) / span * 99.0).round() as u64).collect();
    let title = match values.last() {
        Some(now) => format!(" Last {} values: now {now}, low {lo}, high {hi} ", values.len()),
        None => " No values yet ".to_string(),
    };
    let shown = &points[points.len().saturating_sub(area.width.saturating_sub(2) as usize)..];
    let widget =
        Sparkline::default().block(Block::bordered().title(title)).data(shown).style(Style::new().fg(Color::Green));
    frame.render_widget(widget, area);
}
