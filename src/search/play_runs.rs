//! The results of many games by one player, kept as they finish: a partial results file (a
//! header line, then one JSON line a game) that an interrupted run resumes, and the
//! statistics over the games.

use crate::error::{Error, Result};
use crate::eval::players::Weights;
use crate::games::standard::TopOut;
use serde::{Deserialize, Serialize};
use std::collections::HashSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// Mean, standard error of the mean, min and max.
pub fn stats(values: &[u64]) -> (f64, f64, u64, u64) {
    let n = values.len() as f64;
    if values.is_empty() {
        return (0.0, 0.0, 0, 0);
    }
    let mean = values.iter().map(|&v| v as f64).sum::<f64>() / n;
    let var = if values.len() > 1 {
        values
            .iter()
            .map(|&v| (v as f64 - mean).powi(2))
            .sum::<f64>()
            / (n - 1.0)
    } else {
        0.0
    };
    let min = values.iter().copied().min().unwrap_or(0);
    let max = values.iter().copied().max().unwrap_or(0);
    (mean, (var / n).sqrt(), min, max)
}

/// The settings a partial results file was made with: a rerun resumes it only when they are
/// the same.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct PartialHeader {
    pub game: String,
    pub policy: String,
    pub weights: Weights,
    pub top_out: TopOut,
    pub seed: u64,
    pub max_lines: Option<u64>,
    pub max_pieces: Option<u64>,
}

/// One finished game, one line of the partial results file.
#[derive(Serialize, Deserialize, Debug, Clone, Copy, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct GameLine {
    /// Game index: generator seed `seed + game`.
    pub game: u64,
    pub lines: u64,
    pub pieces: u64,
    pub capped: bool,
    pub seconds: f64,
    pub cpu_seconds: Option<f64>,
}

/// The partial results file of a results file: `OUT` with `.partial.jsonl`.
pub fn partial_path(out: &Path) -> PathBuf {
    out.with_extension("partial.jsonl")
}

/// Reads a partial results file: its header and the games it holds (the first line kept for a
/// game listed twice). A last line cut short by a kill is dropped (and cut from the file, so
/// that appending goes on after the last whole line).
pub fn read_partial(path: &Path) -> Result<Option<(PartialHeader, Vec<GameLine>)>> {
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(Error::at(path.display(), e)),
    };
    let text = String::from_utf8(bytes).map_err(|e| {
        Error(format!(
            "{} line {}: not UTF-8 text (a partial results file is JSON lines)",
            path.display(),
            crate::io::first_bad_line(&e)
        ))
    })?;
    let whole = match text.rfind('\n') {
        Some(i) => &text[..=i],
        None => "",
    };
    if whole.len() != text.len() {
        let f = std::fs::OpenOptions::new()
            .write(true)
            .open(path)
            .map_err(|e| Error::at(path.display(), e))?;
        f.set_len(whole.len() as u64)
            .map_err(|e| Error::at(path.display(), e))?;
    }
    let mut lines = whole.lines();
    let Some(first) = lines.next() else {
        return Ok(None);
    };
    let header: PartialHeader = serde_json::from_str(first).map_err(|e| line_error(path, 1, &e))?;
    let mut seen = HashSet::new();
    let mut games = Vec::new();
    for (i, line) in lines.enumerate() {
        let g: GameLine = serde_json::from_str(line).map_err(|e| line_error(path, i + 2, &e))?;
        let time_ok = |t: f64| t.is_finite() && t >= 0.0;
        if !time_ok(g.seconds) || !g.cpu_seconds.is_none_or(time_ok) {
            return Err(Error(format!(
                "{} line {}: seconds {} and cpu_seconds {:?} are not times a game took",
                path.display(),
                i + 2,
                g.seconds,
                g.cpu_seconds
            )));
        }
        if let Some(why) = impossible(&g, &header) {
            return Err(Error(format!("{} line {}: {why}", path.display(), i + 2)));
        }
        if seen.insert(g.game) {
            games.push(g);
        }
    }
    Ok(Some((header, games)))
}

/// Why a finished game `g` cannot have been played under `header`, if it cannot: every piece
/// adds 4 cells and every line takes 10, a game stops at its caps (a line cap can be passed
/// by the last clear's 3 more rows at most).
fn impossible(g: &GameLine, header: &PartialHeader) -> Option<String> {
    if g.lines.saturating_mul(10) > g.pieces.saturating_mul(4) {
        return Some(format!(
            "{} lines over {} pieces: more than their cells can fill",
            g.lines, g.pieces
        ));
    }
    if let Some(cap) = header.max_lines {
        if g.lines > cap.saturating_add(3) {
            return Some(format!("{} lines past the cap of {cap}", g.lines));
        }
    }
    if let Some(cap) = header.max_pieces {
        if g.pieces > cap {
            return Some(format!("{} pieces past the cap of {cap}", g.pieces));
        }
    }
    None
}

