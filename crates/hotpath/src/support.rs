//! Small helpers the macro expansions call with the `hotpath` feature on: labels
//! computed at run time, logging a value only when it is `Debug`, and calling a
//! logged function's body once. Not a public API (reached through `__private`).
//!
//! `Label` and `MaybeDebug` choose an implementation by method resolution on a
//! reference: the first trait below applies when the bound holds, the second (one
//! reference further) otherwise. It works because the expansion names concrete types.

use std::borrow::Cow;
use std::fmt::{Debug, Display};

use hotpath_engine::FnSite;

/// A label value, as written in `label = <expression>`.
pub struct Label<'a, T: ?Sized>(pub &'a T);

/// Text labels (`&str`, `String`, `Cow<str>`, `Arc<str>`...) are borrowed.
pub trait LabelStr {
    /// The label's text.
    fn hotpath_label(&self) -> Cow<'_, str>;
}

impl<T: AsRef<str> + ?Sized> LabelStr for Label<'_, T> {
    fn hotpath_label(&self) -> Cow<'_, str> {
        Cow::Borrowed(self.0.as_ref())
    }
}

/// Other `Display` values (numbers, ids) are formatted.
pub trait LabelDisplay {
    /// The label's text.
    fn hotpath_label(&self) -> Cow<'_, str>;
}

impl<T: Display + ?Sized> LabelDisplay for &Label<'_, T> {
    fn hotpath_label(&self) -> Cow<'_, str> {
        Cow::Owned(self.0.to_string())
    }
}

/// A value `measure_all(log = true)` may log.
pub struct MaybeDebug<'a, T: ?Sized>(pub &'a T);

/// `Debug` values are logged.
pub trait LogDebug {
    /// Logs the value into `site`'s log.
    fn hotpath_log(&self, site: &'static FnSite);
}

impl<T: Debug + ?Sized> LogDebug for MaybeDebug<'_, T> {
    fn hotpath_log(&self, site: &'static FnSite) {
        hotpath_engine::log_value(site, self.0);
    }
}

/// Other values are not: `measure_all(log = true)` logs only what it can.
pub trait LogOther {
    /// Does nothing.
    fn hotpath_log(&self, site: &'static FnSite);
}

impl<T: ?Sized> LogOther for &MaybeDebug<'_, T> {
    fn hotpath_log(&self, _site: &'static FnSite) {}
}

/// Runs a logged function's body: a closure called exactly once, so the body may move
/// out of the arguments and return references borrowed from them.
#[inline(always)]
pub fn call_once<R>(body: impl FnOnce() -> R) -> R {
    body()
}
