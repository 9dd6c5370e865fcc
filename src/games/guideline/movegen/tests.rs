use super::*;
use crate::games::guideline::game::{self, State};
use crate::games::guideline::score::ComboTable;
use rand::{Rng, SeedableRng};

const SYSTEMS: [RotationSystem; 2] = [RotationSystem::Srs, RotationSystem::SrsPlus];

/// A random stack: ragged columns with holes, overhangs near the surface, no full row.
fn random_board(rng: &mut rand_pcg::Pcg32) -> Board {
    let mut b = Board::EMPTY;
    let top = rng.gen_range(0..18);
    for x in 0..WIDTH {
        let h = rng.gen_range(0..=top);
        for y in 0..h {
            if rng.gen_bool(0.85) {
                b.fill(x, y);
            }
        }
        // an overhang or a loose cell above the column now and then
        if rng.gen_bool(0.3) {
            let y = (h + rng.gen_range(1..3)).min(HEIGHT - 1);
            b.fill(x, y);
        }
    }
    let full = b.full_rows();
    for y in 0..HEIGHT {
        if full & super::super::board::row_bit(y) != 0 {
            let x = rng.gen_range(0..WIDTH);
            b.cols[x] &= !super::super::board::row_bit(y);
        }
    }
    b
}

fn flood_set(board: &Board, shape: Shape, system: RotationSystem) -> Vec<Placement> {
    let mut v = Vec::new();
    placements(board, shape, system, &mut v);
    let n = v.len();
    v.sort();
    v.dedup();
    assert_eq!(v.len(), n, "the flood lists each placement once");
    v
}

#[test]
fn flood_equals_breadth_first_search_on_random_boards() {
    let mut rng = rand_pcg::Pcg32::seed_from_u64(11);
    let mut spins = 0;
    for _ in 0..300 {
        let board = random_board(&mut rng);
        for shape in Shape::ALL {
            for system in SYSTEMS {
                let flood = flood_set(&board, shape, system);
                let bfs = placements_by_search(&board, shape, system);
                assert_eq!(flood, bfs, "{shape:?} {system:?}\n{board:?}");
                spins += flood.iter().filter(|p| p.spin != Spin::None).count();
            }
        }
    }
    assert!(spins > 100, "the random boards exercise spins ({spins})");
}

#[test]
fn every_path_replays_onto_its_placement() {
    let mut rng = rand_pcg::Pcg32::seed_from_u64(12);
    for _ in 0..60 {
        let board = random_board(&mut rng);
        for shape in Shape::ALL {
            for system in SYSTEMS {
                for p in flood_set(&board, shape, system) {
                    let ops = path(&board, &p, system).expect("a placement has a path");
                    let mut a = Active::spawn(&board, shape).unwrap();
                    for &op in &ops {
                        a = a.apply(&board, op, system);
                    }
                    assert_eq!(lands_as(&board, &a), p, "{ops:?}\n{board:?}");
                    if system == RotationSystem::Srs {
                        assert!(!ops.contains(&Op::Flip));
                    }
                }
            }
        }
    }
}

#[test]
fn drops_from_the_top_are_placements() {
    let mut rng = rand_pcg::Pcg32::seed_from_u64(13);
    for _ in 0..100 {
        let board = random_board(&mut rng);
        for shape in Shape::ALL {
            let all = flood_set(&board, shape, RotationSystem::Srs);
            let Some(spawn) = Active::spawn(&board, shape) else {
                assert!(all.is_empty());
                continue;
            };
            for turn in [None, Some(Op::Rotate), Some(Op::Ccw)] {
                let mut a = spawn;
                if let Some(op) = turn {
                    a = a.apply(&board, op, RotationSystem::Srs);
                }
                for side in [Op::Left, Op::Right] {
                    let mut b = a;
                    loop {
                        let p = lands_as(&board, &b);
                        assert!(all.contains(&p), "{shape:?} {p:?}\n{board:?}");
                        let c = b.apply(&board, side, RotationSystem::Srs);
                        if c == b {
                            break;
                        }
                        b = c;
                    }
                }
            }
        }
    }
}

#[test]
fn empty_board_counts() {
    // Distinct resting cells on an empty board: 9 + 8 columns for S/Z pairs of states, etc.
    let counts: Vec<(Shape, usize)> = Shape::ALL
        .iter()
        .map(|&s| {
            (
                s,
                flood_set(&Board::EMPTY, s, RotationSystem::SrsPlus).len(),
            )
        })
        .collect();
    for (shape, n) in counts {
        let want = match shape {
            Shape::O => 9,
            Shape::I => 7 + 10,
            Shape::S | Shape::Z => 8 + 9,
            _ => 8 + 8 + 9 + 9,
        };
        assert_eq!(n, want, "{shape:?}");
    }
}

