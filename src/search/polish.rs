//! Re-searching segments of a Tencent line with a wider beam.
//!
//! A Tencent state is the board alone, so two lines that reach the same board after the same
//! piece have the same future. A segment of a line (pieces `s..s + len`) can therefore be
//! replaced by any other way of placing those pieces from the same board to the same board:
//! the rest of the line replays unchanged and the total changes by exactly the difference of
//! the segment's points. The beam searched from the segment's first board with a width the
//! whole game could not afford often finds such a way with more points (clears made on a
//! fuller board, or four rows where the line made two and two).

use super::beam::{search_game, BeamGame, SearchEnd};
use super::tencent::{BeamConfig, TencentGame};
use crate::eval::tencent::Evaluator;
use crate::games::tencent::board::Board;
use crate::games::tencent::lock;
use crate::games::tencent::movegen::MoveSet;
use crate::games::{Piece, Pos};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// How to re-search a line's segments.
#[derive(Clone, Debug)]
pub struct PolishConfig {
    /// Boards kept per piece within a segment.
    pub beam: usize,
    /// Pieces per segment.
    pub segment: usize,
    /// Pieces between the starts of two segments (less than `segment`: they overlap).
    pub stride: usize,
    pub moves: MoveSet,
    pub evaluator: Evaluator,
}

/// What one segment's search did.
#[derive(Clone, Copy, Debug)]
pub struct SegmentReport {
    /// First piece of the segment (0-based).
    pub start: usize,
    /// Pieces in it.
    pub len: usize,
    /// The segment's points in the line before, and in the line it was replaced by (equal
    /// when nothing better reached the same board).
    pub before: u64,
    pub after: u64,
    /// The line's whole score after this segment.
    pub total: u64,
}

/// The segment game: the Tencent game from the segment's first board, whose last piece must
/// leave the line's own board there; the line kept is the best-scoring one that does.
struct SegmentGame<'a> {
    inner: TencentGame<'a>,
    target: Board,
}

impl BeamGame for SegmentGame<'_> {
    type State = Board;
    type Move = Pos;
    type Scratch = Vec<Pos>;
    const WHOLE_GAME: bool = true;

    fn start(&self) -> Board {
        self.inner.start()
    }

    fn steps(&self) -> usize {
        self.inner.steps()
    }

    #[inline]
    fn expand(
        &self,
        k: usize,
        board: &Board,
        score: u32,
        scratch: &mut Vec<Pos>,
        emit: &mut impl FnMut(Pos, Board, u32, f64),
    ) {
        if k + 1 < self.steps() {
            self.inner.expand(k, board, score, scratch, emit);
        } else {
            self.inner
                .expand(k, board, score, scratch, &mut |mv, child, score, _rank| {
                    if child == self.target {
                        emit(mv, child, score, -(score as f64));
                    }
                });
        }
    }
}

/// A line's boards and points, piece by piece.
struct Walk {
    /// `boards[i]`: the board before piece `i` (one more than the pieces: the last is the
    /// board the line leaves).
    boards: Vec<Board>,
    /// Points of each piece.
    gains: Vec<u32>,
}

impl Walk {
    fn new(start: &Board, pieces: &[Piece], positions: &[Pos]) -> Walk {
        let mut walk = Walk {
            boards: vec![*start; positions.len() + 1],
            gains: vec![0; positions.len()],
        };
        walk.relock(pieces, positions, 0..positions.len());
        walk
    }

    /// Locks `positions[range]` again from the board before the range's first piece,
    /// rewriting the boards and points of those pieces.
    fn relock(&mut self, pieces: &[Piece], positions: &[Pos], range: std::ops::Range<usize>) {
        for k in range {
            let l = lock(&self.boards[k], pieces[k].shape, positions[k]);
            self.gains[k] = l.gain();
            self.boards[k + 1] = l.board;
        }
    }

