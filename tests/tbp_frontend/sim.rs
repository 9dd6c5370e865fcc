//! A small guideline game written from docs/guideline.md and the TBP spec, not from
//! beamtris's engine: a 10-column field whose pieces may sit in rows 0..=23, pieces located
//! by their TBP centre, SRS and SRS+ kicks applied about each piece's true rotation centre, a
//! breadth-first search over single moves, line clears, T-spins, combo, back-to-back and the
//! attack table. It judges beamtris's suggestions, so it shares no code with what it judges.

use std::collections::{HashMap, VecDeque};

/// Columns of the field.
pub const WIDTH: i32 = 10;
/// Rows a piece may occupy (docs/guideline.md: nothing exists above row 23).
pub const ROWS: i32 = 24;

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Piece {
    I,
    O,
    T,
    L,
    J,
    S,
    Z,
}

impl Piece {
    pub fn from_letter(c: char) -> Piece {
        match c {
            'I' => Piece::I,
            'O' => Piece::O,
            'T' => Piece::T,
            'L' => Piece::L,
            'J' => Piece::J,
            'S' => Piece::S,
            'Z' => Piece::Z,
            _ => panic!("not a piece: {c}"),
        }
    }

    pub fn letter(self) -> &'static str {
        match self {
            Piece::I => "I",
            Piece::O => "O",
            Piece::T => "T",
            Piece::L => "L",
            Piece::J => "J",
            Piece::S => "S",
            Piece::Z => "Z",
        }
    }

    /// Cells around the TBP centre in the north orientation (the TBP spec: the turning point
    /// for J L S T Z, the middle-left cell for I, the bottom-left cell for O).
    fn north(self) -> [(i32, i32); 4] {
        match self {
            Piece::I => [(-1, 0), (0, 0), (1, 0), (2, 0)],
            Piece::O => [(0, 0), (1, 0), (0, 1), (1, 1)],
            Piece::T => [(-1, 0), (0, 0), (1, 0), (0, 1)],
            Piece::L => [(-1, 0), (0, 0), (1, 0), (1, 1)],
            Piece::J => [(-1, 0), (0, 0), (1, 0), (-1, 1)],
            Piece::S => [(-1, 0), (0, 0), (0, 1), (1, 1)],
            Piece::Z => [(-1, 1), (0, 1), (0, 0), (1, 0)],
        }
    }

    /// Twice the offset from the TBP centre to the true rotation centre, in `rot` (0 north,
    /// then clockwise): zero for J L S T Z, half a cell diagonally for I and O.
    fn true_centre2(self, rot: u8) -> (i32, i32) {
        let north = match self {
            Piece::I => (1, -1),
            Piece::O => (1, 1),
            _ => (0, 0),
        };
        turn(north, rot)
    }
}

/// `p` turned clockwise `rot` quarter turns: (x, y) -> (y, -x).
fn turn(mut p: (i32, i32), rot: u8) -> (i32, i32) {
    for _ in 0..rot % 4 {
        p = (p.1, -p.0);
    }
    p
}

/// The TBP orientation names, by rotation.
pub const ORIENTATIONS: [&str; 4] = ["north", "east", "south", "west"];

/// A piece's position: TBP centre and rotation (0 north, then clockwise).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Pos {
    pub piece: Piece,
    pub rot: u8,
    pub x: i32,
    pub y: i32,
}

impl Pos {
    pub fn cells(&self) -> [(i32, i32); 4] {
        self.piece.north().map(|c| {
            let (dx, dy) = turn(c, self.rot);
            (self.x + dx, self.y + dy)
        })
    }

    fn moved(self, dx: i32, dy: i32) -> Pos {
        Pos {
            x: self.x + dx,
            y: self.y + dy,
            ..self
        }
    }
}

/// How the last move that changed a position was made, for the spin check.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Last {
    Shift,
    Turn,
    /// A 90° turn into east or west won by its fifth kick test.
    FifthTurn,
}

/// The spin of a lock, as TBP names it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Spin {
    None,
    Mini,
    Full,
}

impl Spin {
    pub fn name(self) -> &'static str {
        match self {
            Spin::None => "none",
            Spin::Mini => "mini",
            Spin::Full => "full",
        }
    }
}

/// A single move, with its record letter.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Op {
    Left,
    Right,
    Down,
    Cw,
    Ccw,
    Half,
}

impl Op {
    pub fn letter(self) -> char {
        match self {
            Op::Left => 'L',
            Op::Right => 'R',
            Op::Down => 'D',
            Op::Cw => 'C',
            Op::Ccw => 'A',
            Op::Half => 'F',
        }
    }
}

