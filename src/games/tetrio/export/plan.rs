//! The keys of one piece: what to press (a plan of [`Action`]s, from the record's path or
//! from the placement alone) and when (laid out frame by frame under the replay's handling).

use crate::games::tetrio::engine::{Event, Key};
use crate::games::tetrio::finesse::{self, Step};
use crate::games::tetrio::options::Options;

/// What a player does with one piece, in order.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Action {
    /// Press and release a key (one frame).
    Tap(Key),
    /// Hold a move key for DAS, then ARR, until `n` shifts are made (ARR under 0.2 frames:
    /// to the wall).
    Das(Key, usize),
    /// `n` rows down, as the [`Descent`] says.
    SoftDrop(usize, Descent),
    /// Let the piece fall by gravity for this many frames (the pace).
    Wait(i64),
    HardDrop,
}

/// How a path's rows down are made: a soft drop to the stack, a soft drop held for the
/// frames its rows take at SDF (under 41), or gravity alone, each of the last two aimed at the
/// path's row (a path may stop part way down to turn or shift) and moved by the adjustment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Descent {
    Stack,
    Exact(i64),
    Gravity(i64),
}

/// How a piece's keys are found: from its placement alone (with `das`, TETR.IO's finesse:
/// the fewest presses its table allows, DAS to a wall included, in the state of the same
/// cells that needs them; without, one rotation and taps), or from the record's own path
/// (its rotations and shifts in order, its rows down as `descent` says), with or without
/// DAS for shifts of three columns or more.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Variant {
    pub from_path: bool,
    pub das: bool,
    pub descent: Descent,
}

const fn variant(from_path: bool, das: bool, descent: Descent) -> Variant {
    Variant {
        from_path,
        das,
        descent,
    }
}

/// The variants, in the order they are tried.
pub const VARIANTS: [Variant; 16] = {
    use Descent::*;
    [
        variant(false, true, Stack),
        variant(false, false, Stack),
        variant(true, true, Stack),
        variant(true, false, Stack),
        variant(true, true, Exact(0)),
        variant(true, true, Exact(-1)),
        variant(true, true, Exact(1)),
        variant(true, false, Exact(0)),
        variant(true, false, Exact(-1)),
        variant(true, false, Exact(1)),
        variant(true, true, Gravity(0)),
        variant(true, true, Gravity(-1)),
        variant(true, true, Gravity(1)),
        variant(true, false, Gravity(0)),
        variant(true, false, Gravity(-1)),
        variant(true, false, Gravity(1)),
    ]
};

/// A piece's path as unit moves from the row under TETR.IO's spawn (where gravity takes a
/// piece two frames after it appears), without the hold and the rows of the final drop.
pub fn moves(path: &str, tetrio_spawn: bool) -> (bool, Vec<char>) {
    let (hold, rest) = match path.strip_prefix('H') {
        Some(rest) => (true, rest),
        None => (false, path),
    };
    let mut ops: Vec<char> = rest.chars().collect();
    // A path from TETR.IO's own spawn holds that first row down (gravity's, as a rule).
    if tetrio_spawn {
        if let Some(i) = ops.iter().position(|&c| c == 'D') {
            ops.remove(i);
        }
    }
    while ops.last() == Some(&'D') {
        ops.pop();
    }
    (hold, ops)
}

/// Where the piece goes: its rotation, the columns from its spawn, and whether its lock is a
/// spin (which a hard drop from above cannot make).
pub struct Goal {
    pub piece: u8,
    pub rotation: u8,
    /// The box's column, and its columns from the spawn's.
    pub x: i32,
    pub dx: i32,
    pub spin: bool,
    pub width: usize,
    /// ARR lets a held key stop part way (see [`Timing::stops`]).
    pub stops: bool,
}

fn shifts(out: &mut Vec<Action>, key: Key, n: usize, das: bool) {
    if das && n >= 3 {
        out.push(Action::Das(key, n));
    } else {
        out.extend(std::iter::repeat_n(Action::Tap(key), n));
    }
}

/// The key of a path's turn (`C`, `A` or `F`).
pub fn rotation_key(op: char) -> Key {
    match op {
        'C' => Key::RotateCw,
        'A' => Key::RotateCcw,
        _ => Key::Rotate180,
    }
}

