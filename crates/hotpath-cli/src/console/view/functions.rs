//! The Functions tab: timing (typed table with calls/s, percentiles, total and
//! self time), allocations and CPU samples (generic tables when served).

use ratatui::layout::Rect;
use ratatui::Frame;

use super::detail::Extra;
use super::section;
use crate::console::state::App;

pub(crate) fn draw(frame: &mut Frame<'_>, area: Rect, app: &mut App) {
    section::draw(frame, area, app, Extra::None);
}
