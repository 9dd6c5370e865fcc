//! Move generation under gravity and a player's input speed, for a search: for each rotation
//! and shift count the input sequence a player of that speed presses (rotations on the first
//! frames, shifts at the tap rate or by DAS), and where the piece then locks.
//!
//! Where it locks is found by a fast simulation of the same rules the engine runs each frame
//! while the piece moves (`moving.rs`: shift, then rotate, then drop; `fallTimer` counted
//! before them), on a board of ten-bit rows, for as long as the inputs last; after them no
//! button is down, so the piece only falls straight to where it rests. The test
//! `fast_lock_is_the_engines` (and tests/nes_movegen.rs) checks it against
//! [`super::placement::place`] on random boards, levels, pieces and inputs.
//!
//! The generator leaves out, rather than models, what a search never wants: a piece that
//! locks before its inputs end (the speed cannot reach there), a lock with a cell above the
//! top row (the ROM writes those cells at the end of its page), a filled top row (the ROM's
//! clear of row 0 moves the whole page), and a spawn that overlaps the stack (a top-out).
//! Tucks and spins (a shift or turn after the piece has fallen) are not generated.

use super::buttons::Buttons;
use super::gameplay::frames_per_drop;
pub use super::gameplay::Gravity;
use super::orientation::{cells, rotated, spawn_of, Orientation};
use super::playfield::Playfield;
use super::score::{level_after_line, Lines};
use crate::piece::Shape;
use serde::{Deserialize, Serialize};

/// How fast the player moves a piece sideways.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize, Default)]
pub enum Speed {
    /// A tap every 2nd frame (rolling): shifts on frames 1, 3, 5, ...
    #[default]
    #[serde(rename = "30hz")]
    Tap30,
    /// A tap every 4th frame: shifts on frames 1, 5, 9, ...
    #[serde(rename = "15hz")]
    Tap15,
    /// The direction held: the ROM's DAS shifts on frames 1, 17, 23, 29, ... (16 frames, then
    /// every 6).
    #[serde(rename = "das")]
    Das,
}

impl Speed {
    /// The name records and game files use: `30hz`, `15hz`, `das`.
    pub fn name(self) -> &'static str {
        match self {
            Speed::Tap30 => "30hz",
            Speed::Tap15 => "15hz",
            Speed::Das => "das",
        }
    }

    /// The speed a name stands for.
    pub fn from_name(name: &str) -> Option<Speed> {
        [Speed::Tap30, Speed::Tap15, Speed::Das]
            .into_iter()
            .find(|s| s.name() == name)
    }

    /// The frame (from 1, the first after the spawn) of the `i`-th shift (from 0).
    pub fn shift_frame(self, i: usize) -> usize {
        match self {
            Speed::Tap30 => 1 + 2 * i,
            Speed::Tap15 => 1 + 4 * i,
            Speed::Das if i == 0 => 1,
            Speed::Das => 17 + 6 * (i - 1),
        }
    }

    /// The fewest frames between two presses of left or right a tapping player makes (`None`
    /// for DAS, which presses once and holds).
    pub fn tap_gap(self) -> Option<usize> {
        match self {
            Speed::Tap30 => Some(2),
            Speed::Tap15 => Some(4),
            Speed::Das => None,
        }
    }
}

/// Frames the first piece of a game waits before gravity starts (`autorepeatY` = -96).
pub const FIRST_ENTRY_DELAY: u8 = 96;

/// The inputs of a placement, from the spawn's first frame: `turns` clockwise turns (1: A on
/// frame 1; 2: A on frames 1 and 3; 3: B on frame 1) and `shifts` (negative left) at
/// `speed`. Nothing after the last press.
pub fn inputs(speed: Speed, turns: u8, shifts: i8) -> Vec<Buttons> {
    let n = usize::from(shifts.unsigned_abs());
    let dir = if shifts < 0 {
        Buttons::LEFT
    } else {
        Buttons::RIGHT
    };
    let turn_frames: &[(usize, Buttons)] = match turns % 4 {
        0 => &[],
        1 => &[(1, Buttons::A)],
        2 => &[(1, Buttons::A), (3, Buttons::A)],
        _ => &[(1, Buttons::B)],
    };
    let last_shift = if n > 0 { speed.shift_frame(n - 1) } else { 0 };
    let last_turn = turn_frames.last().map_or(0, |t| t.0);
    let mut out = vec![Buttons::NONE; last_shift.max(last_turn)];
    if n > 0 {
        if speed == Speed::Das {
            for b in &mut out[..last_shift] {
                *b = b.with(dir);
            }
        } else {
            for i in 0..n {
                let f = speed.shift_frame(i) - 1;
                out[f] = out[f].with(dir);
            }
        }
    }
    for &(f, b) in turn_frames {
        out[f - 1] = out[f - 1].with(b);
    }
    out
}

