//! The Tencent game as a [`Family`]: unit-move records, the board beam with the Tencent
//! evaluator, the replay's score and clears.

use super::solve::{self, Finish, Plan, Request, Solved};
use super::Family;
use crate::error::{Error, Result};
use crate::eval::tencent::{Evaluator, Weights};
use crate::game_def::GameDef;
use crate::games::registry::RuleSet;
use crate::games::tencent::movegen::MoveSet;
use crate::games::tencent::replay::{self, EndReason};
use crate::games::Piece;
use crate::record::Record;
use crate::search::beam::{SearchEnd, StepReport};
use crate::search::tencent::{self as tencent_beam, BeamConfig, BeamResult};
use crate::search::tuning::Tencent as Tuning;
use crate::search::width::Width;
use crate::show::frames::Replay;
use crate::show::game::TencentReplay as ShownGame;
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

/// A game of the Tencent rules: its seed file and its pieces.
pub struct TencentFamily {
    seed: GameDef,
    pieces: Vec<Piece>,
}

impl TencentFamily {
    pub fn new(seed: GameDef) -> TencentFamily {
        let pieces = seed.pieces();
        TencentFamily { seed, pieces }
    }
}

/// A solve's choices on the Tencent game.
pub struct TencentPlan {
    config: BeamConfig,
    weights_name: String,
    weights_read_as: String,
    weights: Weights,
    moves: MoveSet,
    limit: Option<usize>,
    changes_game: bool,
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
    pub game: Option<GameDef>,
    /// The beam's width, and under `--time` the budget and the widths kept.
    #[serde(flatten)]
    pub width: solve::WidthReport,
    pub moves: MoveSet,
    pub weights_name: String,
    /// Which kind of weights file was read (beam or player weights) or which preset.
    pub weights_read_as: String,
    pub weights: Weights,
    /// Pieces the record places.
    pub pieces: usize,
    pub lines: u64,
    pub end_reason: EndReason,
    /// Score of the replay after every 1000 pieces (1000, 2000, ...).
    pub score_every_1000: Vec<u64>,
    /// Time, memory, threads, the record's path and the run's provenance.
    #[serde(flatten)]
    pub cost: crate::results::RunCost,
}

/// What `verify` prints for a Tencent record.
#[derive(Serialize)]
pub struct Verified {
    score: u64,
    pieces: usize,
    lines: u64,
    end_reason: EndReason,
    /// Every piece of the record was played: the game did not end (top-out, blocked spawn,
    /// the sequence's end) while the record still had pieces to place.
    valid: bool,
    /// Clears of 1, 2, 3 and 4 lines.
    clears: [u64; 4],
    /// Mean cells on the board at a scoring lock, by lines cleared.
    mean_cells_at_clear: [f64; 4],
}

/// One Tencent lock, for `verify --trace`.
#[derive(Serialize)]
struct TracedLock {
    lock: usize,
    piece: crate::piece::Shape,
    /// Cells (x, y), y = 0 at the top as the Tencent game counts.
    cells: [(i8, i8); 4],
    rows: u32,
    points: u32,
    score: u64,
}

/// Pieces between two entries of `score_every_1000`.
const CHECKPOINT_EVERY: usize = 1000;

