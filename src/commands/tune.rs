//! `beamtris tune`: search evaluator weights with the cross-entropy method, scoring each
//! candidate by an in-process beam search over the first K pieces. The output folder holds
//! the state after every generation, so re-running the same command resumes the run.
//!
//! Both game families tune through the same code: a family (`search::tuning::TuneScorer`) says which weights a game's
//! evaluator has and how one candidate is scored (the Tencent beam, or the guideline beam with
//! the 4-wide sub-strategy exactly as `solve` uses it), so a candidate scores the same here
//! and in the `solve` line `--ask` writes for it.

use crate::error::{Error, Result};
use crate::family::Family;
use crate::game_def::GameDef;
use crate::games::tencent::movegen::MoveSet;
use crate::io;
use crate::results::RunInfo;
use crate::search::tune::{self, CemConfig, Tunable};
use crate::search::tuning::{
    json, load_or_start, write_outputs, Settings, State, TuneScorer, MAX_POPULATION,
};
use clap::ValueEnum;
use std::path::{Path, PathBuf};
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
    #[command(flatten)]
    pub game: super::game::GameArgs,
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
    /// Guideline games: score each candidate by online play seeing this many previews (as
    /// `play --previews N`, the first K pieces, the 4-wide solver off) instead of the whole-game
    /// beam: the weights an online player (`play --previews`, `tbp`) should use.
    #[arg(long)]
    pub previews: Option<usize>,
    /// With --previews: how the online player looks past them (as `play`).
    #[command(flatten)]
    pub speculation: super::play::SpeculationArgs,
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

fn settings<F: TuneScorer>(
    args: &Args,
    family: &F,
    seed_name: &str,
) -> Result<Settings<F::Weights>> {
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
    for (i, name) in names.iter().enumerate() {
        if names[..i].contains(name) {
            return Err(Error(format!(
                "--tune {name}: named twice (each weight is tuned once)"
            )));
        }
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
    if let Some(p) = args.previews {
        if !F::PLAYS_ONLINE {
            return Err(Error(
                "--previews: online play is for guideline games; this game's rules are tencent"
                    .into(),
            ));
        }
        crate::limits::check_previews(p, "an online player needs at least 1")?;
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
        previews: args.previews,
        speculation: match args.previews {
            Some(_) => super::play::speculation(&args.speculation)?,
            None => {
                let sp = &args.speculation;
                if sp.samples.is_some() || sp.lookahead.is_some() {
                    return Err(Error(
                        "--samples and --lookahead are for online play: give --previews too".into(),
                    ));
                }
                None
            }
        },
        start,
        params: tune::params_for(&start_weights, &names),
        start_weights,
        cem,
    })
}

/// The files a run writes into `out`, checked before the first generation so a bad folder
/// is found before hours of scoring, not after.
fn check_out(out: &Path, inputs: &[(&str, &Path)]) -> Result<()> {
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
    io::check_outputs(&named, inputs)
}

pub fn run(args: &Args) -> Result<()> {
    let seed = args.game.load()?;
    let game = crate::family::open(seed.clone())?;
    crate::with_game!(&game, g => run_family(args, &seed, &g.tuning(args.pieces, args.previews)?))
}

