#![doc = include_str!("lib.md")]
#![deny(missing_docs)]
#![warn(unreachable_pub)]

/// Starts profiling for the duration of the annotated function and prints the
/// report when it ends.
///
/// Works on sync and async functions (any function, not only `main`; its return type
/// is kept), on either side of `#[tokio::main]`. Parameters, in any order:
/// `percentiles = [50, 95, 99.9]`, `format = "table" | "json" | "json-pretty" |
/// "none"`, `limit = N` (rows per section, 0 = all), `functions_limit`,
/// `channels_limit`, `streams_limit`, `futures_limit`, `threads_limit`,
/// `rw_locks_limit`, `mutexes_limit` (`= N`, each overriding `limit` for its
/// section), `output_path = "path"`, `report = "spec"` (sections: comma-separated
/// `all`, `auto`, names such as `functions-timing`, `channels`, `threads`, and
/// `-name` to leave one out; checked when compiling), `allocator = path::To::Alloc`
/// (with `hotpath-alloc`, the counting allocator wraps it instead of `System`),
/// `cpu_output = "dir"`. `timeout = ms` of older releases is accepted with a warning
/// and ignored (use `HOTPATH_SHUTDOWN_MS`). Every bad parameter is a compile error at
/// its span, all reported at once, with the feature on and off. The report is also
/// written when `main` panics, on SIGINT/SIGTERM (unless the program handles them)
/// and on `std::process::exit`.
///
/// Cost: off, none. On, one guard created at start-up (clock selection, signal
/// hooks, one helper thread): well under a millisecond.
pub use hotpath_macros::main;

/// Measures every call of the annotated function or method.
///
/// Sync functions are timed from entry to return (early `return`, `?` and panics
/// included); async functions from first poll to completion, with self time
/// counted per poll on the thread that polls (they are also listed in the `futures`
/// section). Parameters, in any order:
/// - `label = "name"` replaces the function path in reports;
/// - `impl_type = "Type"` names the row `module::Type::function` (what
///   [`measure_all`] does for methods);
/// - `log = true` keeps the `Debug` text of the last returned values (the last
///   `HOTPATH_LOGS_LIMIT`, 50 by default, each cut to `HOTPATH_MAX_LOG_LEN`
///   characters): the return type must implement `Debug` when the feature is on;
/// - `future = true` is accepted on async functions only (a compile error on a sync
///   one, in both modes), which are reported as futures anyway.
///
/// A trait method without a body cannot be measured: a compile error in both modes
/// says to annotate the implementations instead.
///
/// Cost: off, none. On, two clock reads and a few thread-local stores per call; with
/// `log = true`, formatting the value and one uncontended lock.
pub use hotpath_macros::measure;

/// Measures every function of an `impl` block or inline `mod`.
///
/// Functions marked [`skip`], already marked [`measure`] or [`future_fn`], or `const`
/// are left alone. `future = true` and `log = true` apply to every function; `log`
/// then keeps the results whose type implements `Debug` and skips the others (so it
/// never makes a method fail to compile). Cost: as [`measure`] for each function.
pub use hotpath_macros::measure_all;

/// Measures every call of an async function as a future: `#[hotpath::future_fn]`.
///
/// The calls are reported in the `futures` section (calls, polls, busy and wall time,
/// cancellation) under the function's path, not in the functions sections.
/// `log = true` keeps the last outputs, as for [`measure`]. On a sync function it is
/// a compile error in both modes. Cost: as [`future!`].
pub use hotpath_macros::future_fn;

/// Excludes a function from an enclosing [`measure_all`]. Cost: none.
pub use hotpath_macros::skip;

/// Measures one expression under a label and returns its value:
/// `let n = measure_block!("load", load(&path));`.
///
/// The label is a string literal or an expression giving a string (`name`,
/// `format!("step-{i}")`), evaluated on each pass; the row is named by the label alone,
/// and its `file` and `line` in the JSON report say where the block is. Exactly one
/// expression follows the label: `measure_block!("x", a, b)` is a compile error (use a
/// block, `{ a; b }`). If the expression awaits, it runs inside a measured `async`
/// block timed per poll, so `return` and `?` inside it apply to that block, as in
/// `async {}`; otherwise it is guarded in place. Without the feature the expression
/// is returned as is and the label is not evaluated. Cost: as [`measure`]; a label
/// expression adds a comparison with the label seen last (a lock for a new text; up
/// to 1,000 texts per call site, then its `<other>` row).
pub use hotpath_macros::measure_block;

