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

use super::width::{Schedule, Width, WidthStats};
use rayon::prelude::*;
use std::cmp::Ordering;
use std::hash::Hash;
use std::sync::atomic::{AtomicBool, Ordering as AtomicOrdering};

/// A game the beam can search: its state between pieces, the moves of a piece, and the
/// children of a state with their scores and ranks. The beam is written once over this
/// trait; each rule set implements it beside its move generation, and the hot loop is
/// monomorphised per game.
pub trait BeamGame: Sync {
    /// Everything that changes the future: the board, and for some games hold, combo,
    /// back-to-back. Equal states are merged.
    type State: Copy + Eq + Hash + Send + Sync;
    /// Where a piece went (and how), enough to rebuild the record.
    type Move: Copy + Send + Sync;
    /// Per-thread buffers for `expand`.
    type Scratch: Default + Send;
    /// Whether the best line is taken from the last step's states when the search reaches
    /// it (a guideline game goes on after its best lock; a Tencent game's best line may end
    /// at the lock that scored last).
    const WHOLE_GAME: bool = false;
    /// About how many children a state has: the children buffers start this large.
    const CHILDREN_HINT: usize = 34;
    /// Whether the line returned is that of the best-ranked state of the last step reached
    /// rather than the highest score: over a short horizon (online play on the visible
    /// pieces) the score so far says little about the board it leaves, the rank says both.
    const LINE_BY_RANK: bool = false;

    /// The state the game starts in.
    fn start(&self) -> Self::State;

    /// A score that ends the game when a kept state reaches it (a sprint's lines): the search
    /// stops at the first step where one does, with the line of the best-ranked such state.
    fn goal(&self) -> Option<u32> {
        None
    }

    /// Pieces the search places.
    fn steps(&self) -> usize;

    /// Calls `emit(move, child, score, rank)` for every child of `state` (reached with
    /// `score`) at step `k`, in a fixed order; lower rank is better. Children that end the
    /// game are left out.
    fn expand(
        &self,
        k: usize,
        state: &Self::State,
        score: u32,
        scratch: &mut Self::Scratch,
        emit: &mut impl FnMut(Self::Move, Self::State, u32, f64),
    );
}

/// A kept state.
#[derive(Clone, Copy, Debug)]
struct Entry<S> {
    state: S,
    score: u32,
    node: u32,
}

/// A candidate state for the next beam.
#[derive(Clone, Copy, Debug)]
struct Child<S, M> {
    state: S,
    rank: f64,
    /// (parent index << 16) | child index: the fixed tie-break.
    seq: u64,
    score: u32,
    mv: M,
}

/// Bits of `seq` for the child index within its parent.
const CHILD_BITS: u32 = 16;

impl<S, M> Child<S, M> {
    #[inline(always)]
    fn order(&self, other: &Self) -> Ordering {
        self.rank
            .total_cmp(&other.rank)
            .then(self.seq.cmp(&other.seq))
    }
}

/// A step of a predecessor chain: the move of piece k, and the node of piece k-1.
#[derive(Clone, Copy, Debug)]
struct Node<M> {
    parent: u32,
    mv: M,
}

const ROOT: u32 = u32::MAX;

/// Predecessor chains shared by the beam's states.
struct Arena<M> {
    nodes: Vec<Node<M>>,
    /// Compact when the arena grows past this.
    limit: usize,
}

