//! The tabs of the console and the views inside each. A view names the report
//! section it reads; a section with several row lists (I/O reads and writes)
//! becomes one view per list.

use serde_json::Value;

use super::fields::row_lists;

/// The top-level tabs, in key order `1`..`5`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Tab {
    Functions,
    DataFlow,
    Io,
    Threads,
    Tokio,
}

impl Tab {
    pub(crate) const ALL: [Tab; 5] = [Tab::Functions, Tab::DataFlow, Tab::Io, Tab::Threads, Tab::Tokio];

    pub(crate) fn title(self) -> &'static str {
        match self {
            Tab::Functions => "Functions",
            Tab::DataFlow => "Data flow",
            Tab::Io => "I/O",
            Tab::Threads => "Threads",
            Tab::Tokio => "Tokio",
        }
    }

    pub(crate) fn index(self) -> usize {
        Tab::ALL.iter().position(|t| *t == self).unwrap_or(0)
    }

    /// `(view title, report section)` pairs of this tab.
    pub(crate) fn sections(self) -> &'static [(&'static str, &'static str)] {
        match self {
            Tab::Functions => {
                &[("Timing", "functions_timing"), ("Allocations", "functions_alloc"), ("CPU", "functions_cpu")]
            }
            Tab::DataFlow => &[
                ("Channels", "channels"),
                ("Streams", "streams"),
                ("Futures", "futures"),
                ("Mutexes", "mutexes"),
                ("RwLocks", "rw_locks"),
            ],
            Tab::Io => &[("I/O", "io")],
            Tab::Threads => &[("Threads", "threads")],
            Tab::Tokio => &[("Runtime", "tokio_runtime")],
        }
    }

    /// The views of this tab given the current report.
    pub(crate) fn views(self, report: Option<&Value>) -> Vec<SubView> {
        let mut out = Vec::new();
        for (title, section) in self.sections() {
            let lists = report.and_then(|r| r.get(*section)).map(row_lists).unwrap_or_default();
            if lists.len() > 1 {
                for list in lists {
                    out.push(SubView { title: format!("{title}: {list}"), section, list: Some(list) });
                }
            } else {
                out.push(SubView { title: (*title).to_string(), section, list: None });
            }
        }
        out
    }
}

/// One table the user can look at.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct SubView {
    pub(crate) title: String,
    pub(crate) section: &'static str,
    /// Which row list of the section, when it has several.
    pub(crate) list: Option<String>,
}

impl SubView {
    /// Identifies the view's sort and selection across refreshes.
    pub(crate) fn key(&self) -> String {
        format!("{}/{}", self.section, self.list.as_deref().unwrap_or(""))
    }
}
