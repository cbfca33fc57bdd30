//! Waiting until one of many sockets can make progress, for the reactor: `poll(2)`
//! on Unix. Elsewhere the wait is a short sleep after which every socket counts as
//! ready (its non-blocking read or write then says `WouldBlock`), which costs a few
//! wake-ups a second only while connections are open.

use std::io;
use std::time::Duration;

/// What a socket is waited on for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Want {
    Read,
    Write,
}

#[cfg(unix)]
pub(crate) use std::os::fd::AsRawFd as Source;

/// Anything can be "waited on" where the wait is a sleep.
#[cfg(not(unix))]
pub(crate) trait Source {}
#[cfg(not(unix))]
impl<T> Source for T {}

/// The sockets of one wait, in the order they were added.
#[derive(Default)]
pub(crate) struct PollSet {
    #[cfg(unix)]
    fds: Vec<libc::pollfd>,
    #[cfg(not(unix))]
    count: usize,
}

impl PollSet {
    pub(crate) fn clear(&mut self) {
        #[cfg(unix)]
        self.fds.clear();
        #[cfg(not(unix))]
        {
            self.count = 0;
        }
    }

    /// Adds a socket; returns its index for [`ready`](Self::ready).
    pub(crate) fn add(&mut self, source: &impl Source, want: Want) -> usize {
        #[cfg(unix)]
        {
            let events = if want == Want::Read { libc::POLLIN } else { libc::POLLOUT };
            self.fds.push(libc::pollfd { fd: source.as_raw_fd(), events, revents: 0 });
            self.fds.len() - 1
        }
        #[cfg(not(unix))]
        {
            let _ = (source, want);
            self.count += 1;
            self.count - 1
        }
    }

    /// Waits until a socket is ready or `timeout` (None: no limit) has passed.
    pub(crate) fn wait(&mut self, timeout: Option<Duration>) -> io::Result<()> {
        #[cfg(unix)]
        {
            // Rounded up, so that a deadline 0.4 ms away does not spin.
            let ms = timeout.map_or(-1, |t| t.as_micros().div_ceil(1000).min(60_000) as libc::c_int);
            // SAFETY: the pointer and length describe `self.fds`, which lives across the call.
            let n = unsafe { libc::poll(self.fds.as_mut_ptr(), self.fds.len() as libc::nfds_t, ms) };
            if n < 0 {
                let e = io::Error::last_os_error();
                return if e.kind() == io::ErrorKind::Interrupted { Ok(()) } else { Err(e) };
            }
            Ok(())
        }
        #[cfg(not(unix))]
        {
            std::thread::sleep(timeout.unwrap_or(Duration::MAX).min(Duration::from_millis(10)));
            Ok(())
        }
    }

    /// True when socket `index` can make progress (errors and hang-ups count: the
    /// next read or write reports them).
    pub(crate) fn ready(&self, index: usize) -> bool {
        #[cfg(unix)]
        return self.fds.get(index).is_some_and(|p| p.revents != 0);
        #[cfg(not(unix))]
        {
            index < self.count
        }
    }
}

/// Wakes the reactor from another thread (a worker handing a connection back).
pub(crate) struct Waker {
    #[cfg(unix)]
    pair: Option<(std::os::unix::net::UnixStream, std::os::unix::net::UnixStream)>,
}

impl Waker {
    pub(crate) fn new() -> Self {
        #[cfg(unix)]
        {
            let pair = std::os::unix::net::UnixStream::pair()
                .ok()
                .filter(|(a, b)| a.set_nonblocking(true).is_ok() && b.set_nonblocking(true).is_ok());
            Self { pair }
        }
        #[cfg(not(unix))]
        Self {}
    }

    /// Adds the waker's end to a wait; None when there is nothing to wait on.
    pub(crate) fn add_to(&self, set: &mut PollSet) -> Option<usize> {
        #[cfg(unix)]
        return self.pair.as_ref().map(|(receiver, _)| set.add(receiver, Want::Read));
        #[cfg(not(unix))]
        {
            let _ = set;
            None
        }
    }

    /// Consumes the wake-ups received.
    pub(crate) fn reset(&self) {
        #[cfg(unix)]
        if let Some((mut receiver, _)) = self.pair.as_ref().map(|(r, s)| (r, s)) {
            let mut buf = [0u8; 64];
            while matches!(io::Read::read(&mut receiver, &mut buf), Ok(n) if n > 0) {}
        }
    }

    /// Wakes the reactor (a full buffer means a wake-up is pending already).
    pub(crate) fn wake(&self) {
        #[cfg(unix)]
        if let Some((_, mut sender)) = self.pair.as_ref().map(|(r, s)| (r, s)) {
            let _ = io::Write::write(&mut sender, &[1]);
        }
    }

    /// Whether a wait can be cut short by [`wake`](Self::wake); if not, waits must be short.
    pub(crate) fn works(&self) -> bool {
        #[cfg(unix)]
        return self.pair.is_some();
        #[cfg(not(unix))]
        false
    }
}
