//! One game of a match: two TETR.IO engines run frame by frame side by side, each player's
//! keys from its bot's moves at its pace, and each lock's attack delivered to the other as
//! TETR.IO's garbage messages. Every event a player's engine acts on is kept, so its round of
//! the `.ttrm` replays to the same game.
//!
//! **The clock.** Frame by frame, from 0. Player `p`'s k-th piece (from 0) is due to drop at
//! frame `round(offset + (k + 1) · 60 / pps)`; the player who does not start has an offset
//! of half a piece, so the two never lock in step. When a piece spawns the game stops, the
//! bot is asked (wall time does not count), and the keys that play its move are laid out
//! from the next frame to the due one (sooner when waiting would let gravity lock the piece
//! elsewhere, later when the keys need more frames than the pace gives).
//!
//! **The network.** A batch a lock sends in frame f reaches the other player in frame f + 1
//! as an `interaction` message, confirmed in the same frame (`interaction_confirm`): a
//! network without latency. It carries the id of the last batch of the receiver the sender
//! had received (`ackiid`), so two attacks sent in the same frame cross and cancel as
//! TETR.IO's passthrough `zero` says. The engine does the rest: cancelling by clears,
//! `garbagespeed` frames before a confirmed batch is due, the cap a lock, the hole columns.

use super::bots::{Fault, Player, Start};
use super::reach;
use crate::games::tetrio;
use crate::games::tetrio::engine::{Engine, Event};
use crate::games::tetrio::export::Press;
use crate::games::tetrio::options::Options;
use crate::games::tetrio::pieces::LETTERS;
use crate::piece::Shape;
use crate::search::online::Incoming;
use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};

/// Previews a bot sees (TETR.IO's `nextcount`).
pub const PREVIEWS: usize = 5;

/// What the bot was last told, to send only what changed: the queue it knows (the piece in
/// play first), its hold, and the number of garbage rows on the board then.
struct Told {
    queue: VecDeque<u8>,
    hold: Option<u8>,
    arrivals: usize,
}

/// One player of a game.
pub struct Side<'a> {
    pub engine: Engine,
    pub gameid: i64,
    pub bot: &'a mut Player,
    /// Frames a piece, and the offset of the first.
    period: f64,
    offset: f64,
    /// The presses of the piece in play, from its spawn to its drop.
    pending: VecDeque<Press>,
    /// Garbage messages to act on, with their frame.
    inbox: VecDeque<(i64, Event)>,
    /// The id of the last batch of the other player received.
    seen: i64,
    told: Option<Told>,
    /// Locks made when the bot was last asked.
    asked_at: usize,
    /// Every event the engine acted on, with its frame (the `.ttrm`'s events).
    pub events: Vec<(i64, Event)>,
}

impl<'a> Side<'a> {
    pub fn new(options: Options, gameid: i64, bot: &'a mut Player, pps: f64, late: bool) -> Self {
        let period = 60.0 / pps;
        Side {
            engine: Engine::new(options),
            gameid,
            bot,
            period,
            offset: if late { period / 2.0 } else { 0.0 },
            pending: VecDeque::new(),
            inbox: VecDeque::new(),
            seen: 0,
            told: None,
            asked_at: 0,
            events: Vec::new(),
        }
    }

    /// Runs frame `f`: the messages due, then the keys.
    fn tick(&mut self, f: i64) {
        let mut batch = Vec::new();
        while self.inbox.front().is_some_and(|(at, _)| *at <= f) {
            let (_, e) = self.inbox.pop_front().expect("checked");
            if let Event::Garbage { iid, .. } = e {
                self.seen = self.seen.max(iid);
            }
            batch.push(e);
        }
        while self.pending.front().is_some_and(|p| p.tenth < (f + 1) * 10) {
            let p = self.pending.pop_front().expect("checked");
            batch.push(p.event());
        }
        self.engine.tick(&batch);
        self.events.extend(batch.into_iter().map(|e| (f, e)));
    }

    /// The TBP position of the piece in play.
    fn start_message(&self) -> Start {
        let snap = self.engine.snapshot(PREVIEWS);
        let letter = |c: u8| match c {
            0 => None,
            8 => Some("G".to_string()),
            c => Some(LETTERS[(c - 1) as usize].to_string()),
        };
        Start {
            board: snap
                .rows
                .iter()
                .map(|r| r.iter().map(|&c| letter(c)).collect())
                .collect(),
            queue: snap.next.iter().map(|&p| reach::shape_of(p)).collect(),
            hold: snap.hold.map(reach::shape_of),
            combo: (snap.combo + 1).max(0) as u32,
            back_to_back: snap.b2b >= 0,
            bag_state: self
                .engine
                .bag_after(PREVIEWS)
                .into_iter()
                .map(reach::shape_of)
                .collect(),
        }
    }

    /// Tells the bot the position: the new pieces in view after its last move, or the
    /// whole position when garbage came onto the board (or at the first piece).
    fn tell(&mut self) -> Result<(), Fault> {
        let snap = self.engine.snapshot(PREVIEWS);
        let arrivals = self.engine.arrivals.len();
        let fresh = match &self.told {
            Some(t) => {
                t.arrivals != arrivals
                    || t.hold != snap.hold
                    || t.queue.len() > snap.next.len()
                    || !t.queue.iter().zip(&snap.next).all(|(a, b)| a == b)
            }
            None => true,
        };
        if fresh {
            self.bot.start(&self.start_message())?;
        } else {
            let known = self.told.as_ref().map_or(0, |t| t.queue.len());
            for &p in &snap.next[known..] {
                self.bot.new_piece(reach::shape_of(p))?;
            }
        }
        self.told = Some(Told {
            queue: snap.next.iter().copied().collect(),
            hold: snap.hold,
            arrivals,
        });
        Ok(())
    }

