//! Reliability end to end through the binary: outputs checked before the work, nothing torn or
//! stray on a failure, signals keep the best line and exit 130/143, sizes refused with their
//! limit, results that say how the run ended, and the smaller failure modes a new user hit.
//! Every check is on exit codes, exact messages and the files left behind, never on timing.

mod common;

use common::{bin, fails_saying, fails_with, json, listing, run};
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// A fresh, empty folder for one test.
fn scratch(name: &str) -> PathBuf {
    common::scratch("rel", name)
}

#[test]
fn outputs_are_checked_before_the_search_and_nothing_is_left() {
    let dir = scratch("outputs");
    let d = dir.to_str().unwrap();
    // the JSON and the record would be one file
    let r = format!("{d}/r.txt");
    fails_with(
        &run(&["solve", "--out", &r]),
        &format!("the record (--out with .txt) {r}: the same file as --out {r}; the two outputs would overwrite each other"),
    );
    // a folder as --out
    std::fs::create_dir(dir.join("folder")).unwrap();
    let folder = format!("{d}/folder");
    fails_with(
        &run(&["solve", "--out", &folder]),
        &format!("--out {folder}: is a directory; give a file name"),
    );
    // a folder where the record would go
    std::fs::create_dir(dir.join("pair.txt")).unwrap();
    let pair = format!("{d}/pair.json");
    fails_with(
        &run(&["solve", "--out", &pair]),
        &format!("the record (--out with .txt) {d}/pair.txt: is a directory; give a file name"),
    );
    // a path under a file
    std::fs::write(dir.join("file"), "").unwrap();
    let under = format!("{d}/file/r.json");
    fails_saying(&run(&["solve", "--out", &under]), &["--out: ", "/file"]);
    // the same for show --html, bench and tune
    fails_with(
        &run(&["show", "--html", &folder, "any-record.txt"]),
        &format!("--html {folder}: is a directory; give a file name"),
    );
    fails_with(
        &run(&["bench", "--out", &folder, "--suite", "engine"]),
        &format!("--out {folder}: is a directory; give a file name"),
    );
    let tune_out = format!("{d}/file");
    fails_with(
        &run(&["tune", "--out", &tune_out]),
        &format!("--out {tune_out}: is a file; tune writes a folder"),
    );
    // nothing was written: no temporary file, no half pair
    assert_eq!(listing(&dir), ["file", "folder", "pair.txt"]);
    assert!(listing(&dir.join("folder")).is_empty());
    assert!(listing(&dir.join("pair.txt")).is_empty());
}

