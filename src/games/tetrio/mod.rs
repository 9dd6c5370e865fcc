//! TETR.IO as it is played today: its replays, its engine and its statistics. A replay's
//! inputs are simulated frame by frame ([`engine`]) under the replay's options
//! ([`options`]); the result is every placement, the garbage received, and the statistics
//! TETR.IO computes ([`stats`]), to compare with those the replay states. See `docs/tetrio.md`.

pub mod attack;
pub mod blitz;
pub mod engine;
pub mod export;
pub mod family;
pub mod finesse;
pub mod game;
pub mod garbage;
pub mod options;
pub mod pieces;
pub mod replay;
pub mod solo;
pub mod stats;
pub mod survival;

use engine::Engine;
use replay::PlayerRound;

/// The largest TETR.IO seed: its generator (Park–Miller) works modulo 2³¹ − 1.
pub const MAX_SEED: u64 = 2_147_483_647;

/// What a TETR.IO seed is, for messages.
pub const SEED_RULE: &str = "an integer from 1 to 2147483647";

/// Whether `seed` is a TETR.IO seed: an integer from 1 to [`MAX_SEED`] (`--tetrio-seed`'s
/// range). The import, the options of a game file and a seed file's `tetrio` generator all
/// hold their seed to this rule.
pub fn is_seed(seed: u64) -> bool {
    (1..=MAX_SEED).contains(&seed)
}

/// Whether the round ended for this player from outside its game: a version-19 round's
/// survivor, whose game stops when the other player's death reaches it. Its last frame
/// (`frames`, where the `end` event lies) then plays its events but not its shift and fall:
/// TETR.IO stops the game before them. Seen on the soft drop's points: 8 of the 900
/// version-19 rounds (the first: round 8 of `replay-2026-07-22-5.ttrm`, yachi's 83rd piece,
/// soft dropped from frame 3505.5) scored a row in that frame that TETR.IO did not, and no
/// round agrees only by it. A player who tops out ends the game in its own last frame, whose
/// fall and lock TETR.IO plays (the lock that tops out counts a piece), and a version-15
/// replay counts the frame in play in its `frames` (as its final time does).
fn ended_from_outside(round: &PlayerRound) -> bool {
    round.options.version == 19 && round.alive == Some(true)
}

/// Plays one player's round from its inputs to its last frame.
pub fn simulate(round: &PlayerRound) -> Engine {
    simulate_frames(round, |_, _| {})
}

/// [`simulate`], calling `after_frame` with each frame's number and the engine after it
/// (the views draw a round from it: its locks, and the garbage meter between them).
pub fn simulate_frames(round: &PlayerRound, after_frame: impl FnMut(i64, &Engine)) -> Engine {
    play_events(
        round.options.clone(),
        &round.events,
        round.frames,
        ended_from_outside(round),
        after_frame,
    )
}

/// Plays `events` (each with its frame) under `options`, frame by frame from 0 to `frames`
/// (or the last event's frame, if later). With `stopped_at_frames`, frame `frames` plays its
/// events but not its shift and fall, as TETR.IO plays a survivor's last frame (see
/// [`ended_from_outside`]). The import replays a round with it, and the versus arena its
/// winner's game, so the two agree on every statistic.
pub fn play_events(
    options: options::Options,
    events: &[(i64, engine::Event)],
    frames: i64,
    stopped_at_frames: bool,
    mut after_frame: impl FnMut(i64, &Engine),
) -> Engine {
    let mut e = Engine::new(options);
    let last = events
        .iter()
        .map(|(f, _)| *f)
        .max()
        .unwrap_or(0)
        .max(frames);
    let mut order: Vec<&(i64, engine::Event)> = events.iter().collect();
    order.sort_by_key(|(f, _)| *f);
    let mut i = 0;
    let mut batch = Vec::new();
    for f in 0..=last {
        batch.clear();
        while i < order.len() && order[i].0 <= f {
            batch.push(order[i].1.clone());
            i += 1;
        }
        if f == frames && stopped_at_frames {
            e.tick_last(&batch);
        } else {
            e.tick(&batch);
        }
        after_frame(f, &e);
    }
    e
}
