//! The engine's side of a report: starting the samplers a session needs, and
//! collecting every instrument's section from the recorders.

use hotpath_model::{Report, Section, SECTIONS};

use crate::functions::SiteKind;
use crate::options::Options;
use crate::{clock, functions, io};

/// Prepares the instruments for a session: clock, allocation mode, `io!` sampling,
/// and the sampler threads of the features that have one. Called on the thread that
/// runs `main`, which the threads view names so.
pub fn start(options: &Options) {
    clock::init(options.allow_tsc);
    #[cfg(feature = "alloc")]
    crate::alloc::set_inclusive(options.alloc_inclusive);
    for kind in crate::sampling::Sampled::ALL {
        crate::sampling::set_rate(kind, options.time_sampling[kind as usize]);
    }
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
    #[cfg(feature = "threads")]
    if !counting {
        crate::threads::start(std::time::Duration::from_millis(options.threads_interval_ms), crate::os::current_tid());
    }
    let _ = counting;
    #[cfg(feature = "tokio")]
    crate::tokio_runtime::start(std::time::Duration::from_millis(options.tokio_runtime_interval_ms));
    // Before anything records: a `Debug` impl that panics in a log stays ours.
    crate::debug::install_hook();
    // Last: log times count from here, as close as possible to the session's start.
    crate::debug::configure(&options.logs);
}

/// Zeroes what the instruments measured, for a session after the first: per-thread
/// cells of functions, instrument metrics and `io!`, and exited threads' totals. Counts
/// kept in wrapped values themselves (channel messages, stream and lock instances) and
/// the CPU and threads views go on from the process start.
pub fn reset() {
    functions::reset();
    functions::reset_metrics();
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
    totals: Vec<functions::SiteTotals>,
    metrics: Vec<functions::SiteTotals>,
    named: Vec<functions::Named>,
    io: Vec<io::IoTotals>,
    ratio: f64,
    options: &'a Options,
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
    let totals = functions::collect();
    let metrics = functions::collect_metrics();
    let io_totals = io::collect();
    // Calibration may wait up to 1 ms; skip it when there is nothing to convert.
    let measured = totals.iter().any(|t| t.calls + t.cancelled > 0) || io::timed(&io_totals) || crate::entries::any();
    #[cfg(feature = "services")]
    let measured = measured || crate::services::any();
    let ratio = if measured { clock::ns_per_tick() } else { 1.0 };
    #[cfg(feature = "alloc")]
    match crate::alloc::counters::untracked_threads() {
        0 => {}
        n => report.meta.warnings.push(format!(
            "{n} threads started while 16384 were alive; their allocations are attributed to functions but missing from the threads view"
        )),
    }
    let named = functions::named(&totals, |site| site.kind() == SiteKind::Function);
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
        #[cfg(feature = "services")]
        services,
    };
    #[cfg(all(feature = "cpu", target_os = "linux"))]
    if moment == Moment::Final && wanted(Section::FunctionsCpu) {
        crate::cpu::finish(started_unix_ms, wall_ns);
    }
    #[cfg(not(all(feature = "cpu", target_os = "linux")))]
    let _ = (moment, started_unix_ms, wall_ns);
    for def in SECTIONS.iter().filter(|d| wanted(d.section)) {
        collect_one(report, def.section, &sources, moment);
    }
    // Under Callgrind: no timing section; at the end, HOTPATH_MERGE_REPORT.
    #[cfg(feature = "icount")]
    crate::icount::finish(report, options, moment == Moment::Final);
}

/// The collector of one section. The match is exhaustive: a section added to the
/// model's table does not compile until it says how it is collected here.
fn collect_one(report: &mut Report, section: Section, s: &Sources<'_>, moment: Moment) {
    let (totals, ratio, options) = (&s.totals, s.ratio, s.options);
    #[cfg(not(feature = "icount"))]
    let _ = moment;
    match section {
        Section::FunctionsTiming => report.functions_timing = functions::section(&s.named, ratio, options),
        #[cfg(feature = "alloc")]
        Section::FunctionsAlloc => report.functions_alloc = crate::alloc::section(&s.named, options),
        #[cfg(all(feature = "cpu", target_os = "linux"))]
        Section::FunctionsCpu => report.functions_cpu = crate::cpu::section(options),
        #[cfg(feature = "icount")]
        Section::FunctionsIcount => {
            report.functions_icount = crate::icount::section(totals, options, moment == Moment::Final)
        }
        Section::Futures => report.futures = crate::futures::section(totals, ratio, options),
        Section::Streams => report.streams = crate::streams::section(&s.metrics, ratio, options),
        Section::Channels => report.channels = crate::channels::section(&s.metrics, ratio, options),
        Section::Mutexes => report.mutexes = crate::locks::mutexes(&s.metrics, ratio, options),
        Section::RwLocks => report.rw_locks = crate::locks::rw_locks(&s.metrics, ratio, options),
        #[cfg(feature = "threads")]
        Section::Threads => {
            report.threads = crate::threads::section(options.threads_limit, options.show_internal_threads)
        }
        #[cfg(feature = "tokio")]
        Section::TokioRuntime => report.tokio_runtime = crate::tokio_runtime::section(options),
        Section::Io => report.io = io::section(&s.io, ratio, options),
        Section::Debug => report.debug = crate::debug::section(options),
        #[cfg(feature = "axum")]
        Section::Server => report.server = s.services.as_ref().and_then(|x| x.server.clone()),
        #[cfg(feature = "services-http")]
        Section::Http => report.http = s.services.as_ref().and_then(|x| x.http.clone()),
        #[cfg(feature = "services-sql")]
        Section::Sql => report.sql = s.services.as_ref().and_then(|x| x.sql.clone()),
        // Compiled out: the feature that measures it is off.
        #[allow(unreachable_patterns)]
        _ => report.remove(section),
    }
}
