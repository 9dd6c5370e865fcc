//! Line protocols for online play. The classroom protocol:
//!
//! ```text
//! judge:    IO          first line: the current and the next piece
//! beamtris: ROTATION X  the current piece's placement: clockwise angle 0/90/180/270
//!           3           (state 0..3 of the tencent table) and its leftmost column; then the
//!                       cumulative score
//! judge:    T           each further line: the new next piece (the old next is now current)
//! beamtris: 90 4
//!           3
//! judge:    X           the sequence ends: place the last current piece (no next) and exit
//! judge:    E           the judge declares a failure: print nothing more, exit
//! ```
//!
//! Pieces are `I O T S Z J L` in either case (a digit `0` reads as O). Geometry and scoring
//! are the tencent rule set's: the piece falls straight down from above the board, and a
//! placement scores the cells on the board after the lock, before the clear, times 1/3/6/10
//! for 1/2/3/4 lines. Row 0 must stay empty (the tencent top-out), so placements that would
//! fill it are avoided while any other exists.
//!
//! The player looks one piece ahead: it picks the current placement with the best value of
//! (current placement, best next placement), BCTS weights on the final board.

use crate::error::{Error, Result};
use crate::eval::players::Weights;
use crate::games::standard::{self, Drop, Landing, TopOut};
use crate::games::tencent::board::{Board, WIDTH};
use crate::games::tencent::features;
use crate::games::tencent::LINE_MULTIPLIER;
use crate::piece::Shape;
use std::io::{BufRead, Read, Write};

/// Value given to a placement after which the next piece has nowhere to go.
const LOST: f64 = -1e12;

/// A placement that the tencent rules accept: the piece on the board and row 0 still empty
/// after writing it.
#[inline]
fn legal(board: &Board, tops: &[u8; WIDTH], shape: Shape, drop: Drop) -> Option<Landing> {
    standard::land(board, tops, shape, drop, TopOut::Strict).filter(|l| l.locked.row(0) == 0)
}

/// The weighted placement features (landing height, eroded cells, rows cleared) of `l`.
#[inline]
fn placement_value(w: &Weights, l: &Landing) -> f64 {
    let (eroded, lines) = features::eroded_cells_of(&l.locked, &l.piece);
    w.landing_height * features::landing_height_of_rows(l.top as i32, l.bottom as i32)
        + w.eroded_cells * eroded as f64
        + w.rows_cleared * lines as f64
}

/// The weighted board features of `b`.
#[inline]
fn board_value(w: &Weights, b: &Board) -> f64 {
    w.row_transitions * features::row_transitions(b) as f64
        + w.column_transitions * features::column_transitions(b) as f64
        + w.holes * features::holes(b) as f64
        + w.wells * features::wells(b) as f64
        + w.hole_depth * features::hole_depth(b) as f64
        + w.rows_with_holes * features::rows_with_holes(b) as f64
        + w.cells * b.cells() as f64
}

/// The placement of `current` (knowing `next`, if any) on `board`. Ties: the first in
/// [`standard::drops`] order. `None` only when no placement keeps the piece on the board.
pub fn choose(
    board: &Board,
    current: Shape,
    next: Option<Shape>,
    w: &Weights,
) -> Option<(Drop, Landing)> {
    let tops = board.column_tops();
    let mut best: Option<(f64, Drop, Landing)> = None;
    for drop in standard::drops(current) {
        let Some(l) = legal(board, &tops, current, drop) else {
            continue;
        };
        let first = placement_value(w, &l);
        let v = match next {
            None => first + board_value(w, &l.board),
            Some(n) => {
                let tops2 = l.board.column_tops();
                let mut best2 = LOST + first + board_value(w, &l.board);
                for d2 in standard::drops(n) {
                    if let Some(l2) = legal(&l.board, &tops2, n, d2) {
                        let v2 = first + placement_value(w, &l2) + board_value(w, &l2.board);
                        best2 = best2.max(v2);
                    }
                }
                best2
            }
        };
        if best.as_ref().is_none_or(|b| v > b.0) {
            best = Some((v, drop, l));
        }
    }
    if best.is_none() {
        // Every placement tops out: play the first that stays on the board, as the judge
        // will end the game anyway.
        for drop in standard::drops(current) {
            if let Some(l) = standard::land(board, &tops, current, drop, TopOut::Strict) {
                return Some((drop, l));
            }
        }
    }
    best.map(|(_, d, l)| (d, l))
}

