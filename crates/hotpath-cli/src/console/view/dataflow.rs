//! The Data flow tab: channels (with the sender → queue → receiver flow of the
//! selected channel), streams, futures, mutexes and rw-locks.

use ratatui::layout::Rect;
use ratatui::Frame;

use super::detail::Extra;
use super::section;
use crate::console::state::App;

pub(crate) fn draw(frame: &mut Frame<'_>, area: Rect, app: &mut App) {
    let extra = if app.current_view().section == "channels" { Extra::Flow } else { Extra::None };
    section::draw(frame, area, app, extra);
}
