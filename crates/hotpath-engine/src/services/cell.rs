//! One row's numbers on one thread (a server route, an HTTP endpoint, a SQL query),
//! and their merge over threads. The three kinds share one cell type: each uses the
//! counters that apply to it and leaves the others at zero.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use crate::histogram::{Histogram, LocalHistogram};
use crate::record::Totals;
use crate::sync::bump;

/// What a route scope saw during one request (see `scope`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct ScopeCounts {
    pub(crate) sql_queries: u64,
    pub(crate) sql_ns: u64,
    pub(crate) http_calls: u64,
    pub(crate) http_ns: u64,
    /// Clock ticks inside measured functions (the frames' children accumulator).
    pub(crate) function_ticks: u64,
}

/// Per-thread numbers of one row. Written only by its thread; read by the collector.
pub(crate) struct RequestCell {
    calls: AtomicU64,
    sum_ns: AtomicU64,
    min_ns: AtomicU64,
    max_ns: AtomicU64,
    histogram: LocalHistogram,
    /// Status classes 1xx..5xx.
    status: [AtomicU64; 5],
    transport_errors: AtomicU64,
    errors: AtomicU64,
    /// Response bytes (HTTP) or rows returned (SQL); rows affected (SQL).
    amounts: [AtomicU64; 2],
    /// Responses that announced their length.
    sized: AtomicU64,
    cancelled: AtomicU64,
    /// Requests served with a scope, then the [`ScopeCounts`] fields.
    scope: [AtomicU64; 6],
    #[cfg(feature = "alloc")]
    alloc: RequestAllocCell,
}

#[cfg(feature = "alloc")]
struct RequestAllocCell {
    bytes: AtomicU64,
    allocs: AtomicU64,
    max_bytes: AtomicU64,
    histogram: LocalHistogram,
}

#[cfg(feature = "alloc")]
impl Default for RequestAllocCell {
    fn default() -> Self {
        Self {
            bytes: AtomicU64::new(0),
            allocs: AtomicU64::new(0),
            max_bytes: AtomicU64::new(0),
            histogram: LocalHistogram::new(),
        }
    }
}

impl Default for RequestCell {
    fn default() -> Self {
        Self {
            calls: AtomicU64::new(0),
            sum_ns: AtomicU64::new(0),
            min_ns: AtomicU64::new(u64::MAX),
            max_ns: AtomicU64::new(0),
            histogram: LocalHistogram::new(),
            status: Default::default(),
            transport_errors: AtomicU64::new(0),
            errors: AtomicU64::new(0),
            amounts: Default::default(),
            sized: AtomicU64::new(0),
            cancelled: AtomicU64::new(0),
            scope: Default::default(),
            #[cfg(feature = "alloc")]
            alloc: RequestAllocCell::default(),
        }
    }
}

impl RequestCell {
    /// One completed request, call or query that took `ns`.
    #[inline]
    pub(crate) fn complete(&self, ns: u64) {
        bump(&self.calls, 1);
        bump(&self.sum_ns, ns);
        if ns < self.min_ns.load(Relaxed) {
            self.min_ns.store(ns, Relaxed);
        }
        if ns > self.max_ns.load(Relaxed) {
            self.max_ns.store(ns, Relaxed);
        }
        self.histogram.record(ns);
    }

    /// Counts a response status in its class.
    #[cfg(any(feature = "axum", feature = "services-http"))]
    #[inline]
    pub(crate) fn status(&self, status: u16) {
        let class = (status / 100).clamp(1, 5) as usize - 1;
        bump(&self.status[class], 1);
        if status >= 400 {
            bump(&self.errors, 1);
        }
    }

    /// Counts a failure: without a response (`transport`), or a failed query.
    #[inline]
    #[cfg(any(feature = "services-http", feature = "services-sql"))]
    pub(crate) fn error(&self, transport: bool) {
        bump(&self.errors, 1);
        if transport {
            bump(&self.transport_errors, 1);
        }
    }

    /// Adds to amount `i` (0: bytes or rows returned, 1: rows affected).
    #[inline]
    #[cfg(any(feature = "services-http", feature = "services-sql"))]
    pub(crate) fn amount(&self, i: usize, n: u64) {
        bump(&self.amounts[i], n);
        if i == 0 {
            bump(&self.sized, 1);
        }
    }

