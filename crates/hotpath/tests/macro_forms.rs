//! Every macro form and parameter hotpath-rs programs use, in one file built with the
//! feature off (values pass through, nothing needs `Debug`) and on (rows named as
//! documented: `impl_type`, `future_fn` in futures, label expressions keyed by their
//! text, `capacity` reported, `log = true` values kept).

use std::future::Future;
use std::pin::Pin;
use std::sync::mpsc;
use std::task::{Context, Poll};

mod common;

/// A message type with `Debug`, for the logged forms.
#[derive(Debug, Clone, PartialEq)]
struct Job(u32);

#[hotpath::measure(log = true)]
fn logged_sync(n: u32) -> Result<u32, String> {
    if n == 0 {
        return Err("zero".into());
    }
    let parsed: u32 = format!("{n}").parse().map_err(|e: std::num::ParseIntError| e.to_string())?;
    Ok(parsed * 2)
}

#[hotpath::measure(label = "forms-labelled", log = true)]
async fn logged_async(n: u32) -> Vec<u32> {
    vec![n; 2]
}

#[hotpath::measure(future = true)]
async fn as_future(n: u32) -> u32 {
    n + 1
}

#[hotpath::measure(log = true, future = true)]
async fn as_future_logged(n: u32) -> u32 {
    n + 2
}

#[hotpath::measure(impl_type = "Worker")]
fn run_worker() -> u8 {
    7
}

#[hotpath::future_fn]
async fn fetch(n: u64) -> u64 {
    n * 10
}

#[hotpath::future_fn(log = true)]
async fn fetch_logged(n: u64) -> u64 {
    n * 100
}

struct Store {
    names: Vec<String>,
}

/// No `Debug`: `measure_all(log = true)` must still compile and skip its logs.
struct Opaque;

#[hotpath::measure_all(log = true, future = true)]
impl Store {
    fn first(&mut self) -> &mut String {
        &mut self.names[0]
    }

    fn opaque(&self) -> Opaque {
        Opaque
    }

    async fn count(&self) -> usize {
        self.names.len()
    }
}

/// A generic type: whether `T: Debug` is unknown inside the methods, so
/// `measure_all(log = true)` logs nothing for them, and still compiles.
struct Holder<T>(T);

#[hotpath::measure_all(log = true)]
impl<T: Clone> Holder<T> {
    fn get(&self) -> T {
        self.0.clone()
    }
}

trait Speak {
    #[hotpath::measure(log = true)]
    fn speak(&self) -> String {
        "default".to_string()
    }
}

impl Speak for Store {}

/// Ready immediately with its value.
struct Now<T>(Option<T>);

