//! Drawing. One file per screen (tab), sharing the section screen and widgets:
//!
//! - `functions`, `dataflow`, `io`, `threads`, `tokio`, `debug`: a file per tab whose
//!   views draw more than a table (Services shares `io`'s plain tables).
//! - `section`: a view's table and detail pane, or why there is no data.
//! - `table`, `detail`, `flow`, `tracker`: the sortable table, the selected row with
//!   its sparkline, a channel drawn as sender → queue → receiver, a debug tracker
//!   with its log records.
//! - `chrome`: tab and view bars, status line, help.

mod chrome;
mod dataflow;
mod debug;
mod detail;
mod flow;
mod functions;
mod io;
mod section;
mod table;
mod threads;
mod tokio;
mod tracker;

use ratatui::layout::{Constraint, Layout};
use ratatui::Frame;

use super::state::{App, Mode, Tab};

pub(crate) fn draw(frame: &mut Frame<'_>, app: &mut App) {
    app.regions = Default::default();
    let [tabs, views, body, status] =
        Layout::vertical([Constraint::Length(1), Constraint::Length(1), Constraint::Min(3), Constraint::Length(1)])
            .areas(frame.area());
    chrome::tabs(frame, tabs, app);
    chrome::views(frame, views, app);
    // The poller fetches logs only while a tracker or a logged row is shown.
    app.logs.follow(None);
    match app.tab {
        Tab::Functions => functions::draw(frame, body, app),
        Tab::DataFlow => dataflow::draw(frame, body, app),
        Tab::Io => io::draw(frame, body, app),
        Tab::Threads => threads::draw(frame, body, app),
        Tab::Tokio => tokio::draw(frame, body, app),
        Tab::Debug => debug::draw(frame, body, app),
        // A tab added to the model's table: its sections as generic tables.
        _ => io::draw(frame, body, app),
    }
    chrome::status(frame, status, app);
    if app.mode == Mode::Help {
        chrome::help(frame, frame.area());
    }
}

#[cfg(test)]
mod dataflow_tests;
#[cfg(test)]
mod inflight_tests;
#[cfg(test)]
mod logs_tests;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod typed_tests;
