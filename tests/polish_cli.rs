//! `beamtris polish` end to end: the improved record replays to the score it claims, the
//! record read is left alone, and bad input is refused before any search.

mod common;
use common::{bin, fails_saying, json, repo, scratch, succeeds};

#[test]
fn polish_writes_a_better_record_that_replays_to_its_score() {
    let dir = scratch("polish", "better");
    let narrow = dir.join("narrow.json");
    succeeds(
        bin()
            .args(["solve", "--beam", "40", "--pieces", "400"])
            .args(["--weights", "results/weights/tuned-b3000.json", "--out"])
            .arg(&narrow),
    );
    let record = dir.join("narrow.txt");
    let text_before = std::fs::read_to_string(&record).unwrap();
    let out = dir.join("polished.json");
    succeeds(
        bin()
            .arg("polish")
            .arg(&record)
            .args([
                "--beam",
                "200",
                "--segment",
                "40",
                "--weights",
                "results/weights/tuned-b3000.json",
            ])
            .arg("--out")
            .arg(&out),
    );
    let report = json(&out);
    let before = json(&narrow)["score"].as_u64().unwrap();
    assert_eq!(report["score_before"].as_u64(), Some(before));
    let gained = report["gained"].as_u64().unwrap();
    assert!(gained > 0, "{report}");
    assert_eq!(report["score"].as_u64(), Some(before + gained));
    assert_eq!(report["complete"], true);
    let verify = bin()
        .arg("verify")
        .arg(dir.join("polished.txt"))
        .output()
        .unwrap();
    let replayed: serde_json::Value = serde_json::from_slice(&verify.stdout).unwrap();
    assert_eq!(replayed["score"], report["score"]);
    assert_eq!(replayed["valid"], true);
    assert_eq!(std::fs::read_to_string(&record).unwrap(), text_before);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn polish_refuses_bad_input_on_one_line_with_exit_2() {
    let dir = scratch("polish", "bad");
    let record = repo("results/curve/budget-60s.txt");
    let garbled = dir.join("garbled.txt");
    std::fs::write(&garbled, "N,C1,Q7\n").unwrap();
    let out = bin().arg("polish").arg(&garbled).output().unwrap();
    fails_saying(&out, &["garbled.txt"]);
    let guideline = bin()
        .arg("polish")
        .arg(&record)
        .args(["--seed", "seeds/tetrio-1742887628-attack.json"])
        .current_dir(repo(""))
        .output()
        .unwrap();
    fails_saying(
        &guideline,
        &["plays the tencent rules, the game given the guideline rules: the record is not of this game"],
    );
    for (flag, value, want) in [
        ("--beam", "0", "--beam 0"),
        ("--segment", "0", "--segment 0"),
        ("--seconds", "0", "--seconds 0"),
    ] {
        let out = bin()
            .arg("polish")
            .arg(&record)
            .args([flag, value])
            .output()
            .unwrap();
        fails_saying(&out, &[want]);
    }
    // the output would replace the record read
    let copy = dir.join("r.txt");
    std::fs::copy(&record, &copy).unwrap();
    let out = bin()
        .arg("polish")
        .arg(&copy)
        .arg("--out")
        .arg(dir.join("r.json"))
        .output()
        .unwrap();
    fails_saying(&out, &["r.txt"]);
    std::fs::remove_dir_all(&dir).ok();
}
