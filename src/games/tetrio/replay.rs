//! TETR.IO replay files: `.ttrm` (a multiplayer match, version 19: `replay.rounds`, each a
//! list of players' rounds; or the older match of versions 15 to 18: `data`, a list of rounds,
//! each with `replays`, one a player, shaped as a `.ttr`'s `data`) and `.ttr` (a solo game,
//! version 15: `data.events` with a `full` event holding the options, the statistics in
//! `endcontext`). Read into one [`PlayerRound`] per round and player.

use super::engine::{Event, Key};
use super::options::Options;
use crate::error::{Error, Result};
use serde_json::Value;
use std::collections::HashMap;

/// One player's round of a replay.
pub struct PlayerRound {
    /// Counted from 1.
    pub round: usize,
    /// The player's place in the round's list, counted from 1 (a `.ttr`'s player is 1).
    pub player: usize,
    pub username: String,
    pub options: Options,
    /// The options object as the replay has it.
    pub raw_options: Value,
    /// Events with the frame they act on, in the replay's order.
    pub events: Vec<(i64, Event)>,
    /// The replay's frame count.
    pub frames: i64,
    /// The statistics TETR.IO stated at the end.
    pub stated: Value,
    /// Whether the player was still alive at the end (a `.ttr` is always), if stated.
    pub alive: Option<bool>,
    /// How the round ended for the player, as a version-19 `.ttrm` states it
    /// (`replay.results.gameoverreason`: `winner`, `topout`, `disconnect`, ...).
    pub gameover: Option<String>,
}

fn get<'a>(v: &'a Value, path: &str, file: &str) -> Result<&'a Value> {
    let mut cur = v;
    for part in path.split('.') {
        cur = cur
            .get(part)
            .filter(|x| !x.is_null())
            .ok_or_else(|| Error::at(file, format!("missing field `{path}`")))?;
    }
    Ok(cur)
}

/// The most frames a round may last: 1 000 000 frames is 4 h 37 min at TETR.IO's 60 frames
/// a second (the longest round of the 905 checked lasts 14 406). The simulation plays every
/// frame, so a larger count (or an event past it) would run for hours and fill the memory.
pub const MAX_FRAMES: i64 = 1_000_000;

/// A frame number: a whole number (`1.0` too, not `1.5`) from 0 to `last`; `at` names the
/// field, `end` says what `last` is.
fn frame_number(v: &Value, file: &str, at: &str, last: i64, end: &str) -> Result<i64> {
    // A whole number as one (`1e15` as 1000000000000000), anything else as the file has it.
    let shown = || match v.as_f64() {
        Some(f) if f.fract() == 0.0 && f.abs() < 1e18 => format!("{}", f as i64),
        _ => crate::error::printable(&v.to_string()),
    };
    let f = v
        .as_f64()
        .ok_or_else(|| Error::at(file, format!("{at}: {} is not a number", shown())))?;
    if f.fract() != 0.0 {
        return Err(Error::at(
            file,
            format!("{at}: {} is not a whole number of frames", shown()),
        ));
    }
    if f < 0.0 {
        return Err(Error::at(
            file,
            format!("{at}: {} is negative (frames count from 0)", shown()),
        ));
    }
    if f > last as f64 {
        return Err(Error::at(file, format!("{at}: {} is past {end}", shown())));
    }
    Ok(f as i64)
}

/// The replay's frame count (`at` names the field), at most [`MAX_FRAMES`].
fn frame_count(v: &Value, file: &str, at: &str) -> Result<i64> {
    frame_number(
        v,
        file,
        at,
        MAX_FRAMES,
        &format!("the {MAX_FRAMES} frames a round may last (4 h 37 min at 60 frames a second)"),
    )
}

/// The players' game ids of one file as numbers: version 19 writes numbers, the older
/// matches strings (a user id and a game number), which are numbered here in the order met,
/// the same string the same number in every round and player of the file.
#[derive(Default)]
struct GameIds(HashMap<String, i64>);

impl GameIds {
    /// Numbers given to strings start past any id version 19 writes (a few thousand).
    const FIRST: i64 = 1 << 40;

    fn of(&mut self, v: &Value) -> Option<i64> {
        if let Some(n) = v.as_f64() {
            return Some(n as i64);
        }
        let s = v.as_str()?;
        let next = Self::FIRST + self.0.len() as i64;
        Some(*self.0.entry(s.to_string()).or_insert(next))
    }
}

