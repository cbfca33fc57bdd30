//! Turns raw samples into call stacks: DWARF CFI unwinding of the copied stack with
//! `framehop`, over the modules (`dl_iterate_phdr`) of this process, and symbol
//! names from each module's symbol tables (`object`, `rustc-demangle`); for a stripped
//! library, also from its separate debug file when one is installed (found by build id
//! under /usr/lib/debug, as Debian's `libc6-dbg` installs them).
//!
//! Runs on the `hp-cpu` thread, never in a signal handler, so it may allocate.

use std::collections::HashMap;
use std::ffi::CStr;
use std::ops::Range;

use framehop::x86_64::{CacheX86_64, UnwindRegsX86_64, UnwinderX86_64};
use framehop::{ExplicitModuleSectionInfo, Module, Unwinder};
use object::{Object, ObjectSection, ObjectSymbol, SymbolKind};

use super::sample::RawSample;

/// Frames kept per sample (leaf first).
pub(crate) const MAX_FRAMES: usize = 128;

/// A loaded module: where it is mapped and its function symbols.
struct Symbols {
    avma: Range<u64>,
    bias: u64,
    /// File name, for addresses no symbol covers.
    module: String,
    /// `(start svma, size, name)`, sorted by address; size 0 when unknown.
    functions: Vec<(u64, u64, String)>,
}

/// The unwinder and symbol tables of every module loaded at start-up.
pub(crate) struct Modules {
    unwinder: UnwinderX86_64<Vec<u8>>,
    cache: CacheX86_64,
    symbols: Vec<Symbols>,
    names: HashMap<u64, String>,
}

struct Loaded {
    path: String,
    bias: u64,
    avma: Range<u64>,
}

impl Modules {
    /// Reads every loaded module's unwind sections and symbols from its file.
    pub(crate) fn load() -> Self {
        let mut modules = Self {
            unwinder: UnwinderX86_64::new(),
            cache: CacheX86_64::new(),
            symbols: Vec::new(),
            names: HashMap::new(),
        };
        for loaded in loaded_modules() {
            let Some(bytes) = read_sparse(&loaded.path) else { continue };
            let Ok(file) = object::File::parse(&*bytes) else { continue };
            let section = |name: &str| {
                file.section_by_name(name).and_then(|s| {
                    let data = s.data().ok()?.to_vec();
                    Some((s.address()..s.address() + s.size(), data))
                })
            };
            let text = section(".text");
            let eh_frame = section(".eh_frame");
            let eh_frame_hdr = section(".eh_frame_hdr");
            let info = ExplicitModuleSectionInfo {
                base_svma: 0,
                text_svma: text.as_ref().map(|t| t.0.clone()),
                text: text.map(|t| t.1),
                got_svma: section(".got").map(|g| g.0),
                eh_frame_svma: eh_frame.as_ref().map(|e| e.0.clone()),
                eh_frame: eh_frame.map(|e| e.1),
                eh_frame_hdr_svma: eh_frame_hdr.as_ref().map(|e| e.0.clone()),
                eh_frame_hdr: eh_frame_hdr.map(|e| e.1),
                ..Default::default()
            };
            let name = loaded.path.rsplit('/').next().unwrap_or(&loaded.path).to_string();
            modules.unwinder.add_module(Module::new(name, loaded.avma.clone(), loaded.bias, info));
            let mut functions = text_symbols(file.symbols());
            if functions.is_empty() {
                functions = debug_file_symbols(&file).unwrap_or_default();
            }
            functions.extend(text_symbols(file.dynamic_symbols()));
            functions.sort_unstable_by_key(|f| f.0);
            functions.dedup_by_key(|f| f.0);
            let module = loaded.path.rsplit('/').next().unwrap_or(&loaded.path).to_string();
            modules.symbols.push(Symbols { avma: loaded.avma, bias: loaded.bias, module, functions });
        }
        modules
    }

    /// Unwinds a raw sample into return addresses, leaf first (lookup addresses:
    /// return addresses already moved back into the calling instruction).
    pub(crate) fn unwind(&mut self, raw: &RawSample, out: &mut Vec<u64>) {
        out.clear();
        if raw.ip == 0 {
            return;
        }
        let (sp, len) = (raw.sp, raw.stack_len as u64);
        let stack = &raw.stack[..raw.stack_len];
        let mut read = |addr: u64| {
            let offset = addr.checked_sub(sp).filter(|o| o + 8 <= len).ok_or(())? as usize;
            Ok(u64::from_le_bytes(stack[offset..offset + 8].try_into().map_err(|_| ())?))
        };
        let regs = UnwindRegsX86_64::new(raw.ip, raw.sp, raw.bp);
        let mut frames = self.unwinder.iter_frames(raw.ip, regs, &mut self.cache, &mut read);
        while let Ok(Some(frame)) = frames.next() {
            out.push(frame.address_for_lookup());
            if out.len() == MAX_FRAMES {
                break;
            }
        }
    }

