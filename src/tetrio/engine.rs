//! TETR.IO's game engine, frame by frame: the handling model (DAS, ARR, DCD, SDF, keys on
//! subframes), gravity and its growth, lock delay and lock resets, SRS+ rotation with 180s,
//! hold, spins, clears, combo and back-to-back, attack with the garbage multiplier, and
//! incoming garbage (cancelling, tanking). Written from the rules described in
//! `docs/tetrio.md`.

use super::attack::{attack, SpinKind};
use super::garbage::{GarbageQueue, GarbageRules, Incoming, Network, ParkMiller, Tanked, PARKED};
use super::options::{Options, SpinRule};
use super::pieces::{kicks, BOX, SHAPES, T};
use super::stats::TetrioStats;

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
}

/// Garbage rows put on the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Arrival {
    pub frame: i64,
    pub iid: i64,
    pub column: usize,
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
    /// Whether the last spawn was blocked (the game is lost).
    pub topped_out: bool,
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
            topped_out: false,
            o,
        };
        e.next_piece(false, false);
        e
    }

    /// The pieces dealt so far and the next ones (TETR.IO letter indices).
    fn draw(&mut self) -> u8 {
        if self.queue.is_empty() {
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
        self.queue.pop_front().expect("a bag was dealt")
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
        self.subframe = 0.;
        for e in events {
            self.run(e);
        }
        self.frame += 1;
        self.process_all_shift(1. - self.subframe);
        self.fall(1. - self.subframe);
        self.gravity.tick();
        self.multiplier.tick();
        self.cap.tick();
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
        while self.internal_fall(1.) {}
        self.lock(hard);
    }

    fn run(&mut self, e: &Event) {
        if !matches!(e, Event::KeyDown { .. } | Event::KeyUp { .. }) {
            self.network_log
                .push((self.locks.len(), self.frame, e.clone()));
        }
        match e {
            Event::KeyDown {
                key,
                subframe,
                hoisted,
            } => self.keydown(*key, *subframe, *hoisted),
            Event::KeyUp { key, subframe } => self.keyup(*key, *subframe),
            Event::Garbage {
                gameid,
                iid,
                ackiid,
                amount,
                size,
                x,
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
    }

    fn process_subframe(&mut self, subframe: f64) {
        if subframe <= self.subframe {
            return;
        }
        let delta = subframe - self.subframe;
        self.process_all_shift(delta);
        self.fall(delta);
        self.subframe = subframe;
    }

    fn keydown(&mut self, key: Key, subframe: f64, hoisted: bool) {
        self.process_subframe(subframe);
        match key {
            Key::MoveLeft | Key::MoveRight => {
                let (i, dir) = if key == Key::MoveLeft {
                    (0, -1)
                } else {
                    (1, 1)
                };
                let h = &self.o.handling;
                self.shifts[i] = Shift {
                    held: true,
                    das: if hoisted { h.das - h.dcd } else { 0. },
                    arr: h.arr,
                };
                self.last_shift = dir;
                self.shift_once();
            }
            Key::SoftDrop => self.keys[SOFT] = true,
            Key::RotateCcw => {
                self.keys[CCW] = true;
                self.rotate(3);
            }
            Key::RotateCw => {
                self.keys[CW] = true;
                self.rotate(1);
            }
            Key::Rotate180 => {
                self.keys[R180] = true;
                if self.o.allow180 {
                    self.rotate(2);
                }
            }
            Key::Hold => {
                self.keys[HOLD] = true;
                self.hold();
            }
            Key::HardDrop => {
                if self.o.allow_harddrop && self.falling.safe_lock == 0 {
                    self.hard_drop();
                }
            }
        }
    }

    fn keyup(&mut self, key: Key, subframe: f64) {
        self.process_subframe(subframe);
        let h = self.o.handling.clone();
        match key {
            Key::MoveLeft | Key::MoveRight => {
                let (i, other) = if key == Key::MoveLeft { (0, 1) } else { (1, 0) };
                self.shifts[i].held = false;
                self.shifts[i].das = 0.;
                if self.shifts[other].held {
                    self.last_shift = if other == 0 { -1 } else { 1 };
                }
                if h.cancel {
                    self.shifts[other].arr = h.arr;
                    self.shifts[other].das = 0.;
                }
            }
            Key::SoftDrop => {
                self.state |= ACTION_SOFTDROP;
                self.keys[SOFT] = false;
            }
            Key::RotateCcw => self.keys[CCW] = false,
            Key::RotateCw => self.keys[CW] = false,
            Key::Rotate180 => self.keys[R180] = false,
            Key::Hold => self.keys[HOLD] = false,
            Key::HardDrop => {}
        }
    }

    fn is_20g(&self) -> bool {
        let g = self.gravity.value;
        let h = self.o.height as f64;
        let is20 = g > h;
        let mode = self.o.gravitymay20g;
        if self.keys[SOFT] {
            let prefer = self.o.handling.may20g || (is20 && mode);
            return (self.o.handling.sdf == 41. || g * self.o.handling.sdf > h) && prefer;
        }
        is20 && mode
    }

    fn should_lock(&self) -> bool {
        !self.o.infinite_movement && self.falling.lock_resets >= self.o.lockresets
    }

    fn should_fall_faster(&self) -> bool {
        !self.o.infinite_movement && self.falling.rot_resets > self.o.lockresets + 15
    }

    /// Moves the piece down by `value` rows (a fraction); false if it cannot.
    fn internal_fall(&mut self, value: f64) -> bool {
        let y = self.falling.y;
        let mut y1 = (1e6 * (y - value) + 0.5).floor() / 1e6;
        let mut y2 = y - 1.;
        if y1 % 1. == 0. {
            y1 -= 1e-6;
        }
        if y2 % 1. == 0. {
            y2 += 2e-6;
        }
        let x = self.falling.x;
        if !self.fits_at(x, y1) || !self.fits_at(x, y2) {
            return false;
        }
        let highest = self.falling.highest_y;
        if highest > y1 {
            self.falling.highest_y = y1.floor();
        }
        if y1.floor() < y.floor() {
            self.falling.path.push('D');
        }
        self.falling.y = y1;
        self.last_spin = None;
        self.state &= !STATE_FLOOR;
        if y1 < highest || self.o.infinite_movement {
            self.falling.lock_resets = 0;
            self.falling.rot_resets = 0;
        }
        true
    }

    fn internal_lock(&mut self, subframe: f64) -> bool {
        self.falling.locking += subframe;
        self.falling.locking > self.o.locktime
            || self.state & ACTION_FORCELOCK != 0
            || self.should_lock()
    }

    fn internal_dcd(&mut self) {
        let h = &self.o.handling;
        if self.state & STATE_WALL == 0 || h.dcd == 0. {
            return;
        }
        for s in &mut self.shifts {
            s.das = s.das.min(h.das - h.dcd);
            s.arr = h.arr;
        }
    }

    fn fall(&mut self, subframe: f64) {
        if self.falling.safe_lock > 0 {
            self.falling.safe_lock -= 1;
        }
        let mut fall = self.gravity.value * subframe;
        if self.keys[SOFT] {
            let sdf = self.o.handling.sdf;
            if sdf == 41. {
                fall = 400. * subframe;
            } else {
                fall *= sdf;
                fall = fall.max(0.05 * sdf);
            }
        }
        let (x, y) = (self.falling.x, self.falling.y);
        if self.should_lock() && !self.fits_at(x, y - 1.) {
            fall = 20.;
            self.state |= ACTION_FORCELOCK;
        }
        if self.should_fall_faster() {
            fall +=
                0.5 * subframe * (self.falling.rot_resets as f64 - (self.o.lockresets + 15) as f64);
        }
        let mut drop = fall;
        while drop > 0. {
            let y = self.falling.y;
            if !self.internal_fall(drop.min(1.)) {
                if self.internal_lock(subframe) {
                    if self.o.handling.safelock {
                        self.falling.safe_lock = 7;
                    }
                    self.lock(false);
                }
                return;
            }
            if y.floor() != self.falling.y.floor() {
                self.state &= !ROT_ALL;
            }
            drop -= drop.min(1.);
        }
    }

    fn shift_once(&mut self) -> bool {
        self.state |= ACTION_MOVE;
        let dx = self.last_shift;
        let (x, y) = (self.falling.x, self.falling.y);
        if self.fits_at(x + dx, y) {
            self.falling.x += dx;
            self.falling.path.push(if dx < 0 { 'L' } else { 'R' });
            if self.falling.lock_resets < 31 {
                self.falling.lock_resets += 1;
            }
            self.state &= !(ROT_ALL | STATE_WALL);
            if self.is_20g() {
                self.slam();
            }
            if !self.should_lock() {
                self.falling.locking = 0.;
            }
            true
        } else {
            self.state |= STATE_WALL;
            false
        }
    }

    fn process_shift(&mut self, i: usize, delta: f64) {
        let dir = if i == 0 { -1 } else { 1 };
        if !self.shifts[i].held || self.last_shift != dir {
            return;
        }
        let h = self.o.handling.clone();
        let s = &mut self.shifts[i];
        let arr_delta = (delta - (h.das - s.das).max(0.)).max(0.);
        s.das = (s.das + delta).min(h.das);
        if s.das < h.das {
            return;
        }
        s.arr += arr_delta;
        if s.arr < h.arr {
            return;
        }
        let times = if h.arr == 0. {
            self.o.width as f64
        } else {
            (s.arr / h.arr).floor()
        };
        s.arr -= h.arr * times;
        for _ in 0..times as usize {
            self.shift_once();
        }
    }

    fn process_all_shift(&mut self, delta: f64) {
        self.process_shift(0, delta);
        self.process_shift(1, delta);
    }

    fn slam(&mut self) {
        while self.internal_fall(1.) {}
    }

    fn corner(&self, x: i32, y: i32) -> bool {
        x < 0
            || x >= self.o.width as i32
            || y < 0
            || y >= self.height()
            || self.board[y as usize][x as usize] != 0
    }

    fn detect_t_spin(&self, fin_or_tst: bool) -> SpinKind {
        if self.falling.piece != T {
            return SpinKind::None;
        }
        if fin_or_tst {
            return SpinKind::Normal;
        }
        let (x, y) = (self.falling.x + 1, self.falling.y.floor() as i32 - 1);
        let c = [
            self.corner(x - 1, y + 1),
            self.corner(x + 1, y + 1),
            self.corner(x + 1, y - 1),
            self.corner(x - 1, y - 1),
        ];
        if c.iter().filter(|&&b| b).count() < 3 {
            return SpinKind::None;
        }
        let r = self.falling.rotation as usize;
        if c[r] && c[(r + 1) % 4] {
            SpinKind::Normal
        } else {
            SpinKind::Mini
        }
    }

    fn immobile(&self) -> bool {
        let f = &self.falling;
        let row = f.y.floor() as i32;
        !self.legal(f.piece, f.rotation, f.x - 1, row)
            && !self.legal(f.piece, f.rotation, f.x + 1, row)
            && !self.legal(f.piece, f.rotation, f.x, row + 1)
            && !self.legal(f.piece, f.rotation, f.x, row - 1)
    }

    fn detect_spin(&self, fin_or_tst: bool) -> SpinKind {
        use SpinKind::*;
        let rule = self.o.spin;
        if rule == SpinRule::None {
            return None;
        }
        let is_t = self.falling.piece == T;
        let t = if is_t {
            self.detect_t_spin(fin_or_tst)
        } else {
            None
        };
        let all = self.immobile();
        match rule {
            SpinRule::None => None,
            SpinRule::TSpins => t,
            SpinRule::TSpinsPlus => t.max(if all && is_t { Mini } else { None }),
            SpinRule::All => {
                if t != None {
                    t
                } else if all {
                    Normal
                } else {
                    None
                }
            }
            SpinRule::AllMini => {
                if t != None {
                    t
                } else if all {
                    Mini
                } else {
                    None
                }
            }
            SpinRule::AllPlus => t.max(if all {
                if is_t {
                    Mini
                } else {
                    Normal
                }
            } else {
                None
            }),
            SpinRule::AllMiniPlus => t.max(if all { Mini } else { None }),
            SpinRule::MiniOnly => {
                if t == Normal {
                    Mini
                } else {
                    t.max(if all { Mini } else { None })
                }
            }
        }
    }

    /// Rotates by `amount` quarter turns clockwise (3 is counter-clockwise, 2 is a 180).
    fn rotate(&mut self, amount: u8) {
        let f = &self.falling;
        let from = f.rotation;
        let to = (from + amount) % 4;
        self.state |= ACTION_MOVE | ACTION_ROTATE;
        let max_movement = !self.o.infinite_movement && f.total_rotations > self.o.lockresets + 15;
        let (x, y) = (f.x, f.y);
        let mut found = None;
        if self.legal(f.piece, to, x, y.floor() as i32) {
            found = Some((x, y, None));
        } else {
            for (i, &(dx, dy)) in kicks(f.piece, from, to).iter().enumerate() {
                let ny = if max_movement {
                    y - dy as f64
                } else {
                    y.ceil() - 0.1 - dy as f64
                };
                if self.legal(f.piece, to, x + dx, ny.floor() as i32) {
                    found = Some((x + dx, ny, Some((i, dx, dy))));
                    break;
                }
            }
        }
        let Some((nx, ny, kick)) = found else { return };
        // The last test of the T's quarter turns from state 0 or 2 into state 1 or 3 (the
        // "TST" and "fin" kicks) always makes a full spin.
        let fin_or_tst = matches!(kick, Some((_, dx, 2))
            if (from == 0 || from == 2) && ((to == 3 && dx == 1) || (to == 1 && dx == -1)));
        let dir = if amount == 2 {
            self.state |= ROT_180;
            if to > from {
                1
            } else {
                -1
            }
        } else if amount == 1 {
            1
        } else {
            -1
        };
        let f = &mut self.falling;
        f.path.push(match amount {
            1 => 'C',
            3 => 'A',
            _ => 'F',
        });
        f.x = nx;
        f.y = ny;
        f.rotation = to;
        self.state |= if dir == 1 { ROT_RIGHT } else { ROT_LEFT };
        self.state &= !(ROT_SPIN | ROT_MINI | 32);
        let f = &mut self.falling;
        if f.lock_resets < 31 {
            f.lock_resets += 1;
        }
        if f.rot_resets < 63 {
            f.rot_resets += 1;
        }
        let spin = self.detect_spin(fin_or_tst);
        self.last_spin = Some(spin);
        if spin != SpinKind::None {
            self.state |= ROT_SPIN;
            if spin == SpinKind::Mini {
                self.state |= ROT_MINI;
            }
        }
        self.falling.total_rotations += 1;
        self.internal_dcd();
        if !self.should_lock() {
            self.falling.locking = 0.;
        }
    }

    fn next_piece(&mut self, ignore_blockout: bool, is_hold: bool) {
        let p = self.draw();
        self.initiate(p, ignore_blockout, is_hold);
    }

    fn initiate(&mut self, piece: u8, ignore_blockout: bool, is_hold: bool) {
        if self.o.handling.irs_hold {
            let mut r: i32 = 0;
            if self.keys[CCW] {
                r -= 1;
            }
            if self.keys[CW] {
                r += 1;
            }
            if self.keys[R180] {
                r += 2;
            }
            self.falling.irs = r.rem_euclid(4);
        }
        if self.o.handling.ihs_hold && self.keys[HOLD] && !is_hold {
            self.state |= ACTION_IHS;
        }
        self.internal_dcd();
        self.state &= !(ROT_ALL
            | STATE_ALL
            | ACTION_FORCELOCK
            | ACTION_SOFTDROP
            | ACTION_MOVE
            | ACTION_ROTATE);
        if !is_hold {
            self.hold_locked = false;
        }
        let prev = &self.falling;
        self.falling = Falling {
            piece,
            rotation: 0,
            x: (self.o.width as f64 / 2. - BOX[piece as usize] as f64 / 2.).floor() as i32,
            y: self.o.height as f64 + 2.04,
            locking: 0.,
            lock_resets: 0,
            rot_resets: 0,
            safe_lock: prev.safe_lock,
            highest_y: self.o.height as f64 + 2.,
            total_rotations: 0,
            irs: prev.irs,
            path: String::new(),
            held: is_hold,
        };
        if !ignore_blockout && self.blocked_out() {
            self.state ^= ACTION_IHS;
            self.falling.irs = 0;
            self.topped_out = true;
        } else if self.state & ACTION_IHS != 0 {
            self.state ^= ACTION_IHS;
            self.hold();
        } else {
            if self.falling.irs != 0 {
                let irs = self.falling.irs as u8;
                self.rotate(irs);
                self.falling.irs = 0;
            }
            if self.blocked_out() {
                self.topped_out = true;
            } else if self.is_20g() {
                self.slam();
            }
        }
    }

    fn blocked_out(&mut self) -> bool {
        let f = &self.falling;
        if self.fits_at(f.x, f.y) {
            return false;
        }
        if self.last_was_clear && self.o.clutch {
            let (y0, h0) = (self.falling.y, self.falling.highest_y);
            while (self.falling.y.floor() as i32) < self.height() {
                self.falling.y += 1.;
                self.falling.highest_y += 1.;
                if self.fits_at(self.falling.x, self.falling.y) {
                    return false;
                }
            }
            self.falling.y = y0;
            self.falling.highest_y = h0;
        }
        true
    }

    fn hold(&mut self) {
        if self.hold_locked || !self.o.display_hold {
            return;
        }
        self.hold_locked = !self.o.infinite_hold;
        self.stats.holds += 1;
        let current = self.falling.piece;
        match self.held.replace(current) {
            Some(p) => self.initiate(p, false, true),
            None => self.next_piece(false, true),
        }
        self.hold_locked = !self.o.infinite_hold;
    }

    fn hard_drop(&mut self) {
        while self.internal_fall(1.) {}
        self.lock(true);
    }

    fn lock(&mut self, hard: bool) {
        self.hold_locked = false;
        let f = self.falling.clone();
        let row = f.y.floor() as i32;
        let h = self.height();
        for &(bx, by) in &SHAPES[f.piece as usize][f.rotation as usize] {
            let (cx, cy) = (f.x + bx, row - by);
            if cy >= 0 && cy < h && cx >= 0 && cx < self.o.width as i32 {
                self.board[cy as usize][cx as usize] = f.piece + 1;
            }
        }
        let mut lines = 0u32;
        let mut garbage_cleared = 0u32;
        let width = self.o.width;
        self.board.retain(|r| {
            let full = r.iter().all(|&c| c != 0);
            if full {
                lines += 1;
                if r.contains(&8) {
                    garbage_cleared += 1;
                }
            }
            !full
        });
        while self.board.len() < self.o.height + self.o.buffer {
            self.board.push(vec![0; width]);
        }
        let pc = self.board.iter().all(|r| r.iter().all(|&c| c == 0));
        self.stats.garbage.cleared += garbage_cleared;
        let spin = self.last_spin.unwrap_or(SpinKind::None);
        let pc_b2b = pc && self.o.allclears && self.o.allclear_b2b > 0;
        let mut broke: Option<i64> = Some(self.b2b);
        if lines > 0 {
            self.combo += 1;
            if (spin != SpinKind::None || lines >= 4) && !pc_b2b {
                self.b2b += 1;
                broke = None;
            }
            if pc_b2b {
                self.b2b += self.o.allclear_b2b;
                broke = None;
            }
            if broke.is_some() {
                self.b2b = -1;
            }
        } else {
            self.combo = -1;
            broke = None;
        }
        let raw = attack(
            lines,
            spin,
            self.b2b.max(0) as u32,
            self.combo.max(0) as u32,
            self.o.b2bchaining,
            self.o.combo,
        );
        let mult = self.multiplier.value;
        let mut events: Vec<i64> = Vec::new();
        if raw > 0. {
            events.push((raw * mult).floor() as i64);
        }
        if let Some(btb) = broke {
            if self.o.b2bcharging && btb + 1 > self.o.b2bcharge_at {
                let surge = ((btb - self.o.b2bcharge_at + self.o.b2bcharge_base + 1) as f64 * mult)
                    .floor() as i64;
                let third = (surge as f64 / 3.).round() as i64;
                events.splice(0..0, [third, third, surge - 2 * third]);
            }
        }
        if pc && self.o.allclears {
            events.push((self.o.allclear_garbage * mult).floor() as i64);
        }
        events.retain(|&g| g > 0);
        let attack_sum: i64 = events.iter().sum();
        if self.o.hasgarbage {
            self.stats.garbage.attack += attack_sum as u32;
        }
        if lines > 0 {
            self.last_was_clear = true;
            while let Some(&g) = events.first() {
                let left = self.garbage.cancel(g, self.stats.piecesplaced as i64);
                if left == 0 {
                    events.remove(0);
                } else {
                    events[0] = left;
                    break;
                }
            }
        } else {
            self.last_was_clear = false;
            let rows = self.garbage.tank(self.frame, self.cap.value, hard);
            for t in rows {
                self.insert_garbage(t);
            }
        }
        self.count_clear(lines, spin, pc);
        let sent: i64 = events.iter().sum();
        for &t in &self.targets.clone() {
            for &g in &events {
                self.network.send(t, g);
            }
        }
        if self.o.hasgarbage {
            self.stats.garbage.sent += sent as u32;
        }
        self.stats.piecesplaced += 1;
        self.stats.lines += lines;
        self.stats.topcombo = self.stats.topcombo.max((self.combo + 1) as u32);
        self.stats.topbtb = self.stats.topbtb.max((self.b2b + 1) as u32);
        self.locks.push(Lock {
            frame: self.frame,
            piece: f.piece,
            rotation: f.rotation,
            x: f.x,
            y: row,
            spin,
            lines,
            allclear: pc,
            sent: sent as u32,
            attack: attack_sum as u32,
            held: f.held,
            path: f.path.clone(),
            hard,
            grown: self.multiplier.frame as i64,
        });
        self.next_piece(false, false);
        self.last_spin = None;
    }

    fn count_clear(&mut self, lines: u32, spin: SpinKind, pc: bool) {
        let c = &mut self.stats.clears;
        if pc {
            c.allclear += 1;
        }
        if spin != SpinKind::None {
            self.stats.tspins += 1;
        }
        let slot = match (spin, lines) {
            (SpinKind::None, 0) => return,
            (SpinKind::None, 1) => &mut c.singles,
            (SpinKind::None, 2) => &mut c.doubles,
            (SpinKind::None, 3) => &mut c.triples,
            (SpinKind::None, 4) => &mut c.quads,
            (SpinKind::None, _) => &mut c.pentas,
            (SpinKind::Mini, 0) => &mut c.minitspins,
            (SpinKind::Mini, 1) => &mut c.minitspinsingles,
            (SpinKind::Mini, 2) => &mut c.minitspindoubles,
            (SpinKind::Mini, 3) => &mut c.minitspintriples,
            (SpinKind::Mini, _) => &mut c.minitspinquads,
            (SpinKind::Normal, 0) => &mut c.realtspins,
            (SpinKind::Normal, 1) => &mut c.tspinsingles,
            (SpinKind::Normal, 2) => &mut c.tspindoubles,
            (SpinKind::Normal, 3) => &mut c.tspintriples,
            (SpinKind::Normal, 4) => &mut c.tspinquads,
            (SpinKind::Normal, _) => &mut c.tspinpentas,
        };
        *slot += 1;
    }

    fn insert_garbage(&mut self, t: Tanked) {
        let w = self.o.width;
        let row: Vec<u8> = (0..w)
            .map(|i| {
                if i >= t.column && i < t.column + t.size {
                    0
                } else {
                    8
                }
            })
            .collect();
        self.board.insert(0, row);
        // TETR.IO drops the row just under the top of the buffer, keeping the top one.
        let full = self.o.height + self.o.buffer;
        self.board.remove(full - 2);
        self.arrivals.push(Arrival {
            frame: self.frame,
            iid: t.cid,
            column: t.column,
        });
    }
}
