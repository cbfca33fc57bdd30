//! Which sections a report shows: the grammar of `HOTPATH_REPORT`, `report = "..."`
//! and `HotpathGuardBuilder::report` (`all`, `auto`, names, `-name`), and
//! `sections`/`sections_exclude`.

use hotpath_model::{Report, Section, SECTIONS};

/// The sections a report shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SectionSpec {
    /// Every section with data, plus `include` (shown even when empty), minus `exclude`.
    Auto {
        /// Shown even without data.
        include: Vec<Section>,
        /// Never shown.
        exclude: Vec<Section>,
    },
    /// Exactly these, when they have data or not.
    Explicit(Vec<Section>),
}

impl Default for SectionSpec {
    fn default() -> Self {
        Self::Auto { include: Vec::new(), exclude: Vec::new() }
    }
}

impl SectionSpec {
    /// Parses `spec`; unknown names are reported (and skipped) in the returned list.
    pub fn parse(spec: &str) -> (Self, Vec<String>) {
        let mut unknown = Vec::new();
        let (mut all, mut auto) = (false, false);
        let (mut include, mut exclude) = (Vec::new(), Vec::new());
        for token in spec.split(',').map(str::trim).filter(|t| !t.is_empty()) {
            match token {
                "all" => all = true,
                "auto" => auto = true,
                _ => {
                    let (list, name) = match token.strip_prefix('-') {
                        Some(name) => (&mut exclude, name.trim()),
                        None => (&mut include, token),
                    };
                    match name.parse::<Section>() {
                        Ok(s) if !list.contains(&s) => list.push(s),
                        Ok(_) => {}
                        Err(_) => unknown.push(name.to_string()),
                    }
                }
            }
        }
        let spec = if all {
            Self::Explicit(Section::all().into_iter().filter(|s| !exclude.contains(s)).collect())
        } else if auto || !exclude.is_empty() || include.is_empty() {
            Self::Auto { include, exclude }
        } else {
            Self::Explicit(include)
        };
        (spec, unknown)
    }

    /// Whether `section` is to be collected at all.
    pub fn wants(&self, section: Section) -> bool {
        match self {
            Self::Auto { exclude, .. } => !exclude.contains(&section),
            Self::Explicit(list) => list.contains(&section),
        }
    }

    /// Keeps the sections the spec shows, adding empty ones the spec asks for by name.
    pub fn apply(&self, report: &mut Report) {
        let forced: &[Section] = match self {
            Self::Auto { include, .. } => include,
            Self::Explicit(list) => list,
        };
        for def in SECTIONS {
            if !self.wants(def.section) {
                report.remove(def.section);
            } else if forced.contains(&def.section) {
                report.ensure(def.section);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grammar() {
        let parse = |s: &str| SectionSpec::parse(s).0;
        assert_eq!(parse("auto"), SectionSpec::default());
        assert_eq!(parse(""), SectionSpec::default());
        assert_eq!(parse("channels,io,channels"), SectionSpec::Explicit(vec![Section::Channels, Section::Io]));
        assert_eq!(parse("auto,-threads"), SectionSpec::Auto { include: vec![], exclude: vec![Section::Threads] });
        assert_eq!(parse("-threads"), parse("auto,-threads"));
        assert_eq!(parse("auto,io"), SectionSpec::Auto { include: vec![Section::Io], exclude: vec![] });
        let SectionSpec::Explicit(all) = parse("all,-threads") else { panic!() };
        assert_eq!(all.len(), Section::all().len() - 1);
        assert!(!all.contains(&Section::Threads));
        assert_eq!(parse("functions_timing"), SectionSpec::Explicit(vec![Section::FunctionsTiming]));
        // As the tables title them: `rw-locks - ...`, `tokio-runtime - ...`.
        assert_eq!(parse("rw-locks,tokio-runtime"), parse("rw_locks,tokio_runtime"));
        assert_eq!(parse("rw-locks"), SectionSpec::Explicit(vec![Section::RwLocks]));
        let (spec, unknown) = SectionSpec::parse("functions-timing,bogus,-nope");
        assert_eq!(
            (spec, unknown),
            (SectionSpec::Explicit(vec![Section::FunctionsTiming]), vec!["bogus".into(), "nope".into()])
        );
    }
}
