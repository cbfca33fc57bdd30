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
    let natural: Vec<u16> = (0..table.columns.len())
        .map(|i| {
            let longest = texts.iter().map(|r| r[i].chars().count()).chain([titles[i].chars().count()]).max();
            let longest = longest.unwrap_or(1) as u16;
            if i == 0 {
                longest.clamp(8, 40)
            } else {
                longest
            }
        })
        .collect();
    // Whole columns that fit, in order; the rest stay readable in the detail pane.
    let room = area.width.saturating_sub(2 + SELECTOR.chars().count() as u16);
    let mut visible = vec![0];
    let mut used = natural.first().copied().unwrap_or(0);
    for (i, w) in natural.iter().enumerate().skip(1) {
        if used + 1 + w <= room {
            used += 1 + w;
            visible.push(i);
        }
    }
    let widths: Vec<Constraint> = visible
        .iter()
        .map(|&i| if i == 0 { Constraint::Min(natural[0]) } else { Constraint::Length(natural[i]) })
        .collect();
    let header = Row::new(visible.iter().map(|&i| Cell::from(titles[i].as_str())))
        .style(Style::new().add_modifier(Modifier::BOLD).fg(Color::Cyan));
    let rows = texts.iter().map(|cells| {
        Row::new(visible.iter().map(|&i| {
            let cell = Cell::from(cells[i].as_str());
            if matches!(table.columns[i].kind, Kind::Rate | Kind::Busy) {
                cell.style(Style::new().fg(Color::Green))
            } else {
                cell
            }
        }))
    });
    let hidden = table.columns.len() - visible.len();
    let more = if hidden > 0 { format!(", {hidden} more columns in the detail pane") } else { String::new() };
    let block = Block::bordered().title(format!(" {} ({} rows{more}) ", view.title, table.rows.len()));
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
    app.regions.header = columns.iter().zip(&visible).map(|(r, &i)| (*r, i)).collect();
    let body = Rect { y: inner.y + 1, height: inner.height.saturating_sub(1), ..inner };
    app.regions.rows = Some((body, state.offset()));
}
