//! The printed table of the `http` section.

use crate::format::{format_bytes, format_count, format_percent};
use crate::grid::{shown, titled, Table};
use crate::meta::Meta;
use crate::requests::{or_dash, StatusClasses};
use crate::stats::DurationStats;

use super::Http;

impl Http {
    /// The `http` table; a Route column appears when some row has one. Source is the
    /// innermost measured function that made the call (`-` where none is known).
    pub(crate) fn table(&self, meta: &Meta) -> String {
        let route = self.rows.iter().any(|r| r.route.is_some());
        let mut header: Vec<String> = vec!["Endpoint".into()];
        if route {
            header.push("Route".into());
        }
        header.push("Source".into());
        header.push("Calls".into());
        header.extend(StatusClasses::HEADER.map(String::from));
        header.push("Errors".into());
        header.extend(DurationStats::header("", meta));
        header.extend(DurationStats::total_header(meta));
        if !meta.untimed() {
            header.push("% Total".into());
        }
        header.push("Bytes".into());
        let mut table = Table::new(header).names(meta.name_width);
        for row in &self.rows {
            let mut cells = vec![row.endpoint.clone()];
            if route {
                cells.push(or_dash(row.route.as_ref()));
            }
            cells.push(or_dash(row.function.as_ref()));
            cells.push(format_count(row.calls));
            cells.extend(row.status.cells());
            cells.push(format_count(row.errors));
            cells.extend(row.latency.cells(meta));
            cells.extend(row.latency.total_cell(meta));
            if !meta.untimed() {
                cells.push(format_percent(row.latency.total_ns, self.total_ns));
            }
            cells.push(if row.sized_responses == 0 { "-".into() } else { format_bytes(row.response_bytes) });
            table.row(cells);
        }
        let summary = format!("{}, {} calls", shown(self.rows.len(), self.total_endpoints), format_count(self.calls));
        titled(
            "http",
            "Outgoing HTTP calls per endpoint; Errors = transport failures + status >= 400; times to the response head.",
            &summary,
            &table,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::super::HttpRow;
    use super::*;

    #[test]
    fn endpoints_with_optional_route_column() {
        let mut row =
            HttpRow { endpoint: "GET 127.0.0.1:{port}/users/{id}".into(), calls: 3, errors: 1, ..HttpRow::default() };
        row.status.count(200, 2);
        row.status.count(503, 1);
        row.latency.total_ns = 10;
        let mut section = Http { total_endpoints: 2, calls: 4, total_ns: 40, rows: vec![row] };
        let meta = Meta::default();
        let text = section.table(&meta);
        assert!(
            text.contains("| Endpoint                        | Source | Calls | 2xx | 3xx | 4xx | 5xx | Errors |"),
            "{text}"
        );
        assert!(!text.contains("Route"), "{text}");
        section.rows[0].route = Some("GET /orders".into());
        let text = section.table(&meta);
        assert!(
            text.contains(
                "| GET 127.0.0.1:{port}/users/{id} | GET /orders | -      | 3     | 2   | 0   | 0   | 1   | 1      |"
            ),
            "{text}"
        );
        assert!(text.contains("| Total | % Total | Bytes |") && text.contains("| 25.0%   | -     |"), "{text}");
    }
}
