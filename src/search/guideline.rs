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
use crate::games::guideline::replay::GuidelineGame;
use crate::games::guideline::{game, Objective, State};
use crate::games::tetrio::blitz::Blitz;
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
    pub game: &'a GuidelineGame,
    /// Pieces to place (at most the game's length).
    pub steps: usize,
    pub evaluator: &'a GuidelineEvaluator,
    /// The 4-wide sub-strategy: a state in a 4-wide section is ranked as the board its known
    /// combo run leaves plus what the run earns (`None`: the board features alone).
    pub fourwide: Option<&'a Continuation>,
    /// A timed game with levels played for TETR.IO's points (BLITZ): the lock's value is
    /// TETR.IO's score at the level reached, plus the hard drop's rows; from one row a frame
    /// on, the placements are those along the surface (`None`: the objective's gain, every
    /// placement).
    pub blitz: Option<&'a Blitz>,
}

impl GuidelineSearch<'_> {
    /// Whether the piece after lock `k` spawns on `after`'s board under the rules' top
    /// (always past the last lock searched).
    #[inline]
    pub(super) fn next_spawns(&self, k: usize, after: &State) -> bool {
        k + 1 >= self.steps
            || self
                .game
                .rules
                .top
                .spawn(&after.board, self.game.pieces[after.next_index(k + 1)])
                .is_some()
    }

    /// The rank of `after`, reached with `score` by lock `k` (0-based).
    #[inline]
    pub(super) fn rank(&self, k: usize, after: &State, score: u32) -> f64 {
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
        // A BLITZ game: its lines so far (the level) and whether pieces keep to the surface.
        let blitz = self.blitz.map(|b| {
            let lines = b.lines_before(k, &state.board);
            (b, lines, b.on_surface(lines))
        });
        let surface = matches!(blitz, Some((_, _, true)));
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
            if surface {
                movegen::surface::placements(&state.board, shape, rules.rotation, placements);
            } else {
                movegen::placements_under(&state.board, shape, rules, placements);
            }
            for &p in placements.iter() {
                let (after, lock) = game::lock_under(&before, &p.active(), rules);
                if lock.lock_out {
                    continue;
                }
                if !self.next_spawns(k, &after) {
                    continue;
                }
                let (score, rank) = match blitz {
                    None => {
                        let score = score + rules.objective.gain(&lock.earned, lock.lines);
                        let mut rank = self.rank(k, &after, score);
                        if rules.objective == Objective::Lines {
                            // A sprint is also timed by its key presses: the cheaper
                            // placement first.
                            rank += sprint_keys::PRESS_WEIGHT
                                * sprint_keys::presses(&state.board, &p, hold) as f64;
                        }
                        (score, rank)
                    }
                    // TETR.IO's points at the level the lines reach, and the hard drop's as
                    // the record's path gives them (none at the surface: the piece is down).
                    Some((b, lines, surface)) => {
                        let drop = match surface {
                            true => 0,
                            false => blitz_path(&state.board, &p, rules.rotation).1,
                        };
                        let score = score + b.lock_points(lines, &lock) + drop;
                        (score, self.rank(k, &after, score))
                    }
                };
                emit(Move { placement: p, hold }, after, score, rank);
            }
        }
    }
}