    fn points(&self, from: usize, to: usize) -> u64 {
        self.gains[from..to].iter().map(|&g| g as u64).sum()
    }

    fn total(&self) -> u64 {
        self.points(0, self.gains.len())
    }
}

/// The best way the beam finds to place `pieces[s..s + len]` from the line's board before `s`
/// to its board after `s + len - 1`, with its points; `None` when it finds none (the line's
/// own way may have fallen out of the beam) or `stop` was set.
fn research(
    pieces: &[Piece],
    walk: &Walk,
    s: usize,
    len: usize,
    cfg: &PolishConfig,
    stop: &AtomicBool,
) -> Option<(u64, Vec<Pos>)> {
    let beam_cfg = BeamConfig {
        beam: cfg.beam,
        moves: cfg.moves,
        evaluator: cfg.evaluator.clone(),
        start: walk.boards[s],
    };
    let game = SegmentGame {
        inner: TencentGame::segment(pieces, s, len, &beam_cfg),
        target: walk.boards[s + len],
    };
    let line = search_game(&game, cfg.beam, stop, |_| {});
    (line.end == SearchEnd::Finished && line.moves.len() == len)
        .then_some((line.score as u64, line.moves))
}

/// The segment starts of a pass over a line of `n` pieces, segments of `len` (at most `n`):
/// every `stride`, the last one ending at the line's end.
pub fn segment_starts(n: usize, len: usize, stride: usize) -> Vec<usize> {
    let mut starts: Vec<usize> = (0..n.saturating_sub(len) + 1)
        .step_by(stride.max(1))
        .collect();
    if starts.last() != Some(&(n - len)) {
        starts.push(n - len);
    }
    starts
}

/// What [`polish`] did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PolishOutcome {
    /// Points gained (the line's score rose by exactly this).
    pub gained: u64,
    /// Segments searched to the end, and of them those replaced.
    pub searched: usize,
    pub replaced: usize,
    /// Passes begun.
    pub passes: usize,
    /// Whether the last pass finished (every segment tried) rather than a deadline or a stop
    /// cutting it.
    pub finished: bool,
}

