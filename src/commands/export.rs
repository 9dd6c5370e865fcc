//! `beamtris export RECORD --seed GAME --out FILE.ttr`: a record handed back to TETR.IO as a
//! solo replay, its keys checked by the import's own simulation (`docs/tetrio.md`).

use crate::error::{Error, Result};
use crate::games::tetrio::{export, game::TetrioGame};
use crate::record::{Grammar, Record};
use crate::seed::{Generator, Seed};
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The record (`N,...`): an import's, a solver's, any record of the game.
    pub record: PathBuf,
    /// The record's game: a game file of TETR.IO's generator (an import's, with its options
    /// and handling; or a seed file with a `tetrio` generator).
    #[arg(long, value_name = "GAME")]
    pub seed: Option<PathBuf>,
    /// The game of `solve --tetrio-seed N`: TETR.IO's rules as played today on seed N
    /// (handling DAS 10, ARR 2, SDF 20), on the rules of --seed if given.
    #[arg(long, value_name = "N")]
    pub tetrio_seed: Option<i64>,
    /// The replay to write (a `.ttr`). A file tracked by git or under results/ or tests/ is
    /// not replaced.
    #[arg(long, value_name = "FILE.ttr")]
    pub out: PathBuf,
    /// Pieces a second (default: an imported game's own pace, else 2).
    #[arg(long, value_name = "P")]
    pub pps: Option<f64>,
}

/// The game's TETR.IO part: the game file's, or today's rules alone on the generator's seed.
fn tetrio_game(seed: &Seed, place: &str) -> Result<TetrioGame> {
    if seed.start.is_some() {
        return Err(Error::at(
            place,
            "starts from a board of its own: TETR.IO's games start empty",
        ));
    }
    match (&seed.tetrio, &seed.generator) {
        (Some(t), Generator::Tetrio { .. }) => Ok(t.clone()),
        (None, Generator::Tetrio { seed, no_szo }) => {
            let mut t = TetrioGame::solo(*seed);
            t.options["no_szo"] = serde_json::Value::Bool(*no_szo);
            Ok(t)
        }
        _ => Err(Error::at(
            place,
            "is not a game of TETR.IO's generator (an import's game file or --tetrio-seed)",
        )),
    }
}

pub fn run(args: &Args) -> Result<()> {
    let game_args = super::game::GameArgs {
        seed: args.seed.clone(),
        tetrio_seed: args.tetrio_seed,
        ..Default::default()
    };
    // No flag: the game or results file beside the record (as `import` and `solve` write).
    let beside = args.record.with_extension("json");
    let from_beside = game_args.seed.is_none() && game_args.tetrio_seed.is_none();
    if from_beside && !beside.is_file() {
        return Err(Error(format!(
            "export needs the record's game: {} beside it, --seed GAME (an import's game file) \
             or --tetrio-seed N",
            beside.display()
        )));
    }
    let out_place = format!("--out {}", args.out.display());
    crate::io::refuse_committed(&out_place, &args.out, "export")?;
    let mut inputs = game_args.input_files();
    inputs.push(("RECORD", args.record.as_path()));
    crate::io::check_outputs(&[("--out", args.out.as_path())], &inputs)?;
    if let (Some(n), Some(path)) = (args.tetrio_seed, &args.seed) {
        if crate::io::load_seed(Some(path))?.tetrio.is_some() {
            return Err(Error::at(
                format!("--tetrio-seed {n}"),
                format!(
                    "the game file {} holds a TETR.IO game of its own: give one of them",
                    path.display()
                ),
            ));
        }
    }
    let seed = if from_beside {
        crate::io::seed_beside(&args.record)?
    } else {
        game_args.load()?
    };
    let game_place = match (&game_args.seed, from_beside) {
        (Some(p), _) => p.display().to_string(),
        (None, true) => beside.display().to_string(),
        (None, false) => seed.name.clone(),
    };
    let game = tetrio_game(&seed, &game_place)?;
    let record_place = args.record.display().to_string();
    let text = crate::io::read_text(&args.record)?;
    let record = Record::parse_with(&text, &Grammar::GUIDELINE_SRS_PLUS)
        .map_err(|e| Error::at(&record_place, e))?;
    if record.pieces() > seed.pieces {
        return Err(Error::at(
            &record_place,
            format!(
                "{} pieces, more than the game's {}: the record does not fit this game",
                record.pieces(),
                seed.pieces
            ),
        ));
    }
    let paths: Vec<String> = record
        .paths()
        .iter()
        .map(|p| p.iter().map(|op| op.letter()).collect())
        .collect();
    let done = export::export(
        &game,
        &paths,
        args.pps,
        &record_place,
        &game_place,
        "beamtris",
    )?;
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
