//! `summary.json`: each game (its seed, who started, the winner, why, and each player's
//! pieces, attack and TETR.IO statistics with APM, PPS and VS score), then the wins, the
//! draws and a 95 % interval of a's win rate (Wilson's, draws counted as half a win).
//! Nothing in it depends on the wall clock, so the same bots and seeds give the same file.

use super::{Earlier, GameRecord, LETTERS};
use crate::games::tetrio::stats::rates;
use serde_json::{json, Value};

/// Wilson's score interval at 95 % for `wins` successes of `n` trials: (low, high).
pub fn wilson(wins: f64, n: f64) -> (f64, f64) {
    if n <= 0.0 {
        return (0.0, 1.0);
    }
    let z = 1.959_963_984_540_054_f64;
    let p = wins / n;
    let centre = p + z * z / (2.0 * n);
    let spread = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt();
    let denominator = 1.0 + z * z / n;
    (
        (centre - spread) / denominator,
        (centre + spread) / denominator,
    )
}

/// A game's entry in the summary.
fn game_json(g: &GameRecord) -> Value {
    let player = |p: usize| {
        let s = &g.players[p].stats;
        let r = rates(s);
        json!({
            "pieces": s.piecesplaced,
            "attack": s.garbage.attack,
            "sent": s.garbage.sent,
            "received": s.garbage.received,
            "apm": r.apm,
            "pps": r.pps,
            "vsscore": r.vsscore,
            "stats": s,
        })
    };
    json!({
        "game": g.game,
        "seed": g.seed,
        "starter": LETTERS[g.starter],
        "winner": g.winner.map(|w| LETTERS[w]),
        "reason": g.reason,
        "reason_kind": g.reason_kind,
        "frames": g.frames,
        "a": player(0),
        "b": player(1),
    })
}

/// The games player `p` won of those won by `winners`.
pub fn wins(winners: &[Option<usize>], p: usize) -> usize {
    winners.iter().filter(|&&w| w == Some(p)).count()
}

/// The totals of the games won by `winners` (`None` a draw): wins of each player, draws, and
/// a's win rate with its interval.
pub fn totals(winners: &[Option<usize>]) -> Value {
    let (a, b) = (wins(winners, 0), wins(winners, 1));
    let draws = winners.len() - a - b;
    let n = winners.len() as f64;
    let score = a as f64 + draws as f64 / 2.0;
    let (low, high) = wilson(score, n);
    json!({
        "games": winners.len(),
        "wins": {"a": a, "b": b},
        "draws": draws,
        "win_rate_a": if n > 0.0 { json!(score / n) } else { Value::Null },
        "interval_95_a": [low, high],
        "interval_method": "Wilson score interval, draws as half a win",
    })
}

/// The whole summary: `about` (the players, the rules, the clock), each game (those of a
/// resumed match's files first), the totals.
pub fn summary(about: Value, earlier: &Earlier, games: &[GameRecord]) -> Value {
    let mut entries = earlier.summaries.clone();
    entries.extend(games.iter().map(game_json));
    json!({
        "match": about,
        "games": entries,
        "totals": totals(&earlier.winners_with(games)),
    })
}
