//! A TETR.IO game as beamtris keeps it: the replay's options, the frame of each lock, and
//! the network events (garbage sent to the player, confirmations, targets) between locks.
//! A record of the same pieces replays on the TETR.IO engine lock by lock, which gives
//! TETR.IO's statistics for any record: an imported round's own (they match the replay's)
//! or a solver's on the same seed.

use super::engine::solo::PieceCounts;
use super::engine::{Engine, Event, Lock};
use super::options::Options;
use super::stats::{RecordStats, TetrioStats};
use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// When a lock happened.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LockTime {
    pub frame: i64,
    /// Frames the garbage multiplier had grown for (the frame, or one less).
    pub grown: i64,
    /// Locked by a hard drop (garbage due this frame then lands).
    pub hard: bool,
    /// What the solo rules counted for the piece as the player played it (key presses,
    /// drop points): an import writes it; a record's own moves cannot say it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub counted: Option<PieceCounts>,
}

/// A network event and where it falls among the locks.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NetEvent {
    /// Locks made before it.
    pub after_locks: usize,
    pub frame: i64,
    /// `garbage`, `confirm` or `targets`.
    pub kind: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gameid: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub iid: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ackiid: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub amount: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<usize>,
    /// The hole column the replay's message carries, when it does.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub x: Option<i64>,
    /// The hole column the message sets (version 15's `column`), when it does.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub column: Option<usize>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub targets: Option<Vec<i64>>,
}

/// The TETR.IO part of a game file (`"tetrio"` in a seed file).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TetrioGame {
    /// The options as a replay carries them (TETR.IO's defaults fill the rest).
    pub options: Value,
    /// Each lock's time, when the game was imported (a record of another line jumps to
    /// them too; past them, one lock a frame after the last).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub locks: Vec<LockTime>,
    /// The garbage and other network events, when imported.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub events: Vec<NetEvent>,
    /// The record's paths start at TETR.IO's spawn (the import's own record: exact), not a
    /// row under it where beamtris's guideline game spawns (any other record).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub tetrio_spawn: bool,
    /// Holds made after the last lock (the game ended on a held piece): a record cannot say
    /// them, so the replay of the imported record makes them after its last lock.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub holds_after_last_lock: u32,
    /// Keys pressed after the last lock (an import's; TETR.IO counts them in `inputs`).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub inputs_after_last_lock: u32,
    /// Drop points scored after the last lock (the piece the game ended with).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub drop_points_after_last_lock: u32,
    /// The game's length in milliseconds as TETR.IO counts it (`finalTime`), when imported:
    /// a record has no clock of its own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub final_time: Option<f64>,
    /// What an import saw (the replay, its placements and garbage rows, the statistics it
    /// states and those simulated): kept for the reader, not read back.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub import: Option<Value>,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// The most garbage rows one message may carry: far past any attack of one clear.
pub const MAX_GARBAGE_AMOUNT: i64 = 1000;

/// What is wrong with a garbage message of `amount` rows with holes `size` wide (at `column`
/// when it sets one), if anything.
pub fn garbage_problem(amount: i64, size: usize, column: Option<usize>) -> Option<String> {
    if !(0..=MAX_GARBAGE_AMOUNT).contains(&amount) {
        return Some(format!(
            "garbage amount {amount} is not from 0 to {MAX_GARBAGE_AMOUNT}"
        ));
    }
    if !(1..=100).contains(&size) {
        return Some(format!("garbage hole size {size} is not from 1 to 100"));
    }
    if let Some(c) = column.filter(|&c| c >= 100) {
        return Some(format!(
            "garbage hole column {c} is not from 0 to 99 (boards are at most 100 wide)"
        ));
    }
    None
}

impl NetEvent {
    fn from_event(after_locks: usize, frame: i64, e: &Event) -> Option<NetEvent> {
        let mut n = NetEvent {
            after_locks,
            frame,
            kind: String::new(),
            gameid: None,
            iid: None,
            ackiid: None,
            amount: None,
            size: None,
            x: None,
            column: None,
            targets: None,
        };
        match e {
            Event::Garbage {
                gameid,
                iid,
                ackiid,
                amount,
                size,
                x,
                column,
            } => {
                n.kind = "garbage".into();
                (n.gameid, n.iid, n.ackiid, n.amount, n.size, n.x, n.column) = (
                    Some(*gameid),
                    Some(*iid),
                    Some(*ackiid),
                    Some(*amount),
                    Some(*size),
                    *x,
                    *column,
                );
            }
            Event::Confirm { gameid, iid } => {
                n.kind = "confirm".into();
                (n.gameid, n.iid) = (Some(*gameid), Some(*iid));
            }
            Event::Targets(t) => {
                n.kind = "targets".into();
                n.targets = Some(t.clone());
            }
            _ => return None,
        }
        Some(n)
    }

