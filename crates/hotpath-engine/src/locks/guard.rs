//! Trait impls every lock and guard wrapper shares, so they behave as the wrapped types.

/// `Deref`/`DerefMut` to the wrapped lock, so that its methods the wrapper does not
/// define stay callable, and a forwarding `Debug`. The wrappers define the common
/// non-locking ones (`is_poisoned`, `get_mut`, `is_locked`), so a deref means code
/// reached the inner lock (deref coercion to `&std::sync::Mutex<T>`): it is counted.
macro_rules! lock_impls {
    ($name:ident, $($inner:ident)::+) => {
        impl<T: ?Sized> std::ops::Deref for $name<T> {
            type Target = $($inner)::+<T>;
            fn deref(&self) -> &Self::Target {
                self.entry.core.derefs.hit();
                &self.inner
            }
        }

        impl<T: ?Sized> std::ops::DerefMut for $name<T> {
            fn deref_mut(&mut self) -> &mut Self::Target {
                self.entry.core.derefs.hit();
                &mut self.inner
            }
        }

        impl<T: ?Sized + std::fmt::Debug> std::fmt::Debug for $name<T> {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                self.inner.fmt(f)
            }
        }
    };
}

/// `Deref` (and with `mut`, `DerefMut`) to the protected data, `Debug` and `Display`.
macro_rules! guard_impls {
    ($name:ident $(, $mut:ident)?) => {
        impl<T: ?Sized> std::ops::Deref for $name<'_, T> {
            type Target = T;
            #[inline]
            fn deref(&self) -> &T {
                &self.inner
            }
        }

        $(
            super::guard::guard_impls!(@$mut $name);
        )?

        impl<T: ?Sized + std::fmt::Debug> std::fmt::Debug for $name<'_, T> {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                std::fmt::Debug::fmt(&**self, f)
            }
        }

        impl<T: ?Sized + std::fmt::Display> std::fmt::Display for $name<'_, T> {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                std::fmt::Display::fmt(&**self, f)
            }
        }
    };
    (@mut $name:ident) => {
        impl<T: ?Sized> std::ops::DerefMut for $name<'_, T> {
            #[inline]
            fn deref_mut(&mut self) -> &mut T {
                &mut self.inner
            }
        }
    };
}

pub(crate) use {guard_impls, lock_impls};
