//! With file descriptors nearly exhausted the threads sampler cannot open a thread's
//! `/proc` files. Such a thread is unknown, not exited: its allocation slot stays its
//! own, so the allocation totals stay right, and the section says the sample was
//! partial. Runs in a child process (this test binary again), since it lowers
//! RLIMIT_NOFILE.
#![cfg(all(feature = "hotpath-alloc", feature = "threads", target_os = "linux"))]

use std::process::Command;
use std::sync::{Arc, Barrier};

use hotpath::__private::{sample_threads, snapshot, MainConfig, MainGuard};

#[global_allocator]
static ALLOCATOR: hotpath::__private::CountingAllocator<std::alloc::System> =
    hotpath::__private::CountingAllocator::new(std::alloc::System);

const CHILD: &str = "HOTPATH_TEST_FD_CHILD";
const WORKERS: usize = 4;
const BLOCKS: usize = 256;
const BLOCK: usize = 4096;

#[test]
fn allocation_totals_survive_fd_exhaustion() {
    let exe = std::env::current_exe().unwrap();
    let mut cmd = Command::new(exe);
    for (key, _) in std::env::vars() {
        if key.starts_with("HOTPATH_") {
            cmd.env_remove(key);
        }
    }
    let out = cmd
        .args(["child_with_one_free_fd", "--exact", "--nocapture", "--test-threads=1"])
        .env(CHILD, "1")
        .env("HOTPATH_METRICS_SERVER_OFF", "1")
        .output()
        .unwrap();
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "child failed\nstdout:\n{stdout}\nstderr:\n{stderr}");
    assert!(stdout.contains("child checks passed"), "the child ran\n{stdout}");
}

/// Leaks `BLOCKS` blocks of `BLOCK` bytes: allocations the program knows it made.
fn allocate() {
    for _ in 0..BLOCKS {
        std::mem::forget(std::hint::black_box(vec![7u8; BLOCK]));
    }
}

/// The lowest file descriptor number not in use.
fn lowest_free_fd() -> libc::rlim_t {
    // SAFETY: F_GETFD only queries the descriptor table.
    (0..).find(|&fd| unsafe { libc::fcntl(fd, libc::F_GETFD) } == -1).unwrap() as libc::rlim_t
}

/// Sets the soft RLIMIT_NOFILE; returns the previous one.
fn set_nofile(soft: libc::rlim_t) -> libc::rlim_t {
    let mut limit = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
    // SAFETY: `limit` is a live out-parameter, then a valid limit (hard limit unchanged).
    unsafe {
        assert_eq!(libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit), 0);
        let old = limit.rlim_cur;
        limit.rlim_cur = soft;
        assert_eq!(libc::setrlimit(libc::RLIMIT_NOFILE, &limit), 0);
        old
    }
}

#[test]
fn child_with_one_free_fd() {
    if std::env::var_os(CHILD).is_none() {
        return; // only meaningful as the child of the test above
    }
    // No periodic sample: this test takes each one itself.
    std::env::set_var("HOTPATH_THREADS_INTERVAL_MS", "60000");
    std::env::set_var("HOTPATH_THREADS_LIMIT", "100");
    let _session = MainGuard::start(MainConfig::new("fd_exhaustion::child").format("none"));
    let step = Arc::new(Barrier::new(WORKERS + 1));
    let workers: Vec<_> = (0..WORKERS)
        .map(|i| {
            let step = Arc::clone(&step);
            std::thread::Builder::new()
                .name(format!("alloc-{i}"))
                .spawn(move || {
                    allocate();
                    step.wait(); // first half made
                    step.wait(); // sampled with one free fd
                    allocate();
                    step.wait(); // second half made
                    step.wait(); // report taken
                })
                .unwrap()
        })
        .collect();
    step.wait();
    // One free descriptor: the sampler can list /proc/self/task, but not open a thread's stat.
    let normal = set_nofile(lowest_free_fd() + 1);
    // The CPU and heap samplers may hold a descriptor for a moment (their own scans,
    // symbol tables): the limit is set again from the lowest free one before each try.
    let mut partial = None;
    for _ in 0..100 {
        set_nofile(normal);
        set_nofile(lowest_free_fd() + 1);
        sample_threads();
        let threads = snapshot().unwrap().threads.expect("threads section");
        if threads.warning.is_some() {
            partial = Some(threads);
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(3));
    }
    step.wait();
    step.wait();
    sample_threads();
    set_nofile(normal);

    let threads = snapshot().unwrap().threads.expect("threads section");
    step.wait();
    workers.into_iter().for_each(|w| w.join().unwrap());

    let partial = partial.expect("a sample with one free descriptor is partial");
    let warning = partial.warning.as_deref().unwrap_or_default();
    assert!(warning.contains("could not be read"), "a partial sample says so: {partial:#?}");
    assert!(threads.warning.is_none(), "a complete sample clears it: {:?}", threads.warning);
    let known = (2 * BLOCKS * BLOCK) as u64;
    for i in 0..WORKERS {
        let name = format!("alloc-{i}");
        let row = threads.rows.iter().find(|r| r.name == name).unwrap_or_else(|| panic!("no {name}: {threads:#?}"));
        assert!(row.alloc_bytes.unwrap() >= known, "{name} allocated at least {known} bytes: {row:?}");
        assert!(row.alloc_bytes.unwrap() < known + known / 4, "{name}: {row:?}");
    }
    let total = threads.alloc.expect("process totals").alloc_bytes;
    assert!(total >= WORKERS as u64 * known, "process total {total} below the workers' {}", WORKERS as u64 * known);
    println!("child checks passed");
}
