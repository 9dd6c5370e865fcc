//! The conversation with a front end: a reader thread that parses the input while the bot
//! thinks, the messages in order, and thinking ahead.
//!
//! **Thinking ahead.** The decision in a position is the same whenever it is made, so the bot
//! need not wait for `suggest` to start on it: once a `start`, `play` or `new_piece` has
//! changed the position and no further message is waiting, it starts the search on its own
//! thread. A `suggest` for that position then waits only for what is left of it (and the
//! think time counts from the `suggest`, as always); any other message cancels it and the
//! bot thinks again when the front end falls silent. The moves are the same as without it
//! (`--no-ponder`); only the wait is shorter.

use super::*;
use std::sync::mpsc::TryRecvError;
use std::sync::Mutex;
use std::thread::{Scope, ScopedJoinHandle};

/// What the reader thread hands the conversation.
enum Incoming {
    Message(usize, FrontendMessage),
    /// A line that is no message beamtris can read: its number and why.
    Bad(usize, String),
    /// End of input, or a read error (said on stderr).
    End,
}

/// Reads lines from `input`, parses them, and counts `stop` and `quit` in `interrupts` as
/// soon as they are read, so that a search can see them. The end of input is no interrupt:
/// a script that writes its messages and closes the pipe still gets its answers.
fn read_messages(
    mut input: impl BufRead,
    tx: mpsc::Sender<Incoming>,
    interrupts: Arc<AtomicUsize>,
) {
    let mut number = 0;
    loop {
        number += 1;
        let mut buf = Vec::new();
        let read = (&mut input)
            .take(MAX_LINE as u64 + 1)
            .read_until(b'\n', &mut buf);
        let incoming = match read {
            Ok(0) => Incoming::End,
            Err(e) => {
                eprintln!("beamtris tbp: reading line {number}: {e}; stopping");
                Incoming::End
            }
            Ok(_) if buf.len() > MAX_LINE => {
                if !buf.ends_with(b"\n") {
                    skip_line(&mut input);
                }
                Incoming::Bad(number, format!("longer than {MAX_LINE} bytes; ignored"))
            }
            Ok(_) => match parse_line(&buf) {
                Ok(Some(msg)) => Incoming::Message(number, msg),
                Ok(None) => continue,
                Err(why) => Incoming::Bad(number, why),
            },
        };
        let interrupt = matches!(
            incoming,
            Incoming::Message(_, FrontendMessage::Stop | FrontendMessage::Quit)
        );
        if interrupt {
            interrupts.fetch_add(1, Ordering::SeqCst);
        }
        let end = matches!(incoming, Incoming::End);
        if tx.send(incoming).is_err() || end {
            return;
        }
    }
}

/// Reads on to the end of an overlong line.
fn skip_line(input: &mut impl BufRead) {
    loop {
        let mut buf = Vec::new();
        match input.take(MAX_LINE as u64).read_until(b'\n', &mut buf) {
            Ok(0) | Err(_) => return,
            Ok(_) if buf.ends_with(b"\n") => return,
            Ok(_) => {}
        }
    }
}

/// The message on one line; `None` for a blank line.
pub fn parse_line(bytes: &[u8]) -> std::result::Result<Option<FrontendMessage>, String> {
    let text = std::str::from_utf8(bytes).map_err(|_| "not UTF-8; ignored".to_string())?;
    if text.trim().is_empty() {
        return Ok(None);
    }
    let value: serde_json::Value = serde_json::from_str(text)
        .map_err(|e| format!("not JSON ({}); ignored", crate::error::json_error(&e)))?;
    let Some(kind) = value
        .get("type")
        .and_then(|t| t.as_str())
        .map(str::to_string)
    else {
        return Err("not a message (no \"type\" string); ignored".into());
    };
    serde_json::from_value(value).map(Some).map_err(|e| {
        format!(
            "{}: {}; ignored",
            printable(&kind),
            printable(&e.to_string())
        )
    })
}

/// The conversation: the rules, the position, and how many interrupts it has acted on (a search
/// runs while none is pending: one read but not yet acted on means the search is moot).
struct Conversation<'scope, 'env, W: Write> {
    out: W,
    config: &'env Config,
    seven_bag: bool,
    position: Option<Position>,
    interrupts: Arc<AtomicUsize>,
    handled: usize,
    /// Counts the changes of the position, so a search started earlier can be matched.
    generation: u64,
    /// The generation the last suggestion was made for (no need to think about it again).
    answered: Option<u64>,
    /// The search started ahead of a `suggest`, when there is one.
    ponder: Option<Ponder<'scope>>,
    scope: &'scope Scope<'scope, 'env>,
}

