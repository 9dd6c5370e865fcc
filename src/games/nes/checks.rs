//! The checkpoints of meta_nestris' `tests/movies/metadata.yaml` (the real game's state at
//! given frames of each movie) and their comparison with the engine. The file's YAML is a
//! fixed shape, read here line by line rather than with a YAML library:
//!
//! ```text
//! - filename: menuing\gameplay.fm2
//!   uncapped_score: true        (optional)
//!   checks:
//!     290:
//!       is_gameplay_state: true
//! ```

use super::movie::Snapshot;
use crate::error::{Error, Result};

/// One value the real game showed at a frame.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Expect {
    Score(u32),
    Lines(u32),
    Dead(bool),
    /// A menu screen, in the output's names (`copyright`, ...).
    Menu(&'static str),
    Gameplay(bool),
}

/// A frame's checks.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Check {
    pub frame: u64,
    pub expect: Vec<Expect>,
}

/// One movie's entry: its path under the movies folder (`/` separators) and checks.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Entry {
    pub filename: String,
    /// The entry is for meta_nestris' uncapped-score modifier, not the real game.
    pub uncapped: bool,
    pub checks: Vec<Check>,
}

/// Parses the metadata text; `file` names it in errors.
pub fn parse(file: &str, text: &str) -> Result<Vec<Entry>> {
    let mut entries: Vec<Entry> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let err = |what: String| Error::at(file, format!("line {}: {what}", i + 1));
        let line = raw.trim_end();
        let body = line.trim_start();
        if body.is_empty() || body.starts_with('#') {
            continue;
        }
        let indent = line.len() - body.len();
        let (key, value) = body
            .split_once(':')
            .map(|(k, v)| (k.trim(), v.trim()))
            .ok_or_else(|| err(format!("`{body}` is not `key: value`")))?;
        if indent == 0 {
            if key != "- filename" || value.is_empty() {
                return Err(err("an entry starts with `- filename: MOVIE`".into()));
            }
            entries.push(Entry {
                filename: value.replace('\\', "/"),
                uncapped: false,
                checks: Vec::new(),
            });
            continue;
        }
        let entry = entries
            .last_mut()
            .ok_or_else(|| err("a field before the first `- filename:`".into()))?;
        match (indent, key) {
            (2, "uncapped_score") => entry.uncapped = boolean(value).map_err(err)?,
            (2, "checks") if value.is_empty() => {}
            (4, frame) if value.is_empty() => {
                let frame = frame
                    .parse()
                    .map_err(|_| err(format!("frame `{frame}` is not a number")))?;
                entry.checks.push(Check {
                    frame,
                    expect: Vec::new(),
                });
            }
            (6, _) => {
                let check = entry
                    .checks
                    .last_mut()
                    .ok_or_else(|| err("a value before its frame".into()))?;
                check.expect.push(expect(key, value).map_err(err)?);
            }
            _ => return Err(err(format!("`{key}` is not expected at this indent"))),
        }
    }
    Ok(entries)
}

fn boolean(v: &str) -> std::result::Result<bool, String> {
    match v {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(format!("`{v}` is not true or false")),
    }
}

fn expect(key: &str, v: &str) -> std::result::Result<Expect, String> {
    let number = || {
        v.parse::<u32>()
            .map_err(|_| format!("{key} `{v}` is not a number"))
    };
    Ok(match key {
        "score" => Expect::Score(number()?),
        "line_count" => Expect::Lines(number()?),
        "dead" => Expect::Dead(boolean(v)?),
        "is_gameplay_state" => Expect::Gameplay(boolean(v)?),
        "menu_mode" => Expect::Menu(match v {
            "CopyrightScreen" => "copyright",
            "TitleScreen" => "title",
            "GameTypeSelect" => "game_type",
            "LevelSelect" => "level_select",
            _ => return Err(format!("menu_mode `{v}` is not a known screen")),
        }),
        _ => return Err(format!("`{key}` is not a known check")),
    })
}

impl Expect {
    /// The field's name in the output and the value expected, as text.
    pub fn describe(&self) -> (&'static str, String) {
        match self {
            Expect::Score(v) => ("score", v.to_string()),
            Expect::Lines(v) => ("lines", v.to_string()),
            Expect::Dead(v) => ("dead", v.to_string()),
            Expect::Menu(v) => ("menu", v.to_string()),
            Expect::Gameplay(v) => ("gameplay", v.to_string()),
        }
    }

    /// The snapshot's value of the same field, as text (`null` where it has none).
    pub fn got(&self, s: &Snapshot) -> String {
        fn text<T: ToString>(v: Option<T>) -> String {
            v.map_or("null".into(), |v| v.to_string())
        }
        match self {
            Expect::Score(_) => text(s.score),
            Expect::Lines(_) => text(s.lines),
            Expect::Dead(_) => text(s.dead),
            Expect::Menu(_) => text(s.menu),
            Expect::Gameplay(_) => s.gameplay.to_string(),
        }
    }

    /// Whether the snapshot shows what the real game showed.
    pub fn agrees(&self, s: &Snapshot) -> bool {
        self.describe().1 == self.got(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_metadata_shape() {
        let text = "# c\n\n- filename: a\\b.fm2\n  uncapped_score: true\n  checks:\n    10:\n      score: 5\n      menu_mode: TitleScreen\n";
        let e = parse("m.yaml", text).unwrap();
        assert_eq!(e[0].filename, "a/b.fm2");
        assert!(e[0].uncapped);
        assert_eq!(e[0].checks[0].frame, 10);
        assert_eq!(
            e[0].checks[0].expect,
            vec![Expect::Score(5), Expect::Menu("title")]
        );
        let bad = parse("m.yaml", "- filename: a\n  checks:\n    x:\n").unwrap_err();
        assert_eq!(bad.0, "m.yaml: line 3: frame `x` is not a number");
    }
}
