//! A game of TETR.IO's own rules as a [`Family`]: a game file with a `"tetrio"` part (an
//! imported replay's round, a solo mode). Its records replay on TETR.IO's engine, frame by
//! frame with the garbage the player received, so `verify` and `show` give the game as it was
//! played. A solve plays the same pieces and options alone (no received garbage, the
//! search's own clock): the guideline search on the game's rules, its record replayed on
//! TETR.IO's engine for every figure TETR.IO states.

use super::guideline::{GuidelineFamily, GuidelinePlan};
use super::solve::{self, Finish, Plan, Request, Solved};
use super::Family;
use crate::error::{Error, Result};
use crate::game_def::GameDef;
use crate::games::guideline::Objective;
use crate::games::tetrio::blitz::{time_ms, Blitz, DEFAULT_PPS};
use crate::games::tetrio::engine::Engine;
use crate::games::tetrio::export::Exported;
use crate::games::tetrio::game::TetrioGame;
use crate::games::tetrio::options::Options;
use crate::games::tetrio::stats::RecordStats;
use crate::record::Record;
use crate::search::beam::{Line, StepReport};
use crate::search::guideline::Move;
use crate::search::tuning::Guideline as Tuning;
use crate::search::width::Width;
use crate::show::frames::{Replay, SoloFigures};
use crate::show::tetrio_frames::TetrioState;
use serde::Serialize;
use std::path::Path;
use std::sync::atomic::AtomicBool;

/// Previews the views show, as TETR.IO does by default.
const PREVIEWS: usize = 5;

/// A game of TETR.IO's rules: the game file, its TETR.IO part, and the guideline game that
/// solves it alone.
pub struct TetrioFamily {
    seed: GameDef,
    tetrio: TetrioGame,
    /// The same pieces and options played alone (no received garbage, no lock times, the
    /// search's spawn): what `solve` plays and its results file holds.
    alone: GuidelineFamily,
}

/// The results file of a solve of a game of TETR.IO's rules: every figure is TETR.IO's, from
/// the record replayed on TETR.IO's engine.
#[derive(Serialize)]
pub struct SolveReport {
    /// The objective's value as TETR.IO counts it.
    pub score: u64,
    pub objective: Objective,
    /// A BLITZ game's pace (`--pps`), pieces a second: the game (`"game"`) holds each
    /// piece's lock frame at that pace.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pps: Option<f64>,
    /// A BLITZ game's upper bound on the score at that pace (docs/tetrio.md), and the
    /// score's fraction of it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bound: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fraction_of_bound: Option<f64>,
    pub pieces: usize,
    pub lines: u64,
    pub attack: u64,
    /// How the search ended.
    #[serde(flatten)]
    pub ending: super::solve::Ending,
    pub seed: String,
    /// The game solved: the game file's pieces and options, played alone.
    pub game: GameDef,
    #[serde(flatten)]
    pub width: super::solve::WidthReport,
    pub weights_name: String,
    pub weights: crate::eval::guideline::GuidelineWeights,
    pub tetrio_stats: RecordStats,
    #[serde(flatten)]
    pub cost: crate::results::RunCost,
}

/// What `verify` prints for a game of TETR.IO's rules: the record replayed on TETR.IO's engine.
#[derive(Serialize)]
pub struct Verified {
    /// Pieces locked.
    pub pieces: usize,
    pub lines: u64,
    /// Attack as TETR.IO counts it.
    pub attack: u64,
    /// `record_end`, or `topped_out` when a spawn was blocked.
    pub end_reason: &'static str,
    /// Every piece of the record was played: the game was not lost while the record still
    /// had pieces to place.
    pub valid: bool,
    /// TETR.IO's statistics by its own names (`docs/tetrio.md`).
    pub tetrio_stats: RecordStats,
}

impl TetrioFamily {
    /// The TETR.IO game `seed` defines, if it has a `"tetrio"` part and guideline rules.
    pub fn of(seed: &GameDef) -> Option<TetrioFamily> {
        let tetrio = seed.tetrio.clone()?;
        let mut alone = seed.clone();
        alone.tetrio = Some(tetrio.alone());
        Some(TetrioFamily {
            alone: GuidelineFamily::of(&alone)?,
            seed: seed.clone(),
            tetrio,
        })
    }

    /// Refuses `command` (a search or a player) on a game it cannot plan for. The searches
    /// and players place pieces without a clock, so the rows a survival game raises on its
    /// own (by time, under the piece in play) are not theirs to plan around; import, verify,
    /// show and export play such a game exactly.
    pub fn refuse_unplannable(&self, command: &str) -> Result<()> {
        let name = &self.seed.name;
        match self.tetrio.parsed_options(name)?.survival {
            Some(_) => Err(Error(format!(
                "the game {name} raises survival garbage (options.survivalmode timer): \
                 {command} does not plan for it (import, verify, show and export replay it \
                 exactly)"
            ))),
            None => Ok(()),
        }
    }

