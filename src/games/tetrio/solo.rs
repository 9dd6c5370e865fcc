//! The rules of TETR.IO's solo games: gravity by level and level progression (BLITZ and
//! custom games), the objective that ends a game (40 LINES' 40 lines, BLITZ's two minutes, a
//! custom game's garbage count), and TETR.IO's score table. The engine calls these at each
//! lock; they hold no state of their own beyond the options.

use super::attack::SpinKind;
use crate::error::{Error, Result};
use serde_json::Value;

/// Gravity by level (`levels`): the level starts at `startinglevel` and rises each time the
/// lines cleared at this level reach the lines it needs.
#[derive(Clone, Debug, PartialEq)]
pub struct Levels {
    pub start: u32,
    /// `levelspeed`: a level needs `ceil(level × levelspeed × 5)` lines.
    pub speed: f64,
    /// `levelstatic`/`levelstaticspeed`: every level needs the same number of lines.
    pub static_lines: Option<f64>,
    /// `gbase`/`gspeed` (version 19: `levelgbase`/`levelgspeed`): the gravity of a level.
    pub gbase: f64,
    pub gspeed: f64,
    /// `masterlevels`: past level 20 the lock delay shortens, past 45 the lock resets fall.
    pub master: bool,
}

/// The most levels a game may start at: far past where gravity is already 20G.
const MAX_LEVEL: f64 = 10_000.;

impl Levels {
    /// The gravity of `level` in rows a frame: one row every `(gbase − (level − 1) × gspeed)
    /// ^ (level − 1)` seconds (the guideline's curve; the base is kept above 0).
    pub fn gravity(&self, level: u32) -> f64 {
        let n = level as f64 - 1.;
        let base = (self.gbase - n * self.gspeed).max(1e-9);
        (1. / 60. / base.powf(n)).min(i32::MAX as f64 - 1.)
    }

    /// The lines `level` needs before the next one.
    pub fn needed(&self, level: u32) -> u32 {
        match self.static_lines {
            Some(n) => n as u32,
            None => (level as f64 * self.speed * 5.).ceil() as u32,
        }
    }
}

/// What ends a solo game besides topping out (`objective`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Objective {
    None,
    /// At the lock that brings the lines cleared to `count` (40 LINES: 40).
    Lines(u32),
    /// At the end of the frame where the clock reaches `ms` (BLITZ: 120 000).
    Timed(f64),
    /// At the lock that brings the garbage rows cleared to `count`.
    Garbage(u32),
}

/// A count option of the objective: a whole number from 0 to a million.
fn count(v: Option<&Value>, field: &str, place: &str) -> Result<u32> {
    let n = v
        .and_then(Value::as_f64)
        .ok_or_else(|| Error::at(place, format!("options.{field} is missing or not a number")))?;
    if n.fract() != 0. || !(0.0..=1e6).contains(&n) {
        return Err(Error::at(
            place,
            format!(
                "options.{field} {} is not a whole number from 0 to 1000000",
                crate::limits::short_number(n)
            ),
        ));
    }
    Ok(n as u32)
}

/// The objective of a replay's options: `objective` `{type, count, time}` (version 15) or
/// `objective_type`/`objective_count`/`objective_time` (custom games); none by default.
pub fn objective(o: &Value, place: &str) -> Result<Objective> {
    let obj = o.get("objective").filter(|v| v.is_object());
    let get = |k: &str| match obj {
        Some(x) => x.get(k),
        None => o.get(format!("objective_{k}")),
    };
    let prefix = if obj.is_some() {
        "objective."
    } else {
        "objective_"
    };
    let kind = match get("type") {
        None | Some(Value::Null) => "none",
        Some(v) => v
            .as_str()
            .ok_or_else(|| Error::at(place, format!("options.{prefix}type is not a string")))?,
    };
    Ok(match kind {
        "none" => Objective::None,
        "lines" => Objective::Lines(count(get("count"), &format!("{prefix}count"), place)?),
        "garbage" => Objective::Garbage(count(get("count"), &format!("{prefix}count"), place)?),
        "timed" => {
            let ms = count(get("time"), &format!("{prefix}time"), place)?;
            Objective::Timed(ms as f64)
        }
        other => {
            let why = format!(
                "options.{prefix}type `{}` is not supported (none, lines, timed, garbage are)",
                crate::error::printable(other)
            );
            return Err(Error::at(place, why));
        }
    })
}

/// The levels of a replay's options, if `levels` is on.
pub fn levels(
    o: &Value,
    place: &str,
    num: impl Fn(&str, f64) -> Result<f64>,
) -> Result<Option<Levels>> {
    let on = match o.get("levels") {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(_) => return Err(Error::at(place, "option `levels` is not a boolean")),
    };
    if !on {
        return Ok(None);
    }
    let start = num("startinglevel", 1.)?;
    if start.fract() != 0. || !(1.0..=MAX_LEVEL).contains(&start) {
        return Err(Error::at(
            place,
            format!(
                "options.startinglevel {} is not a whole number from 1 to {MAX_LEVEL}",
                crate::limits::short_number(start)
            ),
        ));
    }
    let flag = |k: &str| -> Result<bool> {
        match o.get(k) {
            None | Some(Value::Null) => Ok(false),
            Some(Value::Bool(b)) => Ok(*b),
            Some(_) => Err(Error::at(place, format!("option `{k}` is not a boolean"))),
        }
    };
    let static_lines = match flag("levelstatic")? {
        true => {
            let n = num("levelstaticspeed", 10.)?;
            if n.fract() != 0. || n < 1. {
                return Err(Error::at(
                    place,
                    format!(
                        "options.levelstaticspeed {} is not a whole number of lines from 1",
                        crate::limits::short_number(n)
                    ),
                ));
            }
            Some(n)
        }
        false => None,
    };
    let speed = num("levelspeed", 1.)?;
    if static_lines.is_none() && speed <= 0. {
        return Err(Error::at(
            place,
            "options.levelspeed 0: a level would need no lines (give a speed above 0)",
        ));
    }
    // Version 15 writes `gbase`/`gspeed`, version 19 `levelgbase`/`levelgspeed`.
    let either = |a: &str, b: &str, d: f64| -> Result<f64> {
        match o.get(b).filter(|v| !v.is_null()) {
            Some(_) => num(b, d),
            None => num(a, d),
        }
    };
    Ok(Some(Levels {
        start: start as u32,
        speed,
        static_lines,
        gbase: either("gbase", "levelgbase", 0.8)?,
        gspeed: either("gspeed", "levelgspeed", 0.007)?,
        master: flag("masterlevels")?,
    }))
}