/// A garbage message's sender and batch: version 19 puts them in the message (`gameid`,
/// `iid`, and `ackiid`, the last of our batches the sender had seen), version 18 the
/// `gameid` beside it; version 15
/// the batch as `cid` and the sender as `sender_id` (or only its name, `sender`) beside it,
/// and early version-15 games no `ackiid` at all: their sender's view of our attacks is not
/// known, so such a batch arrives whole (no network cancelling).
struct Message<'a> {
    /// The message (`amt`, `iid`, `ackiid`, `size`, `x`) and what wraps it.
    payload: &'a Value,
    wrapper: &'a Value,
}

impl Message<'_> {
    fn field(&self, k: &str) -> Option<&Value> {
        self.payload
            .get(k)
            .or_else(|| self.wrapper.get(k))
            .filter(|v| !v.is_null())
    }
    fn sender(&self) -> Option<&Value> {
        ["gameid", "sender_id", "sender"]
            .iter()
            .find_map(|k| self.field(k))
    }
    fn batch(&self) -> Option<&Value> {
        self.payload.get("iid").or_else(|| self.wrapper.get("cid"))
    }
}

/// The `ackiid` of a message that states none: its sender had seen all our batches, so none
/// is taken off it (network cancelling needs to know which it had not seen).
pub const NO_ACK: i64 = i64::MAX;

/// The events of `list` (`place` names it), each at a frame from 0 to `frames`.
fn events(
    list: &Value,
    file: &str,
    place: &str,
    frames: i64,
    ids: &mut GameIds,
) -> Result<Vec<(i64, Event)>> {
    let list = list
        .as_array()
        .ok_or_else(|| Error::at(file, format!("`{place}` is not a list")))?;
    let end = format!("the replay's end (frames {frames})");
    let mut out = Vec::new();
    for (i, e) in list.iter().enumerate() {
        let at = format!("{place}[{i}]");
        let frame = get(e, "frame", file)
            .map_err(|_| Error::at(file, format!("missing field `{at}.frame`")))?;
        let frame = frame_number(frame, file, &format!("{at}.frame"), frames, &end)?;
        let kind = e.get("type").and_then(Value::as_str).unwrap_or("");
        let data = e.get("data").unwrap_or(&Value::Null);
        let ev = match kind {
            "keydown" | "keyup" => {
                let name = data
                    .get("key")
                    .and_then(Value::as_str)
                    .ok_or_else(|| Error::at(file, format!("missing field `{at}.data.key`")))?;
                // The chat key (a version-15 match records its press) opens the chat box: it
                // does nothing in the game.
                if name == "chat" {
                    continue;
                }
                let key = Key::parse(name).ok_or_else(|| {
                    Error::at(file, format!("`{at}.data.key`: unknown key `{name}`"))
                })?;
                let subframe = data.get("subframe").and_then(Value::as_f64).unwrap_or(0.);
                if !(0.0..1.0).contains(&subframe) {
                    return Err(Error::at(
                        file,
                        format!("`{at}.data.subframe` {subframe} is not a fraction of a frame (0 up to 1)"),
                    ));
                }
                if kind == "keydown" {
                    let hoisted = data
                        .get("hoisted")
                        .and_then(Value::as_bool)
                        .unwrap_or(false);
                    Event::KeyDown {
                        key,
                        subframe,
                        hoisted,
                    }
                } else {
                    Event::KeyUp { key, subframe }
                }
            }
            "ige" => {
                // Version 19 (and 18): `data` is the message (`type`, and its own `data`);
                // version 15 wraps it once more (`data.type` is `ige`).
                let msg = match data.get("type").and_then(Value::as_str) {
                    Some("ige") => data.get("data").unwrap_or(&Value::Null),
                    _ => data,
                };
                let t = msg.get("type").and_then(Value::as_str).unwrap_or("");
                let d = msg.get("data").unwrap_or(&Value::Null);
                let m = Message {
                    payload: d,
                    wrapper: msg,
                };
                let missing =
                    |k: &str| Error::at(file, format!("missing field `{at}.data.data.{k}`"));
                let int = |v: Option<&Value>, k: &str| -> Result<i64> {
                    v.and_then(Value::as_f64)
                        .map(|x| x as i64)
                        .ok_or_else(|| missing(k))
                };
                let garbage = d.get("type").and_then(Value::as_str) == Some("garbage");
                let sender = |ids: &mut GameIds| {
                    m.sender()
                        .and_then(|v| ids.of(v))
                        .ok_or_else(|| missing("gameid"))
                };
                match t {
                    "interaction" if garbage => {
                        let amount = int(d.get("amt"), "amt")?;
                        let size = d.get("size").and_then(Value::as_u64).unwrap_or(1) as usize;
                        let column = match d.get("column") {
                            None | Some(Value::Null) => None,
                            Some(v) => Some(v.as_u64().ok_or_else(|| {
                                Error::at(
                                    file,
                                    format!("`{at}.data.data.column` is not a column number"),
                                )
                            })? as usize),
                        };
                        if let Some(why) = super::game::garbage_problem(amount, size, column) {
                            return Err(Error::at(file, format!("`{at}.data.data`: {why}")));
                        }
                        Event::Garbage {
                            gameid: sender(ids)?,
                            iid: int(m.batch(), "iid")?,
                            ackiid: match d.get("ackiid") {
                                Some(v) => int(Some(v), "ackiid")?,
                                None => NO_ACK,
                            },
                            amount,
                            size,
                            x: d.get("x").and_then(Value::as_i64),
                            column,
                        }
                    }
                    "interaction_confirm" if garbage => Event::Confirm {
                        gameid: sender(ids)?,
                        iid: int(m.batch(), "iid")?,
                    },
                    "target" => Event::Targets(
                        d.get("targets")
                            .or_else(|| msg.get("targets"))
                            .and_then(Value::as_array)
                            .map(|a| a.iter().filter_map(|v| ids.of(v)).collect())
                            .unwrap_or_default(),
                    ),
                    _ => continue,
                }
            }
            // Version 15's targets: `data.data`, the ids its attacks go to.
            "targets" => Event::Targets(
                data.get("data")
                    .and_then(Value::as_array)
                    .map(|a| a.iter().filter_map(|v| ids.of(v)).collect())
                    .unwrap_or_default(),
            ),
            _ => continue,
        };
        out.push((frame, ev));
    }
    Ok(out)
}

