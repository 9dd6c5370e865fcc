//! A small TBP front end for the tests: it runs `beamtris tbp` as a child process, talks to it
//! in JSON lines, and plays a game on its own simulator ([`sim`]), judging every suggestion
//! by its own rules.

pub mod sim;

use serde_json::{json, Value};
use sim::{Game, Op, Piece, Pos, Spin, ORIENTATIONS};
use std::collections::{HashMap, VecDeque};
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

/// How long the front end waits for a line before it calls the bot hung.
pub const PATIENCE: Duration = Duration::from_secs(60);

/// A running `beamtris tbp`.
pub struct Bot {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    stderr: Option<std::thread::JoinHandle<String>>,
}

impl Bot {
    /// Starts `beamtris tbp ARGS` and reads its `info`. `BEAMTRIS_BIN` names another
    /// binary (a release build, for timing).
    pub fn start(args: &[&str]) -> (Bot, Value) {
        let bin = std::env::var_os("BEAMTRIS_BIN")
            .unwrap_or_else(|| env!("CARGO_BIN_EXE_beamtris").into());
        let mut child = Command::new(bin)
            .arg("tbp")
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("beamtris starts");
        let stdout = child.stdout.take().expect("piped");
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { return };
                if tx.send(line).is_err() {
                    return;
                }
            }
        });
        let mut stderr = child.stderr.take().expect("piped");
        let stderr = std::thread::spawn(move || {
            let mut text = String::new();
            let _ = stderr.read_to_string(&mut text);
            text
        });
        let stdin = child.stdin.take();
        let mut bot = Bot {
            child,
            stdin,
            lines,
            stderr: Some(stderr),
        };
        let info = bot.receive();
        (bot, info)
    }

    /// Sends one line (a message, or anything else a test wants to send).
    pub fn send_line(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin is open");
        writeln!(stdin, "{line}").expect("the bot reads");
        stdin.flush().expect("the bot reads");
    }

    pub fn send(&mut self, msg: &Value) {
        self.send_line(&msg.to_string());
    }

    /// The next message, within [`PATIENCE`].
    pub fn receive(&mut self) -> Value {
        let line = self
            .lines
            .recv_timeout(PATIENCE)
            .expect("the bot answers in time");
        serde_json::from_str(&line).unwrap_or_else(|e| panic!("not JSON: {line:?}: {e}"))
    }

    /// A line that came within `wait`, if any.
    pub fn try_receive(&mut self, wait: Duration) -> Option<Value> {
        let line = self.lines.recv_timeout(wait).ok()?;
        Some(serde_json::from_str(&line).expect("JSON"))
    }

    /// Closes stdin (after an optional last line) and waits for the exit: its status, its
    /// stderr, and how long it took after the close.
    pub fn finish(mut self) -> (ExitStatus, String, Duration) {
        drop(self.stdin.take());
        let closed = Instant::now();
        let status = loop {
            if let Some(s) = self.child.try_wait().expect("wait") {
                break s;
            }
            if closed.elapsed() > PATIENCE {
                let _ = self.child.kill();
                panic!("the bot did not exit");
            }
            std::thread::sleep(Duration::from_millis(5));
        };
        let took = closed.elapsed();
        let stderr = self.stderr.take().expect("once").join().expect("stderr");
        (status, stderr, took)
    }
}

