//! Online play on a guideline game: before each lock the beam searches only what a player
//! sees (the board, the hold piece, the current piece and `previews` more), the first move of
//! the best-ranked line is played, and the next lock searches again.
//!
//! The search never reads the sequence past the window: it runs on a [`GuidelineGame`] cut to the
//! visible pieces, so a piece it was not shown is not there to read.

use super::beam::{self, BeamGame};
use super::guideline::{GuidelineSearch, Move};
use super::section_play::SectionPlay;
use crate::eval::guideline::GuidelineEvaluator;
use crate::games::guideline::movegen::Placement;
use crate::games::guideline::replay::GuidelineGame;
use crate::games::guideline::{game, State};
use crate::games::seven_bag::{SevenBag, ShapeSet, ALL_SHAPES};
use crate::piece::Shape;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use serde::{Deserialize, Serialize};
use std::sync::atomic::{AtomicBool, Ordering};

/// The guideline search from a state in the middle of a game, over a visible window: its
/// line is the best-ranked one at the window's end (a short horizon's score says little).
struct Window<'a> {
    search: GuidelineSearch<'a>,
    start: State,
    incoming: Incoming,
}

/// Garbage waiting to enter the player's board: a versus game's meter, which a player sees.
/// TETR.IO cancels waiting garbage with the attack a lock sends, and lets what is left in on
/// a lock that clears no row, at most `cap` rows a lock.
///
/// The search lets it in where the game would: at the first lock of a line that clears no
/// row, less the attack the line has sent by then, with its hole under `hole` (the column of
/// the last garbage row to arrive, where TETR.IO most often puts the next; else the lowest
/// column). A line that builds under a full meter is then ranked on the board it will have,
/// and a line whose rise tops out is ranked below every other. Garbage past the cap, and
/// garbage still in its delay, are let in at that same lock: the search errs on the safe side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Incoming {
    pub rows: u32,
    pub cap: u32,
    pub hole: Option<usize>,
}

impl Incoming {
    /// No garbage waiting (a solo game, or a front end that does not say).
    pub const NONE: Incoming = Incoming {
        rows: 0,
        cap: 0,
        hole: None,
    };
}

/// The rank added to a line whose garbage tops it out: below every line that survives.
const TOPPED_BY_GARBAGE: f64 = 1e12;

impl Window<'_> {
    /// Whether every lock before lock `k` of a line that reached `state` cleared rows (its
    /// combo counted up from the start's at each): the waiting garbage is not in yet.
    fn cleared_so_far(&self, k: usize, state: &State) -> bool {
        let start = self.start.combo;
        let expected = if start < 0 {
            k as i32 - 1
        } else {
            start + k as i32
        };
        state.combo == expected
    }

    /// `after` (lock `k`'s child, `score` sent in all) with the waiting garbage let in when
    /// the lock cleared nothing, and its rank: `None` when nothing comes in.
    fn with_garbage(&self, k: usize, after: &State, score: u32) -> Option<(State, f64)> {
        let waiting = self.incoming.rows.saturating_sub(score);
        if after.combo >= 0 || waiting == 0 {
            return None;
        }
        let board = &after.board;
        let hole = self.incoming.hole.unwrap_or_else(|| {
            (0..crate::games::guideline::board::WIDTH)
                .min_by_key(|&x| board.height(x))
                .unwrap_or(0)
        });
        let mut raised = *after;
        let kept = raised
            .board
            .push_garbage(waiting.min(self.incoming.cap.max(1)), hole);
        let mut rank = self.search.rank(k, &raised, score);
        if !kept || !self.search.next_spawns(k, &raised) {
            rank += TOPPED_BY_GARBAGE;
        }
        Some((raised, rank))
    }
}

impl BeamGame for Window<'_> {
    type State = State;
    type Move = Move;
    type Scratch = Vec<Placement>;
    const WHOLE_GAME: bool = true;
    const CHILDREN_HINT: usize = <GuidelineSearch<'static> as BeamGame>::CHILDREN_HINT;
    const LINE_BY_RANK: bool = true;

    fn start(&self) -> State {
        self.start
    }

    fn steps(&self) -> usize {
        self.search.steps
    }

    #[inline]
    fn expand(
        &self,
        k: usize,
        state: &State,
        score: u32,
        scratch: &mut Vec<Placement>,
        emit: &mut impl FnMut(Move, State, u32, f64),
    ) {
        if self.incoming.rows == 0 || !self.cleared_so_far(k, state) {
            return self.search.expand(k, state, score, scratch, emit);
        }
        self.search.expand(
            k,
            state,
            score,
            scratch,
            &mut |mv, after, score, rank| match self.with_garbage(k, &after, score) {
                Some((raised, rank)) => emit(mv, raised, score, rank),
                None => emit(mv, after, score, rank),
            },
        )
    }
}

