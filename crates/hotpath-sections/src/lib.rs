//! The one list of the report's sections and of the row-limit groups. Nothing else
//! in hotpath lists them: every crate that needs them expands [`sections!`] with a
//! macro of its own, which takes what it needs and ignores the rest.
//!
//! - `hotpath-model`: the `Section` enum, `SECTIONS`, the `Report` fields, the
//!   collectors' trait and `LIMIT_GROUPS` (`section_table!` in `section.rs`).
//! - `hotpath-macros`: the names `report = "..."` accepts and the `*_limit`
//!   parameters of `#[hotpath::main]`.
//! - `hotpath` (the facade): `Section` with the `hotpath` feature off, and the
//!   builder's limit methods in both modes.
//! - `hotpath-session`: `MainConfig`'s limit methods; the `HOTPATH_<GROUP>_LIMIT`
//!   variables come from the model's `LIMIT_GROUPS`.
//!
//! A section is one entry of `sections`: its `Section` variant, its `Report` field and
//! type (named in the model crate), its name in reports and `HOTPATH_REPORT`, its
//! console title and tab, its limit group (`None`: never cut), whether `compare`
//! compares it, what it shows and why a live snapshot may lack it. A limit group is one
//! entry of `limits`: the method and parameter name, the group as the variables and
//! `MainConfig::group_limit` name it, its default row count (0 shows all) and what it
//! limits.
//!
//! Beside the list, one small syntax both the macros and the session check:
//! [`duration_ns`] (`timeline_over = "50ms"`, `HOTPATH_TIMELINE_TRIGGER`).
#![no_std]

mod budget;
mod duration;
pub use budget::{budget_fraction, valid_budget, BUDGET_PROBLEM};
pub use duration::duration_ns;

