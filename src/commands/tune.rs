//! `beamtris tune`: search evaluator weights with the cross-entropy method, scoring each
//! candidate by an in-process beam search over the first K pieces. The output folder holds
//! the state after every generation, so re-running the same command resumes the run.
//!
//! Both game families tune through the same code: a [`Family`] says which weights a game's
//! evaluator has and how one candidate is scored (the Tencent beam, or the guideline beam with
//! the 4-wide sub-strategy exactly as `solve` uses it), so a candidate scores the same here
//! and in the `solve` line `--ask` writes for it.

use crate::error::{Error, Result};
use crate::eval::guideline::{self, GuidelineEvaluator, GuidelineWeights};
use crate::fourwide::continuation::Continuation;
use crate::io;
use crate::games::tencent::movegen::MoveSet;
use crate::report::svg::{self, HLine, Panel, Series, Style};
use crate::results::RunInfo;
use crate::games::guideline::replay::Game as GuidelineGame;
use crate::games::Piece;
use crate::search::beam::{self, BeamConfig, SearchEnd};
use crate::eval::tencent::{self, Evaluator, Weights};
use crate::search::tune::{self, CemConfig, CemState, Param, Tunable};
use crate::seed::Seed;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// Tune evaluator weights for the beam search (cross-entropy method), on the Tencent game or
/// a guideline game.
///
/// Writes into OUT: best.json (a weights file for `solve --weights`), curve.json and
/// curve.svg (best and mean score per generation), and state.json. Running the same command
/// again continues from state.json; a larger --generations extends a finished run. On a
/// guideline game the score is the game's objective (points or attack) and each candidate is
/// searched as `solve` would search it (every SRS placement, hold, and the 4-wide
/// sub-strategy where `--fourwide auto` uses it).
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The game definition (default: the built-in Tencent Geek 4 game).
    #[arg(long)]
    pub seed: Option<PathBuf>,
    /// Beam width of each candidate's search. Several, comma-separated (`--beam 2000,3000,4000`),
    /// score a candidate by its mean over them: at one width any small change of the weights
    /// moves the score by about 0.1 % either way (results/default-beam), so weights tuned at
    /// one width fit that width's luck and can lose at another (results/tune).
    #[arg(long, value_delimiter = ',', default_value = "150")]
    pub beam: Vec<usize>,
    /// Placements searched on the Tencent game: drop or reach (guideline games always search
    /// every SRS placement).
    #[arg(long, value_enum, default_value_t = MoveSet::Drop)]
    pub moves: MoveSet,
    /// Score candidates on the first K pieces.
    #[arg(long, default_value_t = 3000)]
    pub pieces: usize,
    /// Generations to reach (counting those already in OUT).
    #[arg(long, default_value_t = 8)]
    pub generations: usize,
    /// Candidates per generation (the first is the distribution's mean).
    #[arg(long, default_value_t = 14)]
    pub population: usize,
    /// Candidates the distribution is refit to (default: a quarter, at least 2).
    #[arg(long)]
    pub elite: Option<usize>,
    /// Starting weights: a preset or a weights file (default: `default` on the Tencent game,
    /// the objective's preset, `attack` or `points`, on a guideline game).
    #[arg(long)]
    pub start: Option<String>,
    /// Weights to tune, comma-separated (features or score_weight). Default on the Tencent
    /// game: cells,row_transitions,column_transitions,holes,score_weight; on a guideline game:
    /// holes,bumpiness,height_over_half,tslot,b2b,combo,score_weight.
    #[arg(long, value_delimiter = ',')]
    pub tune: Option<Vec<String>>,
    /// Seed of the sampling generator: the same seed gives the same run.
    #[arg(long, default_value_t = 1)]
    pub rng_seed: u64,
    /// Worker threads (default: all cores). The result does not depend on it.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Output folder, e.g. results/tune-b150/.
    #[arg(long)]
    pub out: PathBuf,
    /// Ask/tell, step 1: write the next generation's candidates as weights files and one
    /// `beamtris solve ...` command per line (OUT/gen-N/commands.txt) instead of scoring them
    /// here, so any runner (GNU parallel, a Slurm job array, several hosts) can score them.
    #[arg(long, conflicts_with = "tell")]
    pub ask: bool,
    /// Ask/tell, step 2: read the asked generation's results (OUT/gen-N/cand-K.json, written
    /// by those commands), refit the distribution and write the outputs. Says which results
    /// are missing; telling a generation twice changes nothing.
    #[arg(long)]
    pub tell: bool,
}

/// What tuning needs of a game family: its evaluator's weights and how a candidate scores.
pub trait Family: Sync {
    type Weights: Tunable + Send + Sync;
    /// The feature names its weights files may use.
    const FEATURES: &'static [&'static str];
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
struct Tencent {
    pieces: Vec<Piece>,
}

