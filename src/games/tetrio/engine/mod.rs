//! TETR.IO's game engine, frame by frame: the handling model (DAS, ARR, DCD, SDF, keys on
//! subframes), gravity and its growth, lock delay and lock resets, SRS+ rotation with 180s,
//! hold, spins, clears, combo and back-to-back, attack with the garbage multiplier, and
//! incoming garbage (cancelling, tanking). Written from the rules described in
//! `docs/tetrio.md`.

mod handling;
mod keys;
mod lock;
pub mod solo;
mod spins;
mod view;

use super::attack::SpinKind;
use super::garbage::{GarbageQueue, GarbageRules, Incoming, Network, ParkMiller, Tanked, PARKED};
use super::options::{Options, SpinRule};
use super::pieces::{kicks, BOX, SHAPES, T};
use super::stats::TetrioStats;
pub use view::Snapshot;

/// A key of TETR.IO's replays.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Key {
    MoveLeft,
    MoveRight,
    SoftDrop,
    RotateCcw,
    RotateCw,
    Rotate180,
    Hold,
    HardDrop,
}

impl Key {
    pub fn parse(name: &str) -> Option<Key> {
        Some(match name {
            "moveLeft" => Key::MoveLeft,
            "moveRight" => Key::MoveRight,
            "softDrop" => Key::SoftDrop,
            "rotateCCW" => Key::RotateCcw,
            "rotateCW" => Key::RotateCw,
            "rotate180" => Key::Rotate180,
            "hold" => Key::Hold,
            "hardDrop" => Key::HardDrop,
            _ => return None,
        })
    }
}

/// One replay event the engine acts on.
#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    KeyDown {
        key: Key,
        subframe: f64,
        hoisted: bool,
    },
    KeyUp {
        key: Key,
        subframe: f64,
    },
    /// Garbage sent by `gameid` (batch `iid`, having seen our attacks up to `ackiid`).
    Garbage {
        gameid: i64,
        iid: i64,
        ackiid: i64,
        amount: i64,
        size: usize,
        x: Option<i64>,
        /// The hole column of its rows, when the message sets it (version 15's `column`).
        column: Option<usize>,
    },
    /// The sender's confirmation of a batch: it becomes due `garbagespeed` frames later.
    Confirm {
        gameid: i64,
        iid: i64,
    },
    Targets(Vec<i64>),
}

/// A locked piece.
#[derive(Clone, Debug, PartialEq)]
pub struct Lock {
    pub frame: i64,
    pub piece: u8,
    pub rotation: u8,
    /// The box's column and the row of its top (rows counted up from 0 at the bottom).
    pub x: i32,
    pub y: i32,
    pub spin: SpinKind,
    pub lines: u32,
    pub allclear: bool,
    /// Attack sent after cancelling, and before it.
    pub sent: u32,
    pub attack: u32,
    /// Whether the piece came out of (or through) the hold.
    pub held: bool,
    /// The moves from spawn that brought it here (record tokens `L R D C A F`, one each).
    pub path: String,
    /// Locked by a hard drop (not by the lock delay).
    pub hard: bool,
    /// The frames the growing values had grown for at the lock.
    pub grown: i64,
    /// What the solo rules counted for the piece (presses, drops), which a record cannot say.
    pub counted: solo::PieceCounts,
}

/// Garbage rows put on the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Arrival {
    pub frame: i64,
    pub iid: i64,
    pub column: usize,
}

/// A batch of garbage this player's lock sent to a target: what another player's game
/// receives as a garbage message (a versus arena delivers it; a replay only says what came in).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outgoing {
    pub frame: i64,
    /// The target's game id, the batch's id among this player's, and its rows.
    pub target: i64,
    pub iid: i64,
    pub amount: i64,
}

/// Garbage announced to the player (after network cancelling).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Received {
    pub frame: i64,
    pub gameid: i64,
    pub iid: i64,
    pub amount: i64,
    pub x: Option<i64>,
}

