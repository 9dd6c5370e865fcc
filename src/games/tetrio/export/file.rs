//! The `.ttr` file: TETR.IO's solo replay as its "download" writes it (version 15): `user`,
//! `gametype`, `endcontext` (the statistics), `data.frames` and `data.events`: `start`, a
//! `full` event with the options, the key events, `end`.

use super::plan::{key_name, Press};
use crate::games::tetrio::stats::TetrioStats;
use serde_json::{json, Value};

/// What the file says besides its keys.
pub struct Header<'a> {
    /// The options as the game file has them (the version becomes 15, a `.ttr`'s).
    pub options: &'a Value,
    pub username: &'a str,
    /// The statistics at the end (from the engine's run of the keys).
    pub stats: &'a TetrioStats,
    /// The game was lost (the last spawn was blocked).
    pub topped_out: bool,
    /// The frame of the last key.
    pub last_frame: i64,
    /// When the file is written, as `YYYY-MM-DDTHH:MM:SS.000Z`.
    pub ts: String,
    /// TETR.IO's name of the mode ([`gametype`]).
    pub gametype: &'static str,
}

/// TETR.IO's name of a solo mode, as its replays write `gametype`: `40l` for 40 LINES (40
/// lines, no levels, no S, Z or O first), `blitz` for BLITZ (two minutes with levels, no S,
/// Z or O first), `custom` for any other game.
pub fn gametype(o: &crate::games::tetrio::options::Options) -> &'static str {
    use crate::games::tetrio::solo::Objective;
    match o.objective {
        Objective::Lines(40) if o.no_szo && o.levels.is_none() => "40l",
        Objective::Timed(ms) if ms == 120_000.0 && o.no_szo && o.levels.is_some() => "blitz",
        _ => "custom",
    }
}

/// The options a `.ttr` carries: the game's, as version 15.
pub fn options(game_options: &Value) -> Value {
    let mut o = game_options.clone();
    o["version"] = json!(15);
    o
}

/// The statistics as `endcontext` holds them: every field of [`TetrioStats`] by TETR.IO's
/// names, with the seed and the game type.
fn statistics(stats: &TetrioStats, seed: &Value, gametype: &str) -> Value {
    let mut s = serde_json::to_value(stats).expect("plain data serialises");
    s["seed"] = seed.clone();
    s["gametype"] = json!(gametype);
    s
}

/// The whole replay.
pub fn ttr(h: &Header, presses: &[Press]) -> Value {
    let options = options(h.options);
    let seed = options.get("seed").cloned().unwrap_or(Value::Null);
    let empty = statistics(&TetrioStats::default(), &seed, h.gametype);
    let end = statistics(h.stats, &seed, h.gametype);
    let mut events = vec![
        json!({"frame": 0, "type": "start", "data": {}}),
        json!({"frame": 0, "type": "full", "data": {
            "successful": false, "gameoverreason": null, "replay": {}, "source": {},
            "options": options, "stats": empty, "targets": [], "fire": 0,
        }}),
    ];
    for p in presses {
        let subframe = (p.tenth.rem_euclid(10)) as f64 / 10.0;
        let data = match p.down {
            true => json!({"key": key_name(p.key), "subframe": subframe, "hoisted": false}),
            false => json!({"key": key_name(p.key), "subframe": subframe}),
        };
        let kind = if p.down { "keydown" } else { "keyup" };
        events.push(json!({"frame": p.tenth.div_euclid(10), "type": kind, "data": data}));
    }
    let reason = if h.topped_out { "topout" } else { "clear" };
    events.push(json!({"frame": h.last_frame, "type": "end", "data": {
        "reason": reason,
        "export": {
            "successful": !h.topped_out, "gameoverreason": reason, "replay": {}, "source": {},
            "options": options, "stats": end, "targets": [], "fire": 0,
        },
    }}));
    json!({
        "user": {"username": h.username},
        "endcontext": end,
        "ts": h.ts,
        "gametype": h.gametype,
        "verified": false,
        "data": {"frames": h.last_frame + 1, "events": events},
    })
}

/// The time now as TETR.IO writes `ts` (UTC, with milliseconds).
pub fn now() -> String {
    crate::results::utc_now_iso().replace('Z', ".000Z")
}
