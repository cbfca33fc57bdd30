//! The note a lock or channel section prints above its table when code reached a
//! wrapper's inner value through `Deref` (a `&wrapped` passed where the backend's own
//! type is expected): what was done that way is not measured, and the fix is to name
//! the wrapper's type, `hotpath::wrap::...`, in the signature.

/// The `hotpath::wrap` module of a lock `kind` (`std`, `parking_lot`, ...).
pub(crate) fn lock_module(kind: &str) -> &'static str {
    match kind {
        "std" => "hotpath::wrap::std::sync",
        "parking_lot" => "hotpath::wrap::parking_lot",
        "tokio" => "hotpath::wrap::tokio::sync",
        "async_lock" => "hotpath::wrap::async_lock",
        _ => "hotpath::wrap",
    }
}

/// The `hotpath::wrap` module of a channel `kind` (`std::sync_channel`, `tokio::mpsc`, ...).
pub(crate) fn channel_module(kind: &str) -> String {
    let mut parts = kind.split("::");
    let (backend, flavour) = (parts.next().unwrap_or(""), parts.next().unwrap_or(""));
    match backend {
        "std" => "hotpath::wrap::std::sync::mpsc".into(),
        "tokio" => format!("hotpath::wrap::tokio::sync::{flavour}"),
        "crossbeam" => "hotpath::wrap::crossbeam_channel".into(),
        "futures" => format!("hotpath::wrap::futures_channel::{flavour}"),
        "flume" | "async_channel" => format!("hotpath::wrap::{backend}"),
        _ => "hotpath::wrap".into(),
    }
}

/// One row reached through `Deref`: its name, the count, what went unmeasured and the
/// wrapper's type to write instead.
pub(crate) struct Reached<'a> {
    pub(crate) name: &'a str,
    pub(crate) derefs: u64,
    pub(crate) unmeasured: &'a str,
    pub(crate) fix: String,
}

/// `rendered` (a section's header line and table) with one warning line per row
/// reached through `Deref` inserted under the header.
pub(crate) fn noted<'a>(rendered: String, reached: impl IntoIterator<Item = Reached<'a>>) -> String {
    let lines: Vec<String> = reached
        .into_iter()
        .filter(|r| r.derefs > 0)
        .map(|r| {
            format!(
                "WARNING `{}` was reached through Deref {} times (a reference to the wrapper passed as the \
                 backend's own type): {} that way are not measured. Fix: take `{}` in signatures.\n",
                r.name, r.derefs, r.unmeasured, r.fix
            )
        })
        .collect();
    if lines.is_empty() {
        return rendered;
    }
    let split = rendered.find('\n').map_or(rendered.len(), |i| i + 1);
    let (header, rest) = rendered.split_at(split);
    format!("{header}{}{rest}", lines.concat())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrap_modules_by_kind() {
        assert_eq!(lock_module("parking_lot"), "hotpath::wrap::parking_lot");
        assert_eq!(channel_module("std::sync_channel"), "hotpath::wrap::std::sync::mpsc");
        assert_eq!(channel_module("tokio::mpsc::unbounded"), "hotpath::wrap::tokio::sync::mpsc");
        assert_eq!(channel_module("crossbeam::bounded"), "hotpath::wrap::crossbeam_channel");
        assert_eq!(channel_module("futures::oneshot"), "hotpath::wrap::futures_channel::oneshot");
        assert_eq!(channel_module("async_channel::unbounded"), "hotpath::wrap::async_channel");
    }

    #[test]
    fn warnings_go_under_the_header_and_only_for_rows_reached() {
        let row = |name, derefs| Reached { name, derefs, unmeasured: "acquisitions", fix: "&W<u8>".into() };
        let out = noted("title - words (1 total)\n+--+\n".into(), [row("a", 0), row("b", 3)]);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 3, "{out}");
        assert!(lines[1].starts_with("WARNING `b` was reached through Deref 3 times"), "{out}");
        assert!(lines[1].ends_with("Fix: take `&W<u8>` in signatures."), "{out}");
        assert_eq!(noted("t\n".into(), [row("a", 0)]), "t\n");
    }
}
