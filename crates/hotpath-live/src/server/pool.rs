//! A fixed pool of `hp-http-N` threads (one until the first client, then
//! [`WORKERS`]), each accepting and serving one connection at a time. A slow or silent client holds one worker for at most the read
//! deadline plus the write timeout; the others keep serving.

use std::net::{TcpListener, TcpStream};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;
use std::time::Duration;

use super::http::{read_request, write_response, Response, WRITE_TIMEOUT};
use super::mount::MountConnection;
use super::routes::{route, Outcome};
use super::State;

/// Worker threads; idle ones sleep in `accept` and cost no CPU.
pub(crate) const WORKERS: usize = 4;
/// Enough for parsing, JSON and Prometheus text, which all live on the heap.
const STACK: usize = 256 * 1024;

/// Starts the first worker. It starts the others when the first client connects,
/// so a program nobody watches pays for one thread, and its start-up for one spawn.
pub(crate) fn spawn(listener: TcpListener, state: Arc<State>) -> std::io::Result<()> {
    spawn_worker(0, Arc::new(listener), state)
}

fn spawn_worker(n: usize, listener: Arc<TcpListener>, state: Arc<State>) -> std::io::Result<()> {
    std::thread::Builder::new().name(format!("hp-http-{n}")).stack_size(STACK).spawn(move || {
        // The server's own allocations are not the program's.
        hotpath_engine::memory::profiler_thread();
        work(n, &listener, &state);
    })?;
    Ok(())
}

fn work(n: usize, listener: &Arc<TcpListener>, state: &Arc<State>) {
    let mut grown = n > 0;
    loop {
        match listener.accept() {
            Ok((stream, _)) => {
                if !grown {
                    grown = true;
                    for m in 1..WORKERS {
                        // A worker fewer is a smaller pool, not a failure.
                        let _ = spawn_worker(m, Arc::clone(listener), Arc::clone(state));
                    }
                }
                // A bug in a handler must cost one response, not the worker.
                if catch_unwind(AssertUnwindSafe(|| serve(stream, state))).is_err() {
                    state.stats.count(500);
                }
            }
            // Out of descriptors and the like: back off instead of spinning.
            Err(_) => std::thread::sleep(Duration::from_millis(50)),
        }
    }
}

fn serve(mut stream: TcpStream, state: &State) {
    let _ = stream.set_nodelay(true);
    let _ = stream.set_write_timeout(Some(WRITE_TIMEOUT));
    let request = match read_request(&mut stream) {
        Ok(request) => request,
        Err(e) => {
            if let Some(response) = e.response() {
                respond(&mut stream, &response, false, state);
                drain(&mut stream);
            }
            return;
        }
    };
    match route(&request, state) {
        Outcome::Respond(response) => respond(&mut stream, &response, request.method == "HEAD", state),
        Outcome::Mount(handler) => handler.serve(request, MountConnection::new(stream)),
    }
}

fn respond(stream: &mut TcpStream, response: &Response, head_only: bool, state: &State) {
    state.stats.count(response.status);
    let _ = write_response(stream, response, head_only);
    // Let the client read everything before the socket closes.
    let _ = stream.shutdown(std::net::Shutdown::Write);
}

/// Reads what a rejected client is still sending, briefly, so that closing the
/// socket does not reset the connection before the client has read the error.
fn drain(stream: &mut TcpStream) {
    use std::io::Read;
    let _ = stream.set_read_timeout(Some(Duration::from_millis(250)));
    let mut buf = [0u8; 4096];
    let mut left: usize = 256 * 1024;
    while left > 0 {
        match stream.read(&mut buf) {
            Ok(n) if n > 0 => left = left.saturating_sub(n),
            _ => return,
        }
    }
}
