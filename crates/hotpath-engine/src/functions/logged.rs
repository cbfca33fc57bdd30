//! `log = true` on `#[measure]` and `#[future_fn]` (and `future!`, whose site is an
//! [`FnSite`] too): the hook the expansions call, and the reader by site. The values
//! go to the site's log (`logs::log_ring`).

use std::fmt::Debug;

use crate::logs::log_ring::Owner;
use crate::record::{FnSite, SiteKind};
use crate::switch;

/// The `log = true` hook of `#[measure]`, `#[future_fn]` and `future!`: keeps the
/// bounded `Debug` text of a value `site` produced. Does nothing while no session records.
pub fn log_value<T: Debug + ?Sized>(site: &'static FnSite, value: &T) {
    if switch::enabled() {
        let owner = || Owner {
            instrument: match site.kind() {
                SiteKind::Function => "functions_timing",
                SiteKind::Future => "futures",
            },
            name: site.name(),
        };
        site.logs().ring(owner).push(&value);
    }
}

/// The logged values of `site`, oldest first: (nanoseconds since the session started,
/// `Debug` text).
pub fn logs(site: &'static FnSite) -> Vec<(u64, String)> {
    site.logs().get().map(|ring| ring.snapshot()).unwrap_or_default()
}
