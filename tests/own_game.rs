//! Bringing your own game: explicit queues, starting boards and hold pieces, and TETR.IO
//! seeds from the command line, on both families; what they must refuse, before any search.

use beamtris::game_def::GameDef;
use beamtris::games::guideline::replay as guideline_replay;
use beamtris::games::tencent::replay as tencent_replay;
use beamtris::search::guideline::{self, Move};
use beamtris::search::tencent::{self, BeamConfig};
use proptest::prelude::*;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::AtomicBool;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("beamtris-own-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn beamtris(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_beamtris"))
        .current_dir(root())
        .args(args)
        .output()
        .expect("beamtris runs")
}

/// Runs `solve` with `args`, writing into `dir/name.json`; returns the record and the score
/// the results file claims.
fn solve(dir: &Path, name: &str, args: &[&str]) -> (String, u64) {
    let out = dir.join(format!("{name}.json"));
    let mut all = vec!["solve", "--threads", "2", "--out", out.to_str().unwrap()];
    all.extend_from_slice(args);
    let run = beamtris(&all);
    assert!(
        run.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&run.stderr)
    );
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    let record = std::fs::read_to_string(out.with_extension("txt")).unwrap();
    (record, report["score"].as_u64().unwrap())
}

/// The score `verify` gives `record` on the game of `game_args`.
fn verify(record: &Path, game_args: &[&str]) -> u64 {
    verify_json(record, game_args)["score"].as_u64().unwrap()
}

/// What `verify` prints for `record` on the game of `game_args` (it must succeed).
fn verify_json(record: &Path, game_args: &[&str]) -> serde_json::Value {
    let mut all = vec!["verify", record.to_str().unwrap()];
    all.extend_from_slice(game_args);
    let run = beamtris(&all);
    assert!(
        run.status.success(),
        "{game_args:?}: {}",
        String::from_utf8_lossy(&run.stderr)
    );
    serde_json::from_slice(&run.stdout).unwrap()
}

/// N letters and a hold piece make N locks, however the hold is given: in the game file, or
/// by `--hold` on a game file whose queue sets its length (`pieces` left out).
#[test]
fn a_hold_piece_adds_a_lock_to_a_queue_game_however_it_is_given() {
    let dir = temp_dir("hold-locks");
    let file = dir.join("q3.json");
    std::fs::write(
        &file,
        r#"{"name": "q3", "rules": "guideline", "generator": {"kind": "queue", "pieces": "IOL"}}"#,
    )
    .unwrap();
    let held = dir.join("q3-held.json");
    std::fs::write(
        &held,
        r#"{"name": "q3h", "rules": "guideline", "generator": {"kind": "queue", "pieces": "IOL"},
            "start": {"hold": "T"}}"#,
    )
    .unwrap();
    let record = dir.join("n3.txt");
    std::fs::write(&record, "N,N,N\n").unwrap();
    let (f, h) = (file.to_str().unwrap(), held.to_str().unwrap());
    for game in [
        vec!["--seed", f, "--hold", "T"],
        vec!["--seed", h],
        vec!["--queue", "IOL", "--hold", "T"],
    ] {
        let v = verify_json(&record, &game);
        assert_eq!(v["pieces"], 3, "{game:?}: {v}");
        assert_eq!(v["end_reason"], "pieces_done", "{game:?}: {v}");
    }
    // without the hold piece the file's game is two locks
    let run = beamtris(&["verify", record.to_str().unwrap(), "--seed", f]);
    assert_eq!(run.status.code(), Some(2));
    // a length the file gives is kept
    let fixed = dir.join("q3-two.json");
    std::fs::write(
        &fixed,
        r#"{"name": "q2", "rules": "guideline", "pieces": 2,
            "generator": {"kind": "queue", "pieces": "IOL"}}"#,
    )
    .unwrap();
    std::fs::write(&record, "N,N\n").unwrap();
    let v = verify_json(&record, &["--seed", fixed.to_str().unwrap(), "--hold", "T"]);
    assert_eq!(v["end_reason"], "pieces_done", "{v}");
}

