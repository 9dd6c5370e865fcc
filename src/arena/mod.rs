//! The versus arena: two bots play a match on TETR.IO's versus rules, on TETR.IO's own
//! engine, each game on the same pieces for both, and the match is kept as a summary and as
//! TETR.IO's own replay (`docs/versus.md`).
//!
//! A layer above the games and the protocols: [`duel`] runs one game (two engines, the
//! clock, the network), [`reach`] turns a bot's answer into TETR.IO keys, [`bots`] are the
//! players (a TBP command, or beamtris's online player), [`ttrm`] writes the replay,
//! [`summary`] the figures.

pub mod bots;
pub mod duel;
pub mod reach;
pub mod resume;
pub mod summary;
pub mod ttrm;

use crate::error::{Error, Result};
use crate::games::tetrio::engine::Event;
use crate::games::tetrio::options::Options;
use crate::games::tetrio::stats::TetrioStats;
use bots::{Fault, Player};
use duel::{End, Side};
pub use resume::Earlier;
use serde_json::Value;
use std::sync::atomic::AtomicBool;

/// The two players' letters, as the summary names them.
pub const LETTERS: [&str; 2] = ["a", "b"];

/// The game ids the two players have in every round.
const GAME_IDS: [i64; 2] = [1, 2];

/// What a match plays.
pub struct MatchSpec {
    /// The game file's TETR.IO options (its seed replaced for each game).
    pub options: Value,
    /// The first game's seed; game g (from 0) plays seed + g.
    pub first_seed: u64,
    /// How many games at most, and the wins that end the match early (`--first-to`).
    pub games: usize,
    pub first_to: Option<usize>,
    /// Pieces a second of each player.
    pub pps: [f64; 2],
    /// The frame a game is a draw at.
    pub max_frames: i64,
    /// The players' names in the replay.
    pub usernames: [String; 2],
}

/// One player's part of a finished game.
pub struct PlayerGame {
    pub username: String,
    pub options: Value,
    pub events: Vec<(i64, Event)>,
    pub stats: TetrioStats,
    pub topped_out: bool,
}

/// A finished game.
pub struct GameRecord {
    /// Counted from 1.
    pub game: usize,
    pub seed: u64,
    /// The player who started (0: a).
    pub starter: usize,
    pub winner: Option<usize>,
    /// Why it ended, in words, and the kind (`topout`, `crashed`, `late`, `malformed`,
    /// `illegal`, `forfeit`, `both_topped_out`, `time_limit`).
    pub reason: String,
    pub reason_kind: String,
    /// The last frame.
    pub frames: i64,
    pub players: [PlayerGame; 2],
}

/// The seed of game `g` (from 0): the first seed plus g, kept a TETR.IO seed.
pub fn game_seed(first: u64, g: usize) -> u64 {
    let max = crate::games::tetrio::MAX_SEED;
    (first - 1 + g as u64) % max + 1
}

/// The options of one player's round of game `seed`.
fn round_options(spec: &MatchSpec, seed: u64, p: usize) -> Value {
    let mut o = spec.options.clone();
    o["version"] = serde_json::json!(19);
    o["seed"] = serde_json::json!(seed);
    o["gameid"] = serde_json::json!(GAME_IDS[p]);
    o["username"] = serde_json::json!(spec.usernames[p]);
    o
}

