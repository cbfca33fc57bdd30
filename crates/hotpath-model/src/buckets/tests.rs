use super::*;

#[test]
fn a_value_lies_in_its_bucket() {
    for seconds in [1e-9, 3.3e-7, 1e-3, 0.5, 1.0, 2.0, 7.25, 1e4, 1e-310, 1.7e308] {
        let i = exponential_index(seconds);
        assert!(exponential_upper(i - 1) < seconds && seconds <= exponential_upper(i), "{seconds} in {i}");
    }
    assert_eq!(exponential_index(1.0), 0);
    assert_eq!(exponential_index(2.0), 256);
    assert_eq!(exponential_index(0.5), -256);
}

/// The bounds are glibc's `exp2` (what they were computed with before the table), bit
/// for bit, over the whole normal range; other libraries' within a unit in the last place.
#[test]
fn the_bounds_are_exp2() {
    for i in -1022 * PER_OCTAVE..1024 * PER_OCTAVE {
        let (ours, libm) = (exponential_upper(i), (f64::from(i) / f64::from(PER_OCTAVE)).exp2());
        if cfg!(all(target_os = "linux", target_env = "gnu")) {
            assert_eq!(ours.to_bits(), libm.to_bits(), "bucket {i}: {ours:e} against exp2's {libm:e}");
        } else {
            assert!(ours.to_bits().abs_diff(libm.to_bits()) <= 1, "bucket {i}: {ours:e} against exp2's {libm:e}");
        }
    }
    assert_eq!(exponential_upper(1024 * PER_OCTAVE), f64::INFINITY);
    assert_eq!(exponential_upper(-1075 * PER_OCTAVE), 0.0);
}

/// The index as it was computed before, from `log2` and settled against the bounds.
fn by_logarithm(seconds: f64) -> i32 {
    let mut i = (seconds.log2() * f64::from(PER_OCTAVE)).ceil() as i32;
    if seconds > exponential_upper(i) {
        i += 1;
    } else if seconds <= exponential_upper(i - 1) {
        i -= 1;
    }
    i
}

#[test]
fn the_index_is_the_one_the_logarithm_gave() {
    // Every bound, and the doubles on either side of it; durations from 1 ns to a year.
    for i in -1022 * PER_OCTAVE..1023 * PER_OCTAVE {
        let bound = exponential_upper(i);
        for seconds in [f64::from_bits(bound.to_bits() - 1), bound, f64::from_bits(bound.to_bits() + 1)] {
            assert_eq!(exponential_index(seconds), by_logarithm(seconds), "{seconds:e}");
        }
    }
    for ns in (1..2_000_000u64).chain((1..40).map(|k| 1u64 << k).flat_map(|p| [p - 1, p, p + 1])) {
        for ratio in [1.0, 0.37, 1.0 / 3.0] {
            let seconds = ns as f64 * ratio / 1e9;
            assert_eq!(exponential_index(seconds), by_logarithm(seconds), "{seconds:e}");
        }
    }
    assert_eq!(exponential_index(f64::NAN), 0);
    assert_eq!(exponential_index(-1.0), 0);
    assert_eq!(exponential_index(f64::INFINITY), i32::MAX - 1);
}
