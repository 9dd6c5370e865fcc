//! `learn data` and `learn fit` on a guideline game, end to end through the binary: a tiny
//! solve's data has the guideline header, the fit writes guideline weights that `solve
//! --weights` reads and whose solve replays to its score, and what makes no sense without
//! rollouts is refused with one line.

mod common;

use beamtris::eval::guideline::GuidelineWeights;
use beamtris::games::guideline::Objective;
use common::{bin, fails_saying, json, succeeds};
use std::path::{Path, PathBuf};

const SEED: &str = "seeds/cc2/tetrio-1-srs-attack.json";

fn run(args: &[&str]) -> std::process::Output {
    bin().args(args).output().unwrap()
}

fn ok(args: &[&str]) {
    succeeds(bin().args(args));
}

/// A beam-50 solve of 100 pieces, 8 boards every 5 pieces, lineage over 20.
fn draw(dir: &Path) -> PathBuf {
    let data = dir.join("data.csv");
    ok(&[
        "learn",
        "data",
        "--seed",
        SEED,
        "--beam",
        "50",
        "--pieces",
        "100",
        "--every",
        "5",
        "--per-step",
        "8",
        "--horizon",
        "20",
        "--threads",
        "1",
        "--out",
        data.to_str().unwrap(),
    ]);
    data
}

#[test]
fn learned_guideline_weights_solve_and_replay() {
    let dir = common::scratch("learn-gl", "fit");
    let data = draw(&dir);
    let text = std::fs::read_to_string(&data).unwrap();
    assert_eq!(
        text.lines().next().unwrap(),
        beamtris::learn::guideline::csv_header(Objective::Attack)
    );
    let samples = beamtris::learn::guideline::from_csv(Objective::Attack, &text).unwrap();
    // steps 4, 9, ..., 79 (79 + 20 is the last piece): 16 steps of 8 boards
    assert_eq!(samples.len(), 16 * 8);
    assert_eq!(samples.last().unwrap().step, 79);
    assert!(samples.iter().any(|s| s.descendants > 0));

    let weights = dir.join("weights.json");
    ok(&[
        "learn",
        "fit",
        data.to_str().unwrap(),
        "--add",
        "0.5",
        "--out",
        weights.to_str().unwrap(),
    ]);
    let w = GuidelineWeights::parse(&std::fs::read_to_string(&weights).unwrap()).unwrap();
    let base = GuidelineWeights::preset("attack").unwrap();
    assert_eq!(w.score_weight, base.score_weight);
    assert_ne!(w, base);

    let out = dir.join("solve.json");
    ok(&[
        "solve",
        "--seed",
        SEED,
        "--weights",
        weights.to_str().unwrap(),
        "--beam",
        "50",
        "--pieces",
        "100",
        "--threads",
        "1",
        "--out",
        out.to_str().unwrap(),
    ]);
    // solve replays its record and refuses to write a score the record does not make
    let r = json(&out);
    assert_eq!(r["complete"], true);
    assert_eq!(r["score"], r["attack"]);
    assert_eq!(r["pieces"], 100);
    assert_eq!(
        serde_json::from_value::<GuidelineWeights>(r["weights"].clone()).unwrap(),
        w
    );
    // the record replays on its own to the same attack
    let record = dir.join("solve.txt");
    let v = run(&["verify", "--seed", SEED, record.to_str().unwrap()]);
    assert!(v.status.success(), "{}", String::from_utf8_lossy(&v.stderr));
}

#[test]
fn learn_refuses_what_needs_rollouts() {
    let dir = common::scratch("learn-gl", "refuse");
    let out = dir.join("x.csv");
    let o = run(&[
        "learn",
        "data",
        "--seed",
        SEED,
        "--rollout-beam",
        "10",
        "--out",
        out.to_str().unwrap(),
    ]);
    fails_saying(&o, &["--rollout-beam 10", "no rollouts"]);
    assert!(!out.exists());

    let data = dir.join("data.csv");
    std::fs::write(
        &data,
        format!(
            "{}\n",
            beamtris::learn::guideline::csv_header(Objective::Attack)
        ),
    )
    .unwrap();
    let w = dir.join("w.json");
    let fit = |extra: &[&str]| {
        let mut args = vec!["learn", "fit", data.to_str().unwrap()];
        args.extend_from_slice(extra);
        args.extend_from_slice(&["--out", w.to_str().unwrap()]);
        run(&args)
    };
    fails_saying(
        &fit(&["--label", "value", "--add", "1"]),
        &["--label value", "lineage"],
    );
    fails_saying(&fit(&["--base", "attack", "--blend", "0.5"]), &["--blend"]);
    fails_saying(&fit(&[]), &["--add"]);
    // one family at a time
    let tencent = dir.join("tencent.csv");
    std::fs::write(
        &tencent,
        format!("{}\n", beamtris::learn::data::csv_header()),
    )
    .unwrap();
    fails_saying(
        &fit(&[tencent.to_str().unwrap(), "--add", "1"]),
        &["tencent.csv", "one family"],
    );
    assert!(!w.exists());
}
