//! One client connection in the reactor: a non-blocking socket that is receiving
//! its request, being sent a response, or drained after an error, each phase with
//! an overall deadline. Nothing here blocks, so one thread keeps any number of
//! slow clients waiting without a server worker for any of them.

use std::io::{self, Read};
use std::net::{Shutdown, TcpStream};
use std::sync::mpsc::Sender;
use std::sync::Arc;
use std::time::Instant;

use super::http::{
    encode, parse, HttpRequest, Outgoing, Parsed, ReadError, Response, DRAIN_BYTES, DRAIN_DEADLINE, MAX_BODY, MAX_HEAD,
    READ_DEADLINE, WRITE_TIMEOUT,
};
use super::poll::{Waker, Want};
use super::Stats;

/// Where workers hand back connections whose response did not fit the socket.
pub(crate) struct Handback {
    sender: Sender<Conn>,
    waker: Arc<Waker>,
}

impl Handback {
    pub(crate) fn new(sender: Sender<Conn>, waker: Arc<Waker>) -> Self {
        Self { sender, waker }
    }

    pub(crate) fn send(&self, conn: Conn) {
        if self.sender.send(conn).is_ok() {
            self.waker.wake();
        }
    }

    /// Wakes the reactor with nothing handed back (memory to give back, say).
    pub(crate) fn wake(&self) {
        self.waker.wake();
    }
}

/// What a connection is doing.
#[derive(Debug)]
pub(crate) enum Phase {
    /// Receiving the request; the bytes so far.
    Reading(Vec<u8>),
    /// Sending the rest of a response; then draining (after an error) or closing.
    Writing { out: Outgoing, drain: bool },
    /// Reading and dropping what the client still sends; bytes left to accept.
    Draining(usize),
}

/// What the reactor does next with a connection.
#[derive(Debug)]
pub(crate) enum Step {
    /// Wait until the socket is ready again (or the deadline).
    Wait,
    /// A whole request has arrived: a worker answers it.
    Request(HttpRequest),
    /// Done, or the client went away.
    Close,
}

#[derive(Debug)]
pub(crate) struct Conn {
    pub(crate) stream: TcpStream,
    pub(crate) phase: Phase,
    /// When the current phase must be over.
    pub(crate) deadline: Instant,
}

impl Conn {
    /// A connection just accepted: it has [`READ_DEADLINE`] to send its request.
    pub(crate) fn accepted(stream: TcpStream) -> io::Result<Self> {
        stream.set_nonblocking(true)?;
        let _ = stream.set_nodelay(true);
        Ok(Self { stream, phase: Phase::Reading(Vec::new()), deadline: Instant::now() + READ_DEADLINE })
    }

    /// A response a worker could not send at once: the rest goes out from the
    /// reactor, or the connection closes at the deadline (and lets go of the body).
    pub(crate) fn sending(stream: TcpStream, out: Outgoing) -> Self {
        let phase = Phase::Writing { out, drain: false };
        Self { stream, phase, deadline: Instant::now() + WRITE_TIMEOUT }
    }

    /// A complete request the workers had no room for: 503, then drained.
    pub(crate) fn busy(stream: TcpStream, stats: &Stats) -> Self {
        let mut conn = Self { stream, phase: Phase::Reading(Vec::new()), deadline: Instant::now() };
        if let Some(response) = ReadError::Busy.response() {
            conn.fail(&response, stats);
        }
        conn
    }

    pub(crate) fn want(&self) -> Want {
        match self.phase {
            Phase::Writing { .. } => Want::Write,
            Phase::Reading(_) | Phase::Draining(_) => Want::Read,
        }
    }

    /// Bytes of request held in memory.
    pub(crate) fn buffered(&self) -> usize {
        match &self.phase {
            Phase::Reading(buf) => buf.len(),
            _ => 0,
        }
    }

    /// Makes the progress the socket allows. `room`: how many request bytes this
    /// connection may hold (the reactor's memory budget).
    pub(crate) fn step(&mut self, stats: &Stats, room: usize) -> Step {
        match &mut self.phase {
            Phase::Reading(buf) => match receive(&mut self.stream, buf, room) {
                Ok(None) => Step::Wait,
                Ok(Some(request)) => Step::Request(request),
                Err(ReadError::Closed) => Step::Close,
                Err(e) => {
                    let Some(response) = e.response() else { return Step::Close };
                    self.fail(&response, stats);
                    self.step(stats, room)
                }
            },
            Phase::Writing { out, drain } => {
                match out.write_to(&mut self.stream) {
                    Ok(()) => {}
                    Err(e) if e.kind() == io::ErrorKind::WouldBlock => return Step::Wait,
                    Err(_) => return Step::Close,
                }
                // Everything sent: the FIN goes after it, so the client reads the whole response.
                let _ = self.stream.shutdown(Shutdown::Write);
                if !*drain {
                    return Step::Close;
                }
                self.phase = Phase::Draining(DRAIN_BYTES);
                self.deadline = Instant::now() + DRAIN_DEADLINE;
                self.step(stats, room)
            }
            Phase::Draining(left) => {
                let mut chunk = [0u8; 4096];
                loop {
                    match self.stream.read(&mut chunk) {
                        Ok(0) => return Step::Close,
                        Ok(n) if n >= *left => return Step::Close,
                        Ok(n) => *left -= n,
                        Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                        Err(e) if e.kind() == io::ErrorKind::WouldBlock => return Step::Wait,
                        Err(_) => return Step::Close,
                    }
                }
            }
        }
    }

    /// The deadline has passed: a request not received in time gets a 408; a
    /// response not read in time, or a drain, ends.
    pub(crate) fn expire(&mut self, stats: &Stats) -> Step {
        match self.phase {
            Phase::Reading(_) => {
                if let Some(response) = ReadError::Timeout.response() {
                    self.fail(&response, stats);
                }
                self.step(stats, 0)
            }
            Phase::Writing { .. } | Phase::Draining(_) => Step::Close,
        }
    }

    /// Answers an error (or a refusal) from the reactor; the connection is drained
    /// afterwards, since the client may still be sending.
    pub(crate) fn fail(&mut self, response: &Response, stats: &Stats) {
        stats.count(response.status);
        self.phase = Phase::Writing { out: encode(response, false), drain: true };
        self.deadline = Instant::now() + WRITE_TIMEOUT;
    }
}

/// Reads what has arrived; a whole request, `None` for more to come, or why not.
fn receive(stream: &mut TcpStream, buf: &mut Vec<u8>, room: usize) -> Result<Option<HttpRequest>, ReadError> {
    let mut chunk = [0u8; 8192];
    loop {
        match stream.read(&mut chunk) {
            Ok(0) if buf.is_empty() => return Err(ReadError::Closed),
            Ok(0) => return Err(ReadError::Malformed("truncated request".into())),
            Ok(n) => {
                if buf.len() + n > room {
                    return Err(ReadError::Busy);
                }
                buf.extend_from_slice(&chunk[..n]);
                match parse(buf)? {
                    Parsed::Complete(request) => return Ok(Some(request)),
                    // A client may not send more than the largest request there is.
                    Parsed::Partial if buf.len() > MAX_HEAD + MAX_BODY => return Err(ReadError::BodyTooLarge),
                    Parsed::Partial => {}
                }
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => return Ok(None),
            Err(_) => return Err(ReadError::Closed),
        }
    }
}