const ROT_LEFT: u32 = 1;
const ROT_RIGHT: u32 = 2;
const ROT_180: u32 = 4;
const ROT_SPIN: u32 = 8;
const ROT_MINI: u32 = 16;
const ROT_ALL: u32 = 63;
const STATE_WALL: u32 = 64;
const STATE_FLOOR: u32 = 256;
const STATE_ALL: u32 = 64 | 128 | 256 | 512;
const ACTION_IHS: u32 = 1024;
const ACTION_FORCELOCK: u32 = 2048;
const ACTION_SOFTDROP: u32 = 4096;
const ACTION_MOVE: u32 = 8192;
const ACTION_ROTATE: u32 = 16384;

/// A value that grows by `increase` a second after `margin` frames.
#[derive(Clone, Debug)]
struct Growing {
    value: f64,
    increase: f64,
    margin: f64,
    frame: f64,
}

impl Growing {
    fn new(value: f64, increase: f64, margin: f64) -> Growing {
        Growing {
            value,
            increase,
            margin,
            frame: 0.,
        }
    }
    fn tick(&mut self) {
        self.frame += 1.;
        if self.frame > self.margin {
            self.value += self.increase / 60.;
        }
    }
}

#[derive(Clone, Debug)]
struct Falling {
    piece: u8,
    rotation: u8,
    x: i32,
    y: f64,
    locking: f64,
    lock_resets: u32,
    rot_resets: u32,
    safe_lock: u32,
    highest_y: f64,
    total_rotations: u32,
    irs: i32,
    path: String,
    held: bool,
}

#[derive(Clone, Debug, Default)]
struct Shift {
    held: bool,
    das: f64,
    arr: f64,
}

/// The state of one player's game.
pub struct Engine {
    o: Options,
    board: Vec<Vec<u8>>,
    bag_rng: ParkMiller,
    queue: std::collections::VecDeque<u8>,
    first_bag: bool,
    held: Option<u8>,
    hold_locked: bool,
    falling: Falling,
    last_spin: Option<SpinKind>,
    last_was_clear: bool,
    combo: i64,
    b2b: i64,
    garbage: GarbageQueue,
    /// The next frame whose survival row is still to rise, and the last row's hole.
    survival_next: i64,
    survival_last: Option<usize>,
    network: Network,
    targets: Vec<i64>,
    frame: i64,
    subframe: f64,
    state: u32,
    shifts: [Shift; 2],
    last_shift: i32,
    keys: [bool; 5],
    gravity: Growing,
    multiplier: Growing,
    cap: Growing,
    /// TETR.IO's statistics so far.
    pub stats: TetrioStats,
    /// Every lock, in order.
    pub locks: Vec<Lock>,
    /// Garbage rows tanked and garbage announced.
    pub arrivals: Vec<Arrival>,
    pub received: Vec<Received>,
    /// The network events (garbage, confirmations, targets) with the locks made before each
    /// and its frame.
    pub network_log: Vec<(usize, i64, Event)>,
    /// The batches sent to the targets, in order (a versus arena takes them out).
    pub outbox: Vec<Outgoing>,
    /// Whether the last spawn was blocked (the game is lost).
    pub topped_out: bool,
    solo: solo::SoloState,
}

const SOFT: usize = 0;
const CCW: usize = 1;
const CW: usize = 2;
const R180: usize = 3;
const HOLD: usize = 4;

