//! The files `import --out` writes for one player's round: `r{round}-{username}.json` (with
//! `-p{N}` before `.json` when two players of the round share a name, [`bases`]), a
//! seed file of the round's game (TETR.IO's generator and seed, with its options, lock times
//! and garbage under `"tetrio"`, and the statistics the replay states and those simulated),
//! and `r{round}-{username}.txt`, the record of the player's placements.

use crate::error::{Error, Result};
use crate::game_def::{GameDef, Generator};
use crate::games::tetrio::engine::Engine;
use crate::games::tetrio::game::{record_path, TetrioGame};
use crate::games::tetrio::replay::PlayerRound;
use crate::record::{Op, Record};
use serde_json::json;
use std::path::{Path, PathBuf};

/// A user name as a file name: letters, digits, `-` and `_` kept, anything else `_`.
fn file_name(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// The base name of each player-round's files, in the order of `rounds`:
/// `r{round}-{username}`, or in a round where two players' names would make the same file
/// name (letters compared without case, as some file systems do), `r{round}-{username}-p{N}`
/// for every player of that round, N the player's place in the round's list (from 1).
pub fn bases(rounds: &[PlayerRound]) -> Vec<String> {
    let key = |r: &PlayerRound| (r.round, file_name(&r.username).to_lowercase());
    let mut shared = std::collections::HashMap::new();
    for r in rounds {
        *shared.entry(key(r)).or_insert(0) += 1;
    }
    let clash: std::collections::HashSet<usize> = rounds
        .iter()
        .filter(|r| shared[&key(r)] > 1)
        .map(|r| r.round)
        .collect();
    rounds
        .iter()
        .map(|r| match clash.contains(&r.round) {
            true => format!("r{}-{}-p{}", r.round, file_name(&r.username), r.player),
            false => format!("r{}-{}", r.round, file_name(&r.username)),
        })
        .collect()
}

/// The game file and record paths of the files named `base`.
pub fn paths(dir: &Path, base: &str) -> (PathBuf, PathBuf) {
    (
        dir.join(format!("{base}.json")),
        dir.join(format!("{base}.txt")),
    )
}

/// Refuses, before anything is simulated or written, an output path that names something
/// other than a file (a folder of that name, say): an import then writes all its files or
/// none. Files of the same names are replaced.
pub fn check(dir: &Path, bases: &[String]) -> Result<()> {
    for base in bases {
        let (json, txt) = paths(dir, base);
        for path in [json, txt] {
            if path.exists() && !path.is_file() {
                return Err(Error::at(
                    path.display(),
                    "exists and is not a file; the import writes a file there",
                ));
            }
        }
    }
    Ok(())
}

/// The record of an engine's locks.
pub fn record_of(e: &Engine) -> Record {
    let paths: Vec<Vec<Op>> = e
        .locks
        .iter()
        .map(|l| {
            record_path(l, true)
                .chars()
                .map(|c| Op::from_letter(c).expect("record_path writes op letters"))
                .collect()
        })
        .collect();
    Record::from_paths(paths.iter().map(|p| p.as_slice()))
}

/// The files named `base` of one player's round, with their contents: the game file and the
/// record.
pub fn files(
    dir: &Path,
    base: &str,
    source: &str,
    r: &PlayerRound,
    e: &Engine,
) -> [(PathBuf, Vec<u8>); 2] {
    let (json_path, txt_path) = paths(dir, base);
    let seed = GameDef {
        name: format!("tetrio-{}-{base}", r.options.seed),
        rules: crate::games::registry::RuleSet::Guideline,
        pieces: e.locks.len().max(1),
        generator: Generator::Tetrio {
            seed: r.options.seed as u64,
            no_szo: r.options.no_szo,
        },
        initial_state: Default::default(),
        rotation: None,
        // A 40 LINES game is a sprint: what counts is the pieces to the 40th line; a timed
        // game (BLITZ) counts TETR.IO's points.
        objective: match r.raw_options["objective"]["type"].as_str() {
            Some("lines") => Some(crate::games::guideline::Objective::Lines),
            Some("timed") => Some(crate::games::guideline::Objective::Points),
            _ => None,
        },
        combo_table: Some(crate::games::guideline::ComboTable::Tetrio),
        start: None,
        tetrio: Some(TetrioGame::from_engine(&r.raw_options, e)),
        nes: None,
        pieces_from_queue: false,
    };
    let mut seed = seed;
    let placements: Vec<_> = e
        .locks
        .iter()
        .map(|l| {
            json!({"frame": l.frame, "piece": crate::games::tetrio::pieces::LETTERS[l.piece as usize].to_string(),
                   "rotation": l.rotation, "x": l.x, "y": l.y, "spin": format!("{:?}", l.spin).to_lowercase(),
                   "lines": l.lines, "attack": l.attack, "sent": l.sent, "hold": l.held})
        })
        .collect();
    let tanked: Vec<_> = e
        .arrivals
        .iter()
        .map(|a| json!({"frame": a.frame, "iid": a.iid, "column": a.column}))
        .collect();
    // What the import found against what TETR.IO stated, for a script to read: the
    // terminal's line, field by field.
    let disagreements: Vec<_> = crate::games::tetrio::stats::differences(&e.stats, &r.stated)
        .into_iter()
        .map(|(field, stated, computed)| {
            json!({"field": field, "tetrio": stated.map(number), "beamtris": number(computed)})
        })
        .collect();
    let import = json!({
        "replay": source,
        "round": r.round,
        "username": r.username,
        "agrees": disagreements.is_empty(),
        "disagreements": disagreements,
        "placements": placements,
        "garbage_rows": tanked,
        "stated": r.stated,
        "tetrio_stats": e.stats,
    });
    if let Some(t) = &mut seed.tetrio {
        t.import = Some(import);
    }
    let text = serde_json::to_string_pretty(&seed).expect("plain data serialises") + "\n";
    let record = record_of(e).to_string() + "\n";
    [
        (json_path, text.into_bytes()),
        (txt_path, record.into_bytes()),
    ]
}

/// A statistic as JSON: a whole number as an integer (`625`, not `625.0`), as TETR.IO writes
/// it; anything else (a final time) as the double it is.
fn number(v: f64) -> serde_json::Value {
    if v.fract() == 0. && v.abs() < 9e15 {
        json!(v as i64)
    } else {
        json!(v)
    }
}
