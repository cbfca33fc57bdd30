//! The allocator's side: which allocations are sampled, and their stacks.
//!
//! Sampling is by bytes, as a Poisson process: each thread counts down a random
//! number of bytes drawn from an exponential distribution of mean `T`
//! (`HOTPATH_HEAP_SAMPLE_BYTES`); the allocation that crosses zero is sampled and a
//! new countdown drawn. An allocation of `s` bytes is then sampled with probability
//! `1 - exp(-s/T)`, independently of every other (the process is memoryless), which
//! is what the estimates in `estimate.rs` divide by. The countdown is one thread-local
//! subtraction and a branch per allocation; the rest is a cold function.
//!
//! A sampled allocation's stack is captured where it happens, by the system unwinder
//! (`_Unwind_Backtrace`, through `backtrace::trace_unsynchronized`: no allocation, no
//! lock of ours; it is what jemalloc's heap profiler calls inside malloc), and kept as
//! raw return addresses: names, files and lines are resolved by the collector. The
//! CPU sampler's framehop unwinder needs its module table and cache behind a lock
//! that a hook running inside any lock could not wait for, and gives no file:line.
//! The capture runs under `alloc_counters::untracked`, so whatever it might allocate
//! is neither counted nor sampled, and the profiler's own threads and `untracked`
//! sections are never sampled.

use std::cell::Cell;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use super::table::{self, Sample, FRAMES};
use crate::alloc_counters;

use crate::options::DEFAULT_HEAP_SAMPLE_BYTES as DEFAULT_SAMPLE_BYTES;

static ON: AtomicBool = AtomicBool::new(false);
static MEAN: AtomicU64 = AtomicU64::new(DEFAULT_SAMPLE_BYTES);
/// Seeds handed to threads, in the order they first cross a countdown.
static SEEDS: AtomicU64 = AtomicU64::new(0);

/// Starts sampling at a mean of `mean_bytes` between samples.
pub(crate) fn start(mean_bytes: u64) {
    MEAN.store(mean_bytes.max(1), Ordering::Relaxed);
    ON.store(true, Ordering::Release);
}

/// Whether a session started sampling.
pub(crate) fn started() -> bool {
    ON.load(Ordering::Acquire)
}

/// The mean interval in use, bytes.
pub(crate) fn mean_bytes() -> u64 {
    MEAN.load(Ordering::Relaxed)
}

struct Countdown {
    /// Bytes left before the next sample; negative: sample now.
    left: Cell<i64>,
    /// xorshift state; 0 until the thread's first crossing seeds it.
    rng: Cell<u64>,
}

thread_local! {
    // Const-initialized, no destructor: usable from the allocator at any point.
    static COUNTDOWN: Countdown = const { Countdown { left: Cell::new(0), rng: Cell::new(0) } };
}

/// Called after every successful allocation of `size` bytes at `ptr`.
#[inline(always)]
pub(crate) fn allocated(ptr: *mut u8, size: usize) {
    counted(ptr, size, size);
}

/// Counts `counted` bytes down; on a crossing, samples the block at `ptr` of `size` bytes.
#[inline(always)]
fn counted(ptr: *mut u8, counted: usize, size: usize) {
    let crossed = COUNTDOWN
        .try_with(|c| {
            let left = c.left.get() - counted as i64;
            c.left.set(left);
            left < 0
        })
        .unwrap_or(false);
    if crossed {
        crossing(ptr as usize, counted, size);
    }
}

/// Called after every deallocation of `ptr`: one filter load for unsampled blocks.
#[inline(always)]
pub(crate) fn freed(ptr: *mut u8) {
    if table::maybe_sampled(ptr as usize) {
        table::remove(ptr as usize);
    }
}

/// Before a realloc of `old`: takes its sample out of the table, if it has one.
#[inline(always)]
pub(crate) fn realloc_take(old: *mut u8) -> Option<Sample> {
    if table::maybe_sampled(old as usize) {
        table::remove(old as usize)
    } else {
        None
    }
}

/// After a realloc: a sampled block keeps its sample (and stack) under its new
/// address and size; an unsampled one counts only the bytes it grew by, so a block
/// grown step by step to `s` bytes has been counted `s` bytes in all and is sampled
/// with probability `1 - exp(-s/T)`, as the estimate assumes. A failed realloc (`new`
/// null) leaves the old block, and its sample, where they were.
#[inline(always)]
pub(crate) fn realloc_done(old: *mut u8, new: *mut u8, old_size: usize, new_size: usize, kept: Option<Sample>) {
    match kept {
        Some(mut sample) if !new.is_null() => {
            sample.size = new_size;
            table::insert(new as usize, &sample);
        }
        Some(sample) => {
            table::insert(old as usize, &sample);
        }
        None if !new.is_null() && new_size > old_size => counted(new, new_size - old_size, new_size),
        None => {}
    }
}

/// The cold path of a countdown crossing zero: draw the next countdown, and sample
/// this allocation unless it is the thread's first crossing (which only seeds it),
/// sampling is off, or the profiler itself allocated it.
#[cold]
#[inline(never)]
fn crossing(addr: usize, counted: usize, size: usize) {
    let sampled = COUNTDOWN.try_with(|c| {
        let mean = MEAN.load(Ordering::Relaxed);
        if c.rng.get() == 0 {
            // First crossing: the countdown starts here, before this allocation.
            let n = SEEDS.fetch_add(1, Ordering::Relaxed) + 1;
            c.rng.set(n.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
            let left = draw(&c.rng, mean) - counted as i64;
            c.left.set(left);
            if left >= 0 {
                return false;
            }
        }
        c.left.set(draw(&c.rng, mean));
        true
    });
    if sampled != Ok(true) || !ON.load(Ordering::Acquire) || alloc_counters::paused() {
        return;
    }
    alloc_counters::untracked(|| {
        let mut sample = Sample::EMPTY;
        sample.size = size;
        capture(&mut sample);
        super::totals::add(&sample);
        table::insert(addr, &sample);
    });
}

/// An exponential draw of mean `mean` bytes (at least 1).
fn draw(rng: &Cell<u64>, mean: u64) -> i64 {
    let mut x = rng.get();
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    rng.set(x);
    // 53 random bits as a uniform in (0, 1].
    let u = ((x >> 11) as f64 + 1.0) / (1u64 << 53) as f64;
    let bytes = -u.ln() * mean as f64;
    (bytes as i64).max(1)
}

/// Return addresses of the calling stack, leaf first, without this module's frames.
fn capture(sample: &mut Sample) {
    let mut len = 0;
    // SAFETY: `trace_unsynchronized` must not run concurrently with another
    // unsynchronized trace on a platform whose unwinder is not thread-safe; on
    // Linux it is libgcc's `_Unwind_Backtrace`, which is. The closure only writes
    // into `sample`, never allocates, and never panics (indices are bounded).
    unsafe {
        backtrace::trace_unsynchronized(|frame| {
            if len < FRAMES {
                sample.frames[len] = frame.ip() as u64;
                len += 1;
            }
            len < FRAMES
        });
    }
    sample.len = len;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_have_the_mean_asked_for() {
        let rng = Cell::new(0x1234_5678_9abc_def1);
        let n = 200_000;
        let sum: i64 = (0..n).map(|_| draw(&rng, 4096)).sum();
        let mean = sum as f64 / n as f64;
        // The standard error of the mean of an exponential is mean/sqrt(n): 9 bytes here.
        assert!((mean - 4096.0).abs() < 60.0, "mean {mean}");
    }
}
