//! The nineteen piece orientations of the ROM (`orientationTable`, indexed by `currentPiece`,
//! $0042): cells as (dx, dy) from the piece's centre, y down, and the NES rotation, which
//! is a table lookup with no kicks.

use crate::piece::Shape;

/// An orientation id as the ROM stores it in `currentPiece` ($0042) and `nextPiece` ($00BF).
pub type Orientation = u8;

/// The id the ROM writes for "no piece" (after a line clear).
pub const NO_PIECE: Orientation = 0x13;

/// Cells of each orientation: T 00-03, J 04-07, Z 08-09, O 0A, S 0B-0C, L 0D-10, I 11-12.
const CELLS: [[(i8, i8); 4]; 19] = [
    [(-1, 0), (0, 0), (1, 0), (0, -1)],  // 00 T pointing up
    [(0, -1), (0, 0), (1, 0), (0, 1)],   // 01 T pointing right
    [(-1, 0), (0, 0), (1, 0), (0, 1)],   // 02 T pointing down (spawn)
    [(0, -1), (-1, 0), (0, 0), (0, 1)],  // 03 T pointing left
    [(0, -1), (0, 0), (-1, 1), (0, 1)],  // 04 J
    [(-1, -1), (-1, 0), (0, 0), (1, 0)], // 05 J
    [(0, -1), (1, -1), (0, 0), (0, 1)],  // 06 J
    [(-1, 0), (0, 0), (1, 0), (1, 1)],   // 07 J (spawn)
    [(-1, 0), (0, 0), (0, 1), (1, 1)],   // 08 Z horizontal (spawn)
    [(1, -1), (0, 0), (1, 0), (0, 1)],   // 09 Z vertical
    [(-1, 0), (0, 0), (-1, 1), (0, 1)],  // 0A O (spawn)
    [(0, 0), (1, 0), (-1, 1), (0, 1)],   // 0B S horizontal (spawn)
    [(0, -1), (0, 0), (1, 0), (1, 1)],   // 0C S vertical
    [(0, -1), (0, 0), (0, 1), (1, 1)],   // 0D L
    [(-1, 0), (0, 0), (1, 0), (-1, 1)],  // 0E L (spawn)
    [(-1, -1), (0, -1), (0, 0), (0, 1)], // 0F L
    [(1, -1), (-1, 0), (0, 0), (1, 0)],  // 10 L
    [(0, -2), (0, -1), (0, 0), (0, 1)],  // 11 I vertical
    [(-2, 0), (-1, 0), (0, 0), (1, 0)],  // 12 I horizontal (spawn)
];

/// The four cells of an orientation; `NO_PIECE` and anything past it has none.
pub fn cells(o: Orientation) -> &'static [(i8, i8)] {
    CELLS.get(usize::from(o)).map_or(&[], |c| &c[..])
}

/// The first id of each shape's run and how many orientations it has, in ROM order.
const RUNS: [(Shape, u8, u8); 7] = [
    (Shape::T, 0x00, 4),
    (Shape::J, 0x04, 4),
    (Shape::Z, 0x08, 2),
    (Shape::O, 0x0A, 1),
    (Shape::S, 0x0B, 2),
    (Shape::L, 0x0D, 4),
    (Shape::I, 0x11, 2),
];

fn run_of(o: Orientation) -> Option<(Shape, u8, u8)> {
    RUNS.iter()
        .copied()
        .find(|&(_, first, n)| (first..first + n).contains(&o))
}

/// The ROM's rotation table: A turns clockwise to the next id of the shape's run, B
/// counter-clockwise to the one before, wrapping within the run.
pub fn rotated(o: Orientation, clockwise: bool) -> Orientation {
    match run_of(o) {
        Some((_, first, n)) => {
            let step = if clockwise { 1 } else { n - 1 };
            first + (o - first + step) % n
        }
        None => o,
    }
}

/// The shape an orientation belongs to.
pub fn shape(o: Orientation) -> Option<Shape> {
    run_of(o).map(|(s, _, _)| s)
}

/// The orientation a shape spawns in (`spawnTable`: T 02, J 07, Z 08, O 0A, S 0B, L 0E,
/// I 12), in the table's own order, which the piece picker indexes.
pub const SPAWN_TABLE: [Orientation; 7] = [0x02, 0x07, 0x08, 0x0A, 0x0B, 0x0E, 0x12];

/// The spawn orientation of a shape.
pub fn spawn_of(s: Shape) -> Orientation {
    match s {
        Shape::T => 0x02,
        Shape::J => 0x07,
        Shape::Z => 0x08,
        Shape::O => 0x0A,
        Shape::S => 0x0B,
        Shape::L => 0x0E,
        Shape::I => 0x12,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn four_clockwise_turns_come_back() {
        for o in 0..19 {
            let mut r = o;
            for _ in 0..4 {
                r = rotated(r, true);
            }
            assert_eq!(r, o);
            assert_eq!(rotated(rotated(o, true), false), o);
            assert_eq!(shape(rotated(o, false)), shape(o));
        }
    }

    #[test]
    fn spawn_table_names_each_shape_once() {
        for s in Shape::ALL {
            assert_eq!(shape(spawn_of(s)), Some(s));
            assert!(SPAWN_TABLE.contains(&spawn_of(s)));
        }
        assert!(cells(NO_PIECE).is_empty());
    }
}