    /// The demangled function name at `address`; `module+0xoffset` inside a module
    /// without a covering symbol (e.g. a stripped library's internal function); the
    /// address in hex elsewhere (e.g. the vDSO).
    pub(crate) fn name(&mut self, address: u64) -> &str {
        let symbols = &self.symbols;
        self.names.entry(address).or_insert_with(|| {
            let Some(m) = symbols.iter().find(|m| m.avma.contains(&address)) else {
                return format!("{address:#x}");
            };
            let svma = address - m.bias;
            let covering = m.functions.partition_point(|f| f.0 <= svma).checked_sub(1).map(|i| &m.functions[i]);
            match covering {
                Some((start, size, name)) if *size == 0 || svma < start + size => {
                    format!("{:#}", rustc_demangle::demangle(name))
                }
                _ => format!("{}+{:#x}", m.module, svma),
            }
        })
    }
}

/// `(start svma, size, name)` of the function symbols among `symbols`.
fn text_symbols<'d, S: ObjectSymbol<'d>>(symbols: impl Iterator<Item = S>) -> Vec<(u64, u64, String)> {
    symbols
        .filter(|s| s.kind() == SymbolKind::Text && s.address() != 0)
        .filter_map(|s| Some((s.address(), s.size(), s.name().ok()?.to_string())))
        .collect()
}

/// The function symbols of a stripped module's separate debug file, found by its build
/// id (GDB's and perf's convention: `/usr/lib/debug/.build-id/ab/cdef….debug`).
fn debug_file_symbols(file: &object::File<'_>) -> Option<Vec<(u64, u64, String)>> {
    let id = file.build_id().ok()??;
    let hex: String = id.iter().map(|b| format!("{b:02x}")).collect();
    let path = format!("/usr/lib/debug/.build-id/{}/{}.debug", hex.get(..2)?, hex.get(2..)?);
    let bytes = read_sparse(&path)?;
    let debug = object::File::parse(&*bytes).ok()?;
    Some(text_symbols(debug.symbols()))
}

/// The sections read from a module's file: unwind information, code (the unwinder
/// looks at prologues), the GOT and symbol tables; and every `.note*` (the build id).
const NEEDED: [&str; 9] =
    [".text", ".eh_frame", ".eh_frame_hdr", ".got", ".symtab", ".strtab", ".dynsym", ".dynstr", ".shstrtab"];

/// A module's file as bytes at their offsets, with only its ELF headers and the
/// [`NEEDED`] sections read; the rest (debug info, data: most of a binary built with
/// debug info, tens of megabytes) stays zeros that the kernel maps lazily, costing no
/// reading and little memory. `None` when it cannot be read or is not a 64-bit ELF.
fn read_sparse(path: &str) -> Option<Vec<u8>> {
    use std::os::unix::fs::FileExt;
    let handle = std::fs::File::open(path).ok()?;
    let len = handle.metadata().ok()?.len();
    let mut header = [0u8; 64];
    handle.read_exact_at(&mut header, 0).ok()?;
    // ELF64, little-endian (the targets CPU sampling supports): e_phoff at 0x20, e_shoff
    // at 0x28, e_phnum at 0x38, e_shentsize at 0x3A, e_shnum at 0x3C. A file's own numbers
    // may be anything: ranges saturate, and are clipped to the file below.
    if header[..4] != *b"\x7fELF" || header[4] != 2 || header[5] != 1 {
        return None;
    }
    let (u64_at, u16_at) = (
        |at: usize| u64::from_le_bytes(header[at..at + 8].try_into().unwrap_or_default()),
        |at: usize| u64::from(u16::from_le_bytes([header[at], header[at + 1]])),
    );
    let table = |offset: u64, count: u64, size: u64| offset..offset.saturating_add(count * size);
    let program_headers = table(u64_at(0x20), u16_at(0x38), 56);
    let section_headers = table(u64_at(0x28), u16_at(0x3C), u16_at(0x3A));
    let mut wanted = vec![0..64, program_headers, section_headers];
    {
        let cache = object::ReadCache::new(&handle);
        let file = object::File::parse(&cache).ok()?;
        let needed = file.sections().filter(|s| s.name().is_ok_and(|n| NEEDED.contains(&n) || n.starts_with(".note")));
        wanted.extend(needed.filter_map(|s| s.file_range()).map(|(at, size)| at..at.saturating_add(size)));
    }
    let mut image = vec![0u8; usize::try_from(len).ok()?];
    for range in wanted {
        let range = range.start.min(len) as usize..range.end.min(len) as usize;
        handle.read_exact_at(&mut image[range.clone()], range.start as u64).ok()?;
    }
    Some(image)
}

