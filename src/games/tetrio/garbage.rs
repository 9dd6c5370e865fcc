//! Incoming garbage as TETR.IO keeps it: the park-Miller generator its seeds drive, the
//! queue of incoming batches (parked until the sender's confirmation, then held for
//! `garbagespeed` frames), cancelling by clears, tanking onto the board on a lock that clears
//! nothing (at most `garbagecap` rows a lock), the hole column and when it changes, and the
//! network cancelling of garbage that crossed an attack in flight (passthrough `zero`).

use std::collections::HashMap;

/// TETR.IO's seeded generator (Park–Miller, multiplier 16807 modulo 2³¹ − 1).
#[derive(Clone, Debug)]
pub struct ParkMiller(i64);

impl ParkMiller {
    pub fn new(seed: i64) -> ParkMiller {
        let mut v = seed % 2147483647;
        if v <= 0 {
            v += 2147483646;
        }
        ParkMiller(v)
    }
    pub fn step(&mut self) -> i64 {
        self.0 = 16807 * self.0 % 2147483647;
        self.0
    }
    /// A float in [0, 1).
    pub fn float(&mut self) -> f64 {
        (self.step() - 1) as f64 / 2147483646.0
    }
    /// A shuffled 7-bag in TETR.IO's letter order `Z L O S I J T` (indices 0..7).
    pub fn bag(&mut self) -> [u8; 7] {
        let mut b = [0, 1, 2, 3, 4, 5, 6];
        for i in (1..7).rev() {
            let r = (self.float() * (i + 1) as f64).floor() as usize;
            b.swap(i, r);
        }
        b
    }
}

/// The garbage options of a game.
#[derive(Clone, Debug)]
pub struct GarbageRules {
    pub speed: i64,
    pub hole_size: usize,
    pub cap_max: f64,
    pub absolute_cap: i64,
    pub messiness_change: f64,
    pub messiness_inner: f64,
    pub messiness_nosame: bool,
    pub messiness_timeout: i64,
    pub messiness_center: bool,
    pub opener_phase: i64,
    pub width: usize,
}

/// One batch of incoming garbage.
#[derive(Clone, Debug)]
pub struct Incoming {
    /// The frame it was confirmed (`i64::MAX / 2` until then).
    pub frame: i64,
    pub amount: u32,
    pub size: usize,
    /// The batch id (`iid`) and the sender's game id.
    pub cid: i64,
    pub gameid: i64,
    /// The hole column the message set (version 15), else the generator's.
    pub column: Option<usize>,
}

/// A row the queue puts on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tanked {
    pub cid: i64,
    pub column: usize,
    pub size: usize,
}

/// The unconfirmed frame: never ready.
pub const PARKED: i64 = i64::MAX / 4;

/// The queue of incoming garbage and its column generator.
#[derive(Clone, Debug)]
pub struct GarbageQueue {
    pub rules: GarbageRules,
    pub queue: Vec<Incoming>,
    last_tank_time: i64,
    last_column: Option<usize>,
    has_changed_column: bool,
    rng: ParkMiller,
    sent: i64,
}

impl GarbageQueue {
    pub fn new(rules: GarbageRules, seed: i64) -> GarbageQueue {
        GarbageQueue {
            rules,
            queue: Vec::new(),
            last_tank_time: 0,
            last_column: None,
            has_changed_column: false,
            rng: ParkMiller::new(seed),
            sent: 0,
        }
    }

    /// Rows waiting.
    pub fn size(&self) -> i64 {
        self.queue.iter().map(|g| g.amount as i64).sum()
    }

    pub fn receive(&mut self, g: Incoming) {
        if g.amount > 0 {
            self.queue.push(g);
        }
        let cap = if self.rules.absolute_cap > 0 {
            self.rules.absolute_cap
        } else {
            i64::MAX
        };
        while self.size() > cap {
            let over = self.size() - cap;
            let last = self
                .queue
                .last_mut()
                .expect("a queue over its cap is not empty");
            if last.amount as i64 <= over {
                self.queue.pop();
            } else {
                last.amount -= over as u32;
            }
        }
    }

    /// Confirms a batch: it is due `speed` frames after `frame`. Returns the rows left of it.
    pub fn confirm(&mut self, cid: i64, gameid: i64, frame: i64) -> u32 {
        match self
            .queue
            .iter_mut()
            .find(|g| g.cid == cid && g.gameid == gameid)
        {
            Some(g) => {
                g.frame = frame;
                g.amount
            }
            None => 0,
        }
    }

