//! `beamtris solve`: beam search over a seed's sequence, on either family; writes the record
//! and a results JSON whose score comes from replaying that record.

use crate::error::{Error, Result};
use crate::eval::guideline::{rules_preset, GuidelineEvaluator, GuidelineWeights};
use crate::eval::tencent::{Evaluator, Weights};
use crate::fourwide::continuation::{Continuation, SectionCount};
use crate::games::guideline::replay::{self as guideline_replay, Outcome};
use crate::games::guideline::Objective;
use crate::games::tencent::movegen::MoveSet;
use crate::games::tencent::replay;
use crate::io;
use crate::results::{load_average, peak_memory_bytes, process_cpu_seconds, RunInfo};
use crate::search::beam::SearchEnd;
use crate::search::guideline;
use crate::search::tencent::{self as tencent_beam, BeamConfig, BeamResult};
use crate::search::width::{Width, WidthStats};
use crate::seed::Seed;
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Find a high-scoring record by beam search, replay it, and write it with a results JSON.
///
/// Writes `OUT` (JSON: score from the replay, beam, moves, weights, time, memory, command,
/// commit, machine, date) and the record beside it as `OUT` with `.txt`, the record first.
/// Both are checked before the search starts. Ctrl-C (SIGINT) or SIGTERM stops the search,
/// writes the best line found so far marked `"complete": false`, and exits 130 or 143.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    pub game: super::game::GameArgs,
    /// Boards kept per piece. The default on a Tencent game, 4 000, reaches 1 420 000 on the
    /// built-in game in under a minute on a 2-core machine; on a guideline game it is 3 000.
    #[arg(long)]
    pub beam: Option<usize>,
    /// Finish within about SECONDS of wall time (the search and the replay; not the build).
    /// The beam is then as wide as the machine's speed allows, step by step, up to `--beam`
    /// (default then 1 000 000): it starts at 100 states and follows the time the steps take.
    /// The record then depends on the machine and its load; it replays like any other.
    #[arg(long, value_name = "SECONDS")]
    pub time: Option<f64>,
    /// Placements: `drop` (rotate, shift, hard drop) or `reach` (any unit moves: tucks, spins).
    #[arg(long, value_enum, default_value_t = MoveSet::Reach)]
    pub moves: MoveSet,
    /// Evaluator weights: a preset (default, tuned, tuned-b3000, tuned-b6000, tuned-b6000-i,
    /// tuned-b4000-i, open-column, dellacherie, eltetris) or a JSON weights file. `tuned` is
    /// `default` tuned by `beamtris tune` at beam 200; `tuned-b3000` is `tuned` tuned again on
    /// whole games at beam 3 000; `tuned-b6000` again at beam 6 000, its features fading over
    /// the last 20 pieces; `tuned-b6000-i` is `tuned-b6000` with a cells weight that follows
    /// the I pieces among the next ten; `tuned-b4000-i` is `tuned-b6000-i` nudged for beam
    /// 4 000; `open-column` (the default) keeps column 4 open for the clears, so that both J
    /// and L clear three rows, with weights tuned for it. On a guideline game the presets are
    /// `attack`, `points` and `versus` (TETR.IO's attack with its back-to-back chain bonus),
    /// and the default (and `tuned`, `tuned-b6000`, `tuned-b6000-i`, `tuned-b4000-i`) stands
    /// for the preset of the game's rules: `versus` on TETR.IO's rules as played today
    /// (`--tetrio-seed` without `--seed`), else the objective's.
    #[arg(long, default_value = crate::eval::tencent::DEFAULT_PRESET)]
    pub weights: String,
    /// Worker threads (default: all cores). The record does not depend on it.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Place only the first K pieces (default: the whole game).
    #[arg(long)]
    pub pieces: Option<usize>,
    /// Results JSON path (default: runs/solve-SEED-MOVES-bBEAM-WEIGHTS-pPIECES.json, a
    /// folder git ignores, so a run never replaces the committed results/); the record goes
    /// to the same path with `.txt`.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Guideline games: the 4-wide sub-strategy, which ranks a board holding a 4-wide section
    /// by the combo run the 4-wide solver finds for it over the known pieces. `auto` uses it
    /// where it was measured to pay (the attack objective with the guideline combo table,
    /// results/guideline/fourwide-ablation-*), `on` and `off` force it.
    #[arg(long, value_enum, default_value_t = FourwideUse::Auto)]
    pub fourwide: FourwideUse,
    /// The same as `--fourwide off`: boards ranked by their features alone.
    #[arg(long, conflicts_with = "fourwide")]
    pub no_fourwide: bool,
}

