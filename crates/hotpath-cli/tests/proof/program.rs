//! The proof program of `tests/compare_proof.rs`: threads, a contended mutex, a
//! bounded channel and file I/O, whose scheduling-dependent counts differ from run to
//! run, beside deterministic measured work. `PROOF_SLOW=1` makes `checksum` do twice
//! the work; `PROOF_EXTRA_ALLOC=1` makes `parse` allocate once more per call.

use std::hint::black_box;
use std::io::{Read, Write};
use std::sync::Arc;

const ITEMS: u64 = 2_000;

#[hotpath::measure]
fn produce(i: u64) -> u64 {
    (0..50).fold(i, |a, b| black_box(a.rotate_left(5) ^ b))
}

#[hotpath::measure]
fn checksum(data: &[u8], rounds: u64) -> u64 {
    let mut acc = 0u64;
    for round in 0..rounds {
        for &b in data {
            acc = black_box(acc.wrapping_mul(31).wrapping_add(u64::from(b) ^ round));
        }
    }
    acc
}

#[hotpath::measure]
fn parse(line: &str, extra: bool) -> usize {
    let fields: Vec<&str> = line.split(',').collect();
    if extra {
        black_box(Box::new(fields.len()));
    }
    fields.len()
}

#[hotpath::main]
fn main() {
    let slow = std::env::var_os("PROOF_SLOW").is_some();
    let extra = std::env::var_os("PROOF_EXTRA_ALLOC").is_some();
    let (tx, rx) = hotpath::channel!(std::sync::mpsc::sync_channel::<u64>(8), label = "items");
    let counter = Arc::new(hotpath::mutex!(std::sync::Mutex::new(0u64), label = "counter"));
    let mut threads = Vec::new();
    let c = Arc::clone(&counter);
    threads.push(std::thread::spawn(move || {
        for i in 0..ITEMS {
            let v = produce(i);
            *c.lock().unwrap() += 1;
            tx.send(v).unwrap();
        }
    }));
    for _ in 0..2 {
        let c = Arc::clone(&counter);
        threads.push(std::thread::spawn(move || {
            for _ in 0..ITEMS {
                *c.lock().unwrap() += 1;
            }
        }));
    }
    let mut sum = 0u64;
    while let Ok(v) = rx.recv() {
        sum ^= v;
    }
    for t in threads {
        t.join().unwrap();
    }
    let path = std::env::temp_dir().join(format!("hotpath-proof-{}.bin", std::process::id()));
    {
        let mut file = hotpath::io!(std::fs::File::create(&path).unwrap(), label = "proof-write");
        for chunk in 0..64u8 {
            file.write_all(&[chunk; 512]).unwrap();
        }
        file.flush().unwrap();
    }
    let mut back = Vec::new();
    hotpath::io!(std::fs::File::open(&path).unwrap(), label = "proof-read").read_to_end(&mut back).unwrap();
    let _ = std::fs::remove_file(&path);
    let data: Vec<u8> = (0..256u32).map(|i| (i * 7) as u8).collect();
    for _ in 0..20 {
        sum ^= checksum(&data, if slow { 80 } else { 40 });
    }
    let lines: Vec<String> = (0..200).map(|i| format!("{i},a,b,c")).collect();
    let fields: usize = lines.iter().map(|l| parse(l, extra)).sum();
    println!("{sum} {fields} {} {}", back.len(), *counter.lock().unwrap());
}
