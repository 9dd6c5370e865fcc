//! `beamtris solve --seed GAME.json` on a guideline game: the beam over board, hold, combo
//! and back-to-back; the record and a results JSON whose figures come from replaying it.

use super::solve::{record_path, Args};
use crate::error::{Error, Result};
use crate::eval::guideline::{GuidelineEvaluator, GuidelineWeights};
use crate::fourwide::continuation::Continuation;
use crate::fourwide::section;
use crate::io;
use crate::results::{load_average, peak_memory_bytes, process_cpu_seconds, RunInfo};
use crate::games::guideline::replay::{self, LockEvent, Outcome};
use crate::games::guideline::Objective;
use crate::search::beam::SearchEnd;
use crate::search::guideline;
use crate::seed::Seed;
use serde::Serialize;
use std::path::PathBuf;
use std::time::Instant;

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
    /// The piece (0-based) at which no state survived, when that happened.
    pub beam_emptied_at: Option<usize>,
    /// The piece (0-based) before which a signal stopped the search, when that happened.
    pub stopped_at: Option<usize>,
    /// The signal that stopped it.
    pub stopped_by: Option<&'static str>,
    pub seed: String,
    pub game: Seed,
    pub beam: usize,
    pub weights_name: String,
    pub weights: GuidelineWeights,
    pub wall_seconds: f64,
    pub cpu_seconds: Option<f64>,
    pub load_average_at_start: Option<f64>,
    pub peak_memory_bytes: Option<u64>,
    pub threads: usize,
    pub record_file: String,
    #[serde(flatten)]
    pub run: RunInfo,
}

pub fn run(args: &Args, seed: &Seed) -> Result<()> {
    let game = seed.guideline_game().expect("a guideline seed");
    crate::limits::check_beam("--beam", args.beam)?;
    if args.pieces == Some(0) {
        return Err(Error(format!(
            "--pieces 0: give at least 1 (the game {} has {})",
            seed.name,
            crate::limits::plural(seed.pieces as u64, "piece", "pieces")
        )));
    }
    // The Tencent default (and `tuned`, the former one) stands for the preset of the game's
    // objective here.
    let weights_name = match args.weights.as_str() {
        "tuned" | crate::eval::tencent::DEFAULT_PRESET => {
            objective_preset(game.rules.objective).to_string()
        }
        name => name.to_string(),
    };
    let weights = GuidelineWeights::resolve(&weights_name)?;
    let evaluator = GuidelineEvaluator::new(weights.clone());
    let (threads, pool) = super::thread_pool(args.threads)?;
    let steps = args.pieces.unwrap_or(game.length).min(game.length);
    let use_fourwide = !args.no_fourwide && args.fourwide.applies(&game.rules);
    let out = args.out.clone().unwrap_or_else(|| {
        PathBuf::from(format!(
            "runs/solve-{}-b{}-p{}-{}{}.json",
            seed.name,
            args.beam,
            steps,
            weights_name.replace(['/', '.'], "_"),
            if use_fourwide { "" } else { "-no-fourwide" }
        ))
    });
    let record_file = record_path(&out);
    super::solve::check_not_inputs(args, &out, &record_file)?;
    io::check_outputs(&[
        ("--out", out.as_path()),
        ("the record (--out with .txt)", record_file.as_path()),
    ])?;
    let run_info = RunInfo::now();
    let load_at_start = load_average();
    let stop = super::stop_on_ctrl_c();
    eprintln!(
        "solving {}: {}, beam {}, weights {}; Ctrl-C or SIGTERM stops and keeps the best line \
         so far",
        seed.name,
        crate::limits::plural(steps as u64, "piece", "pieces"),
        args.beam,
        weights_name
    );
    let start = Instant::now();
    let mut progress = super::SearchProgress::new(steps, start);
    let continuation =
        Continuation::build(&game.pieces, game.rules.combo_table, game.rules.objective);
    let fourwide = use_fourwide.then_some(&continuation);
    let line = pool.install(|| {
        guideline::search(&game, steps, args.beam, &evaluator, fourwide, &stop, |r| {
            progress.step(r)
        })
    });
    progress.finish();
    let wall_seconds = start.elapsed().as_secs_f64();
    if line.moves.is_empty() {
        return Err(Error(format!(
            "no placement of the first piece survives in {}; there is no record to write",
            seed.name
        )));
    }
    let record = guideline::record(&game, &line.moves);
    io::write_atomic(&record_file, format!("{record}\n").as_bytes())?;
    // Parse the text back as verify would: the file is what the figures are about.
    let reread = game
        .parse_record(&record.to_string())
        .map_err(|e| Error(format!("bug: the written record does not parse: {e}")))?;
    let mut sections = SectionCount::default();
    let outcome = replay::replay_with(&reread, &game, |e| sections.lock(e, &continuation));
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
    let report = GuidelineSolveReport {
        score,
        objective: game.rules.objective,
        fourwide: fourwide.is_some(),
        fourwide_sections: sections.runs,
        fourwide_longest: sections.longest,
        attack_per_piece: per_piece(outcome.attack),
        points_per_piece: per_piece(outcome.points),
        outcome,
        complete: line.end == SearchEnd::Finished,
        beam_emptied_at: match line.end {
            SearchEnd::BeamEmptied { piece } => Some(piece),
            _ => None,
        },
        stopped_at: match line.end {
            SearchEnd::Stopped { piece } => Some(piece),
            _ => None,
        },
        stopped_by: match line.end {
            SearchEnd::Stopped { .. } => crate::signal::interrupted_by().map(crate::signal::name),
            _ => None,
        },
        seed: seed.name.clone(),
        game: seed.clone(),
        beam: args.beam,
        weights_name,
        weights,
        wall_seconds,
        cpu_seconds: process_cpu_seconds(),
        load_average_at_start: load_at_start,
        peak_memory_bytes: peak_memory_bytes(),
        threads,
        record_file: record_file.display().to_string(),
        run: run_info,
    };
    let json = serde_json::to_string_pretty(&report).expect("plain data serialises");
    io::write_atomic(&out, format!("{json}\n").as_bytes())?;
    eprintln!(
        "{} {:?} (verified by replay): {} points, {} attack, {} pieces, max combo {}, {} T-spins, {} perfect clears, {} 4-wide sections, {:.1} s; wrote {} and {}",
        report.score,
        report.objective,
        report.outcome.points,
        report.outcome.attack,
        report.outcome.pieces,
        report.outcome.max_combo,
        report.outcome.tspins,
        report.outcome.perfect_clears,
        report.fourwide_sections,
        wall_seconds,
        out.display(),
        record_file.display()
    );
    println!("{json}");
    Ok(())
}

/// The guideline preset made for `objective`.
pub fn objective_preset(objective: Objective) -> &'static str {
    match objective {
        Objective::Attack => "attack",
        Objective::Points => "points",
    }
}

/// Combo runs of four or more clears that started on a 4-wide section, counted over a replay.
#[derive(Default)]
struct SectionCount {
    /// The running combo started on a section.
    in_section: bool,
    runs: usize,
    longest: usize,
}

impl SectionCount {
    fn lock(&mut self, e: &LockEvent, continuation: &Continuation) {
        if e.rows == 0 {
            self.in_section = false;
            return;
        }
        if e.combo == 0 {
            self.in_section = section::find(&e.before.board, |f| continuation.knows(f)).is_some();
        }
        if self.in_section {
            let clears = e.combo as usize + 1;
            if clears == 4 {
                self.runs += 1;
            }
            if clears >= 4 {
                self.longest = self.longest.max(clears);
            }
        }
    }
}