/// Whether a guideline solve uses the 4-wide sub-strategy.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum FourwideUse {
    Auto,
    On,
    Off,
}

impl FourwideUse {
    /// Whether the sub-strategy runs on a game with `rules`: `auto` where it was measured to
    /// pay, the attack objective with the guideline combo table.
    pub fn applies(self, rules: &crate::games::guideline::Rules) -> bool {
        use crate::games::guideline::{score::ComboTable, Objective};
        match self {
            FourwideUse::On => true,
            FourwideUse::Off => false,
            FourwideUse::Auto => {
                rules.objective == Objective::Attack && rules.combo_table == ComboTable::Guideline
            }
        }
    }
}

/// `--beam` when not given on a Tencent game.
pub const TENCENT_BEAM: usize = 4000;
/// `--beam` when not given on a guideline game.
pub const GUIDELINE_BEAM: usize = 3000;
/// The widest the beam may grow under `--time` when `--beam` is not given: about 6 GiB of
/// states and chains on the Tencent game, a width a budget of hours reaches.
pub const TIMED_BEAM_MAX: usize = 1_000_000;
/// The share of `--time` the search may spend: the rest is for the replay and the files.
const SEARCH_SHARE_OF_TIME: f64 = 0.98;

/// The beam's width from `--beam` and `--time` (`family_beam` when neither is given), checked:
/// the widest it may be, and how it is chosen at each step once the search starts at `start`.
fn width_of(args: &Args, family_beam: usize) -> Result<(usize, impl Fn(Instant) -> Width)> {
    let time = args.time;
    let beam = args.beam.unwrap_or(if time.is_some() {
        TIMED_BEAM_MAX
    } else {
        family_beam
    });
    crate::limits::check_beam("--beam", beam)?;
    if let Some(t) = time {
        if !(t.is_finite() && t > 0.0 && t <= 1e7) {
            return Err(Error(format!(
                "--time {}: give a number of seconds above 0 (at most 10 000 000)",
                crate::error::quote_number(t)
            )));
        }
    }
    let width = move |start: Instant| match time {
        None => Width::Fixed(beam),
        Some(t) => Width::Until {
            deadline: start + Duration::from_secs_f64(t * SEARCH_SHARE_OF_TIME),
            max: beam,
        },
    };
    Ok((beam, width))
}

/// The width fields every solve results file has, whatever the family.
#[derive(Serialize)]
pub struct WidthReport {
    /// The beam's width; under `--time`, the widest it was allowed.
    pub beam: usize,
    /// `--time`, when given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub time_budget_seconds: Option<f64>,
    /// Under `--time`: the fewest and most states kept at a step, and their mean.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub beam_widths: Option<WidthStats>,
}

impl WidthReport {
    /// The width fields of a search run with `args`, at most `beam` wide, that kept `widths`.
    fn new(args: &Args, beam: usize, widths: WidthStats) -> WidthReport {
        WidthReport {
            beam,
            time_budget_seconds: args.time,
            beam_widths: args.time.map(|_| widths),
        }
    }
}

/// The width's part of a default file name: `b3000`, or `t60s` under `--time 60`.
fn width_tag(args: &Args, beam: usize) -> String {
    match args.time {
        None => format!("b{beam}"),
        Some(t) => format!("t{t}s"),
    }
}

/// How a search's width was chosen, for the start line: `beam 3000`, or `beam up to 1000000
/// within 60 s`.
fn width_words(args: &Args, beam: usize) -> String {
    match args.time {
        None => format!("beam {beam}"),
        Some(t) => format!("beam up to {beam} within {t} s"),
    }
}

