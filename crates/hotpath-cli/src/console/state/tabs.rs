//! The tabs of the console and the views inside each. A view names the report
//! section it reads; a section with several row lists (I/O reads and writes)
//! becomes one view per list.

use hotpath_model::Section;
use serde_json::Value;

use super::fields::row_lists;

/// The top-level tabs: the model's, in key order `1`.., each showing the sections
/// the model's section table puts on it.
pub(crate) use hotpath_model::Tab;

/// What the console needs of a tab beyond the model's facts.
pub(crate) trait TabViews {
    /// Its position in [`Tab::ALL`].
    fn index(self) -> usize;
    /// `(view title, section)` pairs of this tab, from the section table.
    fn sections(self) -> Vec<(&'static str, Section)>;
    /// The views of this tab given the current report.
    fn views(self, report: Option<&Value>) -> Vec<SubView>;
}

impl TabViews for Tab {
    fn index(self) -> usize {
        Tab::ALL.iter().position(|t| *t == self).unwrap_or(0)
    }

    fn sections(self) -> Vec<(&'static str, Section)> {
        hotpath_model::SECTIONS.iter().filter(|d| d.tab == self).map(|d| (d.title, d.section)).collect()
    }

    fn views(self, report: Option<&Value>) -> Vec<SubView> {
        let mut out = Vec::new();
        for (title, section) in self.sections() {
            let lists = report.and_then(|r| r.get(section.key())).map(row_lists).unwrap_or_default();
            if lists.len() > 1 {
                for list in lists {
                    out.push(SubView { title: format!("{title}: {list}"), section, list: Some(list) });
                }
            } else {
                out.push(SubView { title: title.to_string(), section, list: None });
            }
        }
        out
    }
}

/// One table the user can look at.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct SubView {
    pub(crate) title: String,
    /// The section it shows; the special views are chosen by it.
    pub(crate) section: Section,
    /// Which row list of the section, when it has several.
    pub(crate) list: Option<String>,
}

impl SubView {
    /// Identifies the view's sort and selection across refreshes.
    pub(crate) fn key(&self) -> String {
        format!("{}/{}", self.section.key(), self.list.as_deref().unwrap_or(""))
    }
}
