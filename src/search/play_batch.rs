//! A batch of greedy games on the standard rules (`play --seed seeds/standard.json`): game `g`
//! plays generator seed `seed + g`, each until it is lost unless capped, in parallel on a
//! rayon pool. Each finished game is appended at once to a partial results file (see
//! [`super::play_runs`]), so an interrupted batch keeps its finished games and the same
//! settings resume it; progress goes to stderr (a bar on a terminal, a line every 30 s
//! otherwise).

use super::greedy;
use super::play_runs::{median, read_partial, stats, GameLine, PartialHeader, PartialWriter};
use crate::error::{Error, Result};
use crate::eval::players::Weights;
use crate::games::standard::{self, TopOut};
use crate::results::RunInfo;
use rayon::prelude::*;
use serde::Serialize;
use std::collections::HashSet;
use std::io::IsTerminal;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// What a batch plays: the player, the games and their caps, and where its finished games
/// are kept as they end.
pub struct BatchSettings<'a> {
    /// The game's name (the seed file's).
    pub game: String,
    /// The player's name (a weight set's, or a weights file's stem).
    pub policy: String,
    pub weights: Weights,
    pub top_out: TopOut,
    /// The generator seed of game 0 (game `g` plays `seed + g`).
    pub seed: u64,
    /// Games to play.
    pub games: u64,
    /// Stop a game once it has cleared this many lines.
    pub max_lines: Option<u64>,
    /// Stop a game once it has placed this many pieces.
    pub max_pieces: Option<u64>,
    /// The partial results file: read to resume, appended to as games finish. The caller
    /// removes it once the batch's results are written.
    pub partial: &'a Path,
    /// The rayon pool that plays the games, and its worker count.
    pub pool: &'a rayon::ThreadPool,
    pub threads: usize,
    /// Provenance, taken when the run began.
    pub run: RunInfo,
}

/// Summary of a batch of standard games.
#[derive(Serialize, Debug)]
pub struct StandardReport {
    pub run: RunInfo,
    pub game: String,
    pub policy: String,
    pub weights: Weights,
    pub top_out: TopOut,
    pub games: u64,
    pub seed: u64,
    pub max_lines: Option<u64>,
    pub max_pieces: Option<u64>,
    pub mean_lines: f64,
    pub standard_error: f64,
    pub median_lines: f64,
    pub min_lines: u64,
    pub max_lines_reached: u64,
    pub capped_games: u64,
    pub decisions: u64,
    /// Decisions per second of one thread (decisions / summed game times).
    pub decisions_per_second_per_thread: f64,
    /// Decisions per second of CPU time actually given to the game threads (Linux
    /// `CLOCK_THREAD_CPUTIME_ID`), which a busy shared machine does not dilute; absent where
    /// the OS does not report it.
    pub decisions_per_cpu_second: Option<f64>,
    /// Decisions per second of the whole run (decisions / wall time); absent for a resumed
    /// run, whose wall time covers only its last part.
    pub decisions_per_second_wall: Option<f64>,
    /// Wall time of this run (of its last part, for a resumed run).
    pub wall_seconds: f64,
    /// Summed wall time of the games (every part of a resumed run).
    pub game_seconds: f64,
    /// Games taken from the partial results file of an interrupted run.
    pub resumed_games: u64,
    pub threads: usize,
    pub lines_per_game: Vec<u64>,
    pub pieces_per_game: Vec<u64>,
}

