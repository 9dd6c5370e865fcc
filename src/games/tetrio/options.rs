//! A replay's game options: the fields TETR.IO writes (only those that differ from its
//! defaults), completed with the defaults of the game's option table.

use super::attack::ComboRule;
use super::solo::{Levels, Objective};
use crate::error::{Error, Result};
use serde_json::Value;

/// How a spin is recognised (`spinbonuses`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum SpinRule {
    None,
    TSpins,
    TSpinsPlus,
    All,
    AllMini,
    AllPlus,
    AllMiniPlus,
    MiniOnly,
}

/// Handling: the player's DAS, ARR and the rest, in frames.
#[derive(Clone, Debug)]
pub struct Handling {
    pub arr: f64,
    pub das: f64,
    pub dcd: f64,
    pub sdf: f64,
    pub safelock: bool,
    pub cancel: bool,
    pub may20g: bool,
    /// `irs` and `ihs` are `hold` (read at spawn) rather than `tap`/`off`.
    pub irs_hold: bool,
    pub ihs_hold: bool,
}

/// Every option the engine reads.
#[derive(Clone, Debug)]
pub struct Options {
    pub version: i64,
    pub seed: i64,
    pub gameid: i64,
    pub width: usize,
    pub height: usize,
    pub buffer: usize,
    pub no_szo: bool,
    pub g: f64,
    pub gincrease: f64,
    pub gmargin: f64,
    pub gravitymay20g: bool,
    pub locktime: f64,
    pub lockresets: u32,
    pub infinite_movement: bool,
    pub allow180: bool,
    pub allow_harddrop: bool,
    pub display_hold: bool,
    pub infinite_hold: bool,
    pub clutch: bool,
    pub spin: SpinRule,
    pub combo: ComboRule,
    pub b2bchaining: bool,
    pub b2bcharging: bool,
    /// `garbagespecialbonus` (today's TETRA LEAGUE): a clear that takes away garbage rows
    /// with a quad or a spin sends one more.
    pub garbagespecialbonus: bool,
    pub b2bcharge_at: i64,
    pub b2bcharge_base: i64,
    pub allclears: bool,
    pub allclear_garbage: f64,
    pub allclear_b2b: i64,
    pub allclear_b2b_sends: bool,
    pub allclear_b2b_dupes: bool,
    pub garbagemultiplier: f64,
    pub garbageincrease: f64,
    pub garbagemargin: f64,
    pub garbagecap: f64,
    pub garbagecapincrease: f64,
    pub garbagecapmargin: f64,
    pub garbagecapmax: f64,
    pub garbageabsolutecap: i64,
    pub garbagespeed: i64,
    pub garbageholesize: usize,
    pub messiness_change: f64,
    pub messiness_inner: f64,
    pub messiness_nosame: bool,
    pub messiness_timeout: i64,
    pub messiness_center: bool,
    pub openerphase: i64,
    pub passthrough_network: bool,
    /// Whether the game has garbage (`hasgarbage`): without it TETR.IO counts no attack.
    pub hasgarbage: bool,
    /// Gravity by level (`levels`), when on: it replaces `g`.
    pub levels: Option<Levels>,
    /// What ends the game besides topping out.
    pub objective: Objective,
    /// The custom games' survival garbage (`survivalmode: timer`), if on.
    pub survival: Option<super::survival::Survival>,
    pub handling: Handling,
}

/// A numeric option: every one TETR.IO has is a count, a time, a speed or a factor, none
/// below 0 (a negative `das` or `g` would make the simulation invent moves no game made).
fn num(o: &Value, key: &str, default: f64, place: &str) -> Result<f64> {
    match o.get(key) {
        None | Some(Value::Null) => Ok(default),
        Some(v) => {
            let x = v
                .as_f64()
                .ok_or_else(|| Error::at(place, format!("option `{key}` is not a number")))?;
            if !(0.0..=MAX_OPTION).contains(&x) {
                return Err(Error::at(
                    place,
                    format!(
                        "option `{key}` is {}: give a number from 0 to {MAX_OPTION:e}",
                        crate::limits::short_number(x)
                    ),
                ));
            }
            Ok(x)
        }
    }
}

/// The largest numeric option read: past any TETR.IO setting (frames, cells, multipliers),
/// and small enough that counts made from it stay far from overflow.
const MAX_OPTION: f64 = 1e9;