/// The fields every solve results file ends with, whatever the family.
#[derive(Serialize)]
pub struct RunCost {
    pub wall_seconds: f64,
    /// CPU seconds of the whole process (all threads).
    pub cpu_seconds: Option<f64>,
    /// One-minute load average at the start: other work on the machine.
    pub load_average_at_start: Option<f64>,
    pub peak_memory_bytes: Option<u64>,
    pub threads: usize,
    pub record_file: String,
    #[serde(flatten)]
    pub run: RunInfo,
}

impl RunCost {
    /// The figures at the end of a run: its CPU time and peak memory so far.
    pub(crate) fn measured(
        wall_seconds: f64,
        load_average_at_start: Option<f64>,
        threads: usize,
        record_file: &Path,
        run: RunInfo,
    ) -> RunCost {
        RunCost {
            wall_seconds,
            cpu_seconds: process_cpu_seconds(),
            load_average_at_start,
            peak_memory_bytes: peak_memory_bytes(),
            threads,
            record_file: record_file.display().to_string(),
            run,
        }
    }
}

/// The results file of a solve.
#[derive(Serialize)]
pub struct SolveReport {
    /// Score of the record under replay (equal to the search's own figure).
    pub score: u64,
    /// True when the search placed every piece it was asked for: neither stopped by a signal
    /// nor ended by a beam that emptied.
    pub complete: bool,
    /// How the search ended: `finished`, `beam_emptied` or `stopped`.
    pub end: &'static str,
    /// The 0-based piece the search could not place (`beam_emptied`) or had not yet placed
    /// when a signal stopped it (`stopped`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub end_piece: Option<usize>,
    /// The signal that stopped the search (`SIGINT`, `SIGTERM`, `SIGHUP`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stopped_by: Option<&'static str>,
    /// Pieces in the game (the seed's length).
    pub game_pieces: usize,
    /// Pieces the search was to place: `--pieces`, or the game's length less its last piece
    /// (which never scores).
    pub target_pieces: usize,
    /// Pieces the beam placed before it ended.
    pub searched_pieces: usize,
    /// Why the record places fewer pieces than `target_pieces`, when it does.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub record_short_because: Option<String>,
    pub seed: String,
    /// The whole game, when flags changed it from its seed file (a queue, a starting board,
    /// a TETR.IO seed): what `verify` needs to replay the record.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub game: Option<crate::seed::Seed>,
    /// The beam's width, and under `--time` the budget and the widths kept.
    #[serde(flatten)]
    pub width: WidthReport,
    pub moves: MoveSet,
    pub weights_name: String,
    /// Which kind of weights file was read (beam or player weights) or which preset.
    pub weights_read_as: String,
    pub weights: Weights,
    /// Pieces the record places.
    pub pieces: usize,
    pub lines: u64,
    pub end_reason: replay::EndReason,
    /// Score of the replay after every 1000 pieces (1000, 2000, ...).
    pub score_every_1000: Vec<u64>,
    /// Time, memory, threads, the record's path and the run's provenance.
    #[serde(flatten)]
    pub cost: RunCost,
}

/// How a search ended, in the results file's words: `end`, `end_piece` and `stopped_by`.
fn end_words(end: SearchEnd) -> (&'static str, Option<usize>, Option<&'static str>) {
    match end {
        SearchEnd::Finished => ("finished", None, None),
        SearchEnd::BeamEmptied { piece } => ("beam_emptied", Some(piece), None),
        SearchEnd::Stopped { piece } => (
            "stopped",
            Some(piece),
            crate::signal::interrupted_by().map(crate::signal::name),
        ),
    }
}

/// Why a record places `record` pieces of the `target`, in words for the results file.
fn short_because(result: &BeamResult, record: usize, target: usize) -> String {
    let tail = if record < result.placed {
        format!(
            "; the record ends at the best line's last scoring lock (piece {}): the {} after \
             it add no points",
            record.saturating_sub(1),
            crate::limits::plural((result.placed - record) as u64, "piece", "pieces")
        )
    } else {
        String::new()
    };
    match result.end {
        SearchEnd::Finished => format!(
            "the record ends at the best line's last scoring lock (piece {}); the {} after it \
             add no points",
            record.saturating_sub(1),
            crate::limits::plural((target - record) as u64, "piece", "pieces")
        ),
        SearchEnd::BeamEmptied { piece } => format!(
            "the beam emptied at piece {piece}: every kept line tops out or blocks the next \
             spawn there{tail}"
        ),
        SearchEnd::Stopped { piece } => {
            format!("the search was stopped before piece {piece}{tail}")
        }
    }
}