/// What a player sees before lock `locks` of `game` in `state`: the pieces from index
/// `locks` on (the current one is `state.next_index(locks)`; with a held piece the one
/// before it was already seen) up to the `previews`-th after the current one, and how many
/// locks a search can make on them. A lock with an empty hold slot may play the first
/// preview, so such a search stops one lock earlier; the game's end cuts both.
pub fn visible(
    game: &GuidelineGame,
    locks: usize,
    state: &State,
    previews: usize,
) -> (GuidelineGame, usize) {
    let held = state.hold.is_some() as usize;
    let end = (locks + held + 1 + previews).min(game.pieces.len());
    let steps = (previews + held).min(game.length.saturating_sub(locks));
    let window = GuidelineGame {
        rules: game.rules,
        length: steps,
        pieces: game.pieces[locks..end].to_vec(),
        start: *state,
    };
    (window, steps)
}

/// The move a player seeing `previews` pieces makes at lock `locks` in `state`: the first
/// move of the best-ranked line of a `beam`-wide search over the visible window. With the
/// 4-wide solver (`fourwide`), the window's sections are ranked by the run its pieces can
/// make, and when the search's move is a step of a section's combo, the solver's policy
/// chooses the step. `None` when every placement of the piece in play (and of the one hold
/// offers) tops out.
pub fn decide(
    game: &GuidelineGame,
    locks: usize,
    state: &State,
    player: &Player,
) -> Option<Decision> {
    let bag = bag_after_window(game, locks, state, player);
    let stop = AtomicBool::new(false);
    decide_until(game, locks, state, player, bag, Incoming::NONE, &stop)
}

/// What is left in the 7-bag after the last piece a player sees at lock `locks` (every piece
/// dealt so far is one it has seen), when the player knows the game deals 7-bags: the first
/// bag begins with the game's first piece (as TETR.IO deals them) while the pieces fit that,
/// else the boundaries the pieces so far fix.
pub fn bag_after_window(
    game: &GuidelineGame,
    locks: usize,
    state: &State,
    player: &Player,
) -> Option<ShapeSet> {
    if !player.seven_bag {
        return None;
    }
    let held = state.hold.is_some() as usize;
    let end = (locks + held + 1 + player.previews).min(game.pieces.len());
    let seen = &game.pieces[..end];
    let mut from_first = SevenBag::new(&[], Some(ALL_SHAPES));
    for &p in seen {
        from_first.push(p);
    }
    if from_first.consistent() {
        return from_first.left();
    }
    SevenBag::new(seen, None).left()
}

/// [`decide`] whose search stops between two pieces once `stop` is set (a time budget, a
/// front end that quits) and plays the first move of the best-ranked line of the last piece
/// it reached: a front end waiting on a clock needs some move in time.
///
/// `bag` is what is left in the 7-bag after the last visible piece, when known: speculation
/// (`player.speculation`) draws the pieces past the window from it, then from whole bags
/// (from all seven shapes alike when `None`). `incoming` is the garbage waiting to come in.
pub fn decide_until(
    game: &GuidelineGame,
    locks: usize,
    state: &State,
    player: &Player,
    bag: Option<ShapeSet>,
    incoming: Incoming,
    stop: &AtomicBool,
) -> Option<Decision> {
    let Player {
        previews,
        beam,
        evaluator,
        fourwide,
        speculation,
        ..
    } = *player;
    // Holding into an empty slot plays the first preview: with none there is nothing to see.
    assert!(previews >= 1, "online play needs at least one preview");
    let (window, steps) = visible(game, locks, state, previews);
    if let Some(spec) = speculation.filter(|_| fourwide.is_none()) {
        let room = game.length.saturating_sub(locks + steps);
        if room > 0 {
            let mv = speculate(
                &window,
                steps,
                state,
                (beam, evaluator),
                &spec,
                room,
                bag,
                incoming,
                stop,
            )?;
            return Some(Decision {
                mv,
                by_policy: false,
            });
        }
    }
    let continuation = fourwide.map(|f| f.continuation(game, locks, &window, steps));
    let search = Window {
        search: GuidelineSearch {
            game: &window,
            steps,
            evaluator,
            fourwide: continuation.as_ref(),
            blitz: None,
        },
        start: *state,
        incoming,
    };
    let line = beam::search_game(&search, beam, stop, |_| {});
    let chosen = line.moves.first().copied()?;
    if let Some(f) = fourwide {
        if f.is_step(state, &advance(game, locks, state, &chosen)) {
            if let Some(step) = f.step(game, locks, state) {
                return Some(Decision {
                    mv: step,
                    by_policy: true,
                });
            }
        }
    }
    Some(Decision {
        mv: chosen,
        by_policy: false,
    })
}

