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

/// The statistics TETR.IO computes for one player's round.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TetrioStats {
    pub piecesplaced: u32,
    pub lines: u32,
    pub holds: u32,
    pub clears: Clears,
    pub tspins: u32,
    pub topcombo: u32,
    pub topbtb: u32,
    pub garbage: Garbage,
}

/// The compared fields, in TETR.IO's names (`clears.` and `garbage.` prefixed).
pub fn fields(s: &TetrioStats) -> Vec<(String, u32)> {
    let mut out = vec![
        ("piecesplaced".to_string(), s.piecesplaced),
        ("lines".into(), s.lines),
        ("holds".into(), s.holds),
    ];
    let clears = serde_json::to_value(&s.clears).expect("clears serialise");
    if let Value::Object(m) = clears {
        for (k, v) in m {
            out.push((format!("clears.{k}"), v.as_u64().unwrap_or(0) as u32));
        }
    }
    out.push(("tspins".into(), s.tspins));
    out.push(("topcombo".into(), s.topcombo));
    out.push(("topbtb".into(), s.topbtb));
    out.push(("garbage.sent".into(), s.garbage.sent));
    out.push(("garbage.attack".into(), s.garbage.attack));
    out.push(("garbage.received".into(), s.garbage.received));
    out.push(("garbage.cleared".into(), s.garbage.cleared));
    out
}

/// The statistics a replay states (`stats` of a round's results, or a version-15
/// `endcontext`): the fields it lacks count as absent (`None`).
pub fn stated(stats: &Value) -> Vec<(String, Option<u32>)> {
    fields(&TetrioStats::default())
        .into_iter()
        .map(|(name, _)| {
            let mut v = stats;
            for part in name.split('.') {
                v = v.get(part).unwrap_or(&Value::Null);
            }
            (name, v.as_u64().map(|x| x as u32))
        })
        .collect()
}

/// The fields where `computed` and the stated statistics differ: (name, stated, computed).
/// A field the replay does not state is not compared.
pub fn differences(
    computed: &TetrioStats,
    stated_stats: &Value,
) -> Vec<(String, Option<u32>, u32)> {
    let st = stated(stated_stats);
    fields(computed)
        .into_iter()
        .zip(st)
        .filter(|((_, c), (_, s))| s.is_some_and(|s| s != *c))
        .map(|((name, c), (_, s))| (name, s, c))
        .collect()
}
