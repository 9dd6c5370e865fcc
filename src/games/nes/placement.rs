//! A piece's placement from a sequence of inputs, for a search that plans in frames: the
//! gameplay state set at a piece's spawn on any board and level (no menus, no earlier
//! pieces), stepped frame by frame by the same `step` the movies are judged with.

use super::buttons::Buttons;
use super::gameplay::{Chain, Ending, GameType, GameplayState, Gravity, PlayState};
use super::orientation::{spawn_of, Orientation};
use super::playfield::Playfield;
use super::rng::{Picker, Rng, POWER_ON_SEED};
use super::score::{Lines, Score};
use crate::piece::Shape;

/// Frames played past the inputs (no button down) before giving up on a lock: level 0
/// drops a row every 48 frames, so 20 rows take under 1 000.
const MAX_FALL_FRAMES: usize = 2_000;

/// What a piece's spawn carries over from the piece before.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Carry {
    /// `autorepeatX` ($0046): DAS charge kept from the last piece (16 = charged).
    pub das: u8,
    /// The buttons held on the frame before the spawn (a button still down then is not a
    /// new press).
    pub held: Buttons,
}

impl GameplayState {
    /// An A-type game at the spawn of `current` (`next` on preview) on `playfield` at
    /// `level`: the piece at (5, 0) in its spawn orientation, gravity's timer at 0, the rows
    /// drawn. Score and lines start at 0; the register is the power-on one (it only matters
    /// to pieces dealt later).
    pub fn at_spawn(
        level: u8,
        playfield: Playfield,
        current: Shape,
        next: Shape,
        carry: Carry,
    ) -> GameplayState {
        GameplayState {
            ending: Ending::Playing,
            paused: false,
            chain: Chain::Play,
            play_state: PlayState::Move,
            line_index: 0,
            row_y: 0,
            held: carry.held,
            rng: Rng(POWER_ON_SEED),
            picker: Picker {
                spawn_id: spawn_of(next),
                spawn_count: 0,
            },
            frame_counter: 0,
            vram_row: 0x20,
            completed_lines: 0,
            x: 5,
            y: 0,
            hold_down_points: 0,
            fall_timer: 0,
            autorepeat_y: 0,
            autorepeat_x: carry.das,
            game_type: GameType::A,
            playfield,
            current: spawn_of(current),
            next: spawn_of(next),
            score: Score::default(),
            level,
            lines: Lines::default(),
            killscreen_x2: None,
            double_gravity: false,
        }
    }
}

/// Where a piece came to rest.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Placement {
    /// `currentPiece` when it locked.
    pub orientation: Orientation,
    pub x: i8,
    pub y: i8,
    /// The frame (from 1, the first after the spawn) on which it stopped falling.
    pub frame: usize,
    /// Lines it cleared.
    pub lines: u8,
    /// The board after the lock and the clears.
    pub playfield: Playfield,
    /// DAS at the frame it stopped, which the next piece inherits.
    pub das: u8,
}

/// Plays `inputs` from the spawn of `piece` under `gravity` (then no buttons) until it
/// locks and its rows are checked; `None` if it tops out or never locks.
pub fn place(
    gravity: Gravity,
    playfield: &Playfield,
    piece: Shape,
    carry: Carry,
    inputs: &[Buttons],
) -> Option<Placement> {
    let mut g = GameplayState::at_spawn(gravity.level, playfield.clone(), piece, piece, carry);
    g.double_gravity = gravity.double;
    let mut stopped: Option<(usize, Orientation, i8, i8, u8)> = None;
    let frames = inputs.len() + MAX_FALL_FRAMES;
    for f in 0..frames {
        let input = inputs.get(f).copied().unwrap_or(Buttons::NONE);
        g.step(input);
        if g.over() {
            return None;
        }
        if stopped.is_none() && g.play_state != PlayState::Move {
            stopped = Some((f + 1, g.current, g.x, g.y, g.autorepeat_x));
        }
        if matches!(
            g.play_state,
            PlayState::ClearAnimation | PlayState::UpdateLines
        ) {
            let (frame, orientation, x, y, das) = stopped?;
            return Some(Placement {
                orientation,
                x,
                y,
                frame,
                lines: g.completed_lines,
                playfield: g.playfield,
                das,
            });
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_dropped_o_lands_on_the_floor() {
        let p = place(
            Gravity::single(18),
            &Playfield::default(),
            Shape::O,
            Carry::default(),
            &[],
        )
        .unwrap();
        assert_eq!((p.orientation, p.x, p.y), (0x0A, 5, 18));
        // level 18 falls a row every 3 frames: 18 rows
        assert_eq!(p.frame, 18 * 3 + 3);
        assert!(p.playfield.get(4, 19) && p.playfield.get(5, 18));
    }

    #[test]
    fn a_tap_shifts_once_and_das_repeats_every_six_frames() {
        let left = |n: usize| vec![Buttons::LEFT; n];
        let one = place(
            Gravity::single(0),
            &Playfield::default(),
            Shape::I,
            Carry::default(),
            &left(1),
        )
        .unwrap();
        assert_eq!(one.x, 4);
        // held: a shift at once, the next after 16 frames, then every 6
        let held = place(
            Gravity::single(0),
            &Playfield::default(),
            Shape::I,
            Carry::default(),
            &left(23),
        )
        .unwrap();
        assert_eq!(held.x, 2);
        let held = place(
            Gravity::single(0),
            &Playfield::default(),
            Shape::I,
            Carry::default(),
            &left(40),
        )
        .unwrap();
        assert_eq!(held.x, 2, "the wall stops an I at x 2");
        assert_eq!(held.das, 16);
    }

    #[test]
    fn a_full_row_clears() {
        let mut board = Playfield::default();
        for x in 0..10 {
            if !(4..8).contains(&x) {
                board.set(x, 19, true);
            }
        }
        // I horizontal spawns over x 3-6; one right tap puts it over 4-7
        let p = place(
            Gravity::single(19),
            &board,
            Shape::I,
            Carry::default(),
            &[Buttons::RIGHT],
        )
        .unwrap();
        assert_eq!(p.lines, 1);
        assert!((0..10).all(|x| !p.playfield.get(x, 19)));
    }

    /// Frames from the one a piece stops on to the one the next spawns on, and the piece's
    /// row then.
    fn entry_delay(board: Playfield) -> (usize, i8) {
        let mut g = GameplayState::at_spawn(29, board, Shape::O, Shape::O, Carry::default());
        while g.play_state == PlayState::Move {
            g.step(Buttons::NONE);
        }
        let y = g.y;
        let mut frames = 0;
        while g.play_state != PlayState::Move {
            g.step(Buttons::NONE);
            frames += 1;
        }
        (frames, y)
    }

    #[test]
    fn entry_delay_is_10_to_18_frames_by_lock_height() {
        assert_eq!(entry_delay(Playfield::default()), (10, 18));
        let mut tall = Playfield::default();
        for y in 4..20 {
            tall.set(4, y, true);
        }
        assert_eq!(entry_delay(tall), (18, 2));
    }
}
