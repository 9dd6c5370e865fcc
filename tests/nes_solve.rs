//! NES games end to end, with the built binary: a small solve whose record `verify` replays
//! to the solve's score, a hand-made record, and the refusals of bad input.

mod common;
use common::{fails_with, json, run, scratch};

fn text(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn a_small_solve_replays_to_its_score() {
    let dir = scratch("nes-solve", "small");
    let out = dir.join("s.json");
    let o = run(&[
        "solve",
        "--gym-seed",
        "123456",
        "--lines",
        "20",
        "--beam",
        "100",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let report = json(&out);
    assert_eq!(report["end_reason"], "lines_reached");
    assert!(report["lines"].as_u64().unwrap() >= 20);
    assert_eq!(report["weights_name"], "nes-230");
    let record = dir.join("s.txt");
    let v = run(&["verify", record.to_str().unwrap()]);
    assert!(v.status.success(), "{}", String::from_utf8_lossy(&v.stderr));
    let verified: serde_json::Value = serde_json::from_str(&text(&v)).unwrap();
    assert_eq!(verified["score"], report["score"]);
    assert_eq!(verified["lines"], report["lines"]);
    assert_eq!(verified["valid"], true);
    // the same record, the game given by flags instead of the results file beside it
    let moved = dir.join("moved.txt");
    std::fs::copy(&record, &moved).unwrap();
    let v = run(&[
        "verify",
        moved.to_str().unwrap(),
        "--gym-seed",
        "123456",
        "--lines",
        "20",
    ]);
    let again: serde_json::Value = serde_json::from_str(&text(&v)).unwrap();
    assert_eq!(again["score"], report["score"]);
    // show draws it, with level and speed
    let s = run(&["show", record.to_str().unwrap(), "--at", "1"]);
    assert!(text(&s).starts_with("lock 1/"), "{}", text(&s));
    assert!(
        text(&s).contains("level 18  gravity 3 frames a row  speed 30hz"),
        "{}",
        text(&s)
    );
    let a = run(&[
        "show",
        record.to_str().unwrap(),
        "--animate",
        "--from",
        "1",
        "--to",
        "2",
    ]);
    assert!(
        text(&a).contains("level 18  gravity 3 frames a row  speed 30hz  next"),
        "{}",
        text(&a)
    );
}

#[test]
fn a_killscreen_x2_solve_replays_with_its_gravity() {
    // from level 28 the clear that reaches 200 lines makes level 29 and, with Killscreen x2
    // from 29, two rows a frame from the next piece on
    let dir = scratch("nes-solve", "ks2");
    let out = dir.join("k.json");
    let o = run(&[
        "solve",
        "--seed",
        "seeds/nes-gym-ks2.json",
        "--level",
        "28",
        "--killscreen-x2",
        "29",
        "--lines",
        "210",
        "--beam",
        "20",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let report = json(&out);
    assert_eq!(report["game"]["nes"]["killscreen_x2"], 29);
    assert_eq!(report["weights_name"], "nes");
    let record = dir.join("k.txt");
    let v = run(&["verify", record.to_str().unwrap(), "--trace"]);
    assert!(v.status.success(), "{}", String::from_utf8_lossy(&v.stderr));
    let lines: Vec<serde_json::Value> = text(&v)
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect();
    let locks: Vec<&serde_json::Value> = lines.iter().filter(|l| l.get("lock").is_some()).collect();
    assert!(report["lines"].as_u64().unwrap() > 200, "{report}");
    for l in &locks {
        let double = l["gravity"] == "2 rows a frame";
        assert_eq!(double, l["level"].as_u64().unwrap() >= 29, "{l}");
        if !double {
            assert_eq!(l["gravity"], "2 frames a row", "{l}");
        }
    }
    assert_eq!(lines.last().unwrap()["score"], report["score"]);
}

#[test]
fn a_hand_made_record_replays_frame_by_frame() {
    let dir = scratch("nes-solve", "hand");
    let record = dir.join("z.txt");
    // Seed 123456 deals Z first. Dropped with no input it waits the 96 frames of the first
    // piece's entry delay, falls a row on frame 97 and every 3 frames after (level 18) to
    // row 18 on frame 148, and stops on frame 151.
    std::fs::write(&record, "# one Z\nspeed 30hz\nZ\n").unwrap();
    let v = run(&["verify", record.to_str().unwrap(), "--gym-seed", "123456"]);
    assert!(v.status.success(), "{}", String::from_utf8_lossy(&v.stderr));
    let got: serde_json::Value = serde_json::from_str(&text(&v)).unwrap();
    assert_eq!(got["frames"], 151);
    assert_eq!(got["pieces"], 1);
    assert_eq!(got["score"], 0);
    assert_eq!(got["end_reason"], "record_end");
    let s = run(&["show", record.to_str().unwrap(), "--gym-seed", "123456"]);
    assert!(
        text(&s).contains("\n..........\n....ZZ....\n.....ZZ...\nend"),
        "{}",
        text(&s)
    );
}

#[test]
fn bad_flags_are_refused_and_nothing_is_written() {
    let dir = scratch("nes-solve", "flags");
    let out = dir.join("x.json");
    let o = out.to_str().unwrap();
    for (flags, want) in [
        (vec!["--gym-seed", "12345"], "--gym-seed 12345: a TetrisGYM seed is 6 hexadecimal digits, like 1A2B3C"),
        (vec!["--gym-seed", "12345G"], "--gym-seed 12345G: a TetrisGYM seed is 6 hexadecimal digits, like 1A2B3C"),
        (vec!["--gym-seed", "123456", "--level", "30"], "--level 30: give a level from 0 to 29"),
        (vec!["--gym-seed", "123456", "--level", "-1"], "--level -1: give a level from 0 to 29"),
        (vec!["--gym-seed", "123456", "--tap-hz", "20"], "--tap-hz 20: give 30 or 15 (or --das to hold)"),
        (vec!["--gym-seed", "123456", "--lines", "0"], "--lines 0: give a line target from 1 to 1000"),
        (vec!["--gym-seed", "123456", "--killscreen-x2", "28"], "--killscreen-x2 28: give a level from 29 (the single killscreen) to 255"),
        (vec!["--gym-seed", "123456", "--level", "29", "--killscreen-x2", "29"], "--killscreen-x2 29: not above the starting level 29"),
        (vec!["--level", "18"], "--level 18: which NES game? give --gym-seed HEX (TetrisGYM's pieces for that seed) or --seed GAME (seeds/nes-gym.json is TetrisGYM seed 123456, level 18, 30 Hz, 230 lines)"),
        (vec!["--gym-seed", "123456", "--queue", "IOT"], "--queue IOT: the game nes-gym-123456 is a NES Tetris game, which does not take --queue (its flags: --gym-seed, --level, --tap-hz, --das, --lines, --killscreen-x2)"),
        (vec!["--gym-seed", "1A2B3C", "--pps", "3"], "--pps 3: the game nes-gym-123456 is a NES Tetris game, which does not take --pps (its flags: --gym-seed, --level, --tap-hz, --das, --lines, --killscreen-x2)"),
    ] {
        let mut args = vec!["solve", "--beam", "5", "--out", o];
        args.extend(flags);
        fails_with(&run(&args), want);
        assert!(!out.exists() && !dir.join("x.txt").exists());
    }
    let seed = dir.join("bad.json");
    std::fs::write(
        &seed,
        r#"{"name":"b","rules":"nes","generator":{"kind":"gym","seed":"12"},"nes":{"level":18}}"#,
    )
    .unwrap();
    let s = seed.to_str().unwrap();
    fails_with(
        &run(&["solve", "--seed", s, "--out", o]),
        &format!("{s}: generator.seed `12`: a TetrisGYM seed is 6 hexadecimal digits, like 1A2B3C"),
    );
    std::fs::write(&seed, r#"{"name":"b","rules":"nes","generator":{"kind":"gym","seed":"123456"},"nes":{"level":31}}"#).unwrap();
    fails_with(
        &run(&["solve", "--seed", s, "--out", o]),
        &format!("{s}: nes.level: 31 is not a level from 0 to 29"),
    );
    std::fs::write(&seed, r#"{"name":"b","rules":"nes","generator":{"kind":"gym","seed":"123456"},"nes":{"killscreen_x2":19}}"#).unwrap();
    fails_with(
        &run(&["solve", "--seed", s, "--out", o]),
        &format!(
            "{s}: nes.killscreen_x2: 19 is below level 29, where the single killscreen starts"
        ),
    );
    let bad_speed = run(&[
        "solve",
        "--seed",
        "seeds/nes-gym-ks2.json",
        "--tap-hz",
        "60",
        "--out",
        o,
    ]);
    fails_with(&bad_speed, "--tap-hz 60: give 30 or 15 (or --das to hold)");
    assert!(!out.exists());
}

#[test]
fn records_that_do_not_fit_the_game_are_refused() {
    let dir = scratch("nes-solve", "records");
    let record = dir.join("r.txt");
    let r = record.to_str().unwrap();
    for (body, want) in [
        (
            "speed 30hz\nT\n",
            "piece 1: the record places T, the game deals Z",
        ),
        ("speed 15hz\nZ\n", "speed 15hz: the game is played at 30hz"),
        (
            "speed 30hz\nZ L R\n",
            "piece 1: left or right pressed on frames 1 and 2, faster than 30hz allows",
        ),
        ("speed 30hz\nZ . . A . A . A\n", ""),
        ("speed 30hz\nZ R . R . R . R . R\n", ""),
    ] {
        std::fs::write(&record, body).unwrap();
        let out = run(&["verify", r, "--gym-seed", "123456"]);
        if want.is_empty() {
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
        } else {
            fails_with(&out, &format!("{r}: {want}"));
        }
    }
    std::fs::write(&record, "speed 20hz\nZ\n").unwrap();
    fails_with(
        &run(&["verify", r, "--gym-seed", "123456"]),
        &format!("{r}: line 1: speed 20hz: give 30hz, 15hz or das"),
    );
}