/// Plays the batch `s` describes and sums it up. Resumes from `s.partial` when it holds games
/// of the same settings (and refuses one of other settings), appends each game to it as it
/// finishes, and reports progress on stderr. When `stop` is set the games in play end, and
/// the batch returns an error that says how many games are kept in the partial file; an error
/// writing that file stops the batch too.
pub fn play_batch(s: BatchSettings, stop: &AtomicBool) -> Result<StandardReport> {
    let header = PartialHeader {
        game: s.game.clone(),
        policy: s.policy.clone(),
        weights: s.weights,
        top_out: s.top_out,
        seed: s.seed,
        max_lines: s.max_lines,
        max_pieces: s.max_pieces,
    };
    let partial = s.partial;
    let (mut finished, writer) = resume(&s, &header)?;
    let done: HashSet<u64> = finished.iter().map(|g| g.game).collect();
    let resumed_games = finished.len() as u64;
    let lines_seen = AtomicU64::new(0);
    let running = AtomicU64::new(0);
    let new_games: Mutex<Vec<GameLine>> = Mutex::new(Vec::new());
    let write_error: Mutex<Option<Error>> = Mutex::new(None);
    let all_done = AtomicBool::new(false);
    let start = Instant::now();
    std::thread::scope(|scope| {
        scope.spawn(|| {
            let mut progress = Progress::new(s.games, resumed_games, Duration::from_secs(30));
            while !all_done.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(250));
                let n = new_games.lock().map(|g| g.len() as u64).unwrap_or(0);
                progress.update(
                    s.games,
                    resumed_games + n,
                    running.load(Ordering::Relaxed),
                    lines_seen.load(Ordering::Relaxed),
                    start,
                );
            }
            progress.finish();
        });
        s.pool.install(|| {
            (0..s.games)
                .into_par_iter()
                .filter(|g| !done.contains(g))
                // `try_for_each` so that a stop ends the loop at once, not after a look at
                // every game index left (`games` may be huge).
                .try_for_each(|g| {
                    if stop.load(Ordering::Relaxed) {
                        return Err(());
                    }
                    running.fetch_add(1, Ordering::Relaxed);
                    let line = play_one(&s, g, stop, &lines_seen);
                    running.fetch_sub(1, Ordering::Relaxed);
                    let Some(line) = line else { return Err(()) };
                    if let Err(e) = writer.line(&line) {
                        let mut slot = write_error.lock().unwrap_or_else(|e| e.into_inner());
                        slot.get_or_insert(Error::at(partial.display(), e));
                        stop.store(true, Ordering::SeqCst);
                    }
                    new_games
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .push(line);
                    Ok(())
                })
                .ok();
        });
        all_done.store(true, Ordering::Relaxed);
    });
    let wall = start.elapsed().as_secs_f64();
    if let Some(e) = write_error.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(e);
    }
    let new_games = new_games.into_inner().unwrap_or_else(|e| e.into_inner());
    let played = new_games.len() as u64;
    finished.extend(new_games);
    if (finished.len() as u64) < s.games {
        return Err(Error(format!(
            "interrupted: {} of {} games finished ({played} in this run), kept in {}; \
             run the same command again to play the rest",
            finished.len(),
            s.games,
            partial.display()
        )));
    }
    finished.sort_by_key(|g| g.game);
    Ok(report(s, &finished, resumed_games, wall))
}

/// The games a previous run of the same settings finished (read from the partial file, which
/// is made with its header line when there is none), and the writer that appends to it.
fn resume(s: &BatchSettings, header: &PartialHeader) -> Result<(Vec<GameLine>, PartialWriter)> {
    let partial = s.partial;
    let resumed = read_partial(partial)?;
    let writer = PartialWriter::open(partial)?;
    let mut finished = Vec::new();
    match resumed {
        Some((h, games)) => {
            if h != *header {
                return Err(Error::at(
                    partial.display(),
                    "holds games played with other settings (player, weights, top-out, seed or caps); \
                     move it away or choose another --out",
                ));
            }
            finished = games.into_iter().filter(|g| g.game < s.games).collect();
            eprintln!(
                "play: resuming {}: {} of {} games already finished",
                partial.display(),
                finished.len(),
                s.games
            );
        }
        None => writer
            .line(header)
            .map_err(|e| Error::at(partial.display(), e))?,
    }
    Ok((finished, writer))
}

