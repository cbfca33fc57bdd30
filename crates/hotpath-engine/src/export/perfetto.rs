//! A [`Layout`] as a Perfetto protobuf trace: a clock snapshot (so the trace lines up
//! with other traces of the machine), a process track, a track per thread (and its lane
//! tracks: locks held, async slices), counter tracks for gauges, RSS and per-thread CPU, then each track's
//! events on a packet sequence of its own, in time order, whose event names and
//! categories are interned. Timestamps are `CLOCK_BOOTTIME` nanoseconds, Perfetto's
//! default trace clock.
//!
//! Descriptors go through prost; the events, a million in a full window, are encoded by
//! hand into reused buffers (`Events`), each sequence naming its track once (packet
//! defaults), and the trace is handed to the sink in chunks as it grows.

use prost::encoding::{encode_key, encode_varint, encoded_len_varint, WireType};

use super::wire::{key_len, Packet, Wire};
use prost::Message;

use super::layout::{details, Flows, Layout, Step, Track};
use super::perfetto_proto::track_event as te;
use super::perfetto_proto::*;
use crate::timeline::Snapshot;

/// The categories events carry, interned in every sequence as iid = index + 1.
const CATEGORIES: [&str; 8] = ["function", "poll", "lock", "channel", "io", "request", "stream", "debug"];
/// The sequence of the clock snapshot and the descriptors.
const DESCRIPTORS: u32 = 1;

/// Bytes gathered before they go to the sink.
const CHUNK: usize = 1 << 20;

/// Encodes `layout` of `snapshot` for process `pid` named `process` into `sink`.
#[inline(never)]
pub(crate) fn encode(
    layout: &Layout,
    snapshot: &Snapshot,
    pid: u32,
    process: &str,
    sink: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    let mut out = Vec::with_capacity(CHUNK + 64 * 1024);
    let clock = |id, timestamp| Clock { clock_id: Some(id), timestamp: Some(timestamp) };
    let c = snapshot.clocks;
    put_packet(
        &mut out,
        &TracePacket {
            timestamp: Some(c.boottime),
            clock_snapshot: Some(ClockSnapshot {
                clocks: vec![
                    clock(CLOCK_BOOTTIME, c.boottime),
                    clock(CLOCK_MONOTONIC, c.monotonic),
                    clock(CLOCK_REALTIME, c.realtime),
                ],
                primary_trace_clock: Some(CLOCK_BOOTTIME as i32),
            }),
            trusted_packet_sequence_id: Some(DESCRIPTORS),
            ..Default::default()
        },
    );
    let process_uuid = 1 << 32 | pid as u64;
    put_descriptor(
        &mut out,
        TrackDescriptor {
            uuid: Some(process_uuid),
            process: Some(ProcessDescriptor { pid: Some(pid as i32), process_name: Some(process.to_string()) }),
            ..Default::default()
        },
    );
    let mut events = Events::new(layout, snapshot);
    let mut next_uuid = process_uuid + 1;
    for thread in &layout.threads {
        let thread_uuid = 2 << 32 | thread.tid;
        put_descriptor(
            &mut out,
            TrackDescriptor {
                uuid: Some(thread_uuid),
                parent_uuid: Some(process_uuid),
                thread: Some(ThreadDescriptor {
                    pid: Some(pid as i32),
                    tid: Some(thread.tid as i32),
                    thread_name: (!thread.name.is_empty()).then(|| thread.name.clone()),
                }),
                ..Default::default()
            },
        );
        for track in &thread.tracks {
            let uuid = match track.label {
                None => thread_uuid,
                Some(name) => {
                    next_uuid += 1;
                    put_descriptor(
                        &mut out,
                        TrackDescriptor {
                            uuid: Some(next_uuid),
                            parent_uuid: Some(thread_uuid),
                            name: Some(layout.names[name as usize].clone()),
                            ..Default::default()
                        },
                    );
                    next_uuid
                }
            };
            events.track(&mut out, track, uuid);
            flush(&mut out, sink, CHUNK)?;
        }
    }
    for counter in &layout.counters {
        next_uuid += 1;
        put_descriptor(
            &mut out,
            TrackDescriptor {
                uuid: Some(next_uuid),
                parent_uuid: Some(process_uuid),
                name: Some(layout.names[counter.name as usize].clone()),
                counter: Some(CounterDescriptor::default()),
                ..Default::default()
            },
        );
        events.counter(&mut out, &counter.points, next_uuid);
        flush(&mut out, sink, CHUNK)?;
    }
    flush(&mut out, sink, 0)
}

/// Hands the bytes to `sink` once there are more than `over`.
fn flush(out: &mut Vec<u8>, sink: &mut dyn std::io::Write, over: usize) -> std::io::Result<()> {
    if out.len() > over {
        sink.write_all(out)?;
        out.clear();
    }
    Ok(())
}

/// The packet that starts a sequence: it clears the incremental state and sets the
/// track its events are on, with the names and categories they use.
fn start_sequence(out: &mut Vec<u8>, sequence: u32, track: u64, interned_data: Option<InternedData>) {
    put_packet(
        out,
        &TracePacket {
            interned_data,
            trace_packet_defaults: Some(TracePacketDefaults {
                track_event_defaults: Some(TrackEventDefaults { track_uuid: Some(track) }),
            }),
            sequence_flags: Some(SEQ_INCREMENTAL_STATE_CLEARED),
            trusted_packet_sequence_id: Some(sequence),
            ..Default::default()
        },
    );
}

