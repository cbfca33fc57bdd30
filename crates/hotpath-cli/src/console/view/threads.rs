//! The Threads tab: per-thread CPU and memory, with the process figures of the
//! section (RSS, allocation totals) in the summary line.

use ratatui::layout::Rect;
use ratatui::Frame;

use super::detail::Extra;
use super::section;
use crate::console::state::App;

pub(crate) fn draw(frame: &mut Frame<'_>, area: Rect, app: &mut App) {
    section::draw(frame, area, app, Extra::None);
}
