//! `beamtris import MOVIE.fm2 --at F1,F2,...`: an NES Tetris movie played from power-on,
//! and the game's state at each frame asked, one JSON object a line (or, with `--out DIR`,
//! a JSON array in `DIR/MOVIE.json`).

use crate::error::{Error, Result};
use crate::games::nes::{fm2, movie};
use std::path::Path;

/// Plays the movie at `path` and reports the frames `at` (the movie's last frame if none).
pub fn run(path: &Path, at: &[u64], out: Option<&Path>) -> Result<()> {
    let text = crate::io::read_text_up_to(path, fm2::MAX_BYTES)?;
    let m = fm2::parse(&path.display().to_string(), &text)?;
    let last = [m.inputs.len() as u64];
    let frames = if at.is_empty() { &last[..] } else { at };
    let shots = movie::play(&m, frames)?;
    match out {
        None => {
            for s in &shots {
                let line = serde_json::to_string(s).map_err(|e| Error(e.to_string()))?;
                println!("{line}");
            }
            Ok(())
        }
        Some(dir) => {
            crate::io::create_dir(dir)
                .map_err(|e| Error(format!("--out {}: {e}", dir.display())))?;
            let stem = path
                .file_stem()
                .map_or("movie".into(), |s| s.to_string_lossy().into_owned());
            let file = dir.join(format!("{stem}.json"));
            let text = serde_json::to_string_pretty(&shots).map_err(|e| Error(e.to_string()))?;
            crate::io::write_atomic(&file, format!("{text}\n").as_bytes())
        }
    }
}
