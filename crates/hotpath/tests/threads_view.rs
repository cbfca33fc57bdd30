//! The threads view with real threads: a named busy thread, a thread making many
//! small syscalls, an unnamed thread, and (with hotpath-alloc) a thread that retains
//! its allocations next to one that frees them.
#![cfg(all(feature = "hotpath", feature = "threads", target_os = "linux"))]

use std::io::Write;
use std::sync::{Arc, Barrier};
use std::time::{Duration, Instant};

use hotpath::__private::{snapshot, MainConfig, MainGuard};
use hotpath_model::ThreadRow;

#[cfg(feature = "hotpath-alloc")]
#[global_allocator]
static ALLOCATOR: hotpath::__private::CountingAllocator<std::alloc::System> =
    hotpath::__private::CountingAllocator::new(std::alloc::System);

/// Runs `work` on a thread named `name` (or unnamed) until `stop`, then parks it
/// at `done` so it is still alive when the report is taken.
fn spawn(name: Option<&str>, done: &Arc<Barrier>, work: impl FnOnce() + Send + 'static) -> std::thread::JoinHandle<()> {
    let done = Arc::clone(done);
    let mut builder = std::thread::Builder::new();
    if let Some(name) = name {
        builder = builder.name(name.to_string());
    }
    builder
        .spawn(move || {
            work();
            done.wait(); // report taken
            done.wait(); // released
        })
        .unwrap()
}

fn for_about(duration: Duration, mut step: impl FnMut()) {
    let start = Instant::now();
    while start.elapsed() < duration {
        step();
    }
}

fn row<'a>(rows: &'a [ThreadRow], name: &str) -> &'a ThreadRow {
    rows.iter().find(|r| r.name == name).unwrap_or_else(|| panic!("no thread {name}: {rows:#?}"))
}

fn sys_share(r: &ThreadRow) -> f64 {
    r.cpu_sys_ns as f64 / (r.cpu_user_ns + r.cpu_sys_ns).max(1) as f64
}

#[test]
fn threads_with_known_behaviour() {
    std::env::set_var("HOTPATH_THREADS_INTERVAL_MS", "50");
    std::env::set_var("HOTPATH_THREADS_LIMIT", "50");
    let _session = MainGuard::start(MainConfig::new("threads_view::test").format("none"));
    let work = Duration::from_millis(800);
    let done = Arc::new(Barrier::new(7));
    let handles = vec![
        spawn(Some("busy-worker"), &done, move || {
            let mut x = 1u64;
            for_about(work, || x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1)));
        }),
        spawn(Some("syscaller"), &done, move || {
            let mut null = std::fs::OpenOptions::new().write(true).open("/dev/null").unwrap();
            for_about(work, || null.write_all(b"x").unwrap());
        }),
        spawn(None, &done, || {}),
        spawn(Some("retainer"), &done, move || {
            let mut kept: Vec<Vec<u8>> = Vec::new();
            for_about(work / 4, || kept.push(vec![7u8; 4096]));
            assert!(kept.len() > 64);
            std::mem::forget(kept); // retained for the rest of the program
        }),
        spawn(Some("churner"), &done, move || {
            for_about(work / 4, || drop(std::hint::black_box(vec![7u8; 4096])));
        }),
        spawn(Some("sleeper"), &done, move || std::thread::sleep(work)),
    ];
    done.wait();
    std::thread::sleep(Duration::from_millis(120)); // at least two samples after the work
    let threads = snapshot().unwrap().threads.expect("threads section");
    done.wait();
    handles.into_iter().for_each(|h| h.join().unwrap());

    let rows = &threads.rows;
    assert_eq!(threads.pid, std::process::id());
    assert!(threads.rss_bytes > 0 && threads.samples >= 3, "{threads:?}");
    assert!(rows.iter().all(|r| !r.name.starts_with("hp-")), "profiler threads are hidden: {rows:#?}");
    assert!(rows.iter().all(|r| ["Running", "Sleeping", "Blocked"].contains(&r.status.as_str())));
    assert!(rows.iter().any(|r| r.name.starts_with("thread_")), "unnamed threads show as thread_N");
    // `main` is the thread that started profiling (here the test's thread).
    // SAFETY: gettid has no preconditions.
    assert_eq!(row(rows, "main").tid, unsafe { libc::syscall(libc::SYS_gettid) } as u64);
    assert_eq!(row(rows, "sleeper").status, "Sleeping");

    // The busy thread: a high peak CPU% and almost only user time.
    let busy = row(rows, "busy-worker");
    assert!(busy.max_cpu_percent.unwrap() >= 25.0, "{busy:?}");
    assert!(busy.cpu_user_ns > 4 * busy.cpu_sys_ns, "{busy:?}");
    assert!(busy.cpu_user_ns + busy.cpu_sys_ns > row(rows, "sleeper").cpu_user_ns + row(rows, "sleeper").cpu_sys_ns);
    // Many tiny syscalls: a larger kernel share than the computing thread.
    let syscaller = row(rows, "syscaller");
    assert!(sys_share(syscaller) > sys_share(busy), "{syscaller:?} vs {busy:?}");

    #[cfg(feature = "hotpath-alloc")]
    {
        let diff = |r: &ThreadRow| r.alloc_bytes.unwrap() as i64 - r.dealloc_bytes.unwrap() as i64;
        let (retainer, churner) = (row(rows, "retainer"), row(rows, "churner"));
        assert!(diff(retainer) >= 64 * 4096, "{retainer:?}");
        assert!(churner.alloc_bytes.unwrap() >= 64 * 4096, "{churner:?}");
        assert!(diff(churner).abs() < 4096, "a thread that frees what it allocates: {churner:?}");
        let totals = threads.alloc.expect("process totals with hotpath-alloc");
        assert!(totals.alloc_bytes >= retainer.alloc_bytes.unwrap() + churner.alloc_bytes.unwrap());
    }
    #[cfg(not(feature = "hotpath-alloc"))]
    assert!(threads.alloc.is_none() && rows.iter().all(|r| r.alloc_bytes.is_none()));
}
