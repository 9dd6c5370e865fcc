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
use super::tencent::{rebuild_record, BeamConfig, TencentGame};
use crate::error::{Error, Result};
use crate::eval::tencent::{Evaluator, Weights};
use crate::game_def::GameDef;
use crate::games::tencent::board::Board;
use crate::games::tencent::lock;
use crate::games::tencent::movegen::MoveSet;
use crate::games::tencent::replay;
use crate::games::{Piece, Pos};
use crate::record::Record;
use serde::Serialize;
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

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

/// A Tencent record read to be polished: its game's pieces and starting board, its line (the
/// positions of the pieces it places, less a last one that scores nothing) and its replay.
pub struct RecordLine {
    pub pieces: Vec<Piece>,
    pub start: Board,
    pub positions: Vec<Pos>,
    /// The record's replay: its score is the score before the polish.
    pub before: replay::Outcome,
}

/// Replays `record` (read from `path`, which errors name) on the Tencent game `seed` and
/// returns its line; an error when the game ends before the record does (a record of another
/// game). A top-out lock and the game's last piece score nothing: the line stops before them,
/// as `solve` never places the last piece.
pub fn record_line(seed: &GameDef, record: &Record, path: &Path) -> Result<RecordLine> {
    let pieces = seed.pieces();
    let start = seed.tencent_start();
    let mut positions = Vec::new();
    let before = replay::replay_from(&start, record, &pieces, |step| positions.push(step.pos));
    if before.pieces < record.pieces() {
        return Err(Error::at(
            path.display(),
            format!(
                "the game ends at piece {} ({}) with {} of the record still to place: not \
                 a record of {}",
                before.pieces.saturating_sub(1),
                before.end_reason,
                crate::limits::plural((record.pieces() - before.pieces) as u64, "piece", "pieces"),
                seed.name
            ),
        ));
    }
    if before.end_reason == replay::EndReason::TopOut || positions.len() >= pieces.len() {
        positions.pop();
    }
    Ok(RecordLine {
        pieces,
        start,
        positions,
        before,
    })
}

/// What a polish of a record does, and where its improved record goes.
pub struct PolishSettings<'a> {
    /// Boards kept per piece within a segment.
    pub beam: usize,
    /// Pieces per segment, and between the starts of two segments.
    pub segment: usize,
    pub stride: usize,
    /// Passes over the record at most (a pass that replaces nothing ends the polish).
    pub passes: usize,
    /// Stop after this many seconds (checked between segments).
    pub seconds: Option<f64>,
    /// Placements the segments' searches consider.
    pub moves: MoveSet,
    /// The searches' evaluator weights, and the name they were asked for by.
    pub weights_name: String,
    pub weights: Weights,
    /// The record read (for the report and the start line), and its game.
    pub record_read: &'a Path,
    pub seed: &'a GameDef,
    /// Whether the report holds the game itself (a game the command's flags changed).
    pub report_game: bool,
    /// The rayon pool the searches run on.
    pub pool: &'a rayon::ThreadPool,
    /// Where the improved record goes.
    pub record_file: &'a Path,
}

/// The results file of a polish.
#[derive(Serialize)]
pub struct PolishReport {
    /// The improved record's score under replay.
    pub score: u64,
    /// The score of the record read.
    pub score_before: u64,
    pub gained: u64,
    /// Whether the last pass tried every segment (no time limit or signal cut it).
    pub complete: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stopped_by: Option<&'static str>,
    pub passes: usize,
    pub segments_searched: usize,
    pub segments_replaced: usize,
    pub record_read: String,
    pub seed: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub game: Option<GameDef>,
    pub beam: usize,
    pub segment: usize,
    pub stride: usize,
    pub moves: MoveSet,
    pub weights_name: String,
    pub weights: Weights,
    pub pieces: usize,
    pub lines: u64,
    pub end_reason: replay::EndReason,
    #[serde(flatten)]
    pub cost: crate::results::RunCost,
}

/// A polish's progress on stderr: a bar over a pass's segments on a terminal, otherwise a
/// line every 30 s.
struct SegmentProgress {
    bar: indicatif::ProgressBar,
    per_pass: u64,
    start: Instant,
    last_line: Instant,
}

