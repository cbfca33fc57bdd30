//! The selected row in full: every field, formatted by name, and a sparkline of
//! its main counter's rate over time (calls/s for functions).

use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Style, Stylize};
use ratatui::text::Line;
use ratatui::widgets::{Block, Paragraph, Sparkline, Wrap};
use ratatui::Frame;
use serde_json::Value;

use super::flow;
use crate::console::state::TableRow;
use crate::console::state::{flatten, show_value, App, History, Kind, SubView, Table};

pub(crate) fn draw(
    frame: &mut Frame<'_>,
    area: Rect,
    app: &App,
    view: &SubView,
    table: &Table,
    row: Option<&TableRow>,
    with_flow: bool,
) {
    let Some(row) = row else {
        frame.render_widget(Paragraph::new("no rows yet").block(Block::bordered().title(" Detail ")), area);
        return;
    };
    let [fields, spark] = Layout::vertical([Constraint::Min(3), Constraint::Length(6)]).areas(area);
    let mut lines = Vec::new();
    if with_flow {
        lines.extend(flow::lines(view.section, &row.name, &row.raw, &app.history));
        lines.push(Line::from(""));
    }
    lines.extend(field_lines(&row.raw));
    let block = Block::bordered().title(format!(" {} ", row.name));
    frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }).block(block), fields);
    sparkline(frame, spark, &app.history, view.section, &row.name, table);
}

/// `key: value` for every field, nested objects by dotted path (`lock.wait.avg_ns`),
/// and lists of objects (a runtime's workers) one line per element.
fn field_lines(row: &Value) -> Vec<Line<'static>> {
    let mut out: Vec<Line<'static>> = flatten(row)
        .into_iter()
        .map(|(key, v)| Line::from(vec![format!("{key}: ").fg(Color::Cyan), show_value(&key, v).into()]))
        .collect();
    for (key, value) in row.as_object().into_iter().flatten() {
        let Some(items) = value.as_array().filter(|i| !i.is_empty() && i.iter().all(Value::is_object)) else {
            continue;
        };
        for (i, item) in items.iter().enumerate().take(LIST_LINES) {
            let fields: Vec<String> =
                flatten(item).into_iter().map(|(k, v)| format!("{k} {}", show_value(&k, v))).collect();
            out.push(Line::from(vec![format!("{key}[{i}]: ").fg(Color::Cyan), fields.join(", ").into()]));
        }
        if items.len() > LIST_LINES {
            out.push(Line::from(format!("{key}: {} more", items.len() - LIST_LINES)));
        }
    }
    out
}

/// Elements of a nested list shown in the detail pane.
const LIST_LINES: usize = 16;

fn sparkline(frame: &mut Frame<'_>, area: Rect, history: &History, section: &str, name: &str, table: &Table) {
    let Some(counter) = table.counter.as_deref() else {
        frame.render_widget(Paragraph::new("no counter to chart").block(Block::bordered()), area);
        return;
    };
    // Busy rates (ns per second) are charted in tenths of a percent of one core.
    let (scale, unit) = if table.counter_kind == Kind::Busy { (1e-6, "‰") } else { (1.0, "/s") };
    let rates: Vec<u64> = history
        .rates(section, name, counter)
        .map(|r| r.iter().map(|v| (v * scale).round() as u64).collect())
        .unwrap_or_default();
    let now = rates.last().map_or_else(|| "-".into(), |r| format!("{r}{unit}"));
    let max = rates.iter().max().copied().unwrap_or(0);
    let what = if table.counter_kind == Kind::Busy { "load (‰ of a core)" } else { "per second" };
    let title = format!(" {counter} {what}: now {now}, max {max}{unit} ");
    // Newest points on the right: keep what fits.
    let shown = &rates[rates.len().saturating_sub(area.width.saturating_sub(2) as usize)..];
    let widget =
        Sparkline::default().block(Block::bordered().title(title)).data(shown).style(Style::new().fg(Color::Green));
    frame.render_widget(widget, area);
}
