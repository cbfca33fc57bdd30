//! The engine's side of a report: starting the samplers a session needs, and
//! collecting every instrument's section from the recorders.

use hotpath_model::{
    Channels, Collectors, DebugTrackers, FunctionsAlloc, FunctionsCpu, FunctionsIcount, FunctionsTiming, Futures, Heap,
    Http, IoSection, Mutexes, Report, RwLocks, Section, Server, Sql, Streams, Threads, TokioRuntimes, SECTIONS,
};

use crate::options::Options;
use crate::record::SiteKind;
use crate::{clock, functions, io, record};

/// Prepares the instruments for a session: clock, allocation mode, `io!` sampling,
/// and the sampler threads of the features that have one. Called on the thread that
/// runs `main`, which the threads view names so.
pub fn start(options: &Options) {
    clock::init(options.allow_tsc);
    if options.budget_shadow && options.overhead_budget.is_some() {
        clock::use_thread_cpu();
    }
    #[cfg(feature = "alloc")]
    crate::record::set_inclusive(options.alloc_inclusive);
    crate::sampling::set_seed(options.sampling_seed);
    for kind in crate::sampling::Sampled::ALL {
        crate::sampling::set_rate(kind, options.time_sampling[kind as usize]);
    }
    // Its thread's name and queued start are the profiler's allocations, not the program's.
    crate::memory::untracked(|| crate::budget::start(options.overhead_budget, options.budget_shadow));
    #[cfg(feature = "services")]
    crate::services::configure(options);
    // Under Callgrind the samplers stay off: what they run would be counted too.
    #[cfg(feature = "icount")]
    let counting = crate::icount::start(options);
    #[cfg(not(feature = "icount"))]
    let counting = false;
    #[cfg(feature = "cpu")]
    if !counting {
        crate::cpu::start(options);
    }
    #[cfg(all(feature = "heap", target_os = "linux"))]
    if !counting {
        crate::heap::start(options);
    }
    #[cfg(all(feature = "heap", not(target_os = "linux")))]
    crate::diag::warn("hotpath-heap: heap sampling is implemented on Linux only; the heap section is off");
    #[cfg(feature = "threads")]
    if !counting {
        crate::threads::start(
            std::time::Duration::from_millis(options.threads_interval_ms),
            crate::os::current_tid(),
            options.show_internal_threads,
        );
    }
    let _ = counting;
    #[cfg(feature = "tokio")]
    crate::tokio_runtime::start(std::time::Duration::from_millis(options.tokio_runtime_interval_ms));
    configure_timeline(&options.timeline);
    // Before anything records: a `Debug` impl that panics in a log stays ours.
    crate::logs::install_hook();
    // Last: log times count from here, as close as possible to the session's start.
    crate::logs::configure(&options.logs);
}

/// The flight recorder's settings, with the export as the triggers' file writer; sites
/// registered in an earlier session take this session's thresholds.
fn configure_timeline(options: &crate::options::TimelineOptions) {
    let triggers = crate::timeline::trigger::Settings {
        dir: options.trigger_dir.clone(),
        max_files: options.max_files,
        min_interval_ms: options.min_interval_ms,
        window_ns: options.window_ms.map(|ms| ms.saturating_mul(1_000_000)),
        triggers: options.triggers.clone(),
        write: Some(crate::export::write_triggered),
        name_metric: Some(crate::export::metric_name),
    };
    crate::timeline::configure(options.on, options.events, triggers);
    for site in record::registered_sites().into_iter().skip(1) {
        site.threshold().apply(|| site.name());
    }
    #[cfg(feature = "services")]
    for row in crate::services::rows() {
        row.threshold().apply(|| row.text().to_string());
    }
}

/// Zeroes what the instruments measured, for a session after the first: per-thread
/// cells of functions, instrument metrics and `io!`, and exited threads' totals. Counts
/// kept in wrapped values themselves (channel messages, stream and lock instances) and
/// the CPU and threads views go on from the process start.
pub fn reset() {
    record::reset();
    record::reset_metrics();
    io::reset();
}

/// Whether the report is the final one (CPU profile files are written then).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Moment {
    /// A live snapshot; the session goes on.
    Live,
    /// The final report.
    Final,
}

/// What every section's collector reads: the merged recorders and the clock ratio.
struct Sources<'a> {
    totals: Vec<record::SiteTotals>,
    metrics: Vec<record::SiteTotals>,
    named: Vec<record::Named>,
    io: Vec<io::IoTotals>,
    ratio: f64,
    options: &'a Options,
    /// Whether the instruction counts are final (`functions-icount` reads it).
    #[cfg(feature = "icount")]
    moment: Moment,
    /// The server, http and sql sections, built together from one collection.
    #[cfg(feature = "services")]
    services: Option<crate::services::Sections>,
}

