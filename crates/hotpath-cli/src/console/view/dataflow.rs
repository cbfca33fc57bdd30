//! The Data flow tab: channels (with the sender → queue → receiver flow of the
//! selected channel), streams, futures, mutexes and rw-locks. Above them, a warning
//! line when a wrapped lock or channel was reached through `Deref` (its `derefs` field):
//! what was done that way is missing from these tables.

use hotpath_model::{Channels, Mutexes, RwLocks, Section};
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Style};
use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Wrap};
use ratatui::Frame;
use serde_json::Value;

use super::detail::Extra;
use super::section;
use crate::console::state::App;

/// The sections whose rows count derefs of their wrappers.
const WRAPPERS: [Section; 3] = [Section::Channels, Section::Mutexes, Section::RwLocks];

pub(crate) fn draw(frame: &mut Frame<'_>, area: Rect, app: &mut App) {
    let extra = if app.current_view().section == Section::Channels { Extra::Flow } else { Extra::None };
    let area = match app.report().and_then(deref_warning) {
        Some(warning) => {
            let [top, rest] = Layout::vertical([Constraint::Length(2), Constraint::Min(2)]).areas(area);
            let style = Style::new().fg(Color::Yellow).bold();
            frame.render_widget(Paragraph::new(Line::from(warning)).style(style).wrap(Wrap { trim: true }), top);
            rest
        }
        None => area,
    };
    section::draw(frame, area, app, extra);
}

/// `⚠ reached through Deref, unmeasured: mutex total (47×) ...; fix: ...` when any
/// row of the wrapper sections has `derefs` > 0.
fn deref_warning(report: &Value) -> Option<String> {
    let flagged: Vec<String> = WRAPPERS.iter().flat_map(|section| flagged(report, *section)).collect();
    (!flagged.is_empty()).then(|| {
        format!(
            "⚠ Reached through Deref, operations unmeasured: {}. Fix: take hotpath::wrap::… types in \
             signatures, not the backend's own (&std::sync::Mutex<T>, &Sender<T>).",
            flagged.join(", ")
        )
    })
}

/// `mutexes total (47×)` for each row of `section` with derefs, read as the model's
/// type; by the rows' `name` and `derefs` fields when the type cannot read them.
fn flagged(report: &Value, section: Section) -> Vec<String> {
    let Some(json) = report.get(section.key()) else { return Vec::new() };
    let rows = match section {
        Section::Channels => serde_json::from_value::<Channels>(json.clone())
            .ok()
            .map(|s| s.rows.into_iter().map(|r| (r.name, r.derefs)).collect::<Vec<_>>()),
        Section::Mutexes => serde_json::from_value::<Mutexes>(json.clone())
            .ok()
            .map(|s| s.rows.into_iter().map(|r| (r.name, r.derefs)).collect::<Vec<_>>()),
        Section::RwLocks => serde_json::from_value::<RwLocks>(json.clone())
            .ok()
            .map(|s| s.rows.into_iter().map(|r| (r.name, r.derefs)).collect::<Vec<_>>()),
        _ => None,
    };
    let rows = rows.unwrap_or_else(|| {
        let rows = json.get("rows").and_then(Value::as_array).into_iter().flatten();
        rows.filter_map(|row| {
            let name = row.get("name").and_then(Value::as_str).unwrap_or("?").to_string();
            Some((name, row.get("derefs").and_then(Value::as_u64)?))
        })
        .collect()
    });
    let key = section.key();
    rows.into_iter().filter(|(_, n)| *n > 0).map(|(name, n)| format!("{key} {name} ({n}×)")).collect()
}
