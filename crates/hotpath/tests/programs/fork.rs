//! Forks a child after some measured work, in the way named by the first argument:
//! - `wait`: the child waits (at most 30 s) for a signal, which the test sends it;
//! - `exit`: the child calls a measured function, then `std::process::exit(0)`;
//! - `return`: the child calls a measured function, then returns from main.
//!
//! The parent prints `child PID`, waits for the child (killing it after 20 s) and
//! prints how it ended: `child exited N`, `child ended by signal N` or `child survived`,
//! then returns from main.

use std::time::{Duration, Instant};

#[hotpath::measure]
fn parent_work(n: u64) -> u64 {
    (0..n).fold(0, |a, b| a ^ b.wrapping_mul(31))
}

#[hotpath::measure]
fn child_work(n: u64) -> u64 {
    (0..n).fold(1, |a, b| a ^ b.wrapping_mul(17))
}

#[hotpath::main(format = "json")]
fn main() {
    let mode = std::env::args().nth(1).unwrap_or_default();
    for _ in 0..10 {
        std::hint::black_box(parent_work(1000));
    }
    // SAFETY: the child only calls async-signal-safe functions and Rust code that
    // takes no lock another thread of the parent could hold (no stdout, no allocation
    // before it exits), as a child of a multi-threaded process must.
    let pid = unsafe { libc::fork() };
    assert!(pid >= 0, "fork failed");
    if pid == 0 {
        match mode.as_str() {
            "wait" => {
                let end = Instant::now() + Duration::from_secs(30);
                while Instant::now() < end {
                    // SAFETY: sleeps; a signal interrupts it.
                    unsafe { libc::usleep(10_000) };
                }
                // SAFETY: ends the child without running the parent's exit hooks twice.
                unsafe { libc::_exit(9) };
            }
            "exit" => {
                std::hint::black_box(child_work(10));
                std::process::exit(0);
            }
            _ => {
                std::hint::black_box(child_work(10));
                return;
            }
        }
    }
    println!("child {pid}");
    let end = Instant::now() + Duration::from_secs(20);
    let mut status = 0;
    loop {
        // SAFETY: polls our own child; `status` is a live local.
        let done = unsafe { libc::waitpid(pid, &mut status, libc::WNOHANG) };
        if done == pid {
            break;
        }
        if Instant::now() > end {
            // SAFETY: kills and reaps our own child.
            unsafe {
                libc::kill(pid, libc::SIGKILL);
                libc::waitpid(pid, &mut status, 0);
            }
            println!("child survived");
            return;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    if libc::WIFSIGNALED(status) {
        println!("child ended by signal {}", libc::WTERMSIG(status));
    } else {
        println!("child exited {}", libc::WEXITSTATUS(status));
    }
}
