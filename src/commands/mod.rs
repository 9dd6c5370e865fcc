//! One module per subcommand: its clap arguments and the function that runs it. `main.rs`
//! only dispatches here; the game logic stays in the library modules.

pub mod bench;
pub mod export;
pub mod families;
pub mod features;
pub mod fourwide;
pub mod game;
pub mod import;
mod import_files;
mod import_nes;
pub mod learn;
mod nes_args;
pub mod play;
pub mod polish;
pub mod report;
pub mod show;
pub mod solve;
pub mod tbp;
pub mod tune;
pub mod verify;
pub mod versus;

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

pub(crate) use crate::limits::thread_pool;

pub use crate::signal::{interrupted_by, stop_on_signal};

/// The first flag of `flags` that was given (`(given, name)` pairs): for a command that
/// refuses flags that do not apply to the game at hand, naming the one to take out.
pub(crate) fn first_given<'a>(flags: &[(bool, &'a str)]) -> Option<&'a str> {
    flags
        .iter()
        .find_map(|&(given, flag)| given.then_some(flag))
}

/// The flag [`stop_on_signal`] returns (the name the commands have used since Ctrl-C was the
/// only signal handled). A long command calls it before its output check: that check probes
/// the output folder with a temporary file, and a signal arriving while the default action
/// still applies would kill the process between the probe's write and its removal. With the
/// handlers in place the signal instead stops the run at its first step.
pub(crate) fn stop_on_ctrl_c() -> Arc<AtomicBool> {
    stop_on_signal()
}

pub(crate) use crate::search::progress::SearchProgress;
