//! The seven shapes and their four rotation states, as cell offsets from the piece centre.
//!
//! The table is the Tencent game's `tetris.config.js` (SPEC.md section 2): offsets are
//! `(dx, dy)` with y pointing down, `(0, 0)` is always a cell, and every shape lists four
//! states (I, S and Z repeat two entries, O repeats one). Rotation `C` is `state + 1 mod 4`.

use serde::{Deserialize, Serialize};

/// A tetromino shape, in the game's config order (I=0 ... Z=6).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Shape {
    I = 0,
    L = 1,
    J = 2,
    T = 3,
    O = 4,
    S = 5,
    Z = 6,
}

/// One cell offset `(dx, dy)` from the piece centre, y pointing down.
pub type Offset = (i8, i8);

/// `OFFSETS[shape][state]`: the four cells of each rotation state.
const OFFSETS: [[[Offset; 4]; 4]; 7] = [
    // I
    [
        [(0, 0), (0, -1), (0, -2), (0, 1)],
        [(0, 0), (1, 0), (2, 0), (-1, 0)],
        [(0, 0), (0, -1), (0, -2), (0, 1)],
        [(0, 0), (1, 0), (2, 0), (-1, 0)],
    ],
    // L
    [
        [(0, 0), (0, -1), (0, -2), (1, 0)],
        [(0, 0), (1, 0), (2, 0), (0, 1)],
        [(0, 0), (-1, 0), (0, 1), (0, 2)],
        [(0, 0), (0, -1), (-1, 0), (-2, 0)],
    ],
    // J
    [
        [(0, 0), (0, -1), (0, -2), (-1, 0)],
        [(0, 0), (0, -1), (1, 0), (2, 0)],
        [(0, 0), (1, 0), (0, 1), (0, 2)],
        [(0, 0), (-1, 0), (-2, 0), (0, 1)],
    ],
    // T
    [
        [(0, 0), (1, 0), (0, 1), (-1, 0)],
        [(0, 0), (0, -1), (0, 1), (-1, 0)],
        [(0, 0), (0, -1), (1, 0), (-1, 0)],
        [(0, 0), (0, -1), (1, 0), (0, 1)],
    ],
    // O
    [
        [(0, 0), (0, -1), (1, -1), (1, 0)],
        [(0, 0), (0, -1), (1, -1), (1, 0)],
        [(0, 0), (0, -1), (1, -1), (1, 0)],
        [(0, 0), (0, -1), (1, -1), (1, 0)],
    ],
    // S
    [
        [(0, 0), (0, -1), (1, -1), (-1, 0)],
        [(0, 0), (-1, 0), (-1, -1), (0, 1)],
        [(0, 0), (0, -1), (1, -1), (-1, 0)],
        [(0, 0), (-1, 0), (-1, -1), (0, 1)],
    ],
    // Z
    [
        [(0, 0), (0, -1), (1, 0), (-1, -1)],
        [(0, 0), (0, -1), (-1, 1), (-1, 0)],
        [(0, 0), (0, -1), (1, 0), (-1, -1)],
        [(0, 0), (0, -1), (-1, 1), (-1, 0)],
    ],
];

impl Shape {
    /// All shapes in config order.
    pub const ALL: [Shape; 7] = [
        Shape::I,
        Shape::L,
        Shape::J,
        Shape::T,
        Shape::O,
        Shape::S,
        Shape::Z,
    ];

    /// The shape with config index `i` (0..7).
    pub const fn from_index(i: usize) -> Shape {
        Shape::ALL[i]
    }

    /// The config index (I=0 ... Z=6).
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The shape's letter.
    pub const fn letter(self) -> char {
        match self {
            Shape::I => 'I',
            Shape::L => 'L',
            Shape::J => 'J',
            Shape::T => 'T',
            Shape::O => 'O',
            Shape::S => 'S',
            Shape::Z => 'Z',
        }
    }

    /// The shape named by `c` (either case).
    pub fn from_letter(c: char) -> Option<Shape> {
        Some(match c.to_ascii_uppercase() {
            'I' => Shape::I,
            'L' => Shape::L,
            'J' => Shape::J,
            'T' => Shape::T,
            'O' => Shape::O,
            'S' => Shape::S,
            'Z' => Shape::Z,
            _ => return None,
        })
    }

    /// The four cell offsets of rotation `state` (taken mod 4).
    #[inline(always)]
    pub const fn cells(self, state: u8) -> [Offset; 4] {
        OFFSETS[self as usize][(state & 3) as usize]
    }

    /// How many distinct orientations the shape has (1, 2 or 4).
    pub const fn orientations(self) -> u8 {
        match self {
            Shape::O => 1,
            Shape::I | Shape::S | Shape::Z => 2,
            _ => 4,
        }
    }

    /// The smallest state with the same cells as `state`: placements that fill the same cells
    /// are one placement.
    #[inline(always)]
    pub const fn canonical_state(self, state: u8) -> u8 {
        (state & 3) % self.orientations()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Rotating (x, y) -> (-y, x) is a clockwise quarter turn on a y-down screen.
    fn rotate_cw(cells: [Offset; 4]) -> Vec<Offset> {
        let mut v: Vec<Offset> = cells.iter().map(|&(x, y)| (-y, x)).collect();
        v.sort();
        v
    }

    fn sorted(cells: [Offset; 4]) -> Vec<Offset> {
        let mut v = cells.to_vec();
        v.sort();
        v
    }

    #[test]
    fn l_j_t_states_turn_clockwise_about_the_centre() {
        // I toggles between two entries, so only its 0 -> 1 step is a true quarter turn.
        for (shape, steps) in [(Shape::L, 4), (Shape::J, 4), (Shape::T, 4), (Shape::I, 1)] {
            for s in 0..steps {
                assert_eq!(
                    rotate_cw(shape.cells(s)),
                    sorted(shape.cells(s + 1)),
                    "{shape:?} {s}"
                );
            }
        }
    }

    #[test]
    fn duplicate_states_have_identical_cells() {
        for shape in Shape::ALL {
            for s in 0..4u8 {
                assert_eq!(
                    sorted(shape.cells(s)),
                    sorted(shape.cells(shape.canonical_state(s)))
                );
            }
            // and the canonical states are pairwise distinct
            let n = shape.orientations();
            for a in 0..n {
                for b in 0..a {
                    assert_ne!(sorted(shape.cells(a)), sorted(shape.cells(b)));
                }
            }
        }
    }

    #[test]
    fn the_centre_is_always_a_cell() {
        for shape in Shape::ALL {
            for s in 0..4 {
                assert!(shape.cells(s).contains(&(0, 0)));
            }
        }
    }
}
