//! From a bot's answer to TETR.IO keys: where the move puts the piece (its cells, the hold,
//! the spin it claims), whether TETR.IO's engine can take the piece in play there with that
//! spin (a breadth-first search over the engine's own unit moves, so its kicks and spin rules
//! decide), and the keys that do it at the player's pace (the export's key planner, each try
//! run frame by frame on a copy of the game).

use crate::games::tetrio::attack::SpinKind;
use crate::games::tetrio::engine::{Engine, Key};
use crate::games::tetrio::export::{plan, run, Goal, PieceKeys, Press, Timing};
use crate::games::tetrio::finesse;
use crate::games::tetrio::pieces::LETTERS;
use crate::piece::Shape;
use crate::protocols::tbp::{active_of, TbpMove};
use std::collections::{HashSet, VecDeque};

/// Cells as (column, row up from 0), sorted.
pub type Cells = [(i32, i32); 4];

/// Why a move cannot be played: the reason the player loses when no move of its answer can.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The piece is neither the one in play nor the one the hold gives.
    WrongPiece(String),
    /// No sequence of moves takes the piece there.
    Unreachable(String),
    /// The cells can be reached, but not with the spin claimed.
    FakeSpin(String),
    /// Reachable by unit moves, but no keys under the handling place it (a tuck the soft
    /// drop overshoots).
    NoKeys(String),
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refusal::WrongPiece(m) => write!(f, "wrong piece: {m}"),
            Refusal::Unreachable(m) => write!(f, "unreachable move: {m}"),
            Refusal::FakeSpin(m) => write!(f, "fake spin: {m}"),
            Refusal::NoKeys(m) => write!(f, "no keys reach the move under the handling: {m}"),
        }
    }
}

/// TETR.IO's index of a shape (`Z L O S I J T`).
pub fn tetrio_index(shape: Shape) -> u8 {
    LETTERS
        .iter()
        .position(|&c| c == shape.letter())
        .expect("seven letters") as u8
}

/// The shape of TETR.IO's piece index.
pub fn shape_of(index: u8) -> Shape {
    Shape::from_letter(LETTERS[index as usize]).expect("seven letters")
}

fn spin_name(s: SpinKind) -> &'static str {
    match s {
        SpinKind::None => "none",
        SpinKind::Mini => "mini",
        SpinKind::Normal => "full",
    }
}

fn describe(mv: &TbpMove) -> String {
    let name = |v: serde_json::Result<serde_json::Value>| {
        v.ok()
            .and_then(|v| v.as_str().map(String::from))
            .unwrap_or_default()
    };
    format!(
        "{} {} at x {} y {} spin {}",
        mv.location.piece.letter(),
        name(serde_json::to_value(mv.location.orientation)),
        mv.location.x,
        mv.location.y,
        name(serde_json::to_value(mv.spin))
    )
}

/// A move the engine can play: its path from the row under the spawn (`H` first through the
/// hold), where it locks (rotation, box column, top row) and the spin TETR.IO gives it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reached {
    pub path: String,
    pub piece: u8,
    pub rotation: u8,
    pub x: i32,
    pub y: i32,
    pub spin: SpinKind,
    pub held: bool,
}

impl Reached {
    pub fn cells(&self) -> Cells {
        finesse::cells(self.piece, self.rotation, self.x, self.y)
    }
}

/// A resting place found by the search, and how it got there.
struct Found {
    cells: Cells,
    spin: SpinKind,
    reached: Reached,
}

