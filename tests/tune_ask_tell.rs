//! `tune --ask` / `--tell` end to end: the commands it writes, run one by one as any runner
//! would, give the same state as the in-process `tune`; missing, torn and stale results are
//! named; telling twice changes nothing.

mod common;

use common::bin;
use std::path::Path;
use std::process::Output;

fn scratch(name: &str) -> std::path::PathBuf {
    common::scratch("asktell", name)
}

/// A tiny tuning run: 60 pieces, beam 4, four candidates.
fn tune(out: &Path, extra: &[&str]) -> Output {
    tune_on(&[], out, extra)
}

/// The guideline attack game (its 4-wide sub-strategy on, as `solve` uses it).
const GUIDELINE: [&str; 2] = ["--seed", "seeds/tetrio-1742887628-attack.json"];

fn tune_on(game: &[&str], out: &Path, extra: &[&str]) -> Output {
    tune_at(game, "4", out, extra)
}

/// A tiny tuning run at the widths `beam` (`4`, or several as `4,6`).
fn tune_at(game: &[&str], beam: &str, out: &Path, extra: &[&str]) -> Output {
    bin()
        .arg("tune")
        .args(game)
        .args(["--beam", beam, "--pieces", "60", "--population", "4"])
        .args(["--rng-seed", "5", "--threads", "1", "--out"])
        .arg(out)
        .args(extra)
        .output()
        .unwrap()
}

fn ok(o: &Output) -> String {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Runs one line of commands.txt with this build's binary.
fn run_line(line: &str) {
    let words: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(words[0], "beamtris");
    let o = bin().args(&words[1..]).output().unwrap();
    ok(&o);
}

fn cem(out: &Path) -> serde_json::Value {
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("state.json")).unwrap()).unwrap();
    v["cem"].clone()
}

#[test]
fn ask_tell_equals_the_in_process_tune() {
    ask_tell_equals_in_process(&[], "equal");
}

#[test]
fn ask_tell_equals_the_in_process_tune_on_a_guideline_game() {
    ask_tell_equals_in_process(&GUIDELINE, "equal-guideline");
    // the guideline lines name no --moves (the family searches every SRS placement) and the
    // candidates are guideline weights
    let out = scratch("equal-guideline-lines").join("t");
    ok(&tune_on(&GUIDELINE, &out, &["--ask"]));
    let lines = std::fs::read_to_string(out.join("gen-001/commands.txt")).unwrap();
    assert!(!lines.contains("--moves"), "{lines}");
    assert!(lines.contains("tetrio-1742887628-attack.json"), "{lines}");
    let w: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(out.join("gen-001/cand-01.weights.json")).unwrap(),
    )
    .unwrap();
    assert!(w.get("tslot").is_some() && w.get("cells").is_none(), "{w}");
}

/// The guideline game played online with two previews and three pieces past them on two drawn
/// continuations: candidates scored as `play` scores them.
const ONLINE: [&str; 8] = [
    "--seed",
    "seeds/tetrio-1742887628-attack.json",
    "--previews",
    "2",
    "--samples",
    "2",
    "--lookahead",
    "3",
];

#[test]
fn ask_tell_equals_the_in_process_tune_played_online() {
    ask_tell_equals_in_process(&ONLINE, "equal-online");
    // the lines are online games of the tuned length
    let out = scratch("equal-online-lines").join("t");
    ok(&tune_on(&ONLINE, &out, &["--ask"]));
    let lines = std::fs::read_to_string(out.join("gen-001/commands.txt")).unwrap();
    for line in lines.lines() {
        assert!(line.starts_with("beamtris play "), "{line}");
        assert!(
            line.contains("--previews 2") && line.contains("--max-pieces 60"),
            "{line}"
        );
    }
    let state: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("state.json")).unwrap()).unwrap();
    assert_eq!(state["settings"]["previews"], 2);
    assert_eq!(state["settings"]["speculation"]["samples"], 2);
}

