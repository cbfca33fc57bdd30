//! Rows per section: one global limit, overridden per group of sections. A group is
//! `functions` for every function section, else the section's key, as the
//! `HOTPATH_<GROUP>_LIMIT` variables and the `<group>_limit` parameters name it.

use std::collections::BTreeMap;

use hotpath_model::{Section, Tab};

/// Default rows of the function sections and of the threads view; others show all.
const FUNCTIONS_DEFAULT: usize = 15;
const THREADS_DEFAULT: usize = 5;

/// Limits as configured; 0 shows every row.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Limits {
    /// Every section's limit, when set (`limit`, `HOTPATH_LIMIT`).
    pub(crate) global: Option<usize>,
    /// Per group, beating `global`.
    pub(crate) groups: BTreeMap<String, usize>,
}

/// The limit group of `section`.
pub(crate) fn group(section: Section) -> &'static str {
    let def = section.def();
    if def.tab == Tab::Functions {
        "functions"
    } else {
        def.key
    }
}

/// Every group, once, in table order. The debug trackers are never cut, so they have
/// no group: no `debug_limit`, no `HOTPATH_DEBUG_LIMIT`.
pub(crate) fn groups() -> Vec<&'static str> {
    let mut out: Vec<&'static str> = Vec::new();
    for section in Section::all().into_iter().filter(|s| *s != Section::Debug) {
        let g = group(section);
        if !out.contains(&g) {
            out.push(g);
        }
    }
    out
}

impl Limits {
    /// Rows of `section` to show.
    pub(crate) fn of(&self, section: Section) -> usize {
        // The trackers are few and asked for by name: never cut (as the seed system does).
        if section == Section::Debug {
            return 0;
        }
        let g = group(section);
        self.groups.get(g).copied().or(self.global).unwrap_or(match g {
            "functions" => FUNCTIONS_DEFAULT,
            "threads" => THREADS_DEFAULT,
            _ => 0,
        })
    }

    /// Sets every section's limit, forgetting per-group ones set before.
    pub(crate) fn set_all(&mut self, limit: usize) {
        self.groups.clear();
        self.global = Some(limit);
    }

    /// Sets one group's limit.
    pub(crate) fn set(&mut self, group: &str, limit: usize) {
        self.groups.insert(group.to_string(), limit);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_groups_and_precedence() {
        let mut l = Limits::default();
        assert_eq!((l.of(Section::FunctionsTiming), l.of(Section::Threads), l.of(Section::Channels)), (15, 5, 0));
        l.set("functions", 3);
        assert_eq!((l.of(Section::FunctionsAlloc), l.of(Section::Io)), (3, 0));
        l.set_all(7);
        assert_eq!((l.of(Section::FunctionsAlloc), l.of(Section::Io), l.of(Section::Threads)), (7, 7, 7));
        l.set("rw_locks", 0);
        assert_eq!(l.of(Section::RwLocks), 0);
        assert!(groups().contains(&"functions") && groups().contains(&"rw_locks"));
    }
}
