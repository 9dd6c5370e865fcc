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
//!
//! The games are played in the library: [`crate::search::play_batch`] (standard),
//! [`crate::search::tencent_play`] (Tencent) and [`crate::search::online_run`] (guideline).

use crate::error::{Error, Result};
use crate::eval::guideline::GuidelineWeights;
use crate::eval::players::{Weights, NAMES};
use crate::family::AnyFamily;
use crate::game_def::{GameDef, Generator};
use crate::games::standard::TopOut;
use crate::io;
use crate::protocols::classroom;
use crate::results::RunInfo;
use crate::search::online;
use crate::search::online_run::{play_online, OnlineRun};
use crate::search::play_batch::{play_batch, BatchSettings};
use crate::search::play_runs::partial_path;
use crate::search::tencent_play::play_tencent_game;
use std::path::{Path, PathBuf};

pub use crate::search::online_run::GuidelinePlayReport;
pub use crate::search::play_batch::StandardReport;
pub use crate::search::tencent_play::TencentReport;

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
    // The family, as every command finds it: each has its own kind of player.
    let family = crate::family::open(seed.clone())?;
    if let AnyFamily::Tetrio(t) = &family {
        t.refuse_unplannable("play")?;
    }
    if matches!(family, AnyFamily::Guideline(_) | AnyFamily::Tetrio(_)) {
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
    match family {
        AnyFamily::Standard(_) => run_standard(args, &seed, &policy, w),
        AnyFamily::Tencent(_) => run_tencent(args, &seed, &policy, w),
        _ => Err(seed
            .family()
            .refuse(crate::games::registry::Capability::Play, &seed.name)),
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

/// The default results file of a standard batch:
/// `runs/play-<game>-<policy>[-strict][-cap<lines>][-pieces<n>].json`.
fn standard_out(args: &Args, seed: &GameDef, policy: &str, top_out: TopOut) -> PathBuf {
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
    PathBuf::from(format!(
        "runs/play-{}-{policy}{strict}{cap}{pcap}.json",
        seed.name
    ))
}

fn run_standard(args: &Args, seed: &GameDef, policy: &str, w: Weights) -> Result<()> {
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
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| standard_out(args, seed, policy, top_out));
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
    // Every flag is checked before the partial file is opened (and made): a refused run
    // must leave nothing that a later run would take for its own.
    let (threads, pool) = super::thread_pool(args.threads)?;
    let report = play_batch(
        BatchSettings {
            game: seed.name.clone(),
            policy: policy.to_string(),
            weights: w,
            top_out,
            seed: base,
            games: args.games,
            max_lines: args.max_lines,
            max_pieces: args.max_pieces,
            partial: &partial,
            pool: &pool,
            threads,
            run,
        },
        &stop,
    )?;
    let json = serde_json::to_string_pretty(&report).expect("plain data serialises");
    io::write_atomic(&out, json.as_bytes())?;
    // The results file holds every game now.
    let _ = std::fs::remove_file(&partial);
    eprintln!(
        "{policy} on {}: {} games, mean {:.1} lines (± {:.1} s.e.), median {}, min {}, max {}, {} capped, {:.0} decisions/s per thread ({} per CPU second); wrote {}",
        seed.name,
        args.games,
        report.mean_lines,
        report.standard_error,
        report.median_lines,
        report.min_lines,
        report.max_lines_reached,
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

fn run_tencent(args: &Args, seed: &GameDef, policy: &str, w: Weights) -> Result<()> {
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
    let report = play_tencent_game(seed, policy, w, &record_path, run)?;
    let json = serde_json::to_string_pretty(&report).expect("plain data serialises");
    io::write_atomic(&out, json.as_bytes())?;
    eprintln!(
        "{policy} on {}: score {} (replayed: {}), {}, {}, ended as {}; wrote {} and {}",
        seed.name,
        report.score,
        report.replay_score,
        crate::limits::plural(report.lines, "line", "lines"),
        crate::limits::plural(report.pieces as u64, "piece", "pieces"),
        report.end_reason,
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
fn run_guideline(args: &Args, seed: &GameDef) -> Result<()> {
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
    let fourwide = args
        .fourwide
        .unwrap_or(super::solve::FourwideUse::Off)
        .applies(&game.rules);
    let report = play_online(
        OnlineRun {
            seed,
            game: &game,
            pieces,
            previews,
            beam,
            speculation,
            weights_name,
            weights,
            fourwide,
            pool: &pool,
            threads,
            record_file: &record_file,
        },
        &stop,
    )?;
    let json = serde_json::to_string_pretty(&report).expect("plain data serialises");
    io::write_atomic(&out, format!("{json}\n").as_bytes())?;
    eprintln!("{}", guideline_summary(&report, &out, &record_file));
    println!("{json}");
    Ok(())
}

/// The last line `play` writes on stderr after a guideline game.
fn guideline_summary(report: &GuidelinePlayReport, out: &Path, record_file: &Path) -> String {
    format!(
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
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::play_runs::{read_partial, GameLine, PartialHeader};

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

    #[test]
    fn a_partial_file_of_other_settings_is_refused() {
        let dir = temp("other");
        let out = dir.join("r.json");
        let header = crate::search::play_runs::tests::bcts_header();
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
}
