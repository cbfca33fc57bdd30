//! Raw sampled stacks to named frames: each return address resolved once (function,
//! file, line, inlined frames included, from the binary's debug info through
//! `backtrace::resolve`), the allocator's own frames cut off, and the allocating
//! frame picked: the first outside `alloc`, `core` and `std`. Runs on the
//! collector's side (it allocates), never in the allocator.

use std::collections::HashMap;

use super::symtab::Symtab;

/// One named frame.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Frame {
    pub(crate) function: String,
    pub(crate) file: String,
    pub(crate) line: u32,
}

impl Frame {
    pub(crate) fn label(&self) -> String {
        if self.file.is_empty() {
            self.function.clone()
        } else {
            format!("{} ({}:{})", self.function, self.file, self.line)
        }
    }
}

/// Frames of the sampling machinery, cut from the leaf end of every stack: by
/// function name, or by source file for inlined frames, which debug info names
/// without their path (`alloc<System>`).
const MACHINERY: [&str; 6] = ["backtrace::", "hotpath_engine::", "__rust_", "__rg_", "_Unwind_", "std::alloc::"];
const MACHINERY_FILES: [&str; 2] = ["/hotpath-engine", "/backtrace-0."];
/// Library frames the allocating frame is looked for above (by name, or by the
/// source path of the standard library's inlined frames).
const LIBRARY: [&str; 5] = ["alloc::", "core::", "std::", "hashbrown::", "__rust"];
const LIBRARY_FILES: [&str; 2] = ["/rustc/", "/lib/rustlib/src/rust/library/"];
/// Frames shown per stack, from the allocating one outwards.
pub(crate) const SHOWN: usize = 8;

/// Resolved addresses, kept across snapshots (a program has few allocation sites).
#[derive(Default)]
pub(crate) struct Symbols {
    resolved: HashMap<u64, Vec<Frame>>,
    symtab: Option<Symtab>,
}

impl Symbols {
    /// Frames at return address `address`, innermost (inlined) first.
    fn frames(&mut self, address: u64) -> &[Frame] {
        let symtab = self.symtab.get_or_insert_with(Symtab::load);
        self.resolved.entry(address).or_insert_with(|| {
            let mut out = Vec::new();
            // The call instruction is just before the return address.
            let at = address.saturating_sub(1) as usize as *mut std::ffi::c_void;
            backtrace::resolve(at, |symbol| {
                let function = symbol.name().map(|n| format!("{n:#}")).unwrap_or_else(|| format!("{address:#x}"));
                let file = symbol.filename().map(|f| f.display().to_string()).unwrap_or_default();
                out.push(Frame { function, file, line: symbol.lineno().unwrap_or(0) });
            });
            // The outermost frame is the function the address lies in: its symbol's
            // full path where debug info gave only its bare name.
            let full = symtab.name(address.saturating_sub(1));
            match out.last_mut() {
                Some(outer) => {
                    if let Some(full) = full.filter(|f| !outer.function.contains("::") && f.ends_with(&*outer.function))
                    {
                        outer.function = full.to_string();
                    }
                }
                None => out.push(Frame {
                    function: full.map_or_else(|| format!("{address:#x}"), String::from),
                    file: String::new(),
                    line: 0,
                }),
            }
            out
        })
    }

    /// The addresses of `raw` from the first outside the sampling machinery, each
    /// with its frames (innermost inlined first): a profile file's locations.
    pub(crate) fn located(&mut self, raw: &[u64]) -> Vec<(u64, Vec<Frame>)> {
        let mut out: Vec<(u64, Vec<Frame>)> = raw.iter().map(|&a| (a, self.frames(a).to_vec())).collect();
        let start = out.iter().position(|(_, frames)| !frames.iter().all(is_machinery)).unwrap_or(out.len());
        out.drain(..start);
        out
    }

