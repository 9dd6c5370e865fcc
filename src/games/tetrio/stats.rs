//! TETR.IO's end-of-game statistics, with its own field names, and their comparison with
//! the statistics a replay states.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Clears by kind (`stats.clears`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Clears {
    pub singles: u32,
    pub doubles: u32,
    pub triples: u32,
    pub quads: u32,
    pub pentas: u32,
    pub realtspins: u32,
    pub minitspins: u32,
    pub minitspinsingles: u32,
    pub tspinsingles: u32,
    pub minitspindoubles: u32,
    pub tspindoubles: u32,
    pub minitspintriples: u32,
    pub tspintriples: u32,
    pub minitspinquads: u32,
    pub tspinquads: u32,
    pub tspinpentas: u32,
    pub allclear: u32,
}

/// Garbage (`stats.garbage`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Garbage {
    pub sent: u32,
    pub attack: u32,
    pub received: u32,
    pub cleared: u32,
}

/// Finesse (`stats.finesse`): pieces placed with more key presses than the fewest.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Finesse {
    /// Pieces placed with the fewest presses since the last fault.
    pub combo: u32,
    /// Presses past the fewest, over all pieces.
    pub faults: u32,
    /// Pieces placed with the fewest presses.
    pub perfectpieces: u32,
}

/// The statistics TETR.IO computes for one player's round.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TetrioStats {
    pub piecesplaced: u32,
    pub lines: u32,
    pub holds: u32,
    pub clears: Clears,
    pub tspins: u32,
    pub topcombo: u32,
    pub topbtb: u32,
    pub garbage: Garbage,
    /// Score: clears, spins, back-to-back, combo, all clears, drops, times the level.
    #[serde(default)]
    pub score: u64,
    /// The level (1 unless `levels`), the lines cleared at it and the lines it needs.
    #[serde(default)]
    pub level: u32,
    #[serde(default)]
    pub level_lines: u32,
    #[serde(default)]
    pub level_lines_needed: u32,
    /// Key presses (every key down while the game ran).
    #[serde(default)]
    pub inputs: u32,
    /// The combo and back-to-back counts at the end (0: none running; 1: one clear, ...).
    #[serde(default)]
    pub combo: u32,
    #[serde(default)]
    pub btb: u32,
    #[serde(default)]
    pub finesse: Finesse,
    /// The game's length in milliseconds, as TETR.IO writes it: frames (and the fraction of
    /// the last frame the game played) × 1000 / 60.
    #[serde(default, rename = "finalTime")]
    pub final_time: f64,
}

/// The compared fields, in TETR.IO's names (`clears.`, `garbage.` and `finesse.`
/// prefixed). Every value is a count but `finalTime` (milliseconds, a fraction), so all are
/// given as `f64`, which holds each count exactly.
pub fn fields(s: &TetrioStats) -> Vec<(String, f64)> {
    let mut out = vec![
        ("piecesplaced".to_string(), s.piecesplaced as f64),
        ("lines".into(), s.lines as f64),
        ("holds".into(), s.holds as f64),
    ];
    let clears = serde_json::to_value(&s.clears).expect("clears serialise");
    if let Value::Object(m) = clears {
        for (k, v) in m {
            out.push((format!("clears.{k}"), v.as_f64().unwrap_or(0.)));
        }
    }
    let counts = [
        ("tspins", s.tspins as u64),
        ("topcombo", s.topcombo as u64),
        ("topbtb", s.topbtb as u64),
        ("garbage.sent", s.garbage.sent as u64),
        ("garbage.attack", s.garbage.attack as u64),
        ("garbage.received", s.garbage.received as u64),
        ("garbage.cleared", s.garbage.cleared as u64),
        ("score", s.score),
        ("level", s.level as u64),
        ("level_lines", s.level_lines as u64),
        ("level_lines_needed", s.level_lines_needed as u64),
        ("inputs", s.inputs as u64),
        ("combo", s.combo as u64),
        ("btb", s.btb as u64),
        ("finesse.combo", s.finesse.combo as u64),
        ("finesse.faults", s.finesse.faults as u64),
        ("finesse.perfectpieces", s.finesse.perfectpieces as u64),
    ];
    out.extend(counts.iter().map(|&(k, v)| (k.to_string(), v as f64)));
    out.push(("finalTime".into(), s.final_time));
    out
}

/// The statistics a replay states (`stats` of a round's results, or a version-15
/// `endcontext`): the fields it lacks count as absent (`None`). Version 19's `finaltime`
/// (lower case) is not read: its winner's clock is not reproduced exactly
/// (`docs/tetrio.md`), so it is measured by `scripts/tetrio_agreement.py` only.
pub fn stated(stats: &Value) -> Vec<(String, Option<f64>)> {
    fields(&TetrioStats::default())
        .into_iter()
        .map(|(name, _)| {
            let mut v = stats;
            for part in name.split('.') {
                v = v.get(part).unwrap_or(&Value::Null);
            }
            (name, v.as_f64())
        })
        .collect()
}

