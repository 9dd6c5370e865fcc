//! `beamtris show` from the outside: the text view, the frames printed without a terminal,
//! the HTML file, and one-line errors with exit code 2.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// chys87's public record of the Tencent game (tests/data/tencent/records).
fn sample_record() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/tencent/records/chys87-1395326.txt")
}

fn beamtris(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_beamtris"))
        .args(args)
        .output()
        .expect("beamtris runs")
}

/// A record of three pieces written to a temporary file of the calling test's own (the tests
/// run in parallel: one shared file could be read while another test rewrites it).
fn small_record() -> PathBuf {
    let test = std::thread::current()
        .name()
        .unwrap_or("main")
        .replace("::", "-");
    let p = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("show-cli-small-{test}.txt"));
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
    let rec = sample_record();
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
    // A 20-row board draws no buffer rows, so the help line says nothing of a dashed line.
    assert!(!html.contains("dashed"));
    assert!(html.contains("the outline shows where the next piece locks"));
    let out = beamtris(&["show", rec.to_str().unwrap(), "--fumen", "--to", "3"]);
    let fumen = String::from_utf8(out.stdout).unwrap();
    assert!(fumen.starts_with("v115@") && fumen.ends_with('\n'));
}

#[test]
fn an_nes_page_shows_level_and_speed_as_their_own_fields() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("show-cli-nes");
    std::fs::create_dir_all(&dir).unwrap();
    let record = dir.join("z.txt");
    std::fs::write(&record, "speed 30hz\nZ\n").unwrap();
    let page = dir.join("z.html");
    let _ = std::fs::remove_file(&page);
    let out = beamtris(&[
        "show",
        record.to_str().unwrap(),
        "--gym-seed",
        "123456",
        "--html",
        page.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let html = std::fs::read_to_string(&page).unwrap();
    let data = page_data(&html);
    // The lines are numbers; level and speed each a labelled field of their own.
    assert_eq!(data["lines"], serde_json::json!([0, 0]));
    assert_eq!(
        data["figures"],
        serde_json::json!([
            {"label": "level", "values": ["18", "18"]},
            {"label": "speed", "values": ["30hz", "30hz"]},
        ])
    );
    assert!(data.get("notes").is_none());
    assert!(!html.contains("dashed"));
}

// Guideline records: the page's embedded data and the printed frames against the engine.

mod common;

use beamtris::games::guideline::replay::LockEvent;
use common::{
    assert_board_rows, guideline_locks, record_by, repo, state_after, top, TETRIO_RECORD,
    TETRIO_SEED,
};

/// The JSON a replay page embeds for its script.
fn page_data(html: &str) -> serde_json::Value {
    let start = html.find("const DATA = ").expect("the page has its data") + 13;
    let end = start + html[start..].find(";\n").unwrap();
    serde_json::from_str(&html[start..end]).unwrap()
}

/// A packed board of the page as colour codes, top row first.
fn unpack_board(packed: &str, rows: usize) -> Vec<[u8; 10]> {
    // Two cells a character, nine kinds a cell (0 empty, 1-7 pieces, 8 starting board).
    const ALPHABET: &str =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/!#$%&()*,-.:;=?@^";
    let codes: Vec<u8> = packed
        .chars()
        .flat_map(|c| {
            let v = ALPHABET.find(c).unwrap() as u8;
            [v % 9, v / 9]
        })
        .collect();
    assert_eq!(codes.len(), rows * 10);
    codes.chunks(10).map(|r| r.try_into().unwrap()).collect()
}

/// The letters a player sees after `k` locks: the piece to place and the previews.
fn queue(
    game: &beamtris::games::guideline::replay::GuidelineGame,
    locks: &[LockEvent],
    k: usize,
) -> String {
    if k == locks.len() {
        return String::new();
    }
    let start = state_after(locks, k).next_index(k);
    game.pieces[start..]
        .iter()
        .take(6)
        .map(|s| s.letter())
        .collect()
}

#[test]
fn guideline_page_embeds_the_engine_boards_and_numbers() {
    let (seed, record) = (repo(TETRIO_SEED), repo(TETRIO_RECORD));
    let (game, locks) = guideline_locks(&seed, &record);
    let page = Path::new(env!("CARGO_TARGET_TMPDIR")).join("show-cli-guideline.html");
    let out = beamtris(&[
        "show",
        record.to_str().unwrap(),
        "--seed",
        seed.to_str().unwrap(),
        "--html",
        page.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(!html.contains("http://") && !html.contains("https://"));
    let data = page_data(&html);
    let rows = data["rows"].as_u64().unwrap() as usize;
    assert_eq!(data["visible"], 20);
    assert_eq!(data["boards"].as_array().unwrap().len(), locks.len() + 1);
    let chains = &data["chains"];
    let mut rich = 0;
    for k in 0..=locks.len() {
        let after = state_after(&locks, k);
        let board = unpack_board(data["boards"][k].as_str().unwrap(), rows);
        let cell = |x: usize, y: usize| if y < rows { board[rows - 1 - y][x] } else { 0 };
        for y in 0..24 {
            for x in 0..10 {
                assert_eq!(
                    cell(x, y) != 0,
                    after.board.filled(x, y),
                    "piece {k} cell ({x},{y})"
                );
            }
        }
        // A lock that clears nothing leaves its cells in its colour (1 + the shape index).
        if let Some(e) = k.checked_sub(1).map(|i| &locks[i]).filter(|e| e.rows == 0) {
            for &(x, y) in &e.cells {
                assert_eq!(
                    cell(x as usize, y as usize),
                    e.piece.index() as u8 + 1,
                    "piece {k}"
                );
            }
        }
        let (points, attack) = match k {
            0 => (0, 0),
            _ => (locks[k - 1].total_points, locks[k - 1].total_attack),
        };
        let lines: u64 = locks[..k].iter().map(|e| e.rows as u64).sum();
        assert_eq!(data["score"][k], points, "points at {k}");
        assert_eq!(data["lines"][k], lines, "lines at {k}");
        assert_eq!(chains["attack"][k], attack, "attack at {k}");
        assert_eq!(chains["combo"][k], after.combo.max(0), "combo at {k}");
        assert_eq!(chains["back_to_back"][k], after.b2b, "b2b at {k}");
        let hold = after.hold.map_or('-', |s| s.letter());
        let held = chains["hold"].as_str().unwrap().chars().nth(k);
        assert_eq!(held, Some(hold), "hold at {k}");
        assert_eq!(data["next"][k], queue(&game, &locks, k), "queue at {k}");
        if after.hold.is_some() && after.combo > 0 && after.b2b {
            rich += 1;
        }
    }
    assert!(
        rich > 0,
        "some piece has hold, a combo and back-to-back at once"
    );
}

/// Runs `show --animate` without a terminal and checks every printed frame against the
/// engine: the header's numbers and queue, and every cell of the board (`:` walls for the
/// buffer rows, printed only while a cell is in them). Returns the most rows a frame had.
fn check_animation(seed: &Path, record: &Path, from: usize, to: usize) -> usize {
    let (game, locks) = guideline_locks(seed, record);
    let out = beamtris(&[
        "show",
        record.to_str().unwrap(),
        "--seed",
        seed.to_str().unwrap(),
        "--animate",
        "--from",
        &from.to_string(),
        "--to",
        &to.to_string(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let frames: Vec<&str> = text.split_terminator("\n\n").collect();
    assert_eq!(frames.len(), to - from + 1);
    let mut most = 0;
    for (frame, k) in frames.iter().zip(from..) {
        let lines: Vec<&str> = frame.lines().collect();
        let after = state_after(&locks, k);
        let (points, attack) = match k {
            0 => (0, 0),
            _ => (locks[k - 1].total_points, locks[k - 1].total_attack),
        };
        let cleared: u64 = locks[..k].iter().map(|e| e.rows as u64).sum();
        assert_eq!(
            lines[0],
            format!(
                "piece {k}/{}  points {points}  attack {attack}  lines {cleared}  combo {}  back-to-back {}",
                locks.len(),
                after.combo.max(0),
                if after.b2b { "on" } else { "off" }
            )
        );
        let hold = after.hold.map_or('-', |s| s.letter());
        let next = queue(&game, &locks, k);
        if next.is_empty() {
            assert!(
                lines[1].starts_with(&format!("hold {hold}  game over (")),
                "{}",
                lines[1]
            );
        } else {
            assert_eq!(lines[1], format!("hold {hold}  next {next}"));
        }
        assert_eq!(lines.last(), Some(&"+----------+"));
        let rows = &lines[2..lines.len() - 1];
        let height = assert_board_rows(rows, &after.board, ':', &format!("piece {k}"));
        most = most.max(height);
    }
    most
}

#[test]
fn guideline_animation_without_a_terminal_prints_the_replayed_boards() {
    let seed = repo(TETRIO_SEED);
    let (_, locks) = guideline_locks(&seed, &repo(TETRIO_RECORD));
    check_animation(&seed, &repo(TETRIO_RECORD), 0, 60);
    check_animation(&seed, &repo(TETRIO_RECORD), 940, locks.len());
    // A stack of the highest placements reaches the buffer rows.
    let game = guideline_locks(&seed, &repo(TETRIO_RECORD)).0;
    let high = record_by(&game, 300, |p| (-top(p), p.x, p.state));
    let path = Path::new(env!("CARGO_TARGET_TMPDIR")).join("show-cli-guideline-high.txt");
    std::fs::write(&path, high.to_string()).unwrap();
    let (_, high_locks) = guideline_locks(&seed, &path);
    let most = check_animation(&seed, &path, 0, high_locks.len());
    assert!(most > 20, "the buffer rows are printed ({most} rows)");
}

#[test]
fn guideline_errors_are_one_line_with_exit_code_2() {
    let (seed, record) = (repo(TETRIO_SEED), repo(TETRIO_RECORD));
    let (seed, record) = (seed.to_str().unwrap(), record.to_str().unwrap());
    for (args, want) in [
        (vec!["--animate", "--to", "1001"], "--to 1001"),
        (vec!["--animate", "--from", "5", "--to", "4"], "--from 5"),
    ] {
        let out = beamtris(&[&["show", record, "--seed", seed][..], &args].concat());
        common::fails_saying(&out, &[want]);
    }
}
