//! Aggregated CPU samples: per measured site (self and inclusive) and per native
//! call stack (for the folded, flamegraph and pprof exports).

use std::collections::HashMap;
use std::time::Instant;

use super::sample::RawSample;
use super::unwind::Modules;

/// Distinct call stacks kept; samples of further new stacks are counted together.
const MAX_STACKS: usize = 50_000;
/// CPU time above which one signal's merged expiries count as delivered late: 5 ticks
/// at HZ=250, 2 at HZ=100, so an idle machine's tick-sized lumps never reach it.
const LATE_NS: u64 = 20_000_000;

/// Whether a signal of `weight` periods was found late: it merged expiries (a lone
/// expiry is on time, however long the period: 10 Hz samples 100 ms each) and they
/// span more than [`LATE_NS`].
fn is_late(weight: u64, period_ns: u64) -> bool {
    weight > 1 && weight.saturating_mul(period_ns) > LATE_NS
}

pub(crate) struct Profile {
    pub(crate) hz: u64,
    /// Timer periods sampled: signals weighted by their merged expirations.
    pub(crate) samples: u64,
    /// Signals handled (each unwound once).
    pub(crate) signals: u64,
    /// Samples taken while no measured function was active on the thread.
    pub(crate) unmeasured: u64,
    /// Samples whose measured stack was deeper than the kept depth.
    pub(crate) truncated: u64,
    /// Samples of signals standing for more than [`LATE_NS`] of CPU.
    pub(crate) late: u64,
    /// Samples without a native stack (stack unreadable or unwinding failed).
    pub(crate) without_stack: u64,
    /// Samples of stacks beyond [`MAX_STACKS`].
    pub(crate) overflow: u64,
    /// Per site id: samples where it was the innermost measured function.
    pub(crate) self_samples: Vec<u64>,
    /// Per site id: samples where it was anywhere on the measured stack.
    pub(crate) inclusive_samples: Vec<u64>,
    /// Native stacks, leaf first, with their sample counts.
    pub(crate) stacks: HashMap<Vec<u64>, u64>,
    pub(crate) unwind_ns: u64,
    frames: Vec<u64>,
}

impl Profile {
    pub(crate) fn new(hz: u64) -> Self {
        Self {
            hz,
            samples: 0,
            signals: 0,
            unmeasured: 0,
            truncated: 0,
            late: 0,
            without_stack: 0,
            overflow: 0,
            self_samples: Vec::new(),
            inclusive_samples: Vec::new(),
            stacks: HashMap::new(),
            unwind_ns: 0,
            frames: Vec::with_capacity(super::unwind::MAX_FRAMES),
        }
    }

    /// CPU time one sample stands for.
    pub(crate) fn period_ns(&self) -> u64 {
        1_000_000_000 / self.hz.max(1)
    }

    /// Adds a sample, weighted by the timer periods it stands for.
    pub(crate) fn add(&mut self, raw: &RawSample, modules: &mut Modules) {
        let weight = raw.weight.max(1);
        self.samples += weight;
        self.signals += 1;
        self.truncated += u64::from(raw.truncated) * weight;
        if is_late(weight, self.period_ns()) {
            self.late += weight;
        }
        let ids = &raw.ids[..raw.ids_len];
        match ids.last() {
            None => self.unmeasured += weight,
            Some(&innermost) => {
                bump(&mut self.self_samples, innermost, weight);
                for (i, &id) in ids.iter().enumerate() {
                    // A recursive function counts once per sample.
                    if !ids[..i].contains(&id) {
                        bump(&mut self.inclusive_samples, id, weight);
                    }
                }
            }
        }
        let start = Instant::now();
        modules.unwind(raw, &mut self.frames);
        self.unwind_ns += start.elapsed().as_nanos() as u64;
        if self.frames.is_empty() {
            self.without_stack += weight;
        } else if let Some(count) = self.stacks.get_mut(&self.frames) {
            *count += weight;
        } else if self.stacks.len() < MAX_STACKS {
            self.stacks.insert(self.frames.clone(), weight);
        } else {
            self.overflow += weight;
        }
    }
}

fn bump(counts: &mut Vec<u64>, id: u32, weight: u64) {
    let id = id as usize;
    if counts.len() <= id {
        counts.resize(id + 1, 0);
    }
    counts[id] += weight;
}

#[cfg(test)]
mod tests {
    use super::is_late;

    #[test]
    fn a_signal_is_late_when_its_merged_expiries_span_over_20_ms() {
        // 1 kHz: a tick's lump at HZ=250 (4) and HZ=100 (10) is on time, 21 is late.
        assert!(!is_late(4, 1_000_000) && !is_late(10, 1_000_000) && !is_late(20, 1_000_000));
        assert!(is_late(21, 1_000_000));
        // 10 Hz: one expiry is 100 ms of CPU and on time; two merged are late.
        assert!(!is_late(1, 100_000_000) && is_late(2, 100_000_000));
    }
}