fn letters(seed: &GameDef, n: usize) -> String {
    seed.shapes(n).iter().map(|s| s.letter()).collect()
}

#[test]
fn a_queue_of_a_generators_pieces_plays_the_generators_game() {
    let dir = temp_dir("queue-equals");
    // Guideline: a game of N locks deals N + 1 pieces; that queue, with no length, is the
    // same game.
    for (file, pieces) in [
        ("seeds/cc2/tetrio-1-srs-attack.json", "60"),
        ("seeds/cc2/tetrio-12345-srs-points.json", "40"),
        ("seeds/bag7-1-tetrio-attack.json", "50"),
    ] {
        let seed = GameDef::load(&root().join(file)).unwrap();
        let queue = letters(&seed, seed.pieces + 1);
        let (by_seed, score) = solve(
            &dir,
            "by-seed",
            &["--seed", file, "--beam", "40", "--pieces", pieces],
        );
        let (by_queue, queue_score) = solve(
            &dir,
            "by-queue",
            &[
                "--seed", file, "--queue", &queue, "--beam", "40", "--pieces", pieces,
            ],
        );
        assert_eq!(by_seed, by_queue, "{file}");
        assert_eq!(score, queue_score, "{file}");
    }
    // The TETR.IO seed flag on the built-in rules (TETR.IO's today) is the seed file of
    // that seed.
    let (n, file) = (1753222251u64, "seeds/tetrio-versus.json");
    let (by_file, a) = solve(
        &dir,
        "file",
        &["--seed", file, "--beam", "40", "--pieces", "80"],
    );
    let (by_flag, b) = solve(
        &dir,
        "flag",
        &[
            "--tetrio-seed",
            &n.to_string(),
            "--beam",
            "40",
            "--pieces",
            "80",
        ],
    );
    assert_eq!((by_file, a), (by_flag, b));
    // Tencent: the spawn states come from the seed's rules, the shapes from the queue.
    let seed = GameDef::tencent_geek_4();
    for (length, limit) in [(300usize, "200"), (120, "119")] {
        let queue = letters(&seed, length);
        let (by_seed, a) = solve(&dir, "t-seed", &["--beam", "60", "--pieces", limit]);
        let (by_queue, b) = solve(
            &dir,
            "t-queue",
            &[
                "--seed",
                "seeds/tencent-geek-4.json",
                "--queue",
                &queue.to_lowercase(),
                "--beam",
                "60",
                "--pieces",
                limit,
            ],
        );
        assert_eq!((by_seed, a), (by_queue, b), "{length}");
    }
}

/// Starting boards of both families: each solves, and the record replays from the board to
/// the score the search claimed.
#[test]
fn games_from_starting_boards_replay_to_their_score() {
    let dir = temp_dir("boards");
    let boards = [
        // garbage with one hole a row
        (
            "garbage",
            "XXXX.XXXXX\nXXXXXXX.XX\nX.XXXXXXXX\nXXXXX.XXXX\n",
        ),
        // a perfect clear away: two rows with a 4-wide gap
        ("near-pc", "XXX....XXX\nXXX....XXX\n"),
        // a tall stack with a well
        ("tall", &"XXXXXXXXX.\n".repeat(14)),
        // a T-spin double slot
        ("tslot", "..........\nXX...XXXXX\nXXX.XXXXXX\nXX.XXXXXXX\n"),
    ];
    for (name, rows) in boards {
        let file = dir.join(format!("{name}.board"));
        std::fs::write(&file, rows).unwrap();
        let f = file.to_str().unwrap();
        for hold in [None, Some("T")] {
            let mut game = vec!["--board", f, "--queue", "TIOLJSZTSZIOJLT"];
            if let Some(h) = hold {
                game.extend(["--hold", h]);
            }
            let mut args = game.clone();
            args.extend(["--beam", "200"]);
            let (_, score) = solve(&dir, name, &args);
            let record = dir.join(format!("{name}.txt"));
            assert_eq!(verify(&record, &game), score, "{name} {hold:?}");
        }
        if name != "tall" {
            let game = ["--seed", "seeds/tencent-geek-4.json", "--board", f];
            let mut args = game.to_vec();
            args.extend(["--beam", "100", "--pieces", "150"]);
            let (_, score) = solve(&dir, &format!("t-{name}"), &args);
            let record = dir.join(format!("t-{name}.txt"));
            assert_eq!(verify(&record, &game), score, "tencent {name}");
        }
    }
}

