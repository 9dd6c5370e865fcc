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

fn events(list: &Value, file: &str, place: &str) -> Result<Vec<(i64, Event)>> {
    let list = list
        .as_array()
        .ok_or_else(|| Error::at(file, format!("`{place}` is not a list")))?;
    let mut out = Vec::new();
    for (i, e) in list.iter().enumerate() {
        let at = format!("{place}[{i}]");
        let frame = get(e, "frame", file)
            .map_err(|_| Error::at(file, format!("missing field `{at}.frame`")))?
            .as_f64()
            .ok_or_else(|| Error::at(file, format!("`{at}.frame` is not a number")))?
            as i64;
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
                    "interaction" if garbage => Event::Garbage {
                        gameid: int("gameid")?,
                        iid: int("iid")?,
                        ackiid: int("ackiid")?,
                        amount: int("amt")?,
                        size: d.get("size").and_then(Value::as_u64).unwrap_or(1) as usize,
                        x: d.get("x").and_then(Value::as_i64),
                    },
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
                out.push(PlayerRound {
                    round: r + 1,
                    username,
                    events: events(
                        field("replay.events")?,
                        file,
                        &format!("{at}.replay.events"),
                    )?,
                    frames: field("replay.frames")?.as_f64().unwrap_or(0.) as i64,
                    stated: field("replay.results.stats")?.clone(),
                    alive: pl.get("alive").and_then(Value::as_bool),
                    options,
                    raw_options,
                });
            }
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
        return Ok(vec![PlayerRound {
            round: 1,
            username,
            events: events(list, file, "data.events")?,
            frames: get(data, "frames", file)
                .map_err(|_| Error::at(file, "missing field `data.frames`"))?
                .as_f64()
                .unwrap_or(0.) as i64,
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
