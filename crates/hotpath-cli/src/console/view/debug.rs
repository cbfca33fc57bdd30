//! The Debug tab: the `dbg!`, `val!` and `gauge!` trackers in one table; the detail
//! pane of the selected one is `tracker.rs`. Another section on this tab gets the
//! plain detail pane.

use ratatui::layout::Rect;
use ratatui::Frame;

use hotpath_model::Section;

use super::detail::Extra;
use super::section;
use crate::console::state::App;

pub(crate) fn draw(frame: &mut Frame<'_>, area: Rect, app: &mut App) {
    let extra = if app.current_view().section == Section::Debug { Extra::Tracker } else { Extra::None };
    section::draw(frame, area, app, extra);
}
