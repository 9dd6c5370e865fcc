//! The 4-wide model against the real rules: play a solved policy on a guideline board (a
//! well in columns 3..6, the six side columns full) with pieces entering from the real spawn
//! and moving by the engine's own move generation, and compare the mean combo with the
//! value the solver predicts.
//!
//! Each game starts at a random point of an endless sequence (a uniform phase in a 7-bag for
//! the bag generator), with the hold piece uniform when hold is on: the distribution the
//! reported field value averages over. The side columns are refilled to the top after every
//! lock, so the walls are as high as the model's, and a policy choice is realised by an
//! engine placement that clears one row and leaves the chosen field; a choice no placement
//! realises is a disagreement between model and engine, counted and reported.

use super::field::{Field, Piece};
use super::section;
use super::srs::shape;
use super::{Generator, Policy};
use crate::error::{Error, Result};
use crate::games::guideline::board::{Board, COLUMN_BITS};
use crate::games::guideline::{ComboTable, Objective, Rules, State, TopOut};
use crate::games::srs::RotationSystem;
use crate::piece::Shape;
use rand::{Rng, SeedableRng};
use serde::Serialize;
use std::collections::VecDeque;

/// The leftmost well column (the real spawn is above columns 3..6).
pub const WELL: usize = 3;

/// What a simulation measured.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Measured {
    /// The solver's expected combo for the field (as `fourwide --json` reports it).
    pub predicted: f64,
    /// Mean clearing pieces per game.
    pub mean: f64,
    /// Half-width of the 95 % interval of the mean (1.96 standard errors).
    pub ci95: f64,
    pub games: usize,
    /// Policy choices no engine placement realised (0 when model and engine agree).
    pub disagreements: usize,
    pub longest: usize,
}

/// An endless piece sequence that knows, for each piece it has dealt, what is left of its
/// bag after it (empty for the random generator and at a bag's end).
struct Source {
    generator: Generator,
    rng: rand_pcg::Pcg64,
    queue: VecDeque<(Piece, Vec<Piece>)>,
}

impl Source {
    fn new(generator: Generator, rng: rand_pcg::Pcg64) -> Source {
        let mut s = Source {
            generator,
            rng,
            queue: VecDeque::new(),
        };
        if generator == Generator::Bag {
            // a uniform phase inside the first bag: the stationary start
            s.refill();
            let skip = s.rng.gen_range(0..7);
            s.queue.drain(..skip);
        }
        s
    }

    fn refill(&mut self) {
        match self.generator {
            Generator::Random => {
                let p = Piece::from_index(self.rng.gen_range(0..7));
                self.queue.push_back((p, Vec::new()));
            }
            Generator::Bag => {
                let mut bag = Piece::ALL.to_vec();
                for i in (1..bag.len()).rev() {
                    bag.swap(i, self.rng.gen_range(0..=i));
                }
                for i in 0..bag.len() {
                    self.queue.push_back((bag[i], bag[i + 1..].to_vec()));
                }
            }
        }
    }

    /// Makes at least `n` pieces visible.
    fn see(&mut self, n: usize) {
        while self.queue.len() < n {
            self.refill();
        }
    }
}

/// A guideline board holding `field` in the well, the sides full to the top.
pub fn board_with(field: Field) -> Board {
    let mut board = Board::EMPTY;
    for (x, col) in board.cols.iter_mut().enumerate() {
        if !(WELL..WELL + 4).contains(&x) {
            *col = COLUMN_BITS;
        }
    }
    for y in 0..8 {
        for x in 0..4 {
            if field.filled(x, y) {
                board.fill(WELL + x as usize, y as usize);
            }
        }
    }
    board
}

/// The engine placement of `piece` that clears one row and leaves `target` in the well, and
/// the board after it (sides refilled).
fn realise(
    board: &Board,
    piece: Piece,
    target: Field,
    known: &impl Fn(Field) -> bool,
) -> Option<Board> {
    let section = section::find(board, known)?;
    let state = State {
        board: *board,
        ..State::START
    };
    let rules = Rules {
        rotation: RotationSystem::Srs,
        combo_table: ComboTable::Guideline,
        objective: Objective::Attack,
        top: TopOut::Guideline,
    };
    let (_, after) = section::step_to(
        &state,
        shape(piece),
        &section,
        target,
        &rules,
        &mut Vec::new(),
    )?;
    let mut b = after.board;
    for (x, col) in b.cols.iter_mut().enumerate() {
        if !(WELL..WELL + 4).contains(&x) {
            *col = COLUMN_BITS;
        }
    }
    Some(b)
}

