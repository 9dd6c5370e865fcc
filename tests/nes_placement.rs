//! The placement function a search replays records with (`GameplayState::at_spawn` and
//! `placement::place`, no menus, no earlier pieces) against the full engine on real movies:
//! every piece, from its spawn with the movie's inputs, must stop where and when the game
//! from power-on stopped it.

mod common;

use beamtris::games::nes::gameplay::{Ending, Gravity, PlayState};
use beamtris::games::nes::orientation::shape;
use beamtris::games::nes::placement::{place, Carry};
use beamtris::games::nes::{Buttons, Console, GameplayState};
use std::path::Path;

/// Plays the movie and checks each piece after the first; returns how many were checked.
fn check_movie(file: &str) -> usize {
    let m = common::read_movie(Path::new(file));
    let input = |f: usize| m.inputs.get(f).copied().unwrap_or(Buttons::NONE);
    let mut console = Console::power_on();
    let mut spawned: Option<(usize, GameplayState)> = None;
    let mut was_moving = false;
    let mut checked = 0;
    let mut tops_out = false;
    for f in 0..m.inputs.len() {
        console.step(input(f));
        let Console::Game(g) = &console else { continue };
        if g.over() {
            assert_eq!(
                g.ending == Ending::ToppedOut,
                tops_out,
                "{file}: frame {}",
                f + 1
            );
            return checked;
        }
        let moving = g.play_state == PlayState::Move;
        if moving && !was_moving && g.autorepeat_y >= 0 {
            spawned = Some((f, (**g).clone()));
        }
        if !moving && was_moving {
            if let Some((s, at)) = spawned.take() {
                let carry = Carry {
                    das: at.autorepeat_x,
                    held: at.held,
                };
                let piece = shape(at.current).unwrap();
                let Some(p) = place(
                    Gravity::single(at.level),
                    &at.playfield,
                    piece,
                    carry,
                    &m.inputs[s + 1..],
                ) else {
                    // `place` says the piece tops out: so must the game, at its lock.
                    tops_out = true;
                    continue;
                };
                assert_eq!(
                    (p.orientation, p.x, p.y, p.frame),
                    (g.current, g.x, g.y, f - s),
                    "{file}: piece spawned at frame {}",
                    s + 1
                );
                checked += 1;
            }
        }
        was_moving = moving;
    }
    assert!(
        !tops_out,
        "{file}: place says a top-out the game did not have"
    );
    checked
}

#[test]
fn every_piece_of_three_movies_places_as_in_the_game() {
    let max_out = check_movie("tests/data/nes/a_type_999999_score/tasvideos_4853m.fm2");
    let b_type = check_movie("tests/data/nes/b_type_clear/tasvideos_4210m_converted.fm2");
    let normal = check_movie("tests/data/nes/death/normal_play.fm2");
    eprintln!("pieces checked: max-out {max_out}, B-type {b_type}, normal play {normal}");
    assert!(max_out > 200 && b_type > 20 && normal > 20);
}
