//! `beamtris export`: a record handed back to TETR.IO as a `.ttr`, read back by beamtris's
//! own import (its frame-by-frame simulation of the keys): the same placements and the same
//! TETR.IO statistics. TETR.IO itself does not run here; see docs/tetrio.md.

mod common;

use beamtris::games::tetrio::game::TetrioGame;
use common::{fails_saying, json, repo, run, scratch, succeeds};
use serde_json::Value;
use std::path::{Path, PathBuf};

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Imports `replay` into `dir`; the game file and record of its one player's round.
fn import(replay: &Path, dir: &Path) -> (PathBuf, PathBuf) {
    let out = succeeds(common::bin().args(["import", s(replay), "--out", s(dir)]));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("all stated statistics agree"), "{text}");
    let base = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|x| x == "json"))
        .unwrap()
        .with_extension("");
    (base.with_extension("json"), base.with_extension("txt"))
}

/// Each placement an import saw, without its frame, by the cells it fills (the export's
/// keys may lock an S turned twice where the record has it not turned: the same cells):
/// piece, cells, spin, lines, attack, sent, hold.
fn placements(game: &Value) -> Vec<Value> {
    let list = game["tetrio"]["import"]["placements"].as_array().unwrap();
    list.iter()
        .map(|p| {
            let mut p = p.clone();
            let cells = cells_of(&p);
            let m = p.as_object_mut().unwrap();
            for key in ["frame", "rotation", "x", "y"] {
                m.remove(key);
            }
            m.insert("cells".into(), cells);
            p
        })
        .collect()
}

/// The cells of a placement (`piece`, `rotation`, `x`, `y` as an import writes them).
fn cells_of(p: &Value) -> Value {
    let letter = p["piece"].as_str().unwrap().chars().next().unwrap();
    let piece = beamtris::games::tetrio::pieces::LETTERS
        .iter()
        .position(|&l| l == letter)
        .unwrap() as u8;
    let n = |k: &str| p[k].as_i64().unwrap() as i32;
    serde_json::json!(beamtris::games::tetrio::finesse::cells(
        piece,
        n("rotation") as u8,
        n("x"),
        n("y")
    ))
}

fn export(args: &[&str]) -> std::process::Output {
    let mut all = vec!["export"];
    all.extend_from_slice(args);
    run(&all)
}

