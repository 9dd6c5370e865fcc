//! The guideline rule set end to end: records replayed on hand-built games whose outcome was
//! worked out by hand from the rules (docs/guideline.md), and `beamtris verify` on game files.

use beamtris::games::guideline::replay::{self, EndReason, GuidelineGame, LockEvent};
use beamtris::games::guideline::{ComboTable, Objective, Rules, Spin, TopOut};
use beamtris::games::srs::RotationSystem;
use beamtris::piece::Shape;
use beamtris::record::Record;
use std::process::Command;

fn game(pieces: &[Shape], length: usize, table: ComboTable) -> GuidelineGame {
    GuidelineGame {
        rules: Rules {
            rotation: RotationSystem::SrsPlus,
            combo_table: table,
            objective: Objective::Attack,
            top: TopOut::Guideline,
        },
        length,
        pieces: pieces.to_vec(),
        start: beamtris::games::guideline::State::START,
    }
}

/// Ten vertical I pieces, columns 0 to 9: the tenth clears four rows and the board.
const TEN_I: &str = "N,C1,L5,N,C1,L4,N,C1,L3,N,C1,L2,N,C1,L1,N,C1,N,C1,R1,N,C1,R2,N,C1,R3,N,C1,R4";

fn run(g: &GuidelineGame, text: &str) -> (replay::Outcome, Vec<LockEvent>) {
    let record = g.parse_record(text).unwrap();
    let mut events = Vec::new();
    let out = replay::replay_with(&record, g, |e| events.push(*e));
    (out, events)
}

#[test]
fn two_perfect_tetrises_back_to_back() {
    let g = game(&[Shape::I; 21], 20, ComboTable::Guideline);
    let (out, events) = run(&g, &format!("{TEN_I},{TEN_I}"));
    // first: 800 + 2000 points, 4 + 10 lines; second, back-to-back: 1200 + 3200, 4 + 1 + 10
    assert_eq!(events[9].points, 2800);
    assert_eq!(events[9].attack, 14);
    assert!(events[9].perfect_clear && !events[9].back_to_back);
    assert_eq!(events[19].points, 4400);
    assert_eq!(events[19].attack, 15);
    assert!(events[19].back_to_back);
    assert_eq!((out.points, out.attack, out.lines), (7200, 29, 8));
    assert_eq!(
        (out.pieces, out.end_reason),
        (20, Some(EndReason::PiecesDone))
    );
    assert_eq!(
        (out.perfect_clears, out.tetrises, out.back_to_backs),
        (2, 2, 1)
    );
    assert_eq!((out.max_combo, out.tspins), (0, 0));
    assert_eq!(events[0].cells, [(0, 3), (0, 2), (0, 1), (0, 0)]);
}

#[test]
fn the_tetrio_table_scores_the_same_without_combos() {
    let g = game(&[Shape::I; 11], 10, ComboTable::Tetrio);
    let (out, _) = run(&g, TEN_I);
    assert_eq!((out.points, out.attack), (2800, 14));
}

#[test]
fn a_record_may_end_early_and_the_game_ends_at_its_length() {
    let g = game(&[Shape::I; 11], 10, ComboTable::Guideline);
    let (out, _) = run(&g, "N,C1,L5,N");
    assert_eq!(
        (out.pieces, out.end_reason),
        (2, Some(EndReason::RecordEnd))
    );
    // an eleventh N is refused, naming the token
    let e = g
        .parse_record(&format!("{TEN_I},N"))
        .unwrap_err()
        .to_string();
    assert!(
        e.starts_with("token 30 (\"N\"): piece 11: the game has 10 pieces"),
        "{e}"
    );
}

