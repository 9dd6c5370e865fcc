//! Online play on guideline games (`beamtris play --previews`): the search sees only the
//! window a player sees, its record replays to the figures it reports, and its flags are
//! refused where they do not apply.

use beamtris::eval::guideline::{GuidelineEvaluator, GuidelineWeights};
use beamtris::games::guideline::replay::GuidelineGame;
use beamtris::search::online;
use std::path::Path;
use std::sync::atomic::AtomicBool;

mod common;

use common::{bin, json, scratch, succeeds};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn cc2_game(seed: u64) -> GuidelineGame {
    let path = format!("{ROOT}/seeds/cc2/tetrio-{seed}-srs-attack.json");
    let seed = beamtris::io::load_seed(Some(Path::new(&path))).unwrap();
    seed.guideline_game().unwrap()
}

fn play(game: &GuidelineGame, pieces: usize, previews: usize) -> online::Played {
    let e = GuidelineEvaluator::new(GuidelineWeights::preset("attack").unwrap());
    let never = AtomicBool::new(false);
    let player = online::Player {
        previews,
        beam: 150,
        evaluator: &e,
        fourwide: None,
        speculation: None,
        seven_bag: false,
    };
    online::play(game, pieces, &player, &never, |_, _| {})
}

/// Two games equal in their first k + P + 1 pieces and different after: a player with P
/// previews makes the same first k moves in both; one with P + 1 previews, who sees the
/// first piece that differs, does not.
#[test]
fn the_search_never_sees_past_the_previews() {
    let a = cc2_game(1);
    let other = cc2_game(12345);
    for (k, previews) in [(20, 5), (33, 2), (12, 1)] {
        let shown = k + previews + 1;
        let mut b = a.clone();
        b.pieces.truncate(shown);
        b.pieces.extend_from_slice(&other.pieces[shown..]);
        assert_ne!(a.pieces[shown..shown + 7], b.pieces[shown..shown + 7]);
        let play_a = play(&a, k, previews);
        let play_b = play(&b, k, previews);
        assert_eq!(play_a.moves.len(), k);
        assert_eq!(
            play_a.moves, play_b.moves,
            "k {k}, {previews} previews: the moves differ"
        );
        if previews == 5 {
            let seeing_more_a = play(&a, k, previews + 1);
            let seeing_more_b = play(&b, k, previews + 1);
            assert_ne!(
                seeing_more_a.moves, seeing_more_b.moves,
                "one more preview shows the pieces that differ, and the test can tell"
            );
        }
    }
}

#[test]
fn a_short_play_replays_through_verify_to_its_figures() {
    let dir = scratch("gplay", "verify");
    let out = dir.join("play.json");
    let game = format!("{ROOT}/seeds/cc2/tetrio-1742887628-srs-attack.json");
    succeeds(
        bin()
            .args([
                "play",
                "--seed",
                &game,
                "--previews",
                "5",
                "--beam",
                "100",
                "--max-pieces",
                "60",
            ])
            .arg("--out")
            .arg(&out),
    );
    let report = json(&out);
    assert_eq!(report["pieces"], 60);
    assert_eq!(report["pieces_asked"], 60);
    assert_eq!(report["previews"], 5);
    assert_eq!(report["topped_out"], false);
    let record = report["record_file"].as_str().unwrap();
    assert_eq!(Path::new(record), out.with_extension("txt"));
    let verify = bin()
        .args(["verify", record, "--seed", &game])
        .output()
        .unwrap();
    assert!(verify.status.success());
    let v: serde_json::Value = serde_json::from_slice(&verify.stdout).unwrap();
    for key in [
        "points",
        "attack",
        "pieces",
        "lines",
        "max_combo",
        "tspins",
        "perfect_clears",
        "back_to_backs",
        "holds",
    ] {
        assert_eq!(v[key], report[key], "{key}");
    }
    assert!(v["attack"].as_u64().unwrap() > 0, "sixty pieces send lines");
    let per_piece = v["attack"].as_f64().unwrap() / 60.0;
    assert!((report["attack_per_piece"].as_f64().unwrap() - per_piece).abs() < 1e-12);
    assert!(report["command"].as_str().unwrap().contains("--previews 5"));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn play_with_the_fourwide_policy_replays_and_says_so() {
    let dir = scratch("gplay", "fourwide");
    let out = dir.join("play.json");
    let game = format!("{ROOT}/seeds/cc2/tetrio-1-srs-attack.json");
    let weights =
        format!("{ROOT}/results/guideline/play-p5-fourwide/weights-attack-fourwide-rows3.json");
    let run = succeeds(
        bin()
            .args(["play", "--seed", &game, "--previews", "2", "--beam", "60"])
            .args([
                "--max-pieces",
                "150",
                "--fourwide",
                "on",
                "--weights",
                &weights,
            ])
            .arg("--out")
            .arg(&out),
    );
    let err = String::from_utf8_lossy(&run.stderr);
    assert!(err.contains("4-wide policy for sections: bag generator, hold, 2 previews"));
    let report = json(&out);
    assert_eq!(report["fourwide"]["generator"], "Bag");
    assert_eq!(report["fourwide"]["preview"], 2);
    assert_eq!(report["fourwide"]["hold"], true);
    assert!(report["fourwide_policy_moves"].as_u64().is_some());
    let verify = bin()
        .args([
            "verify",
            report["record_file"].as_str().unwrap(),
            "--seed",
            &game,
        ])
        .output()
        .unwrap();
    assert!(verify.status.success());
    let v: serde_json::Value = serde_json::from_slice(&verify.stdout).unwrap();
    for key in ["points", "attack", "pieces", "max_combo"] {
        assert_eq!(v[key], report[key], "{key}");
    }
    // off by default: no policy is solved
    let off = dir.join("off.json");
    succeeds(
        bin()
            .args(["play", "--seed", &game, "--previews", "2", "--beam", "20"])
            .args(["--max-pieces", "10", "--out"])
            .arg(&off),
    );
    let report = json(&off);
    assert!(report["fourwide"].is_null());
    assert_eq!(report["fourwide_policy_moves"], 0);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn online_flags_are_refused_on_other_games() {
    let dir = scratch("gplay", "flags");
    let out = dir.join("r.json");
    for (seed, flag, value) in [
        ("seeds/standard.json", "--previews", "5"),
        ("seeds/tencent-geek-4.json", "--beam", "100"),
        ("seeds/tencent-geek-4.json", "--fourwide", "on"),
    ] {
        let run = bin()
            .args(["play", "--seed", &format!("{ROOT}/{seed}"), flag, value])
            .arg("--out")
            .arg(&out)
            .output()
            .unwrap();
        assert_eq!(run.status.code(), Some(2));
        let err = String::from_utf8_lossy(&run.stderr);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(seed) && err.contains(flag), "{err}");
        assert!(!out.exists(), "nothing is written");
    }
    // and the one-piece players' flags on a guideline game
    let run = bin()
        .args([
            "play",
            "--seed",
            &format!("{ROOT}/seeds/cc2/tetrio-1-srs-attack.json"),
            "--games",
            "3",
        ])
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(2));
    let err = String::from_utf8_lossy(&run.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("--games"), "{err}");
    assert!(!out.exists());
    std::fs::remove_dir_all(&dir).ok();
}