/// Reads a replay file's text (`file` names it in errors).
pub fn parse(file: &str, text: &str) -> Result<Vec<PlayerRound>> {
    let d: Value = serde_json::from_str(text.trim_start_matches('\u{feff}'))
        .map_err(|e| Error::at(file, crate::error::json_error(&e)))?;
    let mut ids = GameIds::default();
    if let Some(rounds) = d.get("replay").and_then(|r| r.get("rounds")) {
        let rounds = rounds
            .as_array()
            .ok_or_else(|| Error::at(file, "`replay.rounds` is not a list"))?;
        let mut out = Vec::new();
        for (r, players) in rounds.iter().enumerate() {
            let players = players
                .as_array()
                .ok_or_else(|| Error::at(file, format!("`replay.rounds[{r}]` is not a list")))?;
            for (p, pl) in players.iter().enumerate() {
                let at = format!("replay.rounds[{r}][{p}]");
                let field = |k: &str| {
                    get(pl, k, file)
                        .map_err(|_| Error::at(file, format!("missing field `{at}.{k}`")))
                };
                let username = field("username")?.as_str().unwrap_or("").to_string();
                let raw_options = field("replay.options")?.clone();
                let options = Options::parse(&raw_options, &format!("{file}: {at}.replay"))?;
                if options.version != 19 {
                    return Err(Error::at(
                        file,
                        format!(
                            "`{at}.replay.options.version` {} is not supported in a .ttrm (19 is)",
                            options.version
                        ),
                    ));
                }
                let frames = frame_count(
                    field("replay.frames")?,
                    file,
                    &format!("{at}.replay.frames"),
                )?;
                out.push(PlayerRound {
                    round: r + 1,
                    player: p + 1,
                    username,
                    events: events(
                        field("replay.events")?,
                        file,
                        &format!("{at}.replay.events"),
                        frames,
                        &mut ids,
                    )?,
                    frames,
                    stated: field("replay.results.stats")?.clone(),
                    alive: pl.get("alive").and_then(Value::as_bool),
                    gameover: pl
                        .pointer("/replay/results/gameoverreason")
                        .and_then(Value::as_str)
                        .map(String::from),
                    options,
                    raw_options,
                });
            }
        }
        if out.is_empty() {
            return Err(Error::at(
                file,
                "`replay.rounds` holds no player's round; there is nothing to import",
            ));
        }
        return Ok(out);
    }
    if let Some(data) = d.get("data").filter(|x| x.get("events").is_some()) {
        let list = get(data, "events", file)
            .map_err(|_| Error::at(file, "missing field `data.events`"))?;
        let full = list
            .as_array()
            .and_then(|a| {
                a.iter()
                    .find(|e| e.get("type").and_then(Value::as_str) == Some("full"))
            })
            .ok_or_else(|| Error::at(file, "missing field `data.events[type=full]`"))?;
        let raw_options = get(full, "data.options", file)
            .map_err(|_| Error::at(file, "missing field `data.events[type=full].data.options`"))?
            .clone();
        let options = Options::parse(
            &raw_options,
            &format!("{file}: data.events[type=full].data"),
        )?;
        if options.version != 15 {
            return Err(Error::at(
                file,
                format!(
                    "`options.version` {} is not supported in a .ttr (15 is)",
                    options.version
                ),
            ));
        }
        let username = d
            .get("user")
            .and_then(|u| u.get("username"))
            .and_then(Value::as_str)
            .unwrap_or("player")
            .to_string();
        let frames = get(data, "frames", file)
            .map_err(|_| Error::at(file, "missing field `data.frames`"))?;
        let frames = frame_count(frames, file, "data.frames")?;
        return Ok(vec![PlayerRound {
            round: 1,
            player: 1,
            username,
            events: events(list, file, "data.events", frames, &mut ids)?,
            frames,
            stated: get(&d, "endcontext", file)?.clone(),
            alive: None,
            gameover: None,
            options,
            raw_options,
        }]);
    }
    if let Some(rounds) = d.get("data").and_then(Value::as_array) {
        return older_match(file, rounds, &mut ids);
    }
    Err(Error::at(
        file,
        "missing field `replay.rounds` (a .ttrm) or `data.events` (a .ttr)",
    ))
}

