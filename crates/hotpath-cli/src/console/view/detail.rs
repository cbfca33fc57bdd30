//! The selected row in full: every field under a human label (`Lock wait P50`),
//! formatted in its unit, lists inside the row summed up by their length, the values
//! it logged (`log = true`, when the report's `debug.logged` lists it), and a
//! sparkline of its main counter's rate over time (calls/s for functions).

use hotpath_model::Section;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Style, Stylize};
use ratatui::text::Line;
use ratatui::widgets::{Block, Paragraph, Sparkline, Wrap};
use ratatui::Frame;
use serde_json::Value;

use super::{flow, tracker};
use crate::console::state::{
    flatten, row_lists, show_value, title_of, App, History, Kind, SubView, Table, TableRow, LOGGED_SECTIONS,
};

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
        return tracker::draw(frame, area, app, row, field_lines(row));
    }
    let mut lines = Vec::new();
    if extra == Extra::Flow {
        lines.extend(flow::lines(view.section.key(), &row.key, &row.raw, &app.history));
        lines.push(Line::from(""));
    }
    lines.extend(field_lines(row));
    let name = row.raw.get("name").and_then(Value::as_str).unwrap_or(&row.name);
    let logged = logged(app, view.section, name);
    let [fields, logs, spark] = Layout::vertical([
        if logged {
            Constraint::Length((lines.len() as u16 + 2).min(area.height / 3).max(3))
        } else {
            Constraint::Min(3)
        },
        if logged { Constraint::Min(3) } else { Constraint::Length(0) },
        Constraint::Length(6),
    ])
    .areas(area);
    let block = Block::bordered().title(format!(" {} ", row.name));
    frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }).block(block), fields);
    if logged {
        row_logs(frame, logs, app, view.section.key(), name);
    }
    sparkline(frame, spark, &app.history, view.section.key(), &row.key, table);
}

/// Whether the row `name` of `section` keeps `log = true` values: the report's
/// `debug.logged` lists it.
fn logged(app: &App, section: Section, name: &str) -> bool {
    if !LOGGED_SECTIONS.contains(&section) {
        return false;
    }
    let rows = app.report().and_then(|r| r.pointer("/debug/logged")).and_then(Value::as_array);
    rows.into_iter().flatten().any(|r| r["section"] == section.key() && r["name"] == name)
}

/// The row's last logged values (`log = true`) or executions and requests (SQL, HTTP,
/// server rows), fetched by the poller from `/{section}/{name}/logs`.
fn row_logs(frame: &mut Frame<'_>, area: Rect, app: &App, section: &str, name: &str) {
    app.logs.follow_row(section, name);
    let (title, lines) = match app.logs.of_row(section, name) {
        None => (" Logs ".to_string(), vec![Line::from("fetching…").fg(Color::Yellow)]),
        Some(Err(e)) => (" Logs ".to_string(), vec![Line::from(e.clone()).fg(Color::Yellow)]),
        Some(Ok(answer)) => tracker::records(&answer.logs, answer.total),
    };
    // Wrapped: a SQL, HTTP or server record ends in its statement, URL or path.
    frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }).block(Block::bordered().title(title)), area);
}

/// `Label: value` for every field, nested objects under their path's words, and
/// one line per list of objects inside the row, with its length. A row read through
/// its model type shows each figure in the unit the type declares; only a row read
/// without one has its units guessed from field names.
pub(crate) fn field_lines(row: &TableRow) -> Vec<Line<'static>> {
    let raw = &row.raw;
    let mut out: Vec<Line<'static>> = flatten(raw)
        .into_iter()
        // A histogram's own bookkeeping (`buckets.count`, `buckets.sum_ns`) repeats the
        // count and total shown beside it.
        .filter(|f| !f.path.split('.').any(|part| part == "buckets"))
        .map(|f| {
            let value = match (&row.units, f.value.as_f64()) {
                (Some(units), Some(n)) => units.get(&f.path).map_or_else(|| f.value.to_string(), |u| u.format(n)),
                // A figure the JSON writes as text (a gauge's `NaN`) or a row read without a type.
                _ => show_value(f.name, f.parent, f.value),
            };
            Line::from(vec![format!("{}: ", title_of(&f.path)).fg(Color::Cyan), value.into()])
        })
        .collect();
    for list in row_lists(raw) {
        let n = raw[list.as_str()].as_array().map_or(0, Vec::len);
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

#[cfg(test)]
mod tests {
    use hotpath_model::{Threads, Unit};
    use serde_json::json;

    use super::*;

    fn shown(lines: &[Line<'_>]) -> Vec<String> {
        lines.iter().map(|l| l.spans.iter().map(|s| s.content.as_ref()).collect()).collect()
    }

    /// A threads row read through its type shows its figures in the type's units, its
    /// thread id as it is, and leaves out a histogram's bookkeeping.
    #[test]
    fn a_typed_rows_detail_takes_units_from_its_type() {
        let section = json!({"pid": 1, "rss_bytes": 0, "interval_ms": 1000, "samples": 2, "total_threads": 1,
            "rows": [{"name": "main", "tid": 4242, "status": "Running", "cpu_percent": 12.5,
                      "cpu_user_ns": 2_500_000, "cpu_sys_ns": 0,
                      "buckets": {"count": 3, "sum_ns": 9, "cumulative": [1, 3]}}]});
        assert!(serde_json::from_value::<Threads>(section.clone()).is_ok());
        let table =
            crate::console::state::build_table(Section::Threads, &section, None, &json!({}), &History::default())
                .unwrap();
        let lines = shown(&field_lines(&table.rows[0]));
        let cpu = format!("{}: {}", title_of("cpu_user_ns"), Unit::Nanoseconds.format(2_500_000.0));
        assert!(lines.contains(&cpu), "{lines:?}");
        assert!(lines.contains(&format!("{}: 4242", title_of("tid"))), "{lines:?}");
        assert!(!lines.iter().any(|l| l.contains("Buckets")), "{lines:?}");
    }
}