impl<T: Unpin> Future for Now<T> {
    type Output = T;
    fn poll(mut self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<T> {
        Poll::Ready(self.0.take().expect("polled once"))
    }
}

/// Yields `0..n`.
struct Count(u32, u32);

impl futures_core::Stream for Count {
    type Item = u32;
    fn poll_next(mut self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Option<u32>> {
        let next = (self.0 < self.1).then_some(self.0);
        self.0 += 1;
        Poll::Ready(next)
    }
}

/// Every item of a stream that never waits.
fn collect<S: futures_core::Stream + Unpin>(mut s: S) -> Vec<S::Item> {
    let mut cx = Context::from_waker(std::task::Waker::noop());
    let mut out = Vec::new();
    while let Poll::Ready(Some(item)) = Pin::new(&mut s).poll_next(&mut cx) {
        out.push(item);
    }
    out
}

/// Polls a future that never waits to completion.
fn block_on<F: Future>(f: F) -> F::Output {
    let mut f = std::pin::pin!(f);
    let mut cx = Context::from_waker(std::task::Waker::noop());
    loop {
        if let Poll::Ready(v) = f.as_mut().poll(&mut cx) {
            return v;
        }
    }
}

/// Runs every form once; returns what they evaluated to.
fn exercise() -> Vec<String> {
    let mut out = Vec::new();
    out.push(format!("{:?} {:?}", logged_sync(21), logged_sync(0)));
    out.push(format!("{:?}", block_on(logged_async(3))));
    out.push(format!("{} {}", block_on(as_future(1)), block_on(as_future_logged(1))));
    out.push(format!("{}", run_worker()));
    out.push(format!("{} {}", block_on(fetch(2)), block_on(fetch_logged(3))));
    let mut store = Store { names: vec!["a".into()] };
    store.first().push('b');
    let _ = store.opaque();
    let _ = Holder(String::new()).get();
    let _ = Holder(5u8).get();
    out.push(format!("{} {} {}", store.names[0], block_on(store.count()), store.speak()));

    // measure_block!: literal and expression labels; the value is returned.
    let sum = hotpath::measure_block!("forms-block", 1 + 2);
    let phase: &'static str = "forms-phase";
    let doubled = hotpath::measure_block!(phase, sum * 2);
    let mut steps = 0;
    for i in 0..2 {
        steps += hotpath::measure_block!(format!("forms-step-{i}"), { i + 1 });
    }
    out.push(format!("{sum} {doubled} {steps}"));

    // channel!: every parameter, in any order, label expressions.
    for i in 1..=2 {
        let (tx, rx) = hotpath::channel!(mpsc::channel::<Job>(), label = format!("forms-worker-{i}"), log = true);
        tx.send(Job(i)).unwrap();
        out.push(format!("{:?}", rx.recv().unwrap()));
    }
    let name = String::from("forms-bounded");
    let (tx, rx) = hotpath::channel!(mpsc::sync_channel::<u8>(4), log = true, capacity = 4, label = name, iter = false);
    tx.send(5).unwrap();
    out.push(format!("{} {name}", rx.recv().unwrap()));
    // `proxy = true` (older releases) warns and changes nothing.
    #[allow(deprecated)]
    let (tx, rx) = hotpath::channel!(mpsc::channel::<u8>(), iter = true, proxy = true, label = "forms-iter");
    tx.send(1).unwrap();
    out.push(format!("{}", rx.recv().unwrap()));

    // future!: log and label in both orders, expression label.
    let id = 9;
    out.push(format!("{}", block_on(hotpath::future!(Now(Some(Job(1))), log = true, label = "forms-future"))));
    out.push(format!(
        "{:?}",
        block_on(hotpath::future!(Now(Some(2u8)), label = format!("forms-future-{id}"), log = true))
    ));

    // stream!: label expression, log and iter in any order.
    let kind = "forms-stream";
    let logged = hotpath::stream!(Count(0, 2), iter = true, label = format!("{kind}-{}", 1), log = true);
    let plain = hotpath::stream!(Count(0, 3), label = kind);
    out.push(format!("{:?} {:?}", collect(logged), collect(plain)));

    // mutex!, rw_lock!, io! with label expressions.
    let lock_name = "forms-mutex".to_string();
    let m = hotpath::mutex!(std::sync::Mutex::new(1u8), label = lock_name.clone());
    *m.lock().unwrap() += 1;
    let l = hotpath::rw_lock!(std::sync::RwLock::new(2u8), label = lock_name.as_str());
    out.push(format!("{} {} {lock_name}", *m.lock().unwrap(), *l.read().unwrap()));
    let mut w = hotpath::io!(Vec::<u8>::new(), label = format!("forms-io-{}", 1));
    std::io::Write::write_all(&mut w, b"ab").unwrap();
    out.push(format!("{}", hotpath::io_unwrap(w).len()));

    let start = hotpath::instant::Instant::now();
    out.push(format!("{}", start.elapsed() < std::time::Duration::from_secs(60)));
    out
}

impl std::fmt::Display for Job {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "job {}", self.0)
    }
}

const EXPECTED: [&str; 17] = [
    "Ok(42) Err(\"zero\")",
    "[3, 3]",
    "2 3",
    "7",
    "20 300",
    "ab 1 default",
    "3 6 3",
    "Job(1)",
    "Job(2)",
    "5 forms-bounded",
    "1",
    "job 1",
    "2",
    "[0, 1] [0, 1, 2]",
    "2 2 forms-mutex",
    "2",
    "true",
];

#[test]
fn every_form_evaluates_to_its_value_and_reports_its_rows() {
    #[cfg(feature = "hotpath")]
    common::session();
    let out = exercise();
    assert_eq!(out, EXPECTED, "{out:#?}");
    #[cfg(feature = "hotpath")]
    check_report();
}