/// Plays game `g` of the batch, timed; `None` when `stop` ended it.
fn play_one(
    s: &BatchSettings,
    g: u64,
    stop: &AtomicBool,
    lines_seen: &AtomicU64,
) -> Option<GameLine> {
    let t = Instant::now();
    let cpu = crate::results::thread_cpu_ns();
    let o = greedy::play_standard_watched(
        &s.weights,
        standard::game_seed(s.seed, g),
        s.top_out,
        s.max_lines.unwrap_or(u64::MAX),
        s.max_pieces.unwrap_or(u64::MAX),
        stop,
        lines_seen,
    )?;
    let cpu = match (cpu, crate::results::thread_cpu_ns()) {
        (Some(a), Some(b)) => Some(b.saturating_sub(a) as f64 * 1e-9),
        _ => None,
    };
    Some(GameLine {
        game: g,
        lines: o.lines,
        pieces: o.pieces,
        capped: o.capped,
        seconds: t.elapsed().as_secs_f64(),
        cpu_seconds: cpu,
    })
}

/// The report of a batch whose games are all `finished` (in game order), `resumed_games` of
/// them from a partial file, this run's part having taken `wall` seconds.
fn report(
    s: BatchSettings,
    finished: &[GameLine],
    resumed_games: u64,
    wall: f64,
) -> StandardReport {
    let lines: Vec<u64> = finished.iter().map(|g| g.lines).collect();
    let (mean, se, min, max) = stats(&lines);
    let decisions: u64 = finished.iter().map(|g| g.pieces).sum();
    let busy: f64 = finished.iter().map(|g| g.seconds).sum();
    let cpu: Option<f64> = finished.iter().map(|g| g.cpu_seconds).sum();
    StandardReport {
        run: s.run,
        game: s.game,
        policy: s.policy,
        weights: s.weights,
        top_out: s.top_out,
        games: s.games,
        seed: s.seed,
        max_lines: s.max_lines,
        max_pieces: s.max_pieces,
        mean_lines: mean,
        standard_error: se,
        median_lines: median(&lines.iter().map(|&l| l as f64).collect::<Vec<_>>()),
        min_lines: min,
        max_lines_reached: max,
        capped_games: finished.iter().filter(|g| g.capped).count() as u64,
        decisions,
        decisions_per_second_per_thread: decisions as f64 / busy.max(1e-9),
        decisions_per_cpu_second: cpu.map(|c| decisions as f64 / c.max(1e-9)),
        decisions_per_second_wall: if resumed_games == 0 {
            Some(decisions as f64 / wall.max(1e-9))
        } else {
            None
        },
        wall_seconds: wall,
        game_seconds: busy,
        resumed_games,
        threads: s.threads,
        lines_per_game: lines,
        pieces_per_game: finished.iter().map(|g| g.pieces).collect(),
    }
}

/// Reports a long run's progress on stderr: a bar on a terminal, otherwise a line every
/// `every` (the first after `every` too).
struct Progress {
    bar: Option<indicatif::ProgressBar>,
    every: Duration,
    last: Instant,
}

impl Progress {
    fn new(total: u64, done: u64, every: Duration) -> Progress {
        let bar = std::io::stderr().is_terminal().then(|| {
            let b = crate::progress::bar(total, "{pos}/{len} games  {msg}");
            b.set_position(done);
            b
        });
        Progress {
            bar,
            every,
            last: Instant::now(),
        }
    }
    fn update(&mut self, total: u64, done: u64, running: u64, lines: u64, start: Instant) {
        let msg = format!("{} running, {} lines in this run", running, group(lines));
        if let Some(b) = &self.bar {
            b.set_position(done);
            b.set_message(msg);
        } else if self.last.elapsed() >= self.every {
            self.last = Instant::now();
            eprintln!(
                "play: {done}/{total} games finished, {msg}, {:.0} s",
                start.elapsed().as_secs_f64()
            );
        }
    }
    fn finish(&self) {
        if let Some(b) = &self.bar {
            b.finish_and_clear();
        }
    }
}

/// `1234567` as `1 234 567`.
fn group(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(' ');
        }
        out.push(c);
    }
    out
}