/// Every place the piece in play (through the hold when `hold`) comes to rest by unit moves
/// from the row under its spawn, with the spin it locks with there, by the shortest path
/// (breadth first; ties by the order `L R D C A F`). Stops early once `want` (cells and a
/// spin) is found.
fn search(e: &Engine, hold: bool, want: Option<(Cells, SpinKind)>) -> Vec<Found> {
    let mut start = e.probe();
    let mut prefix = String::new();
    if hold {
        if !start.hold_allowed() || !start.apply('H') {
            return Vec::new();
        }
        prefix.push('H');
    }
    // A record's piece starts a row under TETR.IO's spawn (gravity's first row).
    start.apply('D');
    let ops: &[char] = if start.options().allow180 {
        &['L', 'R', 'D', 'C', 'A', 'F']
    } else {
        &['L', 'R', 'D', 'C', 'A']
    };
    let key = |e: &Engine| {
        let (_, r, x, y, s) = e.in_play();
        (r, x, y, s.unwrap_or(SpinKind::None) as u8)
    };
    let mut seen = HashSet::new();
    seen.insert(key(&start));
    let mut queue = VecDeque::from([(start, String::new())]);
    let mut found: Vec<Found> = Vec::new();
    let mut places = HashSet::new();
    while let Some((node, path)) = queue.pop_front() {
        for &op in ops {
            let mut next = node.probe();
            let moved = next.apply(op);
            if op == 'D' && !moved {
                // At rest: a place to lock.
                let (piece, rotation, x, y, spin) = node.in_play();
                let spin = spin.unwrap_or(SpinKind::None);
                let cells = finesse::cells(piece, rotation, x, y);
                if places.insert((cells, spin as u8)) {
                    found.push(Found {
                        cells,
                        spin,
                        reached: Reached {
                            path: format!("{prefix}{path}"),
                            piece,
                            rotation,
                            x,
                            y,
                            spin,
                            held: hold,
                        },
                    });
                    if want == Some((cells, spin)) {
                        return found;
                    }
                }
                continue;
            }
            if !moved || next.topped_out {
                continue;
            }
            if seen.insert(key(&next)) {
                let mut p = path.clone();
                p.push(op);
                queue.push_back((next, p));
            }
        }
    }
    found
}

fn tetrio_spin(s: crate::games::guideline::Spin) -> SpinKind {
    use crate::games::guideline::Spin;
    match s {
        Spin::None => SpinKind::None,
        Spin::Mini => SpinKind::Mini,
        Spin::Full => SpinKind::Normal,
    }
}

/// Where `mv` puts the piece in play on `e`'s game, by what path, or why it cannot.
///
/// The move's piece must be the piece in play or the one the hold gives; its cells must be
/// reachable; its spin must be the one TETR.IO gives there (a move that claims no spin may
/// lock with one: the bot asked for less than it gets).
pub fn reach(e: &Engine, mv: &TbpMove) -> Result<Reached, Refusal> {
    let want_piece = tetrio_index(mv.location.piece);
    let snap = e.snapshot(1);
    let current = snap.next[0];
    let through_hold = match snap.hold {
        Some(h) => h,
        None => snap.next.get(1).copied().unwrap_or(current),
    };
    let hold = if want_piece == current {
        false
    } else if want_piece == through_hold && e.hold_allowed() {
        true
    } else {
        return Err(Refusal::WrongPiece(format!(
            "{}: the piece in play is {} and the hold gives {}",
            describe(mv),
            LETTERS[current as usize],
            LETTERS[through_hold as usize]
        )));
    };
    let active = active_of(&mv.location, mv.spin)
        .ok_or_else(|| Refusal::Unreachable(format!("{}: off the board", describe(mv))))?;
    let mut cells: Cells = active.cells().map(|(x, y)| (x as i32, y as i32));
    cells.sort_unstable();
    let claimed = tetrio_spin(mv.spin);
    let found = search(e, hold, Some((cells, claimed)));
    let here: Vec<&Found> = found.iter().filter(|f| f.cells == cells).collect();
    if let Some(f) = here.iter().find(|f| f.spin == claimed) {
        return Ok(f.reached.clone());
    }
    if claimed == SpinKind::None {
        if let Some(f) = here.first() {
            return Ok(f.reached.clone());
        }
    }
    match here.first() {
        Some(f) => Err(Refusal::FakeSpin(format!(
            "{}: TETR.IO gives spin {} there",
            describe(mv),
            spin_name(f.spin)
        ))),
        None => Err(Refusal::Unreachable(format!(
            "{}: no path takes the piece there",
            describe(mv)
        ))),
    }
}

