//! A match as TETR.IO's versus replay (`.ttrm`, version 19, the layout of the public
//! replays `import` reads): `replay.rounds`, each the two players' rounds with their
//! options, frames, events (`start`, the `target` message, key events, garbage
//! `interaction` and `interaction_confirm` messages, `end`) and the statistics at the end;
//! `replay.leaderboard` with the wins. No timestamp: the same match gives the same file.

use super::{Earlier, GameRecord};
use crate::games::tetrio::engine::Event;
use crate::games::tetrio::export::plan::key_name;
use crate::games::tetrio::stats::{rates, TetrioStats};
use serde_json::{json, Value};

/// The statistics as a version-19 round's `results.stats` holds them.
fn stats_json(s: &TetrioStats) -> Value {
    let mut v = serde_json::to_value(s).expect("plain data serialises");
    v["finaltime"] = json!(s.final_time);
    v
}

/// One event of a round's list; `id` numbers the `ige` messages as TETR.IO does.
fn event_json(frame: i64, e: &Event, id: &mut u64) -> Value {
    let mut ige = |kind: &str, data: Value| {
        *id += 1;
        json!({"frame": frame, "type": "ige",
               "data": {"id": *id - 1, "type": kind, "frame": frame, "data": data}})
    };
    match e {
        Event::KeyDown {
            key,
            subframe,
            hoisted,
        } => json!({"frame": frame, "type": "keydown",
                    "data": {"key": key_name(*key), "subframe": subframe, "hoisted": hoisted}}),
        Event::KeyUp { key, subframe } => json!({"frame": frame, "type": "keyup",
                    "data": {"key": key_name(*key), "subframe": subframe}}),
        Event::Garbage {
            gameid,
            iid,
            ackiid,
            amount,
            size,
            ..
        } => ige(
            "interaction",
            json!({"gameid": gameid, "frame": frame - 1, "cid": iid, "iid": iid,
                   "type": "garbage", "amt": amount, "ackiid": ackiid, "x": -1, "y": 0,
                   "size": size}),
        ),
        Event::Confirm { gameid, iid } => ige(
            "interaction_confirm",
            json!({"gameid": gameid, "frame": frame - 1, "cid": iid, "iid": iid,
                   "type": "garbage"}),
        ),
        Event::Targets(t) => ige("target", json!({"targets": t})),
    }
}

/// One player's round.
fn round_json(g: &GameRecord, p: usize) -> Value {
    let side = &g.players[p];
    let r = rates(&side.stats);
    let mut id = 0;
    let mut events = vec![json!({"frame": 0, "type": "start", "data": {}})];
    events.extend(side.events.iter().map(|(f, e)| event_json(*f, e, &mut id)));
    events.push(json!({"frame": g.frames, "type": "end", "data": {}}));
    let reason = if g.winner == Some(p) {
        "winner"
    } else if side.topped_out {
        "topout"
    } else if g.winner.is_some() {
        // A bot that failed: TETR.IO's name for a player who left.
        "disconnect"
    } else {
        "draw"
    };
    json!({
        "id": side.username, "username": side.username, "active": true,
        "naturalorder": p, "shadows": [], "shadowedBy": [null, null],
        "alive": g.winner == Some(p),
        "lifetime": (g.frames as f64 * 1000.0 / 60.0).round() as i64,
        "stats": {"apm": r.apm, "pps": r.pps, "vsscore": r.vsscore,
                  "garbagesent": side.stats.garbage.sent,
                  "garbagereceived": side.stats.garbage.received,
                  "kills": u32::from(g.winner == Some(p)), "altitude": 0, "rank": 0,
                  "targetingfactor": 3, "targetinggrace": 0, "btb": side.stats.btb,
                  "revives": 0},
        "replay": {
            "frames": g.frames,
            "events": events,
            "options": side.options,
            "results": {
                "aggregatestats": {"apm": r.apm, "pps": r.pps, "vsscore": r.vsscore},
                "gameoverreason": reason,
                "stats": stats_json(&side.stats),
            },
        },
    })
}

/// The whole match (the rounds of a resumed match's file first); `usernames` are the two
/// players' names in the file.
pub fn ttrm(earlier: &Earlier, games: &[GameRecord], usernames: &[String; 2]) -> Value {
    let winners = earlier.winners_with(games);
    let leaderboard: Vec<Value> = (0..2)
        .map(|p| {
            json!({"id": usernames[p], "username": usernames[p], "active": true,
                   "naturalorder": p, "shadows": [], "shadowedBy": [null, null],
                   "wins": super::summary::wins(&winners, p)})
        })
        .collect();
    let mut rounds = earlier.rounds.clone();
    rounds.extend(
        games
            .iter()
            .map(|g| Value::Array((0..2).map(|p| round_json(g, p)).collect())),
    );
    json!({
        "id": null, "gamemode": null,
        "users": usernames.iter().map(|u| json!({"id": u, "username": u,
            "avatar_revision": 0, "banner_revision": 0, "flags": 0, "country": null}))
            .collect::<Vec<_>>(),
        "replay": {"leaderboard": leaderboard, "rounds": rounds},
        "version": 1,
    })
}