impl Engine {
    pub fn new(o: Options) -> Engine {
        let rules = GarbageRules {
            speed: o.garbagespeed,
            hole_size: o.garbageholesize,
            cap_max: o.garbagecapmax,
            absolute_cap: o.garbageabsolutecap,
            messiness_change: o.messiness_change,
            messiness_inner: o.messiness_inner,
            messiness_nosame: o.messiness_nosame,
            messiness_timeout: o.messiness_timeout,
            messiness_center: o.messiness_center,
            opener_phase: o.openerphase,
            width: o.width,
        };
        let mut e = Engine {
            board: vec![vec![0; o.width]; o.height + o.buffer],
            bag_rng: ParkMiller::new(o.seed),
            queue: Default::default(),
            first_bag: true,
            held: None,
            hold_locked: false,
            falling: Falling {
                piece: 0,
                rotation: 0,
                x: 0,
                y: 0.,
                locking: 0.,
                lock_resets: 0,
                rot_resets: 0,
                safe_lock: 0,
                highest_y: 0.,
                total_rotations: 0,
                irs: 0,
                path: String::new(),
                held: false,
            },
            last_spin: None,
            last_was_clear: false,
            combo: -1,
            b2b: -1,
            garbage: GarbageQueue::new(rules, o.seed),
            survival_next: 0,
            survival_last: None,
            network: Network::default(),
            targets: Vec::new(),
            frame: 0,
            subframe: 0.,
            state: 0,
            shifts: Default::default(),
            last_shift: -1,
            keys: [false; 5],
            gravity: Growing::new(o.g, o.gincrease, o.gmargin),
            multiplier: Growing::new(o.garbagemultiplier, o.garbageincrease, o.garbagemargin),
            cap: Growing::new(o.garbagecap, o.garbagecapincrease, o.garbagecapmargin),
            stats: TetrioStats::default(),
            locks: Vec::new(),
            arrivals: Vec::new(),
            received: Vec::new(),
            network_log: Vec::new(),
            outbox: Vec::new(),
            topped_out: false,
            solo: Default::default(),
            o,
        };
        e.solo_start();
        e.next_piece(false, false);
        e
    }

    /// The next piece (a TETR.IO letter index). Before taking it TETR.IO deals bags until
    /// at least seven pieces wait: the moment a bag is dealt matters where the same
    /// generator also draws garbage holes (survival), not the order of the pieces.
    fn draw(&mut self) -> u8 {
        while self.queue.len() < 7 {
            self.deal_bag();
        }
        self.queue.pop_front().expect("a bag was dealt")
    }

    fn deal_bag(&mut self) {
        let mut bag = self.bag_rng.bag();
        if self.first_bag && self.o.no_szo {
            for _ in 0..7 {
                if [0, 2, 3].contains(&bag[0]) {
                    bag.rotate_left(1);
                } else {
                    break;
                }
            }
        }
        self.first_bag = false;
        self.queue.extend(bag);
    }

    /// Raises the survival rows due up to `frame` (those at its start too when `inclusive`).
    /// The frame loop calls it each frame; a record replay, which jumps from lock to lock,
    /// calls it before each piece's moves.
    pub fn raise_survival_rows(&mut self, frame: i64, inclusive: bool) {
        let Some(s) = self.o.survival else {
            return;
        };
        while self.survival_next < frame || (inclusive && self.survival_next == frame) {
            if s.due(self.survival_next) {
                let column = s.column(&mut self.bag_rng, self.survival_last, self.o.width);
                self.survival_last = Some(column);
                self.insert_garbage(Tanked {
                    cid: 0,
                    column,
                    size: 1,
                });
                // The row rises under the piece in play, which stays where it is; where it
                // would now overlap the stack it is pushed up a row (never seen in a replay:
                // the public survival game's rows all rose clear of the piece).
                if !self.fits_at(self.falling.x, self.falling.y) {
                    self.falling.y += 1.;
                    self.falling.highest_y += 1.;
                }
            }
            self.survival_next += 1;
        }
    }

    fn height(&self) -> i32 {
        self.board.len() as i32
    }

    fn legal(&self, piece: u8, rot: u8, x: i32, row: i32) -> bool {
        let h = self.height();
        let w = self.o.width as i32;
        SHAPES[piece as usize][rot as usize]
            .iter()
            .all(|&(bx, by)| {
                let (cx, cy) = (x + bx, row - by);
                cx >= 0 && cx < w && cy >= 0 && cy < h && self.board[cy as usize][cx as usize] == 0
            })
    }

    fn fits_at(&self, x: i32, y: f64) -> bool {
        self.legal(
            self.falling.piece,
            self.falling.rotation,
            x,
            y.floor() as i32,
        )
    }

    /// Runs one frame: its events, then the frame's shifting and falling.
    pub fn tick(&mut self, events: &[Event]) {
        self.frame_run(events, true)
    }