impl Family for Tencent {
    type Weights = Weights;
    const FEATURES: &'static [&'static str] = &tencent::FEATURES;
    const DEFAULT_TUNE: &'static [&'static str] = &tune::DEFAULT_TUNED;

    fn default_start(&self) -> &'static str {
        "default"
    }

    fn resolve(&self, start: &str) -> Result<Weights> {
        Weights::resolve(start)
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
        };
        let r = beam::search(&self.pieces, Some(s.pieces), &cfg, stop, |_| {});
        // A beam that empties is a (poor) score; only a stop leaves the candidate unscored.
        (!matches!(r.end, SearchEnd::Stopped { .. })).then_some(r.score as f64)
    }
}

/// A guideline game: its beam with hold, and the 4-wide continuation where `solve` uses it.
struct Guideline {
    game: GuidelineGame,
    fourwide: Option<Continuation>,
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

impl Family for Guideline {
    type Weights = GuidelineWeights;
    const FEATURES: &'static [&'static str] = &guideline::FEATURES;
    const DEFAULT_TUNE: &'static [&'static str] = &GUIDELINE_TUNED;

    fn default_start(&self) -> &'static str {
        super::solve_guideline::objective_preset(self.game.rules.objective)
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

fn state_path(out: &Path) -> PathBuf {
    out.join("state.json")
}

