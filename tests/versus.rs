//! `beamtris versus`: a match of two builtin players is the same file twice, its replay
//! imports back to the summary's statistics, a TBP command plays through the protocol, and
//! bots that crash, hang, answer junk or an illegal move lose their game with that reason
//! while the match goes on.

mod common;

use common::{json, run, scratch};
use std::path::Path;

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// A small, quick match: the builtin player at a tiny search, short games.
fn small_match(a: &str, b: &str, games: &str, out: &Path, extra: &[&str]) -> std::process::Output {
    let mut args = vec![
        "versus",
        "--a",
        a,
        "--b",
        b,
        "--games",
        games,
        "--tetrio-seed",
        "4242",
        "--beam",
        "6",
        "--samples",
        "0",
        "--max-seconds",
        "25",
        "--out",
        s(out),
    ];
    args.extend_from_slice(extra);
    run(&args)
}

/// `beamtris import` of `ttrm` (with `extra` flags) prints one line for each of its `rounds`
/// player-rounds, each agreeing with every statistic the file states.
fn imports_agreeing(ttrm: &Path, extra: &[&str], rounds: usize) {
    let mut args = vec!["import", s(ttrm)];
    args.extend_from_slice(extra);
    let o = run(&args);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let lines = String::from_utf8(o.stdout).unwrap();
    assert_eq!(lines.lines().count(), rounds, "{lines}");
    for line in lines.lines() {
        assert!(line.ends_with("all stated statistics agree"), "{line}");
    }
}