fn run_family<F: TuneScorer>(args: &Args, seed: &GameDef, family: &F) -> Result<()> {
    if args.generations == 0 {
        return Err(Error("--generations 0: give at least 1".into()));
    }
    let settings = settings(args, family, &seed.name)?;
    let inputs = args
        .game
        .input_files_with("--start", args.start.as_deref().map(Path::new));
    let stop = super::stop_on_ctrl_c();
    check_out(&args.out, &inputs)?;
    let mut state = load_or_start(&args.out, settings)?;
    if args.ask {
        return ask(args, &state, family.moves_flag(state.settings.moves));
    }
    if args.tell {
        let setup = asked_setup(
            args,
            seed,
            &state.settings,
            family.moves_flag(state.settings.moves),
        );
        return tell(args, &mut state, &setup);
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
    let started = Instant::now();
    crate::search::tuning::run_generations(
        &mut state,
        family,
        args.generations,
        &args.out,
        &pool,
        &stop,
    )?;
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

// Ask/tell: the cross-entropy method with its scoring done elsewhere. A generation's
// candidates are written as weights files and one `beamtris solve` command per line; whatever
// runs those lines (GNU parallel on this machine or over ssh, a Slurm job array) leaves one
// replay-verified results JSON per candidate, and `--tell` reads them back into the same
// state.json the in-process `tune` keeps. The candidates are the ones `tune` itself would
// score (the sampling is deterministic in the state), so a folder can go on with either
// runner.

/// The folder of generation `g` (1-based).
pub fn generation_dir(out: &Path, g: usize) -> PathBuf {
    out.join(format!("gen-{g:03}"))
}

fn commands_path(dir: &Path) -> PathBuf {
    dir.join("commands.txt")
}

fn weights_path(dir: &Path, k: usize) -> PathBuf {
    dir.join(format!("cand-{k:02}.weights.json"))
}

/// Candidate `k`'s result at its `j`-th width `beam`: `cand-K.json` at the first (as in a
/// folder of one width), `cand-K-bBEAM.json` at the others.
fn result_path(dir: &Path, k: usize, j: usize, beam: usize) -> PathBuf {
    if j == 0 {
        dir.join(format!("cand-{k:02}.json"))
    } else {
        dir.join(format!("cand-{k:02}-b{beam}.json"))
    }
}

/// Quotes a path for a POSIX shell line when it needs it.
fn shell_word(text: &str) -> String {
    if !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "/._-+=:,".contains(c))
    {
        text.to_string()
    } else {
        format!("'{}'", text.replace('\'', r"'\''"))
    }
}

/// The command that scores candidate `k` of the generation in `dir` at its `j`-th width
/// `beam` (with `--moves` when the game's family has that flag).
fn command<W>(
    args: &Args,
    state: &State<W>,
    moves: Option<MoveSet>,
    dir: &Path,
    (k, j, beam): (usize, usize, usize),
) -> String {
    let s = &state.settings;
    let job = if s.previews.is_some() {
        "play"
    } else {
        "solve"
    };
    let mut words = vec!["beamtris".to_string(), job.to_string()];
    words.extend(args.game.flags().iter().map(|w| shell_word(w)));
    if let Some(p) = s.previews {
        words.extend(["--previews".to_string(), p.to_string()]);
        match s.speculation {
            Some(x) => words.extend([
                "--samples".to_string(),
                x.samples.to_string(),
                "--lookahead".to_string(),
                x.pieces.to_string(),
            ]),
            None => words.extend(["--samples".to_string(), "0".to_string()]),
        }
    }
    words.extend(["--beam".to_string(), beam.to_string()]);
    if let Some(moves) = moves {
        let name = moves
            .to_possible_value()
            .expect("every move set has a name");
        words.extend(["--moves".to_string(), name.get_name().to_string()]);
    }
    let pieces_flag = if s.previews.is_some() {
        "--max-pieces"
    } else {
        "--pieces"
    };
    words.extend([
        pieces_flag.to_string(),
        s.pieces.to_string(),
        "--threads".into(),
        "1".into(),
        "--weights".into(),
        shell_word(&weights_path(dir, k).display().to_string()),
        "--out".into(),
        shell_word(&result_path(dir, k, j, beam).display().to_string()),
    ]);
    words.join(" ")
}

/// Writes the next generation's candidates and commands (once: asking again changes nothing).
pub fn ask<W: Tunable>(args: &Args, state: &State<W>, moves: Option<MoveSet>) -> Result<()> {
    let g = state.cem.generation + 1;
    let dir = generation_dir(&args.out, g);
    let commands = commands_path(&dir);
    if commands.exists() {
        eprintln!(
            "generation {g} is already asked: run the lines of {}, then tune --tell",
            commands.display()
        );
        println!("{}", commands.display());
        return Ok(());
    }
    std::fs::create_dir_all(&dir).map_err(|e| Error::at(dir.display(), e))?;
    let s = &state.settings;
    let candidates = tune::sample(&state.cem, &s.cem);
    let mut lines = String::new();
    for (k, x) in candidates.iter().enumerate() {
        let weights = tune::decode(&s.start_weights, &s.params, x);
        io::write_atomic(&weights_path(&dir, k), json(&weights).as_bytes())?;
        for (j, beam) in s.beams().into_iter().enumerate() {
            lines.push_str(&command(args, state, moves, &dir, (k, j, beam)));
            lines.push('\n');
        }
    }
    // state.json first, commands.txt last: a folder with commands.txt is a whole generation.
    write_outputs(&args.out, state)?;
    io::write_atomic(&commands, lines.as_bytes())?;
    eprintln!(
        "generation {g}: {} candidates; run the lines of {path} (e.g. parallel -j 2 < {path}), \
         then tune --tell with the same arguments",
        candidates.len(),
        path = commands.display()
    );
    println!("{}", commands.display());
    Ok(())
}

/// What a candidate's results JSON must say of the game and the run besides its weights and
/// width, key by key: a line of commands.txt edited, or a result copied in from another
/// folder, scores another game, move set or length than the one asked, and would move the
/// distribution on a score it does not earn here.
fn asked_setup<W>(
    args: &Args,
    seed: &GameDef,
    s: &Settings<W>,
    moves: Option<MoveSet>,
) -> Vec<(&'static str, serde_json::Value)> {
    use serde_json::json;
    let mut want = vec![("seed", json!(seed.name))];
    if args.game.changes_game() {
        // a game of the user's own (--queue, --board, ...): the results JSON holds it whole
        want.push(("game", json!(seed)));
    }
    if let Some(moves) = moves {
        want.push(("moves", json!(crate::report::moves_name(moves))));
    }
    match s.previews {
        // `play`: the pieces it was asked for, its previews and its look past them
        Some(previews) => {
            want.push(("pieces_asked", json!(s.pieces.min(seed.pieces))));
            want.push(("previews", json!(previews)));
            want.push(("speculation", json!(s.speculation)));
        }
        // `solve`: the pieces it set out to place
        None => want.push((
            "target_pieces",
            json!(s.pieces.min(seed.placeable_pieces())),
        )),
    }
    want
}

/// The score candidate `k` earned at its `j`-th width `beam`, or why it has none yet.
fn read_result(
    dir: &Path,
    (k, j, beam): (usize, usize, usize),
    want: &serde_json::Value,
    setup: &[(&'static str, serde_json::Value)],
) -> std::result::Result<f64, String> {
    let path = result_path(dir, k, j, beam);
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let text = std::fs::read_to_string(&path).map_err(|_| format!("{name} (missing)"))?;
    let v: serde_json::Value =
        serde_json::from_str(&text).map_err(|_| format!("{name} (not a results JSON)"))?;
    if v.get("weights") != Some(want) {
        return Err(format!("{name} (scored other weights)"));
    }
    // `solve` names the signal that stopped it, `play` says whether one did
    let stopped = !v.get("stopped_by").is_none_or(|b| b.is_null())
        || v.get("stopped").and_then(|b| b.as_bool()) == Some(true);
    if stopped {
        return Err(format!("{name} (stopped before the end)"));
    }
    if v.get("beam").and_then(|b| b.as_u64()) != Some(beam as u64) {
        return Err(format!("{name} (searched at another width)"));
    }
    for (key, value) in setup {
        if v.get(*key) != Some(value) {
            let found = v.get(*key).map_or("nothing".to_string(), |f| f.to_string());
            return Err(format!("{name} (its {key} is {found}, asked {value})"));
        }
    }
    v.get("score")
        .and_then(|s| s.as_f64())
        .ok_or_else(|| format!("{name} (no score)"))
}

/// Reads the asked generation's results and refits the distribution.
pub fn tell<W: Tunable>(
    args: &Args,
    state: &mut State<W>,
    setup: &[(&'static str, serde_json::Value)],
) -> Result<()> {
    let g = state.cem.generation + 1;
    let dir = generation_dir(&args.out, g);
    if !commands_path(&dir).exists() {
        if g > 1 && commands_path(&generation_dir(&args.out, g - 1)).exists() {
            eprintln!(
                "generation {} is already told; nothing to do (tune --ask writes generation {g})",
                g - 1
            );
            return Ok(());
        }
        return Err(Error::at(
            dir.display(),
            format!("generation {g} has not been asked: run tune --ask first"),
        ));
    }
    let s = state.settings.clone();
    let candidates = tune::sample(&state.cem, &s.cem);
    let beams = s.beams();
    let mut scores = Vec::with_capacity(candidates.len());
    let mut missing = Vec::new();
    for (k, x) in candidates.iter().enumerate() {
        let want = serde_json::to_value(tune::decode(&s.start_weights, &s.params, x))
            .expect("weights serialise");
        // the mean over the widths, summed in their order as the in-process tune sums them
        let mut sum = 0.0;
        let mut whole = true;
        for (j, &beam) in beams.iter().enumerate() {
            match read_result(&dir, (k, j, beam), &want, setup) {
                Ok(score) => sum += score,
                Err(why) => {
                    missing.push(why);
                    whole = false;
                }
            }
        }
        if whole {
            scores.push(sum / beams.len() as f64);
        }
    }
    if !missing.is_empty() {
        return Err(Error::at(
            dir.display(),
            format!(
                "{} of {} results not there yet: {} (rerun their lines of commands.txt)",
                missing.len(),
                candidates.len() * beams.len(),
                missing.join(", ")
            ),
        ));
    }
    tune::update(&mut state.cem, &s.cem, &candidates, &scores);
    state
        .runs
        .push(serde_json::to_value(RunInfo::now()).expect("serialises"));
    write_outputs(&args.out, state)?;
    let h = state.cem.history.last().expect("a generation was recorded");
    eprintln!(
        "generation {g}  best {:.0}  mean {:.0}  mean weights {:.0}  best so far {:.0}; wrote {}",
        h.best,
        h.mean,
        h.center,
        h.best_ever,
        args.out.join("state.json").display()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::tencent::Weights;

    fn args(out: &Path, generations: usize) -> Args {
        Args {
            game: Default::default(),
            beam: vec![4],
            moves: MoveSet::Drop,
            pieces: 60,
            generations,
            population: 4,
            elite: None,
            start: None,
            tune: None,
            rng_seed: 5,
            previews: None,
            speculation: Default::default(),
            threads: Some(2),
            out: out.to_path_buf(),
            ask: false,
            tell: false,
        }
    }

    fn read_state(out: &Path) -> State<Weights> {
        serde_json::from_str(
            &std::fs::read_to_string(crate::search::tuning::state_path(out)).unwrap(),
        )
        .unwrap()
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
