//! The sortable table: header with the sort arrow, the selected row highlighted
//! and kept in view. Records where columns and rows were drawn, for mouse input.

use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::widgets::{Block, Cell, Row, Table as TableWidget, TableState};
use ratatui::Frame;

use crate::console::state::{App, Kind, SubView, Table};

const SELECTOR: &str = "▶ ";

pub(crate) fn draw(
    frame: &mut Frame<'_>,
    area: Rect,
    app: &mut App,
    view: &SubView,
    table: &Table,
    selected: Option<usize>,
) {
    let sort = app.sort_of(view);
    let titles: Vec<String> = table
        .columns
        .iter()
        .enumerate()
        .map(|(i, c)| match sort {
            Some((col, true)) if col == i => format!("{} ▼", c.title),
            Some((col, false)) if col == i => format!("{} ▲", c.title),
            _ => c.title.clone(),
        })
        .collect();
    let texts: Vec<Vec<String>> = table
        .rows
        .iter()
        .map(|r| r.cells.iter().zip(&table.columns).map(|(cell, c)| cell.show(c.kind)).collect())
        .collect();
    let widths: Vec<Constraint> = (0..table.columns.len())
        .map(|i| {
            let longest =
                texts.iter().map(|r| r[i].chars().count()).chain([titles[i].chars().count()]).max().unwrap_or(1);
            if i == 0 {
                Constraint::Min(longest.clamp(8, 48) as u16)
            } else {
                Constraint::Length(longest as u16)
            }
        })
        .collect();
    let header = Row::new(titles.iter().map(|t| Cell::from(t.as_str())))
        .style(Style::new().add_modifier(Modifier::BOLD).fg(Color::Cyan));
    let rows = texts.iter().map(|cells| {
        Row::new(cells.iter().zip(&table.columns).map(|(text, c)| {
            let cell = Cell::from(text.as_str());
            if c.kind == Kind::Rate {
                cell.style(Style::new().fg(Color::Green))
            } else {
                cell
            }
        }))
    });
    let block = Block::bordered().title(format!(" {} ({} rows) ", view.title, table.rows.len()));
    let inner = block.inner(area);
    let widget = TableWidget::new(rows, widths.clone())
        .header(header)
        .block(block)
        .row_highlight_style(Style::new().add_modifier(Modifier::REVERSED))
        .highlight_symbol(SELECTOR);
    let mut state = TableState::default().with_selected(selected);
    frame.render_stateful_widget(widget, area, &mut state);

    // Where things landed, for clicks: the header's columns and the body rows.
    let mut header_area = Rect { height: 1, ..inner };
    if selected.is_some() {
        let shift = SELECTOR.chars().count() as u16;
        header_area.x += shift;
        header_area.width = header_area.width.saturating_sub(shift);
    }
    let columns = Layout::horizontal(widths).spacing(1).split(header_area);
    app.regions.header = columns.iter().enumerate().map(|(i, r)| (*r, i)).collect();
    let body = Rect { y: inner.y + 1, height: inner.height.saturating_sub(1), ..inner };
    app.regions.rows = Some((body, state.offset()));
}
