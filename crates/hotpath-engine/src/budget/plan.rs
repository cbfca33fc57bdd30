//! Per-site timing rates that keep the estimated cost of timing under a budget.

/// The lowest timing rate is `2^-MAX_SHIFT` (about one call in a million).
pub(crate) const MAX_SHIFT: u32 = 20;

/// For each site's calls per second (`rates`), the shift of its timing rate
/// (`2^-shift`), so that counting every call (`untimed_ns` each) plus timing the
/// chosen share (`timed_ns` each) costs at most `budget_ns` per second. Sites called
/// at most the fair share of timed calls stay exact (shift 0); the fair share is
/// found by water-filling over the sites from the coldest up.
pub(crate) fn shifts(rates: &[f64], budget_ns: f64, timed_ns: f64, untimed_ns: f64) -> Vec<u32> {
    let floor: f64 = rates.iter().sum::<f64>() * untimed_ns;
    let extra = (timed_ns - untimed_ns).max(1e-3);
    // Timed calls per second the budget affords beyond counting; when counting alone
    // takes it all (a tiny function called very often), a tenth of it still goes to
    // timing, so cold sites stay exact and hot ones keep some timed calls.
    let mut left = (budget_ns - floor).max(budget_ns * 0.1) / extra;
    let mut order: Vec<usize> = (0..rates.len()).filter(|&i| rates[i] > 0.0).collect();
    order.sort_by(|&a, &b| rates[a].total_cmp(&rates[b]));
    let mut out = vec![0; rates.len()];
    let mut remaining = order.len();
    for i in order {
        let share = left / remaining as f64;
        if rates[i] > share {
            // The smallest shift whose timed calls fit the share.
            let ratio = rates[i] / share.max(1e-9);
            out[i] = (ratio.log2().ceil().max(1.0) as u32).min(MAX_SHIFT);
        }
        left -= (rates[i] / f64::from(1u32 << out[i])).min(left);
        remaining -= 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cold_sites_stay_exact_and_hot_ones_fit_the_budget() {
        // 1 ms of timing per second at 20 ns a timed call, 2 ns an untimed one.
        let rates = [10.0, 1_000.0, 10_000_000.0];
        let s = shifts(&rates, 1e6, 20.0, 2.0);
        assert_eq!(&s[..2], &[0, 0]);
        // Counting alone (20 ms/s) is over the budget: a tenth of it, 0.1 ms/s, times
        // 5,555 calls/s; the hot site gets what the cold ones leave, 1e7 / 2^12.
        assert_eq!(s[2], 12);
        let timing: f64 = rates.iter().zip(&s).map(|(r, k)| r / f64::from(1u32 << k) * 18.0).sum();
        assert!(timing <= 1e5, "{timing}");
        let s = shifts(&[1e6, 1e6], 0.01 * 1e9, 20.0, 2.0);
        // 10 ms/s - 4 ms/s floor = 6 ms/s / 18 ns = 333k timed calls/s, 166k each: 1/8.
        assert_eq!(s, vec![3, 3]);
        assert!(shifts(&[0.0, 5.0], 1e9, 20.0, 2.0).iter().all(|&k| k == 0));
    }
}
