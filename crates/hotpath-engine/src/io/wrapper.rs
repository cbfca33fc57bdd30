//! `Io<T>`, the value `io!` returns: delegates every operation to the wrapped value,
//! measuring reads, writes and flushes on the way.

use std::fmt;
use std::io::{BufRead, IoSlice, IoSliceMut, Read, Seek, SeekFrom, Write};
use std::ops::{Deref, DerefMut};

use pin_project_lite::pin_project;

use super::cell::Kind;
use super::record::{self, bytes, unit};
use super::sampling;
use super::site::{self, IoEntry, IoSite};
use crate::entries::Entry;
use crate::switch;

/// Start ticks of the async operations in flight, per kind (see `tokio.rs`).
#[cfg(feature = "tokio")]
pub(crate) type Pending = [u64; 4];
/// Sync-only builds keep no in-flight state.
#[cfg(not(feature = "tokio"))]
pub(crate) type Pending = ();

pin_project! {
    /// A byte-level I/O value measured by `hotpath::io!`.
    ///
    /// Implements `Read`, `Write`, `Seek` and `BufRead` when the wrapped value does
    /// (with the `tokio` feature also `AsyncRead`, `AsyncWrite`, `AsyncSeek` and
    /// `AsyncBufRead`), and derefs to it. Reads, writes, flushes and shutdowns are
    /// measured; seeks and `BufRead` buffer access are delegated without
    /// measurement. `hotpath::io_unwrap` returns the wrapped value.
    pub struct Io<T> {
        #[pin]
        pub(crate) inner: T,
        // `None` when created outside a profiling session: everything passes through.
        pub(crate) entry: Option<&'static Entry<IoEntry>>,
        pub(crate) pending: Pending,
    }
}

impl<T> Io<T> {
    /// Wraps `inner`, created at `site` (in the row of `label` when one was computed at
    /// run time). The concrete type is resolved here, once per instance, never per
    /// operation. Called by `io!`; not a public API.
    #[doc(hidden)]
    #[inline]
    pub fn new(site: &'static IoSite, label: Option<&str>, inner: T) -> Self {
        let entry = switch::enabled().then(|| site::entry::<T>(site, label));
        if let Some(entry) = entry {
            record::instance(entry);
        }
        Self { inner, entry, pending: Pending::default() }
    }
}

/// The entry to record into, or `None` to pass straight through.
#[inline(always)]
pub(crate) fn active(entry: Option<&'static Entry<IoEntry>>) -> Option<&'static Entry<IoEntry>> {
    entry.filter(|_| switch::enabled())
}

/// Returns the value an `io!` wrapper holds, for the wrapped type's consuming
/// methods such as an encoder's `finish(self)`. Work such a method does is not
/// measured: flush through the wrapper first.
#[inline]
pub fn io_unwrap<T>(io: Io<T>) -> T {
    io.inner
}

/// Runs one sync operation through the wrapper's entry.
macro_rules! measured {
    ($self:ident, $kind:expr, $outcome:path, $call:expr) => {{
        let Some(entry) = active($self.entry) else { return $call };
        let start = sampling::start(entry.id());
        let result = $call;
        let end = sampling::end(start);
        record::finish(entry, $kind, start, end, $outcome(&result));
        result
    }};
}

impl<T: Read> Read for Io<T> {
    #[inline]
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        measured!(self, Kind::Read, bytes, self.inner.read(buf))
    }

    #[inline]
    fn read_vectored(&mut self, bufs: &mut [IoSliceMut<'_>]) -> std::io::Result<usize> {
        measured!(self, Kind::Read, bytes, self.inner.read_vectored(bufs))
    }
}

impl<T: Write> Write for Io<T> {
    #[inline]
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        measured!(self, Kind::Write, bytes, self.inner.write(buf))
    }

    #[inline]
    fn write_vectored(&mut self, bufs: &[IoSlice<'_>]) -> std::io::Result<usize> {
        measured!(self, Kind::Write, bytes, self.inner.write_vectored(bufs))
    }

    #[inline]
    fn flush(&mut self) -> std::io::Result<()> {
        measured!(self, Kind::Flush, unit, self.inner.flush())
    }
}

/// Delegated, not measured: a seek moves no bytes.
impl<T: Seek> Seek for Io<T> {
    fn seek(&mut self, pos: SeekFrom) -> std::io::Result<u64> {
        self.inner.seek(pos)
    }

    fn stream_position(&mut self) -> std::io::Result<u64> {
        self.inner.stream_position()
    }
}

/// Delegated, not measured: `fill_buf` and `consume` hand out the wrapped value's
/// buffer, so `read_line` and `lines()` on a wrapped `BufReader` are not counted;
/// `read` and `read_exact` are.
impl<T: BufRead> BufRead for Io<T> {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        self.inner.fill_buf()
    }

    fn consume(&mut self, amt: usize) {
        self.inner.consume(amt);
    }
}

impl<T> Deref for Io<T> {
    type Target = T;

    fn deref(&self) -> &T {
        &self.inner
    }
}

impl<T> DerefMut for Io<T> {
    fn deref_mut(&mut self) -> &mut T {
        &mut self.inner
    }
}

/// Formats exactly as the wrapped value, so logs read the same with profiling on.
impl<T: fmt::Debug> fmt::Debug for Io<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.inner.fmt(f)
    }
}

#[cfg(unix)]
impl<T: std::os::fd::AsFd> std::os::fd::AsFd for Io<T> {
    fn as_fd(&self) -> std::os::fd::BorrowedFd<'_> {
        self.inner.as_fd()
    }
}

#[cfg(unix)]
impl<T: std::os::fd::AsRawFd> std::os::fd::AsRawFd for Io<T> {
    fn as_raw_fd(&self) -> std::os::fd::RawFd {
        self.inner.as_raw_fd()
    }
}
