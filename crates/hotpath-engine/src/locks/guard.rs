//! Trait impls every lock and guard wrapper shares, so they behave as the wrapped types.

/// `Deref`/`DerefMut` to the wrapped lock (its methods that are not wrapped, such as
/// `is_poisoned`, `get_mut` or `is_locked`, stay callable) and a forwarding `Debug`.
macro_rules! lock_impls {
    ($name:ident, $($inner:ident)::+) => {
        impl<T: ?Sized> std::ops::Deref for $name<T> {
            type Target = $($inner)::+<T>;
            fn deref(&self) -> &Self::Target {
                &self.inner
            }
        }

        impl<T: ?Sized> std::ops::DerefMut for $name<T> {
            fn deref_mut(&mut self) -> &mut Self::Target {
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
