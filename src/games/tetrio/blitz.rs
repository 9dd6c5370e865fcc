//! A timed solo game with levels (TETR.IO's BLITZ) played for points at a pace: how many
//! pieces the clock allows, when each one locks, and the score of a lock as TETR.IO counts
//! it (its clear table, back-to-back, combo and all clear, times the level the lines cleared
//! so far reach, plus the hard drop's rows), for a guideline search whose states do not
//! carry the level: the lines cleared so far follow from the pieces locked and the cells
//! left on the board.

use super::attack::SpinKind;
use super::game::{LockTime, TetrioGame};
use super::options::Options;
use super::solo::{self, Levels, Objective};
use crate::error::{Error, Result};
use crate::games::guideline::board::{Board, WIDTH};
use crate::games::guideline::game::Lock;
use crate::games::guideline::Spin;

/// Gravity (rows a frame) from which the search moves a piece only along the surface of the
/// stack, falling to it before each move. At 20G (TETR.IO's BLITZ from level 14) that is
/// all a piece can do: it falls to the stack the moment it appears. From one row a frame
/// (BLITZ's level 9) a piece falls a row or more for each key pressed, and a path that moves
/// above the stack may not be playable (`export` refused such placements at 3 and 4 pieces
/// a second); along the surface it always is, since a piece may wait on the stack for its
/// fall (lock delay) before each move. Below, the piece is taken to move freely above the
/// stack.
pub const SURFACE_GRAVITY: f64 = 1.;

/// The default pace on a game file without a player's own (pieces a second).
pub const DEFAULT_PPS: f64 = 2.0;

/// A timed game with levels at a pace: its length in pieces and its scoring.
#[derive(Clone, Debug)]
pub struct Blitz {
    /// Pieces a second.
    pub pps: f64,
    /// The pieces placed: the pace times the game's time.
    pub pieces: usize,
    /// The level after `n` lines, for `n` from 0 to four lines a piece.
    level_at: Vec<u32>,
    /// Whether a piece played after `n` lines moves along the surface ([`SURFACE_GRAVITY`]).
    surface_at: Vec<bool>,
}

impl Blitz {
    /// The game `options` define at `pps` pieces a second (`place` names the game in
    /// errors); `None` when the game is not timed with levels. A pace of 0 or less, or past
    /// what the handling allows (see [`max_pps`]), is refused.
    pub fn of(options: &Options, pps: f64, place: &str) -> Result<Option<Blitz>> {
        let (Objective::Timed(ms), Some(levels)) = (options.objective, options.levels.as_ref())
        else {
            return Ok(None);
        };
        let most = max_pps(options);
        if !(pps > 0. && pps.is_finite()) || pps > most {
            return Err(Error(format!(
                "--pps {}: {place} is played at a pace above 0 and at most {most:.2} pieces a \
                 second under its handling (DAS {}, ARR {}: a hold, a turn, DAS to a wall and \
                 a hard drop, a frame a key)",
                crate::limits::short_number(pps),
                options.handling.das,
                options.handling.arr
            )));
        }
        let pieces = (pps * ms / 1000. + 1e-9).floor() as usize;
        if pieces == 0 {
            return Err(Error(format!(
                "--pps {}: not one piece in {place}'s {} s",
                crate::limits::short_number(pps),
                crate::limits::short_number(ms / 1000.)
            )));
        }
        let (level_at, surface_at) = tables(levels, 4 * pieces / WIDTH + 1);
        Ok(Some(Blitz {
            pps,
            pieces,
            level_at,
            surface_at,
        }))
    }

    /// The lines cleared after `locks` locks that left `board`: each lock adds four cells,
    /// each line takes ten away.
    #[inline]
    pub fn lines_before(&self, locks: usize, board: &Board) -> usize {
        let cells: u32 = board.cols.iter().map(|c| c.count_ones()).sum();
        (4 * locks - cells as usize) / WIDTH
    }

    /// Whether a piece played after `lines` lines moves along the surface only.
    #[inline]
    pub fn on_surface(&self, lines: usize) -> bool {
        self.surface_at[lines.min(self.surface_at.len() - 1)]
    }

    /// The level after `lines` lines.
    #[inline]
    pub fn level(&self, lines: usize) -> u32 {
        self.level_at[lines.min(self.level_at.len() - 1)]
    }

