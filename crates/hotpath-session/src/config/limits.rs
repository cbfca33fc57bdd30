//! Rows per section: one global limit, overridden per group of sections. The groups,
//! their defaults and which sections each limits come from the section list
//! (`hotpath-sections`), as do the `HOTPATH_<GROUP>_LIMIT` variables and `<group>_limit` methods.

use std::collections::BTreeMap;

use hotpath_model::{Section, LIMIT_GROUPS};

/// Limits as configured; 0 shows every row.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Limits {
    /// Every section's limit, when set (`limit`, `HOTPATH_LIMIT`).
    pub(crate) global: Option<usize>,
    /// Per group, beating `global`.
    pub(crate) groups: BTreeMap<String, usize>,
}

/// The limit group of `section` (from the section list); `None` for the debug
/// trackers, which are few, asked for by name and never cut (as the seed system does).
pub(crate) fn group(section: Section) -> Option<&'static str> {
    section.def().limit_group
}

/// Every group, once, in table order.
pub(crate) fn groups() -> Vec<&'static str> {
    LIMIT_GROUPS.iter().map(|g| g.name).collect()
}

impl Limits {
    /// Rows of `section` to show.
    pub(crate) fn of(&self, section: Section) -> usize {
        let Some(g) = group(section) else { return 0 };
        let default = || LIMIT_GROUPS.iter().find(|d| d.name == g).map_or(0, |d| d.default);
        self.groups.get(g).copied().or(self.global).unwrap_or_else(default)
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
