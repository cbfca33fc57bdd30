//! A producer that outpaces its consumer.
//!
//! Every 10 ms the producer puts a batch of 10 jobs on the `jobs` channel and the
//! consumer takes only 2 of them, so the queue grows by 8 per round: the report flags
//! `jobs` as a slow consumer, with a queue that peaked at 8 × 149 + 10 = 1202 and
//! latencies over a second. The consumer drains the backlog once production ends. The
//! `go` and `acks` channels that pace the rounds keep up and are not flagged.
//!
//! ```sh
//! cargo run --example slow_consumer --features hotpath
//! ```

use std::sync::mpsc;
use std::time::Duration;

const ROUNDS: u32 = 150;
const BATCH: u32 = 10;
const TAKEN_PER_ROUND: u32 = 2;

#[hotpath::main]
fn main() {
    let (jobs, queue) = hotpath::channel!(mpsc::channel::<u32>(), label = "jobs");
    let (go, wait_go) = hotpath::channel!(mpsc::channel::<u32>(), label = "go");
    let (ack, wait_ack) = hotpath::channel!(mpsc::channel::<u32>(), label = "acks");

    let consumer = std::thread::spawn(move || {
        let mut taken = 0;
        for round in wait_go.iter() {
            for _ in 0..TAKEN_PER_ROUND {
                queue.recv().unwrap();
                taken += 1;
            }
            ack.send(round).unwrap();
        }
        taken + queue.iter().count() as u32 // production over: drain the backlog
    });

    for round in 0..ROUNDS {
        for i in 0..BATCH {
            jobs.send(round * BATCH + i).unwrap();
        }
        go.send(round).unwrap();
        wait_ack.recv().unwrap();
        std::thread::sleep(Duration::from_millis(10));
    }
    drop((jobs, go));
    println!("consumed {} jobs", consumer.join().unwrap());
}
