//! `beamtris report sweep|compare --dir DIR`: rebuild a folder's summary (JSON and
//! markdown) and SVG plots from the `solve` results files kept in it.

use crate::error::Result;
use crate::io;
use crate::report::{self, compare, sweep};
use std::path::PathBuf;

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
        /// The weights the others are measured against (default: default).
        #[arg(long, default_value = "default")]
        reference: String,
    },
}

pub fn run(args: &Args) -> Result<()> {
    match &args.kind {
        Kind::Sweep { dir } => {
            let rows = sweep::rows(&report::load_runs(dir)?);
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
                "{} runs; wrote summary.json, summary.md and score-vs-beam.svg in {}",
                rows.len(),
                dir.display()
            );
            print!("{md}");
        }
        Kind::Compare { dir, reference } => {
            let groups = compare::groups(&report::load_runs(dir)?, reference);
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
                "{} groups; wrote summary.json, summary.md and the plots in {}",
                groups.len(),
                dir.display()
            );
            print!("{md}");
        }
    }
    Ok(())
}
