//! The Debug tab: the `dbg!`, `val!` and `gauge!` trackers in one table; the detail
//! pane of the selected one is `tracker.rs`.

use ratatui::layout::Rect;
use ratatui::Frame;

use super::detail::Extra;
use super::section;
use crate::console::state::App;

pub(crate) fn draw(frame: &mut Frame<'_>, area: Rect, app: &mut App) {
    section::draw(frame, area, app, Extra::Tracker);
}