/// The screen's 20 rows, top first, bit `x` for column `x`: the part of the ROM's page a game
/// that never locks above the top uses.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Board(pub [u16; 20]);

/// A full row.
pub const FULL: u16 = 0x3FF;

impl Board {
    /// Whether `o` at (x, y) fits: cells in columns 0-9 and rows -2 to 19, on empty cells
    /// (rows -2 and -1 are empty, as they stay in a game that never locks there).
    #[inline]
    pub fn fits(&self, o: Orientation, x: i8, y: i8) -> bool {
        cells(o).iter().all(|&(dx, dy)| {
            let (cx, cy) = (x + dx, y + dy);
            (0..10).contains(&cx)
                && (-2..20).contains(&cy)
                && (cy < 0 || self.0[cy as usize] >> cx & 1 == 0)
        })
    }

    /// The ROM's playfield holding this board.
    pub fn playfield(&self) -> Playfield {
        let mut p = Playfield::default();
        for (y, row) in self.0.iter().enumerate() {
            for x in 0..10 {
                p.set(x, y, row >> x & 1 == 1);
            }
        }
        p
    }

    /// The board of a playfield's screen rows (the rows past the screen ignored).
    pub fn of(p: &Playfield) -> Board {
        let mut b = Board::default();
        for y in 0..20 {
            for x in 0..10 {
                if p.get(x, y) {
                    b.0[y] |= 1 << x;
                }
            }
        }
        b
    }
}

/// Where the fast simulation puts a piece: its orientation and position when it locks.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Rest {
    pub orientation: Orientation,
    pub x: i8,
    pub y: i8,
}

/// The piece in play as the fast simulation steps it: the engine's `moving.rs` rules on a
/// [`Board`], for inputs without down, start or select.
#[derive(Clone, Copy, Debug)]
struct Falling {
    o: Orientation,
    x: i8,
    y: i8,
    fall_timer: u8,
    /// Entry-delay runs of the drop routine left (the first piece of a game).
    wait: u8,
    autorepeat_x: u8,
    held: Buttons,
}

impl Falling {
    fn spawn(piece: Shape, delay: u8) -> Falling {
        Falling {
            o: spawn_of(piece),
            x: 5,
            y: 0,
            fall_timer: 0,
            wait: delay,
            autorepeat_x: 0,
            held: Buttons::NONE,
        }
    }

    /// One frame: `fallTimer` counted, shift, rotate, then the drop (three runs of the
    /// routine when doubled, the first two with the timer at the speed). False when the
    /// piece stopped (the lock starts) on this frame.
    #[inline]
    fn frame(&mut self, board: &Board, gravity: Gravity, input: Buttons) -> bool {
        debug_assert!(input.0 & (Buttons::DOWN.0 | Buttons::START.0 | Buttons::SELECT.0) == 0);
        let sideways = Buttons::LEFT.with(Buttons::RIGHT);
        self.fall_timer = self.fall_timer.wrapping_add(1);
        let pressed = input.pressed_since(self.held);
        self.held = input;
        // shift: a new press shifts at once, a held one when DAS reaches 16
        let mut shift = false;
        if pressed.0 & sideways.0 != 0 {
            self.autorepeat_x = 0;
            shift = true;
        } else if input.0 & sideways.0 != 0 {
            self.autorepeat_x = self.autorepeat_x.wrapping_add(1);
            if self.autorepeat_x >= 16 {
                self.autorepeat_x = 10;
                shift = true;
            }
        }
        if shift {
            let nx = if input.has(Buttons::RIGHT) {
                self.x + 1
            } else {
                self.x - 1
            };
            if board.fits(self.o, nx, self.y) {
                self.x = nx;
            } else {
                self.autorepeat_x = 16;
            }
        }
        // rotate: A clockwise, else B
        let turned = if pressed.has(Buttons::A) {
            Some(rotated(self.o, true))
        } else if pressed.has(Buttons::B) {
            Some(rotated(self.o, false))
        } else {
            None
        };
        if let Some(t) = turned.filter(|&t| board.fits(t, self.x, self.y)) {
            self.o = t;
        }
        // drop: each run of the routine waits out the entry delay, else applies gravity
        // (`fallTimer` - speed, signed, not negative); a failed drop starts the lock, and
        // later runs of the same frame try the same row again
        let speed = frames_per_drop(gravity.level);
        let runs = if gravity.double { 3 } else { 1 };
        let mut moving = true;
        for run in 0..runs {
            if self.wait > 0 {
                self.wait -= 1;
                continue;
            }
            if run < 2 && gravity.double {
                self.fall_timer = speed;
            }
            if self.fall_timer.wrapping_sub(speed) < 0x80 {
                self.fall_timer = 0;
                if moving && board.fits(self.o, self.x, self.y + 1) {
                    self.y += 1;
                } else {
                    moving = false;
                }
            }
        }
        moving
    }

