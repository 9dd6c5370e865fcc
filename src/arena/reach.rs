//! From a bot's answer to TETR.IO keys: where the move puts the piece (its cells, the hold,
//! the spin it claims), whether TETR.IO's engine can take the piece in play there with that
//! spin (a breadth-first search over the engine's own unit moves, so its kicks and spin rules
//! decide), and the keys that do it at the player's pace (the export's key planner, each try
//! run frame by frame on a copy of the game).

use crate::games::tetrio::attack::SpinKind;
use crate::games::tetrio::engine::Engine;
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
    let cells = r.cells();
    keys.find(
        &|spawn, length| (due - spawn - length).max(0),
        &mut |trial, drop| {
            let mut t = e.probe();
            run(&mut t, trial, spawn + 1, drop);
            t.locks.len() == 1 && {
                let l = &t.locks[0];
                finesse::cells(l.piece, l.rotation, l.x, l.y) == cells
                    && l.spin == r.spin
                    && l.held == r.held
            }
        },
    )
    .map(|(presses, drop, _)| (presses, drop))
}
