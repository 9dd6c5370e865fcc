//! SIGINT, SIGTERM and SIGHUP as a request to stop: a long run (solve, tune, play) checks a
//! flag, writes the best it has marked incomplete, and the process then exits 128 + the signal
//! (130 for Ctrl-C, 143 for `kill`/`timeout`, 129 for a closed terminal or SSH connection), so
//! scripts and schedulers can tell a cut run from a finished one. A second signal while the
//! first is being handled ends the process at once with the second one's code.
//!
//! One place for this so every command stops the same way. The handlers are signal-hook's
//! async-signal-safe actions: the flag, the signal's number, and for a second signal `_exit`.

use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
use signal_hook::flag;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

/// The flag the running command polls, and the signal that set it (0: none yet).
static STOP: OnceLock<(Arc<AtomicBool>, Arc<AtomicUsize>)> = OnceLock::new();

/// The signals that stop a run. SIGHUP is among them because a run started in a terminal
/// that closes (an SSH connection dropped) should keep its best line like one stopped by `kill`.
const STOP_SIGNALS: [i32; 3] = [SIGINT, SIGTERM, SIGHUP];

/// Installs the handlers of [`STOP_SIGNALS`] (once; later calls return the same flag) and
/// returns the flag they set.
pub fn stop_on_signal() -> Arc<AtomicBool> {
    let (stop, _) = STOP.get_or_init(|| {
        let stop = Arc::new(AtomicBool::new(false));
        let signal = Arc::new(AtomicUsize::new(0));
        // Set by the signals alone (a command may set `stop` itself, on a write error).
        let signalled = Arc::new(AtomicBool::new(false));
        for sig in STOP_SIGNALS {
            // In this order: a signal that finds one already handled exits at once; the
            // first one says which signal it was and sets the flags.
            let installed = flag::register_conditional_shutdown(sig, 128 + sig, signalled.clone())
                .and_then(|_| flag::register_usize(sig, signal.clone(), sig as usize))
                .and_then(|_| flag::register(sig, signalled.clone()))
                .and_then(|_| flag::register(sig, stop.clone()));
            if let Err(e) = installed {
                // Without handlers the default action still ends the run, only without the
                // best line; say so rather than fail the command.
                eprintln!("beamtris: cannot handle {}: {e}", name(sig));
            }
        }
        (stop, signal)
    });
    stop.clone()
}

/// The signal that stopped the run, if one did: `main` exits with 128 + it.
pub fn interrupted_by() -> Option<i32> {
    let (_, signal) = STOP.get()?;
    match signal.load(Ordering::SeqCst) {
        0 => None,
        sig => Some(sig as i32),
    }
}

/// The signal's name for messages and results files.
pub fn name(sig: i32) -> &'static str {
    match sig {
        SIGINT => "SIGINT",
        SIGTERM => "SIGTERM",
        SIGHUP => "SIGHUP",
        _ => "a signal",
    }
}