/// Looking past the previews: the search runs again on continuations of the visible queue
/// drawn as the randomizer would deal them, and the move most of them begin with is played. A
/// line through the window that only pays with pieces nobody has seen yet (a perfect clear,
/// a T-spin slot) is then weighed by how often such pieces come, instead of being ranked by
/// the window's end board alone.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Speculation {
    /// Continuations drawn, each one search.
    pub samples: usize,
    /// Pieces each continuation adds after the visible ones.
    pub pieces: usize,
}

/// The move most continuations of `window` (see [`Speculation`]), each searched `beam` wide,
/// begin with; ties go to the
/// continuation drawn first. The draws are seeded by the position, so the same position gets
/// the same move. `None` when every line tops out.
#[allow(clippy::too_many_arguments)]
fn speculate(
    window: &GuidelineGame,
    steps: usize,
    state: &State,
    (beam, evaluator): (usize, &GuidelineEvaluator),
    spec: &Speculation,
    room: usize,
    bag: Option<ShapeSet>,
    incoming: Incoming,
    stop: &AtomicBool,
) -> Option<Move> {
    let extra = spec.pieces.min(room);
    let mut rng = rand_pcg::Pcg64::seed_from_u64(position_hash(window));
    let mut votes: Vec<(Move, usize)> = Vec::new();
    for _ in 0..spec.samples.max(1) {
        let mut pieces = window.pieces.clone();
        pieces.extend(continuation(bag, extra, &mut rng));
        let game = GuidelineGame {
            rules: window.rules,
            length: steps + extra,
            pieces,
            start: window.start,
        };
        let search = Window {
            search: GuidelineSearch {
                game: &game,
                steps: steps + extra,
                evaluator,
                fourwide: None,
                blitz: None,
            },
            start: *state,
            incoming,
        };
        let line = beam::search_game(&search, beam, stop, |_| {});
        let Some(&first) = line.moves.first() else {
            continue;
        };
        match votes.iter_mut().find(|(m, _)| *m == first) {
            Some((_, n)) => *n += 1,
            None => votes.push((first, 1)),
        }
        if stop.load(Ordering::Relaxed) {
            break;
        }
    }
    // the most votes; the first drawn among equals (max_by_key keeps the last maximum)
    votes.iter().rev().max_by_key(|(_, n)| *n).map(|&(m, _)| m)
}

/// `n` pieces as a 7-bag randomizer deals them after a queue that leaves `bag` in its bag
/// (uniform over the seven shapes when the bag is unknown).
fn continuation(bag: Option<ShapeSet>, n: usize, rng: &mut impl Rng) -> Vec<Shape> {
    let mut out = Vec::with_capacity(n + 7);
    let Some(mut left) = bag else {
        out.extend((0..n).map(|_| Shape::ALL[rng.gen_range(0..7)]));
        return out;
    };
    while out.len() < n {
        if left == 0 {
            left = ALL_SHAPES;
        }
        let mut drawn: Vec<Shape> = Shape::ALL
            .into_iter()
            .filter(|p| left & 1 << p.index() != 0)
            .collect();
        drawn.shuffle(rng);
        out.extend(drawn);
        left = 0;
    }
    out.truncate(n);
    out
}

