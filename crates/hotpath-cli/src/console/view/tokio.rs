//! The Tokio tab: runtime metrics (workers, queues, tasks) when the program
//! collects them with `hotpath::tokio_runtime!()`.

use ratatui::layout::Rect;
use ratatui::Frame;

use super::section::{self, Extra};
use crate::console::state::App;

pub(crate) fn draw(frame: &mut Frame<'_>, area: Rect, app: &mut App) {
    section::draw(frame, area, app, Extra::None);
}