    /// TETR.IO's points for `lock` after `lines` lines cleared before it (the drop aside).
    #[inline]
    pub fn lock_points(&self, lines: usize, lock: &Lock) -> u32 {
        let spin = match lock.spin {
            Spin::None => SpinKind::None,
            Spin::Mini => SpinKind::Mini,
            Spin::Full => SpinKind::Normal,
        };
        let level = self.level(lines + lock.lines as usize);
        solo::lock_points(
            lock.lines,
            spin,
            lock.earned.back_to_back,
            lock.earned.combo.max(0) as u32,
            lock.perfect,
            level,
        ) as u32
    }

    /// The frame piece `k` (from 0) locks at: `round((k + 1) × 60 / pps)`.
    pub fn lock_frame(&self, k: usize) -> i64 {
        ((k + 1) as f64 * 60. / self.pps).round() as i64
    }

    /// `game` played alone at this pace: each piece locks at its frame, by a hard drop, and
    /// the game lasts its whole time.
    pub fn paced(&self, game: &TetrioGame, ms: f64) -> TetrioGame {
        let mut g = game.alone();
        g.locks = (0..self.pieces)
            .map(|k| LockTime {
                frame: self.lock_frame(k),
                grown: self.lock_frame(k),
                hard: true,
                counted: None,
            })
            .collect();
        g.final_time = Some(ms);
        g
    }
}

/// The most points (before the level) a line can bring, combos included: see [`Blitz::bound`].
pub const BOUND_LINE_POINTS: u64 = 2700;
/// The most drop points of one piece: two a row from the spawn row to the floor.
pub const BOUND_DROP_POINTS: u64 = 42;
/// A T-spin clearing nothing (before the level).
pub const BOUND_TSPIN_ZERO: u64 = 400;

impl Blitz {
    /// An upper bound on the score of this game, whose pieces hold `tees` T pieces (among
    /// the pieces played and the one held): docs/tetrio.md, "BLITZ", gives the proof. The
    /// lines are at most four a piece over ten (`L`); line `i` (from 1) is cleared by a lock
    /// of at most four rows, so at a level at most that of `min(i + 3, L)` lines; each line
    /// brings at most [`BOUND_LINE_POINTS`]; each T may add a T-spin clearing nothing at the
    /// last level; each piece at most [`BOUND_DROP_POINTS`].
    pub fn bound(&self, tees: usize) -> u64 {
        let lines = 4 * self.pieces / WIDTH;
        let clears: u64 = (1..=lines)
            .map(|i| BOUND_LINE_POINTS * self.level((i + 3).min(lines)) as u64)
            .sum();
        let zeros = tees as u64 * BOUND_TSPIN_ZERO * self.level(lines) as u64;
        clears + zeros + self.pieces as u64 * BOUND_DROP_POINTS
    }
}

/// The level after each count of lines, and whether its gravity reaches [`SURFACE_GRAVITY`].
fn tables(levels: &Levels, lines: usize) -> (Vec<u32>, Vec<bool>) {
    let mut level = levels.start;
    let mut into = 0;
    let mut level_at = Vec::with_capacity(lines + 1);
    let mut surface = Vec::with_capacity(lines + 1);
    for _ in 0..=lines {
        while into >= levels.needed(level) {
            into -= levels.needed(level);
            level += 1;
        }
        level_at.push(level);
        surface.push(levels.gravity(level) >= SURFACE_GRAVITY);
        into += 1;
    }
    (level_at, surface)
}

/// The fastest pace the handling allows for any placement: a hold, a turn, DAS to a wall
/// (and ARR for the four columns on, when it is not 0) and a hard drop, a frame a key.
pub fn max_pps(options: &Options) -> f64 {
    let h = &options.handling;
    60. / (3. + h.das + 4. * h.arr)
}

/// The game's time in milliseconds, when it is timed.
pub fn time_ms(options: &Options) -> Option<f64> {
    match options.objective {
        Objective::Timed(ms) => Some(ms),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn blitz_levels() -> Levels {
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
    fn levels_follow_the_lines_and_the_surface_starts_at_level_9() {
        let (level, surface) = tables(&blitz_levels(), 250);
        assert_eq!(&level[..9], &[1, 1, 1, 2, 2, 2, 2, 2, 3]);
        // 3 + 5 + 7 + ... + 17 = 80 lines reach level 9; 198 reach level 14.
        assert_eq!((level[79], level[80]), (8, 9));
        assert_eq!((level[197], level[198]), (13, 14));
        // Level 8 falls 0.59 rows a frame, level 9 1.08, level 14 past 20.
        assert_eq!((surface[79], surface[80]), (false, true));
        assert!(blitz_levels().gravity(13) < 20. && blitz_levels().gravity(14) >= 20.);
    }
}
