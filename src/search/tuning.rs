//! A tuning run: what tuning needs of a game family ([`Family`]), the settings that define a
//! run, its state file and its outputs (best weights, learning curve). The `tune` command
//! scores candidates in process or hands them out (ask/tell); both go through these.

use super::beam::SearchEnd;
use super::tencent::{self as tencent_beam, BeamConfig};
use super::tune::{self, CemConfig, CemState, Param, Tunable};
use crate::error::{Error, Result};
use crate::eval::guideline::{self, GuidelineEvaluator, GuidelineWeights};
use crate::eval::tencent::{self, Evaluator, Weights};
use crate::fourwide::continuation::Continuation;
use crate::games::guideline::replay::GuidelineGame;
use crate::games::tencent::movegen::MoveSet;
use crate::games::Piece;
use crate::io;
use crate::report::svg::{self, HLine, Panel, Series, Style};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

/// What tuning needs of a game family: its evaluator's weights and how a candidate scores.
pub trait TuneScorer: Sync {
    type Weights: Tunable + Send + Sync;
    /// The feature names its weights files may use.
    const FEATURES: &'static [&'static str];
    /// Whether a candidate can be scored by online play (`Settings::previews`).
    const PLAYS_ONLINE: bool = false;
    /// The weights tuned when `--tune` is not given.
    const DEFAULT_TUNE: &'static [&'static str];
    /// The start when `--start` is not given.
    fn default_start(&self) -> &'static str;
    fn resolve(&self, start: &str) -> Result<Self::Weights>;
    /// The `--moves` word of the family's `solve` line, if it has one.
    fn moves_flag(&self, moves: MoveSet) -> Option<MoveSet>;
    /// The score of `weights` on the first `pieces` pieces at width `beam`; `None` when a
    /// signal stopped it.
    fn score(
        &self,
        settings: &Settings<Self::Weights>,
        weights: Self::Weights,
        beam: usize,
        stop: &AtomicBool,
    ) -> Option<f64>;

    /// The candidate's score: its mean over the run's widths.
    fn mean_score(
        &self,
        settings: &Settings<Self::Weights>,
        weights: Self::Weights,
        stop: &AtomicBool,
    ) -> Option<f64> {
        let beams = settings.beams();
        let mut sum = 0.0;
        for &beam in &beams {
            sum += self.score(settings, weights.clone(), beam, stop)?;
        }
        Some(sum / beams.len() as f64)
    }
}

/// The Tencent game: the board beam over its sequence.
pub struct Tencent {
    pub pieces: Vec<Piece>,
    /// The board the game starts on.
    pub start: crate::games::tencent::board::Board,
}

impl TuneScorer for Tencent {
    type Weights = Weights;
    const FEATURES: &'static [&'static str] = &tencent::FEATURES;
    const DEFAULT_TUNE: &'static [&'static str] = &tune::DEFAULT_TUNED;

    fn default_start(&self) -> &'static str {
        "default"
    }

    fn resolve(&self, start: &str) -> Result<Weights> {
        // `default`, tuning's own start, is MaxDumbledore's hand-set weights (kept in
        // results/weights/default.json), not a `--weights` preset.
        match start {
            "default" => Ok(Weights::kept("default").expect("kept")),
            _ => Weights::resolve(start),
        }
    }

    fn moves_flag(&self, moves: MoveSet) -> Option<MoveSet> {
        Some(moves)
    }

    fn score(
        &self,
        s: &Settings<Weights>,
        w: Weights,
        beam: usize,
        stop: &AtomicBool,
    ) -> Option<f64> {
        let cfg = BeamConfig {
            beam,
            moves: s.moves,
            evaluator: Evaluator::new(w),
            start: self.start,
        };
        let r = tencent_beam::search(&self.pieces, Some(s.pieces), &cfg, stop, |_| {});
        // A beam that empties is a (poor) score; only a stop leaves the candidate unscored.
        (!matches!(r.end, SearchEnd::Stopped { .. })).then_some(r.score as f64)
    }
}

/// A guideline game: its beam with hold, and the 4-wide continuation where `solve` uses it.
pub struct Guideline {
    pub game: GuidelineGame,
    pub fourwide: Option<Continuation>,
    /// The game deals 7-bags (what an online player may count on).
    pub seven_bag: bool,
}

/// The guideline weights tuned by default: board shape, the T-spin slot, the chains, and the
/// objective so far.
pub const GUIDELINE_TUNED: [&str; 7] = [
    "holes",
    "bumpiness",
    "height_over_half",
    "tslot",
    "b2b",
    "combo",
    "score_weight",
];

