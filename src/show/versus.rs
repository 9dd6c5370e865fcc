//! A round of a versus replay (`.ttrm`: a `beamtris versus` match, or TETR.IO's own) as two
//! [`Replay`]s, one a player, for the side-by-side views: each player's board after each of
//! its locks as TETR.IO's engine had it (received garbage rows included), with its hold,
//! previews, combo, back-to-back and attack, and beside them the frame of the lock and the
//! garbage waiting to come in (the garbage meter).

use super::frames::Replay;
use super::tetrio_frames::TetrioState;
use crate::error::{Error, Result};
use crate::games::tetrio::engine::Engine;
use crate::games::tetrio::replay::PlayerRound;
use crate::show::frames::SoloFigures;

fn state(e: &Engine) -> TetrioState {
    TetrioState {
        snapshot: e.snapshot(5),
        points: e.stats.score,
        lines: e.stats.lines as u64,
        attack: e.stats.garbage.attack as u64,
        solo: SoloFigures::of(&e.stats),
    }
}

/// One player's round as a replay, each frame's note the lock's frame and the rows waiting.
pub fn player_replay(round: &PlayerRound) -> Result<Replay> {
    let mut states = vec![state(&Engine::new(round.options.clone()))];
    let mut notes = vec!["frame 0  incoming 0".to_string()];
    let mut locks_seen = 0;
    let e = crate::games::tetrio::simulate_observed(round, |e| {
        while locks_seen < e.locks.len() {
            locks_seen += 1;
            states.push(state(e));
            notes.push(format!(
                "frame {}  incoming {}",
                e.clock().0 - 1,
                e.incoming()
            ));
        }
    });
    let end = if e.topped_out {
        "topped out"
    } else {
        "still playing at the end"
    };
    let mut replay = Replay::from_tetrio(&states, &e.locks, &e.stats, e.locks.len(), end)?;
    for (f, note) in replay.frames.iter_mut().zip(notes) {
        f.note = Some(note);
    }
    Ok(replay)
}

/// The two players of round `game` (from 1) of `rounds`, with their names.
pub fn round_pair(
    rounds: &[PlayerRound],
    game: usize,
    file: &str,
) -> Result<[(Replay, String); 2]> {
    let players: Vec<&PlayerRound> = rounds.iter().filter(|r| r.round == game).collect();
    let last = rounds.iter().map(|r| r.round).max().unwrap_or(0);
    if players.len() != 2 {
        return Err(Error::at(
            file,
            match players.len() {
                0 => format!("--round {game}: the replay holds rounds 1 to {last}"),
                n => format!("round {game} has {n} players; the side-by-side view draws two"),
            },
        ));
    }
    let one = |r: &PlayerRound| -> Result<(Replay, String)> {
        Ok((player_replay(r)?, r.username.clone()))
    };
    Ok([one(players[0])?, one(players[1])?])
}