/// Plays `games` games of `policy` from `field` with the engine; `max_clears` ends a game
/// that long (counted as played to there).
pub fn simulate(
    policy: &Policy,
    field: Field,
    games: usize,
    rng_seed: u64,
    max_clears: usize,
    mut progress: impl FnMut(usize),
) -> Result<Measured> {
    let config = *policy.config();
    if config.residuals != 3 {
        return Err(Error("simulate plays 3-residual fields (seed XXX_)".into()));
    }
    let s = &policy.structure;
    let predicted = policy
        .field_values()
        .into_iter()
        .find(|(f, _)| *f == field)
        .map(|(_, v)| v)
        .ok_or_else(|| Error(format!("field {field} is not reachable from XXX_")))?;
    let known = |f: Field| s.transitions.index(f).is_some();
    let mut rng = rand_pcg::Pcg64::seed_from_u64(rng_seed);
    let (mut sum, mut sum_sq, mut disagreements, mut longest) = (0.0, 0.0, 0, 0);
    for g in 0..games {
        let mut source = Source::new(config.generator, rand_pcg::Pcg64::seed_from_u64(rng.gen()));
        let mut hold = config.hold.then(|| Piece::from_index(rng.gen_range(0..7)));
        let mut board = board_with(field);
        let mut current_field = field;
        let mut clears = 0;
        while clears < max_clears {
            source.see(config.preview + 1);
            let current = source.queue[0].0;
            let next: Vec<Piece> = source
                .queue
                .range(1..=config.preview)
                .map(|q| q.0)
                .collect();
            let bag = &source.queue[config.preview].1;
            let choices = policy.choices(current_field, hold, current, &next, bag)?;
            let Some(best) = choices.first() else {
                break;
            };
            let target = Field::parse(&best.field)?;
            let piece = Shape::from_letter(best.piece)
                .map(super::continuation::piece_of)
                .expect("a piece letter");
            let Some(after) = realise(&board, piece, target, &known) else {
                disagreements += 1;
                break;
            };
            if best.hold {
                hold = Some(current);
            }
            board = after;
            current_field = target;
            clears += 1;
            source.queue.pop_front();
        }
        let c = clears as f64;
        sum += c;
        sum_sq += c * c;
        longest = longest.max(clears);
        progress(g + 1);
    }
    let n = games.max(1) as f64;
    let mean = sum / n;
    let var = if games > 1 {
        (sum_sq - n * mean * mean) / (n - 1.0)
    } else {
        0.0
    };
    Ok(Measured {
        predicted,
        mean,
        ci95: 1.96 * (var.max(0.0) / n).sqrt(),
        games,
        disagreements,
        longest,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fourwide::{solve, Config, Placements};

    fn policy(generator: Generator, preview: usize, hold: bool) -> Policy {
        let config = Config {
            residuals: 3,
            generator,
            preview,
            hold,
            placements: Placements::Srs,
        };
        solve(&config, &mut |_, _| {}).unwrap()
    }

    #[test]
    fn the_board_reads_back_as_its_field() {
        for text in ["XXX_", "X_XX", "XX__/X___"] {
            let f = Field::parse(text).unwrap();
            let s = section::find(&board_with(f), |_| true).unwrap();
            assert_eq!((s.column, s.floor, s.field), (WELL, 0, f));
        }
    }

    #[test]
    fn every_choice_is_realised_and_runs_repeat() {
        for (generator, preview, hold) in [
            (Generator::Random, 0, false),
            (Generator::Bag, 1, false),
            (Generator::Bag, 1, true),
        ] {
            let p = policy(generator, preview, hold);
            let f = Field::parse("XXX_").unwrap();
            let a = simulate(&p, f, 200, 7, 500, |_| {}).unwrap();
            assert_eq!(a.disagreements, 0, "{generator:?} p{preview} hold {hold}");
            assert!(a.mean > 0.0);
            let b = simulate(&p, f, 200, 7, 500, |_| {}).unwrap();
            assert_eq!(a, b);
        }
    }

    #[test]
    fn the_prediction_is_the_reported_field_value() {
        let p = policy(Generator::Random, 0, false);
        let f = Field::parse("XXX_").unwrap();
        let m = simulate(&p, f, 1, 1, 10, |_| {}).unwrap();
        // the SPEC's value for XXX_ under random, no hold, no preview
        assert_eq!(format!("{:.3}", m.predicted), "2.450");
    }
}