/// A search started before the `suggest` that will want it.
struct Ponder<'scope> {
    /// The position's generation it searches.
    generation: u64,
    /// Set when its result will not be wanted: it stops at the next piece.
    cancel: Arc<AtomicBool>,
    /// The think time's end, set when the `suggest` comes.
    deadline: Arc<Mutex<Option<Instant>>>,
    handle: ScopedJoinHandle<'scope, Suggestion>,
}

/// Why the conversation ends.
enum Flow {
    Serve,
    Quit,
}

impl<'scope, 'env: 'scope, W: Write> Conversation<'scope, 'env, W> {
    /// Sends `msg` as one line.
    fn send(&mut self, msg: &BotMessage) -> Result<()> {
        let line = serde_json::to_string(msg).expect("plain data serialises");
        writeln!(self.out, "{line}")
            .and_then(|_| self.out.flush())
            .map_err(|e| Error(format!("writing to the front end: {e}")))
    }

    fn handle(&mut self, line: usize, msg: FrontendMessage) -> Result<Flow> {
        if !matches!(msg, FrontendMessage::Suggest) {
            self.cancel_ponder();
        }
        if matches!(
            msg,
            FrontendMessage::Start(_)
                | FrontendMessage::Stop
                | FrontendMessage::Play { .. }
                | FrontendMessage::NewPiece { .. }
        ) {
            self.generation += 1;
        }
        match msg {
            FrontendMessage::Rules(rules) => {
                self.seven_bag =
                    rules.randomizer.as_ref().and_then(|r| r.as_str()) == Some("seven_bag");
                self.send(&BotMessage::Ready)?;
            }
            FrontendMessage::Start(start) => {
                let (pos, notes) = Position::start(&start, self.seven_bag);
                for note in notes {
                    warn(line, &note);
                }
                if let Some(why) = &pos.unplayable {
                    warn(
                        line,
                        &format!("start: {why}; suggesting no moves in this game"),
                    );
                }
                self.position = Some(pos);
            }
            FrontendMessage::Stop => {
                self.handled += 1;
                self.position = None;
            }
            FrontendMessage::Quit => return Ok(Flow::Quit),
            FrontendMessage::Suggest => self.suggest(line)?,
            FrontendMessage::Play { mv } => self.play(line, &mv),
            FrontendMessage::NewPiece { piece } => match self.position.as_mut() {
                Some(pos) => {
                    if let Some(note) = pos.new_piece(piece) {
                        warn(line, &note);
                    }
                }
                None => warn(line, "new_piece before start; ignored"),
            },
            FrontendMessage::Unknown => {}
        }
        Ok(Flow::Serve)
    }

    /// Answers a `suggest`, always with one `suggestion`: front ends pair each `suggest` with
    /// the next `suggestion`, so even one that a `stop` or `quit` cut short is sent.
    fn suggest(&mut self, line: usize) -> Result<()> {
        if self.position.is_none() {
            warn(
                line,
                "suggest before start (or after stop): no game; suggesting no moves",
            );
            return self.send(&BotMessage::Suggestion {
                moves: Vec::new(),
                move_info: MoveInfo {
                    depth: 0,
                    extra: "no game".into(),
                    wall_ms: 0.0,
                    cpu_ms: None,
                },
            });
        }
        let asked = Instant::now();
        let deadline = asked + self.config.think;
        if self
            .ponder
            .as_ref()
            .is_some_and(|p| p.generation != self.generation)
        {
            self.cancel_ponder();
        }
        let s = match self.ponder.take() {
            Some(p) => {
                *p.deadline.lock().unwrap_or_else(|e| e.into_inner()) = Some(deadline);
                let mut s = p
                    .handle
                    .join()
                    .unwrap_or_else(|e| std::panic::resume_unwind(e));
                // What the front end waited; the search began `thought` ms before.
                let waited = to_ms(asked.elapsed().as_nanos() as u64);
                let thought = (s.info.wall_ms - waited).max(0.0);
                s.info
                    .extra
                    .push_str(&format!(", began {thought:.1} ms before the suggest"));
                s.info.wall_ms = waited;
                s
            }
            None => {
                let interrupts = &self.interrupts;
                let handled = self.handled;
                let pos = self.position.as_ref().expect("checked above");
                until(
                    deadline,
                    || interrupts.load(Ordering::SeqCst) > handled,
                    |stop| suggest(pos, self.config, stop),
                )
            }
        };
        self.answered = Some(self.generation);
        if let Some(why) = &s.empty_because {
            warn(line, &format!("suggest: no moves ({why})"));
        }
        self.send(&BotMessage::Suggestion {
            moves: s.moves,
            move_info: s.info,
        })
    }

    /// Starts thinking about the position, when it is playable, has changed since the last
    /// suggestion, and thinking ahead is on.
    fn start_ponder(&mut self) {
        if !self.config.ponder || self.ponder.is_some() || self.answered == Some(self.generation) {
            return;
        }
        let Some(pos) = self.position.as_ref().filter(|p| p.unplayable.is_none()) else {
            return;
        };
        let pos = pos.clone();
        let cancel = Arc::new(AtomicBool::new(false));
        let deadline: Arc<Mutex<Option<Instant>>> = Arc::new(Mutex::new(None));
        let (cancelled, ends) = (cancel.clone(), deadline.clone());
        let interrupts = self.interrupts.clone();
        let handled = self.handled;
        let config = self.config;
        let handle = self.scope.spawn(move || {
            let stop_now = || {
                cancelled.load(Ordering::SeqCst)
                    || interrupts.load(Ordering::SeqCst) > handled
                    || ends
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .is_some_and(|d| Instant::now() >= d)
            };
            until(far_future(), stop_now, |stop| suggest(&pos, config, stop))
        });
        self.ponder = Some(Ponder {
            generation: self.generation,
            cancel,
            deadline,
            handle,
        });
    }

    /// Stops and drops a search started ahead (its position has changed, or the bot ends).
    fn cancel_ponder(&mut self) {
        if let Some(p) = self.ponder.take() {
            p.cancel.store(true, Ordering::SeqCst);
            let _ = p.handle.join();
        }
    }

    fn play(&mut self, line: usize, mv: &TbpMove) {
        let Some(pos) = self.position.as_mut() else {
            warn(line, "play before start; ignored");
            return;
        };
        if pos.unplayable.is_some() {
            return;
        }
        if let Err(why) = pos.play(mv, &self.config.rules) {
            warn(
                line,
                &format!("play: {why}; beamtris lost track of the game and suggests no moves until the next start"),
            );
            pos.unplayable = Some(format!("a play beamtris could not follow ({why})"));
        }
    }
}

