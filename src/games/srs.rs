//! The Super Rotation System as data: each piece's cells in its box per rotation state, and the
//! kick tests of `srs` and `srs_plus` (TETR.IO's SRS+, with 180° turns).
//!
//! One table for the whole crate: the `guideline` rule set and the 4-wide solver both read it,
//! so a kick that differs between them cannot exist. Coordinates follow
//! docs/guideline.md: box origin at its bottom-left cell, x right, y up; states
//! 0 (spawn), 1 (R), 2, 3 (L).

use crate::piece::Shape;
use serde::{Deserialize, Serialize};

/// A cell or an offset, `(x, y)` with y up.
pub type Xy = (i8, i8);

/// Which kick table a game uses.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RotationSystem {
    /// The Guideline's SRS: clockwise and counter-clockwise turns.
    Srs,
    /// TETR.IO's SRS+: SRS with symmetric I kicks and 180° turns.
    SrsPlus,
}

impl RotationSystem {
    /// Whether 180° turns (`F`) exist.
    pub const fn has_180(self) -> bool {
        matches!(self, RotationSystem::SrsPlus)
    }

    /// The name in game files.
    pub const fn name(self) -> &'static str {
        match self {
            RotationSystem::Srs => "srs",
            RotationSystem::SrsPlus => "srs_plus",
        }
    }
}

/// The side of a piece's box: 4 for I, 3 for the others (O sits in a 3x3 box too).
pub const fn box_size(shape: Shape) -> i8 {
    match shape {
        Shape::I => 4,
        _ => 3,
    }
}

/// Spawn-state (state 0) cells in the box, the SPEC's table.
const fn spawn_cells(shape: Shape) -> [Xy; 4] {
    match shape {
        Shape::T => [(1, 2), (0, 1), (1, 1), (2, 1)],
        Shape::J => [(0, 2), (0, 1), (1, 1), (2, 1)],
        Shape::L => [(2, 2), (0, 1), (1, 1), (2, 1)],
        Shape::S => [(1, 2), (2, 2), (0, 1), (1, 1)],
        Shape::Z => [(0, 2), (1, 2), (1, 1), (2, 1)],
        Shape::I => [(0, 2), (1, 2), (2, 2), (3, 2)],
        Shape::O => [(1, 1), (2, 1), (1, 2), (2, 2)],
    }
}

/// The cells of `shape` after `turns` clockwise quarter turns: `(x, y) -> (y, n - 1 - x)`;
/// the O piece never changes.
const fn turned(shape: Shape, turns: u8) -> [Xy; 4] {
    let mut cells = spawn_cells(shape);
    if matches!(shape, Shape::O) {
        return cells;
    }
    let n = box_size(shape);
    let mut t = 0;
    while t < turns {
        let mut i = 0;
        while i < 4 {
            cells[i] = (cells[i].1, n - 1 - cells[i].0);
            i += 1;
        }
        t += 1;
    }
    cells
}

const fn cell_table() -> [[[Xy; 4]; 4]; 7] {
    let mut table = [[[(0, 0); 4]; 4]; 7];
    let mut s = 0;
    while s < 7 {
        let mut r = 0;
        while r < 4 {
            table[s][r] = turned(Shape::ALL[s], r as u8);
            r += 1;
        }
        s += 1;
    }
    table
}

/// `CELLS[shape][state]`, indexed by `Shape::index`.
const CELLS: [[[Xy; 4]; 4]; 7] = cell_table();

/// The four cells of `shape` in rotation `state` (0..4), in box coordinates.
#[inline(always)]
pub const fn cells(shape: Shape, state: u8) -> [Xy; 4] {
    CELLS[shape.index()][(state & 3) as usize]
}

// SRS: J L S T Z.
const JLSTZ_0R: [Xy; 5] = [(0, 0), (-1, 0), (-1, 1), (0, -2), (-1, -2)]; // 0->R, 2->R
const JLSTZ_R0: [Xy; 5] = [(0, 0), (1, 0), (1, -1), (0, 2), (1, 2)]; // R->0, R->2
const JLSTZ_2L: [Xy; 5] = [(0, 0), (1, 0), (1, 1), (0, -2), (1, -2)]; // 2->L, 0->L
const JLSTZ_L2: [Xy; 5] = [(0, 0), (-1, 0), (-1, -1), (0, 2), (-1, 2)]; // L->2, L->0

