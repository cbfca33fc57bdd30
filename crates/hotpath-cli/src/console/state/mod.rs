//! What the console shows, independent of drawing: testable without a terminal.
//!
//! - `app`: the application state and how actions and polls change it.
//! - `tabs`: the tabs, their views and the section each view reads.
//! - `fields`, `labels`: the JSON read without types (row lists, row identity, fields
//!   with the `hotpath_model::Unit` their names suggest, for sections the model has no
//!   type for) and human labels for field paths.
//! - `table`: the table types; `build` picks `timing`, `io`, `threads`, `runtimes` or
//!   `typed` (sections read through the model's types) or `generic` (a section the
//!   model has no type for, or a report its type cannot read) to fill one.
//! - `history`: per-row rates over time, for the rate columns and sparklines.
//! - `logs`: the log records of the debug tracker selected in the Debug tab, or of a
//!   selected row that keeps `log = true` values.

mod app;
mod build;
mod fields;
mod generic;
mod history;
mod io;
mod labels;
mod logs;
mod runtimes;
mod table;
mod tabs;
mod threads;
mod timing;
mod typed;

pub(crate) use app::{Action, App, Link, Mode, Regions};
/// The table of a section, as the views build it (for the views' tests).
#[cfg(test)]
pub(crate) use build::table as build_table;
pub(crate) use fields::{flatten, row_lists};
pub(crate) use generic::{show_typed, show_value};
pub(crate) use history::{nested_key, History};
pub(crate) use labels::title_of;
pub(crate) use logs::{Wanted, LOGGED_SECTIONS};
pub(crate) use table::{Kind, Table, TableRow};
pub(crate) use tabs::{SubView, Tab, TabViews};
pub(crate) use timing::outlier_note;

/// Tabs of the console, for `--tab` (number keys select them).
pub(crate) const TAB_COUNT: i64 = Tab::ALL.len() as i64;
