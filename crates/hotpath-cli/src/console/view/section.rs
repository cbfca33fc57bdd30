//! One view of a section: a summary line of the section's own figures, the
//! sortable table and the detail pane of the selected row; or, when the server has
//! no such section, "no data" and the server's reason.

use hotpath_model::Section;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Style, Stylize};
use ratatui::text::Line;
use ratatui::widgets::{Block, Paragraph, Wrap};
use ratatui::Frame;
use serde_json::Value;

use super::detail::{self, Extra};
use super::table;
use crate::console::state::{outlier_note, row_lists, show_value, title_of, App};

pub(crate) fn draw(frame: &mut Frame<'_>, area: Rect, app: &mut App, extra: Extra) {
    let view = app.current_view();
    let Some(table) = app.table(&view) else {
        let text = format!("no data: {}", app.missing_reason(&view));
        let block = Block::bordered().title(format!(" {} ", view.title));
        frame.render_widget(Paragraph::new(text).fg(Color::Yellow).wrap(Wrap { trim: true }).block(block), area);
        return;
    };
    let section = app.report().and_then(|r| r.get(view.section.key())).cloned().unwrap_or(Value::Null);
    let [summary, body] = Layout::vertical([Constraint::Length(1), Constraint::Min(2)]).areas(area);
    // A section of fields only is its own table; a summary would repeat it.
    let mut summary_text = if row_lists(&section).is_empty() { Line::from("") } else { summary_line(&section) };
    if view.section == Section::FunctionsTiming {
        let meta = app.report().map_or(Value::Null, |r| r["meta"].clone());
        if let Some(note) = outlier_note(&section, &meta) {
            summary_text.push_span(format!("   {note}"));
        }
    }
    frame.render_widget(Paragraph::new(summary_text).style(Style::new().fg(Color::Gray)), summary);
    let wide = body.width >= 110;
    let [left, right] = if wide {
        // The detail pane takes a third, within 40 to 60 columns; the table the rest.
        let detail = (body.width / 3).clamp(40, 60);
        Layout::horizontal([Constraint::Min(0), Constraint::Length(detail)]).areas(body)
    } else {
        Layout::vertical([Constraint::Percentage(60), Constraint::Percentage(40)]).areas(body)
    };
    let selected = app.selected_index(&view, &table);
    table::draw(frame, left, app, &view, &table, selected);
    let row = selected.and_then(|i| table.rows.get(i));
    detail::draw(frame, right, app, &view, &table, row, extra);
}

/// The section's own top-level figures (`total_functions: 7`, `rss_bytes: 7.8 MB`).
pub(crate) fn summary_line(section: &Value) -> Line<'static> {
    let parts: Vec<String> = section
        .as_object()
        .into_iter()
        .flatten()
        .filter(|(_, v)| matches!(v, Value::Number(_) | Value::String(_) | Value::Bool(_)))
        .map(|(k, v)| format!("{}: {}", title_of(k), show_value(k, None, v)))
        .collect();
    Line::from(parts.join("   "))
}