impl<M: Copy> Arena<M> {
    fn push(&mut self, node: Node<M>) -> u32 {
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
                    mv: node.mv,
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

    /// The moves along the chain ending at `node`, first piece first.
    fn chain(&self, mut node: u32) -> Vec<M> {
        let mut out = Vec::new();
        while node != ROOT {
            out.push(self.nodes[node as usize].mv);
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
    /// Best score among the kept states.
    pub best_score: u32,
    /// States kept.
    pub kept: usize,
    /// The rank of the best-ranked state kept (lower is better).
    pub best_rank: f64,
}

/// How a search ended. `piece` is 0-based: the piece that was to be placed next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearchEnd {
    /// Every piece asked for was placed.
    Finished,
    /// No kept state had a placement of `piece` that survives: every line tops out there.
    BeamEmptied { piece: usize },
    /// The stop flag was set (a signal) before `piece` was placed.
    Stopped { piece: usize },
}

impl SearchEnd {
    /// Pieces the beam placed, of `total` asked for.
    pub fn placed(self, total: usize) -> usize {
        match self {
            SearchEnd::Finished => total,
            SearchEnd::BeamEmptied { piece } | SearchEnd::Stopped { piece } => piece,
        }
    }
}

/// The best line a search found.
#[derive(Clone, Debug)]
pub struct Line<M> {
    /// Its score (the record replays to it).
    pub score: u32,
    /// The move of each piece.
    pub moves: Vec<M>,
    /// How the search ended.
    pub end: SearchEnd,
    /// Pieces the beam placed (the best line may be shorter).
    pub placed: usize,
    /// The widths the beam kept.
    pub widths: WidthStats,
}

/// The beam search over `game`: keeps the `beam` children of lowest rank at every step,
/// merging equal states (the first in rank order stays). Stops early, with the best line so
/// far, when `stop` is set.
pub fn search_game<G: BeamGame>(
    game: &G,
    beam_width: impl Into<Width>,
    stop: &AtomicBool,
    report: impl FnMut(&StepReport),
) -> Line<G::Move> {
    search_game_observed(game, beam_width, stop, report, None)
}

/// A state the beam kept, as an observer sees it.
#[derive(Clone, Copy, Debug)]
pub struct Kept<S> {
    pub state: S,
    pub score: u32,
    /// Its parent's index in the previous step's kept states (0 at the first step).
    pub parent: u32,
}

/// What an observer of the beam sees after step `k`: the kept states in rank order. (The
/// data for a learned value is drawn from it: `learn data`.)
pub type Observer<'a, S> = &'a mut dyn FnMut(usize, &[Kept<S>]);

/// [`search_game`], calling `observe` after every step with the states kept.
pub fn search_game_observed<G: BeamGame>(
    game: &G,
    width: impl Into<Width>,
    stop: &AtomicBool,
    mut report: impl FnMut(&StepReport),
    mut observe: Option<Observer<'_, G::State>>,
) -> Line<G::Move> {
    let total = game.steps();
    let width = width.into();
    let mut schedule = Schedule::new(width);
    let mut beam = vec![Entry {
        state: game.start(),
        score: 0,
        node: ROOT,
    }];
    let mut arena: Arena<G::Move> = Arena {
        nodes: Vec::new(),
        limit: 0,
    };
    let mut best = (0u32, ROOT);
    let mut end = SearchEnd::Finished;
    let mut buffers: Vec<Vec<Child<G::State, G::Move>>> = Vec::new();
    let mut children: Vec<Child<G::State, G::Move>> = Vec::new();
    let mut bound = RankBound::default();
    let goal = game.goal();
    let mut reached = false;
    let mut k = 0;
    while k < total {
        // Checked before every piece but the first, so a stopped search always has a line
        // (a record of at least one piece) to write.
        if k > 0 && stop.load(AtomicOrdering::Relaxed) {
            end = SearchEnd::Stopped { piece: k };
            break;
        }
        let beam_width = schedule.width();
        let chunk = (beam_width / 64).clamp(1, 256);
        // Set by the width of this step, not the widest allowed: under a deadline the beam
        // may be allowed a million states and keep a few thousand.
        arena.limit = beam_width.saturating_mul(64).min(1 << 26) + 4096;
        // Each chunk of parents fills its own buffer, kept from step to step with the
        // gathered children: memory the previous step touched is reused, where fresh
        // allocations of this size come from the OS and fault in page by page (16 % of a
        // guideline step at beam 200, results/guideline/beam-step-buffers.md).
        let chunks = beam.len().div_ceil(chunk);
        buffers.resize_with(chunks.max(buffers.len()), Vec::new);
        let limit = bound.limit();
        buffers[..chunks]
            .par_iter_mut()
            .zip(beam.par_chunks(chunk))
            .enumerate()
            .for_each(|(c, (out, parents))| {
                out.clear();
                out.reserve(parents.len() * G::CHILDREN_HINT);
                let mut scratch = G::Scratch::default();
                for (j, parent) in parents.iter().enumerate() {
                    let base = ((c * chunk + j) as u64) << CHILD_BITS;
                    let mut i = 0u64;
                    game.expand(
                        k,
                        &parent.state,
                        parent.score,
                        &mut scratch,
                        &mut |mv, state, score, rank| {
                            // Written always and taken back when past the bound: a branch
                            // on the rank waited for it, and mispredicted.
                            out.push(Child {
                                state,
                                rank,
                                seq: base | i,
                                score,
                                mv,
                            });
                            let past = (rank > limit) as usize;
                            out.truncate(out.len() - past);
                            i += 1;
                        },
                    );
                }
            });
        let kept = if buffers[..chunks].iter().all(|b| b.is_empty()) {
            Vec::new()
        } else {
            select_from_buffers(&buffers[..chunks], beam_width, &mut children)
        };
        if kept.len() < beam_width && limit < f64::INFINITY {
            // The children within the bound hold fewer than `beam` states: some it left out
            // are kept. The step is expanded again, with no bound.
            bound.missed();
            continue;
        }
        if kept.is_empty() {
            end = SearchEnd::BeamEmptied { piece: k };
            break;
        }
        bound.observe(
            kept[0].rank,
            kept[kept.len() - 1].rank,
            kept.len() == beam_width,
        );
        let best_rank = kept[0].rank;
        let mut next_beam = Vec::with_capacity(kept.len());
        for c in &kept {
            let parent = &beam[(c.seq >> CHILD_BITS) as usize];
            let node = arena.push(Node {
                parent: parent.node,
                mv: c.mv,
            });
            next_beam.push(Entry {
                state: c.state,
                score: c.score,
                node,
            });
        }
        beam = next_beam;
        if let Some(observe) = observe.as_mut() {
            let seen: Vec<Kept<G::State>> = kept
                .iter()
                .zip(&beam)
                .map(|(c, e)| Kept {
                    state: e.state,
                    score: e.score,
                    parent: (c.seq >> CHILD_BITS) as u32,
                })
                .collect();
            observe(k, &seen);
        }
        let top = *beam
            .iter()
            .max_by(|a, b| a.score.cmp(&b.score).then(b.node.cmp(&a.node)))
            .expect("the beam is not empty");
        if top.score > best.0 || best.1 == ROOT {
            best = (top.score, top.node);
        }
        // The kept states are in rank order: the first to reach the goal is the best-ranked.
        if let Some(done) = goal.and_then(|g| beam.iter().find(|e| e.score >= g)) {
            best = (done.score, done.node);
            reached = true;
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
            best_rank,
        });
        k += 1;
        schedule.step_done(beam.len(), total - k);
        if reached {
            break;
        }
    }
    if G::WHOLE_GAME && end == SearchEnd::Finished && !reached {
        if let Some(top) = beam
            .iter()
            .max_by(|a, b| a.score.cmp(&b.score).then(b.node.cmp(&a.node)))
        {
            best = (top.score, top.node);
        }
    }
    if G::LINE_BY_RANK && !reached {
        // Kept in rank order; the last beam that had states (the start at worst).
        best = (beam[0].score, beam[0].node);
    }
    Line {
        score: best.0,
        moves: arena.chain(best.1),
        end,
        placed: if reached { k } else { end.placed(total) },
        widths: schedule.stats(),
    }
}

/// The rank past which a child is not stored. A step's children are many times the beam and
/// most rank far past its cut (on the Tencent game at beam 3 000, nine in ten). Storing each
/// and scanning them all again to select was a tenth of the default solve. The bound guesses
/// the step's cut from the last one's: the cut moves little from piece to piece, less than
/// the kept ranks' width (best to cut). A step whose children within the bound hold fewer than
/// `beam` states is expanded again with no bound, so the states kept are always the
/// unbounded beam's ([`tests::a_bounded_beam_keeps_what_the_unbounded_beam_keeps`]).
#[derive(Clone, Copy, Debug)]
struct RankBound {
    /// The last step's cut: the rank of the last state it kept (infinite when it kept fewer
    /// than the beam, or was expanded again: the next step is not bounded).
    cut: f64,
    /// A running mean of the kept ranks' width (cut minus best).
    width: f64,
}

impl Default for RankBound {
    fn default() -> RankBound {
        RankBound {
            cut: f64::INFINITY,
            width: f64::NAN,
        }
    }
}

impl RankBound {
    /// The running mean's weight of a new step.
    const RATE: f64 = 0.01;
    /// The bound lies this many mean widths past the last cut. On the Tencent game at beam
    /// 3 000 the cut rose past it at 1 of 10 000 pieces.
    const MARGIN: f64 = 1.2;

