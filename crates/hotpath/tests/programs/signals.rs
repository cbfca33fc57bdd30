//! A program that handles SIGINT and SIGTERM itself, in the way named by its first
//! argument, then shuts down by returning from main:
//! - `sigwait`: blocks both in main and waits for them with `sigwait` on a thread;
//! - `signalfd` (Linux): blocks both in main and polls a non-blocking `signalfd` on a thread;
//! - `ctrl-c`: Tokio's `tokio::signal::ctrl_c()` (SIGINT only).
//!
//! It prints `ready` once the signals are its own and `got signal N` when one came;
//! it gives up by itself after 30 s.

use std::future::Future;
use std::sync::atomic::{AtomicI32, Ordering};
use std::time::{Duration, Instant};

static GOT: AtomicI32 = AtomicI32::new(0);

#[hotpath::measure]
fn work(n: u64) -> u64 {
    (0..n).fold(0, |a, b| a ^ b.wrapping_mul(31))
}

/// Blocks SIGINT and SIGTERM in the calling thread (and the threads it starts).
fn block_both() -> libc::sigset_t {
    // SAFETY: the set is initialised by sigemptyset before use; the old mask may be null.
    unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        libc::sigaddset(&mut set, libc::SIGINT);
        libc::sigaddset(&mut set, libc::SIGTERM);
        assert_eq!(libc::pthread_sigmask(libc::SIG_BLOCK, &set, std::ptr::null_mut()), 0);
        set
    }
}

fn with_sigwait() {
    let set = block_both();
    std::thread::spawn(move || {
        let mut signal = 0;
        // SAFETY: waits for a signal of `set`, which every thread of the program blocks.
        if unsafe { libc::sigwait(&set, &mut signal) } == 0 {
            GOT.store(signal, Ordering::SeqCst);
        }
    });
}

#[cfg(target_os = "linux")]
fn with_signalfd() {
    let set = block_both();
    // SAFETY: a new non-blocking signalfd for the blocked set.
    let fd = unsafe { libc::signalfd(-1, &set, libc::SFD_CLOEXEC | libc::SFD_NONBLOCK) };
    assert!(fd >= 0, "signalfd: {}", std::io::Error::last_os_error());
    // Polled, as an event loop would: the signal must wait, pending, until it is read.
    std::thread::spawn(move || loop {
        // SAFETY: a zeroed signalfd_siginfo is a valid buffer of its size.
        let mut info: libc::signalfd_siginfo = unsafe { std::mem::zeroed() };
        let size = std::mem::size_of::<libc::signalfd_siginfo>();
        // SAFETY: the buffer is `info`, of `size` bytes.
        if unsafe { libc::read(fd, (&mut info as *mut libc::signalfd_siginfo).cast(), size) } == size as isize {
            GOT.store(info.ssi_signo as i32, Ordering::SeqCst);
            return;
        }
        std::thread::sleep(Duration::from_millis(5));
    });
}

fn wait_for_signal() {
    println!("ready");
    let end = Instant::now() + Duration::from_secs(30);
    while GOT.load(Ordering::SeqCst) == 0 && Instant::now() < end {
        work(100);
        std::thread::sleep(Duration::from_millis(5));
    }
    println!("got signal {}", GOT.load(Ordering::SeqCst));
}

#[hotpath::main]
fn main() {
    work(100);
    match std::env::args().nth(1).as_deref() {
        Some("sigwait") => {
            with_sigwait();
            wait_for_signal();
        }
        #[cfg(target_os = "linux")]
        Some("signalfd") => {
            with_signalfd();
            wait_for_signal();
        }
        Some("ctrl-c") => ctrl_c(),
        other => panic!("unknown mode {other:?}"),
    }
}

fn ctrl_c() {
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    runtime.block_on(async {
        let mut signal = std::pin::pin!(tokio::signal::ctrl_c());
        // One poll installs Tokio's handler; only then is SIGINT the program's.
        let first = std::future::poll_fn(|cx| std::task::Poll::Ready(signal.as_mut().poll(cx))).await;
        assert!(first.is_pending());
        println!("ready");
        tokio::select! {
            result = signal => {
                result.unwrap();
                GOT.store(libc::SIGINT, Ordering::SeqCst);
            }
            () = tokio::time::sleep(Duration::from_secs(30)) => {}
        }
        work(10);
    });
    println!("got signal {}", GOT.load(Ordering::SeqCst));
}