/// A hash of what the player sees (board, hold, combo, back-to-back, pieces): the seed of its
/// draws.
fn position_hash(window: &GuidelineGame) -> u64 {
    let s = &window.start;
    let mut bytes = Vec::with_capacity(64);
    for c in s.board.cols {
        bytes.extend(c.to_le_bytes());
    }
    bytes.push(s.hold.map_or(7, |h| h.index() as u8));
    bytes.extend(s.combo.to_le_bytes());
    bytes.push(s.b2b as u8);
    bytes.extend(window.pieces.iter().map(|p| p.index() as u8));
    crate::io::fnv1a(&bytes)
}

/// A decision and who made it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Decision {
    pub mv: Move,
    /// The 4-wide policy chose the move (a step of a section's combo).
    pub by_policy: bool,
}

/// `state` after `mv` is played at lock `locks` of `game` (hold taken first).
pub fn advance(game: &GuidelineGame, locks: usize, state: &State, mv: &Move) -> State {
    let mut before = *state;
    if mv.hold {
        before.hold = Some(game.pieces[state.next_index(locks)]);
    }
    game::lock_under(&before, &mv.placement.active(), &game.rules).0
}

/// How an online player decides: what it sees, how wide it searches, how it ranks, and the
/// 4-wide solver for sections (`None`: the search alone).
#[derive(Clone, Copy)]
pub struct Player<'a> {
    pub previews: usize,
    pub beam: usize,
    pub evaluator: &'a GuidelineEvaluator,
    pub fourwide: Option<&'a SectionPlay>,
    /// Search past the previews on drawn continuations (`None`: the visible window only).
    pub speculation: Option<Speculation>,
    /// The game deals 7-bags, and the player may count on it.
    pub seven_bag: bool,
}

/// One decision's cost.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoveTime {
    pub wall_seconds: f64,
    /// CPU time of the deciding thread, where the OS reports it.
    pub cpu_seconds: Option<f64>,
}

/// A game played online.
#[derive(Clone, Debug)]
pub struct Played {
    pub moves: Vec<Move>,
    pub times: Vec<MoveTime>,
    /// No placement of a piece survived: the game was lost before its last lock.
    pub topped_out: bool,
    /// A signal stopped the game before its last lock.
    pub stopped: bool,
    /// Moves the 4-wide policy chose.
    pub policy_moves: usize,
}

