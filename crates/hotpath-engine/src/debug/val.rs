//! `val!(key).set(&value)`: the last values of a key, each record naming the call
//! site that set it.

use std::fmt::Debug;

use super::keyed::{Keyed, KeyedEntry};
use super::site::KeySite;
use crate::logs::location::Location;
use crate::logs::log::LogRing;
use crate::{switch, timeline};

/// A `val!` key's row and log.
pub(crate) struct ValEntry {
    pub(crate) id: u32,
    pub(crate) key: Box<str>,
    pub(crate) other: bool,
    pub(crate) log: LogRing,
}

pub(crate) static VALS: Keyed<ValEntry> = Keyed::new("val!");

impl KeyedEntry for ValEntry {
    fn registry() -> &'static Keyed<Self> {
        &VALS
    }

    fn create(id: u32, key: &str, other: bool) -> Self {
        Self { id, key: key.into(), other, log: LogRing::new() }
    }

    fn key(&self) -> &str {
        &self.key
    }

    fn is_other(&self) -> bool {
        self.other
    }
}

/// A `val!` call site, emitted as a `static` by the macro.
pub struct ValSite(KeySite<ValEntry>);

impl ValSite {
    /// A site; `const` for statics.
    pub const fn new(file: &'static str, line: u32, column: u32) -> Self {
        Self(KeySite::new(file, line, column))
    }

    /// The handle for `key`: its entry while a session records, else nothing to record into.
    #[inline]
    pub fn handle(&'static self, key: &str) -> ValRef {
        ValRef { site: &self.0.location, entry: self.0.entry(key) }
    }
}

/// What `val!(key)` resolved to; [`set`](Self::set) records into it.
pub struct ValRef {
    site: &'static Location,
    entry: Option<(&'static ValEntry, Option<Box<str>>)>,
}

impl ValRef {
    /// Logs `value` under the key, with this call site, while a session records.
    #[inline]
    pub fn set(&self, value: &dyn Debug) {
        if let Some((entry, folded)) = &self.entry {
            if switch::enabled() {
                entry.log.append_keyed(value, Some(self.site), folded.as_deref());
                if timeline::on() {
                    timeline::instant(timeline::Kind::Mark, entry.id, crate::clock::now(), timeline::MARK_VAL);
                }
            }
        }
    }
}