    /// Cancels incoming garbage with `amount` lines of attack; returns what is left to send.
    pub fn cancel(&mut self, amount: i64, pieces: i64) -> i64 {
        let mut send = amount;
        let mut cancel = 0;
        if pieces < self.rules.opener_phase && self.size() >= self.sent {
            cancel += amount;
        }
        while (send > 0 || cancel > 0) && self.size() > 0 {
            self.queue[0].amount -= 1;
            if self.queue[0].amount == 0 {
                self.queue.remove(0);
                if self.rng.float() < self.rules.messiness_change {
                    self.reroll();
                    self.has_changed_column = true;
                }
            }
            if send > 0 {
                send -= 1;
            } else {
                cancel -= 1;
            }
        }
        self.sent += send;
        send
    }

    fn column_width(&self) -> usize {
        (self.rules.width + 1).saturating_sub(self.rules.hole_size)
    }

    fn reroll(&mut self) -> usize {
        let center = if self.rules.messiness_center {
            (self.rules.width as f64 / 5.).round() as usize
        } else {
            0
        };
        let w = self.column_width() as f64;
        let c = center as f64;
        let col = match (self.rules.messiness_nosame, self.last_column) {
            (true, Some(last)) => {
                let mut col = center + (self.rng.float() * (w - 1. - 2. * c)).floor() as usize;
                if col >= last {
                    col += 1;
                }
                col
            }
            _ => center + (self.rng.float() * (w - 2. * c)).floor() as usize,
        };
        self.last_column = Some(col);
        col
    }

    /// The rows that go onto the board at a lock clearing nothing at `frame` (`hard`: the
    /// lock was a hard drop), at most `cap` of them.
    pub fn tank(&mut self, frame: i64, cap: f64, hard: bool) -> Vec<Tanked> {
        let mut out = Vec::new();
        if self.queue.is_empty() {
            return out;
        }
        self.queue.sort_by_key(|g| g.frame);
        if self.rules.messiness_timeout > 0
            && frame >= self.last_tank_time + self.rules.messiness_timeout
        {
            self.reroll();
            self.has_changed_column = true;
        }
        let lines = cap.min(self.rules.cap_max).floor() as i64;
        let limit = if hard { frame } else { frame - 1 };
        let mut i = 0;
        while i < lines && !self.queue.is_empty() {
            if self.queue[0].frame.saturating_add(self.rules.speed) > limit {
                break;
            }
            self.queue[0].amount -= 1;
            let reroll = match self.last_column {
                None => true,
                Some(_) => self.rng.float() < self.rules.messiness_inner,
            } && !self.has_changed_column;
            let column = if let Some(c) = self.queue[0].column {
                c
            } else if reroll {
                self.has_changed_column = true;
                self.reroll()
            } else {
                self.last_column.unwrap_or(0)
            };
            out.push(Tanked {
                cid: self.queue[0].cid,
                column,
                size: self.queue[0].size,
            });
            self.has_changed_column = false;
            if self.queue[0].amount == 0 {
                self.queue.remove(0);
                if self.rng.float() < self.rules.messiness_change {
                    self.reroll();
                    self.has_changed_column = true;
                }
            }
            i += 1;
        }
        out
    }
}

/// Network cancelling (passthrough `zero`): garbage arriving from a player is first taken
/// off the attacks sent to that player that it had not yet seen (`ackiid`).
#[derive(Clone, Debug, Default)]
pub struct Network {
    iid: i64,
    outgoing: HashMap<i64, Vec<(i64, i64)>>,
}

impl Network {
    /// Notes a batch sent to `target`; returns its id (`iid`), none for an empty batch.
    pub fn send(&mut self, target: i64, amount: i64) -> Option<i64> {
        if amount == 0 {
            return None;
        }
        self.iid += 1;
        self.outgoing
            .entry(target)
            .or_default()
            .push((self.iid, amount));
        Some(self.iid)
    }

    /// What is left of `amount` arriving from `from`, which had seen our attacks up to `ackiid`.
    pub fn receive(&mut self, from: i64, ackiid: i64, amount: i64) -> i64 {
        let mut left = amount;
        let list = self.outgoing.entry(from).or_default();
        let mut kept = Vec::new();
        for &(iid, amt) in list.iter() {
            if iid <= ackiid {
                continue;
            }
            let take = amt.min(left);
            left -= take;
            if amt - take > 0 {
                kept.push((iid, amt - take));
            }
        }
        *list = kept;
        left
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bag_matches_the_documented_check_value() {
        let mut r = ParkMiller::new(1742887628);
        let letters: String = (0..3)
            .flat_map(|_| r.bag())
            .map(|p| b"ZLOSIJT"[p as usize] as char)
            .collect();
        assert_eq!(letters, "ZLIOJTSITJLOZSSJTOLIZ");
    }
}
