//! The I/O modes of the harness (`io`, `io-cpu`): `io!`-wrapped in-memory streams
//! against unwrapped ones. See `harness.rs` for the modes.

use std::any::Any;
use std::hint::black_box;
use std::io::{Read, Write};
use std::time::Instant;

use super::process_cpu_ns;

/// What a harness user provides for the I/O modes.
pub(crate) struct IoSubject {
    /// Name printed with the results.
    pub(crate) name: &'static str,
    /// Wraps a source with the profiler's `io!` (boxed, like the unwrapped baseline).
    pub(crate) reader: fn(Source) -> Box<dyn Read>,
    /// Wraps a sink with the profiler's `io!`.
    pub(crate) writer: fn(Sink) -> Box<dyn Write>,
    /// Starts a profiling session with report output off; dropped to end it.
    pub(crate) start: fn() -> Box<dyn Any>,
}

/// Size of the in-memory streams: one 64 KiB operation copies all of it.
const STREAM: usize = 64 * 1024;

/// An endless in-memory byte source: each read copies from a 64 KiB buffer.
pub(crate) struct Source {
    data: Vec<u8>,
    pos: usize,
}

impl Source {
    fn new() -> Self {
        Self { data: (0..STREAM).map(|i| i as u8).collect(), pos: 0 }
    }
}

impl Read for Source {
    #[inline(never)]
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = buf.len().min(STREAM - self.pos);
        buf[..n].copy_from_slice(&self.data[self.pos..self.pos + n]);
        self.pos = (self.pos + n) % STREAM;
        Ok(n)
    }
}

/// An endless in-memory byte sink: each write copies into a 64 KiB buffer.
pub(crate) struct Sink {
    data: Vec<u8>,
    pos: usize,
}

impl Sink {
    fn new() -> Self {
        Self { data: vec![0; STREAM], pos: 0 }
    }
}

impl Write for Sink {
    #[inline(never)]
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = buf.len().min(STREAM - self.pos);
        self.data[self.pos..self.pos + n].copy_from_slice(&buf[..n]);
        self.pos = (self.pos + n) % STREAM;
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Best of seven rounds of `ops` reads of `size` bytes, in ns per read.
fn per_read(reader: &mut dyn Read, size: usize, ops: u64) -> f64 {
    let mut buf = vec![0u8; size];
    best_of_seven(ops, || {
        black_box(reader.read(black_box(&mut buf)).ok());
    })
}

/// Best of seven rounds of `ops` writes of `size` bytes, in ns per write.
fn per_write(writer: &mut dyn Write, size: usize, ops: u64) -> f64 {
    let buf = vec![1u8; size];
    best_of_seven(ops, || {
        black_box(writer.write(black_box(&buf)).ok());
    })
}

fn best_of_seven(ops: u64, mut op: impl FnMut()) -> f64 {
    (0..7)
        .map(|_| {
            let start = Instant::now();
            for _ in 0..ops {
                op();
            }
            start.elapsed().as_nanos() as f64 / ops as f64
        })
        .fold(f64::INFINITY, f64::min)
}

/// Runs the I/O mode named on the command line and prints `key=value` fields.
pub(crate) fn run_io(subject: IoSubject) {
    let args: Vec<String> = std::env::args().skip(1).filter(|a| a != "--bench").collect();
    let number = |i: usize, default: u64| args.get(i).and_then(|a| a.parse().ok()).unwrap_or(default);
    match args.first().map(String::as_str).unwrap_or("io") {
        "io-cpu" => {
            let ops = number(1, 10_000_000);
            let mut buf = [0u8; 64];
            let mut plain: Box<dyn Read> = Box::new(Source::new());
            let before = process_cpu_ns();
            for _ in 0..ops {
                black_box(plain.read(black_box(&mut buf)).ok());
            }
            let plain_ns = (process_cpu_ns() - before) as f64 / ops as f64;
            let before = process_cpu_ns();
            let session = (subject.start)();
            let mut wrapped = (subject.reader)(Source::new());
            for _ in 0..ops {
                black_box(wrapped.read(black_box(&mut buf)).ok());
            }
            drop(wrapped);
            drop(session);
            let io_ns = (process_cpu_ns() - before) as f64 / ops as f64;
            println!("{} io-cpu ops={ops} cpu_plain_ns_per_op={plain_ns:.2} cpu_io_ns_per_op={io_ns:.2}", subject.name);
        }
        _ => {
            let ops = number(1, 2_000_000);
            let session = (subject.start)();
            let mut fields = Vec::new();
            for (size, name, ops) in [(64, "64", ops), (STREAM, "64k", (ops / 100).max(1))] {
                let mut plain_r: Box<dyn Read> = Box::new(Source::new());
                let mut plain_w: Box<dyn Write> = Box::new(Sink::new());
                let mut io_r = (subject.reader)(Source::new());
                let mut io_w = (subject.writer)(Sink::new());
                fields.push(format!("read{name}_plain_ns={:.2}", per_read(&mut *plain_r, size, ops)));
                fields.push(format!("read{name}_io_ns={:.2}", per_read(&mut *io_r, size, ops)));
                fields.push(format!("write{name}_plain_ns={:.2}", per_write(&mut *plain_w, size, ops)));
                fields.push(format!("write{name}_io_ns={:.2}", per_write(&mut *io_w, size, ops)));
            }
            drop(session);
            println!("{} io {}", subject.name, fields.join(" "));
        }
    }
}