/// The keys that play `r` on `e` (the piece spawned in frame `spawn`), dropping it at frame
/// `due` when the keys allow (later when they need longer, earlier when waiting would let
/// gravity lock it elsewhere): the presses and the frame of the drop. Each try runs frame by
/// frame on a copy of the game and must lock the piece on `r`'s cells with `r`'s spin.
pub fn keys(e: &Engine, r: &Reached, spawn: i64, due: i64) -> Option<(Vec<Press>, i64)> {
    let planned = planned_keys(e, r, spawn, due);
    // Planned keys that meet the pace are kept; late ones (or none) give way to keys found
    // by watching the game, when those drop sooner.
    if planned.as_ref().is_some_and(|(_, drop)| *drop <= due) {
        return planned;
    }
    match (planned, watched_keys(e, r, spawn, due)) {
        (Some(p), Some(w)) => Some(if w.1 < p.1 { w } else { p }),
        (p, w) => p.or(w),
    }
}

/// The export's key planner on `r` (its variants in order, the first that places the piece).
fn planned_keys(e: &Engine, r: &Reached, spawn: i64, due: i64) -> Option<(Vec<Press>, i64)> {
    let o = e.options();
    let timing = Timing::of(o);
    let (hold, ops) = plan::moves(&r.path, false);
    let keys = PieceKeys {
        timing: &timing,
        goal: Goal {
            piece: r.piece,
            rotation: r.rotation,
            x: r.x,
            dx: r.x - finesse::spawn_x(r.piece, o.width),
            spin: r.spin != SpinKind::None,
            width: o.width,
            stops: timing.stops(),
        },
        hold,
        ops: &ops,
        allow180: o.allow180,
        spawn,
    };
    keys.find(
        &|spawn, length| (due - spawn - length).max(0),
        &mut |trial, drop| places(e, trial, spawn, drop, r),
    )
    .map(|(presses, drop, _)| (presses, drop))
}

/// Whether `presses`, run on a copy of `e` from the frame after `spawn` to `drop`, lock the
/// piece as `r` says: one lock, on its cells, with its spin and its hold.
fn places(e: &Engine, presses: &[Press], spawn: i64, drop: i64, r: &Reached) -> bool {
    let mut t = e.probe();
    run(&mut t, presses, spawn + 1, drop);
    t.locks.len() == 1 && {
        let l = &t.locks[0];
        finesse::cells(l.piece, l.rotation, l.x, l.y) == r.cells()
            && l.spin == r.spin
            && l.held == r.held
    }
}

