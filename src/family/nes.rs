//! A NES game (TetrisGYM's seeded pieces, `rules: "nes"`) as a [`Family`]: records of buttons
//! frame by frame, replayed on the NES engine from the game's start (`games::nes::replay`);
//! the beam over boards, line count and level with the placements the game's speed reaches
//! under each level's gravity (`search::nes`), to the line target.

use super::solve::{self, Finish, Plan, Request, Solved};
use super::Family;
use crate::error::{Error, Result};
use crate::eval::nes::{NesEvaluator, NesWeights};
use crate::game_def::{GameDef, Generator};
use crate::games::nes::game::{all_tetris_score, NesGame, NesOptions};
use crate::games::nes::movegen::{inputs, Speed};
use crate::games::nes::orientation::cells;
use crate::games::nes::record::{NesRecord, PieceInputs};
use crate::games::nes::replay::{replay, LockEvent, Outcome};
use crate::games::registry::RuleSet;
use crate::piece::Shape;
use crate::search::beam::{Line, StepReport};
use crate::search::nes::{self as nes_beam, Move, NesBeam};
use crate::search::tuning::Tencent as Tuning;
use crate::search::width::Width;
use crate::show::block::Block;
use crate::show::frames::{Frame, Lock, Replay, Row};
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

/// `--beam` when not given on a NES game: a 230-line solve from level 18 in about 5 minutes
/// on a 2-core machine (results/nes/solve/README.md).
pub const NES_BEAM: usize = crate::games::nes::family::FAMILY.default_beam;

/// A NES game: its game file and the game it defines.
pub struct NesFamily {
    seed: GameDef,
    game: NesGame,
}

impl NesFamily {
    /// The NES game `seed` defines, if its rules are `nes` (a seed file read through
    /// [`GameDef::parse`] has a checked GYM seed and options).
    pub fn of(seed: &GameDef) -> Option<Result<NesFamily>> {
        if seed.rules != RuleSet::Nes {
            return None;
        }
        let Generator::Gym { seed: gym } = &seed.generator else {
            return Some(Err(Error(
                "generator: a NES game deals TetrisGYM's pieces".into(),
            )));
        };
        let options = seed.nes.unwrap_or_default();
        Some(
            NesGame::new(gym, options, seed.pieces).map(|game| NesFamily {
                seed: seed.clone(),
                game,
            }),
        )
    }

    fn options(&self) -> NesOptions {
        self.game.options
    }

    /// Replays `record`, an error naming `place`.
    fn replay(&self, record: &NesRecord, on_lock: impl FnMut(&LockEvent)) -> Result<Outcome> {
        replay(&self.game, record, on_lock).map_err(|e| Error::at("the record", e))
    }

    /// The record's replay as the views draw it.
    fn view(&self, record: &NesRecord) -> Result<Replay> {
        let speed = self.options().speed.name();
        let note = |level: u8| format!("level {level}  speed {speed}");
        let mut colours: Vec<[Option<Shape>; 10]> = vec![[None; 10]; 20];
        let mut frames = vec![Frame {
            rows: vec![[None; 10]; 20],
            score: 0,
            lines: 0,
            next: self.game.pieces.first().copied().into_iter().collect(),
            chains: None,
            note: Some(note(self.options().level)),
        }];
        let mut locks = Vec::new();
        let outcome = self.replay(record, |e| {
            let lock_cells = cells(e.orientation);
            let mut placed = [(0i8, 0i8); 4];
            for (i, &(dx, dy)) in lock_cells.iter().enumerate() {
                let (x, y) = (e.x + dx, e.y + dy);
                placed[i] = (x, 19 - y);
                if (0..20).contains(&y) && (0..10).contains(&x) {
                    colours[y as usize][x as usize] = Some(e.shape);
                }
            }
            colours.retain(|row| row.iter().any(|c| c.is_none()));
            while colours.len() < 20 {
                colours.insert(0, [None; 10]);
            }
            let rows: Vec<Row> = (0..20)
                .rev()
                .map(|y| {
                    std::array::from_fn(|x| {
                        e.playfield
                            .get(x, y)
                            .then(|| colours[y][x].map_or(Block::Start, Block::Piece))
                    })
                })
                .collect();
            frames.push(Frame {
                rows,
                score: e.score,
                lines: u64::from(e.lines),
                next: self
                    .game
                    .pieces
                    .get(e.piece + 1)
                    .copied()
                    .into_iter()
                    .collect(),
                chains: None,
                note: Some(note(e.level)),
            });
            locks.push(Lock {
                piece: e.shape,
                cells: placed,
                gain: e.gain,
                attack: None,
                held: false,
            });
        })?;
        Ok(Replay {
            height: 20,
            visible: 20,
            total: record.pieces.len(),
            frames,
            locks,
            solo: None,
            end: match outcome.end_reason {
                "lines_reached" => "line target reached",
                "topped_out" => "topped out",
                _ => "end of record",
            },
        })
    }

