//! The third perfect-clear loop probe (results/guideline/pc-loop-probe): the best loop of
//! perfect clears from the empty board, under the game's objective (attack or points),
//! forward over the cycles a loop can reach. Each cycle start (piece index, hold,
//! back-to-back) is searched depth-first over the engine's own placements kept below row 4
//! (its spins and lock score), memoised within the start only,
//! pruned by the sealed-column parity rule and, unless `PC_SOUND` is set, by empty regions
//! of a multiple of 4 cells (which loses the clears whose pieces span a row cleared earlier:
//! the figure is then a lower bound of the loop's best).
//!
//! `cargo run --release --example pc_loop_forward -- seeds/cc2/tetrio-1-srs-attack.json [PIECES]`
//! (PIECES: the game's first pieces only; `PC_SOUND=1` before it for the sound search)

use ahash::AHashMap;
use beamtris::game_def::GameDef;
use beamtris::games::guideline::board::Board;
use beamtris::games::guideline::game::{lock, State};
use beamtris::games::guideline::movegen::{placements, Placement};
use beamtris::games::guideline::score::ComboTable;
use beamtris::games::guideline::Objective;
use beamtris::games::srs::RotationSystem;
use beamtris::piece::Shape;
use std::collections::BTreeMap;
use std::path::Path;

const ROWS: i8 = 4;

/// A cycle's end: the next sequence index, the hold slot, back-to-back.
type End = (usize, Option<Shape>, bool);
type Ends = AHashMap<End, u32>;
type Key = (Board, usize, Option<Shape>, i32, bool, i8);

struct Search<'a> {
    seq: &'a [Shape],
    table: ComboTable,
    rotation: RotationSystem,
    objective: Objective,
    memo: AHashMap<Key, Ends>,
    nodes: u64,
    regions: bool,
}

/// Every boundary between columns x and x + 1 that no piece can cross below row `h` (each row
/// has x or x + 1 filled) must leave a multiple of 4 empty cells on its left.
fn parity_ok(board: &Board, h: i8) -> bool {
    let mut left_empty = 0u32;
    for x in 0..9usize {
        for y in 0..h as usize {
            left_empty += !board.filled(x, y) as u32;
        }
        let sealed = (0..h as usize).all(|y| board.filled(x, y) || board.filled(x + 1, y));
        if sealed && !left_empty.is_multiple_of(4) {
            return false;
        }
    }
    true
}

/// Every connected empty region below row `h` holds a multiple of 4 cells.
fn regions_ok(board: &Board, h: i8) -> bool {
    let h = h as usize;
    let mut seen = [[false; 4]; 10];
    for x0 in 0..10 {
        for y0 in 0..h {
            if board.filled(x0, y0) || seen[x0][y0] {
                continue;
            }
            let mut stack = vec![(x0, y0)];
            seen[x0][y0] = true;
            let mut size = 0u32;
            while let Some((x, y)) = stack.pop() {
                size += 1;
                let mut push = |nx: usize, ny: usize| {
                    if nx < 10 && ny < h && !board.filled(nx, ny) && !seen[nx][ny] {
                        seen[nx][ny] = true;
                        stack.push((nx, ny));
                    }
                };
                push(x + 1, y);
                push(x.wrapping_sub(1), y);
                push(x, y + 1);
                push(x, y.wrapping_sub(1));
            }
            if !size.is_multiple_of(4) {
                return false;
            }
        }
    }
    true
}

