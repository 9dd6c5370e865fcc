//! The beam on the Tencent game: a state is the board alone; the children of a board are the
//! placements of the next piece (drop or unit-move reach), ranked by the Tencent evaluator.

use super::beam::{search_game_observed, BeamGame, Observer, SearchEnd, StepReport};
use super::width::{Width, WidthStats};
use crate::eval::tencent::{Evaluator, Move};
use crate::games::tencent;
use crate::games::tencent::board::{Board, HEIGHT};
use crate::games::tencent::movegen::{self, MoveSet};
use crate::games::{Piece, Pos};
use crate::record::{Op, Record};
use std::sync::atomic::AtomicBool;

/// What to search on the Tencent game.
#[derive(Clone, Debug)]
pub struct BeamConfig {
    /// Boards kept per piece.
    pub beam: usize,
    pub moves: MoveSet,
    pub evaluator: Evaluator,
    /// The board before the first piece (empty unless the game starts from a given one).
    pub start: Board,
}

/// The outcome of a Tencent search.
#[derive(Clone, Debug)]
pub struct BeamResult {
    /// The best score the search found (the record replays to it).
    pub score: u32,
    /// Where each piece of the best line went.
    pub positions: Vec<Pos>,
    /// The op record of the best line.
    pub record: Record,
    /// True when every piece asked for was searched (neither stopped nor emptied).
    pub complete: bool,
    /// How the search ended.
    pub end: SearchEnd,
    /// Pieces the beam placed (the record may be shorter: it ends at the best line's last
    /// scoring lock).
    pub placed: usize,
    /// The widths the beam kept.
    pub widths: WidthStats,
}

/// For each piece index k, how many pieces from k + 1 on the next I piece is (1: piece k + 1
/// is an I), 0 when no I follows.
pub fn upcoming_i(pieces: &[Piece]) -> Vec<u32> {
    let mut out = vec![0u32; pieces.len()];
    let mut next: Option<usize> = None;
    for k in (0..pieces.len()).rev() {
        out[k] = next.map_or(0, |i| (i - k) as u32);
        if pieces[k].shape == crate::piece::Shape::I {
            next = Some(k);
        }
    }
    out
}

/// Lines cleared x the piece's own cells in them, and the landing height.
fn move_features(board: &Board, piece: Piece, pos: Pos, lines: u32) -> Move {
    let cells = piece.shape.cells(pos.state);
    let (mut lo, mut hi) = (i8::MAX, i8::MIN);
    for (_, dy) in cells {
        lo = lo.min(pos.y + dy);
        hi = hi.max(pos.y + dy);
    }
    let eroded = if lines == 0 {
        0
    } else {
        let mut placed = *board;
        for (dx, dy) in cells {
            if pos.y + dy >= 0 {
                placed.fill((pos.x + dx) as usize, (pos.y + dy) as usize);
            }
        }
        let full = placed.full_rows();
        let own = cells
            .iter()
            .filter(|&&(_, dy)| pos.y + dy >= 0 && full >> (pos.y + dy) & 1 == 1)
            .count() as u32;
        own * lines
    };
    Move {
        landing_height: HEIGHT as f64 - (lo as f64 + hi as f64) / 2.0,
        lines,
        eroded_cells: eroded,
        upcoming_i: 0,
    }
}

/// The Tencent game as the beam sees it: the board is the whole state; the last piece of the
/// sequence never scores, so it is not placed.
pub(crate) struct TencentGame<'a> {
    pieces: &'a [Piece],
    /// `upcoming_i[k]`: pieces from piece k + 1 to the next I (0: none), when the rank
    /// reads it.
    upcoming_i: Vec<u32>,
    /// `cells_offsets[k]`: what the weights' `i_ahead` adds to the cells weight at step k
    /// (empty without it).
    cells_offsets: Vec<f64>,
    total: usize,
    /// Steps from the first to the game's end (the last piece that scores): what the
    /// evaluator's fade counts down to. A solve's is its own end; a polished segment's is the
    /// game's.
    end: usize,
    cfg: &'a BeamConfig,
}

