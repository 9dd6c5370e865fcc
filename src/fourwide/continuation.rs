//! The 4-wide solver's transitions run over a known piece sequence: how long a combo a
//! section can still make from any point of the game, exactly (in the model), and what that
//! run earns. This is the sub-strategy the offline beam uses in combo sections.
//!
//! The beam alone is myopic: a tall 4-wide stack looks dangerous to its board features, and
//! the combo it pays for lies many pieces ahead. With the queue known, the longest run from
//! (piece index, field, hold) is a longest path in a DAG, solved once per game backwards over
//! the piece index; a section's value is then a table lookup. A state in a section is ranked
//! as the board the run leaves (its consumed side rows gone) plus what the run earns, so the
//! rank stays the same along the run as the beam plays it.

use super::field::{Field, Piece};
use super::section::{self, Section};
use super::srs::Placements;
use super::transitions::{seed, Transitions};
use crate::games::guideline::board::{Board, COLUMN_BITS, HEIGHT};
use crate::games::guideline::score::{score, ComboTable, Objective, Spin};
use crate::games::guideline::State;
use crate::piece::Shape;
use std::sync::Arc;

/// Hold slots: the seven pieces and the empty slot.
const HOLDS: usize = 8;
const EMPTY_HOLD: usize = 7;

/// The 4-wide solver's transitions from the 3- and 6-cell seeds: built once, shared by every
/// queue a continuation is solved over (online play solves one per decision).
pub struct Tables {
    three: Transitions,
    six: Transitions,
}

/// The longest runs of one game, and what a run of singles earns.
pub struct Continuation {
    tables: Arc<Tables>,
    /// `longest[(q * fields + f) * 8 + h]`: the most clearing pieces in a row from the piece
    /// at sequence index `q`, field `f` (3-residual fields first, then 6) and hold `h`.
    longest: Vec<u16>,
    pieces: usize,
    /// Online play: a run the known pieces carry to their end goes on past them by this many
    /// clears (by global field index; empty offline, where the known pieces are the game).
    extension: Arc<[u16]>,
    /// Pieces the game has past the known ones (0 offline).
    beyond: usize,
    /// `earned[c + 1]`: the objective gain of the singles with combo counters 0..c (so
    /// `earned[0] = 0`), for a combo run's value by difference.
    earned: Arc<[u64]>,
}

/// A section's continuation from one state.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ahead {
    pub section: Section,
    /// Clearing pieces the run makes.
    pub clears: usize,
    /// What those clears earn under the game's objective.
    pub gain: u64,
    /// The state the run leaves, as far as it can be told: the consumed side rows gone, the
    /// combo over, the back-to-back chain broken by the singles.
    pub after: State,
}

pub fn piece_of(shape: Shape) -> Piece {
    match shape {
        Shape::I => Piece::I,
        Shape::L => Piece::L,
        Shape::J => Piece::J,
        Shape::T => Piece::T,
        Shape::O => Piece::O,
        Shape::S => Piece::S,
        Shape::Z => Piece::Z,
    }
}

fn hold_slot(hold: Option<Shape>) -> usize {
    hold.map_or(EMPTY_HOLD, |s| piece_of(s) as usize)
}

impl Continuation {
    /// [`Self::build`] for a search that makes at most `locks` locks: over the pieces those
    /// locks can reach and a run after them can use, not the whole game. A run is valued at
    /// most at the side rows its section holds (at most [`HEIGHT`]), and such a run from any
    /// piece the search reaches (index `locks + 1` at most, with a held piece) uses at most
    /// one piece more than its clears, so the cut changes no value the search reads: a long
    /// game searched for a few pieces no longer takes memory for every piece of it (the table
    /// holds some 4 300 entries a piece).
    pub fn for_locks(
        pieces: &[Shape],
        locks: usize,
        table: ComboTable,
        objective: Objective,
    ) -> Continuation {
        let reach = locks.saturating_add(2 + HEIGHT + 1).min(pieces.len());
        Continuation::build(&pieces[..reach], table, objective)
    }

    /// Solves the longest runs over `pieces` (the game's whole known sequence) and tabulates
    /// what runs earn under `table` and `objective`.
    pub fn build(pieces: &[Shape], table: ComboTable, objective: Objective) -> Continuation {
        let tables = Tables {
            three: Transitions::build(seed(3).expect("3 is a residual count"), Placements::Srs),
            six: Transitions::build(seed(6).expect("6 is a residual count"), Placements::Srs),
        };
        let tables = Arc::new(tables);
        Continuation {
            longest: Self::longest_runs(&tables, pieces),
            tables,
            pieces: pieces.len(),
            extension: Arc::from([]),
            beyond: 0,
            earned: earned(pieces.len(), table, objective).into(),
        }
    }

