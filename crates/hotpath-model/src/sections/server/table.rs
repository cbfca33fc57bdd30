//! The printed table of the `server` section.

use crate::format::{format_count, format_percent};
use crate::grid::{shown, titled, Table};
use crate::meta::Meta;
use crate::requests::{RequestAlloc, StatusClasses};
use crate::stats::DurationStats;

use super::Server;

impl Server {
    /// The `server` table. Scope and allocation columns appear when some row has them.
    pub(crate) fn table(&self, meta: &Meta) -> String {
        let scope = self.rows.iter().any(|r| r.scope.as_ref().is_some_and(|s| s.requests > 0));
        let alloc = self.rows.iter().any(|r| r.alloc.is_some());
        let mut header: Vec<String> = vec!["Route".into(), "Requests".into()];
        header.extend(StatusClasses::HEADER.map(String::from));
        header.extend(["In flight".to_string(), "Max".into()]);
        header.extend(DurationStats::header("", meta));
        header.extend(DurationStats::total_header(meta));
        let timed = !meta.untimed();
        if timed {
            header.push("% Total".into());
        }
        if scope && timed {
            header.extend(["SQL/req", "SQL time/req", "HTTP/req", "HTTP time/req", "Fn time/req"].map(String::from));
        } else if scope {
            header.extend(["SQL/req", "HTTP/req"].map(String::from));
        }
        if alloc {
            header.extend(["Alloc/req".to_string(), "Allocs/req".into()]);
        }
        let mut table = Table::new(header).names(meta.name_width);
        for row in &self.rows {
            let mut cells = vec![row.name.clone(), format_count(row.requests)];
            cells.extend(row.status.cells());
            cells.extend([format_count(row.in_flight), format_count(row.in_flight_max)]);
            cells.extend(row.latency.cells(meta));
            cells.extend(row.latency.total_cell(meta));
            if timed {
                cells.push(format_percent(row.latency.total_ns, self.total_ns));
            }
            if scope {
                let s = row.scope.clone().unwrap_or_default();
                if timed {
                    cells.extend([
                        s.per_request_count(s.sql_queries),
                        s.per_request_ns(s.sql_ns),
                        s.per_request_count(s.http_calls),
                        s.per_request_ns(s.http_ns),
                        s.per_request_ns(s.function_ns),
                    ]);
                } else {
                    cells.extend([s.per_request_count(s.sql_queries), s.per_request_count(s.http_calls)]);
                }
            }
            if alloc {
                cells.extend(RequestAlloc::cells(row.alloc.as_ref()));
            }
            table.row(cells);
        }
        let summary =
            format!("{}, {} requests", shown(self.rows.len(), self.total_routes), format_count(self.requests));
        titled("server", "HTTP requests served, per route and method; times to the response head.", &summary, &table)
    }
}

#[cfg(test)]
mod tests {
    use super::super::ServerRow;
    use super::*;
    use crate::percentiles::Percentiles;
    use crate::requests::RouteScope;

    #[test]
    fn routes_with_status_classes_and_scope() {
        let mut row =
            ServerRow { name: "GET /users/{id}".into(), requests: 4, in_flight_max: 2, ..ServerRow::default() };
        row.status.count(200, 3);
        row.status.count(404, 1);
        row.latency = DurationStats {
            count: 4,
            total_ns: 8_000,
            avg_ns: 2_000,
            max_ns: 3_000,
            percentiles_ns: Percentiles(vec![(50.0, 2_000)]),
            buckets: None,
            estimate: None,
        };
        row.scope = Some(RouteScope { requests: 4, sql_queries: 8, sql_ns: 4_000, ..RouteScope::default() });
        let section = Server { total_routes: 1, requests: 4, total_ns: 16_000, route_scope: true, rows: vec![row] };
        let text = section.table(&Meta { percentiles: vec![50.0], ..Meta::default() });
        assert!(text.starts_with("server - "), "{text}");
        assert!(text.contains("(1 total, 4 requests)"), "{text}");
        assert!(text.contains("| Route           | Requests | 2xx | 3xx | 4xx | 5xx |"), "{text}");
        assert!(text.contains("| GET /users/{id} | 4        | 3   | 0   | 1   | 0   | 0         | 2   |"), "{text}");
        assert!(text.contains("| Total   | % Total | SQL/req | SQL time/req |"), "{text}");
        assert!(text.contains("| 8.00 µs | 50.0%   |"), "{text}");
        assert!(text.contains("| 2       | 1.00 µs      |"), "{text}");
        assert!(!text.contains("Alloc/req"), "{text}");
        // Under Callgrind: counts only.
        let meta = Meta { percentiles: vec![50.0], clock: crate::meta::FROZEN_CLOCK.into(), ..Meta::default() };
        let text = section.table(&meta);
        let header = text.lines().find(|l| l.starts_with("| Route")).unwrap();
        assert_eq!(
            header.split('|').map(str::trim).filter(|c| !c.is_empty()).collect::<Vec<_>>(),
            ["Route", "Requests", "2xx", "3xx", "4xx", "5xx", "In flight", "Max", "SQL/req", "HTTP/req"],
            "{text}"
        );
        assert!(!text.contains(" µs") && !text.contains(" ns"), "{text}");
    }
}