/// The fields where `computed` and the stated statistics differ: (name, stated, computed).
/// A field the replay does not state is not compared; `finalTime` is compared exactly as
/// TETR.IO writes it (the same `f64`).
pub fn differences(
    computed: &TetrioStats,
    stated_stats: &Value,
) -> Vec<(String, Option<f64>, f64)> {
    let st = stated(stated_stats);
    fields(computed)
        .into_iter()
        .zip(st)
        .filter(|((_, c), (_, s))| s.is_some_and(|s| s != *c))
        .map(|((name, c), (_, s))| (name, s, c))
        .collect()
}

/// TETR.IO's statistics of a record replayed on its engine, with what the record can tell:
/// a record holds placements, not key presses, so the figures that count keys (`inputs`,
/// `finesse`) are known only where the game file counted the player's keys (an import's), and
/// `finalTime` only where the game holds each lock's time (an import's, a paced BLITZ game's).
/// The others are left out of the JSON rather than written wrong: `export` plans the keys,
/// and the import of its `.ttr` gives every figure.
#[derive(Clone, Debug, PartialEq)]
pub struct RecordStats {
    pub stats: TetrioStats,
    /// The game counted each piece's keys.
    pub keys_known: bool,
    /// The game holds each lock's time.
    pub times_known: bool,
}

impl std::ops::Deref for RecordStats {
    type Target = TetrioStats;
    fn deref(&self) -> &TetrioStats {
        &self.stats
    }
}

impl serde::Serialize for RecordStats {
    /// [`TetrioStats`]'s fields in its order, leaving out what the record cannot tell.
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let s = &self.stats;
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("piecesplaced", &s.piecesplaced)?;
        map.serialize_entry("lines", &s.lines)?;
        map.serialize_entry("holds", &s.holds)?;
        map.serialize_entry("clears", &s.clears)?;
        map.serialize_entry("tspins", &s.tspins)?;
        map.serialize_entry("topcombo", &s.topcombo)?;
        map.serialize_entry("topbtb", &s.topbtb)?;
        map.serialize_entry("garbage", &s.garbage)?;
        map.serialize_entry("score", &s.score)?;
        map.serialize_entry("level", &s.level)?;
        map.serialize_entry("level_lines", &s.level_lines)?;
        map.serialize_entry("level_lines_needed", &s.level_lines_needed)?;
        if self.keys_known {
            map.serialize_entry("inputs", &s.inputs)?;
        }
        map.serialize_entry("combo", &s.combo)?;
        map.serialize_entry("btb", &s.btb)?;
        if self.keys_known {
            map.serialize_entry("finesse", &s.finesse)?;
        }
        if self.times_known {
            map.serialize_entry("finalTime", &s.final_time)?;
        }
        map.end()
    }
}

#[cfg(test)]
mod record_stats_tests {
    use super::*;

    /// With everything known, a record's statistics are [`TetrioStats`]'s JSON, field for
    /// field and in order; without keys or times, those fields are left out and nothing else.
    #[test]
    fn record_stats_are_the_stats_less_what_is_unknown() {
        let stats = TetrioStats {
            piecesplaced: 7,
            inputs: 20,
            final_time: 1234.5,
            ..TetrioStats::default()
        };
        let full = serde_json::to_string(&stats).unwrap();
        let known = RecordStats {
            stats: stats.clone(),
            keys_known: true,
            times_known: true,
        };
        assert_eq!(serde_json::to_string(&known).unwrap(), full);
        let unknown = RecordStats {
            stats,
            keys_known: false,
            times_known: false,
        };
        let v: serde_json::Value = serde_json::to_value(&unknown).unwrap();
        let all: serde_json::Value = serde_json::from_str(&full).unwrap();
        let mut keys: Vec<&String> = all.as_object().unwrap().keys().collect();
        keys.retain(|k| !["inputs", "finesse", "finalTime"].contains(&k.as_str()));
        assert_eq!(v.as_object().unwrap().keys().collect::<Vec<_>>(), keys);
        assert_eq!(v["piecesplaced"], 7);
    }
}

/// TETR.IO's rates of a versus round: attack a minute, pieces a second, and the VS score
/// (attack and garbage cleared, a hundred times a second), over the round's time
/// (`finalTime`). Checked on the public replays' `aggregatestats`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Rates {
    pub apm: f64,
    pub pps: f64,
    pub vsscore: f64,
}

/// The rates of `s` (all 0 for a round of no time).
pub fn rates(s: &TetrioStats) -> Rates {
    let seconds = s.final_time / 1000.0;
    if seconds <= 0.0 {
        return Rates::default();
    }
    Rates {
        apm: s.garbage.attack as f64 * 60.0 / seconds,
        pps: s.piecesplaced as f64 / seconds,
        vsscore: (s.garbage.attack + s.garbage.cleared) as f64 * 100.0 / seconds,
    }
}
