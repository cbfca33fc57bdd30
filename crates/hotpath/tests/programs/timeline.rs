//! A program of known shape for the timeline tests (`tests/timeline.rs`): nested calls,
//! one async call polled on two threads, messages over a `channel!`, a contended
//! `mutex!`, a `gauge!` set three times, and calls over a trigger's threshold.
//!
//! `timeline <slow calls> [panic]`: that many calls of `slow` (default 0), 40 ms each,
//! over its 20 ms `timeline_over`, 50 ms apart; with `panic`, a thread that panics
//! (and is joined: the program goes on).

use std::future::Future;
use std::pin::Pin;
use std::sync::{mpsc, Arc, Barrier, Mutex};
use std::task::{Context, Poll, Waker};
use std::thread;
use std::time::Duration;

/// Calls of `outer`, each calling `inner` twice.
const CALLS: usize = 5;
/// Messages sent over the channel.
const MESSAGES: u32 = 8;

#[hotpath::measure]
fn inner(i: usize) -> usize {
    std::hint::black_box(i * 2)
}

#[hotpath::measure]
fn outer(i: usize) -> usize {
    inner(i) + inner(i + 1)
}

#[hotpath::measure(timeline_over = "20ms")]
fn slow() {
    thread::sleep(Duration::from_millis(40));
}

/// Pending on its first poll, ready on the second.
struct YieldOnce(bool);

impl Future for YieldOnce {
    type Output = ();
    fn poll(mut self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<()> {
        if std::mem::replace(&mut self.0, true) {
            Poll::Ready(())
        } else {
            Poll::Pending
        }
    }
}

#[hotpath::measure]
async fn hop() -> u32 {
    YieldOnce(false).await;
    7
}

type Hop = Pin<Box<dyn Future<Output = u32> + Send>>;

/// Polls `future` once on a new thread named `name`.
fn poll_on(name: &str, mut future: Hop) -> (Hop, Poll<u32>) {
    thread::Builder::new()
        .name(name.into())
        .spawn(move || {
            let polled = future.as_mut().poll(&mut Context::from_waker(Waker::noop()));
            (future, polled)
        })
        .unwrap()
        .join()
        .unwrap()
}

#[hotpath::main]
fn main() {
    let slow_calls: usize = std::env::args().nth(1).map_or(0, |n| n.parse().expect("a number of slow calls"));
    for i in 0..CALLS {
        outer(i);
    }

    let (future, first) = poll_on("poller-a", Box::pin(hop()));
    assert!(first.is_pending());
    let (_, second) = poll_on("poller-b", future);
    assert_eq!(second, Poll::Ready(7));

    let (tx, rx) = hotpath::channel!(mpsc::channel::<u32>(), label = "jobs");
    let producer = thread::Builder::new()
        .name("producer".into())
        .spawn(move || (0..MESSAGES).for_each(|i| tx.send(i).unwrap()))
        .unwrap();
    let consumer = thread::Builder::new()
        .name("consumer".into())
        .spawn(move || (0..MESSAGES).map(|_| rx.recv().unwrap()).sum::<u32>())
        .unwrap();
    producer.join().unwrap();
    assert_eq!(consumer.join().unwrap(), (0..MESSAGES).sum::<u32>());

    let ledger = Arc::new(hotpath::mutex!(Mutex::new(0u32), label = "ledger"));
    let held = Arc::new(Barrier::new(2));
    let holder = {
        let (ledger, held) = (Arc::clone(&ledger), Arc::clone(&held));
        thread::Builder::new()
            .name("holder".into())
            .spawn(move || {
                let mut value = ledger.lock().unwrap();
                held.wait();
                thread::sleep(Duration::from_millis(30));
                *value += 1;
            })
            .unwrap()
    };
    let waiter = {
        let ledger = Arc::clone(&ledger);
        thread::Builder::new()
            .name("waiter".into())
            .spawn(move || {
                held.wait();
                *ledger.lock().unwrap() += 1;
            })
            .unwrap()
    };
    holder.join().unwrap();
    waiter.join().unwrap();

    for depth in [1.0, 5.0, 3.0] {
        hotpath::gauge!("depth").set(depth);
    }

    for _ in 0..slow_calls {
        slow();
        thread::sleep(Duration::from_millis(50));
    }
    if std::env::args().nth(2).as_deref() == Some("panic") {
        let panicked = thread::Builder::new().name("doomed".into()).spawn(|| panic!("doomed on purpose")).unwrap();
        assert!(panicked.join().is_err());
    }
}
