//! Reading the server's JSON without types: a section's lists of row objects, a
//! row's display name and identity, and its scalar fields by dotted path, each with
//! the unit `hotpath_model::Unit::of_field` guesses from its name. The guess is used
//! only for rows read without a model type (a section the model has no type for, or
//! another build's report); typed rows take units from `hotpath_model::RowMetrics`.

use hotpath_model::Unit;
use serde_json::Value;

/// How deep nested objects are flattened (`lock.wait.percentiles_ns.p50`).
const DEPTH: usize = 4;

/// One scalar of a row.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Field<'a> {
    /// Dotted path from the row (`lock.wait.avg_ns`).
    pub(crate) path: String,
    /// The last key of the path (`avg_ns`) and the one before it (`wait`).
    pub(crate) name: &'a str,
    pub(crate) parent: Option<&'a str>,
    pub(crate) value: &'a Value,
}

impl Field<'_> {
    /// The field's unit; `None` for text, flags and identity fields (`tid`, `line`).
    pub(crate) fn unit(&self) -> Option<Unit> {
        unit_of(self.name, self.parent, self.value)
    }
}

/// The unit of a value named `name` inside object `parent`; `None` when it is no
/// number or names rather than measures.
pub(crate) fn unit_of(name: &str, parent: Option<&str>, value: &Value) -> Option<Unit> {
    let n = value.as_number()?;
    Unit::of_field(name, parent, n.is_u64() || n.is_i64())
}

/// Every scalar of `value` with its dotted path, nested objects included.
pub(crate) fn flatten(value: &Value) -> Vec<Field<'_>> {
    fn walk<'a>(prefix: &str, parent: Option<&'a str>, value: &'a Value, depth: usize, out: &mut Vec<Field<'a>>) {
        let Some(object) = value.as_object() else { return };
        for (key, v) in object {
            let path = if prefix.is_empty() { key.clone() } else { format!("{prefix}.{key}") };
            match v {
                Value::Object(_) if depth < DEPTH => walk(&path, Some(key), v, depth + 1, out),
                v if is_scalar(v) => out.push(Field { path, name: key, parent, value: v }),
                _ => {}
            }
        }
    }
    let mut out = Vec::new();
    walk("", None, value, 1, &mut out);
    out
}

fn is_scalar(v: &Value) -> bool {
    matches!(v, Value::Number(_) | Value::String(_) | Value::Bool(_))
}

/// Lists of the model's sections that hold text, not rows (profile files written, the
/// heap's allow-list, functions Callgrind did not count): never a view, even empty.
const TEXT_LISTS: [&str; 3] = ["files", "ignore", "uncounted"];

/// Fields of `section` holding lists of row objects (`rows`, `runtimes`, `reads` and
/// `writes`, the heap's `functions`).
pub(crate) fn row_lists(section: &Value) -> Vec<String> {
    let Some(fields) = section.as_object() else { return Vec::new() };
    fields
        .iter()
        .filter(|(k, v)| {
            !TEXT_LISTS.contains(&k.as_str()) && v.as_array().is_some_and(|rows| rows.iter().all(Value::is_object))
        })
        .map(|(k, _)| k.clone())
        .collect()
}

/// The field naming a row: `name`, `label`, `thread` or `source`, if the row has one.
pub(crate) fn name_field(row: &Value) -> Option<&'static str> {
    let object = row.as_object()?;
    ["name", "label", "thread", "source"].into_iter().find(|k| object.get(*k).is_some_and(Value::is_string))
}

/// The display name of a row: its naming field, or its first text field.
pub(crate) fn row_name(row: &Value) -> Option<String> {
    let object = row.as_object()?;
    name_field(row)
        .and_then(|k| object.get(k))
        .or_else(|| object.values().find(|v| v.is_string()))?
        .as_str()
        .map(str::to_string)
}