impl Search<'_> {
    /// The perfect clears reachable from `state` (the next piece at `q`, `h` rows left), each
    /// end with the most attack on the way to it.
    fn ends(&mut self, state: State, q: usize, h: i8) -> Ends {
        let key = (state.board, q, state.hold, state.combo, state.b2b, h);
        if let Some(e) = self.memo.get(&key) {
            return e.clone();
        }
        self.nodes += 1;
        let mut ends = Ends::default();
        let mut options: Vec<(Shape, usize, Option<Shape>)> = Vec::new();
        if q < self.seq.len() {
            options.push((self.seq[q], q + 1, state.hold));
            match state.hold {
                None if q + 1 < self.seq.len() => {
                    options.push((self.seq[q + 1], q + 2, Some(self.seq[q])))
                }
                Some(held) if held != self.seq[q] => options.push((held, q + 1, Some(self.seq[q]))),
                _ => {}
            }
        }
        let mut out: Vec<Placement> = Vec::new();
        for (shape, q2, hold2) in options {
            out.clear();
            placements(&state.board, shape, self.rotation, &mut out);
            for p in &out {
                if p.cells().iter().any(|c| c.1 >= h) {
                    continue;
                }
                let before = State {
                    hold: hold2,
                    ..state
                };
                let (after, l) = lock(&before, &p.active(), self.table);
                let gain = self.objective.gain(&l.earned, l.lines);
                if l.perfect {
                    let e = ends.entry((q2, hold2, after.b2b)).or_insert(0);
                    *e = (*e).max(gain);
                    continue;
                }
                let h2 = h - l.lines as i8;
                if !parity_ok(&after.board, h2) || (self.regions && !regions_ok(&after.board, h2)) {
                    continue;
                }
                for (k, v) in self.ends(after, q2, h2) {
                    let e = ends.entry(k).or_insert(0);
                    *e = (*e).max(v + gain);
                }
            }
        }
        self.memo.insert(key, ends.clone());
        ends
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let seed = GameDef::load(Path::new(&args[1])).expect("a seed file");
    let rules = seed.guideline_rules().expect("a guideline game");
    let n = args
        .get(2)
        .map(|a| a.parse::<usize>().expect("PIECES: a number"))
        .map_or(seed.pieces, |k| k.min(seed.pieces));
    let seq = seed.shapes(n + 1);
    let mut search = Search {
        seq: &seq,
        table: rules.combo_table,
        rotation: rules.rotation,
        objective: rules.objective,
        memo: AHashMap::new(),
        nodes: 0,
        regions: std::env::var("PC_SOUND").is_err(),
    };
    let placed = |(q, hold, _): End| q - hold.is_some() as usize;
    // The best attack on reaching each cycle start, and the cycles taken to reach it.
    let mut best: BTreeMap<(usize, Option<u8>, bool), (u32, u32)> = BTreeMap::new();
    best.insert((0, None, false), (0, 0));
    let mut top = (0u32, 0u32, 0usize);
    let start = std::time::Instant::now();
    let mut starts = 0;
    while let Some(((q, hold, b2b), (value, cycles))) = best.pop_first() {
        let hold = hold.map(|i| Shape::from_index(i as usize));
        if (value, cycles) > (top.0, top.1) {
            top = (value, cycles, placed((q, hold, b2b)));
        }
        let state = State {
            board: Board::EMPTY,
            hold,
            combo: -1,
            b2b,
            chain: 0,
        };
        search.memo.clear();
        starts += 1;
        for (end, gain) in search.ends(state, q, ROWS) {
            if placed(end) > n {
                continue;
            }
            let key = (end.0, end.1.map(|s| s.index() as u8), end.2);
            let e = best.entry(key).or_insert((0, 0));
            if value + gain > e.0 {
                *e = (value + gain, cycles + 1);
            }
        }
        if starts % 10 == 0 {
            eprintln!(
                "start {starts} at piece {q}: best so far {} in {} cycles, {} nodes, {:.0} s",
                top.0,
                top.1,
                search.nodes,
                start.elapsed().as_secs_f64()
            );
        }
    }
    println!(
        "{} (first {n} pieces): perfect-clear loop {} {:?} in {} cycles over {} pieces ({:.3} a piece of {n}), \
         {} starts, {} nodes, {:.0} s{}",
        args[1],
        top.0,
        rules.objective,
        top.1,
        top.2,
        top.0 as f64 / n as f64,
        starts,
        search.nodes,
        start.elapsed().as_secs_f64(),
        if search.regions {
            " (region pruning: a lower bound)"
        } else {
            ""
        }
    );
}
