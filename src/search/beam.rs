//! The beam-search dynamic program over the known piece sequence.
//!
//! Each step expands every kept board with every placement of the next piece, drops children
//! that top out or block the following spawn, merges equal boards (keeping the higher score)
//! and keeps the `beam` children of lowest rank, where rank = evaluator(board) - w x score.
//! An entry is a packed board, its score and a handle into an arena of predecessor nodes that
//! the kept boards share; the arena is compacted now and then so that only chains still
//! leading to a live board remain. The record is rebuilt from the best chain at the end.
//!
//! Every child has a sequence number (parent index, placement index) and every comparison
//! ends on it, so the result does not depend on the thread count.

use super::evaluator::{Evaluator, Move};
use crate::board::{Board, HEIGHT};
use crate::movegen::{self, MoveSet};
use crate::record::{Op, Record};
use crate::rules::tencent;
use crate::rules::{Piece, Pos};
use rayon::prelude::*;
use std::cmp::Ordering;
use std::sync::atomic::{AtomicBool, Ordering as AtomicOrdering};

/// What to search.
#[derive(Clone, Debug)]
pub struct BeamConfig {
    /// Boards kept per piece.
    pub beam: usize,
    pub moves: MoveSet,
    pub evaluator: Evaluator,
}

/// A kept board.
#[derive(Clone, Copy, Debug)]
struct Entry {
    board: Board,
    score: u32,
    node: u32,
}

/// A candidate board for the next beam.
#[derive(Clone, Copy, Debug)]
struct Child {
    board: Board,
    rank: f64,
    /// (parent index << 8) | placement index: the fixed tie-break.
    seq: u64,
    score: u32,
    pos: Pos,
}

impl Child {
    #[inline(always)]
    fn order(&self, other: &Child) -> Ordering {
        self.rank
            .total_cmp(&other.rank)
            .then(self.seq.cmp(&other.seq))
    }
}

/// A step of a predecessor chain: where piece k went, and the node of piece k-1.
#[derive(Clone, Copy, Debug)]
struct Node {
    parent: u32,
    pos: Pos,
}

const ROOT: u32 = u32::MAX;

/// Predecessor chains shared by the beam's boards.
struct Arena {
    nodes: Vec<Node>,
    /// Compact when the arena grows past this.
    limit: usize,
}

impl Arena {
    fn push(&mut self, node: Node) -> u32 {
        self.nodes.push(node);
        (self.nodes.len() - 1) as u32
    }

    /// Keeps only the nodes on chains from `roots`, renumbering them in order; rewrites the
    /// roots' handles. Parents always precede children, so the order is kept.
    fn compact(&mut self, roots: &mut [&mut u32]) {
        let mut live = vec![false; self.nodes.len()];
        for root in roots.iter() {
            let mut at = **root;
            while at != ROOT && !live[at as usize] {
                live[at as usize] = true;
                at = self.nodes[at as usize].parent;
            }
        }
        let mut remap = vec![ROOT; self.nodes.len()];
        let mut kept = Vec::with_capacity(live.iter().filter(|&&l| l).count());
        for (i, node) in self.nodes.iter().enumerate() {
            if live[i] {
                remap[i] = kept.len() as u32;
                let parent = if node.parent == ROOT {
                    ROOT
                } else {
                    remap[node.parent as usize]
                };
                kept.push(Node {
                    parent,
                    pos: node.pos,
                });
            }
        }
        for root in roots.iter_mut() {
            if **root != ROOT {
                **root = remap[**root as usize];
            }
        }
        self.limit = (kept.len() * 2).max(self.limit);
        self.nodes = kept;
    }

    /// The positions along the chain ending at `node`, first piece first.
    fn chain(&self, mut node: u32) -> Vec<Pos> {
        let mut out = Vec::new();
        while node != ROOT {
            out.push(self.nodes[node as usize].pos);
            node = self.nodes[node as usize].parent;
        }
        out.reverse();
        out
    }
}