/// The kick tests of docs/guideline.md for a turn from `from` to `to` (0 north .. 3 west).
fn kicks(piece: Piece, from: u8, to: u8, srs_plus: bool) -> Vec<(i32, i32)> {
    const JLSTZ_0R: [(i32, i32); 5] = [(0, 0), (-1, 0), (-1, 1), (0, -2), (-1, -2)];
    const JLSTZ_R0: [(i32, i32); 5] = [(0, 0), (1, 0), (1, -1), (0, 2), (1, 2)];
    const JLSTZ_2L: [(i32, i32); 5] = [(0, 0), (1, 0), (1, 1), (0, -2), (1, -2)];
    const JLSTZ_L2: [(i32, i32); 5] = [(0, 0), (-1, 0), (-1, -1), (0, 2), (-1, 2)];
    if piece == Piece::O {
        return vec![(0, 0)];
    }
    if (to + 4 - from) % 4 == 2 {
        assert!(srs_plus, "180° turns exist only under SRS+");
        return match (piece == Piece::I, from) {
            (false, 0) => vec![(0, 0), (0, 1), (1, 1), (-1, 1), (1, 0), (-1, 0)],
            (false, 1) => vec![(0, 0), (1, 0), (1, 2), (1, 1), (0, 2), (0, 1)],
            (false, 2) => vec![(0, 0), (0, -1), (-1, -1), (1, -1), (-1, 0), (1, 0)],
            (false, _) => vec![(0, 0), (-1, 0), (-1, 2), (-1, 1), (0, 2), (0, 1)],
            (true, 0) => vec![(0, 0), (0, 1)],
            (true, 1) => vec![(0, 0), (1, 0)],
            (true, 2) => vec![(0, 0), (0, -1)],
            (true, _) => vec![(0, 0), (-1, 0)],
        };
    }
    if piece != Piece::I {
        return match (from, to) {
            (0, 1) | (2, 1) => JLSTZ_0R.to_vec(),
            (1, 0) | (1, 2) => JLSTZ_R0.to_vec(),
            (2, 3) | (0, 3) => JLSTZ_2L.to_vec(),
            _ => JLSTZ_L2.to_vec(),
        };
    }
    let srs: [(i32, i32); 5] = match (from, to) {
        (0, 1) => [(0, 0), (-2, 0), (1, 0), (-2, -1), (1, 2)],
        (1, 0) => [(0, 0), (2, 0), (-1, 0), (2, 1), (-1, -2)],
        (1, 2) => [(0, 0), (-1, 0), (2, 0), (-1, 2), (2, -1)],
        (2, 1) => [(0, 0), (1, 0), (-2, 0), (1, -2), (-2, 1)],
        (2, 3) => [(0, 0), (2, 0), (-1, 0), (2, 1), (-1, -2)],
        (3, 2) => [(0, 0), (-2, 0), (1, 0), (-2, -1), (1, 2)],
        (3, 0) => [(0, 0), (1, 0), (-2, 0), (1, -2), (-2, 1)],
        _ => [(0, 0), (-1, 0), (2, 0), (-1, 2), (2, -1)],
    };
    let plus: [(i32, i32); 5] = match (from, to) {
        (0, 1) => [(0, 0), (1, 0), (-2, 0), (-2, -1), (1, 2)],
        (1, 0) => [(0, 0), (-1, 0), (2, 0), (-1, -2), (2, 1)],
        (1, 2) => [(0, 0), (-1, 0), (2, 0), (-1, 2), (2, -1)],
        (2, 1) => [(0, 0), (-2, 0), (1, 0), (-2, 1), (1, -2)],
        (2, 3) => [(0, 0), (2, 0), (-1, 0), (2, 1), (-1, -2)],
        (3, 2) => [(0, 0), (1, 0), (-2, 0), (1, 2), (-2, -1)],
        (3, 0) => [(0, 0), (1, 0), (-2, 0), (1, -2), (-2, 1)],
        _ => [(0, 0), (-1, 0), (2, 0), (2, -1), (-1, 2)],
    };
    if srs_plus {
        plus.to_vec()
    } else {
        srs.to_vec()
    }
}

/// The field: row bit masks, bit x for column x, row 0 at the bottom.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Field {
    rows: Vec<u16>,
}

const FULL_ROW: u16 = (1 << WIDTH) - 1;

impl Default for Field {
    fn default() -> Self {
        Field {
            rows: vec![0; ROWS as usize],
        }
    }
}

impl Field {
    /// Off the field or filled.
    pub fn solid(&self, x: i32, y: i32) -> bool {
        !(0..WIDTH).contains(&x) || !(0..ROWS).contains(&y) || self.rows[y as usize] & 1 << x != 0
    }