/// Plays game `g` (from 0). `None` when a signal stopped it.
fn play_game(
    spec: &MatchSpec,
    g: usize,
    players: &mut [Player; 2],
    stop: &AtomicBool,
) -> Result<Option<GameRecord>> {
    let seed = game_seed(spec.first_seed, g);
    let starter = g % 2;
    let options: [Value; 2] = [0, 1].map(|p| round_options(spec, seed, p));
    let parsed: Vec<Options> = options
        .iter()
        .map(|o| Options::parse(o, "the game's TETR.IO options"))
        .collect::<Result<_>>()?;
    let [pa, pb] = players;
    let (first, second) = if starter == 0 {
        ((0, pa), (1, pb))
    } else {
        ((1, pb), (0, pa))
    };
    let mut sides = [
        Side::new(
            parsed[first.0].clone(),
            GAME_IDS[first.0],
            first.1,
            spec.pps[first.0],
            false,
        ),
        Side::new(
            parsed[second.0].clone(),
            GAME_IDS[second.0],
            second.1,
            spec.pps[second.0],
            true,
        ),
    ];
    let order = [first.0, second.0];
    let (end, frames) = duel::play(&mut sides, spec.max_frames, stop);
    let name = |p: usize| LETTERS[p];
    let (winner, reason, kind, fault) = match &end {
        End::Interrupted => return Ok(None),
        End::ToppedOut(None) => (
            None,
            "both topped out in the same frame".to_string(),
            "both_topped_out".to_string(),
            None,
        ),
        End::ToppedOut(Some(i)) => {
            let loser = order[*i];
            (
                Some(1 - loser),
                format!("{} topped out", name(loser)),
                "topout".to_string(),
                None,
            )
        }
        End::Fault(i, f) => {
            let loser = order[*i];
            (
                Some(1 - loser),
                format!("{}: {f}", name(loser)),
                f.kind().to_string(),
                Some(loser),
            )
        }
        End::TimeLimit => (
            None,
            format!("no winner by frame {}", spec.max_frames),
            "time_limit".to_string(),
            None,
        ),
    };
    let [s0, s1] = sides;
    let mut by_player: [Option<Side>; 2] = [None, None];
    by_player[order[0]] = Some(s0);
    by_player[order[1]] = Some(s1);
    let [a, b] = by_player.map(|s| s.expect("both players"));
    let record = |s: Side, p: usize| PlayerGame {
        username: spec.usernames[p].clone(),
        options: options[p].clone(),
        stats: s.engine.stats.clone(),
        topped_out: s.engine.topped_out,
        events: s.events,
    };
    let players_games = [record(a, 0), record(b, 1)];
    if let Some(loser) = fault {
        players[loser].reset();
    }
    Ok(Some(GameRecord {
        game: g + 1,
        seed,
        starter,
        winner,
        reason,
        reason_kind: kind,
        frames,
        players: players_games,
    }))
}

/// Whether a match with these winners is over by `--first-to`.
fn decided(spec: &MatchSpec, winners: &[Option<usize>]) -> bool {
    spec.first_to
        .is_some_and(|n| (0..2).any(|p| summary::wins(winners, p) >= n))
}

/// Plays the match from the game after `earlier`'s (none, or a resumed match's): each
/// finished game is handed to `finished` (with all games this run played), which writes the
/// files, so a stop keeps every finished game. Ends after `spec.games`, at `first_to` wins,
/// or at a signal.
pub fn play_match(
    spec: &MatchSpec,
    earlier: &Earlier,
    players: &mut [Player; 2],
    stop: &AtomicBool,
    mut finished: impl FnMut(&[GameRecord]) -> Result<()>,
) -> Result<Vec<GameRecord>> {
    let mut games: Vec<GameRecord> = Vec::new();
    if decided(spec, &earlier.winners) {
        return Ok(games);
    }
    for g in earlier.winners.len()..spec.games {
        if stop.load(std::sync::atomic::Ordering::Relaxed) {
            break;
        }
        let Some(record) = play_game(spec, g, players, stop)? else {
            break;
        };
        games.push(record);
        finished(&games)?;
        if decided(spec, &earlier.winners_with(&games)) {
            break;
        }
    }
    Ok(games)
}

/// A fault a bot made before the first game could be played (it cannot be started): the
/// match cannot be held.
pub fn launch_all(players: &mut [Player; 2]) -> Result<()> {
    for (p, player) in players.iter_mut().enumerate() {
        player
            .launch()
            .map_err(|f: Fault| Error::at(format!("--{}", LETTERS[p]), format!("the bot {f}")))?;
    }
    Ok(())
}