#[test]
fn lock_out_and_block_out() {
    // Ten O pieces fill columns 4 and 5 to row 19; the eleventh locks in rows 20-21.
    let g = game(&[Shape::O; 12], 11, ComboTable::Guideline);
    let (out, _) = run(&g, &["N"; 11].join(","));
    assert_eq!((out.pieces, out.end_reason), (10, Some(EndReason::LockOut)));
    // Nine O pieces to row 17, a vertical I in column 4 reaching row 21 (some cells below
    // row 20: allowed); the next O cannot spawn.
    let mut pieces = vec![Shape::O; 9];
    pieces.extend([Shape::I, Shape::O, Shape::O]);
    let g = game(&pieces, 11, ComboTable::Guideline);
    let text = format!("{},N,C1,L1,N,H1", ["N"; 9].join(","));
    let (out, events) = run(&g, &text);
    assert_eq!(events[9].cells, [(4, 21), (4, 20), (4, 19), (4, 18)]);
    assert_eq!(
        (out.pieces, out.end_reason),
        (10, Some(EndReason::BlockOut))
    );
    assert_eq!(out.holds, 0, "the block out comes before the hold");
}

#[test]
fn hold_swaps_and_draws_the_next_unused_piece() {
    let g = game(
        &[Shape::I, Shape::O, Shape::T, Shape::Z],
        3,
        ComboTable::Guideline,
    );
    let (out, events) = run(&g, "N,H1,N,N,H1");
    let locked: Vec<(Shape, bool)> = events.iter().map(|e| (e.piece, e.hold)).collect();
    assert_eq!(
        locked,
        [(Shape::O, true), (Shape::T, false), (Shape::I, true)]
    );
    assert_eq!(
        (out.holds, out.end_reason),
        (2, Some(EndReason::PiecesDone))
    );
    // a one-piece game may hold into the generator's second piece
    let g = game(&[Shape::I, Shape::O], 1, ComboTable::Guideline);
    let (out, events) = run(&g, "N,H1");
    assert_eq!((events[0].piece, out.pieces), (Shape::O, 1));
}

#[test]
fn grammar_errors_name_the_token() {
    let mut g = game(&[Shape::T; 5], 4, ComboTable::Guideline);
    let e = |g: &GuidelineGame, s: &str| g.parse_record(s).unwrap_err().to_string();
    assert!(e(&g, "N,L1,H1")
        .starts_with("token 3 (\"H1\"): hold (H1) is allowed only directly after N"));
    assert!(e(&g, "N,H2").contains("hold is written H1"));
    assert!(e(&g, "N,L100").contains("at most 99"));
    assert!(e(&g, "N,X1").contains("unknown op letter (expected N, L, R, D, C, A, F, H)"));
    assert!(g.parse_record("N,F1,A2,L99").is_ok());
    g.rules.rotation = RotationSystem::Srs;
    assert!(e(&g, "N,F1").starts_with("token 2 (\"F1\"): F (180°) needs rotation srs_plus"));
    // Tencent records keep their own letters and limits.
    assert!(Record::parse("N,A1").is_err());
    assert!(Record::parse("N,D100").is_ok());
}

#[test]
fn a_t_spin_double_built_from_a_record() {
    // Five pieces build, by hand (rows from the top, y = 2, 1, 0):
    //   X..XXX....   L (0,2) and the T's overhang (3..5, 2)
    //   X...XXXXXX   L (0,1), T (4,1), J (5..7, 1), O (8..9)
    //   XX.XXXXXXX   L (0..1, 0), I (3..6, 0), J (7, 0), O (8..9)
    // and a T turned into the slot at box (1, 0), state 2, has corners (1,0), (3,0), (3,2):
    // three, both front ones: a full T-spin clearing rows 0 and 1, 1200 points, 4 lines.
    use beamtris::games::guideline::movegen::{self, Placement};
    let pieces = [
        Shape::L,
        Shape::I,
        Shape::J,
        Shape::O,
        Shape::T,
        Shape::T,
        Shape::T,
    ];
    let g = game(&pieces, 6, ComboTable::Guideline);
    let build = "N,C1,L4,N,N,C2,R2,N,R4,N,C2";
    let (_, events) = run(&g, build);
    let board = events[4].after.board;
    let want =
        beamtris::games::guideline::Board::from_rows(&["X..XXX....", "X...XXXXXX", "XX.XXXXXXX"])
            .unwrap();
    assert_eq!(board, want);
    let tsd = Placement {
        shape: Shape::T,
        state: 2,
        x: 1,
        y: 0,
        spin: Spin::Full,
    };
    let ops = movegen::path(&board, &tsd, RotationSystem::SrsPlus).expect("the slot is reachable");
    let spin = Record::from_paths([&ops[..]]).to_string();
    let (out, events) = run(&g, &format!("{build},{spin}"));
    let last = events.last().unwrap();
    assert_eq!((last.rows, last.spin), (2, Spin::Full), "{spin}");
    assert_eq!((last.points, last.attack, last.combo), (1200, 4, 0));
    assert_eq!((out.tspins, out.tspins_full, out.lines), (1, 1, 2));
    assert_eq!(
        last.after.board,
        beamtris::games::guideline::Board::from_rows(&["X..XXX...."]).unwrap()
    );
    // The same cells dropped straight down are not reachable (the overhang is in the way),
    // and a T that shifts last into the slot would be no spin: no such path exists.
    assert!(movegen::path(
        &board,
        &Placement {
            spin: Spin::None,
            ..tsd
        },
        RotationSystem::SrsPlus
    )
    .is_none());
}