#[test]
fn online_tune_is_for_guideline_games() {
    let out = scratch("online-tencent").join("t");
    let o = tune(&out, &["--previews", "5"]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("--previews") && err.contains("guideline"),
        "{err}"
    );
    assert!(!out.exists(), "nothing written");
}

#[test]
fn guideline_tune_refuses_tencent_features() {
    let out = scratch("guideline-features").join("t");
    let o = tune_on(&GUIDELINE, &out, &["--tune", "holes,cells"]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("--tune cells") && err.contains("tslot"),
        "{err}"
    );
    assert!(!out.exists(), "nothing written");
}

fn ask_tell_equals_in_process(game: &[&str], name: &str) {
    let tune = |out: &Path, extra: &[&str]| tune_on(game, out, extra);
    let dir = scratch(name);
    let (split, whole) = (dir.join("split"), dir.join("whole"));
    for _ in 0..2 {
        ok(&tune(&split, &["--ask"]));
        // asking again changes nothing
        let again = ok(&tune(&split, &["--ask"]));
        assert!(again.contains("already asked"), "{again}");
        let g = cem(&split)["generation"].as_u64().unwrap() + 1;
        let gen = split.join(format!("gen-{g:03}"));
        let lines = std::fs::read_to_string(gen.join("commands.txt")).unwrap();
        let lines: Vec<&str> = lines.lines().collect();
        assert_eq!(lines.len(), 4);
        // a missing result is named, and nothing moves
        run_line(lines[0]);
        let o = tune(&split, &["--tell"]);
        assert_eq!(o.status.code(), Some(2));
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(
            err.contains("3 of 4") && err.contains("cand-01.json (missing)"),
            "{err}"
        );
        assert_eq!(cem(&split)["generation"].as_u64().unwrap(), g - 1);
        // a torn result is named too
        std::fs::write(gen.join("cand-01.json"), "{\"score\": 1").unwrap();
        let err = String::from_utf8_lossy(&tune(&split, &["--tell"]).stderr).into_owned();
        assert!(err.contains("cand-01.json (not a results JSON)"), "{err}");
        for line in &lines[1..] {
            run_line(line);
        }
        ok(&tune(&split, &["--tell"]));
        assert_eq!(cem(&split)["generation"].as_u64().unwrap(), g);
        // telling twice changes nothing
        let again = ok(&tune(&split, &["--tell"]));
        assert!(again.contains("already told"), "{again}");
    }
    ok(&tune(&whole, &["--generations", "2"]));
    assert_eq!(
        cem(&split),
        cem(&whole),
        "ask/tell gives the in-process run's state"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn tell_before_ask_and_stale_results_are_refused() {
    let dir = scratch("refuse");
    let out = dir.join("t");
    let o = tune(&out, &["--tell"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("has not been asked"));
    ok(&tune(&out, &["--ask"]));
    let gen = out.join("gen-001");
    let lines = std::fs::read_to_string(gen.join("commands.txt")).unwrap();
    for line in lines.lines() {
        run_line(line);
    }
    // a result that scored other weights (say, from an older ask) is not taken
    let text = std::fs::read_to_string(gen.join("cand-02.json")).unwrap();
    let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
    v["weights"]["holes"] = serde_json::json!(123.0);
    std::fs::write(gen.join("cand-02.json"), v.to_string()).unwrap();
    let err = String::from_utf8_lossy(&tune(&out, &["--tell"]).stderr).into_owned();
    assert!(err.contains("cand-02.json (scored other weights)"), "{err}");
    let lines: Vec<&str> = lines.lines().collect();
    run_line(lines[2]);
    // a line edited to score another length or move set is not taken for the asked one
    run_line(&lines[1].replace("--pieces 60", "--pieces 40"));
    let err = String::from_utf8_lossy(&tune(&out, &["--tell"]).stderr).into_owned();
    assert!(
        err.contains("cand-01.json (its target_pieces is 40, asked 60)"),
        "{err}"
    );
    assert!(lines[1].contains("--moves drop"), "{}", lines[1]);
    run_line(&lines[1].replace("--moves drop", "--moves reach"));
    let err = String::from_utf8_lossy(&tune(&out, &["--tell"]).stderr).into_owned();
    assert!(
        err.contains(r#"cand-01.json (its moves is "reach", asked "drop")"#),
        "{err}"
    );
    // nor one on another game
    let queue = format!(
        "beamtris solve --seed seeds/tencent-geek-4.json --queue {}",
        "IJLOSTZ".repeat(10)
    );
    run_line(&lines[1].replace("beamtris solve", &queue));
    let err = String::from_utf8_lossy(&tune(&out, &["--tell"]).stderr).into_owned();
    assert!(err.contains("cand-01.json (its "), "{err}");
    assert_eq!(cem(&out)["generation"], 0, "nothing told");
    run_line(lines[1]);
    ok(&tune(&out, &["--tell"]));
    // --ask and --tell together is a usage error
    assert_eq!(tune(&out, &["--ask", "--tell"]).status.code(), Some(2));
    std::fs::remove_dir_all(&dir).ok();
}

/// A run over two widths (`--beam 4,6`), in-process or through its commands.
fn tune_two_widths(out: &Path, extra: &[&str]) -> Output {
    tune_at(&[], "4,6", out, extra)
}

fn score_of(path: &Path) -> f64 {
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    v["score"].as_f64().unwrap()
}

#[test]
fn several_widths_score_a_candidate_by_its_mean() {
    let dir = scratch("widths");
    let (split, whole) = (dir.join("split"), dir.join("whole"));
    ok(&tune_two_widths(&split, &["--ask"]));
    let gen = split.join("gen-001");
    let lines = std::fs::read_to_string(gen.join("commands.txt")).unwrap();
    let lines: Vec<&str> = lines.lines().collect();
    // one line per candidate and width, the second width's result named by it
    assert_eq!(lines.len(), 8, "{lines:?}");
    assert!(lines[0].contains("--beam 4 ") && lines[0].contains("cand-00.json"));
    assert!(lines[1].contains("--beam 6 ") && lines[1].contains("cand-00-b6.json"));
    for line in &lines[..7] {
        run_line(line);
    }
    // the last width's result is missing; a result at another width is not taken for it
    let err = String::from_utf8_lossy(&tune_two_widths(&split, &["--tell"]).stderr).into_owned();
    assert!(
        err.contains("1 of 8") && err.contains("cand-03-b6.json (missing)"),
        "{err}"
    );
    std::fs::copy(gen.join("cand-03.json"), gen.join("cand-03-b6.json")).unwrap();
    let err = String::from_utf8_lossy(&tune_two_widths(&split, &["--tell"]).stderr).into_owned();
    assert!(
        err.contains("cand-03-b6.json (searched at another width)"),
        "{err}"
    );
    run_line(lines[7]);
    ok(&tune_two_widths(&split, &["--tell"]));
    // the mean weights' score is the mean of its two searches
    let center = cem(&split)["history"][0]["center"].as_f64().unwrap();
    let (a, b) = (
        score_of(&gen.join("cand-00.json")),
        score_of(&gen.join("cand-00-b6.json")),
    );
    assert_eq!(center, (a + b) / 2.0);
    assert_ne!(a, b, "the two widths score differently here");
    // the in-process run over the same widths reaches the same state
    ok(&tune_two_widths(&whole, &["--generations", "1"]));
    assert_eq!(cem(&split), cem(&whole));
    let curve = std::fs::read_to_string(whole.join("curve.svg")).unwrap();
    assert!(
        curve.contains("beam mean of 4, 6"),
        "the figure names the widths"
    );
    // a folder of other widths is refused
    let o = tune(&whole, &["--generations", "2"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("other settings"));
    std::fs::remove_dir_all(&dir).ok();
}
