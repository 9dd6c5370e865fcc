//! `versus --resume`: a match's files read back, so that a stopped match (Ctrl-C, a machine
//! switched off) goes on from its next game. Game g always plays seed S + g with the
//! player g % 2 starting, so a match played in two runs is the match played in one: the
//! earlier games are kept as the files have them, and the rest are played as they would have
//! been. Only a match of the same settings may go on (the players, their versions, the
//! rules, the clock): `about` must be the summary's `match`.

use super::LETTERS;
use crate::error::{Error, Result};
use serde_json::Value;
use std::path::Path;

/// The games a match already holds, as its files have them: each game's summary entry, its
/// round of the replay, and its winner (`None` a draw).
#[derive(Default)]
pub struct Earlier {
    pub summaries: Vec<Value>,
    pub rounds: Vec<Value>,
    pub winners: Vec<Option<usize>>,
}

impl Earlier {
    /// The winners of these games and then of `games`.
    pub fn winners_with(&self, games: &[super::GameRecord]) -> Vec<Option<usize>> {
        let mut all = self.winners.clone();
        all.extend(games.iter().map(|g| g.winner));
        all
    }

    /// Reads `summary.json` and `match.ttrm`, checking that they are one match of `about`'s
    /// settings with the same games.
    pub fn read(summary_path: &Path, ttrm_path: &Path, about: &Value) -> Result<Earlier> {
        let summary = read_json(summary_path)?;
        let ttrm = read_json(ttrm_path)?;
        let file = summary_path.display().to_string();
        let Some(was) = summary.get("match") else {
            return Err(Error::at(
                &file,
                "no `match`: not a summary `beamtris versus` wrote",
            ));
        };
        if let Some(key) = first_difference(was, about) {
            return Err(Error::at(
                &file,
                format!(
                    "--resume: the match was played with `{key}` {}, this run has {} (resume with the same players and settings, or start a new match)",
                    was.pointer(&key).unwrap_or(&Value::Null),
                    about.pointer(&key).unwrap_or(&Value::Null)
                ),
            ));
        }
        let games = summary
            .get("games")
            .and_then(Value::as_array)
            .ok_or_else(|| Error::at(&file, "no `games` list"))?;
        let rounds = ttrm
            .pointer("/replay/rounds")
            .and_then(Value::as_array)
            .ok_or_else(|| Error::at(ttrm_path.display(), "no `replay.rounds` list"))?;
        if rounds.len() != games.len() {
            return Err(Error::at(
                ttrm_path.display(),
                format!(
                    "{} rounds, but {file} lists {} games: not the same match",
                    rounds.len(),
                    games.len()
                ),
            ));
        }
        let mut winners = Vec::with_capacity(games.len());
        for (g, game) in games.iter().enumerate() {
            let at = format!("games[{g}]");
            if game.get("game").and_then(Value::as_u64) != Some(g as u64 + 1) {
                return Err(Error::at(&file, format!("`{at}.game` is not {}", g + 1)));
            }
            let winner = match game.get("winner") {
                Some(Value::Null) => None,
                Some(Value::String(w)) if LETTERS.contains(&w.as_str()) => {
                    LETTERS.iter().position(|l| l == w)
                }
                _ => {
                    return Err(Error::at(
                        &file,
                        format!("`{at}.winner` is not \"a\", \"b\" or null"),
                    ))
                }
            };
            winners.push(winner);
        }
        Ok(Earlier {
            summaries: games.clone(),
            rounds: rounds.clone(),
            winners,
        })
    }
}

fn read_json(path: &Path) -> Result<Value> {
    let text = crate::io::read_text(path)?;
    serde_json::from_str(&text).map_err(|e| Error::at(path.display(), crate::error::json_error(&e)))
}

/// The first place (a JSON pointer) where `a` and `b` differ, if they do.
fn first_difference(a: &Value, b: &Value) -> Option<String> {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            let mut keys: Vec<&String> = x.keys().chain(y.keys()).collect();
            keys.sort();
            keys.dedup();
            keys.into_iter().find_map(|k| {
                let (u, v) = (
                    x.get(k).unwrap_or(&Value::Null),
                    y.get(k).unwrap_or(&Value::Null),
                );
                first_difference(u, v).map(|rest| format!("/{k}{rest}"))
            })
        }
        _ if a == b => None,
        _ => Some(String::new()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_first_difference_is_named_by_its_path() {
        let a = json!({"a": {"version": "1"}, "think_ms": 200, "pps": {"a": 2.0, "b": 2.0}});
        let mut b = a.clone();
        assert_eq!(first_difference(&a, &b), None);
        b["pps"]["b"] = json!(4.0);
        assert_eq!(first_difference(&a, &b).as_deref(), Some("/pps/b"));
        b["a"]["version"] = json!("2");
        assert_eq!(first_difference(&a, &b).as_deref(), Some("/a/version"));
        assert_eq!(
            first_difference(&json!(1), &json!([1])).as_deref(),
            Some("")
        );
    }
}
