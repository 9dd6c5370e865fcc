//! Online play in 4-wide sections: the 4-wide solver's policy takes over the moves of a combo
//! in a section, and its transitions rank sections inside the visible window.
//!
//! Offline, the whole queue is known and the solver's transitions are run over it exactly
//! ([`Continuation`]). Online, a player sees the hold piece, the current piece and a few
//! previews, which is exactly the state of the 4-wide MDP: the solved policy's choice is the
//! move with the best expected combo over every queue that can follow (the 7-bag's remaining
//! pieces included, which a player who counts knows). So in a section, once a combo runs (or
//! the window's search starts one), the policy chooses the residual each piece leaves, and the
//! engine's move generation finds the placement that leaves it. The window's search still
//! decides when a combo starts, ranking a section by the run the visible pieces can make.

use super::guideline::Move;
use crate::error::Result;
use crate::fourwide::continuation::{piece_of, Continuation};
use crate::fourwide::{self, section, Config, Field, Generator, Piece, Placements, Policy};
use crate::games::guideline::piece::Active;
use crate::games::guideline::replay::GuidelineGame;
use crate::games::guideline::State;
use crate::piece::Shape;

/// The most previews the section policy is solved for: 7-bag with hold and 5 previews solves
/// in seconds (results/fourwide/fourwide.json); a player seeing more uses the first five.
pub const MAX_POLICY_PREVIEW: usize = 5;

/// What online play uses of the 4-wide solver.
pub struct SectionPlay {
    /// The transitions, what runs earn in this game and the policy's expected combo past a
    /// window, made once (its own queue is empty): solved over each window as it is seen.
    open: Continuation,
    policy: Policy,
}

impl SectionPlay {
    /// Solves the 3-residual policy for a player seeing `previews` pieces (at most
    /// [`MAX_POLICY_PREVIEW`]) with hold, under the game's generator (`bag`: 7-bags dealt
    /// from the first piece, as `tetrio` and `bag7` do; otherwise independent pieces).
    pub fn solve(game: &GuidelineGame, previews: usize, bag: bool) -> Result<SectionPlay> {
        let config = Config {
            residuals: 3,
            generator: if bag {
                Generator::Bag
            } else {
                Generator::Random
            },
            preview: previews.min(MAX_POLICY_PREVIEW),
            hold: true,
            placements: Placements::Srs,
        };
        let policy = fourwide::solve(&config, &mut |_, _| {})?;
        Ok(SectionPlay::with_policy(game, policy))
    }

    /// Uses a solved (or loaded) `policy`.
    pub fn with_policy(game: &GuidelineGame, policy: Policy) -> SectionPlay {
        let (table, objective) = (game.rules.combo_table, game.rules.objective);
        let expected = policy.field_values();
        let open = Continuation::build(&[], table, objective).open_ended(
            |f| {
                expected
                    .iter()
                    .find(|(g, _)| *g == f)
                    .map_or(0.0, |(_, v)| *v)
            },
            game.length,
            table,
            objective,
        );
        SectionPlay { open, policy }
    }

    /// The policy's configuration.
    pub fn config(&self) -> &Config {
        self.policy.config()
    }

    /// The runs a window's sections can make, to rank them by: exact over the window's pieces
    /// (the window of `game` that starts at lock `locks` and spans `steps` locks), and a run
    /// that lasts to the window's end goes on by the policy's expected combo.
    pub fn continuation(
        &self,
        game: &GuidelineGame,
        locks: usize,
        window: &GuidelineGame,
        steps: usize,
    ) -> Continuation {
        let beyond = game.length.saturating_sub(locks + steps);
        self.open.over(&window.pieces, beyond)
    }

    fn knows(&self, field: Field) -> bool {
        self.policy.structure.transitions.index(field).is_some()
    }

    /// Whether going from `state` to `after` was one step of a section's combo: one row
    /// cleared (four cells placed, ten gone) and a section the policy knows left on the same
    /// column and floor. When the search's move is such a step, the policy chooses which one.
    pub fn is_step(&self, state: &State, after: &State) -> bool {
        let (Some(a), Some(b)) = (
            section::find(&state.board, |f| self.knows(f)),
            section::find(&after.board, |f| self.knows(f)),
        ) else {
            return false;
        };
        after.board.cell_count() + 6 == state.board.cell_count()
            && a.column == b.column
            && a.floor == b.floor
    }

