//! One module per subcommand: its clap arguments and the function that runs it. `main.rs`
//! only dispatches here; the game logic stays in the library modules.

pub mod bench;
pub mod features;
pub mod fourwide;
pub mod game;
pub mod import;
mod import_files;
pub mod learn;
pub mod play;
pub mod polish;
pub mod report;
pub mod show;
pub mod solve;
pub mod tbp;
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

/// Progress of a beam search on stderr: a bar on a terminal; otherwise (a run logged to a
/// file) a line every half minute stands in for it. Both `solve` paths report through it.
/// Under a deadline (`solve --time`) it shows the beam's width and the time left instead of
/// an estimate from the pieces' pace, which a beam that widens as it goes would get wrong.
pub(crate) struct SearchProgress {
    bar: indicatif::ProgressBar,
    start: std::time::Instant,
    last_line: std::time::Instant,
    deadline: Option<std::time::Instant>,
}

impl SearchProgress {
    /// Progress over `total` pieces, timed from `start`.
    pub(crate) fn new(total: usize, start: std::time::Instant) -> SearchProgress {
        SearchProgress::with_deadline(total, start, None)
    }

    /// Progress over `total` pieces, timed from `start`, of a search that ends by `deadline`
    /// when there is one.
    pub(crate) fn with_deadline(
        total: usize,
        start: std::time::Instant,
        deadline: Option<std::time::Instant>,
    ) -> SearchProgress {
        let template = if deadline.is_some() {
            "{pos}/{len} pieces  {per_sec}  {msg}"
        } else {
            "{pos}/{len} pieces  {per_sec}  eta {eta}  best {msg}"
        };
        SearchProgress {
            bar: crate::progress::bar(total as u64, template),
            start,
            last_line: std::time::Instant::now(),
            deadline,
        }
    }

    /// Reports one finished step.
    pub(crate) fn step(&mut self, r: &crate::search::beam::StepReport) {
        self.bar.set_position(r.placed as u64);
        let left = self.deadline.map(|d| {
            d.saturating_duration_since(std::time::Instant::now())
                .as_secs_f64()
        });
        // Under a deadline: the width and the time left, on the bar and on the logged line.
        let beam_and_left = |left: f64| format!("beam {}  {left:.0} s left", r.kept);
        if r.placed.is_multiple_of(16) || r.placed == r.total {
            self.bar.set_message(match left {
                None => r.best_score.to_string(),
                Some(left) => format!("best {}  {}", r.best_score, beam_and_left(left)),
            });
        }
        if self.bar.is_hidden() && self.last_line.elapsed().as_secs() >= 30 {
            self.last_line = std::time::Instant::now();
            let secs = self.start.elapsed().as_secs_f64();
            let tail = left.map_or_else(
                || {
                    let eta = secs / r.placed as f64 * (r.total - r.placed) as f64;
                    format!("eta {eta:.0} s")
                },
                beam_and_left,
            );
            eprintln!(
                "{secs:>7.0} s  piece {}/{}  best {}  {tail}",
                r.placed, r.total, r.best_score
            );
        }
    }

    /// Clears the bar.
    pub(crate) fn finish(self) {
        self.bar.finish_and_clear();
    }
}