    /// The record replayed on TETR.IO's engine, and the game after each lock (the first
    /// before any).
    fn replay(&self, record: &Record, place: &str) -> Result<(Engine, Vec<TetrioState>)> {
        let mut states = Vec::new();
        let engine = self
            .tetrio
            .replay_observed(&record.path_letters(), place, |e| {
                states.push(TetrioState {
                    snapshot: e.snapshot(PREVIEWS),
                    points: e.stats.score,
                    lines: e.stats.lines as u64,
                    attack: e.stats.garbage.attack as u64,
                    solo: SoloFigures::of(&e.stats),
                })
            })?;
        Ok((engine, states))
    }

    /// The pace the game file was played at: an import's pieces over its final time, else
    /// [`DEFAULT_PPS`].
    fn own_pace(&self) -> f64 {
        match self.tetrio.final_time {
            Some(ms) if ms > 0. && !self.tetrio.locks.is_empty() => {
                self.tetrio.locks.len() as f64 * 1000. / ms
            }
            _ => DEFAULT_PPS,
        }
    }

    /// `seed` played at `pps` pieces a second: on a TETR.IO game timed with levels (BLITZ),
    /// the game a solve at that pace plays and its results file holds (the pieces the pace
    /// places, each locking at its time on the pace), so `verify`, `show` and `export` of its
    /// record play the game it was solved on. `None` on another game, whose replay does not
    /// depend on a pace.
    pub fn paced_game(seed: &GameDef, pps: f64) -> Result<Option<GameDef>> {
        let Some(game) = TetrioFamily::of(seed) else {
            return Ok(None);
        };
        let options = game.tetrio.parsed_options(&seed.name)?;
        let blitz = Blitz::of(&options, pps, &format!("the game {}", seed.name))?;
        Ok(blitz.map(|b| game.solved_game(Some(&b))))
    }

    /// The game a solve plays and its results file holds: the pieces and options alone, and
    /// on a BLITZ game each piece's lock frame at the pace.
    fn solved_game(&self, blitz: Option<&Blitz>) -> GameDef {
        let mut seed = self.alone.seed().clone();
        if let (Some(b), Some(t)) = (blitz, seed.tetrio.as_mut()) {
            let ms = Options::parse(&t.options, "the game")
                .ok()
                .and_then(|o| time_ms(&o))
                .expect("a BLITZ game is timed");
            *t = b.paced(t, ms);
        }
        seed
    }

    /// The views' replay of `record`.
    fn replay_view(&self, record: &Record, place: &str) -> Result<Replay> {
        let (engine, states) = self.replay(record, place)?;
        let end = if engine.topped_out {
            "topped out"
        } else {
            "end of record"
        };
        let mut replay =
            Replay::from_tetrio(&states, &engine.locks, &engine.stats, self.seed.pieces, end)?;
        if let Some(solo) = replay.solo.as_mut() {
            solo.keys_known = self.tetrio.keys_known();
            solo.time_known = self.tetrio.times_known();
        }
        Ok(replay)
    }
}

impl Family for TetrioFamily {
    type Record = Record;
    type Verified = Verified;
    type Plan = GuidelinePlan;
    type Found = Line<Move>;
    type Tuning = Tuning;

    fn seed(&self) -> &GameDef {
        &self.seed
    }

    fn read_record(&self, path: &Path, command: &str) -> Result<Record> {
        self.alone.read_record(path, command)
    }

    fn verify(
        &self,
        record: &Record,
        place: &str,
        mut trace: Option<&mut dyn FnMut(String)>,
    ) -> Result<Verified> {
        let (engine, _) = self.replay(record, place)?;
        if let Some(trace) = trace.as_mut() {
            for (k, l) in engine.locks.iter().enumerate() {
                trace(super::tencent::json_line(&serde_json::json!({
                    "lock": k, "frame": l.frame, "piece": crate::games::tetrio::pieces::LETTERS[l.piece as usize].to_string(),
                    "x": l.x, "y": l.y, "rotation": l.rotation, "held": l.held, "lines": l.lines,
                    "spin": format!("{:?}", l.spin), "allclear": l.allclear, "attack": l.attack, "sent": l.sent,
                })));
            }
        }
        let stats = engine.stats.clone();
        Ok(Verified {
            pieces: engine.locks.len(),
            lines: stats.lines as u64,
            attack: stats.garbage.attack as u64,
            end_reason: if engine.topped_out {
                "topped_out"
            } else {
                "record_end"
            },
            valid: engine.locks.len() >= record.pieces(),
            tetrio_stats: self.tetrio.record_stats(stats),
        })
    }

    fn board_text(&self, record: &Record, at: Option<usize>) -> Result<String> {
        let replay = self.replay_view(record, "the record")?;
        let k = at.unwrap_or(replay.placed());
        replay.check_count("--at", k)?;
        Ok(crate::show::tetrio_frames::render(&replay, k))
    }

    fn frames(&self, record: &Record) -> Result<Replay> {
        self.replay_view(record, "the record")
    }

