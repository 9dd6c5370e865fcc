//! Reports over results files: summaries and plots of sweeps, weight comparisons and tuning.
//!
//! The reports read the JSON files `solve` writes (and nothing else), so a summary can be
//! rebuilt at any time from the runs kept in a folder.

pub mod compare;
pub mod curve;
pub mod svg;
pub mod sweep;

use crate::error::{Error, Result};
use serde::Deserialize;
use std::path::{Path, PathBuf};

/// The fields of a `solve` results file that the reports use.
#[derive(Clone, Debug, Deserialize)]
pub struct SolveRun {
    pub score: u64,
    #[serde(default = "yes")]
    pub complete: bool,
    pub beam: usize,
    pub moves: crate::games::tencent::movegen::MoveSet,
    pub weights_name: String,
    pub pieces: usize,
    #[serde(default)]
    pub score_every_1000: Vec<u64>,
    pub wall_seconds: f64,
    #[serde(default)]
    pub peak_memory_bytes: Option<u64>,
    #[serde(default)]
    pub threads: usize,
    #[serde(default)]
    pub commit: String,
    #[serde(default)]
    pub date: String,
    #[serde(default)]
    pub command: String,
    /// Pieces the search was to place (files from before this field: see `piece_limit`).
    #[serde(default)]
    pub target_pieces: Option<usize>,
    /// Pieces in the game.
    #[serde(default)]
    pub game_pieces: Option<usize>,
    /// `solve --time`: the budget in seconds (`beam` is then the widest allowed).
    #[serde(default)]
    pub time_budget_seconds: Option<f64>,
    /// `solve --time`: the widths the beam kept.
    #[serde(default)]
    pub beam_widths: Option<MeanWidth>,
    /// The file's name without `.json` (filled in by [`load_runs`]).
    #[serde(skip)]
    pub name: String,
}

/// The mean of the widths a timed search kept (its results file's `beam_widths`).
#[derive(Clone, Copy, Debug, Deserialize)]
pub struct MeanWidth {
    pub mean: f64,
}

fn yes() -> bool {
    true
}

impl SolveRun {
    /// How the run's width was set, in words: `beam 3000`, or `--time 60, beam 5 021 on
    /// average`.
    pub fn width_words(&self) -> String {
        match self.time_budget_seconds {
            None => format!("beam {}", self.beam),
            Some(t) => format!(
                "`--time {t}`, beam {:.0} on average",
                self.beam_widths.map_or(f64::NAN, |w| w.mean)
            ),
        }
    }

    /// The `--pieces` the run was limited to, `None` for the whole game. Older files do not
    /// have `target_pieces`; their command line says it.
    pub fn piece_limit(&self) -> Option<usize> {
        match (self.target_pieces, self.game_pieces) {
            (Some(t), Some(g)) => (t < g.saturating_sub(1)).then_some(t),
            (Some(t), None) => Some(t),
            _ => {
                let words: Vec<&str> = self.command.split_whitespace().collect();
                words
                    .windows(2)
                    .find(|w| w[0] == "--pieces")
                    .and_then(|w| w[1].parse().ok())
                    .or_else(|| {
                        words
                            .iter()
                            .find_map(|w| w.strip_prefix("--pieces=")?.parse().ok())
                    })
            }
        }
    }
}

/// Refuses a folder whose runs searched different numbers of pieces: their scores do not
/// compare. The error names two files that differ.
pub fn check_one_length(runs: &[SolveRun], dir: &Path) -> Result<()> {
    let words = |l: Option<usize>| match l {
        Some(n) => format!("the first {n} pieces"),
        None => "the whole game".to_string(),
    };
    if let Some(first) = runs.first() {
        if let Some(other) = runs.iter().find(|r| r.piece_limit() != first.piece_limit()) {
            return Err(Error::at(
                dir.display(),
                format!(
                    "{}.json searched {} but {}.json {}; scores of different lengths do not \
                     compare (keep them in separate folders)",
                    first.name,
                    words(first.piece_limit()),
                    other.name,
                    words(other.piece_limit())
                ),
            ));
        }
    }
    Ok(())
}

/// Names of files a report writes into its folder, which are not runs.
pub const SUMMARY_FILES: [&str; 1] = ["summary.json"];

/// Every `solve` results file in `dir` (all `*.json` but the summary), sorted by name.
/// A file that is not a solve result is an error that names it.
pub fn load_runs(dir: &Path) -> Result<Vec<SolveRun>> {
    let entries = std::fs::read_dir(dir).map_err(|e| Error::at(dir.display(), e))?;
    let mut paths: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .filter(|p| {
            let name = p.file_name().map(|n| n.to_string_lossy().to_string());
            !name.is_some_and(|n| SUMMARY_FILES.contains(&n.as_str()) || n.starts_with('.'))
        })
        .collect();
    paths.sort();
    let runs = paths
        .iter()
        .map(|p| load_run(p))
        .collect::<Result<Vec<_>>>()?;
    if runs.is_empty() {
        return Err(Error::at(dir.display(), "no solve results (*.json) here"));
    }
    Ok(runs)
}

/// One `solve` results file; `name` is its stem. An error names the file.
pub fn load_run(p: &Path) -> Result<SolveRun> {
    let text = crate::io::read_text(p)?;
    let mut run: SolveRun = serde_json::from_str(&text).map_err(|e| {
        Error::at(
            p.display(),
            format!(
                "not a solve results file ({})",
                crate::error::json_error(&e)
            ),
        )
    })?;
    run.name = p
        .file_stem()
        .map(|s| s.to_string_lossy().to_string())
        .unwrap_or_default();
    Ok(run)
}

/// `drop` or `reach`.
pub fn moves_name(m: crate::games::tencent::movegen::MoveSet) -> &'static str {
    match m {
        crate::games::tencent::movegen::MoveSet::Drop => "drop",
        crate::games::tencent::movegen::MoveSet::Reach => "reach",
    }
}

#[cfg(test)]
pub(crate) mod testdata {
    use std::path::{Path, PathBuf};

    /// A fresh folder under the system temp dir.
    pub fn dir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("beamtris-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    /// Writes a minimal solve results file.
    pub fn solve_json(
        dir: &Path,
        name: &str,
        moves: &str,
        beam: usize,
        weights: &str,
        every: &[u64],
    ) {
        let score = every.last().copied().unwrap_or(0) + 7;
        let json = serde_json::json!({
            "score": score, "complete": true, "beam": beam, "moves": moves,
            "weights_name": weights, "pieces": every.len() * 1000 + 500,
            "score_every_1000": every, "wall_seconds": beam as f64 / 10.0,
            "peak_memory_bytes": 1_000_000, "threads": 2, "commit": "abc",
            "date": "2026-11-21T00:00:00Z", "command": "beamtris solve",
        });
        std::fs::write(dir.join(format!("{name}.json")), json.to_string()).unwrap();
    }
}
