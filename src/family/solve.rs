//! `solve`, written once over [`Family`]: check the settings, search with progress and a stop
//! on signals, write the record, replay it, write the results file whose figures come from
//! that replay. The family chooses its defaults, searches and reports; the flow is here.

use super::Family;
use crate::error::{Error, Result};
use crate::games::tencent::movegen::MoveSet;
use crate::results::{load_average, RunCost, RunInfo};
use crate::search::beam::SearchEnd;
use crate::search::progress::SearchProgress;
use crate::search::width::{Width, WidthStats};
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Refuses `--pps` on a game that is not a timed TETR.IO game with levels.
pub fn refuse_pps(request: &Request, game: &str) -> Result<()> {
    match request.pps {
        Some(p) => Err(Error(format!(
            "--pps {}: the game {game} is not a timed TETR.IO game with levels (BLITZ), the \
             only games played at a pace",
            crate::limits::short_number(p)
        ))),
        None => Ok(()),
    }
}

/// What the user asked of a solve (the command's flags, as plain data).
#[derive(Clone, Debug)]
pub struct Request {
    /// `--beam`.
    pub beam: Option<usize>,
    /// `--time`, in seconds.
    pub time: Option<f64>,
    /// `--moves` (Tencent games).
    pub moves: MoveSet,
    /// `--weights`: a preset's name or a file.
    pub weights: String,
    /// `--pieces`.
    pub pieces: Option<usize>,
    /// `--out`.
    pub out: Option<PathBuf>,
    /// `--fourwide`, `--no-fourwide` folded in.
    pub fourwide: FourwideUse,
    /// Whether flags changed the game from its seed file (then the results file holds it).
    pub changes_game: bool,
    /// `--threads`.
    pub threads: Option<usize>,
    /// `--pps`: the pace of a timed game with levels (TETR.IO's BLITZ), in pieces a second.
    pub pps: Option<f64>,
    /// The files the run reads, which no output may overwrite.
    pub inputs: Vec<(&'static str, PathBuf)>,
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

/// A solve's settings once the family has checked them.
pub struct Plan<P> {
    /// The widest the beam may be.
    pub beam: usize,
    /// `--time`, when given.
    pub time: Option<f64>,
    /// Pieces the search is to place.
    pub steps: usize,
    /// The results file.
    pub out: PathBuf,
    /// The line printed when the search starts (after the signal handlers are in place).
    pub start_line: String,
    /// How a weights file was read, when the family says (`weights: read ...`).
    pub weights_note: Option<String>,
    /// The family's own choices.
    pub family: P,
}

/// The run's cost and the results file's paths, measured when the family reports.
pub struct Finish {
    pub cost: RunCost,
    pub wall_seconds: f64,
    pub out: PathBuf,
}

/// A solve's outcome: its results file and the line that sums it up.
pub struct Solved {
    /// The results file's text (pretty JSON).
    pub json: String,
    /// The summary printed on stderr.
    pub summary: String,
}

/// `--beam` when not given on a Tencent game.
pub const TENCENT_BEAM: usize = crate::games::tencent::family::FAMILY.default_beam;
/// `--beam` when not given on a guideline game.
pub const GUIDELINE_BEAM: usize = crate::games::guideline::family::FAMILY.default_beam;
/// The widest the beam may grow under `--time` when `--beam` is not given: about 6 GiB of
/// states and chains on the Tencent game, a width a budget of hours reaches.
pub const TIMED_BEAM_MAX: usize = 1_000_000;
/// The share of `--time` the search may spend: the rest is for the replay and the files.
const SEARCH_SHARE_OF_TIME: f64 = 0.98;

/// The beam's widest width from `--beam` and `--time` (`family_beam` when neither is given),
/// checked.
pub fn beam_of(request: &Request, family_beam: usize) -> Result<usize> {
    let beam = request.beam.unwrap_or(if request.time.is_some() {
        TIMED_BEAM_MAX
    } else {
        family_beam
    });
    crate::limits::check_beam("--beam", beam)?;
    if let Some(t) = request.time {
        if !(t.is_finite() && t > 0.0 && t <= 1e7) {
            return Err(Error(format!(
                "--time {}: give a number of seconds above 0 (at most 10 000 000)",
                crate::error::quote_number(t)
            )));
        }
    }
    Ok(beam)
}

impl<P> Plan<P> {
    /// How the width is chosen at each step once the search starts at `start`.
    fn width(&self, start: Instant) -> Width {
        match self.time {
            None => Width::Fixed(self.beam),
            Some(t) => Width::Until {
                deadline: start + Duration::from_secs_f64(t * SEARCH_SHARE_OF_TIME),
                max: self.beam,
            },
        }
    }

    /// The width fields of the results file, for a search that kept `widths`.
    pub fn width_report(&self, widths: WidthStats) -> WidthReport {
        WidthReport {
            beam: self.beam,
            time_budget_seconds: self.time,
            beam_widths: self.time.map(|_| widths),
        }
    }
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

/// The width's part of a default file name: `b3000`, or `t60s` under `--time 60`.
pub fn width_tag(request: &Request, beam: usize) -> String {
    match request.time {
        None => format!("b{beam}"),
        Some(t) => format!("t{t}s"),
    }
}

/// How a search's width was chosen, for the start line: `beam 3000`, or `beam up to 1000000
/// within 60 s`.
pub fn width_words(request: &Request, beam: usize) -> String {
    match request.time {
        None => format!("beam {beam}"),
        Some(t) => format!("beam up to {beam} within {t} s"),
    }
}

/// How a search ended, in the results file's words: `end`, `end_piece` and `stopped_by`.
pub fn end_words(end: SearchEnd) -> (&'static str, Option<usize>, Option<&'static str>) {
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

/// How a search that set out to place `target_pieces` ended, as the guideline and TETR.IO
/// results files say it (flattened into them, in this order).
#[derive(Serialize)]
pub struct Ending {
    /// True when every piece asked for was searched (neither stopped nor emptied); a sprint
    /// ends at the lock that reaches its lines.
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
}

impl Ending {
    /// The ending of a search of `target_pieces` that ended with `end`.
    pub fn of(end: SearchEnd, target_pieces: usize) -> Ending {
        let (words, end_piece, stopped_by) = end_words(end);
        Ending {
            complete: end == SearchEnd::Finished,
            target_pieces,
            end: words,
            end_piece,
            stopped_by,
        }
    }
}

/// Where the record goes: the results path with `.txt`.
pub fn record_path(out: &Path) -> PathBuf {
    out.with_extension("txt")
}

/// The record's path for results file `out`, both checked before any search, so a bad path
/// costs nothing: neither names a file the run reads, both writable, neither a folder.
pub fn check_outputs(out: &Path, inputs: &[(&'static str, &Path)]) -> Result<PathBuf> {
    let record_file = record_path(out);
    let outputs = [
        ("--out", out),
        ("the record (--out with .txt)", record_file.as_path()),
    ];
    crate::io::check_outputs(&outputs, inputs)?;
    Ok(record_file)
}

/// Writes the results JSON atomically and returns it.
pub fn write_report(out: &Path, report: &impl Serialize) -> Result<String> {
    let json = serde_json::to_string_pretty(report).expect("plain data serialises");
    crate::io::write_atomic(out, format!("{json}\n").as_bytes())?;
    Ok(json)
}

/// Solves `game` as `request` asks: checks, searches, writes the record and the results file
/// (whose figures come from replaying the record), and returns what it wrote. A signal stops
/// the search and keeps the best line so far, marked incomplete.
pub fn solve<G: Family>(game: &G, request: &Request) -> Result<Solved> {
    let plan = game.plan(request)?;
    let (threads, pool) = crate::limits::thread_pool(request.threads)?;
    let stop = crate::signal::stop_on_signal();
    let inputs: Vec<(&'static str, &Path)> = request
        .inputs
        .iter()
        .map(|(flag, path)| (*flag, path.as_path()))
        .collect();
    let record_file = check_outputs(&plan.out, &inputs)?;
    if let Some(note) = &plan.weights_note {
        eprintln!("{note}");
    }
    let run_info = RunInfo::now();
    let load_at_start = load_average();
    // Printed once the signal handlers are in place: from here a signal keeps the best line.
    eprintln!("{}", plan.start_line);
    let start = Instant::now();
    let width = plan.width(start);
    let mut progress = SearchProgress::with_deadline(plan.steps, start, width.deadline());
    let found = pool.install(|| game.search(&plan, width, &stop, &mut |r| progress.step(r)));
    progress.finish();
    let wall_seconds = start.elapsed().as_secs_f64();
    let finish = || Finish {
        cost: RunCost::measured(
            wall_seconds,
            load_at_start,
            threads,
            &record_file,
            run_info.clone(),
        ),
        wall_seconds,
        out: plan.out.clone(),
    };
    let solved = game
        .report(&plan, found, &record_file, &finish)?
        .ok_or_else(|| {
            Error(format!(
                "no placement of the first piece survives in {}; there is no record to write",
                game.seed().name
            ))
        })?;
    crate::io::write_atomic(&plan.out, format!("{}\n", solved.json).as_bytes())?;
    Ok(solved)
}
