//! The files `import --out` writes for one player's round.

use crate::error::Result;
use crate::tetrio::engine::Engine;
use crate::tetrio::replay::PlayerRound;
use std::path::Path;

pub fn write(_dir: &Path, _r: &PlayerRound, _e: &Engine) -> Result<()> {
    Ok(())
}
