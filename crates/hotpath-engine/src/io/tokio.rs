//! Tokio's async I/O traits for `Io<T>` (the `tokio` feature).
//!
//! An async operation spans its first poll to `Ready`, so its duration includes
//! the time spent waiting (for a socket to become readable, say). The start tick is
//! kept in the wrapper, one slot per kind, from the first poll until `Ready`. If the
//! future driving an operation is dropped while `Pending` (a `select!` timeout),
//! the wrapper cannot tell: the next operation of that kind resumes the slot and
//! reports the time since the abandoned one began.

use std::io::{IoSlice, SeekFrom};
use std::pin::Pin;
use std::task::{Context, Poll};

use tokio::io::{AsyncBufRead, AsyncRead, AsyncSeek, AsyncWrite, ReadBuf};

use super::cell::Kind;
use super::record::{self, bytes, unit};
use super::sampling;
use super::site::IoEntry;
use super::wrapper::{active, Io};
use crate::entries::Entry;

/// No operation of this kind in flight.
const IDLE: u64 = 0;

/// Marks the first poll of an operation of `kind`.
#[inline(always)]
fn begin(entry: &Entry<IoEntry>, pending: &mut [u64; 4], kind: Kind) {
    let slot = &mut pending[kind as usize];
    if *slot == IDLE {
        *slot = sampling::start(entry.id());
    }
}

/// On `Ready`, accounts the operation and frees the slot; `Pending` keeps it.
#[inline(always)]
fn end<R>(
    entry: &Entry<IoEntry>,
    pending: &mut [u64; 4],
    kind: Kind,
    poll: &Poll<std::io::Result<R>>,
    outcome: impl FnOnce(&std::io::Result<R>) -> Result<u64, std::io::ErrorKind>,
) {
    if let Poll::Ready(result) = poll {
        let start = std::mem::replace(&mut pending[kind as usize], IDLE);
        let end = sampling::end(start);
        record::finish(entry, kind, start, end, outcome(result));
    }
}

impl<T: AsyncRead> AsyncRead for Io<T> {
    fn poll_read(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<std::io::Result<()>> {
        let this = self.project();
        let Some(entry) = active(*this.entry) else { return this.inner.poll_read(cx, buf) };
        begin(entry, this.pending, Kind::Read);
        let before = buf.filled().len();
        let poll = this.inner.poll_read(cx, buf);
        let read = buf.filled().len().saturating_sub(before);
        end(entry, this.pending, Kind::Read, &poll, |r| r.as_ref().map(|()| read as u64).map_err(|e| e.kind()));
        poll
    }
}

impl<T: AsyncWrite> AsyncWrite for Io<T> {
    fn poll_write(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<std::io::Result<usize>> {
        let this = self.project();
        let Some(entry) = active(*this.entry) else { return this.inner.poll_write(cx, buf) };
        begin(entry, this.pending, Kind::Write);
        let poll = this.inner.poll_write(cx, buf);
        end(entry, this.pending, Kind::Write, &poll, bytes);
        poll
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[IoSlice<'_>],
    ) -> Poll<std::io::Result<usize>> {
        let this = self.project();
        let Some(entry) = active(*this.entry) else { return this.inner.poll_write_vectored(cx, bufs) };
        begin(entry, this.pending, Kind::Write);
        let poll = this.inner.poll_write_vectored(cx, bufs);
        end(entry, this.pending, Kind::Write, &poll, bytes);
        poll
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        let this = self.project();
        let Some(entry) = active(*this.entry) else { return this.inner.poll_flush(cx) };
        begin(entry, this.pending, Kind::Flush);
        let poll = this.inner.poll_flush(cx);
        end(entry, this.pending, Kind::Flush, &poll, unit);
        poll
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        let this = self.project();
        let Some(entry) = active(*this.entry) else { return this.inner.poll_shutdown(cx) };
        begin(entry, this.pending, Kind::Shutdown);
        let poll = this.inner.poll_shutdown(cx);
        end(entry, this.pending, Kind::Shutdown, &poll, unit);
        poll
    }
}

/// Delegated, not measured: a seek moves no bytes.
impl<T: AsyncSeek> AsyncSeek for Io<T> {
    fn start_seek(self: Pin<&mut Self>, position: SeekFrom) -> std::io::Result<()> {
        self.project().inner.start_seek(position)
    }

    fn poll_complete(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<u64>> {
        self.project().inner.poll_complete(cx)
    }
}

/// Delegated, not measured, like the sync `BufRead`.
impl<T: AsyncBufRead> AsyncBufRead for Io<T> {
    fn poll_fill_buf(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<&[u8]>> {
        self.project().inner.poll_fill_buf(cx)
    }

    fn consume(self: Pin<&mut Self>, amt: usize) {
        self.project().inner.consume(amt);
    }
}