/// Path, load bias and mapped range of each module, from `dl_iterate_phdr`.
fn loaded_modules() -> Vec<Loaded> {
    unsafe extern "C" fn visit(info: *mut libc::dl_phdr_info, _size: usize, data: *mut libc::c_void) -> libc::c_int {
        // SAFETY: called by dl_iterate_phdr with a valid info and our Vec as data.
        let (info, out) = unsafe { (&*info, &mut *(data as *mut Vec<Loaded>)) };
        let name = if info.dlpi_name.is_null() {
            String::new()
        } else {
            // SAFETY: a non-null dlpi_name is a NUL-terminated string owned by the loader,
            // valid during the callback.
            unsafe { CStr::from_ptr(info.dlpi_name) }.to_string_lossy().into_owned()
        };
        let path = if name.is_empty() { "/proc/self/exe".to_string() } else { name };
        // SAFETY: dlpi_phdr points to dlpi_phnum program headers, valid during the callback.
        let headers = unsafe { std::slice::from_raw_parts(info.dlpi_phdr, info.dlpi_phnum as usize) };
        let bias = info.dlpi_addr;
        let mut avma: Option<Range<u64>> = None;
        for h in headers.iter().filter(|h| h.p_type == libc::PT_LOAD) {
            let (start, end) = (bias + h.p_vaddr, bias + h.p_vaddr + h.p_memsz);
            avma = Some(avma.map_or(start..end, |r| r.start.min(start)..r.end.max(end)));
        }
        if let Some(avma) = avma {
            out.push(Loaded { path, bias, avma });
        }
        0
    }
    let mut out: Vec<Loaded> = Vec::new();
    // SAFETY: `visit` only reads the info it is given and pushes into `out`.
    unsafe { libc::dl_iterate_phdr(Some(visit), (&mut out as *mut Vec<Loaded>).cast()) };
    out.retain(|m| std::path::Path::new(&m.path).exists());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What loading reads of a module (symbols, unwind sections, code, build id) is the
    /// same in the sparse image as in the whole file, for this test binary (which has
    /// debug line tables, left out of the image).
    #[test]
    fn the_sparse_image_holds_what_loading_reads() {
        let whole = std::fs::read("/proc/self/exe").unwrap();
        let sparse = read_sparse("/proc/self/exe").unwrap();
        let (whole, sparse) = (object::File::parse(&*whole).unwrap(), object::File::parse(&*sparse).unwrap());
        assert!(whole.section_by_name(".debug_line").is_some(), "the test binary has debug info");
        assert_eq!(text_symbols(whole.symbols()), text_symbols(sparse.symbols()));
        assert_eq!(text_symbols(whole.dynamic_symbols()), text_symbols(sparse.dynamic_symbols()));
        for name in [".text", ".eh_frame", ".eh_frame_hdr", ".got"] {
            let data = |f: &object::File<'_>| f.section_by_name(name).map(|s| s.data().unwrap().to_vec());
            assert_eq!(data(&whole), data(&sparse), "{name}");
        }
        assert_eq!(whole.build_id().unwrap(), sparse.build_id().unwrap());
        assert!(read_sparse("/proc/self/status").is_none(), "not an ELF file");
        // A header whose tables lie past the end of the file (offsets near u64::MAX) is
        // clipped to the file, never read out of bounds or overflowed.
        let dir = std::env::temp_dir().join(format!("hotpath-sparse-{}", std::process::id()));
        let mut bogus = std::fs::read("/proc/self/exe").unwrap()[..4096].to_vec();
        bogus[0x20..0x28].copy_from_slice(&(u64::MAX - 8).to_le_bytes());
        bogus[0x28..0x30].copy_from_slice(&(u64::MAX - 8).to_le_bytes());
        std::fs::write(&dir, &bogus).unwrap();
        let parsed = read_sparse(dir.to_str().unwrap());
        std::fs::remove_file(&dir).unwrap();
        assert!(parsed.is_none_or(|image| image.len() == bogus.len()));
    }

    /// A libc function that is not exported (only in libc's debug file) is named, not
    /// shown as `libc.so.6+0x…`. Needs the debug file (Debian's libc6-dbg, which
    /// scripts/test installs); skipped without it outside the suite.
    #[test]
    fn stripped_library_functions_are_named_from_their_debug_file() {
        let libc = loaded_modules().into_iter().find(|m| m.path.contains("libc.so")).expect("libc is loaded");
        let bytes = read_sparse(&libc.path).unwrap();
        let file = object::File::parse(&*bytes).unwrap();
        let Some(debug) = debug_file_symbols(&file) else {
            assert!(
                std::env::var_os("HOTPATH_TEST_SUITE").is_none(),
                "no debug file for {}: install libc6-dbg",
                libc.path
            );
            return eprintln!("skipped: no debug file for {}", libc.path);
        };
        let exported: std::collections::HashSet<u64> =
            text_symbols(file.dynamic_symbols()).into_iter().map(|f| f.0).collect();
        let (start, _, name) = debug
            .iter()
            .find(|(start, size, name)| *size > 8 && !exported.contains(start) && !name.contains('.'))
            .expect("libc has internal functions")
            .clone();
        let mut modules = Modules::load();
        assert_eq!(modules.name(libc.bias + start + 4), name);
    }
}
