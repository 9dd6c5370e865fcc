//! `export`, the capability of TETR.IO's games and of guideline games of TETR.IO's
//! generator: a record handed back as a `.ttr` by [`crate::games::tetrio::export`]. Both
//! families' `Family::export` call it.

use crate::error::{Error, Result};
use crate::game_def::GameDef;
use crate::games::tetrio::export::Exported;
use crate::games::tetrio::game::TetrioGame;
use crate::record::Record;

/// `record` exported on the TETR.IO game of `seed` (a game file of TETR.IO's options, or a
/// guideline game of TETR.IO's generator, played on today's rules): see
/// [`crate::games::tetrio::export`].
pub fn export_on(
    seed: &GameDef,
    record: &Record,
    pps: Option<f64>,
    record_place: &str,
    game_place: &str,
) -> Result<Exported> {
    let game = tetrio_game(seed, game_place)?;
    if record.pieces() > seed.pieces {
        return Err(Error::at(
            record_place,
            format!(
                "{} pieces, more than the game's {}: the record does not fit this game",
                record.pieces(),
                seed.pieces
            ),
        ));
    }
    let paths = record.path_letters();
    crate::games::tetrio::export::export(&game, &paths, pps, record_place, game_place, "beamtris")
}

/// The game's TETR.IO part ([`GameDef::tetrio_game`]), or why it has none to export on.
fn tetrio_game(seed: &GameDef, place: &str) -> Result<TetrioGame> {
    if seed.start.is_some() {
        return Err(Error::at(
            place,
            "starts from a board of its own: TETR.IO's games start empty",
        ));
    }
    seed.tetrio_game().ok_or_else(|| {
        Error::at(
            place,
            "is not a game of TETR.IO's generator (an import's game file or --tetrio-seed)",
        )
    })
}