/// Pieces between two entries of `score_every_1000`.
const CHECKPOINT_EVERY: usize = 1000;

/// Where the record goes: the results path with `.txt`.
pub fn record_path(out: &Path) -> PathBuf {
    out.with_extension("txt")
}

/// The default results path: every setting that changes the record is in the name (seed,
/// moves, beam, weights, pieces; not threads, which do not), under `runs/`, which git ignores.
fn default_out(seed: &str, args: &Args, beam: usize, weights: &Weights, target: usize) -> PathBuf {
    let width = width_tag(args, beam);
    let moves = match args.moves {
        MoveSet::Drop => "drop",
        MoveSet::Reach => "reach",
    };
    let weights_tag = if Weights::preset(&args.weights).is_some() {
        args.weights.clone()
    } else {
        // A file: its stem and a hash of the weights it held, so editing the file and rerunning
        // does not replace the first run.
        let stem = Path::new(&args.weights)
            .file_stem()
            .map_or_else(|| "weights".into(), |s| s.to_string_lossy().into_owned());
        let json = serde_json::to_string(weights).expect("plain data serialises");
        format!("{stem}-{:08x}", crate::io::fnv1a(json.as_bytes()) as u32)
    };
    PathBuf::from(format!(
        "runs/solve-{seed}-{moves}-{width}-{weights_tag}-p{target}.json"
    ))
}

/// The record's path for results file `out`, both checked before any search, so a bad path
/// costs nothing: neither names a file the run reads (the game's files, `weights` when it is
/// a file, and `extra`), both writable, neither a folder. `solve` and `polish` write this pair.
pub(crate) fn check_outputs<'a>(
    game: &'a super::game::GameArgs,
    weights: &'a str,
    extra: &[(&'static str, &'a Path)],
    out: &Path,
) -> Result<PathBuf> {
    let record_file = record_path(out);
    let outputs = [
        ("--out", out),
        ("the record (--out with .txt)", record_file.as_path()),
    ];
    let mut inputs = game.input_files_with("--weights", Some(Path::new(weights)));
    inputs.extend_from_slice(extra);
    io::check_outputs(&outputs, &inputs)?;
    Ok(record_file)
}

/// The error of a search whose first piece had no surviving placement.
fn no_record(game: &str) -> Error {
    Error(format!(
        "no placement of the first piece survives in {game}; there is no record to write"
    ))
}

/// Writes the results JSON atomically and returns it.
pub(crate) fn write_report(out: &Path, report: &impl Serialize) -> Result<String> {
    let json = serde_json::to_string_pretty(report).expect("plain data serialises");
    io::write_atomic(out, format!("{json}\n").as_bytes())?;
    Ok(json)
}

