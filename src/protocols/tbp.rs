//! The Tetris Bot Protocol (TBP): a front end drives beamtris with JSON lines on stdin and
//! reads its answers on stdout (docs/tbp.md).
//!
//! ```text
//! beamtris: {"type":"info","name":"beamtris",...}     at launch
//! front end: {"type":"rules","randomizer":"seven_bag"}
//! beamtris: {"type":"ready"}
//! front end: {"type":"start","board":[[null,...],...],"queue":["T","I",...],"hold":null,
//!             "combo":0,"back_to_back":false}
//! front end: {"type":"suggest"}
//! beamtris: {"type":"suggestion","moves":[{"location":{"type":"T","orientation":"north",
//!             "x":4,"y":0},"spin":"none"},...],"move_info":{...}}
//! front end: {"type":"play","move":{...}}  {"type":"new_piece","piece":"Z"}  ... stop, quit
//! ```
//!
//! Each `suggest` is decided by the online player ([`online::decide_until`]): a beam over the
//! board, the hold piece, the piece in play and the previews of the queue, cut at a deadline.
//! A reader thread parses the input while the search runs, so that `stop` and `quit` cut a
//! search short instead of waiting behind it (the `suggest` is still answered, with the best
//! line found so far: front ends pair every `suggest` with the next `suggestion`).
//!
//! Nothing a front end sends can panic the bot: a line that is not a message, or a message
//! beamtris cannot follow, is one line on stderr and the bot keeps serving; a position it
//! cannot represent (cells above its 24 rows) gets suggestions with no moves, which the
//! protocol reads as a forfeit.

use crate::error::{printable, Error, Result};
use crate::eval::guideline::GuidelineEvaluator;
use crate::games::guideline::board::{Board, HEIGHT, WIDTH};
use crate::games::guideline::movegen;
use crate::games::guideline::piece::{fits, Active, Twist};
use crate::games::guideline::replay::GuidelineGame;
use crate::games::guideline::{game, Rules, Spin, State, TopOut};
use crate::games::seven_bag::{SevenBag, ShapeSet};
use crate::piece::Shape;
use crate::search::guideline::Move;
use crate::search::online::{self, Incoming, Player};
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;
use std::io::{BufRead, Read, Write};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

/// Moves a suggestion lists at most: the search's choice, then the other placements of the
/// piece in play (and of the one hold offers) by their one-piece rank, for a front end whose
/// rules refuse the first.
pub const MAX_MOVES: usize = 8;
/// Bytes a line may hold: a `start` message is a few kilobytes; a front end that sends
/// megabytes without a newline is broken, and the bot should not buffer it all.
pub const MAX_LINE: usize = 1 << 20;
/// Rows of a TBP board.
pub const TBP_ROWS: usize = 40;

// ---------------------------------------------------------------- wire types

/// A piece's rotation state as TBP names it: spawn, then clockwise.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Orientation {
    North,
    East,
    South,
    West,
}

impl Orientation {
    /// beamtris's rotation state (0 spawn, 1 R, 2, 3 L).
    pub const fn state(self) -> u8 {
        self as u8
    }

    /// The orientation of rotation state `state` (taken mod 4).
    pub const fn of_state(state: u8) -> Orientation {
        match state & 3 {
            0 => Orientation::North,
            1 => Orientation::East,
            2 => Orientation::South,
            _ => Orientation::West,
        }
    }
}

/// Where a piece is, as TBP says it: its type, orientation, and the cell that SRS turns it
/// about (x from the left, y from the bottom).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Location {
    #[serde(rename = "type")]
    pub piece: Shape,
    pub orientation: Orientation,
    pub x: i32,
    pub y: i32,
}

/// A move of the protocol: where the piece locks and how it got there.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct TbpMove {
    pub location: Location,
    pub spin: Spin,
}