    /// The highest rank to store at the next step (infinite: every child).
    fn limit(&self) -> f64 {
        if !self.width.is_finite() {
            f64::INFINITY
        } else {
            self.cut + Self::MARGIN * self.width
        }
    }

    /// A step kept states ranked `best` to `cut`; `full`: as many as the beam holds.
    fn observe(&mut self, best: f64, cut: f64, full: bool) {
        if !full {
            self.cut = f64::INFINITY;
            return;
        }
        let width = cut - best;
        self.width = if self.width.is_finite() {
            self.width + Self::RATE * (width - self.width)
        } else {
            width
        };
        self.cut = cut;
    }

    /// The bound left out children the step needed.
    fn missed(&mut self) {
        self.cut = f64::INFINITY;
    }
}

/// [`select`] over the children in `buffers`, without gathering them all first: ranks drawn
/// evenly from the buffers estimate a rank below which a little more than the `2 x beam`
/// best children lie; the children at or below it (a prefix of the rank order, ties
/// included) are gathered in parallel and selected from. When that prefix does not hold
/// `beam` distinct states, every child is gathered and [`select`] runs as before, so the
/// states kept are always those [`select`] keeps from all the children. Gathering and the
/// selection over all of them were the beam's serial part: one core waited.
fn select_from_buffers<S: Copy + Eq + Hash + Send + Sync, M: Copy + Send + Sync>(
    buffers: &[Vec<Child<S, M>>],
    beam: usize,
    children: &mut Vec<Child<S, M>>,
) -> Vec<Child<S, M>> {
    let total: usize = buffers.iter().map(Vec::len).sum();
    let take = beam.saturating_mul(2).max(64);
    children.clear();
    if total > 4 * take {
        // About 4 096 ranks, evenly spaced over the buffers.
        let every = (total / 4096).max(1);
        let mut sample: Vec<f64> = buffers
            .iter()
            .flat_map(|b| b.iter().step_by(every).map(|c| c.rank))
            .collect();
        sample.sort_unstable_by(|a, b| a.total_cmp(b));
        // The share of children wanted, with a margin for the sample's error.
        let want = (take as f64 * 1.3 / total as f64 * sample.len() as f64).ceil() as usize + 8;
        if want < sample.len() {
            let cut = sample[want];
            let parts: Vec<Vec<Child<S, M>>> = buffers
                .par_iter()
                .map(|b| {
                    b.iter()
                        .filter(|c| c.rank.total_cmp(&cut) != Ordering::Greater)
                        .copied()
                        .collect()
                })
                .collect();
            for part in &parts {
                children.extend_from_slice(part);
            }
            if children.len() >= take {
                let kept = select(children, beam);
                if kept.len() == beam {
                    return kept;
                }
            }
            children.clear();
        }
    }
    for b in buffers {
        children.extend_from_slice(b);
    }
    select(children, beam)
}

/// Keeps the `beam` best distinct states of `children` in rank order. Of equal states the one
/// with the lower rank (the higher score, for equal features) is kept.
///
/// The children are taken best first in chunks: the best `2 x beam` are moved to the front
/// and sorted, and only when they hold fewer than `beam` distinct states is the next chunk
/// (as large again as all taken so far) selected from the rest, sorted, and read on. On the
/// Tencent game at beam 4 000 one step in six needs a second chunk (equal boards reached by
/// different parents); sorting the first chunk again with it was half of the sorting.
fn select<S: Copy + Eq + Hash + Send, M: Copy + Send>(
    children: &mut [Child<S, M>],
    beam: usize,
) -> Vec<Child<S, M>> {
    let first = beam.saturating_mul(2).max(64);
    // Sized by what is there, not by `beam`: a huge beam over a few children must not
    // reserve memory it will never use.
    let mut seen = ahash::AHashSet::with_capacity(children.len().min(first));
    let mut kept = Vec::with_capacity(children.len().min(beam));
    let mut from = 0;
    let mut to = first;
    let total = children.len();
    loop {
        let end = to.min(total);
        let rest = &mut children[from..];
        if end < total {
            // The next `end - from` best of the rest, in front of it (the chunks before
            // are all better, so the order of the whole is kept).
            rest.select_nth_unstable_by(end - from, |a, b| a.order(b));
        }
        let chunk = &mut rest[..end - from];
        chunk.par_sort_unstable_by(|a, b| a.order(b));
        for c in chunk.iter() {
            if seen.insert(c.state) {
                kept.push(*c);
                if kept.len() == beam {
                    return kept;
                }
            }
        }
        if end == total {
            return kept;
        }
        from = end;
        to = end.saturating_mul(2);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Pos;

    /// Children in `parts` buffers: states from a domain of `states` (so some repeat, some
    /// many times), ranks from a few values (so ties are common).
    fn random_children(
        seed: u64,
        parts: usize,
        per: usize,
        states: u32,
    ) -> Vec<Vec<Child<u32, u8>>> {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_pcg::Pcg64::seed_from_u64(seed);
        (0..parts)
            .map(|p| {
                (0..per)
                    .map(|i| Child {
                        state: rng.gen_range(0..states),
                        rank: rng.gen_range(0..200) as f64 / 4.0,
                        seq: ((p * per + i) as u64) << CHILD_BITS,
                        score: 0,
                        mv: 0,
                    })
                    .collect()
            })
            .collect()
    }

    #[test]
    fn selecting_from_buffers_keeps_what_selecting_from_all_keeps() {
        let key =
            |kept: &[Child<u32, u8>]| kept.iter().map(|c| (c.state, c.seq)).collect::<Vec<_>>();
        for (seed, parts, per, states, beam) in [
            (1, 8, 500, 1_000_000, 50),
            (2, 8, 500, 300, 50), // many repeats: the prefix may run short of distinct states
            (3, 8, 500, 60, 50),  // barely enough distinct states at all
            (4, 3, 2000, 40, 50), // fewer distinct states than the beam
            (5, 16, 300, 5_000, 7), // a narrow beam over many buffers
            (6, 2, 40, 1_000, 50), // few children: no sampling
        ] {
            let buffers = random_children(seed, parts, per, states);
            let mut all: Vec<Child<u32, u8>> = buffers.concat();
            let want = select(&mut all, beam);
            let mut scratch = Vec::new();
            let got = select_from_buffers(&buffers, beam, &mut scratch);
            assert_eq!(key(&got), key(&want), "seed {seed}");
        }
    }

    /// A toy game whose children repeat (a small state space) and whose ranks jump up at
    /// some steps, past any bound guessed from the step before.
    struct Jumpy {
        steps: usize,
        states: u32,
    }

    fn mix(mut x: u64) -> u64 {
        x ^= x >> 33;
        x = x.wrapping_mul(0xff51afd7ed558ccd);
        x ^= x >> 33;
        x = x.wrapping_mul(0xc4ceb9fe1a85ec53);
        x ^ (x >> 33)
    }

    impl Jumpy {
        /// The children of `state` at step `k`: (move, child, points, rank).
        fn children(&self, k: usize, state: u32) -> Vec<(u8, u32, u32, f64)> {
            let n = 3 + (mix(state as u64) % 9) as usize;
            let jump = match k % 17 {
                5 => 400.0,
                11 => -300.0,
                _ => 0.0,
            };
            (0..n)
                .map(|i| {
                    let h = mix((k as u64) << 40 ^ (state as u64) << 8 ^ i as u64);
                    let child = (h % self.states as u64) as u32;
                    let rank = (h >> 20) % 1000;
                    (i as u8, child, (h % 7) as u32, rank as f64 / 8.0 + jump)
                })
                .collect()
        }
    }

    impl BeamGame for Jumpy {
        type State = u32;
        type Move = u8;
        type Scratch = ();

        fn start(&self) -> u32 {
            1
        }

        fn steps(&self) -> usize {
            self.steps
        }

        fn expand(
            &self,
            k: usize,
            state: &u32,
            score: u32,
            _: &mut (),
            emit: &mut impl FnMut(u8, u32, u32, f64),
        ) {
            for (mv, child, points, rank) in self.children(k, *state) {
                let score = score + points;
                emit(mv, child, score, rank - score as f64);
            }
        }
    }

    #[test]
    fn a_bounded_beam_keeps_what_the_unbounded_beam_keeps() {
        for (beam, states) in [(40, 1_000_000), (40, 60), (200, 5_000), (7, 30)] {
            let game = Jumpy { steps: 120, states };
            // The beam by its definition: every child, sorted, the first of each state.
            let mut want: Vec<Vec<(u32, u32)>> = Vec::new();
            let mut kept = vec![(1u32, 0u32)];
            for k in 0..game.steps {
                let mut all = Vec::new();
                for (p, &(state, score)) in kept.iter().enumerate() {
                    for (i, (_, child, points, rank)) in
                        game.children(k, state).into_iter().enumerate()
                    {
                        let score = score + points;
                        let seq = (p as u64) << CHILD_BITS | i as u64;
                        all.push((rank - score as f64, seq, child, score));
                    }
                }
                all.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
                let mut seen = std::collections::HashSet::new();
                kept = all
                    .iter()
                    .filter(|c| seen.insert(c.2))
                    .take(beam)
                    .map(|c| (c.2, c.3))
                    .collect();
                want.push(kept.clone());
            }
            let mut got: Vec<Vec<(u32, u32)>> = Vec::new();
            let mut observe = |_: usize, kept: &[Kept<u32>]| {
                got.push(kept.iter().map(|s| (s.state, s.score)).collect());
            };
            search_game_observed(
                &game,
                beam,
                &AtomicBool::new(false),
                |_| {},
                Some(&mut observe),
            );
            assert_eq!(got, want, "beam {beam}, {states} states");
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
            mv: p(0),
        });
        let _dead = arena.push(Node {
            parent: ROOT,
            mv: p(1),
        });
        let b = arena.push(Node {
            parent: a,
            mv: p(2),
        });
        let mut c = arena.push(Node {
            parent: b,
            mv: p(3),
        });
        let before = arena.chain(c);
        arena.compact(&mut [&mut c]);
        assert_eq!(arena.nodes.len(), 3);
        assert_eq!(arena.chain(c), before);
    }
}
