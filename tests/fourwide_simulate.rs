//! `fourwide simulate` through the binary: the same seed gives the same games, the model's
//! choices are all playable on the engine, the measured mean agrees with the prediction,
//! and bad flags are one line and exit 2.

mod common;

use common::{bin, fails_saying};

fn simulate(extra: &[&str]) -> serde_json::Value {
    let o = bin()
        .args(["fourwide", "simulate"])
        .args(extra)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    serde_json::from_slice(&o.stdout).unwrap()
}

#[test]
fn the_engine_plays_the_model() {
    let args = [
        "--generator",
        "bag",
        "--preview",
        "1",
        "--games",
        "3000",
        "--rng-seed",
        "9",
    ];
    let a = simulate(&args);
    assert_eq!(a, {
        let mut b = simulate(&args);
        b["seconds"] = a["seconds"].clone();
        b
    });
    assert_eq!(a["disagreements"], 0);
    assert_eq!(a["games"], 3000);
    let (p, m, ci) = (
        a["predicted"].as_f64().unwrap(),
        a["mean"].as_f64().unwrap(),
        a["ci95"].as_f64().unwrap(),
    );
    // a loose check (three intervals): the tight one is results/fourwide/fourwide-simulate.md
    assert!((p - m).abs() < 1.5 * ci, "predicted {p} mean {m} ci {ci}");
    let best = simulate(&["--generator", "random", "--field", "best", "--games", "10"]);
    assert_eq!(best["field"], "___X/__XX");
}

#[test]
fn bad_simulate_flags_are_one_line() {
    let o = bin()
        .args(["fourwide", "simulate", "--field", "XXXX"])
        .output()
        .unwrap();
    fails_saying(&o, &["XXXX"]);
    let o = bin()
        .args(["fourwide", "simulate", "--games", "0"])
        .output()
        .unwrap();
    fails_saying(&o, &["--games 0"]);
}