/// A message from the front end. Unknown types are ignored, as the protocol asks; unknown
/// attributes too (serde's default).
#[derive(Debug, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum FrontendMessage {
    Rules(RulesMessage),
    Start(StartMessage),
    Stop,
    Suggest,
    Play {
        #[serde(rename = "move")]
        mv: TbpMove,
    },
    NewPiece {
        piece: Shape,
    },
    Quit,
    #[serde(other)]
    Unknown,
}

/// `rules`: only the randomizer extension says anything yet.
#[derive(Debug, Default, Deserialize)]
pub struct RulesMessage {
    /// Kept as JSON: a value this bot does not know reads as `unknown`, never an error.
    #[serde(default)]
    pub randomizer: Option<serde_json::Value>,
}

/// `start`: the position to play from.
#[derive(Debug, Deserialize)]
pub struct StartMessage {
    /// Rows from the bottom, each ten cells: `null` or a letter (a piece's or `G`).
    pub board: Vec<Vec<Option<String>>>,
    pub queue: Vec<Shape>,
    pub hold: Option<Shape>,
    /// Consecutive clearing locks so far (0 when left out).
    #[serde(default)]
    pub combo: u32,
    #[serde(default)]
    pub back_to_back: bool,
    /// The randomizer's state at the end of the queue (the randomizer extension).
    #[serde(default)]
    pub randomizer: Option<serde_json::Value>,
}

/// A message to the front end.
#[derive(Debug, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum BotMessage {
    Info {
        name: &'static str,
        version: &'static str,
        author: &'static str,
        features: &'static [&'static str],
    },
    Ready,
    Suggestion {
        moves: Vec<TbpMove>,
        move_info: MoveInfo,
    },
}

/// What a suggestion cost (the `move_info` extension).
#[derive(Debug, Serialize)]
pub struct MoveInfo {
    /// Pieces the search placed in each line.
    pub depth: usize,
    pub extra: String,
    /// beamtris's own attributes (front ends ignore what they do not know): the decision's
    /// wall time, and the CPU time of the threads that made it (search and answer), in ms.
    pub wall_ms: f64,
    pub cpu_ms: Option<f64>,
}

/// The `info` message beamtris sends at launch.
pub fn info() -> BotMessage {
    BotMessage::Info {
        name: "beamtris",
        version: env!("CARGO_PKG_VERSION"),
        author: "the beamtris authors",
        features: &["randomizer", "move_info"],
    }
}

// ---------------------------------------------------------------- geometry

/// The box cell (x, y up) of the cell TBP locates a piece by, in rotation state `state`:
/// the turning point of J L S T Z (the box centre); for I the middle-left cell of its
/// spawn row, which the turns carry to the middle-top, middle-right and middle-bottom; for O
/// its bottom-left cell, then the top-left, top-right and bottom-right (the O's cells never
/// move, its reference cell goes round them).
pub const fn centre(shape: Shape, state: u8) -> (i8, i8) {
    match (shape, state & 3) {
        (Shape::I, 0) => (1, 2),
        (Shape::I, 1) => (2, 2),
        (Shape::I, 2) => (2, 1),
        (Shape::I, _) => (1, 1),
        (Shape::O, 0) => (1, 1),
        (Shape::O, 1) => (1, 2),
        (Shape::O, 2) => (2, 2),
        (Shape::O, _) => (2, 1),
        _ => (1, 1),
    }
}

/// The TBP location of a piece at rest.
pub fn location_of(piece: &Active) -> Location {
    let (cx, cy) = centre(piece.shape, piece.state);
    Location {
        piece: piece.shape,
        orientation: Orientation::of_state(piece.state),
        x: (piece.x + cx) as i32,
        y: (piece.y + cy) as i32,
    }
}

/// Centre coordinates a location may have: the TBP board's 40 rows and a margin. Far
/// beyond, a piece's cells would not fit the `i8` that positions are kept in.
const REACH: std::ops::RangeInclusive<i32> = -8..=48;

