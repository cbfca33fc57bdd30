//! Reaching the value inside a lock or channel wrapper.
//!
//! Wrappers `Deref` to the backend's type so that what they do not wrap stays callable.
//! A function taking `&std::sync::Mutex<T>` therefore accepts `&wrapped` through deref
//! coercion, and every lock it takes is then the inner lock's, unmeasured. To tell that
//! apart from ordinary use, the wrappers define the backend's common non-locking and
//! non-messaging methods themselves ([`forward!`]), so a `deref` happens only when code
//! reaches the inner value; [`Derefs`] counts those per entry and the report flags them.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use crate::switch;

/// How often code reached an entry's inner values through `Deref`/`DerefMut`.
pub(crate) struct Derefs(AtomicU64);

impl Derefs {
    pub(crate) const fn new() -> Self {
        Self(AtomicU64::new(0))
    }

    /// One more deref. Not an operation hotpath measures: one relaxed add, while on.
    #[inline]
    pub(crate) fn hit(&self) {
        if switch::enabled() {
            self.0.fetch_add(1, Relaxed);
        }
    }

    pub(crate) fn get(&self) -> u64 {
        self.0.load(Relaxed)
    }
}

/// Inherent methods that call the wrapped `inner` value's method of the same name, so
/// that they do not count as a deref. `$of` names the backend's type for the docs.
/// `other: &Self` arguments are passed as the other wrapper's inner value.
macro_rules! forward {
    ($of:literal;) => {};
    ($of:literal; fn $name:ident(&self, other: &Self) -> $ret:ty; $($rest:tt)*) => {
        #[doc = concat!("As `", $of, "::", stringify!($name), "`.")]
        #[inline]
        pub fn $name(&self, other: &Self) -> $ret {
            self.inner.$name(&other.inner)
        }
        $crate::reach::forward!($of; $($rest)*);
    };
    ($of:literal; fn $name:ident(&self $(, $arg:ident: $ty:ty)*) $(-> $ret:ty)?; $($rest:tt)*) => {
        #[doc = concat!("As `", $of, "::", stringify!($name), "`.")]
        #[inline]
        pub fn $name(&self $(, $arg: $ty)*) $(-> $ret)? {
            self.inner.$name($($arg),*)
        }
        $crate::reach::forward!($of; $($rest)*);
    };
    ($of:literal; fn $name:ident(&mut self $(, $arg:ident: $ty:ty)*) $(-> $ret:ty)?; $($rest:tt)*) => {
        #[doc = concat!("As `", $of, "::", stringify!($name), "`.")]
        #[inline]
        pub fn $name(&mut self $(, $arg: $ty)*) $(-> $ret)? {
            self.inner.$name($($arg),*)
        }
        $crate::reach::forward!($of; $($rest)*);
    };
}

pub(crate) use forward;