/// The record's path to `p` in a BLITZ game under gravity that lets the piece move above the
/// stack, and the points of its hard drop (two a row from where the path ends): a turn at
/// the spawn and a shift along the spawn row when nothing is in the way and the drop from
/// there lands on `p`, else the shortest path of [`movegen::path`].
pub fn blitz_path(
    board: &crate::games::guideline::Board,
    p: &Placement,
    system: crate::games::srs::RotationSystem,
) -> (Vec<Op>, u32) {
    use crate::games::guideline::piece::{fits, spawn_origin};
    let (sx, sy) = spawn_origin(p.shape);
    let straight = p.spin == crate::games::guideline::Spin::None
        && fits(board, p.shape, 0, sx, sy)
        && fits(board, p.shape, p.state, sx, sy)
        && (sx.min(p.x)..=sx.max(p.x)).all(|x| fits(board, p.shape, p.state, x, sy));
    if straight {
        let at = Active {
            shape: p.shape,
            state: p.state,
            x: p.x,
            y: sy,
            twist: crate::games::guideline::piece::Twist::None,
        };
        let rows = at.drop_distance(board);
        if movegen::lands_as(board, &at) == *p {
            let mut ops = match p.state {
                1 => vec![Op::Rotate],
                2 => vec![Op::Flip],
                3 => vec![Op::Ccw],
                _ => vec![],
            };
            let shift = if p.x < sx { Op::Left } else { Op::Right };
            ops.extend(std::iter::repeat_n(
                shift,
                (p.x - sx).unsigned_abs() as usize,
            ));
            return (ops, 2 * rows as u32);
        }
    }
    let ops = movegen::path(board, p, system).expect("every placement has a path");
    let mut at = Active::spawn(board, p.shape).expect("the piece spawned");
    for &op in &ops {
        at = at.apply(board, op, system);
    }
    (ops, 2 * at.drop_distance(board) as u32)
}

/// Searches `game` for its first `steps` pieces with `beam` states kept per piece.
pub fn search(
    game: &GuidelineGame,
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
    game: &GuidelineGame,
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
        blitz: None,
    };
    beam::search_game_observed(&s, beam_width, stop, report, observe)
}

/// [`search`] on a BLITZ game: TETR.IO's points at a pace (see [`GuidelineSearch::blitz`]).
pub fn search_blitz(
    game: &GuidelineGame,
    steps: usize,
    beam_width: impl Into<Width>,
    evaluator: &GuidelineEvaluator,
    blitz: &Blitz,
    stop: &AtomicBool,
    report: impl FnMut(&StepReport),
) -> Line<Move> {
    let s = GuidelineSearch {
        game,
        steps: steps.min(game.length),
        evaluator,
        fourwide: None,
        blitz: Some(blitz),
    };
    beam::search_game_observed(&s, beam_width, stop, report, None)
}

/// The record of `moves` on a BLITZ game: each piece's path as the search scored it (along
/// the surface from one row a frame, else [`blitz_path`]).
pub fn record_blitz(game: &GuidelineGame, moves: &[Move], blitz: &Blitz) -> Record {
    let mut state = game.start;
    let mut paths: Vec<Vec<Op>> = Vec::with_capacity(moves.len());
    for (k, mv) in moves.iter().enumerate() {
        let mut ops = Vec::new();
        if mv.hold {
            ops.push(Op::Hold);
        }
        let board = &state.board;
        let system = game.rules.rotation;
        if blitz.on_surface(blitz.lines_before(k, board)) {
            ops.extend(
                movegen::surface::path(board, &mv.placement, system)
                    .expect("every kept placement has a path"),
            );
        } else {
            ops.extend(blitz_path(board, &mv.placement, system).0);
        }
        let current = game.pieces[state.next_index(k)];
        if mv.hold {
            state.hold = Some(current);
        }
        state = game::lock(&state, &mv.placement.active(), game.rules.combo_table).0;
        paths.push(ops);
    }
    Record::from_paths(paths.iter().map(|p| p.as_slice()))
}

/// The record that plays `moves` on `game`: per piece `N`, `H1` when it holds, and a
/// shortest op path to its placement.
pub fn record(game: &GuidelineGame, moves: &[Move]) -> Record {
    let mut state = game.start;
    let mut paths: Vec<Vec<Op>> = Vec::with_capacity(moves.len());
    for mv in moves {
        let mut ops = Vec::new();
        if mv.hold {
            ops.push(Op::Hold);
        }
        let rules = &game.rules;
        ops.extend(
            movegen::path_under(&state.board, &mv.placement, rules)
                .expect("every kept placement has a path"),
        );
        paths.push(ops);
        let current = game.pieces[state.next_index(paths.len() - 1)];
        if mv.hold {
            state.hold = Some(current);
        }
        state = game::lock_under(&state, &mv.placement.active(), rules).0;
    }
    Record::from_paths(paths.iter().map(|p| p.as_slice()))
}