    /// The same continuation over another queue, a window of the game with `beyond` more
    /// pieces after it: only the longest runs are solved again; the transitions, the
    /// extension and what runs earn are this one's (made once a game by [`Self::open_ended`]).
    pub fn over(&self, pieces: &[Shape], beyond: usize) -> Continuation {
        Continuation {
            tables: self.tables.clone(),
            longest: Self::longest_runs(&self.tables, pieces),
            pieces: pieces.len(),
            extension: self.extension.clone(),
            beyond,
            earned: self.earned.clone(),
        }
    }
    /// The longest runs over `pieces`: a longest path in the DAG of (piece index, field, hold),
    /// solved backwards over the piece index.
    fn longest_runs(tables: &Tables, pieces: &[Shape]) -> Vec<u16> {
        let (three, six) = (&tables.three, &tables.six);
        let fields = three.len() + six.len();
        let n = pieces.len();
        let seq: Vec<Piece> = pieces.iter().map(|&s| piece_of(s)).collect();
        let mut longest = vec![0u16; (n + 2) * fields * HOLDS];
        let at = |q: usize, f: usize, h: usize| (q * fields + f) * HOLDS + h;
        // successors of global field f for piece p, and the offset that makes them global
        let next = |f: usize, p: Piece| -> (&[u32], usize) {
            match f.checked_sub(three.len()) {
                None => (&three.next[f][p as usize], 0),
                Some(f6) => (&six.next[f6][p as usize], three.len()),
            }
        };
        for q in (0..n).rev() {
            let current = seq[q];
            for f in 0..fields {
                for h in 0..HOLDS {
                    let mut options = [None; 2];
                    options[0] = Some((current, q + 1, h));
                    if h == EMPTY_HOLD {
                        if q + 1 < n {
                            options[1] = Some((seq[q + 1], q + 2, current as usize));
                        }
                    } else if h != current as usize {
                        options[1] = Some((Piece::from_index(h), q + 1, current as usize));
                    }
                    let mut best = 0u16;
                    for (p, q2, h2) in options.into_iter().flatten() {
                        let (succ, off) = next(f, p);
                        for &g in succ {
                            best = best.max(1 + longest[at(q2, g as usize + off, h2)]);
                        }
                    }
                    longest[at(q, f, h)] = best;
                }
            }
        }
        longest
    }

    /// For online play, where the known pieces are windows of a game of `game_length` pieces
    /// (each solved by [`Self::over`]): a run that lasts to a window's end goes on by
    /// `expected(field)` clears (the 4-wide policy's expected combo from the run's field,
    /// averaged over hold and queue), at most the pieces past the window. With hold, a 7-bag
    /// and five previews the policy keeps a combo going for hundreds of pieces
    /// (results/fourwide/fourwide.json), so a section's value is then its side rows, as it is offline
    /// where the whole queue is known.
    pub fn open_ended(
        mut self,
        expected: impl Fn(Field) -> f64,
        game_length: usize,
        table: ComboTable,
        objective: Objective,
    ) -> Continuation {
        let t = &*self.tables;
        self.extension = t
            .three
            .fields
            .iter()
            .chain(&t.six.fields)
            .map(|&f| expected(f).clamp(0.0, u16::MAX as f64) as u16)
            .collect();
        // A state's combo counter counts locks before the window, so runs from it reach counters
        // up to the game's length; twice that leaves room for hand-made states.
        self.earned = earned(2 * game_length.max(self.pieces), table, objective).into();
        self
    }

    /// The most clearing pieces in a row from index `q` of the known pieces, with the
    /// extension past their end where the run reaches it (online).
    fn run(&self, q: usize, field: Field, hold: Option<Shape>) -> usize {
        let known = self.longest(q, field, hold);
        // An empty hold slot lets a run use one piece more than its clears.
        let reaches_end = q + known + hold.is_none() as usize >= self.pieces;
        match self.field_index(field) {
            Some(f) if reaches_end && !self.extension.is_empty() => {
                known + self.extension[f] as usize
            }
            _ => known,
        }
    }

    /// Whether a solve from the 3- or 6-cell seed reaches `field`.
    pub fn knows(&self, field: Field) -> bool {
        self.field_index(field).is_some()
    }

    /// The global index of a residual field, if a solve from either seed reaches it.
    fn field_index(&self, field: Field) -> Option<usize> {
        let t = &*self.tables;
        match field.cells() {
            3 => t.three.index(field),
            6 => t.six.index(field).map(|i| i + t.three.len()),
            _ => None,
        }
    }

    /// The most clearing pieces in a row from sequence index `q` with `field` and `hold`
    /// (0 for an unknown field or past the sequence's end).
    pub fn longest(&self, q: usize, field: Field, hold: Option<Shape>) -> usize {
        match self.field_index(field) {
            Some(f) if q < self.pieces => {
                let fields = self.tables.three.len() + self.tables.six.len();
                self.longest[(q * fields + f) * HOLDS + hold_slot(hold)] as usize
            }
            _ => 0,
        }
    }