/// Keys found by watching the game frame by frame: each of the path's moves pressed when the
/// piece is where the path has it (a run of rows down held as soft drop until the piece is
/// that low, released at the start of the next frame), then the hard drop, at `due` if the
/// piece waits there unlocked, else at once. The planner times its keys from a model of
/// gravity and the soft drop and can still miss a row in the air (a tuck under an overhang
/// that only a piece in passing can take, where a turn's kick moves the piece off the model's
/// row), which its gravity-only variant reaches after hundreds of frames. Watching the game
/// misses only where the soft drop falls more than a row a frame.
fn watched_keys(e: &Engine, r: &Reached, spawn: i64, due: i64) -> Option<(Vec<Press>, i64)> {
    // Where the path has the piece after each of its moves.
    let (hold, ops) = plan::moves(&r.path, false);
    let mut model = e.probe();
    if hold && !model.apply('H') {
        return None;
    }
    model.apply('D');
    let top = model.in_play().3;
    let mut steps: Vec<(char, (u8, i32, i32))> = Vec::new();
    for &op in &ops {
        if !model.apply(op) {
            return None;
        }
        let (_, rotation, x, y, _) = model.in_play();
        match steps.last_mut() {
            Some((last, at)) if op == 'D' && *last == 'D' => *at = (rotation, x, y),
            _ => steps.push((op, (rotation, x, y))),
        }
    }
    let tap = Timing::of(e.options()).tap();
    let mut game = e.probe();
    let locks = game.locks.len();
    let mut presses: Vec<Press> = Vec::new();
    let mut f = spawn + 1;
    // Runs frame `f` with the presses from `from` on, and goes to the next.
    let tick = |game: &mut Engine, presses: &[Press], from: usize, f: &mut i64| {
        let batch: Vec<_> = presses[from..].iter().map(Press::event).collect();
        game.tick(&batch);
        *f += 1;
        game.locks.len() == locks
    };
    let tapped = |presses: &mut Vec<Press>, f: i64, key: Key| {
        presses.push(Press {
            tenth: f * 10,
            key,
            down: true,
        });
        presses.push(Press {
            tenth: f * 10 + tap,
            key,
            down: false,
        });
    };
    const PATIENCE: i64 = 120;
    if hold {
        tapped(&mut presses, f, Key::Hold);
        let from = presses.len() - 2;
        if !tick(&mut game, &presses, from, &mut f) {
            return None;
        }
    }
    // The path starts a row under the spawn: gravity's first row (or the soft drop's).
    if steps.first().is_none_or(|(op, _)| *op != 'D') {
        while game.in_play().3 > top {
            if f > spawn + PATIENCE || !tick(&mut game, &presses, presses.len(), &mut f) {
                return None;
            }
        }
    }
    for &(op, (rotation, x, y)) in &steps {
        let from = presses.len();
        if op == 'D' {
            presses.push(Press {
                tenth: f * 10,
                key: Key::SoftDrop,
                down: true,
            });
            let start = f;
            loop {
                let from = if f == start { from } else { presses.len() };
                if !tick(&mut game, &presses, from, &mut f) || f > start + PATIENCE {
                    return None;
                }
                if game.in_play().3 <= y {
                    break;
                }
            }
            presses.push(Press {
                tenth: f * 10,
                key: Key::SoftDrop,
                down: false,
            });
            if game.in_play().3 < y {
                return None;
            }
            continue;
        }
        let key = match op {
            'L' => Key::MoveLeft,
            'R' => Key::MoveRight,
            _ => plan::rotation_key(op),
        };
        // A release of the soft drop just before goes in this frame too.
        let from = presses[..from]
            .last()
            .filter(|p| p.tenth == f * 10)
            .map_or(from, |_| from - 1);
        tapped(&mut presses, f, key);
        if !tick(&mut game, &presses, from, &mut f) {
            return None;
        }
        let (_, now_rotation, now_x, _, _) = game.in_play();
        if (now_rotation, now_x) != (rotation, x) {
            return None;
        }
    }
    let place = |drop: i64| {
        let mut keys = presses.clone();
        tapped(&mut keys, drop, Key::HardDrop);
        places(e, &keys, spawn, drop, r).then_some((keys, drop))
    };
    (due > f).then(|| place(due)).flatten().or_else(|| place(f))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A builtin player's game at 4 pieces a second against Cold Clear 2, up to the frame
    /// its 264th piece locked: the S it then takes from the hold goes under the I's overhang
    /// in the air, a row above where it would rest. The planner's soft drops once missed
    /// that row (its model took the piece past the stack in the first run of rows down, so
    /// the second fell a row short) and its gravity-only keys took 880 frames; the planner
    /// now keys it in 24 frames, and the arena at the pace.
    #[test]
    fn a_tuck_in_the_air_is_keyed_at_the_pace_not_after_hundreds_of_frames() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/data/tetrio/arena-tuck.ttrm"
        );
        let text = std::fs::read_to_string(path).unwrap();
        let rounds = crate::games::tetrio::replay::parse(path, &text).unwrap();
        let r = &rounds[0];
        let e = crate::games::tetrio::play_events(
            r.options.clone(),
            &r.events,
            r.frames,
            false,
            |_, _| {},
        );
        assert_eq!(e.locks.len(), 263);
        // S (TETR.IO's piece 3) upright, box at column 2, top at row 4.
        let cells = finesse::cells(3, 1, 2, 4);
        let found = search(&e, true, Some((cells, SpinKind::None)));
        let reached = &found
            .iter()
            .find(|f| f.cells == cells)
            .expect("reachable")
            .reached;
        assert!(reached.path.starts_with('H'), "{}", reached.path);
        let (_, planned) = planned_keys(&e, reached, r.frames, r.frames + 1).expect("planned");
        assert!(
            planned <= r.frames + 30,
            "the planner drops at frame {planned}"
        );
        let (presses, drop) = keys(&e, reached, r.frames, r.frames + 1).expect("keys");
        assert!(drop <= r.frames + 30, "the drop waits until frame {drop}");
        let mut t = e.probe();
        run(&mut t, &presses, r.frames + 1, drop);
        assert_eq!(t.locks.len(), 1);
        let l = &t.locks[0];
        assert_eq!(finesse::cells(l.piece, l.rotation, l.x, l.y), cells);
        assert!(l.held);
    }
}
