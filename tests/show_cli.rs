//! `beamtris show` from the outside: the text view, the frames printed without a terminal,
//! the HTML file, and one-line errors with exit code 2.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn sample_record() -> Option<PathBuf> {
    let p =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/tencent/records/chys87-1395326.txt");
    p.exists().then_some(p)
}

fn beamtris(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_beamtris"))
        .args(args)
        .output()
        .expect("beamtris runs")
}

/// A record of three pieces written to a temporary file.
fn small_record() -> PathBuf {
    let p = Path::new(env!("CARGO_TARGET_TMPDIR")).join("show-cli-small.txt");
    std::fs::write(&p, "N,D18,N,C1,L3,D19,N,R3,D18\n").unwrap();
    p
}

#[test]
fn text_view_shows_the_board_after_k_pieces() {
    let rec = small_record();
    let out = beamtris(&["show", rec.to_str().unwrap(), "--at", "1"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "piece 1/3  score 0  lines 0  next I");
    assert_eq!(lines.len(), 22);
    // Z in state 0 dropped 18 rows: cells (3,17) (4,17) (4,18) (5,18); line 1 is row 0.
    assert_eq!(lines[18], "|...ZZ.....|");
    assert_eq!(lines[19], "|....ZZ....|");
    assert_eq!(lines[20], "|..........|");
    let end = beamtris(&["show", rec.to_str().unwrap()]);
    let end = String::from_utf8(end.stdout).unwrap();
    assert!(end.starts_with("piece 3/3  score 0  lines 0  game over (end of record)\n"));
}

#[test]
fn errors_are_one_line_with_exit_code_2() {
    let rec = small_record();
    let rec = rec.to_str().unwrap();
    for args in [
        vec!["show", rec, "--at", "4"],
        vec!["show", rec, "--fumen", "--from", "2", "--to", "2"],
        vec!["show", rec, "--from", "1"],
        vec!["show", rec, "--animate", "--speed", "0"],
        vec!["show", "/nonexistent/record.txt"],
    ] {
        let out = beamtris(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("beamtris: "), "{err}");
    }
}

#[test]
fn animate_without_a_terminal_prints_every_frame() {
    let rec = small_record();
    let out = beamtris(&["show", rec.to_str().unwrap(), "--animate", "--from", "1"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let headers: Vec<&str> = text.lines().filter(|l| l.starts_with("piece ")).collect();
    assert_eq!(headers.len(), 3, "frames after 1, 2 and 3 pieces");
    assert!(headers[0].starts_with("piece 1/3"));
    assert!(headers[2].starts_with("piece 3/3"));
}

#[test]
fn html_and_fumen_work_on_the_sample_record() {
    let Some(rec) = sample_record() else {
        eprintln!("SKIP show_cli: ../shared/tencent/records is absent");
        return;
    };
    let page = Path::new(env!("CARGO_TARGET_TMPDIR")).join("show-cli-page.html");
    let out = beamtris(&[
        "show",
        rec.to_str().unwrap(),
        "--html",
        page.to_str().unwrap(),
    ]);
    assert!(out.status.success());
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.starts_with("<!DOCTYPE html>"));
    assert!(html.contains("\"score\":[0,"));
    assert!(html.contains(",1395326]"), "the final score is embedded");
    let out = beamtris(&["show", rec.to_str().unwrap(), "--fumen", "--to", "3"]);
    let fumen = String::from_utf8(out.stdout).unwrap();
    assert!(fumen.starts_with("v115@") && fumen.ends_with('\n'));
}
