//! What a signal handler records about the interrupted thread, and the ring that
//! carries those records from signal handlers on any thread to the `hp-cpu` thread.

use super::ring::{Empty, Ring};
use crate::record::stack::DEPTH;

/// Bytes of stack copied per sample, starting at the stack pointer.
pub(crate) const STACK_BYTES: usize = 16 * 1024;
/// Samples in flight between handlers and the `hp-cpu` thread.
const SLOTS: usize = 128;

/// Zero-initialized, so it lives in .bss until slots are used (~2 MiB when full).
pub(crate) static RING: Ring<RawSample, SLOTS> = Ring::new();

/// One sample of an interrupted thread.
pub(crate) struct RawSample {
    pub(crate) tid: u64,
    /// Timer periods this sample stands for: 1 plus the expirations the kernel merged
    /// into this signal (CPU timers are checked at the scheduler tick).
    pub(crate) weight: u64,
    pub(crate) ip: u64,
    pub(crate) sp: u64,
    pub(crate) bp: u64,
    /// Valid bytes of `stack` (0 when the stack could not be read).
    pub(crate) stack_len: usize,
    pub(crate) stack: [u8; STACK_BYTES],
    /// Measured site ids, outermost first.
    pub(crate) ids: [u32; DEPTH],
    pub(crate) ids_len: usize,
    pub(crate) truncated: bool,
}

impl Empty for RawSample {
    const EMPTY: Self = Self {
        tid: 0,
        weight: 1,
        ip: 0,
        sp: 0,
        bp: 0,
        stack_len: 0,
        stack: [0; STACK_BYTES],
        ids: [0; DEPTH],
        ids_len: 0,
        truncated: false,
    };
}