fn flag(o: &Value, key: &str, default: bool, place: &str) -> Result<bool> {
    match o.get(key) {
        None | Some(Value::Null) => Ok(default),
        Some(Value::Bool(b)) => Ok(*b),
        Some(Value::Number(n)) => Ok(n.as_f64() != Some(0.0)),
        Some(_) => Err(Error::at(place, format!("option `{key}` is not a boolean"))),
    }
}

fn text<'a>(o: &'a Value, key: &str, default: &'a str, place: &str) -> Result<&'a str> {
    match o.get(key) {
        None | Some(Value::Null) => Ok(default),
        Some(v) => v
            .as_str()
            .ok_or_else(|| Error::at(place, format!("option `{key}` is not a string"))),
    }
}

impl Options {
    /// Reads the options object of one player's round; `place` names it in errors.
    pub fn parse(o: &Value, place: &str) -> Result<Options> {
        if !o.is_object() {
            return Err(Error::at(place, "missing field `options`"));
        }
        let version = o
            .get("version")
            .and_then(Value::as_i64)
            .ok_or_else(|| Error::at(place, "missing field `options.version`"))?;
        if !(15..=19).contains(&version) {
            return Err(Error::at(
                place,
                format!("options.version {version} is not supported (15 to 19 are)"),
            ));
        }
        let seed = match o.get("seed") {
            None | Some(Value::Null) => {
                return Err(Error::at(place, "missing field `options.seed`"))
            }
            Some(v) => v.as_u64().filter(|&s| super::is_seed(s)).ok_or_else(|| {
                Error::at(
                    place,
                    format!(
                        "options.seed: {} is not a TETR.IO seed ({})",
                        crate::error::printable(&v.to_string()),
                        super::SEED_RULE
                    ),
                )
            })? as i64,
        };
        let spin = match text(o, "spinbonuses", "T-spins", place)? {
            "none" => SpinRule::None,
            "T-spins" => SpinRule::TSpins,
            "T-spins+" => SpinRule::TSpinsPlus,
            "all" => SpinRule::All,
            "all-mini" => SpinRule::AllMini,
            "all+" => SpinRule::AllPlus,
            "all-mini+" => SpinRule::AllMiniPlus,
            "mini-only" => SpinRule::MiniOnly,
            other => {
                return Err(Error::at(
                    place,
                    format!("options.spinbonuses `{other}` is not supported"),
                ))
            }
        };
        let combo_name = text(o, "combotable", "multiplier", place)?;
        let combo = ComboRule::parse(combo_name).ok_or_else(|| {
            Error::at(
                place,
                format!("options.combotable `{combo_name}` is not supported"),
            )
        })?;
        let kickset = text(o, "kickset", "SRS+", place)?;
        if kickset != "SRS+" {
            return Err(Error::at(
                place,
                format!("options.kickset `{kickset}` is not supported (SRS+ is)"),
            ));
        }
        let bag = text(o, "bagtype", "7-bag", place)?;
        if bag != "7-bag" && bag != "7bag" {
            return Err(Error::at(
                place,
                format!("options.bagtype `{bag}` is not supported (7-bag is)"),
            ));
        }
        if flag(o, "usebombs", false, place)? {
            return Err(Error::at(place, "options.usebombs is not supported"));
        }
        let levels = super::solo::levels(o, place, |k, d| num(o, k, d, place))?;
        let objective = super::solo::objective(o, place)?;
        let survival = text(o, "survivalmode", "none", place)?;
        let survival = super::survival::Survival::of(survival, place, |k, d| num(o, k, d, place))?;
        // Garbage that rises row by row (`continuous`) would move the piece in play as it
        // comes; beamtris puts a lock's garbage in at once.
        let entry = text(o, "garbageentry", "instant", place)?;
        if entry != "instant" {
            return Err(Error::at(
                place,
                format!("options.garbageentry `{entry}` is not supported (instant is)"),
            ));
        }
        let round = text(o, "roundmode", "down", place)?;
        if round != "down" {
            return Err(Error::at(
                place,
                format!("options.roundmode `{round}` is not supported (down is)"),
            ));
        }
        let h = o
            .get("handling")
            .filter(|h| h.is_object())
            .ok_or_else(|| Error::at(place, "missing field `options.handling`"))?;
        let hp = format!("{place}: options.handling");
        let handling = Handling {
            arr: num(h, "arr", 2., &hp)?,
            das: num(h, "das", 10., &hp)?,
            dcd: num(h, "dcd", 0., &hp)?,
            sdf: num(h, "sdf", 6., &hp)?,
            safelock: flag(h, "safelock", false, &hp)?,
            cancel: flag(h, "cancel", false, &hp)?,
            may20g: flag(h, "may20g", false, &hp)?,
            irs_hold: text(h, "irs", "tap", &hp)? == "hold",
            ihs_hold: text(h, "ihs", "tap", &hp)? == "hold",
        };
        let width = num(o, "boardwidth", 10., place)? as usize;
        let height = num(o, "boardheight", 20., place)? as usize;
        if !(4..=100).contains(&width) || !(4..=100).contains(&height) {
            return Err(Error::at(
                place,
                format!("options.boardwidth/boardheight {width}x{height} is not supported"),
            ));
        }
        Ok(Options {
            version,
            seed,
            gameid: o.get("gameid").and_then(Value::as_i64).unwrap_or(0),
            width,
            height,
            buffer: num(o, "boardbuffer", 20., place)? as usize,
            no_szo: flag(o, "no_szo", false, place)?,
            g: num(o, "g", 0.02, place)?,
            gincrease: num(o, "gincrease", 0., place)?,
            gmargin: num(o, "gmargin", 0., place)?,
            gravitymay20g: flag(o, "gravitymay20g", true, place)?,
            locktime: num(o, "locktime", 30., place)?,
            lockresets: num(o, "lockresets", 15., place)? as u32,
            infinite_movement: flag(o, "infinite_movement", false, place)?,
            allow180: flag(o, "allow180", false, place)?,
            allow_harddrop: flag(o, "allow_harddrop", true, place)?,
            display_hold: flag(o, "display_hold", true, place)?,
            infinite_hold: flag(o, "infinite_hold", false, place)?,
            clutch: flag(o, "clutch", true, place)?,
            spin,
            combo,
            b2bchaining: flag(o, "b2bchaining", false, place)?,
            b2bcharging: flag(o, "b2bcharging", false, place)?,
            garbagespecialbonus: flag(o, "garbagespecialbonus", false, place)?,
            b2bcharge_at: num(o, "b2bcharge_at", 4., place)? as i64,
            b2bcharge_base: num(o, "b2bcharge_base", 0., place)? as i64,
            allclears: flag(o, "allclears", true, place)?,
            allclear_garbage: num(o, "allclear_garbage", 10., place)?,
            allclear_b2b: num(o, "allclear_b2b", 0., place)? as i64,
            allclear_b2b_sends: flag(o, "allclear_b2b_sends", false, place)?,
            allclear_b2b_dupes: flag(o, "allclear_b2b_dupes", true, place)?,
            garbagemultiplier: num(o, "garbagemultiplier", 1., place)?,
            garbageincrease: num(o, "garbageincrease", 0., place)?,
            garbagemargin: num(o, "garbagemargin", 0., place)?,
            garbagecap: num(o, "garbagecap", 8., place)?,
            garbagecapincrease: num(o, "garbagecapincrease", 0., place)?,
            garbagecapmargin: num(o, "garbagecapmargin", 0., place)?,
            garbagecapmax: num(o, "garbagecapmax", 40., place)?,
            // Version 18 wrote `false` for no cap.
            garbageabsolutecap: match o.get("garbageabsolutecap") {
                Some(Value::Bool(false)) => 0,
                _ => num(o, "garbageabsolutecap", 0., place)? as i64,
            },
            garbagespeed: num(o, "garbagespeed", 20., place)? as i64,
            garbageholesize: num(o, "garbageholesize", 1., place)? as usize,
            messiness_change: num(o, "messiness_change", 1., place)?,
            messiness_inner: num(o, "messiness_inner", 0., place)?,
            messiness_nosame: flag(o, "messiness_nosame", false, place)?,
            messiness_timeout: num(o, "messiness_timeout", 0., place)? as i64,
            messiness_center: flag(o, "messiness_center", false, place)?,
            openerphase: num(o, "openerphase", 0., place)? as i64,
            // Version 15 wrote a boolean: `false` (no passthrough) is today's `zero`.
            passthrough_network: match o.get("passthrough") {
                Some(Value::Bool(b)) => !b,
                _ => matches!(
                    text(o, "passthrough", "zero", place)?,
                    "zero" | "consistent"
                ),
            },
            hasgarbage: flag(o, "hasgarbage", false, place)?,
            levels,
            objective,
            survival,
            handling,
        })
    }
}