#[cfg(feature = "hotpath")]
fn check_report() {
    use hotpath::__private::logs_named;

    let report = common::report();
    let texts = |instrument: &str, name: &str| -> Vec<String> {
        logs_named(instrument, name).into_iter().map(|(_, text)| text).collect()
    };
    let functions = report.functions_timing.clone().expect("functions").rows;
    let calls = |name: &str| functions.iter().find(|r| r.name == name).map(|r| r.calls);
    for (name, n) in [
        ("macro_forms::logged_sync", 2),
        ("forms-labelled", 1),
        ("macro_forms::as_future", 1),
        ("macro_forms::Worker::run_worker", 1),
        ("macro_forms::Store::first", 1),
        ("macro_forms::Store::opaque", 1),
        ("macro_forms::Store::count", 1),
        ("forms-block", 1),
        ("forms-phase", 1),
        ("forms-step-0", 1),
        ("forms-step-1", 1),
    ] {
        assert_eq!(calls(name), Some(n), "{name} in {functions:#?}");
    }
    assert_eq!(calls("macro_forms::run_worker"), None, "impl_type renames the row");
    // measure_block! rows are named by the label alone; the row says where the block is.
    let block = functions.iter().find(|r| r.name == "forms-block").expect("block row");
    assert!(block.file.ends_with("tests/macro_forms.rs") && block.line > 0, "{block:?}");
    // #[future_fn] and future! are futures only.
    let futures = report.futures.clone().expect("futures").rows;
    for name in ["macro_forms::fetch", "macro_forms::fetch_logged", "forms-future", "forms-future-9"] {
        let row = futures.iter().find(|r| r.name == name).unwrap_or_else(|| panic!("{name}: {futures:#?}"));
        assert_eq!((row.kind.as_str(), row.calls), ("future", 1), "{name}");
        assert_eq!(calls(name), None, "{name} is not a function row");
    }
    // Label expressions: one row per evaluated text; capacity where std hides it.
    let channels = report.channels.clone().expect("channels").rows;
    let channel =
        |name: &str| channels.iter().find(|r| r.name == name).unwrap_or_else(|| panic!("{name}: {channels:#?}"));
    for name in ["forms-worker-1", "forms-worker-2"] {
        assert_eq!((channel(name).sent, channel(name).instances), (1, 1), "{name}");
    }
    assert_eq!(
        (channel("forms-bounded").kind.as_str(), channel("forms-bounded").capacity),
        ("std::sync_channel", Some(4))
    );
    assert_eq!(channel("forms-iter").received, 1);
    let mutexes = report.mutexes.clone().expect("mutexes").rows;
    assert!(mutexes.iter().any(|r| r.name == "forms-mutex"), "{mutexes:#?}");
    let rw_locks = report.rw_locks.clone().expect("rw_locks").rows;
    assert!(rw_locks.iter().any(|r| r.name == "forms-mutex"), "{rw_locks:#?}");
    let streams = report.streams.clone().expect("streams").rows;
    let stream = |name: &str| streams.iter().find(|r| r.name == name).unwrap_or_else(|| panic!("{name}: {streams:#?}"));
    assert_eq!((stream("forms-stream-1").items, stream("forms-stream").items), (2, 3));
    assert_eq!(texts("streams", "forms-stream-1"), ["0", "1"]);
    assert_eq!(texts("streams", "forms-stream"), Vec::<String>::new());
    let speak = functions.iter().find(|r| r.name.ends_with("speak")).expect("trait default method");
    assert_eq!(texts("functions_timing", &speak.name), ["\"default\""], "{}", speak.name);
    let io = report.io.clone().expect("io").rows;
    assert!(io.iter().any(|r| r.name == "forms-io-1"), "{io:#?}");
    // log = true: the values, in order; measure_all skips types without Debug.
    assert_eq!(texts("functions_timing", "macro_forms::logged_sync"), ["Ok(42)", "Err(\"zero\")"]);
    assert_eq!(texts("functions_timing", "forms-labelled"), ["[3, 3]"]);
    assert_eq!(texts("functions_timing", "macro_forms::as_future_logged"), ["3"]);
    assert_eq!(texts("functions_timing", "macro_forms::as_future"), Vec::<String>::new());
    assert_eq!(texts("futures", "macro_forms::fetch_logged"), ["300"]);
    assert_eq!(texts("functions_timing", "macro_forms::Store::first"), ["\"a\""]);
    assert_eq!(texts("functions_timing", "macro_forms::Store::count"), ["1"]);
    assert_eq!(texts("functions_timing", "macro_forms::Store::opaque"), Vec::<String>::new());
    assert_eq!(calls("macro_forms::Holder::get"), Some(2));
    assert_eq!(texts("functions_timing", "macro_forms::Holder::get"), Vec::<String>::new());
    assert_eq!(texts("channels", "forms-worker-1"), ["Job(1)"]);
    assert_eq!(texts("channels", "forms-bounded"), ["5"]);
    assert_eq!(texts("channels", "forms-iter"), Vec::<String>::new(), "no log without log = true");
    assert_eq!(texts("futures", "forms-future"), ["Job(1)"]);
    assert_eq!(texts("futures", "forms-future-9"), ["2"]);
}
