//! A Guideline game as a [`Family`]: SRS records with hold, the beam over board, hold, combo
//! and back-to-back with the guideline evaluator (and the 4-wide sub-strategy), the replay's
//! points and attack, and TETR.IO's statistics on a game of TETR.IO's generator.

use super::solve::{self, Finish, FourwideUse, Plan, Request, Solved};
use super::tencent::json_line;
use super::Family;
use crate::error::{Error, Result};
use crate::eval::guideline::{rules_preset, GuidelineEvaluator, GuidelineWeights};
use crate::fourwide::continuation::{Continuation, SectionCount};
use crate::game_def::GameDef;
use crate::games::guideline::replay::{self as guideline_replay, GuidelineGame, Outcome};
use crate::games::guideline::Objective;
use crate::games::tetrio::blitz::Blitz;
use crate::games::tetrio::stats::RecordStats;
use crate::record::Record;
use crate::search::beam::{Line, StepReport};
use crate::search::guideline::{self as guideline_beam, Move};
use crate::search::tuning::Guideline as Tuning;
use crate::search::width::Width;
use crate::show::frames::Replay;
use crate::show::guideline_text::{self, GuidelinePlayback};
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

/// A game of the guideline rules: its seed file and the game it defines.
pub struct GuidelineFamily {
    seed: GameDef,
    game: GuidelineGame,
}

impl GuidelineFamily {
    /// The guideline game `seed` defines, if its rules are a guideline family's.
    pub fn of(seed: &GameDef) -> Option<GuidelineFamily> {
        Some(GuidelineFamily {
            game: seed.guideline_game()?,
            seed: seed.clone(),
        })
    }
}

/// A solve's choices on a guideline game.
pub struct GuidelinePlan {
    pub(super) weights_name: String,
    pub(super) weights: GuidelineWeights,
    evaluator: GuidelineEvaluator,
    continuation: Continuation,
    use_fourwide: bool,
    /// A timed TETR.IO game with levels played for its points at a pace (set by the TETR.IO
    /// family; `None` on every other game).
    pub(super) blitz: Option<Blitz>,
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
    /// How the search ended.
    #[serde(flatten)]
    pub ending: solve::Ending,
    pub seed: String,
    pub game: GameDef,
    /// The beam's width, and under `--time` the budget and the widths kept.
    #[serde(flatten)]
    pub width: solve::WidthReport,
    pub weights_name: String,
    pub weights: GuidelineWeights,
    /// On a game of TETR.IO's generator: the record replayed on TETR.IO's engine, with
    /// TETR.IO's statistics (`garbage.attack` is the attack as TETR.IO counts it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tetrio_stats: Option<RecordStats>,
    /// Time, memory, threads, the record's path and the run's provenance.
    #[serde(flatten)]
    pub cost: crate::results::RunCost,
}

/// What `verify` prints for a guideline game.
#[derive(Serialize)]
pub struct Verified {
    #[serde(flatten)]
    outcome: Outcome,
    /// The game's objective and its value.
    objective: Objective,
    score: u64,
    /// Every piece of the record was played: the game did not end (lock out, block out)
    /// while the record still had pieces to place. As on the Tencent game.
    valid: bool,
    /// On a game of TETR.IO's generator: the record replayed on TETR.IO's engine under its
    /// rules (the game file's `tetrio` options, or today's versus rules played alone), with
    /// TETR.IO's statistics by its own names (`docs/tetrio.md`).
    #[serde(skip_serializing_if = "Option::is_none")]
    tetrio_stats: Option<RecordStats>,
}

/// The guideline weights `--weights NAME` stands for on a game of `rules`: the default (the
/// Tencent game's, which `--weights` shows when not given) stands for the rules' preset
/// ([`rules_preset`]).
pub fn weights_name(name: &str, rules: &crate::games::guideline::Rules) -> String {
    match name {
        crate::eval::tencent::DEFAULT_PRESET => rules_preset(rules).to_string(),
        name => name.to_string(),
    }
}

/// TETR.IO's statistics of a record on a game of TETR.IO's generator (`None` on others): the
/// record replayed on TETR.IO's engine under the game file's `tetrio` options, or today's
/// versus rules played alone.
pub fn tetrio_stats(seed: &GameDef, record: &Record, place: &str) -> Result<Option<RecordStats>> {
    let Some(game) = seed.tetrio_game().filter(|_| seed.start.is_none()) else {
        return Ok(None);
    };
    let e = game.replay(&record.path_letters(), place)?;
    Ok(Some(game.record_stats(e.stats)))
}

impl GuidelineFamily {
    /// The game: its rules, pieces and start.
    pub fn game(&self) -> &GuidelineGame {
        &self.game
    }

    /// The objective's value of an outcome.
    fn score_of(&self, outcome: &Outcome) -> u64 {
        outcome.value(self.game.rules.objective)
    }