    /// Runs a frame's events but not its shifting and falling (the last frame of a game
    /// stopped from outside: [`crate::games::tetrio::simulate`]).
    pub fn tick_last(&mut self, events: &[Event]) {
        self.frame_run(events, false)
    }

    fn frame_run(&mut self, events: &[Event], physics: bool) {
        let ended = self.solo.ended;
        self.subframe = 0.;
        if !self.solo.ended {
            self.raise_survival_rows(self.frame, true);
        }
        for e in events {
            self.run(e);
        }
        self.frame += 1;
        // After the end the pieces stop, but garbage messages still arrive and count.
        if !self.solo.ended && physics {
            self.process_all_shift(1. - self.subframe);
            self.fall(1. - self.subframe);
        }
        // A piece locked by gravity that tops out ends the game in this frame.
        if self.topped_out {
            self.solo.ended = true;
        }
        self.gravity.tick();
        self.multiplier.tick();
        self.cap.tick();
        if !ended {
            self.solo_frame_end();
        }
    }

    /// Whether the game has ended: its objective reached, or topped out.
    pub fn ended(&self) -> bool {
        self.solo.ended
    }

    /// The frame count and the number of frames the growing values (gravity, garbage
    /// multiplier and cap) have grown for.
    pub fn clock(&self) -> (i64, i64) {
        (self.frame, self.multiplier.frame as i64)
    }

    /// Sets the clock (a record replay, which has no frames, jumps to each lock's).
    pub fn set_clock(&mut self, frame: i64, grown: i64) {
        self.frame = frame;
        while (self.multiplier.frame as i64) < grown {
            self.gravity.tick();
            self.multiplier.tick();
            self.cap.tick();
        }
    }

    /// A copy of the game to try keys on: everything but what was logged so far (locks,
    /// garbage rows, messages, batches sent), which a trial does not read and which grows
    /// with the game.
    pub fn probe(&self) -> Engine {
        Engine {
            o: self.o.clone(),
            board: self.board.clone(),
            bag_rng: self.bag_rng.clone(),
            queue: self.queue.clone(),
            first_bag: self.first_bag,
            held: self.held,
            hold_locked: self.hold_locked,
            falling: self.falling.clone(),
            last_spin: self.last_spin,
            last_was_clear: self.last_was_clear,
            combo: self.combo,
            b2b: self.b2b,
            garbage: self.garbage.clone(),
            survival_next: self.survival_next,
            survival_last: self.survival_last,
            network: self.network.clone(),
            targets: self.targets.clone(),
            frame: self.frame,
            subframe: self.subframe,
            state: self.state,
            shifts: self.shifts.clone(),
            last_shift: self.last_shift,
            keys: self.keys,
            gravity: self.gravity.clone(),
            multiplier: self.multiplier.clone(),
            cap: self.cap.clone(),
            stats: self.stats.clone(),
            locks: Vec::new(),
            arrivals: Vec::new(),
            received: Vec::new(),
            network_log: Vec::new(),
            outbox: Vec::new(),
            topped_out: self.topped_out,
            solo: self.solo.clone(),
        }
    }

    /// The piece in play: its TETR.IO index, rotation state, box column and the row of its
    /// box's top (rows up from 0), and the spin its last move would lock with.
    pub fn in_play(&self) -> (u8, u8, i32, i32, Option<SpinKind>) {
        let f = &self.falling;
        (f.piece, f.rotation, f.x, f.y.floor() as i32, self.last_spin)
    }

    /// Whether the hold may be used now.
    pub fn hold_allowed(&self) -> bool {
        !self.hold_locked && self.o.display_hold
    }

    /// The rows of garbage waiting (announced, not yet on the board).
    pub fn incoming(&self) -> i64 {
        self.garbage.size()
    }

    /// The most garbage rows a lock lets in now: `garbagecap`, grown by `garbagecapincrease`,
    /// at most `garbagecapmax`.
    pub fn garbage_cap(&self) -> i64 {
        self.cap.value.min(self.garbage.rules.cap_max).floor() as i64
    }

