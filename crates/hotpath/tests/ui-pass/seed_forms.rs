//! The forms hotpath-rs 0.30 programs use (its `all_noop` example and the third-party
//! uses it lists), which must build and run with the `hotpath` feature off and on.

use std::sync::mpsc;

#[hotpath::measure]
fn plain(x: u32) -> u32 {
    x + 1
}

#[hotpath::measure(log = true)]
fn logged(x: u32) -> u32 {
    x * 2
}

#[hotpath::measure(future = true)]
async fn fut() -> u32 {
    1
}

#[hotpath::measure(log = true, future = true)]
async fn fut_logged() -> u32 {
    2
}

#[hotpath::measure(future = true, log = true, label = "runtime_core.db.transaction.execute_statements")]
async fn labelled_future() -> u32 {
    3
}

#[hotpath::measure(impl_type = "Type")]
fn typed() {}

#[hotpath::future_fn]
async fn future_fn() -> u32 {
    4
}

#[hotpath::future_fn(log = true)]
async fn future_fn_logged() -> u32 {
    5
}

#[hotpath::measure_all]
mod measured {
    pub fn first() {}

    #[hotpath::skip]
    pub fn skipped() {}
}

struct Event;

#[hotpath::measure_all(future = true)]
impl Event {
    async fn handle(&self) -> u32 {
        6
    }
}

struct Worktree {
    name: String,
}

#[hotpath::measure_all]
impl Worktree {
    fn label<'a>(&'a self) -> impl Fn() -> &'a str + 'a {
        move || self.name.as_str()
    }

    #[hotpath::measure(log = true)]
    fn label_logged<'a>(&'a self) -> &'a str {
        &self.name
    }
}

impl Event {
    #[hotpath::skip]
    fn outside(&self) {}
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

#[hotpath::main(
    percentiles = [50, 90, 95, 99.9],
    format = "none",
    limit = 10,
    functions_limit = 5,
    channels_limit = 0,
    streams_limit = 0,
    futures_limit = 0,
    threads_limit = 2,
    rw_locks_limit = 0,
    mutexes_limit = 0,
    output_path = "/dev/null",
    report = "functions-timing,channels,streams,futures,threads"
)]
fn run() -> Result<(), Box<dyn std::error::Error>> {
    let sum = plain(1) + logged(2) + block_on(fut()) + block_on(fut_logged()) + block_on(labelled_future());
    typed();
    let futures = block_on(future_fn()) + block_on(future_fn_logged()) + block_on(Event.handle());
    measured::first();
    measured::skipped();
    Event.outside();
    let tree = Worktree { name: "main".into() };
    assert_eq!((tree.label())(), tree.label_logged());
    let r = hotpath::measure_block!("noop_block", 1 + 2);
    hotpath::measure_block!("unit_block", {
        let _ = r;
    });

    let (tx, rx) = hotpath::channel!(mpsc::channel::<String>());
    tx.send("a".into())?;
    let (tx2, rx2) = hotpath::channel!(mpsc::channel::<String>(), label = "labelled", log = true);
    let (tx3, rx3) = hotpath::channel!(mpsc::channel::<String>(), log = true, label = "logged");
    let runtime_label = format!("worker-{}", 1);
    let (tx4, rx4) = hotpath::channel!(mpsc::sync_channel::<u8>(4), capacity = 4, label = runtime_label);
    let (tx5, rx5): (hotpath::wrap::std::sync::mpsc::SyncSender<i32>, hotpath::wrap::std::sync::mpsc::Receiver<i32>) =
        hotpath::channel!(mpsc::sync_channel::<i32>(8), capacity = 8);
    #[allow(deprecated)]
    let (tx6, rx6) = hotpath::channel!(mpsc::channel::<u8>(), proxy = true, label = "lease-reply");
    tx2.send("b".into())?;
    tx3.send("c".into())?;
    tx4.send(1)?;
    tx5.send(2)?;
    tx6.send(3)?;
    let received = (rx.recv()?, rx2.recv()?, rx3.recv()?, rx4.recv()?, rx5.recv()?, rx6.recv()?);

    let f = block_on(hotpath::future!(async { 1 }));
    let g = block_on(hotpath::future!(async { 2 }, label = "labelled"));
    let h = block_on(hotpath::future!(async { 3 }, log = true));
    let i = block_on(hotpath::future!(async { 4 }, label = "a", log = true));
    let j = block_on(hotpath::future!(async { 5 }, log = true, label = "b"));

    let m = hotpath::mutex!(std::sync::Mutex::new(0u32));
    let l = hotpath::rw_lock!(std::sync::RwLock::new(0u32), label = "state");
    *m.lock().unwrap() += 1;
    *l.write().unwrap() += 1;
    let mut out = hotpath::io!(Vec::new(), label = "shared");
    std::io::Write::write_all(&mut out, b"x")?;
    let cursor = hotpath::io!(std::io::Cursor::new(vec![1u8, 2, 3]), label = "shared-read", iter = true);
    let mut bytes = Vec::new();
    std::io::Read::read_to_end(&mut hotpath::io_unwrap(cursor), &mut bytes)?;

    let start = hotpath::instant::Instant::now();
    let _ = start.elapsed();
    println!("{sum} {futures} {r} {received:?} {} {bytes:?}", f + g + h + i + j);
    Ok(())
}

fn main() {
    // No live server from a trybuild program.
    std::env::set_var("HOTPATH_METRICS_SERVER_OFF", "1");
    run().unwrap();
}
