//! TETR.IO replays against TETR.IO's own statistics, field by field: the import's
//! frame-by-frame simulation, and the written record replayed on the written game file.
//! The replays are in `tests/data/tetrio/` (provenance and licences in `tests/data/README.md`).

mod common;

use beamtris::games::tetrio::{self, game::TetrioGame, stats};
use std::path::Path;

fn rounds(name: &str) -> Vec<tetrio::replay::PlayerRound> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/tetrio")
        .join(name);
    let text = std::fs::read_to_string(&path).unwrap();
    tetrio::replay::parse(name, &text).unwrap()
}

/// Every stated field equals the simulation's, and the record replayed on the game file
/// gives the same statistics.
fn check(name: &str, expected_rounds: usize) {
    let rounds = rounds(name);
    assert_eq!(rounds.len(), expected_rounds);
    for r in &rounds {
        let e = tetrio::simulate(r);
        let stated = stats::stated(&r.stated);
        assert!(
            stated.iter().filter(|(_, v)| v.is_some()).count() >= 20,
            "{name}: too few fields stated"
        );
        for ((field, computed), (_, st)) in stats::fields(&e.stats).into_iter().zip(stated) {
            if let Some(st) = st {
                assert_eq!(
                    computed, st,
                    "{name} round {} {}: {field}",
                    r.round, r.username
                );
            }
        }
        let game = TetrioGame::from_engine(&r.raw_options, &e);
        let paths: Vec<String> = e
            .locks
            .iter()
            .map(|l| tetrio::game::record_path(l, true))
            .collect();
        let replayed = game.replay(&paths, name).unwrap();
        assert_eq!(
            replayed.stats, e.stats,
            "{name} round {} {}: the record's replay",
            r.round, r.username
        );
        assert_eq!(replayed.locks.len(), e.locks.len());
    }
}

#[test]
fn a_version_19_match_agrees_on_every_field_of_every_round() {
    check("replay-2026-07-24-4.ttrm", 10);
}

#[test]
fn version_15_solo_games_agree_on_every_field() {
    check("40l.ttr", 1);
    check("hahahaki.ttr", 1);
}

/// A custom game with survival garbage (a row every two seconds, its hole drawn from the
/// pieces' generator): every field, and the board it ended on, row for row.
#[test]
fn a_survival_game_agrees_on_every_field_and_its_last_board() {
    check("garbage.ttr", 1);
    let e = tetrio::simulate(&rounds("garbage.ttr")[0]);
    let d = common::json(&common::repo("tests/data/tetrio/garbage.ttr"));
    let events = d["data"]["events"].as_array().unwrap();
    let end = events.iter().find(|e| e["type"] == "end").unwrap();
    // TETR.IO's board: 40 rows, top first; a cell is null, a piece letter or `gb`.
    let stated: Vec<String> = end["data"]["export"]["game"]["board"]
        .as_array()
        .unwrap()
        .iter()
        .rev()
        .map(|row| {
            let cells = row.as_array().unwrap();
            cells
                .iter()
                .map(|c| match c.as_str() {
                    None => '.',
                    Some("gb") => 'G',
                    Some(_) => '#',
                })
                .collect()
        })
        .collect();
    let rows = e.snapshot(0).rows;
    let ours: Vec<String> = rows
        .iter()
        .take(stated.len())
        .map(|r| {
            r.iter()
                .map(|&c| match c {
                    0 => '.',
                    8 => 'G',
                    _ => '#',
                })
                .collect()
        })
        .collect();
    // 18 garbage rows stand at the end (21 rose, the player cleared 3).
    assert_eq!(ours.iter().filter(|r| r.contains('G')).count(), 18);
    assert_eq!(ours, stated);
}

/// BLITZ (gravity by level, two minutes), a 40 LINES game with many faults and a custom
/// game with T-spins and soft drops: score, level, inputs, finesse and final time, each
/// field by field, by the import and by the record's replay on its game file.
#[test]
fn solo_games_agree_on_score_level_inputs_finesse_and_time() {
    for name in ["blitz.ttr", "40l_faulty.ttr", "zbrachi_standard.ttr"] {
        check(name, 1);
    }
    let e = tetrio::simulate(&rounds("blitz.ttr")[0]);
    let s = &e.stats;
    assert_eq!(
        (
            s.score,
            s.level,
            s.level_lines,
            s.level_lines_needed,
            s.inputs
        ),
        (519249, 9, 5, 19, 851)
    );
    assert_eq!(
        (
            s.finesse.faults,
            s.finesse.perfectpieces,
            s.finesse.combo,
            s.final_time
        ),
        (32, 201, 5, 120000.)
    );
}