/// What identifies each row across polls, which names do not: threads share names
/// (`tokio-runtime-worker`), so a thread is its `tid`; else an `id` or `index` (within
/// its `kind`, for sections mixing kinds: debug trackers); else the name with its
/// source location; else the name, numbered when repeated.
pub(crate) fn row_keys(rows: &[Value]) -> Vec<Option<String>> {
    let mut seen: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    rows.iter()
        .map(|row| {
            let base = identity(row)?;
            let n = seen.entry(base.clone()).or_insert(0);
            *n += 1;
            Some(if *n == 1 { base } else { format!("{base} #{n}") })
        })
        .collect()
}

fn identity(row: &Value) -> Option<String> {
    let kind = row.get("kind").and_then(Value::as_str).map(|k| format!("{k} ")).unwrap_or_default();
    for id in ["tid", "id", "index"] {
        match row.get(id) {
            Some(Value::Number(n)) => return Some(format!("{kind}{id} {n}")),
            Some(Value::String(s)) => return Some(format!("{kind}{id} {s}")),
            _ => {}
        }
    }
    let name = row_name(row)?;
    match (row.get("file").and_then(Value::as_str), row.get("line").and_then(Value::as_u64)) {
        (Some(file), Some(line)) => Some(format!("{name} @ {file}:{line}")),
        _ => Some(name),
    }
}

/// The value at a dotted path of a row.
pub(crate) fn lookup<'a>(row: &'a Value, path: &str) -> Option<&'a Value> {
    // Keys may hold dots themselves (`p99.9`): try the whole rest as one key first.
    let object = row.as_object()?;
    if let Some(v) = object.get(path) {
        return Some(v);
    }
    let (head, rest) = path.split_once('.')?;
    lookup(object.get(head)?, rest)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn lists_of_text_are_not_row_lists() {
        let heap = json!({"ignore": [], "files": ["a.pb.gz"], "rows": [], "functions": []});
        assert_eq!(row_lists(&heap), ["rows", "functions"]);
        let heap =
            json!({"ignore": ["lazy_static"], "files": [], "rows": [{"name": "a"}], "functions": [{"name": "f"}]});
        assert_eq!(row_lists(&heap), ["rows", "functions"]);
    }

    #[test]
    fn rows_are_identified_by_id_then_location_then_name() {
        let rows = [
            json!({"name": "tokio-runtime-worker", "tid": 11}),
            json!({"name": "tokio-runtime-worker", "tid": 12}),
            json!({"name": "app::f", "file": "a.rs", "line": 3}),
            json!({"label": "x"}),
            json!({"label": "x"}),
            json!({"count": 1}),
            json!({"kind": "val", "id": 0, "name": "user"}),
            json!({"kind": "gauge", "id": 0, "name": "depth"}),
        ];
        let keys = row_keys(&rows);
        assert_eq!(
            keys,
            [
                Some("tid 11"),
                Some("tid 12"),
                Some("app::f @ a.rs:3"),
                Some("x"),
                Some("x #2"),
                None,
                Some("val id 0"),
                Some("gauge id 0")
            ]
            .map(|k| k.map(str::to_string))
        );
    }

    #[test]
    fn fields_carry_their_name_parent_and_unit() {
        let row =
            json!({"name": "m", "tid": 4, "lock": {"wait": {"percentiles_ns": {"p99.9": 7}}}, "cpu_percent": 2.5});
        let fields = flatten(&row);
        let p = fields.iter().find(|f| f.name == "p99.9").unwrap();
        assert_eq!(
            (p.path.as_str(), p.parent, p.unit()),
            ("lock.wait.percentiles_ns.p99.9", Some("percentiles_ns"), Some(Unit::Nanoseconds))
        );
        assert_eq!(fields.iter().find(|f| f.name == "tid").unwrap().unit(), None);
        assert_eq!(fields.iter().find(|f| f.name == "cpu_percent").unwrap().unit(), Some(Unit::Percent));
        assert_eq!(lookup(&row, "lock.wait.percentiles_ns.p99.9"), Some(&json!(7)));
    }
}
