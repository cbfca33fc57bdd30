//! Debug trackers: [`dbg!`](crate::dbg), [`val!`](crate::val) and
//! [`gauge!`](crate::gauge). With the `hotpath` feature they record into the report's
//! `debug` section (while a session runs); without it `dbg!` is its argument, `val!` and
//! `gauge!` are handles whose methods do nothing, and nothing is formatted.

/// Converts a gauge argument to `f64`, so that `gauge!("q").set(3)` works with an
/// integer literal. Implemented for `f64`, `f32` and every integer type up to 64 bits.
pub trait IntoF64 {
    /// The value as `f64` (`as` conversion: large 64-bit integers round).
    fn into_f64(self) -> f64;
}

macro_rules! into_f64 {
    ($($t:ty),*) => {
        $(impl IntoF64 for $t {
            #[inline(always)]
            fn into_f64(self) -> f64 {
                self as f64
            }
        })*
    };
}

into_f64!(f64, f32, i8, i16, i32, i64, u8, u16, u32, u64, isize, usize);

// What the macros expand to (through `$crate::debug::`), and the logs for tests.
#[cfg(feature = "hotpath")]
pub use hotpath_engine::debug::{logs, DbgSite, GaugeSite, ValSite};

/// Records a value like `std::dbg!`, into the report instead of stderr:
/// `let y = hotpath::dbg!(x * 2);`, `let (a, b) = hotpath::dbg!(a, b);`.
///
/// Returns its argument (moved, as `std::dbg!` does); several arguments give a tuple,
/// a trailing comma is accepted. Each call site is a row of the `debug` section: the
/// expression's text, the source location, the number of calls and the last value's
/// `Debug` text; `GET /debug/dbg/{id}/logs` serves its last `HOTPATH_LOGS_LIMIT`
/// values (default 50) with times and thread names. Texts are cut at
/// `HOTPATH_MAX_LOG_LEN` characters (default 1536) and marked. Nothing is printed.
/// Values are recorded only while a `#[hotpath::main]` session runs.
///
/// Cost, feature on: outside a session one relaxed load. In a session, the value's
/// `Debug` formatted on the calling thread into a reused buffer (formatting stops at
/// the length limit), then a copy into the call site's log under its own lock: no
/// allocation once the log is full.
///
/// Cost, feature off: none, and the value needs no `Debug`.
#[cfg(feature = "hotpath")]
#[macro_export]
macro_rules! dbg {
    () => {{
        static __HOTPATH_DBG: $crate::debug::DbgSite =
            $crate::debug::DbgSite::new(::core::file!(), ::core::line!(), ::core::column!(), "()");
        __HOTPATH_DBG.record(&());
    }};
    ($value:expr $(,)?) => {
        match $value {
            value => {
                static __HOTPATH_DBG: $crate::debug::DbgSite = $crate::debug::DbgSite::new(
                    ::core::file!(),
                    ::core::line!(),
                    ::core::column!(),
                    ::core::stringify!($value),
                );
                __HOTPATH_DBG.record(&value);
                value
            }
        }
    };
    // Each value as above (written out: the macro does not call itself).
    ($($value:expr),+ $(,)?) => {
        ($(match $value {
            value => {
                static __HOTPATH_DBG: $crate::debug::DbgSite = $crate::debug::DbgSite::new(
                    ::core::file!(),
                    ::core::line!(),
                    ::core::column!(),
                    ::core::stringify!($value),
                );
                __HOTPATH_DBG.record(&value);
                value
            }
        }),+,)
    };
}

/// Returns its argument (several arguments: a tuple) without recording anything: the
/// `hotpath` feature is off. See the feature-on documentation of `hotpath::dbg!`.
#[cfg(not(feature = "hotpath"))]
#[macro_export]
macro_rules! dbg {
    () => {
        ()
    };
    ($value:expr $(,)?) => {
        match $value {
            value => value,
        }
    };
    ($($value:expr),+ $(,)?) => {
        ($(match $value {
            value => value,
        }),+,)
    };
}

/// A named value: `hotpath::val!("state").set(&state)`; the key may be any string
/// expression (`&str`, `String`, `format!("conn-{id}")`).
///
/// Each key is a row of the `debug` section with its update count and last value's
/// `Debug` text; `GET /debug/val/{id}/logs` serves its last values, each with the call
/// site that set it, the time and the thread. Keys beyond `HOTPATH_ENTRIES_LIMIT`
/// (default 1000, `<other>` included) are counted under `<other>`, whose records name
/// the real key, and the report says so once. Limits and recording as for
/// [`dbg!`](crate::dbg).
///
/// Cost, feature on: outside a session one relaxed load. In a session, finding the key's
/// entry is one atomic load and one string comparison when the call site's key did not
/// change (a literal key never does); another key is looked up under the registry's
/// lock. `set` then costs what `dbg!` costs.
///
/// Cost, feature off: none; the key is not evaluated and the value needs no `Debug`.
#[cfg(feature = "hotpath")]
#[macro_export]
macro_rules! val {
    ($key:expr $(,)?) => {{
        static __HOTPATH_VAL: $crate::debug::ValSite =
            $crate::debug::ValSite::new(::core::file!(), ::core::line!(), ::core::column!());
        $crate::ValHandle::__new(__HOTPATH_VAL.handle(::core::convert::AsRef::<str>::as_ref(&$key)))
    }};
}