    fn event(&self) -> Option<Event> {
        Some(match self.kind.as_str() {
            "garbage" => Event::Garbage {
                gameid: self.gameid?,
                iid: self.iid?,
                ackiid: self.ackiid.unwrap_or(0),
                amount: self.amount?,
                size: self.size.unwrap_or(1),
                x: self.x,
                column: self.column,
            },
            "confirm" => Event::Confirm {
                gameid: self.gameid?,
                iid: self.iid?,
            },
            "targets" => Event::Targets(self.targets.clone().unwrap_or_default()),
            _ => return None,
        })
    }
}

impl TetrioGame {
    /// `stats`, a record's on this game, with what the game lets a record tell
    /// ([`RecordStats`]): the keys where it counted the player's, the time where it holds
    /// each lock's.
    pub fn record_stats(&self, stats: TetrioStats) -> RecordStats {
        RecordStats {
            stats,
            keys_known: self.keys_known(),
            times_known: self.times_known(),
        }
    }

    /// Whether the game counted each piece's keys (an import's does; a solve's has none).
    pub fn keys_known(&self) -> bool {
        self.times_known() && self.locks.iter().all(|l| l.counted.is_some())
    }

    /// Whether the game holds each lock's time (an import's, a paced BLITZ game's).
    pub fn times_known(&self) -> bool {
        !self.locks.is_empty()
    }

    /// The game an engine played: its options, lock times and network events.
    pub fn from_engine(options: &Value, e: &Engine) -> TetrioGame {
        TetrioGame {
            options: options.clone(),
            locks: e
                .locks
                .iter()
                .map(|l| LockTime {
                    frame: l.frame,
                    grown: l.grown,
                    hard: l.hard,
                    counted: Some(l.counted.clone()),
                })
                .collect(),
            events: e
                .network_log
                .iter()
                .filter_map(|(n, f, ev)| NetEvent::from_event(*n, *f, ev))
                .collect(),
            import: None,
            tetrio_spawn: true,
            holds_after_last_lock: e.stats.holds - e.locks.iter().filter(|l| l.held).count() as u32,
            inputs_after_last_lock: e.stats.inputs
                - e.locks.iter().map(|l| l.counted.inputs).sum::<u32>(),
            drop_points_after_last_lock: e.pending_drop_points(),
            final_time: Some(e.stats.final_time),
        }
    }

    /// TETR.IO's current rules for one player alone (no garbage): the options of today's
    /// versus games (the version-19 replays), with `seed`.
    pub fn solo(seed: u64) -> TetrioGame {
        let options = serde_json::json!({
            "version": 19, "seed": seed, "allow180": true, "b2bchaining": true,
            "b2bcharge_base": 3, "allclear_b2b_sends": true, "allclear_b2b_dupes": false,
            "nolockout": true, "hasgarbage": true, "gincrease": 0.0035, "gmargin": 7200,
            "garbagemargin": 10800, "garbageincrease": 0.008,
            "handling": {"arr": 2, "das": 10, "dcd": 0, "sdf": 20, "safelock": true,
                         "cancel": false, "may20g": true, "irs": "tap", "ihs": "tap"}
        });
        TetrioGame::with_options(options)
    }

    /// A game of `options` with nothing played: no lock times, no events, the search's spawn.
    fn with_options(options: Value) -> TetrioGame {
        TetrioGame {
            options,
            locks: Vec::new(),
            events: Vec::new(),
            import: None,
            tetrio_spawn: false,
            holds_after_last_lock: 0,
            inputs_after_last_lock: 0,
            drop_points_after_last_lock: 0,
            final_time: None,
        }
    }

    /// The same pieces and options played alone: the game a solver plays on an imported
    /// round (no received garbage, no lock times, the search's spawn).
    pub fn alone(&self) -> TetrioGame {
        TetrioGame::with_options(self.options.clone())
    }

    /// The options, checked with the locks and events (`place` names the game in errors).
    pub fn parsed_options(&self, place: &str) -> Result<Options> {
        let place = format!("{place}: tetrio");
        let options = Options::parse(&self.options, &place)?;
        self.check().map_err(|why| Error::at(&place, why))?;
        Ok(options)
    }

    /// The locks' times and the events as an import writes them: times from frame 0 on, in
    /// order; events of the three kinds replayed, each after a lock the game has; garbage
    /// as [`garbage_problem`] allows. (The hole column `x` a message carries is kept as
    /// read: real replays hold -1 there, and the simulation does not read it.)
    pub fn check(&self) -> std::result::Result<(), String> {
        let mut last = 0;
        for (i, l) in self.locks.iter().enumerate() {
            if l.frame < last || l.grown < 0 || l.grown > l.frame {
                return Err(format!(
                    "locks[{i}]: frame {} (grown {}) is not a time after the lock before (frame {last})",
                    l.frame, l.grown
                ));
            }
            last = l.frame;
        }
        for (i, n) in self.events.iter().enumerate() {
            let bad = |why: String| Err(format!("events[{i}]: {why}"));
            if !["garbage", "confirm", "targets"].contains(&n.kind.as_str()) {
                return bad(format!(
                    "kind {:?} is not garbage, confirm or targets",
                    crate::error::printable(&n.kind)
                ));
            }
            if n.frame < 0 {
                return bad(format!("frame {} is before the game", n.frame));
            }
            if !self.locks.is_empty() && n.after_locks > self.locks.len() {
                return bad(format!(
                    "after_locks {} is past the game's {} locks",
                    n.after_locks,
                    self.locks.len()
                ));
            }
            if n.kind == "garbage" {
                if let Some(why) =
                    garbage_problem(n.amount.unwrap_or(0), n.size.unwrap_or(1), n.column)
                {
                    return bad(why);
                }
            }
        }
        Ok(())
    }

