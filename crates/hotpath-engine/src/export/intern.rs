//! Names of a layout's slices, instants, lanes and counters, each text interned once.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use super::names::Names;
use crate::timeline::{Event, Kind};

/// Interned names: each distinct text once, each (kind, id, variant) looked up once.
pub(crate) struct Interner<'a> {
    names: &'a Names,
    pub(crate) texts: Vec<String>,
    by_text: HashMap<String, u32>,
    by_event: HashMap<(u8, u32, u64), u32, BuildHasherDefault<Mix>>,
    /// The last event's key and name: a thread's events repeat a few sites, often the
    /// same one in a row (a loop's calls), which then costs one compare.
    last: ((u8, u32, u64), u32),
}

/// A multiplicative hasher for the small integer keys looked up once per event (the
/// default SipHash costs more than the rest of the lookup).
#[derive(Default)]
struct Mix(u64);

impl Hasher for Mix {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        bytes.iter().for_each(|b| self.write_u64(u64::from(*b)));
    }

    fn write_u8(&mut self, n: u8) {
        self.write_u64(u64::from(n));
    }

    fn write_u32(&mut self, n: u32) {
        self.write_u64(u64::from(n));
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

impl<'a> Interner<'a> {
    pub(crate) fn new(names: &'a Names) -> Self {
        Self {
            names,
            texts: Vec::new(),
            by_text: HashMap::new(),
            by_event: HashMap::default(),
            last: ((u8::MAX, 0, 0), 0),
        }
    }

    pub(crate) fn text(&mut self, text: String) -> u32 {
        if let Some(&i) = self.by_text.get(&text) {
            return i;
        }
        self.texts.push(text.clone());
        let i = self.texts.len() as u32 - 1;
        self.by_text.insert(text, i);
        i
    }

    /// The name of an event's slice or instant.
    pub(crate) fn event(&mut self, event: &Event) -> u32 {
        // What of `extra` the name depends on: the `io!` operation, or dbg! versus val!.
        let variant = match event.kind {
            Kind::Io => event.extra >> 56,
            Kind::Mark => event.extra,
            _ => 0,
        };
        let key = (event.kind as u8, event.id, variant);
        if self.last.0 == key {
            return self.last.1;
        }
        if let Some(&i) = self.by_event.get(&key) {
            self.last = (key, i);
            return i;
        }
        let what = self.names.of(event.kind, event.id, event.extra);
        let label = match event.kind {
            Kind::LockWait => format!("wait {what}"),
            Kind::SendWait => format!("send blocked {what}"),
            Kind::Send => format!("send {what}"),
            Kind::Receive => format!("recv {what}"),
            Kind::Item => format!("item {what}"),
            Kind::Io => format!("{what} {}", io_op(event.extra)),
            _ => what,
        };
        let i = self.text(label);
        self.by_event.insert(key, i);
        self.last = (key, i);
        i
    }
}

/// A counter track's name: the gauge's key, `RSS bytes`, or `CPU % <thread> (<tid>)`.
pub(crate) fn counter_name(event: &Event, names: &Names, threads: &HashMap<u32, &str>) -> String {
    match event.kind {
        Kind::Gauge => names.of(Kind::Gauge, event.id, 0),
        Kind::Rss => "RSS bytes".to_string(),
        _ => {
            let thread = threads.get(&event.id).filter(|n| !n.is_empty());
            let thread = thread.map_or_else(|| format!("thread {}", event.id), |n| n.to_string());
            format!("CPU % {thread} ({})", event.id)
        }
    }
}

fn io_op(extra: u64) -> &'static str {
    match extra >> 56 {
        0 => "read",
        1 => "write",
        2 => "flush",
        _ => "shutdown",
    }
}