impl BeamGame for TencentGame<'_> {
    type State = Board;
    type Move = Pos;
    type Scratch = Vec<Pos>;

    fn start(&self) -> Board {
        self.cfg.start
    }

    fn steps(&self) -> usize {
        self.total
    }

    #[inline]
    fn expand(
        &self,
        k: usize,
        board: &Board,
        score: u32,
        placements: &mut Vec<Pos>,
        emit: &mut impl FnMut(Pos, Board, u32, f64),
    ) {
        let piece = self.pieces[k];
        let next = self.pieces.get(k + 1).copied();
        let cfg = self.cfg;
        placements.clear();
        movegen::placements(board, piece, cfg.moves, placements);
        let uses_move = cfg.evaluator.uses_move();
        let left = self.end.saturating_sub(k);
        for &pos in placements.iter() {
            let lock = tencent::lock(board, piece.shape, pos);
            if lock.top_out || !cfg.evaluator.weights.clear_allowed(lock.lines, lock.cells) {
                continue;
            }
            if let Some(np) = next {
                if tencent::spawn_blocked(&lock.board, np) {
                    continue;
                }
            }
            let score = score + lock.gain();
            let mut mv = if uses_move {
                move_features(board, piece, pos, lock.lines)
            } else {
                Move::default()
            };
            mv.upcoming_i = self.upcoming_i.get(k).copied().unwrap_or(0);
            let mut rank = cfg.evaluator.rank(&lock.board, &mv, score);
            if let Some(offset) = self.cells_offsets.get(k) {
                rank += offset * lock.board.cells() as f64;
            }
            let rank = cfg.evaluator.faded(rank, score, left);
            emit(pos, lock.board, score, rank);
        }
    }
}

impl<'a> TencentGame<'a> {
    /// The game of `pieces` (from the piece the search places first to the end of the
    /// sequence, so the spawn check of the piece after the last one placed still applies),
    /// `total` pieces placed; the game ends with the search.
    pub(crate) fn new(pieces: &'a [Piece], total: usize, cfg: &'a BeamConfig) -> TencentGame<'a> {
        TencentGame::starting_at(pieces, 0, total, total, cfg)
    }

    /// The search of `len` pieces from piece `first` of the game's whole sequence `pieces`,
    /// in a game that ends with the sequence's last scoring piece: a segment a polish
    /// re-searches, where the fade and the I pieces ahead are the whole game's.
    pub(crate) fn segment(
        pieces: &'a [Piece],
        first: usize,
        len: usize,
        cfg: &'a BeamConfig,
    ) -> TencentGame<'a> {
        let end = pieces.len().saturating_sub(1) - first;
        TencentGame::starting_at(pieces, first, len, end, cfg)
    }

    /// `len` steps from piece `first` of `pieces`, the game ending `end` steps from `first`.
    fn starting_at(
        pieces: &'a [Piece],
        first: usize,
        len: usize,
        end: usize,
        cfg: &'a BeamConfig,
    ) -> TencentGame<'a> {
        let tail = &pieces[first..];
        let upcoming_i = if cfg.evaluator.uses_upcoming() {
            upcoming_i(tail)
        } else {
            Vec::new()
        };
        // The I pieces ahead are counted in the game: the pieces placed and the one after
        // the last (its spawn is checked), not those past a `--pieces` limit.
        let game = &pieces[..(first + end + 1).min(pieces.len())];
        let cells_offsets = match &cfg.evaluator.weights.i_ahead {
            Some(ia) => ia.cells_offsets(game).split_off(first),
            None => Vec::new(),
        };
        TencentGame {
            pieces: tail,
            upcoming_i,
            cells_offsets,
            total: len,
            end,
            cfg,
        }
    }
}

/// Searches `pieces` (the game's whole sequence). Places every piece but the last, which
/// never scores, or `limit` pieces when given. Stops early, with the best line so far, when
/// `stop` is set.
pub fn search(
    pieces: &[Piece],
    limit: Option<usize>,
    cfg: &BeamConfig,
    stop: &AtomicBool,
    report: impl FnMut(&StepReport),
) -> BeamResult {
    search_observed(pieces, limit, cfg, stop, report, None)
}