#[test]
fn verify_prints_the_spec_fields_and_refuses_bad_records() {
    let dir = std::env::temp_dir().join(format!("beamtris-gl-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let seed = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/seeds/tetrio-1742887628-attack.json"
    );
    let verify = |record: &str| {
        let path = dir.join("r.txt");
        std::fs::write(&path, record).unwrap();
        Command::new(env!("CARGO_BIN_EXE_beamtris"))
            .args(["verify", path.to_str().unwrap(), "--seed", seed])
            .output()
            .unwrap()
    };
    let ok = verify("N,C1,L5,N");
    assert!(ok.status.success());
    let v: serde_json::Value = serde_json::from_slice(&ok.stdout).unwrap();
    for field in [
        "points",
        "attack",
        "pieces",
        "lines",
        "end_reason",
        "max_combo",
        "tspins",
        "perfect_clears",
    ] {
        assert!(v.get(field).is_some(), "{field} in {v}");
    }
    assert_eq!(v["pieces"], 2);
    assert_eq!(v["end_reason"], "record_end");
    assert_eq!(v["valid"], true);
    // Thirty drops in one column lock out before the record ends: its other pieces were
    // never played, and verify says so.
    let tall = verify(&vec!["N"; 30].join(","));
    assert!(tall.status.success());
    let v: serde_json::Value = serde_json::from_slice(&tall.stdout).unwrap();
    assert_eq!(v["end_reason"], "lock_out", "{v}");
    assert_eq!(v["valid"], false, "{v}");
    for bad in ["N,L1,H1", "L1", "N,,N", "N,F0", "N,Q1"] {
        let out = verify(bad);
        assert_eq!(out.status.code(), Some(2), "{bad}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains("r.txt") && err.contains("token"), "{err}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// Every guideline results file in `results/` replays, through `verify`, to the figures it
/// claims.
#[test]
fn committed_guideline_results_replay_to_their_figures() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut dirs = vec![root.join("results/guideline")];
    let mut checked = 0;
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
                continue;
            }
            if path.extension().is_none_or(|e| e != "json") {
                continue;
            }
            let claim: serde_json::Value =
                serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
            let Some(game) = claim.get("game") else {
                continue;
            };
            let seed_file = std::env::temp_dir().join(format!(
                "beamtris-claim-{}-{checked}.json",
                std::process::id()
            ));
            std::fs::write(&seed_file, game.to_string()).unwrap();
            let record = path.with_extension("txt");
            let out = Command::new(env!("CARGO_BIN_EXE_beamtris"))
                .arg("verify")
                .arg(&record)
                .arg("--seed")
                .arg(&seed_file)
                .output()
                .unwrap();
            std::fs::remove_file(&seed_file).ok();
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
            let got: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
            for key in [
                "points",
                "attack",
                "pieces",
                "lines",
                "max_combo",
                "tspins",
                "perfect_clears",
            ] {
                assert_eq!(got[key], claim[key], "{key} of {}", path.display());
            }
            checked += 1;
        }
    }
    assert!(checked >= 11, "{checked} results checked");
}
