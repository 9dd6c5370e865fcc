//! Online play on a guideline game: before each lock the beam searches only what a player
//! sees (the board, the hold piece, the current piece and `previews` more), the first move of
//! the best-ranked line is played, and the next lock searches again.
//!
//! The search never reads the sequence past the window: it runs on a [`Game`] cut to the
//! visible pieces, so a piece it was not shown is not there to read.

use super::beam::{self, BeamGame};
use super::guideline::{GuidelineSearch, Move};
use super::section_play::SectionPlay;
use crate::eval::guideline::GuidelineEvaluator;
use crate::games::guideline::movegen::Placement;
use crate::games::guideline::replay::Game;
use crate::games::guideline::{game, State};
use std::sync::atomic::{AtomicBool, Ordering};

/// The guideline search from a state in the middle of a game, over a visible window: its
/// line is the best-ranked one at the window's end (a short horizon's score says little).
struct Window<'a> {
    search: GuidelineSearch<'a>,
    start: State,
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
        self.search.expand(k, state, score, scratch, emit)
    }
}

/// What a player sees before lock `locks` of `game` in `state`: the pieces from index
/// `locks` on (the current one is `state.next_index(locks)`; with a held piece the one
/// before it was already seen) up to the `previews`-th after the current one, and how many
/// locks a search can make on them. A lock with an empty hold slot may play the first
/// preview, so such a search stops one lock earlier; the game's end cuts both.
pub fn visible(game: &Game, locks: usize, state: &State, previews: usize) -> (Game, usize) {
    let held = state.hold.is_some() as usize;
    let end = (locks + held + 1 + previews).min(game.pieces.len());
    let steps = (previews + held).min(game.length.saturating_sub(locks));
    let window = Game {
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
pub fn decide(game: &Game, locks: usize, state: &State, player: &Player) -> Option<Decision> {
    decide_until(game, locks, state, player, &AtomicBool::new(false))
}

/// [`decide`] whose search stops between two pieces once `stop` is set (a time budget, a
/// front end that quits) and plays the first move of the best-ranked line of the last piece
/// it reached: a front end waiting on a clock needs some move in time.
pub fn decide_until(
    game: &Game,
    locks: usize,
    state: &State,
    player: &Player,
    stop: &AtomicBool,
) -> Option<Decision> {
    let Player {
        previews,
        beam,
        evaluator,
        fourwide,
    } = *player;
    // Holding into an empty slot plays the first preview: with none there is nothing to see.
    assert!(previews >= 1, "online play needs at least one preview");
    let (window, steps) = visible(game, locks, state, previews);
    let continuation = fourwide.map(|f| f.continuation(game, locks, &window, steps));
    let search = Window {
        search: GuidelineSearch {
            game: &window,
            steps,
            evaluator,
            fourwide: continuation.as_ref(),
        },
        start: *state,
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

/// A decision and who made it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Decision {
    pub mv: Move,
    /// The 4-wide policy chose the move (a step of a section's combo).
    pub by_policy: bool,
}

/// `state` after `mv` is played at lock `locks` of `game` (hold taken first).
pub fn advance(game: &Game, locks: usize, state: &State, mv: &Move) -> State {
    let mut before = *state;
    if mv.hold {
        before.hold = Some(game.pieces[state.next_index(locks)]);
    }
    game::lock(&before, &mv.placement.active(), game.rules.combo_table).0
}

/// How an online player decides: what it sees, how wide it searches, how it ranks, and the
/// 4-wide solver for sections (`None`: the search alone).
#[derive(Clone, Copy)]
pub struct Player<'a> {
    pub previews: usize,
    pub beam: usize,
    pub evaluator: &'a GuidelineEvaluator,
    pub fourwide: Option<&'a SectionPlay>,
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
    game: &Game,
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
    use crate::games::guideline::{ComboTable, Objective, Rules};
    use crate::games::srs::RotationSystem;
    use crate::piece::Shape;

    /// An SRS attack game (guideline combo table) of `pieces` (the last only seen).
    pub(crate) fn game(pieces: Vec<Shape>) -> Game {
        Game {
            rules: Rules {
                rotation: RotationSystem::Srs,
                combo_table: ComboTable::Guideline,
                objective: Objective::Attack,
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
        let seed: crate::seed::Seed = serde_json::from_str(&text).unwrap();
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

    #[test]
    fn an_opening_is_played_and_stays_low() {
        let g = game(bag7(7, 41));
        let e = GuidelineEvaluator::new(GuidelineWeights::preset("attack").unwrap());
        let player = Player {
            previews: 5,
            beam: 200,
            evaluator: &e,
            fourwide: None,
        };
        let p = play(&g, 40, &player, &AtomicBool::new(false), |_, _| {});
        assert_eq!(p.moves.len(), 40);
        assert!(!p.topped_out && !p.stopped);
    }
}
