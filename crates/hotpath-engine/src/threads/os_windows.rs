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
        Ok(OsSample { threads, rss_bytes: rss })
    }
}

unsafe fn thread(tid: u64, main_tid: u64) -> Option<OsThread> {
    let handle = unsafe { OpenThread(THREAD_QUERY_LIMITED_INFORMATION, 0, tid as u32) };
    if handle.is_null() {
        return None;
    }
    let zero = FILETIME { dwLowDateTime: 0, dwHighDateTime: 0 };
    let (mut created, mut exited, mut kernel, mut user) = (zero, zero, zero, zero);
    let ok = unsafe { GetThreadTimes(handle, &mut created, &mut exited, &mut kernel, &mut user) } != 0;
    let name = if tid == main_tid { Some("main".to_string()) } else { unsafe { description(handle) } };
    unsafe { CloseHandle(handle) };
    // FILETIME counts 100 ns intervals.
    let ns = |t: FILETIME| ((u64::from(t.dwHighDateTime) << 32) | u64::from(t.dwLowDateTime)) * 100;
    ok.then(|| OsThread { tid, name, state: State::Sleeping, user_ns: ns(user), sys_ns: ns(kernel) })
}

unsafe fn description(handle: windows_sys::Win32::Foundation::HANDLE) -> Option<String> {
    let mut text: windows_sys::core::PWSTR = std::ptr::null_mut();
    if unsafe { GetThreadDescription(handle, &mut text) } < 0 || text.is_null() {
        return None;
    }
    let len = (0..).take_while(|&i| unsafe { *text.add(i) } != 0).count();
    let name = String::from_utf16_lossy(unsafe { std::slice::from_raw_parts(text, len) });
    unsafe { windows_sys::Win32::Foundation::LocalFree(text.cast()) };
    (!name.is_empty()).then_some(name)
}
