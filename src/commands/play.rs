//! `beamtris play`: the greedy one-piece players on a seed file, or online through a line
//! protocol.
//!
//! * `--seed seeds/standard.json`: G games of the simplified game in parallel (game `g` plays
//!   generator seed `seed + g`), each until it is lost unless capped; prints mean lines,
//!   standard error, median, min, max, games that hit the cap and decisions per second, and
//!   writes them to a results file. Each finished game is appended at once to a partial
//!   results file (`r.partial.jsonl` beside `r.json`), so a run that is interrupted (Ctrl-C, SIGTERM, a
//!   kill) keeps its finished games and the same command resumes it; progress goes to stderr
//!   (a bar on a terminal, a line every 30 s otherwise).
//! * `--seed seeds/tencent-geek-4.json`: one greedy game on the Tencent sequence (drops with a
//!   valid path from spawn); the score reported is the replay of the record it produced.
//! * `--protocol classroom`: play the classroom protocol on stdin/stdout.

use crate::error::{Error, Result};
use crate::eval::guideline::{GuidelineEvaluator, GuidelineWeights};
use crate::eval::players::{Weights, NAMES};
use crate::games::guideline::replay::{self as guideline_replay, Outcome};
use crate::games::guideline::Objective;
use crate::games::standard::{self, TopOut};
use crate::games::tencent::replay;
use crate::io;
use crate::protocols::classroom;
use crate::results::RunInfo;
use crate::search::play_runs::{
    median, partial_path, read_partial, stats, GameLine, PartialHeader, PartialWriter,
};
use crate::search::section_play::SectionPlay;
use crate::search::{greedy, guideline, online};
use crate::seed::{Generator, Seed};
use rayon::prelude::*;
use serde::Serialize;
use std::collections::HashSet;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Play with a greedy one-piece player (Dellacherie, El-Tetris, BCTS weights).
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    pub game: super::game::GameArgs,
    /// The weight set: dellacherie, eltetris or bcts.
    #[arg(long, default_value = "dellacherie")]
    pub policy: String,
    /// A weights JSON file (feature name -> weight) used instead of --policy. On a guideline
    /// game: a guideline preset (attack, points, versus) or weights file (default: the preset
    /// of the game's rules, `versus` on TETR.IO's rules as played today, else the objective's).
    #[arg(long)]
    pub weights: Option<PathBuf>,
    /// Guideline games only: the previews the player sees after the piece in play (default 5,
    /// as in TETR.IO). Each piece is decided by beams over the hold piece, the piece in play
    /// and these, each followed by pieces drawn from the 7-bag (--samples); the pieces it was
    /// not shown are never read.
    #[arg(long)]
    pub previews: Option<usize>,
    /// Guideline games only: states each search of a decision keeps per piece (default 400).
    #[arg(long)]
    pub beam: Option<usize>,
    #[command(flatten)]
    pub speculation: SpeculationArgs,
    /// Guideline games only: the 4-wide solver in combo sections (default off). Its
    /// transitions rank the window's sections by the run the visible pieces make (and the
    /// solved policy's expected combo past them), and when the search's move is a step of a
    /// section's combo, the solved policy (3 residuals, hold, the game's generator, the
    /// previews seen, at most 5) chooses the step. Off by default: online it was measured to
    /// send less than the search alone (results/guideline/play-p5-fourwide/). `auto` uses it
    /// where `solve` does (attack with the guideline combo table).
    #[arg(long, value_enum)]
    pub fourwide: Option<super::solve::FourwideUse>,
    /// Games to play (standard rules), in parallel.
    #[arg(long, default_value_t = 1)]
    pub games: u64,
    /// Stop a game once it has cleared this many lines (standard rules; default: play until
    /// the game is lost).
    #[arg(long)]
    pub max_lines: Option<u64>,
    /// Stop a game once it has placed this many pieces (standard rules; default: no cap: the
    /// seed file's `pieces`, the length `solve` plays, does not cap `play`). On a guideline
    /// game: the pieces to play (default: the game's length).
    #[arg(long)]
    pub max_pieces: Option<u64>,
    /// Worker threads for the games (default: every core; one on a guideline game, whose
    /// time a move is a one-thread figure).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Game over rule (standard rules): simplified (stack above the board after clearing) or
    /// strict (piece above the board before clearing).
    #[arg(long, value_enum, default_value_t = TopOutArg::Simplified)]
    pub top_out: TopOutArg,
    /// Results file (default: runs/play-<game>-<policy>[-strict][-cap<lines>][-pieces<n>].json;
    /// on a guideline game
    /// runs/play-<game>-p<previews>-b<beam>[-s<samples>x<lookahead>]-<weights>[-pieces<n>].json).
    /// Each game is appended to `OUT` with the extension `.partial.jsonl` as it finishes; an interrupted
    /// run keeps them there and the same command resumes it.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Where to write the tencent or guideline record (default: beside the results file,
    /// `.txt`).
    #[arg(long)]
    pub record_out: Option<PathBuf>,
    /// Play a line protocol on stdin/stdout instead of a seed file (the protocol's own
    /// messages choose the game and the player: the game flags are refused with it).
    #[arg(
        long,
        value_enum,
        conflicts_with_all = ["seed", "weights", "policy", "games", "max_lines", "out", "record_out", "previews", "beam", "fourwide", "samples", "lookahead"]
    )]
    pub protocol: Option<ProtocolArg>,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum TopOutArg {
    Simplified,
    Strict,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProtocolArg {
    Classroom,
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

/// Outcome of the greedy game on a tencent sequence.
#[derive(Serialize, Debug)]
pub struct TencentReport {
    pub run: RunInfo,
    pub game: String,
    pub policy: String,
    pub weights: Weights,
    pub score: u64,
    pub replay_score: u64,
    pub lines: u64,
    pub pieces: usize,
    pub end_reason: replay::EndReason,
    pub record_file: String,
    pub seconds: f64,
}

fn weights(args: &Args) -> Result<(String, Weights)> {
    if let Some(path) = &args.weights {
        // Player weights or beam weights (`solve`/`tune` files): one loader tells them apart.
        let (w, read_as) = crate::eval::weights_file::for_player(path)?;
        eprintln!("weights: read {} as {read_as}", path.display());
        let name = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| "weights".into());
        return Ok((name, w));
    }
    let w = Weights::named(&args.policy).ok_or_else(|| {
        Error(format!(
            "--policy: unknown weight set {:?} (known: {})",
            args.policy,
            NAMES.join(", ")
        ))
    })?;
    Ok((args.policy.to_ascii_lowercase(), w))
}

pub fn run(args: &Args) -> Result<()> {
    if let Some(ProtocolArg::Classroom) = args.protocol {
        let stdin = std::io::stdin();
        return classroom::run_protocol(stdin.lock(), std::io::stdout().lock());
    }
    if args.game.seed.is_none() && !args.game.changes_game() {
        return Err(Error(
            "give the game: --seed FILE (or --tetrio-seed N, --queue LETTERS), or --protocol"
                .into(),
        ));
    }
    let seed = args.game.load()?;
    let seed_path = args.game.seed.as_deref().unwrap_or(Path::new(&seed.name));
    if seed.guideline_rules().is_some() {
        return run_guideline(args, &seed);
    }
    if let Some(flag) = super::first_given(&[
        (args.previews.is_some(), "--previews"),
        (args.beam.is_some(), "--beam"),
        (args.fourwide.is_some(), "--fourwide"),
    ]) {
        return Err(Error::at(
            seed_path.display(),
            format!(
                "{flag}: only guideline games are played online (this game's rules are {})",
                seed.rules
            ),
        ));
    }
    let (policy, w) = weights(args)?;
    match seed.rules.as_str() {
        "standard" => run_standard(args, &seed, &policy, w),
        _ => run_tencent(args, &seed, &policy, w),
    }
}

/// The files a play reads: the game's and the weights file.
fn inputs(args: &Args) -> Vec<(&'static str, &Path)> {
    args.game
        .input_files_with("--weights", args.weights.as_deref())
}

/// The record's path (`--record-out`, or `out` with `.txt`), checked with `out` before the
/// play: writable, two files, neither an input.
fn record_outputs(args: &Args, out: &Path) -> Result<PathBuf> {
    let record = args
        .record_out
        .clone()
        .unwrap_or_else(|| out.with_extension("txt"));
    io::check_outputs(&[("--out", out), ("the record", &record)], &inputs(args))?;
    Ok(record)
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

fn run_standard(args: &Args, seed: &Seed, policy: &str, w: Weights) -> Result<()> {
    let Generator::Uniform { seed: base } = seed.generator else {
        return Err(Error(format!(
            "{}: the standard rules draw pieces with the uniform generator",
            seed.name
        )));
    };
    crate::limits::check_games(args.games)?;
    let top_out = match args.top_out {
        TopOutArg::Simplified => TopOut::Simplified,
        TopOutArg::Strict => TopOut::Strict,
    };
    let run = RunInfo::now();
    let cap = args
        .max_lines
        .map(|l| format!("-cap{l}"))
        .unwrap_or_default();
    let pcap = args
        .max_pieces
        .map(|p| format!("-pieces{p}"))
        .unwrap_or_default();
    let strict = if top_out == TopOut::Strict {
        "-strict"
    } else {
        ""
    };
    let out = args.out.clone().unwrap_or_else(|| {
        PathBuf::from(format!(
            "runs/play-{}-{policy}{strict}{cap}{pcap}.json",
            seed.name
        ))
    });
    let partial = partial_path(&out);
    let stop = super::stop_on_ctrl_c();
    io::check_outputs(
        &[
            ("--out", out.as_path()),
            (
                "the partial results (--out with .partial.jsonl)",
                partial.as_path(),
            ),
        ],
        &inputs(args),
    )?;
    let header = PartialHeader {
        game: seed.name.clone(),
        policy: policy.to_string(),
        weights: w,
        top_out,
        seed: base,
        max_lines: args.max_lines,
        max_pieces: args.max_pieces,
    };
    // Every flag is checked before the partial file is opened (and made): a refused run
    // must leave nothing that a later run would take for its own.
    let (threads, pool) = super::thread_pool(args.threads)?;
    // Games a previous run of the same settings finished.
    let mut finished: Vec<GameLine> = Vec::new();
    let resumed = read_partial(&partial)?;
    let writer = PartialWriter::open(&partial)?;
    match resumed {
        Some((h, games)) => {
            if h != header {
                return Err(Error::at(
                    partial.display(),
                    "holds games played with other settings (player, weights, top-out, seed or caps); \
                     move it away or choose another --out",
                ));
            }
            finished = games.into_iter().filter(|g| g.game < args.games).collect();
            eprintln!(
                "play: resuming {}: {} of {} games already finished",
                partial.display(),
                finished.len(),
                args.games
            );
        }
        None => writer
            .line(&header)
            .map_err(|e| Error::at(partial.display(), e))?,
    }
    let done: HashSet<u64> = finished.iter().map(|g| g.game).collect();
    let resumed_games = finished.len() as u64;
    let max_lines = args.max_lines.unwrap_or(u64::MAX);
    let max_pieces = args.max_pieces.unwrap_or(u64::MAX);
    let lines_seen = AtomicU64::new(0);
    let running = AtomicU64::new(0);
    let new_games: Mutex<Vec<GameLine>> = Mutex::new(Vec::new());
    let write_error: Mutex<Option<Error>> = Mutex::new(None);
    let all_done = AtomicBool::new(false);
    let start = Instant::now();
    std::thread::scope(|scope| {
        scope.spawn(|| {
            let mut progress = Progress::new(args.games, resumed_games, Duration::from_secs(30));
            while !all_done.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(250));
                let n = new_games.lock().map(|g| g.len() as u64).unwrap_or(0);
                progress.update(
                    args.games,
                    resumed_games + n,
                    running.load(Ordering::Relaxed),
                    lines_seen.load(Ordering::Relaxed),
                    start,
                );
            }
            progress.finish();
        });
        pool.install(|| {
            (0..args.games)
                .into_par_iter()
                .filter(|g| !done.contains(g))
                // `try_for_each` so that a stop ends the loop at once, not after a look at
                // every game index left (`--games` may be huge).
                .try_for_each(|g| {
                    if stop.load(Ordering::Relaxed) {
                        return Err(());
                    }
                    running.fetch_add(1, Ordering::Relaxed);
                    let t = Instant::now();
                    let cpu = crate::results::thread_cpu_ns();
                    let o = greedy::play_standard_watched(
                        &w,
                        standard::game_seed(base, g),
                        top_out,
                        max_lines,
                        max_pieces,
                        &stop,
                        &lines_seen,
                    );
                    running.fetch_sub(1, Ordering::Relaxed);
                    let Some(o) = o else { return Err(()) };
                    let cpu = match (cpu, crate::results::thread_cpu_ns()) {
                        (Some(a), Some(b)) => Some(b.saturating_sub(a) as f64 * 1e-9),
                        _ => None,
                    };
                    let line = GameLine {
                        game: g,
                        lines: o.lines,
                        pieces: o.pieces,
                        capped: o.capped,
                        seconds: t.elapsed().as_secs_f64(),
                        cpu_seconds: cpu,
                    };
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
    if (finished.len() as u64) < args.games {
        return Err(Error(format!(
            "interrupted: {} of {} games finished ({played} in this run), kept in {}; \
             run the same command again to play the rest",
            finished.len(),
            args.games,
            partial.display()
        )));
    }
    finished.sort_by_key(|g| g.game);
    let lines: Vec<u64> = finished.iter().map(|g| g.lines).collect();
    let (mean, se, min, max) = stats(&lines);
    let decisions: u64 = finished.iter().map(|g| g.pieces).sum();
    let busy: f64 = finished.iter().map(|g| g.seconds).sum();
    let cpu: Option<f64> = finished.iter().map(|g| g.cpu_seconds).sum();
    let report = StandardReport {
        run,
        game: seed.name.clone(),
        policy: policy.to_string(),
        weights: w,
        top_out,
        games: args.games,
        seed: base,
        max_lines: args.max_lines,
        max_pieces: args.max_pieces,
        mean_lines: mean,
        standard_error: se,
        median_lines: median(&lines.iter().map(|&l| l as f64).collect::<Vec<_>>()),
        min_lines: min,
        max_lines_reached: max,
        capped_games: finished.iter().filter(|g| g.capped).count() as u64,
        decisions,
        decisions_per_second_per_thread: decisions as f64 / busy.max(1e-9),
        decisions_per_cpu_second: cpu.map(|s| decisions as f64 / s.max(1e-9)),
        decisions_per_second_wall: if resumed_games == 0 {
            Some(decisions as f64 / wall.max(1e-9))
        } else {
            None
        },
        wall_seconds: wall,
        game_seconds: busy,
        resumed_games,
        threads,
        lines_per_game: lines,
        pieces_per_game: finished.iter().map(|g| g.pieces).collect(),
    };
    let json = serde_json::to_string_pretty(&report).expect("plain data serialises");
    io::write_atomic(&out, json.as_bytes())?;
    // The results file holds every game now.
    let _ = std::fs::remove_file(&partial);
    eprintln!(
        "{policy} on {}: {} games, mean {:.1} lines (± {:.1} s.e.), median {}, min {min}, max {max}, {} capped, {:.0} decisions/s per thread ({} per CPU second); wrote {}",
        seed.name,
        args.games,
        mean,
        se,
        report.median_lines,
        report.capped_games,
        report.decisions_per_second_per_thread,
        report
            .decisions_per_cpu_second
            .map(|d| format!("{d:.0}"))
            .unwrap_or_else(|| "?".into()),
        out.display()
    );
    println!("{json}");
    Ok(())
}

fn run_tencent(args: &Args, seed: &Seed, policy: &str, w: Weights) -> Result<()> {
    // The Tencent game is one game over its known pieces, to its end.
    if let Some(flag) = super::first_given(&[
        (args.games != 1, "--games"),
        (args.max_lines.is_some(), "--max-lines"),
        (args.max_pieces.is_some(), "--max-pieces"),
        (args.top_out != TopOutArg::Simplified, "--top-out"),
    ]) {
        return Err(Error(format!(
            "{flag}: not for Tencent games (one game over its known pieces, played to its \
             end; the game {} is one)",
            seed.name
        )));
    }
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("runs/play-{}-{policy}.json", seed.name)));
    let record_path = record_outputs(args, &out)?;
    let run = RunInfo::now();
    let pieces = seed.pieces();
    let start = Instant::now();
    let board = seed.tencent_start();
    let game = greedy::play_tencent(&w, &pieces, &board);
    let seconds = start.elapsed().as_secs_f64();
    let outcome = replay::replay_from(&board, &game.record, &pieces, |_| {});
    if outcome.score != game.score {
        return Err(Error(format!(
            "internal error: the greedy game scored {} but its record replays to {}",
            game.score, outcome.score
        )));
    }
    io::write_atomic(&record_path, format!("{}\n", game.record).as_bytes())?;
    let report = TencentReport {
        run,
        game: seed.name.clone(),
        policy: policy.to_string(),
        weights: w,
        score: game.score,
        replay_score: outcome.score,
        lines: game.lines,
        pieces: game.pieces,
        end_reason: outcome.end_reason,
        record_file: record_path.display().to_string(),
        seconds,
    };
    let json = serde_json::to_string_pretty(&report).expect("plain data serialises");
    io::write_atomic(&out, json.as_bytes())?;
    eprintln!(
        "{policy} on {}: score {} (replayed: {}), {}, {}, ended as {}; wrote {} and {}",
        seed.name,
        game.score,
        outcome.score,
        crate::limits::plural(game.lines, "line", "lines"),
        crate::limits::plural(game.pieces as u64, "piece", "pieces"),
        outcome.end_reason,
        out.display(),
        record_path.display()
    );
    println!("{json}");
    Ok(())
}

/// TETR.IO's preview count.
pub const DEFAULT_PREVIEWS: usize = 5;
/// The width of each search of a decision: four continuations of 400 use about 0.15 s of one
/// core a move, far inside half a second (results/guideline/play-p5-speculation/).
pub const DEFAULT_BEAM: usize = 400;

/// Continuations past the previews a decision searches (0: none).
pub const DEFAULT_SAMPLES: usize = 4;
/// Pieces a continuation adds past the previews.
pub const DEFAULT_LOOKAHEAD: usize = 7;

/// The results file of an online guideline game.
#[derive(Serialize)]
pub struct GuidelinePlayReport {
    /// The objective's value under replay.
    pub score: u64,
    pub objective: Objective,
    /// Points, attack, pieces, lines, end reason, max combo, T-spins, perfect clears, ... of
    /// the replayed record.
    #[serde(flatten)]
    pub outcome: Outcome,
    pub attack_per_piece: f64,
    pub points_per_piece: f64,
    /// No placement of a piece survived: the game was lost before the pieces asked for.
    pub topped_out: bool,
    /// A signal stopped the game early.
    pub stopped: bool,
    /// Pieces asked for (the game's length, or `--max-pieces`).
    pub pieces_asked: usize,
    pub previews: usize,
    pub beam: usize,
    /// The search past the previews, when on.
    pub speculation: Option<online::Speculation>,
    /// The 4-wide solver in sections: its policy's configuration, when used.
    pub fourwide: Option<crate::fourwide::Config>,
    /// Moves the 4-wide policy chose (steps of a section's combo).
    pub fourwide_policy_moves: usize,
    pub weights_name: String,
    pub weights: GuidelineWeights,
    /// Wall time of a decision, mean and max over the game's moves.
    pub seconds_per_move_mean: f64,
    pub seconds_per_move_median: f64,
    pub seconds_per_move_max: f64,
    /// CPU time of the deciding thread, mean and max (a shared machine's wall time also
    /// holds what other processes took).
    pub cpu_seconds_per_move_mean: Option<f64>,
    pub cpu_seconds_per_move_median: Option<f64>,
    pub cpu_seconds_per_move_max: Option<f64>,
    /// Decisions that took more than half a second of CPU time (wall time where the OS does
    /// not report CPU time).
    pub moves_over_half_second: usize,
    pub threads: usize,
    pub seed: String,
    pub game: Seed,
    pub record_file: String,
    #[serde(flatten)]
    pub run: RunInfo,
}

/// Flags of `play` that only the one-piece players read.
fn refuse_player_flags(args: &Args) -> Result<()> {
    match super::first_given(&[
        (args.games != 1, "--games"),
        (args.max_lines.is_some(), "--max-lines"),
        (args.policy != "dellacherie", "--policy"),
        (args.top_out != TopOutArg::Simplified, "--top-out"),
    ]) {
        Some(flag) => Err(Error(format!(
            "{flag}: not for guideline games (one game, played by a beam over the visible \
             pieces; choose its evaluator with --weights)"
        ))),
        None => Ok(()),
    }
}

/// Whether the player may count on 7-bags: the generators that deal them, and a given queue
/// (a real game's, most likely 7-bags; the bag is only used while the pieces fit one).
pub fn deals_seven_bags(seed: &Seed) -> bool {
    matches!(
        seed.generator,
        crate::seed::Generator::Tetrio { .. }
            | crate::seed::Generator::Bag7 { .. }
            | crate::seed::Generator::Queue { .. }
    )
}

/// How far an online player looks past its previews (`play` on a guideline game, `tbp`).
#[derive(clap::Args, Debug, Default)]
pub struct SpeculationArgs {
    /// Online play: continuations past the previews to search (default 4; 0: the visible
    /// window only, one search). Each draws the pieces after the previews as the game's 7-bag
    /// would deal them (what is left in the current bag, then whole bags) and searches the
    /// window plus `--lookahead` of them; the move most of the searches begin with is played.
    /// At most 64.
    #[arg(long)]
    pub samples: Option<usize>,
    /// Online play: pieces each continuation adds past the previews (default 7, at most 100).
    #[arg(long)]
    pub lookahead: Option<usize>,
}

/// The most continuations a move may search: a move then takes about 64 searches' time.
pub const MAX_SAMPLES: usize = 64;
/// The most pieces a continuation may add past the previews: past a few bags the drawn pieces
/// say nothing the search can use.
pub const MAX_LOOKAHEAD: usize = 100;

/// The speculation `--samples` and `--lookahead` ask for.
pub fn speculation(args: &SpeculationArgs) -> Result<Option<online::Speculation>> {
    let samples = args.samples.unwrap_or(DEFAULT_SAMPLES);
    if samples == 0 {
        if args.lookahead.is_some() {
            return Err(Error("--lookahead needs --samples 1 or more".into()));
        }
        return Ok(None);
    }
    if samples > MAX_SAMPLES {
        return Err(Error(format!(
            "--samples {samples}: give at most {MAX_SAMPLES} (each is a search of every move)"
        )));
    }
    let pieces = args.lookahead.unwrap_or(DEFAULT_LOOKAHEAD);
    if pieces == 0 {
        return Err(Error(
            "--lookahead 0: give at least 1 (or --samples 0)".into(),
        ));
    }
    if pieces > MAX_LOOKAHEAD {
        return Err(Error(format!(
            "--lookahead {pieces}: give at most {MAX_LOOKAHEAD} pieces"
        )));
    }
    Ok(Some(online::Speculation { samples, pieces }))
}

/// `play` on a guideline game: online play, each piece decided by a beam over only the
/// pieces a player sees (hold, current, `--previews` more); the figures come from replaying
/// the record.
fn run_guideline(args: &Args, seed: &Seed) -> Result<()> {
    refuse_player_flags(args)?;
    let game = seed.guideline_game().expect("a guideline seed");
    let previews = args.previews.unwrap_or(DEFAULT_PREVIEWS);
    let beam = args.beam.unwrap_or(DEFAULT_BEAM);
    crate::limits::check_beam("--beam", beam)?;
    let speculation = speculation(&args.speculation)?;
    // Holding into the empty slot plays the first preview, which a player must see.
    crate::limits::check_previews(
        previews,
        "give at least 1 (holding into the empty slot plays the first preview)",
    )?;
    if args.max_pieces == Some(0) {
        return Err(Error("--max-pieces 0: give at least 1".into()));
    }
    let pieces = args.max_pieces.map_or(game.length, |p| {
        (p.min(usize::MAX as u64) as usize).min(game.length)
    });
    let weights_name = match &args.weights {
        Some(w) => w.to_string_lossy().into_owned(),
        None => crate::eval::guideline::rules_preset(&game.rules).to_string(),
    };
    let weights = GuidelineWeights::resolve(&weights_name)?;
    let evaluator = GuidelineEvaluator::new(weights.clone());
    // One thread unless told: the half second a move is a one-thread budget.
    let (threads, pool) = super::thread_pool(Some(args.threads.unwrap_or(1)))?;
    let out = args.out.clone().unwrap_or_else(|| {
        PathBuf::from(format!(
            "runs/play-{}-p{previews}-b{beam}{}-{}{}.json",
            seed.name,
            speculation.map_or(String::new(), |s| format!("-s{}x{}", s.samples, s.pieces)),
            weights_name.replace(['/', '.'], "_"),
            if pieces < game.length {
                format!("-pieces{pieces}")
            } else {
                String::new()
            }
        ))
    });
    let stop = super::stop_on_ctrl_c();
    let record_file = record_outputs(args, &out)?;
    let use_fourwide = args
        .fourwide
        .unwrap_or(super::solve::FourwideUse::Off)
        .applies(&game.rules);
    let section_play = if use_fourwide {
        let bag = matches!(
            seed.generator,
            crate::seed::Generator::Tetrio { .. } | crate::seed::Generator::Bag7 { .. }
        );

        let t = Instant::now();
        let s = SectionPlay::solve(&game, previews, bag)?;
        eprintln!(
            "4-wide policy for sections: {} generator, hold, {} previews, solved in {:.1} s",
            s.config().generator.name(),
            s.config().preview,
            t.elapsed().as_secs_f64()
        );
        Some(s)
    } else {
        None
    };
    let run_info = RunInfo::now();
    eprintln!(
        "playing {} online: {}, {previews} previews, beam {beam}, weights {weights_name}; \
         Ctrl-C or SIGTERM stops and keeps the moves so far",
        seed.name,
        crate::limits::plural(pieces as u64, "piece", "pieces"),
    );
    let start = Instant::now();
    let mut last_line = Instant::now();
    let played = pool.install(|| {
        let player = online::Player {
            previews,
            beam,
            evaluator: &evaluator,
            fourwide: section_play.as_ref(),
            speculation,
            seven_bag: deals_seven_bags(seed),
        };
        online::play(&game, pieces, &player, &stop, |locks, _| {
            if last_line.elapsed().as_secs() >= 30 {
                last_line = Instant::now();
                eprintln!(
                    "{:>7.0} s  piece {}/{pieces}",
                    start.elapsed().as_secs_f64(),
                    locks + 1
                );
            }
        })
    });
    if played.moves.is_empty() {
        // A signal before the first move (during the 4-wide policy's solve, say) is not a
        // game that cannot start.
        let why = if stop.load(std::sync::atomic::Ordering::SeqCst) {
            "stopped before the first move"
        } else {
            "no placement of the first piece survives"
        };
        return Err(Error(format!(
            "{why} in {}; there is no record to write",
            seed.name
        )));
    }
    let record = guideline::record(&game, &played.moves);
    io::write_atomic(&record_file, format!("{record}\n").as_bytes())?;
    // Parse the text back as verify would: the file is what the figures are about.
    let reread = game
        .parse_record(&record.to_string())
        .map_err(|e| Error(format!("bug: the written record does not parse: {e}")))?;
    let outcome = guideline_replay::replay(&reread, &game);
    if outcome.pieces != played.moves.len() {
        return Err(Error(format!(
            "bug: the game made {} moves but its record {} replays {}",
            played.moves.len(),
            record_file.display(),
            outcome.pieces
        )));
    }
    let score = outcome.value(game.rules.objective);
    let per_piece = |v: u64| v as f64 / outcome.pieces.max(1) as f64;
    let n = played.times.len().max(1) as f64;
    let wall: Vec<f64> = played.times.iter().map(|t| t.wall_seconds).collect();
    let cpu: Option<Vec<f64>> = played.times.iter().map(|t| t.cpu_seconds).collect();
    let max = |v: &[f64]| v.iter().copied().fold(0.0, f64::max);
    let charged = cpu.as_deref().unwrap_or(&wall);
    let report = GuidelinePlayReport {
        score,
        objective: game.rules.objective,
        attack_per_piece: per_piece(outcome.attack),
        points_per_piece: per_piece(outcome.points),
        outcome,
        topped_out: played.topped_out,
        stopped: played.stopped,
        pieces_asked: pieces,
        previews,
        beam,
        speculation,
        fourwide: section_play.as_ref().map(|s| *s.config()),
        fourwide_policy_moves: played.policy_moves,
        weights_name,
        weights,
        seconds_per_move_mean: wall.iter().sum::<f64>() / n,
        seconds_per_move_median: median(&wall),
        seconds_per_move_max: max(&wall),
        cpu_seconds_per_move_mean: cpu.as_ref().map(|c| c.iter().sum::<f64>() / n),
        cpu_seconds_per_move_median: cpu.as_deref().map(median),
        cpu_seconds_per_move_max: cpu.as_deref().map(max),
        moves_over_half_second: charged.iter().filter(|&&s| s > 0.5).count(),
        threads,
        seed: seed.name.clone(),
        game: seed.clone(),
        record_file: record_file.display().to_string(),
        run: run_info,
    };
    let json = serde_json::to_string_pretty(&report).expect("plain data serialises");
    io::write_atomic(&out, format!("{json}\n").as_bytes())?;
    eprintln!(
        "{} {} (verified by replay): {} points, {} attack over {} ({:.3} attack, {:.1} \
         points a piece), max combo {}, {}, {}, {} by the 4-wide policy{}; {:.3} s a move \
         (max {:.3}); wrote {} and {}",
        report.score,
        report.objective.name(),
        report.outcome.points,
        report.outcome.attack,
        crate::limits::plural(report.outcome.pieces as u64, "piece", "pieces"),
        report.attack_per_piece,
        report.points_per_piece,
        report.outcome.max_combo,
        crate::limits::plural(report.outcome.tspins as u64, "T-spin", "T-spins"),
        crate::limits::plural(
            report.outcome.perfect_clears as u64,
            "perfect clear",
            "perfect clears"
        ),
        crate::limits::plural(report.fourwide_policy_moves as u64, "move", "moves"),
        if report.topped_out {
            ", TOPPED OUT"
        } else {
            ""
        },
        report.seconds_per_move_mean,
        report.seconds_per_move_max,
        out.display(),
        record_file.display()
    );
    println!("{json}");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(out: &Path, games: u64, max_lines: u64) -> Args {
        Args {
            game: super::super::game::GameArgs {
                seed: Some(PathBuf::from(concat!(
                    env!("CARGO_MANIFEST_DIR"),
                    "/seeds/standard.json"
                ))),
                ..Default::default()
            },
            policy: "dellacherie".into(),
            weights: None,
            games,
            max_lines: Some(max_lines),
            max_pieces: None,
            threads: Some(1),
            top_out: TopOutArg::Simplified,
            out: Some(out.to_path_buf()),
            record_out: None,
            protocol: None,
            speculation: Default::default(),
            previews: None,
            beam: None,
            fourwide: None,
        }
    }

    fn temp(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("beamtris-play-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn lines_of(out: &Path) -> Vec<u64> {
        let v: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(out).unwrap()).unwrap();
        v["lines_per_game"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_u64().unwrap())
            .collect()
    }

    #[test]
    fn a_run_resumes_from_its_partial_file_and_ends_with_the_same_games() {
        let dir = temp("resume");
        let fresh = dir.join("fresh.json");
        run(&args(&fresh, 3, 2_000)).unwrap();
        assert!(
            !partial_path(&fresh).exists(),
            "the partial file is removed at the end"
        );
        let all = lines_of(&fresh);
        assert_eq!(all.len(), 3);

        // A run killed after game 1 finished, in the middle of writing game 2's line.
        let resumed = dir.join("resumed.json");
        let header = PartialHeader {
            game: "standard".into(),
            policy: "dellacherie".into(),
            weights: Weights::DELLACHERIE,
            top_out: TopOut::Simplified,
            seed: 1,
            max_lines: Some(2_000),
            max_pieces: None,
        };
        let game = GameLine {
            game: 1,
            lines: all[1],
            pieces: (all[1] * 5).div_ceil(2),
            capped: true,
            seconds: 0.0,
            cpu_seconds: None,
        };
        let text = format!(
            "{}\n{}\n{{\"game\":2,\"li",
            serde_json::to_string(&header).unwrap(),
            serde_json::to_string(&game).unwrap()
        );
        std::fs::write(partial_path(&resumed), text).unwrap();
        let (_, games) = read_partial(&partial_path(&resumed)).unwrap().unwrap();
        assert_eq!(games, vec![game], "the torn last line is dropped");
        run(&args(&resumed, 3, 2_000)).unwrap();
        assert_eq!(lines_of(&resumed), all);
        let v: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&resumed).unwrap()).unwrap();
        assert_eq!(v["resumed_games"], 1);
        std::fs::remove_dir_all(&dir).ok();
    }

    /// The header of a partial file of BCTS games on the standard game.
    fn bcts_header() -> PartialHeader {
        PartialHeader {
            game: "standard".into(),
            policy: "bcts".into(),
            weights: Weights::BCTS,
            top_out: TopOut::Simplified,
            seed: 1,
            max_lines: Some(2_000),
            max_pieces: None,
        }
    }

    #[test]
    fn a_partial_file_of_other_settings_is_refused() {
        let dir = temp("other");
        let out = dir.join("r.json");
        let header = bcts_header();
        std::fs::write(
            partial_path(&out),
            format!("{}\n", serde_json::to_string(&header).unwrap()),
        )
        .unwrap();
        let e = run(&args(&out, 2, 2_000)).unwrap_err();
        assert!(e.0.contains("other settings"), "{e}");
        let e = run(&args(&dir, 2, 2_000)).unwrap_err();
        assert!(e.0.contains("is a directory"), "{e}");
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn a_partial_file_s_bad_line_is_named_once_and_bad_times_refused() {
        let dir = temp("badline");
        let path = dir.join("r.partial.jsonl");
        let header = bcts_header();
        let head = serde_json::to_string(&header).unwrap();
        let game = |seconds: &str| {
            format!(
                r#"{{"game":0,"lines":5,"pieces":20,"capped":false,"seconds":{seconds},"cpu_seconds":1.0}}"#
            )
        };
        std::fs::write(&path, format!("{head}\n{}\n", game("0.5"))).unwrap();
        assert_eq!(read_partial(&path).unwrap().unwrap().1.len(), 1);
        std::fs::write(&path, format!("{head}\n{}\n", game("-3"))).unwrap();
        let e = read_partial(&path).unwrap_err();
        assert!(
            e.0.ends_with("line 2: seconds -3 and cpu_seconds Some(1.0) are not times a game took"),
            "{e}"
        );
        std::fs::write(&path, format!("{head}\n{}\n", game("\"x\""))).unwrap();
        let e = read_partial(&path).unwrap_err();
        assert!(e.0.contains("r.partial.jsonl line 2 column "), "{e}");
        assert_eq!(e.0.matches(" line ").count(), 1, "{e}");
        std::fs::write(
            &path,
            [format!("{head}\n").as_bytes(), b"{\"game\xff\n"].concat(),
        )
        .unwrap();
        let e = read_partial(&path).unwrap_err();
        assert!(
            e.0.ends_with(
                "r.partial.jsonl line 2: not UTF-8 text (a partial results file is JSON lines)"
            ),
            "{e}"
        );
        // games no game can be: more lines than the pieces fill, past the line cap (2 000),
        // a key the file never holds
        for (line, why) in [
            (
                r#"{"game":1,"lines":9,"pieces":20,"capped":false,"seconds":1,"cpu_seconds":1}"#,
                "line 2: 9 lines over 20 pieces: more than their cells can fill",
            ),
            (
                r#"{"game":1,"lines":99999,"pieces":999999,"capped":true,"seconds":1,"cpu_seconds":1}"#,
                "line 2: 99999 lines past the cap of 2000",
            ),
            (
                r#"{"game":1,"lines":1,"pieces":9,"capped":false,"seconds":1,"cpu_seconds":1,"bogus":1}"#,
                "unknown field `bogus`",
            ),
        ] {
            std::fs::write(&path, format!("{head}\n{line}\n")).unwrap();
            let e = read_partial(&path).unwrap_err();
            assert!(e.0.contains(why), "{e}");
        }
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn medians() {
        assert_eq!(median(&[5.0, 1.0, 3.0]), 3.0);
        assert_eq!(median(&[4.0, 1.0, 3.0, 2.0]), 2.5);
        assert_eq!(median(&[]), 0.0);
    }

    #[test]
    fn stats_of_a_small_sample() {
        let (mean, se, min, max) = super::stats(&[1, 2, 3, 4]);
        assert_eq!((mean, min, max), (2.5, 1, 4));
        // sample variance 5/3, s.e. sqrt(5/3/4)
        assert!((se - (5.0f64 / 12.0).sqrt()).abs() < 1e-12);
    }
}
