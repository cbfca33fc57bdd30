//! `?limit=N&focus=...` on section endpoints, applied to any section's JSON: every
//! list of rows in the section is filtered by name and cut to the limit, so a new
//! section gets both without code of its own.

use serde_json::Value;

use hotpath_engine::options::Focus;

/// Parsed query parameters; unknown parameters are ignored.
#[derive(Debug, Default)]
pub(crate) struct Query {
    /// Rows per list; 0 keeps all. `None`: the configured limit.
    pub(crate) limit: Option<usize>,
    /// Keeps rows whose `name` contains the text or matches `/regex/`.
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

    /// Applies focus, then the limit (or `default_limit`), to every array of
    /// objects at the top of `section`.
    pub(crate) fn cut(&self, mut section: Value, default_limit: usize) -> Value {
        let limit = self.limit.unwrap_or(default_limit);
        let Some(fields) = section.as_object_mut() else { return section };
        for value in fields.values_mut() {
            let Some(rows) = value.as_array_mut().filter(|rows| rows.iter().all(Value::is_object)) else { continue };
            if let Some(focus) = &self.focus {
                rows.retain(|row| row.get("name").and_then(Value::as_str).is_some_and(|n| focus.matches(n)));
            }
            if limit > 0 {
                rows.truncate(limit);
            }
        }
        section
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn names(v: &Value) -> Vec<&str> {
        v["rows"].as_array().unwrap().iter().map(|r| r["name"].as_str().unwrap()).collect()
    }

    #[test]
    fn limit_and_focus_apply_to_every_row_list() {
        let section =
            json!({"total": 3, "rows": [{"name": "a::x"}, {"name": "a::y"}, {"name": "b::x"}], "tags": [1, 2]});
        let q = Query::parse("limit=2").unwrap();
        assert_eq!(names(&q.cut(section.clone(), 10)), ["a::x", "a::y"]);
        let q = Query::parse("focus=%2F%3A%3Ax%24%2F&limit=0").unwrap();
        assert_eq!(names(&q.cut(section.clone(), 1)), ["a::x", "b::x"]);
        let q = Query::parse("focus=b%3A%3A").unwrap();
        let cut = q.cut(section.clone(), 0);
        assert_eq!(names(&cut), ["b::x"]);
        assert_eq!(cut["tags"], json!([1, 2]), "lists that are not rows stay whole");
        assert_eq!(names(&Query::default().cut(section, 1)), ["a::x"], "configured limit by default");
    }

    #[test]
    fn bad_parameters_are_errors() {
        assert!(Query::parse("limit=ten").unwrap_err().contains("limit=\"ten\""));
        assert!(Query::parse("focus=/(/").unwrap_err().contains("not a valid regex"));
        assert!(Query::parse("other=1&&x").is_ok());
    }
}
