//! The subset of Perfetto's trace protos (protos/perfetto/trace/, `perfetto_trace.proto`
//! in github.com/google/perfetto) that the timeline writes: the packets other than
//! events as prost messages, the event fields as numbers. Field numbers and types follow
//! the published schema; unset optional fields are not written. A trace is the
//! concatenation of its packets, each as field 1 (`Trace.packet`).

/// One packet: a clock snapshot, a track's description or an event on a track.
#[derive(Clone, PartialEq, prost::Message)]
pub(crate) struct TracePacket {
    #[prost(uint64, optional, tag = "8")]
    pub(crate) timestamp: Option<u64>,
    #[prost(message, optional, tag = "6")]
    pub(crate) clock_snapshot: Option<ClockSnapshot>,
    #[prost(uint32, optional, tag = "10")]
    pub(crate) trusted_packet_sequence_id: Option<u32>,
    #[prost(message, optional, tag = "12")]
    pub(crate) interned_data: Option<InternedData>,
    #[prost(uint32, optional, tag = "13")]
    pub(crate) sequence_flags: Option<u32>,
    #[prost(message, optional, tag = "59")]
    pub(crate) trace_packet_defaults: Option<TracePacketDefaults>,
    #[prost(message, optional, tag = "60")]
    pub(crate) track_descriptor: Option<TrackDescriptor>,
}

/// What the packets of a sequence leave out (part of its incremental state).
#[derive(Clone, PartialEq, prost::Message)]
pub(crate) struct TracePacketDefaults {
    #[prost(message, optional, tag = "11")]
    pub(crate) track_event_defaults: Option<TrackEventDefaults>,
}

/// The track a sequence's events are on unless they say otherwise.
#[derive(Clone, PartialEq, prost::Message)]
pub(crate) struct TrackEventDefaults {
    #[prost(uint64, optional, tag = "11")]
    pub(crate) track_uuid: Option<u64>,
}

/// `TracePacket.SequenceFlags`.
pub(crate) const SEQ_INCREMENTAL_STATE_CLEARED: u32 = 1;
pub(crate) const SEQ_NEEDS_INCREMENTAL_STATE: u32 = 2;

/// Several clocks read at one moment, so the trace lines up with others of the machine.
#[derive(Clone, PartialEq, prost::Message)]
pub(crate) struct ClockSnapshot {
    #[prost(message, repeated, tag = "1")]
    pub(crate) clocks: Vec<Clock>,
    #[prost(int32, optional, tag = "2")]
    pub(crate) primary_trace_clock: Option<i32>,
}

/// One clock's reading.
#[derive(Clone, PartialEq, prost::Message)]
pub(crate) struct Clock {
    #[prost(uint32, optional, tag = "1")]
    pub(crate) clock_id: Option<u32>,
    #[prost(uint64, optional, tag = "2")]
    pub(crate) timestamp: Option<u64>,
}

/// `BuiltinClock` values.
pub(crate) const CLOCK_REALTIME: u32 = 1;
pub(crate) const CLOCK_MONOTONIC: u32 = 3;
pub(crate) const CLOCK_BOOTTIME: u32 = 6;

/// A track: a process, a thread, a counter, or a named child of one of them.
#[derive(Clone, PartialEq, prost::Message)]
pub(crate) struct TrackDescriptor {
    #[prost(uint64, optional, tag = "1")]
    pub(crate) uuid: Option<u64>,
    #[prost(string, optional, tag = "2")]
    pub(crate) name: Option<String>,
    #[prost(message, optional, tag = "3")]
    pub(crate) process: Option<ProcessDescriptor>,
    #[prost(message, optional, tag = "4")]
    pub(crate) thread: Option<ThreadDescriptor>,
    #[prost(uint64, optional, tag = "5")]
    pub(crate) parent_uuid: Option<u64>,
    #[prost(message, optional, tag = "8")]
    pub(crate) counter: Option<CounterDescriptor>,
}

/// The process a track belongs to.
#[derive(Clone, PartialEq, prost::Message)]
pub(crate) struct ProcessDescriptor {
    #[prost(int32, optional, tag = "1")]
    pub(crate) pid: Option<i32>,
    #[prost(string, optional, tag = "6")]
    pub(crate) process_name: Option<String>,
}

/// The thread a track belongs to.
#[derive(Clone, PartialEq, prost::Message)]
pub(crate) struct ThreadDescriptor {
    #[prost(int32, optional, tag = "1")]
    pub(crate) pid: Option<i32>,
    #[prost(int32, optional, tag = "2")]
    pub(crate) tid: Option<i32>,
    #[prost(string, optional, tag = "5")]
    pub(crate) thread_name: Option<String>,
}

/// Marks a track as a counter track.
#[derive(Clone, PartialEq, prost::Message)]
pub(crate) struct CounterDescriptor {
    #[prost(string, optional, tag = "6")]
    pub(crate) unit_name: Option<String>,
}

/// `TrackEvent` fields, which `perfetto.rs` encodes by hand (one event per slice end,
/// a million in a full window: the derived encoder's per-event allocations cost more
/// than the rest of the dump).
pub(crate) mod track_event {
    pub(crate) const CATEGORY_IIDS: u32 = 3;
    pub(crate) const DEBUG_ANNOTATIONS: u32 = 4;
    pub(crate) const TYPE: u32 = 9;
    pub(crate) const NAME_IID: u32 = 10;
    pub(crate) const DOUBLE_COUNTER_VALUE: u32 = 44;
    pub(crate) const FLOW_IDS: u32 = 47;
    pub(crate) const TERMINATING_FLOW_IDS: u32 = 48;
    /// `DebugAnnotation.name` and `.uint_value`.
    pub(crate) const ANNOTATION_NAME: u32 = 10;
    pub(crate) const ANNOTATION_UINT: u32 = 3;
    /// `TracePacket.timestamp`, `.track_event`, `.trusted_packet_sequence_id`, `.sequence_flags`.
    pub(crate) const PACKET_TIMESTAMP: u32 = 8;
    pub(crate) const PACKET_TRACK_EVENT: u32 = 11;
    pub(crate) const PACKET_SEQUENCE_ID: u32 = 10;
    pub(crate) const PACKET_SEQUENCE_FLAGS: u32 = 13;
    /// `Trace.packet`.
    pub(crate) const TRACE_PACKET: u32 = 1;
}

/// `TrackEvent.Type` values.
pub(crate) const TYPE_SLICE_BEGIN: u64 = 1;
pub(crate) const TYPE_SLICE_END: u64 = 2;
pub(crate) const TYPE_INSTANT: u64 = 3;
pub(crate) const TYPE_COUNTER: u64 = 4;

/// Strings the events of a sequence refer to by number.
#[derive(Clone, PartialEq, prost::Message)]
pub(crate) struct InternedData {
    #[prost(message, repeated, tag = "1")]
    pub(crate) event_categories: Vec<EventName>,
    #[prost(message, repeated, tag = "2")]
    pub(crate) event_names: Vec<EventName>,
}

/// One interned event name or category (`EventName` and `EventCategory` have the same
/// fields).
#[derive(Clone, PartialEq, prost::Message)]
pub(crate) struct EventName {
    #[prost(uint64, optional, tag = "1")]
    pub(crate) iid: Option<u64>,
    #[prost(string, optional, tag = "2")]
    pub(crate) name: Option<String>,
}