/// Samples a Tokio runtime's metrics for the report: `tokio_runtime!()` monitors the
/// runtime it is called on, `tokio_runtime!(&handle)` (or `rt.handle()`) any runtime;
/// either takes `label = "name"` (default: `file:line` of the call).
///
/// A hidden `hp-tokio` thread reads the runtime's metrics every
/// `HOTPATH_TOKIO_RUNTIME_INTERVAL_MS` (1000) and the report gets a `tokio_runtime`
/// section: per runtime alive tasks, global queue and (with `--cfg tokio_unstable`)
/// blocking pool and spawn counts; per worker busy time, parks and (unstable) polls,
/// steals, local queue, mean poll time and overflows; a short history; and flags for
/// worker imbalance, a growing global queue and blocking calls. Each call site
/// registers the first runtime it sees; later calls of the same site do nothing.
///
/// Needs the `tokio` feature together with `hotpath` (a compile error says so
/// otherwise).
///
/// Cost: off, none: `()`, or a borrow of the handle so it is still type-checked, and
/// no Tokio dependency from hotpath. On, the first call per site takes one reading
/// (microseconds); later calls one atomic swap; sampling runs on its own thread and
/// reads only Tokio's atomic counters (figures in `docs/PERFORMANCE.md`).
pub use hotpath_macros::tokio_runtime;

mod tokio_runtime;

mod timeline;
pub use timeline::{write_timeline, TimelineStats};

pub mod instant;

/// Wraps a byte-level I/O value so its reads and writes are measured:
/// `io!(value)`, `io!(value, label = "name")`, `io!(value, label = "name", iter = true)`
/// (see [Labels](macro@future#labels) for label expressions).
///
/// The value may implement `std::io::Read`, `Write`, `Seek`, `BufRead` and, with
/// the `tokio` feature, `tokio::io::AsyncRead`, `AsyncWrite`, `AsyncSeek`,
/// `AsyncBufRead`; the wrapper ([`Io`]) implements the same traits by delegating
/// to it, and derefs to it, so it is a drop-in replacement:
///
/// ```
/// use std::io::Read;
///
/// let mut reader = hotpath::io!(std::io::Cursor::new(vec![1u8, 2, 3]), label = "cursor");
/// let mut buf = [0u8; 3];
/// reader.read_exact(&mut buf).unwrap();
/// reader.set_position(0); // a `Cursor` method, through `Deref`
/// ```
///
/// Each operation counts into one report row per `io!` call site and wrapped type:
/// operations, bytes, Rate (bytes divided by summed operation time), average and
/// percentile durations, errors; writes also count flushes (and async shutdowns).
/// `WouldBlock` and `Interrupted` results are neither operations nor errors. Async
/// operations are timed from their first poll to `Ready`. Without `label` the row is
/// named `file:line`. `iter = true` gives every instance its own row (`label`,
/// `label-2`, ...), so profiler memory then grows with instances (up to 1,000 rows per
/// instrument; later instances count in their site's `<other>` row, and the report
/// header says so); by default it is bounded by call sites. Seeks and `BufRead` buffer
/// access are delegated unmeasured.
/// A value wrapped before the `#[hotpath::main]` session starts is passed through
/// unmeasured for its whole life.
///
/// Cost: off, none: the macro returns its argument unchanged. On, per operation a
/// relaxed load, two clock reads (fewer under `HOTPATH_TIME_SAMPLING_RATE`) and
/// plain stores to thread-local memory; per instance one lookup of its site's entry.
pub use hotpath_macros::io;

/// The type `io!` returns: the wrapped type itself when the `hotpath` feature is off.
#[cfg(not(feature = "hotpath"))]
pub type Io<T> = T;

/// The type `io!` returns, wrapping a `T`; see [`io!`](crate::io).
#[cfg(feature = "hotpath")]
pub use hotpath_engine::Io;

/// Returns the value an [`io!`](crate::io) wrapper holds, for the wrapped type's
/// consuming methods (`finish(self)`, `into_inner(self)`). Call `flush()` on the
/// wrapper first: work done after unwrapping is not measured.
///
/// ```
/// use std::io::Write;
///
/// let mut out = hotpath::io!(Vec::new(), label = "buffer");
/// out.write_all(b"hello")?;
/// out.flush()?;
/// let bytes: Vec<u8> = hotpath::io_unwrap(out);
/// assert_eq!(bytes, b"hello");
/// # Ok::<(), std::io::Error>(())
/// ```
///
/// Cost: none; with the feature off this is the identity.
#[cfg(not(feature = "hotpath"))]
#[inline(always)]
pub fn io_unwrap<T>(io: Io<T>) -> T {
    io
}

/// Returns the value an [`io!`](crate::io) wrapper holds; see the feature-off docs.
#[cfg(feature = "hotpath")]
pub use hotpath_engine::io_unwrap;

