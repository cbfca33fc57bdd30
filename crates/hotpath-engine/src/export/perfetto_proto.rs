//! The subset of Perfetto's trace protos (protos/perfetto/trace/, `perfetto_trace.proto`
//! in github.com/google/perfetto) that the timeline writes, as prost messages. Field
//! numbers and types follow the published schema; unset optional fields are not written.

/// A whole trace: a sequence of packets.
#[derive(Clone, PartialEq, prost::Message)]
pub(crate) struct Trace {
    #[prost(message, repeated, tag = "1")]
    pub(crate) packet: Vec<TracePacket>,
}

/// One packet: a clock snapshot, a track's description or an event on a track.
#[derive(Clone, PartialEq, prost::Message)]
pub(crate) struct TracePacket {
    #[prost(uint64, optional, tag = "8")]
    pub(crate) timestamp: Option<u64>,
    #[prost(message, optional, tag = "6")]
    pub(crate) clock_snapshot: Option<ClockSnapshot>,
    #[prost(uint32, optional, tag = "10")]
    pub(crate) trusted_packet_sequence_id: Option<u32>,
    #[prost(message, optional, tag = "11")]
    pub(crate) track_event: Option<TrackEvent>,
    #[prost(message, optional, tag = "12")]
    pub(crate) interned_data: Option<InternedData>,
    #[prost(uint32, optional, tag = "13")]
    pub(crate) sequence_flags: Option<u32>,
    #[prost(message, optional, tag = "60")]
    pub(crate) track_descriptor: Option<TrackDescriptor>,
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

/// A slice's begin or end, an instant or a counter value, on one track.
#[derive(Clone, PartialEq, prost::Message)]
pub(crate) struct TrackEvent {
    #[prost(message, repeated, tag = "4")]
    pub(crate) debug_annotations: Vec<DebugAnnotation>,
    #[prost(int32, optional, tag = "9")]
    pub(crate) r#type: Option<i32>,
    #[prost(uint64, optional, tag = "10")]
    pub(crate) name_iid: Option<u64>,
    #[prost(uint64, optional, tag = "11")]
    pub(crate) track_uuid: Option<u64>,
    #[prost(string, repeated, tag = "22")]
    pub(crate) categories: Vec<String>,
    #[prost(double, optional, tag = "44")]
    pub(crate) double_counter_value: Option<f64>,
    #[prost(fixed64, repeated, tag = "47")]
    pub(crate) flow_ids: Vec<u64>,
    #[prost(fixed64, repeated, tag = "48")]
    pub(crate) terminating_flow_ids: Vec<u64>,
}

/// `TrackEvent.Type` values.
pub(crate) const TYPE_SLICE_BEGIN: i32 = 1;
pub(crate) const TYPE_SLICE_END: i32 = 2;
pub(crate) const TYPE_INSTANT: i32 = 3;
pub(crate) const TYPE_COUNTER: i32 = 4;

/// A named value attached to an event (shown in Perfetto's "Arguments").
#[derive(Clone, PartialEq, prost::Message)]
pub(crate) struct DebugAnnotation {
    #[prost(uint64, optional, tag = "3")]
    pub(crate) uint_value: Option<u64>,
    #[prost(string, optional, tag = "6")]
    pub(crate) string_value: Option<String>,
    #[prost(string, optional, tag = "10")]
    pub(crate) name: Option<String>,
}

/// Strings the events of a sequence refer to by number.
#[derive(Clone, PartialEq, prost::Message)]
pub(crate) struct InternedData {
    #[prost(message, repeated, tag = "2")]
    pub(crate) event_names: Vec<EventName>,
}

/// One interned event name.
#[derive(Clone, PartialEq, prost::Message)]
pub(crate) struct EventName {
    #[prost(uint64, optional, tag = "1")]
    pub(crate) iid: Option<u64>,
    #[prost(string, optional, tag = "2")]
    pub(crate) name: Option<String>,
}