/// The actions of variant `v` for a piece whose path (after [`moves`]) is `ops`, with
/// `wait` frames of gravity before the drop; `None` when the variant does not apply.
pub fn actions(
    v: Variant,
    ops: &[char],
    goal: &Goal,
    allow180: bool,
    wait: i64,
) -> Option<Vec<Action>> {
    let mut out = Vec::new();
    if v.descent != Descent::Stack && (!v.from_path || !ops.contains(&'D')) {
        return None;
    }
    if !v.from_path {
        if goal.spin {
            return None;
        }
        if v.das {
            // TETR.IO's finesse: the fewest presses its table allows, no fault.
            let (steps, _) = finesse::fewest(
                goal.piece,
                goal.rotation,
                goal.x,
                goal.width,
                allow180,
                goal.stops,
            )?;
            out.extend(steps.into_iter().map(|s| match s {
                Step::Left => Action::Tap(Key::MoveLeft),
                Step::Right => Action::Tap(Key::MoveRight),
                Step::DasLeft(n) => Action::Das(Key::MoveLeft, n as usize),
                Step::DasRight(n) => Action::Das(Key::MoveRight, n as usize),
                Step::Cw => Action::Tap(Key::RotateCw),
                Step::Ccw => Action::Tap(Key::RotateCcw),
                Step::Half => Action::Tap(Key::Rotate180),
            }));
            if wait > 0 {
                out.push(Action::Wait(wait));
            }
            out.push(Action::HardDrop);
            return Some(out);
        }
        match goal.rotation {
            0 => {}
            1 => out.push(Action::Tap(Key::RotateCw)),
            3 => out.push(Action::Tap(Key::RotateCcw)),
            _ if allow180 => out.push(Action::Tap(Key::Rotate180)),
            _ => out.extend([Action::Tap(Key::RotateCw); 2]),
        }
        let key = if goal.dx < 0 {
            Key::MoveLeft
        } else {
            Key::MoveRight
        };
        shifts(&mut out, key, goal.dx.unsigned_abs() as usize, v.das);
        if wait > 0 {
            out.push(Action::Wait(wait));
        }
        out.push(Action::HardDrop);
        return Some(out);
    }
    let mut waited = wait <= 0;
    let mut i = 0;
    while i < ops.len() {
        let op = ops[i];
        let run = ops[i..].iter().take_while(|&&c| c == op).count();
        match op {
            'L' | 'R' => {
                let key = if op == 'L' {
                    Key::MoveLeft
                } else {
                    Key::MoveRight
                };
                shifts(&mut out, key, run, v.das);
            }
            'D' => {
                if !waited {
                    out.push(Action::Wait(wait));
                    waited = true;
                }
                out.push(Action::SoftDrop(run, v.descent));
            }
            _ => out.extend(std::iter::repeat_n(Action::Tap(rotation_key(op)), run)),
        }
        i += run;
    }
    if !waited {
        out.push(Action::Wait(wait));
    }
    out.push(Action::HardDrop);
    Some(out)
}

/// The handling that times the keys, in frames.
#[derive(Clone, Copy, Debug)]
pub struct Timing {
    pub das: f64,
    pub arr: f64,
    pub sdf: f64,
    /// Gravity in rows a frame at the start, its growth a second, and the frames before it
    /// grows.
    pub g: f64,
    pub gincrease: f64,
    pub gmargin: f64,
}

impl Timing {
    pub fn of(o: &Options) -> Timing {
        Timing {
            das: o.handling.das,
            arr: o.handling.arr,
            sdf: o.handling.sdf,
            g: o.g,
            gincrease: o.gincrease,
            gmargin: o.gmargin,
        }
    }

    /// Whether a held key can be released on a column: ARR of 0.2 frames or more (under it,
    /// DAS takes the piece to the wall at once).
    pub fn stops(&self) -> bool {
        self.arr >= 0.2
    }

    /// Gravity in frame `f`.
    fn g_at(&self, f: i64) -> f64 {
        self.g + self.gincrease / 60.0 * (f as f64 - self.gmargin).max(0.0)
    }

    /// Rows a frame of soft drop falls in frame `f`.
    fn soft_rate(&self, f: i64) -> f64 {
        (self.g_at(f) * self.sdf).max(0.05 * self.sdf)
    }

    /// Frames from a piece's spawn in frame `f` to the first frame it is a row lower
    /// (TETR.IO spawns a piece at row 22.04 of its board; 0.04 rows take gravity there).
    pub fn spawn_frames(&self, f: i64) -> i64 {
        ((0.04 / self.g_at(f)) - 1e-9).ceil().max(1.0) as i64
    }

    /// Tenths of a frame a tap is held: half a frame, less than DAS.
    pub fn tap(&self) -> i64 {
        if self.das > 0.6 {
            5
        } else {
            0
        }
    }
}

/// A key pressed (`down`) or released, at a time in tenths of a frame (TETR.IO's frames and
/// subframes).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Press {
    pub tenth: i64,
    pub key: Key,
    pub down: bool,
}

impl Press {
    /// The engine's event for this press, in the frame that holds its tenth.
    pub fn event(&self) -> Event {
        let subframe = self.tenth.rem_euclid(10) as f64 / 10.0;
        match self.down {
            true => Event::KeyDown {
                key: self.key,
                subframe,
                hoisted: false,
            },
            false => Event::KeyUp {
                key: self.key,
                subframe,
            },
        }
    }
}