/// [`search`], calling `observe` after every step with the boards kept and their scores.
pub fn search_observed(
    pieces: &[Piece],
    limit: Option<usize>,
    cfg: &BeamConfig,
    stop: &AtomicBool,
    report: impl FnMut(&StepReport),
    observe: Option<Observer<'_, Board>>,
) -> BeamResult {
    search_within(pieces, limit, cfg, cfg.beam.into(), stop, report, observe)
}

/// [`search_observed`] with the beam's width set by `width` rather than `cfg.beam`: a
/// deadline's (`solve --time`).
pub fn search_within(
    pieces: &[Piece],
    limit: Option<usize>,
    cfg: &BeamConfig,
    width: Width,
    stop: &AtomicBool,
    report: impl FnMut(&StepReport),
    observe: Option<Observer<'_, Board>>,
) -> BeamResult {
    let total = limit
        .unwrap_or(usize::MAX)
        .min(pieces.len().saturating_sub(1));
    let game = TencentGame::new(pieces, total, cfg);
    let line = search_game_observed(&game, width, stop, report, observe);
    let record = rebuild_record(&cfg.start, pieces, &line.moves, cfg.moves);
    BeamResult {
        score: line.score,
        positions: line.moves,
        record,
        complete: line.end == SearchEnd::Finished,
        end: line.end,
        placed: line.placed,
        widths: line.widths,
    }
}

