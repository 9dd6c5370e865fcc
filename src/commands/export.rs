//! `beamtris export RECORD --seed GAME --out FILE.ttr`: a record handed back to TETR.IO as a
//! solo replay, its keys checked by the import's own simulation (`docs/tetrio.md`).

use crate::error::{Error, Result};
use crate::family::Family;
use std::path::PathBuf;

/// Export a record to TETR.IO: a solo replay (`.ttr`) whose keys play it, checked by reading
/// it back through the import's own simulation.
///
/// The record's game is found as `verify` finds it: the flags' game, or the game or results
/// file beside the record; a solve's results file plays the game at the solve's pace.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The record (`N,...`): an import's, a solver's, any record of a TETR.IO game.
    pub record: PathBuf,
    #[command(flatten)]
    pub game: super::game::GameArgs,
    /// The replay to write: a new `.ttr` file (an existing one only with --force; a file
    /// tracked by git or under results/ or tests/ never).
    #[arg(long, value_name = "FILE.ttr")]
    pub out: PathBuf,
    /// Replace --out if it exists.
    #[arg(long)]
    pub force: bool,
}

pub fn run(args: &Args) -> Result<()> {
    let out_place = format!("--out {}", args.out.display());
    if !args
        .out
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("ttr"))
    {
        return Err(Error::at(
            &out_place,
            "export writes a TETR.IO solo replay, whose name ends in .ttr",
        ));
    }
    crate::io::refuse_committed(&out_place, &args.out, "export")?;
    if args.out.exists() && !args.force {
        return Err(Error::at(
            &out_place,
            "the file exists: give --force to replace it, or another name",
        ));
    }
    if !args.record.exists() {
        return Err(Error::at(
            args.record.display(),
            "no such file (the record to export)",
        ));
    }
    if args.game.defaulted_for(&args.record) {
        return Err(Error(format!(
            "export needs the record's game: nothing beside it ({} is not there); give --seed \
             GAME (an import's game file, a solve's results file) or --tetrio-seed N",
            args.record.with_extension("json").display()
        )));
    }
    let mut inputs = args.game.input_files();
    inputs.push(("RECORD", args.record.as_path()));
    crate::io::check_outputs(&[("--out", args.out.as_path())], &inputs)?;
    let seed = args.game.load_for_record("export", &args.record)?;
    let family = seed.family();
    if !family.supports(crate::games::registry::Capability::Export) {
        return Err(family.refuse(crate::games::registry::Capability::Export, &seed.name));
    }
    let game_place = match &args.game.seed {
        Some(p) => p.display().to_string(),
        None if !args.game.changes_game() => {
            args.record.with_extension("json").display().to_string()
        }
        None => seed.name.clone(),
    };
    let record_place = args.record.display().to_string();
    let game = crate::family::open(seed)?;
    let done = crate::with_game!(&game, g => {
        let record = g.read_record(&args.record, "export")?;
        g.export(&record, args.game.pps, &record_place, &game_place)?
    });
    crate::io::write_atomic(&args.out, done.text.as_bytes())?;
    let s = &done.stats;
    let most = match done.max_pps {
        Some(most) => format!("at most {most:.2} under this handling"),
        None => {
            "each piece at the game's own lock time: its survival rows rise by the clock".into()
        }
    };
    println!(
        "{}: {} pieces ({} by the record's own path: tucks and spins), {} key presses, {} frames ({:.1} s) at {:.2} pieces a second ({most}); \
         read back by beamtris's import: the record's placements and statistics (lines {}, holds {}, tspins {}, attack {})",
        args.out.display(), done.pieces, done.from_path, done.presses, done.frames, done.frames as f64 / 60.0, done.pps,
        s.lines, s.holds, s.tspins, s.garbage.attack
    );
    Ok(())
}
