//! What the end-to-end tests share: the binary, a scratch folder, and the shape of a
//! one-line refusal.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The beamtris binary this test build made.
pub fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_beamtris"))
}

/// A fresh, empty folder for one test (`tag` keeps test files apart).
pub fn scratch(tag: &str, name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("beamtris-{tag}-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

pub fn json(path: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// Runs the binary with `args`.
pub fn run(args: &[&str]) -> Output {
    bin().args(args).output().unwrap()
}

/// Asserts exit code 2 and exactly `want` as the one stderr line (after `beamtris: `).
pub fn fails_with(out: &Output, want: &str) {
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(err, format!("beamtris: {want}\n"));
}

/// Runs `cmd` and asserts that it succeeded (its stderr is the message when it did not).
pub fn succeeds(cmd: &mut Command) -> Output {
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// Asserts exit code 2 and one stderr line that contains every piece of `want`.
pub fn fails_saying(out: &Output, want: &[&str]) {
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    for w in want {
        assert!(err.contains(w), "{w:?} not in {err}");
    }
}

/// The names in `dir`, sorted.
pub fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// A path inside the repository.
pub fn repo(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

/// Whether this is a CI run (`CI=true`): there a test that needs an outside tool (Chromium,
/// node) fails when the tool is missing, where elsewhere it passes and says it skipped.
pub fn on_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v.eq_ignore_ascii_case("true") || v == "1")
}

/// Skips `test`, which needs what `missing` names: one `SKIP` line written straight to stderr
/// (past the test harness's capture, so a plain `cargo test` shows it); under `CI=true` the
/// test fails instead.
pub fn skip(test: &str, missing: &str) {
    let line = format!("SKIP {test}: {missing} (scripts/ci-browser-deps.sh installs it)");
    assert!(
        !on_ci(),
        "{line}; CI=true, so a missing tool fails the test"
    );
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "{line}");
}

/// Runs `test` of this test binary with nothing on its PATH (no Chromium, no node): it must
/// pass, saying on stderr that it skipped, and fail under `CI=true`, naming what is missing.
pub fn assert_skips_but_fails_on_ci(test: &str, missing: &str) {
    let empty = std::env::temp_dir().join(format!("beamtris-no-tools-{}", std::process::id()));
    std::fs::create_dir_all(&empty).unwrap();
    let exe = std::env::current_exe().unwrap();
    let run = |ci: &str| {
        Command::new(&exe)
            .args(["--exact", test, "--test-threads=1"])
            .env("PATH", &empty)
            .env_remove("BEAMTRIS_CHROMIUM")
            .env("CI", ci)
            .output()
            .unwrap()
    };
    let out = run("");
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert!(out.status.success(), "{stdout}{stderr}");
    assert!(stdout.contains("1 passed"), "{stdout}");
    // The line `skip` writes: "SKIP file::test: missing ...".
    let skip = format!("::{test}: {missing}");
    assert!(
        stderr.contains("SKIP ") && stderr.contains(&skip),
        "{skip:?} not in {stderr}"
    );
    let out = run("true");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(!out.status.success(), "{stdout}");
    assert!(stdout.contains("1 failed"), "{stdout}");
    assert!(
        stdout.contains(&skip) && stdout.contains("CI=true"),
        "{stdout}"
    );
    let _ = std::fs::remove_dir_all(&empty);
}

/// Whether python3 runs here. When it does not, says which `check` is skipped: the tests of
/// the analysis scripts pass without it, like the other tests that call an outside tool.
pub fn has_python3(check: &str) -> bool {
    let found = Command::new("python3").arg("--version").output().is_ok();
    if !found {
        eprintln!("python3 not found: {check} is not checked");
    }
    found
}

/// `python3 SCRIPT`, the script given by its path in the repository.
pub fn python3(script: &str) -> Command {
    let mut cmd = Command::new("python3");
    cmd.arg(repo(script));
    cmd
}

/// Replays `record` (on `seed`, when given) with `verify --trace` and writes its lock lines
/// to `to`, the input of the analysis scripts.
pub fn write_trace(record: &Path, seed: Option<&Path>, to: &Path) {
    let mut cmd = bin();
    cmd.arg("verify").arg(record).arg("--trace");
    if let Some(seed) = seed {
        cmd.arg("--seed").arg(seed);
    }
    std::fs::write(to, succeeds(&mut cmd).stdout).unwrap();
}

/// The committed TETR.IO game and the solver's record of it (1000 locks, holds, combos,
/// back-to-back chains): the guideline record the view tests replay.
pub const TETRIO_SEED: &str = "seeds/tetrio-1742887628-attack.json";
pub const TETRIO_RECORD: &str = "results/guideline/solve-tetrio-1742887628-attack-b300.txt";

/// The guideline game of `seed` and every lock of `record` replayed on it by the engine.
pub fn guideline_locks(
    seed: &Path,
    record: &Path,
) -> (
    beamtris::games::guideline::replay::GuidelineGame,
    Vec<beamtris::games::guideline::replay::LockEvent>,
) {
    use beamtris::games::guideline::replay;
    let game = beamtris::game_def::GameDef::load(seed)
        .unwrap()
        .guideline_game()
        .unwrap();
    let rec = game
        .parse_record(&std::fs::read_to_string(record).unwrap())
        .unwrap();
    let mut locks = Vec::new();
    replay::replay_with(&rec, &game, |e| locks.push(*e));
    (game, locks)
}

/// The engine's state after `k` of `locks` (0 = the start).
pub fn state_after(
    locks: &[beamtris::games::guideline::replay::LockEvent],
    k: usize,
) -> beamtris::games::guideline::State {
    match k {
        0 => beamtris::games::guideline::State::START,
        _ => locks[k - 1].after,
    }
}

/// Checks printed board rows (top first, walls included) against `board` cell by cell: the
/// rows not printed are empty, each printed row has its walls (`buffer_wall` above row 20)
/// and a cell not `.` exactly where the board is filled. Returns the rows printed.
pub fn assert_board_rows(
    rows: &[&str],
    board: &beamtris::games::guideline::board::Board,
    buffer_wall: char,
    what: &str,
) -> usize {
    let height = rows.len();
    assert!(height >= 20, "{what}: {height} rows");
    for y in 0..24 {
        if y >= height {
            assert!(
                (0..10).all(|x| !board.filled(x, y)),
                "{what}: row {y} filled but not printed"
            );
            continue;
        }
        let row: Vec<char> = rows[height - 1 - y].chars().collect();
        let wall = if y >= 20 { buffer_wall } else { '|' };
        assert_eq!((row[0], row[11]), (wall, wall), "{what} row {y}");
        for x in 0..10 {
            assert_eq!(
                row[1 + x] != '.',
                board.filled(x, y),
                "{what} cell ({x},{y})"
            );
        }
    }
    height
}

/// A record of up to `n` pieces placing each where `key` is smallest, among the placements
/// that are not a lock out; it stops where a piece has no such placement.
pub fn record_by(
    g: &beamtris::games::guideline::replay::GuidelineGame,
    n: usize,
    key: impl Fn(&beamtris::games::guideline::movegen::Placement) -> (i32, i8, u8),
) -> beamtris::record::Record {
    use beamtris::games::guideline::{game, movegen};
    use beamtris::record::Record;
    let mut state = g.start;
    let mut paths = Vec::new();
    let mut out = Vec::new();
    for k in 0..n {
        let shape = g.pieces[state.next_index(k)];
        // `placements` appends, so the last piece's placements must go first.
        out.clear();
        movegen::placements(&state.board, shape, g.rules.rotation, &mut out);
        out.retain(|p| p.cells().iter().any(|c| c.1 < 20));
        let Some(best) = out.iter().min_by_key(|p| key(p)) else {
            break;
        };
        let Some(path) = movegen::path(&state.board, best, g.rules.rotation) else {
            break;
        };
        state = game::lock(&state, &best.active(), g.rules.combo_table).0;
        paths.push(path);
    }
    Record::from_paths(paths.iter().map(|p| p.as_slice()))
}

/// The highest row a placement fills.
pub fn top(p: &beamtris::games::guideline::movegen::Placement) -> i32 {
    p.cells().iter().map(|c| c.1 as i32).max().unwrap()
}

/// The NES movie at `path`, parsed.
pub fn read_movie(path: &Path) -> beamtris::games::nes::fm2::Movie {
    let text = std::fs::read_to_string(path).unwrap();
    beamtris::games::nes::fm2::parse(&path.display().to_string(), &text).unwrap()
}