#[test]
fn a_tsd_slot_gives_a_full_t_spin_double() {
    let board = Board::from_rows(&[".X........", "X...XXXXXX", "XX.XXXXXXX"]).unwrap();
    for system in SYSTEMS {
        let all = flood_set(&board, Shape::T, system);
        let tsd = Placement {
            shape: Shape::T,
            state: 2,
            x: 1,
            y: 0,
            spin: Spin::Full,
        };
        assert!(all.contains(&tsd), "{all:?}");
        let ops = path(&board, &tsd, system).unwrap();
        assert!(
            matches!(ops.last(), Some(Op::Rotate | Op::Ccw | Op::Flip)),
            "{ops:?}"
        );
        let state = State {
            board,
            ..State::START
        };
        let (after, lock) = game::lock(&state, &tsd.active(), ComboTable::Guideline);
        assert_eq!((lock.lines, lock.spin), (2, Spin::Full));
        assert_eq!((lock.earned.points, lock.earned.attack), (1200, 4));
        assert_eq!(after.board, Board::from_rows(&[".X........"]).unwrap());
    }
}

#[test]
fn a_fifth_kick_makes_a_mini_shape_full() {
    // The TST kick: a T turning into R from above wins with (−1, −2) into a slot whose
    // front corners are not both filled; its three corners make it a full T-spin.
    let board = Board::from_rows(&[
        "XXX.......",
        "XX........",
        "XX.XXXXXXX",
        "XX..XXXXXX",
        "XX.XXXXXXX",
    ])
    .unwrap();
    let all = flood_set(&board, Shape::T, RotationSystem::Srs);
    let full_triple = all.iter().find(|p| {
        p.spin == Spin::Full && {
            let state = State {
                board,
                ..State::START
            };
            game::lock(&state, &p.active(), ComboTable::Guideline)
                .1
                .lines
                == 3
        }
    });
    assert!(full_triple.is_some(), "{all:?}");
}

/// Columns filled solid from the floor to random heights (some above the spawn row), the
/// boards the skyline shortcut takes, with now and then one cell knocked out.
fn random_skyline(rng: &mut rand_pcg::Pcg32) -> Board {
    let mut b = Board::EMPTY;
    let top = rng.gen_range(0..=21);
    for x in 0..WIDTH {
        for y in 0..rng.gen_range(0..=top) {
            b.fill(x, y);
        }
    }
    if rng.gen_bool(0.1) {
        let (x, y) = (rng.gen_range(0..WIDTH), rng.gen_range(0..4));
        b.cols[x] &= !super::super::board::row_bit(y);
    }
    b
}

#[test]
fn the_skyline_shortcut_lists_what_the_flood_lists_in_its_order() {
    let mut rng = rand_pcg::Pcg32::seed_from_u64(12);
    let mut shortcut = 0;
    for _ in 0..400 {
        let board = random_skyline(&mut rng);
        for shape in Shape::ALL {
            if shape != Shape::T && resting_on_skyline(&board, shape).is_some() {
                shortcut += 1;
            }
            for system in SYSTEMS {
                let mut fast = Vec::new();
                placements(&board, shape, system, &mut fast);
                let mut flood = Vec::new();
                placements_by_flood(&board, shape, system, &mut flood);
                assert_eq!(fast, flood, "{shape:?} {system:?}\n{board:?}");
                let mut sorted = fast.clone();
                sorted.sort();
                assert_eq!(sorted, placements_by_search(&board, shape, system));
            }
        }
    }
    assert!(
        shortcut > 1000,
        "most random skylines take the shortcut ({shortcut})"
    );
}

#[test]
fn under_tetrio_top_the_flood_from_the_row_above_lists_what_the_search_finds() {
    use crate::games::guideline::{ComboTable, Objective, Rules, TopOut};
    let mut rng = rand_pcg::Pcg32::seed_from_u64(21);
    let mut lifted = 0;
    for _ in 0..300 {
        // A ragged stack into the spawn rows, no row full.
        let mut board = Board::EMPTY;
        for x in 0..WIDTH {
            for y in 0..rng.gen_range(14..=22) {
                if rng.gen_bool(0.9) {
                    board.fill(x, y);
                }
            }
        }
        let full = board.full_rows();
        for y in 0..HEIGHT {
            if full & super::super::board::row_bit(y) != 0 {
                board.cols[rng.gen_range(0..WIDTH)] &= !super::super::board::row_bit(y);
            }
        }
        for shape in Shape::ALL {
            for rotation in SYSTEMS {
                let rules = Rules {
                    rotation,
                    combo_table: ComboTable::Guideline,
                    objective: Objective::Attack,
                    top: TopOut::Tetrio,
                };
                let mut under = Vec::new();
                placements_under(&board, shape, &rules, &mut under);
                under.sort();
                let mut guideline = Vec::new();
                placements(&board, shape, rotation, &mut guideline);
                let Some(start) = TopOut::Tetrio.spawn(&board, shape) else {
                    assert!(under.is_empty() && guideline.is_empty());
                    continue;
                };
                if start.y == spawn_origin(shape).1 {
                    guideline.sort();
                    assert_eq!(under, guideline);
                    continue;
                }
                lifted += 1;
                assert!(guideline.is_empty(), "the guideline's spawn is taken");
                let mut found = Vec::new();
                search(&board, start, rotation, |a, _| {
                    found.push(lands_as(&board, a));
                    false
                });
                found.sort();
                found.dedup();
                assert_eq!(under, found, "{shape:?} {rotation:?}\n{board:?}");
                for p in &under {
                    assert!(path_under(&board, p, &rules).is_some());
                }
            }
        }
    }
    assert!(lifted > 200, "many pieces start a row higher ({lifted})");
}
