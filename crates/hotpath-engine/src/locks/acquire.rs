//! The one acquisition sequence every lock backend shares: try without waiting; a lock
//! that is free is an uncontended acquisition (its hold sampled by `Held::now`); a lock
//! that is taken is waited for, and the wait counts as contended. Each backend maps its
//! `try_` method onto an `Option` (a poisoned std guard is still `Some`) and names the
//! waiting call: a blocking one, or `await` and a future.

/// `acquire!(mode, tried, wait)`: `(Held, guard)`, `tried` an `Option` of the inner
/// guard, `wait` the expression that waits for it (out of line, cold, through
/// [`contended`](super::entry::contended)). `acquire!(mode, tried, await future)`: the
/// same in an async fn, the future awaited only when `tried` is `None`. With a fourth
/// argument, a guard wrapper `$wrap { _held, inner, extra fields }` instead of the pair.
macro_rules! acquire {
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
                ($crate::locks::entry::Held::new(mode, mode.contended(start)), inner)
            }
        }
    }};
    ($mode:expr, $tried:expr, $wait:expr) => {{
        let mode: &'static $crate::locks::entry::Mode = $mode;
        match $tried {
            Some(inner) => ($crate::locks::entry::Held::now(mode), inner),
            None => $crate::locks::entry::contended(mode, || $wait),
        }
    }};
}

pub(crate) use acquire;
