//! Protobuf wire encoding of one event packet into a buffer on the stack: a full window
//! is a million packets, and encoding each field straight into a growing `Vec` (a
//! capacity check per byte) cost more than everything else in the dump. A packet is
//! at most ~150 bytes (an event with three named values and two flows, plus the
//! packet's own fields), so it is gathered here and appended to the trace at once.

use prost::encoding::{encoded_len_varint, WireType};

/// Room for the largest packet the timeline writes, with margin.
const ROOM: usize = 256;

/// One packet's (or one event's) bytes.
pub(crate) struct Wire {
    bytes: [u8; ROOM],
    len: usize,
}

impl Wire {
    pub(crate) const fn new() -> Self {
        Self { bytes: [0; ROOM], len: 0 }
    }

    pub(crate) fn clear(&mut self) {
        self.len = 0;
    }

    pub(crate) fn as_slice(&self) -> &[u8] {
        &self.bytes[..self.len]
    }

    #[inline(always)]
    fn byte(&mut self, b: u8) {
        // Bounded by construction (see the module); a byte past the room is dropped
        // rather than panicking in the program being profiled.
        debug_assert!(self.len < ROOM, "a packet outgrew its buffer");
        if let Some(slot) = self.bytes.get_mut(self.len) {
            *slot = b;
            self.len += 1;
        }
    }

    #[inline(always)]
    pub(crate) fn varint(&mut self, mut v: u64) {
        while v >= 0x80 {
            self.byte(v as u8 | 0x80);
            v >>= 7;
        }
        self.byte(v as u8);
    }

    #[inline(always)]
    pub(crate) fn key(&mut self, tag: u32, wire: WireType) {
        self.varint(u64::from(tag) << 3 | wire as u64);
    }

    /// A varint field.
    #[inline(always)]
    pub(crate) fn uint(&mut self, tag: u32, v: u64) {
        self.key(tag, WireType::Varint);
        self.varint(v);
    }

    /// A fixed64 field.
    #[inline(always)]
    pub(crate) fn fixed64(&mut self, tag: u32, v: u64) {
        self.key(tag, WireType::SixtyFourBit);
        self.raw(&v.to_le_bytes());
    }

    /// A length-delimited field.
    #[inline(always)]
    pub(crate) fn bytes(&mut self, tag: u32, b: &[u8]) {
        self.key(tag, WireType::LengthDelimited);
        self.varint(b.len() as u64);
        self.raw(b);
    }

    #[inline(always)]
    pub(crate) fn raw(&mut self, b: &[u8]) {
        debug_assert!(self.len + b.len() <= ROOM, "a packet outgrew its buffer");
        let end = (self.len + b.len()).min(ROOM);
        self.bytes[self.len..end].copy_from_slice(&b[..end - self.len]);
        self.len = end;
    }
}

/// Where an event starts in a [`Packet`]: room before it for the packet's key and
/// length and the event's key and length (each length at most 2 bytes: a packet is
/// smaller than [`ROOM`]).
const EVENT_AT: usize = 6;

/// A packet gathered around its event: the event is written first (at [`EVENT_AT`]),
/// then the fields after it, then the keys and lengths before it, so the packet is
/// contiguous and copied once.
pub(crate) struct Packet {
    wire: Wire,
}

impl Packet {
    pub(crate) const fn new() -> Self {
        Self { wire: Wire::new() }
    }

    /// Starts a packet: the event's fields go to the returned buffer.
    pub(crate) fn event(&mut self) -> &mut Wire {
        self.wire.len = EVENT_AT;
        &mut self.wire
    }

    /// Ends the event: appends `ts` (field `ts_tag`) and `trailer` after it, puts the
    /// packet's key (`packet_tag`, length-delimited) and length and the event's key
    /// (`event_tag`) and length before it, and returns the packet's bytes.
    pub(crate) fn finish(&mut self, packet_tag: u32, event_tag: u32, ts_tag: u32, ts: u64, trailer: &[u8]) -> &[u8] {
        let event_len = self.wire.len - EVENT_AT;
        self.wire.uint(ts_tag, ts);
        self.wire.raw(trailer);
        // Before the event: packet key, packet length, event key, event length.
        let event_head = key_len(event_tag) + encoded_len_varint(event_len as u64);
        let packet_len = event_head + (self.wire.len - EVENT_AT);
        let start = EVENT_AT - event_head - key_len(packet_tag) - encoded_len_varint(packet_len as u64);
        let end = self.wire.len;
        self.wire.len = start;
        self.wire.key(packet_tag, WireType::LengthDelimited);
        self.wire.varint(packet_len as u64);
        self.wire.key(event_tag, WireType::LengthDelimited);
        self.wire.varint(event_len as u64);
        debug_assert_eq!(self.wire.len, EVENT_AT);
        self.wire.len = end;
        &self.wire.bytes[start..self.wire.len]
    }
}

/// Bytes a key of `tag` takes.
pub(crate) fn key_len(tag: u32) -> usize {
    encoded_len_varint(u64::from(tag) << 3)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The same bytes as prost's own encoding.
    #[test]
    fn fields_encode_as_prost_does() {
        let mut wire = Wire::new();
        let mut expected = Vec::new();
        for (tag, v) in [(1u32, 0u64), (9, 127), (10, 128), (47, u64::MAX), (8, 1 << 44)] {
            wire.uint(tag, v);
            prost::encoding::uint64::encode(tag, &v, &mut expected);
        }
        wire.fixed64(48, 0x0102_0304_0506_0708);
        prost::encoding::fixed64::encode(48, &0x0102_0304_0506_0708, &mut expected);
        wire.bytes(10, b"first_poll");
        prost::encoding::bytes::encode(10, &b"first_poll".to_vec(), &mut expected);
        assert_eq!(wire.as_slice(), &expected[..]);
        assert_eq!(key_len(47), 2);
    }

    /// A packet gathered around its event is the packet prost writes.
    #[test]
    fn a_packet_is_its_fields_in_one_piece() {
        let mut packet = Packet::new();
        let event = packet.event();
        event.uint(9, 1);
        event.bytes(10, &[7; 130]);
        let got = packet.finish(1, 11, 8, 1 << 44, &[0x50, 3]).to_vec();
        let mut body = Vec::new();
        let mut inner = Vec::new();
        prost::encoding::uint64::encode(9, &1, &mut inner);
        prost::encoding::bytes::encode(10, &vec![7u8; 130], &mut inner);
        prost::encoding::bytes::encode(11, &inner, &mut body);
        prost::encoding::uint64::encode(8, &(1 << 44), &mut body);
        body.extend_from_slice(&[0x50, 3]);
        let mut expected = Vec::new();
        prost::encoding::bytes::encode(1, &body, &mut expected);
        assert_eq!(got, expected);
    }
}