/// Runs `work` with a flag that is set at `deadline` or once `interrupted` says so.
fn until<T>(
    deadline: Instant,
    interrupted: impl Fn() -> bool + Sync,
    work: impl FnOnce(&AtomicBool) -> T,
) -> T {
    let stop = AtomicBool::new(false);
    let done = AtomicBool::new(false);
    std::thread::scope(|s| {
        s.spawn(|| {
            while !done.load(Ordering::Relaxed) {
                if Instant::now() >= deadline || interrupted() {
                    stop.store(true, Ordering::Relaxed);
                    return;
                }
                std::thread::sleep(Duration::from_millis(1));
            }
        });
        let out = work(&stop);
        done.store(true, Ordering::Relaxed);
        out
    })
}

/// One line on stderr about input line `line`.
fn warn(line: usize, what: &str) {
    eprintln!("beamtris tbp: line {line}: {}", printable(what));
}

/// A deadline no search reaches (a search ahead of `suggest` is stopped by its flags).
fn far_future() -> Instant {
    Instant::now() + Duration::from_secs(24 * 3600)
}

/// Serves the protocol: `info` first, then every message of `input` in order, until `quit`
/// or the end of input. Errors only when the front end can no longer be written to.
pub fn serve(
    input: impl BufRead + Send + 'static,
    output: impl Write,
    config: &Config,
) -> Result<()> {
    let (tx, rx) = mpsc::channel();
    let interrupts = Arc::new(AtomicUsize::new(0));
    let counter = interrupts.clone();
    // Not joined: at `quit` the reader may be blocked on a read that never returns, and the
    // process ends with it.
    std::thread::spawn(move || read_messages(input, tx, counter));
    std::thread::scope(|scope| {
        let mut conversation = Conversation {
            out: output,
            config,
            seven_bag: false,
            position: None,
            interrupts,
            handled: 0,
            generation: 0,
            answered: None,
            ponder: None,
            scope,
        };
        conversation.send(&info())?;
        let mut waiting: Option<Incoming> = None;
        loop {
            let incoming = match waiting.take() {
                Some(incoming) => incoming,
                None => match rx.recv() {
                    Ok(incoming) => incoming,
                    Err(_) => break,
                },
            };
            match incoming {
                Incoming::End => break,
                Incoming::Bad(line, why) => warn(line, &why),
                Incoming::Message(line, msg) => {
                    if let Flow::Quit = conversation.handle(line, msg)? {
                        break;
                    }
                }
            }
            // Think ahead only while the front end has nothing more to say.
            match rx.try_recv() {
                Ok(next) => waiting = Some(next),
                Err(TryRecvError::Empty) => conversation.start_ponder(),
                Err(TryRecvError::Disconnected) => {}
            }
        }
        conversation.cancel_ponder();
        Ok(())
    })
}
