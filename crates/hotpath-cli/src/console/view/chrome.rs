//! Everything around the section: the tab bar, the view bar, the status line
//! (connection, program, pause) and the help box.

use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style, Stylize};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph};
use ratatui::Frame;

use crate::console::state::{App, Link, Tab, TabViews};

/// Draws labels left to right, returning where each landed (for clicks).
fn bar(frame: &mut Frame<'_>, area: Rect, labels: &[String], selected: usize) -> Vec<(Rect, usize)> {
    let mut spans = Vec::new();
    let mut regions = Vec::new();
    let mut x = area.x;
    for (i, label) in labels.iter().enumerate() {
        let text = format!(" {label} ");
        let width = text.chars().count() as u16;
        let style =
            if i == selected { Style::new().add_modifier(Modifier::REVERSED | Modifier::BOLD) } else { Style::new() };
        if x < area.right() {
            regions.push((Rect::new(x, area.y, width.min(area.right() - x), 1), i));
        }
        spans.push(Span::styled(text, style));
        spans.push(Span::raw(" "));
        x = x.saturating_add(width + 1);
    }
    frame.render_widget(Paragraph::new(Line::from(spans)), area);
    regions
}

pub(crate) fn tabs(frame: &mut Frame<'_>, area: Rect, app: &mut App) {
    let labels: Vec<String> = Tab::ALL.iter().enumerate().map(|(i, t)| format!("{} {}", i + 1, t.title())).collect();
    app.regions.tabs = bar(frame, area, &labels, app.tab.index());
}

pub(crate) fn views(frame: &mut Frame<'_>, area: Rect, app: &mut App) {
    let labels: Vec<String> = app.views().iter().map(|v| v.title.clone()).collect();
    app.regions.views = bar(frame, area, &labels, app.view_index());
}

pub(crate) fn status(frame: &mut Frame<'_>, area: Rect, app: &App) {
    let link = match &app.link {
        Link::Connecting => format!("connecting to {}", app.address).fg(Color::Yellow),
        Link::Up => format!("● {} every {} ms", app.address, app.refresh.as_millis()).fg(Color::Green),
        Link::Down(e) => format!("○ {e}; retrying").fg(Color::Red),
    };
    let mut spans = vec![link];
    if let Some(data) = &app.data {
        let s = &data.status;
        let uptime = s["uptime_ns"].as_u64().unwrap_or(0) / 1_000_000_000;
        let program = format!("  {} pid {} up {uptime}s", s["caller"].as_str().unwrap_or("?"), s["pid"]);
        spans.push(program.into());
        if !matches!(app.link, Link::Up) {
            spans.push("  (last data shown)".fg(Color::Yellow));
        }
    }
    if app.paused {
        spans.push("  PAUSED (p resumes)".fg(Color::Black).bg(Color::Yellow));
    }
    spans.push("  q quit  p pause  ? help".fg(Color::DarkGray));
    frame.render_widget(Paragraph::new(Line::from(spans)), area);
}

const HELP: [&str; 11] = [
    "1-7, Tab, Shift-Tab   switch tab",
    "←/→ or h/l            switch view inside a tab",
    "< > or Shift-←/→      scroll a wide table's columns",
    "↑/↓ or k/j, g/G       move the selection",
    "s                     sort by the next column",
    "r                     reverse the sort",
    "p or space            pause / resume refreshing",
    "mouse                 click a tab, view, column or row",
    "q or Ctrl-C           quit",
    "",
    "any key closes this help",
];

pub(crate) fn help(frame: &mut Frame<'_>, area: Rect) {
    let [_, middle, _] =
        Layout::vertical([Constraint::Fill(1), Constraint::Length(HELP.len() as u16 + 2), Constraint::Fill(1)])
            .areas(area);
    let [_, boxed, _] =
        Layout::horizontal([Constraint::Fill(1), Constraint::Length(56), Constraint::Fill(1)]).areas(middle);
    frame.render_widget(Clear, boxed);
    let lines: Vec<Line> = HELP.iter().map(|l| Line::from(*l)).collect();
    frame.render_widget(Paragraph::new(lines).block(Block::bordered().title(" Keys ")), boxed);
}
