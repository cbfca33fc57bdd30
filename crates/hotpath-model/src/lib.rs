//! The report model of hotpath: one typed snapshot that every sink renders.
//!
//! The engine builds a [`Report`] from its recorders; the table printer, the JSON
//! writer, the live HTTP endpoints, `/metrics`, MCP, the console and `hotpath compare`
//! all read the same types. Values are raw integers (nanoseconds, bytes, counts); only
//! the printers format them for humans. Sections are declared once, in the table in
//! `report.rs` ([`SECTIONS`]); each lives in a folder under `sections/` with its data
//! types (`mod.rs`), its printed table (`table.rs`) and its metric families and row
//! access (`metrics.rs`). The JSON form is versioned by [`SCHEMA_VERSION`] and
//! documented in `docs/JSON_SCHEMA.md`.

#![deny(missing_docs)]

mod buckets;
mod cells;
mod derefs;
mod estimate;
mod export;
mod format;
mod grid;
mod meta;
mod percentiles;
mod render;
mod report;
mod requests;
mod row_metrics;
mod section;
pub mod sections;
mod stats;
mod timeline_meta;
mod units;

pub use buckets::{exponential_index, exponential_upper, Buckets, BUCKET_BOUNDS_NS, EXPONENTIAL_SCHEMA};
pub use estimate::{DurationEstimate, Estimate, Overhead};
pub use export::{Families, Family, MetricKind, Sample, Series, RESERVED_LABELS};
pub use format::{
    format_bytes, format_count, format_duration_ns, format_percent, format_percent_value, format_seconds, short_name,
};
pub use grid::Table;
pub use meta::Meta;
pub use percentiles::{percentile_label, Percentiles};
pub use render::{render_table, render_table_parts};
pub use report::{Collectors, Report, ReportError, Section, SectionDef, LIMIT_GROUPS, SCHEMA_VERSION, SECTIONS};
pub use requests::{RequestAlloc, RouteScope, StatusClasses};
pub use row_metrics::{push_judged, NamedMetrics, RowMetric, RowMetrics};
pub use section::{keep_rows, visit_rows, LimitGroup, SectionData, Tab};
pub use sections::channels::ChannelRow;
pub use sections::debug::{DbgRow, DebugLog, DebugLogs, DebugRow, GaugeRow, LoggedRow, RowLogs, TrackerKind, ValRow};
pub use sections::functions_alloc::FunctionAlloc;
pub use sections::functions_cpu::FunctionCpu;
pub use sections::functions_icount::FunctionIcount;
pub use sections::functions_timing::FunctionTiming;
pub use sections::futures::FutureRow;
pub use sections::http::HttpRow;
pub use sections::io::{IoControl, IoRow, IoTransfer};
pub use sections::mutexes::MutexRow;
pub use sections::rw_locks::RwLockRow;
pub use sections::server::ServerRow;
pub use sections::sql::SqlRow;
pub use sections::streams::StreamRow;
pub use sections::threads::{AllocTotals, ThreadRow};
pub use sections::tokio_runtime::{TokioFlag, TokioPoint, TokioRuntime, TokioWorker};
pub use sections::types::*;
pub use stats::{DurationStats, LockTiming};
pub use timeline_meta::{TimelineMeta, TraceFile};
pub use units::{Judging, Unit};