#[test]
fn a_solo_import_verifies_to_every_stated_field() {
    let dir = common::scratch("tetrio", "solo");
    for (name, player) in [
        ("blitz.ttr", "zbrachinara"),
        ("40l_faulty.ttr", "zbrachinara"),
        ("garbage.ttr", "guest-ea3eo08_"),
    ] {
        let out = import(&common::repo(&format!("tests/data/tetrio/{name}")), &dir)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let printed = String::from_utf8(out.stdout).unwrap();
        assert!(
            printed.ends_with("all stated statistics agree\n"),
            "{printed}"
        );
        let base = format!("r1-{player}");
        let v = verify_pair(&dir, &base).output().unwrap();
        assert!(v.status.success(), "{}", String::from_utf8_lossy(&v.stderr));
        let report: serde_json::Value = serde_json::from_slice(&v.stdout).unwrap();
        let got: stats::TetrioStats =
            serde_json::from_value(report["tetrio_stats"].clone()).unwrap();
        let file = common::json(&dir.join(format!("{base}.json")));
        let stated = &file["tetrio"]["import"]["stated"];
        // The solo rules' fields are all stated (version 15 lacks only pentas and the like).
        let named: Vec<_> = stats::stated(stated)
            .into_iter()
            .filter(|(_, v)| v.is_some())
            .map(|(k, _)| k)
            .collect();
        assert!(
            named.len() >= 27 && named.iter().any(|k| k == "finalTime"),
            "{name}"
        );
        let diffs = stats::differences(&got, stated);
        assert!(
            diffs.is_empty(),
            "{name}: (field, stated, verified) {diffs:?}"
        );
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// Solo options beamtris cannot play: one line naming the file and the field, exit 2.
#[test]
fn solo_options_beamtris_cannot_play_are_refused_by_name() {
    let dir = common::scratch("tetrio", "solo-bad");
    let cases: [(&str, serde_json::Value, &str); 7] = [
        (
            "speed.ttr",
            serde_json::json!({"levelspeed": -1}),
            "levelspeed",
        ),
        (
            "start.ttr",
            serde_json::json!({"startinglevel": 0}),
            "startinglevel",
        ),
        (
            "static.ttr",
            serde_json::json!({"levelstatic": true, "levelstaticspeed": 0.5}),
            "levelstaticspeed",
        ),
        (
            "objective.ttr",
            serde_json::json!({"objective": {"type": "score", "count": 5}}),
            "objective.type",
        ),
        (
            "survival.ttr",
            serde_json::json!({"survivalmode": "layer"}),
            "survivalmode",
        ),
        (
            "survival-cap.ttr",
            serde_json::json!({"survivalmode": "timer", "survival_cap": 4}),
            "survival_cap",
        ),
        (
            "survival-every.ttr",
            serde_json::json!({"survivalmode": "timer", "survival_timer_itv": 0}),
            "survival_timer_itv",
        ),
    ];
    for (name, change, field) in cases {
        let mut d = common::json(&common::repo("tests/data/tetrio/blitz.ttr"));
        let events = d["data"]["events"].as_array_mut().unwrap();
        let full = events.iter_mut().find(|e| e["type"] == "full").unwrap();
        for (k, v) in change.as_object().unwrap() {
            full["data"]["options"][k] = v.clone();
        }
        let path = dir.join(name);
        std::fs::write(&path, d.to_string()).unwrap();
        let out = common::run(&["import", path.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(2), "{name}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(name) && err.contains(field), "{name}: {err}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn the_40_lines_game_counts_no_attack_and_clears_40_lines() {
    let r = &rounds("40l.ttr")[0];
    let e = tetrio::simulate(r);
    assert_eq!(
        (e.stats.lines, e.stats.piecesplaced, e.stats.clears.quads),
        (40, 102, 9)
    );
    assert_eq!(e.stats.garbage.attack, 0);
}

#[test]
fn import_writes_game_files_that_verify_to_the_stated_statistics() {
    let dir = std::env::temp_dir().join(format!("beamtris-tetrio-import-{}", std::process::id()));
    let replay =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/tetrio/replay-2026-07-24-4.ttrm");
    let out = import(&replay, &dir).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let printed = String::from_utf8(out.stdout).unwrap();
    assert_eq!(printed.lines().count(), 10);
    assert!(
        printed
            .lines()
            .all(|l| l.ends_with("all stated statistics agree")),
        "{printed}"
    );
    let game = dir.join("r3-pinglamb.json");
    let v = verify_pair(&dir, "r3-pinglamb").output().unwrap();
    assert!(v.status.success(), "{}", String::from_utf8_lossy(&v.stderr));
    let report: serde_json::Value = serde_json::from_slice(&v.stdout).unwrap();
    let file: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&game).unwrap()).unwrap();
    let stated = &file["tetrio"]["import"]["stated"];
    let got = &report["tetrio_stats"];
    let got: stats::TetrioStats = serde_json::from_value(got.clone()).unwrap();
    assert!(stats::differences(&got, stated).is_empty());
    for (field, st) in stats::stated(stated) {
        // Every field but the final time (version 19 names it `finaltime`) is stated.
        assert_eq!(st.is_some(), field != "finalTime", "{field}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// Values no TETR.IO game has, in a real replay and in the game file its import writes: one
/// line naming the place, exit code 2, before anything is simulated.
#[test]
fn impossible_garbage_options_and_events_are_refused_by_place() {
    let dir = std::env::temp_dir().join(format!("beamtris-tetrio-edit-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let replay =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/tetrio/replay-2026-07-24-4.ttrm");
    let text = std::fs::read_to_string(&replay).unwrap();
    let refused = |out: std::process::Output, want: &str| {
        assert_eq!(out.status.code(), Some(2), "{want}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(want), "{want}: {err}");
    };
    for (from, to, want) in [
        (
            r#""amt":4,"#,
            r#""amt":-5,"#,
            "data.data`: garbage amount -5 is not from 0 to 1000",
        ),
        (
            r#""das":10"#,
            r#""das":-100"#,
            "option `das` is -100: give a number from 0 to 1e9",
        ),
        (
            r#""subframe":0.5}"#,
            r#""subframe":5}"#,
            "data.subframe` 5 is not a fraction of a frame",
        ),
    ] {
        assert!(text.contains(from), "{from}");
        let path = dir.join("edited.ttrm");
        std::fs::write(&path, text.replacen(from, to, 1)).unwrap();
        refused(common::run(&["import", path.to_str().unwrap()]), want);
    }
    let out = import(&replay, &dir).output().unwrap();
    assert!(out.status.success());
    let game = dir.join("r1-pinglamb.json");
    let file: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&game).unwrap()).unwrap();
    let garbage = file["tetrio"]["events"]
        .as_array()
        .unwrap()
        .iter()
        .position(|e| e["kind"] == "garbage")
        .unwrap();
    for (key, value, want) in [
        (
            "kind",
            serde_json::json!("bogus"),
            "kind \"bogus\" is not garbage, confirm or targets",
        ),
        ("amount", serde_json::json!(-5), "garbage amount -5"),
        (
            "after_locks",
            serde_json::json!(1_000_000),
            "after_locks 1000000 is past the game's",
        ),
    ] {
        let mut edited = file.clone();
        edited["tetrio"]["events"][garbage][key] = value;
        let path = dir.join("edited.json");
        std::fs::write(&path, edited.to_string()).unwrap();
        let record = dir.join("r1-pinglamb.txt");
        let out = common::run(&[
            "verify",
            record.to_str().unwrap(),
            "--seed",
            path.to_str().unwrap(),
        ]);
        refused(out, &format!("tetrio.events[{garbage}]: {want}"));
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_malformed_replay_is_one_line_naming_the_file_and_the_field() {
    let dir = std::env::temp_dir().join(format!("beamtris-tetrio-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cases = [
        (
            "version.ttr",
            r#"{"data": {"frames": 1, "events": [{"frame": 0, "type": "full", "data": {"options": {"version": 12, "seed": 1, "handling": {}}}}]}, "endcontext": {}}"#,
            "options.version 12",
        ),
        (
            "noseed.ttrm",
            r#"{"replay": {"rounds": [[{"username": "a", "replay": {"frames": 1, "events": [], "options": {"version": 19, "handling": {}}, "results": {"stats": {}}}}]]}}"#,
            "options.seed",
        ),
        ("nothing.ttr", r#"{"x": 1}"#, "replay.rounds"),
        (
            "norounds.ttrm",
            r#"{"replay": {"rounds": []}}"#,
            "replay.rounds",
        ),
        (
            "noplayers.ttrm",
            r#"{"replay": {"rounds": [[]]}}"#,
            "replay.rounds",
        ),
    ];
    for (name, text, field) in cases {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        let out = common::run(&["import", path.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(2), "{name}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(name) && err.contains(field), "{name}: {err}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_solved_record_places_the_same_cells_on_tetrio_s_engine() {
    let dir = std::env::temp_dir().join(format!("beamtris-tetrio-solve-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("s.json");
    let s = common::run(&[
        "solve",
        "--tetrio-seed",
        "1753222251",
        "--pieces",
        "40",
        "--beam",
        "50",
        "--threads",
        "1",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(s.status.success(), "{}", String::from_utf8_lossy(&s.stderr));
    let report: serde_json::Value = serde_json::from_slice(&s.stdout).unwrap();
    let t = &report["tetrio_stats"];
    // The same placements: the same lines cleared, pieces and holds, on both engines.
    assert_eq!(t["lines"], report["lines"]);
    assert_eq!(t["piecesplaced"], report["pieces"]);
    assert_eq!(t["holds"], report["holds"]);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn on_tetrio_versus_rules_the_search_s_attack_is_tetrio_s() {
    let dir = std::env::temp_dir().join(format!("beamtris-tetrio-versus-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("v.json");
    let seed = Path::new(env!("CARGO_MANIFEST_DIR")).join("seeds/tetrio-versus.json");
    // The seed file, and `--tetrio-seed` alone (the built-in game is TETR.IO's rules today):
    // the same line, whose attack is the one TETR.IO counts.
    let mut reports = Vec::new();
    for with_file in [true, false] {
        let mut args = vec!["solve"];
        if with_file {
            args.extend(["--seed", seed.to_str().unwrap()]);
        }
        args.extend([
            "--tetrio-seed",
            "42",
            "--pieces",
            "60",
            "--beam",
            "100",
            "--threads",
            "1",
            "--out",
            out.to_str().unwrap(),
        ]);
        let s = common::run(&args);
        assert!(s.status.success(), "{}", String::from_utf8_lossy(&s.stderr));
        let report: serde_json::Value = serde_json::from_slice(&s.stdout).unwrap();
        assert!(report["attack"].as_u64().unwrap() > 0);
        assert_eq!(
            report["attack"],
            report["tetrio_stats"]["garbage"]["attack"]
        );
        reports.push(report["attack"].clone());
    }
    assert_eq!(reports[0], reports[1]);
    std::fs::remove_dir_all(&dir).ok();
}

/// The match of `tests/data/tetrio/` as JSON, its first `rounds` rounds kept, changed by
/// `change` and written to `dir/name`.
fn changed_match(
    dir: &Path,
    name: &str,
    rounds: usize,
    change: impl FnOnce(&mut serde_json::Value),
) -> std::path::PathBuf {
    let mut d = common::json(&common::repo("tests/data/tetrio/replay-2026-07-24-4.ttrm"));
    d["replay"]["rounds"]
        .as_array_mut()
        .unwrap()
        .truncate(rounds);
    change(&mut d);
    let path = dir.join(name);
    std::fs::write(&path, d.to_string()).unwrap();
    path
}

/// The second player's replay of round 1 (yachi's, 2220 frames).
fn yachi(d: &mut serde_json::Value) -> &mut serde_json::Value {
    &mut d["replay"]["rounds"][0][1]["replay"]
}

/// `beamtris import REPLAY --out DIR`.
fn import(replay: &Path, out: &Path) -> std::process::Command {
    let mut cmd = common::bin();
    cmd.arg("import").arg(replay).arg("--out").arg(out);
    cmd
}

/// `beamtris verify DIR/BASE.txt --seed DIR/BASE.json`: an imported pair replayed.
fn verify_pair(dir: &Path, base: &str) -> std::process::Command {
    let mut cmd = common::bin();
    cmd.arg("verify")
        .arg(dir.join(format!("{base}.txt")))
        .arg("--seed")
        .arg(dir.join(format!("{base}.json")));
    cmd
}

#[test]
fn frames_past_the_replay_s_end_are_refused_before_simulating() {
    use serde_json::json;
    let dir = common::scratch("tetrio", "frames");
    let out = dir.join("out");
    let at = "replay.rounds[0][1].replay";
    // (name, the change, what the one line says)
    let cases: [(&str, serde_json::Value, serde_json::Value, String); 6] = [
        (
            "late.ttrm",
            json!(1e15),
            json!(null),
            format!(
                "{at}.events[37].frame: 1000000000000000 is past the replay's end (frames 2220)"
            ),
        ),
        (
            "just-late.ttrm",
            json!(2221),
            json!(null),
            format!("{at}.events[37].frame: 2221 is past the replay's end (frames 2220)"),
        ),
        (
            "negative.ttrm",
            json!(-5),
            json!(null),
            format!("{at}.events[37].frame: -5 is negative (frames count from 0)"),
        ),
        (
            "fraction.ttrm",
            json!(200.5),
            json!(null),
            format!("{at}.events[37].frame: 200.5 is not a whole number of frames"),
        ),
        (
            "text.ttrm",
            json!("200"),
            json!(null),
            format!("{at}.events[37].frame: \"200\" is not a number"),
        ),
        (
            "long.ttrm",
            json!(null),
            json!(1e15),
            format!("{at}.frames: 1000000000000000 is past the 1000000 frames a round may last"),
        ),
    ];
    for (name, frame, frames, says) in cases {
        let path = changed_match(&dir, name, 5, |d| {
            let r = yachi(d);
            if !frame.is_null() {
                r["events"][37]["frame"] = frame;
            }
            if !frames.is_null() {
                r["frames"] = frames;
            }
        });
        let run = import(&path, &out).output().unwrap();
        common::fails_saying(&run, &[&format!("{}: {says}", path.display())]);
        assert!(!out.exists(), "{name}: nothing written");
    }
    // The last event at the replay's last frame is the replay's own (2219 of 2220).
    let path = changed_match(&dir, "end.ttrm", 1, |d| {
        let r = yachi(d);
        let last = r["events"].as_array().unwrap().len() - 1;
        r["events"][last]["frame"] = json!(2220);
    });
    common::succeeds(common::bin().arg("import").arg(&path));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_seed_tetrio_cannot_deal_is_refused_by_name() {
    use serde_json::json;
    let dir = common::scratch("tetrio", "seeds");
    let out = dir.join("out");
    for (k, seed) in [
        json!(0),
        json!(-5),
        json!(1e300),
        json!("abc"),
        json!(2147483648u64),
        json!(1753222251.5),
    ]
    .into_iter()
    .enumerate()
    {
        let path = changed_match(&dir, &format!("s{k}.ttrm"), 1, |d| {
            yachi(d)["options"]["seed"] = seed.clone();
        });
        let run = import(&path, &out).output().unwrap();
        common::fails_saying(
            &run,
            &[
                &path.display().to_string(),
                "replay.rounds[0][1].replay: options.seed: ",
                &format!(
                    "{} is not a TETR.IO seed (an integer from 1 to 2147483647)",
                    seed
                ),
            ],
        );
        assert!(!out.exists(), "{seed}: nothing written");
    }
    // The largest seed is imported, and its game file verifies.
    let path = changed_match(&dir, "max.ttrm", 1, |d| {
        yachi(d)["options"]["seed"] = json!(2147483647);
    });
    common::succeeds(&mut import(&path, &out));
    common::succeeds(&mut verify_pair(&out, "r1-yachi"));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn players_of_one_name_get_a_file_each() {
    let dir = common::scratch("tetrio", "names");
    let out = dir.join("out");
    // Both players named pinglamb in round 2, and in round 1 but for the case (a file name
    // on a file system that ignores case); yachi's game is the second. Round 3 as played.
    let path = changed_match(&dir, "same.ttrm", 3, |d| {
        d["replay"]["rounds"][0][1]["username"] = "PingLamb".into();
        d["replay"]["rounds"][1][1]["username"] = "pinglamb".into();
    });
    let run = common::succeeds(&mut import(&path, &out));
    assert_eq!(String::from_utf8_lossy(&run.stdout).lines().count(), 6);
    assert_eq!(
        common::listing(&out),
        [
            "r1-PingLamb-p2.json",
            "r1-PingLamb-p2.txt",
            "r1-pinglamb-p1.json",
            "r1-pinglamb-p1.txt",
            "r2-pinglamb-p1.json",
            "r2-pinglamb-p1.txt",
            "r2-pinglamb-p2.json",
            "r2-pinglamb-p2.txt",
            "r3-pinglamb.json",
            "r3-pinglamb.txt",
            "r3-yachi.json",
            "r3-yachi.txt",
        ]
    );
    // Each file holds its own player's game (round 1: pinglamb attacked 42, yachi 28;
    // round 2: pinglamb 32, yachi 17).
    for (base, attack) in [
        ("r1-pinglamb-p1", 42),
        ("r1-PingLamb-p2", 28),
        ("r2-pinglamb-p1", 32),
        ("r2-pinglamb-p2", 17),
    ] {
        let v = common::succeeds(&mut verify_pair(&out, base));
        let report: serde_json::Value = serde_json::from_slice(&v.stdout).unwrap();
        assert_eq!(
            report["tetrio_stats"]["garbage"]["attack"], attack,
            "{base}"
        );
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn an_import_into_a_used_folder_replaces_its_own_files_only() {
    let dir = common::scratch("tetrio", "used");
    let out = dir.join("out");
    let path = changed_match(&dir, "one.ttrm", 1, |_| {});
    std::fs::create_dir_all(&out).unwrap();
    std::fs::write(out.join("notes.md"), "mine\n").unwrap();
    std::fs::write(out.join("r1-yachi.txt"), "an older import\n").unwrap();
    common::succeeds(&mut import(&path, &out));
    assert_eq!(
        std::fs::read_to_string(out.join("notes.md")).unwrap(),
        "mine\n"
    );
    let record = std::fs::read_to_string(out.join("r1-yachi.txt")).unwrap();
    assert!(record.starts_with("N,"), "{record}");
    // A folder where a file goes is refused before anything is written.
    let fresh = dir.join("fresh");
    std::fs::create_dir_all(fresh.join("r1-yachi.json")).unwrap();
    let run = import(&path, &fresh).output().unwrap();
    common::fails_saying(&run, &["r1-yachi.json", "exists and is not a file"]);
    assert_eq!(common::listing(&fresh), ["r1-yachi.json"]);
    std::fs::remove_dir_all(&dir).ok();
}

/// A key pressed in the frame where the lock delay runs out is played after the part of the
/// frame before it: when the piece locked in that part, the key is the next piece's, for
/// finesse as for inputs. Round 8 of `replay-2026-08-14-10.ttrm`: pinglamb's 34th piece, a T
/// spun into a double and soft dropped, locks by the lock delay at frame 1436; the
/// `rotateCCW` at 1436.4 turns the 35th, a J (3 presses at best), which then took 5 presses:
/// 2 faults. TETR.IO states 15 faults; counted for the T (not judged: soft drop let go), 14.
#[test]
fn a_key_in_the_frame_of_a_lock_by_the_lock_delay_is_the_next_piece_s() {
    check("replay-2026-08-14-10-r8.ttrm", 2);
    let r = &rounds("replay-2026-08-14-10-r8.ttrm")[0];
    assert_eq!(r.username, "pinglamb");
    let e = tetrio::simulate(r);
    let (t, j) = (&e.locks[33], &e.locks[34]);
    assert_eq!((t.piece, t.frame, t.hard), (tetrio::pieces::T, 1436, false));
    assert_eq!(
        (t.counted.keys, t.counted.inputs, t.counted.soft),
        (3, 7, true)
    );
    assert_eq!((j.frame, j.counted.keys, j.counted.inputs), (1513, 5, 6));
    let s = &e.stats;
    assert_eq!(
        (
            s.piecesplaced,
            s.inputs,
            s.finesse.faults,
            s.finesse.perfectpieces
        ),
        (98, 345, 15, 87)
    );
}

/// The same at the end: round 1 of `replay-2026-07-22-7.ttrm`, yachi's 38th piece (a Z, two
/// turns where none were needed) locks by the lock delay at frame 1883 and tops out; the
/// `rotateCW` at 1883.2 is an input (131, as TETR.IO states) but not the Z's: 2 faults for
/// it, 5 in all (6 when the key was the Z's).
#[test]
fn a_key_after_the_last_lock_in_its_frame_is_an_input_but_not_the_piece_s() {
    check("replay-2026-07-22-7-r1.ttrm", 2);
    let r = &rounds("replay-2026-07-22-7-r1.ttrm")[1];
    assert_eq!(r.username, "yachi");
    let e = tetrio::simulate(r);
    let z = e.locks.last().unwrap();
    assert_eq!((e.locks.len(), z.frame, z.hard), (38, 1883, false));
    assert_eq!((z.counted.keys, z.counted.inputs), (2, 2));
    let s = &e.stats;
    assert_eq!(
        (s.inputs, s.finesse.faults, s.finesse.perfectpieces),
        (131, 5, 34)
    );
}

/// The game file an import writes says whether the round agrees with what TETR.IO stated
/// (`"agrees"`) and, field by field, where it does not (`"disagreements"`), as the
/// terminal's line does.
#[test]
fn an_import_s_game_file_lists_the_fields_that_disagree() {
    let dir = common::scratch("tetrio", "agrees");
    let out = import(&common::repo("tests/data/tetrio/40l.ttr"), &dir)
        .output()
        .unwrap();
    assert!(out.status.success());
    let file = common::json(&dir.join("r1-zbrachinara.json"));
    assert_eq!(file["tetrio"]["import"]["agrees"], true);
    assert_eq!(
        file["tetrio"]["import"]["disagreements"],
        serde_json::json!([])
    );
    // The same game, with two of TETR.IO's figures changed.
    let mut d = common::json(&common::repo("tests/data/tetrio/40l.ttr"));
    d["endcontext"]["finesse"]["faults"] = 40.into();
    d["endcontext"]["inputs"] = 300.into();
    let changed = dir.join("changed.ttr");
    std::fs::write(&changed, d.to_string()).unwrap();
    let out = import(&changed, &dir).output().unwrap();
    assert!(out.status.success());
    let printed = String::from_utf8(out.stdout).unwrap();
    assert!(
        printed.ends_with(
            "2 differ: inputs stated 300 computed 339, finesse.faults stated 40 computed 39\n"
        ),
        "{printed}"
    );
    let file = common::json(&dir.join("r1-zbrachinara.json"));
    assert_eq!(file["tetrio"]["import"]["agrees"], false);
    assert_eq!(
        file["tetrio"]["import"]["disagreements"],
        serde_json::json!([
            {"field": "inputs", "tetrio": 300, "beamtris": 339},
            {"field": "finesse.faults", "tetrio": 40, "beamtris": 39},
        ])
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// A hard drop that `safelock` ignores (within 7 frames of a lock by gravity) is not an
/// input. Round 1 of `replay-2026-07-28-6.ttrm`: yachi's 10th piece, an S, locks by the lock
/// delay at frame 523, before the `hardDrop` at 523.4, which the next piece then ignores.
/// The replay holds 57 `keydown`s; TETR.IO counts 56 inputs (13 of the 900 version-19 rounds
/// have one or two such hard drops, and TETR.IO counts that many fewer on each).
#[test]
fn a_hard_drop_safelock_ignores_is_not_an_input() {
    check("replay-2026-07-28-6-r1.ttrm", 2);
    let r = &rounds("replay-2026-07-28-6-r1.ttrm")[1];
    assert_eq!(r.username, "yachi");
    let keydowns = r
        .events
        .iter()
        .filter(|(_, e)| matches!(e, tetrio::engine::Event::KeyDown { .. }))
        .count();
    let e = tetrio::simulate(r);
    let s = &e.locks[9];
    assert_eq!((s.piece, s.frame, s.hard), (3, 523, false));
    assert_eq!((e.locks[10].frame, e.locks[10].counted.inputs), (605, 7));
    assert_eq!((keydowns, e.stats.inputs, e.locks.len()), (57, 56, 15));
}

/// Finesse does not judge a piece during which soft drop was let go: soft drop held down
/// through a lock judges the piece that locked. Round 8 of `replay-2026-08-01-4.ttrm`:
/// pinglamb presses soft drop at frame 526.9 for the 16th piece, a Z, which locks by the
/// lock delay at frame 601 with soft drop still down after 7 presses (none needed): 7
/// faults, as TETR.IO counts (15 in all; 8 when the press was enough). Soft drop is let go at
/// 622.9, during the 17th piece, which holds at 641: the J out of the hold is judged afresh.
#[test]
fn soft_drop_let_go_not_pressed_keeps_finesse_from_judging_a_piece() {
    check("replay-2026-08-01-4-r8.ttrm", 2);
    let r = &rounds("replay-2026-08-01-4-r8.ttrm")[1];
    assert_eq!(r.username, "pinglamb");
    let e = tetrio::simulate(r);
    let (z, next) = (&e.locks[15], &e.locks[16]);
    assert_eq!((z.piece, z.frame, z.hard), (0, 601, false));
    assert_eq!((z.counted.keys, z.counted.soft), (7, false));
    assert_eq!(
        (next.frame, next.held, next.counted.soft),
        (691, true, false)
    );
    let s = &e.stats;
    assert_eq!(
        (s.piecesplaced, s.finesse.faults, s.finesse.perfectpieces),
        (45, 15, 37)
    );
}

/// A hold starts the soft drop afresh too: the piece out of the hold is judged, though soft
/// drop was let go for the piece before it. Round 2 of `replay-2026-08-19-3.ttrm`: yachi lets
/// soft drop go at frame 583.9, holds at 610.7, and the 4th piece, an O, takes 4 presses
/// for none: 4 faults, 33 in all as TETR.IO counts (29 when the O was spared). A hold refused
/// (the hold already used for this piece) starts nothing afresh.
#[test]
fn a_hold_starts_the_soft_drop_afresh() {
    check("replay-2026-08-19-3-r2.ttrm", 2);
    let r = &rounds("replay-2026-08-19-3-r2.ttrm")[1];
    assert_eq!(r.username, "yachi");
    let e = tetrio::simulate(r);
    let o = &e.locks[3];
    assert_eq!((o.piece, o.frame, o.held), (tetrio::pieces::O, 692, true));
    assert_eq!((o.counted.keys, o.counted.soft), (4, false));
    let s = &e.stats;
    assert_eq!(
        (s.piecesplaced, s.finesse.faults, s.finesse.perfectpieces),
        (38, 33, 25)
    );
}

/// A version-19 round's survivor stops when the other player's death reaches it: the last
/// frame (the replay's `frames`, where its `end` lies) plays its events but no fall. Round 3
/// of `replay-2026-08-14-3.ttrm`: pinglamb survives; its 22nd piece, soft dropped from frame
/// 847.4 (SDF 20: a row a frame), falls a row in each of frames 847 to 853 and another in the
/// last, 854. TETR.IO scores 4 577, the 7 rows of 847 to 853 but not 854's (4 578 when the
/// last frame falls too); yachi, who tops out, agrees either way.
#[test]
fn a_survivor_s_last_frame_has_no_fall() {
    check("replay-2026-08-14-3-r3.ttrm", 2);
    let rounds = rounds("replay-2026-08-14-3-r3.ttrm");
    let r = &rounds[0];
    assert_eq!(
        (r.username.as_str(), r.alive, r.frames),
        ("pinglamb", Some(true), 854)
    );
    let e = tetrio::simulate(r);
    assert_eq!(
        (e.stats.score, e.pending_drop_points(), e.locks.len()),
        (4577, 7, 21)
    );
}

/// The match format of versions 15 to 18 (`data` a list of rounds, each player's replay a
/// `.ttr`'s `data`, the statistics in its `end` event): round 3 of `HBSQabUhSS.ttrm` agrees
/// on every field for both players. Its garbage messages carry the hole `column`, which the
/// rows take (batches 1 and 2 of zbrachinara's both in column 6: the generator of version 19
/// would give the second another), and no `ackiid`, so nothing is network-cancelled.
#[test]
fn a_version_15_match_agrees_with_its_messages_columns() {
    check("HBSQabUhSS-r3.ttrm", 2);
    let rounds = rounds("HBSQabUhSS-r3.ttrm");
    let z = &rounds[0];
    assert_eq!(
        (z.round, z.username.as_str(), z.options.version),
        (1, "zbrachinara", 15)
    );
    let e = tetrio::simulate(z);
    let columns: Vec<usize> = e.arrivals.iter().map(|a| a.column).collect();
    assert_eq!(columns, [6, 6, 6, 6, 6, 6, 9]);
    assert_eq!(e.stats.garbage.received, 14);
}

/// The older match format is read only for versions 15 to 18, and its `end` statistics are
/// required, named by place.
#[test]
fn an_older_match_without_its_statistics_or_of_version_19_is_refused_by_place() {
    let text =
        std::fs::read_to_string(common::repo("tests/data/tetrio/HBSQabUhSS-r3.ttrm")).unwrap();
    let mut d: serde_json::Value = serde_json::from_str(&text).unwrap();
    let events = d["data"][0]["replays"][1]["events"].as_array_mut().unwrap();
    events.retain(|e| e["type"] != "end");
    let err = tetrio::replay::parse("m.ttrm", &d.to_string())
        .err()
        .unwrap()
        .to_string();
    assert!(
        err.contains("missing field `data[0].replays[1].events[type=end].data.export.stats`"),
        "{err}"
    );
    let mut d: serde_json::Value = serde_json::from_str(&text).unwrap();
    for e in d["data"][0]["replays"][0]["events"].as_array_mut().unwrap() {
        if e["type"] == "full" {
            e["data"]["options"]["version"] = 19.into();
        }
    }
    let err = tetrio::replay::parse("m.ttrm", &d.to_string())
        .err()
        .unwrap()
        .to_string();
    assert!(
        err.contains("data[0].replays[0]`: options.version 19 is not supported"),
        "{err}"
    );
}

/// Garbage that enters row by row (`garbageentry` `continuous`, a room of
/// `bhudgens/tetrio-replays` whose rounds diverged) is refused by name, before anything is
/// simulated.
#[test]
fn garbage_entering_row_by_row_is_refused_by_name() {
    let dir = common::scratch("tetrio", "entry");
    let path = changed_match(&dir, "entry.ttrm", 1, |d| {
        yachi(d)["options"]["garbageentry"] = "continuous".into();
    });
    let out = import(&path, &dir.join("out")).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("options.garbageentry `continuous` is not supported (instant is)"),
        "{err}"
    );
    assert!(!dir.join("out").exists());
    std::fs::remove_dir_all(&dir).ok();
}