impl TuneScorer for Guideline {
    type Weights = GuidelineWeights;
    const FEATURES: &'static [&'static str] = &guideline::FEATURES;
    const DEFAULT_TUNE: &'static [&'static str] = &GUIDELINE_TUNED;
    const PLAYS_ONLINE: bool = true;

    fn default_start(&self) -> &'static str {
        crate::eval::guideline::rules_preset(&self.game.rules)
    }

    fn resolve(&self, start: &str) -> Result<GuidelineWeights> {
        GuidelineWeights::resolve(start)
    }

    fn moves_flag(&self, _: MoveSet) -> Option<MoveSet> {
        None
    }

    fn score(
        &self,
        s: &Settings<GuidelineWeights>,
        w: GuidelineWeights,
        beam: usize,
        stop: &AtomicBool,
    ) -> Option<f64> {
        let evaluator = GuidelineEvaluator::new(w);
        if let Some(previews) = s.previews {
            return self.online_score(s, previews, beam, &evaluator, stop);
        }
        let line = crate::search::guideline::search(
            &self.game,
            s.pieces,
            beam,
            &evaluator,
            self.fourwide.as_ref(),
            stop,
            |_| {},
        );
        (!matches!(line.end, SearchEnd::Stopped { .. })).then_some(line.score as f64)
    }
}

impl Guideline {
    /// The objective an online player (`play --previews`) reaches on the first `pieces`
    /// locks: what the tuner maximises for the online weights. A game that tops out scores
    /// what it made before (a poor score, not a missing one).
    fn online_score(
        &self,
        s: &Settings<GuidelineWeights>,
        previews: usize,
        beam: usize,
        evaluator: &GuidelineEvaluator,
        stop: &AtomicBool,
    ) -> Option<f64> {
        let player = crate::search::online::Player {
            previews,
            beam,
            evaluator,
            fourwide: None,
            speculation: s.speculation,
            seven_bag: self.seven_bag,
        };
        let played = crate::search::online::play(&self.game, s.pieces, &player, stop, |_, _| {});
        if played.stopped {
            return None;
        }
        let record = crate::search::guideline::record(&self.game, &played.moves);
        let outcome = crate::games::guideline::replay::replay(&record, &self.game);
        Some(outcome.value(self.game.rules.objective) as f64)
    }
}

/// Everything that defines a run: a resume must match it exactly.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(bound = "W: Tunable")]
pub struct Settings<W> {
    pub seed: String,
    /// The first width; the others, if any, in `more_beams` (a folder made before there
    /// could be several reads as one width).
    pub beam: usize,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub more_beams: Vec<usize>,
    pub moves: MoveSet,
    pub pieces: usize,
    /// Online play: each candidate plays the game seeing this many previews (as `play
    /// --previews`) instead of searching it whole.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub previews: Option<usize>,
    /// Online play: the search past the previews.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub speculation: Option<crate::search::online::Speculation>,
    pub start: String,
    pub start_weights: W,
    pub params: Vec<Param>,
    pub cem: CemConfig,
}

impl<W> Settings<W> {
    /// Every width a candidate is scored at.
    pub fn beams(&self) -> Vec<usize> {
        std::iter::once(self.beam)
            .chain(self.more_beams.iter().copied())
            .collect()
    }
}

/// state.json.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(bound = "W: Tunable")]
pub struct State<W> {
    pub settings: Settings<W>,
    pub cem: CemState,
    /// Provenance of every invocation that advanced the run.
    pub runs: Vec<serde_json::Value>,
    /// Seconds spent scoring, over all invocations.
    pub wall_seconds: f64,
}

/// The largest `--population`: every candidate is a whole beam search, so even this many
/// is days of work a generation; past it the candidates' memory is the next thing to fail.
pub const MAX_POPULATION: usize = 10_000;

/// The run's state file in `out`.
pub fn state_path(out: &Path) -> PathBuf {
    out.join("state.json")
}

/// The state in `out`, or a fresh one; a state made by other settings is refused.
pub fn load_or_start<W: Tunable>(out: &Path, settings: Settings<W>) -> Result<State<W>> {
    let path = state_path(out);
    if !path.exists() {
        let mean = tune::encode(&settings.start_weights, &settings.params);
        let sigma = tune::initial_sigma(&settings.start_weights, &settings.params);
        return Ok(State {
            settings,
            cem: CemState::new(mean, sigma),
            runs: Vec::new(),
            wall_seconds: 0.0,
        });
    }
    let text = io::read_text(&path)?;
    let state: State<W> = serde_json::from_str(&text)
        .map_err(|e| Error::at(path.display(), crate::error::json_error(&e)))?;
    if state.settings != settings {
        return Err(Error::at(
            path.display(),
            "made by a run with other settings (seed, beam, moves, pieces, population, elite, \
             start, tuned weights or rng seed); use another --out or delete the folder",
        ));
    }
    state
        .cem
        .check(state.settings.params.len())
        .map_err(|e| Error::at(path.display(), e))?;
    Ok(state)
}

