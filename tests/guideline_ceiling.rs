//! The facts behind the guideline attack ceiling (docs/guideline.md, "What twice Cold Clear 2
//! would take"), counted here so the page's figures come from code that can fail:
//!
//! * Inside a 4-wide combo a T piece almost never clears its row with a *full* T-spin (the
//!   only spin that sends lines on a single), so T-spins cannot lift a run's attack.
//! * Two-row perfect clears (11 lines for 5 pieces) are rare: few sets of five pieces tile a
//!   2 x 10 strip, and few windows of the five Cold Clear 2 games hold such a set.
//! * Only three things send more than twice Cold Clear 2's attack a piece for each row they
//!   clear: combo clears from combo 8 on (the ninth clear of a run), full T-spin singles and
//!   perfect clears. The best cycle of a 4-wide run, with side stacks as tall as the lock-out
//!   rule lets them be (23 rows beside a well under the spawn), still sends less.
//!
//! And `scripts/guideline_cycles.py`, which reads the records' cycles and runs for that page.

mod common;

use beamtris::fourwide::transitions::{seed, Transitions};
use beamtris::fourwide::{Field, Placements};
use beamtris::game_def::GameDef;
use beamtris::games::guideline::board::{Board, HEIGHT};
use beamtris::games::guideline::game::{self, State};
use beamtris::games::guideline::movegen::placements;
use beamtris::games::guideline::piece::Active;
use beamtris::games::guideline::score::{score, ComboTable, Spin};
use beamtris::games::srs::{self, RotationSystem};
use beamtris::piece::Shape;
use std::collections::BTreeSet;

/// The well's first column on the board: the centre well, under the spawn columns.
const WELL: usize = 3;
/// Side rows stacked beside the well: well above the fields' rows 0..7 and the piece's room.
const SIDE_ROWS: usize = 16;

/// A board holding `field` in a centre 4-wide well, the six side columns full.
fn board_with_well(field: Field) -> Board {
    let mut board = centre_sides(SIDE_ROWS);
    for y in 0..8 {
        for x in 0..4 {
            if field.filled(x as u32, y as u32) {
                board.fill(WELL + x, y);
            }
        }
    }
    board
}

/// A board with the six side columns of the centre well full from row 0 to `rows - 1`.
fn centre_sides(rows: usize) -> Board {
    let mut board = Board::EMPTY;
    for y in 0..rows {
        for x in (0..WELL).chain(WELL + 4..10) {
            board.fill(x, y);
        }
    }
    board
}

/// The fields of the core of `residuals`, and of those the ones where some T placement found
/// by the guideline engine is a full T-spin that clears exactly one row (a combo step).
fn full_t_spin_singles(residuals: u8) -> (usize, usize) {
    let t = Transitions::build(seed(residuals).unwrap(), Placements::Srs);
    let core = t.core();
    let (mut fields, mut with_spin) = (0, 0);
    let mut out = Vec::new();
    for (f, &field) in t.fields.iter().enumerate() {
        if !core[f] {
            continue;
        }
        fields += 1;
        let board = board_with_well(field);
        out.clear();
        placements(&board, Shape::T, RotationSystem::Srs, &mut out);
        let spins = out.iter().filter(|p| {
            let mut after = board;
            for (x, y) in p.cells() {
                after.fill(x as usize, y as usize);
            }
            p.spin == Spin::Full && after.full_rows().count_ones() == 1
        });
        if spins.count() > 0 {
            with_spin += 1;
        }
    }
    (fields, with_spin)
}

#[test]
fn a_4_wide_run_has_almost_no_full_t_spin_singles() {
    // 3 residual cells: none of the 28 fields a run can stay in has one; 6 residuals: 2 of 356.
    assert_eq!(full_t_spin_singles(3), (28, 0));
    assert_eq!(full_t_spin_singles(6), (356, 2));
}

#[test]
fn the_well_board_holds_the_field() {
    let board = board_with_well(Field::parse("XXX_").unwrap());
    assert!((0..3).all(|x| board.filled(WELL + x, 0)));
    assert!(!board.filled(WELL + 3, 0) && !board.filled(WELL, 1));
    assert!(board.filled(0, SIDE_ROWS - 1) && !board.filled(0, SIDE_ROWS));
}

/// Twice Cold Clear 2's attack a piece on the five games (2 × 0.844, docs/guideline.md).
const TWICE_CC2: f64 = 1.688;
/// Pieces a cleared row costs when every cell placed is cleared: 10 cells, 4 a piece.
const PIECES_A_ROW: f64 = 2.5;

