//! One view of a section: a summary line of the section's own figures, the
//! sortable table and the detail pane of the selected row; or, when the server has
//! no such section, "no data" and the server's reason.

use std::collections::HashMap;

use hotpath_model::{Report, Section, Unit};
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Style, Stylize};
use ratatui::text::Line;
use ratatui::widgets::{Block, Paragraph, Wrap};
use ratatui::Frame;
use serde_json::Value;

use super::detail::{self, Extra};
use super::table;
use crate::console::state::{outlier_note, row_lists, show_typed, show_value, title_of, App};

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
    let mut summary_text =
        if row_lists(&section).is_empty() { Line::from("") } else { summary_line(view.section, &section) };
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

/// The section's own top-level figures (`total_functions: 7`, `rss_bytes: 7.8 MB`), in
/// the units its type gives them (`SectionData::visit_totals`); a section the model
/// cannot read (another build's) by its field names.
pub(crate) fn summary_line(of: Section, section: &Value) -> Line<'static> {
    let mut units: Option<HashMap<String, Unit>> = None;
    let mut report = Report::default();
    if report.set_section_json(of, section).is_ok() {
        let mut listed = HashMap::new();
        let typed = report.section(of).is_some_and(|s| {
            s.visit_totals(&mut |key, unit, _| {
                listed.insert(key.to_string(), unit);
            })
        });
        units = typed.then_some(listed);
    }
    let parts: Vec<String> = section
        .as_object()
        .into_iter()
        .flatten()
        .filter(|(_, v)| matches!(v, Value::Number(_) | Value::String(_) | Value::Bool(_)))
        .map(|(k, v)| {
            let shown = match &units {
                Some(units) => show_typed(units.get(k.as_str()).copied(), v),
                None => show_value(k, None, v),
            };
            format!("{}: {}", title_of(k), shown)
        })
        .collect();
    Line::from(parts.join("   "))
}

#[cfg(test)]
mod tests {
    use hotpath_model::SECTIONS;
    use serde_json::json;

    use super::*;

    fn text(line: Line<'_>) -> String {
        line.spans.iter().map(|s| s.content.as_ref()).collect()
    }

    /// Every section's own figures are shown in the unit its type declares for them
    /// (`SectionData::visit_totals`), each one, with values that tell units apart.
    #[test]
    fn summary_figures_are_shown_in_their_types_units() {
        for def in SECTIONS {
            let mut report = Report::default();
            report.ensure(def.section);
            let mut declared = Vec::new();
            report
                .section(def.section)
                .unwrap()
                .visit_totals(&mut |key, unit, _| declared.push((key.to_string(), unit)));
            let mut json = report.section_json(def.section).unwrap();
            for (i, (key, _)) in declared.iter().enumerate() {
                json[key.as_str()] = json!(1_234_567 + i as u64);
            }
            let shown = text(summary_line(def.section, &json));
            for (i, (key, unit)) in declared.iter().enumerate() {
                let expected = format!("{}: {}", title_of(key), unit.format((1_234_567 + i) as f64));
                assert!(shown.contains(&expected), "{}: {expected:?} not in {shown:?}", def.key);
            }
        }
        // A section this build cannot read is still summarised, by its field names.
        let other = json!({"total_widgets": 3, "rows": "not rows of this build"});
        assert!(text(summary_line(Section::FunctionsCpu, &other)).contains("Total widgets: 3"));
    }
}
