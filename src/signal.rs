//! SIGINT and SIGTERM as a request to stop: a long run (solve, tune, play) checks a flag,
//! writes the best it has marked incomplete, and the process then exits 128 + the signal
//! (130 for Ctrl-C, 143 for `kill`/`timeout`), so scripts and schedulers can tell a cut run
//! from a finished one. A second signal while the first is being handled ends the process at
//! once with the same code.
//!
//! One place for this so every command stops the same way; the handler only touches atomics
//! and `_exit`, which are safe in a signal handler.

use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::sync::{Arc, OnceLock};

/// The signal that asked us to stop (0: none yet).
static SIGNAL: AtomicI32 = AtomicI32::new(0);
/// The flag the running command polls.
static FLAG: OnceLock<Arc<AtomicBool>> = OnceLock::new();

extern "C" fn on_signal(sig: libc::c_int) {
    if SIGNAL.swap(sig, Ordering::SeqCst) != 0 {
        // Asked twice: the user does not want to wait for the write.
        unsafe { libc::_exit(128 + sig) };
    }
    if let Some(flag) = FLAG.get() {
        flag.store(true, Ordering::SeqCst);
    }
}

/// Installs the SIGINT and SIGTERM handlers (once; later calls return the same flag) and
/// returns the flag they set.
pub fn stop_on_signal() -> Arc<AtomicBool> {
    let flag = FLAG.get_or_init(|| {
        let flag = Arc::new(AtomicBool::new(false));
        for sig in [libc::SIGINT, libc::SIGTERM] {
            // SAFETY: a zeroed sigaction with a plain handler and an empty mask is valid; the
            // handler is async-signal-safe (atomics and _exit only).
            unsafe {
                let mut action: libc::sigaction = std::mem::zeroed();
                action.sa_sigaction = on_signal as extern "C" fn(libc::c_int) as usize;
                action.sa_flags = libc::SA_RESTART;
                libc::sigemptyset(&mut action.sa_mask);
                libc::sigaction(sig, &action, std::ptr::null_mut());
            }
        }
        flag
    });
    flag.clone()
}

/// The signal that stopped the run, if one did: `main` exits with 128 + it.
pub fn interrupted_by() -> Option<i32> {
    match SIGNAL.load(Ordering::SeqCst) {
        0 => None,
        sig => Some(sig),
    }
}

/// The signal's name for messages and results files.
pub fn name(sig: i32) -> &'static str {
    match sig {
        libc::SIGINT => "SIGINT",
        libc::SIGTERM => "SIGTERM",
        _ => "a signal",
    }
}