#[test]
fn only_long_combos_full_t_spin_singles_and_perfect_clears_send_more_a_row_than_the_target() {
    let need = TWICE_CC2 * PIECES_A_ROW;
    let kinds = [
        (Spin::None, 1..=4),
        (Spin::Mini, 1..=2),
        (Spin::Full, 1..=3),
    ];
    let mut above = 0;
    for (spin, rows) in kinds {
        for lines in rows {
            for b2b in [false, true] {
                for combo in -1..=40 {
                    let e = score(lines, spin, false, combo, b2b, ComboTable::Guideline);
                    if e.attack as f64 / lines as f64 <= need {
                        continue;
                    }
                    above += 1;
                    let full_single = spin == Spin::Full && lines == 1;
                    assert!(
                        full_single || e.combo >= 8,
                        "{lines} rows, {spin:?}, b2b {b2b}, combo {combo}: {} lines",
                        e.attack
                    );
                }
            }
        }
    }
    assert!(above > 0);
    // A perfect clear adds 10 whatever the clear.
    let pc = score(1, Spin::None, true, -1, false, ComboTable::Guideline);
    assert_eq!(pc.attack, 10);
}

/// The attack of a combo run of `clears` single-row clears from an empty combo counter, the
/// last one a perfect clear, scored by the engine's table.
fn run_attack(clears: i32) -> u32 {
    (0..clears)
        .map(|c| {
            score(
                1,
                Spin::None,
                c == clears - 1,
                c - 1,
                false,
                ComboTable::Guideline,
            )
            .attack
        })
        .sum()
}

#[test]
fn the_best_4_wide_cycle_sends_less_than_twice_cold_clear_2() {
    // Each clear of a run takes one side row of six cells; the cycle's pieces are its cells
    // over four: 2.5 pieces a row cleared, as on the records.
    let per_piece = |clears: i32| run_attack(clears) as f64 / (PIECES_A_ROW * clears as f64);
    assert_eq!(run_attack(20), 79);
    assert_eq!(run_attack(23), 94);
    assert!((per_piece(23) - 94.0 / 57.5).abs() < 1e-12);
    assert!(per_piece(23) < TWICE_CC2);
    // The shortest run past four rows whose cycle reaches the target: 27 clears. (Cycles of
    // one to four rows are perfect clears built on an empty board, not runs beside side
    // stacks: the two-row ones are counted above, the loops of four-row ones are searched by
    // examples/pc_loop_forward.rs.)
    assert_eq!((5..100).find(|&l| per_piece(l) >= TWICE_CC2), Some(27));
    assert!(per_piece(2) > TWICE_CC2 && per_piece(4) < TWICE_CC2);
}

/// The column heights after locking, without a lock out, each upright I in column 0.
fn upright_i_heights(board: &Board) -> Vec<Option<u32>> {
    let mut out = Vec::new();
    placements(board, Shape::I, RotationSystem::Srs, &mut out);
    out.iter()
        .filter(|p| p.cells().iter().all(|&(x, _)| x == 0))
        .map(|p| {
            let start = State {
                board: *board,
                ..State::START
            };
            let (after, lock) = game::lock(&start, &p.active(), ComboTable::Guideline);
            (!lock.lock_out).then(|| after.board.height(0))
        })
        .collect()
}

#[test]
fn side_stacks_beside_a_centre_well_reach_23_rows_and_no_more() {
    // On 19 rows an upright I locks with one cell in the field and tops the column at 23.
    assert_eq!(upright_i_heights(&centre_sides(19)), [Some(23)]);
    // On 20 it would lie wholly above the field: a lock out.
    assert_eq!(upright_i_heights(&centre_sides(20)), [None]);
    // The board holds 24 rows, so nothing in the rules but the lock out stops the stack, and
    // six side columns 23 rows high still let every piece spawn over the well.
    assert_eq!(HEIGHT, 24);
    let tall = centre_sides(23);
    for shape in Shape::ALL {
        assert!(Active::spawn(&tall, shape).is_some(), "{shape:?}");
    }
}

/// A piece's cells, offsets from its lowest, leftmost corner.
type Cells = Vec<(i8, i8)>;

/// The orientations of `shape` that lie within two rows, as cell offsets from their lowest,
/// leftmost corner.
fn flat_orientations(shape: Shape) -> BTreeSet<Cells> {
    (0..4)
        .map(|s| {
            let cells = srs::cells(shape, s);
            let x0 = cells.iter().map(|c| c.0).min().unwrap();
            let y0 = cells.iter().map(|c| c.1).min().unwrap();
            let mut v: Cells = cells.iter().map(|&(x, y)| (x - x0, y - y0)).collect();
            v.sort();
            v
        })
        .filter(|v| v.iter().all(|c| c.1 <= 1))
        .collect()
}