    /// The options the game plays.
    pub fn options(&self) -> &Options {
        &self.o
    }

    /// Runs one event outside the frame loop (a record replay's garbage).
    pub fn feed(&mut self, e: &Event) {
        self.run(e);
    }

    /// One unit move of a record: `L R D C A F` or `H` (hold). False if it did nothing.
    pub fn apply(&mut self, op: char) -> bool {
        match op {
            'L' | 'R' => {
                self.last_shift = if op == 'L' { -1 } else { 1 };
                self.shift_once()
            }
            'D' => {
                let row = self.falling.y.floor();
                self.internal_fall(1.) && self.falling.y.floor() < row
            }
            'C' | 'A' | 'F' => {
                let before = (self.falling.x, self.falling.rotation);
                self.rotate(match op {
                    'C' => 1,
                    'A' => 3,
                    _ => 2,
                });
                before != (self.falling.x, self.falling.rotation) || self.last_spin.is_some()
            }
            'H' => {
                let n = self.stats.holds;
                self.hold();
                self.stats.holds > n
            }
            _ => false,
        }
    }

    /// Drops the piece in play to the floor and locks it (`hard`: by a hard drop).
    pub fn drop_and_lock(&mut self, hard: bool) {
        let mut rows = 0;
        while self.internal_fall(1.) {
            rows += 1;
        }
        if hard {
            self.drop_points(rows as f64 * crate::games::tetrio::solo::HARD_DROP_POINTS);
        }
        self.lock(hard);
    }

    /// Locks the piece in play as [`Engine::drop_and_lock`] does, with what the solo rules
    /// counted for it when the player played it (`counted`, kept in a game file): its key
    /// presses and drop points instead of those the record's moves would give.
    pub fn drop_and_lock_counted(&mut self, hard: bool, counted: &solo::PieceCounts) {
        while self.internal_fall(1.) {}
        self.set_piece_counts(counted);
        self.lock(hard);
    }

    fn run(&mut self, e: &Event) {
        if self.solo.ended {
            // Keys after the end do nothing, but the rest of the frame's keys still move its
            // clock (the game's final time).
            if let Event::KeyDown { subframe, .. } | Event::KeyUp { subframe, .. } = e {
                self.subframe = self.subframe.max(*subframe);
                return;
            }
        }
        if !matches!(e, Event::KeyDown { .. } | Event::KeyUp { .. }) {
            self.network_log
                .push((self.locks.len(), self.frame, e.clone()));
        }
        match e {
            Event::KeyDown {
                key,
                subframe,
                hoisted,
            } => {
                // The part of the frame before the key is played first: when the lock delay
                // runs out in it, the key counts for the next piece (TETR.IO's finesse). A
                // hard drop that `safelock` ignores is not an input.
                self.process_subframe(*subframe);
                if !(*key == Key::HardDrop && self.falling.safe_lock != 0) {
                    self.count_key(*key);
                }
                self.keydown(*key, *subframe, *hoisted);
            }
            Event::KeyUp { key, subframe } => self.keyup(*key, *subframe),
            Event::Garbage {
                gameid,
                iid,
                ackiid,
                amount,
                size,
                x,
                column,
            } => {
                let amount = if self.o.passthrough_network {
                    self.network.receive(*gameid, *ackiid, *amount)
                } else {
                    *amount
                };
                self.garbage.receive(Incoming {
                    frame: PARKED,
                    amount: amount.max(0) as u32,
                    size: *size,
                    cid: *iid,
                    gameid: *gameid,
                    column: *column,
                });
                self.received.push(Received {
                    frame: self.frame,
                    gameid: *gameid,
                    iid: *iid,
                    amount,
                    x: *x,
                });
            }
            // TETR.IO counts garbage as received when the sender confirms it: what is left of
            // the batch then, after the player's own attacks cancelled part of it.
            Event::Confirm { gameid, iid } => {
                self.stats.garbage.received += self.garbage.confirm(*iid, *gameid, self.frame);
            }
            Event::Targets(t) => self.targets = t.clone(),
        }
        if self.topped_out {
            self.solo.ended = true;
        }
    }
}