/// Every command that writes checks, before its work, that no output is one of its inputs
/// (a link to an input included), that its outputs are distinct files, and that a path ending
/// in `/` names no file; the inputs are left as they were and nothing else is written.
#[test]
fn no_command_writes_over_its_inputs() {
    let dir = scratch("inputs");
    let d = dir.to_str().unwrap();
    let record = format!("{d}/r.txt");
    std::fs::copy(
        common::repo("tests/data/tencent/records/chys87-1395326.txt"),
        &record,
    )
    .unwrap();
    let seed = format!("{d}/g.json");
    std::fs::copy(common::repo("seeds/tencent-geek-4.json"), &seed).unwrap();
    let standard = format!("{d}/s.json");
    std::fs::copy(common::repo("seeds/standard.json"), &standard).unwrap();
    let weights = format!("{d}/w.json");
    std::fs::write(
        &weights,
        r#"{"cells": -1, "holes": 2.5, "score_weight": 0.1}"#,
    )
    .unwrap();
    let link = format!("{d}/link.txt");
    std::os::unix::fs::symlink(&record, &link).unwrap();
    let before: Vec<Vec<u8>> = [&record, &seed, &standard, &weights]
        .iter()
        .map(|p| std::fs::read(p).unwrap())
        .collect();
    let same =
        |o: &str, i: &str| format!("{o}: the same file as {i}; the run would overwrite its input");
    fails_with(
        &run(&["show", &record, "--html", &record]),
        &same(&format!("--html {record}"), &format!("the record {record}")),
    );
    fails_with(
        &run(&["show", &record, "--seed", &seed, "--html", &seed]),
        &same(&format!("--html {seed}"), &format!("--seed {seed}")),
    );
    fails_with(
        &run(&["play", "--seed", &seed, "--out", &seed]),
        &same(&format!("--out {seed}"), &format!("--seed {seed}")),
    );
    // (play says first how it reads the weights)
    let out = run(&[
        "play",
        "--seed",
        &standard,
        "--weights",
        &weights,
        "--out",
        &weights,
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    let want = same(&format!("--out {weights}"), &format!("--weights {weights}"));
    assert!(err.ends_with(&format!("\nbeamtris: {want}\n")), "{err}");
    fails_with(
        &run(&[
            "learn",
            "data",
            "--beam",
            "10",
            "--pieces",
            "60",
            "--weights",
            &weights,
            "--out",
            &weights,
        ]),
        &same(&format!("--out {weights}"), &format!("--weights {weights}")),
    );
    fails_with(
        &run(&[
            "bench", "--suite", "engine", "--record", &record, "--out", &record,
        ]),
        &same(&format!("--out {record}"), &format!("--record {record}")),
    );
    // a link to the record is the record
    fails_with(
        &run(&[
            "polish",
            &link,
            "--beam",
            "5",
            "--segment",
            "20",
            "--out",
            &format!("{d}/r.json"),
        ]),
        &same(
            &format!("the record (--out with .txt) {d}/r.txt"),
            &format!("the record {link}"),
        ),
    );
    // the results and the record of one play in one file
    let p = format!("{d}/p.json");
    fails_with(
        &run(&["play", "--seed", &seed, "--out", &p, "--record-out", &p]),
        &format!("the record {p}: the same file as --out {p}; the two outputs would overwrite each other"),
    );
    // a path ending in `/`
    for args in [
        vec!["solve", "--beam", "5", "--pieces", "5", "--out"],
        vec!["play", "--seed", &seed, "--out"],
        vec!["play", "--seed", &standard, "--max-pieces", "50", "--out"],
    ] {
        let x = format!("{d}/x/");
        let mut args = args.clone();
        args.push(&x);
        fails_with(
            &run(&args),
            &format!("--out {x}: does not end in a file name"),
        );
    }
    let after: Vec<Vec<u8>> = [&record, &seed, &standard, &weights]
        .iter()
        .map(|p| std::fs::read(p).unwrap())
        .collect();
    assert!(before == after, "an input changed");
    assert_eq!(
        listing(&dir),
        ["g.json", "link.txt", "r.txt", "s.json", "w.json"]
    );
}

#[test]
fn sizes_are_refused_with_their_limit() {
    let dir = scratch("sizes");
    let never = dir.join("never.json");
    let never = never.to_str().unwrap();
    fails_with(
        &run(&["solve", "--threads", "0", "--out", never]),
        "--threads 0: give at least 1 (leave the flag out to use every core)",
    );
    fails_saying(
        &run(&["solve", "--threads", "100000", "--out", never]),
        &["--threads 100000: at most ", " per core on this machine's "],
    );
    fails_saying(
        &run(&["solve", "--beam", "18446744073709551615", "--out", never]),
        &[
            "--beam 18446744073709551615: needs about ",
            "the widest beam that fits is about ",
        ],
    );
    fails_with(
        &run(&["solve", "--pieces", "0", "--out", never]),
        "--pieces 0: give at least 1 (the game tencent-geek-4 has 10000 pieces, of which 9999 score)",
    );
    fails_with(
        &run(&["bench", "--scale", "0", "--out", never]),
        "--scale 0: give between 1 and 1000",
    );
    fails_with(
        &run(&["show", "--animate", "--speed", "1e-300", "nosuch.txt"]),
        "--speed 1e-300: give between 0.25 and 1000 pieces per second",
    );
    let tune_out = dir.join("t");
    fails_with(
        &run(&[
            "tune",
            "--population",
            "1000000000000",
            "--out",
            tune_out.to_str().unwrap(),
        ]),
        "--population 1000000000000: give between 2 and 10000",
    );
    // seeds that used to panic or abort
    let base = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/seeds/tencent-geek-4.json"
    ))
    .unwrap();
    let seed = dir.join("seed.json");
    std::fs::write(
        &seed,
        base.replace(r#""pieces": 10000"#, r#""pieces": 1000000000000"#),
    )
    .unwrap();
    let s = seed.to_str().unwrap();
    fails_with(
        &run(&["solve", "--seed", s, "--out", never]),
        &format!("{s}: pieces: 1000000000000 is more than the 1000000000 a game may have"),
    );
    assert_eq!(listing(&dir), ["seed.json"]);
}

#[test]
fn the_json_says_how_the_search_ended_and_why_the_record_is_short() {
    let dir = scratch("ended");
    let out = dir.join("r.json");
    let o = run(&[
        "solve",
        "--pieces",
        "20",
        "--beam",
        "5",
        "--threads",
        "1",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let j = json(&out);
    assert_eq!(j["complete"], true);
    assert_eq!(j["end"], "finished");
    assert_eq!(j["target_pieces"], 20);
    assert_eq!(j["searched_pieces"], 20);
    let pieces = j["pieces"].as_u64().unwrap();
    if pieces < 20 {
        let why = j["record_short_because"].as_str().unwrap();
        assert!(
            why.starts_with("the record ends at the best line's last scoring lock"),
            "{why}"
        );
    }
    // the record verifies to the JSON's score
    let v = run(&["verify", dir.join("r.txt").to_str().unwrap()]);
    let vj: serde_json::Value = serde_json::from_slice(&v.stdout).unwrap();
    assert_eq!(vj["score"], j["score"]);
    assert_eq!(vj["valid"], true);

    // weights that drive every line into the ceiling: the beam empties, and the JSON says where
    let w = dir.join("stack.json");
    std::fs::write(&w, r#"{"score_weight": 0, "cells": -1000}"#).unwrap();
    let out = dir.join("stack-run.json");
    let o = run(&[
        "solve",
        "--pieces",
        "300",
        "--beam",
        "1",
        "--moves",
        "drop",
        "--threads",
        "1",
        "--weights",
        w.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let j = json(&out);
    assert_eq!(j["end"], "beam_emptied", "{j}");
    assert_eq!(j["complete"], false);
    let at = j["end_piece"].as_u64().unwrap();
    assert_eq!(j["searched_pieces"].as_u64().unwrap(), at);
    assert!(j["record_short_because"]
        .as_str()
        .unwrap()
        .starts_with(&format!("the beam emptied at piece {at}: ")));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains(&format!(", incomplete: no line survives piece {at};")),
        "{err}"
    );
}

/// Starts a long solve, waits for its line saying the handlers are in place, sends `sig`, and
/// checks the exit code and the incomplete but verified result.
fn interrupted_solve(sig: i32, code: i32, name: &str) {
    interrupted_solve_of(&[], "solving tencent-geek-4: 9999 pieces", sig, code, name);
}

/// A solve of the game `game` (flags) stopped by signal `sig`, its progress starting `first`.
fn interrupted_solve_of(game: &[&str], first: &str, sig: i32, code: i32, name: &str) {
    let dir = scratch(&format!("signal-{sig}-{}", game.len()));
    let out = dir.join("r.json");
    let mut child = bin()
        .args(["solve", "--beam", "20000", "--threads", "1"])
        .args(game)
        .arg("--out")
        .arg(&out)
        .stderr(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    let mut err = BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    err.read_line(&mut line).unwrap();
    assert!(line.starts_with(first), "{line}");
    unsafe { libc::kill(child.id() as i32, sig) };
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut err, &mut rest).unwrap();
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(code), "{rest}");
    assert!(
        rest.ends_with(&format!("beamtris: stopped by {name}; exit code {code}\n")),
        "{rest}"
    );
    let j = json(&out);
    assert_eq!(j["complete"], false);
    assert_eq!(j["end"], "stopped");
    assert_eq!(j["stopped_by"], name);
    assert!(j["end_piece"].as_u64().is_some(), "{j}");
    let v = run(&[&["verify", dir.join("r.txt").to_str().unwrap()], game].concat());
    let vj: serde_json::Value = serde_json::from_slice(&v.stdout).unwrap();
    assert_eq!(vj["score"], j["score"]);
    assert_eq!(listing(&dir), ["r.json", "r.txt"]);
}

#[test]
fn sigterm_keeps_the_best_line_and_exits_143() {
    interrupted_solve(libc::SIGTERM, 143, "SIGTERM");
}

/// A closed terminal (SIGHUP) keeps the best line too, instead of killing the run.
#[test]
fn sighup_keeps_the_best_line_and_exits_129() {
    interrupted_solve(libc::SIGHUP, 129, "SIGHUP");
}

#[test]
fn sigint_keeps_the_best_line_and_exits_130() {
    interrupted_solve(libc::SIGINT, 130, "SIGINT");
}

/// A guideline solve says how it ended in the same words as a Tencent one.
#[test]
fn a_stopped_guideline_solve_says_so_as_a_tencent_one_does() {
    interrupted_solve_of(
        &["--seed", "seeds/cc2/tetrio-1-srs-attack.json"],
        "solving cc2-1-attack: 500 pieces",
        libc::SIGINT,
        130,
        "SIGINT",
    );
}

/// A signal in the first milliseconds of a run, while the output check probes the folder
/// with a temporary file, must not leave that file behind (the handlers go in first).
#[test]
fn a_signal_at_the_start_leaves_no_temporary_file() {
    let dir = scratch("signal-at-start");
    for i in 0..240u64 {
        let out = dir.join(format!("r{i}.json"));
        let child = bin()
            .args([
                "solve",
                "--pieces",
                "60",
                "--beam",
                "5",
                "--threads",
                "1",
                "--out",
            ])
            .arg(&out)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(std::time::Duration::from_micros(10 * (i % 200)));
        unsafe { libc::kill(child.id() as i32, libc::SIGTERM) };
        let status = child.wait_with_output().unwrap().status;
        assert!(
            matches!(status.code(), Some(0 | 143)) || status.code().is_none(),
            "{status:?}"
        );
        let names = listing(&dir);
        assert!(names.iter().all(|n| !n.starts_with('.')), "{names:?}");
    }
}

/// A signal while `play` solves its 4-wide policy (seconds, before the first move) stops the
/// play there, and the message says so: not that no placement survives.
#[test]
fn a_play_stopped_before_its_first_move_says_so() {
    let dir = scratch("play-stopped-early");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let child = bin()
        .arg("play")
        .arg("--seed")
        .arg(root.join("seeds/cc2/tetrio-1-srs-attack.json"))
        .args([
            "--previews",
            "5",
            "--fourwide",
            "on",
            "--threads",
            "1",
            "--out",
        ])
        .arg(dir.join("p.json"))
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(300));
    unsafe { libc::kill(child.id() as i32, libc::SIGTERM) };
    let o = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(143), "{err}");
    assert!(
        err.contains("stopped before the first move in cc2-1-attack; there is no record to write"),
        "{err}"
    );
    assert!(listing(&dir).is_empty(), "{:?}", listing(&dir));
}

#[test]
fn an_interrupted_tune_keeps_its_state_and_exits_143() {
    let dir = scratch("tune-signal");
    let out = dir.join("t");
    let mut child = bin()
        .args([
            "tune",
            "--beam",
            "3000",
            "--pieces",
            "9000",
            "--threads",
            "1",
            "--out",
        ])
        .arg(&out)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut err = BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    err.read_line(&mut line).unwrap();
    assert!(line.starts_with("tuning into "), "{line}");
    unsafe { libc::kill(child.id() as i32, libc::SIGTERM) };
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut err, &mut rest).unwrap();
    assert_eq!(child.wait().unwrap().code(), Some(143), "{rest}");
    assert!(rest.contains("stopped during generation 1;"), "{rest}");
    // no temporary file in the output folder
    assert!(
        listing(&out).iter().all(|n| !n.starts_with('.')),
        "{:?}",
        listing(&out)
    );
}

#[test]
fn default_runs_go_where_git_does_not_look() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let o = bin()
        .current_dir(root)
        .args(["solve", "--pieces", "3", "--beam", "2", "--threads", "1"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let err = String::from_utf8_lossy(&o.stderr);
    let json_path = "runs/solve-tencent-geek-4-reach-b2-open-column-p3.json";
    assert!(err.contains(&format!("wrote {json_path} and ")), "{err}");
    let written = root.join(json_path);
    assert!(written.exists());
    // git ignores it (where git and the repository are here to ask)
    if let Ok(c) = Command::new("git")
        .current_dir(root)
        .args(["check-ignore", "-q", json_path])
        .status()
    {
        if c.code() != Some(128) {
            assert!(c.success(), "runs/ is not ignored by git");
        }
    }
    std::fs::remove_file(&written).ok();
    std::fs::remove_file(written.with_extension("txt")).ok();
}

#[test]
fn one_piece_is_one_piece() {
    let dir = scratch("plural");
    let out = dir.join("r.json");
    let o = run(&[
        "solve",
        "--pieces",
        "1",
        "--beam",
        "1",
        "--out",
        out.to_str().unwrap(),
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.starts_with("solving tencent-geek-4: 1 piece, "),
        "{err}"
    );
}

#[test]
fn player_weights_work_for_solve_and_say_so() {
    let dir = scratch("weights");
    let w = dir.join("dell.json");
    std::fs::write(
        &w,
        r#"{"landing_height": -1, "eroded_cells": 1, "row_transitions": -1,
            "column_transitions": -1, "holes": -4, "wells": -1}"#,
    )
    .unwrap();
    let out = dir.join("r.json");
    let o = run(&[
        "solve",
        "--pieces",
        "5",
        "--beam",
        "2",
        "--weights",
        w.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert!(
        err.starts_with(&format!(
            "weights: read {} as player weights (a value, higher is better), converted",
            w.display()
        )),
        "{err}"
    );
    // the same weights as the dellacherie preset
    let j = json(&out);
    assert_eq!(j["weights"]["holes"], 4.0);
    assert_eq!(j["weights"]["landing_height"], 1.0);
    assert_eq!(
        j["weights_read_as"].as_str().unwrap().split(',').next(),
        Some("player weights (a value")
    );
}

#[test]
fn small_failure_modes() {
    let dir = scratch("small");
    // a BOM is not an op letter
    let rec = dir.join("bom.txt");
    std::fs::write(&rec, "\u{feff}N,D19\n").unwrap();
    let o = run(&["verify", rec.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    // verify's valid is false when the game ended before the record did
    let rec = dir.join("early.txt");
    std::fs::write(&rec, ["N,D1"; 40].join(",")).unwrap();
    let o = run(&["verify", rec.to_str().unwrap()]);
    let vj: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(vj["end_reason"], "top_out");
    assert_eq!(vj["valid"], false);
    // a JSON error names its place once
    let seed = dir.join("bad.json");
    std::fs::write(&seed, "{\"name\": \"x\",\n \"rules\": 3}").unwrap();
    let o = run(&[
        "verify",
        "--seed",
        seed.to_str().unwrap(),
        rec.to_str().unwrap(),
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(err.matches("line 2 column").count(), 1, "{err}");
    // report compare: an unknown reference, and runs of different lengths
    let runs = dir.join("runs");
    let solve = |name: &str, pieces: &str, weights: &str| {
        let out = runs.join(format!("{name}.json"));
        let o = run(&[
            "solve",
            "--pieces",
            pieces,
            "--beam",
            "2",
            "--weights",
            weights,
            "--out",
            out.to_str().unwrap(),
        ]);
        assert!(o.status.success());
    };
    solve("a", "30", "edge");
    solve("b", "30", "open-column");
    let r = runs.to_str().unwrap();
    fails_with(
        &run(&["report", "compare", "--dir", r, "--reference", "nosuch"]),
        &format!(
            "--reference nosuch: no run in {r} used these weights (they used: edge, open-column)"
        ),
    );
    solve("c", "40", "edge");
    fails_with(
        &run(&["report", "compare", "--dir", r]),
        &format!("{r}: a.json searched the first 30 pieces but c.json the first 40 pieces; scores of different lengths do not compare (keep them in separate folders)"),
    );
    assert!(!listing(&runs).iter().any(|n| n.starts_with("summary")));
}

/// Inputs and flags refused before any work, each in one line naming the file or the flag.
#[test]
fn more_inputs_refused_before_the_work() {
    let dir = scratch("more");
    let d = dir.to_str().unwrap();
    // a file far past any input is refused after reading the limit, not read to its end
    fails_with(
        &run(&["verify", "/dev/zero"]),
        "/dev/zero: larger than 1024 MiB: not a file beamtris reads",
    );
    fails_with(
        &run(&["tune", "--generations", "0", "--out", &format!("{d}/t")]),
        "--generations 0: give at least 1",
    );
    // a standard game has no records to verify or show
    let standard = common::repo("seeds/standard.json");
    for command in ["verify", "show"] {
        fails_saying(
            &run(&[command, "r.txt", "--seed", standard.to_str().unwrap()]),
            &[
                &format!("{command} reads records of Tencent, guideline, TETR.IO and NES games"),
                "which have no records",
            ],
        );
    }
    // an output that is a FIFO is refused, and stays a FIFO
    let fifo = format!("{d}/fifo.json");
    if std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .is_ok_and(|s| s.success())
    {
        fails_saying(
            &run(&["solve", "--beam", "5", "--pieces", "20", "--out", &fifo]),
            &["--out ", "fifo.json: is not a regular file"],
        );
        use std::os::unix::fs::FileTypeExt;
        assert!(std::fs::symlink_metadata(&fifo)
            .unwrap()
            .file_type()
            .is_fifo());
        assert!(!std::path::Path::new(&format!("{d}/fifo.txt")).exists());
    }
    // flags each command cannot honour are refused, not ignored or overflowed
    let tencent = common::repo("seeds/tencent-geek-4.json");
    let tencent = tencent.to_str().unwrap();
    let cc2 = common::repo("seeds/cc2/tetrio-1-srs-attack.json");
    let cc2 = cc2.to_str().unwrap();
    fails_saying(
        &run(&[
            "play",
            "--seed",
            tencent,
            "--max-pieces",
            "10",
            "--out",
            &format!("{d}/tp.json"),
        ]),
        &["--max-pieces: not for Tencent games"],
    );
    fails_saying(
        &run(&[
            "play",
            "--seed",
            cc2,
            "--previews",
            "18446744073709551615",
            "--out",
            &format!("{d}/pv.json"),
        ]),
        &["--previews 18446744073709551615: give at most 1000000000"],
    );
    fails_saying(
        &run(&["tune", "--tune", "holes,holes", "--out", &format!("{d}/tu")]),
        &["--tune holes: named twice"],
    );
    fails_saying(
        &run(&[
            "learn",
            "data",
            "--pieces",
            "0",
            "--out",
            &format!("{d}/l.csv"),
        ]),
        &["--pieces 0: give at least 1"],
    );
    // a refused play leaves no partial file that a later run would take for its own
    let standard_seed = common::repo("seeds/standard.json");
    fails_saying(
        &run(&[
            "play",
            "--seed",
            standard_seed.to_str().unwrap(),
            "--max-pieces",
            "10",
            "--threads",
            "0",
            "--out",
            &format!("{d}/y.json"),
        ]),
        &["--threads 0"],
    );
    assert!(!std::path::Path::new(&format!("{d}/y.partial.jsonl")).exists());
    // a seed's name must not lead the default outputs out of runs/
    let escape = format!("{d}/escape.json");
    std::fs::write(
        &escape,
        r#"{"name":"/../../escaped","rules":"tencent","pieces":10,"generator":{"kind":"bag7","seed":5}}"#,
    )
    .unwrap();
    fails_saying(
        &run(&["solve", "--seed", &escape, "--beam", "5"]),
        &["escape.json: name: \"/../../escaped\" is not a usable name"],
    );
    let attack = common::repo("seeds/tetrio-1742887628-attack.json");
    let attack = attack.to_str().unwrap();
    fails_with(
        &run(&[
            "play",
            "--seed",
            attack,
            "--samples",
            "99999999",
            "--out",
            &format!("{d}/p.json"),
        ]),
        "--samples 99999999: give at most 64 (each is a search of every move)",
    );
    fails_with(
        &run(&[
            "play",
            "--seed",
            attack,
            "--lookahead",
            "1000",
            "--out",
            &format!("{d}/p.json"),
        ]),
        "--lookahead 1000: give at most 100 pieces",
    );
    // fourwide query: each piece list names its flag; a bag holds each piece once
    fails_saying(
        &run(&[
            "fourwide", "query", "--field", "XXX_", "--queue", "TOSZ", "--hold", "Q",
        ]),
        &["--hold: ", "'Q' is not a piece"],
    );
    fails_saying(
        &run(&["fourwide", "query", "--field", "XXX_", "--queue", "TQ"]),
        &["--queue: ", "'Q' is not a piece"],
    );
    fails_with(
        &run(&[
            "fourwide",
            "query",
            "--field",
            "XXX_",
            "--queue",
            "TOSZ",
            "--generator",
            "bag",
            "--bag",
            "IIII",
        ]),
        "--bag IIII: I is there twice; what is left of a 7-bag holds each piece once",
    );
    // a fourwide runs file that is not one is refused before the solve
    let runs = format!("{d}/runs.json");
    std::fs::write(&runs, r#"{"description":"x","runs":["#).unwrap();
    fails_saying(
        &run(&[
            "fourwide",
            "--residuals",
            "6",
            "--preview",
            "3",
            "--hold",
            "--generator",
            "bag",
            "--record",
            &runs,
        ]),
        &[&format!("{runs}: ")],
    );
    // data with one step names the data file
    let data = format!("{d}/data.csv");
    common::succeeds(bin().args([
        "learn", "data", "--beam", "5", "--pieces", "30", "--out", &data,
    ]));
    let header = std::fs::read_to_string(&data)
        .unwrap()
        .lines()
        .next()
        .unwrap()
        .to_string();
    let csv = format!("{d}/one.csv");
    std::fs::write(&csv, header + "\n").unwrap();
    fails_saying(
        &run(&["learn", "fit", &csv, "--out", &format!("{d}/fit.json")]),
        &[
            &format!("{csv}: "),
            "steps in the data: at least 2 are needed",
        ],
    );
    assert!(!dir.join("t").join("state.json").exists());
    assert!(!dir.join("p.json").exists());
    assert!(!dir.join("fit.json").exists());
}

#[test]
fn a_report_into_a_folder_whose_summary_is_a_directory_writes_nothing() {
    let dir = scratch("report-dir");
    let out = dir.join("a.json");
    let o = run(&[
        "solve",
        "--pieces",
        "10",
        "--beam",
        "2",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success());
    std::fs::create_dir(dir.join("summary.md")).unwrap();
    let d = dir.to_str().unwrap();
    fails_with(
        &run(&["report", "sweep", "--dir", d]),
        &format!("--dir {d}/summary.md: is a directory; give a file name"),
    );
    assert_eq!(listing(&dir), ["a.json", "a.txt", "summary.md"]);
}

#[test]
fn provenance_is_the_build_not_the_current_folder() {
    // Run from a folder that is no git repository: the commit still comes from the build.
    let dir = scratch("provenance");
    let o = bin()
        .current_dir(&dir)
        .args(["solve", "--pieces", "3", "--beam", "2", "--out", "r.json"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let j = json(&dir.join("r.json"));
    let commit = j["commit"].as_str().unwrap();
    assert!(commit.starts_with(env!("BEAMTRIS_COMMIT")), "{commit}");
    assert_eq!(j["rustc"], env!("BEAMTRIS_RUSTC"));
    assert_eq!(j["target_features"], env!("BEAMTRIS_TARGET_FEATURES"));
}

#[test]
fn the_scripts_rerun_incomplete_runs() {
    let dir = scratch("scripts");
    let lib = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/lib.sh");
    let done = |json: &str| {
        let f = dir.join("run.json");
        std::fs::write(&f, json).unwrap();
        Command::new("bash")
            .arg("-c")
            .arg(format!(". {lib} && done_run {}", f.display()))
            .status()
            .unwrap()
            .success()
    };
    assert!(done("{\n  \"score\": 5,\n  \"complete\": true,\n}"));
    assert!(!done("{\n  \"score\": 5,\n  \"complete\": false,\n}"));
    std::fs::remove_file(dir.join("run.json")).unwrap();
    let missing = Command::new("bash")
        .arg("-c")
        .arg(format!(". {lib} && done_run {}/run.json", dir.display()))
        .status()
        .unwrap();
    assert!(!missing.success());
}

/// `scripts/other_games.sh` plays each weight set on each of the eight other games, and names
/// the game and the set of a run that fails. (Beam 100: narrower beams top out on some of
/// these games, and such a run is not complete.)
#[test]
fn the_other_games_script_plays_every_game_with_every_set() {
    let dir = scratch("other-games");
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/other_games.sh");
    let other_games = |sets: &[&str]| {
        Command::new("bash")
            .arg(script)
            .args(["--beam", "100", "--dir", dir.to_str().unwrap()])
            .args(sets)
            .env("BEAMTRIS", env!("CARGO_BIN_EXE_beamtris"))
            .output()
            .unwrap()
    };
    let o = other_games(&["results/weights/default.json", "results/weights/tuned.json"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let games = [
        "s101", "s15000", "s2024", "s30001", "s4321", "s555", "s7777", "s9999",
    ];
    for set in ["default", "tuned"] {
        let files = listing(&dir.join(set));
        let want: Vec<String> = games
            .iter()
            .flat_map(|g| [format!("{g}.json"), format!("{g}.txt")])
            .collect();
        assert_eq!(files, want, "{set}");
        for g in games {
            let j = json(&dir.join(set).join(format!("{g}.json")));
            assert_eq!(j["complete"], true);
            assert_eq!(j["beam"], 100);
            assert_eq!(j["weights_name"], format!("results/weights/{set}.json"));
            assert_eq!(j["seed"], format!("tencent-other-{}", &g[1..]));
        }
    }
    let summary = std::fs::read_to_string(dir.join("summary.md")).unwrap();
    assert!(summary.contains("| `default` |") && summary.contains("| `tuned` |"));
    let bad = other_games(&["no-such-weights"]);
    assert!(!bad.status.success());
    let err = String::from_utf8_lossy(&bad.stderr);
    assert!(
        err.contains("no-such-weights") && err.contains("neither a preset"),
        "{err}"
    );
}

/// `scripts/pair_time.sh` times two commands in turn and prints each one's figures and the
/// pairs' ratios; a wrong argument is one line and exit code 2, a failing command exit 1.
/// Needs GNU time and python3 (it says so and passes without them).
#[test]
fn the_pair_timing_script_times_two_commands_in_turn() {
    if !common::has_python3("scripts/pair_time.sh") {
        return;
    }
    if !std::path::Path::new("/usr/bin/time").exists() {
        eprintln!("/usr/bin/time not found: scripts/pair_time.sh is not checked");
        return;
    }
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/pair_time.sh");
    let pair = |args: &[&str]| {
        Command::new("bash")
            .arg(script)
            .args(args)
            .output()
            .unwrap()
    };
    let o = pair(&["-n", "2", "sleep 0.1", "sleep 0.3"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("A = sleep 0.1\nB = sleep 0.3\n"), "{text}");
    assert!(text.contains("runs counted: A 2, B 2"), "{text}");
    let median = |row: &str| -> f64 {
        let line = text.lines().find(|l| l.starts_with(row)).unwrap();
        let numbers: Vec<f64> = line
            .split_whitespace()
            .filter_map(|w| w.parse().ok())
            .collect();
        assert_eq!(numbers.len(), 3, "{line}");
        numbers[1]
    };
    // Sleeps take at least their time; a third, give or take the start of a process.
    assert!(
        median("A wall s") >= 0.1 && median("B wall s") >= 0.3,
        "{text}"
    );
    assert!((0.2..0.6).contains(&median("A/B wall")), "{text}");
    for bad in [
        &["-n", "0", "true", "true"][..],
        &["true"],
        &["--fast", "true", "true"],
    ] {
        let o = pair(bad);
        assert_eq!(o.status.code(), Some(2), "{bad:?}");
        assert_eq!(
            String::from_utf8_lossy(&o.stderr).lines().count(),
            1,
            "{bad:?}"
        );
    }
    let failed = pair(&["-n", "1", "true", "exit 3"]);
    assert_eq!(failed.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&failed.stderr).contains("command B failed"));
}

#[test]
fn play_reads_beam_weights_and_protocol_mode_refuses_game_flags() {
    let dir = scratch("play-weights");
    let out = dir.join("p.json");
    let root = env!("CARGO_MANIFEST_DIR");
    let played = run(&[
        "play",
        "--seed",
        &format!("{root}/seeds/standard.json"),
        "--weights",
        &format!("{root}/results/tune-b200/best.json"),
        "--games",
        "2",
        "--max-lines",
        "50",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(
        played.status.success(),
        "{}",
        String::from_utf8_lossy(&played.stderr)
    );
    let said = String::from_utf8_lossy(&played.stderr);
    assert!(
        said.contains("weights: read") && said.contains("best.json as"),
        "{said}"
    );
    for flag in [["--policy", "bcts"], ["--seed", "seeds/standard.json"]] {
        let refused = run(&["play", "--protocol", "classroom", flag[0], flag[1]]);
        assert_eq!(refused.status.code(), Some(2));
        assert!(String::from_utf8_lossy(&refused.stderr).contains("cannot be used with"));
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// A reader that stops early (`| head`) ends the run quietly: no panic on the closed pipe.
#[test]
fn a_closed_stdout_ends_the_run_without_a_panic() {
    use std::io::Read;
    let record =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/tencent/records/chys87-1395326.txt");
    let mut child = bin()
        .args(["verify", record.to_str().unwrap(), "--trace"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 64];
    child.stdout.take().unwrap().read_exact(&mut first).unwrap();
    // The pipe's reader is gone now; the next writes fail.
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("panicked"), "{err}");
    assert!(err.is_empty(), "{err}");
}

#[test]
fn argument_mistakes_get_one_line_and_exit_2() {
    fails_with(
        &run(&["solve", "--beem", "3"]),
        "unexpected argument '--beem' found; tip: a similar argument exists: '--beam' \
         (--help lists the flags)",
    );
    fails_with(
        &run(&["solve", "--beam", "-3"]),
        "invalid value '-3' for '--beam <BEAM>': invalid digit found in string \
         (--help lists the flags)",
    );
    fails_with(
        &run(&["solve", "--time", "-1"]),
        "--time -1: give a number of seconds above 0 (at most 10 000 000)",
    );
    fails_saying(
        &run(&["solve", "--fourwide", "x"]),
        &["'x'", "--fourwide", "auto, on, off"],
    );
    fails_saying(
        &run(&[
            "fourwide", "query", "--field", "XXX_", "--queue", "T", "--hold", "-1",
        ]),
        &["--hold"],
    );
    fails_saying(&run(&["nosuch"]), &["unrecognized subcommand 'nosuch'"]);
    fails_with(
        &run(&["fourwide", "query"]),
        "the following required arguments were not provided: --field <FIELD>; \
         --queue <QUEUE> (--help lists the flags)",
    );
    // help and version still print clap's full text, with exit code 0
    let help = run(&["solve", "--help"]);
    assert_eq!(help.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&help.stdout).contains("Usage: beamtris solve"));
    assert_eq!(run(&["--version"]).status.code(), Some(0));
}

/// `play` has no built-in game: its `--seed` help says so where the other commands name the
/// built-in one.
#[test]
fn play_help_says_a_game_is_needed() {
    let help = |cmd: &str| String::from_utf8(run(&[cmd, "--help"]).stdout).unwrap();
    assert!(help("play").contains("a seed file (required unless --tetrio-seed"));
    assert!(help("solve").contains("a seed file (default: the built-in Tencent Geek 4 game"));
}

/// `bench` measures the middle and the tallest board of its record: a record of a few pieces
/// would time three near-empty boards under those names, so it is refused, nothing written.
#[test]
fn bench_refuses_a_record_too_short_for_its_boards() {
    let dir = scratch("bench-short");
    let d = dir.to_str().unwrap();
    let record = format!("{d}/one.txt");
    std::fs::write(&record, "N,C1,D5\n").unwrap();
    fails_with(
        &run(&[
            "bench",
            "--suite",
            "engine",
            "--record",
            &record,
            "--out",
            &format!("{d}/b.json"),
        ]),
        &format!(
            "{record}: 1 piece; the mid-game and tall boards are taken from the record, so give \
             one of at least 100"
        ),
    );
    assert_eq!(listing(&dir), ["one.txt"]);
}
