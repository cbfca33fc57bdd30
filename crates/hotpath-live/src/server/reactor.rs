//! The `hp-listen` thread: accepts connections and keeps them, non-blocking, until
//! a whole request has arrived; only then does a worker (`pool`) get it. Receiving,
//! error answers, draining and the rest of responses too large to send at once all
//! happen here, each with an overall deadline, so slow or hostile clients (a
//! slowloris, a client trickling bytes after a bad request) cost no worker: the
//! workers only ever answer complete requests.
//!
//! Bounded: at most [`MAX_CONNECTIONS`] connections are kept (the oldest still
//! receiving gives way to a new one), holding at most [`BUFFER_BUDGET`] bytes of
//! requests; the workers are a fixed pool; response bodies are shared and counted
//! (`pending`). The loop also purges expired rendered responses (`rendered`) and,
//! when a burst of large ones is over, gives the freed memory back.

use std::net::{TcpListener, TcpStream};
use std::sync::mpsc::{self, Receiver};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::conn::{Conn, Handback, Phase, Step};
use super::http::HttpRequest;
use super::pending::{self, Budget, GIVE_BACK_AFTER, PENDING};
use super::poll::{PollSet, Waker, Want};
use super::pool::{Job, Pool};
use super::rendered::Rendered;
use super::State;

/// Connections kept at once; each is a descriptor of the program's.
pub(crate) const MAX_CONNECTIONS: usize = 64;
/// Request bytes held at once across connections (bodies are for `/mcp`).
const BUFFER_BUDGET: usize = 8 * 1024 * 1024;
/// Without a waker (not Unix), waits are short so that handed-back responses go out.
const SHORT_WAIT: Duration = Duration::from_millis(10);
/// After `accept` fails (out of descriptors, say), the listener rests this long
/// instead of waking the loop again at once.
const ACCEPT_BACKOFF: Duration = Duration::from_millis(50);
/// As the workers': a request is answered here when no worker could start.
const STACK: usize = 256 * 1024;

struct Reactor {
    listener: TcpListener,
    state: Arc<State>,
    conns: Vec<Conn>,
    pool: Pool,
    returned: Receiver<Conn>,
    waker: Arc<Waker>,
    set: PollSet,
    /// Until when the listener rests after a failed `accept`.
    resting: Option<Instant>,
}

/// Starts the `hp-listen` thread (from the starter, when the first connection waits:
/// a program nobody connects to never has it); workers start with the first request.
/// The reactor's waker, channel and pool are made on that thread too.
pub(crate) fn spawn(listener: TcpListener, state: Arc<State>) -> std::io::Result<()> {
    listener.set_nonblocking(true)?;
    let builder = std::thread::Builder::new().name("hp-listen".into()).stack_size(STACK);
    let failed = |e: std::io::Error| {
        hotpath_engine::diag::warn(&format!("metrics server not started: cannot spawn its thread ({e})"))
    };
    #[cfg(unix)]
    let fd = std::os::fd::AsRawFd::as_raw_fd(&listener);
    let body = move || {
        // The server's own allocations are not the program's.
        hotpath_engine::memory::profiler_thread();
        Reactor::new(listener, state).run();
    };
    // Created off the program's thread, once a connection waits in the listen backlog
    // (the listener, owned by `body`, stays open until then).
    #[cfg(unix)]
    hotpath_engine::spawn::when_readable(fd, builder, body, failed);
    #[cfg(not(unix))]
    hotpath_engine::spawn::soon(builder, body, failed);
    Ok(())
}

impl Reactor {
    fn new(listener: TcpListener, state: Arc<State>) -> Self {
        let waker = Arc::new(Waker::new());
        let (sender, returned) = mpsc::channel();
        let handback = Handback::new(sender, Arc::clone(&waker));
        let pool = Pool::new(Arc::clone(&state), handback);
        Self { listener, state, conns: Vec::new(), pool, returned, waker, set: PollSet::default(), resting: None }
    }

    fn run(mut self) {
        loop {
            self.conns.extend(self.returned.try_iter());
            self.set.clear();
            let now = Instant::now();
            let expiry = tidy(&self.state.rendered, &PENDING, now);
            self.resting = self.resting.filter(|until| *until > now);
            let room = self.conns.len() < MAX_CONNECTIONS || self.conns.iter().any(evictable);
            let listening = room && self.resting.is_none();
            let listener = listening.then(|| self.set.add(&self.listener, Want::Read));
            let waker = self.waker.add_to(&mut self.set);
            let mut base = None;
            for conn in &self.conns {
                let index = self.set.add(&conn.stream, conn.want());
                base.get_or_insert(index);
            }
            let deadlines = self.conns.iter().map(|c| c.deadline).chain(self.resting).chain(expiry);
            let mut timeout = deadlines.map(|d| d.saturating_duration_since(now)).min();
            if !self.waker.works() {
                timeout = Some(timeout.map_or(SHORT_WAIT, |t| t.min(SHORT_WAIT)));
            }
            if self.set.wait(timeout).is_err() {
                // Out of resources: back off instead of spinning.
                std::thread::sleep(Duration::from_millis(50));
                continue;
            }
            if waker.is_some_and(|w| self.set.ready(w)) {
                self.waker.reset();
            }
            self.progress(base.unwrap_or(0));
            if listener.is_some_and(|l| self.set.ready(l)) {
                self.accept();
            }
            if PENDING.settled(GIVE_BACK_AFTER) {
                pending::give_back();
            }
        }
    }