    /// The replay the views draw.
    fn shown(&self, record: &Record) -> Result<GuidelinePlayback> {
        GuidelinePlayback::replay(record, &self.game)
    }
}

impl Family for GuidelineFamily {
    type Record = Record;
    type Verified = Verified;
    type Plan = GuidelinePlan;
    type Found = Line<Move>;
    type Tuning = Tuning;

    fn seed(&self) -> &GameDef {
        &self.seed
    }

    fn read_record(&self, path: &Path, _command: &str) -> Result<Record> {
        let text = crate::io::read_text(path)?;
        self.game
            .parse_record(&text)
            .map_err(|e| Error::at(path.display(), e))
    }

    fn verify(
        &self,
        record: &Record,
        place: &str,
        mut trace: Option<&mut dyn FnMut(String)>,
    ) -> Result<Verified> {
        let outcome = guideline_replay::replay_with(record, &self.game, |event| {
            if let Some(trace) = trace.as_mut() {
                trace(json_line(event));
            }
        });
        let tetrio_stats = tetrio_stats(&self.seed, record, place)?;
        Ok(Verified {
            score: self.score_of(&outcome),
            outcome,
            objective: self.game.rules.objective,
            valid: outcome.pieces >= record.pieces(),
            tetrio_stats,
        })
    }

    fn board_text(&self, record: &Record, at: Option<usize>) -> Result<String> {
        let game = self.shown(record)?;
        guideline_text::render(&game, &self.game, at.unwrap_or(game.placed()))
    }

    fn frames(&self, record: &Record) -> Result<Replay> {
        Ok(Replay::from_guideline(&self.shown(record)?, &self.game))
    }

    fn plan(&self, request: &Request) -> Result<Plan<GuidelinePlan>> {
        let (seed, game) = (&self.seed, &self.game);
        let beam = solve::beam_of(request, solve::GUIDELINE_BEAM)?;
        solve::refuse_pps(request, &seed.name)?;
        if request.pieces == Some(0) {
            return Err(Error(format!(
                "--pieces 0: give at least 1 (the game {} has {})",
                seed.name,
                crate::limits::plural(seed.pieces as u64, "piece", "pieces")
            )));
        }
        let weights_name = weights_name(&request.weights, &game.rules);
        let weights = GuidelineWeights::resolve(&weights_name)?;
        let steps = request.pieces.unwrap_or(game.length).min(game.length);
        let use_fourwide = request.fourwide.applies(&game.rules);
        let out = request.out.clone().unwrap_or_else(|| {
            PathBuf::from(format!(
                "runs/solve-{}-{}-p{}-{}{}.json",
                seed.name,
                solve::width_tag(request, beam),
                steps,
                weights_name.replace(['/', '.'], "_"),
                if use_fourwide { "" } else { "-no-fourwide" }
            ))
        });
        let start_line = format!(
            "solving {}: {}, {}, weights {}; Ctrl-C or SIGTERM stops and keeps the best line \
             so far",
            seed.name,
            crate::limits::plural(steps as u64, "piece", "pieces"),
            solve::width_words(request, beam),
            weights_name
        );
        let continuation = Continuation::for_locks(
            &game.pieces,
            steps,
            game.rules.combo_table,
            game.rules.objective,
        );
        Ok(Plan {
            beam,
            time: request.time,
            steps,
            out,
            start_line,
            weights_note: None,
            family: GuidelinePlan {
                weights_name,
                evaluator: GuidelineEvaluator::new(weights.clone()),
                weights,
                continuation,
                use_fourwide,
                blitz: None,
            },
        })
    }

    fn search(
        &self,
        plan: &Plan<GuidelinePlan>,
        width: Width,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(&StepReport),
    ) -> Line<Move> {
        let p = &plan.family;
        if let Some(blitz) = &p.blitz {
            return guideline_beam::search_blitz(
                &self.game,
                plan.steps,
                width,
                &p.evaluator,
                blitz,
                stop,
                progress,
            );
        }
        let fourwide = p.use_fourwide.then_some(&p.continuation);
        guideline_beam::search(
            &self.game,
            plan.steps,
            width,
            &p.evaluator,
            fourwide,
            stop,
            progress,
        )
    }

    fn report(
        &self,
        plan: &Plan<GuidelinePlan>,
        line: Line<Move>,
        record_file: &Path,
        finish: &dyn Fn() -> Finish,
    ) -> Result<Option<Solved>> {
        let Some(written) = self.write_line(plan, &line, record_file)? else {
            return Ok(None);
        };
        let Written {
            record: reread,
            outcome,
            sections,
            score,
        } = written;
        let p = &plan.family;
        let per_piece = |v: u64| {
            if outcome.pieces == 0 {
                0.0
            } else {
                v as f64 / outcome.pieces as f64
            }
        };
        let tetrio_stats = tetrio_stats(&self.seed, &reread, &record_file.display().to_string())?;
        let finish = finish();
        let report = GuidelineSolveReport {
            tetrio_stats,
            score,
            objective: self.game.rules.objective,
            fourwide: p.use_fourwide,
            fourwide_sections: sections.runs,
            fourwide_longest: sections.longest,
            attack_per_piece: per_piece(outcome.attack),
            points_per_piece: per_piece(outcome.points),
            outcome,
            ending: solve::Ending::of(line.end, plan.steps),
            seed: self.seed.name.clone(),
            game: self.seed.clone(),
            width: plan.width_report(line.widths),
            weights_name: p.weights_name.clone(),
            weights: p.weights.clone(),
            cost: finish.cost,
        };
        let json = serde_json::to_string_pretty(&report).expect("plain data serialises");
        Ok(Some(Solved {
            summary: summary(&report, finish.wall_seconds, &finish.out, record_file),
            json,
        }))
    }