/// Progress after a step.
#[derive(Clone, Copy, Debug)]
pub struct StepReport {
    /// Pieces placed so far.
    pub placed: usize,
    /// Pieces the search will place.
    pub total: usize,
    /// Best score among the kept boards.
    pub best_score: u32,
    /// Boards kept.
    pub kept: usize,
}

/// The outcome of a search.
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
}

/// How a search ended. `piece` is 0-based: the piece that was to be placed next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearchEnd {
    /// Every piece asked for was placed.
    Finished,
    /// No kept board had a placement of `piece` that survives: every line tops out there.
    BeamEmptied { piece: usize },
    /// The stop flag was set (a signal) before `piece` was placed.
    Stopped { piece: usize },
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
    }
}

fn expand(
    parent: &Entry,
    parent_index: usize,
    piece: Piece,
    next: Option<Piece>,
    cfg: &BeamConfig,
    placements: &mut Vec<Pos>,
    out: &mut Vec<Child>,
) {
    placements.clear();
    movegen::placements(&parent.board, piece, cfg.moves, placements);
    let uses_move = cfg.evaluator.uses_move();
    for (i, &pos) in placements.iter().enumerate() {
        let lock = tencent::lock(&parent.board, piece.shape, pos);
        if lock.top_out || !cfg.evaluator.weights.clear_allowed(lock.lines, lock.cells) {
            continue;
        }
        if let Some(np) = next {
            if tencent::spawn_blocked(&lock.board, np) {
                continue;
            }
        }
        let score = parent.score + lock.gain();
        let mv = if uses_move {
            move_features(&parent.board, piece, pos, lock.lines)
        } else {
            Move::default()
        };
        out.push(Child {
            board: lock.board,
            rank: cfg.evaluator.rank(&lock.board, &mv, score),
            seq: (parent_index as u64) << 8 | i as u64,
            score,
            pos,
        });
    }
}