#[test]
fn the_near_perfect_clear_is_found_and_the_start_is_drawn() {
    let dir = temp_dir("pc");
    // A fumen of the board, as a fumen editor would write it: rows 1 and 2 from the bottom
    // are XXX....XXX, in grey.
    let mut field = beamtris::fumen::Field::default();
    for y in 0..2 {
        for x in [0, 1, 2, 7, 8, 9] {
            field.set(x, y, beamtris::fumen::Kind::Gray);
        }
    }
    let board = beamtris::fumen::encode(&[beamtris::fumen::Page {
        field,
        operation: None,
        comment: String::new(),
        lock: true,
        colour: true,
    }]);
    let game = ["--board", board.as_str(), "--queue", "OOIITLJSZ"];
    let mut args = game.to_vec();
    args.extend(["--beam", "300"]);
    let (record, _) = solve(&dir, "pc", &args);
    let record_file = dir.join("pc.txt");
    let mut show = vec!["show", record_file.to_str().unwrap(), "--at", "0"];
    show.extend_from_slice(&game);
    let text = String::from_utf8(beamtris(&show).stdout).unwrap();
    let rows: Vec<&str> = text.lines().filter(|l| l.starts_with('|')).collect();
    assert_eq!(rows[rows.len() - 1], "|XXX....XXX|", "{text}");
    assert_eq!(rows[rows.len() - 2], "|XXX....XXX|", "{text}");
    assert!(!record.is_empty());
    // The fumen's first page holds the starting board (as grey cells).
    let mut fumen = vec!["show", record_file.to_str().unwrap(), "--fumen"];
    fumen.extend_from_slice(&game);
    let out = beamtris(&fumen);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let pages = beamtris::fumen::decode(text.trim()).unwrap();
    let field = &pages[0].field;
    for y in 0..2 {
        let row: String = (0..10)
            .map(|x| match field.get(x, y) {
                beamtris::fumen::Kind::Empty => '.',
                beamtris::fumen::Kind::Gray => 'X',
                _ => 'P',
            })
            .collect();
        assert_eq!(row, "XXX....XXX");
    }
}