/// A JSON error on line `n` of a JSON-lines file, its place said once: each record is one
/// line, so serde's own place is always its line 1 and only the column is kept.
fn line_error(path: &Path, n: usize, e: &serde_json::Error) -> Error {
    Error(format!(
        "{} line {n} column {}: {}",
        path.display(),
        e.column(),
        crate::error::json_what(e)
    ))
}

/// Appends whole lines to the partial results file, each with one write and a flush.
pub struct PartialWriter(Mutex<std::fs::File>);

impl PartialWriter {
    /// Opens `path` for appending (creating it).
    pub fn open(path: &Path) -> Result<PartialWriter> {
        let f = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| Error::at(path.display(), e))?;
        Ok(PartialWriter(Mutex::new(f)))
    }
    /// Appends `value` as one JSON line.
    pub fn line<T: Serialize>(&self, value: &T) -> std::io::Result<()> {
        let mut text = serde_json::to_string(value).expect("plain data serialises");
        text.push('\n');
        let mut f = self.0.lock().unwrap_or_else(|e| e.into_inner());
        f.write_all(text.as_bytes())?;
        f.flush()
    }
}

/// The median of `values` (the mean of the middle two for an even count; 0 for none).
pub fn median(values: &[f64]) -> f64 {
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    match v.len() {
        0 => 0.0,
        n if n % 2 == 1 => v[n / 2],
        n => (v[n / 2 - 1] + v[n / 2]) / 2.0,
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// The header of a partial file of BCTS games on the standard game.
    pub(crate) fn bcts_header() -> PartialHeader {
        PartialHeader {
            game: "standard".into(),
            policy: "bcts".into(),
            weights: Weights::BCTS,
            top_out: TopOut::Simplified,
            seed: 1,
            max_lines: Some(2_000),
            max_pieces: None,
        }
    }

    fn temp(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("beamtris-play-runs-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn a_partial_file_s_bad_line_is_named_once_and_bad_times_refused() {
        let dir = temp("badline");
        let path = dir.join("r.partial.jsonl");
        let header = bcts_header();
        let head = serde_json::to_string(&header).unwrap();
        let game = |seconds: &str| {
            format!(
                r#"{{"game":0,"lines":5,"pieces":20,"capped":false,"seconds":{seconds},"cpu_seconds":1.0}}"#
            )
        };
        std::fs::write(&path, format!("{head}\n{}\n", game("0.5"))).unwrap();
        assert_eq!(read_partial(&path).unwrap().unwrap().1.len(), 1);
        std::fs::write(&path, format!("{head}\n{}\n", game("-3"))).unwrap();
        let e = read_partial(&path).unwrap_err();
        assert!(
            e.0.ends_with("line 2: seconds -3 and cpu_seconds Some(1.0) are not times a game took"),
            "{e}"
        );
        std::fs::write(&path, format!("{head}\n{}\n", game("\"x\""))).unwrap();
        let e = read_partial(&path).unwrap_err();
        assert!(e.0.contains("r.partial.jsonl line 2 column "), "{e}");
        assert_eq!(e.0.matches(" line ").count(), 1, "{e}");
        std::fs::write(
            &path,
            [format!("{head}\n").as_bytes(), b"{\"game\xff\n"].concat(),
        )
        .unwrap();
        let e = read_partial(&path).unwrap_err();
        assert!(
            e.0.ends_with(
                "r.partial.jsonl line 2: not UTF-8 text (a partial results file is JSON lines)"
            ),
            "{e}"
        );
        // games no game can be: more lines than the pieces fill, past the line cap (2 000),
        // a key the file never holds
        for (line, why) in [
            (
                r#"{"game":1,"lines":9,"pieces":20,"capped":false,"seconds":1,"cpu_seconds":1}"#,
                "line 2: 9 lines over 20 pieces: more than their cells can fill",
            ),
            (
                r#"{"game":1,"lines":99999,"pieces":999999,"capped":true,"seconds":1,"cpu_seconds":1}"#,
                "line 2: 99999 lines past the cap of 2000",
            ),
            (
                r#"{"game":1,"lines":1,"pieces":9,"capped":false,"seconds":1,"cpu_seconds":1,"bogus":1}"#,
                "unknown field `bogus`",
            ),
        ] {
            std::fs::write(&path, format!("{head}\n{line}\n")).unwrap();
            let e = read_partial(&path).unwrap_err();
            assert!(e.0.contains(why), "{e}");
        }
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn medians() {
        assert_eq!(median(&[5.0, 1.0, 3.0]), 3.0);
        assert_eq!(median(&[4.0, 1.0, 3.0, 2.0]), 2.5);
        assert_eq!(median(&[]), 0.0);
    }

    #[test]
    fn stats_of_a_small_sample() {
        let (mean, se, min, max) = super::stats(&[1, 2, 3, 4]);
        assert_eq!((mean, min, max), (2.5, 1, 4));
        // sample variance 5/3, s.e. sqrt(5/3/4)
        assert!((se - (5.0f64 / 12.0).sqrt()).abs() < 1e-12);
    }
}
