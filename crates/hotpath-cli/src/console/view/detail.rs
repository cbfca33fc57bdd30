//! The selected row in full: every field under a human label (`Lock wait P50`),
//! formatted in its unit, lists inside the row summed up by their length, and a
//! sparkline of its main counter's rate over time (calls/s for functions).

use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Style, Stylize};
use ratatui::text::Line;
use ratatui::widgets::{Block, Paragraph, Sparkline, Wrap};
use ratatui::Frame;
use serde_json::Value;

use super::{flow, tracker};
use crate::console::state::{flatten, row_lists, show_value, title_of, App, History, Kind, SubView, Table, TableRow};

/// What a screen adds to the detail pane.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Extra {
    None,
    /// Draw the selected channel as sender → queue → receiver.
    Flow,
    /// A debug tracker: its value history and log records.
    Tracker,
}

pub(crate) fn draw(
    frame: &mut Frame<'_>,
    area: Rect,
    app: &App,
    view: &SubView,
    table: &Table,
    row: Option<&TableRow>,
    extra: Extra,
) {
    let Some(row) = row else {
        frame.render_widget(Paragraph::new("no rows yet").block(Block::bordered().title(" Detail ")), area);
        return;
    };
    if extra == Extra::Tracker {
        return tracker::draw(frame, area, app, row, field_lines(&row.raw));
    }
    let [fields, spark] = Layout::vertical([Constraint::Min(3), Constraint::Length(6)]).areas(area);
    let mut lines = Vec::new();
    if extra == Extra::Flow {
        lines.extend(flow::lines(view.section, &row.key, &row.raw, &app.history));
        lines.push(Line::from(""));
    }
    lines.extend(field_lines(&row.raw));
    let block = Block::bordered().title(format!(" {} ", row.name));
    frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }).block(block), fields);
    sparkline(frame, spark, &app.history, view.section, &row.key, table);
}

/// `Label: value` for every field, nested objects under their path's words, and
/// one line per list of objects inside the row, with its length.
pub(crate) fn field_lines(row: &Value) -> Vec<Line<'static>> {
    let mut out: Vec<Line<'static>> = flatten(row)
        .into_iter()
        .map(|f| {
            let value = show_value(f.name, f.parent, f.value);
            Line::from(vec![format!("{}: ", title_of(&f.path)).fg(Color::Cyan), value.into()])
        })
        .collect();
    for list in row_lists(row) {
        let n = row[list.as_str()].as_array().map_or(0, Vec::len);
        out.push(Line::from(vec![format!("{}: ", title_of(&list)).fg(Color::Cyan), format!("{n} entries").into()]));
    }
    out
}

fn sparkline(frame: &mut Frame<'_>, area: Rect, history: &History, section: &str, key: &str, table: &Table) {
    let Some(counter) = table.counter.as_deref() else {
        frame.render_widget(Paragraph::new("no counter to chart").block(Block::bordered()), area);
        return;
    };
    // Busy rates (ns per second) are charted in tenths of a percent of one core.
    let (scale, unit) = if table.counter_kind == Kind::Busy { (1e-6, "‰") } else { (1.0, "/s") };
    let rates: Vec<u64> = history
        .rates(section, key, counter)
        .map(|r| r.iter().map(|v| (v * scale).round() as u64).collect())
        .unwrap_or_default();
    let now = rates.last().map_or_else(|| "-".into(), |r| format!("{r}{unit}"));
    let max = rates.iter().max().copied().unwrap_or(0);
    let what = if table.counter_kind == Kind::Busy { "load (‰ of a core)" } else { "per second" };
    let title = format!(" {} {what}: now {now}, max {max}{unit} ", title_of(counter));
    // Newest points on the right: keep what fits.
    let shown = &rates[rates.len().saturating_sub(area.width.saturating_sub(2) as usize)..];
    let widget =
        Sparkline::default().block(Block::bordered().title(title)).data(shown).style(Style::new().fg(Color::Green));
    frame.render_widget(widget, area);
}