impl Drop for Bot {
    fn drop(&mut self) {
        // A test that failed half way leaves no process behind.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// An empty TBP board.
pub fn empty_board() -> Value {
    sim::Field::default().tbp_board()
}

/// The `start` of a game on an empty field.
pub fn start_message(queue: &[Piece], hold: Option<Piece>) -> Value {
    json!({
        "type": "start",
        "board": empty_board(),
        "queue": queue.iter().map(|p| p.letter()).collect::<Vec<_>>(),
        "hold": hold.map(|p| p.letter()),
        "combo": 0,
        "back_to_back": false,
    })
}

/// A suggested move as the front end reads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Suggested {
    pub at: Pos,
    pub spin: Spin,
}

/// Reads a TBP move; panics on anything the spec does not allow.
pub fn read_move(m: &Value) -> Suggested {
    let loc = &m["location"];
    let letter = loc["type"].as_str().expect("type");
    let piece = Piece::from_letter(letter.chars().next().expect("a letter"));
    let orientation = loc["orientation"].as_str().expect("orientation");
    let rot = ORIENTATIONS
        .iter()
        .position(|&o| o == orientation)
        .unwrap_or_else(|| panic!("orientation {orientation}")) as u8;
    let spin = match m["spin"].as_str().expect("spin") {
        "none" => Spin::None,
        "mini" => Spin::Mini,
        "full" => Spin::Full,
        s => panic!("spin {s}"),
    };
    Suggested {
        at: Pos {
            piece,
            rot,
            x: loc["x"].as_i64().expect("x") as i32,
            y: loc["y"].as_i64().expect("y") as i32,
        },
        spin,
    }
}

/// The TBP form of a move.
pub fn move_json(s: &Suggested) -> Value {
    json!({
        "location": {
            "type": s.at.piece.letter(),
            "orientation": ORIENTATIONS[s.at.rot as usize],
            "x": s.at.x,
            "y": s.at.y,
        },
        "spin": s.spin.name(),
    })
}

/// What a game through the front end made.
pub struct Played {
    pub record: String,
    /// The game as the front end scored it.
    pub game: Game,
    pub pieces: usize,
    pub holds: u64,
    /// Suggestions checked, all of whose moves were reachable.
    pub moves_checked: usize,
    /// Wall time of each `suggest` until its `suggestion`, seconds.
    pub times: Vec<f64>,
    /// The bot's own figures of each decision (`move_info`): wall and CPU time, ms.
    pub bot_wall_ms: Vec<f64>,
    pub bot_cpu_ms: Vec<f64>,
}

/// Plays `pieces` locks of `sequence` (at least `pieces + 7` long) with the bot: `rules`,
/// `start` with the first six pieces, then per lock `suggest`, every suggested move checked
/// reachable by the front end's own search, the first one played, `play` and `new_piece`
/// to keep five previews. Panics on any move the front end's rules refuse.
pub fn play_game(bot: &mut Bot, sequence: &[Piece], pieces: usize, srs_plus: bool) -> Played {
    bot.send(&json!({"type": "rules", "randomizer": "seven_bag"}));
    assert_eq!(bot.receive()["type"], "ready");
    let mut queue: VecDeque<Piece> = sequence[..6].iter().copied().collect();
    let mut dealt = 6;
    let mut hold: Option<Piece> = None;
    bot.send(&start_message(&sequence[..6], None));
    let mut game = Game::default();
    let mut tokens: Vec<String> = Vec::new();
    let mut played = Played {
        record: String::new(),
        game: Game::default(),
        pieces: 0,
        holds: 0,
        moves_checked: 0,
        times: Vec::new(),
        bot_wall_ms: Vec::new(),
        bot_cpu_ms: Vec::new(),
    };
    for lock in 0..pieces {
        let asked = Instant::now();
        bot.send(&json!({"type": "suggest"}));
        let answer = bot.receive();
        played.times.push(asked.elapsed().as_secs_f64());
        assert_eq!(answer["type"], "suggestion", "{answer}");
        let info = &answer["move_info"];
        played.bot_wall_ms.extend(info["wall_ms"].as_f64());
        played.bot_cpu_ms.extend(info["cpu_ms"].as_f64());
        let moves: Vec<Suggested> = answer["moves"]
            .as_array()
            .expect("moves")
            .iter()
            .map(read_move)
            .collect();
        assert!(!moves.is_empty(), "lock {lock}: the bot forfeits: {answer}");
        let current = queue[0];
        // The piece each move plays says whether it holds (the TBP rule).
        let offer = |piece: Piece| -> Option<bool> {
            if piece == current {
                Some(false)
            } else if hold == Some(piece) || (hold.is_none() && queue.get(1) == Some(&piece)) {
                Some(true)
            } else {
                None
            }
        };
        let mut found = Vec::new();
        let mut reach: HashMap<Piece, sim::Reach> = HashMap::new();
        for m in &moves {
            let holds = offer(m.at.piece)
                .unwrap_or_else(|| panic!("lock {lock}: {m:?} plays neither {current:?} nor hold"));
            let reach = reach
                .entry(m.at.piece)
                .or_insert_with(|| sim::reachable(&game.field, m.at.piece, srs_plus));
            let path = reach.get(&(m.at, m.spin)).unwrap_or_else(|| {
                panic!("lock {lock}: {m:?} is not reachable on\n{:?}", game.field)
            });
            found.push((holds, path.clone()));
        }
        played.moves_checked += 1;
        let (holds, path): (bool, Vec<Op>) = found.swap_remove(0);
        let chosen = moves[0];
        game.lock(&chosen.at, chosen.spin)
            .unwrap_or_else(|| panic!("lock {lock}: {chosen:?} locks out"));
        tokens.extend(sim::record_tokens(holds, &path));
        let used = if holds && hold.is_none() { 2 } else { 1 };
        if holds {
            hold = Some(current);
            played.holds += 1;
        }
        queue.drain(..used);
        bot.send(&json!({"type": "play", "move": move_json(&chosen)}));
        for _ in 0..used {
            let next = sequence[dealt];
            dealt += 1;
            queue.push_back(next);
            bot.send(&json!({"type": "new_piece", "piece": next.letter()}));
        }
        played.pieces += 1;
    }
    bot.send(&json!({"type": "stop"}));
    played.record = tokens.join(",");
    played.game = game;
    played
}