/// The piece at `location` (its box origin), its last move the one `spin` implies for the
/// spin check; `None` when the centre lies out of any board's reach.
pub fn active_of(location: &Location, spin: Spin) -> Option<Active> {
    if !REACH.contains(&location.x) || !REACH.contains(&location.y) {
        return None;
    }
    let state = location.orientation.state();
    let (cx, cy) = centre(location.piece, state);
    let x = (location.x - cx as i32) as i8;
    let y = (location.y - cy as i32) as i8;
    Some(Active {
        shape: location.piece,
        state,
        x,
        y,
        twist: match spin {
            Spin::None => Twist::None,
            Spin::Mini => Twist::Rotated,
            Spin::Full => Twist::RotatedFifth,
        },
    })
}

// ---------------------------------------------------------------- the position

/// The game as the front end last told it: the state between pieces, the queue (the piece
/// in play first), and the bag tracker under a 7-bag randomizer.
#[derive(Clone, Debug)]
pub struct Position {
    pub state: State,
    pub queue: VecDeque<Shape>,
    pub bag: Option<SevenBag>,
    /// Why beamtris cannot play this position (it suggests no moves until the next `start`).
    pub unplayable: Option<String>,
    /// The garbage waiting to come in. TBP has no message for it, so a front end cannot say;
    /// the arena's in-process player is told TETR.IO's meter here.
    pub incoming: Incoming,
}

impl Position {
    /// The position of a `start` message; `seven_bag` when the rules named that randomizer.
    pub fn from_start(start: &StartMessage, seven_bag: bool) -> Position {
        Position::start(start, seven_bag).0
    }

    /// The position of a `start` message, and a note for each thing in it beamtris passes
    /// over: a `randomizer` it cannot read (the bag is then inferred from the queue alone),
    /// and under the 7-bag a queue (with its `bag_state`) that no 7-bag deals (the queue is
    /// then read alone, as when `new_piece` breaks the bag).
    pub fn start(start: &StartMessage, seven_bag: bool) -> (Position, Vec<String>) {
        let mut notes = Vec::new();
        let queue: Vec<Shape> = start.queue.clone();
        let state = match bag_state(&start.randomizer, seven_bag) {
            Ok(state) => state,
            Err(why) => {
                notes.push(format!(
                    "start: {why}; the randomizer is ignored{}",
                    if seven_bag {
                        " (the bag is inferred from the queue)"
                    } else {
                        ""
                    }
                ));
                None
            }
        };
        let mut bag = seven_bag.then(|| SevenBag::new(&queue, state));
        if bag.as_ref().is_some_and(|b| !b.consistent()) {
            bag = None;
            notes.push(format!(
                "start: the queue{} fit{} no 7-bag; reading the queue alone from now on",
                if state.is_some() {
                    " and randomizer.bag_state"
                } else {
                    ""
                },
                if state.is_some() { "" } else { "s" },
            ));
        }
        let (board, unplayable) = match board_of(&start.board) {
            Ok(b) => (b, None),
            Err(why) => (Board::EMPTY, Some(why)),
        };
        let full = board.full_rows().count_ones();
        if full > 0 {
            // No game leaves a full row; the front end's board is still the game's, so it
            // is played as given, and the log says what was odd about it.
            notes.push(format!(
                "start: the board holds {} (no game leaves one); playing it as given",
                if full == 1 {
                    "a full row".to_string()
                } else {
                    format!("{full} full rows")
                }
            ));
        }
        let position = Position {
            state: State {
                board,
                hold: start.hold,
                // TBP counts the clears in a row; beamtris's counter is −1 before the first.
                combo: start.combo.min(1 << 20) as i32 - 1,
                b2b: start.back_to_back,
                // TBP says whether a chain is on, not how long: counted from its first
                // clear (the least bonus it can be owed).
                chain: 0,
            },
            queue: queue.into(),
            bag,
            unplayable,
            incoming: Incoming::NONE,
        };
        (position, notes)
    }

