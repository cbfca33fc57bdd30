//! The I/O tab: one view per row list of the `io` section (reads, writes).

use ratatui::layout::Rect;
use ratatui::Frame;

use super::detail::Extra;
use super::section;
use crate::console::state::App;

pub(crate) fn draw(frame: &mut Frame<'_>, area: Rect, app: &mut App) {
    section::draw(frame, area, app, Extra::None);
}
