//! A fixed pool of `hp-http-N` threads answering complete requests, which the
//! reactor hands them through a bounded queue. They start with the first request,
//! so a program nobody watches pays for the reactor's thread only. A worker sends
//! what the socket takes at once and hands the rest of a large response back to
//! the reactor, so a client that does not read holds no worker either; only
//! mounted handlers (`/mcp`) get the socket itself, blocking, with timeouts.

use std::io;
use std::net::{Shutdown, TcpStream};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::mpsc::{self, Receiver, SyncSender, TrySendError};
use std::sync::{Arc, Mutex};

use hotpath_engine::spawn::SpawnMasked;

use super::conn::{Conn, Handback};
use super::http::{encode, HttpRequest, READ_DEADLINE, WRITE_TIMEOUT};
use super::mount::MountConnection;
use super::pending::{GIVE_BACK_AFTER, PENDING};
use super::routes::{route, Outcome};
use super::State;

/// Worker threads; idle ones sleep on the queue and cost no CPU.
pub(crate) const WORKERS: usize = 4;
/// Requests waiting for a worker; beyond that the reactor answers 503.
const QUEUE: usize = 64;
/// Enough for parsing, JSON and Prometheus text, which all live on the heap.
const STACK: usize = 256 * 1024;

/// A whole request and its connection (still non-blocking).
pub(crate) struct Job {
    pub(crate) stream: TcpStream,
    pub(crate) request: HttpRequest,
}

pub(crate) struct Pool {
    state: Arc<State>,
    handback: Arc<Handback>,
    queue: Option<SyncSender<Job>>,
    started: bool,
}

impl Pool {
    pub(crate) fn new(state: Arc<State>, handback: Handback) -> Self {
        Self { state, handback: Arc::new(handback), queue: None, started: false }
    }

    /// Queues a request for the workers; gives the socket back when the queue is full.
    pub(crate) fn submit(&mut self, job: Job) -> Result<(), TcpStream> {
        if !std::mem::replace(&mut self.started, true) {
            self.queue = self.start();
        }
        let Some(queue) = &self.queue else {
            // No worker could start: answer from here rather than not at all.
            serve(job, &self.state, &self.handback);
            return Ok(());
        };
        queue.try_send(job).map_err(|e| match e {
            TrySendError::Full(job) | TrySendError::Disconnected(job) => job.stream,
        })
    }

    fn start(&self) -> Option<SyncSender<Job>> {
        let (sender, jobs) = mpsc::sync_channel(QUEUE);
        let jobs = Arc::new(Mutex::new(jobs));
        let mut started = 0;
        for n in 0..WORKERS {
            let (jobs, state, handback) = (Arc::clone(&jobs), Arc::clone(&self.state), Arc::clone(&self.handback));
            let spawned =
                std::thread::Builder::new().name(format!("hp-http-{n}")).stack_size(STACK).spawn_masked(move || {
                    // The server's own allocations are not the program's.
                    hotpath_engine::memory::profiler_thread();
                    work(&jobs, &state, &handback);
                });
            // A worker fewer is a smaller pool, not a failure.
            started += usize::from(spawned.is_ok());
        }
        (started > 0).then_some(sender)
    }
}

fn work(jobs: &Mutex<Receiver<Job>>, state: &State, handback: &Handback) {
    loop {
        let Ok(job) = crate::lock(jobs).recv() else { return };
        // A bug in a handler must cost one response, not the worker.
        if catch_unwind(AssertUnwindSafe(|| serve(job, state, handback))).is_err() {
            state.stats.count(500);
        }
    }
}

fn serve(job: Job, state: &State, handback: &Handback) {
    let Job { mut stream, request } = job;
    match route(&request, state) {
        Outcome::Respond(response) => {
            state.stats.count(response.status);
            let mut out = encode(&response, request.method == "HEAD");
            drop(response);
            // What the (non-blocking) socket takes now; the rest from the reactor.
            match out.write_to(&mut stream) {
                // Let the client read everything before the socket closes.
                Ok(()) => drop(stream.shutdown(Shutdown::Write)),
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => return handback.send(Conn::sending(stream, out)),
                Err(_) => {}
            }
            drop(out);
            // This was the last large body held: the reactor gives the memory back.
            if PENDING.due(GIVE_BACK_AFTER) {
                handback.wake();
            }
        }
        Outcome::Mount(handler) => {
            let _ = stream.set_nonblocking(false);
            let _ = stream.set_read_timeout(Some(READ_DEADLINE));
            let _ = stream.set_write_timeout(Some(WRITE_TIMEOUT));
            handler.serve(request, MountConnection::new(stream));
        }
    }
}
