//! The keys of one piece: what to press (a plan of [`Action`]s, from the record's path or
//! from the placement alone) and when (laid out frame by frame under the replay's handling).

use crate::games::tetrio::engine::Key;
use crate::games::tetrio::options::Options;

/// What a player does with one piece, in order.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Action {
    /// Press and release a key (one frame).
    Tap(Key),
    /// Hold a move key for DAS, then ARR, until `n` shifts are made (ARR under 0.2 frames:
    /// to the wall).
    Das(Key, usize),
    /// Hold soft drop until the piece has fallen `n` rows and lies on the stack.
    SoftDrop(usize),
    /// Let the piece fall by gravity for this many frames (the pace).
    Wait(i64),
    HardDrop,
}

/// How a piece's keys are found: from its placement alone (rotate, shift, hard drop), or
/// from the record's own path (its rotations and shifts in order, its rows down as soft
/// drops to the stack), with or without DAS for shifts of three columns or more.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Variant {
    pub from_path: bool,
    pub das: bool,
}

/// The variants, in the order they are tried.
pub const VARIANTS: [Variant; 4] = [
    Variant {
        from_path: false,
        das: true,
    },
    Variant {
        from_path: false,
        das: false,
    },
    Variant {
        from_path: true,
        das: true,
    },
    Variant {
        from_path: true,
        das: false,
    },
];

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
    pub rotation: u8,
    pub dx: i32,
    pub spin: bool,
}

fn shifts(out: &mut Vec<Action>, key: Key, n: usize, das: bool) {
    if das && n >= 3 {
        out.push(Action::Das(key, n));
    } else {
        out.extend(std::iter::repeat_n(Action::Tap(key), n));
    }
}

fn rotation_key(op: char) -> Key {
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
    if !v.from_path {
        if goal.spin {
            return None;
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
                out.push(Action::SoftDrop(run));
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
    /// Gravity in rows a frame, at the start.
    pub g: f64,
}

impl Timing {
    pub fn of(o: &Options) -> Timing {
        Timing {
            das: o.handling.das,
            arr: o.handling.arr,
            sdf: o.handling.sdf,
            g: o.g,
        }
    }

    /// Frames from a piece's spawn to the first frame it is a row lower (TETR.IO spawns a
    /// piece at row 22.04 of its board; 0.04 rows take gravity there).
    pub fn spawn_frames(&self) -> i64 {
        ((0.04 / self.g) - 1e-9).ceil().max(1.0) as i64
    }

    /// Tenths of a frame a tap is held: half a frame, less than DAS.
    fn tap(&self) -> i64 {
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
    c = c.max(appeared + t.spawn_frames());
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
                let hold = if t.arr >= 0.2 {
                    t.das + (n as f64 - 2.0) * t.arr + t.arr / 2.0
                } else {
                    t.das + 0.5
                };
                let up = c * 10 + (hold * 10.0).round() as i64;
                press(c * 10, key, true);
                press(up, key, false);
                c = up / 10 + 1;
            }
            Action::SoftDrop(rows) => {
                let frames = if t.sdf >= 41.0 {
                    // Instant: a tenth of a frame falls 40 rows.
                    0
                } else {
                    let rate = (t.g * t.sdf).max(0.05 * t.sdf);
                    (rows as f64 / rate).ceil() as i64 + 1
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
