//! The 4-wide sub-strategy of the guideline solve, end to end through the binary: it enters
//! 4-wide sections and earns more attack than the same search without it, the results JSON
//! says so and replays, and the flags that select it are checked.

mod common;

use common::{bin, fails_saying, json};
use std::path::Path;

fn scratch(name: &str) -> std::path::PathBuf {
    common::scratch("4w", name)
}

fn solve(dir: &Path, name: &str, extra: &[&str]) -> serde_json::Value {
    let out = dir.join(format!("{name}.json"));
    let o = bin()
        .args([
            "solve",
            "--seed",
            "seeds/cc2/tetrio-1-srs-attack.json",
            "--pieces",
            "120",
            "--beam",
            "150",
            "--threads",
            "1",
            "--out",
            out.to_str().unwrap(),
        ])
        .args(extra)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    json(&out)
}

#[test]
fn the_sub_strategy_builds_a_four_wide_and_pays() {
    let dir = scratch("pays");
    let on = solve(&dir, "on", &[]);
    let off = solve(&dir, "off", &["--no-fourwide"]);
    assert_eq!(on["fourwide"], true);
    assert_eq!(off["fourwide"], false);
    assert!(on["fourwide_sections"].as_u64().unwrap() >= 1, "{on}");
    assert!(on["max_combo"].as_u64().unwrap() >= 8, "{on}");
    assert!(
        on["attack"].as_u64().unwrap() > off["attack"].as_u64().unwrap(),
        "with {} without {}",
        on["attack"],
        off["attack"]
    );
    // `--fourwide off` is `--no-fourwide`; the record is the same search's
    let forced = solve(&dir, "forced-off", &["--fourwide", "off"]);
    assert_eq!(forced["attack"], off["attack"]);
    assert_eq!(
        std::fs::read_to_string(dir.join("forced-off.txt")).unwrap(),
        std::fs::read_to_string(dir.join("off.txt")).unwrap()
    );
    // the record replays through verify to the figures the JSON claims
    let v = bin()
        .args(["verify", dir.join("on.txt").to_str().unwrap()])
        .args(["--seed", "seeds/cc2/tetrio-1-srs-attack.json"])
        .output()
        .unwrap();
    assert!(v.status.success(), "{}", String::from_utf8_lossy(&v.stderr));
    let replayed: serde_json::Value = serde_json::from_slice(&v.stdout).unwrap();
    assert_eq!(replayed["attack"], on["attack"]);
    assert_eq!(replayed["max_combo"], on["max_combo"]);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn fourwide_flags_are_checked() {
    let dir = scratch("flags");
    let out = dir.join("x.json");
    // the Tencent game has no combos
    let o = bin()
        .args([
            "solve",
            "--beam",
            "10",
            "--pieces",
            "5",
            "--no-fourwide",
            "--out",
        ])
        .arg(&out)
        .output()
        .unwrap();
    fails_saying(&o, &["--no-fourwide", "Tencent", "does not take"]);
    // both at once
    let o = bin()
        .args(["solve", "--seed", "seeds/cc2/tetrio-1-srs-attack.json"])
        .args(["--fourwide", "on", "--no-fourwide"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(std::fs::read_dir(&dir).unwrap().next().is_none());
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_run_never_writes_over_its_game_file() {
    let dir = scratch("input");
    let game = dir.join("game.json");
    let text = std::fs::read_to_string("seeds/cc2/tetrio-1-srs-attack.json").unwrap();
    std::fs::write(&game, &text).unwrap();
    let o = bin()
        .args(["solve", "--beam", "10", "--pieces", "5", "--seed"])
        .arg(&game)
        .arg("--out")
        .arg(&game)
        .output()
        .unwrap();
    fails_saying(
        &o,
        &["--out", "the same file as --seed", "overwrite its input"],
    );
    assert_eq!(std::fs::read_to_string(&game).unwrap(), text);
    std::fs::remove_dir_all(&dir).ok();
}
