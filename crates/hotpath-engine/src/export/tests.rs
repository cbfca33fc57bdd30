//! Laying out: nested slices from ring order, and the ones that do not nest on lanes.

use super::layout::{Layout, Step};
use super::names::Names;
use crate::timeline::{Clocks, Event, Kind, Snapshot, ThreadEvents};

fn call(id: u32, start: u64, end: u64) -> Event {
    Event { kind: Kind::Call, id, start, len: end - start, extra: 0 }
}

fn snapshot(events: Vec<Event>) -> Snapshot {
    let thread = ThreadEvents { tid: 7, name: "t".into(), alive: true, events };
    Snapshot { threads: vec![thread], torn: 0, now_ticks: 100, ns_per_tick: 1.0, clocks: Clocks::default() }
}

/// Each track's steps as `B<id>@t` / `E@t`.
fn shape(layout: &Layout) -> Vec<String> {
    layout.threads[0]
        .tracks
        .iter()
        .map(|track| {
            let steps: Vec<String> = track
                .steps
                .iter()
                .map(|s| match s {
                    Step::Begin { event, .. } => format!("B{}@{}", event.id, event.start),
                    Step::End { at } => format!("E@{at}"),
                    Step::Instant { event, .. } => format!("I{}@{}", event.id, event.start),
                })
                .collect();
            steps.join(" ")
        })
        .collect()
}

#[test]
fn ring_order_becomes_nested_steps() {
    // outer [0, 10] with children [1, 2] and [3, 4], as a thread's ring holds them: by end.
    let snapshot = snapshot(vec![call(2, 1, 2), call(3, 3, 4), call(1, 0, 10), call(4, 11, 12)]);
    let layout = Layout::new(&snapshot, &Names::default());
    assert_eq!(shape(&layout), ["B1@0 B2@1 E@2 B3@3 E@4 E@10 B4@11 E@12"]);
    assert_eq!(layout.laned, 0);
}

#[test]
fn a_slice_that_does_not_nest_goes_to_a_lane() {
    // [3, 6] began before [5, 9] and ended inside it (an async read across polls): it
    // does not nest; nor does [4, 8], which overlaps it; they take two lanes.
    let snapshot = snapshot(vec![call(1, 0, 2), call(9, 3, 6), call(8, 4, 8), call(2, 5, 9)]);
    let layout = Layout::new(&snapshot, &Names::default());
    assert_eq!(layout.laned, 2);
    assert_eq!(shape(&layout), ["B1@0 E@2 B2@5 E@9", "B9@3 E@6", "B8@4 E@8"]);
    assert_eq!(layout.names[layout.threads[0].tracks[2].label.unwrap() as usize], "async #2");
}

#[test]
fn ends_out_of_order_take_the_sorting_path() {
    // The parent written before its child (clocks of two CPUs disagreeing).
    let snapshot = snapshot(vec![call(1, 0, 10), call(2, 1, 12), call(3, 2, 3)]);
    let layout = Layout::new(&snapshot, &Names::default());
    assert_eq!(shape(&layout)[0], "B1@0 B3@2 E@3 E@10");
    assert_eq!(layout.laned, 1, "[1, 12] outlasts its parent");
}

#[test]
fn lanes_stop_at_their_cap_and_count_what_they_leave_out() {
    // 40 slices [i, 100 + i], each beginning before the one ending after it: only the
    // last nests; the other 39 all overlap at [38, 100], so they would need 39 lanes.
    let events: Vec<Event> = (0..40u64).map(|i| call(10 + i as u32, i, 100 + i)).collect();
    let snapshot = snapshot(events);
    let layout = Layout::new(&snapshot, &Names::default());
    assert_eq!(layout.laned, 39);
    assert_eq!(layout.threads[0].tracks.len() - 1, super::layout::MAX_LANES);
    assert_eq!(layout.crowded, 39 - super::layout::MAX_LANES as u64);
}

/// A triggered trace never writes through a name already taken (here a link to
/// another file, as someone sharing the directory could plant): it takes the next
/// name, readable by its owner only.
#[cfg(unix)]
#[test]
fn a_taken_name_is_never_written_through() {
    use std::os::unix::fs::PermissionsExt;
    let dir = std::env::temp_dir().join(format!("hotpath-trigger-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let victim = dir.join("victim");
    std::fs::write(&victim, "precious").unwrap();
    let _ = std::fs::remove_file(dir.join("t.pftrace"));
    std::os::unix::fs::symlink(&victim, dir.join("t.pftrace")).unwrap();
    let (path, written) = crate::timeline::trigger::write_free(&dir, "t", None, super::write_triggered);
    assert!(written.is_ok(), "{written:?}");
    assert_eq!(path, dir.join("t.2.pftrace"));
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
    assert_eq!(std::fs::metadata(&path).unwrap().permissions().mode() & 0o777, 0o600);
    std::fs::remove_dir_all(&dir).unwrap();
}