impl SegmentProgress {
    fn new(per_pass: u64, start: Instant) -> SegmentProgress {
        SegmentProgress {
            bar: crate::progress::bar(per_pass, "{pos}/{len} segments  eta {eta}  {msg}"),
            per_pass,
            start,
            last_line: Instant::now(),
        }
    }

    /// Reports one segment searched.
    fn step(&mut self, r: &SegmentReport) {
        let bar = &self.bar;
        if bar.position() + 1 >= self.per_pass {
            bar.set_position(0);
        } else {
            bar.inc(1);
        }
        bar.set_message(format!("score {}", r.total));
        if bar.is_hidden() && self.last_line.elapsed().as_secs() >= 30 {
            self.last_line = Instant::now();
            eprintln!(
                "{:>7.0} s  pieces {}..{}  score {}",
                self.start.elapsed().as_secs_f64(),
                r.start,
                r.start + r.len,
                r.total
            );
        }
    }
}

/// Polishes the record whose line is `line` as `s` says (see [`polish`]), with a progress bar
/// on stderr on a terminal and a line every 30 s otherwise; `stop` ends it between segments,
/// keeping what was gained. Rebuilds the improved record, checks that its replay scores what
/// the polish claims, writes it to `s.record_file`, and then asks `cost` for the report's
/// last fields, given the polish's wall time in seconds.
pub fn polish_record(
    line: RecordLine,
    s: PolishSettings,
    stop: &AtomicBool,
    cost: impl FnOnce(f64) -> crate::results::RunCost,
) -> Result<PolishReport> {
    let RecordLine {
        pieces,
        start,
        mut positions,
        before,
    } = line;
    let cfg = PolishConfig {
        beam: s.beam,
        segment: s.segment,
        stride: s.stride,
        moves: s.moves,
        evaluator: Evaluator::new(s.weights.clone()),
    };
    let t0 = Instant::now();
    let deadline = s.seconds.map(|secs| t0 + Duration::from_secs_f64(secs));
    let per_pass = segment_starts(positions.len(), s.segment.min(positions.len()), s.stride).len();
    eprintln!(
        "polishing {} ({} points, {}): segments of {} every {}, beam {}; Ctrl-C or SIGTERM \
         stops and keeps what was gained",
        s.record_read.display(),
        before.score,
        crate::limits::plural(positions.len() as u64, "piece", "pieces"),
        s.segment,
        s.stride,
        s.beam
    );
    let mut progress = SegmentProgress::new(per_pass as u64, t0);
    let outcome = s.pool.install(|| {
        polish(
            &pieces,
            &start,
            &mut positions,
            &cfg,
            s.passes,
            deadline,
            stop,
            |r| progress.step(r),
        )
    });
    progress.bar.finish_and_clear();
    let wall_seconds = t0.elapsed().as_secs_f64();
    let improved = rebuild_record(&start, &pieces, &positions, MoveSet::Reach);
    let after = replay::replay_from(&start, &improved, &pieces, |_| {});
    if after.score != before.score + outcome.gained {
        return Err(Error(format!(
            "bug: polish claims {} but its record replays to {}",
            before.score + outcome.gained,
            after.score
        )));
    }
    crate::io::write_atomic(s.record_file, format!("{improved}\n").as_bytes())?;
    Ok(PolishReport {
        score: after.score,
        score_before: before.score,
        gained: outcome.gained,
        complete: outcome.finished,
        stopped_by: crate::signal::interrupted_by().map(crate::signal::name),
        passes: outcome.passes,
        segments_searched: outcome.searched,
        segments_replaced: outcome.replaced,
        record_read: s.record_read.display().to_string(),
        seed: s.seed.name.clone(),
        game: s.report_game.then(|| s.seed.clone()),
        beam: s.beam,
        segment: s.segment,
        stride: s.stride,
        moves: s.moves,
        weights_name: s.weights_name,
        weights: s.weights,
        pieces: after.pieces,
        lines: after.lines,
        end_reason: after.end_reason,
        cost: cost(wall_seconds),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::tencent::Weights;
    use crate::game_def::GameDef;
    use crate::games::tencent::replay;
    use crate::search::tencent::{rebuild_record, search};

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
        let pieces = GameDef::tencent_geek_4().pieces();
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
        let pieces = GameDef::tencent_geek_4().pieces();
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
        let pieces = GameDef::tencent_geek_4().pieces();
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
