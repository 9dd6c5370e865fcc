//! The players of a match: a command that speaks the Tetris Bot Protocol (run with `sh -c`,
//! its stdin and stdout the protocol, its stderr discarded), or beamtris's own online player
//! in-process (`builtin`: the TBP bot's decision with a fixed search, no clock, so the same
//! position always gets the same move). The arena is the protocol's front end.

use crate::piece::Shape;
use crate::protocols::tbp::{self, Position, StartMessage, TbpMove};
use crate::search::online::Incoming;
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::AtomicBool;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::Duration;

/// The time a bot has to introduce itself (`info`) and to say `ready`: a bot may load
/// weights or tables at launch.
pub const LAUNCH: Duration = Duration::from_secs(30);

/// What a bot did wrong: it loses the game, and is started again for the next.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// It could not be started, or it exited, or closed its output.
    Crashed(String),
    /// No answer in time.
    Late(String),
    /// An answer that is not the protocol's.
    Malformed(String),
    /// Moves none of which can be played (the first move's reason).
    Illegal(String),
    /// A suggestion with no move: the protocol's forfeit (with the bot's reason, when it
    /// gives one).
    Forfeit(String),
}

impl Fault {
    /// The reason's kind, as `summary.json` writes it.
    pub fn kind(&self) -> &'static str {
        match self {
            Fault::Crashed(_) => "crashed",
            Fault::Late(_) => "late",
            Fault::Malformed(_) => "malformed",
            Fault::Illegal(_) => "illegal",
            Fault::Forfeit(_) => "forfeit",
        }
    }
}

impl std::fmt::Display for Fault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Fault::Crashed(m) => write!(f, "crashed: {m}"),
            Fault::Late(m) => write!(f, "late: {m}"),
            Fault::Malformed(m) => write!(f, "malformed answer: {m}"),
            Fault::Illegal(m) => write!(f, "{m}"),
            Fault::Forfeit(why) if why.is_empty() => {
                write!(f, "forfeit (a suggestion with no move)")
            }
            Fault::Forfeit(why) => write!(f, "forfeit (a suggestion with no move: {why})"),
        }
    }
}

/// How a bot's think time is measured.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Clock {
    /// Wall time: the arena waits the think time, whatever else the machine does.
    Wall,
    /// The bot's own CPU time (Linux, `/proc`): the arena waits until the bot's process has
    /// run for the think time, or has gone idle (a bot that thinks only after `suggest`, or
    /// has finished), as if it had a core of its own on a busy machine.
    Cpu,
}

/// The CPU time of process `pid` so far, in seconds (user and system, all its threads), from
/// `/proc/PID/stat`; `None` where there is no such file.
fn cpu_seconds(pid: u32) -> Option<f64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The fields after the command's name, which is in parentheses and may hold spaces.
    let rest = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks: f64 = fields.get(11)?.parse::<f64>().ok()? + fields.get(12)?.parse::<f64>().ok()?;
    Some(ticks / clock_ticks())
}

/// Clock ticks a second of `/proc`'s times (`getconf CLK_TCK`; 100 on Linux).
fn clock_ticks() -> f64 {
    100.0
}

/// The most wall time a CPU-clock wait may take (a bot starved for that long thinks no more).
const CPU_WAIT_CAP: Duration = Duration::from_secs(30);

/// Whether any thread of process `pid` is running or waiting for a core (state `R` in
/// `/proc/PID/task/*/stat`): a bot starved by a busy machine is not idle.
fn runnable(pid: u32) -> bool {
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return false;
    };
    tasks.flatten().any(|t| {
        std::fs::read_to_string(t.path().join("stat")).is_ok_and(|stat| {
            stat.rfind(')')
                .and_then(|i| stat[i + 1..].split_whitespace().next())
                .is_some_and(|state| state == "R")
        })
    })
}

/// Waits until the process `pid` has had `think` of CPU time, or none of its threads wants
/// a core twice in a row (it is idle: it thinks only after `suggest`, or has finished); see
/// [`Clock::Cpu`].
fn wait_cpu(pid: u32, think: Duration) {
    let start = std::time::Instant::now();
    let Some(first) = cpu_seconds(pid) else {
        std::thread::sleep(think);
        return;
    };
    let mut idle = 0;
    loop {
        std::thread::sleep(Duration::from_millis(5));
        let Some(now) = cpu_seconds(pid) else { return };
        if now - first >= think.as_secs_f64() || start.elapsed() >= CPU_WAIT_CAP {
            return;
        }
        idle = if runnable(pid) { 0 } else { idle + 1 };
        if idle >= 2 {
            return;
        }
    }
}

/// A running bot process: its input, its output lines as a reader thread delivers them
/// (`None`: the output ended), and the process.
struct Running {
    child: Child,
    input: ChildStdin,
    lines: Receiver<Option<String>>,
}