/// Every bad input: refused with one line naming it, exit code 2, nothing written.
#[test]
fn bad_games_are_refused_before_any_search() {
    let dir = temp_dir("bad");
    let full = dir.join("full.txt");
    std::fs::write(&full, "..........\nXXXXXXXXXX\n").unwrap();
    let wide = dir.join("wide.txt");
    std::fs::write(&wide, "XXXXX.XXXXX\n").unwrap();
    let tall = dir.join("tall.txt");
    std::fs::write(&tall, "X.........\n".repeat(25)).unwrap();
    let empty = dir.join("empty.txt");
    std::fs::write(&empty, "\n").unwrap();
    let top = dir.join("top.txt");
    std::fs::write(&top, "X.........\n".repeat(20)).unwrap();
    let gap = dir.join("gap.txt");
    std::fs::write(&gap, "X.........\n\nXX........\n").unwrap();
    let every = ["solve", "verify", "play", "show", "tune"];
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            vec!["--queue", "IJLXO"],
            "--queue: letter 4 ('X') is not one of IJLOSTZ",
        ),
        (vec!["--queue", "  "], "--queue: the queue is empty"),
        (
            vec!["--board", "v115@vhA!AA"],
            "--board v115@vhA!AA: fumen: character 4 ('!')",
        ),
        (vec!["--board", "v115@"], "--board v115@: fumen: no page"),
        (
            vec!["--board", "no-such-file"],
            "--board \"no-such-file\": neither a fumen",
        ),
        (
            vec!["--board", "v110@7eEtH8BeB8JeAgH"],
            "--board v110@7eEtH8BeB8J...: a fumen of version 110; beamtris reads version 115",
        ),
        (
            vec!["--board", full.to_str().unwrap()],
            "row 1 from the bottom is full",
        ),
        (
            vec!["--board", wide.to_str().unwrap()],
            "row 1 from the top has 11 cells",
        ),
        (
            vec!["--board", tall.to_str().unwrap()],
            "above the board's 24 rows",
        ),
        (
            vec!["--board", empty.to_str().unwrap()],
            "the file is empty",
        ),
        (
            vec![
                "--seed",
                "seeds/tencent-geek-4.json",
                "--board",
                top.to_str().unwrap(),
            ],
            "a cell in row 20 from the bottom, the top row; a Tencent game ends",
        ),
        (
            vec!["--hold", "X", "--queue", "IJLOS"],
            "--hold: \"X\" is not one of IJLOSTZ",
        ),
        (
            vec!["--hold", "TT", "--queue", "IJLOS"],
            "--hold: \"TT\": give one letter",
        ),
        (
            vec!["--tetrio-seed", "0"],
            "--tetrio-seed 0: a TETR.IO seed is an integer",
        ),
        (
            vec!["--tetrio-seed", "-1"],
            "--tetrio-seed -1: a TETR.IO seed is an integer",
        ),
        (
            vec!["--seed", "seeds/tencent-geek-4.json", "--hold", "T"],
            "--hold T: the game tencent-geek-4 is a Tencent Geek Challenge game, which does not take --hold",
        ),
        (
            vec![
                "--seed",
                "seeds/tencent-geek-4.json",
                "--board",
                tall.to_str().unwrap(),
            ],
            "above the board's 20 rows",
        ),
        (
            vec!["--seed", "seeds/tencent-geek-4.json", "--queue", "T"],
            "--queue: a Tencent game needs at least 2 pieces",
        ),
        (
            vec!["--board", gap.to_str().unwrap()],
            "row 2 from the top has 0 cells",
        ),
        (
            vec!["--seed", "seeds/standard.json", "--queue", "TIO"],
            "--queue TIO: the game standard is a standard one-piece game, which does not take --queue",
        ),
    ];
    let solve_only: Vec<(Vec<&str>, &str)> = vec![(
        vec!["--queue", "IJL", "--pieces", "5"],
        "--pieces 5: the queue makes a game of 2",
    )];
    let runs = cases
        .iter()
        .flat_map(|c| every.iter().map(move |&command| (command, c)))
        .chain(solve_only.iter().map(|c| ("solve", c)));
    for (i, (command, (game, expected))) in runs.enumerate() {
        {
            let out = dir.join(format!("{command}-{i}.json"));
            let mut args = vec![command];
            match command {
                "verify" | "show" => args.push("no-record.txt"),
                "tune" => args.extend(["--out", out.to_str().unwrap()]),
                _ => args.extend(["--out", out.to_str().unwrap()]),
            }
            args.extend(game.iter().copied());
            let run = beamtris(&args);
            let err = String::from_utf8(run.stderr).unwrap();
            assert_eq!(run.status.code(), Some(2), "{command} {game:?}: {err}");
            assert_eq!(err.lines().count(), 1, "{command} {game:?}: {err}");
            assert!(err.contains(expected), "{command} {game:?}: {err}");
            assert!(!out.exists(), "{command} {game:?} wrote {}", out.display());
            assert!(!out.with_extension("txt").exists());
        }
    }
}