    /// The named stack of raw return addresses (leaf first): the allocating frame
    /// first, then all its callers, and whether any frame of the whole stack starts
    /// with one of `ignore`.
    pub(crate) fn stack(&mut self, raw: &[u64], ignore: &[String]) -> (Vec<Frame>, bool) {
        let mut all: Vec<Frame> = Vec::new();
        for &address in raw {
            all.extend(self.frames(address).iter().cloned());
        }
        // The machinery is the leading run only: a measured future's poll in hotpath's
        // code further out is a caller like any other.
        let start = all.iter().position(|f| !is_machinery(f)).unwrap_or(all.len());
        let user = &all[start..];
        let library = |f: &Frame| {
            // `<u8 as alloc::vec::SpecFromElem>::from_elem` is the library's too.
            let as_trait = f.function.split_once(" as ").map_or("", |(_, t)| t);
            LIBRARY.iter().any(|p| bare(&f.function).starts_with(p) || as_trait.starts_with(p))
                || LIBRARY_FILES.iter().any(|p| f.file.contains(p))
        };
        let site = user.iter().position(|f| !library(f)).unwrap_or(0);
        let ignored = user.iter().any(|f| ignore.iter().any(|p| bare(&f.function).starts_with(p.as_str())));
        (user.iter().skip(site).cloned().collect(), ignored)
    }
}

/// Whether `frame` belongs to the sampling machinery (or is an unnamed address in it).
fn is_machinery(frame: &Frame) -> bool {
    frame.function.starts_with("0x")
        || MACHINERY.iter().any(|p| bare(&frame.function).starts_with(p))
        || MACHINERY_FILES.iter().any(|p| frame.file.contains(p))
}

/// A function name without the `<` of a trait impl's `<Type as Trait>::f`.
fn bare(name: &str) -> &str {
    name.trim_start_matches('<')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[inline(never)]
    fn here() -> u64 {
        let mut ip = 0;
        // SAFETY: as in the sampler; the closure only stores one address.
        unsafe {
            backtrace::trace_unsynchronized(|frame| {
                ip = frame.ip() as u64;
                false
            })
        };
        ip
    }

    fn frame(function: &str, line: u32) -> Frame {
        Frame { function: function.into(), file: "src/main.rs".into(), line }
    }

    #[test]
    fn resolves_files_and_lines() {
        let mut symbols = Symbols::default();
        let frames = symbols.frames(here() + 1).to_vec();
        assert!(frames.iter().any(|f| f.file.ends_with(".rs") && f.line > 0), "{frames:?}");
    }

    #[test]
    fn cuts_the_machinery_and_library_frames_and_matches_the_allow_list() {
        let mut symbols = Symbols::default();
        let names = [
            "backtrace::backtrace::trace_unsynchronized",
            "hotpath_engine::heap::sampler::crossing",
            "__rust_alloc",
            "alloc<std::alloc::System>",
            "exchange_malloc",
            "<alloc::vec::Vec<T> as core::clone::Clone>::clone",
            "<u8 as alloc::vec::spec_from_elem::SpecFromElem>::from_elem",
            "app::cache::fill",
            "hotpath_engine::futures::poll",
            "app::main",
        ];
        for (i, name) in names.iter().enumerate() {
            let mut f = frame(name, i as u32);
            if *name == "alloc<std::alloc::System>" {
                f.file = "/src/hotpath-engine/src/alloc/allocator.rs".into();
            } else if *name == "exchange_malloc" {
                f.file = "/rustc/59807616/library/alloc/src/alloc.rs".into();
            }
            symbols.resolved.insert(i as u64 * 16, vec![f]);
        }
        let raw: Vec<u64> = (0..names.len() as u64).map(|i| i * 16).collect();
        let (frames, ignored) = symbols.stack(&raw, &["lazy_static".into()]);
        assert!(frames.len() <= SHOWN);
        let got: Vec<&str> = frames.iter().map(|f| f.function.as_str()).collect();
        assert_eq!(got, ["app::cache::fill", "hotpath_engine::futures::poll", "app::main"]);
        assert_eq!(frames[0].label(), "app::cache::fill (src/main.rs:7)");
        assert!(!ignored);
        assert!(symbols.stack(&raw, &["app::cache".into()]).1);
        assert!(symbols.stack(&raw, &["alloc::vec::Vec".into()]).1, "a trait impl's frame, by its type");
    }
}
