//! Where the 4-wide model meets a real guideline board: a *section* is four adjacent columns
//! whose cells, from the lowest row with a gap up, are a residual field the solver knows
//! (3 or 6 cells), with the six other columns full in the rows the combo will clear.
//!
//! The model's well has infinitely high walls; a real board has the side stacks, and the
//! combo can clear at most as many rows as the sides have full. Reading the section off the
//! board is what lets the beam, online play and the simulator hand a position to the solver.

use super::field::Field;
use crate::games::guideline::board::{row_bit, Board, COLUMN_BITS, HEIGHT, WIDTH};
use crate::games::guideline::movegen::{self, Placement};
use crate::games::guideline::{game, Rules, State};
use crate::piece::Shape;

/// A 4-wide section on a guideline board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Section {
    /// The leftmost of the four well columns (0..=6).
    pub column: usize,
    /// The lowest row with an empty cell in the well columns; every row below is full there.
    pub floor: usize,
    /// The well's cells from row `floor` up, in the model's notation (bit `4 * y + x`).
    pub field: Field,
    /// Consecutive rows from `floor` up in which all six side cells are filled.
    pub side_rows: usize,
}

impl Section {
    /// Rows the residual spans (1 or 2 for three cells, up to 3 for six).
    pub fn field_rows(&self) -> usize {
        (0..8)
            .rev()
            .find(|&y| self.field.0 >> (4 * y) & 0xF != 0)
            .map_or(0, |y| y + 1)
    }

    /// Clearing pieces the sides can carry: each clear takes one full side row.
    pub fn clears_available(&self) -> usize {
        self.side_rows
    }
}

/// Rows filled from `y` up in a column word (bit `23 - y` is row `y`).
pub fn full_rows_from(column: u32, y: usize) -> usize {
    if y >= HEIGHT {
        return 0;
    }
    // Row y moves to bit 31; the bits shifted in below row 23 are zeros and stop the count.
    (column << (32 - HEIGHT + y)).leading_ones() as usize
}

/// The 4-wide section on `board` with a residual of 3 or 6 cells that `known` accepts (the
/// caller's transition table knows which fields the solver reaches), leftmost first. Two
/// windows can both read as a residual on one board; `known` tells the real one.
pub fn find(board: &Board, known: impl Fn(Field) -> bool) -> Option<Section> {
    let cols = &board.cols;
    // Full rows from the bottom of each column, and the AND of the columns left of x
    // (`prefix[x]`) and from x on (`suffix[x]`): the side cells of a window are
    // `prefix[c] & suffix[c + 4]`.
    let mut base = [0usize; WIDTH];
    let mut prefix = [COLUMN_BITS; WIDTH + 1];
    let mut suffix = [COLUMN_BITS; WIDTH + 1];
    for x in 0..WIDTH {
        base[x] = full_rows_from(cols[x], 0);
        prefix[x + 1] = prefix[x] & cols[x];
    }
    for x in (0..WIDTH).rev() {
        suffix[x] = suffix[x + 1] & cols[x];
    }
    for c in 0..=WIDTH - 4 {
        let floor = base[c].min(base[c + 1]).min(base[c + 2]).min(base[c + 3]);
        if floor >= HEIGHT {
            continue;
        }
        // Most windows fail one of the two cheap tests: the sides full at the floor, the
        // residual's size.
        let sides = prefix[c] & suffix[c + 4];
        if sides & row_bit(floor) == 0 {
            continue;
        }
        let above = COLUMN_BITS >> floor;
        let cells = (cols[c] & above).count_ones()
            + (cols[c + 1] & above).count_ones()
            + (cols[c + 2] & above).count_ones()
            + (cols[c + 3] & above).count_ones();
        if cells != 3 && cells != 6 {
            continue;
        }
        if let Some(s) = section_at(cols, c, floor, cells, sides) {
            if known(s.field) {
                return Some(s);
            }
        }
    }
    None
}

/// The section of window `c` with its floor, residual size and side cells already read.
fn section_at(
    cols: &[u32; WIDTH],
    c: usize,
    floor: usize,
    cells: u32,
    sides: u32,
) -> Option<Section> {
    let side_rows = full_rows_from(sides, floor);
    let (field, inside) = read_field(cols, c, floor);
    if inside != cells {
        // a cell eight or more rows above the floor
        return None;
    }
    let section = Section {
        column: c,
        floor,
        field,
        side_rows,
    };
    (side_rows >= section.field_rows()).then_some(section)
}

/// The cells of window `c` in rows `floor..floor + 8` as a field, and how many there are.
fn read_field(cols: &[u32; WIDTH], c: usize, floor: usize) -> (Field, u32) {
    // Rows floor..floor + 8 of a column as a byte, row `floor` in bit 0.
    let window = |col: u32| -> u32 {
        let byte = if floor <= 16 {
            col >> (16 - floor)
        } else {
            col << (floor - 16)
        } as u8;
        byte.reverse_bits() as u32
    };
    let mut bits = 0u32;
    let mut inside = 0;
    for x in 0..4 {
        let rows = window(cols[c + x]);
        inside += rows.count_ones();
        bits |= spread(rows) << x;
    }
    (Field(bits), inside)
}