/// A match of versions 15 to 18 (TETR.IO before 2024): `data` is the list of rounds, each
/// with `replays`, one a player, shaped as a `.ttr`'s `data` (`frames`, `events` with a
/// `full` event holding the options); the statistics of the round are those its `end` event
/// exports (`end.data.export.stats`), and `board` says who won (`success`).
fn older_match(file: &str, rounds: &[Value], ids: &mut GameIds) -> Result<Vec<PlayerRound>> {
    let mut out = Vec::new();
    for (r, round) in rounds.iter().enumerate() {
        let replays = round
            .get("replays")
            .and_then(Value::as_array)
            .ok_or_else(|| Error::at(file, format!("missing field `data[{r}].replays`")))?;
        for (p, rp) in replays.iter().enumerate() {
            let at = format!("data[{r}].replays[{p}]");
            let list = get(rp, "events", file)
                .map_err(|_| Error::at(file, format!("missing field `{at}.events`")))?;
            let of_type = |t: &str| {
                list.as_array().and_then(|a| {
                    a.iter()
                        .find(|e| e.get("type").and_then(Value::as_str) == Some(t))
                })
            };
            let full = of_type("full").ok_or_else(|| {
                Error::at(file, format!("missing field `{at}.events[type=full]`"))
            })?;
            let raw_options = get(full, "data.options", file)
                .map_err(|_| {
                    Error::at(
                        file,
                        format!("missing field `{at}.events[type=full].data.options`"),
                    )
                })?
                .clone();
            let options = Options::parse(
                &raw_options,
                &format!("{file}: {at}.events[type=full].data"),
            )?;
            if !(15..=18).contains(&options.version) {
                return Err(Error::at(
                    file,
                    format!(
                        "`{at}`: options.version {} is not supported in a match whose `data` is a list of rounds (15 to 18 are)",
                        options.version
                    ),
                ));
            }
            let stated = of_type("end")
                .and_then(|e| get(e, "data.export.stats", file).ok())
                .ok_or_else(|| {
                    Error::at(
                        file,
                        format!("missing field `{at}.events[type=end].data.export.stats`"),
                    )
                })?
                .clone();
            let board = round.get("board").and_then(|b| b.get(p));
            let username = raw_options
                .get("username")
                .or_else(|| {
                    board
                        .and_then(|b| b.get("user"))
                        .and_then(|u| u.get("username"))
                })
                .or_else(|| board.and_then(|b| b.get("username")))
                .and_then(Value::as_str)
                .unwrap_or("player")
                .to_string();
            let frames = get(rp, "frames", file)
                .map_err(|_| Error::at(file, format!("missing field `{at}.frames`")))?;
            let frames = frame_count(frames, file, &format!("{at}.frames"))?;
            out.push(PlayerRound {
                round: r + 1,
                player: p + 1,
                username,
                events: events(list, file, &format!("{at}.events"), frames, ids)?,
                frames,
                stated,
                alive: board
                    .and_then(|b| b.get("success"))
                    .and_then(Value::as_bool),
                gameover: None,
                options,
                raw_options,
            });
        }
    }
    if out.is_empty() {
        return Err(Error::at(
            file,
            "`data` holds no player's round; there is nothing to import",
        ));
    }
    Ok(out)
}
