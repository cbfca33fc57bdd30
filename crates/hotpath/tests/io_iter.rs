//! `iter = true` gives every instance its own row, named `label`, `label-2`,
//! `label-3`, ..., and then profiler state grows with the instances; without it
//! the instances of a site share one row.
#![cfg(feature = "hotpath")]

mod common;

use std::io::Write;

fn write_through(n: usize, per_instance: bool) {
    if per_instance {
        let mut out = hotpath::io!(Vec::new(), label = "each", iter = true);
        out.write_all(&vec![0u8; n]).unwrap();
    } else {
        let mut out = hotpath::io!(Vec::new(), label = "shared");
        out.write_all(&vec![0u8; n]).unwrap();
    }
}

#[test]
fn iter_gives_each_instance_its_own_row() {
    common::session();
    for n in [10, 20, 30] {
        write_through(n, true);
        write_through(n, false);
    }
    for (name, bytes) in [("each", 10), ("each-2", 20), ("each-3", 30)] {
        let row = common::live_io_row(name);
        assert_eq!((row.instances, row.write.bytes, row.iter, row.label.as_deref()), (1, bytes, true, Some("each")));
    }
    let shared = common::live_io_row("shared");
    assert_eq!((shared.instances, shared.write.bytes, shared.iter), (3, 60, false));

    // Per-instance rows cost per-instance state (an entry and a cell of about 1 KiB
    // each); shared rows do not: at most a histogram octave (512 B) when a duration
    // lands in a power-of-two range not seen before.
    let before = hotpath::__private::profiler_bytes();
    for _ in 0..100 {
        write_through(1, false);
    }
    let shared = hotpath::__private::profiler_bytes() - before;
    assert!(shared % 512 == 0 && shared <= 4 * 512, "100 shared instances added {shared} bytes");
    let before = hotpath::__private::profiler_bytes();
    for _ in 0..100 {
        write_through(1, true);
    }
    let grown = hotpath::__private::profiler_bytes() - before;
    assert!(grown >= 100 * 1024, "100 per-instance rows hold state: {grown} bytes");
    assert_eq!(common::live_io_row("each-103").write.bytes, 1);
}
