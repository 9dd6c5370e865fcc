//! The fumen export read back by the reference decoder, the npm package `tetris-fumen`: every
//! page's field must be the engine's board (cell for cell, with the piece letters as colours)
//! and every page's piece must cover exactly the cells the engine locked.
//!
//! Guideline games too: the committed TETR.IO record and records made here that stack into
//! the buffer rows, every page against the guideline replay.
//!
//! Needs node and npm (the package is installed into a folder under the target directory,
//! once); without them each test says it skipped and passes, except under `CI=true`, where
//! it fails.

mod common;

use beamtris::game_def::GameDef;
use beamtris::games::guideline::replay::{self as guideline, EndReason, LockEvent};
use beamtris::io;
use beamtris::show::game::{shape_of_colour, TencentReplay};
use common::repo;
use serde::Deserialize;
use std::path::{Path, PathBuf};
use std::process::Command;

const TETRIS_FUMEN: &str = "tetris-fumen@1.1.3";

/// Prints each decoded page as JSON: the 23 field rows top first (letters, `_` empty), the
/// piece with its cells, the lock flag and the comment.
const DECODE_JS: &str = r#"
const { decoder } = require("tetris-fumen");
const fs = require("fs");
const pages = decoder.decode(fs.readFileSync(process.argv[2], "utf8").trim());
const out = pages.map((p) => {
  const rows = [];
  for (let y = 22; y >= 0; y--) {
    let row = "";
    for (let x = 0; x < 10; x++) row += p.field.at(x, y);
    rows.push(row);
  }
  const op = p.operation
    ? { kind: p.operation.type, cells: p.mino().positions().map((c) => [c.x, c.y]) }
    : null;
  return { rows, op, lock: p.flags.lock, comment: p.comment };
});
process.stdout.write(JSON.stringify(out));
"#;

#[derive(Deserialize)]
struct JsPage {
    rows: Vec<String>,
    op: Option<JsOp>,
    lock: bool,
    comment: String,
}

#[derive(Deserialize)]
struct JsOp {
    kind: String,
    cells: Vec<[i32; 2]>,
}

/// chys87's public record of the Tencent game (tests/data/tencent/records).
fn sample_record() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/tencent/records/chys87-1395326.txt")
}

