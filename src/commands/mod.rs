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
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// A rayon pool of `threads` workers (default: every core), and the count it got. Zero and
/// counts far past the machine's cores are refused: rayon would spin up every one of them.
pub(crate) fn thread_pool(threads: Option<usize>) -> Result<(usize, rayon::ThreadPool)> {
    let threads = match threads {
        Some(n) => crate::limits::check_threads(n)?,
        None => crate::limits::cores(),
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| Error(format!("--threads {threads}: {e}")))?;
    Ok((threads, pool))
}

pub use crate::signal::{interrupted_by, stop_on_signal};

/// The flag [`stop_on_signal`] returns (the name the commands have used since Ctrl-C was the
/// only signal handled).
pub(crate) fn stop_on_ctrl_c() -> Arc<AtomicBool> {
    stop_on_signal()
}