/// Fills the sections of `report` that `wanted` accepts, from the recorders: one
/// collector per entry of the model's section table.
pub fn collect(
    report: &mut Report,
    options: &Options,
    moment: Moment,
    started_unix_ms: u64,
    wall_ns: u64,
    wanted: &dyn Fn(Section) -> bool,
) {
    let totals = record::collect();
    let metrics = record::collect_metrics();
    let io_totals = io::collect();
    let io_timed = io_totals.iter().map(io::IoTotals::timed_ops).sum();
    report.meta.overhead = crate::budget::overhead(&totals, &metrics, io_timed).map(|o| {
        hotpath_model::Overhead::new(
            o.budget,
            o.ratio,
            o.floor_ratio,
            (o.costs.timed_ns, o.costs.untimed_ns, o.costs.recursive_ns),
        )
        .with_thread_ratio(o.thread_ratio)
    });
    // Calibration may wait up to 1 ms; skip it when there is nothing to convert. Calls
    // still running count: their ages and poll times are in ticks too.
    let recorded = |t: &record::SiteTotals| t.calls + t.cancelled + t.active + t.polls > 0;
    let measured = totals.iter().chain(&metrics).any(recorded) || io::timed(&io_totals) || crate::entries::any();
    #[cfg(feature = "services")]
    let measured = measured || crate::services::any();
    let ratio = if measured { clock::ns_per_tick() } else { 1.0 };
    #[cfg(feature = "alloc")]
    match crate::alloc_counters::untracked_threads() {
        0 => {}
        n => report.meta.warnings.push(format!(
            "{n} threads started while 16384 were alive; their allocations are attributed to functions but missing from the threads view"
        )),
    }
    let named = record::named(&totals, |site| site.kind() == SiteKind::Function);
    #[cfg(feature = "services")]
    let services = [Section::Server, Section::Http, Section::Sql]
        .into_iter()
        .any(wanted)
        .then(|| crate::services::sections(ratio, options));
    let sources = Sources {
        totals,
        metrics,
        named,
        io: io_totals,
        ratio,
        options,
        #[cfg(feature = "icount")]
        moment,
        #[cfg(feature = "services")]
        services,
    };
    #[cfg(all(feature = "cpu", target_os = "linux"))]
    if moment == Moment::Final && wanted(Section::FunctionsCpu) {
        crate::cpu::finish(started_unix_ms, wall_ns);
    }
    #[cfg(not(all(feature = "cpu", target_os = "linux")))]
    let _ = (moment, started_unix_ms, wall_ns);
    #[cfg(all(feature = "heap", target_os = "linux"))]
    if moment == Moment::Final {
        crate::heap::finish(options, wanted(Section::Heap));
    }
    for def in SECTIONS.iter().filter(|d| wanted(d.section)) {
        report.collect_from(def.section, &sources);
    }
    // Under Callgrind: no timing section; at the end, HOTPATH_MERGE_REPORT.
    #[cfg(feature = "icount")]
    crate::icount::finish(report, options, moment == Moment::Final);
}

/// The collector of every section: `Collectors` has one method per entry of the
/// model's table and no default, so a section added there does not compile until it
/// says here how it is collected. A feature-gated collector is `None` with the feature off.
impl Collectors for Sources<'_> {
    fn functions_timing(&self) -> Option<FunctionsTiming> {
        functions::section(&self.named, self.ratio, self.options)
    }
    fn functions_alloc(&self) -> Option<FunctionsAlloc> {
        #[cfg(feature = "alloc")]
        return crate::alloc::section(&self.named, self.options);
        #[cfg(not(feature = "alloc"))]
        None
    }
    fn functions_cpu(&self) -> Option<FunctionsCpu> {
        #[cfg(all(feature = "cpu", target_os = "linux"))]
        return crate::cpu::section(self.options);
        #[cfg(not(all(feature = "cpu", target_os = "linux")))]
        None
    }
    fn heap(&self) -> Option<Heap> {
        #[cfg(all(feature = "heap", target_os = "linux"))]
        return crate::heap::section(self.options);
        #[cfg(not(all(feature = "heap", target_os = "linux")))]
        None
    }
    fn functions_icount(&self) -> Option<FunctionsIcount> {
        #[cfg(feature = "icount")]
        return crate::icount::section(&self.totals, self.options, self.moment == Moment::Final);
        #[cfg(not(feature = "icount"))]
        None
    }
    fn channels(&self) -> Option<Channels> {
        crate::channels::section(&self.metrics, self.ratio, self.options)
    }
    fn streams(&self) -> Option<Streams> {
        crate::streams::section(&self.metrics, self.ratio, self.options)
    }
    fn futures(&self) -> Option<Futures> {
        crate::futures::section(&self.totals, self.ratio, self.options)
    }
    fn rw_locks(&self) -> Option<RwLocks> {
        crate::locks::rw_locks(&self.metrics, self.ratio, self.options)
    }
    fn mutexes(&self) -> Option<Mutexes> {
        crate::locks::mutexes(&self.metrics, self.ratio, self.options)
    }
    fn sql(&self) -> Option<Sql> {
        #[cfg(feature = "services-sql")]
        return self.services.as_ref().and_then(|x| x.sql.clone());
        #[cfg(not(feature = "services-sql"))]
        None
    }
    fn http(&self) -> Option<Http> {
        #[cfg(feature = "services-http")]
        return self.services.as_ref().and_then(|x| x.http.clone());
        #[cfg(not(feature = "services-http"))]
        None
    }
    fn server(&self) -> Option<Server> {
        #[cfg(feature = "axum")]
        return self.services.as_ref().and_then(|x| x.server.clone());
        #[cfg(not(feature = "axum"))]
        None
    }
    fn io(&self) -> Option<IoSection> {
        io::section(&self.io, self.ratio, self.options)
    }
    fn threads(&self) -> Option<Threads> {
        #[cfg(feature = "threads")]
        return crate::threads::section(self.options.threads_limit, self.options.show_internal_threads);
        #[cfg(not(feature = "threads"))]
        None
    }
    fn debug(&self) -> Option<DebugTrackers> {
        crate::debug::section(self.options, crate::row_logs::logged_rows())
    }
    fn tokio_runtime(&self) -> Option<TokioRuntimes> {
        #[cfg(feature = "tokio")]
        return crate::tokio_runtime::section(self.options);
        #[cfg(not(feature = "tokio"))]
        None
    }
}
