//! `beamtris import MOVIE.fm2 --at F1,F2,...`: the snapshots of an NES Tetris movie, and
//! its refusals on one line.

use std::process::Command;

fn beamtris(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_beamtris"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn reports_each_frame_asked_as_a_json_line() {
    let (ok, stdout, stderr) = beamtris(&[
        "import",
        "tests/data/nes/death/normal_play.fm2",
        "--at",
        "2159,100,2158",
    ]);
    assert!(ok, "{stderr}");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 3);
    assert!(lines[0].starts_with(r#"{"frame":2159,"#) && lines[0].contains(r#""dead":true"#));
    assert_eq!(
        lines[1],
        r#"{"frame":100,"score":null,"lines":null,"level":null,"dead":null,"menu":"copyright","gameplay":false}"#
    );
    assert!(lines[2].contains(r#""dead":false"#) && lines[2].contains(r#""menu":null"#));
}

#[test]
fn refuses_what_is_not_a_movie_on_one_line() {
    let dir = std::env::temp_dir().join(format!("beamtris-nes-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("notes.fm2");
    std::fs::write(&bad, "hello\n").unwrap();
    let (ok, _, stderr) = beamtris(&["import", bad.to_str().unwrap(), "--at", "5"]);
    assert!(!ok);
    assert_eq!(stderr.trim().lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("notes.fm2: line 1: not an FM2 movie"),
        "{stderr}"
    );
    let movie = "tests/data/nes/menuing/gameplay.fm2";
    let (ok, _, stderr) = beamtris(&["import", movie, "--at", "10000001"]);
    assert!(!ok && stderr.contains("beyond 10000000"), "{stderr}");
    std::fs::remove_dir_all(&dir).ok();
}
