//! One module per subcommand: its clap arguments and the function that runs it. `main.rs`
//! only dispatches here; the game logic stays in the library modules.

pub mod bench;
pub mod features;
pub mod fourwide;
pub mod play;
pub mod report;
pub mod show;
pub mod solve;
pub mod solve_guideline;
pub mod tune;
pub mod verify;

use crate::error::{Error, Result};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// A rayon pool of `threads` workers (default: every core), and the count it got.
pub(crate) fn thread_pool(threads: Option<usize>) -> Result<(usize, rayon::ThreadPool)> {
    let threads = threads
        .unwrap_or_else(|| {
            std::thread::available_parallelism()
                .map(|n| n.get())
                .unwrap_or(1)
        })
        .max(1);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| Error(format!("--threads: {e}")))?;
    Ok((threads, pool))
}

/// A flag that Ctrl-C sets, so a long search can stop and write what it has.
pub(crate) fn stop_on_ctrl_c() -> Arc<AtomicBool> {
    let stop = Arc::new(AtomicBool::new(false));
    let flag = stop.clone();
    // A second handler cannot be installed (tests run commands twice); that is harmless.
    let _ = ctrlc::set_handler(move || flag.store(true, Ordering::SeqCst));
    stop
}
