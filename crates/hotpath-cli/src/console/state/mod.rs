//! What the console shows, independent of drawing: testable without a terminal.
//!
//! - `app`: the application state and how actions and polls change it.
//! - `tabs`: the tabs, their views and the section each view reads.
//! - `table`: a section's rows as a sortable table (typed for functions timing).
//! - `generic`: any other section, read from its JSON alone.
//! - `history`: per-row rates over time, for the rate columns and sparklines.

mod app;
mod generic;
mod history;
mod table;
mod tabs;

pub(crate) use app::{Action, App, Link, Mode, Regions};
pub(crate) use generic::{flatten, row_lists, show_value};
pub(crate) use history::History;
pub(crate) use table::{Kind, Table, TableRow};
pub(crate) use tabs::{SubView, Tab};
