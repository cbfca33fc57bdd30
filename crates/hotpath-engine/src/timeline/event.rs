//! What one timeline event says, and how it packs into a ring slot's four words.

/// What happened. The id's meaning depends on the kind: a function site's id for
/// [`Kind::Call`] and [`Kind::Poll`], a metric id (`record::Metric`) for the others.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Kind {
    /// A measured sync call or `measure_block!`: a slice (`extra` is 0: the writer
    /// leaves the slot's fourth word as it was, one store less on its path).
    Call = 1,
    /// One poll of a measured future: a slice; `extra` is its call's start (ticks, the
    /// same on every poll of the call, whichever thread runs it) with the low bit set
    /// on the call's last poll.
    Poll = 2,
    /// A message handed to a channel: an instant; `extra` is its flow id.
    Send = 3,
    /// A message taken from a channel: an instant; `extra` is its send's flow id.
    Receive = 4,
    /// A wait for a lock that was taken: a slice.
    LockWait = 5,
    /// A lock held: a slice.
    LockHold = 6,
    /// A wait of a send on a full channel: a slice.
    SendWait = 7,
    /// An `io!` operation: a slice; `extra` is its bytes.
    Io = 8,
    /// A `gauge!` set to `extra` (as f64 bits): a counter.
    Gauge = 9,
    /// An item a `stream!` yielded: an instant.
    Item = 10,
    /// An HTTP request served, an HTTP call made or an SQL query: a slice; `id` is its
    /// row, `extra` the HTTP status (0 for none).
    Request = 11,
    /// A `dbg!` or `val!` logged: an instant; `id` is its entry.
    Mark = 12,
    /// The process's resident memory, `extra` bytes (the threads sampler): a counter.
    Rss = 13,
    /// A thread's CPU share over the threads sampler's last interval, `extra` (f64 bits)
    /// percent; `id` is the thread's OS id: a counter.
    ThreadCpu = 14,
}

impl Kind {
    const ALL: [Kind; 14] = [
        Kind::Call,
        Kind::Poll,
        Kind::Send,
        Kind::Receive,
        Kind::LockWait,
        Kind::LockHold,
        Kind::SendWait,
        Kind::Io,
        Kind::Gauge,
        Kind::Item,
        Kind::Request,
        Kind::Mark,
        Kind::Rss,
        Kind::ThreadCpu,
    ];

    fn from_u8(byte: u8) -> Option<Kind> {
        Self::ALL.into_iter().find(|k| *k as u8 == byte)
    }
}

/// A [`Kind::Mark`] event's `extra`: a `dbg!` (its id indexes the `dbg!` entries)...
pub(crate) const MARK_DBG: u64 = 0;
/// ...or a `val!` (its id is the key's).
pub(crate) const MARK_VAL: u64 = 1;

/// One event read back from a ring. Times are clock ticks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Event {
    /// What happened.
    pub kind: Kind,
    /// Whose event (see [`Kind`]).
    pub id: u32,
    /// When it started (ticks).
    pub start: u64,
    /// How long it lasted (ticks; 0 for an instant).
    pub len: u64,
    /// The kind's payload (see [`Kind`]).
    pub extra: u64,
}

impl Event {
    /// The first word of a slot: kind and id.
    #[inline(always)]
    pub(crate) const fn what(kind: Kind, id: u32) -> u64 {
        ((kind as u64) << 32) | id as u64
    }

    /// Unpacks a slot's words; `None` for a word that names no kind.
    pub(crate) fn from_words(what: u64, start: u64, len: u64, extra: u64) -> Option<Event> {
        let kind = Kind::from_u8((what >> 32) as u8)?;
        let extra = if kind == Kind::Call { 0 } else { extra };
        Some(Event { kind, id: what as u32, start, len, extra })
    }

    /// Where the event ends (ticks).
    pub fn end(&self) -> u64 {
        self.start.saturating_add(self.len)
    }
}