/// Every multiset of five pieces that tiles the 2 x 10 strip (as sorted letters).
fn two_row_tilings() -> BTreeSet<String> {
    let pieces: Vec<(Shape, Vec<Cells>)> = Shape::ALL
        .iter()
        .map(|&s| (s, flat_orientations(s).into_iter().collect()))
        .collect();
    let mut found = BTreeSet::new();
    fn fill(
        filled: u32,
        used: &mut Vec<char>,
        pieces: &[(Shape, Vec<Cells>)],
        found: &mut BTreeSet<String>,
    ) {
        // The first empty cell, column by column: cell (x, y) is bit 2x + y.
        let Some(first) = (0..20).find(|b| filled >> b & 1 == 0) else {
            let mut v = used.clone();
            v.sort();
            found.insert(v.into_iter().collect());
            return;
        };
        let (x, y) = ((first / 2) as i8, (first % 2) as i8);
        for (shape, orientations) in pieces {
            for cells in orientations {
                // The cell that comes first column by column goes on (x, y).
                let anchor = *cells.iter().min().unwrap();
                let mut mask = 0u32;
                let fits = cells.iter().all(|&(cx, cy)| {
                    let (px, py) = (x + cx - anchor.0, y + cy - anchor.1);
                    let ok = (0..10).contains(&px) && (0..2).contains(&py);
                    let bit = 1u32 << (2 * px.max(0) + py.max(0)) as u32;
                    let free = ok && filled & bit == 0;
                    mask |= bit;
                    free
                });
                if fits {
                    used.push(shape.letter());
                    fill(filled | mask, used, pieces, found);
                    used.pop();
                }
            }
        }
    }
    fill(0, &mut Vec::new(), &pieces, &mut found);
    found
}

#[test]
fn few_windows_hold_a_two_row_perfect_clear() {
    let tilings = two_row_tilings();
    assert_eq!(tilings.len(), 14, "{tilings:?}");
    // T, S and Z never fit: each leaves a strip end or a neighbour it cannot square off.
    assert!(tilings.contains("OOOOO") && tilings.contains("IJLOO"));
    assert!(!tilings.iter().any(|t| t.contains(['T', 'S', 'Z'])));
    // Windows of the five games: the hold slot and the next five pieces, of which a two-row
    // perfect clear from an empty board places five (any five, in any order: an upper bound).
    let mut windows = 0;
    let mut with_set = 0;
    for game in ["1", "12345", "1554295831", "1742887628", "378834655"] {
        let path = common::repo(&format!("seeds/cc2/tetrio-{game}-srs-attack.json"));
        let shapes = GameDef::load(&path).unwrap().shapes(500);
        for w in shapes.windows(6) {
            windows += 1;
            let letters: Vec<char> = w.iter().map(|s| s.letter()).collect();
            let holds = (0..6).any(|skip| {
                let mut five: Vec<char> = letters
                    .iter()
                    .enumerate()
                    .filter(|&(i, _)| i != skip)
                    .map(|(_, &c)| c)
                    .collect();
                five.sort();
                tilings.contains(&five.into_iter().collect::<String>())
            });
            with_set += holds as usize;
        }
    }
    // 49 of 2 475: 2.0 %.
    assert_eq!((windows, with_set), (2475, 49));
}

/// `scripts/guideline_cycles.py` on two committed records of game 1: the perfect-clear loop of
/// the features alone and the 4-wide runs of the default. Needs python3 (it says so and passes
/// without it, like the other tests that call an outside tool).
#[test]
fn the_cycle_script_reads_perfect_clear_cycles_and_combo_runs() {
    if !common::has_python3("scripts/guideline_cycles.py") {
        return;
    }
    let script = "scripts/guideline_cycles.py";
    let dir = common::scratch("cycles", "traces");
    let seed = common::repo("seeds/cc2/tetrio-1-srs-attack.json");
    let mut traces = Vec::new();
    for (name, record) in [
        ("loop", "results/guideline/cc2-b10000/attack-1.txt"),
        (
            "fourwide",
            "results/guideline/fourwide-ablation-b10000/tetrio-1-srs-attack-fourwide.txt",
        ),
    ] {
        let trace = dir.join(format!("{name}.trace"));
        common::write_trace(&common::repo(record), Some(&seed), &trace);
        traces.push(trace);
    }
    let out = common::succeeds(common::python3(script).args(&traces));
    let text = String::from_utf8_lossy(&out.stdout);
    let row = |name: &str| {
        let line = text.lines().find(|l| l.contains(name)).unwrap();
        line.split('|')
            .skip(2)
            .map(str::trim)
            .collect::<Vec<_>>()
            .join("|")
    };
    assert_eq!(
        row("loop.trace"),
        "500|655|1.310|49|5:7 10:33 15:9|13.4|0|0|1:62 1F:14 1m:11 2:35 2F:17 3:3|"
    );
    assert_eq!(
        row("fourwide.trace"),
        "500|775|1.550|10|40:1 50:7 55:2|77.5|10|762|1:191 1F:1 1m:6 2:1|"
    );
    assert!(row("| all").starts_with("1000|1430|1.430|59|"), "{text}");
    // Not a trace: one line, exit code 2, nothing on stdout.
    let bad = common::python3(script)
        .arg(common::repo(common::TETRIO_SEED))
        .output()
        .unwrap();
    common::fails_saying(&bad, &["no lock lines"]);
    assert!(bad.stdout.is_empty());
    let _ = std::fs::remove_dir_all(&dir);
}