    /// Asks the bot for the piece that spawned in frame `spawn` and lays out its keys.
    fn decide(&mut self, spawn: i64) -> Result<(), Fault> {
        let k = self.engine.locks.len();
        self.asked_at = k;
        let due = (self.offset + (k + 1) as f64 * self.period).round() as i64;
        self.tell()?;
        self.bot.meter(self.meter());
        let moves = self.bot.suggest()?;
        let mut first: Option<String> = None;
        for mv in &moves {
            let refusal = match reach::reach(&self.engine, mv) {
                Ok(r) => match reach::keys(&self.engine, &r, spawn, due.max(spawn + 1)) {
                    Some((presses, _)) => {
                        self.pending = presses.into();
                        self.bot.play(mv)?;
                        self.after_move(mv.location.piece);
                        return Ok(());
                    }
                    None => reach::Refusal::NoKeys(format!("{:?}", r.path)),
                },
                Err(r) => r,
            };
            first.get_or_insert(refusal.to_string());
        }
        match first {
            Some(why) => Err(Fault::Illegal(why)),
            None => Err(Fault::Forfeit(String::new())),
        }
    }

    /// The garbage meter as the player sees it: the rows waiting, the most a lock lets in,
    /// and the hole of the last garbage row that came in (on the board for all to see).
    fn meter(&self) -> Incoming {
        let e = &self.engine;
        Incoming {
            rows: e.incoming().clamp(0, u32::MAX as i64) as u32,
            cap: e.garbage_cap().clamp(0, u32::MAX as i64) as u32,
            hole: e.arrivals.last().map(|a| a.column),
        }
    }

    /// What the bot knows after its move: the piece played off its queue, the hold taken.
    fn after_move(&mut self, piece: Shape) {
        let Some(t) = self.told.as_mut() else {
            return;
        };
        let played = reach::tetrio_index(piece);
        let Some(&current) = t.queue.front() else {
            return;
        };
        t.queue.pop_front();
        if played != current {
            match t.hold {
                Some(_) => t.hold = Some(current),
                None => {
                    t.hold = Some(current);
                    t.queue.pop_front();
                }
            }
        }
    }

    /// Ends this player's game from outside in frame `f`, the other player having lost in it:
    /// TETR.IO stops a survivor's game before that frame's shift and fall, so the engine is
    /// played again with that frame's events only. The import replays the winner's round of
    /// the `.ttrm` the same way, so the two agree (a soft drop in that frame scores no row).
    fn stop_from_outside(&mut self, f: i64) {
        let options = self.engine.options().clone();
        self.engine = tetrio::play_events(options, &self.events, f, true, |_, _| {});
    }

    /// Whether a piece locked since the bot was last asked.
    fn locked(&self) -> bool {
        self.engine.locks.len() > self.asked_at
    }
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum End {
    /// A player topped out (its index), or both in the same frame (`None`).
    ToppedOut(Option<usize>),
    /// A player's bot failed (its index).
    Fault(usize, Fault),
    /// The game reached the frame limit: a draw.
    TimeLimit,
    /// Stopped by a signal: the game is not counted.
    Interrupted,
}

/// Plays a game to its end: `sides` in the order they act (the starter first). Returns how
/// it ended and its last frame.
pub fn play(sides: &mut [Side; 2], max_frames: i64, stop: &AtomicBool) -> (End, i64) {
    let ids = [sides[0].gameid, sides[1].gameid];
    for (i, s) in sides.iter_mut().enumerate() {
        s.inbox.push_back((0, Event::Targets(vec![ids[1 - i]])));
        s.tick(0);
    }
    for (i, side) in sides.iter_mut().enumerate() {
        if let Err(fault) = side.bot.launch().and_then(|_| side.decide(0)) {
            return lost(sides, i, End::Fault(i, fault), 0);
        }
    }
    let mut f = 0;
    loop {
        f += 1;
        for i in 0..2 {
            sides[i].tick(f);
            let sent = std::mem::take(&mut sides[i].engine.outbox);
            let (from, seen) = (sides[i].gameid, sides[i].seen);
            for batch in sent {
                let other = &mut sides[1 - i];
                other.inbox.push_back((
                    f + 1,
                    Event::Garbage {
                        gameid: from,
                        iid: batch.iid,
                        ackiid: seen,
                        amount: batch.amount,
                        size: 1,
                        x: None,
                        column: None,
                    },
                ));
                other.inbox.push_back((
                    f + 1,
                    Event::Confirm {
                        gameid: from,
                        iid: batch.iid,
                    },
                ));
            }
        }
        let out = [sides[0].engine.topped_out, sides[1].engine.topped_out];
        match out {
            [true, true] => return (End::ToppedOut(None), f),
            [true, false] => return lost(sides, 0, End::ToppedOut(Some(0)), f),
            [false, true] => return lost(sides, 1, End::ToppedOut(Some(1)), f),
            _ => {}
        }
        if stop.load(Ordering::Relaxed) {
            return (End::Interrupted, f);
        }
        for (i, side) in sides.iter_mut().enumerate() {
            if side.locked() {
                if let Err(fault) = side.decide(f) {
                    return lost(sides, i, End::Fault(i, fault), f);
                }
            }
        }
        if f >= max_frames {
            return (End::TimeLimit, f);
        }
    }
}

/// The end of a game player `loser` lost in frame `f`: the winner's game is stopped there
/// from outside.
fn lost(sides: &mut [Side; 2], loser: usize, end: End, f: i64) -> (End, i64) {
    sides[1 - loser].stop_from_outside(f);
    (end, f)
}