#[test]
fn an_imported_40_lines_game_exports_and_imports_back_to_the_same_placements_and_statistics() {
    let dir = scratch("export", "40l");
    let (game, record) = import(&repo("tests/data/tetrio/40l.ttr"), &dir.join("a"));
    let ttr = dir.join("40l-again.ttr");
    let out =
        succeeds(common::bin().args(["export", s(&record), "--seed", s(&game), "--out", s(&ttr)]));
    let said = String::from_utf8_lossy(&out.stdout);
    // The game's own pace: 102 pieces in 3 080 frames.
    assert!(
        said.contains("102 pieces") && said.contains("1.99 pieces a second"),
        "{said}"
    );
    let file = json(&ttr);
    assert_eq!(file["data"]["events"][0]["type"], "start");
    assert_eq!(file["data"]["events"][1]["type"], "full");
    assert_eq!(file["data"]["events"][1]["data"]["options"]["version"], 15);
    assert_eq!(
        file["data"]["events"][1]["data"]["options"]["handling"]["das"],
        7.2
    );
    assert_eq!(file["endcontext"]["lines"], 40);
    let (game2, record2) = import(&ttr, &dir.join("b"));
    let (first, again) = (json(&game), json(&game2));
    assert_eq!(placements(&again), placements(&first));
    // The placements' statistics are the player's; the presses, finesse, drop points and
    // time are the exported keys' own.
    assert_eq!(
        placement_stats(&again["tetrio"]["import"]["tetrio_stats"]),
        placement_stats(&first["tetrio"]["import"]["tetrio_stats"])
    );
    assert_eq!(
        first["tetrio"]["import"]["tetrio_stats"]["piecesplaced"],
        102
    );
    // The player's placements keyed by TETR.IO's fewest presses: no finesse fault (the player
    // made 39) and 299 presses (the player 339).
    assert_eq!(
        first["tetrio"]["import"]["tetrio_stats"]["finesse"]["faults"],
        39
    );
    assert_eq!(
        again["tetrio"]["import"]["tetrio_stats"]["finesse"]["faults"],
        0
    );
    assert_eq!(again["tetrio"]["import"]["tetrio_stats"]["inputs"], 299);
    // The player's paths are their own moves; the exported keys' paths are a fixed point:
    // exported and imported once more, the same keys and the same record.
    let ttr2 = dir.join("40l-twice.ttr");
    succeeds(common::bin().args([
        "export",
        s(&record2),
        "--seed",
        s(&game2),
        "--out",
        s(&ttr2),
    ]));
    let file2 = json(&ttr2);
    assert_eq!(file2["data"]["events"], file["data"]["events"]);
    let (_, record3) = import(&ttr2, &dir.join("c"));
    assert_eq!(
        std::fs::read_to_string(&record3).unwrap(),
        std::fs::read_to_string(&record2).unwrap()
    );
    // The re-imported record verifies to the same statistics on its game file.
    let v = succeeds(common::bin().args(["verify", s(&record2), "--seed", s(&game2)]));
    let v: Value = serde_json::from_slice(&v.stdout).unwrap();
    assert_eq!(v["tetrio_stats"], again["tetrio"]["import"]["tetrio_stats"]);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A survival game's rows rise by the clock: its export keeps the game's own lock times, so
/// the same rows rise before each piece and the import of the file agrees; another pace, a
/// solve or a play is refused in one line.
#[test]
fn a_survival_game_exports_at_its_own_lock_times_and_imports_back_the_same() {
    let dir = scratch("export", "survival");
    let (game, record) = import(&repo("tests/data/tetrio/garbage.ttr"), &dir.join("a"));
    let ttr = dir.join("survival-again.ttr");
    let out =
        succeeds(common::bin().args(["export", s(&record), "--seed", s(&game), "--out", s(&ttr)]));
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        said.contains("40 pieces") && said.contains("own lock time"),
        "{said}"
    );
    let (game2, _) = import(&ttr, &dir.join("b"));
    let (first, again) = (json(&game), json(&game2));
    assert_eq!(placements(&again), placements(&first));
    let stats = placement_stats(&again["tetrio"]["import"]["tetrio_stats"]);
    assert_eq!(
        stats,
        placement_stats(&first["tetrio"]["import"]["tetrio_stats"])
    );
    assert_eq!(stats["garbage"]["cleared"], 3);
    // Its last piece locks out after the last row, as the player's did: the game ends there.
    let time = |g: &Value| {
        g["tetrio"]["import"]["tetrio_stats"]["finalTime"]
            .as_f64()
            .unwrap()
    };
    assert!(time(&again) > 40_000.0 && time(&again) <= time(&first));
    let paced = dir.join("paced.ttr");
    let out = export(&[
        s(&record),
        "--seed",
        s(&game),
        "--out",
        s(&paced),
        "--pps",
        "2",
    ]);
    fails_saying(&out, &["--pps 2", "survival"]);
    assert!(!paced.exists());
    let out = run(&[
        "solve",
        "--seed",
        s(&game),
        "--out",
        s(&dir.join("solved.json")),
    ]);
    fails_saying(&out, &["survival", "solve"]);
    let out = run(&[
        "play",
        "--seed",
        s(&game),
        "--max-pieces",
        "10",
        "--out",
        s(&dir.join("played.json")),
    ]);
    fails_saying(&out, &["survival", "play"]);
    assert!(!dir.join("played.json").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_solved_record_exports_and_imports_back_to_its_placements_and_statistics() {
    let dir = scratch("export", "solved");
    let results = dir.join("solved.json");
    succeeds(common::bin().args([
        "solve",
        "--tetrio-seed",
        "1753222251",
        "--pieces",
        "60",
        "--beam",
        "50",
        "--out",
        s(&results),
    ]));
    let record = results.with_extension("txt");
    let ttr = dir.join("solved.ttr");
    let out = succeeds(common::bin().args([
        "export",
        s(&record),
        "--tetrio-seed",
        "1753222251",
        "--out",
        s(&ttr),
    ]));
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        said.contains("60 pieces") && said.contains("2.00 pieces a second"),
        "{said}"
    );
    let (game2, _) = import(&ttr, &dir.join("back"));
    let back = json(&game2);
    // The record's placements on TETR.IO's engine, as `verify` replays it.
    let text = std::fs::read_to_string(&record).unwrap();
    let paths: Vec<String> = text
        .trim()
        .split(',')
        .fold(Vec::<String>::new(), |mut acc, t| {
            if t == "N" {
                acc.push(String::new());
            } else {
                let n: usize = t[1..].parse().unwrap();
                acc.last_mut().unwrap().push_str(&t[..1].repeat(n));
            }
            acc
        });
    let e = TetrioGame::solo(1753222251)
        .replay(&paths, "record")
        .unwrap();
    let want: Vec<Value> = e
        .locks
        .iter()
        .map(|l| {
            serde_json::json!([
                beamtris::games::tetrio::pieces::LETTERS[l.piece as usize].to_string(),
                beamtris::games::tetrio::finesse::cells(l.piece, l.rotation, l.x, l.y),
                format!("{:?}", l.spin).to_lowercase(),
                l.lines,
                l.held
            ])
        })
        .collect();
    let got: Vec<Value> = placements(&back)
        .iter()
        .map(|p| serde_json::json!([p["piece"], p["cells"], p["spin"], p["lines"], p["hold"]]))
        .collect();
    assert_eq!(got, want);
    let solved = json(&results);
    assert_eq!(
        placement_stats(&back["tetrio"]["import"]["tetrio_stats"]),
        placement_stats(&solved["tetrio_stats"])
    );
    assert!(
        solved["tetrio_stats"]["tspins"].as_u64().unwrap() > 0,
        "a line with spins"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn forty_lines_solved_and_exported_at_the_players_pace_beats_the_player_without_a_fault() {
    // The public 40 LINES seed, solved by default and exported at the player's pace (1.99
    // pieces a second), read back by the import: TETR.IO's own statistics of the keys. The
    // player: 102 pieces, 339 inputs, 39 finesse faults, 51.358 s.
    let dir = scratch("export", "sprint");
    let results = dir.join("s.json");
    succeeds(common::bin().args([
        "solve",
        "--seed",
        s(&repo("seeds/tetrio-40l.json")),
        "--out",
        s(&results),
    ]));
    let ttr = dir.join("s.ttr");
    let record = results.with_extension("txt");
    succeeds(common::bin().args(["export", s(&record), "--pps", "1.99", "--out", s(&ttr)]));
    let (game, back) = import(&ttr, &dir.join("back"));
    let stats = json(&game)["tetrio"]["import"]["tetrio_stats"].clone();
    assert_eq!(stats["piecesplaced"], 100, "{stats}");
    assert_eq!(stats["lines"], 40);
    assert_eq!(stats["finesse"]["faults"], 0, "{stats}");
    assert_eq!(stats["finesse"]["perfectpieces"], 100);
    let inputs = stats["inputs"].as_u64().unwrap();
    assert!(inputs <= 300, "{inputs} inputs");
    let time = stats["finalTime"].as_f64().unwrap();
    assert!(time < 51358.0, "{time} ms");
    // The pace sets the time: the 100th piece drops in frame round(100 × 60 / 1.99) = 3 015.
    assert_eq!(time, 50275.0);
    // `verify` of the re-imported record says the same.
    let v = succeeds(common::bin().args(["verify", s(&back)]));
    let v: Value = serde_json::from_slice(&v.stdout).unwrap();
    assert_eq!(v["tetrio_stats"], stats);
    let _ = std::fs::remove_dir_all(&dir);
}

/// An imported 40 LINES game in `dir`: (game file, record).
fn forty_lines(dir: &Path) -> (PathBuf, PathBuf) {
    import(&repo("tests/data/tetrio/40l.ttr"), &dir.join("game"))
}

#[test]
fn bad_flags_and_paces_are_one_line_naming_the_flag_and_nothing_is_written() {
    let dir = scratch("export", "flags");
    let (game, record) = forty_lines(&dir);
    let ttr = dir.join("out.ttr");
    let (g, r, t) = (s(&game), s(&record), s(&ttr));
    fails_saying(
        &export(&[r, "--seed", g, "--out", t, "--speed", "2"]),
        &["unexpected argument '--speed'"],
    );
    fails_saying(
        &export(&[r, "--seed", g, "--out", t, "--pps", "0"]),
        &["--pps 0: give a number of pieces a second above 0"],
    );
    fails_saying(
        &export(&[r, "--seed", g, "--out", t, "--pps", "-1"]),
        &["--pps -1: give a number of pieces a second above 0"],
    );
    fails_saying(
        &export(&[r, "--seed", g, "--out", t, "--pps", "30"]),
        &["--pps 30: past what the handling allows on this record (DAS 7.2, ARR 0, SDF 41): at most 8.07 pieces a second"],
    );
    fails_saying(
        &export(&[r, "--seed", g, "--out", t, "--pps", "0.001"]),
        &["--pps 0.001: the replay would last 6120000 frames, past the 1000000"],
    );
    // A record alone, with no game file beside it: its game must be given.
    let lone = dir.join("lone.txt");
    std::fs::copy(&record, &lone).unwrap();
    fails_saying(
        &export(&[s(&lone), "--out", t]),
        &[
            "export needs the record's game",
            "lone.json is not there",
            "--seed GAME",
        ],
    );
    fails_saying(
        &export(&[r, "--queue", "IOT", "--out", t]),
        &[
            "piece 1: the record's game (",
            "the record is not of this game",
        ],
    );
    fails_saying(
        &export(&[r, "--seed", g, "--tetrio-seed", "5", "--out", t]),
        &[
            "piece 1: the record's game (",
            "the record is not of this game",
        ],
    );
    assert!(!ttr.exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_record_that_does_not_fit_its_game_is_refused_by_piece_and_nothing_is_written() {
    let dir = scratch("export", "fit");
    let (game, record) = forty_lines(&dir);
    let ttr = dir.join("out.ttr");
    let t = s(&ttr);
    // The 40 LINES record on another seed's pieces: the game beside it says which piece
    // differs.
    let out = export(&[s(&record), "--tetrio-seed", "42", "--out", t]);
    fails_saying(
        &out,
        &[
            s(&record),
            ": piece 1: the record's game (",
            "the game given deals ",
            "the record is not of this game",
        ],
    );
    // A piece moved past the wall (the first piece, an O, spawns at column 4).
    let wall = dir.join("wall.txt");
    std::fs::write(&wall, "N,L9\n").unwrap();
    fails_saying(
        &export(&[s(&wall), "--tetrio-seed", "42", "--out", t]),
        &[&format!("{}: piece 1: move 5 (L) is blocked", s(&wall))],
    );
    // More pieces than the game has.
    let long = dir.join("long.txt");
    std::fs::write(&long, "N,".repeat(103) + "N\n").unwrap();
    fails_saying(
        &export(&[s(&long), "--seed", s(&game), "--out", t]),
        &[&format!(
            "{}: token 103 (\"N\"): piece 103: the game has 102 pieces",
            s(&long)
        )],
    );
    // A game of another family (the record alone, so that no game beside it says whose it
    // is), and a record that is no record.
    let alone = dir.join("alone.txt");
    std::fs::copy(&record, &alone).unwrap();
    fails_saying(
        &export(&[
            s(&alone),
            "--seed",
            s(&repo("seeds/tencent-geek-4.json")),
            "--out",
            t,
        ]),
        &["export: the game tencent-geek-4 is a Tencent Geek Challenge game, which has no `export`"],
    );
    let junk = dir.join("junk.txt");
    std::fs::write(&junk, "N,Q3\n").unwrap();
    fails_saying(
        &export(&[s(&junk), "--tetrio-seed", "42", "--out", t]),
        &[s(&junk), "Q3"],
    );
    // A versus round: garbage from other players a solo replay cannot carry.
    let (versus, _) = {
        let d = dir.join("versus");
        common::succeeds(common::bin().args([
            "import",
            s(&repo("tests/data/tetrio/replay-2026-07-24-4.ttrm")),
            "--out",
            s(&d),
        ]));
        (d.join("r1-yachi.json"), d.join("r1-yachi.txt"))
    };
    fails_saying(
        &export(&[
            s(&versus.with_extension("txt")),
            "--seed",
            s(&versus),
            "--out",
            t,
        ]),
        &[s(&versus), "garbage from other players"],
    );
    assert!(!ttr.exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_out_that_would_replace_a_committed_file_is_refused() {
    let dir = scratch("export", "committed");
    let (game, record) = forty_lines(&dir);
    let tracked = repo("tests/data/tetrio/40l.ttr");
    let before = std::fs::read(&tracked).unwrap();
    fails_saying(
        &export(&[s(&record), "--seed", s(&game), "--out", s(&tracked)]),
        &[&format!(
            "--out {}: is tracked by git; export writes a new file",
            s(&tracked)
        )],
    );
    assert_eq!(std::fs::read(&tracked).unwrap(), before);
    // An untracked file under results/ of a repository is kept too.
    let git = std::process::Command::new("git")
        .arg("init")
        .arg("-q")
        .arg(&dir)
        .output();
    if git.is_ok_and(|o| o.status.success()) {
        let kept = dir.join("results").join("kept.ttr");
        std::fs::create_dir_all(kept.parent().unwrap()).unwrap();
        std::fs::write(&kept, "evidence").unwrap();
        fails_saying(
            &export(&[s(&record), "--seed", s(&game), "--out", s(&kept)]),
            &[&format!("--out {}: is under results/", s(&kept))],
        );
        assert_eq!(std::fs::read_to_string(&kept).unwrap(), "evidence");
    } else {
        eprintln!("git not found: the results/ refusal is not checked");
    }
    // A new file in the same places is written.
    let fresh = dir.join("results").join("new.ttr");
    succeeds(common::bin().args(["export", s(&record), "--seed", s(&game), "--out", s(&fresh)]));
    assert!(fresh.is_file());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_long_line_exports_while_the_rules_stay_the_records_and_is_refused_past() {
    // 500 pieces: past 2 minutes gravity grows (a path stopping part way down is then
    // followed by gravity), past 3 minutes the garbage multiplier does.
    let dir = scratch("export", "long");
    let results = dir.join("long.json");
    succeeds(common::bin().args([
        "solve",
        "--tetrio-seed",
        "3",
        "--pieces",
        "500",
        "--beam",
        "50",
        "--out",
        s(&results),
    ]));
    let record = results.with_extension("txt");
    let ttr = dir.join("long.ttr");
    let (r, t) = (s(&record), s(&ttr));
    fails_saying(
        &export(&[r, "--tetrio-seed", "3", "--out", t]),
        &[
            "--pps 2: the replay lasts 15002 frames",
            "garbage multiplier",
            "garbage.attack",
        ],
    );
    assert!(!ttr.exists());
    succeeds(common::bin().args(["export", r, "--tetrio-seed", "3", "--out", t, "--pps", "3"]));
    let (game2, _) = import(&ttr, &dir.join("back"));
    assert_eq!(
        placement_stats(&json(&game2)["tetrio"]["import"]["tetrio_stats"]),
        placement_stats(&json(&results)["tetrio_stats"])
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A game's statistics without those of its keys (inputs, finesse, score with its drop
/// points, the final time): what the placements alone decide.
fn placement_stats(stats: &serde_json::Value) -> serde_json::Value {
    let mut v = stats.clone();
    if let Some(m) = v.as_object_mut() {
        for key in ["inputs", "finesse", "score", "finalTime"] {
            m.remove(key);
        }
    }
    v
}