impl Drop for Running {
    fn drop(&mut self) {
        let _ = writeln!(self.input, "{}", json!({"type": "quit"}));
        let _ = self.input.flush();
        // A bot that does not leave at `quit` is ended: the arena started it.
        std::thread::sleep(Duration::from_millis(20));
        if matches!(self.child.try_wait(), Ok(None)) {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

/// A TBP bot run as a command.
pub struct ProcessBot {
    command: String,
    running: Option<Running>,
    /// The bot's `info`: name and version, once it has been started.
    pub name: String,
    pub version: String,
    /// Wall time the bot is given to think before `suggest`, and the time its answer may
    /// take after it.
    think: Duration,
    grace: Duration,
    clock: Clock,
}

/// The longest line read from a bot: far past any suggestion.
const MAX_LINE: u64 = tbp::MAX_LINE as u64;

fn spawn_reader(out: impl Read + Send + 'static) -> Receiver<Option<String>> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut out = BufReader::new(out);
        loop {
            let mut line = Vec::new();
            match (&mut out).take(MAX_LINE).read_until(b'\n', &mut line) {
                Ok(0) | Err(_) => {
                    let _ = tx.send(None);
                    return;
                }
                Ok(_) => {
                    let text = String::from_utf8_lossy(&line).trim().to_string();
                    if tx.send(Some(text)).is_err() {
                        return;
                    }
                }
            }
        }
    });
    rx
}

impl ProcessBot {
    pub fn new(command: &str, think: Duration, grace: Duration, clock: Clock) -> ProcessBot {
        ProcessBot {
            command: command.to_string(),
            running: None,
            name: String::new(),
            version: String::new(),
            think,
            grace,
            clock,
        }
    }

    /// Gives the bot its think time by the match's clock.
    fn think(&self) {
        match (self.clock, self.running.as_ref()) {
            (Clock::Cpu, Some(r)) => wait_cpu(r.child.id(), self.think),
            _ => std::thread::sleep(self.think),
        }
    }

    fn exit_note(&mut self) -> String {
        let Some(r) = self.running.as_mut() else {
            return "not running".into();
        };
        std::thread::sleep(Duration::from_millis(20));
        match r.child.try_wait() {
            Ok(Some(status)) => format!("it exited ({status})"),
            _ => "it closed its output".into(),
        }
    }

    /// The next message of the bot within `wait` (lines that are not JSON objects with a
    /// `type` are malformed; messages of other types than those in `want` are skipped, as
    /// the protocol asks of unknown ones).
    fn receive(&mut self, want: &[&str], wait: Duration) -> Result<Value, Fault> {
        let deadline = std::time::Instant::now() + wait;
        loop {
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            let r = self.running.as_mut().expect("a running bot");
            let line = match r.lines.recv_timeout(left) {
                Ok(Some(line)) => line,
                Ok(None) | Err(RecvTimeoutError::Disconnected) => {
                    let note = self.exit_note();
                    self.running = None;
                    return Err(Fault::Crashed(format!(
                        "waiting for {}: {note}",
                        want.join(" or ")
                    )));
                }
                Err(RecvTimeoutError::Timeout) => {
                    self.running = None;
                    return Err(Fault::Late(format!(
                        "no {} within {} ms",
                        want.join(" or "),
                        wait.as_millis()
                    )));
                }
            };
            if line.is_empty() {
                continue;
            }
            let v: Value = serde_json::from_str(&line).map_err(|_| {
                Fault::Malformed(format!(
                    "{:?} is not a JSON message",
                    crate::error::printable(&line.chars().take(60).collect::<String>())
                ))
            })?;
            let Some(kind) = v.get("type").and_then(Value::as_str) else {
                return Err(Fault::Malformed("a message without a \"type\"".into()));
            };
            if want.contains(&kind) {
                return Ok(v);
            }
        }
    }

    fn send(&mut self, msg: &Value) -> Result<(), Fault> {
        let r = self.running.as_mut().expect("a running bot");
        let ok = writeln!(r.input, "{msg}").and_then(|_| r.input.flush());
        if ok.is_err() {
            let note = self.exit_note();
            self.running = None;
            return Err(Fault::Crashed(note));
        }
        Ok(())
    }

    /// Starts the bot when it is not running: `info`, `rules` (the 7-bag), `ready`.
    fn launch(&mut self) -> Result<(), Fault> {
        if self.running.is_some() {
            return Ok(());
        }
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(format!("exec {}", self.command))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| Fault::Crashed(format!("cannot start `{}`: {e}", self.command)))?;
        let input = child.stdin.take().expect("piped");
        let lines = spawn_reader(child.stdout.take().expect("piped"));
        self.running = Some(Running {
            child,
            input,
            lines,
        });
        let info = self.receive(&["info"], LAUNCH)?;
        let text = |k: &str| {
            info.get(k)
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_string()
        };
        self.name = text("name");
        self.version = text("version");
        self.send(&json!({"type": "rules", "randomizer": "seven_bag"}))?;
        self.receive(&["ready"], LAUNCH)?;
        Ok(())
    }

    /// Ends the bot (after a fault: it is started again for the next game).
    pub fn end(&mut self) {
        self.running = None;
    }
}

/// beamtris's online player in-process.
pub struct BuiltinBot {
    config: tbp::Config,
    position: Option<Position>,
}

