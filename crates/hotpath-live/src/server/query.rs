//! `?limit=N&focus=...` on any section endpoint and on `/report`: rows are kept by
//! name and cut to the limit through the section's typed row access, so a new
//! section gets both without code of its own.

use hotpath_engine::options::Focus;
use hotpath_model::{Report, SECTIONS};

/// Parsed query parameters; unknown parameters are ignored.
#[derive(Debug, Default)]
pub(crate) struct Query {
    /// Rows per section; 0 keeps all. `None`: the configured limit.
    pub(crate) limit: Option<usize>,
    /// Keeps rows whose name contains the text or matches `/regex/`.
    pub(crate) focus: Option<Focus>,
}

impl Query {
    pub(crate) fn parse(raw: &str) -> Result<Self, String> {
        let mut query = Self::default();
        for (key, value) in form_urlencoded::parse(raw.as_bytes()) {
            match key.as_ref() {
                "limit" => {
                    let n =
                        value.trim().parse().map_err(|_| format!("limit={value:?} is not a row count (0 = all)"))?;
                    query.limit = Some(n);
                }
                "focus" => query.focus = Some(value.parse().map_err(|p| format!("focus={value:?} {p}"))?),
                _ => {}
            }
        }
        Ok(query)
    }

    /// Applies focus, then the limit (or `default_limit`), to every section of `report`.
    pub(crate) fn cut(&self, report: &mut Report, default_limit: usize) {
        let limit = self.limit.unwrap_or(default_limit);
        for def in SECTIONS {
            let Some(section) = report.section_mut(def.section) else { continue };
            let mut keep: Vec<usize> = section
                .row_names()
                .iter()
                .enumerate()
                .filter(|(_, name)| self.focus.as_ref().is_none_or(|f| f.matches(name)))
                .map(|(i, _)| i)
                .collect();
            if limit > 0 {
                keep.truncate(limit);
            }
            section.keep_rows(&keep);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hotpath_model::{FunctionTiming, FunctionsTiming, Section};

    fn report() -> Report {
        let mut r = Report::default();
        let mut section = FunctionsTiming::default();
        section.rows = ["a::x", "a::y", "b::x"]
            .into_iter()
            .map(|n| {
                let mut row = FunctionTiming::default();
                row.name = n.into();
                row
            })
            .collect();
        r.functions_timing = Some(section);
        r
    }

    fn names(r: &Report) -> Vec<String> {
        r.section(Section::FunctionsTiming).unwrap().row_names().into_iter().map(String::from).collect()
    }

    #[test]
    fn limit_and_focus_apply_to_rows() {
        let cut = |q: &str, default| {
            let mut r = report();
            Query::parse(q).unwrap().cut(&mut r, default);
            names(&r)
        };
        assert_eq!(cut("limit=2", 10), ["a::x", "a::y"]);
        assert_eq!(cut("focus=%2F%3A%3Ax%24%2F&limit=0", 1), ["a::x", "b::x"]);
        assert_eq!(cut("focus=b%3A%3A", 0), ["b::x"]);
        assert_eq!(cut("", 1), ["a::x"], "configured limit by default");
    }

    #[test]
    fn bad_parameters_are_errors() {
        assert!(Query::parse("limit=ten").unwrap_err().contains("limit=\"ten\""));
        assert!(Query::parse("focus=/(/").unwrap_err().contains("not a valid regex"));
        assert!(Query::parse("other=1&&x").is_ok());
    }
}