/// Points of a clear of `lines` rows with `spin`, before the back-to-back and level
/// multipliers (TETR.IO's table; five rows and more as a penta).
pub fn clear_points(lines: u32, spin: SpinKind) -> f64 {
    match (spin, lines) {
        (SpinKind::None, 0) => 0.,
        (SpinKind::None, 1) => 100.,
        (SpinKind::None, 2) => 300.,
        (SpinKind::None, 3) => 500.,
        (SpinKind::None, 4) => 800.,
        (SpinKind::None, _) => 1000.,
        (SpinKind::Mini, 0) => 100.,
        (SpinKind::Mini, 1) => 200.,
        (SpinKind::Mini, 2) => 400.,
        (SpinKind::Mini, 3) => 800.,
        (SpinKind::Mini, 4) => 1200.,
        (SpinKind::Mini, _) => 1600.,
        (SpinKind::Normal, 0) => 400.,
        (SpinKind::Normal, 1) => 800.,
        (SpinKind::Normal, 2) => 1200.,
        (SpinKind::Normal, 3) => 1600.,
        (SpinKind::Normal, 4) => 2600.,
        (SpinKind::Normal, _) => 3200.,
    }
}

/// Back-to-back multiplies a clear's points by this.
pub const B2B_MULTIPLIER: f64 = 1.5;
/// Each step of a combo adds this times the combo count (times the level).
pub const COMBO_POINTS: f64 = 50.;
/// An all clear adds this (times the level).
pub const ALL_CLEAR_POINTS: f64 = 3500.;
/// A row fallen under soft drop, and a row of a hard drop.
pub const SOFT_DROP_POINTS: f64 = 1.;
pub const HARD_DROP_POINTS: f64 = 2.;

/// The points of one lock: its clear (times 1.5 on back-to-back), its combo, its all clear,
/// all times the level. `b2b` is whether the clear continues a back-to-back chain, `combo`
/// the combo count after it (0 for the first clear of a run).
pub fn lock_points(
    lines: u32,
    spin: SpinKind,
    b2b: bool,
    combo: u32,
    allclear: bool,
    level: u32,
) -> f64 {
    let mut p = clear_points(lines, spin);
    if b2b {
        p *= B2B_MULTIPLIER;
    }
    if lines > 0 {
        p += COMBO_POINTS * combo as f64;
    }
    if allclear {
        p += ALL_CLEAR_POINTS;
    }
    p * level as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    fn blitz() -> Levels {
        Levels {
            start: 1,
            speed: 0.42,
            static_lines: None,
            gbase: 0.65,
            gspeed: 0.007,
            master: false,
        }
    }

    #[test]
    fn blitz_levels_need_more_lines_and_fall_faster() {
        let l = blitz();
        let needed: Vec<u32> = (1..=9).map(|n| l.needed(n)).collect();
        assert_eq!(needed, [3, 5, 7, 9, 11, 13, 15, 17, 19]);
        assert_eq!(l.gravity(1), 1. / 60.);
        assert!((l.gravity(9) - 1.0754).abs() < 1e-4);
        let fixed = Levels {
            static_lines: Some(10.),
            ..l
        };
        assert_eq!(fixed.needed(7), 10);
    }

    #[test]
    fn points_multiply_by_back_to_back_and_level() {
        assert_eq!(lock_points(4, SpinKind::None, false, 0, false, 1), 800.);
        assert_eq!(lock_points(4, SpinKind::None, true, 0, false, 1), 1200.);
        assert_eq!(
            lock_points(2, SpinKind::Normal, true, 2, false, 3),
            3.0 * (1800. + 100.)
        );
        assert_eq!(
            lock_points(1, SpinKind::None, false, 0, true, 2),
            2.0 * 3600.
        );
        assert_eq!(lock_points(0, SpinKind::Normal, false, 0, false, 1), 400.);
    }

    #[test]
    fn objectives_read_both_spellings_and_refuse_unknown_types() {
        let o = serde_json::json!({"objective": {"type": "lines", "count": 40}});
        assert_eq!(objective(&o, "f").unwrap(), Objective::Lines(40));
        let o = serde_json::json!({"objective_type": "timed", "objective_time": 120000});
        assert_eq!(objective(&o, "f").unwrap(), Objective::Timed(120000.));
        let o = serde_json::json!({"objective": {"type": "score"}});
        assert!(objective(&o, "f").is_err());
        assert_eq!(
            objective(&serde_json::json!({}), "f").unwrap(),
            Objective::None
        );
    }
}
