//! The fast move generator against the exact engine: on random boards, levels, pieces,
//! speeds and placements, where `movegen::lock_of` says a piece locks is where
//! `placement::place` (the engine, frame by frame) locks it, and a lock it refuses is one
//! the engine makes before the inputs end (or never); every placement offered (tucks and
//! spins included) replays on the engine to where the generator says, under the cartridge's
//! gravity of levels 0 to 49 and under TetrisGYM's Killscreen x2 (two rows a frame).

use beamtris::games::nes::buttons::Buttons;
use beamtris::games::nes::movegen::{
    inputs, lock_of, placement_inputs, placements, Board, Gravity, Outcome, Rest, Speed,
};
use beamtris::games::nes::placement::{place, Carry};
use beamtris::games::nes::score::Lines;
use beamtris::piece::Shape;
use proptest::prelude::*;

/// A board of `height` random rows at the bottom (each row never full), `holes` in 100.
fn board(rows: &[u16], height: usize) -> Board {
    let mut b = Board::default();
    for (i, &r) in rows.iter().take(height).enumerate() {
        let mut row = r & 0x3FF;
        if row == 0x3FF {
            row &= !(1 << (i % 10));
        }
        b.0[19 - i] = row;
    }
    b
}

/// Levels 0-49, and the doubled gravity one case in four.
fn gravity(level: u8, double: u8) -> Gravity {
    Gravity {
        level,
        double: double == 0,
    }
}

fn speed(i: u8) -> Speed {
    [Speed::Tap30, Speed::Tap15, Speed::Das][usize::from(i % 3)]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

    #[test]
    fn fast_lock_is_the_engines(
        rows in proptest::collection::vec(any::<u16>(), 20),
        height in 0usize..19,
        level in 0u8..=49,
        double in 0u8..4,
        piece in 0usize..7,
        s in 0u8..3,
        turns in 0u8..4,
        shifts in -6i8..=6,
        das in 0u8..=16,
    ) {
        let b = board(&rows, height);
        let piece = Shape::from_index(piece);
        let gravity = gravity(level, double);
        let inp = inputs(speed(s), turns, shifts);
        let fast = lock_of(&b, gravity, 0, piece, &inp);
        let exact = place(gravity, &b.playfield(), piece, Carry { das, held: Buttons::NONE }, &inp)
            .filter(|p| p.frame >= inp.len());
        prop_assert_eq!(fast, exact.as_ref().map(|p| Rest { orientation: p.orientation, x: p.x, y: p.y }));
        if let (Some(rest), Some(p)) = (fast, exact) {
            // the board after the lock and clears, too, where the generator offers it
            let mut offered = Vec::new();
            placements(&b, gravity, 0, piece, speed(s), &mut offered);
            if offered.iter().any(|o| o.rest == rest) {
                let o = Outcome::of(&b, rest, Lines::default(), level);
                prop_assert_eq!(o.board.playfield(), p.playfield);
                prop_assert_eq!(o.cleared, p.lines);
            }
        }
    }

    #[test]
    fn every_offered_placement_replays(
        rows in proptest::collection::vec(any::<u16>(), 20),
        height in 0usize..16,
        level in 0u8..=49,
        double in 0u8..4,
        piece in 0usize..7,
        s in 0u8..3,
    ) {
        let b = board(&rows, height);
        let piece = Shape::from_index(piece);
        let gravity = gravity(level, double);
        let mut offered = Vec::new();
        placements(&b, gravity, 0, piece, speed(s), &mut offered);
        for o in offered {
            let inp = placement_inputs(speed(s), o.turns, o.shifts, o.tuck);
            prop_assert_eq!(beamtris::games::nes::record::speed_problem(speed(s), &inp), None);
            let p = place(gravity, &b.playfield(), piece, Carry::default(), &inp).unwrap();
            prop_assert!(p.frame >= inp.len());
            prop_assert_eq!((p.orientation, p.x, p.y), (o.rest.orientation, o.rest.x, o.rest.y));
        }
    }
}

/// Where the engine locks a piece that spawns with the first piece's entry delay.
fn engine_lock_with_delay(b: &Board, level: u8, piece: Shape, inp: &[Buttons]) -> Option<Rest> {
    use beamtris::games::nes::gameplay::{GameplayState, PlayState};
    let mut g = GameplayState::at_spawn(level, b.playfield(), piece, piece, Carry::default());
    g.autorepeat_y = -96;
    for f in 0..inp.len() + 3000 {
        g.step(inp.get(f).copied().unwrap_or(Buttons::NONE));
        if g.over() {
            return None;
        }
        if g.play_state != PlayState::Move {
            return (f + 1 >= inp.len()).then_some(Rest {
                orientation: g.current,
                x: g.x,
                y: g.y,
            });
        }
    }
    None
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn the_first_pieces_entry_delay_is_the_engines(
        rows in proptest::collection::vec(any::<u16>(), 20),
        height in 0usize..12,
        level in 0u8..=29,
        piece in 0usize..7,
        s in 0u8..3,
        turns in 0u8..4,
        shifts in -6i8..=6,
    ) {
        let b = board(&rows, height);
        let piece = Shape::from_index(piece);
        let inp = inputs(speed(s), turns, shifts);
        prop_assert_eq!(lock_of(&b, Gravity::single(level), 96, piece, &inp), engine_lock_with_delay(&b, level, piece, &inp));
    }
}
