//! A [`Layout`] as a Perfetto protobuf trace: a clock snapshot (so the trace lines up
//! with other traces of the machine), a process track, a track per thread (and per lock
//! a thread held), counter tracks for gauges, then the track events, all on one packet
//! sequence whose event names are interned. Timestamps are `CLOCK_BOOTTIME`
//! nanoseconds, Perfetto's default trace clock.

use prost::Message;

use super::layout::{Flows, Layout, Step};
use super::perfetto_proto::*;
use crate::timeline::Snapshot;

const SEQUENCE: u32 = 1;

/// Encodes `layout` of `snapshot` for process `pid` named `process`.
pub(crate) fn encode(layout: &Layout, snapshot: &Snapshot, pid: u32, process: &str) -> Vec<u8> {
    let mut packets = Vec::new();
    let clock = |id, timestamp| Clock { clock_id: Some(id), timestamp: Some(timestamp) };
    let c = snapshot.clocks;
    packets.push(TracePacket {
        timestamp: Some(c.boottime),
        clock_snapshot: Some(ClockSnapshot {
            clocks: vec![
                clock(CLOCK_BOOTTIME, c.boottime),
                clock(CLOCK_MONOTONIC, c.monotonic),
                clock(CLOCK_REALTIME, c.realtime),
            ],
            primary_trace_clock: Some(CLOCK_BOOTTIME as i32),
        }),
        trusted_packet_sequence_id: Some(SEQUENCE),
        ..Default::default()
    });
    // The interned names, before any event that refers to them.
    let event_names = layout
        .names
        .iter()
        .enumerate()
        .map(|(i, name)| EventName { iid: Some(i as u64 + 1), name: Some(name.clone()) })
        .collect();
    packets.push(TracePacket {
        interned_data: Some(InternedData { event_names }),
        sequence_flags: Some(SEQ_INCREMENTAL_STATE_CLEARED),
        trusted_packet_sequence_id: Some(SEQUENCE),
        ..Default::default()
    });
    let process_uuid = 1 << 32 | pid as u64;
    packets.push(descriptor(TrackDescriptor {
        uuid: Some(process_uuid),
        process: Some(ProcessDescriptor { pid: Some(pid as i32), process_name: Some(process.to_string()) }),
        ..Default::default()
    }));
    let mut next_uuid = process_uuid + 1;
    let mut events = Vec::new();
    for thread in &layout.threads {
        let thread_uuid = 2 << 32 | thread.tid;
        packets.push(descriptor(TrackDescriptor {
            uuid: Some(thread_uuid),
            parent_uuid: Some(process_uuid),
            thread: Some(ThreadDescriptor {
                pid: Some(pid as i32),
                tid: Some(thread.tid as i32),
                thread_name: (!thread.name.is_empty()).then(|| thread.name.clone()),
            }),
            ..Default::default()
        }));
        for track in &thread.tracks {
            let uuid = match track.lock {
                None => thread_uuid,
                Some(name) => {
                    next_uuid += 1;
                    packets.push(descriptor(TrackDescriptor {
                        uuid: Some(next_uuid),
                        parent_uuid: Some(thread_uuid),
                        name: Some(layout.names[name].clone()),
                        ..Default::default()
                    }));
                    next_uuid
                }
            };
            events.extend(track.steps.iter().map(|step| track_event(step, uuid, snapshot)));
        }
    }
    for counter in &layout.counters {
        next_uuid += 1;
        packets.push(descriptor(TrackDescriptor {
            uuid: Some(next_uuid),
            parent_uuid: Some(process_uuid),
            name: Some(layout.names[counter.name].clone()),
            counter: Some(CounterDescriptor::default()),
            ..Default::default()
        }));
        for &(at, value) in &counter.points {
            let event = TrackEvent {
                r#type: Some(TYPE_COUNTER),
                track_uuid: Some(next_uuid),
                double_counter_value: Some(value),
                ..Default::default()
            };
            events.push((snapshot.boottime_ns(at), event));
        }
    }
    // One sequence, in time order (the sort is stable: a track's steps keep their order).
    events.sort_by_key(|(at, _)| *at);
    packets.extend(events.into_iter().map(|(at, event)| TracePacket {
        timestamp: Some(at),
        track_event: Some(event),
        sequence_flags: Some(SEQ_NEEDS_INCREMENTAL_STATE),
        trusted_packet_sequence_id: Some(SEQUENCE),
        ..Default::default()
    }));
    Trace { packet: packets }.encode_to_vec()
}

fn descriptor(track: TrackDescriptor) -> TracePacket {
    TracePacket { track_descriptor: Some(track), trusted_packet_sequence_id: Some(SEQUENCE), ..Default::default() }
}

fn track_event(step: &Step, track: u64, snapshot: &Snapshot) -> (u64, TrackEvent) {
    let mut event = TrackEvent { track_uuid: Some(track), ..Default::default() };
    let at = match step {
        Step::Begin { at, name, category, args, flows } => {
            event.r#type = Some(TYPE_SLICE_BEGIN);
            event.name_iid = Some(*name as u64 + 1);
            event.categories = vec![category.to_string()];
            event.debug_annotations = args
                .iter()
                .map(|(key, value)| DebugAnnotation {
                    name: Some(key.to_string()),
                    uint_value: Some(*value),
                    ..Default::default()
                })
                .collect();
            set_flows(&mut event, flows);
            *at
        }
        Step::End { at } => {
            event.r#type = Some(TYPE_SLICE_END);
            *at
        }
        Step::Instant { at, name, category, flows } => {
            event.r#type = Some(TYPE_INSTANT);
            event.name_iid = Some(*name as u64 + 1);
            event.categories = vec![category.to_string()];
            set_flows(&mut event, flows);
            *at
        }
    };
    (snapshot.boottime_ns(at), event)
}

fn set_flows(event: &mut TrackEvent, flows: &Flows) {
    event.flow_ids.extend(flows.through);
    event.terminating_flow_ids.extend(flows.ends);
}
