//! Threads that have ended: the [`KEEP`] that used the most CPU stay rows of the view
//! (status `Exited`, final numbers), the others are only counted, so the view's
//! memory does not grow with the number of threads a program ever started.

/// Ended threads kept as rows.
pub(crate) const KEEP: usize = 256;

/// One ended thread's final numbers.
pub(crate) struct Ended {
    pub(crate) tid: u64,
    pub(crate) name: String,
    pub(crate) user_ns: u64,
    pub(crate) sys_ns: u64,
    pub(crate) max_cpu_percent: Option<f64>,
    /// Bytes allocated and freed (with `alloc`).
    #[cfg(feature = "alloc")]
    pub(crate) allocs: Option<(u64, u64)>,
}

impl Ended {
    fn cpu_ns(&self) -> u64 {
        self.user_ns + self.sys_ns
    }
}

/// The ended threads the view keeps.
#[derive(Default)]
pub(crate) struct Exited {
    pub(crate) kept: Vec<Ended>,
    /// Ended threads not kept (they used less CPU than every kept one).
    pub(crate) dropped: u64,
}

impl Exited {
    /// Keeps `ended` if it is among the [`KEEP`] busiest so far.
    pub(crate) fn add(&mut self, ended: Ended) {
        if self.kept.len() < KEEP {
            self.kept.push(ended);
            return;
        }
        self.dropped += 1;
        let least = self.kept.iter().enumerate().min_by_key(|(_, e)| e.cpu_ns()).map(|(i, _)| i);
        if let Some(i) = least.filter(|&i| self.kept[i].cpu_ns() < ended.cpu_ns()) {
            self.kept[i] = ended;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ended(tid: u64, cpu: u64) -> Ended {
        Ended {
            tid,
            name: format!("t{tid}"),
            user_ns: cpu,
            sys_ns: 0,
            max_cpu_percent: None,
            #[cfg(feature = "alloc")]
            allocs: None,
        }
    }

    #[test]
    fn keeps_the_busiest_and_counts_the_rest() {
        let mut exited = Exited::default();
        for tid in 0..KEEP as u64 + 44 {
            // Interleave busy and idle threads so replacement is exercised.
            let cpu = if tid % 2 == 0 { (tid + 1) * 1_000 } else { 1 };
            exited.add(ended(tid, cpu));
        }
        assert_eq!(exited.kept.len(), KEEP);
        assert_eq!(exited.dropped, 44);
        let busiest = exited.kept.iter().map(|e| e.tid).max().unwrap();
        assert_eq!(busiest, KEEP as u64 + 42, "the latest busy thread replaced an idle one");
        let evens = exited.kept.iter().filter(|e| e.tid % 2 == 0).count();
        assert_eq!(evens, (KEEP + 44) / 2, "every busy thread kept");
    }
}