    /// The policy's move at lock `locks` of `game` in `state`, when the board holds a section
    /// the policy knows, a piece is held and the queue the policy sees is dealt: the best
    /// choice an engine placement realises. `None` otherwise (the search decides).
    pub fn step(&self, game: &GuidelineGame, locks: usize, state: &State) -> Option<Move> {
        let hold = state.hold?;
        let section = section::find(&state.board, |f| self.knows(f))?;
        let config = self.policy.config();
        let current = state.next_index(locks);
        let last = current + config.preview;
        if last >= game.pieces.len() || locks >= game.length {
            return None;
        }
        let piece = |i: usize| piece_of(game.pieces[i]);
        let next: Vec<Piece> = (current + 1..=last).map(piece).collect();
        let bag: Vec<Piece> = match config.generator {
            // What the bag of the last visible piece still holds: the seven less those dealt.
            Generator::Bag => {
                let dealt: Vec<Piece> = (last - last % 7..=last).map(piece).collect();
                (0..7)
                    .map(Piece::from_index)
                    .filter(|p| !dealt.contains(p))
                    .collect()
            }
            Generator::Random => Vec::new(),
        };
        let choices = self
            .policy
            .choices(
                section.field,
                Some(piece_of(hold)),
                piece(current),
                &next,
                &bag,
            )
            .ok()?;
        let mut scratch = Vec::new();
        choices.iter().find_map(|c| {
            let target = Field::parse(&c.field).ok()?;
            let shape = Shape::from_letter(c.piece)?;
            let before = State {
                hold: if c.hold {
                    Some(game.pieces[current])
                } else {
                    state.hold
                },
                ..*state
            };
            let (placement, after) =
                section::step_to(&before, shape, &section, target, &game.rules, &mut scratch)?;
            // The piece after it must be able to enter (a well away from the spawn columns
            // can leave the spawn over a tall side stack).
            if locks + 1 < game.length {
                let next = game.pieces[after.next_index(locks + 1)];
                Active::spawn(&after.board, next)?;
            }
            Some(Move {
                placement,
                hold: c.hold,
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::guideline::{GuidelineEvaluator, GuidelineWeights};
    use crate::fourwide::simulate::{board_with, WELL};
    use crate::games::guideline::{ComboTable, Objective};
    use crate::search::online;

    fn game(pieces: &str) -> GuidelineGame {
        online::tests::game(
            pieces
                .chars()
                .map(|c| Shape::from_letter(c).unwrap())
                .collect(),
        )
    }

    /// A 4-wide well in columns 3..6 over `XXX_`, the sides full to row 20, a combo running.
    fn in_section(hold: Shape) -> State {
        let mut board = board_with(Field::parse("XXX_").unwrap());
        for col in board.cols.iter_mut() {
            // keep rows 0..20 (bits 23..4)
            *col &= !0xF;
        }
        State {
            board,
            hold: Some(hold),
            combo: 3,
            ..State::START
        }
    }

    #[test]
    fn in_a_section_the_policy_chooses_the_step_and_the_engine_plays_it() {
        // two full bags: the policy's queue and bag state are all dealt
        let g = game("TIOLJSZTIOLJSZI");
        let sp = SectionPlay::solve(&g, 2, true).unwrap();
        let state = in_section(Shape::T);
        let locks = 1;
        let mv = sp
            .step(&g, locks, &state)
            .expect("a section with a piece held");
        // the policy's own best choice, asked directly with the same queue and bag
        let current = state.next_index(locks);
        let p = |i: usize| piece_of(g.pieces[i]);
        let next = [p(current + 1), p(current + 2)];
        let dealt: Vec<Piece> = (7..=current + 2).map(p).collect();
        let bag: Vec<Piece> = (0..7)
            .map(Piece::from_index)
            .filter(|x| !dealt.contains(x))
            .collect();
        let choices = sp
            .policy
            .choices(
                Field::parse("XXX_").unwrap(),
                Some(Piece::T),
                p(current),
                &next,
                &bag,
            )
            .unwrap();
        let best = &choices[0];
        assert_eq!(mv.hold, best.hold);
        let after = online::advance(&g, locks, &state, &mv);
        let s = section::find(&after.board, |f| sp.knows(f)).unwrap();
        assert_eq!((s.column, s.floor), (WELL, 0));
        assert_eq!(
            s.field.to_string(),
            best.field,
            "the engine left the chosen field"
        );
        assert_eq!(after.combo, 4, "one more clear of the combo");
        assert!(sp.is_step(&state, &after));
        // and the online decision takes it: the window's search also runs the combo
        let e = GuidelineEvaluator::new(GuidelineWeights::preset("attack").unwrap());
        let player = online::Player {
            previews: 2,
            beam: 50,
            evaluator: &e,
            fourwide: Some(&sp),
            speculation: None,
            seven_bag: false,
        };
        let d = online::decide(&g, locks, &state, &player).unwrap();
        assert!(d.by_policy);
        assert_eq!(d.mv, mv);
    }

    #[test]
    fn no_section_or_no_hold_leaves_the_move_to_the_search() {
        let g = game("TIOLJSZTIOLJSZI");
        let sp = SectionPlay::solve(&g, 1, true).unwrap();
        let mut state = in_section(Shape::T);
        state.hold = None;
        assert!(
            sp.step(&g, 0, &state).is_none(),
            "the policy needs a held piece"
        );
        assert!(
            sp.step(&g, 0, &State::START).is_none(),
            "no section on an empty board"
        );
        let e = GuidelineEvaluator::new(GuidelineWeights::preset("attack").unwrap());
        let player = online::Player {
            previews: 1,
            beam: 20,
            evaluator: &e,
            fourwide: Some(&sp),
            speculation: None,
            seven_bag: false,
        };
        let d = online::decide(&g, 0, &State::START, &player).unwrap();
        assert!(!d.by_policy);
    }

    #[test]
    fn a_window_run_that_reaches_its_end_goes_on_by_the_policy_value() {
        let g = game("TIOLJSZTIOLJSZI");
        let sp = SectionPlay::solve(&g, 1, true).unwrap();
        let state = State {
            combo: -1,
            ..in_section(Shape::T)
        };
        let (window, steps) = online::visible(&g, 1, &state, 1);
        let open = sp.continuation(&g, 1, &window, steps);
        let closed = Continuation::build(&window.pieces, ComboTable::Guideline, Objective::Attack);
        let a = open.ahead(&state, state.next_index(0), steps).unwrap();
        let b = closed.ahead(&state, state.next_index(0), steps).unwrap();
        assert!(b.clears <= steps + 1, "the window alone: {}", b.clears);
        // bag + hold keeps the combo going past the window, up to the 20 side rows or the
        // game's remaining pieces
        let remaining = g.length - 1;
        assert_eq!(a.clears, remaining.min(20));
        assert!(a.gain > b.gain);
    }
}
