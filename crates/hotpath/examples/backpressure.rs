//! A bounded channel with a consumer slower than its producer.
//!
//! `frames` holds 4 messages. The producer fills it, then every further send waits
//! for the consumer, which takes a frame every 5 ms: the report shows those waits as
//! blocked sends, and a queue that never grew past the capacity.
//!
//! ```sh
//! cargo run --example backpressure --features hotpath
//! ```

use std::sync::mpsc;
use std::time::Duration;

const CAPACITY: usize = 4;
const FRAMES: u32 = 40;

#[hotpath::main]
fn main() {
    let (frames, incoming) = hotpath::channel!(mpsc::sync_channel::<Vec<u8>>(CAPACITY), label = "frames");
    for i in 0..CAPACITY as u32 {
        frames.send(vec![i as u8; 64]).unwrap();
    }
    let consumer = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(100)); // the producer is waiting by now
        let mut bytes = 0;
        while let Ok(frame) = incoming.recv() {
            bytes += frame.len();
            std::thread::sleep(Duration::from_millis(5));
        }
        bytes
    });
    for i in CAPACITY as u32..FRAMES {
        frames.send(vec![i as u8; 64]).unwrap();
    }
    drop(frames);
    println!("consumed {} bytes", consumer.join().unwrap());
}