/// Lays the actions out in time for a piece that spawned in frame `spawn` (a hold first
/// when `hold`); returns the frame of its hard drop. Each key takes a frame; the first move
/// waits for gravity's first row (or the held piece's).
pub fn lay(actions: &[Action], hold: bool, spawn: i64, t: &Timing, out: &mut Vec<Press>) -> i64 {
    let mut press = |tenth: i64, key: Key, down: bool| out.push(Press { tenth, key, down });
    let tap = t.tap();
    let mut c = spawn + 1;
    let mut appeared = spawn;
    if hold {
        press(c * 10, Key::Hold, true);
        press(c * 10 + tap, Key::Hold, false);
        appeared = c;
        c += 1;
    }
    c = c.max(appeared + t.spawn_frames(appeared));
    // Where the piece is (its row and the fraction of it), as gravity and the soft drops
    // take it: from row 22.04 when it appeared, the frame's fall at each frame's end.
    let mut y = 22.04;
    let mut y_frame = appeared;
    // The row the record's path is at (its rows down counted from row 21).
    let mut row = 21.0;
    for a in actions {
        match *a {
            Action::Tap(key) => {
                press(c * 10, key, true);
                press(c * 10 + tap, key, false);
                c += 1;
            }
            Action::Das(key, n) => {
                // Shifts at the press, when DAS is full, then every ARR: released half an
                // ARR after the n-th.
                let hold = if t.stops() {
                    t.das + (n as f64 - 2.0) * t.arr + t.arr / 2.0
                } else {
                    t.das + 0.5
                };
                let up = c * 10 + (hold * 10.0).round() as i64;
                press(c * 10, key, true);
                press(up, key, false);
                c = up / 10 + 1;
            }
            Action::SoftDrop(rows, Descent::Gravity(adjust)) => {
                // No key: gravity takes the piece to the middle of the path's row.
                while y_frame < c {
                    y -= t.g_at(y_frame);
                    y_frame += 1;
                }
                row -= rows as f64;
                while y > row + 0.5 && c < y_frame + 100_000 {
                    y -= t.g_at(c);
                    c += 1;
                }
                c = (c + adjust).max(y_frame);
                y_frame = c;
            }
            Action::SoftDrop(rows, Descent::Exact(adjust)) => {
                // Each frame's end falls the piece SDF times gravity (at least 0.05 SDF) rows;
                // released at the start of a frame, it falls no more. Aimed at the middle of
                // the path's row.
                while y_frame < c {
                    y -= t.g_at(y_frame);
                    y_frame += 1;
                }
                let rate = t.soft_rate(c);
                row -= rows as f64;
                let goal = row + 0.5;
                let frames = (((y - goal) / rate).round() as i64 + adjust).max(1);
                y -= frames as f64 * rate;
                // Frames past the path's row find the stack there (the path goes no lower
                // in this run): the piece stops in that row, its fraction kept, and the next
                // run counts from it.
                if y < row {
                    y = row + y.rem_euclid(1.0);
                }
                y_frame = c + frames;
                press(c * 10, Key::SoftDrop, true);
                press((c + frames) * 10, Key::SoftDrop, false);
                c += frames;
            }
            Action::SoftDrop(rows, Descent::Stack) => {
                let frames = if t.sdf >= 41.0 {
                    // Instant: a tenth of a frame falls 40 rows.
                    0
                } else {
                    (rows as f64 / t.soft_rate(c)).ceil() as i64 + 1
                };
                press(c * 10, Key::SoftDrop, true);
                press(c * 10 + frames * 10 + 1, Key::SoftDrop, false);
                c += frames + 1;
            }
            Action::Wait(w) => c += w.max(0),
            Action::HardDrop => {
                press(c * 10, Key::HardDrop, true);
                press(c * 10 + tap, Key::HardDrop, false);
                return c;
            }
        }
    }
    c
}

/// TETR.IO's name of a key.
pub fn key_name(key: Key) -> &'static str {
    match key {
        Key::MoveLeft => "moveLeft",
        Key::MoveRight => "moveRight",
        Key::SoftDrop => "softDrop",
        Key::RotateCcw => "rotateCCW",
        Key::RotateCw => "rotateCW",
        Key::Rotate180 => "rotate180",
        Key::Hold => "hold",
        Key::HardDrop => "hardDrop",
    }
}

/// The frame of the hard drop among a piece's presses (`spawn` if there is none).
pub fn drop_frame(presses: &[Press], spawn: i64) -> i64 {
    presses
        .iter()
        .find(|p| p.key == Key::HardDrop && p.down)
        .map_or(spawn, |p| p.tenth / 10)
}