/// The engine placement of `shape` in `state` that makes one step of the combo in `section`:
/// it clears exactly one row and leaves `target` in the well, on the same floor. This is how a
/// choice of the 4-wide model (which speaks of fields) is played on a real board (cells,
/// spawn, kicks). `None` when no placement does: for a field the model reaches from
/// `section.field`, a disagreement between model and engine, or a lock out.
pub fn step_to(
    state: &State,
    shape: Shape,
    section: &Section,
    target: Field,
    rules: &Rules,
    placements: &mut Vec<Placement>,
) -> Option<(Placement, State)> {
    placements.clear();
    movegen::placements(&state.board, shape, rules.rotation, placements);
    let cols_above = COLUMN_BITS >> section.floor;
    placements.iter().find_map(|p| {
        let (after, lock) = game::lock(state, &p.active(), rules.combo_table);
        if lock.lines != 1 || lock.lock_out {
            return None;
        }
        let cols = &after.board.cols;
        let (field, inside) = read_field(cols, section.column, section.floor);
        let all: u32 = (0..4)
            .map(|x| (cols[section.column + x] & cols_above).count_ones())
            .sum();
        (field == target && inside == all).then_some((*p, after))
    })
}

/// Bit `y` of `rows` (0..8) moved to bit `4 * y`: one well column in the model's layout.
#[inline]
fn spread(rows: u32) -> u32 {
    let mut out = 0;
    let mut r = rows;
    while r != 0 {
        let y = r.trailing_zeros();
        out |= 1 << (4 * y);
        r &= r - 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fourwide::srs::Placements;
    use crate::fourwide::transitions::{seed, Transitions};

    fn board(rows: &[&str]) -> Board {
        Board::from_rows(rows).unwrap()
    }

    /// Sections whose field the SRS solver reaches from either seed.
    fn find_known(b: &Board) -> Option<Section> {
        let three = Transitions::build(seed(3).unwrap(), Placements::Srs);
        let six = Transitions::build(seed(6).unwrap(), Placements::Srs);
        find(b, |f| three.index(f).is_some() || six.index(f).is_some())
    }

    #[test]
    fn full_rows_count_from_a_row_up() {
        // rows 0, 1, 2 filled, row 3 empty, row 4 filled
        let col = (0..3).chain([4]).fold(0u32, |c, y| c | 1 << (23 - y));
        assert_eq!(full_rows_from(col, 0), 3);
        assert_eq!(full_rows_from(col, 1), 2);
        assert_eq!(full_rows_from(col, 3), 0);
        assert_eq!(full_rows_from(col, 4), 1);
        assert_eq!(full_rows_from(COLUMN_BITS, 0), HEIGHT);
        assert_eq!(full_rows_from(COLUMN_BITS, 23), 1);
        assert_eq!(full_rows_from(COLUMN_BITS, 24), 0);
    }

    #[test]
    fn a_centre_well_over_xxx_() {
        let b = board(&[
            "XX.....XXX",
            "XXX....XXX",
            "XXX....XXX",
            "XXXXXX.XXX",
            "XXXXXXXXX.",
        ]);
        let s = find_known(&b).unwrap();
        assert_eq!(s.column, 3);
        assert_eq!(s.floor, 1);
        assert_eq!(s.field, Field::parse("XXX_").unwrap());
        assert_eq!(s.side_rows, 3);
        assert_eq!(s.clears_available(), 3);
    }

    #[test]
    fn a_two_row_residual_needs_both_side_rows() {
        let b = board(&["XXX...XXXX", "XXXX..XXXX"]);
        let s = find_known(&b).unwrap();
        assert_eq!((s.column, s.floor), (2, 0));
        assert_eq!(s.field, Field::parse("X___/XX__").unwrap());
        assert_eq!(s.side_rows, 2);
        assert_eq!(s.clears_available(), 2);
        // the window one column right reads three cells too, but no solve reaches them
        assert_eq!(find(&b, |_| true).unwrap().column, 2);
        assert!(find(&b, |f| f != s.field).is_some_and(|t| t.column == 3));
        // one side cell missing in the residual's top row: not a section
        let b = board(&["XX....XXXX", "XXXX..XXXX"]);
        assert_eq!(find_known(&b), None);
    }

    #[test]
    fn no_section_on_plain_boards() {
        assert_eq!(find(&Board::EMPTY, |_| true), None);
        // four open columns but five residual cells
        let b = board(&["XXX....XXX", "XXXXX..XXX"]);
        assert_eq!(find(&b, |_| true), None);
        // a cell floating high above the residual
        let b = board(&[
            "XXX.X..XXX",
            "XXX....XXX",
            "XXX....XXX",
            "XXX....XXX",
            "XXX....XXX",
            "XXX....XXX",
            "XXX....XXX",
            "XXX....XXX",
            "XXXXXX.XXX",
        ]);
        assert_eq!(find(&b, |_| true), None);
    }

    #[test]
    fn edge_wells_and_six_residuals() {
        let b = board(&["....XXXXXX", "X...XXXXXX", "XX..XXXXXX", "XXX.XXXXXX"]);
        let s = find(&b, |_| true).unwrap();
        assert_eq!((s.column, s.floor, s.side_rows), (0, 0, 4));
        assert_eq!(s.field, Field::parse("X___/XX__/XXX_").unwrap());
        assert_eq!(s.field.cells(), 6);
    }
}