fn works(cmd: &str) -> bool {
    Command::new(cmd)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// A folder with `tetris-fumen` installed, or `None` without node or npm.
/// Installed once per test binary: the tests run in parallel, and two `npm install`s into one
/// folder (or a test's node reading `decode.js` while another rewrites it) break each other.
fn reference_decoder() -> Option<PathBuf> {
    static DECODER: std::sync::OnceLock<Option<PathBuf>> = std::sync::OnceLock::new();
    DECODER.get_or_init(install_reference_decoder).clone()
}

fn install_reference_decoder() -> Option<PathBuf> {
    if !works("node") || !works("npm") {
        return None;
    }
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("fumen-npm");
    if !dir.join("node_modules/tetris-fumen/package.json").exists() {
        std::fs::create_dir_all(&dir).unwrap();
        let out = Command::new("npm")
            .args([
                "install",
                "--no-save",
                "--no-audit",
                "--no-fund",
                "--prefix",
            ])
            .arg(&dir)
            .arg(TETRIS_FUMEN)
            .output()
            .expect("npm runs");
        assert!(
            out.status.success(),
            "npm install {TETRIS_FUMEN} failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    std::fs::write(dir.join("decode.js"), DECODE_JS).unwrap();
    Some(dir)
}

fn beamtris(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_beamtris"))
        .args(args)
        .output()
        .expect("beamtris runs");
    assert!(
        out.status.success(),
        "beamtris {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn decode_with_node(dir: &Path, fumen: &str, name: &str) -> Vec<JsPage> {
    let file = dir.join(name);
    std::fs::write(&file, fumen).unwrap();
    let out = Command::new("node")
        .arg(dir.join("decode.js"))
        .arg(&file)
        .current_dir(dir)
        .output()
        .expect("node runs");
    assert!(
        out.status.success(),
        "tetris-fumen refused the fumen: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

fn check_range(
    dir: &Path,
    record: &Path,
    game: &TencentReplay,
    from: usize,
    to: usize,
    comments: bool,
) {
    let (from_s, to_s) = (from.to_string(), to.to_string());
    let mut args = vec!["show", record.to_str().unwrap(), "--fumen"];
    args.extend(["--from", &from_s, "--to", &to_s]);
    if !comments {
        args.push("--no-comments");
    }
    let fumen = beamtris(&args);
    assert!(
        fumen.starts_with("v115@"),
        "{}",
        &fumen[..20.min(fumen.len())]
    );
    let pages = decode_with_node(dir, &fumen, &format!("pages-{from}-{to}.txt"));
    assert_eq!(
        pages.len(),
        to - from + 1,
        "one page per piece and a last one"
    );
    for (i, page) in pages.iter().enumerate() {
        let k = from + i;
        let snap = game.snapshot(k);
        assert_eq!(page.rows.len(), 23);
        for (r, row) in page.rows.iter().enumerate() {
            let y = 22 - r as i32;
            let want: String = (0..10)
                .map(|x| {
                    if y >= 20 {
                        return '_';
                    }
                    let by = (19 - y) as usize;
                    assert_eq!(
                        snap.colours[by][x] != 0,
                        snap.board.filled(x, by),
                        "colour grid vs engine board, piece {k}"
                    );
                    shape_of_colour(snap.colours[by][x]).map_or('_', |s| s.letter())
                })
                .collect();
            assert_eq!(row, &want, "page {i} (piece {k}) fumen row {y}");
        }
        assert!(page.lock, "page {i} locks its piece");
        if comments {
            assert!(page.comment.starts_with(&format!("piece {k} ")) || k == game.placed());
        } else {
            assert_eq!(page.comment, "");
        }
        match (&page.op, game.frames.get(k)) {
            (Some(op), Some(frame)) if k < to => {
                assert_eq!(op.kind, frame.piece.shape.letter().to_string());
                let mut got: Vec<(i32, i32)> = op.cells.iter().map(|c| (c[0], c[1])).collect();
                let mut want: Vec<(i32, i32)> = frame
                    .cells
                    .iter()
                    .map(|&(x, y)| (x as i32, 19 - y as i32))
                    .collect();
                got.sort();
                want.sort();
                assert_eq!(got, want, "piece {k}: fumen cells vs locked cells");
            }
            (None, _) if k == to => {}
            _ => panic!("page {i} (piece {k}): unexpected operation"),
        }
    }
}

#[test]
fn without_node_a_test_skips_and_under_ci_it_fails() {
    common::assert_skips_but_fails_on_ci(
        "tetris_fumen_decodes_every_page_to_the_engine_board",
        "node or npm is not installed",
    );
}

#[test]
fn tetris_fumen_decodes_every_page_to_the_engine_board() {
    let record = sample_record();
    let Some(dir) = reference_decoder() else {
        common::skip(
            "show_fumen::tetris_fumen_decodes_every_page_to_the_engine_board",
            "node or npm is not installed",
        );
        return;
    };
    let game = TencentReplay::replay(
        &io::read_record(&record).unwrap(),
        GameDef::tencent_geek_4().pieces(),
    )
    .unwrap();
    // The opening, a stretch from the middle (its first page carries the whole field) and
    // the end of the game.
    check_range(&dir, &record, &game, 0, 400, true);
    check_range(&dir, &record, &game, 5000, 5250, true);
    check_range(&dir, &record, &game, 3000, 4000, false);
    check_range(
        &dir,
        &record,
        &game,
        game.placed() - 150,
        game.placed(),
        true,
    );

    // Short games that end in a top-out (the last piece reaches above the board, into
    // fumen's hidden rows), a floating lock, a blocked rotation and a record ending in N.
    let edge = record.parent().unwrap().join("edge");
    let mut names: Vec<PathBuf> = std::fs::read_dir(&edge)
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    names.sort();
    let mut checked = 0;
    for path in names {
        let Ok(rec) = io::read_record(&path) else {
            continue; // the bad-*.txt records are refused on purpose
        };
        let game = TencentReplay::replay(&rec, GameDef::tencent_geek_4().pieces()).unwrap();
        check_range(&dir, &path, &game, 0, game.placed(), true);
        checked += 1;
    }
    eprintln!("show_fumen: also checked {checked} edge records");
}

/// Decodes `beamtris show RECORD --seed SEED --fumen [--from --to]` with `tetris-fumen` and
/// checks every page against the replay's locks: the field cell by cell (letters as colours,
/// row 23 empty as fumen has no row for it), the piece's cells, the lock flag, the comment.
fn check_guideline(dir: &Path, record: &Path, seed: &Path, from: usize, to: Option<usize>) {
    let game = GameDef::load(seed).unwrap().guideline_game().unwrap();
    let text = std::fs::read_to_string(record).unwrap();
    let rec = game.parse_record(&text).unwrap();
    let mut events: Vec<LockEvent> = Vec::new();
    let outcome = guideline::replay_with(&rec, &game, |e| events.push(*e));
    let to = to.unwrap_or(events.len());
    let (from_s, to_s) = (from.to_string(), to.to_string());
    let args = [
        "show",
        record.to_str().unwrap(),
        "--seed",
        seed.to_str().unwrap(),
        "--fumen",
        "--from",
        &from_s,
        "--to",
        &to_s,
    ];
    let pages = decode_with_node(dir, &beamtris(&args), &format!("guideline-{from}-{to}.txt"));
    assert_eq!(pages.len(), to - from + 1);
    // Which piece filled each cell, replayed here from the events' cells and boards; the
    // starting board's cells are grey (`X`).
    let mut letters = vec![['_'; 10]; 24];
    for (y, row) in letters.iter_mut().enumerate() {
        for (x, c) in row.iter_mut().enumerate() {
            if game.start.board.filled(x, y) {
                *c = 'X';
            }
        }
    }
    for (k, page) in std::iter::repeat_n(None, from)
        .chain(pages.iter().map(Some))
        .enumerate()
    {
        let board = if k == 0 {
            game.start.board
        } else {
            events[k - 1].after.board
        };
        if let Some(page) = page {
            for (r, row) in page.rows.iter().enumerate() {
                let y = 22 - r;
                let want: String = (0..10)
                    .map(|x| {
                        assert_eq!(letters[y][x] != '_', board.filled(x, y), "lock {k}");
                        letters[y][x]
                    })
                    .collect();
                assert_eq!(
                    row,
                    &want,
                    "{}: page of lock {k}, row {y}",
                    record.display()
                );
            }
            assert!((0..10).all(|x| !board.filled(x, 23)));
            assert!(page.lock);
            if k < to {
                let e = &events[k];
                let op = page.op.as_ref().expect("a page before the end has a piece");
                assert_eq!(op.kind, e.piece.letter().to_string());
                let mut got: Vec<(i32, i32)> = op.cells.iter().map(|c| (c[0], c[1])).collect();
                let mut want: Vec<(i32, i32)> =
                    e.cells.iter().map(|&(x, y)| (x as i32, y as i32)).collect();
                got.sort();
                want.sort();
                assert_eq!(got, want, "lock {k}: fumen cells vs locked cells");
                assert!(
                    page.comment
                        .starts_with(&format!("piece {k} {}", e.piece.letter())),
                    "{}",
                    page.comment
                );
            } else {
                assert!(page.op.is_none());
            }
            let (points, attack) = match k {
                0 => (0, 0),
                _ => (events[k - 1].total_points, events[k - 1].total_attack),
            };
            assert!(
                page.comment
                    .contains(&format!(", points {points}, attack {attack}, lines ")),
                "{}",
                page.comment
            );
        }
        // Lock k into the letters and clear its full rows, as the board did.
        if let Some(e) = events.get(k) {
            for &(x, y) in &e.cells {
                letters[y as usize][x as usize] = e.piece.letter();
            }
            letters.retain(|row| row.contains(&'_'));
            letters.resize(24, ['_'; 10]);
        }
    }
    eprintln!(
        "show_fumen: {} locks {from}..{to}, end {:?}",
        record.display(),
        outcome.end_reason
    );
}

#[test]
fn tetris_fumen_decodes_guideline_pages_to_the_replay() {
    let Some(dir) = reference_decoder() else {
        common::skip(
            "show_fumen::tetris_fumen_decodes_guideline_pages_to_the_replay",
            "node or npm is not installed",
        );
        return;
    };
    let seed = repo("seeds/tetrio-1742887628-attack.json");
    let record = repo("results/guideline/solve-tetrio-1742887628-attack-b300.txt");
    check_guideline(&dir, &record, &seed, 0, None);
    check_guideline(&dir, &record, &seed, 400, Some(460));

    // Stacks that reach the buffer rows: the highest placement that is not a lock out, until
    // the game ends; and a hold as the first move.
    let game = GameDef::load(&seed).unwrap().guideline_game().unwrap();
    let tmp = Path::new(env!("CARGO_TARGET_TMPDIR"));
    let high = common::record_by(&game, 200, |p| (-common::top(p), p.x, p.state));
    let high_path = tmp.join("show-fumen-guideline-high.txt");
    std::fs::write(&high_path, high.to_string()).unwrap();
    let mut top = 0;
    let outcome = guideline::replay_with(&high, &game, |e| {
        top = top.max(e.cells.iter().map(|c| c.1).max().unwrap());
    });
    assert_eq!(top, 22, "the stack reaches the highest row a lock can");
    assert_ne!(outcome.end_reason, Some(EndReason::PiecesDone));
    check_guideline(&dir, &high_path, &seed, 0, None);

    let held = tmp.join("show-fumen-guideline-hold.txt");
    std::fs::write(&held, "N,H1,D99,N,C1,L4,N,R4").unwrap();
    check_guideline(&dir, &held, &seed, 0, None);

    // A game from a starting board (garbage, a hold piece, a queue): the first page is the
    // starting board, the pages after it the replay's boards.
    let started = tmp.join("show-fumen-guideline-start.json");
    std::fs::write(
        &started,
        r#"{"name": "start", "rules": "guideline",
            "generator": {"kind": "queue", "pieces": "TIOLJSZTSZIOJLTIOL"},
            "start": {"board": ["..........", "XXXX.XXXXX", "XXXXXXX.XX", "X.XXXXXXXX"],
                      "hold": "I", "combo": 1, "b2b": true}}"#,
    )
    .unwrap();
    let game = GameDef::load(&started).unwrap().guideline_game().unwrap();
    let low = common::record_by(&game, game.length, |p| (common::top(p), p.x, p.state));
    let low_path = tmp.join("show-fumen-guideline-start.txt");
    std::fs::write(&low_path, low.to_string()).unwrap();
    check_guideline(&dir, &low_path, &started, 0, None);
}
