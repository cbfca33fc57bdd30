//! Turning a value into log text on the calling thread, with bounded work: `Debug`
//! writes into a per-thread scratch buffer through a writer that stops after the
//! character limit, so a huge value costs no more than a small one past that point.
//! The scratch is reused (no allocation in steady state); formatting runs outside any
//! profiler lock, so a `Debug` impl that itself calls `dbg!` cannot deadlock.

use std::cell::{OnceCell, RefCell};
use std::fmt::{self, Debug, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};

use super::contain;

/// Appends to a string until `max` characters were written, then refuses more. Works
/// on slices (one copy per write, no per-character push) and notes where the first
/// `max - 3` characters end, so a cut text needs no second pass.
struct Capped<'a> {
    out: &'a mut String,
    /// Characters that may still be written.
    left: usize,
    /// Characters until the `max - 3` mark, then 0.
    to_keep: usize,
    /// Length of `out` at the mark, once reached.
    keep_at: Option<usize>,
    cut: bool,
}

impl Write for Capped<'_> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        if self.keep_at.is_none() {
            let (bytes, chars) = prefix(s, self.to_keep);
            if chars == self.to_keep {
                self.keep_at = Some(self.out.len() + bytes);
            }
            self.to_keep -= chars;
        }
        let (bytes, chars) = prefix(s, self.left);
        self.out.push_str(&s[..bytes]);
        self.left -= chars;
        if bytes < s.len() {
            self.cut = true;
            return Err(fmt::Error);
        }
        Ok(())
    }
}

/// The longest prefix of `s` of at most `n` characters: its length in bytes and characters.
fn prefix(s: &str, n: usize) -> (usize, usize) {
    // Bytes bound characters from above: a short write needs no search.
    if s.len() <= n {
        return (s.len(), s.chars().count());
    }
    // `n` ASCII bytes are `n` characters, and a character starts right after them.
    if s.as_bytes()[..n].is_ascii() {
        return (n, n);
    }
    match s.char_indices().nth(n) {
        Some((end, _)) => (end, n),
        None => (s.len(), s.chars().count()),
    }
}

/// Writes `value`'s `Debug` into `out` (cleared first), at most `max` characters; a
/// longer text keeps `max - 3` characters and ends in `...`. Returns whether it was
/// cut. A `Debug` impl that panics leaves `<Debug panicked>`: the panic is caught
/// here and, once a session installed the wrapper hook, the program's hook does not
/// see it (`contain`).
pub(crate) fn write_capped(out: &mut String, value: &dyn Debug, max: usize) -> bool {
    out.clear();
    let mut writer = Capped { out: &mut *out, left: max, to_keep: max.saturating_sub(3), keep_at: None, cut: false };
    let written = contain::formatting_user_debug(|| {
        catch_unwind(AssertUnwindSafe(|| {
            let _ = fmt::write(&mut writer, format_args!("{value:?}"));
            (writer.cut, writer.keep_at)
        }))
    });
    match written {
        Ok((false, _)) => false,
        Ok((true, keep_at)) => {
            out.truncate(keep_at.unwrap_or(0));
            out.push_str("...");
            true
        }
        Err(_) => {
            out.clear();
            out.push_str("<Debug panicked>");
            false
        }
    }
}

thread_local! {
    static SCRATCH: RefCell<String> = const { RefCell::new(String::new()) };
    static THREAD_NAME: OnceCell<Box<str>> = const { OnceCell::new() };
}

/// Formats `value` (see [`write_capped`]) into this thread's scratch buffer and
/// passes the text and the cut flag to `f`. The buffer is taken out while `value`
/// formats, so a `Debug` impl that calls a tracker gets a buffer of its own.
pub(crate) fn with_text<R>(value: &dyn Debug, max: usize, f: impl FnOnce(&str, bool) -> R) -> R {
    let mut buf: String = SCRATCH
        .try_with(|s| s.try_borrow_mut().map(|mut b| std::mem::take(&mut *b)).unwrap_or_default())
        .unwrap_or_default();
    let cut = write_capped(&mut buf, value, max);
    let result = f(&buf, cut);
    let _ = SCRATCH.try_with(|s| {
        if let Ok(mut kept) = s.try_borrow_mut() {
            if kept.capacity() < buf.capacity() {
                *kept = buf;
            }
        }
    });
    result
}

