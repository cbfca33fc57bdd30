//! Each thread's cache of raw statement → row, so that a statement run again is not
//! normalized again: the hot path of a query is one hash of its text and one probe.
//!
//! Direct-mapped, 256 slots, allocated on a thread's first query and freed with the
//! thread. A slot holds the hash of (raw text, route, function, library) and the row;
//! the row's own key fields are compared too, so only two raw texts with one 64-bit
//! hash could share a slot's row.

use std::cell::RefCell;

use crate::services::hash::Fnv;
use crate::services::rows::Row;

const SLOTS: usize = 256;

type Slots = [(u64, Option<&'static Row>); SLOTS];

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

/// The row of `raw` issued by `issuer`: from the cache, else from `make` (cached).
pub(crate) fn row(raw: &str, issuer: Issuer, make: impl FnOnce() -> &'static Row) -> &'static Row {
    let hash = Fnv::new()
        .bytes(raw.as_bytes())
        .number(u64::from(issuer.route) << 32 | u64::from(issuer.function))
        .number(u64::from(issuer.library))
        .finish();
    let slot = hash as usize % SLOTS;
    let hit = CACHE
        .try_with(|c| {
            let cache = c.try_borrow().ok()?;
            let (h, row) = cache.as_ref()?[slot];
            row.filter(|r| h == hash && r.tag() == issuer.library && (r.is_overflow() || matches(r, issuer)))
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