    pub fn fits(&self, p: &Pos) -> bool {
        p.cells().iter().all(|&(x, y)| !self.solid(x, y))
    }

    pub fn is_empty(&self) -> bool {
        self.rows.iter().all(|&r| r == 0)
    }

    /// The 40 rows of a TBP board: null or the letter "G" (the front end does not say which
    /// piece filled a cell).
    pub fn tbp_board(&self) -> serde_json::Value {
        let rows: Vec<serde_json::Value> = (0..40)
            .map(|y| {
                let row = self.rows.get(y).copied().unwrap_or(0);
                (0..WIDTH)
                    .map(|x| {
                        if row & 1 << x != 0 {
                            serde_json::json!("G")
                        } else {
                            serde_json::Value::Null
                        }
                    })
                    .collect()
            })
            .collect();
        serde_json::Value::Array(rows)
    }

    /// Fills cells and removes full rows; returns the rows removed.
    fn lock(&mut self, p: &Pos) -> u32 {
        for (x, y) in p.cells() {
            self.rows[y as usize] |= 1 << x;
        }
        let before = self.rows.len();
        self.rows.retain(|&r| r != FULL_ROW);
        let cleared = before - self.rows.len();
        self.rows.resize(ROWS as usize, 0);
        cleared as u32
    }
}

/// The spawn position of docs/guideline.md: box origin (3, 19), I (3, 18); as TBP centres
/// that is (4, 20) for every piece.
pub fn spawn(piece: Piece) -> Pos {
    Pos {
        piece,
        rot: 0,
        x: 4,
        y: 20,
    }
}

/// `p` after `op` on `field`, with how it got there; `None` when the move cannot be made.
fn apply(field: &Field, p: Pos, op: Op, srs_plus: bool) -> Option<(Pos, Last)> {
    let shift = |dx, dy| {
        let q = p.moved(dx, dy);
        field.fits(&q).then_some((q, Last::Shift))
    };
    let quarters = match op {
        Op::Left => return shift(-1, 0),
        Op::Right => return shift(1, 0),
        Op::Down => return shift(0, -1),
        Op::Cw => 1,
        Op::Ccw => 3,
        Op::Half => 2,
    };
    let to = (p.rot + quarters) % 4;
    // Turning about the true centre moves the TBP centre of I and O.
    let (ax, ay) = p.piece.true_centre2(p.rot);
    let (bx, by) = p.piece.true_centre2(to);
    let turned = Pos {
        rot: to,
        x: p.x + (ax - bx) / 2,
        y: p.y + (ay - by) / 2,
        ..p
    };
    for (i, (kx, ky)) in kicks(p.piece, p.rot, to, srs_plus).into_iter().enumerate() {
        let q = turned.moved(kx, ky);
        if field.fits(&q) {
            let fifth = quarters != 2 && i == 4 && (to == 1 || to == 3);
            return Some((q, if fifth { Last::FifthTurn } else { Last::Turn }));
        }
    }
    None
}

/// Where `p` comes to rest, and its last move (a drop of a row or more is a shift).
fn hard_drop(field: &Field, p: Pos, last: Last) -> (Pos, Last) {
    let mut q = p;
    while field.fits(&q.moved(0, -1)) {
        q = q.moved(0, -1);
    }
    (q, if q == p { last } else { Last::Shift })
}

/// The spin of `p` locking after `last` on `field` (docs/guideline.md, "Spins").
pub fn spin_of(field: &Field, p: &Pos, last: Last) -> Spin {
    if p.piece != Piece::T || last == Last::Shift {
        return Spin::None;
    }
    let corner = |dx, dy| field.solid(p.x + dx, p.y + dy);
    // Bottom-left, bottom-right, top-left, top-right.
    let c = [corner(-1, -1), corner(1, -1), corner(-1, 1), corner(1, 1)];
    if c.iter().filter(|&&s| s).count() < 3 {
        return Spin::None;
    }
    let front = match p.rot {
        0 => c[2] && c[3],
        1 => c[1] && c[3],
        2 => c[0] && c[1],
        _ => c[0] && c[2],
    };
    if front || last == Last::FifthTurn {
        Spin::Full
    } else {
        Spin::Mini
    }
}

/// Locks (where a piece rests, and its spin) and a shortest op path to each.
pub type Reach = HashMap<(Pos, Spin), Vec<Op>>;

