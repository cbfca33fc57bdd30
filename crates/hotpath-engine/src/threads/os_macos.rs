//! macOS: Mach `task_threads` + `thread_info` per thread, `task_info` for RSS.

use std::io;

use super::{OsSample, OsThread, State};

extern "C" {
    fn mach_port_deallocate(task: libc::mach_port_t, name: libc::mach_port_t) -> libc::kern_return_t;
}

pub(crate) fn sample(main_tid: u64) -> io::Result<OsSample> {
    // SAFETY: standard Mach calls on this task; every out-parameter is a live local,
    // every port and the thread list are released before returning.
    unsafe {
        // libc deprecates this in favour of the mach2 crate, which lacks thread_info;
        // the Mach call itself is stable.
        #[allow(deprecated)]
        let task = libc::mach_task_self();
        let mut list: libc::thread_act_array_t = std::ptr::null_mut();
        let mut count: libc::mach_msg_type_number_t = 0;
        if libc::task_threads(task, &mut list, &mut count) != libc::KERN_SUCCESS {
            return Err(io::Error::other("task_threads failed"));
        }
        let ports = std::slice::from_raw_parts(list, count as usize);
        let threads = ports.iter().filter_map(|&port| thread(port, main_tid)).collect();
        for &port in ports {
            mach_port_deallocate(task, port);
        }
        let bytes = count as usize * std::mem::size_of::<libc::thread_act_t>();
        libc::vm_deallocate(task, list as libc::vm_address_t, bytes as libc::vm_size_t);
        Ok(OsSample::complete(threads, rss(task)))
    }
}

/// # Safety
/// `port` is a thread port of this task, alive for the call.
unsafe fn thread(port: libc::thread_act_t, main_tid: u64) -> Option<OsThread> {
    // SAFETY: plain C data; all zeroes is a valid value.
    let mut basic: libc::thread_basic_info = unsafe { std::mem::zeroed() };
    let mut n = libc::THREAD_BASIC_INFO_COUNT;
    let info = (&mut basic as *mut libc::thread_basic_info).cast();
    // SAFETY: `info` and `n` are live out-parameters sized for this flavor; `port` is valid.
    if unsafe { libc::thread_info(port, libc::THREAD_BASIC_INFO as u32, info, &mut n) } != libc::KERN_SUCCESS {
        return None;
    }
    // SAFETY: plain C data; all zeroes is a valid value.
    let mut ident: libc::thread_identifier_info = unsafe { std::mem::zeroed() };
    let mut n = libc::THREAD_IDENTIFIER_INFO_COUNT;
    let info = (&mut ident as *mut libc::thread_identifier_info).cast();
    // SAFETY: as above, for the identifier flavor.
    if unsafe { libc::thread_info(port, libc::THREAD_IDENTIFIER_INFO as u32, info, &mut n) } != libc::KERN_SUCCESS {
        return None;
    }
    let tid = ident.thread_id;
    // SAFETY: `port` is valid (this function's contract).
    let name = if tid == main_tid { Some("main".to_string()) } else { unsafe { name(port) } };
    let state = match basic.run_state {
        libc::TH_STATE_RUNNING => State::Running,
        libc::TH_STATE_UNINTERRUPTIBLE => State::Blocked,
        _ => State::Sleeping,
    };
    let ns = |t: libc::time_value_t| t.seconds as u64 * 1_000_000_000 + t.microseconds as u64 * 1_000;
    Some(OsThread { tid, name, state, user_ns: ns(basic.user_time), sys_ns: ns(basic.system_time) })
}

/// # Safety
/// `port` is a thread port of this task, alive for the call.
unsafe fn name(port: libc::thread_act_t) -> Option<String> {
    // SAFETY: `port` is valid; the result is null for threads not created by pthreads.
    let pthread = unsafe { libc::pthread_from_mach_thread_np(port) };
    if pthread == 0 {
        return None;
    }
    let mut buf = [0 as libc::c_char; 64];
    // SAFETY: `buf` is writable for its length, which is passed.
    if unsafe { libc::pthread_getname_np(pthread, buf.as_mut_ptr(), buf.len()) } != 0 {
        return None;
    }
    // SAFETY: on success the name in `buf` is NUL-terminated.
    let name = unsafe { std::ffi::CStr::from_ptr(buf.as_ptr()) }.to_string_lossy().into_owned();
    (!name.is_empty()).then_some(name)
}

/// # Safety
/// `task` is this task's port.
unsafe fn rss(task: libc::mach_port_t) -> u64 {
    // SAFETY: plain C data; all zeroes is a valid value.
    let mut info: libc::mach_task_basic_info = unsafe { std::mem::zeroed() };
    let mut n = libc::MACH_TASK_BASIC_INFO_COUNT;
    let out = (&mut info as *mut libc::mach_task_basic_info).cast();
    // SAFETY: `out` and `n` are live out-parameters sized for this flavor.
    if unsafe { libc::task_info(task, libc::MACH_TASK_BASIC_INFO, out, &mut n) } != libc::KERN_SUCCESS {
        return 0;
    }
    info.resident_size
}

/// CPU time of the threads running now (see the Linux version), from one sample.
pub(crate) fn others_at_start(main_tid: u64, with_main: bool) -> std::collections::HashMap<u64, (u64, u64)> {
    sample(main_tid).map(|s| s.cpu_by_thread(main_tid, with_main)).unwrap_or_default()
}

/// The name threads inherit from the process: only Linux threads show it.
pub(crate) fn process_name() -> Option<&'static str> {
    None
}
