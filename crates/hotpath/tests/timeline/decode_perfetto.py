"""Decodes a Perfetto trace with Perfetto's own schema and prints it as JSON.

Usage: decode_perfetto.py TRACE

The schema is `perfetto_trace_pb2`, which the `perfetto` package on PyPI ships
compiled. Slices are rebuilt from each track's begin/end events; an end without a
begin, or a begin never ended, is an error (exit status 1), so a trace that would
not nest in Perfetto fails here. The output:

  {"clocks": {id: ns}, "tracks": {uuid: {...}}, "slices": [...], "instants": [...],
   "counters": [...]}

Each slice: name, track, thread (its thread's name), tid, start, end, depth,
categories, args {name: value}, flows, terminating_flows.
"""

import json
import sys

from perfetto.protos.perfetto.trace import perfetto_trace_pb2 as pb


def main(path):
    trace = pb.Trace()
    with open(path, "rb") as f:
        trace.ParseFromString(f.read())
    # Interned names and packet defaults are per packet sequence, valid once the sequence
    # cleared its state.
    names, defaults, tracks, clocks = {}, {}, {}, {}
    events = []
    for packet in trace.packet:
        sequence = packet.trusted_packet_sequence_id
        if packet.HasField("clock_snapshot"):
            clocks = {c.clock_id: c.timestamp for c in packet.clock_snapshot.clocks}
        if packet.sequence_flags & pb.TracePacket.SEQ_INCREMENTAL_STATE_CLEARED:
            names[sequence] = {}
            defaults[sequence] = None
        if packet.HasField("trace_packet_defaults"):
            defaults[sequence] = packet.trace_packet_defaults.track_event_defaults.track_uuid
        if packet.HasField("interned_data"):
            if sequence not in names:
                raise SystemExit(f"interned data on sequence {sequence} before its state was cleared")
            for n in packet.interned_data.event_names:
                names[sequence][n.iid] = n.name
        if packet.HasField("track_descriptor"):
            d = packet.track_descriptor
            tracks[d.uuid] = {
                "name": d.name,
                "parent": d.parent_uuid if d.HasField("parent_uuid") else None,
                "tid": d.thread.tid if d.HasField("thread") else None,
                "pid": d.thread.pid if d.HasField("thread") else (d.process.pid if d.HasField("process") else None),
                "thread_name": d.thread.thread_name if d.HasField("thread") else None,
                "process_name": d.process.process_name if d.HasField("process") else None,
                "counter": d.HasField("counter"),
            }
        if packet.HasField("track_event"):
            if packet.sequence_flags & pb.TracePacket.SEQ_NEEDS_INCREMENTAL_STATE and sequence not in names:
                raise SystemExit(f"an event on sequence {sequence} needs interned state before it was cleared")
            e = packet.track_event
            track = e.track_uuid if e.HasField("track_uuid") else defaults.get(sequence)
            events.append((packet.timestamp, e, track, names.get(sequence, {})))

    def thread_of(uuid):
        # A thread's own track, or the thread track a child track hangs from.
        while uuid is not None and uuid in tracks:
            if tracks[uuid]["tid"] is not None:
                return tracks[uuid]
            uuid = tracks[uuid]["parent"]
        return None

    slices, instants, counters = [], [], []
    open_slices = {}
    # Perfetto sorts the whole trace by time; a track's own events are in order already.
    events.sort(key=lambda event: event[0])
    for ts, e, track, names in events:
        if track not in tracks:
            raise SystemExit(f"event on undeclared track {track}")
        thread = thread_of(track)
        base = {
            "track": track,
            "track_name": tracks[track]["name"],
            "thread": thread["thread_name"] if thread else None,
            "tid": thread["tid"] if thread else None,
        }
        kind = pb.TrackEvent.Type.Name(e.type)
        if kind == "TYPE_SLICE_BEGIN":
            stack = open_slices.setdefault(track, [])
            s = dict(base)
            s.update({
                "name": names[e.name_iid],
                "start": ts,
                "depth": len(stack),
                "categories": list(e.categories),
                "args": {a.name: a.uint_value for a in e.debug_annotations},
                "flows": list(e.flow_ids),
                "terminating_flows": list(e.terminating_flow_ids),
            })
            stack.append(s)
        elif kind == "TYPE_SLICE_END":
            stack = open_slices.get(track)
            if not stack:
                raise SystemExit(f"an end without a begin on track {track} at {ts}")
            s = stack.pop()
            if ts < s["start"]:
                raise SystemExit(f"{s['name']} ends before it starts")
            s["end"] = ts
            slices.append(s)
        elif kind == "TYPE_INSTANT":
            i = dict(base)
            i.update({
                "name": names[e.name_iid],
                "at": ts,
                "flows": list(e.flow_ids),
                "terminating_flows": list(e.terminating_flow_ids),
            })
            instants.append(i)
        elif kind == "TYPE_COUNTER":
            counters.append({"name": tracks[track]["name"], "at": ts, "value": e.double_counter_value})
    unclosed = [s["name"] for stack in open_slices.values() for s in stack]
    if unclosed:
        raise SystemExit(f"slices never ended: {unclosed}")
    json.dump({
        "clocks": {str(k): v for k, v in clocks.items()},
        "tracks": {str(k): v for k, v in tracks.items()},
        "slices": slices,
        "instants": instants,
        "counters": counters,
    }, sys.stdout)


if __name__ == "__main__":
    main(sys.argv[1])
