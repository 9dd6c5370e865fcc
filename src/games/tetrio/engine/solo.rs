//! The engine's side of the solo rules (`super::super::solo`): key presses counted, score
//! at each lock and drop, the level rising with the lines, finesse judged at each lock, and
//! the objective that ends the game.

use super::*;
use crate::games::tetrio::finesse;
use crate::games::tetrio::solo::{self, Objective};

/// What the solo rules keep between frames.
#[derive(Clone, Debug, Default)]
pub struct SoloState {
    /// Points so far (halves can occur before the level multiplier; kept exact).
    pub score: f64,
    /// Presses of the piece in play that count for finesse (moves and rotations).
    pub piece_keys: u32,
    /// Whether the game has ended (objective reached, or topped out).
    pub ended: bool,
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
    }

    /// Points of rows fallen: `rows` by soft drop (1 each) or by a hard drop (2 each).
    pub(super) fn drop_points(&mut self, rows: u32, hard: bool) {
        let each = if hard {
            solo::HARD_DROP_POINTS
        } else {
            solo::SOFT_DROP_POINTS
        };
        self.solo.score += each * rows as f64;
        self.stats.score = self.solo.score.floor() as u64;
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
        let best = finesse::optimal(
            lock.piece,
            lock.rotation,
            lock.x,
            self.o.width,
            self.o.allow180,
        );
        let keys = self.solo.piece_keys;
        if std::env::var_os("BEAMTRIS_FINESSE_DEBUG").is_some() {
            eprintln!(
                "FIN {} {} {} {} keys {} best {:?} held {} spin {:?} path {}",
                lock.frame,
                lock.piece,
                lock.rotation,
                lock.x,
                keys,
                best,
                lock.held,
                lock.spin,
                lock.path
            );
        }
        match best {
            Some(b) if keys > b => {
                self.stats.finesse.faults += keys - b;
                self.stats.finesse.combo = 0;
            }
            _ => {
                self.stats.finesse.perfectpieces += 1;
                self.stats.finesse.combo += 1;
            }
        }
        self.solo.piece_keys = 0;
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
        self.stats.final_time = (self.frame as f64 + self.subframe) * 1000. / 60.;
    }
}