pub fn run(args: &Args) -> Result<()> {
    let seed = args.game.load()?;
    if let (crate::seed::Generator::Queue { .. }, Some(p)) = (&seed.generator, args.pieces) {
        if p > seed.pieces {
            return Err(Error(format!(
                "--pieces {p}: the queue makes a game of {} (give more letters)",
                crate::limits::plural(seed.pieces as u64, "piece", "pieces")
            )));
        }
    }
    if seed.guideline_rules().is_some() {
        return run_guideline(args, &seed);
    }
    if seed.rules != "tencent" {
        return Err(Error(format!(
            "solve plays the tencent rule set; the seed's rules are {:?}",
            seed.rules
        )));
    }
    if args.no_fourwide || args.fourwide != FourwideUse::Auto {
        return Err(Error(format!(
            "--fourwide/--no-fourwide: the game {} has no combos (tencent rules); they apply to \
             guideline games",
            seed.name
        )));
    }
    let (beam, width) = width_of(args, TENCENT_BEAM)?;
    let scoring = seed.placeable_pieces();
    if args.pieces == Some(0) {
        return Err(Error(format!(
            "--pieces 0: give at least 1 (the game {} has {}, of which {} score)",
            seed.name,
            crate::limits::plural(seed.pieces as u64, "piece", "pieces"),
            scoring
        )));
    }
    let target = args.pieces.unwrap_or(usize::MAX).min(scoring);
    let (weights, weights_read_as) = Weights::resolve_noted(&args.weights)?;
    let (threads, pool) = super::thread_pool(args.threads)?;
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| default_out(&seed.name, args, beam, &weights, target));
    let stop = super::stop_on_ctrl_c();
    let record_file = check_outputs(&args.game, &args.weights, &[], &out)?;
    if !weights_read_as.starts_with("the ") {
        eprintln!("weights: read {} as {weights_read_as}", args.weights);
    }
    let run_info = RunInfo::now();
    let load_at_start = load_average();
    // Printed once the signal handlers are in place: from here a signal keeps the best line.
    eprintln!(
        "solving {}: {}, {}, {} moves, weights {}; Ctrl-C or SIGTERM stops and keeps \
         the best line so far",
        seed.name,
        crate::limits::plural(target as u64, "piece", "pieces"),
        width_words(args, beam),
        crate::report::moves_name(args.moves),
        args.weights
    );
    let pieces = seed.pieces();
    let cfg = BeamConfig {
        beam,
        moves: args.moves,
        evaluator: Evaluator::new(weights.clone()),
        start: seed.tencent_start(),
    };
    let start = Instant::now();
    let total = target;
    let width = width(start);
    let mut progress = super::SearchProgress::with_deadline(total, start, width.deadline());
    let result = pool.install(|| {
        let report = |r: &_| progress.step(r);
        tencent_beam::search_within(&pieces, args.pieces, &cfg, width, &stop, report, None)
    });
    progress.finish();
    let wall_seconds = start.elapsed().as_secs_f64();
    if result.positions.is_empty() {
        return Err(no_record(&seed.name));
    }
    let text = format!("{}\n", result.record);
    io::write_atomic(&record_file, text.as_bytes())?;
    let mut checkpoints = Vec::new();
    let outcome = replay::replay_from(&cfg.start, &result.record, &pieces, |step| {
        if (step.index + 1) % CHECKPOINT_EVERY == 0 {
            checkpoints.push(step.score);
        }
    });
    if outcome.score != result.score as u64 {
        return Err(Error(format!(
            "bug: the search claims {} but its record {} replays to {}",
            result.score,
            record_file.display(),
            outcome.score
        )));
    }
    let (end, end_piece, stopped_by) = end_words(result.end);
    let record_short_because =
        (outcome.pieces < total).then(|| short_because(&result, outcome.pieces, total));
    let report = SolveReport {
        score: outcome.score,
        complete: result.complete,
        end,
        end_piece,
        stopped_by,
        game_pieces: seed.pieces,
        target_pieces: total,
        searched_pieces: result.placed,
        record_short_because,
        seed: seed.name.clone(),
        game: args.game.changes_game().then(|| seed.clone()),
        width: WidthReport::new(args, beam, result.widths),
        moves: args.moves,
        weights_name: args.weights.clone(),
        weights_read_as,
        weights,
        pieces: outcome.pieces,
        lines: outcome.lines,
        end_reason: outcome.end_reason,
        score_every_1000: checkpoints,
        cost: RunCost::measured(wall_seconds, load_at_start, threads, &record_file, run_info),
    };
    let json = write_report(&out, &report)?;
    eprintln!(
        "score {} (verified by replay), {}, {:.1} s{}; wrote {} and {}",
        report.score,
        crate::limits::plural(report.pieces as u64, "piece", "pieces"),
        wall_seconds,
        match result.end {
            SearchEnd::Finished => String::new(),
            SearchEnd::BeamEmptied { piece } =>
                format!(", incomplete: no line survives piece {piece}"),
            SearchEnd::Stopped { piece } => format!(", incomplete: stopped before piece {piece}"),
        },
        out.display(),
        record_file.display()
    );
    println!("{json}");
    Ok(())
}