fn settings<F: Family>(args: &Args, family: &F, seed_name: &str) -> Result<Settings<F::Weights>> {
    let Some((&beam, more_beams)) = args.beam.split_first() else {
        return Err(Error("--beam: give at least one width".into()));
    };
    for &b in &args.beam {
        crate::limits::check_beam("--beam", b)?;
    }
    if args.pieces == 0 {
        return Err(Error("--pieces 0: give at least 1".into()));
    }
    if !(2..=MAX_POPULATION).contains(&args.population) {
        return Err(Error(format!(
            "--population {}: give between 2 and {MAX_POPULATION}",
            args.population
        )));
    }
    let names: Vec<String> = match &args.tune {
        Some(names) => names.clone(),
        None => F::DEFAULT_TUNE.iter().map(|n| n.to_string()).collect(),
    };
    for name in &names {
        if name != "score_weight" && !F::FEATURES.contains(&name.as_str()) {
            return Err(Error::at(
                format!("--tune {name}"),
                format!(
                    "unknown weight for this game (known: {}, score_weight)",
                    F::FEATURES.join(", ")
                ),
            ));
        }
    }
    let start = args
        .start
        .clone()
        .unwrap_or_else(|| family.default_start().to_string());
    let start_weights = family.resolve(&start)?;
    let mut cem = CemConfig::new(args.population, args.rng_seed);
    if let Some(e) = args.elite {
        if e == 0 || e > args.population {
            return Err(Error("--elite: must be between 1 and --population".into()));
        }
        cem.elite = e;
    }
    Ok(Settings {
        seed: seed_name.to_string(),
        beam,
        more_beams: more_beams.to_vec(),
        moves: args.moves,
        pieces: args.pieces,
        start,
        params: tune::params_for(&start_weights, &names),
        start_weights,
        cem,
    })
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

/// The files a run writes into `out`, checked before the first generation so a bad folder
/// is found before hours of scoring, not after.
fn check_out(out: &Path) -> Result<()> {
    if out.is_file() {
        return Err(Error::at(
            format!("--out {}", out.display()),
            "is a file; tune writes a folder",
        ));
    }
    let files: Vec<PathBuf> = ["state.json", "best.json", "curve.json", "curve.svg"]
        .iter()
        .map(|n| out.join(n))
        .collect();
    let named: Vec<(&str, &Path)> = files.iter().map(|p| ("--out", p.as_path())).collect();
    io::check_outputs(&named)
}

/// Pretty JSON with a final newline.
fn json<T: Serialize>(v: &T) -> String {
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
            "score on the first {} pieces, beam {} ({:?}), population {}",
            s.pieces,
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

pub fn run(args: &Args) -> Result<()> {
    let seed = io::load_seed(args.seed.as_deref())?;
    if let Some(game) = seed.guideline_game() {
        let fourwide = super::solve::FourwideUse::Auto
            .applies(&game.rules)
            .then(|| {
                Continuation::build(&game.pieces, game.rules.combo_table, game.rules.objective)
            });
        return run_family(args, &seed, &Guideline { game, fourwide });
    }
    if seed.rules != "tencent" {
        return Err(Error(format!(
            "tune plays the tencent and guideline rule sets; the seed's rules are {:?}",
            seed.rules
        )));
    }
    let pieces = seed.pieces();
    run_family(args, &seed, &Tencent { pieces })
}

fn run_family<F: Family>(args: &Args, seed: &Seed, family: &F) -> Result<()> {
    let settings = settings(args, family, &seed.name)?;
    check_out(&args.out)?;
    let mut state = load_or_start(&args.out, settings)?;
    if args.ask {
        return super::tune_ask_tell::ask(args, &state, family.moves_flag(state.settings.moves));
    }
    if args.tell {
        return super::tune_ask_tell::tell(args, &mut state);
    }
    if state.cem.generation >= args.generations {
        write_outputs(&args.out, &state)?;
        eprintln!(
            "{} already holds {} generations (asked for {}); outputs rewritten",
            args.out.display(),
            state.cem.generation,
            args.generations
        );
        return Ok(());
    }
    if state.cem.generation > 0 {
        eprintln!(
            "resuming {} at generation {}",
            args.out.display(),
            state.cem.generation + 1
        );
    }
    let (_, pool) = super::thread_pool(args.threads)?;
    let stop = super::stop_on_ctrl_c();
    // Printed once the signal handlers are in place: from here a signal keeps every finished
    // generation in state.json.
    eprintln!(
        "tuning into {}: generations {} to {}; Ctrl-C or SIGTERM stops and keeps the finished \
         generations",
        args.out.display(),
        state.cem.generation + 1,
        args.generations
    );
    state
        .runs
        .push(serde_json::to_value(RunInfo::now()).expect("serialises"));
    let todo = (args.generations - state.cem.generation) * state.settings.cem.population;
    let bar = crate::progress::bar(todo as u64, "{pos}/{len} candidates  eta {eta}");
    let plain = bar.is_hidden();
    let started = Instant::now();
    while state.cem.generation < args.generations {
        let g = state.cem.generation + 1;
        let t0 = Instant::now();
        let s = state.settings.clone();
        let objective = |x: &[f64]| {
            let score = family.mean_score(&s, tune::decode(&s.start_weights, &s.params, x), &stop);
            bar.inc(1);
            score
        };
        let done = pool.install(|| tune::generation(&mut state.cem, &s.cem, objective));
        if done.is_none() {
            bar.finish_and_clear();
            return Err(Error(format!(
                "stopped during generation {g}; {} keeps generation {} (run again to resume)",
                state_path(&args.out).display(),
                g - 1
            )));
        }
        state.wall_seconds += t0.elapsed().as_secs_f64();
        write_outputs(&args.out, &state)?;
        let h = state.cem.history.last().expect("a generation was recorded");
        let line = format!(
            "generation {g}/{}  best {:.0}  mean {:.0}  mean weights {:.0}  best so far {:.0}  \
             ({:.0} s)",
            args.generations,
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
    let best = state
        .cem
        .best
        .as_ref()
        .expect("at least one generation ran");
    eprintln!(
        "best {:.0} (generation {}) against start {:.0}; {:.0} s; wrote {}",
        best.score,
        best.generation,
        state.cem.history[0].center,
        started.elapsed().as_secs_f64(),
        args.out.join("best.json").display()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(out: &Path, generations: usize) -> Args {
        Args {
            seed: None,
            beam: vec![4],
            moves: MoveSet::Drop,
            pieces: 60,
            generations,
            population: 4,
            elite: None,
            start: None,
            tune: None,
            rng_seed: 5,
            threads: Some(2),
            out: out.to_path_buf(),
            ask: false,
            tell: false,
        }
    }

    fn read_state(out: &Path) -> State<Weights> {
        serde_json::from_str(&std::fs::read_to_string(state_path(out)).unwrap()).unwrap()
    }

    #[test]
    fn tune_resumes_from_its_folder() {
        let base = std::env::temp_dir().join(format!("beamtris-tune-{}", std::process::id()));
        let (split, whole) = (base.join("split"), base.join("whole"));
        let _ = std::fs::remove_dir_all(&base);
        run(&args(&split, 2)).unwrap();
        assert_eq!(read_state(&split).cem.generation, 2);
        run(&args(&split, 3)).unwrap();
        let resumed = read_state(&split);
        assert_eq!(resumed.cem.generation, 3);
        assert_eq!(resumed.runs.len(), 2, "the second run continued the first");
        run(&args(&whole, 3)).unwrap();
        assert_eq!(read_state(&whole).cem, resumed.cem, "resume equals one run");
        // the outputs are there, and best.json is a weights file solve reads
        let best = Weights::resolve(split.join("best.json").to_str().unwrap()).unwrap();
        assert!(best.features.contains_key("holes"));
        let svg = std::fs::read_to_string(split.join("curve.svg")).unwrap();
        assert!(svg.contains("best of generation") && svg.contains("generation"));
        // other settings in the same folder are refused
        let mut other = args(&split, 4);
        other.beam = vec![5];
        let e = run(&other).unwrap_err();
        assert!(e.0.contains("other settings"), "{e}");
        let _ = std::fs::remove_dir_all(&base);
    }
}
