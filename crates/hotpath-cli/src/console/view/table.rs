//! The sortable table: header with the sort arrow, the selected row highlighted
//! and kept in view. The name column is as wide as its longest name (8 to 40), never
//! wider: room the columns leave stays at the right, not in a wide empty name column.
//! Tables wider than their area keep whole columns (never a cut
//! title): the name column shrinks first (long names end in `…`), then columns
//! that do not fit are left out and `<` / `>` scroll through them, the name column
//! staying in place. Records where columns and rows were drawn, for mouse input.

use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::widgets::{Block, Cell, Row, Table as TableWidget, TableState};
use ratatui::Frame;

use crate::console::state::{App, SubView, Table};

const SELECTOR: &str = "▶ ";
/// The name column shrinks down to this width before columns are left out.
const MIN_NAME: u16 = 16;

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
            let longest = texts.iter().map(|r| width(&r[i])).chain([width(&titles[i])]).max().unwrap_or(1);
            if i == 0 {
                longest.clamp(8, 40)
            } else {
                longest
            }
        })
        .collect();
    let room = area.width.saturating_sub(2 + width(SELECTOR));
    let last = table.columns.len().saturating_sub(1);
    app.clamp_scroll(view, last.saturating_sub(1));
    let scroll = app.scroll_of(view);
    let (name_width, visible) = fit(&natural, room, scroll);
    let widths: Vec<Constraint> =
        visible.iter().map(|&i| Constraint::Length(if i == 0 { name_width } else { natural[i] })).collect();
    let header = Row::new(visible.iter().map(|&i| Cell::from(titles[i].clone())))
        .style(Style::new().add_modifier(Modifier::BOLD).fg(Color::Cyan));
    let rows = texts.iter().map(|cells| {
        Row::new(visible.iter().map(|&i| {
            let text = if i == 0 { ellipsis(&cells[0], name_width) } else { cells[i].clone() };
            let cell = Cell::from(text);
            if table.columns[i].kind.is_rate() {
                cell.style(Style::new().fg(Color::Green))
            } else {
                cell
            }
        }))
    });
    let hidden = table.columns.len() - visible.len();
    let more = match (hidden, scroll) {
        (0, 0) => String::new(),
        (n, 0) => format!(", {n} more columns: > shows them"),
        (n, s) => format!(", {n} more columns (scrolled {s}): < > scroll"),
    };
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
        let shift = width(SELECTOR);
        header_area.x += shift;
        header_area.width = header_area.width.saturating_sub(shift);
    }
    let columns = Layout::horizontal(widths).spacing(1).split(header_area);
    app.regions.header = columns.iter().zip(&visible).map(|(r, &i)| (*r, i)).collect();
    let body = Rect { y: inner.y + 1, height: inner.height.saturating_sub(1), ..inner };
    app.regions.rows = Some((body, state.offset()));
}

/// The name column's width and the columns shown: the name, then from column
/// `1 + scroll` on, every whole column that fits, in order.
fn fit(natural: &[u16], room: u16, scroll: usize) -> (u16, Vec<usize>) {
    let Some(&name) = natural.first() else { return (0, Vec::new()) };
    let rest = natural.iter().enumerate().skip(1 + scroll);
    let wanted: u16 = rest.clone().map(|(_, w)| w + 1).sum();
    // Give the name column what the others leave, but no less than MIN_NAME.
    let name = name.min(room.saturating_sub(wanted).max(MIN_NAME.min(name)));
    let mut visible = vec![0];
    let mut used = name;
    for (i, w) in rest {
        if used + 1 + w <= room {
            used += 1 + w;
            visible.push(i);
        }
    }
    // What the columns shown leave goes back to the name, up to its natural width.
    let name = natural[0].min(name + room.saturating_sub(used));
    (name, visible)
}

fn width(text: &str) -> u16 {
    text.chars().count() as u16
}

/// `text` cut to `max` characters, ending in `…` when cut.
fn ellipsis(text: &str, max: u16) -> String {
    if width(text) <= max {
        return text.to_string();
    }
    let kept: String = text.chars().take(usize::from(max.saturating_sub(1))).collect();
    format!("{kept}…")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_name_shrinks_before_columns_go_and_scrolling_moves_the_window() {
        // Name 40, six columns of 9: 40 + 6 × 10 = 100.
        let natural = [40, 9, 9, 9, 9, 9, 9];
        assert_eq!(fit(&natural, 100, 0), (40, vec![0, 1, 2, 3, 4, 5, 6]));
        assert_eq!(fit(&natural, 80, 0), (20, vec![0, 1, 2, 3, 4, 5, 6]));
        // Name 16 + four columns = 56: the 4 left over go back to the name.
        assert_eq!(fit(&natural, 60, 0), (20, vec![0, 1, 2, 3, 4]));
        assert_eq!(fit(&natural, 60, 2), (20, vec![0, 3, 4, 5, 6]));
        assert_eq!(ellipsis("app::module::function", 10), "app::modu…");
        assert_eq!(ellipsis("short", 10), "short");
    }
}