/// The results file of a guideline solve.
#[derive(Serialize)]
pub struct GuidelineSolveReport {
    /// The objective's value under replay (equal to the search's own figure).
    pub score: u64,
    pub objective: Objective,
    /// Points, attack, pieces, lines, end reason, max combo, T-spins, perfect clears, ... of
    /// the replayed record.
    #[serde(flatten)]
    pub outcome: Outcome,
    /// Whether the 4-wide sub-strategy ranked the search's boards (`--no-fourwide` off).
    pub fourwide: bool,
    /// Combo runs of at least four clears that started on a 4-wide section.
    pub fourwide_sections: usize,
    /// The longest of those runs (clearing pieces).
    pub fourwide_longest: usize,
    pub attack_per_piece: f64,
    pub points_per_piece: f64,
    /// True when every piece asked for was searched (neither stopped nor emptied).
    pub complete: bool,
    /// The pieces the search set out to place (`--pieces`, at most the game's).
    pub target_pieces: usize,
    /// How the search ended: `finished`, `beam_emptied` or `stopped`, as on the Tencent game.
    pub end: &'static str,
    /// The 0-based piece at which no state survived (`beam_emptied`) or before which a
    /// signal stopped the search (`stopped`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub end_piece: Option<usize>,
    /// The signal that stopped it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stopped_by: Option<&'static str>,
    pub seed: String,
    pub game: Seed,
    /// The beam's width, and under `--time` the budget and the widths kept.
    #[serde(flatten)]
    pub width: WidthReport,
    pub weights_name: String,
    pub weights: GuidelineWeights,
    /// On a game of TETR.IO's generator: the record replayed on TETR.IO's engine, with
    /// TETR.IO's statistics (`garbage.attack` is the attack as TETR.IO counts it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tetrio_stats: Option<crate::games::tetrio::stats::TetrioStats>,
    /// Time, memory, threads, the record's path and the run's provenance.
    #[serde(flatten)]
    pub cost: RunCost,
}

/// The guideline weights `--weights NAME` stands for on a game of `rules`: the Tencent
/// default (and `tuned`, `tuned-b6000`, `tuned-b6000-i`, `tuned-b4000-i`, former defaults)
/// stands for the rules' preset ([`rules_preset`]).
pub(crate) fn guideline_weights_name(name: &str, rules: &crate::games::guideline::Rules) -> String {
    match name {
        "tuned"
        | "tuned-b6000"
        | "tuned-b6000-i"
        | "tuned-b4000-i"
        | crate::eval::tencent::DEFAULT_PRESET => rules_preset(rules).to_string(),
        name => name.to_string(),
    }
}