    /// A piece added to the end of the queue.
    pub fn new_piece(&mut self, piece: Shape) -> Option<String> {
        self.queue.push_back(piece);
        let bag = self.bag.as_mut()?;
        bag.push(piece);
        if bag.consistent() {
            return None;
        }
        self.bag = None;
        Some(format!(
            "new_piece {}: the pieces since start fit no 7-bag; reading the queue alone from now on",
            piece.letter()
        ))
    }

    /// Plays `mv` as the front end did: the piece is written where the move says, the hold
    /// taken when its type is not the piece in play, lines cleared, combo and back-to-back
    /// carried on (back-to-back by the front end's spin, the game being the front end's).
    pub fn play(&mut self, mv: &TbpMove, rules: &Rules) -> std::result::Result<(), String> {
        let piece = mv.location.piece;
        let current = *self
            .queue
            .front()
            .ok_or("no piece in play (the queue is empty)")?;
        let mut before = self.state;
        let used = if piece == current {
            1
        } else if self.state.hold == Some(piece) {
            before.hold = Some(current);
            1
        } else if self.state.hold.is_none() && self.queue.get(1) == Some(&piece) {
            before.hold = Some(current);
            2
        } else {
            return Err(format!(
                "a {} is neither the piece in play ({}) nor the one hold gives",
                piece.letter(),
                current.letter()
            ));
        };
        let active = active_of(&mv.location, mv.spin).ok_or("the location is off the board")?;
        check_fits(&self.state.board, &active)?;
        let (mut after, lock) = game::lock_under(&before, &active, rules);
        if lock.lock_out {
            return Err("the piece locks entirely above row 19 (lock out)".into());
        }
        if lock.lines > 0 {
            after.b2b = lock.lines == 4 || mv.spin != Spin::None;
        }
        self.state = after;
        self.queue.drain(..used);
        Ok(())
    }
}

/// Why `piece` cannot be written on `board`: a cell off the sides or floor, above
/// beamtris's 24 rows, or on a filled cell.
fn check_fits(board: &Board, piece: &Active) -> std::result::Result<(), String> {
    if fits(board, piece.shape, piece.state, piece.x, piece.y) {
        return Ok(());
    }
    let cells = piece.cells();
    if cells
        .iter()
        .any(|&(x, y)| y >= HEIGHT as i8 && (0..WIDTH as i8).contains(&x))
    {
        return Err(format!(
            "a cell above row {} (beamtris's board has {HEIGHT} rows)",
            HEIGHT - 1
        ));
    }
    Err("the piece overlaps a filled cell or leaves the board".into())
}

/// The board of a `start` message: rows from the bottom, ten cells each.
fn board_of(rows: &[Vec<Option<String>>]) -> std::result::Result<Board, String> {
    let mut board = Board::EMPTY;
    for (y, row) in rows.iter().enumerate() {
        if row.len() != WIDTH {
            return Err(format!(
                "board row {y} has {} cells, not {WIDTH}",
                row.len()
            ));
        }
        for (x, cell) in row.iter().enumerate() {
            if cell.is_none() {
                continue;
            }
            if y >= HEIGHT {
                return Err(format!(
                    "board cell ({x}, {y}) is filled: beamtris's board has {HEIGHT} rows \
                     (0 to {})",
                    HEIGHT - 1
                ));
            }
            board.fill(x, y);
        }
    }
    Ok(board)
}

// ---------------------------------------------------------------- thinking

/// How the bot decides.
pub struct Config {
    pub rules: Rules,
    pub beam: usize,
    /// Previews of the queue the search reads at most (the piece in play not counted).
    pub previews: usize,
    /// Time from `suggest` after which the search stops at the next piece.
    pub think: Duration,
    pub evaluator: GuidelineEvaluator,
    /// The search past the previews, when on (as `play --samples`).
    pub speculation: Option<online::Speculation>,
    /// The search's threads (one, for the budget of one core).
    pub pool: rayon::ThreadPool,
    /// Whether to start thinking before `suggest`, once the position is known
    /// (conversation.rs).
    pub ponder: bool,
}

