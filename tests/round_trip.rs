//! The player's round trip: import a replay, view and verify its rounds without retyping the
//! game, solve the same game, and find every record's game from the files beside it. A result
//! never contradicts itself, and a view shows the game that was played.

mod common;

use common::{bin, fails_saying, json, repo, scratch, succeeds};
use std::path::{Path, PathBuf};

/// Imports `replay` into a fresh folder under `tag` and returns the folder.
fn import(tag: &str, replay: &str) -> PathBuf {
    let dir = scratch("round_trip", tag);
    succeeds(bin().arg("import").arg(repo(replay)).arg("--out").arg(&dir));
    dir
}

/// `verify RECORD` with no game flags, as JSON.
fn verify(record: &Path) -> serde_json::Value {
    let out = succeeds(bin().arg("verify").arg(record));
    serde_json::from_slice(&out.stdout).unwrap()
}

/// A versus round replays with the garbage its player received: every piece is played, and
/// the figures are TETR.IO's own (those the replay states, which the import checks).
#[test]
fn an_imported_versus_round_verifies_and_shows_as_played() {
    let dir = import("versus", "tests/data/tetrio/replay-2026-07-24-4.ttrm");
    let record = dir.join("r1-yachi.txt");
    let v = verify(&record);
    let stats = &v["tetrio_stats"];
    assert_eq!(v["valid"], true, "{v}");
    // yachi lost this round: the spawn after the last lock was blocked by the garbage.
    assert_eq!(v["end_reason"], "topped_out", "{v}");
    assert_eq!(v["pieces"], 52);
    assert_eq!(stats["piecesplaced"], 52);
    assert_eq!(v["lines"], stats["lines"]);
    assert_eq!(v["attack"], stats["garbage"]["attack"]);
    assert_eq!(
        (stats["lines"].as_u64(), stats["garbage"]["attack"].as_u64()),
        (Some(27), Some(28))
    );
    assert_eq!(stats["garbage"]["received"], 33);
    // The same with the game file named: the same figures.
    let named = succeeds(
        bin()
            .arg("verify")
            .arg(&record)
            .arg("--seed")
            .arg(dir.join("r1-yachi.json")),
    );
    assert_eq!(
        serde_json::from_slice::<serde_json::Value>(&named.stdout).unwrap(),
        v
    );
    // The board at the end holds the garbage rows the player had not cleared (drawn as X).
    let shown = succeeds(bin().arg("show").arg(&record));
    let text = String::from_utf8_lossy(&shown.stdout);
    assert!(text.starts_with("lock 52/52  points"), "{text}");
    assert!(text.contains("attack 28  lines 27"), "{text}");
    assert!(
        text.lines().any(|l| l.starts_with('|') && l.contains('X')),
        "{text}"
    );
    // Every view reads the same game without flags.
    let fumen = succeeds(bin().arg("show").arg(&record).arg("--fumen"));
    assert!(String::from_utf8_lossy(&fumen.stdout).starts_with("v115@"));
}

/// A solve of an imported game file plays the player's pieces and options alone; every figure
/// it prints agrees with its own TETR.IO line, and its record verifies to the same statistics.
#[test]
fn a_solve_of_an_imported_game_agrees_with_itself() {
    let dir = import("forty", "tests/data/tetrio/40l.ttr");
    let out = dir.join("solved.json");
    let run = succeeds(
        bin()
            .args(["solve", "--beam", "100", "--seed"])
            .arg(dir.join("r1-zbrachinara.json"))
            .arg("--out")
            .arg(&out),
    );
    let report = json(&out);
    let stats = &report["tetrio_stats"];
    assert_eq!(report["lines"], stats["lines"], "{report}");
    assert_eq!(report["attack"], stats["garbage"]["attack"], "{report}");
    // A 40 LINES game: a sprint to 40 lines, in no more pieces than the player's 102.
    assert_eq!(report["objective"], "lines", "{report}");
    assert_eq!(report["score"], 40, "{report}");
    assert!(report["pieces"].as_u64().unwrap() <= 102, "{report}");
    assert_eq!(report["pieces"], stats["piecesplaced"], "{report}");
    assert_eq!(
        report["game"]["tetrio"].get("tetrio_spawn"),
        None,
        "{report}"
    );
    let printed: serde_json::Value = serde_json::from_slice(&run.stdout).unwrap();
    assert_eq!(printed, report);
    let v = verify(&out.with_extension("txt"));
    assert_eq!(v["tetrio_stats"], *stats);
    assert_eq!(v["valid"], true);
}

/// A record finds its game: the results file beside it (a solve of a custom game), or a
/// results file given as `--seed`; a results file of a game it does not hold is refused.
#[test]
fn a_record_finds_its_game_beside_it() {
    let dir = scratch("round_trip", "custom");
    let out = dir.join("custom.json");
    succeeds(
        bin()
            .args([
                "solve",
                "--queue",
                "TIOLJSZTIOLJ",
                "--hold",
                "I",
                "--beam",
                "50",
            ])
            .arg("--out")
            .arg(&out),
    );
    let record = out.with_extension("txt");
    let fumen = succeeds(bin().arg("show").arg(&record).arg("--fumen"));
    assert!(String::from_utf8_lossy(&fumen.stdout).starts_with("v115@"));
    let by_results = succeeds(bin().arg("verify").arg(&record).arg("--seed").arg(&out));
    let v: serde_json::Value = serde_json::from_slice(&by_results.stdout).unwrap();
    assert_eq!(v, verify(&record));
    assert_eq!(v["score"], json(&out)["score"]);
    // A Tencent results file names a game it does not hold: refused, not replayed on another.
    let other = dir.join("other.json");
    std::fs::write(&other, r#"{"score": 5, "seed": "s101"}"#).unwrap();
    fails_saying(
        &bin()
            .arg("verify")
            .arg(&record)
            .arg("--seed")
            .arg(&other)
            .output()
            .unwrap(),
        &["other.json", "s101", "--seed"],
    );
}
