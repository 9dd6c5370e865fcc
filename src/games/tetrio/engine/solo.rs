//! The engine's side of the solo rules (`super::super::solo`): key presses counted, score
//! at each lock and drop, the level rising with the lines, finesse judged at each lock, and
//! the objective that ends the game.

use super::*;
use crate::games::tetrio::finesse;
use crate::games::tetrio::solo::{self, Objective};
use serde::{Deserialize, Serialize};

/// What the solo rules counted for one piece: what a record of its moves cannot say.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PieceCounts {
    /// Keys pressed since the lock before (all keys: TETR.IO's `inputs`).
    pub inputs: u32,
    /// Presses of moves and turns that finesse judges (a 180 counts two).
    pub keys: u32,
    /// Soft drop was let go during the piece (finesse does not judge it).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub soft: bool,
    /// Points of its soft drop and hard drop rows.
    pub drop_points: u32,
}

/// What the solo rules keep between frames.
#[derive(Clone, Debug, Default)]
pub struct SoloState {
    /// Points so far (halves can occur before the level multiplier; kept exact).
    pub score: f64,
    /// Presses of the piece in play that count for finesse (moves and rotations).
    pub piece_keys: u32,
    /// Whether the game has ended (objective reached, or topped out).
    pub ended: bool,
    /// Whether soft drop was let go during the piece in play (finesse does not judge it).
    pub piece_soft: bool,
    /// Drop points of the piece in play, and the inputs counted at the last lock.
    pub piece_drop: f64,
    pub inputs_at_lock: u32,
}

impl Engine {
    /// The level at the start, and its gravity when `levels` is on.
    pub(super) fn solo_start(&mut self) {
        match self.o.levels.clone() {
            Some(l) => {
                self.stats.level = l.start;
                self.stats.level_lines_needed = l.needed(l.start);
                self.gravity.value = l.gravity(l.start);
                self.master_level();
            }
            None => {
                self.stats.level = 1;
                self.stats.level_lines_needed = 1;
            }
        }
    }

    /// A key pressed while the game runs.
    pub(super) fn count_key(&mut self, key: Key) {
        self.stats.inputs += 1;
        if matches!(
            key,
            Key::MoveLeft | Key::MoveRight | Key::RotateCcw | Key::RotateCw | Key::Rotate180
        ) {
            self.solo.piece_keys += 1;
        }
        // A 180 counts as the two turns it replaces: finesse is judged against the
        // fewest presses without 180s (the samples' faults agree only so).
        if key == Key::Rotate180 {
            self.solo.piece_keys += 1;
        }
    }

    /// Soft drop let go: finesse does not judge the piece in play (a hold starts afresh).
    pub(super) fn soft_drop_released(&mut self) {
        self.solo.piece_soft = true;
    }

    /// Points of rows fallen (soft drop: 1 a row; a hard drop: 2 a row).
    pub(super) fn drop_points(&mut self, points: f64) {
        self.solo.score += points;
        self.solo.piece_drop += points;
        self.stats.score = self.solo.score.floor() as u64;
    }

    /// What the solo rules counted for the piece in play.
    pub(super) fn piece_counts(&self) -> PieceCounts {
        PieceCounts {
            inputs: self.stats.inputs - self.solo.inputs_at_lock,
            keys: self.solo.piece_keys,
            soft: self.solo.piece_soft,
            drop_points: self.solo.piece_drop as u32,
        }
    }

    /// Takes the counts of the piece in play from a game file (the record replay).
    pub(super) fn set_piece_counts(&mut self, c: &PieceCounts) {
        self.stats.inputs += c.inputs;
        self.solo.piece_keys = c.keys;
        self.solo.piece_soft = c.soft;
        self.solo.score += c.drop_points as f64 - self.solo.piece_drop;
        self.solo.piece_drop = c.drop_points as f64;
        self.stats.score = self.solo.score.floor() as u64;
    }

    /// Drop points of the piece in play, not locked yet (the game may end with it).
    pub fn pending_drop_points(&self) -> u32 {
        self.solo.piece_drop as u32
    }

    /// Ends a record replay: keys pressed and drop points scored after the last lock, and
    /// the game's length.
    pub fn finish_counted(&mut self, inputs_after: u32, drop_points_after: u32, final_time: f64) {
        self.stats.inputs += inputs_after;
        self.drop_points(drop_points_after as f64);
        self.stats.final_time = final_time;
    }

    /// Raises the level for `lines` cleared, several levels at once if they suffice.
    fn level_up(&mut self, lines: u32) {
        let Some(l) = self.o.levels.clone() else {
            return;
        };
        self.stats.level_lines += lines;
        while self.stats.level_lines >= self.stats.level_lines_needed {
            self.stats.level_lines -= self.stats.level_lines_needed;
            self.stats.level += 1;
            self.gravity.value = l.gravity(self.stats.level);
            self.stats.level_lines_needed = l.needed(self.stats.level);
            self.master_level();
        }
    }

    /// MASTER levels: past level 20 the lock delay shortens by a frame a level (to 5), past
    /// 45 the lock resets fall by one a level (to 5).
    fn master_level(&mut self) {
        let Some(l) = &self.o.levels else { return };
        let level = self.stats.level as f64;
        if l.master && level > 20. {
            self.o.locktime = 30. - (level - 20.).min(25.);
        }
        if l.master && level > 45. {
            self.o.lockresets = (15. - (level - 45.).min(10.)) as u32;
        }
    }

    /// The solo rules of a lock: level, score, finesse, and the objective.
    pub(super) fn solo_lock(&mut self, lock: &Lock, b2b: bool) {
        self.level_up(lock.lines);
        self.solo.score += solo::lock_points(
            lock.lines,
            lock.spin,
            b2b,
            self.combo.max(0) as u32,
            lock.allclear,
            self.stats.level,
        );
        self.stats.score = self.solo.score.floor() as u64;
        self.stats.combo = (self.combo + 1) as u32;
        self.stats.btb = (self.b2b + 1) as u32;
        let best = finesse::optimal(lock.piece, lock.rotation, lock.x, self.o.width);
        let keys = self.solo.piece_keys;
        // A piece soft dropped is not judged (a tuck or a spin needs more presses).
        match best {
            Some(b) if keys > b && !self.solo.piece_soft => {
                self.stats.finesse.faults += keys - b;
                self.stats.finesse.combo = 0;
            }
            _ => {
                self.stats.finesse.perfectpieces += 1;
                self.stats.finesse.combo += 1;
            }
        }
        self.solo.piece_keys = 0;
        self.solo.piece_soft = false;
        self.solo.piece_drop = 0.;
        self.solo.inputs_at_lock = self.stats.inputs;
        let done = match self.o.objective {
            Objective::Lines(n) => self.stats.lines >= n,
            Objective::Garbage(n) => self.stats.garbage.cleared >= n,
            Objective::None | Objective::Timed(_) => false,
        };
        if done {
            self.solo.ended = true;
        }
    }

    /// The end of a frame: the clock of a timed game, and the game's length so far.
    pub(super) fn solo_frame_end(&mut self) {
        if let Objective::Timed(ms) = self.o.objective {
            if self.frame as f64 * (1000. / 60.) >= ms {
                self.solo.ended = true;
            }
        }
        // Version 15 counts the frame in play, version 19 the frames before it.
        let frames = match self.o.version {
            19 => self.frame - 1,
            _ => self.frame,
        };
        self.stats.final_time = (frames as f64 + self.subframe) * 1000. / 60.;
    }
}