    /// Where the piece rests falling straight down from where it is.
    #[inline]
    fn rest(&self, board: &Board) -> Rest {
        let mut y = self.y;
        while board.fits(self.o, self.x, y + 1) {
            y += 1;
        }
        Rest {
            orientation: self.o,
            x: self.x,
            y,
        }
    }
}

/// Plays `inputs` (no down, start or select) from the spawn of `piece` on `board` under
/// `gravity`, `delay` frames of entry delay before gravity (the first piece of a game), then
/// no button until the piece rests: where it locks, or `None` when the spawn does not fit or
/// the piece locks before its last input.
pub fn lock_of(
    board: &Board,
    gravity: Gravity,
    delay: u8,
    piece: Shape,
    inputs: &[Buttons],
) -> Option<Rest> {
    let (p, _) = fall_through(board, gravity, delay, piece, inputs)?;
    Some(p.rest(board))
}

/// The piece after its last input and whether it is still falling (a lock on the last
/// input's frame gives the piece where it stopped); `None` as in [`lock_of`].
fn fall_through(
    board: &Board,
    gravity: Gravity,
    delay: u8,
    piece: Shape,
    inputs: &[Buttons],
) -> Option<(Falling, bool)> {
    let mut p = Falling::spawn(piece, delay);
    if !board.fits(p.o, p.x, p.y) {
        return None;
    }
    let mut moving = true;
    for (f, &input) in inputs.iter().enumerate() {
        moving = p.frame(board, gravity, input);
        if !moving && f + 1 < inputs.len() {
            return None;
        }
    }
    Some((p, moving))
}

/// A last press after the placement's own inputs: a tuck (left or right) or a spin (A or B)
/// on frame `frame` (from 1), once the piece has fallen.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Tuck {
    pub frame: u16,
    pub button: Buttons,
}

/// A placement the generator offers: the inputs that make it and where it locks.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Placement {
    pub turns: u8,
    pub shifts: i8,
    pub tuck: Option<Tuck>,
    pub rest: Rest,
}

/// The inputs of a placement: [`inputs`], then the tuck's press on its frame.
pub fn placement_inputs(speed: Speed, turns: u8, shifts: i8, tuck: Option<Tuck>) -> Vec<Buttons> {
    let mut out = inputs(speed, turns, shifts);
    if let Some(t) = tuck {
        let f = usize::from(t.frame);
        debug_assert!(f > out.len());
        out.resize(f, Buttons::NONE);
        out[f - 1] = t.button;
    }
    out
}

/// Clockwise turns worth trying for a shape (its distinct orientations).
pub fn turn_count(piece: Shape) -> u8 {
    match piece {
        Shape::O => 1,
        Shape::I | Shape::S | Shape::Z => 2,
        _ => 4,
    }
}

/// The rests already offered, one bit an orientation, row and column.
struct Seen([u64; 66]);

impl Seen {
    fn insert(&mut self, r: Rest) -> bool {
        let i = (usize::from(r.orientation) * 22 + (r.y + 2) as usize) * 10 + r.x as usize;
        let (w, b) = (i / 64, 1u64 << (i % 64));
        let new = self.0[w] & b == 0;
        self.0[w] |= b;
        new
    }
}

/// The last frame (from 1) each of left/right, A and B is pressed in `inputs`, 0 for never.
fn last_presses(inputs: &[Buttons]) -> [usize; 3] {
    let mut last = [0; 3];
    for (f, b) in inputs.iter().enumerate() {
        if b.0 & (Buttons::LEFT.0 | Buttons::RIGHT.0) != 0 {
            last[0] = f + 1;
        }
        if b.has(Buttons::A) {
            last[1] = f + 1;
        }
        if b.has(Buttons::B) {
            last[2] = f + 1;
        }
    }
    last
}