impl BuiltinBot {
    pub fn new(config: tbp::Config) -> BuiltinBot {
        BuiltinBot {
            config,
            position: None,
        }
    }
}

/// A player of the match.
pub enum Player {
    Builtin(Box<BuiltinBot>),
    Process(ProcessBot),
}

/// A position to start from, as TBP's `start` says it.
pub struct Start {
    /// Rows from the bottom, each cell `None` or a letter (`G` for garbage).
    pub board: Vec<Vec<Option<String>>>,
    pub queue: Vec<Shape>,
    pub hold: Option<Shape>,
    pub combo: u32,
    pub back_to_back: bool,
    /// The pieces left in the 7-bag after the queue.
    pub bag_state: Vec<Shape>,
}

impl Player {
    /// The name and version the player gives (`info`; the builtin's are beamtris's).
    pub fn identity(&self) -> (String, String) {
        match self {
            Player::Builtin(_) => ("beamtris builtin".into(), env!("CARGO_PKG_VERSION").into()),
            Player::Process(p) => (p.name.clone(), p.version.clone()),
        }
    }

    /// Makes sure the bot runs (started again after a fault).
    pub fn launch(&mut self) -> Result<(), Fault> {
        match self {
            Player::Builtin(_) => Ok(()),
            Player::Process(p) => p.launch(),
        }
    }

    /// A new position (`stop` first when the bot was playing one).
    pub fn start(&mut self, s: &Start) -> Result<(), Fault> {
        match self {
            Player::Builtin(b) => {
                let msg = StartMessage {
                    board: s.board.clone(),
                    queue: s.queue.clone(),
                    hold: s.hold,
                    combo: s.combo,
                    back_to_back: s.back_to_back,
                    randomizer: Some(bag_json(&s.bag_state)),
                };
                b.position = Some(Position::from_start(&msg, true));
                Ok(())
            }
            Player::Process(p) => {
                p.launch()?;
                p.send(&json!({"type": "stop"}))?;
                p.send(&json!({
                    "type": "start",
                    "board": s.board,
                    "queue": s.queue,
                    "hold": s.hold,
                    "combo": s.combo,
                    "back_to_back": s.back_to_back,
                    "randomizer": bag_json(&s.bag_state),
                }))
            }
        }
    }

    /// The move the arena played, then the pieces that came into view.
    pub fn play(&mut self, mv: &TbpMove) -> Result<(), Fault> {
        match self {
            Player::Builtin(b) => {
                if let Some(p) = b.position.as_mut() {
                    // The arena plays the move on TETR.IO's engine; a difference of the
                    // builtin's own bookkeeping shows at the next `start`.
                    let _ = p.play(mv, &b.config.rules);
                }
                Ok(())
            }
            Player::Process(p) => p.send(&json!({"type": "play", "move": mv})),
        }
    }

    /// The garbage waiting for the player (TETR.IO's meter). The builtin searches with it; TBP
    /// has no message for it, so a process bot is not told.
    pub fn meter(&mut self, incoming: Incoming) {
        if let Player::Builtin(b) = self {
            if let Some(p) = b.position.as_mut() {
                p.incoming = incoming;
            }
        }
    }

    pub fn new_piece(&mut self, piece: Shape) -> Result<(), Fault> {
        match self {
            Player::Builtin(b) => {
                if let Some(p) = b.position.as_mut() {
                    p.new_piece(piece);
                }
                Ok(())
            }
            Player::Process(p) => p.send(&json!({"type": "new_piece", "piece": piece})),
        }
    }

    /// The bot's moves, best first: a process bot is given its think time, then asked, and
    /// must answer within the grace; the builtin searches its fixed amount.
    pub fn suggest(&mut self) -> Result<Vec<TbpMove>, Fault> {
        match self {
            Player::Builtin(b) => {
                let pos = b.position.as_ref().expect("a position was started");
                let s = tbp::suggest(pos, &b.config, &AtomicBool::new(false));
                match s.empty_because {
                    Some(why) if s.moves.is_empty() => Err(Fault::Forfeit(why)),
                    _ => Ok(s.moves),
                }
            }
            Player::Process(p) => {
                p.think();
                p.send(&json!({"type": "suggest"}))?;
                let grace = p.grace;
                let v = p.receive(&["suggestion"], grace)?;
                let moves = v
                    .get("moves")
                    .cloned()
                    .ok_or_else(|| Fault::Malformed("a suggestion without \"moves\"".into()))?;
                serde_json::from_value::<Vec<TbpMove>>(moves).map_err(|e| {
                    Fault::Malformed(format!("a suggestion's moves are not TBP moves: {e}"))
                })
            }
        }
    }

    /// After a fault: the bot is ended and started again for the next game.
    pub fn reset(&mut self) {
        match self {
            Player::Builtin(b) => b.position = None,
            Player::Process(p) => p.end(),
        }
    }
}

fn bag_json(bag: &[Shape]) -> Value {
    json!({"type": "seven_bag", "bag_state": bag})
}