// SRS: I.
const I_0R: [Xy; 5] = [(0, 0), (-2, 0), (1, 0), (-2, -1), (1, 2)];
const I_R0: [Xy; 5] = [(0, 0), (2, 0), (-1, 0), (2, 1), (-1, -2)];
const I_R2: [Xy; 5] = [(0, 0), (-1, 0), (2, 0), (-1, 2), (2, -1)];
const I_2R: [Xy; 5] = [(0, 0), (1, 0), (-2, 0), (1, -2), (-2, 1)];
const I_2L: [Xy; 5] = [(0, 0), (2, 0), (-1, 0), (2, 1), (-1, -2)];
const I_L2: [Xy; 5] = [(0, 0), (-2, 0), (1, 0), (-2, -1), (1, 2)];
const I_L0: [Xy; 5] = [(0, 0), (1, 0), (-2, 0), (1, -2), (-2, 1)];
const I_0L: [Xy; 5] = [(0, 0), (-1, 0), (2, 0), (-1, 2), (2, -1)];

// SRS+: I.
const IP_0R: [Xy; 5] = [(0, 0), (1, 0), (-2, 0), (-2, -1), (1, 2)];
const IP_R0: [Xy; 5] = [(0, 0), (-1, 0), (2, 0), (-1, -2), (2, 1)];
const IP_R2: [Xy; 5] = [(0, 0), (-1, 0), (2, 0), (-1, 2), (2, -1)];
const IP_2R: [Xy; 5] = [(0, 0), (-2, 0), (1, 0), (-2, 1), (1, -2)];
const IP_2L: [Xy; 5] = [(0, 0), (2, 0), (-1, 0), (2, 1), (-1, -2)];
const IP_L2: [Xy; 5] = [(0, 0), (1, 0), (-2, 0), (1, 2), (-2, -1)];
const IP_L0: [Xy; 5] = [(0, 0), (1, 0), (-2, 0), (1, -2), (-2, 1)];
const IP_0L: [Xy; 5] = [(0, 0), (-1, 0), (2, 0), (2, -1), (-1, 2)];

// SRS+: 180° turns.
const F_02: [Xy; 6] = [(0, 0), (0, 1), (1, 1), (-1, 1), (1, 0), (-1, 0)];
const F_RL: [Xy; 6] = [(0, 0), (1, 0), (1, 2), (1, 1), (0, 2), (0, 1)];
const F_20: [Xy; 6] = [(0, 0), (0, -1), (-1, -1), (1, -1), (-1, 0), (1, 0)];
const F_LR: [Xy; 6] = [(0, 0), (-1, 0), (-1, 2), (-1, 1), (0, 2), (0, 1)];
const FI_02: [Xy; 2] = [(0, 0), (0, 1)];
const FI_RL: [Xy; 2] = [(0, 0), (1, 0)];
const FI_20: [Xy; 2] = [(0, 0), (0, -1)];
const FI_LR: [Xy; 2] = [(0, 0), (-1, 0)];

/// The tests, in order, for turning `shape` from state `from` to state `to` under `system`:
/// one quarter turn either way, or a half turn (SRS+ only; empty under SRS). The O piece's
/// single test moves nothing.
pub const fn kicks(system: RotationSystem, shape: Shape, from: u8, to: u8) -> &'static [Xy] {
    let (from, to) = (from & 3, to & 3);
    if matches!(shape, Shape::O) {
        return &[(0, 0)];
    }
    if (to + 4 - from) & 3 == 2 {
        if !system.has_180() {
            return &[];
        }
        let i = matches!(shape, Shape::I);
        return match (from, i) {
            (0, false) => &F_02,
            (1, false) => &F_RL,
            (2, false) => &F_20,
            (_, false) => &F_LR,
            (0, true) => &FI_02,
            (1, true) => &FI_RL,
            (2, true) => &FI_20,
            (_, true) => &FI_LR,
        };
    }
    match (shape, system) {
        (Shape::I, RotationSystem::Srs) => match (from, to) {
            (0, 1) => &I_0R,
            (1, 0) => &I_R0,
            (1, 2) => &I_R2,
            (2, 1) => &I_2R,
            (2, 3) => &I_2L,
            (3, 2) => &I_L2,
            (3, 0) => &I_L0,
            _ => &I_0L,
        },
        (Shape::I, RotationSystem::SrsPlus) => match (from, to) {
            (0, 1) => &IP_0R,
            (1, 0) => &IP_R0,
            (1, 2) => &IP_R2,
            (2, 1) => &IP_2R,
            (2, 3) => &IP_2L,
            (3, 2) => &IP_L2,
            (3, 0) => &IP_L0,
            _ => &IP_0L,
        },
        _ => match (from, to) {
            (0, 1) | (2, 1) => &JLSTZ_0R,
            (1, 0) | (1, 2) => &JLSTZ_R0,
            (2, 3) | (0, 3) => &JLSTZ_2L,
            _ => &JLSTZ_L2,
        },
    }
}

/// For every state, the state with the same cell shape that comes first, and the box shift
/// that maps a position in `state` to one with the same cells in that first state: S, Z and I
/// repeat their shape in states 2 and 3 one cell lower or further left, O has one shape.
/// Placements that fill the same cells are one placement.
#[inline(always)]
pub const fn canonical(shape: Shape, state: u8) -> (u8, Xy) {
    CANONICAL[shape.index()][(state & 3) as usize]
}