/// Measures a future: `future!(fetch(id), label = "fetch")`.
///
/// Each poll is timed on the thread that runs it (busy time); the call's wall time runs
/// from the first poll to `Ready`; a future dropped after its first poll and before
/// `Ready` counts as cancelled; with `hotpath-alloc`, the allocations of all its polls
/// are summed per call. Reported in the `futures` section beside `#[measure]`d async
/// functions. The expression may be anything that implements `IntoFuture`.
/// Parameters, in any order: `label` (default `file:line`; see [Labels](#labels)) and
/// `log = true` (keeps the `Debug` text of the last outputs; the output must implement
/// `Debug` when the feature is on).
///
/// # Labels
///
/// On every wrapping macro (`future!`, [`stream!`], [`channel!`], [`mutex!`],
/// [`rw_lock!`], [`io!`]), `label` is a string literal or any expression giving a
/// string, evaluated (by reference) once per wrapped value: `label = "jobs"`,
/// `label = format!("worker-{i}")`, `label = actor.name.clone()`, a `String` or `&str`
/// variable, or a number. Rows are keyed by the label's text, so every value created
/// with the same text shares one row. Without the feature the label is not evaluated.
///
/// Cost: off, none (the expression is returned as is). On, per poll two clock reads and
/// a few thread-local stores; the output type is `MeasuredFuture<F>`
/// ([`wrap::Future`]), or with `log = true` `LoggedFuture<F>` ([`wrap::LoggedFuture`]).
pub use hotpath_macros::future;

/// Measures a stream (`futures_core::Stream`): `stream!(rows, label = "rows")`.
///
/// Reports instances, items, completed and active streams, items per second of a
/// stream's life and the time between items. Rows are keyed by call site and item
/// type; `iter = true` gives every wrapped stream its own row (up to 1,000, then the
/// site's `<other>` row, as for [`io!`]). Parameters, in any order: `label` (see
/// [Labels](macro@future#labels)), `iter = true`, `log = true` (keeps the `Debug` text of
/// the last items; the item type must implement `Debug` when the feature is on).
///
/// Cost: off, none. On, per poll two clock reads and a few thread-local stores; the
/// type is `MeasuredStream<S>` ([`wrap::Stream`]), or with `log = true`
/// `LoggedStream<S>` ([`wrap::LoggedStream`]).
pub use hotpath_macros::stream;

/// Measures the messages through a channel: `let (tx, rx) = channel!(mpsc::channel::<Job>(), label = "jobs");`
///
/// Takes the `(sender, receiver)` pair a constructor returned and wraps both halves
/// without rebuilding the channel, so capacity, backpressure, `try_send` errors and the
/// message type are unchanged. Reports sent, received, current and longest queue,
/// time senders waited on a full bounded channel, send-to-receive latency (matched in
/// FIFO order), open/closed, instances, and a slow-consumer flag (the queue keeps
/// growing for about a second). Rows are keyed by call site and message type, however
/// many channels are created there; `iter = true` gives each channel its own row (up
/// to 1,000, then the site's `<other>` row, as for [`io!`]).
///
/// Parameters, in any order: `label` (see [Labels](macro@future#labels)),
/// `capacity = N` (the bound to report for channels whose constructor does not tell
/// it: `std::sync::mpsc::sync_channel`, `futures` bounded; a backend that knows its
/// bound reports its own), `iter = true`, `log = true` (keeps the `Debug` text of the
/// last messages sent successfully; the message type must implement `Debug` when the
/// feature is on; watch's `send_modify` is not logged). `proxy = true` of older
/// releases is accepted with a compile-time warning: channels are always wrapped.
///
/// Backends: `std::sync::mpsc` always; `tokio` (mpsc bounded and unbounded, oneshot,
/// broadcast, watch), `futures` (mpsc, oneshot), `crossbeam`, `flume`,
/// `async-channel` behind the features of those names. The halves keep their method
/// names and signatures and deref to the wrapped halves; name their types through
/// [`wrap`] to write code that compiles in both modes. A pair of a backend whose
/// feature is off is a compile error that names the feature to enable.
///
/// Cost: off, none. On, per message about two atomic increments on lines the profiler
/// owns, two clock reads and a thread-local histogram write.
pub use hotpath_macros::channel;

/// Measures a mutex: `let m = mutex!(std::sync::Mutex::new(State::default()), label = "state");`
///
/// Reports acquisitions, contended acquisitions (a first `try_lock` found the lock
/// taken and the caller waited), the wait to acquire and the time guards were held
/// (average and percentiles). Guards deref to the data; poisoning works as without the
/// wrapper. std always; `parking_lot` and `tokio` behind their features.
/// Parameter: `label` (see [Labels](macro@future#labels)).
///
/// Cost: off, none. On, two clock reads and a thread-local histogram write per
/// acquisition; a contended one adds one more clock read and write.
pub use hotpath_macros::mutex;