/// A seed of `rules` with a queue and a starting position, as JSON.
fn seed_with_start(rules: &str, queue: &str, rows: &[String], hold: Option<char>) -> GameDef {
    let mut start = Vec::new();
    if !rows.is_empty() {
        start.push(format!(
            r#""board": {}"#,
            serde_json::to_string(rows).unwrap()
        ));
    }
    if let Some(h) = hold {
        start.push(format!(r#""hold": "{h}""#));
    }
    GameDef::parse(&format!(
        r#"{{"name": "p", "rules": "{rules}", "generator": {{"kind": "queue", "pieces": "{queue}"}},
            "start": {{{}}}}}"#,
        start.join(", ")
    ))
    .unwrap()
}

/// Rows of a legal board, top first: `height` rows, each with at least one hole.
fn board_rows() -> impl Strategy<Value = Vec<String>> {
    prop::collection::vec(
        (0u16..1023).prop_map(|bits| {
            (0..10)
                .map(|x| if bits >> x & 1 == 1 { 'X' } else { '.' })
                .collect::<String>()
        }),
        0..8,
    )
}

fn queue() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop::sample::select(vec!['I', 'J', 'L', 'O', 'S', 'T', 'Z']),
        2..14,
    )
    .prop_map(|v| v.into_iter().collect())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// Random legal boards and queues: the guideline search's claimed score is its record's
    /// replay from that board.
    #[test]
    fn guideline_solve_and_verify_agree(
        rows in board_rows(),
        queue in queue(),
        hold in prop::option::of(prop::sample::select(vec!['I', 'T', 'O'])),
    ) {
        let seed = seed_with_start("guideline", &queue, &rows, hold);
        let game = seed.guideline_game().unwrap();
        let weights = beamtris::eval::guideline::GuidelineWeights::resolve("attack").unwrap();
        let evaluator = beamtris::eval::guideline::GuidelineEvaluator::new(weights);
        let line = guideline::search(&game, game.length, 30, &evaluator, None, &AtomicBool::new(false), |_| {});
        let moves: &[Move] = &line.moves;
        let record = guideline::record(&game, moves);
        let reread = game.parse_record(&record.to_string()).unwrap();
        let outcome = guideline_replay::replay(&reread, &game);
        prop_assert_eq!(outcome.attack, line.score as u64);
        prop_assert_eq!(outcome.pieces, moves.len());
    }

    /// The same on the Tencent game from random boards.
    #[test]
    fn tencent_solve_and_verify_agree(rows in board_rows(), queue in queue()) {
        let seed = seed_with_start("tencent", &queue, &rows, None);
        let pieces = seed.pieces();
        let cfg = BeamConfig {
            beam: 30,
            moves: beamtris::games::tencent::movegen::MoveSet::Reach,
            evaluator: beamtris::eval::tencent::Evaluator::new(
                beamtris::eval::tencent::Weights::kept("tuned-b3000").unwrap(),
            ),
            start: seed.tencent_start(),
        };
        let result = tencent::search(&pieces, None, &cfg, &AtomicBool::new(false), |_| {});
        let outcome = tencent_replay::replay_from(&cfg.start, &result.record, &pieces, |_| {});
        prop_assert_eq!(outcome.score, result.score as u64);
    }
}

/// `--beam` left out: 5 000 on a Tencent game, 3 000 on a guideline game (as the results
/// file records it).
#[test]
fn the_default_width_depends_on_the_family() {
    let dir = temp_dir("default-width");
    for (name, game, beam) in [
        ("tencent", vec![], 4000),
        (
            "guideline",
            vec!["--seed", "seeds/tetrio-1742887628-attack.json"],
            3000,
        ),
    ] {
        let mut args = vec!["--pieces", "2"];
        args.extend_from_slice(&game);
        solve(&dir, name, &args);
        let report: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(dir.join(format!("{name}.json"))).unwrap(),
        )
        .unwrap();
        assert_eq!(report["beam"].as_u64(), Some(beam), "{name}");
    }
    std::fs::remove_dir_all(&dir).ok();
}
