//! File helpers shared by the commands: reading inputs with errors that name the file, and
//! writing outputs through a temporary name so an interrupted run leaves no torn file.

use crate::error::{Error, Result};
use crate::record::Record;
use crate::seed::Seed;
use std::path::Path;

/// Reads a text file; the error names it.
pub fn read_text(path: &Path) -> Result<String> {
    std::fs::read_to_string(path).map_err(|e| Error::at(path.display(), e))
}

/// Reads and validates a record file; the error names the file and the token.
pub fn read_record(path: &Path) -> Result<Record> {
    let text = read_text(path)?;
    Record::parse(&text).map_err(|e| Error::at(path.display(), e))
}

/// The seed at `path`, or the built-in Tencent Geek 4 game.
pub fn load_seed(path: Option<&Path>) -> Result<Seed> {
    match path {
        Some(p) => Seed::load(p).map_err(|e| Error(e.to_string())),
        None => Ok(Seed::tencent_geek_4()),
    }
}

/// Writes `contents` to `path` atomically: a temporary file beside it, then a rename.
pub fn write_atomic(path: &Path, contents: &[u8]) -> Result<()> {
    if let Some(dir) = path.parent() {
        if !dir.as_os_str().is_empty() {
            std::fs::create_dir_all(dir).map_err(|e| Error::at(dir.display(), e))?;
        }
    }
    let name = path
        .file_name()
        .ok_or_else(|| Error::at(path.display(), "not a file name"))?;
    let tmp = path.with_file_name(format!(
        ".{}.tmp{}",
        name.to_string_lossy(),
        std::process::id()
    ));
    std::fs::write(&tmp, contents).map_err(|e| Error::at(tmp.display(), e))?;
    std::fs::rename(&tmp, path).map_err(|e| Error::at(path.display(), e))
}