/// Every lock a piece can reach from spawn on `field` by single moves (breadth first, so
/// each with a shortest path): where it rests and its spin, to the ops that get there.
pub fn reachable(field: &Field, piece: Piece, srs_plus: bool) -> Reach {
    let ops: &[Op] = if srs_plus {
        &[Op::Left, Op::Right, Op::Down, Op::Cw, Op::Ccw, Op::Half]
    } else {
        &[Op::Left, Op::Right, Op::Down, Op::Cw, Op::Ccw]
    };
    let start = spawn(piece);
    let mut locks = HashMap::new();
    if !field.fits(&start) {
        return locks;
    }
    // Only a T's last move matters; other pieces forget it so their states merge.
    let key = |p: Pos, last: Last| (p, if piece == Piece::T { last } else { Last::Shift });
    let mut paths: HashMap<(Pos, Last), Vec<Op>> = HashMap::new();
    let mut queue = VecDeque::new();
    paths.insert(key(start, Last::Shift), Vec::new());
    queue.push_back(key(start, Last::Shift));
    while let Some((p, last)) = queue.pop_front() {
        let path = paths[&(p, last)].clone();
        let (rest, rest_last) = hard_drop(field, p, last);
        let spin = spin_of(field, &rest, rest_last);
        locks.entry((rest, spin)).or_insert_with(|| path.clone());
        for &op in ops {
            if let Some((q, how)) = apply(field, p, op, srs_plus) {
                let k = key(q, how);
                if let std::collections::hash_map::Entry::Vacant(e) = paths.entry(k) {
                    let mut longer = path.clone();
                    longer.push(op);
                    e.insert(longer);
                    queue.push_back(k);
                }
            }
        }
    }
    locks
}

/// The record tokens of one piece: `N`, `H1` when it held, then its ops with runs merged.
pub fn record_tokens(hold: bool, ops: &[Op]) -> Vec<String> {
    let mut out = vec!["N".to_string()];
    if hold {
        out.push("H1".into());
    }
    let mut i = 0;
    while i < ops.len() {
        let mut n = 1;
        while i + n < ops.len() && ops[i + n] == ops[i] && n < 99 {
            n += 1;
        }
        out.push(format!("{}{n}", ops[i].letter()));
        i += n;
    }
    out
}

/// Attack lines for 0..=4 rows: plain, mini, full (docs/guideline.md, "Attack").
const PLAIN: [u32; 5] = [0, 0, 1, 2, 4];
const MINI: [u32; 3] = [0, 0, 1];
const FULL: [u32; 4] = [0, 2, 4, 6];
/// The guideline combo table for combos 1..=10; 5 from 11 on.
const COMBO: [u32; 10] = [0, 1, 1, 2, 2, 3, 3, 4, 4, 4];

/// A game in progress: field, combo counter, back-to-back chain, and what it sent.
#[derive(Clone, Debug)]
pub struct Game {
    pub field: Field,
    /// −1 before a clear, then 0, 1, ... for clears in a row.
    pub combo: i32,
    pub b2b: bool,
    pub attack: u64,
    pub lines: u64,
    /// Clearing locks that were T-spins (full or mini), and the full ones among them.
    pub tspins: u64,
    pub tspins_full: u64,
    pub perfect_clears: u64,
}

impl Default for Game {
    fn default() -> Self {
        Game {
            field: Field::default(),
            combo: -1,
            b2b: false,
            attack: 0,
            lines: 0,
            tspins: 0,
            tspins_full: 0,
            perfect_clears: 0,
        }
    }
}

impl Game {
    /// Locks `p` (resting where it is, reached with `spin`); returns the attack it sends, or
    /// `None` for a lock out (every cell in rows 20 and up).
    pub fn lock(&mut self, p: &Pos, spin: Spin) -> Option<u32> {
        if p.cells().iter().all(|&(_, y)| y >= 20) {
            return None;
        }
        let rows = self.field.lock(p);
        self.lines += rows as u64;
        if rows == 0 {
            self.combo = -1;
            return Some(0);
        }
        self.combo += 1;
        self.tspins += (spin != Spin::None) as u64;
        self.tspins_full += (spin == Spin::Full) as u64;
        let n = rows as usize;
        let difficult = rows == 4 || spin != Spin::None;
        let b2b = difficult && self.b2b;
        self.b2b = difficult;
        let mut sent = match spin {
            Spin::None => PLAIN[n],
            Spin::Mini => MINI[n.min(2)],
            Spin::Full => FULL[n.min(3)],
        } + b2b as u32;
        if self.combo >= 1 {
            sent += COMBO.get(self.combo as usize - 1).copied().unwrap_or(5);
        }
        if self.field.is_empty() {
            sent += 10;
            self.perfect_clears += 1;
        }
        self.attack += sent as u64;
        Some(sent)
    }
}
