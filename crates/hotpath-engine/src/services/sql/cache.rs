//! Each thread's cache of raw statement → row, so that a statement run again is not
//! normalized again: the hot path of a query is one hash of its text and one probe.
//!
//! Direct-mapped, 256 slots, allocated on a thread's first query and freed with the
//! thread: a program that sends ever new texts (literals in them) replaces slots and
//! never grows the cache. A slot holds the hash of (raw text, dialect, route,
//! function, library), the row and the statement's kind;
//! the row's own key fields are compared too, so only two raw texts with one 64-bit
//! hash could share a slot's row.

use std::cell::RefCell;

use super::normalize::Kind;
use crate::services::hash::Fnv;
use crate::services::rows::Row;

const SLOTS: usize = 256;

type Slots = [(u64, Option<(&'static Row, Kind)>); SLOTS];

thread_local! {
    static CACHE: RefCell<Option<Box<Slots>>> = const { RefCell::new(None) };
}

/// What a cached row must match besides its raw text.
#[derive(Clone, Copy)]
pub(crate) struct Issuer {
    pub(crate) route: u32,
    pub(crate) function: u32,
    pub(crate) library: u8,
}

/// The row and kind of `raw` issued by `issuer`: from the cache, else from `make`
/// (cached).
pub(crate) fn row(
    raw: &str,
    dialect: u8,
    issuer: Issuer,
    make: impl FnOnce() -> (&'static Row, Kind),
) -> (&'static Row, Kind) {
    let hash = Fnv::new()
        .bytes(raw.as_bytes())
        .number(u64::from(issuer.route) << 32 | u64::from(issuer.function))
        .number(u64::from(issuer.library) << 8 | u64::from(dialect))
        .finish();
    let slot = hash as usize % SLOTS;
    let hit = CACHE
        .try_with(|c| {
            let cache = c.try_borrow().ok()?;
            let (h, row) = cache.as_ref()?[slot];
            row.filter(|(r, _)| h == hash && r.tag() == issuer.library && (r.is_overflow() || matches(r, issuer)))
        })
        .ok()
        .flatten();
    if let Some(row) = hit {
        return row;
    }
    let row = make();
    let _ = CACHE.try_with(|c| {
        if let Ok(mut cache) = c.try_borrow_mut() {
            let slots = cache.get_or_insert_with(|| crate::memory::untracked(|| Box::new([(0, None); SLOTS])));
            slots[slot] = (hash, Some(row));
        }
    });
    row
}

fn matches(row: &Row, issuer: Issuer) -> bool {
    row.route() == issuer.route && row.function() == issuer.function
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::services::rows::{Key, RowTable, NONE};

    static ROWS: RowTable = RowTable::new("cache test");

    fn occupied() -> usize {
        CACHE.with(|c| c.borrow().as_ref().map_or(0, |s| s.iter().filter(|(_, r)| r.is_some()).count()))
    }

    #[test]
    fn distinct_texts_replace_slots_and_a_repeat_is_a_hit() {
        let issuer = Issuer { route: NONE, function: NONE, library: 0 };
        let key = Key { text: "SELECT ?", label: None, route: NONE, function: NONE, tag: 0 };
        let mut made = 0;
        for i in 0..5_000 {
            let raw = format!("SELECT {i}");
            let (row, kind) = cache_row(&raw, issuer, &mut made, &key);
            assert_eq!((row.text(), kind), ("SELECT ?", Kind::Read));
        }
        assert_eq!(made, 5_000);
        assert!(occupied() <= SLOTS, "{}", occupied());
        cache_row("SELECT 4999", issuer, &mut made, &key);
        assert_eq!(made, 5_000, "the last text is still cached");
        // Another dialect is another reading of the same text.
        row("SELECT 4999", 1, issuer, || {
            made += 1;
            (ROWS.get(&key, || None), Kind::Read)
        });
        assert_eq!(made, 5_001);
    }

    fn cache_row(raw: &str, issuer: Issuer, made: &mut usize, key: &Key<'_>) -> (&'static Row, Kind) {
        row(raw, 0, issuer, || {
            *made += 1;
            (ROWS.get(key, || None), Kind::Read)
        })
    }
}
