//! A round of a versus replay (`.ttrm`: a `beamtris versus` match, or TETR.IO's own) as two
//! [`Replay`]s, one a player, for the side-by-side views: each player's board after each of
//! its locks as TETR.IO's engine had it (received garbage rows included), with its hold,
//! previews, combo, back-to-back and attack; the frame of each lock, so the two are drawn in
//! step; and the garbage waiting to come in (the garbage meter) frame by frame.

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

/// One player of a versus round, for the side-by-side views.
pub struct VersusSide {
    /// The board and figures after 0, 1, ... n of its locks.
    pub replay: Replay,
    pub name: String,
    /// The frame of each state of [`VersusSide::replay`] (0 for the start, then each lock's),
    /// so that the two players are drawn in step, as they played, not lock by lock.
    pub lock_frames: Vec<i64>,
    /// The garbage meter: each frame at which the rows waiting changed, with the new count
    /// (from frame 0, whose count is 0).
    pub meter: Vec<(i64, i64)>,
}

impl VersusSide {
    /// The rows waiting after frame `frame`.
    pub fn incoming_at(&self, frame: i64) -> i64 {
        let i = self.meter.partition_point(|&(f, _)| f <= frame);
        i.checked_sub(1).map_or(0, |i| self.meter[i].1)
    }

    /// The locks this player had made by the end of frame `frame`: the state to draw then.
    pub fn locks_by(&self, frame: i64) -> usize {
        self.lock_frames[1..].partition_point(|&f| f <= frame)
    }

    /// The frame and the rows waiting after it, in words.
    pub fn note(&self, frame: i64) -> String {
        format!("frame {frame}  incoming {}", self.incoming_at(frame))
    }
}

/// The frame in which the `k`-th piece of the game locked, both players' pieces counted in
/// the order they locked (`k` = 0: the start); with no `k`, the game's last frame. The text
/// view draws both players at it, in step as they played.
pub fn frame_of_lock(sides: &[VersusSide; 2], k: Option<usize>) -> i64 {
    let mut frames: Vec<i64> = sides
        .iter()
        .flat_map(|s| s.lock_frames[1..].iter().copied())
        .collect();
    frames.sort_unstable();
    let end = sides
        .iter()
        .flat_map(|s| {
            s.lock_frames
                .last()
                .into_iter()
                .chain(s.meter.last().map(|m| &m.0))
        })
        .copied()
        .max()
        .unwrap_or(0);
    match k {
        None => end,
        Some(0) => 0,
        Some(k) => frames.get(k - 1).or(frames.last()).copied().unwrap_or(0),
    }
}

/// How the round ended for a player, in words: as the engine played it (a top-out), else as
/// the replay states it (a `beamtris versus` round: `winner`, `disconnect` for a bot that
/// failed, `draw`), else by whether it was alive at the end.
fn round_end(round: &PlayerRound, topped_out: bool) -> &'static str {
    if topped_out {
        return "topped out";
    }
    match (round.gameover.as_deref(), round.alive) {
        (Some("winner"), _) => "won the round",
        (Some("disconnect"), _) => "out: its bot gave up, failed or left",
        (Some("draw"), _) => "a draw",
        (Some(_), _) | (None, Some(false)) => "out of the round",
        (None, _) => "still playing at the end",
    }
}

/// One player's round: its replay, each lock's frame, and the garbage meter frame by frame.
pub fn player_side(round: &PlayerRound) -> Result<VersusSide> {
    let mut states = vec![state(&Engine::new(round.options.clone()))];
    let mut lock_frames = vec![0];
    let mut meter = vec![(0, 0)];
    let e = crate::games::tetrio::simulate_frames(round, |f, e| {
        while lock_frames.len() <= e.locks.len() {
            states.push(state(e));
            lock_frames.push(f);
        }
        if meter.last().is_some_and(|&(_, n)| n != e.incoming()) {
            meter.push((f, e.incoming()));
        }
    });
    let end = round_end(round, e.topped_out);
    let replay = Replay::from_tetrio(&states, &e.locks, &e.stats, e.locks.len(), end)?;
    Ok(VersusSide {
        replay,
        name: round.username.clone(),
        lock_frames,
        meter,
    })
}

/// The two players of round `game` (from 1) of `rounds`, with their names.
pub fn round_pair(rounds: &[PlayerRound], game: usize, file: &str) -> Result<[VersusSide; 2]> {
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
    Ok([player_side(players[0])?, player_side(players[1])?])
}
