//! What a 7-bag randomizer says of the pieces after a queue: from the pieces it deals the
//! bag's boundaries follow, and with them the pieces left in the current bag (every seventh
//! piece, the one after the queue, is then certain). TETR.IO, Jstris and the Guideline games
//! deal 7-bags; a TBP front end may also name the randomizer and what is left in its bag.

use crate::piece::Shape;
use std::collections::VecDeque;

/// Shapes as a bit set, bit `Shape::index`.
pub type ShapeSet = u8;
pub const ALL_SHAPES: ShapeSet = 0x7f;

/// What a 7-bag randomizer says of the piece after the queue. A bag boundary falls before
/// every index `i ≡ phase (mod 7)` of the pieces seen since `start`; each phase stays a
/// candidate while every bag it cuts holds distinct pieces. When every candidate puts six
/// pieces of one bag at the end of the queue, the seventh is certain.
#[derive(Clone, Debug)]
pub struct SevenBag {
    /// The last six pieces seen (older ones can no longer share a bag with a new one).
    recent: VecDeque<Shape>,
    /// Pieces seen, the ones `start` said were drawn before its queue included.
    count: usize,
    /// Candidate phases, bit p for phase p.
    phases: u8,
}

impl SevenBag {
    /// The tracker after `queue`, with `bag_state` (the pieces left in the bag after the queue,
    /// when the front end says) fixing the phase.
    pub fn new(queue: &[Shape], bag_state: Option<ShapeSet>) -> SevenBag {
        let mut bag = SevenBag {
            recent: VecDeque::with_capacity(7),
            count: 0,
            phases: ALL_SHAPES,
        };
        if let Some(left) = bag_state.filter(|&s| s != 0) {
            // The bag at the queue's end has drawn 7 − |left| pieces. Those not in the queue
            // were drawn before it: count them first, so a boundary falls where phase 0 is.
            let drawn = 7 - left.count_ones() as usize;
            let before = drawn.saturating_sub(queue.len());
            let in_queue: ShapeSet = queue
                .iter()
                .rev()
                .take(drawn)
                .fold(0, |s, p| s | 1 << p.index());
            let earlier = ALL_SHAPES & !left & !in_queue;
            for shape in Shape::ALL
                .into_iter()
                .filter(|p| earlier & 1 << p.index() != 0)
                .take(before)
            {
                bag.push(shape);
            }
            let total = before + queue.len();
            bag.phases = 1 << ((total + 7 - drawn % 7) % 7);
            // A piece left in the bag cannot be one the bag has dealt at the queue's end.
            if left & in_queue != 0 {
                bag.phases = 0;
            }
        }
        for &p in queue {
            bag.push(p);
        }
        bag
    }

    /// A new piece at the end of the queue.
    pub fn push(&mut self, piece: Shape) {
        let i = self.count;
        for p in 0..7 {
            if self.phases & 1 << p == 0 {
                continue;
            }
            // The bag holding piece i began at most (i − p) mod 7 pieces ago.
            let since = (i + 7 - p) % 7;
            let clash = self.recent.iter().rev().take(since).any(|&q| q == piece);
            if clash {
                self.phases &= !(1 << p);
            }
        }
        if self.recent.len() == 6 {
            self.recent.pop_front();
        }
        self.recent.push_back(piece);
        self.count += 1;
    }

    /// Whether some phase still explains every piece seen.
    pub fn consistent(&self) -> bool {
        self.phases != 0
    }

    /// The pieces left in the bag the last piece seen was drawn from (empty when that piece
    /// ended its bag), once the phase is known.
    pub fn left(&self) -> Option<ShapeSet> {
        if self.phases.count_ones() != 1 {
            return None;
        }
        let phase = self.phases.trailing_zeros() as usize;
        // pieces seen since the current bag began
        let drawn = (self.count + 7 - phase) % 7;
        let seen: ShapeSet = self
            .recent
            .iter()
            .rev()
            .take(drawn)
            .fold(0, |s, p| s | 1 << p.index());
        Some(ALL_SHAPES & !seen)
    }

