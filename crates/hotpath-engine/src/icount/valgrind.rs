//! Valgrind client requests, written from Valgrind's documented protocol (valgrind.h,
//! callgrind.h) instead of a binding crate, so that building a program needs no
//! Valgrind headers. On x86_64 the request is a special instruction sequence: four
//! rotations of `rdi` that add up to 128 bits (a no-op) and `xchg rbx, rbx` (a no-op).
//! Natively it does nothing and `rdx` keeps the default answer; Valgrind recognises
//! the sequence, reads six words at `rax` (request code, five arguments) and writes
//! its answer to `rdx`.

/// `VG_USERREQ__RUNNING_ON_VALGRIND`: answers how many Valgrinds run the program.
#[cfg(all(target_arch = "x86_64", target_os = "linux"))]
const RUNNING_ON_VALGRIND: usize = 0x1001;
/// Callgrind's requests start at `VG_USERREQ_TOOL_BASE('C', 'T')`.
#[cfg(all(target_arch = "x86_64", target_os = "linux"))]
const CALLGRIND_BASE: usize = (b'C' as usize) << 24 | (b'T' as usize) << 16;
/// `CALLGRIND_ZERO_STATS`: resets every counter.
#[cfg(all(target_arch = "x86_64", target_os = "linux"))]
const ZERO_STATS: usize = CALLGRIND_BASE + 1;
/// `CALLGRIND_DUMP_STATS_AT(reason)`: writes a dump whose trigger line names `reason`.
#[cfg(all(target_arch = "x86_64", target_os = "linux"))]
const DUMP_STATS_AT: usize = CALLGRIND_BASE + 3;
/// A default answer no tool gives to Callgrind's requests: Callgrind answers 0 to
/// them, other tools leave the default.
#[cfg(all(target_arch = "x86_64", target_os = "linux"))]
const UNANSWERED: usize = 0x6870_6370; // "hpcp"

/// What runs the program. Only x86_64 Linux detects the first three, and only the
/// other platforms answer the last: the unused ones are expected there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(dead_code)]
pub(crate) enum Host {
    /// No Valgrind.
    Native,
    /// Valgrind with a tool other than Callgrind (memcheck, cachegrind, ...).
    OtherTool,
    /// `valgrind --tool=callgrind`.
    Callgrind,
    /// A platform where instructions are not counted (only x86_64 Linux is).
    Unsupported,
}

/// Sends one request; returns Valgrind's answer, or `default` when not under Valgrind.
#[cfg(all(target_arch = "x86_64", target_os = "linux"))]
#[inline(never)]
fn request(default: usize, args: [usize; 6]) -> usize {
    let mut answer = default;
    // SAFETY: natively the sequence changes nothing but the flags (declared clobbered by
    // omitting `preserves_flags`): `rdi` is rotated by 128 bits in total and `xchg rbx,
    // rbx` exchanges a register with itself. Under Valgrind it is the documented client
    // request: Valgrind reads the six words `args` points to (alive for the whole block,
    // memory access allowed by the absence of `nomem`/`readonly`) and writes `rdx`, which
    // is declared as an in-out operand. No stack is used.
    unsafe {
        core::arch::asm!(
            "rol rdi, 3",
            "rol rdi, 13",
            "rol rdi, 61",
            "rol rdi, 51",
            "xchg rbx, rbx",
            inout("rdx") answer,
            in("rax") args.as_ptr(),
            options(nostack),
        );
    }
    answer
}

/// Finds out what runs the program; under Callgrind, also resets its counters so that
/// what it counts from here on is this session.
#[cfg(all(target_arch = "x86_64", target_os = "linux"))]
pub(crate) fn detect_and_zero() -> Host {
    if request(0, [RUNNING_ON_VALGRIND, 0, 0, 0, 0, 0]) == 0 {
        return Host::Native;
    }
    match request(UNANSWERED, [ZERO_STATS, 0, 0, 0, 0, 0]) {
        UNANSWERED => Host::OtherTool,
        _ => Host::Callgrind,
    }
}

#[cfg(not(all(target_arch = "x86_64", target_os = "linux")))]
pub(crate) fn detect_and_zero() -> Host {
    Host::Unsupported
}

/// Asks Callgrind to write a dump now, its trigger line naming `reason`.
#[cfg(all(target_arch = "x86_64", target_os = "linux"))]
pub(crate) fn dump_stats_at(reason: &std::ffi::CStr) {
    request(0, [DUMP_STATS_AT, reason.as_ptr() as usize, 0, 0, 0, 0]);
}

#[cfg(not(all(target_arch = "x86_64", target_os = "linux")))]
pub(crate) fn dump_stats_at(_reason: &std::ffi::CStr) {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn natively_nothing_answers() {
        // The test binary runs natively: the requests are no-ops and keep the default.
        #[cfg(all(target_arch = "x86_64", target_os = "linux"))]
        assert_eq!(request(77, [RUNNING_ON_VALGRIND, 0, 0, 0, 0, 0]), 77);
        let host = detect_and_zero();
        assert!(matches!(host, Host::Native | Host::Unsupported), "{host:?}");
    }
}