/// A piece letter of the protocol: `I O T S Z J L`, either case, `0` for O.
pub fn parse_piece(c: char) -> Option<Shape> {
    if c == '0' {
        Some(Shape::O)
    } else {
        Shape::from_letter(c)
    }
}

enum Line {
    Piece(Shape),
    End,
    Failure,
}

fn parse_line(n: usize, line: &str) -> Result<Line> {
    let t = line.trim();
    let mut chars = t.chars();
    let (Some(c), None) = (chars.next(), chars.next()) else {
        return Err(Error(format!(
            "classroom protocol, line {n}: expected one piece letter, X or E, got {}",
            quote(t)
        )));
    };
    match c {
        'X' | 'x' => Ok(Line::End),
        'E' | 'e' => Ok(Line::Failure),
        _ => parse_piece(c).map(Line::Piece).ok_or_else(|| {
            Error(format!(
                "classroom protocol, line {n}: unknown piece {c:?} (expected I O T S Z J L, X or E)"
            ))
        }),
    }
}

/// The longest line the judge may send, newline included. A protocol line is a few letters;
/// the bound keeps a stream without newlines from being read whole into memory.
pub const MAX_LINE: usize = 256;

/// At most this many characters of a bad line are quoted in an error.
const QUOTE: usize = 40;

/// `line` quoted for an error, cut to [`QUOTE`] characters.
fn quote(line: &str) -> String {
    if line.chars().count() <= QUOTE {
        format!("{line:?}")
    } else {
        let cut: String = line.chars().take(QUOTE).collect();
        format!("{cut:?}...")
    }
}

/// Reads the judge's lines one at a time, each at most [`MAX_LINE`] bytes, as UTF-8.
struct Lines<R> {
    input: R,
    /// Number of the last line read (1-based).
    n: usize,
    buf: Vec<u8>,
}

impl<R: BufRead> Lines<R> {
    /// The next line without its line ending, `None` at the end of input. Errors name the
    /// line: too long, not UTF-8, or the read failing.
    fn next_line(&mut self) -> Result<Option<String>> {
        self.n += 1;
        self.buf.clear();
        let limit = MAX_LINE as u64 + 1;
        let read = (&mut self.input)
            .take(limit)
            .read_until(b'\n', &mut self.buf)
            .map_err(|e| Error(format!("classroom protocol, line {}: {e}", self.n)))?;
        if read == 0 {
            return Ok(None);
        }
        if self.buf.last() == Some(&b'\n') {
            self.buf.pop();
            if self.buf.last() == Some(&b'\r') {
                self.buf.pop();
            }
        } else if read as u64 == limit {
            return Err(Error(format!(
                "classroom protocol, line {}: longer than {MAX_LINE} bytes",
                self.n
            )));
        }
        match std::str::from_utf8(&self.buf) {
            Ok(s) => Ok(Some(s.to_string())),
            Err(e) => Err(Error(format!(
                "classroom protocol, line {}: not UTF-8 text (byte {})",
                self.n,
                e.valid_up_to() + 1
            ))),
        }
    }
}

/// The game state between lines.
struct ClassroomGame {
    board: Board,
    score: u64,
    weights: Weights,
}

impl ClassroomGame {
    /// Places `current` and writes the two answer lines.
    fn place(&mut self, current: Shape, next: Option<Shape>, out: &mut impl Write) -> Result<()> {
        let drop = match choose(&self.board, current, next, &self.weights) {
            Some((drop, l)) => {
                let lines = l.lines as usize;
                // A lock that fills row 0 is the tencent top-out: it scores nothing.
                if lines > 0 && l.locked.row(0) == 0 {
                    self.score += (l.locked.cells() * LINE_MULTIPLIER[lines]) as u64;
                }
                self.board = l.board;
                drop
            }
            // Nothing fits on the board at all: name a placement anyway (the game is lost).
            None => Drop { state: 0, x: 4 },
        };
        let rotation = drop.state as u32 * 90;
        let column = leftmost(current, drop);
        writeln!(out, "{rotation} {column}")?;
        writeln!(out, "{}", self.score)?;
        out.flush()?;
        Ok(())
    }
}

