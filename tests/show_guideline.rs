//! The guideline text board (`show RECORD --seed GAME --at K`) against the engine's replay,
//! every lock of three records on `seeds/tetrio-1742887628-attack.json`: the solver's record
//! (holds, combos, back-to-back chains), one made by the lowest placement, and one made by the
//! highest placement that is not a lock out (the stack reaches the buffer rows). Every cell of
//! every text board must be filled exactly where the engine's board is, the cells a lock
//! filled must carry its letter, and hold, the queue, combo and back-to-back must be printed
//! as the engine has them.

mod common;

use beamtris::games::guideline::replay::{self, GuidelineGame, LockEvent};
use beamtris::games::guideline::State;
use beamtris::record::Record;
use beamtris::show::guideline_text::{render, GuidelinePlayback, PREVIEWS};
use common::{
    assert_board_rows, guideline_locks, record_by, repo, state_after, top, TETRIO_RECORD,
    TETRIO_SEED,
};

/// Checks every text board of `record` against the engine; returns the highest row printed.
fn check_every_board(g: &GuidelineGame, record: &Record, what: &str) -> usize {
    let mut locks: Vec<LockEvent> = Vec::new();
    replay::replay_with(record, g, |e| locks.push(*e));
    assert!(locks.len() > 10, "{what}: only {} locks", locks.len());
    let shown = GuidelinePlayback::replay(record, g).unwrap();
    assert_eq!(shown.placed(), locks.len());
    let mut highest = 0;
    for k in 0..=locks.len() {
        let text = render(&shown, g, k).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        let after = state_after(&locks, k);
        check_header(g, &locks, k, &after, &lines[..2], what);
        // The rows, top first; the line that marks row 20 is not a row.
        let rows: Vec<&str> = lines[2..lines.len() - 1]
            .iter()
            .copied()
            .filter(|l| !l.starts_with("|----------|"))
            .collect();
        assert_eq!(lines.last(), Some(&"+----------+"), "{what} lock {k}");
        let height = assert_board_rows(&rows, &after.board, '|', &format!("{what} lock {k}"));
        highest = highest.max(height);
        // A lock that clears nothing leaves its cells where it put them, with its letter.
        if k > 0 && locks[k - 1].rows == 0 {
            let e = &locks[k - 1];
            for &(x, y) in &e.cells {
                let c = rows[height - 1 - y as usize].chars().nth(1 + x as usize);
                assert_eq!(c, Some(e.piece.letter()), "{what} lock {k}");
            }
        }
    }
    highest
}

/// The two header lines of the board after `k` locks.
fn check_header(
    g: &GuidelineGame,
    locks: &[LockEvent],
    k: usize,
    after: &State,
    head: &[&str],
    what: &str,
) {
    let (points, attack) = match k {
        0 => (0, 0),
        _ => (locks[k - 1].total_points, locks[k - 1].total_attack),
    };
    let lines: u64 = locks[..k].iter().map(|e| e.rows as u64).sum();
    assert_eq!(
        head[0],
        format!(
            "lock {k}/{}  points {points}  attack {attack}  lines {lines}  combo {}  back-to-back {}",
            g.length,
            after.combo.max(0),
            if after.b2b { "on" } else { "off" }
        ),
        "{what}"
    );
    let queue: String = g.pieces[after.next_index(k)..]
        .iter()
        .take(1 + PREVIEWS)
        .map(|s| s.letter())
        .collect();
    assert_eq!(
        head[1],
        format!(
            "hold {}  next {queue}",
            after.hold.map_or('-', |s| s.letter())
        ),
        "{what} lock {k}"
    );
    // The piece the record places next is the first of the queue or the held one.
    if let Some(e) = locks.get(k) {
        let first = queue.chars().next();
        let held = after.hold.map(|s| s.letter());
        assert!(
            Some(e.piece.letter())
                == if e.hold {
                    held.or(queue.chars().nth(1))
                } else {
                    first
                },
            "{what} lock {k}: {} placed, header {}",
            e.piece.letter(),
            head[1]
        );
    }
}

#[test]
fn every_text_board_matches_the_replay() {
    let (g, locks) = guideline_locks(&repo(TETRIO_SEED), &repo(TETRIO_RECORD));
    assert!(locks.iter().any(|e| e.hold) && locks.iter().any(|e| e.combo > 0));
    let text = std::fs::read_to_string(repo(TETRIO_RECORD)).unwrap();
    let solved = g.parse_record(&text).unwrap();
    check_every_board(&g, &solved, "solver record");

    let lowest = record_by(&g, 300, |p| (top(p), p.x, p.state));
    check_every_board(&g, &lowest, "lowest placements");

    let highest = record_by(&g, 300, |p| (-top(p), p.x, p.state));
    let rows = check_every_board(&g, &highest, "highest placements");
    assert!(
        rows > 20,
        "the stack reaches the buffer rows ({rows} rows printed)"
    );
}