const fn canonical_table() -> [[(u8, Xy); 4]; 7] {
    let mut table = [[(0, (0, 0)); 4]; 7];
    let mut s = 0;
    while s < 7 {
        let mut r = 0;
        while r < 4 {
            table[s][r] = find_canonical(Shape::ALL[s], r as u8);
            r += 1;
        }
        s += 1;
    }
    table
}

/// `CANONICAL[shape][state]`, indexed by `Shape::index`.
const CANONICAL: [[(u8, Xy); 4]; 7] = canonical_table();

const fn find_canonical(shape: Shape, state: u8) -> (u8, Xy) {
    let target = cells(shape, state);
    let mut first = 0;
    while first < 4 {
        let base = cells(shape, first);
        // Try the shift that maps the lowest-left cell of one onto the other's.
        let (bx, by) = min_cell(base);
        let (tx, ty) = min_cell(target);
        let (dx, dy) = (tx - bx, ty - by);
        if same_cells(base, target, dx, dy) {
            return (first, (dx, dy));
        }
        first += 1;
    }
    (state & 3, (0, 0))
}

const fn min_cell(c: [Xy; 4]) -> Xy {
    let mut best = c[0];
    let mut i = 1;
    while i < 4 {
        if c[i].1 < best.1 || (c[i].1 == best.1 && c[i].0 < best.0) {
            best = c[i];
        }
        i += 1;
    }
    best
}

const fn same_cells(base: [Xy; 4], target: [Xy; 4], dx: i8, dy: i8) -> bool {
    let mut i = 0;
    while i < 4 {
        let want = (target[i].0 - dx, target[i].1 - dy);
        let mut found = false;
        let mut j = 0;
        while j < 4 {
            if base[j].0 == want.0 && base[j].1 == want.1 {
                found = true;
            }
            j += 1;
        }
        if !found {
            return false;
        }
        i += 1;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sorted(mut c: [Xy; 4]) -> [Xy; 4] {
        c.sort();
        c
    }

    #[test]
    fn turns_follow_the_spec() {
        // T pointing right: the column x = 1 with the nub at (2, 1).
        assert_eq!(sorted(cells(Shape::T, 1)), [(1, 0), (1, 1), (1, 2), (2, 1)]);
        // I in state R is column 2 of its box, state L column 1.
        assert!(cells(Shape::I, 1).iter().all(|c| c.0 == 2));
        assert!(cells(Shape::I, 3).iter().all(|c| c.0 == 1));
        // A 180° turn maps (x, y) to (n-1-x, n-1-y).
        for shape in Shape::ALL {
            let n = box_size(shape);
            for s in 0..4u8 {
                if shape == Shape::O {
                    continue;
                }
                let flipped = cells(shape, s).map(|(x, y)| (n - 1 - x, n - 1 - y));
                assert_eq!(
                    sorted(flipped),
                    sorted(cells(shape, s + 2)),
                    "{shape:?} {s}"
                );
            }
        }
    }

    #[test]
    fn kick_tables_have_their_sizes() {
        for shape in Shape::ALL {
            for from in 0..4u8 {
                let n90 = if shape == Shape::O { 1 } else { 5 };
                for sys in [RotationSystem::Srs, RotationSystem::SrsPlus] {
                    assert_eq!(kicks(sys, shape, from, from + 1).len(), n90);
                    assert_eq!(kicks(sys, shape, from, from + 3).len(), n90);
                    assert_eq!(
                        !kicks(sys, shape, from, from + 2).is_empty(),
                        sys.has_180() || shape == Shape::O
                    );
                }
            }
        }
        // SRS+ I kicks are left-right symmetric: 0->R mirrors 0->L.
        let r = kicks(RotationSystem::SrsPlus, Shape::I, 0, 1);
        let l = kicks(RotationSystem::SrsPlus, Shape::I, 0, 3);
        assert_eq!(r[1], (1, 0));
        assert_eq!(l[1], (-1, 0));
    }

    #[test]
    fn canonical_states_have_the_same_cells() {
        for shape in Shape::ALL {
            for s in 0..4u8 {
                let (c, (dx, dy)) = canonical(shape, s);
                assert!(c <= s);
                let moved = cells(shape, c).map(|(x, y)| (x + dx, y + dy));
                assert_eq!(sorted(moved), sorted(cells(shape, s)), "{shape:?} {s}");
            }
        }
        assert_eq!(canonical(Shape::S, 2), (0, (0, -1)));
        assert_eq!(canonical(Shape::I, 3), (1, (-1, 0)));
        assert_eq!(canonical(Shape::T, 2).0, 2);
        assert_eq!(canonical(Shape::O, 3), (0, (0, 0)));
    }
}