    /// A request dropped before its response.
    #[cfg(feature = "axum")]
    #[inline]
    pub(crate) fn cancel(&self) {
        bump(&self.cancelled, 1);
    }

    /// What the route scope of one completed request saw.
    #[cfg(feature = "axum")]
    #[inline]
    pub(crate) fn scope(&self, counts: &ScopeCounts) {
        let values = [1, counts.sql_queries, counts.sql_ns, counts.http_calls, counts.http_ns, counts.function_ticks];
        for (slot, v) in self.scope.iter().zip(values) {
            bump(slot, v);
        }
    }

    /// Bytes and allocations of one completed request.
    #[cfg(feature = "alloc")]
    #[inline]
    pub(crate) fn alloc(&self, bytes: u64, allocs: u64) {
        let a = &self.alloc;
        bump(&a.bytes, bytes);
        bump(&a.allocs, allocs);
        if bytes > a.max_bytes.load(Relaxed) {
            a.max_bytes.store(bytes, Relaxed);
        }
        a.histogram.record(bytes);
    }
}

/// A row's numbers merged over threads.
#[derive(Clone)]
pub(crate) struct RequestTotals {
    pub(crate) calls: u64,
    pub(crate) sum_ns: u64,
    pub(crate) min_ns: u64,
    pub(crate) max_ns: u64,
    pub(crate) histogram: Histogram,
    pub(crate) status: [u64; 5],
    pub(crate) transport_errors: u64,
    pub(crate) errors: u64,
    pub(crate) amounts: [u64; 2],
    pub(crate) sized: u64,
    pub(crate) cancelled: u64,
    /// Scoped requests, then the [`ScopeCounts`] fields in order.
    pub(crate) scope: [u64; 6],
    #[cfg(feature = "alloc")]
    pub(crate) alloc_bytes: u64,
    #[cfg(feature = "alloc")]
    pub(crate) allocs: u64,
    #[cfg(feature = "alloc")]
    pub(crate) alloc_max: u64,
    #[cfg(feature = "alloc")]
    pub(crate) alloc_histogram: Histogram,
}

impl Default for RequestTotals {
    fn default() -> Self {
        Self {
            calls: 0,
            sum_ns: 0,
            min_ns: u64::MAX,
            max_ns: 0,
            histogram: Histogram::default(),
            status: [0; 5],
            transport_errors: 0,
            errors: 0,
            amounts: [0; 2],
            sized: 0,
            cancelled: 0,
            scope: [0; 6],
            #[cfg(feature = "alloc")]
            alloc_bytes: 0,
            #[cfg(feature = "alloc")]
            allocs: 0,
            #[cfg(feature = "alloc")]
            alloc_max: 0,
            #[cfg(feature = "alloc")]
            alloc_histogram: Histogram::default(),
        }
    }
}

fn load_all<const N: usize>(into: &mut [u64; N], from: &[AtomicU64; N]) {
    into.iter_mut().zip(from).for_each(|(a, b)| *a += b.load(Relaxed));
}

impl Totals<RequestCell> for RequestTotals {
    fn add_cell(&mut self, c: &RequestCell) {
        self.calls += c.calls.load(Relaxed);
        self.sum_ns += c.sum_ns.load(Relaxed);
        self.min_ns = self.min_ns.min(c.min_ns.load(Relaxed));
        self.max_ns = self.max_ns.max(c.max_ns.load(Relaxed));
        self.histogram.merge_local(&c.histogram);
        load_all(&mut self.status, &c.status);
        self.transport_errors += c.transport_errors.load(Relaxed);
        self.errors += c.errors.load(Relaxed);
        load_all(&mut self.amounts, &c.amounts);
        self.sized += c.sized.load(Relaxed);
        self.cancelled += c.cancelled.load(Relaxed);
        load_all(&mut self.scope, &c.scope);
        #[cfg(feature = "alloc")]
        {
            self.alloc_bytes += c.alloc.bytes.load(Relaxed);
            self.allocs += c.alloc.allocs.load(Relaxed);
            self.alloc_max = self.alloc_max.max(c.alloc.max_bytes.load(Relaxed));
            self.alloc_histogram.merge_local(&c.alloc.histogram);
        }
    }

    fn heap_bytes(&self) -> usize {
        #[cfg(feature = "alloc")]
        return self.histogram.heap_bytes() + self.alloc_histogram.heap_bytes();
        #[cfg(not(feature = "alloc"))]
        self.histogram.heap_bytes()
    }
}
