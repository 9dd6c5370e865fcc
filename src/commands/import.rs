//! `beamtris import REPLAY --out DIR`: a TETR.IO replay (`.ttrm` or `.ttr`) simulated from
//! its inputs; per round and player, the placements and garbage written to `DIR`, and the
//! statistics TETR.IO stated compared with those of the simulation.

use crate::error::{Error, Result};
use crate::games::tetrio::{self, stats};
use clap::Args as ClapArgs;
use std::path::PathBuf;

/// The largest replay read. A parsed replay takes some 15 times its size in memory (its JSON
/// as a tree), so the general 1 GiB bound on inputs would let a wrong file take 15 GB; real
/// replays are a few hundred KB (a long TETRA LEAGUE match a few MB).
const MAX_REPLAY_BYTES: u64 = 64 << 20;

#[derive(ClapArgs, Debug)]
pub struct Args {
    /// The replay: a `.ttrm` (TETRA LEAGUE or custom room match) or a `.ttr` (solo game); or
    /// an NES Tetris `.fm2` movie (FCEUX), played from power-on.
    pub replay: PathBuf,
    /// Write `r{round}-{username}.json` (the game and its placements) and `.txt` (the
    /// record) here, one pair per round and player (`r{round}-{username}-p{N}` in a round
    /// whose players share a name). Files of those names are replaced.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// For an NES Tetris `.fm2` movie: the frames to report (comma-separated).
    #[arg(long, value_delimiter = ',')]
    pub at: Vec<u64>,
}

pub fn run(args: &Args) -> Result<()> {
    if args
        .replay
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("fm2"))
    {
        return super::import_nes::run(&args.replay, &args.at, args.out.as_deref());
    }
    if !args.at.is_empty() {
        return Err(Error::at("--at", "only for an NES Tetris .fm2 movie"));
    }
    // A signal stops the import before its files are written, or lets the write in progress
    // finish: never a temporary file left half written.
    let stop = super::stop_on_ctrl_c();
    let file = args.replay.display().to_string();
    let text = crate::io::read_text_up_to(&args.replay, MAX_REPLAY_BYTES)?;
    let rounds = tetrio::replay::parse(&file, &text)?;
    let bases = super::import_files::bases(&rounds);
    if let Some(dir) = &args.out {
        crate::io::create_dir(dir).map_err(|e| Error(format!("--out {}: {e}", dir.display())))?;
        super::import_files::check(dir, &bases)?;
    }
    // Every round's files, written together at the end: all of them or, on a write error,
    // none (the files of those names stay as they were).
    let mut files = Vec::new();
    for (r, base) in rounds.iter().zip(&bases) {
        let e = tetrio::simulate(r);
        let diffs = stats::differences(&e.stats, &r.stated);
        // The statistics the replay states (a field it lacks shows as `-`).
        let stated: std::collections::HashMap<String, Option<f64>> =
            stats::stated(&r.stated).into_iter().collect();
        let show = |k: &str| stated[k].map_or("-".to_string(), |v| v.to_string());
        let mut line = format!(
            "round {} {}: stated pieces {} lines {} holds {} tspins {} topcombo {} topbtb {} \
             allclears {} attack {} sent {} received {} cleared {}: ",
            r.round,
            r.username,
            show("piecesplaced"),
            show("lines"),
            show("holds"),
            show("tspins"),
            show("topcombo"),
            show("topbtb"),
            show("clears.allclear"),
            show("garbage.attack"),
            show("garbage.sent"),
            show("garbage.received"),
            show("garbage.cleared"),
        );
        if diffs.is_empty() {
            line.push_str("all stated statistics agree");
        } else {
            let parts: Vec<String> = diffs
                .iter()
                .map(|(k, st, c)| {
                    format!(
                        "{k} stated {} computed {c}",
                        st.map_or("-".into(), |v| v.to_string())
                    )
                })
                .collect();
            line.push_str(&format!("{} differ: {}", diffs.len(), parts.join(", ")));
        }
        println!("{line}");
        if let Some(dir) = &args.out {
            files.extend(super::import_files::files(dir, base, &file, r, &e));
        }
    }
    let files: Vec<(&std::path::Path, &[u8])> = files
        .iter()
        .map(|(path, contents)| (path.as_path(), contents.as_slice()))
        .collect();
    if stop.load(std::sync::atomic::Ordering::SeqCst) {
        return Ok(());
    }
    crate::io::write_all_atomic(&files)
}
