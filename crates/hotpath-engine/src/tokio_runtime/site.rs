//! The `static` each `tokio_runtime!()` call owns: where it is and whether it has
//! registered a runtime yet.

use std::sync::atomic::{AtomicBool, Ordering};

/// One `tokio_runtime!()` call site. Created by the macro expansion.
pub struct TokioSite {
    file: &'static str,
    line: u32,
    label: Option<&'static str>,
    claimed: AtomicBool,
}

impl TokioSite {
    /// A call site at `file:line`, named `label` in reports when given.
    pub const fn new(file: &'static str, line: u32, label: Option<&'static str>) -> Self {
        Self { file, line, label, claimed: AtomicBool::new(false) }
    }

    pub(crate) fn file(&self) -> &'static str {
        self.file
    }

    pub(crate) fn line(&self) -> u32 {
        self.line
    }

    /// The label, or `file:line`.
    pub(crate) fn name(&self) -> String {
        self.label.map_or_else(|| format!("{}:{}", self.file, self.line), str::to_owned)
    }

    /// True for the first call only: a site monitors the first runtime it is given,
    /// so calling it again (in a loop, or once per request) costs one atomic swap.
    pub(crate) fn claim(&self) -> bool {
        !self.claimed.swap(true, Ordering::AcqRel)
    }

    /// Gives the claim back when registration failed, so a later call may try again.
    pub(crate) fn release(&self) {
        self.claimed.store(false, Ordering::Release);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_claims() {
        let site = TokioSite::new("src/main.rs", 12, None);
        assert_eq!(site.name(), "src/main.rs:12");
        assert!(site.claim());
        assert!(!site.claim());
        site.release();
        assert!(site.claim());
        assert_eq!(TokioSite::new("a.rs", 1, Some("api")).name(), "api");
    }
}