/// Measures an RwLock: `let l = rw_lock!(std::sync::RwLock::new(config), label = "config");`
///
/// As [`mutex!`], with reads and writes reported separately. std always; `parking_lot`
/// and `tokio` behind their features. Cost: as [`mutex!`].
pub use hotpath_macros::rw_lock;

pub mod wrap;

#[cfg(any(feature = "criterion-0-5", feature = "criterion-0-6", feature = "criterion-0-7", feature = "criterion-0-8"))]
pub mod criterion;

mod guard;
pub use guard::{Format, HotpathGuard, HotpathGuardBuilder, Section};

#[doc(hidden)]
pub mod debug;
pub use debug::{GaugeHandle, IntoF64, ValHandle};

#[cfg(feature = "hotpath")]
mod support;

mod services;
#[cfg(feature = "diesel")]
pub use services::instrument_diesel_sql;
#[cfg(feature = "sqlx")]
pub use services::sqlx_tracing_layer;
#[cfg(feature = "axum-0-8")]
pub use services::AxumLayer;
#[cfg(any(feature = "hotpath", feature = "ureq-3"))]
pub use services::UreqHttpMiddleware;
#[cfg(feature = "hotpath")]
pub use services::{InstrumentHttpClient, ReqwestHttpMiddleware};

/// Whether this build profiles (the `hotpath` feature as Cargo unified it), for tests
/// of packages whose own feature of that name may be off while another member of the
/// build turned it on. Not a public API.
#[doc(hidden)]
pub const __PROFILING: bool = cfg!(feature = "hotpath");

/// Items the macro expansions refer to. Not a public API.
#[cfg(feature = "hotpath")]
#[doc(hidden)]
pub mod __private {
    pub use hotpath_engine::debug::log_bytes;
    #[cfg(feature = "threads")]
    pub use hotpath_engine::sample_threads;
    #[cfg(feature = "hotpath-alloc")]
    pub use hotpath_engine::CountingAllocator;
    #[cfg(feature = "hotpath-callgrind")]
    pub use hotpath_engine::Marked;
    pub use hotpath_engine::{
        channel, channel_logged, future_logged, heap_snapshot, live_threads, log_value, logs, logs_named, model, mutex,
        profiler_bytes, rw_lock, stream, stream_logged, ChannelSite, DynSites, FnGuard, FnSite, Io, IoSite,
        MeasuredFuture, MutexSite, RwLockSite, SiteName, StreamSite,
    };

    pub use crate::support::{call_once, Label, LabelDisplay, LabelStr, LogDebug, LogOther, MaybeDebug};
    #[cfg(feature = "tokio")]
    pub use hotpath_engine::{monitor_tokio, monitor_tokio_current, sample_tokio_runtimes, TokioSite};
    pub use hotpath_session::{snapshot, MainConfig};

    /// The session guard `#[hotpath::main]` creates: registers the live surfaces
    /// (when compiled in), then starts the session.
    #[must_use = "profiling stops and the report is printed when the guard is dropped"]
    pub struct MainGuard {
        // Held for its `Drop`, which writes the report.
        _session: hotpath_session::MainGuard,
    }

    impl MainGuard {
        /// Starts profiling with `config`.
        pub fn start(config: MainConfig) -> Self {
            Self::start_from(|| config)
        }

        /// Starts profiling with the configuration `config` builds, which runs as the
        /// profiler's own work (its allocations are not the program's).
        pub fn start_from(config: impl FnOnce() -> MainConfig) -> Self {
            hotpath_live::install();
            Self { _session: hotpath_session::MainGuard::start_from(config) }
        }
    }
}

/// hotpath's profiling features as Cargo unified them, which `#[hotpath::main]` checks
/// against the program's own features of the same names: a program feature that is on
/// while hotpath's is off forwards nothing, and the build fails naming the fix. Not a
/// public API.
#[doc(hidden)]
pub mod __features {
    /// `hotpath`.
    pub const HOTPATH: bool = cfg!(feature = "hotpath");
    /// `hotpath-alloc`.
    pub const ALLOC: bool = cfg!(feature = "hotpath-alloc");
    /// `hotpath-cpu`.
    pub const CPU: bool = cfg!(feature = "hotpath-cpu");
    /// `hotpath-heap`.
    pub const HEAP: bool = cfg!(feature = "hotpath-heap");
    /// `hotpath-callgrind`.
    pub const CALLGRIND: bool = cfg!(feature = "hotpath-callgrind");
    /// `hotpath-mcp`.
    pub const MCP: bool = cfg!(feature = "hotpath-mcp");
}
