//! `beamtris tbp` driven by a small front end written from the TBP spec and
//! docs/guideline.md (tests/tbp_frontend): whole games on TETR.IO seeds whose records
//! `beamtris verify` must score as the front end counted, and the ways a front end can go
//! wrong (bad lines, `suggest` before `start`, a board beamtris cannot hold, `quit` while
//! it thinks) answered without a panic.

mod tbp_frontend;

use serde_json::{json, Value};
use std::path::Path;
use std::process::Command;
use std::time::Duration;
use tbp_frontend::sim::Piece;
use tbp_frontend::{play_game, start_message, Bot};

/// The first `n` pieces of a seed file's game: the library only deals the sequence.
fn sequence(seed: &str, n: usize) -> Vec<Piece> {
    let seed = beamtris::game_def::GameDef::load(Path::new(seed)).expect("the seed file loads");
    seed.shapes(n)
        .into_iter()
        .map(|s| Piece::from_letter(s.letter()))
        .collect()
}

/// `beamtris verify` of `record` on `seed`, as JSON.
fn verify(record: &str, seed: &str, name: &str) -> Value {
    let path = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("tbp-{name}.txt"));
    std::fs::write(&path, format!("{record}\n")).expect("write the record");
    let out = Command::new(env!("CARGO_BIN_EXE_beamtris"))
        .arg("verify")
        .arg(&path)
        .args(["--seed", seed])
        .output()
        .expect("verify runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("verify prints JSON")
}

