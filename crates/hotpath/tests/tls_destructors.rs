//! Measured calls made from thread-local destructors count, including those that run
//! after the profiler's own exit hook has retired the thread's recorder.
#![cfg(feature = "hotpath")]

use hotpath::__private::{live_threads, snapshot, MainConfig, MainGuard};

const CALLS: u32 = 100;

#[hotpath::measure]
fn in_destructor(i: u32) -> u32 {
    std::hint::black_box(i)
}

#[hotpath::measure]
fn first_call() {}

/// Makes `CALLS` measured calls when the thread's thread-locals are destroyed.
struct CallsOnDrop;

impl Drop for CallsOnDrop {
    fn drop(&mut self) {
        for i in 0..CALLS {
            in_destructor(i);
        }
    }
}

thread_local! {
    static BEFORE_FIRST_CALL: CallsOnDrop = const { CallsOnDrop };
    static AFTER_FIRST_CALL: CallsOnDrop = const { CallsOnDrop };
}

fn row_calls(name: &str) -> u64 {
    let rows = snapshot().unwrap().functions_timing.map(|s| s.rows).unwrap_or_default();
    rows.iter().find(|r| r.name == format!("tls_destructors::{name}")).map_or(0, |r| r.calls)
}

#[test]
fn calls_from_thread_local_destructors_count() {
    let _session = MainGuard::start(MainConfig::new("tls_destructors::test").format("none"));
    // The session's own thread holds a recorder (its main row's self time reads it).
    let before = live_threads();
    for _ in 0..4 {
        std::thread::spawn(|| {
            // Destructors run in reverse order of registration on the platforms we know
            // (glibc, macOS, Windows), so one of these runs before the profiler's hook,
            // registered by the first measured call, and the other after it.
            BEFORE_FIRST_CALL.with(|_| {});
            first_call();
            AFTER_FIRST_CALL.with(|_| {});
        })
        .join()
        .unwrap();
    }
    assert_eq!(row_calls("first_call"), 4);
    assert_eq!(row_calls("in_destructor"), 4 * 2 * u64::from(CALLS), "every call from a destructor counts");
    assert_eq!(snapshot().unwrap().meta.dropped, 0);
    assert_eq!(live_threads(), before, "recorders attached in late destructors are retired too");
}