/// The window a search sees: the game of its pieces (the hold slot's shape first when held,
/// as the online player counts), the number of previews, and what is left in the 7-bag after
/// its last piece when the bag says (and the window holds the whole queue). The game's length
/// leaves room for the pieces speculation adds past the previews.
fn window(pos: &Position, config: &Config) -> Option<(GuidelineGame, usize, Option<ShapeSet>)> {
    let current = *pos.queue.front()?;
    let seen = pos.queue.len() - 1;
    let mut previews: Vec<Shape> = pos
        .queue
        .iter()
        .skip(1)
        .take(config.previews)
        .copied()
        .collect();
    let bag = pos.bag.as_ref();
    let mut left = bag
        .and_then(SevenBag::left)
        .filter(|_| seen <= config.previews);
    if seen <= config.previews {
        if let Some(next) = bag.and_then(SevenBag::next) {
            previews.push(next);
            left = left.map(|l| l & !(1 << next.index()));
        }
    }
    let mut pieces: Vec<Shape> = pos.state.hold.into_iter().collect();
    pieces.push(current);
    let n = previews.len();
    pieces.extend(previews);
    let length = n + pos.state.hold.is_some() as usize;
    let ahead = config.speculation.map_or(0, |s| s.pieces);
    let game = GuidelineGame {
        rules: config.rules,
        length: length.max(1) + ahead,
        pieces,
        start: pos.state,
    };
    Some((game, n, left))
}

/// Every move of the piece in play (and of the piece hold gives, when it differs) that does
/// not lock out, best one-piece rank first. Moves after which the next known piece cannot
/// spawn come only when there is nothing else: a front end whose spawn differs from
/// beamtris's may still go on, and a list with a move beats a forfeit.
fn ranked_moves(game: &GuidelineGame, state: &State, evaluator: &GuidelineEvaluator) -> Vec<Move> {
    let pieces = &game.pieces;
    let index = state.next_index(0);
    let current = pieces[index];
    let mut options = vec![(current, false, state.hold)];
    match state.hold {
        Some(h) if h != current => options.push((h, true, Some(current))),
        None => {
            if let Some(&next) = pieces.get(index + 1).filter(|&&n| n != current) {
                options.push((next, true, Some(current)));
            }
        }
        _ => {}
    }
    // (blocks the next spawn, rank, move)
    let mut ranked: Vec<(bool, f64, Move)> = Vec::new();
    let mut placements = Vec::new();
    for (shape, hold, slot) in options {
        let before = State {
            hold: slot,
            ..*state
        };
        placements.clear();
        let rules = &game.rules;
        movegen::placements_under(&state.board, shape, rules, &mut placements);
        for &p in &placements {
            let (after, lock) = game::lock_under(&before, &p.active(), rules);
            if lock.lock_out {
                continue;
            }
            let blocks = pieces
                .get(after.next_index(1))
                .is_some_and(|&next| rules.top.spawn(&after.board, next).is_none());
            let gain = game.rules.objective.gain(&lock.earned, lock.lines);
            let rank = evaluator.rank(&after, gain);
            ranked.push((blocks, rank, Move { placement: p, hold }));
        }
    }
    ranked.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.total_cmp(&b.1)));
    let safe = ranked.iter().any(|r| !r.0);
    ranked
        .into_iter()
        .filter(|r| !(safe && r.0))
        .map(|(_, _, m)| m)
        .collect()
}