    fn tuning(&self, pieces: usize, previews: Option<usize>) -> Result<Tuning> {
        let game = self.game.clone();
        let fourwide = (previews.is_none() && FourwideUse::Auto.applies(&game.rules)).then(|| {
            Continuation::for_locks(
                &game.pieces,
                pieces.min(game.length),
                game.rules.combo_table,
                game.rules.objective,
            )
        });
        Ok(Tuning {
            seven_bag: self.seed.deals_seven_bags(),
            game,
            fourwide,
        })
    }

    fn export(
        &self,
        record: &Record,
        pps: Option<f64>,
        record_place: &str,
        game_place: &str,
    ) -> Result<crate::games::tetrio::export::Exported> {
        super::export::export_on(&self.seed, record, pps, record_place, game_place)
    }
}

/// A found line's record as written, read back as `verify` reads it, and its replay.
pub(super) struct Written {
    pub record: Record,
    pub outcome: Outcome,
    /// The 4-wide runs the replay made.
    pub sections: SectionCount,
    /// The objective's value.
    pub score: u64,
}

impl GuidelineFamily {
    /// Writes `line`'s record to `record_file`, reads it back and replays it: the figures are
    /// about the file. `None` when the search found no line; an error when the replay does
    /// not give what the search claimed.
    pub(super) fn write_line(
        &self,
        plan: &Plan<GuidelinePlan>,
        line: &Line<Move>,
        record_file: &Path,
    ) -> Result<Option<Written>> {
        if line.moves.is_empty() {
            return Ok(None);
        }
        let p = &plan.family;
        let record = match &p.blitz {
            Some(blitz) => guideline_beam::record_blitz(&self.game, &line.moves, blitz),
            None => guideline_beam::record(&self.game, &line.moves),
        };
        crate::io::write_atomic(record_file, format!("{record}\n").as_bytes())?;
        // Parse the text back as verify would: the file is what the figures are about.
        let reread = self
            .game
            .parse_record(&record.to_string())
            .map_err(|e| Error(format!("bug: the written record does not parse: {e}")))?;
        let mut sections = SectionCount::default();
        let outcome = guideline_replay::replay_with(&reread, &self.game, |e| {
            sections.lock(e, &p.continuation)
        });
        let score = self.score_of(&outcome);
        // A BLITZ line's score is TETR.IO's, which the TETR.IO family checks on its engine.
        let claimed = match p.blitz {
            Some(_) => score,
            None => line.score as u64,
        };
        if score != claimed || outcome.pieces != line.moves.len() {
            return Err(Error(format!(
                "bug: the search claims {} over {} pieces but its record {} replays to {} over {}",
                line.score,
                line.moves.len(),
                record_file.display(),
                score,
                outcome.pieces
            )));
        }
        Ok(Some(Written {
            record: reread,
            outcome,
            sections,
            score,
        }))
    }
}

/// The lines a guideline solve ends with on stderr: its figures, and TETR.IO's where it has
/// them.
fn summary(report: &GuidelineSolveReport, wall: f64, out: &Path, record_file: &Path) -> String {
    let o = &report.outcome;
    let mut text = format!(
        "{} {} (verified by replay): {} points, {} attack, {}, max combo {}, {}, {}, {}, {:.1} s; wrote {} and {}",
        report.score,
        report.objective.name(),
        o.points,
        o.attack,
        crate::limits::plural(o.pieces as u64, "piece", "pieces"),
        o.max_combo,
        crate::limits::plural(o.tspins as u64, "T-spin", "T-spins"),
        crate::limits::plural(o.perfect_clears as u64, "perfect clear", "perfect clears"),
        crate::limits::plural(report.fourwide_sections as u64, "4-wide section", "4-wide sections"),
        wall,
        out.display(),
        record_file.display()
    );
    if let Some(t) = &report.tetrio_stats {
        text.push_str(&format!(
            "\non TETR.IO's engine and rules: {} attack, {} lines, {} T-spins, top back-to-back {}, top combo {}, {} all clears",
            t.garbage.attack, t.lines, t.tspins, t.topbtb, t.topcombo, t.clears.allclear
        ));
    }
    text
}