/// Every placement of `piece` a player of `speed` reaches on `board` under `gravity`
/// (`delay` as in [`lock_of`]), each lock once, leaving out those [`Outcome::of`] refuses,
/// in a fixed order: first the rotations and shift counts pressed as early as the speed
/// allows (the fewest inputs: turns, then left, then right), then, for each of those, one
/// more press after them while the piece falls beside the stack: a tuck (left or right, as
/// soon as the tap rate allows again; none for DAS, which presses once) or a spin (A or B,
/// released for a frame since its last press). Two late presses (a double tuck) are not
/// generated.
pub fn placements(
    board: &Board,
    gravity: Gravity,
    delay: u8,
    piece: Shape,
    speed: Speed,
    out: &mut Vec<Placement>,
) {
    out.clear();
    let mut seen = Seen([0; 66]);
    let mut bases: Vec<(u8, i8, Falling, usize, [usize; 3])> = Vec::new();
    for turns in 0..turn_count(piece) {
        for dir in [0i8, -1, 1] {
            let mut last_x = None;
            for n in 0..=6i8 {
                if (dir == 0) != (n == 0) {
                    continue;
                }
                let shifts = dir * n;
                let inp = inputs(speed, turns, shifts);
                let Some((p, moving)) = fall_through(board, gravity, delay, piece, &inp) else {
                    break;
                };
                let rest = p.rest(board);
                if last_x == Some(rest.x) {
                    break;
                }
                last_x = Some(rest.x);
                if moving {
                    bases.push((turns, shifts, p, inp.len(), last_presses(&inp)));
                }
                if !lockable(board, rest) || !seen.insert(rest) {
                    continue;
                }
                out.push(Placement {
                    turns,
                    shifts,
                    tuck: None,
                    rest,
                });
            }
            if dir == 0 && last_x.is_none() {
                // the spawn itself does not fit: nothing does
                return;
            }
        }
    }
    // the highest row with a cell: a late press higher up than the piece reaching it
    // only moves the piece in the open, where the early presses already went
    let Some(top) = board.0.iter().position(|&r| r != 0) else {
        return;
    };
    let gap = speed.tap_gap();
    for (turns, shifts, start, len, last) in bases {
        let mut p = start;
        let mut frame = len;
        let mut tried: Option<(Orientation, i8, i8, [bool; 4])> = None;
        loop {
            frame += 1;
            if (p.y + 2) as usize >= top {
                let allowed = [
                    gap.is_some_and(|g| last[0] == 0 || frame >= last[0] + g),
                    gap.is_some_and(|g| last[0] == 0 || frame >= last[0] + g),
                    last[1] == 0 || frame >= last[1] + 2,
                    last[2] == 0 || frame >= last[2] + 2,
                ];
                if tried != Some((p.o, p.x, p.y, allowed)) {
                    tried = Some((p.o, p.x, p.y, allowed));
                    for (i, button) in [Buttons::LEFT, Buttons::RIGHT, Buttons::A, Buttons::B]
                        .into_iter()
                        .enumerate()
                    {
                        if !allowed[i] {
                            continue;
                        }
                        let mut q = p;
                        let (o, x) = (q.o, q.x);
                        q.frame(board, gravity, button);
                        if (q.o, q.x) == (o, x) {
                            continue;
                        }
                        let rest = q.rest(board);
                        if !lockable(board, rest) || !seen.insert(rest) {
                            continue;
                        }
                        out.push(Placement {
                            turns,
                            shifts,
                            tuck: Some(Tuck {
                                frame: frame as u16,
                                button,
                            }),
                            rest,
                        });
                    }
                }
            }
            if !p.frame(board, gravity, Buttons::NONE) {
                break;
            }
        }
    }
}

/// Whether a lock stays on the screen and leaves the top row not full.
fn lockable(board: &Board, rest: Rest) -> bool {
    let mut top = board.0[0];
    for &(dx, dy) in cells(rest.orientation) {
        let cy = rest.y + dy;
        if cy < 0 {
            return false;
        }
        if cy == 0 {
            top |= 1 << (rest.x + dx);
        }
    }
    top != FULL
}

/// `pointsTable`: points of 0 to 4 lines at level 0.
pub const POINTS: [u32; 5] = [0, 40, 100, 300, 1200];

/// A lock's outcome: the board after it, lines cleared, the count and level after, points.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Outcome {
    pub board: Board,
    pub cleared: u8,
    pub lines: Lines,
    pub level: u8,
    /// The line points, at the level after the clear (as the ROM adds them), uncapped.
    pub points: u32,
}

