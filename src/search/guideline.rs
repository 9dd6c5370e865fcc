//! The beam search on guideline games: a state is the board, the hold slot, the combo
//! counter and the back-to-back chain; each step offers the current piece and, through hold,
//! the held piece (or, with an empty slot, the next one).

use super::beam::{self, BeamGame, Line, Observer, StepReport};
use super::sprint_keys;
use super::width::Width;
use crate::eval::guideline::GuidelineEvaluator;
use crate::fourwide::continuation::Continuation;
use crate::games::guideline::movegen::{self, Placement};
use crate::games::guideline::piece::Active;
use crate::games::guideline::replay::Game;
use crate::games::guideline::{game, Objective, State};
use crate::record::{Op, Record};
use std::sync::atomic::AtomicBool;

/// A piece's move: where it locks, and whether it came in through hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Move {
    pub placement: Placement,
    pub hold: bool,
}

/// A guideline game as the beam sees it.
pub struct GuidelineSearch<'a> {
    pub game: &'a Game,
    /// Pieces to place (at most the game's length).
    pub steps: usize,
    pub evaluator: &'a GuidelineEvaluator,
    /// The 4-wide sub-strategy: a state in a 4-wide section is ranked as the board its known
    /// combo run leaves plus what the run earns (`None`: the board features alone).
    pub fourwide: Option<&'a Continuation>,
}

impl GuidelineSearch<'_> {
    /// The rank of `after`, reached with `score` by lock `k` (0-based).
    #[inline]
    fn rank(&self, k: usize, after: &State, score: u32) -> f64 {
        let ahead = self
            .fourwide
            .and_then(|fw| fw.ahead(after, after.next_index(k + 1), self.steps - (k + 1)));
        match ahead {
            Some(a) if a.clears > 0 => self.evaluator.rank(
                &a.after,
                score.saturating_add(a.gain.min(u32::MAX as u64) as u32),
            ),
            _ => self.evaluator.rank(after, score),
        }
    }
}

impl BeamGame for GuidelineSearch<'_> {
    type State = State;
    type Move = Move;
    type Scratch = Vec<Placement>;
    const WHOLE_GAME: bool = true;
    // Two pieces a step (the current one and the hold one), ~23 placements each.
    const CHILDREN_HINT: usize = 56;

    fn start(&self) -> State {
        self.game.start
    }

    fn goal(&self) -> Option<u32> {
        self.game.rules.objective.goal()
    }

    fn steps(&self) -> usize {
        self.steps
    }

    #[inline]
    fn expand(
        &self,
        k: usize,
        state: &State,
        score: u32,
        placements: &mut Vec<Placement>,
        emit: &mut impl FnMut(Move, State, u32, f64),
    ) {
        let pieces = &self.game.pieces;
        let rules = &self.game.rules;
        let index = state.next_index(k);
        let current = pieces[index];
        // (piece played, came through hold, hold slot after)
        let held = match state.hold {
            Some(h) if h == current => None,
            Some(h) => Some((h, Some(current))),
            None => Some((pieces[index + 1], Some(current))),
        };
        let options = [
            Some((current, false, state.hold)),
            held.map(|(p, s)| (p, true, s)),
        ];
        for (shape, hold, slot) in options.into_iter().flatten() {
            let before = State {
                hold: slot,
                ..*state
            };
            placements.clear();
            movegen::placements(&state.board, shape, rules.rotation, placements);
            for &p in placements.iter() {
                let (after, lock) = game::lock(&before, &p.active(), rules.combo_table);
                if lock.lock_out {
                    continue;
                }
                if k + 1 < self.steps {
                    let next = pieces[after.next_index(k + 1)];
                    if Active::spawn(&after.board, next).is_none() {
                        continue;
                    }
                }
                let gain = rules.objective.gain(&lock.earned, lock.lines);
                let score = score + gain;
                let mut rank = self.rank(k, &after, score);
                if rules.objective == Objective::Lines {
                    // A sprint is also timed by its key presses: the cheaper placement first.
                    rank += sprint_keys::PRESS_WEIGHT
                        * sprint_keys::presses(&state.board, &p, hold) as f64;
                }
                emit(Move { placement: p, hold }, after, score, rank);
            }
        }
    }
}

/// Searches `game` for its first `steps` pieces with `beam` states kept per piece.
pub fn search(
    game: &Game,
    steps: usize,
    beam_width: impl Into<Width>,
    evaluator: &GuidelineEvaluator,
    fourwide: Option<&Continuation>,
    stop: &AtomicBool,
    report: impl FnMut(&StepReport),
) -> Line<Move> {
    search_observed(
        game, steps, beam_width, evaluator, fourwide, stop, report, None,
    )
}

/// [`search`], calling `observe` after every step with the states kept (the data of
/// `learn data` on a guideline game).
#[allow(clippy::too_many_arguments)]
pub fn search_observed(
    game: &Game,
    steps: usize,
    beam_width: impl Into<Width>,
    evaluator: &GuidelineEvaluator,
    fourwide: Option<&Continuation>,
    stop: &AtomicBool,
    report: impl FnMut(&StepReport),
    observe: Option<Observer<'_, State>>,
) -> Line<Move> {
    let s = GuidelineSearch {
        game,
        steps: steps.min(game.length),
        evaluator,
        fourwide,
    };
    beam::search_game_observed(&s, beam_width, stop, report, observe)
}

/// The record that plays `moves` on `game`: per piece `N`, `H1` when it holds, and a
/// shortest op path to its placement.
pub fn record(game: &Game, moves: &[Move]) -> Record {
    let mut state = game.start;
    let mut paths: Vec<Vec<Op>> = Vec::with_capacity(moves.len());
    for mv in moves {
        let mut ops = Vec::new();
        if mv.hold {
            ops.push(Op::Hold);
        }
        ops.extend(
            movegen::path(&state.board, &mv.placement, game.rules.rotation)
                .expect("every kept placement has a path"),
        );
        paths.push(ops);
        let current = game.pieces[state.next_index(paths.len() - 1)];
        if mv.hold {
            state.hold = Some(current);
        }
        state = game::lock(&state, &mv.placement.active(), game.rules.combo_table).0;
    }
    Record::from_paths(paths.iter().map(|p| p.as_slice()))
}