    /// The record of a found line.
    fn record_of(&self, moves: &[Move]) -> NesRecord {
        let speed = self.options().speed;
        NesRecord {
            speed,
            pieces: moves
                .iter()
                .zip(&self.game.pieces)
                .map(|(m, &shape)| PieceInputs {
                    shape,
                    inputs: inputs(speed, m.turns, m.shifts),
                })
                .collect(),
        }
    }
}

/// A solve's choices on a NES game.
pub struct NesPlan {
    weights_name: String,
    weights: NesWeights,
    evaluator: NesEvaluator,
}

/// What `verify` prints for a NES game: the record replayed frame by frame.
#[derive(Serialize)]
pub struct Verified {
    #[serde(flatten)]
    outcome: Outcome,
    /// The starting level, the speed and the line target of the game.
    start_level: u8,
    speed: Speed,
    target_lines: u32,
    /// The score of the lines cleared had every one been part of a four-line clear, and the
    /// share of it the record made.
    all_tetris_score: u64,
    all_tetris_fraction: f64,
}

impl Verified {
    fn of(outcome: Outcome, options: NesOptions) -> Verified {
        let all = all_tetris_score(options.level, outcome.lines);
        Verified {
            all_tetris_fraction: if all == 0 {
                0.0
            } else {
                outcome.score as f64 / all as f64
            },
            all_tetris_score: all,
            outcome,
            start_level: options.level,
            speed: options.speed,
            target_lines: options.lines,
        }
    }
}

/// The results file of a NES solve.
#[derive(Serialize)]
pub struct NesSolveReport {
    /// The record replayed (the score is TetrisGYM's classic score, uncapped).
    #[serde(flatten)]
    pub verified: Verified,
    /// How the search ended.
    #[serde(flatten)]
    pub ending: solve::Ending,
    pub seed: String,
    pub game: GameDef,
    #[serde(flatten)]
    pub width: solve::WidthReport,
    pub weights_name: String,
    pub weights: NesWeights,
    #[serde(flatten)]
    pub cost: crate::results::RunCost,
}

impl Family for NesFamily {
    type Record = NesRecord;
    type Verified = Verified;
    type Plan = NesPlan;
    type Found = Line<Move>;
    type Tuning = Tuning;

    fn seed(&self) -> &GameDef {
        &self.seed
    }

    fn read_record(&self, path: &Path, _command: &str) -> Result<NesRecord> {
        let text = crate::io::read_text(path)?;
        NesRecord::parse(&text).map_err(|e| Error::at(path.display(), e))
    }

    fn verify(
        &self,
        record: &NesRecord,
        place: &str,
        mut trace: Option<&mut dyn FnMut(String)>,
    ) -> Result<Verified> {
        let outcome = replay(&self.game, record, |e| {
            if let Some(trace) = trace.as_mut() {
                trace(super::tencent::json_line(&serde_json::json!({
                    "lock": e.piece, "piece": e.shape.letter().to_string(), "frame": e.frame,
                    "orientation": e.orientation, "x": e.x, "y": e.y, "cleared": e.cleared,
                    "lines": e.lines, "level": e.level, "gain": e.gain, "score": e.score,
                })));
            }
        })
        .map_err(|e| Error::at(place, e))?;
        Ok(Verified::of(outcome, self.options()))
    }

    fn board_text(&self, record: &NesRecord, at: Option<usize>) -> Result<String> {
        let replay = self.view(record)?;
        let k = at.unwrap_or(replay.placed());
        replay.check_count("--at", k)?;
        let f = &replay.frames[k];
        let o = self.options();
        let level = if k == 0 {
            o.level
        } else {
            // the level after lock k, as the replay counted it
            let mut level = o.level;
            self.replay(record, |e| {
                if e.piece + 1 == k {
                    level = e.level;
                }
            })?;
            level
        };
        let mut out = format!(
            "lock {k}/{}  score {}  lines {}  level {level}  speed {}\nnext {}\n",
            replay.total,
            f.score,
            f.lines,
            o.speed.name(),
            f.next.first().map_or('-', |s| s.letter())
        );
        for row in f.rows.iter().rev() {
            let text: String = row.iter().map(|c| c.map_or('.', |b| b.letter())).collect();
            out.push_str(&text);
            out.push('\n');
        }
        if k == replay.placed() {
            out.push_str(&format!("end: {}\n", replay.end));
        }
        Ok(out)
    }

