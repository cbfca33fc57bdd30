//! Every async and concurrency instrument once, for the JSON schema test.

use std::pin::Pin;
use std::task::{Context, Poll};

struct Three(u8);

impl futures_core::Stream for Three {
    type Item = u8;
    fn poll_next(mut self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Option<u8>> {
        self.0 += 1;
        Poll::Ready((self.0 <= 3).then_some(self.0))
    }
}

#[hotpath::main]
#[tokio::main(flavor = "current_thread")]
async fn main() {
    let (tx, rx) = hotpath::channel!(std::sync::mpsc::sync_channel::<u8>(1), label = "flow-channel");
    tx.send(1).unwrap();
    assert_eq!(rx.recv(), Ok(1));
    let m = hotpath::mutex!(std::sync::Mutex::new(0u8), label = "flow-mutex");
    *m.lock().unwrap() += 1;
    let l = hotpath::rw_lock!(std::sync::RwLock::new(0u8), label = "flow-rw-lock");
    let read = *l.read().unwrap();
    *l.write().unwrap() += read;
    let answer = hotpath::future!(async { 42 }, label = "flow-future").await;
    let mut s = hotpath::stream!(Three(0), label = "flow-stream");
    let mut items = 0;
    while std::future::poll_fn(|cx| futures_core::Stream::poll_next(Pin::new(&mut s), cx)).await.is_some() {
        items += 1;
    }
    println!("{answer} {items}");
}