/// The TBP move that plays `mv` on `board`: the location where the shortest op path to its
/// placement rests (in the rotation state that path ends in, which for S, Z and I may not be
/// the placement's first state with those cells).
fn tbp_move(board: &Board, mv: &Move, rules: &Rules) -> Option<TbpMove> {
    let ops = movegen::path_under(board, &mv.placement, rules)?;
    let mut piece = rules.top.spawn(board, mv.placement.shape)?;
    for op in ops {
        piece = piece.apply(board, op, rules.rotation);
    }
    Some(TbpMove {
        location: location_of(&piece.hard_dropped(board)),
        spin: mv.placement.spin,
    })
}

/// A suggestion and how it was found.
pub struct Suggestion {
    pub moves: Vec<TbpMove>,
    pub info: MoveInfo,
    /// Why there are no moves, when there are none.
    pub empty_because: Option<String>,
}

/// The moves beamtris suggests in `pos`, best first: the first move of the beam's best line
/// over the visible pieces, then the others by one-piece rank. The search stops between two
/// pieces once `stop` is set.
pub fn suggest(pos: &Position, config: &Config, stop: &AtomicBool) -> Suggestion {
    let wall = Instant::now();
    let cpu = crate::results::thread_cpu_ns();
    let empty = |why: String| Suggestion {
        moves: Vec::new(),
        info: MoveInfo {
            depth: 0,
            extra: why.clone(),
            wall_ms: 0.0,
            cpu_ms: None,
        },
        empty_because: Some(why),
    };
    if let Some(why) = &pos.unplayable {
        return empty(format!("the position is not playable: {why}"));
    }
    let Some((game, previews, bag)) = window(pos, config) else {
        return empty("no piece in play (the queue is empty)".into());
    };
    let (chosen, search_cpu) = search(&game, previews, pos, bag, config, stop);
    let moves = candidates(chosen, &game, &pos.state, config);
    let cpu_ms = match (cpu, crate::results::thread_cpu_ns(), search_cpu) {
        (Some(a), Some(b), Some(c)) => Some(to_ms(b.saturating_sub(a) + c)),
        _ => None,
    };
    let info = MoveInfo {
        depth: if chosen.is_some() { game.length } else { 1 },
        extra: format!(
            "beam {}, {previews} previews{}{}{}",
            config.beam,
            if pos.state.hold.is_some() {
                " and hold"
            } else {
                ""
            },
            match config.speculation {
                Some(s) => format!(
                    ", {} of {}",
                    crate::limits::plural(s.samples as u64, "continuation", "continuations"),
                    crate::limits::plural(s.pieces as u64, "piece", "pieces")
                ),
                None => String::new(),
            },
            if stop.load(Ordering::Relaxed) {
                ", stopped early"
            } else {
                ""
            }
        ),
        wall_ms: to_ms(wall.elapsed().as_nanos() as u64),
        cpu_ms,
    };
    let empty_because = moves.is_empty().then(|| {
        // The guideline's spawn (rows 20 and 21) is a row under TETR.IO's: a stack that
        // reaches it ends the game under the guideline's top (`--top-out tetrio` goes on).
        let top = config.rules.top;
        let blocked = |s: Shape| top.spawn(&pos.state.board, s).is_none();
        let current = game.pieces[pos.state.next_index(0)];
        if blocked(current) && pos.state.hold.is_none_or(blocked) {
            match top {
                TopOut::Guideline => {
                    "the stack blocks the guideline spawn (rows 20 and 21): block out"
                }
                TopOut::Tetrio => "the stack blocks TETR.IO's spawn (rows 21 and 22): block out",
            }
            .to_string()
        } else {
            "every placement locks out".to_string()
        }
    });
    Suggestion {
        moves,
        info,
        empty_because,
    }
}

/// Nanoseconds as milliseconds to the microsecond (a figure, not a float's noise).
fn to_ms(ns: u64) -> f64 {
    (ns / 1_000) as f64 / 1_000.0
}