    fn plan(&self, request: &Request) -> Result<Plan<GuidelinePlan>> {
        let name = &self.seed.name;
        self.refuse_unplannable("solve")?;
        let options = self.tetrio.parsed_options(name)?;
        let pps = request.pps.unwrap_or_else(|| self.own_pace());
        let Some(blitz) = Blitz::of(&options, pps, &format!("the game {name}"))? else {
            solve::refuse_pps(request, name)?;
            return self.alone.plan(request);
        };
        let length = self.alone.seed().pieces;
        if blitz.pieces > length {
            return Err(Error(format!(
                "--pps {}: {} in the game's time, but the game {name} has {length} (use \
                 seeds/tetrio-blitz.json with --tetrio-seed for a longer one)",
                crate::limits::short_number(pps),
                crate::limits::plural(blitz.pieces as u64, "piece", "pieces")
            )));
        }
        let mut paced = request.clone();
        paced.pps = None;
        if paced.weights == crate::eval::tencent::DEFAULT_PRESET {
            paced.weights = "blitz".into();
        }
        paced.pieces = Some(request.pieces.unwrap_or(blitz.pieces).min(blitz.pieces));
        let mut plan = self.alone.plan(&paced)?;
        plan.start_line = format!(
            "{} (TETR.IO's points at {pps:.4} pieces a second: {} in the game's time)",
            plan.start_line, blitz.pieces
        );
        plan.family.blitz = Some(blitz);
        Ok(plan)
    }

    fn search(
        &self,
        plan: &Plan<GuidelinePlan>,
        width: Width,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(&StepReport),
    ) -> Line<Move> {
        self.alone.search(plan, width, stop, progress)
    }

    fn report(
        &self,
        plan: &Plan<GuidelinePlan>,
        line: Line<Move>,
        record_file: &Path,
        finish: &dyn Fn() -> Finish,
    ) -> Result<Option<Solved>> {
        let Some(written) = self.alone.write_line(plan, &line, record_file)? else {
            return Ok(None);
        };
        let blitz = plan.family.blitz.as_ref();
        let alone = &self.solved_game(blitz);
        let place = record_file.display().to_string();
        let stats = super::guideline::tetrio_stats(alone, &written.record, &place)?
            .expect("a game of TETR.IO's rules has TETR.IO's statistics");
        if blitz.is_some() && stats.score != line.score as u64 {
            return Err(Error(format!(
                "bug: the search claims {} points but its record {} replays to {} on TETR.IO's \
                 engine",
                line.score,
                record_file.display(),
                stats.score
            )));
        }
        let objective = alone.guideline_rules().expect("guideline rules").objective;
        let bound = blitz.map(|b| {
            let shapes = self.alone.game().pieces.iter().take(b.pieces + 1);
            b.bound(shapes.filter(|&&p| p == crate::piece::Shape::T).count())
        });
        let finish = finish();
        let report = SolveReport {
            score: match objective {
                Objective::Lines => stats.lines as u64,
                Objective::Attack => stats.garbage.attack as u64,
                Objective::Points => stats.score,
            },
            objective,
            pps: blitz.map(|b| b.pps),
            bound,
            fraction_of_bound: bound.map(|b| stats.score as f64 / b as f64),
            pieces: stats.piecesplaced as usize,
            lines: stats.lines as u64,
            attack: stats.garbage.attack as u64,
            ending: super::solve::Ending::of(line.end, plan.steps),
            seed: alone.name.clone(),
            game: alone.clone(),
            width: plan.width_report(line.widths),
            weights_name: plan.family.weights_name.clone(),
            weights: plan.family.weights.clone(),
            tetrio_stats: stats,
            cost: finish.cost,
        };
        let s = &report.tetrio_stats;
        let summary = format!(
            "{} {} (TETR.IO's engine, verified by replay): {}, {} lines, score {}, {} attack, {}, top combo {}, top back-to-back {}, {}, {:.1} s; wrote {} and {}",
            report.score,
            objective.name(),
            crate::limits::plural(report.pieces as u64, "piece", "pieces"),
            s.lines,
            s.score,
            s.garbage.attack,
            crate::limits::plural(s.tspins as u64, "T-spin", "T-spins"),
            s.topcombo,
            s.topbtb,
            crate::limits::plural(s.clears.allclear as u64, "all clear", "all clears"),
            finish.wall_seconds,
            finish.out.display(),
            record_file.display()
        );
        let mut summary = summary;
        if let (Some(b), Some(f)) = (report.bound, report.fraction_of_bound) {
            summary.push_str(&format!(
                "\nBLITZ at {:.4} pieces a second: the score is {f:.3} of the bound {b}",
                report.pps.unwrap_or_default()
            ));
        }
        let json = serde_json::to_string_pretty(&report).expect("plain data serialises");
        Ok(Some(Solved { json, summary }))
    }

    fn tuning(&self, pieces: usize, previews: Option<usize>) -> Result<Tuning> {
        self.refuse_unplannable("tune")?;
        self.alone.tuning(pieces, previews)
    }

    fn export(
        &self,
        record: &Record,
        pps: Option<f64>,
        record_place: &str,
        game_place: &str,
    ) -> Result<Exported> {
        super::export::export_on(&self.seed, record, pps, record_place, game_place)
    }
}