/// Leftmost column of the cells of `shape` placed at `drop`.
fn leftmost(shape: Shape, drop: Drop) -> i8 {
    drop.x
        + shape
            .cells(drop.state)
            .iter()
            .map(|c| c.0)
            .min()
            .unwrap_or(0)
}

/// Runs the classroom protocol: reads the judge's lines from `input`, writes answers to
/// `output`. Returns after `X` (the last piece placed) or `E`; an unknown letter, a blank line
/// or the end of input before `X` is an error.
pub fn run_protocol(input: impl BufRead, mut output: impl Write) -> Result<()> {
    let mut game = ClassroomGame {
        board: Board::EMPTY,
        score: 0,
        weights: Weights::BCTS,
    };
    let mut lines = Lines {
        input,
        n: 0,
        buf: Vec::new(),
    };
    let Some(first) = lines.next_line()? else {
        return Err(Error(
            "classroom protocol, line 1: the input ended before the first pieces".into(),
        ));
    };
    let letters: Vec<char> = first.chars().filter(|c| !c.is_whitespace()).collect();
    if letters.len() == 1 && matches!(letters[0], 'E' | 'e') {
        return Ok(());
    }
    let (current, mut next) = match letters.as_slice() {
        [a, b] => match (parse_piece(*a), parse_piece(*b)) {
            (Some(a), Some(b)) => (a, b),
            _ => {
                return Err(Error(format!(
                "classroom protocol, line 1: expected two piece letters (I O T S Z J L), got {}",
                quote(&first)
            )))
            }
        },
        _ => {
            return Err(Error(format!(
                "classroom protocol, line 1: expected two piece letters (current, next), got {}",
                quote(&first)
            )))
        }
    };
    game.place(current, Some(next), &mut output)?;
    while let Some(line) = lines.next_line()? {
        match parse_line(lines.n, &line)? {
            Line::Piece(p) => {
                let now = next;
                next = p;
                game.place(now, Some(next), &mut output)?;
            }
            Line::End => {
                game.place(next, None, &mut output)?;
                return Ok(());
            }
            Line::Failure => return Ok(()),
        }
    }
    Err(Error(format!(
        "classroom protocol, line {}: the input ended without X",
        lines.n
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An independent simulation of the protocol's rules on a grid of booleans, cell by cell.
    struct Sim {
        grid: [[bool; 10]; 20],
        score: u64,
    }

    impl Sim {
        /// Drops `shape` at `rotation` degrees with leftmost column `column`; checks the move is
        /// legal and returns the cumulative score.
        fn play(&mut self, shape: Shape, rotation: u32, column: i32) -> u64 {
            assert!(
                rotation.is_multiple_of(90) && rotation < 360,
                "rotation {rotation}"
            );
            let cells = shape.cells((rotation / 90) as u8);
            let min_dx = cells.iter().map(|c| c.0 as i32).min().unwrap();
            let cx = column - min_dx;
            for &(dx, _) in &cells {
                assert!(
                    (0..10).contains(&(cx + dx as i32)),
                    "column {column} off the board"
                );
            }
            // Fall from above the board until the next step down would collide.
            let ok = |cy: i32| {
                cells.iter().all(|&(dx, dy)| {
                    let (x, y) = (cx + dx as i32, cy + dy as i32);
                    y < 20 && (y < 0 || !self.grid[y as usize][x as usize])
                })
            };
            let mut cy = -5;
            assert!(ok(cy));
            while ok(cy + 1) {
                cy += 1;
            }
            for &(dx, dy) in &cells {
                let y = cy + dy as i32;
                assert!(y >= 1, "the piece reaches row {y}: top-out");
                self.grid[y as usize][(cx + dx as i32) as usize] = true;
            }
            let filled: u64 = self.grid.iter().flatten().filter(|&&c| c).count() as u64;
            let full: Vec<usize> = (0..20)
                .filter(|&y| self.grid[y].iter().all(|&c| c))
                .collect();
            self.score += filled * [0, 1, 3, 6, 10][full.len()];
            let mut rows: Vec<[bool; 10]> = (0..20)
                .filter(|y| !full.contains(y))
                .map(|y| self.grid[y])
                .collect();
            while rows.len() < 20 {
                rows.insert(0, [false; 10]);
            }
            self.grid.copy_from_slice(&rows);
            self.score
        }
    }

    #[test]
    fn a_400_piece_game_through_the_protocol_is_legal_and_scored_right() {
        let letters = "IOTSZJL";
        let mut x: u64 = 12345;
        let mut pieces = Vec::new();
        for _ in 0..400 {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let c = letters.as_bytes()[((x >> 33) % 7) as usize] as char;
            pieces.push(c);
        }
        let mut input = format!("{}{}\n", pieces[0], pieces[1].to_ascii_lowercase());
        for &c in &pieces[2..] {
            input.push(c);
            input.push('\n');
        }
        input.push_str("X\n");
        let mut out = Vec::new();
        run_protocol(input.as_bytes(), &mut out).expect("the protocol runs");
        let text = String::from_utf8(out).unwrap();
        let answer: Vec<&str> = text.lines().collect();
        assert_eq!(answer.len(), 2 * pieces.len());
        let mut sim = Sim {
            grid: [[false; 10]; 20],
            score: 0,
        };
        for (k, &c) in pieces.iter().enumerate() {
            let mut it = answer[2 * k].split_whitespace();
            let rotation: u32 = it.next().unwrap().parse().unwrap();
            let column: i32 = it.next().unwrap().parse().unwrap();
            let score: u64 = answer[2 * k + 1].parse().unwrap();
            let shape = Shape::from_letter(c).unwrap();
            assert_eq!(sim.play(shape, rotation, column), score, "piece {k}");
        }
        assert!(sim.score > 0);
    }

    #[test]
    fn e_ends_quietly_and_bad_input_is_a_one_line_error() {
        let mut out = Vec::new();
        run_protocol("IO\nT\nE\n".as_bytes(), &mut out).unwrap();
        assert_eq!(String::from_utf8(out).unwrap().lines().count(), 4);
        let mut out = Vec::new();
        run_protocol("E\n".as_bytes(), &mut out).unwrap();
        assert!(out.is_empty());
        for (input, want) in [
            ("IO\nQ\n", "line 2: unknown piece 'Q'"),
            ("IO\n\nX\n", "line 2: expected one piece letter"),
            ("IO\nT\n", "line 3: the input ended without X"),
            ("I\n", "line 1: expected two piece letters"),
            ("", "line 1: the input ended"),
            ("IQ\n", "line 1: expected two piece letters"),
            ("IO\nT\n\u{301}\n", "line 3: unknown piece"),
        ] {
            let err = run_protocol(input.as_bytes(), Vec::new()).unwrap_err();
            assert!(err.0.contains(want), "{input:?}: {err}");
            assert!(!err.0.contains('\n'));
        }
        // A line past the bound is refused without reading the rest; bad UTF-8 names its
        // line; a long bad line is quoted short.
        let long = format!("IO\nT\n{}", "T".repeat(10 * MAX_LINE));
        let err = run_protocol(long.as_bytes(), Vec::new()).unwrap_err();
        assert_eq!(
            err.0,
            format!("classroom protocol, line 3: longer than {MAX_LINE} bytes")
        );
        let err = run_protocol(&b"IO\nT\nS\xff\n"[..], Vec::new()).unwrap_err();
        assert_eq!(err.0, "classroom protocol, line 3: not UTF-8 text (byte 2)");
        let err =
            run_protocol(format!("{}\n", "Q".repeat(200)).as_bytes(), Vec::new()).unwrap_err();
        assert!(err.0.len() < 150, "{err}");
        // Windows line endings read the same.
        let mut out = Vec::new();
        run_protocol("IO\r\nX\r\n".as_bytes(), &mut out).unwrap();
        assert_eq!(String::from_utf8(out).unwrap().lines().count(), 4);
        // A digit 0 is an O.
        let mut out = Vec::new();
        run_protocol("0o\nX\n".as_bytes(), &mut out).unwrap();
        assert_eq!(String::from_utf8(out).unwrap().lines().count(), 4);
    }
}