/// Plays `pieces` locks of `seed` through the front end with `beamtris tbp ARGS`; checks
/// that verify scores the record as the front end counted, and that the bot exits cleanly.
fn game_through_the_front_end(
    seed: &str,
    pieces: usize,
    srs_plus: bool,
    args: &[&str],
) -> tbp_frontend::Played {
    let seq = sequence(seed, pieces + 8);
    let (mut bot, info) = Bot::start(args);
    assert_eq!(info["type"], "info");
    assert_eq!(info["name"], "beamtris");
    assert_eq!(info["version"], env!("CARGO_PKG_VERSION"));
    let played = play_game(&mut bot, &seq, pieces, srs_plus);
    bot.send(&json!({"type": "quit"}));
    let (status, stderr, _) = bot.finish();
    assert!(status.success(), "exit {status}: {stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(played.pieces, pieces);
    assert_eq!(played.moves_checked, pieces);
    let name = Path::new(seed).file_stem().unwrap().to_string_lossy();
    let v = verify(&played.record, seed, &format!("{name}-{pieces}"));
    let g = &played.game;
    assert_eq!(v["pieces"], pieces, "{v}");
    // The record ends before the game (record_end) or with it (pieces_done), never lost.
    let end = v["end_reason"].as_str().unwrap_or_default();
    assert!(["record_end", "pieces_done"].contains(&end), "{v}");
    assert_eq!(v["attack"], g.attack, "{v}");
    assert_eq!(v["lines"], g.lines, "{v}");
    assert_eq!(v["tspins"], g.tspins, "{v}");
    assert_eq!(v["tspins_full"], g.tspins_full, "{v}");
    assert_eq!(v["perfect_clears"], g.perfect_clears, "{v}");
    assert_eq!(v["holds"], played.holds, "{v}");
    let ms: Vec<f64> = played.times.iter().map(|t| t * 1000.0).collect();
    eprintln!(
        "{name}: {pieces} pieces, {} attack ({:.3} a piece), {} lines, {} T-spins ({} full), \
         {} perfect clears, {} holds; suggest to suggestion (wall): {}",
        g.attack,
        g.attack as f64 / pieces as f64,
        g.lines,
        g.tspins,
        g.tspins_full,
        g.perfect_clears,
        played.holds,
        summary(&ms),
    );
    // A game worth checking: the bot sent attack, spun T pieces and held.
    if pieces >= 500 {
        assert!(g.attack as f64 / pieces as f64 > 0.4, "{v}");
        assert!(g.tspins > 0 && played.holds > 0, "{v}");
    }
    played
}

/// Mean, median, 99th percentile and max of `ms`.
fn summary(ms: &[f64]) -> String {
    let mut v = ms.to_vec();
    v.sort_by(f64::total_cmp);
    let at = |q: f64| v[((v.len() - 1) as f64 * q).round() as usize];
    format!(
        "mean {:.1} ms, median {:.1} ms, p99 {:.1} ms, max {:.1} ms",
        v.iter().sum::<f64>() / v.len() as f64,
        at(0.5),
        at(0.99),
        at(1.0)
    )
}

/// The figures of docs/tbp.md: games at the default settings (beam 1 000, 400 ms think
/// time, 5 previews, one thread), each decision's time as the front end saw it and as the
/// bot measured it. Not run by default (a few minutes in a debug build); for the figures of
/// the release binary:
///
/// ```sh
/// cargo build --release
/// BEAMTRIS_BIN=target/release/beamtris cargo test --test tbp -- --ignored --nocapture
/// ```
#[test]
#[ignore]
fn decision_time_at_the_default_settings() {
    for (seed, srs_plus, args) in [
        ("seeds/tetrio-1742887628-attack.json", true, &[][..]),
        (
            "seeds/cc2/tetrio-1-srs-attack.json",
            false,
            &["--rotation", "srs"],
        ),
    ] {
        let p = game_through_the_front_end(seed, 500, srs_plus, args);
        eprintln!(
            "  the bot's own figures: wall {}; CPU {}",
            summary(&p.bot_wall_ms),
            summary(&p.bot_cpu_ms)
        );
        let over = p.bot_wall_ms.iter().filter(|&&t| t > 500.0).count();
        eprintln!(
            "  decisions over 500 ms of wall time: {over} of {}",
            p.pieces
        );
    }
}

#[test]
fn sixty_pieces_at_the_default_settings_score_what_the_front_end_counted() {
    game_through_the_front_end("seeds/tetrio-1742887628-attack.json", 60, true, &[]);
}

#[test]
fn five_hundred_pieces_under_srs_plus_score_what_the_front_end_counted() {
    game_through_the_front_end(
        "seeds/tetrio-1742887628-attack.json",
        500,
        true,
        &["--beam", "100", "--samples", "2", "--lookahead", "4"],
    );
}

#[test]
fn five_hundred_pieces_under_srs_score_what_the_front_end_counted() {
    game_through_the_front_end(
        "seeds/cc2/tetrio-1-srs-attack.json",
        500,
        false,
        &[
            "--beam",
            "50",
            "--samples",
            "2",
            "--lookahead",
            "4",
            "--rotation",
            "srs",
        ],
    );
}

/// TETR.IO's rules as played today through the front end: the record the bot's moves make
/// is scored by `verify` on the built-in TETR.IO game (its chain bonus), and TETR.IO's own
/// engine counts the same attack. (The test front end counts the guideline table, so its
/// own attack is not compared.)
#[test]
fn tetrio_chaining_games_play_through_the_front_end() {
    let seed = "seeds/tetrio-versus.json";
    let seq = sequence(seed, 68);
    let (mut bot, _) = Bot::start(&[
        "--combo-table",
        "tetrio-chaining",
        "--beam",
        "100",
        "--samples",
        "2",
        "--lookahead",
        "4",
    ]);
    let played = play_game(&mut bot, &seq, 60, true);
    bot.send(&json!({"type": "quit"}));
    let (status, stderr, _) = bot.finish();
    assert!(status.success(), "exit {status}: {stderr}");
    let v = verify(&played.record, seed, "tetrio-versus-60");
    assert_eq!(v["pieces"], 60, "{v}");
    assert_eq!(v["valid"], true, "{v}");
    assert!(v["attack"].as_u64().unwrap() > 0, "{v}");
    assert_eq!(v["tetrio_stats"]["garbage"]["attack"], v["attack"], "{v}");
}

/// Sends `line`; the next message must come only after `probe` (the bot ignored `line`).
fn ignored(bot: &mut Bot, line: &str) {
    bot.send_line(line);
    bot.send(&json!({"type": "rules"}));
    assert_eq!(bot.receive(), json!({"type": "ready"}), "after {line}");
}

#[test]
fn bad_lines_and_unknown_messages_are_passed_over() {
    let (mut bot, _) = Bot::start(&["--beam", "20"]);
    ignored(&mut bot, "this is not json");
    ignored(&mut bot, "{\"type\": \"start\", \"board\": 3}");
    ignored(&mut bot, "[1, 2, 3]");
    ignored(&mut bot, "{\"type\": \"new_piece\", \"piece\": \"X\"}");
    ignored(
        &mut bot,
        "{\"type\": \"frobnicate\", \"how\": {\"much\": 9}}",
    );
    ignored(&mut bot, "");
    // `suggest` before `start`: a suggestion with no moves (a forfeit), and a note.
    bot.send(&json!({"type": "suggest"}));
    let answer = bot.receive();
    assert_eq!(answer["type"], "suggestion");
    assert_eq!(answer["moves"], json!([]));
    // `play` and `new_piece` before `start` change nothing; a game then starts normally.
    bot.send(&json!({"type": "new_piece", "piece": "T"}));
    bot.send(&start_message(&[Piece::T, Piece::I, Piece::O], None));
    bot.send(&json!({"type": "suggest"}));
    let answer = bot.receive();
    assert!(!answer["moves"].as_array().unwrap().is_empty(), "{answer}");
    bot.send(&json!({"type": "quit"}));
    let (status, stderr, _) = bot.finish();
    assert!(status.success(), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    // One line a complaint: the bad lines (5; the blank one and the unknown type are
    // silent) and the early suggest and new_piece.
    let notes: Vec<&str> = stderr.lines().collect();
    assert_eq!(notes.len(), 6, "{stderr}");
    assert!(notes.iter().all(|l| l.starts_with("beamtris tbp: line ")));
    assert!(notes[0].contains("not JSON"), "{stderr}");
    assert!(notes[4].contains("suggest before start"), "{stderr}");
}

#[test]
fn a_start_whose_bag_cannot_be_read_is_played_with_one_note() {
    let (mut bot, _) = Bot::start(&["--beam", "20"]);
    bot.send(&json!({"type": "rules", "randomizer": "seven_bag"}));
    assert_eq!(bot.receive()["type"], "ready");
    let queue = [Piece::T, Piece::I, Piece::O];
    let mut starts = Vec::new();
    // Six Ts no 7-bag deals; then randomizer objects the extension does not allow.
    starts.push(start_message(&[Piece::T; 6], None));
    for randomizer in [
        json!(5),
        json!({"type": "seven_bag", "bag_state": ["Q"]}),
        json!({"type": "seven_bag", "bag_state": ["T"]}),
    ] {
        let mut start = start_message(&queue, None);
        start["randomizer"] = randomizer;
        starts.push(start);
    }
    // A good one says nothing.
    let mut good = start_message(&queue, None);
    good["randomizer"] = json!({"type": "seven_bag", "bag_state": ["S", "Z"]});
    starts.push(good);
    for start in &starts {
        bot.send(start);
        bot.send(&json!({"type": "suggest"}));
        let answer = bot.receive();
        assert!(!answer["moves"].as_array().unwrap().is_empty(), "{answer}");
    }
    bot.send(&json!({"type": "quit"}));
    let (status, stderr, _) = bot.finish();
    assert!(status.success(), "{stderr}");
    let notes: Vec<&str> = stderr.lines().collect();
    assert_eq!(notes.len(), 4, "{stderr}");
    for (note, (line, says)) in notes.iter().zip([
        (
            2,
            "start: the queue fits no 7-bag; reading the queue alone from now on",
        ),
        (
            4,
            "start: randomizer 5 is not an object with a \"type\" string",
        ),
        (6, "start: randomizer.bag_state: \"Q\" is not a piece"),
        (8, "start: the queue and randomizer.bag_state fit no 7-bag"),
    ]) {
        assert!(
            note.starts_with(&format!("beamtris tbp: line {line}: {says}")),
            "{stderr}"
        );
    }
}

#[test]
fn a_board_beamtris_cannot_hold_gets_no_moves() {
    let (mut bot, _) = Bot::start(&["--beam", "20"]);
    let mut start = start_message(&[Piece::T, Piece::I, Piece::O], None);
    start["board"][30][2] = json!("G");
    bot.send(&start);
    bot.send(&json!({"type": "suggest"}));
    let answer = bot.receive();
    assert_eq!(answer["moves"], json!([]), "{answer}");
    // A row of nine cells is as unplayable.
    let mut start = start_message(&[Piece::T, Piece::I], None);
    start["board"][0] = json!([null, null, null, null, null, null, null, null, null]);
    bot.send(&start);
    bot.send(&json!({"type": "suggest"}));
    assert_eq!(bot.receive()["moves"], json!([]));
    // A play on a filled cell loses track of the game: no moves until the next start.
    bot.send(&start_message(&[Piece::O, Piece::O, Piece::T], None));
    let o_at = |x: i32| {
        json!({"type": "play", "move": {"location": {"type": "O", "orientation": "north",
            "x": x, "y": 0}, "spin": "none"}})
    };
    bot.send(&o_at(0));
    bot.send(&o_at(0));
    bot.send(&json!({"type": "suggest"}));
    assert_eq!(bot.receive()["moves"], json!([]));
    bot.send(&start_message(&[Piece::T, Piece::I], None));
    bot.send(&json!({"type": "suggest"}));
    assert!(!bot.receive()["moves"].as_array().unwrap().is_empty());
    let (status, stderr, _) = bot.finish();
    assert!(status.success(), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(stderr.contains("(2, 30)"), "{stderr}");
    assert!(stderr.contains("overlaps"), "{stderr}");
}

#[test]
fn quit_while_thinking_ends_the_search() {
    // A search that would take minutes: a wide beam, a long think.
    let (mut bot, _) = Bot::start(&["--beam", "40000", "--think-ms", "600000"]);
    bot.send(&json!({"type": "rules", "randomizer": "seven_bag"}));
    assert_eq!(bot.receive()["type"], "ready");
    bot.send(&start_message(
        &[Piece::T, Piece::I, Piece::O, Piece::S, Piece::Z, Piece::J],
        None,
    ));
    bot.send(&json!({"type": "suggest"}));
    std::thread::sleep(Duration::from_millis(50));
    bot.send(&json!({"type": "quit"}));
    // The cut search still answers (front ends pair each suggest with a suggestion).
    let answer = bot
        .try_receive(Duration::from_secs(20))
        .expect("an answer soon after quit");
    assert_eq!(answer["type"], "suggestion");
    let (status, stderr, took) = bot.finish();
    assert!(status.success(), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(took < Duration::from_secs(20), "{took:?}");
}

#[test]
fn the_think_time_cuts_a_wide_search() {
    let (mut bot, _) = Bot::start(&["--beam", "40000", "--think-ms", "100"]);
    bot.send(&start_message(
        &[Piece::T, Piece::I, Piece::O, Piece::S, Piece::Z, Piece::J],
        None,
    ));
    let asked = std::time::Instant::now();
    bot.send(&json!({"type": "suggest"}));
    let answer = bot.receive();
    assert!(!answer["moves"].as_array().unwrap().is_empty());
    // Cut at the first piece after 100 ms; one step of this beam takes well under a minute
    // even in a debug build on a busy machine.
    assert!(asked.elapsed() < Duration::from_secs(60));
    let extra = answer["move_info"]["extra"].as_str().unwrap();
    assert!(extra.contains("stopped early"), "{extra}");
    bot.send(&json!({"type": "quit"}));
    let (status, _, _) = bot.finish();
    assert!(status.success());
}

#[test]
fn flags_it_cannot_use_are_one_line_and_exit_2() {
    for args in [
        &["--beam", "0"][..],
        &["--think-ms", "0"],
        &["--weights", "no-such-weights"],
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_beamtris"))
            .arg("tbp")
            .args(args)
            .output()
            .expect("runs");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(out.stdout.is_empty());
    }
}
