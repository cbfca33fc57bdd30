//! Full names of functions from the symbol tables of the loaded modules. Debug info
//! names a function that has no linkage name by its bare name (`leak_site`); the
//! symbol table has the path (`case_heap_leak::leak_site`), which the allow-list
//! and readers need. Loaded once, on the collector's side.

use object::{Object, ObjectSymbol, SymbolKind};

struct Module {
    bias: u64,
    range: std::ops::Range<u64>,
    /// `(start, size, demangled name)`, sorted by start.
    functions: Vec<(u64, u64, String)>,
}

/// The modules' function symbols.
#[derive(Default)]
pub(crate) struct Symtab {
    modules: Vec<Module>,
}

impl Symtab {
    /// Reads the symbol tables of every module loaded now.
    pub(crate) fn load() -> Self {
        let mut modules = Vec::new();
        for (path, bias, range) in loaded() {
            let Ok(bytes) = std::fs::read(&path) else { continue };
            let Ok(file) = object::File::parse(&*bytes) else { continue };
            let mut functions: Vec<(u64, u64, String)> = file
                .symbols()
                .chain(file.dynamic_symbols())
                .filter(|s| s.kind() == SymbolKind::Text && s.address() != 0)
                .filter_map(|s| {
                    Some((s.address(), s.size(), format!("{:#}", rustc_demangle::demangle(s.name().ok()?))))
                })
                .collect();
            functions.sort_unstable_by_key(|f| f.0);
            functions.dedup_by_key(|f| f.0);
            modules.push(Module { bias, range, functions });
        }
        Self { modules }
    }

    /// The function whose symbol covers `address`.
    pub(crate) fn name(&self, address: u64) -> Option<&str> {
        let m = self.modules.iter().find(|m| m.range.contains(&address))?;
        let svma = address - m.bias;
        let i = m.functions.partition_point(|f| f.0 <= svma).checked_sub(1)?;
        let (start, size, name) = &m.functions[i];
        (*size == 0 || svma < start + size).then_some(name.as_str())
    }
}

/// Path, load bias and mapped range of each module, from `dl_iterate_phdr`.
fn loaded() -> Vec<(String, u64, std::ops::Range<u64>)> {
    type Out = Vec<(String, u64, std::ops::Range<u64>)>;
    unsafe extern "C" fn visit(info: *mut libc::dl_phdr_info, _size: usize, data: *mut libc::c_void) -> libc::c_int {
        // SAFETY: called by dl_iterate_phdr with a valid info and our Vec as data.
        let (info, out) = unsafe { (&*info, &mut *(data as *mut Out)) };
        let name = if info.dlpi_name.is_null() {
            String::new()
        } else {
            // SAFETY: a non-null dlpi_name is a NUL-terminated string valid during the callback.
            unsafe { std::ffi::CStr::from_ptr(info.dlpi_name) }.to_string_lossy().into_owned()
        };
        let path = if name.is_empty() { "/proc/self/exe".to_string() } else { name };
        // SAFETY: dlpi_phdr points to dlpi_phnum program headers, valid during the callback.
        let headers = unsafe { std::slice::from_raw_parts(info.dlpi_phdr, info.dlpi_phnum as usize) };
        let bias = info.dlpi_addr;
        let mut range: Option<std::ops::Range<u64>> = None;
        for h in headers.iter().filter(|h| h.p_type == libc::PT_LOAD) {
            let (start, end) = (bias + h.p_vaddr, bias + h.p_vaddr + h.p_memsz);
            range = Some(range.map_or(start..end, |r| r.start.min(start)..r.end.max(end)));
        }
        if let Some(range) = range {
            out.push((path, bias, range));
        }
        0
    }
    let mut out: Out = Vec::new();
    // SAFETY: `visit` only reads the info it is given and pushes into `out`.
    unsafe { libc::dl_iterate_phdr(Some(visit), (&mut out as *mut Out).cast()) };
    out.retain(|m| std::path::Path::new(&m.0).exists());
    out
}