/// Appends `packet` to the trace as one `Trace.packet`.
fn put_packet(out: &mut Vec<u8>, packet: &TracePacket) {
    encode_key(te::TRACE_PACKET, WireType::LengthDelimited, out);
    encode_varint(packet.encoded_len() as u64, out);
    packet.encode_raw(out);
}

fn put_descriptor(out: &mut Vec<u8>, track: TrackDescriptor) {
    put_packet(
        out,
        &TracePacket {
            track_descriptor: Some(track),
            trusted_packet_sequence_id: Some(DESCRIPTORS),
            ..Default::default()
        },
    );
}

/// Writes tracks' events, each track on a sequence of its own, through buffers reused
/// from event to event.
struct Events<'a> {
    layout: &'a Layout<'a>,
    snapshot: &'a Snapshot,
    next_sequence: u32,
    packet: Packet,
    /// The fields every packet of the current sequence ends with: its id and flags.
    trailer: Wire,
    /// Names the current track uses, to intern only those in its sequence.
    used: Vec<bool>,
}

impl<'a> Events<'a> {
    fn new(layout: &'a Layout<'a>, snapshot: &'a Snapshot) -> Self {
        let used = vec![false; layout.names.len()];
        let (packet, trailer) = (Packet::new(), Wire::new());
        Self { layout, snapshot, next_sequence: DESCRIPTORS + 1, packet, trailer, used }
    }

    /// A track's steps on a sequence of their own: a packet that clears its incremental
    /// state, names its track and the names and categories its events use, then its
    /// events in order.
    fn track(&mut self, out: &mut Vec<u8>, track: &Track, uuid: u64) {
        let sequence = self.sequence();
        self.used.iter_mut().for_each(|u| *u = false);
        for step in &track.steps {
            if let Step::Begin { name, .. } | Step::Instant { name, .. } = step {
                self.used[*name as usize] = true;
            }
        }
        let interned = |(i, text): (usize, &str)| EventName { iid: Some(i as u64 + 1), name: Some(text.to_string()) };
        let event_names = self
            .layout
            .names
            .iter()
            .enumerate()
            .filter(|(i, _)| self.used[*i])
            .map(|(i, t)| interned((i, t)))
            .collect();
        let event_categories = CATEGORIES.iter().copied().enumerate().map(interned).collect();
        start_sequence(out, sequence, uuid, Some(InternedData { event_categories, event_names }));
        out.reserve(track.steps.len() * 24);
        for step in &track.steps {
            let out_event = self.packet.event();
            match step {
                Step::Begin { event, name } => {
                    let d = details(event);
                    named(out_event, TYPE_SLICE_BEGIN, *name, d.category);
                    for &(key, value) in d.args() {
                        let inner = key_len(te::ANNOTATION_NAME)
                            + encoded_len_varint(key.len() as u64)
                            + key.len()
                            + key_len(te::ANNOTATION_UINT)
                            + encoded_len_varint(value);
                        out_event.key(te::DEBUG_ANNOTATIONS, WireType::LengthDelimited);
                        out_event.varint(inner as u64);
                        out_event.bytes(te::ANNOTATION_NAME, key.as_bytes());
                        out_event.uint(te::ANNOTATION_UINT, value);
                    }
                    flows(out_event, &d.flows);
                }
                Step::End { .. } => out_event.uint(te::TYPE, TYPE_SLICE_END),
                Step::Instant { event, name } => {
                    let d = details(event);
                    named(out_event, TYPE_INSTANT, *name, d.category);
                    flows(out_event, &d.flows);
                }
            }
            self.put(out, step.at());
        }
    }

    /// A counter track's values, on a sequence of its own.
    fn counter(&mut self, out: &mut Vec<u8>, points: &[(u64, f64)], uuid: u64) {
        let sequence = self.sequence();
        start_sequence(out, sequence, uuid, None);
        for &(at, value) in points {
            let event = self.packet.event();
            event.uint(te::TYPE, TYPE_COUNTER);
            event.fixed64(te::DOUBLE_COUNTER_VALUE, value.to_bits());
            self.put(out, at);
        }
    }

    /// A new sequence: its id, and the trailer its packets end with (the id, and the
    /// flag saying they need the sequence's defaults and names).
    fn sequence(&mut self) -> u32 {
        let sequence = self.next_sequence;
        self.next_sequence += 1;
        self.trailer.clear();
        self.trailer.uint(te::PACKET_SEQUENCE_ID, u64::from(sequence));
        self.trailer.uint(te::PACKET_SEQUENCE_FLAGS, u64::from(SEQ_NEEDS_INCREMENTAL_STATE));
        sequence
    }

    /// Appends the event as a packet (the event, its timestamp, then the sequence's
    /// trailer), gathered on the stack and appended at once.
    fn put(&mut self, out: &mut Vec<u8>, at: u64) {
        let ts = self.snapshot.boottime_ns(at);
        let packet = self.packet.finish(
            te::TRACE_PACKET,
            te::PACKET_TRACK_EVENT,
            te::PACKET_TIMESTAMP,
            ts,
            self.trailer.as_slice(),
        );
        out.extend_from_slice(packet);
    }
}

fn named(event: &mut Wire, kind: u64, name: u32, category: &str) {
    event.uint(te::TYPE, kind);
    event.uint(te::NAME_IID, u64::from(name) + 1);
    let category = CATEGORIES.iter().position(|c| *c == category).map_or(0, |i| i as u64 + 1);
    event.uint(te::CATEGORY_IIDS, category);
}

fn flows(event: &mut Wire, flows: &Flows) {
    if let Some(id) = flows.through {
        event.fixed64(te::FLOW_IDS, id);
    }
    if let Some(id) = flows.ends {
        event.fixed64(te::TERMINATING_FLOW_IDS, id);
    }
}
