//! BLITZ solved for TETR.IO's points at a pace (`solve --pps`): the search's score is the
//! record's score replayed on TETR.IO's engine, at 20G too, and bad paces are refused.

mod common;

use common::{fails_saying, json, repo, run, scratch, succeeds};
use std::path::Path;

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Solves `game` with `extra` flags into `dir`, verifies the record, and returns the results
/// file and verify's output.
fn solve_and_verify(
    game: &Path,
    dir: &Path,
    extra: &[&str],
) -> (serde_json::Value, serde_json::Value) {
    let out = dir.join("s.json");
    let mut args = vec!["solve", "--seed", s(game), "--out", s(&out)];
    args.extend_from_slice(extra);
    succeeds(common::bin().args(&args));
    let verified = succeeds(common::bin().args(["verify", s(&dir.join("s.txt"))]));
    let verified: serde_json::Value = serde_json::from_slice(&verified.stdout).unwrap();
    (json(&out), verified)
}

#[test]
fn a_short_blitz_solve_replays_to_the_score_it_reports() {
    let dir = scratch("blitz", "short");
    let game = repo("seeds/tetrio-blitz.json");
    let (solved, verified) = solve_and_verify(
        &game,
        &dir,
        &["--pps", "2", "--pieces", "24", "--beam", "30"],
    );
    assert_eq!(solved["objective"], "points");
    assert_eq!(solved["pps"], 2.0);
    assert_eq!(solved["pieces"], 24);
    let score = solved["score"].as_u64().unwrap();
    assert!(score > 0);
    assert_eq!(verified["tetrio_stats"]["score"].as_u64(), Some(score));
    assert_eq!(verified["pieces"], 24);
    // At 2 pieces a second piece k locks at frame round((k + 1) × 30); the game lasts 240.
    let locks = solved["game"]["tetrio"]["locks"]
        .as_array()
        .unwrap()
        .clone();
    assert_eq!(locks.len(), 240);
    assert_eq!(
        (locks[0]["frame"].clone(), locks[239]["frame"].clone()),
        (30.into(), 7200.into())
    );
    assert!(solved["fraction_of_bound"].as_f64().unwrap() < 1.0);
}

#[test]
fn at_20g_the_solve_replays_to_its_score_too() {
    // The same game from level 14, where gravity is 20G from the first piece: every piece's
    // path falls to the stack first and slides along it, and drops score nothing.
    let dir = scratch("blitz", "twenty");
    let mut game = json(&repo("seeds/tetrio-blitz.json"));
    game["tetrio"]["options"]["startinglevel"] = 14.into();
    let file = dir.join("g.json");
    std::fs::write(&file, game.to_string()).unwrap();
    let (solved, verified) = solve_and_verify(
        &file,
        &dir,
        &["--pps", "2", "--pieces", "24", "--beam", "30"],
    );
    let score = solved["score"].as_u64().unwrap();
    assert_eq!(verified["tetrio_stats"]["score"].as_u64(), Some(score));
    assert_eq!(verified["tetrio_stats"]["level"], 14);
    // Every record path starts with the rows down to the stack (`D`), after a hold if any.
    let record = std::fs::read_to_string(dir.join("s.txt")).unwrap();
    assert!(record.contains('D'));
    // Points only from clears, at level 14 or more: a multiple of 14 × 50 is not required, but
    // no drop points means the score is a sum of level × table entries, each a multiple of 50.
    assert_eq!(score % 50, 0, "{score}");
}

#[test]
fn bad_paces_are_one_line_and_nothing_is_written() {
    let dir = scratch("blitz", "pace");
    let out = dir.join("s.json");
    let blitz = repo("seeds/tetrio-blitz.json");
    for (pps, want) in [
        (
            "0",
            "--pps 0: the game tetrio-blitz is played at a pace above 0 and at most 5.88",
        ),
        (
            "-1",
            "--pps -1: the game tetrio-blitz is played at a pace above 0 and at most 5.88",
        ),
        (
            "6",
            "--pps 6: the game tetrio-blitz is played at a pace above 0 and at most 5.88",
        ),
        (
            "0.001",
            "--pps 0.001: not one piece in the game tetrio-blitz's 120 s",
        ),
    ] {
        fails_saying(
            &run(&["solve", "--seed", s(&blitz), "--pps", pps, "--out", s(&out)]),
            &[want],
        );
    }
    let forty = repo("seeds/tetrio-40l.json");
    fails_saying(
        &run(&["solve", "--seed", s(&forty), "--pps", "2", "--out", s(&out)]),
        &["--pps 2: the game tetrio-40l is not a timed TETR.IO game with levels (BLITZ)"],
    );
    fails_saying(
        &run(&["solve", "--pps", "2", "--out", s(&out), "--beam", "10"]),
        &[
            "--pps 2: the game",
            "is a Tencent Geek Challenge game, which does not take --pps",
        ],
    );
    assert!(common::listing(&dir).is_empty());
}
