//! The Data flow tab: channels (with the sender → queue → receiver flow of the
//! selected channel), streams, futures, mutexes and rw-locks. Above them, a warning
//! line when a wrapped lock or channel was reached through `Deref` (its `derefs` field):
//! what was done that way is missing from these tables.

use hotpath_model::Section;
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
const WRAPPERS: [&str; 3] = ["channels", "mutexes", "rw_locks"];

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
    let flagged: Vec<String> = WRAPPERS
        .iter()
        .flat_map(|section| {
            let rows = report.get(*section).and_then(|s| s.get("rows")).and_then(Value::as_array);
            rows.into_iter().flatten().filter_map(move |row| {
                let derefs = row.get("derefs").and_then(Value::as_u64).filter(|n| *n > 0)?;
                let name = row.get("name").and_then(Value::as_str).unwrap_or("?");
                Some(format!("{section} {name} ({derefs}×)"))
            })
        })
        .collect();
    (!flagged.is_empty()).then(|| {
        format!(
            "⚠ Reached through Deref, operations unmeasured: {}. Fix: take hotpath::wrap::… types in \
             signatures, not the backend's own (&std::sync::Mutex<T>, &Sender<T>).",
            flagged.join(", ")
        )
    })
}
