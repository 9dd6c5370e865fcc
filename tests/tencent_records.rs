//! The engine against the original game: the reference sequence, public records and edge
//! cases with their official scores (`tests/data/tencent/`).

mod common;

use beamtris::game_def::GameDef;
use beamtris::games::tencent::replay::{replay, EndReason};
use beamtris::record::Record;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The reference sequence and the official records (tests/data/README.md says where they come
/// from).
fn data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/tencent")
}

/// Rows of a SCORES.tsv: file, score, pieces spawned, the rest.
fn scores(path: &Path) -> Vec<(String, u64, usize, Vec<String>)> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let cols: Vec<&str> = l.split('\t').collect();
            (
                cols[0].to_string(),
                cols[1].parse().unwrap(),
                cols[2].parse().unwrap(),
                cols[3..].iter().map(|s| s.to_string()).collect(),
            )
        })
        .collect()
}

#[test]
fn the_generated_sequence_equals_the_reference() {
    let dir = data();
    let text = std::fs::read_to_string(dir.join("sequence.txt")).unwrap();
    let drawn = GameDef::tencent_geek_4().draw();
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    assert_eq!(lines.len(), drawn.len());
    for (k, (line, d)) in lines.iter().zip(&drawn).enumerate() {
        let want: Vec<&str> = line.split_whitespace().collect();
        let got = [
            k.to_string(),
            d.piece.shape.letter().to_string(),
            d.piece.state.to_string(),
            d.random.to_string(),
        ];
        assert_eq!(want, got, "piece {k}");
    }
}

#[test]
fn public_records_replay_to_their_official_scores() {
    let dir = data();
    let pieces = GameDef::tencent_geek_4().pieces();
    let rows = scores(&dir.join("records/SCORES.tsv"));
    assert!(rows.len() >= 2);
    for (file, score, spawned, _) in rows {
        let record =
            Record::parse(&std::fs::read_to_string(dir.join("records").join(&file)).unwrap())
                .unwrap_or_else(|e| panic!("{file}: {e}"));
        let out = replay(&record, &pieces);
        assert_eq!((out.score, out.pieces), (score, spawned), "{file}");
    }
}

#[test]
fn edge_records_match_the_official_validation_and_scores() {
    let dir = data();
    let pieces = GameDef::tencent_geek_4().pieces();
    for (file, score, spawned, rest) in scores(&dir.join("records/edge/SCORES.tsv")) {
        let text = std::fs::read_to_string(dir.join("records/edge").join(&file)).unwrap();
        let valid = rest.first().map(|s| s == "valid").unwrap_or(true);
        match Record::parse(&text) {
            Ok(record) => {
                assert!(valid, "{file} should be refused");
                let out = replay(&record, &pieces);
                assert_eq!((out.score, out.pieces), (score, spawned), "{file}");
            }
            Err(e) => assert!(!valid, "{file} refused: {e}"),
        }
    }
}

#[test]
fn the_last_piece_never_scores_and_row_zero_ends_the_game() {
    let pieces = GameDef::tencent_geek_4().pieces();
    // Piece 0 is Z0; left at spawn it puts cells in row 0.
    let out = replay(&Record::parse("N,R1,L1,N,D19").unwrap(), &pieces);
    assert_eq!(out.end_reason, EndReason::TopOut);
    assert_eq!(out.pieces, 1);
    // A one-piece game: the only piece is the last one and locks without scoring.
    let out = replay(&Record::parse("N,D19").unwrap(), &pieces[..1]);
    assert_eq!(out.end_reason, EndReason::PieceLimit);
}

#[test]
fn verify_cli_prints_json_and_refuses_bad_records_with_exit_2() {
    let dir = data();
    let bin = env!("CARGO_BIN_EXE_beamtris");
    let out = Command::new(bin)
        .args(["verify"])
        .arg(dir.join("records/chys87-1395326.txt"))
        .output()
        .unwrap();
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["score"], 1395326);
    assert_eq!(v["pieces"], 9999);
    assert_eq!(v["valid"], true);
    assert_eq!(v["end_reason"], "record_end");
    for bad in [
        "bad-empty-piece",
        "bad-first-token",
        "bad-letter",
        "bad-too-many-ops",
        "bad-zero-count",
    ] {
        let path = dir.join(format!("records/edge/{bad}.txt"));
        let out = Command::new(bin).arg("verify").arg(&path).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{bad}");
        assert!(out.stdout.is_empty());
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(&format!("{bad}.txt")), "{err}");
    }
    let out = Command::new(bin)
        .args(["verify", "/nonexistent/record.txt"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

/// The relaxation `scripts/tencent_bound.py` solves must admit every real game: each lock of
/// the public records (scored by the original game) is one of its moves, and no record
/// passes its value. The bound itself is pinned, and the script's dynamic program is checked
/// against exhaustive search. Needs python3 (it says so and passes without it, like the
/// other tests that call an outside tool).
#[test]
fn public_records_are_plays_of_the_relaxed_game_and_within_its_bound() {
    if !common::has_python3("the relaxed bound") {
        return;
    }
    let script = "scripts/tencent_bound.py";
    let dir = common::scratch("bound", "traces");
    let mut traces = Vec::new();
    for name in ["chys87-1395326", "maxdumbledore-1378178"] {
        let trace = dir.join(format!("{name}.trace"));
        common::write_trace(&data().join(format!("records/{name}.txt")), None, &trace);
        traces.push(trace);
    }
    let out = common::succeeds(
        common::python3(script)
            .args(["--sequence"])
            .arg(data().join("sequence.txt"))
            .args(["--rows", "18", "19", "--check"])
            .args(&traces),
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("| 18 | 162 | 1436814 |"), "{text}");
    assert!(text.contains("| 19 | 171 | 1516344 |"), "{text}");
    assert_eq!(
        text.matches("every one a relaxed move").count(),
        2,
        "{text}"
    );
    assert!(text.contains("score 1395326 <= 1516344"), "{text}");
    assert!(text.contains("score 1378178 <= 1516344"), "{text}");
    // A record of another sequence is refused, one line, exit code 2.
    let wrong = common::python3(script)
        .args(["--queue", "IIII", "--rows", "19", "--check"])
        .arg(&traces[0])
        .output()
        .unwrap();
    common::fails_saying(&wrong, &["lock 0 places Z, the sequence's piece is I"]);
    common::succeeds(common::python3(script).arg("--self-check"));
    let _ = std::fs::remove_dir_all(&dir);
}
