//! TETR.IO replay files: `.ttrm` (a multiplayer match, version 19: `replay.rounds`, each a
//! list of players' rounds) and `.ttr` (a solo game, version 15: `data.events` with a `full`
//! event holding the options, the statistics in `endcontext`). Read into one [`PlayerRound`]
//! per round and player.

use super::engine::{Event, Key};
use super::options::Options;
use crate::error::{Error, Result};
use serde_json::Value;

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

/// The events of `list` (`place` names it), each at a frame from 0 to `frames`.
fn events(list: &Value, file: &str, place: &str, frames: i64) -> Result<Vec<(i64, Event)>> {
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
                let t = data.get("type").and_then(Value::as_str).unwrap_or("");
                let d = data.get("data").unwrap_or(&Value::Null);
                let int = |k: &str| -> Result<i64> {
                    d.get(k)
                        .and_then(Value::as_f64)
                        .map(|x| x as i64)
                        .ok_or_else(|| {
                            Error::at(file, format!("missing field `{at}.data.data.{k}`"))
                        })
                };
                let garbage = d.get("type").and_then(Value::as_str) == Some("garbage");
                match t {
                    "interaction" if garbage => {
                        let amount = int("amt")?;
                        let size = d.get("size").and_then(Value::as_u64).unwrap_or(1) as usize;
                        if let Some(why) = super::game::garbage_problem(amount, size) {
                            return Err(Error::at(file, format!("`{at}.data.data`: {why}")));
                        }
                        Event::Garbage {
                            gameid: int("gameid")?,
                            iid: int("iid")?,
                            ackiid: int("ackiid")?,
                            amount,
                            size,
                            x: d.get("x").and_then(Value::as_i64),
                        }
                    }
                    "interaction_confirm" if garbage => Event::Confirm {
                        gameid: int("gameid")?,
                        iid: int("iid")?,
                    },
                    "target" => Event::Targets(
                        d.get("targets")
                            .and_then(Value::as_array)
                            .map(|a| a.iter().filter_map(Value::as_i64).collect())
                            .unwrap_or_default(),
                    ),
                    _ => continue,
                }
            }
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
                    )?,
                    frames,
                    stated: field("replay.results.stats")?.clone(),
                    alive: pl.get("alive").and_then(Value::as_bool),
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
            events: events(list, file, "data.events", frames)?,
            frames,
            stated: get(&d, "endcontext", file)?.clone(),
            alive: None,
            options,
            raw_options,
        }]);
    }
    if d.get("data").is_some_and(Value::is_array) {
        return Err(Error::at(
            file,
            "`data` is a list of rounds: a version-15 match (TETR.IO before 2024), not supported (version-19 matches are)",
        ));
    }
    Err(Error::at(
        file,
        "missing field `replay.rounds` (a .ttrm) or `data.events` (a .ttr)",
    ))
}
