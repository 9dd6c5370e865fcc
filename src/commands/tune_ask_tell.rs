//! `tune --ask` / `tune --tell`: the cross-entropy method with its scoring done elsewhere.
//!
//! A generation's candidates are written as weights files and one `beamtris solve` command
//! per line; whatever runs those lines (GNU parallel on this machine or over ssh, a Slurm
//! job array) leaves one replay-verified results JSON per candidate, and `--tell` reads them
//! back into the same state.json the in-process `tune` keeps. The candidates are the ones
//! `tune` itself would score (the sampling is deterministic in the state), so a folder can
//! go on with either runner.

use super::tune::{write_outputs, Args, State};
use crate::error::{Error, Result};
use crate::io;
use crate::games::tencent::movegen::MoveSet;
use crate::results::RunInfo;
use crate::search::tune::{self, Tunable};
use clap::ValueEnum;
use std::path::{Path, PathBuf};

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
    let mut words = vec!["beamtris".to_string(), "solve".to_string()];
    if let Some(seed) = &args.seed {
        words.push("--seed".into());
        words.push(shell_word(&seed.display().to_string()));
    }
    words.extend(["--beam".to_string(), beam.to_string()]);
    if let Some(moves) = moves {
        let name = moves
            .to_possible_value()
            .expect("every move set has a name");
        words.extend(["--moves".to_string(), name.get_name().to_string()]);
    }
    words.extend([
        "--pieces".to_string(),
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

fn json<T: serde::Serialize>(v: &T) -> String {
    format!(
        "{}\n",
        serde_json::to_string_pretty(v).expect("plain data serialises")
    )
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

/// The score candidate `k` earned at its `j`-th width `beam`, or why it has none yet.
fn read_result(
    dir: &Path,
    (k, j, beam): (usize, usize, usize),
    want: &serde_json::Value,
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
    if !v.get("stopped_by").is_none_or(|b| b.is_null()) {
        return Err(format!("{name} (stopped before the end)"));
    }
    if v.get("beam").and_then(|b| b.as_u64()) != Some(beam as u64) {
        return Err(format!("{name} (searched at another width)"));
    }
    v.get("score")
        .and_then(|s| s.as_f64())
        .ok_or_else(|| format!("{name} (no score)"))
}

/// Reads the asked generation's results and refits the distribution.
pub fn tell<W: Tunable>(args: &Args, state: &mut State<W>) -> Result<()> {
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
            match read_result(&dir, (k, j, beam), &want) {
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