    /// The section of `state`'s board and the run it can make when the next piece is the
    /// one at sequence index `q` and at most `remaining` pieces are left to place.
    pub fn ahead(&self, state: &State, q: usize, remaining: usize) -> Option<Ahead> {
        let section = section::find(&state.board, |f| self.field_index(f).is_some())?;
        let clears = self
            .run(q, section.field, state.hold)
            .min(section.clears_available())
            .min(remaining + self.beyond);
        let first = (state.combo + 1).max(0) as usize;
        let gain = self.earned[first + clears] - self.earned[first];
        let mut after = *state;
        if clears > 0 {
            after.board = lower_sides(&state.board, &section, clears);
            after.combo = -1;
            after.b2b = false;
        }
        Some(Ahead {
            section,
            clears,
            gain,
            after,
        })
    }
}

/// `earned[c + 1]`: the objective gain of singles with combo counters 0..c, for runs in a
/// game of `n` pieces (combo counters up to n + 1).
fn earned(n: usize, table: ComboTable, objective: Objective) -> Vec<u64> {
    let mut earned = vec![0u64; n + 3];
    for c in 0..=n + 1 {
        let e = score(1, Spin::None, false, c as i32 - 1, false, table);
        let gain = objective.gain(&e, 1);
        earned[c + 1] = earned[c] + gain as u64;
    }
    earned
}

/// The board a run of `clears` leaves, as far as it can be told now: each clear takes one
/// full side row, so the side columns lose rows `floor..floor + clears`; the well keeps a
/// residual of the same size on the floor (which one, the run decides: the current one stands
/// for it).
fn lower_sides(board: &Board, section: &Section, clears: usize) -> Board {
    let mut out = *board;
    let (from, count) = (section.floor, clears.min(HEIGHT - section.floor));
    // Bit 23 - y is row y: rows at or above `from + count` are the low bits.
    let keep_low = (1u32 << (HEIGHT - from - count)) - 1;
    let keep_high = COLUMN_BITS & !((1u32 << (HEIGHT - from)) - 1);
    for (x, c) in out.cols.iter_mut().enumerate() {
        if !(section.column..section.column + 4).contains(&x) {
            *c = (*c & keep_high) | ((*c & keep_low) << count);
        }
    }
    out
}

/// Combo runs of four or more clears that started on a 4-wide section, counted over a replay.
#[derive(Default)]
pub struct SectionCount {
    /// The running combo started on a section.
    in_section: bool,
    pub runs: usize,
    pub longest: usize,
}