/// `solve` on a guideline game: the beam over board, hold, combo and back-to-back; the
/// figures come from replaying the record.
fn run_guideline(args: &Args, seed: &Seed) -> Result<()> {
    let game = seed.guideline_game().expect("a guideline seed");
    let (beam, width) = width_of(args, GUIDELINE_BEAM)?;
    if args.pieces == Some(0) {
        return Err(Error(format!(
            "--pieces 0: give at least 1 (the game {} has {})",
            seed.name,
            crate::limits::plural(seed.pieces as u64, "piece", "pieces")
        )));
    }
    let weights_name = guideline_weights_name(&args.weights, &game.rules);
    let weights = GuidelineWeights::resolve(&weights_name)?;
    let evaluator = GuidelineEvaluator::new(weights.clone());
    let (threads, pool) = super::thread_pool(args.threads)?;
    let steps = args.pieces.unwrap_or(game.length).min(game.length);
    let use_fourwide = !args.no_fourwide && args.fourwide.applies(&game.rules);
    let out = args.out.clone().unwrap_or_else(|| {
        PathBuf::from(format!(
            "runs/solve-{}-{}-p{}-{}{}.json",
            seed.name,
            width_tag(args, beam),
            steps,
            weights_name.replace(['/', '.'], "_"),
            if use_fourwide { "" } else { "-no-fourwide" }
        ))
    });
    let stop = super::stop_on_ctrl_c();
    let record_file = check_outputs(&args.game, &args.weights, &[], &out)?;
    let run_info = RunInfo::now();
    let load_at_start = load_average();
    eprintln!(
        "solving {}: {}, {}, weights {}; Ctrl-C or SIGTERM stops and keeps the best line \
         so far",
        seed.name,
        crate::limits::plural(steps as u64, "piece", "pieces"),
        width_words(args, beam),
        weights_name
    );
    let start = Instant::now();
    let width = width(start);
    let mut progress = super::SearchProgress::with_deadline(steps, start, width.deadline());
    let continuation = Continuation::for_locks(
        &game.pieces,
        steps,
        game.rules.combo_table,
        game.rules.objective,
    );
    let fourwide = use_fourwide.then_some(&continuation);
    let line = pool.install(|| {
        guideline::search(&game, steps, width, &evaluator, fourwide, &stop, |r| {
            progress.step(r)
        })
    });
    progress.finish();
    let wall_seconds = start.elapsed().as_secs_f64();
    if line.moves.is_empty() {
        return Err(no_record(&seed.name));
    }
    let record = guideline::record(&game, &line.moves);
    io::write_atomic(&record_file, format!("{record}\n").as_bytes())?;
    // Parse the text back as verify would: the file is what the figures are about.
    let reread = game
        .parse_record(&record.to_string())
        .map_err(|e| Error(format!("bug: the written record does not parse: {e}")))?;
    let mut sections = SectionCount::default();
    let outcome =
        guideline_replay::replay_with(&reread, &game, |e| sections.lock(e, &continuation));
    let score = match game.rules.objective {
        Objective::Points => outcome.points,
        Objective::Attack => outcome.attack,
    };
    if score != line.score as u64 || outcome.pieces != line.moves.len() {
        return Err(Error(format!(
            "bug: the search claims {} over {} pieces but its record {} replays to {} over {}",
            line.score,
            line.moves.len(),
            record_file.display(),
            score,
            outcome.pieces
        )));
    }
    let per_piece = |v: u64| {
        if outcome.pieces == 0 {
            0.0
        } else {
            v as f64 / outcome.pieces as f64
        }
    };
    let tetrio_stats =
        super::verify::tetrio_stats(seed, &reread, &record_file.display().to_string())?;
    let (end, end_piece, stopped_by) = end_words(line.end);
    let report = GuidelineSolveReport {
        tetrio_stats,
        score,
        objective: game.rules.objective,
        fourwide: fourwide.is_some(),
        fourwide_sections: sections.runs,
        fourwide_longest: sections.longest,
        attack_per_piece: per_piece(outcome.attack),
        points_per_piece: per_piece(outcome.points),
        outcome,
        complete: line.end == SearchEnd::Finished,
        target_pieces: steps,
        end,
        end_piece,
        stopped_by,
        seed: seed.name.clone(),
        game: seed.clone(),
        width: WidthReport::new(args, beam, line.widths),
        weights_name,
        weights,
        cost: RunCost::measured(wall_seconds, load_at_start, threads, &record_file, run_info),
    };
    let json = write_report(&out, &report)?;
    eprintln!(
        "{} {} (verified by replay): {} points, {} attack, {}, max combo {}, {}, {}, {}, {:.1} s; wrote {} and {}",
        report.score,
        report.objective.name(),
        report.outcome.points,
        report.outcome.attack,
        crate::limits::plural(report.outcome.pieces as u64, "piece", "pieces"),
        report.outcome.max_combo,
        crate::limits::plural(report.outcome.tspins as u64, "T-spin", "T-spins"),
        crate::limits::plural(report.outcome.perfect_clears as u64, "perfect clear", "perfect clears"),
        crate::limits::plural(report.fourwide_sections as u64, "4-wide section", "4-wide sections"),
        wall_seconds,
        out.display(),
        record_file.display()
    );
    if let Some(t) = &report.tetrio_stats {
        eprintln!(
            "on TETR.IO's engine and rules: {} attack, {} lines, {} T-spins, top back-to-back {}, top combo {}, {} all clears",
            t.garbage.attack, t.lines, t.tspins, t.topbtb, t.topcombo, t.clears.allclear
        );
    }
    println!("{json}");
    Ok(())
}