/// The first move of the beam's best line over `game` (none without a preview: the one-piece
/// ranking decides then), and the CPU time the search's thread spent, in ns.
fn search(
    game: &GuidelineGame,
    previews: usize,
    pos: &Position,
    bag: Option<ShapeSet>,
    config: &Config,
    stop: &AtomicBool,
) -> (Option<Move>, Option<u64>) {
    if previews == 0 {
        return (None, Some(0));
    }
    let player = Player {
        previews,
        beam: config.beam,
        evaluator: &config.evaluator,
        fourwide: None,
        speculation: config.speculation,
        seven_bag: bag.is_some(),
    };
    config.pool.install(|| {
        let cpu = crate::results::thread_cpu_ns();
        let decision = online::decide_until(game, 0, &pos.state, &player, bag, pos.incoming, stop);
        let spent = cpu
            .zip(crate::results::thread_cpu_ns())
            .map(|(a, b)| b.saturating_sub(a));
        (decision.map(|d| d.mv), spent)
    })
}

/// The suggestion's moves: `chosen` first, then the one-piece ranking, at most [`MAX_MOVES`],
/// each as the location its shortest path rests at.
fn candidates(
    chosen: Option<Move>,
    game: &GuidelineGame,
    state: &State,
    config: &Config,
) -> Vec<TbpMove> {
    let mut moves: Vec<Move> = chosen.into_iter().collect();
    for m in ranked_moves(game, state, &config.evaluator) {
        if moves.len() >= MAX_MOVES {
            break;
        }
        if !moves.contains(&m) {
            moves.push(m);
        }
    }
    moves
        .iter()
        .filter_map(|m| tbp_move(&state.board, m, &config.rules))
        .collect()
}

/// The `bag_state` of a `start` message's `randomizer`: the pieces left in the bag when it is
/// a `seven_bag` object and the rules name the 7-bag (`seven_bag`), none when there is no
/// randomizer or one of another type (not read), and why not when the attribute is not what
/// the randomizer extension says: an object with a `type` string, whose `seven_bag` kind
/// lists the pieces left, each once, in a non-empty `bag_state`, and whose type is the rules'.
pub fn bag_state(
    randomizer: &Option<serde_json::Value>,
    seven_bag: bool,
) -> std::result::Result<Option<ShapeSet>, String> {
    let shown = |v: &serde_json::Value| {
        let mut text = printable(&v.to_string());
        if text.len() > 60 {
            let end = (0..=60)
                .rev()
                .find(|&i| text.is_char_boundary(i))
                .unwrap_or(0);
            text.truncate(end);
            text.push_str("...");
        }
        text
    };
    let Some(r) = randomizer.as_ref().filter(|r| !r.is_null()) else {
        return Ok(None);
    };
    let Some(kind) = r.get("type").and_then(|t| t.as_str()) else {
        return Err(format!(
            "randomizer {} is not an object with a \"type\" string",
            shown(r)
        ));
    };
    if kind != "seven_bag" {
        return match seven_bag {
            true => Err(format!(
                "randomizer type {} is not the rules' \"seven_bag\"",
                shown(&r["type"])
            )),
            false => Ok(None),
        };
    }
    let Some(list) = r.get("bag_state") else {
        return Err("randomizer.bag_state is missing (the pieces left in the bag)".into());
    };
    let pieces = list.as_array().filter(|l| !l.is_empty()).ok_or_else(|| {
        format!(
            "randomizer.bag_state {} is not a non-empty list of pieces",
            shown(list)
        )
    })?;
    let mut set: ShapeSet = 0;
    for p in pieces {
        let shape: Shape = serde_json::from_value(p.clone())
            .map_err(|_| format!("randomizer.bag_state: {} is not a piece", shown(p)))?;
        if set & 1 << shape.index() != 0 {
            return Err(format!(
                "randomizer.bag_state: {} twice (a 7-bag holds each piece once)",
                shape.letter()
            ));
        }
        set |= 1 << shape.index();
    }
    Ok(seven_bag.then_some(set))
}

mod conversation;
pub use conversation::{parse_line, serve};

#[cfg(test)]
mod tests;
