//! `beamtris report sweep|compare --dir DIR`: rebuild a folder's summary (JSON and
//! markdown) and SVG plots from the `solve` results files kept in it.

use crate::error::{Error, Result};
use crate::io;
use crate::report::{self, compare, curve, sweep};
use std::path::{Path, PathBuf};

/// Summarise a folder of solve results: summary.json, summary.md and SVG plots.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(subcommand)]
    pub kind: Kind,
}

#[derive(clap::Subcommand, Debug)]
pub enum Kind {
    /// A beam-width sweep: score and wall time against beam width (score-vs-beam.svg).
    Sweep {
        /// The folder of solve results.
        #[arg(long, default_value = "results/sweep-beam")]
        dir: PathBuf,
    },
    /// A weight comparison: final scores, score every 1000 pieces, and
    /// score-vs-piece-bBEAM-MOVES.svg per beam width and move mode.
    Compare {
        /// The folder of solve results.
        #[arg(long, default_value = "results/compare-weights")]
        dir: PathBuf,
        /// The weights the others are measured against.
        #[arg(long, default_value = crate::eval::tencent::DEFAULT_PRESET)]
        reference: String,
    },
    /// Score against wall time beside the peers' measured points: summary.md and
    /// score-vs-time.svg.
    Curve {
        /// The folder of solve results (its complete whole-game runs are the points).
        #[arg(long, default_value = "results/curve")]
        dir: PathBuf,
        /// More solve results files to draw, e.g. the best record's.
        #[arg(long)]
        also: Vec<PathBuf>,
    },
}

/// The summary files a report writes into `dir`, checked before anything is written so a
/// bad folder leaves no half-written summary.
fn check_outputs(dir: &Path, names: &[String]) -> Result<()> {
    let paths: Vec<PathBuf> = names.iter().map(|n| dir.join(n)).collect();
    let named: Vec<(&str, &Path)> = paths.iter().map(|p| ("--dir", p.as_path())).collect();
    io::check_outputs(&named, &[])
}

pub fn run(args: &Args) -> Result<()> {
    match &args.kind {
        Kind::Sweep { dir } => {
            let runs = report::load_runs(dir)?;
            report::check_one_length(&runs, dir)?;
            let rows = sweep::rows(&runs);
            check_outputs(
                dir,
                &["summary.json", "summary.md", "score-vs-beam.svg"].map(String::from),
            )?;
            io::write_atomic(
                &dir.join("summary.json"),
                sweep::summary_json(&rows).as_bytes(),
            )?;
            let md = sweep::summary_md(&rows);
            io::write_atomic(&dir.join("summary.md"), md.as_bytes())?;
            io::write_atomic(
                &dir.join("score-vs-beam.svg"),
                sweep::plot(&rows).as_bytes(),
            )?;
            eprintln!(
                "{}; wrote summary.json, summary.md and score-vs-beam.svg in {}",
                crate::limits::plural(rows.len() as u64, "run", "runs"),
                dir.display()
            );
            print!("{md}");
        }
        Kind::Compare { dir, reference } => {
            let runs = report::load_runs(dir)?;
            report::check_one_length(&runs, dir)?;
            if !runs.iter().any(|r| &r.weights_name == reference) {
                let mut names: Vec<&str> = runs.iter().map(|r| r.weights_name.as_str()).collect();
                names.sort();
                names.dedup();
                return Err(Error(format!(
                    "--reference {reference}: no run in {} used these weights (they used: {})",
                    dir.display(),
                    names.join(", ")
                )));
            }
            let groups = compare::groups(&runs, reference);
            let mut names = vec!["summary.json".to_string(), "summary.md".to_string()];
            names.extend(groups.iter().map(|g| g.svg_name()));
            check_outputs(dir, &names)?;
            io::write_atomic(
                &dir.join("summary.json"),
                compare::summary_json(&groups).as_bytes(),
            )?;
            let md = compare::summary_md(&groups);
            io::write_atomic(&dir.join("summary.md"), md.as_bytes())?;
            for g in &groups {
                io::write_atomic(&dir.join(g.svg_name()), compare::plot(g).as_bytes())?;
            }
            eprintln!(
                "{}; wrote summary.json, summary.md and the plots in {}",
                crate::limits::plural(groups.len() as u64, "group", "groups"),
                dir.display()
            );
            print!("{md}");
        }
        Kind::Curve { dir, also } => {
            let mut runs = report::load_runs(dir)?;
            let depth = dir.components().count();
            let mut seen: Vec<PathBuf> = Vec::new();
            for path in also {
                // A file named twice, or already in `dir`, is one point.
                let key = path.canonicalize().unwrap_or_else(|_| path.clone());
                let in_dir = key
                    .parent()
                    .zip(dir.canonicalize().ok())
                    .is_some_and(|(a, b)| a == b);
                if in_dir || seen.contains(&key) {
                    continue;
                }
                seen.push(key);
                let mut run = report::load_run(path)?;
                // linked from inside `dir`
                run.name = format!(
                    "{}{}",
                    "../".repeat(depth),
                    path.with_extension("").display()
                );
                runs.push(run);
            }
            let points = curve::points(&runs);
            check_outputs(dir, &["summary.md", "score-vs-time.svg"].map(String::from))?;
            let md = curve::summary_md(&points);
            io::write_atomic(&dir.join("summary.md"), md.as_bytes())?;
            io::write_atomic(
                &dir.join("score-vs-time.svg"),
                curve::plot(&points).as_bytes(),
            )?;
            eprintln!(
                "{}; wrote summary.md and score-vs-time.svg in {}",
                crate::limits::plural(points.len() as u64, "point", "points"),
                dir.display()
            );
            print!("{md}");
        }
    }
    Ok(())
}