    fn frames(&self, record: &NesRecord) -> Result<Replay> {
        self.view(record)
    }

    fn plan(&self, request: &Request) -> Result<Plan<NesPlan>> {
        let seed = &self.seed;
        if request.fourwide_given {
            return Err(Error(format!(
                "--fourwide: the 4-wide sub-strategy is for guideline games; {} is a NES game",
                seed.name
            )));
        }
        let beam = solve::beam_of(request, NES_BEAM)?;
        if request.pieces == Some(0) {
            return Err(Error("--pieces 0: give at least 1".into()));
        }
        let weights_name = match request.weights.as_str() {
            crate::eval::tencent::DEFAULT_PRESET => "nes".to_string(),
            name => name.to_string(),
        };
        let weights = NesWeights::resolve(&weights_name)?;
        let steps = request.pieces.unwrap_or(seed.pieces).min(seed.pieces);
        let o = self.options();
        let out = request.out.clone().unwrap_or_else(|| {
            PathBuf::from(format!(
                "runs/solve-{}-{}-{}-l{}-{}.json",
                seed.name,
                o.speed.name(),
                solve::width_tag(request, beam),
                o.lines,
                weights_name.replace(['/', '.'], "_"),
            ))
        });
        let start_line = format!(
            "solving {}: NES from level {} at {} to {} lines (at most {}), {}, weights {}; \
             Ctrl-C or SIGTERM stops and keeps the best line so far",
            seed.name,
            o.level,
            o.speed.name(),
            o.lines,
            crate::limits::plural(steps as u64, "piece", "pieces"),
            solve::width_words(request, beam),
            weights_name
        );
        Ok(Plan {
            beam,
            time: request.time,
            steps,
            out,
            start_line,
            weights_note: None,
            family: NesPlan {
                evaluator: NesEvaluator::new(&weights),
                weights_name,
                weights,
            },
        })
    }

    fn search(
        &self,
        plan: &Plan<NesPlan>,
        width: Width,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(&StepReport),
    ) -> Line<Move> {
        let o = self.options();
        let game = NesBeam {
            pieces: &self.game.pieces,
            level: o.level,
            speed: o.speed,
            target: o.lines,
            steps: plan.steps,
            evaluator: &plan.family.evaluator,
        };
        nes_beam::search(&game, width, stop, progress)
    }

    fn report(
        &self,
        plan: &Plan<NesPlan>,
        line: Line<Move>,
        record_file: &Path,
        finish: &dyn Fn() -> Finish,
    ) -> Result<Option<Solved>> {
        if line.moves.is_empty() {
            return Ok(None);
        }
        let record = self.record_of(&line.moves);
        crate::io::write_atomic(record_file, record.text().as_bytes())?;
        let place = record_file.display().to_string();
        let reread = self.read_record(record_file, "solve")?;
        let verified = self.verify(&reread, &place, None)?;
        if verified.outcome.score != u64::from(line.score) {
            return Err(Error(format!(
                "{place}: the replay scores {}, the search {}: the move generator and the \
                 engine disagree",
                verified.outcome.score, line.score
            )));
        }
        let finish = finish();
        let p = &plan.family;
        let v = &verified;
        let summary = format!(
            "score {} (verified by replay, {:.2} % of the all-tetris {}): {} lines, level {}, {}, {}, {:.1} s; wrote {} and {}",
            v.outcome.score,
            100.0 * v.all_tetris_fraction,
            v.all_tetris_score,
            v.outcome.lines,
            v.outcome.level,
            crate::limits::plural(v.outcome.pieces as u64, "piece", "pieces"),
            v.outcome.end_reason,
            finish.wall_seconds,
            finish.out.display(),
            record_file.display()
        );
        let report = NesSolveReport {
            verified,
            ending: solve::Ending::of(line.end, plan.steps),
            seed: self.seed.name.clone(),
            game: self.seed.clone(),
            width: plan.width_report(line.widths),
            weights_name: p.weights_name.clone(),
            weights: p.weights.clone(),
            cost: finish.cost,
        };
        let json = serde_json::to_string_pretty(&report).expect("plain data serialises");
        Ok(Some(Solved { json, summary }))
    }

    fn tuning(&self, _pieces: usize, _previews: Option<usize>) -> Result<Tuning> {
        Err(self
            .seed
            .family()
            .refuse(crate::games::registry::Capability::Tune, &self.seed.name))
    }
}
