//! Windows: a Toolhelp snapshot of this process's threads, `GetThreadTimes` and
//! `GetThreadDescription` per thread, `GetProcessMemoryInfo` for the working set.
//!
//! Windows does not expose a thread's scheduler state cheaply, so the state is
//! derived from the sampler's CPU delta instead (see `sampler`): `Running` when the
//! thread used CPU since the last sample, `Sleeping` otherwise; never `Blocked`.

use std::io;

use windows_sys::Win32::Foundation::{CloseHandle, FILETIME, INVALID_HANDLE_VALUE};
use windows_sys::Win32::System::Diagnostics::ToolHelp::{
    CreateToolhelp32Snapshot, Thread32First, Thread32Next, TH32CS_SNAPTHREAD, THREADENTRY32,
};
use windows_sys::Win32::System::ProcessStatus::{GetProcessMemoryInfo, PROCESS_MEMORY_COUNTERS};
use windows_sys::Win32::System::Threading::{
    GetCurrentProcess, GetCurrentProcessId, GetThreadDescription, GetThreadTimes, OpenThread,
    THREAD_QUERY_LIMITED_INFORMATION,
};

use super::{OsSample, OsThread, State};

pub(crate) fn sample(main_tid: u64) -> io::Result<OsSample> {
    // SAFETY: Toolhelp and thread APIs on our own process; handles are closed below,
    // strings from GetThreadDescription are freed with LocalFree.
    unsafe {
        let snapshot = CreateToolhelp32Snapshot(TH32CS_SNAPTHREAD, 0);
        if snapshot == INVALID_HANDLE_VALUE {
            return Err(io::Error::last_os_error());
        }
        let pid = GetCurrentProcessId();
        let mut entry: THREADENTRY32 = std::mem::zeroed();
        entry.dwSize = std::mem::size_of::<THREADENTRY32>() as u32;
        let mut threads = Vec::new();
        let mut more = Thread32First(snapshot, &mut entry) != 0;
        while more {
            if entry.th32OwnerProcessID == pid {
                if let Some(t) = thread(u64::from(entry.th32ThreadID), main_tid) {
                    threads.push(t);
                }
            }
            more = Thread32Next(snapshot, &mut entry) != 0;
        }
        CloseHandle(snapshot);
        let mut counters: PROCESS_MEMORY_COUNTERS = std::mem::zeroed();
        counters.cb = std::mem::size_of::<PROCESS_MEMORY_COUNTERS>() as u32;
        let rss = if GetProcessMemoryInfo(GetCurrentProcess(), &mut counters, counters.cb) != 0 {
            counters.WorkingSetSize as u64
        } else {
            0
        };
        Ok(OsSample::complete(threads, rss))
    }
}

/// # Safety
/// None beyond the Win32 calls' own: `tid` may name any thread (or none).
unsafe fn thread(tid: u64, main_tid: u64) -> Option<OsThread> {
    // SAFETY: no preconditions; a null handle is handled.
    let handle = unsafe { OpenThread(THREAD_QUERY_LIMITED_INFORMATION, 0, tid as u32) };
    if handle.is_null() {
        return None;
    }
    let zero = FILETIME { dwLowDateTime: 0, dwHighDateTime: 0 };
    let (mut created, mut exited, mut kernel, mut user) = (zero, zero, zero, zero);
    // SAFETY: `handle` is open; the four FILETIMEs are live out-parameters.
    let ok = unsafe { GetThreadTimes(handle, &mut created, &mut exited, &mut kernel, &mut user) } != 0;
    // SAFETY: `handle` is open until the CloseHandle below.
    let name = if tid == main_tid { Some("main".to_string()) } else { unsafe { description(handle) } };
    // SAFETY: opened above, closed once.
    unsafe { CloseHandle(handle) };
    // FILETIME counts 100 ns intervals.
    let ns = |t: FILETIME| ((u64::from(t.dwHighDateTime) << 32) | u64::from(t.dwLowDateTime)) * 100;
    ok.then(|| OsThread { tid, name, state: State::Sleeping, user_ns: ns(user), sys_ns: ns(kernel) })
}

/// # Safety
/// `handle` is an open thread handle with query access.
unsafe fn description(handle: windows_sys::Win32::Foundation::HANDLE) -> Option<String> {
    let mut text: windows_sys::core::PWSTR = std::ptr::null_mut();
    // SAFETY: `handle` is open; `text` is a live out-parameter.
    if unsafe { GetThreadDescription(handle, &mut text) } < 0 || text.is_null() {
        return None;
    }
    // SAFETY: on success `text` is a NUL-terminated UTF-16 string: reading up to the NUL
    // stays inside it.
    let len = (0..).take_while(|&i| unsafe { *text.add(i) } != 0).count();
    // SAFETY: the `len` units before the NUL, counted above.
    let name = String::from_utf16_lossy(unsafe { std::slice::from_raw_parts(text, len) });
    // SAFETY: GetThreadDescription's string is freed with LocalFree, once.
    unsafe { windows_sys::Win32::Foundation::LocalFree(text.cast()) };
    (!name.is_empty()).then_some(name)
}

/// CPU time of the threads running now (see the Linux version), from one sample.
pub(crate) fn others_at_start(main_tid: u64, with_main: bool) -> std::collections::HashMap<u64, (u64, u64)> {
    sample(main_tid).map(|s| s.cpu_by_thread(main_tid, with_main)).unwrap_or_default()
}

/// The name threads inherit from the process: only Linux threads show it.
pub(crate) fn process_name() -> Option<&'static str> {
    None
}