/// The default results path: every setting that changes the record is in the name (seed,
/// moves, beam, weights, pieces; not threads, which do not), under `runs/`, which git ignores.
fn default_out(
    seed: &str,
    request: &Request,
    beam: usize,
    weights: &Weights,
    target: usize,
) -> PathBuf {
    let width = solve::width_tag(request, beam);
    let moves = match request.moves {
        MoveSet::Drop => "drop",
        MoveSet::Reach => "reach",
    };
    let weights_tag = if Weights::preset(&request.weights).is_some() {
        request.weights.clone()
    } else {
        // A file: its stem and a hash of the weights it held, so editing the file and rerunning
        // does not replace the first run.
        let stem = Path::new(&request.weights)
            .file_stem()
            .map_or_else(|| "weights".into(), |s| s.to_string_lossy().into_owned());
        let json = serde_json::to_string(weights).expect("plain data serialises");
        format!("{stem}-{:08x}", crate::io::fnv1a(json.as_bytes()) as u32)
    };
    PathBuf::from(format!(
        "runs/solve-{seed}-{moves}-{width}-{weights_tag}-p{target}.json"
    ))
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

impl Family for TencentFamily {
    type Record = Record;
    type Verified = Verified;
    type Plan = TencentPlan;
    type Found = BeamResult;
    type Tuning = Tuning;

    fn seed(&self) -> &GameDef {
        &self.seed
    }

    fn read_record(&self, path: &Path, _command: &str) -> Result<Record> {
        crate::io::read_record(path)
    }

    fn verify(
        &self,
        record: &Record,
        _place: &str,
        mut trace: Option<&mut dyn FnMut(String)>,
    ) -> Result<Verified> {
        let mut clears = [0u64; 4];
        let mut cells = [0u64; 4];
        let start = self.seed.tencent_start();
        let outcome = replay::replay_from(&start, record, &self.pieces, |step| {
            if let Some(trace) = trace.as_mut() {
                let shape = step.piece.shape;
                trace(json_line(&TracedLock {
                    lock: step.index,
                    piece: shape,
                    cells: shape
                        .cells(step.pos.state)
                        .map(|(dx, dy)| (step.pos.x + dx, step.pos.y + dy)),
                    rows: step.lock.lines,
                    points: step.gain,
                    score: step.score,
                }));
            }
            if step.gain > 0 {
                let i = step.lock.lines as usize - 1;
                clears[i] += 1;
                cells[i] += step.lock.cells as u64;
            }
        });
        let mean = |i: usize| {
            if clears[i] == 0 {
                0.0
            } else {
                (cells[i] as f64 / clears[i] as f64 * 10.0).round() / 10.0
            }
        };
        Ok(Verified {
            score: outcome.score,
            pieces: outcome.pieces,
            lines: outcome.lines,
            end_reason: outcome.end_reason,
            valid: outcome.pieces >= record.pieces(),
            clears,
            mean_cells_at_clear: [mean(0), mean(1), mean(2), mean(3)],
        })
    }

    fn board_text(&self, record: &Record, at: Option<usize>) -> Result<String> {
        let game = self.shown(record)?;
        let k = at.unwrap_or(game.placed());
        game.check_count("--at", k)?;
        Ok(crate::show::text::render(&game, k))
    }

    fn frames(&self, record: &Record) -> Result<Replay> {
        Ok(Replay::from_tencent(&self.shown(record)?))
    }

    fn plan(&self, request: &Request) -> Result<Plan<TencentPlan>> {
        let seed = &self.seed;
        if seed.rules != RuleSet::Tencent {
            return Err(Error(format!(
                "solve plays the tencent rule set; the seed's rules are {:?}",
                seed.rules
            )));
        }
        if request.fourwide_given {
            return Err(Error(format!(
                "--fourwide/--no-fourwide: the game {} has no combos (tencent rules); they \
                 apply to guideline games",
                seed.name
            )));
        }
        solve::refuse_pps(request, &seed.name)?;
        let beam = solve::beam_of(request, solve::TENCENT_BEAM)?;
        let scoring = seed.placeable_pieces();
        if request.pieces == Some(0) {
            return Err(Error(format!(
                "--pieces 0: give at least 1 (the game {} has {}, of which {} score)",
                seed.name,
                crate::limits::plural(seed.pieces as u64, "piece", "pieces"),
                scoring
            )));
        }
        let target = request.pieces.unwrap_or(usize::MAX).min(scoring);
        let (weights, weights_read_as) = Weights::resolve_noted(&request.weights)?;
        let out = request
            .out
            .clone()
            .unwrap_or_else(|| default_out(&seed.name, request, beam, &weights, target));
        let weights_note = (!weights_read_as.starts_with("the "))
            .then(|| format!("weights: read {} as {weights_read_as}", request.weights));
        let start_line = format!(
            "solving {}: {}, {}, {} moves, weights {}; Ctrl-C or SIGTERM stops and keeps \
             the best line so far",
            seed.name,
            crate::limits::plural(target as u64, "piece", "pieces"),
            solve::width_words(request, beam),
            crate::report::moves_name(request.moves),
            request.weights
        );
        Ok(Plan {
            beam,
            time: request.time,
            steps: target,
            out,
            start_line,
            weights_note,
            family: TencentPlan {
                config: BeamConfig {
                    beam,
                    moves: request.moves,
                    evaluator: Evaluator::new(weights.clone()),
                    start: seed.tencent_start(),
                },
                weights_name: request.weights.clone(),
                weights_read_as,
                weights,
                moves: request.moves,
                limit: request.pieces,
                changes_game: request.changes_game,
            },
        })
    }

    fn search(
        &self,
        plan: &Plan<TencentPlan>,
        width: Width,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(&StepReport),
    ) -> BeamResult {
        let p = &plan.family;
        tencent_beam::search_within(
            &self.pieces,
            p.limit,
            &p.config,
            width,
            stop,
            progress,
            None,
        )
    }

    fn report(
        &self,
        plan: &Plan<TencentPlan>,
        result: BeamResult,
        record_file: &Path,
        finish: &dyn Fn() -> Finish,
    ) -> Result<Option<Solved>> {
        if result.positions.is_empty() {
            return Ok(None);
        }
        let p = &plan.family;
        let text = format!("{}\n", result.record);
        crate::io::write_atomic(record_file, text.as_bytes())?;
        let mut checkpoints = Vec::new();
        let outcome = replay::replay_from(&p.config.start, &result.record, &self.pieces, |step| {
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
        let total = plan.steps;
        let (end, end_piece, stopped_by) = solve::end_words(result.end);
        let record_short_because =
            (outcome.pieces < total).then(|| short_because(&result, outcome.pieces, total));
        let finish = finish();
        let report = SolveReport {
            score: outcome.score,
            complete: result.complete,
            end,
            end_piece,
            stopped_by,
            game_pieces: self.seed.pieces,
            target_pieces: total,
            searched_pieces: result.placed,
            record_short_because,
            seed: self.seed.name.clone(),
            game: p.changes_game.then(|| self.seed.clone()),
            width: plan.width_report(result.widths),
            moves: p.moves,
            weights_name: p.weights_name.clone(),
            weights_read_as: p.weights_read_as.clone(),
            weights: p.weights.clone(),
            pieces: outcome.pieces,
            lines: outcome.lines,
            end_reason: outcome.end_reason,
            score_every_1000: checkpoints,
            cost: finish.cost,
        };
        let json = serde_json::to_string_pretty(&report).expect("plain data serialises");
        let summary = format!(
            "score {} (verified by replay), {}, {:.1} s{}; wrote {} and {}",
            report.score,
            crate::limits::plural(report.pieces as u64, "piece", "pieces"),
            finish.wall_seconds,
            match result.end {
                SearchEnd::Finished => String::new(),
                SearchEnd::BeamEmptied { piece } =>
                    format!(", incomplete: no line survives piece {piece}"),
                SearchEnd::Stopped { piece } =>
                    format!(", incomplete: stopped before piece {piece}"),
            },
            finish.out.display(),
            record_file.display()
        );
        Ok(Some(Solved { json, summary }))
    }

    fn tuning(&self, _pieces: usize, _previews: Option<usize>) -> Result<Tuning> {
        Ok(Tuning {
            pieces: self.pieces.clone(),
            start: self.seed.tencent_start(),
        })
    }
}

impl TencentFamily {
    /// The replay the views draw.
    fn shown(&self, record: &Record) -> Result<ShownGame> {
        ShownGame::replay_from(&self.seed.tencent_start(), record, self.pieces.clone())
    }
}

/// `value` as one line of JSON.
pub(super) fn json_line(value: &impl Serialize) -> String {
    serde_json::to_string(value).expect("plain data serialises")
}