/// A [`ValHandle`](crate::ValHandle) that records nothing: the `hotpath` feature is
/// off (the key is type-checked, not evaluated). See the feature-on documentation.
#[cfg(not(feature = "hotpath"))]
#[macro_export]
macro_rules! val {
    ($key:expr $(,)?) => {{
        if false {
            let _ = &$key;
        }
        $crate::ValHandle
    }};
}

/// A number by key: `hotpath::gauge!("queue").set(10).inc(5).dec(3)` (chainable; any
/// number type through [`IntoF64`](crate::IntoF64)).
///
/// Each key is a row of the `debug` section with its current, minimum and maximum
/// value, update count and last 64 values; `GET /debug/gauge/{id}/logs` serves its
/// last operations, and `/metrics` exports `hotpath_tracker_value{key="..."}` with
/// `hotpath_tracker_value_min` and `_max`. `inc` and `dec` on a gauge never set
/// start from 0. Keys, limits and recording as for [`val!`](crate::val).
///
/// Cost, feature on: finding the entry as for `val!`; an update then writes a few
/// numbers and the thread's name under the entry's lock: no formatting, no allocation
/// once its log is full.
///
/// Cost, feature off: none; the key is not evaluated.
#[cfg(feature = "hotpath")]
#[macro_export]
macro_rules! gauge {
    ($key:expr $(,)?) => {{
        static __HOTPATH_GAUGE: $crate::debug::GaugeSite =
            $crate::debug::GaugeSite::new(::core::file!(), ::core::line!(), ::core::column!());
        $crate::GaugeHandle::__new(__HOTPATH_GAUGE.handle(::core::convert::AsRef::<str>::as_ref(&$key)))
    }};
}

/// A [`GaugeHandle`](crate::GaugeHandle) that records nothing: the `hotpath` feature
/// is off (the key is type-checked, not evaluated). See the feature-on documentation.
#[cfg(not(feature = "hotpath"))]
#[macro_export]
macro_rules! gauge {
    ($key:expr $(,)?) => {{
        if false {
            let _ = &$key;
        }
        $crate::GaugeHandle
    }};
}

/// What [`val!`](crate::val) returns: [`set`](Self::set) records a value under its key.
#[cfg(feature = "hotpath")]
#[must_use = "call .set(&value) to record a value"]
pub struct ValHandle(hotpath_engine::debug::ValRef);

#[cfg(feature = "hotpath")]
impl ValHandle {
    #[doc(hidden)]
    #[inline]
    pub fn __new(inner: hotpath_engine::debug::ValRef) -> Self {
        Self(inner)
    }

    /// Records `value`'s `Debug` text under the key, with this call site.
    #[inline]
    pub fn set<T: std::fmt::Debug + ?Sized>(&self, value: &T) {
        self.0.set(&value);
    }
}

/// What [`val!`](crate::val) returns with the `hotpath` feature off: records nothing.
#[cfg(not(feature = "hotpath"))]
#[must_use = "call .set(&value) to record a value"]
pub struct ValHandle;

#[cfg(not(feature = "hotpath"))]
impl ValHandle {
    /// Does nothing (the feature is off); `T` needs no `Debug`.
    #[inline(always)]
    pub fn set<T: ?Sized>(&self, _value: &T) {}
}

/// What [`gauge!`](crate::gauge) returns: `set`, `inc` and `dec`, chainable.
#[cfg(feature = "hotpath")]
#[must_use = "call .set(x), .inc(d) or .dec(d) to update the gauge"]
pub struct GaugeHandle(hotpath_engine::debug::GaugeRef);

#[cfg(feature = "hotpath")]
impl GaugeHandle {
    #[doc(hidden)]
    #[inline]
    pub fn __new(inner: hotpath_engine::debug::GaugeRef) -> Self {
        Self(inner)
    }

    /// Sets the value.
    #[inline]
    pub fn set(&self, value: impl IntoF64) -> &Self {
        self.0.set(value.into_f64());
        self
    }

    /// Adds `delta` (to 0 on a gauge never set).
    #[inline]
    pub fn inc(&self, delta: impl IntoF64) -> &Self {
        self.0.inc(delta.into_f64());
        self
    }

    /// Subtracts `delta` (from 0 on a gauge never set).
    #[inline]
    pub fn dec(&self, delta: impl IntoF64) -> &Self {
        self.0.dec(delta.into_f64());
        self
    }
}

/// What [`gauge!`](crate::gauge) returns with the `hotpath` feature off: records nothing.
#[cfg(not(feature = "hotpath"))]
#[must_use = "call .set(x), .inc(d) or .dec(d) to update the gauge"]
pub struct GaugeHandle;

#[cfg(not(feature = "hotpath"))]
impl GaugeHandle {
    /// Does nothing (the feature is off).
    #[inline(always)]
    pub fn set(&self, _value: impl IntoF64) -> &Self {
        self
    }

    /// Does nothing (the feature is off).
    #[inline(always)]
    pub fn inc(&self, _delta: impl IntoF64) -> &Self {
        self
    }

    /// Does nothing (the feature is off).
    #[inline(always)]
    pub fn dec(&self, _delta: impl IntoF64) -> &Self {
        self
    }
}