/// Keeps the `beam` best distinct boards of `children` in rank order. Of equal boards the one
/// with the higher score ranks first (its rank is lower), so the first seen is kept.
fn select(children: &mut [Child], beam: usize) -> Vec<Child> {
    let mut take = beam.saturating_mul(2).max(64);
    loop {
        let all = take >= children.len();
        let top: &mut [Child] = if all {
            &mut children[..]
        } else {
            children.select_nth_unstable_by(take, |a, b| a.order(b));
            &mut children[..take]
        };
        top.par_sort_unstable_by(|a, b| a.order(b));
        // Sized by what is there, not by `beam`: a huge beam over a few children must not
        // reserve memory it will never use.
        let mut seen = ahash::AHashSet::with_capacity(top.len().min(beam.saturating_mul(2)));
        let mut kept = Vec::with_capacity(top.len().min(beam));
        for c in top.iter() {
            if seen.insert(c.board) {
                kept.push(*c);
                if kept.len() == beam {
                    break;
                }
            }
        }
        if kept.len() == beam || all {
            return kept;
        }
        take *= 4;
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
    mut report: impl FnMut(&StepReport),
) -> BeamResult {
    let total = limit
        .unwrap_or(usize::MAX)
        .min(pieces.len().saturating_sub(1));
    let mut beam = vec![Entry {
        board: Board::EMPTY,
        score: 0,
        node: ROOT,
    }];
    let mut arena = Arena {
        nodes: Vec::new(),
        limit: cfg.beam.saturating_mul(64).saturating_add(4096),
    };
    let mut best = (0u32, ROOT);
    let mut end = SearchEnd::Finished;
    let chunk = (cfg.beam / 64).clamp(1, 256);
    for k in 0..total {
        // Checked before every piece but the first, so a stopped search always has a line
        // (a record of at least one piece) to write.
        if k > 0 && stop.load(AtomicOrdering::Relaxed) {
            end = SearchEnd::Stopped { piece: k };
            break;
        }
        let piece = pieces[k];
        let next = pieces.get(k + 1).copied();
        let mut children: Vec<Child> = beam
            .par_chunks(chunk)
            .enumerate()
            .flat_map_iter(|(c, parents)| {
                let mut out = Vec::with_capacity(parents.len() * 34);
                let mut buf = Vec::with_capacity(64);
                for (j, parent) in parents.iter().enumerate() {
                    expand(parent, c * chunk + j, piece, next, cfg, &mut buf, &mut out);
                }
                out
            })
            .collect();
        if children.is_empty() {
            end = SearchEnd::BeamEmptied { piece: k };
            break;
        }
        let kept = select(&mut children, cfg.beam);
        drop(children);
        let mut next_beam = Vec::with_capacity(kept.len());
        for c in &kept {
            let parent = &beam[(c.seq >> 8) as usize];
            let node = arena.push(Node {
                parent: parent.node,
                pos: c.pos,
            });
            next_beam.push(Entry {
                board: c.board,
                score: c.score,
                node,
            });
        }
        beam = next_beam;
        let top = *beam
            .iter()
            .max_by(|a, b| a.score.cmp(&b.score).then(b.node.cmp(&a.node)))
            .expect("the beam is not empty");
        if top.score > best.0 || best.1 == ROOT {
            best = (top.score, top.node);
        }
        if arena.nodes.len() > arena.limit {
            let mut roots: Vec<&mut u32> = beam.iter_mut().map(|e| &mut e.node).collect();
            roots.push(&mut best.1);
            arena.compact(&mut roots);
        }
        report(&StepReport {
            placed: k + 1,
            total,
            best_score: top.score,
            kept: beam.len(),
        });
    }
    let positions = arena.chain(best.1);
    let record = rebuild_record(pieces, &positions, cfg.moves);
    let placed = match end {
        SearchEnd::Finished => total,
        SearchEnd::BeamEmptied { piece } | SearchEnd::Stopped { piece } => piece,
    };
    BeamResult {
        score: best.0,
        positions,
        record,
        complete: end == SearchEnd::Finished,
        end,
        placed,
    }
}

/// The op record that places each piece at its position, path by path.
pub fn rebuild_record(pieces: &[Piece], positions: &[Pos], moves: MoveSet) -> Record {
    let mut board = Board::EMPTY;
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
    use crate::replay;
    use crate::search::evaluator::Weights;
    use crate::seed::Seed;

    fn run(beam: usize, moves: MoveSet, pieces_limit: usize, threads: usize) -> BeamResult {
        let pieces = Seed::tencent_geek_4().pieces();
        let cfg = BeamConfig {
            beam,
            moves,
            evaluator: Evaluator::new(Weights::preset("default").unwrap()),
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
        let pieces = Seed::tencent_geek_4().pieces();
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

    #[test]
    fn same_record_with_one_and_two_threads() {
        for moves in [MoveSet::Drop, MoveSet::Reach] {
            let a = run(64, moves, 300, 1);
            let b = run(64, moves, 300, 2);
            assert_eq!(a.record, b.record, "{moves:?}");
            assert_eq!(a.score, b.score);
        }
    }

    #[test]
    fn arena_compaction_keeps_live_chains() {
        let mut arena = Arena {
            nodes: Vec::new(),
            limit: 0,
        };
        let p = |x| Pos { x, y: 0, state: 0 };
        let a = arena.push(Node {
            parent: ROOT,
            pos: p(0),
        });
        let _dead = arena.push(Node {
            parent: ROOT,
            pos: p(1),
        });
        let b = arena.push(Node {
            parent: a,
            pos: p(2),
        });
        let mut c = arena.push(Node {
            parent: b,
            pos: p(3),
        });
        let before = arena.chain(c);
        arena.compact(&mut [&mut c]);
        assert_eq!(arena.nodes.len(), 3);
        assert_eq!(arena.chain(c), before);
    }
}