/// Writes state.json, best.json, curve.json and curve.svg.
pub fn write_outputs<W: Tunable>(out: &Path, state: &State<W>) -> Result<()> {
    io::write_atomic(&state_path(out), json(state).as_bytes())?;
    let s = &state.settings;
    let best = state
        .cem
        .best
        .as_ref()
        .map(|b| tune::decode(&s.start_weights, &s.params, &b.x));
    if let Some(w) = &best {
        io::write_atomic(&out.join("best.json"), json(w).as_bytes())?;
    }
    let curve = serde_json::json!({
        "settings": s,
        "generations": state.cem.generation,
        "start_score": state.cem.history.first().map(|h| h.center),
        "best_score": state.cem.best.as_ref().map(|b| b.score),
        "best_generation": state.cem.best.as_ref().map(|b| b.generation),
        "best_weights": best,
        "curve": state.cem.history.iter().map(|h| serde_json::json!({
            "generation": h.generation,
            "best": h.best,
            "mean": h.mean,
            "center": h.center,
            "best_ever": h.best_ever,
        })).collect::<Vec<_>>(),
        "wall_seconds": state.wall_seconds,
        "runs": state.runs,
    });
    io::write_atomic(&out.join("curve.json"), json(&curve).as_bytes())?;
    io::write_atomic(&out.join("curve.svg"), curve_svg(state).as_bytes())?;
    Ok(())
}

/// Pretty JSON with a final newline.
pub fn json<T: Serialize>(v: &T) -> String {
    format!(
        "{}\n",
        serde_json::to_string_pretty(v).expect("plain data serialises")
    )
}

/// The widths as a reader sees them: `3000`, or `mean of 2000, 3000, 4000`.
pub fn beams_text<W>(s: &Settings<W>) -> String {
    let beams = s.beams();
    let list: Vec<String> = beams.iter().map(|b| b.to_string()).collect();
    if beams.len() == 1 {
        list[0].clone()
    } else {
        format!("mean of {}", list.join(", "))
    }
}

/// The learning curve: best, mean and centre score per generation.
pub fn curve_svg<W>(state: &State<W>) -> String {
    let s = &state.settings;
    let h = &state.cem.history;
    let series = |name: &str, f: fn(&tune::GenerationSummary) -> f64, i: usize, style| Series {
        name: name.to_string(),
        points: h.iter().map(|g| (g.generation as f64, f(g))).collect(),
        color: svg::PALETTE[i].to_string(),
        style,
    };
    let panel = Panel {
        title: format!(
            "score on the first {} pieces{}, beam {} ({:?}), population {}",
            s.pieces,
            s.previews
                .map(|p| format!(" played online with {p} previews"))
                .unwrap_or_default(),
            beams_text(s),
            s.moves,
            s.cem.population
        )
        .to_lowercase(),
        x_label: "generation".into(),
        y_label: "score".into(),
        x_log: false,
        y_log: false,
        x_cover: Vec::new(),
        series: vec![
            series("best of generation", |g| g.best, 0, Style::Line),
            series("mean of generation", |g| g.mean, 1, Style::Dashed),
            series("mean weights", |g| g.center, 2, Style::Line),
            series("best so far", |g| g.best_ever, 3, Style::Dashed),
        ],
        hlines: h
            .first()
            .map(|g| HLine {
                name: format!("start ({})", s.start),
                y: g.center,
                color: "#555555".into(),
            })
            .into_iter()
            .collect(),
    };
    svg::figure("beamtris tune: cross-entropy learning curve", &[panel])
}
/// Runs generations of the cross-entropy method until `state` holds `generations`, each
/// candidate scored by `family` in `pool`: the outputs (state, best weights, curve) are
/// rewritten after every generation, so a stop (`stop`, a signal) keeps every finished one.
/// Shows a bar of candidates on a terminal and a line a generation.
pub fn run_generations<F: TuneScorer>(
    state: &mut State<F::Weights>,
    family: &F,
    generations: usize,
    out: &Path,
    pool: &rayon::ThreadPool,
    stop: &AtomicBool,
) -> Result<()> {
    let todo = (generations - state.cem.generation) * state.settings.cem.population;
    let bar = crate::progress::bar(todo as u64, "{pos}/{len} candidates  eta {eta}");
    let plain = bar.is_hidden();
    while state.cem.generation < generations {
        let g = state.cem.generation + 1;
        let t0 = std::time::Instant::now();
        let s = state.settings.clone();
        let objective = |x: &[f64]| {
            let score = family.mean_score(&s, tune::decode(&s.start_weights, &s.params, x), stop);
            bar.inc(1);
            score
        };
        let done = pool.install(|| tune::generation(&mut state.cem, &s.cem, objective));
        if done.is_none() {
            bar.finish_and_clear();
            return Err(Error(format!(
                "stopped during generation {g}; {} keeps generation {} (run again to resume)",
                state_path(out).display(),
                g - 1
            )));
        }
        state.wall_seconds += t0.elapsed().as_secs_f64();
        write_outputs(out, state)?;
        let h = state.cem.history.last().expect("a generation was recorded");
        let line = format!(
            "generation {g}/{}  best {:.0}  mean {:.0}  mean weights {:.0}  best so far {:.0}  \
             ({:.0} s)",
            generations,
            h.best,
            h.mean,
            h.center,
            h.best_ever,
            t0.elapsed().as_secs_f64()
        );
        if plain {
            eprintln!("{line}");
        } else {
            bar.println(line);
        }
    }
    bar.finish_and_clear();
    Ok(())
}