/// Expands `$callback! { sections { ... } limits { ... } }` with the list (see the
/// crate docs for the grammar).
#[macro_export]
macro_rules! sections {
    ($callback:ident) => {
        $callback! {
            sections {
                /// Time spent in measured functions and blocks.
                FunctionsTiming => functions_timing: FunctionsTiming, "functions-timing", "Timing", Functions,
                    limit: Some("functions"), compared: true,
                    about: "calls, durations and self time of measured functions",
                    absent: "no measured function has completed a call yet";
                /// Heap allocations of measured functions (`hotpath-alloc`).
                FunctionsAlloc => functions_alloc: FunctionsAlloc, "functions-alloc", "Allocations", Functions,
                    limit: Some("functions"), compared: true,
                    about: "bytes and allocations per call of measured functions",
                    absent: "allocation profiling is off (hotpath-alloc feature) or nothing was allocated yet";
                /// CPU samples of measured functions (`hotpath-cpu`).
                FunctionsCpu => functions_cpu: FunctionsCpu, "functions-cpu", "CPU", Functions,
                    limit: Some("functions"), compared: false,
                    about: "sampled CPU time of measured functions, self and inclusive",
                    absent: "CPU sampling is off (hotpath-cpu feature) or no sample was taken yet";
                /// Instructions of measured functions under Callgrind (`hotpath-callgrind`).
                FunctionsIcount => functions_icount: FunctionsIcount, "functions-icount", "Instructions", Functions,
                    limit: Some("functions"), compared: true,
                    about: "instructions executed per call of measured functions, under valgrind --tool=callgrind",
                    absent: "instruction counting is off (hotpath-callgrind feature) or the program is not running under Callgrind";
                /// Live heap by allocation stack, from sampled allocations (`hotpath-heap`).
                Heap => heap: Heap, "heap", "Heap", Functions,
                    limit: Some("heap"), compared: false,
                    about: "live bytes and objects per allocation stack, estimated from sampled allocations, with 95% intervals; at exit, what main left allocated",
                    absent: "heap sampling is off (hotpath-heap feature) or no sampled allocation is live";
                /// `channel!` sites.
                Channels => channels: Channels, "channels", "Channels", DataFlow,
                    limit: Some("channels"), compared: true,
                    about: "messages, queue length, blocked senders and latency of channels",
                    absent: "no channel! wrapper was used yet";
                /// `stream!` sites.
                Streams => streams: Streams, "streams", "Streams", DataFlow,
                    limit: Some("streams"), compared: true,
                    about: "instances, items and time per item of streams",
                    absent: "no stream! wrapper was used yet";
                /// `future!` sites and measured async functions.
                Futures => futures: Futures, "futures", "Futures", DataFlow,
                    limit: Some("futures"), compared: true,
                    about: "polls, busy and wall time, cancellations of futures",
                    absent: "no future! wrapper or measured async function was used yet";
                /// `mutex!` sites.
                Mutexes => mutexes: Mutexes, "mutexes", "Mutexes", DataFlow,
                    limit: Some("mutexes"), compared: true,
                    about: "acquisitions, contention, wait and hold time of mutexes",
                    absent: "no mutex! wrapper was used yet";
                /// `rw_lock!` sites.
                RwLocks => rw_locks: RwLocks, "rw_locks", "RwLocks", DataFlow,
                    limit: Some("rw_locks"), compared: true,
                    about: "reads and writes, contention, wait and hold time of RwLocks",
                    absent: "no rw_lock! wrapper was used yet";
                /// Per-thread CPU and memory (`threads` feature, on by default).
                Threads => threads: Threads, "threads", "Threads", Threads,
                    limit: Some("threads"), compared: false,
                    about: "CPU and memory of each thread",
                    absent: "the threads sampler is off (threads feature) or has not sampled yet";
                /// Tokio runtimes registered with `tokio_runtime!()` (`tokio` feature).
                TokioRuntime => tokio_runtime: TokioRuntimes, "tokio_runtime", "Runtime", Tokio,
                    limit: Some("tokio_runtime"), compared: false,
                    about: "workers, queues and flags of monitored Tokio runtimes",
                    absent: "no Tokio runtime is monitored (hotpath::tokio_runtime!(&handle) with the tokio feature)";
                /// Byte-level I/O through `io!` wrappers.
                Io => io: IoSection, "io", "I/O", Io,
                    limit: Some("io"), compared: true,
                    about: "operations, bytes, rate and durations of io! wrappers",
                    absent: "no io! wrapper was used yet";
                /// Requests an axum server answered (`axum!`, feature `axum-0-8`).
                Server => server: Server, "server", "Server", Services,
                    limit: Some("server"), compared: true,
                    about: "requests, status classes, latency and per-request SQL/HTTP/function time of server routes",
                    absent: "no request went through hotpath::axum!(router) yet (feature axum-0-8)";
                /// Outgoing HTTP calls (`http!`, features `reqwest-0-12`, `reqwest-0-13`, `ureq-3`).
                Http => http: Http, "http", "HTTP", Services,
                    limit: Some("http"), compared: true,
                    about: "calls, status classes, errors and latency of outgoing HTTP calls per endpoint",
                    absent: "no call went through an http!() client yet (features reqwest-0-12, reqwest-0-13, ureq-3)";
                /// SQL queries (features `sqlx`, `diesel`).
                Sql => sql: Sql, "sql", "SQL", Services,
                    limit: Some("sql"), compared: true,
                    about: "calls, errors, rows and latency of SQL queries per normalized statement",
                    absent: "no query was seen yet (sqlx_tracing_layer() or instrument_diesel_sql(), features sqlx, diesel)";
                /// `dbg!`, `val!` and `gauge!` trackers (few, asked for by name: never cut).
                Debug => debug: DebugTrackers, "debug", "Trackers", Debug,
                    limit: None, compared: false,
                    about: "counts, last values and logs of dbg! call sites, val! keys and gauge! keys",
                    absent: "no dbg!, val! or gauge! has recorded while profiling";
            }
            limits {
                functions_limit: "functions", 15, "Rows of the function sections";
                heap_limit: "heap", 15, "Rows of the heap section";
                channels_limit: "channels", 0, "Rows of the channels section";
                streams_limit: "streams", 0, "Rows of the streams section";
                futures_limit: "futures", 0, "Rows of the futures section";
                mutexes_limit: "mutexes", 0, "Rows of the mutexes section";
                rw_locks_limit: "rw_locks", 0, "Rows of the rw_locks section";
                threads_limit: "threads", 5, "Rows of the threads view";
                tokio_runtime_limit: "tokio_runtime", 0, "Rows of the tokio_runtime section";
                io_limit: "io", 0, "Rows of the io section";
                server_limit: "server", 0, "Rows of the server section";
                http_limit: "http", 0, "Rows of the http section";
                sql_limit: "sql", 0, "Rows of the sql section";
            }
        }
    };
}