    /// Steps every ready connection (their poll entries start at `base`) and
    /// expires the late ones.
    fn progress(&mut self, base: usize) {
        let now = Instant::now();
        let ready: Vec<bool> = (0..self.conns.len()).map(|k| self.set.ready(base + k)).collect();
        // Backwards, so that swap_remove only moves connections already seen.
        for i in (0..self.conns.len()).rev() {
            let room = self.room(i);
            let conn = &mut self.conns[i];
            let step = if conn.deadline <= now {
                conn.expire(&self.state.stats)
            } else if ready[i] {
                conn.step(&self.state.stats, room)
            } else {
                continue;
            };
            match step {
                Step::Wait => {}
                Step::Close => drop(self.conns.swap_remove(i)),
                Step::Request(request) => {
                    let stream = self.conns.swap_remove(i).stream;
                    self.dispatch(stream, request);
                }
            }
        }
    }

    /// Request bytes connection `i` may hold: the budget less what the others hold.
    fn room(&self, i: usize) -> usize {
        let others: usize = self.conns.iter().enumerate().filter(|(k, _)| *k != i).map(|(_, c)| c.buffered()).sum();
        BUFFER_BUDGET.saturating_sub(others)
    }

    /// A whole request to the workers, or a 503 when they are all busy and the queue is full.
    fn dispatch(&mut self, stream: TcpStream, request: HttpRequest) {
        if let Err(stream) = self.pool.submit(Job { stream, request }) {
            self.conns.push(Conn::busy(stream, &self.state.stats));
        }
    }

    /// Accepts what is waiting, making room by dropping the oldest connection that
    /// has not delivered its request, so that a flood of idle connections cannot
    /// lock clients out.
    fn accept(&mut self) {
        loop {
            if self.conns.len() >= MAX_CONNECTIONS {
                let oldest =
                    self.conns.iter().enumerate().filter(|(_, c)| evictable(c)).min_by_key(|(_, c)| c.deadline);
                let Some((oldest, _)) = oldest else { return };
                drop(self.conns.swap_remove(oldest));
            }
            match self.listener.accept() {
                Ok((stream, _)) => self.admit(stream),
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => return,
                Err(_) => {
                    self.resting = Some(Instant::now() + ACCEPT_BACKOFF);
                    return;
                }
            }
        }
    }

    fn admit(&mut self, stream: TcpStream) {
        let Ok(conn) = Conn::accepted(stream) else { return };
        // Most clients send the request with the connection: serve it without a round of waiting.
        self.conns.push(conn);
        let i = self.conns.len() - 1;
        let room = self.room(i);
        match self.conns[i].step(&self.state.stats, room) {
            Step::Wait => {}
            Step::Close => drop(self.conns.swap_remove(i)),
            Step::Request(request) => {
                let stream = self.conns.swap_remove(i).stream;
                self.dispatch(stream, request);
            }
        }
    }
}

/// Purges the rendered bodies nobody asked for again (an idle server holds none) and,
/// where that let go of the last body of a large burst, gives the memory back now:
/// with no connection left the loop then waits without a deadline, and a check after
/// the wait would come only with the next request. Returns when the next rendered
/// body expires, so the wait ends then even without a request.
fn tidy(rendered: &Rendered, budget: &Budget, now: Instant) -> Option<Instant> {
    let expiry = rendered.purge(now);
    if budget.settled(GIVE_BACK_AFTER) {
        pending::give_back();
    }
    expiry
}

/// A connection that may be dropped to make room: still receiving, or draining.
fn evictable(conn: &Conn) -> bool {
    matches!(conn.phase, Phase::Reading(_) | Phase::Draining(_))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::server::http::Response;
    use crate::server::pending::{Body, GIVEN_BACK};
    use crate::server::snapshot::Snapshot;
    use hotpath_model::Report;
    use std::sync::atomic::Ordering::Relaxed;

    #[test]
    fn the_purge_that_drops_the_last_large_body_gives_the_memory_back() {
        static BUDGET: Budget = Budget::new(pending::BUDGET);
        let rendered = Rendered::default();
        let snapshot = Arc::new(Snapshot::new(Report::default(), Duration::from_secs(1)));
        let large = || Response {
            body: Body::counted(vec![b'#'; GIVE_BACK_AFTER + 1], &BUDGET),
            ..Response::json(200, String::new())
        };
        // One ordinary large scrape: the worker sent it and let go; the cache holds it.
        drop(rendered.serve(&snapshot, "/metrics", large));
        let given = GIVEN_BACK.load(Relaxed);
        let expiry = tidy(&rendered, &BUDGET, Instant::now()).expect("cached: the wait has a deadline");
        assert_eq!(BUDGET.held(), GIVE_BACK_AFTER + 1);
        // The loop wakes at the expiry, with no request: that purge frees and gives back.
        assert_eq!(tidy(&rendered, &BUDGET, expiry), None, "nothing left to wait for");
        assert_eq!(BUDGET.held(), 0);
        assert!(GIVEN_BACK.load(Relaxed) > given, "given back without a further request");
        assert!(!BUDGET.due(GIVE_BACK_AFTER), "once per burst");
    }
}
