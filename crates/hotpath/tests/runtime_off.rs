//! The runtime-off mode: before `#[hotpath::main]` starts a session a measured call
//! records nothing (it costs one relaxed atomic load), and recording starts with it.
#![cfg(feature = "hotpath")]

use hotpath::__private::{live_threads, snapshot, MainConfig, MainGuard};

#[hotpath::measure]
fn work(x: u64) -> u64 {
    std::hint::black_box(x + 1)
}

#[hotpath::measure]
async fn work_async(x: u64) -> u64 {
    x * 2
}

fn block_on<F: std::future::Future>(f: F) -> F::Output {
    let mut f = std::pin::pin!(f);
    let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
    loop {
        if let std::task::Poll::Ready(v) = f.as_mut().poll(&mut cx) {
            return v;
        }
    }
}

#[test]
fn nothing_is_recorded_before_the_session() {
    for i in 0..1000 {
        work(i);
        block_on(work_async(i));
    }
    assert!(snapshot().is_none(), "no session yet");
    assert_eq!(live_threads(), 0, "not even a recorder was created");

    let _session = MainGuard::start(MainConfig::new("runtime_off::test").format("none"));
    for i in 0..3 {
        work(i);
        block_on(work_async(i));
    }
    let rows = snapshot().unwrap().functions_timing.unwrap().rows;
    let calls = |name: &str| rows.iter().find(|r| r.name == format!("runtime_off::{name}")).unwrap().calls;
    assert_eq!((calls("work"), calls("work_async")), (3, 3));
}