#[test]
fn two_builtin_players_give_the_same_files_twice() {
    let dir = scratch("versus", "twice");
    let (one, two) = (dir.join("one"), dir.join("two"));
    for out in [&one, &two] {
        let o = small_match("builtin", "builtin", "10", out, &[]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    for name in ["summary.json", "match.ttrm"] {
        let (x, y) = (
            std::fs::read(one.join(name)).unwrap(),
            std::fs::read(two.join(name)).unwrap(),
        );
        assert!(x == y, "{name} differs between two runs");
    }
    let summary = json(&one.join("summary.json"));
    let games = summary["games"].as_array().unwrap();
    assert_eq!(games.len(), 10);
    // Seeds follow from the first, who starts alternates, every game ends somehow.
    for (g, game) in games.iter().enumerate() {
        assert_eq!(game["seed"], 4242 + g as u64);
        assert_eq!(game["starter"], if g % 2 == 0 { "a" } else { "b" });
        assert!(game["reason"].as_str().is_some_and(|r| !r.is_empty()));
        assert!(game["a"]["pieces"].as_u64().unwrap() > 0);
    }
    let t = &summary["totals"];
    let (a, b, d) = (
        t["wins"]["a"].as_u64().unwrap(),
        t["wins"]["b"].as_u64().unwrap(),
        t["draws"].as_u64().unwrap(),
    );
    assert_eq!(a + b + d, 10);
    std::fs::remove_dir_all(&dir).ok();
}

/// The replay read back by `import`: every round of every game, simulated from its keys and
/// garbage messages, states and gives the statistics the summary holds.
#[test]
fn the_replay_imports_back_to_the_summary() {
    let dir = scratch("versus", "import");
    let out = dir.join("m");
    let o = small_match("builtin", "builtin", "3", &out, &["--pps-b", "3"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let summary = json(&out.join("summary.json"));
    let replay = json(&out.join("match.ttrm"));
    let rounds = replay["replay"]["rounds"].as_array().unwrap();
    assert_eq!(rounds.len(), 3);
    for (g, round) in rounds.iter().enumerate() {
        for (p, side) in ["a", "b"].iter().enumerate() {
            let stated = &round[p]["replay"]["results"]["stats"];
            let ours = &summary["games"][g][side]["stats"];
            for (k, v) in ours.as_object().unwrap() {
                assert_eq!(&stated[k], v, "game {} {side} {k}", g + 1);
            }
            let agg = &round[p]["replay"]["results"]["aggregatestats"];
            for k in ["apm", "pps", "vsscore"] {
                assert_eq!(
                    agg[k],
                    summary["games"][g][side][k],
                    "game {} {side} {k}",
                    g + 1
                );
            }
        }
    }
    let imported = dir.join("imported");
    imports_agreeing(&out.join("match.ttrm"), &["--out", s(&imported)], 6);
    // The side-by-side views of a game: as text, both players' names and garbage meters;
    // as a page.
    let o = run(&[
        "show",
        s(&out.join("match.ttrm")),
        "--round",
        "2",
        "--at",
        "10",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(text.starts_with("a-beamtris-builtin"), "{text}");
    assert!(text.contains("b-beamtris-builtin"), "{text}");
    assert_eq!(text.matches("incoming").count(), 2, "{text}");
    // In step: both drawn in the frame the game's 10th piece locked, their pieces counted
    // together (two locking in that same frame count both).
    let frames: Vec<&str> = text
        .split("frame ")
        .skip(1)
        .map(|t| t.split(' ').next().unwrap())
        .collect();
    assert_eq!(frames.len(), 2, "{text}");
    assert_eq!(frames[0], frames[1], "{text}");
    let locks: usize = text
        .split("lock ")
        .skip(1)
        .map(|t| t.split('/').next().unwrap().parse::<usize>().unwrap())
        .sum();
    assert!((10..=11).contains(&locks), "{text}");
    let page = dir.join("game2.html");
    let o = run(&[
        "show",
        s(&out.join("match.ttrm")),
        "--round",
        "2",
        "--html",
        s(&page),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(std::fs::read_to_string(&page).unwrap().contains("incoming"));
    let o = run(&["show", s(&out.join("match.ttrm")), "--round", "4"]);
    common::fails_saying(&o, &["--round 4: the replay holds rounds 1 to 3"]);
    // b's pace is its own: about 3 pieces a second against a's 2.
    let pps = |side: &str| summary["games"][0][side]["pps"].as_f64().unwrap();
    assert!(
        pps("b") > 2.5 && pps("a") < 2.1,
        "{} {}",
        pps("a"),
        pps("b")
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// A game played to its end: b wins while soft dropping in the frame a tops out. TETR.IO
/// stops the survivor's game before that frame's fall, so the soft drop scores no row there;
/// the arena's summary and the import of its replay must both say so (the arena once scored
/// it, one point over the import).
#[test]
fn the_winner_of_a_game_played_out_imports_back_to_its_score() {
    let dir = scratch("versus", "played-out");
    let out = dir.join("m");
    let o = run(&[
        "versus",
        "--a",
        "builtin",
        "--b",
        "builtin",
        "--games",
        "1",
        "--tetrio-seed",
        "4269",
        "--beam",
        "6",
        "--samples",
        "0",
        "--pps-b",
        "3",
        "--out",
        s(&out),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let summary = json(&out.join("summary.json"));
    assert_eq!(summary["games"][0]["winner"], "b");
    let mut replay = json(&out.join("match.ttrm"));
    imports_agreeing(&out.join("match.ttrm"), &[], 2);
    let b = &replay["replay"]["rounds"][0][1];
    assert_eq!(
        summary["games"][0]["b"]["stats"]["score"],
        b["replay"]["results"]["stats"]["score"]
    );
    // The case is there: b's last frame played in full (the import told b did not survive)
    // scores the soft drop's row.
    let score = b["replay"]["results"]["stats"]["score"].as_i64().unwrap();
    replay["replay"]["rounds"][0][1]["alive"] = false.into();
    let full = dir.join("full-last-frame.ttrm");
    std::fs::write(&full, replay.to_string()).unwrap();
    let o = run(&["import", s(&full)]);
    let lines = String::from_utf8(o.stdout).unwrap();
    let want = format!("1 differ: score stated {score} computed {}", score + 1);
    assert!(
        lines.lines().nth(1).is_some_and(|l| l.ends_with(&want)),
        "{lines}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// A TBP bot: `beamtris tbp` itself, through the protocol, against the builtin player; the
/// summary names it by its `info`.
#[test]
fn a_tbp_command_plays_a_match() {
    let dir = scratch("versus", "tbp");
    let out = dir.join("m");
    let bot = format!(
        "{} tbp --beam 6 --samples 0 --think-ms 50",
        env!("CARGO_BIN_EXE_beamtris")
    );
    let o = small_match(
        "builtin",
        &bot,
        "2",
        &out,
        &["--think-ms", "1", "--grace-ms", "20000"],
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let summary = json(&out.join("summary.json"));
    assert_eq!(summary["match"]["b"]["name"], "beamtris");
    for g in summary["games"].as_array().unwrap() {
        assert!(
            ["topout", "time_limit", "both_topped_out"]
                .contains(&g["reason_kind"].as_str().unwrap()),
            "{g}"
        );
        assert!(g["b"]["pieces"].as_u64().unwrap() >= 10, "{g}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// A bot written as a shell script: it introduces itself, says ready, and answers
/// `suggest` with `answer` (a shell command).
fn bad_bot(dir: &Path, name: &str, answer: &str) -> String {
    let path = dir.join(format!("{name}.sh"));
    let script = format!(
        "echo '{{\"type\":\"info\",\"name\":\"{name}\",\"version\":\"1\",\"author\":\"test\",\"features\":[]}}'\n\
         while read -r line; do\n\
           case \"$line\" in\n\
             *'\"rules\"'*) echo '{{\"type\":\"ready\"}}' ;;\n\
             *'\"suggest\"'*) {answer} ;;\n\
             *'\"quit\"'*) exit 0 ;;\n\
           esac\n\
         done\n"
    );
    std::fs::write(&path, script).unwrap();
    format!("sh {}", path.display())
}

#[test]
fn bad_bots_lose_with_the_reason_and_the_match_goes_on() {
    let dir = scratch("versus", "bad");
    let illegal = r#"echo '{"type":"suggestion","moves":[{"location":{"type":"T","orientation":"north","x":4,"y":12},"spin":"none"}]}'"#;
    let cases = [
        ("crash", "exit 3", "crashed"),
        ("hang", ":", "late"),
        ("junk", "echo 'this is not a message'", "malformed"),
        ("illegal", illegal, "illegal"),
        (
            "forfeit",
            r#"echo '{"type":"suggestion","moves":[]}'"#,
            "forfeit",
        ),
    ];
    for (name, answer, kind) in cases {
        let bot = bad_bot(&dir, name, answer);
        let out = dir.join(name);
        let o = small_match(
            &bot,
            "builtin",
            "2",
            &out,
            &["--think-ms", "1", "--grace-ms", "300"],
        );
        assert!(
            o.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let summary = json(&out.join("summary.json"));
        let games = summary["games"].as_array().unwrap();
        assert_eq!(games.len(), 2, "{name}: the match finishes");
        for g in games {
            assert_eq!(g["winner"], "b", "{name}: {g}");
            assert_eq!(g["reason_kind"], kind, "{name}: {g}");
            assert!(
                g["reason"].as_str().unwrap().starts_with("a: "),
                "{name}: {g}"
            );
        }
        assert_eq!(summary["match"]["a"]["name"], name);
        // The replay of a game lost by a fault still imports.
        let o = run(&["import", s(&out.join("match.ttrm"))]);
        assert!(
            o.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn bad_flags_are_refused_in_one_line() {
    let dir = scratch("versus", "flags");
    let out = dir.join("m");
    for (args, want) in [
        (vec!["--games", "0"], "--games 0"),
        (vec!["--pps-a", "0"], "--pps-a 0"),
        (vec!["--queue", "IOT"], "--queue"),
        (vec!["--seed", "seeds/tetrio-blitz.json"], "no `versus`"),
    ] {
        let mut a = vec![
            "versus",
            "--a",
            "builtin",
            "--b",
            "builtin",
            "--out",
            s(&out),
        ];
        a.extend(args);
        let o = run(&a);
        common::fails_saying(&o, &[want]);
    }
    assert!(!out.join("summary.json").exists());
    std::fs::remove_dir_all(&dir).ok();
}

/// A match stopped after 2 games and resumed to 4 is the match played in one run, byte for
/// byte; a resume with other settings, or with no match to go on with, is refused in one
/// line, the files untouched.
#[test]
fn a_resumed_match_is_the_match_played_in_one_run() {
    let dir = scratch("versus", "resume");
    let (whole, parts) = (dir.join("whole"), dir.join("parts"));
    let o = small_match("builtin", "builtin", "4", &whole, &[]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = small_match("builtin", "builtin", "2", &parts, &[]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let before = std::fs::read(parts.join("summary.json")).unwrap();
    // Another pace for b: refused, naming the setting, nothing written.
    let o = small_match(
        "builtin",
        "builtin",
        "4",
        &parts,
        &["--resume", "--pps-b", "3"],
    );
    common::fails_saying(&o, &["--resume", "`/pps/b` 2.0, this run has 3.0"]);
    assert_eq!(std::fs::read(parts.join("summary.json")).unwrap(), before);
    let o = small_match("builtin", "builtin", "4", &parts, &["--resume"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("2 games of 4 (resumed after 2)"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    for name in ["summary.json", "match.ttrm"] {
        let (x, y) = (
            std::fs::read(whole.join(name)).unwrap(),
            std::fs::read(parts.join(name)).unwrap(),
        );
        assert!(x == y, "{name}: the resumed match differs from the one run");
    }
    // Nothing to go on with.
    let o = small_match("builtin", "builtin", "4", &dir.join("none"), &["--resume"]);
    common::fails_saying(&o, &["summary.json", "--resume: no such file"]);
    // Without --resume or --force, an existing match is kept.
    let o = small_match("builtin", "builtin", "4", &parts, &[]);
    common::fails_saying(
        &o,
        &["exists (--force replaces it, --resume goes on with its match)"],
    );
    std::fs::remove_dir_all(&dir).ok();
}