impl Outcome {
    /// The lock of `rest` on `board` with `lines` counted so far at `level`: the cells
    /// written, full rows cleared, the count and level stepped a line at a time as
    /// `score::level_after_line` does, then the points.
    pub fn of(board: &Board, rest: Rest, lines: Lines, level: u8) -> Outcome {
        let mut b = *board;
        for &(dx, dy) in cells(rest.orientation) {
            b.0[(rest.y + dy) as usize] |= 1 << (rest.x + dx);
        }
        let mut out = Board::default();
        let mut w = 20;
        let mut cleared = 0u8;
        for y in (0..20).rev() {
            if b.0[y] == FULL {
                cleared += 1;
            } else {
                w -= 1;
                out.0[w] = b.0[y];
            }
        }
        let (mut lines, mut level) = (lines, level);
        for _ in 0..cleared {
            lines.increment();
            level = level_after_line(level, lines);
        }
        Outcome {
            board: out,
            cleared,
            lines,
            level,
            points: POINTS[usize::from(cleared)] * (u32::from(level) + 1),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::nes::placement::{place, Carry};

    #[test]
    fn inputs_press_at_the_speed() {
        let r = Buttons::RIGHT;
        let n = Buttons::NONE;
        assert_eq!(inputs(Speed::Tap30, 0, 3), vec![r, n, r, n, r]);
        assert_eq!(inputs(Speed::Tap15, 0, 2), vec![r, n, n, n, r]);
        assert_eq!(inputs(Speed::Das, 0, 2).len(), 17);
        assert_eq!(
            inputs(Speed::Tap30, 2, -1),
            vec![Buttons::LEFT.with(Buttons::A), n, Buttons::A]
        );
        assert_eq!(inputs(Speed::Tap30, 3, 0), vec![Buttons::B]);
    }

    #[test]
    fn every_column_at_level_18_but_not_at_29() {
        let mut out = Vec::new();
        placements(
            &Board::default(),
            Gravity::single(18),
            0,
            Shape::I,
            Speed::Tap30,
            &mut out,
        );
        // I flat: 7 columns; vertical: 10
        assert_eq!(out.len(), 17);
        // on a stack 12 rows high, left open at column 0, 15 Hz at level 29 misses columns
        let mut stack = Board::default();
        for y in 8..20 {
            stack.0[y] = 0x3FE;
        }
        placements(
            &stack,
            Gravity::single(18),
            0,
            Shape::I,
            Speed::Tap30,
            &mut out,
        );
        assert_eq!(out.len(), 17);
        placements(
            &stack,
            Gravity::single(29),
            0,
            Shape::I,
            Speed::Tap15,
            &mut out,
        );
        assert_eq!(out.len(), 10);
    }

    #[test]
    fn a_tuck_slides_under_a_roof() {
        // a roof over columns 0-3 on row 17: an O reaches columns 3 and 4 of the two rows
        // below only by a left press once it has fallen past it
        let mut roof = Board::default();
        roof.0[17] = 0b1111;
        for gravity in [
            Gravity::single(18),
            Gravity {
                level: 39,
                double: true,
            },
        ] {
            let mut out = Vec::new();
            placements(&roof, gravity, 0, Shape::O, Speed::Tap30, &mut out);
            let under = out
                .iter()
                .find(|p| (p.rest.x, p.rest.y) == (4, 18))
                .expect("the tuck under the roof");
            let tuck = under.tuck.expect("a late press");
            assert_eq!(tuck.button, Buttons::LEFT);
            let inp = placement_inputs(Speed::Tap30, under.turns, under.shifts, under.tuck);
            let p = place(gravity, &roof.playfield(), Shape::O, Carry::default(), &inp).unwrap();
            assert_eq!((p.x, p.y), (4, 18));
            assert!(p.frame >= inp.len());
        }
    }

    #[test]
    fn fast_lock_is_the_engines_on_an_empty_board() {
        for gravity in [0, 18, 19, 29, 39]
            .map(Gravity::single)
            .into_iter()
            .chain([Gravity {
                level: 39,
                double: true,
            }])
        {
            for speed in [Speed::Tap30, Speed::Tap15, Speed::Das] {
                for piece in Shape::ALL {
                    for turns in 0..4 {
                        for shifts in -6..=6 {
                            let inp = inputs(speed, turns, shifts);
                            let fast = lock_of(&Board::default(), gravity, 0, piece, &inp);
                            let exact = place(
                                gravity,
                                &Playfield::default(),
                                piece,
                                Carry::default(),
                                &inp,
                            )
                            .filter(|p| p.frame >= inp.len());
                            assert_eq!(
                                fast,
                                exact.map(|p| Rest {
                                    orientation: p.orientation,
                                    x: p.x,
                                    y: p.y
                                }),
                                "{gravity:?} {speed:?} {piece:?} {turns} {shifts}"
                            );
                        }
                    }
                }
            }
        }
    }
}