/// Plays the first `pieces` locks of `game` online (see [`decide`]), calling `on_move` after
/// each; stops, keeping the moves so far, when `stop` is set.
pub fn play(
    game: &GuidelineGame,
    pieces: usize,
    player: &Player,
    stop: &AtomicBool,
    mut on_move: impl FnMut(usize, &MoveTime),
) -> Played {
    let pieces = pieces.min(game.length);
    let mut state = game.start;
    let mut played = Played {
        moves: Vec::with_capacity(pieces),
        times: Vec::with_capacity(pieces),
        topped_out: false,
        stopped: false,
        policy_moves: 0,
    };
    for locks in 0..pieces {
        if stop.load(Ordering::Relaxed) {
            played.stopped = true;
            break;
        }
        let wall = std::time::Instant::now();
        let cpu = crate::results::thread_cpu_ns();
        let mv = decide(game, locks, &state, player);
        let time = MoveTime {
            wall_seconds: wall.elapsed().as_secs_f64(),
            cpu_seconds: match (cpu, crate::results::thread_cpu_ns()) {
                (Some(a), Some(b)) => Some(b.saturating_sub(a) as f64 * 1e-9),
                _ => None,
            },
        };
        let Some(Decision { mv, by_policy }) = mv else {
            played.topped_out = true;
            break;
        };
        played.policy_moves += by_policy as usize;
        state = advance(game, locks, &state, &mv);
        played.moves.push(mv);
        played.times.push(time);
        on_move(locks, &time);
    }
    played
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::eval::guideline::GuidelineWeights;
    use crate::games::guideline::{ComboTable, Objective, Rules, TopOut};
    use crate::games::srs::RotationSystem;
    use crate::piece::Shape;

    /// An SRS attack game (guideline combo table) of `pieces` (the last only seen).
    pub(crate) fn game(pieces: Vec<Shape>) -> GuidelineGame {
        GuidelineGame {
            rules: Rules {
                rotation: RotationSystem::Srs,
                combo_table: ComboTable::Guideline,
                objective: Objective::Attack,
                top: TopOut::Guideline,
            },
            length: pieces.len() - 1,
            pieces,
            start: State::START,
        }
    }

    /// `n` shapes of a plain 7-bag.
    pub(crate) fn bag7(seed: u64, n: usize) -> Vec<Shape> {
        let text = format!(
            r#"{{"name": "t", "rules": "guideline", "pieces": {n},
                "generator": {{"kind": "bag7", "seed": {seed}}}}}"#
        );
        let seed: crate::game_def::GameDef = serde_json::from_str(&text).unwrap();
        seed.shapes(n)
    }

    #[test]
    fn the_window_holds_what_a_player_sees() {
        let g = game([Shape::I, Shape::O, Shape::T, Shape::S, Shape::Z, Shape::J].repeat(3));
        let empty = State::START;
        let (w, steps) = visible(&g, 4, &empty, 2);
        assert_eq!(w.pieces, g.pieces[4..7]);
        assert_eq!(steps, 2, "an empty slot may play the first preview");
        let held = State {
            hold: Some(Shape::T),
            ..State::START
        };
        let (w, steps) = visible(&g, 4, &held, 2);
        assert_eq!(
            w.pieces,
            g.pieces[4..8],
            "current piece 5, previews 6 and 7"
        );
        assert_eq!(steps, 3);
        let (w, steps) = visible(&g, g.length - 1, &held, 5);
        assert_eq!(w.pieces, g.pieces[g.length - 1..]);
        assert_eq!(steps, 1, "the game's end cuts the window");
    }

    /// A search of two locks of `g` from its start, with `incoming` waiting.
    fn two_locks<'a>(
        g: &'a GuidelineGame,
        e: &'a GuidelineEvaluator,
        incoming: Incoming,
    ) -> Window<'a> {
        Window {
            search: GuidelineSearch {
                game: g,
                steps: 2,
                evaluator: e,
                fourwide: None,
                blitz: None,
            },
            start: g.start,
            incoming,
        }
    }

    /// The children of lock `k` from `state` in `window`, as (move, child, score, rank).
    fn children(
        window: &Window,
        k: usize,
        state: &State,
        score: u32,
    ) -> Vec<(Move, State, u32, f64)> {
        let mut out = Vec::new();
        let mut scratch = Vec::new();
        window.expand(k, state, score, &mut scratch, &mut |m, s, sc, r| {
            out.push((m, s, sc, r))
        });
        out
    }

    #[test]
    fn waiting_garbage_comes_in_on_a_lock_that_clears_nothing_less_what_the_line_sent() {
        let well = crate::games::guideline::board::Board::from_rows(&[
            "X.........",
            "XXXXXXXXX.",
            "XXXXXXXXX.",
            "XXXXXXXXX.",
            "XXXXXXXXX.",
        ])
        .unwrap();
        let mut g = game(vec![Shape::I, Shape::O, Shape::T, Shape::S]);
        g.start.board = well;
        let e = GuidelineEvaluator::new(GuidelineWeights::preset("attack").unwrap());
        let search = |incoming| two_locks(&g, &e, incoming);
        let meter = Incoming {
            rows: 5,
            cap: 8,
            hole: Some(0),
        };
        let (plain, fed) = (search(Incoming::NONE), search(meter));
        let before = children(&plain, 0, &g.start, 0);
        let after = children(&fed, 0, &g.start, 0);
        assert_eq!(before.len(), after.len());
        let mut quad = None;
        for ((m, s, sc, r), (m2, s2, sc2, r2)) in before.iter().zip(&after) {
            assert_eq!((m, sc), (m2, sc2), "the same moves, the same attack");
            if s.combo >= 0 {
                // The I down the well clears four rows: 4 attack, and nothing comes in yet.
                assert_eq!((s, r), (s2, r2));
                quad = Some((*s, *sc));
                continue;
            }
            let mut raised = *s;
            assert!(raised.board.push_garbage(5, 0));
            assert_eq!(*s2, raised, "five rows under {m:?}");
            assert_eq!(*r2, fed.search.rank(0, &raised, *sc));
        }
        let (cleared, sent) = quad.expect("the I clears the well");
        assert_eq!((cleared.board.cell_count(), sent), (1, 4));
        // Past the clear, the next lock that clears nothing lets in what the attack left.
        for (_, s, sc, _) in children(&fed, 1, &cleared, sent) {
            assert_eq!(s.combo, -1, "an O on one cell clears nothing");
            assert_eq!(
                s.board.cell_count(),
                1 + 4 + 9,
                "one row came in, {sc} sent"
            );
        }
        // A lock of a line whose earlier lock let garbage in is not fed again.
        let (_, built, sc, _) = after.iter().find(|c| c.1.combo < 0).unwrap();
        let next = children(&fed, 1, built, *sc);
        let mut unfed = next.iter().filter(|c| c.1.combo < 0).peekable();
        assert!(unfed.peek().is_some());
        for (_, s, _, _) in unfed {
            assert_eq!(s.board.cell_count(), built.board.cell_count() + 4);
        }
    }

    #[test]
    fn a_rise_that_tops_out_ranks_below_every_line_that_lives() {
        let mut g = game(vec![Shape::O, Shape::O, Shape::T]);
        // Fourteen rows, a well at column 0: an O anywhere clears nothing.
        let rows = vec![".XXXXXXXXX"; 14];
        g.start.board = crate::games::guideline::board::Board::from_rows(&rows).unwrap();
        let e = GuidelineEvaluator::new(GuidelineWeights::preset("attack").unwrap());
        let meter = Incoming {
            rows: 8,
            cap: 8,
            hole: None,
        };
        let fed = two_locks(&g, &e, meter);
        let out = children(&fed, 0, &g.start, 0);
        assert!(!out.is_empty());
        assert!(out.iter().all(|c| c.3 >= TOPPED_BY_GARBAGE));
        // With two rows waiting the stack still has room: no line is marked.
        let two = Window {
            incoming: Incoming {
                rows: 2,
                ..fed.incoming
            },
            ..fed
        };
        assert!(children(&two, 0, &g.start, 0)
            .iter()
            .all(|c| c.3 < TOPPED_BY_GARBAGE));
    }

    #[test]
    fn an_opening_is_played_and_stays_low() {
        let g = game(bag7(7, 41));
        let e = GuidelineEvaluator::new(GuidelineWeights::preset("attack").unwrap());
        let player = Player {
            previews: 5,
            beam: 200,
            evaluator: &e,
            fourwide: None,
            speculation: None,
            seven_bag: false,
        };
        let p = play(&g, 40, &player, &AtomicBool::new(false), |_, _| {});
        assert_eq!(p.moves.len(), 40);
        assert!(!p.topped_out && !p.stopped);
    }

    #[test]
    fn a_continuation_finishes_the_bag_then_deals_whole_bags() {
        let mut rng = rand_pcg::Pcg64::seed_from_u64(3);
        let set = |p: &[Shape]| p.iter().fold(0u8, |s, q| s | 1 << q.index());
        for left in [0b101_0010u8, 0, ALL_SHAPES, 1 << Shape::T.index()] {
            let c = continuation(Some(left), 19, &mut rng);
            assert_eq!(c.len(), 19);
            let n = left.count_ones() as usize;
            assert_eq!(set(&c[..n]), left);
            assert_eq!(set(&c[n..n + 7]), ALL_SHAPES);
        }
        // an unknown bag deals any shape
        let c = continuation(None, 200, &mut rng);
        assert_eq!(set(&c), ALL_SHAPES);
    }

    #[test]
    fn speculation_plays_the_same_move_in_the_same_position() {
        let g = game(bag7(11, 60));
        let e = GuidelineEvaluator::new(GuidelineWeights::preset("attack").unwrap());
        let player = Player {
            previews: 3,
            beam: 60,
            evaluator: &e,
            fourwide: None,
            speculation: Some(Speculation {
                samples: 3,
                pieces: 5,
            }),
            seven_bag: true,
        };
        let a = play(&g, 30, &player, &AtomicBool::new(false), |_, _| {});
        let b = play(&g, 30, &player, &AtomicBool::new(false), |_, _| {});
        assert_eq!(a.moves, b.moves);
        assert_eq!(a.moves.len(), 30);
        // the bag after the window is known from the pieces seen
        assert_eq!(
            bag_after_window(&g, 0, &State::START, &player),
            Some(ALL_SHAPES & !g.pieces[..4].iter().fold(0, |s, p| s | 1 << p.index()))
        );
        // a player who sees more than the game has left does not speculate past its end
        let last = g.length - 1;
        let (window, steps) = visible(&g, last, &State::START, 3);
        assert_eq!((window.pieces.len(), steps), (2, 1));
        assert!(decide(&g, last, &State::START, &player).is_some());
    }
}
