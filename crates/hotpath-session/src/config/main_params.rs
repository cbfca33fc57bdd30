//! Interim stubs of the `#[hotpath::main]` parameters the macro passes besides the ones
//! in `mod.rs`: `report = ".."` and the per-section row limits. They only store the
//! values; the session does not read them yet (the lead wires them into the section
//! selection and limits).

use super::MainConfig;

/// `report` and the per-section limits of `#[hotpath::main]`, as given.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct MainParams {
    pub(crate) report: Option<&'static str>,
    pub(crate) functions_limit: Option<usize>,
    pub(crate) channels_limit: Option<usize>,
    pub(crate) streams_limit: Option<usize>,
    pub(crate) futures_limit: Option<usize>,
    pub(crate) threads_limit: Option<usize>,
    pub(crate) rw_locks_limit: Option<usize>,
    pub(crate) mutexes_limit: Option<usize>,
}

impl MainParams {
    pub(crate) const fn new() -> Self {
        Self {
            report: None,
            functions_limit: None,
            channels_limit: None,
            streams_limit: None,
            futures_limit: None,
            threads_limit: None,
            rw_locks_limit: None,
            mutexes_limit: None,
        }
    }
}

impl MainConfig {
    /// Sections to report: `all`, `auto`, names and `-name`s, comma-separated (as
    /// `HOTPATH_REPORT`; the macro checked the spelling).
    pub const fn report(mut self, spec: &'static str) -> Self {
        self.params.report = Some(spec);
        self
    }

    /// Rows of the functions sections; 0 shows all.
    pub const fn functions_limit(mut self, limit: usize) -> Self {
        self.params.functions_limit = Some(limit);
        self
    }

    /// Rows of the channels section; 0 shows all.
    pub const fn channels_limit(mut self, limit: usize) -> Self {
        self.params.channels_limit = Some(limit);
        self
    }

    /// Rows of the streams section; 0 shows all.
    pub const fn streams_limit(mut self, limit: usize) -> Self {
        self.params.streams_limit = Some(limit);
        self
    }

    /// Rows of the futures section; 0 shows all.
    pub const fn futures_limit(mut self, limit: usize) -> Self {
        self.params.futures_limit = Some(limit);
        self
    }

    /// Rows of the threads section; 0 shows all.
    pub const fn threads_limit(mut self, limit: usize) -> Self {
        self.params.threads_limit = Some(limit);
        self
    }

    /// Rows of the rw_locks section; 0 shows all.
    pub const fn rw_locks_limit(mut self, limit: usize) -> Self {
        self.params.rw_locks_limit = Some(limit);
        self
    }

    /// Rows of the mutexes section; 0 shows all.
    pub const fn mutexes_limit(mut self, limit: usize) -> Self {
        self.params.mutexes_limit = Some(limit);
        self
    }

    /// What the stubs above stored (read by tests until the session uses them).
    #[cfg(test)]
    pub(crate) fn params(&self) -> MainParams {
        self.params
    }
}

#[cfg(test)]
mod tests {
    use super::super::MainConfig;

    #[test]
    fn parameters_are_stored() {
        let config =
            MainConfig::new("app::main").report("functions-timing,-threads").functions_limit(3).mutexes_limit(0);
        let params = config.params();
        assert_eq!(params.report, Some("functions-timing,-threads"));
        assert_eq!((params.functions_limit, params.mutexes_limit, params.threads_limit), (Some(3), Some(0), None));
    }
}