    /// The piece after the queue, when the bag leaves only one.
    pub fn next(&self) -> Option<Shape> {
        let n = self.count;
        if self.phases == 0 || n < 6 || self.phases & 1 << ((n - 6) % 7) == 0 {
            return None;
        }
        // Every candidate must put a boundary six pieces back: one candidate left.
        if self.phases.count_ones() != 1 {
            return None;
        }
        let seen: ShapeSet = self.recent.iter().fold(0, |s, p| s | 1 << p.index());
        let left = ALL_SHAPES & !seen;
        (left.count_ones() == 1).then(|| Shape::from_index(left.trailing_zeros() as usize))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `n` pieces of 7-bags shuffled by a seeded generator.
    fn bag7(seed: u64, n: usize) -> Vec<Shape> {
        use rand::seq::SliceRandom;
        use rand::SeedableRng;
        let mut rng = rand_pcg::Pcg32::seed_from_u64(seed);
        let mut out = Vec::with_capacity(n + 7);
        while out.len() < n {
            let mut bag = Shape::ALL;
            bag.shuffle(&mut rng);
            out.extend(bag);
        }
        out.truncate(n);
        out
    }

    #[test]
    fn the_bag_left_is_what_the_next_pieces_draw_from() {
        for seed in 1..20 {
            let seq = bag7(seed, 80);
            let mut bag = SevenBag::new(&seq[..3], None);
            for i in 3..seq.len() - 7 {
                if let Some(left) = bag.left() {
                    // the next |left| pieces are exactly the left set
                    let n = left.count_ones() as usize;
                    let next: ShapeSet = seq[i..i + n].iter().fold(0, |s, p| s | 1 << p.index());
                    assert_eq!(next, left, "seed {seed}, piece {i}");
                    assert!(n >= 1 || i % 7 == 0);
                }
                bag.push(seq[i]);
            }
            assert!(bag.left().is_some(), "seed {seed}: the phase is found");
        }
    }

    #[test]
    fn the_bag_names_the_last_piece_of_a_bag_and_is_never_wrong() {
        for seed in 1..20 {
            let seq = bag7(seed, 120);
            for skip in [0, 3] {
                let mut bag = SevenBag::new(&seq[skip..skip + 6], None);
                let mut named = 0;
                for (i, &piece) in seq.iter().enumerate().skip(skip + 6) {
                    if let Some(next) = bag.next() {
                        assert_eq!(next, piece, "seed {seed}, piece {i}");
                        named += 1;
                    }
                    bag.push(piece);
                    assert!(bag.consistent());
                }
                // Once the phase is known, every seventh piece is named.
                assert!(named >= 14, "seed {seed} skip {skip}: {named}");
            }
        }
    }

    #[test]
    fn a_bag_state_fixes_the_phase_at_once() {
        let seq = bag7(5, 30);
        // Queue: pieces 2..8 (the bag of 0..7 has drawn 2..7 in the queue, 0 and 1 before it);
        // after it the second bag has drawn piece 7 only.
        let queue = &seq[2..8];
        let left: ShapeSet = ALL_SHAPES & !(1 << seq[7].index());
        assert_eq!(SevenBag::new(queue, Some(left)).left(), Some(left));
        let bag = SevenBag::new(queue, Some(left));
        assert_eq!(bag.phases.count_ones(), 1);
        assert_eq!(bag.next(), None);
        // Queue 1..7: the first bag's last piece (6) is left and named.
        let bag = SevenBag::new(&seq[1..6], Some(1 << seq[6].index()));
        assert_eq!(bag.next(), Some(seq[6]));
        // A sequence no bag deals is noticed.
        let mut bag = SevenBag::new(&[Shape::T, Shape::T], None);
        for _ in 0..7 {
            bag.push(Shape::T);
        }
        assert!(!bag.consistent());
    }

    #[test]
    fn a_bag_state_holding_a_piece_its_bag_dealt_fits_no_bag() {
        use Shape::*;
        // After T I the bag has drawn 5 pieces (O and S left): none may be left and dealt.
        assert!(SevenBag::new(&[T, I], Some(1 << O.index() | 1 << S.index())).consistent());
        assert!(!SevenBag::new(&[T, I], Some(1 << T.index())).consistent());
        assert!(!SevenBag::new(&[T, I, T], Some(1 << O.index() | 1 << S.index())).consistent());
        // Six of one shape fit no bag at all.
        assert!(!SevenBag::new(&[T; 6], None).consistent());
    }
}