impl SectionCount {
    /// Counts one lock of the replay.
    pub fn lock(
        &mut self,
        e: &crate::games::guideline::replay::LockEvent,
        continuation: &Continuation,
    ) {
        if e.rows == 0 {
            self.in_section = false;
            return;
        }
        if e.combo == 0 {
            self.in_section = section::find(&e.before.board, |f| continuation.knows(f)).is_some();
        }
        if self.in_section {
            let clears = e.combo as usize + 1;
            if clears == 4 {
                self.runs += 1;
            }
            if clears >= 4 {
                self.longest = self.longest.max(clears);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::guideline::board::Board;

    fn shapes(text: &str) -> Vec<Shape> {
        text.chars()
            .map(|c| Shape::from_letter(c).expect("a piece letter"))
            .collect()
    }

    /// The longest run by brute force over every choice sequence (small queues only).
    fn brute(seq: &[Piece], q: usize, f: Field, hold: Option<Piece>, rule: Placements) -> usize {
        if q >= seq.len() {
            return 0;
        }
        let mut options = vec![(seq[q], q + 1, hold)];
        match hold {
            None if q + 1 < seq.len() => options.push((seq[q + 1], q + 2, Some(seq[q]))),
            Some(h) if h != seq[q] => options.push((h, q + 1, Some(seq[q]))),
            _ => {}
        }
        options
            .into_iter()
            .flat_map(|(p, q2, h2)| {
                super::super::srs::placements(f, p, rule)
                    .into_iter()
                    .map(move |g| 1 + brute(seq, q2, g, h2, rule))
            })
            .max()
            .unwrap_or(0)
    }

    #[test]
    fn a_search_of_a_few_locks_reads_the_same_runs_from_the_cut_table() {
        // 42 bags: a run from the 4-wide residuals can go on for dozens of pieces
        let bag = "IJLOSTZ TLJSZOI SZTOJLI OIJTLSZ ZSOITJL LJITOZS";
        let seq = shapes(&bag.replace(' ', "").repeat(7));
        let whole = Continuation::build(&seq, ComboTable::Guideline, Objective::Attack);
        let fields = whole.tables.three.len() + whole.tables.six.len();
        for locks in [0, 5, 60, seq.len() - 30, seq.len()] {
            let cut =
                Continuation::for_locks(&seq, locks, ComboTable::Guideline, Objective::Attack);
            assert!(cut.pieces <= locks + 2 + HEIGHT + 1, "{locks}");
            for q in 0..=(locks + 1).min(seq.len() - 1) {
                for i in q * fields * HOLDS..(q + 1) * fields * HOLDS {
                    let capped = |c: &Continuation| (c.longest[i] as usize).min(HEIGHT);
                    assert_eq!(
                        capped(&cut),
                        capped(&whole),
                        "locks {locks} q {q} entry {i}"
                    );
                }
            }
            let combos = (locks + HEIGHT + 2).min(whole.earned.len());
            assert_eq!(cut.earned[..combos], whole.earned[..combos], "{locks}");
        }
        // the long runs are there to be cut: some run from the first pieces passes HEIGHT
        assert!(whole.longest[..fields * HOLDS]
            .iter()
            .any(|&r| r as usize > HEIGHT));
    }

    #[test]
    fn longest_runs_match_brute_force() {
        let text = "TLJSZOIISZTOJL";
        let seq = shapes(text);
        let c = Continuation::build(&seq, ComboTable::Guideline, Objective::Attack);
        let pieces: Vec<Piece> = seq.iter().map(|&s| piece_of(s)).collect();
        for field in ["XXX_", "X_XX", "_XXX", "XX__/X___"] {
            let f = Field::parse(field).unwrap();
            if c.field_index(f).is_none() {
                continue;
            }
            for q in [0, 3, 7] {
                for hold in [None, Some(Shape::I), Some(Shape::T)] {
                    let want = brute(&pieces, q, f, hold.map(piece_of), Placements::Srs);
                    assert_eq!(c.longest(q, f, hold), want, "{field} q {q} hold {hold:?}");
                }
            }
        }
    }

    #[test]
    fn a_run_earns_the_combo_table() {
        let seq = shapes(&"IOTLJSZ".repeat(4));
        let c = Continuation::build(&seq, ComboTable::Guideline, Objective::Attack);
        // singles with combo 0..4 earn 0 + 0 + 1 + 1 + 2 attack
        assert_eq!(c.earned[5] - c.earned[0], 4);
        // from a running combo of 2: counters 3, 4 earn 1 + 2
        assert_eq!(c.earned[5] - c.earned[3], 3);
        let p = Continuation::build(&seq, ComboTable::Guideline, Objective::Points);
        // 100 + 50 c for c = 0, 1, 2
        assert_eq!(p.earned[3], 100 + 150 + 200);
    }

    #[test]
    fn a_section_is_ranked_as_the_board_its_run_leaves() {
        let board = Board::from_rows(&[
            "XX.....XXX",
            "XXX....XXX",
            "XXX....XXX",
            "XXX....XXX",
            "XXXXXX.XXX",
        ])
        .unwrap();
        let seq = shapes(&"IOTLJSZ".repeat(4));
        let c = Continuation::build(&seq, ComboTable::Guideline, Objective::Attack);
        let state = State {
            board,
            hold: Some(Shape::T),
            ..State::START
        };
        let a = c.ahead(&state, 0, 100).unwrap();
        assert_eq!(a.section.field, Field::parse("XXX_").unwrap());
        assert_eq!(a.section.side_rows, 4);
        assert!(c.longest(0, a.section.field, Some(Shape::T)) >= 4);
        assert_eq!(a.clears, 4);
        // combo counters 0, 1, 2, 3: 0 + 0 + 1 + 1
        assert_eq!(a.gain, 2);
        // four side rows gone, the ragged one drops onto the residual's row
        let left = Board::from_rows(&["XX.XXX.XXX"]).unwrap();
        assert_eq!(a.after.board, left);
        assert_eq!(a.after.combo, -1);
        // the game ends after one more piece: one clear
        assert_eq!(c.ahead(&state, 0, 1).unwrap().clears, 1);
        // a running combo of 2 continues: counters 3..6 earn 1 + 2 + 2 + 3
        let running = State { combo: 2, ..state };
        assert_eq!(c.ahead(&running, 0, 100).unwrap().gain, 8);
    }

    #[test]
    fn lowering_the_sides_keeps_the_well() {
        let b = Board::from_rows(&["XX.......X", "XXX....XXX", "XXXXXX.XXX"]).unwrap();
        let s = section::find(&b, |_| true).unwrap();
        assert_eq!((s.column, s.floor, s.side_rows), (3, 0, 2));
        let want = Board::from_rows(&["XX.XXX...X"]).unwrap();
        assert_eq!(lower_sides(&b, &s, 2), want);
        assert_eq!(lower_sides(&b, &s, 0), b);
    }
}