/// Re-searches the segments of `positions` (the line from `start` over `pieces`, the game's
/// whole sequence), each `cfg.segment` pieces starting every `cfg.stride`, and replaces a
/// segment whenever the search reaches the same board with more points. Makes up to `passes`
/// passes, ending early after a pass that replaced nothing; stops between segments at
/// `deadline` or when `stop` is set. The line in `positions` keeps its length and its last
/// board, and its score rises by the outcome's `gained`.
#[allow(clippy::too_many_arguments)]
pub fn polish(
    pieces: &[Piece],
    start: &Board,
    positions: &mut [Pos],
    cfg: &PolishConfig,
    passes: usize,
    deadline: Option<Instant>,
    stop: &AtomicBool,
    mut report: impl FnMut(&SegmentReport),
) -> PolishOutcome {
    let mut walk = Walk::new(start, pieces, positions);
    let before_all = walk.total();
    let n = positions.len();
    let len = cfg.segment.min(n);
    let mut out = PolishOutcome::default();
    if len == 0 {
        out.finished = true;
        return out;
    }
    let out_of_time = || {
        stop.load(std::sync::atomic::Ordering::Relaxed)
            || deadline.is_some_and(|d| Instant::now() >= d)
    };
    'passes: for _ in 0..passes {
        let starts = segment_starts(n, len, cfg.stride);
        out.passes += 1;
        out.finished = false;
        let replaced_before = out.replaced;
        for s in starts {
            if out_of_time() {
                break 'passes;
            }
            let before = walk.points(s, s + len);
            let mut after = before;
            let found = research(pieces, &walk, s, len, cfg, stop);
            if found.is_none() && stop.load(std::sync::atomic::Ordering::Relaxed) {
                // Cut by the stop flag inside the search: not a finished try.
                break 'passes;
            }
            out.searched += 1;
            if let Some((points, moves)) = found {
                if points > before {
                    positions[s..s + len].copy_from_slice(&moves);
                    let end = walk.boards[s + len];
                    walk.relock(pieces, positions, s..s + len);
                    debug_assert_eq!(end, walk.boards[s + len]);
                    after = points;
                    out.replaced += 1;
                }
            }
            report(&SegmentReport {
                start: s,
                len,
                before,
                after,
                total: walk.total(),
            });
        }
        out.finished = true;
        if out.replaced == replaced_before {
            break;
        }
    }
    out.gained = walk.total() - before_all;
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::tencent::Weights;
    use crate::games::tencent::replay;
    use crate::search::tencent::{rebuild_record, search};
    use crate::seed::Seed;

    #[test]
    fn segment_starts_cover_the_line_to_its_end() {
        assert_eq!(segment_starts(10, 4, 2), vec![0, 2, 4, 6]);
        assert_eq!(segment_starts(11, 4, 3), vec![0, 3, 6, 7]);
        assert_eq!(segment_starts(4, 4, 2), vec![0]);
    }

    /// The polish of the tests: segments of 40 every 20 at beam 200.
    fn wider() -> PolishConfig {
        PolishConfig {
            beam: 200,
            segment: 40,
            stride: 20,
            moves: MoveSet::Reach,
            evaluator: Evaluator::new(Weights::kept("tuned-b3000").unwrap()),
        }
    }

    /// A narrow line of 400 pieces, polished with a wider beam on two thread counts.
    fn polished(threads: usize) -> (u64, Vec<Pos>, Vec<Pos>, PolishOutcome) {
        let pieces = Seed::tencent_geek_4().pieces();
        let narrow = BeamConfig {
            beam: 40,
            moves: MoveSet::Reach,
            evaluator: wider().evaluator,
            start: Board::EMPTY,
        };
        let stop = AtomicBool::new(false);
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| {
            let line = search(&pieces, Some(400), &narrow, &stop, |_| {});
            let mut positions = line.positions.clone();
            let outcome = polish(
                &pieces,
                &Board::EMPTY,
                &mut positions,
                &wider(),
                2,
                None,
                &stop,
                |_| {},
            );
            (line.score as u64, line.positions, positions, outcome)
        })
    }

    #[test]
    fn a_polished_line_ends_on_the_same_board_and_replays_to_its_gain() {
        let pieces = Seed::tencent_geek_4().pieces();
        let (score, before, after, outcome) = polished(2);
        assert!(outcome.gained > 0 && outcome.replaced > 0, "{outcome:?}");
        assert!(outcome.finished);
        assert_eq!(after.len(), before.len());
        assert_ne!(after, before);
        let end = |line: &[Pos]| Walk::new(&Board::EMPTY, &pieces, line).boards[line.len()];
        assert_eq!(end(&after), end(&before));
        let record = rebuild_record(&Board::EMPTY, &pieces, &after, MoveSet::Reach);
        let replayed = replay::replay(&record, &pieces);
        assert_eq!(replayed.score, score + outcome.gained);
        assert_eq!(replayed.pieces, after.len());
    }

    #[test]
    fn polish_does_not_depend_on_the_thread_count() {
        let (_, _, one, a) = polished(1);
        let (_, _, two, b) = polished(2);
        assert_eq!(one, two);
        assert_eq!(a, b);
    }

    #[test]
    fn a_stop_before_the_first_segment_changes_nothing() {
        let pieces = Seed::tencent_geek_4().pieces();
        let (_, before, _, _) = polished(1);
        let mut positions = before.clone();
        let outcome = polish(
            &pieces,
            &Board::EMPTY,
            &mut positions,
            &wider(),
            1,
            None,
            &AtomicBool::new(true),
            |_| {},
        );
        assert_eq!(positions, before);
        assert_eq!(
            (outcome.gained, outcome.searched, outcome.finished),
            (0, 0, false)
        );
    }
}
