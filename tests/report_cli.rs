//! `beamtris report` and `beamtris tune` from the outside: real solve runs summarised into
//! markdown and SVG, and one-line errors with exit code 2.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn beamtris(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_beamtris"))
        .args(args)
        .output()
        .expect("beamtris runs")
}

fn fresh(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn sweep_and_compare_reports_summarise_real_runs() {
    let d = fresh("report-cli");
    let dir = d.to_str().unwrap();
    for (name, beam, weights) in [
        ("a", "4", "open-column"),
        ("b", "8", "results/weights/dellacherie.json"),
    ] {
        let out = d.join(format!("{name}.json"));
        let o = beamtris(&[
            "solve",
            "--beam",
            beam,
            "--pieces",
            "1200",
            "--weights",
            weights,
            "--moves",
            "drop",
            "--threads",
            "1",
            "--out",
            out.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    let o = beamtris(&["report", "sweep", "--dir", dir]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let md = std::fs::read_to_string(d.join("summary.md")).unwrap();
    assert!(md.contains("| drop | 4 | open-column |"), "{md}");
    let svg = std::fs::read_to_string(d.join("score-vs-beam.svg")).unwrap();
    assert!(svg.contains("competition record 1 413 876"));
    // the sweep's summary.json is not taken for a run by the next report
    let o = beamtris(&["report", "compare", "--dir", dir]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(d.join("score-vs-piece-b4-drop.svg").exists());
    assert!(d.join("score-vs-piece-b8-drop.svg").exists());
}

#[test]
fn errors_are_one_line_with_exit_code_2() {
    let d = fresh("report-cli-errors");
    let missing = d.join("nothing-here");
    let o = beamtris(&["report", "sweep", "--dir", missing.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("nothing-here"), "{err}");
    let o = beamtris(&[
        "tune",
        "--tune",
        "holes,colour",
        "--out",
        d.join("t").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("--tune colour: unknown weight"), "{err}");
}