    /// Replays the pieces' paths (`L R D C A F`, `H` first for a hold) on the TETR.IO engine,
    /// each piece dropped and locked at the end of its path.
    pub fn replay(&self, paths: &[String], place: &str) -> Result<Engine> {
        self.replay_observed(paths, place, |_| {})
    }

    /// [`TetrioGame::replay`], calling `after_lock` with the engine before the first lock
    /// and after each lock (the views draw the game from it).
    pub fn replay_observed(
        &self,
        paths: &[String],
        place: &str,
        mut after_lock: impl FnMut(&Engine),
    ) -> Result<Engine> {
        let mut e = Engine::new(self.parsed_options(place)?);
        after_lock(&e);
        let mut next_event = 0;
        for (k, path) in paths.iter().enumerate() {
            while next_event < self.events.len() && self.events[next_event].after_locks <= k {
                let n = &self.events[next_event];
                if let Some(ev) = n.event() {
                    let (_, grown) = e.clock();
                    e.set_clock(n.frame, grown);
                    e.feed(&ev);
                }
                next_event += 1;
            }
            let time = self.locks.get(k).cloned().unwrap_or_else(|| {
                let (f, g) = e.clock();
                LockTime {
                    frame: f + 1,
                    grown: g + 1,
                    hard: true,
                    counted: None,
                }
            });
            // A record's pieces spawn where beamtris's guideline game puts them, a row under
            // TETR.IO's spawn (where a piece stays for two frames before gravity takes it down).
            // Survival rows that rose before this lock (in its frame too when a hard drop made
            // it: the row rises at the frame's start, gravity locks at its end) rise before
            // the piece moves.
            e.raise_survival_rows(time.frame, time.hard);
            let spawn_drop = !self.tetrio_spawn;
            if spawn_drop {
                e.apply('D');
            }
            for op in path.chars() {
                if !e.apply(op) && op == 'H' {
                    return Err(Error::at(
                        place,
                        format!("piece {}: the hold is not allowed here", k + 1),
                    ));
                }
                if op == 'H' && spawn_drop {
                    e.apply('D');
                }
            }
            e.set_clock(time.frame, time.grown);
            match &time.counted {
                Some(c) => e.drop_and_lock_counted(time.hard, c),
                None => e.drop_and_lock(time.hard),
            }
            after_lock(&e);
            if e.topped_out {
                break;
            }
        }
        if paths.len() == self.locks.len() && !e.topped_out {
            // The rows that rose after the last lock, before the game ended.
            if let Some(ms) = self.final_time {
                e.raise_survival_rows((ms * 60. / 1000.).round() as i64, false);
            }
            for _ in 0..self.holds_after_last_lock {
                e.apply('H');
            }
        }
        let played_all = paths.len() == self.locks.len();
        let (frame, _) = e.clock();
        let final_time = match (played_all, self.final_time) {
            (true, Some(t)) => t,
            _ => (frame + 1) as f64 * 1000. / 60.,
        };
        let (inputs, points) = match played_all {
            true => (
                self.inputs_after_last_lock,
                self.drop_points_after_last_lock,
            ),
            false => (0, 0),
        };
        e.finish_counted(inputs, points, final_time);
        // Events after the last lock (garbage confirmed before the game ended).
        for n in &self.events[next_event..] {
            if let Some(ev) = n.event() {
                let (_, grown) = e.clock();
                e.set_clock(n.frame, grown);
                e.feed(&ev);
            }
        }
        Ok(e)
    }
}

/// A lock's path as record moves: `H` first when the piece came through the hold, without
/// the rows a hard drop falls at the end, and unless `tetrio_spawn`, without the first row
/// down (beamtris's guideline pieces spawn a row lower than TETR.IO's).
pub fn record_path(l: &Lock, tetrio_spawn: bool) -> String {
    let mut p = String::new();
    if l.held {
        p.push('H');
    }
    // The record's spawn is a row under TETR.IO's: the first row down is the spawn's.
    let path = match tetrio_spawn {
        true => &l.path,
        false => l.path.strip_prefix('D').unwrap_or(&l.path),
    };
    p.push_str(path.trim_end_matches('D'));
    p
}

/// The statistics of a replayed record.
pub fn stats_of(e: &Engine) -> TetrioStats {
    e.stats.clone()
}
