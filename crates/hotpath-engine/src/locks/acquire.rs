//! The one acquisition sequence every lock backend shares: try without waiting; a lock
//! that is free is an uncontended acquisition (its hold sampled by `Held::now`); a lock
//! that is taken is waited for, and the wait counts as contended. Each backend maps its
//! `try_` method onto an `Option` (or, std, onto patterns: a poisoned guard is acquired
//! all the same) and names the waiting call: a blocking one, or `await` and a future.
//! A `try_` method never waits, so is never contended: its guard is paired with
//! `Held::now` as an uncontended acquisition.

/// `acquire!(mode, tried, wait)`: `(Held, guard)`, `tried` an `Option` of the inner
/// guard, `wait` the expression that waits for it (out of line, cold, through
/// [`contended`](super::entry::contended)). `acquire!(mode, tried, await future)`: the
/// same in an async fn, the future awaited only when `tried` is `None`. With a fourth
/// argument, a guard wrapper `$wrap { _held, inner, extra fields }` instead of the pair;
/// `acquire!(mode, tried, wait; map)`: `map(held, inner)`, applied on each path (so that
/// a `map` that branches on `inner`, as std's poisoning does, adds no branch).
/// `acquire!(mode, match (try) { got => inner, ...; taken }, wait; map)`: `try` is the
/// backend's own result, each `got` pattern an acquisition giving `inner`, `taken` the
/// lock held elsewhere (std: a poisoned lock is acquired, its guard in the error).
macro_rules! acquire {
    ($mode:expr, match ($tried:expr) { $($got:pat => $inner:expr),+; $taken:pat }, $wait:expr; $map:expr) => {{
        let mode: &'static $crate::locks::entry::Mode = $mode;
        let map = $map;
        match $tried {
            $($got => map($crate::locks::entry::Held::now(mode), $inner),)+
            $taken => {
                let (held, inner) = $crate::locks::entry::contended(mode, || $wait);
                map(held, inner)
            }
        }
    }};
    ($mode:expr, $tried:expr, await $wait:expr, $wrap:ident $(, $field:ident: $value:expr)*) => {{
        let (_held, inner) = $crate::locks::acquire::acquire!($mode, $tried, await $wait);
        $wrap { _held, inner $(, $field: $value)* }
    }};
    ($mode:expr, $tried:expr, $wait:expr, $wrap:ident $(, $field:ident: $value:expr)*) => {{
        let (_held, inner) = $crate::locks::acquire::acquire!($mode, $tried, $wait);
        $wrap { _held, inner $(, $field: $value)* }
    }};
    ($mode:expr, $tried:expr, await $wait:expr) => {{
        let mode: &'static $crate::locks::entry::Mode = $mode;
        match $tried {
            Some(inner) => ($crate::locks::entry::Held::now(mode), inner),
            None => {
                let start = $crate::clock::now();
                let inner = $wait.await;
                (mode.contended(start), inner)
            }
        }
    }};
    ($mode:expr, $tried:expr, $wait:expr) => {
        $crate::locks::acquire::acquire!($mode, $tried, $wait; |held, inner| (held, inner))
    };
    ($mode:expr, $tried:expr, $wait:expr; $map:expr) => {
        $crate::locks::acquire::acquire!($mode, match ($tried) { Some(inner) => inner; None }, $wait; $map)
    };
}

pub(crate) use acquire;