/// The op record that places each piece at its position, path by path, from `start`.
pub fn rebuild_record(
    start: &Board,
    pieces: &[Piece],
    positions: &[Pos],
    moves: MoveSet,
) -> Record {
    let mut board = *start;
    let mut paths: Vec<Vec<Op>> = Vec::with_capacity(positions.len());
    for (k, &pos) in positions.iter().enumerate() {
        let piece = pieces[k];
        let ops =
            movegen::path(&board, piece, pos, moves).expect("every kept placement has a path");
        paths.push(ops);
        board = tencent::lock(&board, piece.shape, pos).board;
    }
    Record::from_paths(paths.iter().map(|p| p.as_slice()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn upcoming_i_counts_to_the_next_i() {
        let pieces: Vec<Piece> = "TIOOISZ"
            .chars()
            .map(|c| Piece {
                shape: crate::piece::Shape::from_letter(c).unwrap(),
                state: 0,
            })
            .collect();
        assert_eq!(upcoming_i(&pieces), vec![1, 3, 2, 1, 0, 0, 0]);
    }
    use crate::eval::tencent::Weights;
    use crate::game_def::GameDef;
    use crate::games::tencent::replay;

    fn run(beam: usize, moves: MoveSet, pieces_limit: usize, threads: usize) -> BeamResult {
        let pieces = GameDef::tencent_geek_4().pieces();
        let cfg = BeamConfig {
            beam,
            moves,
            evaluator: Evaluator::new(Weights::kept("default").unwrap()),
            start: Board::EMPTY,
        };
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| {
            search(
                &pieces,
                Some(pieces_limit),
                &cfg,
                &AtomicBool::new(false),
                |_| {},
            )
        })
    }

    #[test]
    fn records_replay_to_the_search_score() {
        let pieces = GameDef::tencent_geek_4().pieces();
        for moves in [MoveSet::Drop, MoveSet::Reach] {
            let r = run(50, moves, 400, 2);
            assert!(r.complete);
            // the record ends with the best line's last scoring lock
            assert!((380..=400).contains(&r.positions.len()));
            let outcome = replay::replay(&Record::parse(&r.record.to_string()).unwrap(), &pieces);
            assert_eq!(outcome.score, r.score as u64, "{moves:?}");
            assert_eq!(outcome.pieces, r.positions.len());
            assert!(r.score > 5000, "{moves:?}: {}", r.score);
        }
    }

    /// A small reach-move beam from the empty board, for the tests that change one weight.
    fn reach_beam_40(weights: Weights) -> BeamConfig {
        BeamConfig {
            beam: 40,
            moves: MoveSet::Reach,
            evaluator: Evaluator::new(weights),
            start: Board::EMPTY,
        }
    }

    #[test]
    fn i_ahead_moves_the_cells_weight_by_the_i_pieces_ahead() {
        use crate::eval::tencent::IAhead;
        let pieces = GameDef::tencent_geek_4().pieces();
        let cfg_of = |i_ahead: Option<IAhead>| {
            let mut weights = Weights::kept("tuned-b6000").unwrap();
            weights.i_ahead = i_ahead;
            reach_beam_40(weights)
        };
        let ia = IAhead {
            window: 10,
            cells: -0.4,
        };
        // At a step, every child's rank is the rank with the cells weight moved by the
        // step's offset.
        let cfg = cfg_of(Some(ia));
        let offsets = ia.cells_offsets(&pieces);
        for first in [0, 123] {
            let game = TencentGame::segment(&pieces, first, 50, &cfg);
            assert_eq!(game.cells_offsets, offsets[first..]);
            let board = Board::from_text(&("..........\n".repeat(18) + "##.#####..\n#.########\n"))
                .unwrap();
            let mut moved = cfg.evaluator.weights.clone();
            *moved.features.get_mut("cells").unwrap() += offsets[first];
            let moved = Evaluator::new(moved);
            let mut children = 0;
            game.expand(
                0,
                &board,
                0,
                &mut Vec::new(),
                &mut |_, child: Board, score, rank| {
                    let want = moved.rank(&child, &Move::default(), score);
                    assert!((rank - want).abs() < 1e-9, "{rank} {want}");
                    children += 1;
                },
            );
            assert!(children > 5);
        }
        // A weight of 0 changes nothing; -0.4 changes the line, which replays to its score.
        let plain = search(
            &pieces,
            Some(300),
            &cfg_of(None),
            &AtomicBool::new(false),
            |_| {},
        );
        let zero = IAhead {
            window: 10,
            cells: 0.0,
        };
        let same = search(
            &pieces,
            Some(300),
            &cfg_of(Some(zero)),
            &AtomicBool::new(false),
            |_| {},
        );
        assert_eq!(same.record, plain.record);
        let moved = search(&pieces, Some(300), &cfg, &AtomicBool::new(false), |_| {});
        assert_ne!(moved.record, plain.record);
        let outcome = replay::replay(&Record::parse(&moved.record.to_string()).unwrap(), &pieces);
        assert_eq!(outcome.score, moved.score as u64);
    }

    #[test]
    fn the_fade_changes_only_the_last_pieces_and_the_record_replays() {
        let pieces = GameDef::tencent_geek_4().pieces();
        // The search with weights fading over the last `fade` of 300 pieces: its result and
        // the boards it kept at each step.
        let with_fade = |fade: Option<u32>| {
            let mut weights = Weights::kept("tuned-b3000").unwrap();
            weights.fade_pieces = fade;
            let cfg = reach_beam_40(weights);
            let mut kept: Vec<Vec<Board>> = Vec::new();
            let mut observe = |_: usize, states: &[crate::search::beam::Kept<Board>]| {
                kept.push(states.iter().map(|s| s.state).collect());
            };
            let result = search_observed(
                &pieces,
                Some(300),
                &cfg,
                &AtomicBool::new(false),
                |_| {},
                Some(&mut observe),
            );
            (result, kept)
        };
        let (plain, plain_kept) = with_fade(None);
        // A fade of one piece weighs the last step fully: nothing changes.
        assert_eq!(with_fade(Some(1)).0.record, plain.record);
        for fade in [5, 30] {
            let (faded, kept) = with_fade(Some(fade));
            let outcome =
                replay::replay(&Record::parse(&faded.record.to_string()).unwrap(), &pieces);
            assert_eq!(outcome.score, faded.score as u64, "fade {fade}");
            // The beam is the same up to the fade's first step, and not after it.
            let first = 300 - fade as usize + 1;
            assert_eq!(kept[..first], plain_kept[..first], "fade {fade}");
            assert_ne!(kept[first..], plain_kept[first..], "fade {fade}");
        }
    }

    #[test]
    fn same_record_with_one_and_two_threads() {
        for moves in [MoveSet::Drop, MoveSet::Reach] {
            let a = run(64, moves, 300, 1);
            let b = run(64, moves, 300, 2);
            assert_eq!(a.record, b.record, "{moves:?}");
            assert_eq!(a.score, b.score);
        }
    }
}