/// Replaces `dst` with the calling thread's name (cached on first use, at most 64
/// characters): its `std::thread` name, or `ThreadId(N)` for an unnamed thread.
pub(crate) fn copy_thread_name(dst: &mut String) {
    dst.clear();
    let copied = THREAD_NAME.try_with(|name| dst.push_str(name.get_or_init(current_name)));
    if copied.is_err() {
        dst.push_str("<exiting>");
    }
}

fn current_name() -> Box<str> {
    let thread = std::thread::current();
    let name = thread.name().map_or_else(|| format!("{:?}", thread.id()), str::to_string);
    name.chars().take(64).collect::<String>().into_boxed_str()
}

/// `key` cut to at most `max` characters (keys are stored and compared cut).
pub(crate) fn cut_key(key: &str, max: usize) -> &str {
    if key.len() <= max {
        return key;
    }
    key.char_indices().nth(max).map_or(key, |(i, _)| &key[..i])
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Panics;
    impl Debug for Panics {
        fn fmt(&self, _: &mut fmt::Formatter<'_>) -> fmt::Result {
            panic!("no Debug today")
        }
    }

    /// Counts how many characters the writer was asked to take.
    struct Endless<'a>(&'a std::cell::Cell<usize>);
    impl Debug for Endless<'_> {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            for _ in 0..1_000_000 {
                self.0.set(self.0.get() + 1);
                f.write_str("ab")?;
            }
            Ok(())
        }
    }

    #[test]
    fn short_values_are_kept_whole_and_long_ones_cut_and_marked() {
        let mut out = String::new();
        assert!(!write_capped(&mut out, &42u64, 8));
        assert_eq!(out, "42");
        assert!(!write_capped(&mut out, &"abcdef", 8), "exactly 8 characters with quotes");
        assert_eq!(out, "\"abcdef\"");
        assert!(write_capped(&mut out, &"abcdefg", 8));
        assert_eq!(out, "\"abcd...");
        assert!(write_capped(&mut out, &"éééééééééé", 8), "characters, not bytes");
        assert_eq!(out, "\"éééé...");
        assert_eq!(out.chars().count(), 8);
        assert!(write_capped(&mut out, &"aéaéaéaéaé", 9), "mixed, the mark inside a write");
        assert_eq!(out, "\"aéaéa...");
        assert!(!write_capped(&mut out, &"", 2) && out == "\"\"");
        assert!(write_capped(&mut out, &"abc", 3), "a limit of at most 3 keeps only the dots");
        assert_eq!(out, "...");
    }

    #[test]
    fn formatting_stops_at_the_limit() {
        let asked = std::cell::Cell::new(0);
        let mut out = String::new();
        assert!(write_capped(&mut out, &Endless(&asked), 100));
        assert_eq!(out.len(), 100);
        assert!(asked.get() <= 51, "stopped after the cap, asked {} times", asked.get());
    }

    #[test]
    fn a_panicking_debug_is_contained() {
        super::super::contain::install_hook();
        let mut out = String::new();
        assert!(!write_capped(&mut out, &Panics, 100));
        assert_eq!(out, "<Debug panicked>");
    }

    /// A value whose `Debug` formats another value through `with_text`, as a `Debug`
    /// impl calling `dbg!` would.
    struct Nested;
    impl Debug for Nested {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            let inner = with_text(&7u8, 10, |t, _| t.to_string());
            write!(f, "outer({inner})")
        }
    }

    #[test]
    fn reentrant_formatting_uses_a_fresh_buffer() {
        assert_eq!(with_text(&Nested, 100, |t, cut| (t.to_string(), cut)), ("outer(7)".to_string(), false));
        let mut name = String::new();
        copy_thread_name(&mut name);
        assert_eq!(name, std::thread::current().name().unwrap_or("?"));
    }
}
